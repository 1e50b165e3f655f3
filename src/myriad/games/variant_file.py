"""Chess-family games declared in variant files (TOML), read strictly.

A file holds one or more variants, each a table named by the game's id::

    [knightmare]
    inherits = "chess"                 # the parent: in this file or a shipped variant
    name = "Knightmare"
    remove = ["bishop"]                # parent's pieces this variant does without
    start = "rnnqknnr/pppppppp/8/8/8/8/PPPPPPPP/RNNQKNNR w KQkq - 0 1"

    [knightmare.pieces.camel]
    letter = "L"
    betza = "C"                        # Betza notation, see myriad.core.mechanics.betza
    value = 250

``load_variants(path_or_text)`` returns the games of a file; every mistake (TOML syntax, an
unknown or misspelt key, a value of the wrong type, a bad Betza string, an unknown piece or
zone, a square off the board, a setup that does not read) is a ``GameDefinitionError``
naming the file, the line, the field and what was expected, and nothing of a broken file
is returned.  ``register(game)`` adds a game to the registry of the running process.

Why TOML: the standard library reads it (``tomllib``, no new dependency), it has tables
and arrays for pieces, zones and promotions, comments, and no code.  The schema (the
``SCHEMA`` tables below) is the one place that says which keys exist: the loader, its
error messages and the README's field list all follow it.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any, cast

from myriad.core.errors import GameDefinitionError, MyriadError
from myriad.core.mechanics.betza import keeps_colour, parse_betza
from myriad.core.mechanics.honour import HonourCounting
from myriad.core.mechanics.movement import Castling, Hop, Promotion, Rule, Slide
from myriad.core.piece_eval import EvalTerms
from myriad.core.piece_game import CASTLING_LETTERS, PieceRules
from myriad.core.pieces import PieceKind
from myriad.core.topology import Topology, file_letter, square_board
from myriad.games.chess import NOTATIONS, ChessGame

#: The variant files shipped in the package (``myriad/games/variants``), read in this order.
SHIPPED = ("chess.toml", "shatranj.toml", "makruk.toml", "xiangqi.toml", "janggi.toml", "shogi.toml",
           "crazyhouse.toml", "sittuyin.toml", "dark.toml")
RESULTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}
#: A piece's letter: upper case, maybe marked as promoted (``+P``, ``Q~``).
_LETTER = re.compile(r"\+?[A-Z]|[A-Z]~")
#: A token of a FEN board: a run of empty squares or a piece's letter with its marks.
_TOKEN = re.compile(r"\d+|\+?[A-Za-z]~?|.")


@dataclass(frozen=True)
class Field:
    """One key of the schema: its type (``str``, ``int``, ``bool``, ``list`` of ``item``,
    ``dict`` of ``item`` or a sub-``schema``) and what it means, for the error messages."""

    kind: type
    what: str
    item: type | None = None
    schema: Mapping[str, Field] | None = None


PIECE = {
    "letter": Field(str, "the piece's letter in positions (one upper-case ASCII letter, which a promoted piece "
                         "may mark: +P as shogi writes it, Q~ as crazyhouse does)"),
    "betza": Field(str, "its movement in Betza notation (e.g. \"N\", \"mRcpR\", \"fmWfceFifmnD\")"),
    "value": Field(int, "its value for the bots, in centipawns"),
    "royal": Field(bool, "whether it is royal (check, checkmate)"),
    "pawn": Field(bool, "whether its moves reset the move-rule count and are written without a letter"),
    "glyphs": Field(list, "a picture character per player", str),
    "squares": Field(list, "a bonus per square for the bots, rank by rank from the top as White sees it", int),
    "endgame_value": Field(int, "its value for the bots in the endgame (tapered evaluation; default: its value)"),
    "endgame_squares": Field(list, "its square bonus in the endgame, written as squares (default: squares)", int),
    "phase": Field(int, "its weight in the game phase of the tapered evaluation (chess: queen 4, rook 2, "
                        "bishop and knight 1; the start position is the full middle game)"),
    "aliases": Field(list, "more letters read for it in positions, never written (e.g. H for a horse "
                           "written N)", str),
    "confined": Field(str, "a zone its moves never leave (e.g. a palace), White's squares, mirrored for Black"),
    "zone_moves": Field(dict, "more moves, by zone: steps and slides (Betza) made only from squares of that zone "
                              "(e.g. { across = \"sW\" } for a soldier across the river)", str),
    "captured_as": Field(str, "in a drop game, the kind a captured piece of this kind becomes in the captor's hand "
                              "(e.g. pawn for a promoted pawn; default: its own kind)"),
    "drop_zone": Field(str, "in a drop game, the zone where it may be dropped (default: anywhere it has a move)"),
    "drop_one_per_file": Field(bool, "whether it may not be dropped on a file holding an own piece of its kind "
                                     "(shogi's nifu)"),
    "drop_mate": Field(bool, "whether its drop may checkmate (default true; false: shogi's uchifuzume)"),
    "hand_value": Field(int, "its value for the bots while in hand (default: its value)"),
    "inside_moves": Field(dict, "more moves, by zone, that start, pass and end on squares of that zone only: steps, "
                                "slides and hops (Betza), a slide stopping at the zone's edge (e.g. "
                                "{ palace_lines = \"B\" } for a chariot along janggi's palace diagonals, a zone "
                                "of the points on them)", str),
    "hop_not_over": Field(list, "kinds (either side's) its hops (p) may not jump over: no move over such a "
                                "screen (e.g. [\"cannon\"] for the janggi cannon)", str),
    "hop_not_taking": Field(list, "kinds (either side's) its hops (p) may not capture (e.g. [\"cannon\"])", str),
    "points": Field(float, "its points when a game is decided by counting (option counting), e.g. 13 for "
                           "janggi's chariot; 0 if not given"),
}
PROMOTION = {
    "piece": Field(str, "the kind that promotes"),
    "zone": Field(str, "the zone where it promotes"),
    "to": Field(list, "the kinds it may become", str),
    "mandatory": Field(bool, "whether it must promote there (else it may stay as it is)"),
    "limits": Field(dict, "the most pieces of a kind a promotion may bring on the board", int),
    "leaving": Field(bool, "whether a move out of the zone promotes too (shogi: into, within or out of it)"),
    "in_place": Field(bool, "whether promotion is a move of its own (sittuyin): the piece, standing in the zone, "
                            "becomes the new kind where it stands or on an empty square the new kind moves to"),
    "may_attack": Field(bool, "with in_place: whether the promoted piece may attack an enemy piece at once, check "
                               "included (default true)"),
    "last_anywhere": Field(bool, "with in_place: whether a side's last piece of the kind may promote anywhere"),
}
CASTLING = {
    "right": Field(str, "its letter in the castling field of positions: K or Q (Black's is mirrored)"),
    "king": Field(list, "the king's move as [from, to], White's squares", str),
    "rook": Field(list, "the rook's move as [from, to], White's squares", str),
}
HONOUR_PIECES = {
    "piece": Field(str, "a kind of the strong side"),
    "count": Field(int, "how many of it the strong side has at least (default 1)"),
    "moves": Field(int, "the moves the count then allows"),
}
HONOUR = {
    "pawns": Field(list, "the kinds whose presence on the board stops any count (makruk's unpromoted pawns)", str),
    "board": Field(int, "board's honour: once no pawn is left, the side to move after the next move counts this "
                        "many moves (each side's), and the game is drawn when the count passes them"),
    "pieces": Field(list, "pieces' honour: when a side is left with its king alone, it counts anew from the number "
                          "of pieces on the board, to the moves of the first rule the strong side's pieces meet "
                          "(else board's)", dict, HONOUR_PIECES),
}
EVALUATION = {
    "passed_pawn": Field(list, "a bonus per rank (the own first rank first) for a passed pawn (kinds marked pawn: no "
                               "enemy pawn ahead on its file or the neighbouring ones), middle game", int),
    "passed_pawn_endgame": Field(list, "the same in the endgame", int),
    "king_shield": Field(list, "the bonus per own pawn one and two ranks ahead of the royal piece, on its file or a "
                               "neighbouring one (middle game): two values", int),
    "mop_up": Field(list, "when one side has its royal piece alone: the other's bonus per step of that piece "
                          "from the centre and per step the royal pieces stand closer (two values)", int),
}
OPTIONS = {
    "checkmate": Field(str, "the result of the side to move when checkmated: loss, draw or win"),
    "stalemate": Field(str, "the result of the side to move with no legal move, not in check: loss, draw or win"),
    "bare_king_loses": Field(bool, "whether a side left with its king alone loses (unless it bares the other "
                                   "king at once)"),
    "move_rule": Field(int, "draw after this many moves by each side with no capture and no pawn move (0: none)"),
    "repetition": Field(int, "draw when a position occurs this many times (0: never)"),
    "first_rank": Field(int, "the number of the first rank in move coordinates: 1 (as UCI) or 0 (as xiangqi's "
                             "ICCS, h2e2)"),
    "no_facing_kings": Field(bool, "whether the two royal pieces may not stand on one file with nothing between "
                                   "(xiangqi's flying general): no move may leave them so"),
    "insufficient_material": Field(list, "kinds that cannot mate alone: with only these, one in all or "
                                         "colour-bound ones on one colour, the game is drawn", str),
    "drops": Field(bool, "whether captured pieces go to the captor's hand, to be dropped on an empty square "
                         "as a move (crazyhouse, shogi)"),
    "captures_to_hand": Field(bool, "in a drop game, whether captured pieces go to the captor's hand (default "
                                    "true); false: only the pieces a setup puts in the hands are dropped"),
    "must_drop": Field(bool, "in a drop game, whether a player must drop while holding pieces (a set-up phase)"),
    "perpetual_check": Field(str, "the result of a repetition for the side that gave check with every move since "
                                  "the position first occurred: loss (shogi) or draw (the default)"),
    "position_format": Field(str, "fen (the default; a drop game's hands in brackets after the board) or sfen "
                                  "(board, side b/w with the first player b, hand, move number)"),
    "notation": Field(str, "how moves are written: san (SAN, UCI aliases; the default), usi (7g7f, P*5e, 8h2b+) "
                           "or wxf (xiangqi's WXF, C2.5, with ICCS coordinates h2e2 as aliases; positions also "
                           "read with r for Red to move)"),
    "pass": Field(bool, "whether the side to move may pass instead of moving (not when in check, but see "
                        "facing_kings_end); a pass is written pass (SAN) or as the king's square twice (UCI, "
                        "e2e2, as Fairy-Stockfish); two passes in a row end the game undecided (a draw, or by "
                        "counting); positions after a pass carry the passes in a row as a 7th field"),
    "facing_kings_end": Field(bool, "janggi's bikjang: the royal pieces may come to face each other on an open "
                                    "file, and the side to move must then part them (any move after which they "
                                    "no longer face) or pass, even in check; a pass there ends the game undecided "
                                    "(needs pass)"),
    "counting": Field(bool, "whether a game ending undecided (two passes, bikjang, the move rule, repetition, "
                            "max_moves) is won by the side with more points (pieces' points, plus komi for "
                            "Black) instead of drawn"),
    "komi": Field(float, "points added to Black's count under counting (janggi: 1.5 for Han)"),
    "max_moves": Field(int, "the game ends undecided once each side has made this many moves (0: no limit)"),
    "fog": Field(bool, "fog of war (dark chess): a player sees only its pieces and the squares its moves reach "
                       "(a pawn also the square ahead and its forward diagonals); no check: a side may move into "
                       "it, castle through it, and capturing the king wins; positions carry the captured pieces "
                       "in brackets after the board; not with drops"),
    "honour_counting": Field(dict, "makruk's counting rules, run as Fairy-Stockfish runs them (a count starts by "
                                   "itself and runs to the end; positions write its limit in the en-passant field "
                                   "and the count in the half-move field); replaces move_rule", None, HONOUR),
}
VARIANT = {
    "inherits": Field(str, "the id of the parent variant"),
    "name": Field(str, "the game's name"),
    "players": Field(list, "the two players' names, the first to move first (default white and black; "
                           "janggi's blue and red; a colour's name colours its pieces on the web page)", str),
    "rules": Field(str, "the rules in a few sentences, for players"),
    "files": Field(int, "the board's width (1 to 26)"),
    "ranks": Field(int, "the board's height (1 to 99)"),
    "start": Field(str, "the start position (FEN)"),
    "setups": Field(dict, "more named start positions (FEN)", str),
    "zones": Field(dict, "named zones: White's squares (e4, *8 for a rank, a* for a file), mirrored for Black",
                   list),
    "pieces": Field(dict, "the piece kinds, by name", dict, PIECE),
    "remove": Field(list, "the parent's piece kinds this variant does without", str),
    "promotions": Field(list, "promotion rules", dict, PROMOTION),
    "castling": Field(list, "castling moves", dict, CASTLING),
    "options": Field(dict, "rule options", None, OPTIONS),
    "evaluation": Field(dict, "evaluation terms for the bots beyond values and squares", None, EVALUATION),
    "board": Field(str, "how the board is drawn: \"squares\" (the default) or \"intersections\" (pieces on the points)"),
}
REQUIRED = ("name", "files", "ranks", "start", "pieces")


class Source:
    """A variant file's text with the line of every key, for error messages."""

    HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
    KEY = re.compile(r"^\s*([A-Za-z0-9_\-.\"' ]+?)\s*=")

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.lines: dict[tuple[str | int, ...], int] = {}
        prefix: tuple[str | int, ...] = ()
        counts: dict[tuple[str, ...], int] = {}
        in_string = False
        for number, line in enumerate(text.splitlines(), start=1):
            if in_string:
                in_string = line.count('"""') % 2 == 0
                continue
            header = self.HEADER.match(line)
            if header:
                parts = self._parts(header.group(2))
                if header.group(1) == "[[":
                    index = counts.get(parts, 0)
                    counts[parts] = index + 1
                    prefix = parts + (index,)
                else:
                    prefix = parts
                self.lines.setdefault(prefix, number)
                continue
            key = self.KEY.match(line)
            if key:
                self.lines.setdefault(prefix + self._parts(key.group(1)), number)
                in_string = line.count('"""') % 2 == 1

    @staticmethod
    def _parts(dotted: str) -> tuple[str, ...]:
        return tuple(p.strip().strip("\"'") for p in dotted.split("."))

    def line(self, path: Sequence[str | int]) -> int:
        """The line of the key at ``path``, or of the nearest table that holds it (0: none)."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return 0

    def error(self, path: Sequence[str | int], message: str) -> GameDefinitionError:
        """An error naming this file, the line of ``path`` and the field."""
        field = ".".join(str(p) if isinstance(p, str) else f"[{p}]" for p in path).replace(".[", "[")
        return GameDefinitionError(f"{self.name}:{self.line(path)}: {field}: {message}")


@dataclass
class Declared:
    """A variant as its file declares it (before inheritance), with its source."""

    id: str
    table: dict[str, Any]
    source: Source


# -- reading -------------------------------------------------------------------------------------


def load_variants(path_or_text: str | Path, *, name: str | None = None) -> list[ChessGame]:
    """The games of a variant file: a path (``Path``, or a string naming an existing file
    ending in ``.toml``) or the TOML text itself (then ``name`` names it in errors).
    Raises ``GameDefinitionError`` (file, line, field, what was expected) for anything
    wrong; a broken file yields no game at all."""
    if isinstance(path_or_text, Path) or (path_or_text.endswith(".toml") and "\n" not in path_or_text):
        path = Path(path_or_text)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise GameDefinitionError(f"{path}: cannot read the variant file: {err}") from None
        source_name = str(path)
    else:
        text, source_name = path_or_text, name or "<variants>"
    declared = _declared(source_name, text)
    return [_build(d, _Scope({x.id: x for x in declared})) for d in declared]


def _declared(name: str, text: str) -> list[Declared]:
    """The variants of one file, each checked against the schema."""
    source = Source(name, text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        found = re.search(r"line (\d+)", str(err))
        raise GameDefinitionError(f"{name}:{found.group(1) if found else 0}: TOML syntax: {err}") from None
    if not data:
        raise GameDefinitionError(f"{name}:1: the file declares no variant (expected a table such as [myvariant])")
    out = []
    for vid, table in data.items():
        if not isinstance(table, dict):
            raise source.error((vid,), f"expected a table of the variant {vid!r} ([{vid}]), "
                                       f"got a {type(table).__name__}")
        if not re.fullmatch(r"[a-z][a-z0-9_\-]{0,39}", vid):
            raise source.error((vid,), "a variant id is 1 to 40 lower-case letters, digits, - or _, "
                                       "starting with a letter")
        _check_schema(source, (vid,), table, VARIANT)
        if "inherits" not in table:
            for key in REQUIRED:
                if key not in table:
                    raise source.error((vid,), f"missing {key!r} ({VARIANT[key].what}); "
                                               "or name a parent with 'inherits'")
        out.append(Declared(vid, table, source))
    return out


def _check_schema(source: Source, path: tuple[str | int, ...], table: Mapping[str, Any],
                  schema: Mapping[str, Field]) -> None:
    for key, value in table.items():
        here = path + (key,)
        field = schema.get(key)
        if field is None:
            raise source.error(here, f"unknown key {key!r}; expected one of: {', '.join(schema)}")
        _check_value(source, here, value, field)


def _type_name(kind: type) -> str:
    return {str: "a string", int: "an integer", bool: "true or false", list: "an array",
            dict: "a table", float: "a number"}[kind]


def _is_kind(value: Any, kind: type) -> bool:
    """Whether ``value`` is of schema type ``kind`` (a float may be written as an integer;
    true and false are no numbers)."""
    if kind in (int, float) and isinstance(value, bool):
        return False
    return isinstance(value, (int, float) if kind is float else kind)


def _check_value(source: Source, path: tuple[str | int, ...], value: Any, field: Field) -> None:
    if not _is_kind(value, field.kind):
        raise source.error(path, f"expected {_type_name(field.kind)} ({field.what}), got {value!r}")
    if field.kind is dict and field.schema is not None and field.item is None:
        _check_schema(source, path, value, field.schema)
        return
    items = list(value.items()) if isinstance(value, dict) else list(enumerate(value)) if isinstance(
        value, list) else []
    for key, item in items:
        if field.item is None:
            continue
        here = path + (key,)
        if not isinstance(item, field.item) or (field.item is int and isinstance(item, bool)):
            raise source.error(here, f"expected {_type_name(field.item)} in {path[-1]} ({field.what}), got {item!r}")
        if field.schema is not None:
            _check_schema(source, here, cast(Mapping[str, Any], item), field.schema)


# -- inheritance ---------------------------------------------------------------------------------


class _Scope:
    """Where parents are found: a variant of a user's file inherits from another of the same
    file, else from a shipped one; a shipped variant only from shipped ones."""

    def __init__(self, local: Mapping[str, Declared]) -> None:
        self.local = local

    def parent(self, decl: Declared, parent_id: str) -> Declared | None:
        shipped = {d.id: d for d in shipped_declarations()}
        if self.local.get(decl.id) is decl and parent_id in self.local:
            return self.local[parent_id]
        return shipped.get(parent_id)

    def known(self) -> list[str]:
        return sorted(set(self.local) | {d.id for d in shipped_declarations()})


def _resolve(decl: Declared, known: _Scope, seen: tuple[Declared, ...] = ()
             ) -> tuple[dict[str, Any], list[Declared]]:
    """The merged table of ``decl`` and the chain of declarations it comes from (itself
    first): tables merge key by key, arrays and values replace, ``remove`` drops pieces."""
    parent_id = decl.table.get("inherits")
    if parent_id is None:
        return dict(decl.table), [decl]
    parent = known.parent(decl, parent_id)
    if parent is None:
        raise decl.source.error((decl.id, "inherits"),
                                f"unknown parent variant {parent_id!r} (known: {', '.join(known.known())})")
    if any(parent is d for d in (*seen, decl)):
        path = " -> ".join(d.id for d in (*seen, decl, parent))
        raise decl.source.error((decl.id, "inherits"), f"inheritance loops: {path}")
    base, chain = _resolve(parent, known, (*seen, decl))
    merged = _merge(base, {k: v for k, v in decl.table.items() if k not in ("inherits", "remove")})
    pieces = dict(merged.get("pieces", {}))
    for i, name in enumerate(decl.table.get("remove", ())):
        if name not in pieces:
            raise decl.source.error((decl.id, "remove", i),
                                    f"the parent has no piece {name!r} to remove (its pieces: {', '.join(pieces)})")
        del pieces[name]
    merged["pieces"] = pieces
    return merged, [decl, *chain]


def _merge(base: Mapping[str, Any], diff: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in diff.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


# -- building a game -----------------------------------------------------------------------------


class _Where:
    """Errors about a merged variant name the first declaration of its chain that has the
    field (the variant itself, else the parent it comes from)."""

    def __init__(self, vid: str, chain: list[Declared]) -> None:
        self.vid, self.chain = vid, chain

    def error(self, path: Sequence[str | int], message: str) -> GameDefinitionError:
        for decl in self.chain:
            if decl.source.line((decl.id, *path)) and _has(decl.table, path[:1]):
                return decl.source.error((decl.id, *path), message)
        decl = self.chain[0]
        return decl.source.error((decl.id, *path), message)


def _has(table: Mapping[str, Any], path: Sequence[str | int]) -> bool:
    return all(isinstance(table, dict) and p in table for p in path)


def _build(decl: Declared, known: _Scope) -> ChessGame:
    spec, chain = _resolve(decl, known)
    where = _Where(decl.id, chain)
    for key in REQUIRED:
        if key not in spec:
            raise where.error((), f"missing {key!r} ({VARIANT[key].what})")
    files, ranks = spec["files"], spec["ranks"]
    if not 1 <= files <= 26:
        raise where.error(("files",), f"expected 1 to 26 files, got {files}")
    if not 1 <= ranks <= 99:
        raise where.error(("ranks",), f"expected 1 to 99 ranks, got {ranks}")
    board = square_board(files, ranks)
    pieces: dict[str, dict[str, Any]] = dict(spec["pieces"])
    if not pieces:
        raise where.error(("pieces",), "a variant needs at least one piece kind")
    setups = {"start": spec["start"], **spec.get("setups", {})}
    zones: dict[str, tuple[frozenset[int], ...]] = {name: _zone(where, ("zones", name), board, squares) for name, squares in spec.get("zones", {}).items()}
    kinds: list[PieceKind] = []
    movement: dict[str, tuple[Any, ...]] = {}
    letters: dict[str, str] = {}
    aliases: dict[str, str] = {}
    for name, piece in pieces.items():
        for key in ("letter", "betza"):
            if key not in piece:
                raise where.error(("pieces", name), f"missing {key!r} ({PIECE[key].what})")
        letter = piece["letter"]
        if not _LETTER.fullmatch(letter):
            raise where.error(("pieces", name, "letter"), f"expected one upper-case ASCII letter, maybe marked "
                                                          f"+P or Q~, got {letter!r}")
        if letter in letters:
            raise where.error(("pieces", name, "letter"), f"letter {letter!r} is already the {letters[letter]}'s")
        letters[letter] = name
        for i, alias in enumerate(piece.get("aliases", ())):
            if not (len(alias) == 1 and alias.isascii() and alias.isalpha() and alias.isupper()):
                raise where.error(("pieces", name, "aliases", i), f"expected one upper-case ASCII letter, "
                                                                  f"got {alias!r}")
            if alias in aliases or any(p.get("letter") == alias for p in pieces.values()):
                raise where.error(("pieces", name, "aliases", i), f"letter {alias!r} is already taken")
            aliases[alias] = name
        try:
            movement[name] = parse_betza(piece["betza"], initial_zone=f"initial-{name}")
        except MyriadError as err:
            raise where.error(("pieces", name, "betza"), str(err)) from None
        for key, field, hops in (("zone_moves", "zone", False), ("inside_moves", "within", True)):
            for zone_name, betza in piece.get(key, {}).items():
                extra = _zone_rules(where, ("pieces", name, key, zone_name), zones, betza, hops)
                movement[name] += tuple(replace(r, **{field: zone_name}) for r in extra)
        barred: dict[str, Any] = {}  # Hop fields: kinds it may not hop over or take
        for key in ("hop_not_over", "hop_not_taking"):
            for i, other in enumerate(piece.get(key, ())):
                if other not in pieces:
                    raise where.error(("pieces", name, key, i), f"no piece kind {other!r} "
                                                                f"(pieces: {', '.join(pieces)})")
            if piece.get(key):
                if not any(isinstance(r, Hop) for r in movement[name]):
                    raise where.error(("pieces", name, key), "the piece has no hop (p in its betza or "
                                                             "inside_moves) for this to restrict")
                barred[key[4:]] = tuple(piece[key])
        if barred:
            movement[name] = tuple(replace(r, **barred) if isinstance(r, Hop) else r for r in movement[name])
        for key in ("confined", "drop_zone"):
            if key in piece and piece[key] not in zones:
                raise where.error(("pieces", name, key), f"no zone {piece[key]!r} (zones: {', '.join(zones) or 'none'})")
        if "captured_as" in piece and piece["captured_as"] not in pieces:
            raise where.error(("pieces", name, "captured_as"), f"no piece kind {piece['captured_as']!r} "
                                                              f"(pieces: {', '.join(pieces)})")
        kinds.append(PieceKind(name, letter, piece.get("value", 100), royal=piece.get("royal", False),
                               glyphs=tuple(piece.get("glyphs", ()))))
        for key in ("squares", "endgame_squares"):
            squares = piece.get(key)
            if squares and len(squares) != board.size:
                if key not in decl.table.get("pieces", {}).get(name, {}):
                    piece = pieces[name] = {k: v for k, v in piece.items() if k != key}
                    continue  # a parent's table for another board size: not inherited
                raise where.error(("pieces", name, key), f"expected {board.size} values (one per square), "
                                                        f"got {len(squares)}")
    for setup_name, fen in setups.items():
        path = ("start",) if setup_name == "start" else ("setups", setup_name)
        _check_setup(where, path, fen, files, ranks, letters)
    for name in pieces:  # the start squares of each kind, where its 'i' moves begin
        zones[f"initial-{name}"] = _initial_squares(board, setups, pieces[name]["letter"])
    board = board.with_zones(**zones)
    promotions = tuple(_promotion(where, i, p, pieces, zones) for i, p in enumerate(spec.get("promotions", ())))
    castlings = tuple(c for i, spec_c in enumerate(spec.get("castling", ()))
                      for c in _castling(where, i, spec_c, board, ranks))
    options = spec.get("options", {})
    outcome = {}
    for key in ("checkmate", "stalemate"):
        if key in options:
            if options[key] not in RESULTS:
                raise where.error(("options", key), f"expected loss, draw or win, got {options[key]!r}")
            outcome[key + "d"] = RESULTS[options[key]]
    if options.get("first_rank", 1) not in (0, 1):
        raise where.error(("options", "first_rank"), f"expected 0 or 1, got {options['first_rank']}")
    for key in ("move_rule", "repetition"):
        if options.get(key, 0) < 0:
            raise where.error(("options", key), f"expected 0 or more, got {options[key]}")
    for key, allowed in (("perpetual_check", ("loss", "draw")), ("position_format", ("fen", "sfen")),
                         ("notation", NOTATIONS)):
        if key in options and options[key] not in allowed:
            raise where.error(("options", key), f"expected {' or '.join(allowed)}, got {options[key]!r}")
    drops = options.get("drops", False)
    for name, piece in pieces.items():
        for key in ("captured_as", "drop_zone", "drop_one_per_file", "drop_mate", "hand_value"):
            if key in piece and not drops:
                raise where.error(("pieces", name, key), "only a drop game (options.drops = true) has hands")
    if options.get("notation") == "wxf" and (files > 9 or ranks > 10):
        raise where.error(("options", "notation"), f"wxf numbers files 1 to 9 and ranks up to 9: it needs at most "
                                                   f"9 files and 10 ranks, not {files}x{ranks}")
    if options.get("max_moves", 0) < 0:
        raise where.error(("options", "max_moves"), f"expected 0 or more, got {options['max_moves']}")
    if options.get("facing_kings_end") and not options.get("pass"):
        raise where.error(("options", "facing_kings_end"), "needs pass = true (a pass is how a side declines "
                                                           "to part the kings)")
    if options.get("facing_kings_end") and options.get("no_facing_kings"):
        raise where.error(("options", "facing_kings_end"), "contradicts no_facing_kings = true (kings that may "
                                                           "never face cannot have to part)")
    if "komi" in decl.table.get("options", {}) and not options.get("counting"):
        raise where.error(("options", "komi"), "komi counts only under counting = true")
    points = {n: float(p["points"]) for n, p in pieces.items() if "points" in p}
    for name, value in points.items():
        if value < 0:
            raise where.error(("pieces", name, "points"), f"expected 0 or more, got {value:g}")
    players = spec.get("players", ["white", "black"])
    if len(players) != 2 or len(set(players)) != 2 or not all(re.fullmatch(r"[a-z][a-z0-9_\-]{0,19}", p)
                                                              for p in players):
        raise where.error(("players",), f"expected two different names in lower case (letters, digits, - or _, "
                                        f"at most 20), got {players!r}")
    if options.get("counting") and not any(points.values()):
        raise where.error(("options", "counting"), "counting needs points on some pieces (pieces.<name>.points)")
    honour = _honour(where, options["honour_counting"], pieces) if "honour_counting" in options else None
    if honour is not None and options.get("move_rule"):
        raise where.error(("options", "honour_counting"), "the count takes the place of the move rule: set "
                                                          "move_rule = 0")
    if options.get("fog") and drops:
        raise where.error(("options", "fog"), "fog of war counts captured pieces in the hands: not with drops")
    minors = options.get("insufficient_material", [])
    for i, name in enumerate(minors):
        if name not in pieces:
            raise where.error(("options", "insufficient_material", i), f"no piece kind {name!r} "
                                                                      f"(pieces: {', '.join(pieces)})")
    evaluation = dict(spec.get("evaluation", {}))
    for key, size in (("passed_pawn", ranks), ("passed_pawn_endgame", ranks), ("king_shield", 2), ("mop_up", 2)):
        if evaluation.get(key) and len(evaluation[key]) != size:
            if key not in decl.table.get("evaluation", {}) and size == ranks:
                del evaluation[key]  # a parent's table for another number of ranks: not inherited
                continue
            raise where.error(("evaluation", key), f"expected {size} values, got {len(evaluation[key])}")
    terms = EvalTerms(
        endgame_values={n: p["endgame_value"] for n, p in pieces.items() if "endgame_value" in p},
        endgame_squares={n: tuple(p["endgame_squares"]) for n, p in pieces.items() if p.get("endgame_squares")},
        phase={n: p["phase"] for n, p in pieces.items() if p.get("phase")},
        passed_pawn=tuple(evaluation.get("passed_pawn", ())),
        passed_pawn_endgame=tuple(evaluation.get("passed_pawn_endgame", ())),
        king_shield=tuple(evaluation.get("king_shield", ())), mop_up=tuple(evaluation.get("mop_up", ())))
    rules = PieceRules(
        movement=movement, evaluation=terms, promotions=promotions, castlings=castlings,
        checkmated=outcome.get("checkmated", 0.0), stalemated=outcome.get("stalemated", 0.5),
        bare_king_loses=options.get("bare_king_loses", False),
        move_limit=2 * options.get("move_rule", 0), repetitions=options.get("repetition", 0),
        minor_kinds=frozenset(minors),
        colour_bound_kinds=frozenset(n for n in minors if keeps_colour(movement[n])),
        pawn_kinds=frozenset(n for n, p in pieces.items() if p.get("pawn")),
        square_bonus={n: tuple(p["squares"]) for n, p in pieces.items() if p.get("squares")},
        confined={n: p["confined"] for n, p in pieces.items() if "confined" in p},
        royals_may_not_face=options.get("no_facing_kings", False), first_rank=options.get("first_rank", 1),
        letter_aliases=aliases, drops=drops,
        hand_kind={n: p["captured_as"] for n, p in pieces.items() if "captured_as" in p},
        drop_zones={n: p["drop_zone"] for n, p in pieces.items() if "drop_zone" in p},
        drop_one_per_file=frozenset(n for n, p in pieces.items() if p.get("drop_one_per_file")),
        no_drop_mate=frozenset(n for n, p in pieces.items() if not p.get("drop_mate", True)),
        hand_values={n: p["hand_value"] for n, p in pieces.items() if "hand_value" in p},
        perpetual_check_loses=options.get("perpetual_check") == "loss",
        captures_to_hand=options.get("captures_to_hand", True), must_drop=options.get("must_drop", False),
        sfen=options.get("position_format") == "sfen", may_pass=options.get("pass", False),
        facing_royals_end=options.get("facing_kings_end", False), counting=options.get("counting", False),
        counting_points=points, komi=float(options.get("komi", 0)), max_moves=options.get("max_moves", 0),
        honour=honour, fog=options.get("fog", False), royal_check=not options.get("fog", False))
    try:
        game = ChessGame(board, kinds, rules, setups, players)
        game.id = decl.id
        game.notation = options.get("notation", "san")
        for setup_name, fen in setups.items():
            game.parse_position(fen)
    except MyriadError as err:
        raise where.error(("start",), f"the variant does not hold together: {err}") from None
    game.name = spec["name"]
    game.player_names = tuple(players)
    game.family = "chess"
    game.rules = " ".join(spec.get("rules", "").split())
    if spec.get("board", "squares") not in ("squares", "intersections"):
        raise where.error(("board",), f"expected \"squares\" or \"intersections\", got {spec['board']!r}")
    game.board_style = spec.get("board", "")
    return game


def _honour(where: _Where, spec: Mapping[str, Any], pieces: Mapping[str, Any]) -> HonourCounting:
    """The counting rules of ``options.honour_counting``."""
    path: tuple[str | int, ...] = ("options", "honour_counting")
    for key in ("pawns", "board"):
        if key not in spec:
            raise where.error(path, f"missing {key!r} ({HONOUR[key].what})")
    for i, name in enumerate(spec["pawns"]):
        if name not in pieces:
            raise where.error(path + ("pawns", i), f"no piece kind {name!r} (pieces: {', '.join(pieces)})")
    if spec["board"] < 1:
        raise where.error(path + ("board",), f"expected 1 or more moves, got {spec['board']}")
    rules = []
    for i, rule in enumerate(spec.get("pieces", ())):
        for key in ("piece", "moves"):
            if key not in rule:
                raise where.error(path + ("pieces", i), f"missing {key!r} ({HONOUR_PIECES[key].what})")
        if rule["piece"] not in pieces:
            raise where.error(path + ("pieces", i, "piece"), f"no piece kind {rule['piece']!r} "
                                                             f"(pieces: {', '.join(pieces)})")
        for key in ("count", "moves"):
            if rule.get(key, 1) < 1:
                raise where.error(path + ("pieces", i, key), f"expected 1 or more, got {rule[key]}")
        rules.append((rule["piece"], rule.get("count", 1), rule["moves"]))
    return HonourCounting(tuple(spec["pawns"]), spec["board"], tuple(rules))


def _zone_rules(where: _Where, path: tuple[str | int, ...], zones: Mapping[str, Any], betza: str,
                hops: bool) -> tuple[Rule, ...]:
    """The moves ``betza`` a piece makes in the zone named last in ``path``: steps and slides,
    and hops too when ``hops``."""
    if path[-1] not in zones:
        raise where.error(path, f"no zone {path[-1]!r} (zones: {', '.join(zones) or 'none'})")
    try:
        extra = parse_betza(betza)
    except MyriadError as err:
        raise where.error(path, str(err)) from None
    if not all((hops and isinstance(r, Hop)) or (isinstance(r, Slide) and r.zone is None) for r in extra):
        kinds = "steps, slides and hops" if hops else "steps and slides"
        raise where.error(path, f"expected {kinds} only (W, F, R, B, K, Q with modifiers{', p included' if hops else ''}), "
                                f"got {betza!r}")
    return extra


def _squares(where: _Where, path: tuple[str | int, ...], board: Topology, text: str) -> list[int]:
    """``e4``, ``*8`` (a rank) or ``a*`` (a file) as positions; refuses squares off the board."""
    m = re.fullmatch(r"([a-z]+|\*)(\d+|\*)", text)
    if not m or m.group(1) == m.group(2) == "*":
        raise where.error(path, f"expected a square (e4), a rank (*8) or a file (a*), got {text!r}")
    file, rank = m.groups()
    if rank != "*" and not 1 <= int(rank) <= board.height:
        raise where.error(path, f"{text!r} is off the board (ranks 1 to {board.height})")
    files = [file_letter(c) for c in range(board.width)]
    if file != "*" and file not in files:
        raise where.error(path, f"{text!r} is off the board (files a to {files[-1]})")
    return [p for p, name in enumerate(board.names)
            if (file == "*" or re.match(r"[a-z]+", name).group() == file)  # type: ignore[union-attr]
            and (rank == "*" or name[len(re.match(r"[a-z]+", name).group()):] == rank)]  # type: ignore[union-attr]


def _zone(where: _Where, path: tuple[str | int, ...], board: Topology, squares: list[Any]
          ) -> tuple[frozenset[int], frozenset[int]]:
    white: set[int] = set()
    for i, text in enumerate(squares):
        if not isinstance(text, str):
            raise where.error(path + (i,), f"expected a square name as a string, got {text!r}")
        white.update(_squares(where, path + (i,), board, text))
    top = board.height - 1
    at = {(int(x), int(y)): p for p, (x, y) in enumerate(board.coords)}
    black = {at[(int(board.coords[p][0]), top - int(board.coords[p][1]))] for p in white}
    return frozenset(white), frozenset(black)


def _initial_squares(board: Topology, setups: Mapping[str, str], letter: str) -> tuple[frozenset[int], ...]:
    from myriad.core.ranks import board_rows
    rows = board_rows(board)
    out: list[set[int]] = [set(), set()]
    for fen in setups.values():
        for row, part in zip(rows, fen.split()[0].partition("[")[0].split("/")):
            col = 0
            for token in _TOKEN.findall(part):
                if token.isdigit():
                    col += int(token)
                    continue
                if token.upper() == letter and col < len(row):
                    out[0 if token.isupper() else 1].add(row[col])
                col += 1
    return frozenset(out[0]), frozenset(out[1])


def _check_setup(where: _Where, path: tuple[str | int, ...], fen: str, files: int, ranks: int,
                 letters: Mapping[str, str]) -> None:
    board = fen.split()[0].partition("[")[0] if fen.split() else ""
    rows = board.split("/")
    if len(rows) != ranks:
        raise where.error(path, f"expected {ranks} ranks separated by '/', got {len(rows)} in {board!r}")
    for r, row in enumerate(rows):
        width = 0
        for token in _TOKEN.findall(row):
            if token.isdigit():
                width += int(token)
            elif token.upper() in letters:
                width += 1
            else:
                raise where.error(path, f"unknown piece letter {token!r} in rank {ranks - r} ({row!r}); "
                                        f"the pieces are {', '.join(sorted(letters))}")
        if width != files:
            raise where.error(path, f"rank {ranks - r} ({row!r}) has {width} squares, expected {files}")


def _promotion(where: _Where, i: int, spec: Mapping[str, Any], pieces: Mapping[str, Any],
               zones: Mapping[str, Any]) -> Promotion:
    path: tuple[str | int, ...] = ("promotions", i)
    for key in ("piece", "zone", "to"):
        if key not in spec:
            raise where.error(path, f"missing {key!r} ({PROMOTION[key].what})")
    if spec["piece"] not in pieces:
        raise where.error(path + ("piece",), f"no piece kind {spec['piece']!r} (pieces: {', '.join(pieces)})")
    if spec["zone"] not in zones:
        raise where.error(path + ("zone",), f"no zone {spec['zone']!r} (zones: {', '.join(zones) or 'none'})")
    for j, name in enumerate(spec["to"]):
        if name not in pieces:
            raise where.error(path + ("to", j), f"promotion to {name!r}, which is no piece kind of this variant "
                                                f"(pieces: {', '.join(pieces)})")
    for name, most in spec.get("limits", {}).items():
        if name not in spec["to"]:
            raise where.error(path + ("limits", name), f"a limit for {name!r}, which is not among 'to'")
        if most < 1:
            raise where.error(path + ("limits", name), f"expected 1 or more, got {most}")
    for key in ("may_attack", "last_anywhere"):
        if key in spec and not spec.get("in_place"):
            raise where.error(path + (key,), "only for a promotion made in place (in_place = true)")
    return Promotion(spec["piece"], spec["zone"], tuple(spec["to"]), spec.get("mandatory", True),
                     tuple(spec.get("limits", {}).items()), spec.get("leaving", False), spec.get("in_place", False),
                     spec.get("may_attack", True), spec.get("last_anywhere", False))


def _castling(where: _Where, i: int, spec: Mapping[str, Any], board: Topology, ranks: int) -> list[Castling]:
    path: tuple[str | int, ...] = ("castling", i)
    for key in ("right", "king", "rook"):
        if key not in spec:
            raise where.error(path, f"missing {key!r} ({CASTLING[key].what})")
    right = spec["right"]
    if right not in ("K", "Q"):
        raise where.error(path + ("right",), f"expected K or Q, got {right!r}")
    moves = []
    for key in ("king", "rook"):
        if len(spec[key]) != 2:
            raise where.error(path + (key,), f"expected [from, to], got {spec[key]!r}")
        for j, square in enumerate(spec[key]):
            if square not in board.index:
                raise where.error(path + (key, j), f"{square!r} is not a square of the board")
        moves.append(spec[key])

    def mirrored(square: str) -> str:
        file = re.match(r"[a-z]+", square).group()  # type: ignore[union-attr]
        return f"{file}{ranks + 1 - int(square[len(file):])}"

    (kf, kt), (rf, rt) = moves
    bit = 1 << CASTLING_LETTERS.index(right)
    black = 1 << CASTLING_LETTERS.index(right.lower())
    return [Castling(0, kf, kt, rf, rt, bit),
            Castling(1, mirrored(kf), mirrored(kt), mirrored(rf), mirrored(rt), black)]


# -- the shipped variants and the registry ----------------------------------------------------------


_SHIPPED: list[Declared] | None = None


def shipped_declarations() -> list[Declared]:
    """The variants shipped in the package, as declared (read once)."""
    global _SHIPPED
    if _SHIPPED is None:
        out: list[Declared] = []
        folder = resources.files("myriad.games") / "variants"
        for file in SHIPPED:
            out.extend(_declared(f"myriad/games/variants/{file}", (folder / file).read_text(encoding="utf-8")))
        _SHIPPED = out
    return _SHIPPED


def shipped(variant: str) -> ChessGame:
    """The shipped variant ``variant`` (the registry's factory for the chess family)."""
    known = {d.id: d for d in shipped_declarations()}
    if variant not in known:
        raise GameDefinitionError(f"no shipped variant {variant!r} (known: {', '.join(known)})")
    return _build(known[variant], _Scope({}))
