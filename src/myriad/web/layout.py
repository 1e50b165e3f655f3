"""How a game is drawn in the browser: board style, positions, labels and piece pictures.

Everything here is presentation derived from the game's declaration: the topology gives
the positions and their drawing coordinates, the piece set gives letters and glyphs.  The
only choices made here are visual ones the declaration does not carry (a checkered board
for chess and draughts, intersections for gomoku, pits for mancala, score cells and a die
for dice games), made by family.  A game whose pieces have colours of their own, whoever
plays them (Rolit's balls), names them per piece owner in ``piece_colours``.
"""

from __future__ import annotations

from typing import Any

from myriad.core.game import Game
from myriad.core.state import State
from myriad.core.topology import file_letter

#: Board styles the page knows how to draw.
STYLES = ("checkered", "plain", "reversi", "intersections", "columns", "mancala", "dice", "lines")

#: Disc colours by player (or piece colour) name; other players get the palette below, in
#: seat order.
NAMED_COLOURS = {"white": "#f4efe2", "black": "#23201d", "red": "#d1342f", "yellow": "#f2c230",
                 "green": "#3a9a4a", "blue": "#2f6fd1"}
PALETTE = ("#d1342f", "#f2c230", "#2f6fd1", "#3a9a4a")


def board_style(game: Game) -> str:
    """The drawing style of the game's board (one of :data:`STYLES`)."""
    if game.family == "mancala":
        return "mancala"
    if game.family == "dice":
        return "dice"
    if game.family == "reversi":
        return "reversi"
    if game.family == "in-a-row":
        if getattr(game, "gravity", False):
            return "columns"
        return "intersections" if game.topology.width >= 9 else "plain"
    if game.family in ("chess", "draughts", "breakthrough", "tafl"):
        return "checkered"
    if game.family == "hunt":
        return "lines"
    return "plain"


def player_colours(game: Game) -> list[str]:
    """One colour per player: white and black by name, else a palette."""
    colours = []
    spare = iter(c for c in PALETTE if c not in {NAMED_COLOURS.get(n.lower()) for n in game.player_names})
    for name in game.player_names:
        colour = NAMED_COLOURS.get(name.lower())
        colours.append(colour if colour else next(spare))
    return colours


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
    """How a piece code is drawn: ``shape`` (glyph, disc, mark or token), the ``text`` to
    write, its ``owner`` and ``kind``, and ``king`` for a crowned draughts piece."""
    pieces = game.pieces
    kind = pieces.kind(code)
    owner = pieces.owner_of[code]
    picture: dict[str, Any] = {"owner": owner, "kind": kind.name, "letter": pieces.letter_of[code]}
    named = getattr(game, "piece_colours", None)
    if named:  # the piece's own colour, whoever plays it
        picture["colour"] = NAMED_COLOURS[named[owner]]
    if game.family in ("draughts", "reversi") or (
            game.family == "in-a-row" and not _marks(game)):
        picture.update(shape="disc", text="", king=kind.royal or kind.name == "king")
    elif game.family == "in-a-row":
        picture.update(shape="mark", text=pieces.letter_of[code].upper())
    elif kind.glyphs:
        # The filled glyph of the kind, coloured by owner, reads best on both square colours.
        picture.update(shape="glyph", text=kind.glyphs[-1])
    else:
        picture.update(shape="token", text=kind.letter.upper())
    return picture


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
    width = topo.width or int(max(xs) - min(xs) + 1)
    height = topo.height or int(max(ys) - min(ys) + 1)
    algebraic = _algebraic(game)
    special = getattr(game, "special_squares", frozenset())
    return {
        "id": game.id, "name": game.name, "family": game.family,
        "players": list(game.player_names), "colours": player_colours(game),
        "rules": game.rules, "setups": list(game.setups),
        "start": game.format_position(game.initial_state()),
        "style": board_style(game), "width": width, "height": height,
        "gravity": bool(getattr(game, "gravity", False)),
        "positions": [{"name": name, "x": x, "y": y, **({"store": True} if pos in stores else {}),
                       **({"special": True} if pos in special else {})}
                      for pos, (name, (x, y)) in enumerate(zip(topo.names, topo.coords))],
        # the lines of a graph board: each linked pair of positions once
        "lines": sorted({(min(p, q), max(p, q)) for row in topo.links for p, q in enumerate(row) if q >= 0})
        if board_style(game) == "lines" else [],
        "files": [file_letter(c) for c in range(width)] if algebraic else [],
        "ranks": [str(r + 1) for r in range(height)] if algebraic else [],
        "cell_labels": not algebraic and not counts(game),
        "counts": counts(game),
    }


def cells_json(game: Game, state: State) -> list[Any]:
    """The contents of every position: null when empty, a count in mancala and dice games,
    else the piece's picture (see :func:`piece_picture`)."""
    if counts(game):
        return list(state.cells)
    pictures: dict[int, dict[str, Any]] = {}
    out: list[Any] = []
    for code in state.cells:
        if not code:
            out.append(None)
            continue
        if code not in pictures:
            pictures[code] = piece_picture(game, code)
        out.append(pictures[code])
    return out
