"""What the page says about a position besides the pieces: the royal pieces in check and
the material each player has captured.

Both are generic: check comes from any game with royal pieces and check rules
(:class:`~myriad.core.piece_game.PieceGame` with ``royal_check``), captured material from
the pieces that the moves of a game removed (each move's ``CAPTURE`` actions, read in the
position before it), so promotions, drops and flips never count as captures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.piece_game import PieceGame
from myriad.core.state import State
from myriad.web.layout import counts, piece_picture


def checked_squares(game: Game, state: State) -> list[str]:
    """The names of the squares of the side to move's royal pieces that stand attacked,
    when the game has check rules (empty otherwise, and at a chance node)."""
    if not isinstance(game, PieceGame) or game.is_chance(state) or not game.in_check(state):
        return []
    player = state.to_move
    enemy = 1 - player
    royal = set(game.royal_of[player])
    cells = state.cells
    return [game.square_name(pos) for pos, code in enumerate(cells)
            if code in royal and game.tables.attacked(cells, pos, enemy)]


def shows_captures(game: Game) -> bool:
    """Whether captured material is shown: the cells hold pieces (not counts) and captured
    pieces do not go to a hand (the hand shows them there)."""
    if counts(game):
        return False
    rules = getattr(game, "piece_rules", None)
    return not (rules is not None and rules.drops and rules.captures_to_hand)


def top_piece(game: Game, code: int) -> int:
    """The piece a cell's code stands for (a column's top piece in column games)."""
    column_pieces = getattr(game, "column_pieces", None)
    return int(column_pieces(code)[0]) if column_pieces is not None else code


def captured_json(game: Game, states: Sequence[State], moves: Sequence[Move]) -> list[dict[str, Any]] | None:
    """Per player, the pieces its moves took (``pieces``: ``{piece, count}`` in the order of
    the game's piece kinds, most valuable first) and their total ``value``; for two players
    ``advantage`` is the value difference in that player's favour when positive (else 0),
    in units of the game's least valuable piece (a pawn in chess), rounded.
    ``states[i]`` is the position ``moves[i]`` was played in.  None when the game shows no
    captured material (see :func:`shows_captures`)."""
    if not shows_captures(game):
        return None
    pieces = game.pieces
    taken: list[Counter[int]] = [Counter() for _ in range(game.players)]
    for before, move in zip(states, moves):
        mover = before.to_move
        if mover >= game.players:  # chance takes nothing
            continue
        for pos in move.captures:
            code = before.cells[pos]
            if not code:
                continue
            code = top_piece(game, code)
            if 0 < code < pieces.count and pieces.owner_of[code] != mover:
                taken[mover][code] += 1
    values = [sum(pieces.value_of[c] * n for c, n in held.items()) for held in taken]
    out: list[dict[str, Any]] = []
    for held, value in zip(taken, values):
        order = sorted(held, key=lambda c: (-pieces.value_of[c], pieces.kind_of[c], c))
        out.append({"pieces": [{"piece": piece_picture(game, c), "count": held[c]} for c in order],
                    "value": value})
    if game.players == 2:
        unit = min((v for v in pieces.value_of if v > 0), default=1)
        for me, other in ((0, 1), (1, 0)):
            out[me]["advantage"] = max(0, round((values[me] - values[other]) / unit))
    return out
