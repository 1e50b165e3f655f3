"""The surround-capture mechanic (core/mechanics/surround.py) on small boards, by hand."""

from __future__ import annotations

import pytest

from myriad.core.errors import GameDefinitionError
from myriad.core.mechanics.surround import Surround
from myriad.core.ranks import parse_ranks
from myriad.core.topology import square_board

TOPO = square_board(5, 5, diagonals=False)
B, W = 1, 2
LETTERS = {"X": B, "O": W}


def board(rows: str) -> list[int]:
    return parse_ranks(TOPO, rows, LETTERS)


def at(name: str) -> int:
    return TOPO.pos(name)


def test_neighbours_are_orthogonal_links() -> None:
    s = Surround(TOPO, (B, W))
    assert sorted(s.neighbours[at("a1")]) == sorted([at("a2"), at("b1")])
    assert len(s.neighbours[at("c3")]) == 4


def test_groups_and_liberties() -> None:
    s = Surround(TOPO, (B, W))
    cells = board("5/5/1XX2/1XO2/5")  # X chain b3 c3 b2, O c2
    stones, libs = s.group(cells, at("b3"))
    assert stones == sorted([at("b3"), at("c3"), at("b2")])
    assert libs == {at(n) for n in ("b4", "c4", "a3", "d3", "a2", "b1")}
    g = s.groups(cells)
    assert g.owner[g.label[at("c2")]] == 1
    assert g.liberties[g.label[at("c2")]] == {at("d2"), at("c1")}
    assert g.label[at("a1")] == -1


def test_capture_of_a_chain_by_its_last_liberty() -> None:
    s = Surround(TOPO, (B, W))
    cells = board("5/5/5/OX3/OX3")  # O a1 a2, X b1 b2: O's only liberty is a3
    found = s.placement(cells, at("a3"), 0)
    assert found is not None and found.taken == tuple(sorted((at("a1"), at("a2"))))
    assert s.placement(cells, at("c3"), 0) == (at("c3"), ())


def test_suicide_is_refused_unless_allowed() -> None:
    cells = board("5/5/5/X4/1X3")  # a1 is surrounded by X: White there is suicide
    assert Surround(TOPO, (B, W)).placement(cells, at("a1"), 1) is None
    allowed = Surround(TOPO, (B, W), suicide=True).placement(cells, at("a1"), 1)
    assert allowed == (at("a1"), (at("a1"),))
    # filling one's own chain's last liberty without taking anything is suicide too
    cells = board("5/5/X4/OX3/1X3")  # O a2: its only liberty a1 is White's own suicide
    assert Surround(TOPO, (B, W)).placement(cells, at("a1"), 1) is None
    # ... but not when the placement takes: Black on a1 takes nothing here, and is fine
    assert Surround(TOPO, (B, W)).placement(cells, at("a1"), 0) is not None


def test_a_capture_is_not_suicide() -> None:
    s = Surround(TOPO, (B, W))
    cells = board("5/5/5/XO3/1XO2")
    # b1 X: neighbours a1 (empty), c1 (O), b2 (O) -> its last liberty is a1;
    # White a1: neighbours a2 (X) and b1 (X); it takes b1 and so has a liberty
    found = s.placement(cells, at("a1"), 1)
    assert found is not None and found.taken == (at("b1"),)


def test_placements_list_every_legal_point() -> None:
    s = Surround(TOPO, (B, W))
    cells = board("5/5/5/X4/1X3")
    white = {p.pos for p in s.placements(cells, 1)}
    assert at("a1") not in white and len(white) == 25 - 2 - 1
    assert len(s.placements(cells, 0)) == 25 - 2  # a1 is Black's own eye, not suicide


def test_area_counts_stones_and_regions_reaching_one_colour() -> None:
    s = Surround(TOPO, (B, W))
    cells = board("1X1O1/XX1OO/2XO1/2XO1/2XO1")
    # Black: 6 stones + a5 (reaches b5, a4) + the six points a1-b3; White: 6 stones + e5
    # + e1-e3; c5 and c4 reach both colours and count for nobody
    assert s.area(cells) == [6 + 1 + 6, 6 + 1 + 3]
    assert s.area([0] * 25) == [0, 0]


def test_bad_stone_codes_are_refused() -> None:
    with pytest.raises(GameDefinitionError):
        Surround(TOPO, (1, 1))
    with pytest.raises(GameDefinitionError):
        Surround(TOPO, (0, 2))


def test_a_ladder_is_read_to_the_capture_and_a_ladder_breaker_stops_it() -> None:
    topo = square_board(9, 9, diagonals=False)
    s = Surround(topo, (B, W))

    def cells_of(rows: str) -> list[int]:
        return parse_ranks(topo, rows, LETTERS)

    # White c3 with two liberties (c4, d3) next to Black b3, c2, d4: whichever way White
    # runs, Black's ataris drive it to the edge and take it
    start = s.ladder(cells_of("9/9/9/9/9/3X5/1XO6/2X6/9"), topo.pos("c3"))
    assert start in (topo.pos("c4"), topo.pos("d3"))
    # friends at c5 and e3 (each next to a first extension) let White out
    assert s.ladder(cells_of("9/9/9/9/2O6/3X5/1XO1O4/2X6/9"), topo.pos("c3")) is None
    # three liberties: no ladder to read
    assert s.ladder(cells_of("9/9/9/9/9/9/2O6/2X6/9"), topo.pos("c3")) is None
    # in atari already: the capture itself
    assert s.ladder(cells_of("9/9/9/9/9/2X6/1XO6/2X6/9"), topo.pos("c3")) == topo.pos("d3")
