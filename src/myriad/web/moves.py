"""Legal moves as the page enters them: a path of squares, captures, and a promotion choice.

The page never judges a move: it receives, for the side to move, every legal move with its
notation and the squares a player clicks to make it (none for a move made with a button:
a pass, a dice game's roll or hold), sends the chosen notation back, and the server parses
it against ``legal_moves`` again.
"""

from __future__ import annotations

from typing import Any

from myriad.core.game import Game
from myriad.core.move import DROP, MOVE, SET, Move
from myriad.core.state import State
from myriad.web.layout import piece_picture


def piece_path(move: Move) -> tuple[int, ...]:
    """The squares a player clicks to make ``move``: where the moving piece starts, then
    each square it lands on (each jump of a capture chain).

    Unlike :attr:`Move.path` this follows the one piece: the rook's step of a castling move
    is not part of the king's path.  A placement or a sowing is its one cell; a pass is ().
    """
    steps = [a for a in move if a[0] == MOVE]
    if not steps:
        for action in move:
            if action[0] in (DROP, SET):
                return (action[2],)
        return ()
    path = [steps[0][1], steps[0][2]]
    for action in steps[1:]:
        if action[1] == path[-1]:
            path.append(action[2])
    return tuple(path)


def clicked_path(game: Game, move: Move) -> tuple[int, ...]:
    """The squares clicked to make ``move``: none when it is made with a button (a dice
    game's roll, a game's own button moves such as Hex's swap: ``entered_by_button``)."""
    by_button = getattr(game, "entered_by_button", None)
    if not clicks_squares(game) or (by_button is not None and by_button(move)):
        return ()
    return piece_path(move)


def clicks_squares(game: Game) -> bool:
    """Whether moves are entered on the board (dice games' roll and hold are buttons: their
    moves change counts, not a square a player would click)."""
    return game.family != "dice"


def final_piece(move: Move) -> int:
    """The piece standing at the end of the moving piece's path (0 when none moves)."""
    steps = [a for a in move if a[0] == MOVE]
    if not steps:
        return 0
    where, piece = steps[0][2], steps[0][3]
    for action in steps[1:]:
        if action[1] == where:
            where, piece = action[2], action[3]
    return piece


def dropped_piece(move: Move) -> int:
    """The piece a move puts on the board from its player's hand (0 when none): its one
    action is a DROP and no piece moves."""
    if any(a[0] == MOVE for a in move):
        return 0
    drops = [a for a in move if a[0] == DROP]
    return drops[0][3] if len(drops) == 1 else 0


def moves_json(game: Game, state: State, moves: list[Move]) -> list[dict[str, Any]]:
    """Each legal move: ``notation``, ``path`` and ``captures`` (square names),
    ``promotion`` (the picture of the piece it becomes) when the moving piece changes, and
    ``drop`` (the picture of the piece) for a drop from the hand, whose path is its square."""
    name = game.square_name
    out = []
    for move in moves:
        path = clicked_path(game, move)
        entry: dict[str, Any] = {"notation": game.format_move(state, move),
                                 "path": [name(p) for p in path],
                                 "captures": [name(p) for p in move.captures]}
        piece = final_piece(move)
        start = state.cells[path[0]] if path else 0
        if piece and hasattr(game, "column_pieces"):  # a column: only its top piece promotes
            piece, start = game.column_pieces(piece)[0], game.column_pieces(start)[0] if start else 0
        if piece and path and piece != start and game.family != "mancala":
            entry["promotion"] = piece_picture(game, piece)
        dropped = dropped_piece(move) if state.hands else 0
        if dropped:
            entry["drop"] = piece_picture(game, dropped)
        out.append(entry)
    return out


def last_move_json(game: Game, before: State, move: Move) -> dict[str, Any]:
    """The move just played, for marking it on the board."""
    return {"notation": game.format_move(before, move),
            "path": [game.square_name(p) for p in clicked_path(game, move)],
            "captures": [game.square_name(p) for p in move.captures]}
