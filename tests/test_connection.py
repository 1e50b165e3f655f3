"""The hex board topology and the connection-goal mechanic (groups, goals, distances),
checked on hex and square boards against walks written here."""

from __future__ import annotations

import random

import pytest

from myriad.core.errors import GameDefinitionError
from myriad.core.mechanics.connection import ConnectionGoal, Distances, Groups, bits_of
from myriad.core.topology import NO_LINK, edge_cells, hex_board, opposite_directions, square_board, without_links


def hex_neighbours(size: int, c: int, r: int) -> set[tuple[int, int]]:
    """The six neighbours of (column, row) on a Hex rhombus, rows counted downwards."""
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
    return {(c + dc, r + dr) for dc, dr in steps if 0 <= c + dc < size and 0 <= r + dr < size}


def test_hex_board_links_names_and_drawing() -> None:
    topo = hex_board(5)
    assert topo.size == 25 and topo.names[0] == "a1" and topo.names[4] == "e1" and topo.names[24] == "e5"
    for pos in range(25):
        c, r = pos % 5, pos // 5
        linked = {(q % 5, q // 5) for row in topo.links if (q := row[pos]) != NO_LINK}
        assert linked == hex_neighbours(5, c, r)
        for row in topo.links:  # every neighbour is one unit away in the drawing
            q = row[pos]
            if q != NO_LINK:
                (x1, y1), (x2, y2) = topo.coords[pos], topo.coords[q]
                assert abs((x1 - x2) ** 2 + (y1 - y2) ** 2 - 1) < 1e-9
    assert topo.coords[0][1] > topo.coords[5][1]  # row 1 on top
    assert topo.coords[5][0] == 0.5  # each row half a cell further right
    assert sorted(len([1 for row in topo.links if row[p] != NO_LINK]) for p in (0, 4, 20, 24)) == [2, 2, 3, 3]
    opposite = opposite_directions(topo)
    assert all(opposite[opposite[d]] == d for d in range(6))
    # the second player sees the board turned half a turn: its "e" is the first's "w"
    assert topo.step(12, "e", 1) == topo.step(12, "w", 0) == 11


def test_hex_board_edges_and_rectangles() -> None:
    topo = hex_board(4, 3)
    assert topo.size == 12 and (topo.width, topo.height) == (4, 3)
    assert edge_cells(topo, "nw") == frozenset({0, 1, 2, 3})
    assert edge_cells(topo, "se") == frozenset({8, 9, 10, 11})
    assert edge_cells(topo, "w") == frozenset({0, 4, 8})
    assert edge_cells(topo, "e") == frozenset({3, 7, 11})
    with pytest.raises(GameDefinitionError):
        hex_board(0)


def reference_groups(topo_neighbours: list[set[int]], stones: set[int]) -> list[set[int]]:
    """Groups by a plain depth-first walk."""
    seen: set[int] = set()
    groups = []
    for start in sorted(stones):
        if start in seen:
            continue
        group, stack = {start}, [start]
        while stack:
            p = stack.pop()
            for q in topo_neighbours[p]:
                if q in stones and q not in group:
                    group.add(q)
                    stack.append(q)
        seen |= group
        groups.append(group)
    return groups


@pytest.mark.parametrize("topo", [hex_board(7), square_board(6, 5, diagonals=False),
                                  without_links(square_board(5, 5), lambda p, d, q: d in ("ne", "sw"))],
                         ids=["hex7", "square", "irregular"])
def test_groups_equal_a_plain_walk(topo) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(5)
    groups = Groups(topo)
    neighbours = [{q for row in topo.links if (q := row[p]) != NO_LINK} for p in range(topo.size)]
    for _ in range(200):
        stones = {p for p in range(topo.size) if rng.random() < 0.5}
        expected = reference_groups(neighbours, stones)
        assert [set(g) for g in map(_cells, groups.split(bits_of(stones)))] == expected
    assert groups.grow(0) == 0


def _cells(bits: int) -> set[int]:
    return {p for p in range(bits.bit_length()) if bits >> p & 1}


def test_the_walked_growth_equals_the_shifted_one() -> None:
    """A board whose links are not one shift is grown link by link: the same groups."""
    topo = hex_board(6)
    shifted = Groups(topo)
    walked = Groups(topo)
    walked.steps = None
    rng = random.Random(3)
    for _ in range(100):
        stones = bits_of(p for p in range(36) if rng.random() < 0.55)
        assert shifted.split(stones) == walked.split(stones)


def test_two_zone_goal_on_hex_and_square_boards() -> None:
    topo = hex_board(3)
    top, bottom = edge_cells(topo, "nw"), edge_cells(topo, "se")
    goal = ConnectionGoal(topo, [[top, bottom]])
    # a1, a2, a3 is a chain down the left side; b1 b2 ... b1-a2 are neighbours too
    assert goal.connected(0, bits_of([0, 3, 6]))
    assert goal.connected(0, bits_of([2, 4, 6]))        # the short diagonal c1 b2 a3
    assert not goal.connected(0, bits_of([0, 4, 8]))    # a1 b2 c3: not neighbours on hex
    assert goal.winning_group(0, bits_of([0, 3, 6, 2])) == bits_of([0, 3, 6])
    square = square_board(3, 3, diagonals=False)
    sgoal = ConnectionGoal(square, [[edge_cells(square, "s"), edge_cells(square, "n")]])
    assert sgoal.connected(0, bits_of([1, 4, 7])) and not sgoal.connected(0, bits_of([0, 4, 8]))
    assert sgoal.winner([bits_of([0, 4, 8])]) is None


def test_three_zone_goal_needs_one_group_touching_all() -> None:
    """Y-like goal on a 5x5 hex board: the top, the left and the bottom sides."""
    topo = hex_board(5)
    sides = [edge_cells(topo, "nw"), edge_cells(topo, "w"), edge_cells(topo, "se")]
    goal = ConnectionGoal(topo, [sides])
    column_b = bits_of(5 * r + 1 for r in range(5))           # b1..b5: top and bottom only
    assert not goal.connected(0, column_b)
    assert goal.connected(0, column_b | bits_of([10]))        # with a3 it touches the left side
    apart = bits_of([2, 7, 10, 20])                            # c1 c2 (top), a3 (left), a5: apart
    assert not goal.connected(0, apart)


def test_bad_goals_are_refused() -> None:
    topo = hex_board(3)
    with pytest.raises(GameDefinitionError):
        ConnectionGoal(topo, [])
    with pytest.raises(GameDefinitionError):
        ConnectionGoal(topo, [[[0], []]])
    with pytest.raises(GameDefinitionError):
        ConnectionGoal(topo, [[[0], [99]]])


def test_distances_count_the_empty_cells_still_needed() -> None:
    topo = hex_board(5)
    d = Distances(topo)
    top, bottom = bits_of(edge_cells(topo, "nw")), bits_of(edge_cells(topo, "se"))
    full = (1 << 25) - 1
    layers = d.layers(top, 0, full)
    assert Distances.distance(layers, bottom) == 5          # an empty board: a stone per row
    own = bits_of([12])                                      # c3 in the middle
    assert Distances.distance(d.layers(top, own, full & ~own, two=False), bottom) == 4
    # the two-distance: a lone stone saves nothing, as the opponent blocks its one way on
    assert Distances.distance(d.layers(top, own, full & ~own), bottom) == 5
    column = bits_of([2, 7, 12, 17])                         # c1..c4: one cell to go
    assert Distances.distance(d.layers(top, column, full & ~column, two=False), bottom) == 1
    assert Distances.distance(d.layers(bottom, column, full & ~column), top) == 1
    wall = bits_of(10 + c for c in range(5))                 # the opponent holds row 3
    assert Distances.distance(d.layers(top, 0, full & ~wall), bottom) is None
    total, cells, near = Distances.best_cells(layers, d.layers(bottom, 0, full), full, slack=1)
    # two-distance ways run best along the short diagonal (e1 d2 c3 b4 a5): elsewhere a
    # cell of a side column has one neighbour in the row before
    assert total == 6 and cells == bits_of([4, 8, 12, 16, 20])
    assert near & cells == cells and near != cells
    gap = wall & ~bits_of([12])                              # one gap, at c3: a single way through
    assert Distances.distance(d.layers(top, 0, full & ~gap, two=False), bottom) == 5
    assert Distances.distance(d.layers(top, 0, full & ~gap), bottom) == 5
    total, cells, _ = Distances.best_cells(d.layers(top, 0, full & ~gap), d.layers(bottom, 0, full & ~gap), full & ~gap)
    assert cells >> 12 & 1                                   # the gap is on every shortest way


def test_bridges_and_edge_templates_join_at_no_cost() -> None:
    topo = hex_board(5)
    d = Distances(topo)
    top, bottom = bits_of(edge_cells(topo, "nw")), bits_of(edge_cells(topo, "se"))
    full = (1 << 25) - 1
    own = bits_of([7, 13, 18])  # c2 (two empty cells from the top), d3 (bridged to c2), d4 (next to d3)
    assert d.layers(top, own, full & ~own, bridges=True)[0] == own
    assert d.layers(top, own, full & ~own)[0] == 0  # without bridges nothing touches the top
    # an opponent's stone on a carrier (d2) breaks the bridge: d3 and d4 no longer join
    broken = full & ~own & ~bits_of([8])
    assert d.layers(top, own, broken, bridges=True)[0] == bits_of([7])
