"""The jump-capture options Frisian and Turkish draughts brought to the mechanic, on small
boards built here: capture directions apart from step directions, removal at once, no
turning back, capture values and the king's precedence."""

from __future__ import annotations

import pytest

from myriad.core.errors import GameDefinitionError
from myriad.core.mechanics.jumps import JumpCaptures
from myriad.core.topology import square_board

MAN, OTHER_MAN, KING, OTHER_KING = 1, 2, 3, 4


def _grid(**options) -> tuple[JumpCaptures, object]:
    """A 6x6 board of every square, rook-like kings (the Turkish shape)."""
    board = square_board(6, 6, diagonals=False)
    board = board.with_zones(promotion=board.rows_zone(6))
    jumps = JumpCaptures(board, men=(MAN, OTHER_MAN), kings=(KING, OTHER_KING),
                         promotion=board.zones["promotion"], piece_codes=5, forward=("n", "e", "w"),
                         directions=("n", "s", "e", "w"), flying_kings=True, maximum_capture=True,
                         **options)
    return jumps, board


def _cells(board, **pieces: int) -> list[int]:
    cells = [0] * board.size
    for name, code in pieces.items():
        cells[board.pos(name)] = code
    return cells


def _paths(board, moves) -> set[str]:
    return {"x".join(board.names[p] for p in m.path) for m in moves}


def test_removal_at_once_frees_the_square_of_a_taken_piece() -> None:
    """a2xe2xe5xc5 then down the c-file: with removal at once the king may land on c2, the
    square of the first piece it took, or pass it to c1; otherwise that piece blocks."""
    cells_of = dict(a2=KING, c2=OTHER_MAN, e4=OTHER_MAN, d5=OTHER_MAN, c4=OTHER_MAN)
    at_once, board = _grid(remove_at_once=True)
    assert _paths(board, at_once.captures(_cells(board, **cells_of), 0)) == {
        "a2xe2xe5xc5xc3", "a2xe2xe5xc5xc2", "a2xe2xe5xc5xc1"}
    at_end, _ = _grid(remove_at_once=False)
    assert _paths(board, at_end.captures(_cells(board, **cells_of), 0)) == {"a2xe2xe5xc5xc3"}


def test_no_turning_back() -> None:
    cells_of = dict(c3=KING, c5=OTHER_MAN, c2=OTHER_MAN)
    forbidden, board = _grid(remove_at_once=True, turn_back=False)
    assert _paths(board, forbidden.captures(_cells(board, **cells_of), 0)) == {"c3xc6", "c3xc1"}
    allowed, _ = _grid(remove_at_once=True, turn_back=True)
    assert _paths(board, allowed.captures(_cells(board, **cells_of), 0)) == {"c3xc6xc1", "c3xc1xc6"}


def test_capture_values_and_king_precedence() -> None:
    jumps, board = _grid(capture_values=(1000, 1501), prefer_king_captures=True)
    # A man takes a king sideways or a man ahead: the king is worth more.
    cells = _cells(board, c2=MAN, d2=OTHER_KING, c3=OTHER_MAN)
    assert _paths(board, jumps.captures(cells, 0)) == {"c2xe2"}
    # Two men outweigh one king.
    cells = _cells(board, a1=MAN, a2=OTHER_MAN, a4=OTHER_MAN, b1=OTHER_KING)
    assert _paths(board, jumps.captures(cells, 0)) == {"a1xa3xa5"}
    # Equal values: the king's capture must be played.
    cells = _cells(board, a1=MAN, a2=OTHER_MAN, f1=KING, f3=OTHER_MAN)
    assert {p.split("x")[0] for p in _paths(board, jumps.captures(cells, 0))} == {"f1"}
    by_count, _ = _grid()
    assert {p.split("x")[0] for p in _paths(board, by_count.captures(cells, 0))} == {"a1", "f1"}


def test_turn_back_needs_opposite_directions() -> None:
    board = square_board(4, 4, orthogonals=False)
    from myriad.core.topology import Topology
    one_way = Topology(board.names, board.coords, ("ne",), (board.links[board.direction("ne")],),
                       ((0,), (0,)), {"promotion": (frozenset(), frozenset())}, 4, 4)
    with pytest.raises(GameDefinitionError, match="opposite"):
        JumpCaptures(one_way, men=(MAN, OTHER_MAN), kings=(KING, OTHER_KING),
                     promotion=(frozenset(), frozenset()), piece_codes=5, forward=("ne",),
                     directions=("ne",), turn_back=False)
