"""How a game is drawn in the browser: board style, positions, labels and piece pictures.

Everything here is presentation derived from the game's declaration: the topology gives
the positions and their drawing coordinates, the piece set gives letters and glyphs.  The
only choices made here are visual ones the declaration does not carry (a checkered board
for chess and draughts, intersections for gomoku and Go, pits for mancala, score cells and a die
for dice games), made by family.  A game whose pieces have colours of their own, whoever
plays them (Rolit's balls), names them per piece owner in ``piece_colours``.

The Asian chess family is drawn as its players know it, from what the declaration says: a
game whose board is declared ``intersections`` (a variant file's ``board`` key) or that has
a ``palace`` zone is played on the points, with its palaces' diagonals and, when a zone
holds exactly each side's half of the board, a river between the halves; pieces written
as characters (letters of a script, not chess symbols) are round discs there and
pentagons pointing at the opponent on a board of squares (shogi).  Pieces held in hand
(shogi, crazyhouse) are listed per player by :func:`hands_json`.  A game whose squares
have kinds (a ``terrain`` mapping of positions to "water", "trap", "den": Jungle) is drawn
in the ``terrain`` style, each position carrying its kind, its animals written on discs.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from myriad.core.game import Game
from myriad.core.mechanics.fog import FOG
from myriad.core.state import State
from myriad.core.topology import file_letter
from myriad.web.pictures import picture_name

#: Board styles the page knows how to draw ("grid": squares of one colour, ruled, as a
#: shogi board).
STYLES = ("checkered", "grid", "plain", "reversi", "intersections", "columns", "mancala", "dice", "lines",
          "terrain", "hex")
#: The board styles a variant file may ask for with its ``board`` key.
DECLARED_STYLES = ("squares", "intersections")

#: Disc colours by player (or piece colour) name; other players get the palette below, in
#: seat order.
NAMED_COLOURS = {"white": "#f4efe2", "black": "#23201d", "red": "#d1342f", "yellow": "#f2c230",
                 "green": "#3a9a4a", "blue": "#2f6fd1", "cho": "#1f7a5a", "han": "#c0392b",
                 "sente": "#23201d", "gote": "#f4efe2"}
PALETTE = ("#d1342f", "#f2c230", "#2f6fd1", "#3a9a4a")
#: The inks of pieces written as characters on discs when the players' names give no
#: colour, by the character of the side's royal piece: xiangqi's red 帥 and black 將,
#: janggi's Cho 楚 (green) and Han 漢 (red); else red for the first side, black for the next.
ROYAL_INKS = {"帥": "#c0392b", "將": "#1d1a17", "楚": "#1f7a5a", "漢": "#c0392b"}
DISC_INKS = ("#c0392b", "#1d1a17")
#: The words for the inks of pieces on discs (named colours are their own words).
INK_NAMES = {"#c0392b": "red", "#1d1a17": "black", "#1f7a5a": "green"}


def board_style(game: Game) -> str:
    """The drawing style of the game's board (one of :data:`STYLES`)."""
    if game.family == "mancala":
        return "mancala"
    if game.family == "dice":
        return "dice"
    if game.family == "reversi":
        return "reversi"
    if game.family == "go":
        return "intersections"
    if game.family == "in-a-row":
        if getattr(game, "gravity", False):
            return "columns"
        return "intersections" if game.topology.width >= 9 else "plain"
    if game.family == "chess":
        declared = getattr(game, "board_style", "")
        if declared == "intersections" or (not declared and "palace" in game.topology.zones):
            return "intersections"
        return "grid" if written(game) else "checkered"
    if game.family == "draughts" and game.topology.size == game.topology.width * game.topology.height:
        return "grid"  # every square played (Turkish draughts): a board of one colour
    if game.family in ("draughts", "breakthrough", "tafl"):
        return "checkered"
    if game.family == "hunt":
        return "lines"
    if getattr(game, "terrain", None):  # squares of kinds (Jungle's water, traps, dens)
        return "terrain"
    if game.family == "connection":
        return "hex"
    if game.family == "banqi":
        return "grid"
    return "plain"


def written(game: Game) -> bool:
    """Whether the game's pieces are written as characters of a script (xiangqi's, shogi's
    kanji), not drawn as symbols (chess's) or letters."""
    glyphs = [g for kind in game.pieces.kinds if kind.name != FOG for g in kind.glyphs]  # (fog: a "?")
    return bool(glyphs) and all(unicodedata.category(c).startswith("L") and not c.isascii()
                                for g in glyphs for c in g)


def _written_discs(game: Game) -> bool:
    """Pieces written as characters on round discs: a chess-family game on the points, a
    board of terrain (Jungle's animals), and BanQi's xiangqi pieces on squares."""
    return written(game) and ((game.family == "chess" and board_style(game) == "intersections")
                              or board_style(game) == "terrain" or game.family == "banqi")


def palaces(game: Game) -> list[list[str]]:
    """The squares of each player's palace (its ``palace`` zone), for drawing its diagonals."""
    topo = game.topology
    if board_style(game) != "intersections" or "palace" not in topo.zones:
        return []
    return [[topo.names[p] for p in sorted(squares)] for squares in topo.zones["palace"]]


def river(game: Game) -> float | None:
    """Where a river runs across the board (a y between two rows) when a zone holds exactly
    each side's half of the board (xiangqi's own side), else None."""
    topo = game.topology
    if board_style(game) != "intersections" or topo.height % 2 or len(topo.zones) == 0:
        return None
    half = topo.height / 2
    lower = frozenset(p for p, (_, y) in enumerate(topo.coords) if y < half)
    upper = frozenset(p for p, (_, y) in enumerate(topo.coords) if y >= half)
    for per_player in topo.zones.values():
        if len(per_player) == 2 and per_player[0] == lower and per_player[1] == upper:
            return half - 0.5
    return None


def player_colours(game: Game) -> list[str]:
    """One colour per player: by name (white, black, red...), else a palette; pieces written
    on discs (xiangqi, janggi) take their side's ink (see :data:`ROYAL_INKS`)."""
    named = [NAMED_COLOURS.get(n.lower()) for n in game.player_names]
    if _written_discs(game) and not (set(named) - {None, NAMED_COLOURS["white"], NAMED_COLOURS["black"]}):
        royal = [kind for kind in game.pieces.kinds if kind.royal]
        return [ROYAL_INKS.get(royal[0].glyph(p) if royal else "", DISC_INKS[p % 2]) for p in range(len(named))]
    colours = []
    spare = iter(c for c in PALETTE if c not in {NAMED_COLOURS.get(n.lower()) for n in game.player_names})
    for name in game.player_names:
        colour = NAMED_COLOURS.get(name.lower())
        colours.append(colour if colour else next(spare))
    return colours


def colour_name(colour: str) -> str:
    """The word for a colour of :func:`player_colours` ("red", "black"...), else the colour."""
    named = {v: k for k, v in NAMED_COLOURS.items() if k in ("white", "black", "red", "yellow", "green", "blue")}
    return INK_NAMES.get(colour) or named.get(colour, colour)


def counts(game: Game) -> bool:
    """Whether cells hold counts (seeds, points, a die's face) rather than pieces."""
    return game.family in ("mancala", "dice")


def _algebraic(game: Game) -> bool:
    """Whether every position is named ``<file letter><rank number>`` from its coordinates
    (then the board gets letters and numbers along its edges)."""
    topo = game.topology
    return bool(topo.width) and all(
        name == f"{file_letter(int(x))}{int(y) + 1}" for name, (x, y) in zip(topo.names, topo.coords))


def piece_picture(game: Game, code: int) -> dict[str, Any]:
    """How a piece code is drawn: ``shape`` (glyph, disc, mark, token; round or wedge for a
    piece written as a character, then ``western``: its letter, for players who read
    letters; back: a face-down piece, blank or ``?`` while it is being turned; fog: a square
    under the fog of war), the ``text`` to write, its ``owner`` and ``kind``, and ``king`` for a crowned
    draughts piece."""
    pieces = game.pieces
    kind = pieces.kind(code)
    owner = pieces.owner_of[code]
    picture: dict[str, Any] = {"owner": owner, "kind": kind.name, "letter": pieces.letter_of[code]}
    backs: tuple[int, ...] = getattr(game, "face_down_codes", ())
    if code in backs:  # BanQi's face-down pieces: their backs
        picture.update(shape="back", text="" if code == backs[0] else "?")
        return picture
    if kind.name == FOG:  # a square the viewer cannot see (fog of war): a cloud
        picture.update(shape="fog", text="")
        return picture
    named = getattr(game, "piece_colours", None)
    if named:  # the piece's own colour, whoever plays it
        picture["colour"] = NAMED_COLOURS[named[owner]]
    if game.family in ("draughts", "reversi", "go", "connection") or (
            game.family == "in-a-row" and not _marks(game)):
        picture.update(shape="disc", text="", king=kind.royal or kind.name == "king")
    elif game.family == "in-a-row":
        picture.update(shape="mark", text=pieces.letter_of[code].upper())
    elif written(game) and kind.glyphs:
        picture.update(shape="round" if _written_discs(game) else "wedge", text=kind.glyph(owner),
                       western=kind.letter.upper())
        hand_kind = getattr(getattr(game, "piece_rules", None), "hand_kind", {})
        if hand_kind.get(kind.name, kind.name) != kind.name:  # a promoted piece (written in red)
            picture["promoted"] = True
        if picture["shape"] == "wedge":
            picture["size"] = _wedge_size(game, kind.name, hand_kind)
    elif game.family == "chess" and picture_name(game, kind):  # drawn by web/static/pieces.js
        picture.update(shape="picture", picture=picture_name(game, kind), text=kind.letter.upper())
    elif kind.glyphs:
        # The filled glyph of the kind, coloured by owner, reads best on both square colours.
        picture.update(shape="glyph", text=kind.glyphs[-1])
    else:
        picture.update(shape="token", text=kind.letter.upper())
    return picture


def _wedge_size(game: Game, name: str, hand_kind: dict[str, str]) -> float:
    """The size of a shogi piece, 0.84 to 1: the king the largest, then by the value of the
    piece (a promoted piece keeps the size of the piece it was), as shogi sets are made."""
    kinds = game.pieces.kinds
    base = kinds[game.pieces.kind_index[hand_kind.get(name, name)]]
    if base.royal:
        return 1.0
    values = sorted({k.value for k in kinds if not k.royal and hand_kind.get(k.name, k.name) == k.name})
    return round(0.84 + 0.12 * values.index(base.value) / max(1, len(values) - 1), 3)


def _marks(game: Game) -> bool:
    """Tic-tac-toe style: the players are called by their piece letters (X and O)."""
    letters = {game.pieces.letter_of[c].upper() for c in range(1, game.pieces.count)}
    return letters == {name.upper() for name in game.player_names}


def layout_json(game: Game) -> dict[str, Any]:
    """Everything the page needs to draw the game's board and describe the game."""
    topo = game.topology
    stores = set(getattr(game, "stores", ()) if game.family == "mancala" else ())
    xs = [x for x, _ in topo.coords]
    ys = [y for _, y in topo.coords]
    width: float = topo.width or int(max(xs) - min(xs) + 1)
    height: float = topo.height or int(max(ys) - min(ys) + 1)
    if board_style(game) == "hex":  # hexagons drawn where the topology's coordinates say
        width, height = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    own_labels = getattr(game, "edge_labels", None)  # Go: GTP's columns, without I
    algebraic = _algebraic(game) or own_labels is not None
    files, ranks = (own_labels() if own_labels is not None else _edge_labels(game, int(width), int(height))
                    ) if algebraic else ([], [])
    special: frozenset[str] = getattr(game, "special_squares", frozenset())
    terrain: dict[int, str] = getattr(game, "terrain", {})
    return {
        "id": game.id, "name": game.name, "family": game.family,
        "players": list(game.player_names), "colours": player_colours(game),
        "rules": game.rules, "setups": list(game.setups), "hidden": game.hidden_information,
        "start": game.format_position(game.initial_state()),
        "style": board_style(game), "width": width, "height": height,
        "gravity": bool(getattr(game, "gravity", False)),
        "positions": [{"name": name, "x": x, "y": y, **({"store": True} if pos in stores else {}),
                       **({"special": True} if pos in special else {}),
                       **({"terrain": terrain[pos]} if pos in terrain else {})}
                      for pos, (name, (x, y)) in enumerate(zip(topo.names, topo.coords))],
        # the lines of a graph board: each linked pair of positions once
        "lines": sorted({(min(p, q), max(p, q)) for row in topo.links for p, q in enumerate(row) if q >= 0})
        if board_style(game) == "lines" else [],
        "files": files, "ranks": ranks,
        "cell_labels": not algebraic and not counts(game) and board_style(game) != "hex",
        "counts": counts(game),
        "written": written(game), "palaces": palaces(game), "river": river(game),
        "sides": sides(game),
        **({"square_numbers": square_numbers(game)} if square_numbers(game) else {}),
    }


def square_numbers(game: Game) -> dict[str, int]:
    """The PDN number of each square of a draughts game written algebraically (Russian,
    Brazilian), for the page's "square numbers" option; {} for other games."""
    if game.family != "draughts" or getattr(game, "notation", "") != "algebraic":
        return {}
    numbers: tuple[int, ...] = getattr(game, "numbers", ())
    return {name: numbers[pos] for pos, name in enumerate(game.topology.names)}


def sides(game: Game) -> dict[str, list[Any]] | None:
    """A hex board's four sides, as its players know them coloured: the cells at its
    corners (top-left, top-right, bottom-right, bottom-left) and the player who owns the
    top, right, bottom and left sides (the game's ``side_owners``); None for other boards."""
    owners = getattr(game, "side_owners", None)
    if board_style(game) != "hex" or owners is None:
        return None
    topo = game.topology
    xs = [x for x, _ in topo.coords]
    ys = [y for _, y in topo.coords]
    top, bottom = max(ys), min(ys)

    def at(row_y: float, leftmost: bool) -> str:
        row = [p for p in range(topo.size) if topo.coords[p][1] == row_y]
        pick = min(row, key=lambda p: xs[p]) if leftmost else max(row, key=lambda p: xs[p])
        return topo.names[pick]

    return {"corners": [at(top, True), at(top, False), at(bottom, False), at(bottom, True)],
            "owners": list(owners)}


def _edge_labels(game: Game, width: int, height: int) -> tuple[list[str], list[str]]:
    """The labels of the files (left to right as the first player sees them) and of the
    ranks (bottom up): letters and numbers, or as USI writes squares (shogi: files
    numbered from the right, ranks lettered from the top)."""
    if getattr(game, "notation", "") == "usi":
        return ([str(width - x) for x in range(width)],
                [chr(ord("a") + height - 1 - y) for y in range(height)])
    return [file_letter(c) for c in range(width)], [str(r + 1) for r in range(height)]


def cells_json(game: Game, state: State) -> list[Any]:
    """The contents of every position: null when empty, a count in mancala and dice games
    ("X" for a house a player has claimed, Toguz Kumalak's tuzdyk), else the piece's picture
    (see :func:`piece_picture`)."""
    if counts(game):
        cells: list[Any] = list(state.cells)
        for pos in getattr(game, "claimed_houses", lambda _state: ())(state):
            cells[pos] = "X"
        return cells
    pictures: dict[int, dict[str, Any]] = {}
    out: list[Any] = []
    for code in state.cells:
        if not code:
            out.append(None)
            continue
        if code not in pictures:
            pictures[code] = column_picture(game, code) if hasattr(game, "column_pieces") else piece_picture(game, code)
        out.append(pictures[code])
    return out


def column_picture(game: Game, column: int) -> dict[str, Any]:
    """A column of pieces (Lasca, Bashni): the picture of its top piece, and under
    ``stack`` every piece top first (``owner``, ``king``) when it holds more than one."""
    pieces = game.column_pieces(column)  # type: ignore[attr-defined]
    picture = piece_picture(game, pieces[0])
    if len(pieces) > 1:
        kinds = game.pieces
        picture["stack"] = [{"owner": kinds.owner_of[p], "king": kinds.kind(p).name == "king"} for p in pieces]
        picture["letter"] = "".join(kinds.letter_of[p] for p in pieces)
    return picture


def hands_json(game: Game, state: State) -> list[list[dict[str, Any]]]:
    """The pieces each player holds in hand, in the order of the game's piece kinds: a
    ``piece`` picture (see :func:`piece_picture`) and a ``count`` for each kind held."""
    pieces = game.pieces
    return [[{"piece": piece_picture(game, pieces.code(pieces.kinds[kind].name, player)), "count": n}
             for kind, n in enumerate(held) if n > 0]
            for player, held in enumerate(state.hands)]
