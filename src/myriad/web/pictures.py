"""Which drawn picture a chess-family piece gets (the drawings are web/static/pieces.js).

A picture is named ``<set>-<role>``.  The role comes from the kind itself, never from the
game id: a royal kind is the king; otherwise its movement decides (the rules compiled from
its Betza: ``Q`` queen, ``R`` rook, ``B`` bishop, ``N`` knight, ``F`` ferz, ``A`` alfil,
``FfW`` khon, a forward move-only step with diagonal captures a pawn), and a kind whose
movement is none of these is looked up by name.  The set is the game's: a game with a
khon-like kind (``FfW``: makruk's khon, sittuyin's elephant) is drawn with the Thai set, one
with an alfil (``A``) or a ferz and no queen with the medieval shatranj set, any other with
the Staunton set.  A kind with no role (a fairy piece of a user's variant file, a fog
marker) gets None and keeps its letter or glyph.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from myriad.core.game import Game
from myriad.core.mechanics.movement import Leap, Slide
from myriad.core.pieces import PieceKind

ORTHOGONAL = frozenset({"n", "s", "e", "w"})
DIAGONAL = frozenset({"ne", "nw", "se", "sw"})
KNIGHT_PATHS = frozenset({("n", "ne"), ("n", "nw"), ("s", "se"), ("s", "sw"),
                          ("e", "ne"), ("e", "se"), ("w", "nw"), ("w", "sw")})
ALFIL_PATHS = frozenset({("ne", "ne"), ("nw", "nw"), ("se", "se"), ("sw", "sw")})

#: Roles by the names players give the pieces, for kinds whose movement says nothing known.
ROLE_BY_NAME = {
    "king": "king", "shah": "king", "khun": "king",
    "queen": "queen", "rook": "rook", "chariot": "rook", "rukh": "rook", "rua": "rook",
    "bishop": "bishop", "knight": "knight", "horse": "knight", "faras": "knight", "ma": "knight",
    "pawn": "pawn", "baidaq": "pawn", "bia": "pawn",
    "ferz": "ferz", "met": "ferz", "alfil": "alfil", "khon": "khon",
}


def movement_role(rules: Sequence[Any]) -> str | None:
    """The role of a kind from its compiled movement rules, or None."""
    slides = [r for r in rules if isinstance(r, Slide) and r.zone is None and r.within is None]
    leaps = [r for r in rules if isinstance(r, Leap)]
    if len(slides) + len(leaps) != len(rules):
        return None  # other movement (hops, lame leaps, double steps) beyond plain slides/leaps
    if any(r.mode == 1 and set(r.directions) == {"n"} for r in slides) and not leaps:
        return "pawn"
    reach = {(d, r.limit) for r in slides if r.mode == 0 for d in r.directions}
    dirs = {d for d, _ in reach}
    long = {d for d, limit in reach if limit is None}
    short = {d for d, limit in reach if limit == 1}
    paths = {p for r in leaps if r.mode == 0 for p in r.paths}
    if len(reach) != len(dirs) or any(r.mode != 0 for r in slides + leaps):
        return None
    if paths:
        if reach:
            return None
        return "knight" if paths == KNIGHT_PATHS else "alfil" if paths == ALFIL_PATHS else None
    if not short:
        return {frozenset(ORTHOGONAL | DIAGONAL): "queen", ORTHOGONAL: "rook", DIAGONAL: "bishop"}.get(frozenset(long))
    if long:
        return None
    return {DIAGONAL: "ferz", frozenset(DIAGONAL | {"n"}): "khon"}.get(frozenset(short))


def kind_role(game: Game, kind: PieceKind) -> str | None:
    """The role of ``kind`` in ``game`` (king, queen, ... khon), or None."""
    if kind.royal:
        return "king"
    movement = getattr(getattr(game, "piece_rules", None), "movement", {})
    role = movement_role(movement[kind.name]) if kind.name in movement else None
    return role or ROLE_BY_NAME.get(kind.name.removeprefix("promoted-"))


@lru_cache(maxsize=256)
def piece_set(game: Game) -> str:
    """The set a chess-family game is drawn with: ``thai``, ``shatranj`` or ``staunton``."""
    roles = {kind_role(game, kind) for kind in game.pieces.kinds if not written_kind(kind)}
    if "khon" in roles:
        return "thai"
    if "alfil" in roles or ("ferz" in roles and "queen" not in roles):
        return "shatranj"
    return "staunton"


def written_kind(kind: PieceKind) -> bool:
    """Whether the kind is written as characters of a script (xiangqi's 帥): those keep
    their characters, as their players read them."""
    return any(unicodedata.category(c).startswith("L") and not c.isascii() for g in kind.glyphs for c in g)


def picture_name(game: Game, kind: PieceKind) -> str | None:
    """The name of the drawing of ``kind`` (``"thai-khon"``), or None to keep its letter,
    glyph or characters."""
    if written_kind(kind):
        return None
    role = kind_role(game, kind)
    return f"{piece_set(game)}-{role}" if role else None
