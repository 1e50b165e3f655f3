"""The stacks mechanic: column arithmetic, hashed Zobrist keys, column jump captures."""

from __future__ import annotations

import random

import pytest

from myriad.core.errors import GameDefinitionError
from myriad.core.mechanics.jumps import JumpCaptures
from myriad.core.mechanics.stacks import Columns, StackJumps, apply
from myriad.core.move import CAPTURE, MOVE
from myriad.core.topology import square_board
from myriad.core.zobrist import HashedZobrist, Zobrist

MAN, OTHER_MAN, KING, OTHER_KING = 1, 2, 3, 4


def test_column_arithmetic() -> None:
    cols = Columns(5)
    column = cols.build([MAN, OTHER_MAN, OTHER_KING])   # top first
    assert cols.top(column) == MAN and cols.height(column) == 3
    assert cols.pieces(cols.below(column)) == [OTHER_MAN, OTHER_KING]
    assert cols.pieces(cols.put_under(column, KING)) == [MAN, OTHER_MAN, OTHER_KING, KING]
    assert cols.pieces(cols.with_top(column, KING)) == [KING, OTHER_MAN, OTHER_KING]
    assert cols.build([MAN]) == MAN and cols.top(0) == 0 and cols.height(0) == 0
    rng = random.Random(5)
    for _ in range(200):
        pieces = [rng.randrange(1, 5) for _ in range(rng.randrange(1, 23))]
        assert cols.pieces(cols.build(pieces)) == pieces
    with pytest.raises(GameDefinitionError):
        cols.build([5])
    with pytest.raises(GameDefinitionError):
        Columns(1)


def test_hashed_zobrist_gives_every_column_its_own_key() -> None:
    zobrist = HashedZobrist(25, 2)
    cols = Columns(5)
    rng = random.Random(3)
    values = {cols.build([rng.randrange(1, 5) for _ in range(rng.randrange(1, 23))]) for _ in range(3000)}
    keys = {zobrist.cell_key(pos, v) for pos in range(25) for v in values}
    assert len(keys) == 25 * len(values)
    assert zobrist.cell_key(3, 0) == 0
    cells = [0] * 25
    cells[4], cells[7] = cols.build([MAN, OTHER_MAN]), KING
    assert zobrist.cells_key(cells) == zobrist.cell_key(4, cells[4]) ^ zobrist.cell_key(7, KING)
    # A table-based key could not hold a column: its values run far past a table.
    assert max(values) > Zobrist(25, 5, 2).values ** 4


def _board():
    board = square_board(5, 5, orthogonals=False, keep=lambda c, r: (c + r) % 2 == 0)
    return board.with_zones(promotion=board.rows_zone(5))


def _stack_jumps(**options) -> StackJumps:
    board = _board()
    jumps = JumpCaptures(board, men=(MAN, OTHER_MAN), kings=(KING, OTHER_KING),
                         promotion=board.zones["promotion"], piece_codes=5,
                         merge_duplicate_routes=False, **options)
    return StackJumps(jumps, Columns(5))


def test_a_jump_takes_the_top_piece_under_the_capturer_and_frees_the_rest() -> None:
    stacks, board = _stack_jumps(), _board()
    cols = stacks.columns
    cells = [0] * board.size
    a1, b2, c3 = board.pos("a1"), board.pos("b2"), board.pos("c3")
    cells[a1] = cols.build([MAN, OTHER_MAN])
    cells[b2] = cols.build([OTHER_KING, MAN, MAN])
    moves = stacks.moves(cells, 0)
    assert len(moves) == 1
    move = moves[0]
    assert [a[0] for a in move] == [MOVE, CAPTURE] and move.captures == (b2,)
    after = list(cells)
    apply(after, move)
    assert after[a1] == 0
    assert cols.pieces(after[c3]) == [MAN, OTHER_MAN, OTHER_KING]
    assert cols.pieces(after[b2]) == [MAN, MAN]          # freed, now the first player's
    assert stacks.moves(after, 1) == []                  # the second player commands nothing


def test_prisoners_go_under_in_the_order_taken_and_a_column_is_jumped_once() -> None:
    stacks, board = _stack_jumps(men_capture_backwards=True), _board()
    cols = stacks.columns
    cells = [0] * board.size
    cells[board.pos("a1")] = MAN
    cells[board.pos("b2")] = OTHER_KING
    cells[board.pos("d4")] = cols.build([OTHER_MAN, OTHER_MAN])
    (move,) = stacks.moves(cells, 0)
    after = list(cells)
    apply(after, move)
    assert move.path == (board.pos("a1"), board.pos("c3"), board.pos("e5"))
    assert cols.pieces(after[board.pos("e5")]) == [KING, OTHER_KING, OTHER_MAN]   # crowned on e5
    assert after[board.pos("d4")] == OTHER_MAN
    # From e5 the freed man on d4 could be jumped again (back to c3): not in the same move.
    assert len(move.captures) == 2


def test_stack_jumps_need_every_route() -> None:
    board = _board()
    jumps = JumpCaptures(board, men=(MAN, OTHER_MAN), kings=(KING, OTHER_KING),
                         promotion=board.zones["promotion"], piece_codes=5)
    with pytest.raises(GameDefinitionError, match="merge_duplicate_routes"):
        StackJumps(jumps, Columns(5))
