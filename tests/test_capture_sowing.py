"""The capture-sowing mechanic on its own (myriad.core.mechanics.capture_sowing): where
sowing starts, laps, captures by count and by parity, backward chains, grand slams, feeding
and claimed houses, on small hand-made boards whose every number is worked out in a comment.
"""

from __future__ import annotations

import pytest

from myriad.core.errors import GameDefinitionError
from myriad.core.mechanics.capture_sowing import CLAIM_PART, NO_CLAIM, CaptureSowing, claimed_in
from myriad.core.mechanics.sowing import two_row_ring

# Three houses a side: positions 0 1 2 (south a b c), 3 (south store), 4 5 6 (north A B C),
# 7 (north store).  Sowing order: a b c A B C a ...
TOPOLOGY = two_row_ring((["a", "b", "c"], ["A", "B", "C"]), ("S", "N"))
HOUSES = ((0, 1, 2), (4, 5, 6))
STORES = (3, 7)


def board(south: list[int], north: list[int], stores: tuple[int, int] = (0, 0)) -> list[int]:
    return [*south, stores[0], *north, stores[1]]


def mechanic(**rules) -> CaptureSowing:
    return CaptureSowing(TOPOLOGY, HOUSES, STORES, max_seeds=60, **rules)


def test_plain_sowing_starts_next_and_laps_through_the_origin():
    sow = mechanic().sow(board([7, 0, 0], [0, 0, 0]), 0, 0)
    # 7 seeds from a: b c A B C a(origin) b  -> a1 b2 c1 A1 B1 C1
    assert sow.cells == board([1, 2, 1], [1, 1, 1])
    assert (sow.claimed, sow.captured, sow.grand_slam) == (NO_CLAIM, 0, False)


def test_skip_origin_passes_over_the_emptied_house():
    sow = mechanic(skip_origin=True).sow(board([7, 0, 0], [0, 0, 0]), 0, 0)
    # b c A B C (a skipped) b c -> b2 c2
    assert sow.cells == board([0, 2, 2], [1, 1, 1])


def test_origin_first_drops_the_first_seed_back_unless_alone():
    rule = mechanic(origin_first=True)
    # 3 seeds from b: b c A
    assert rule.sow(board([0, 3, 0], [1, 1, 1]), 0, 1).cells == board([0, 1, 1], [2, 1, 1])
    # a lone seed moves on
    assert rule.sow(board([0, 1, 0], [1, 1, 1]), 0, 1).cells == board([0, 0, 1], [1, 1, 1])
    # 8 seeds from c: c A B C a b | c A  (a full lap of six, then two more)
    assert rule.sow(board([0, 0, 8], [0, 0, 0]), 0, 2).cells == board([1, 1, 2], [2, 1, 1])


def test_capture_by_count_with_a_backward_chain():
    rule = mechanic(capture_counts=(2, 3), capture_chain=True)
    # 3 seeds from c: A B C -> A2 B3 C2; the last (C, 2) and, backwards, B (3) and A (2)
    # are taken... but that is every north seed: allowed here.
    sow = rule.sow(board([0, 0, 3], [1, 2, 1], (5, 0)), 0, 2)
    assert sow.cells == board([0, 0, 0], [0, 0, 0], (12, 0)) and sow.captured == 7
    # the chain stops at a house of 4 (B) and never counts the house of 1 before it
    sow = rule.sow(board([0, 0, 3], [1, 3, 1], (5, 0)), 0, 2)
    assert sow.cells == board([0, 0, 0], [2, 4, 0], (7, 0)) and sow.captured == 2


def test_the_chain_stays_on_the_opponent_side():
    rule = mechanic(capture_counts=(2, 3), capture_chain=True)
    # 2 seeds from b: c A -> c2, A2: A is taken, c (own side, 2) is not
    sow = rule.sow(board([0, 2, 1], [1, 5, 0]), 0, 1)
    assert sow.cells == board([0, 0, 2], [0, 5, 0], (2, 0))


def test_no_capture_on_the_own_side_or_off_count():
    rule = mechanic(capture_counts=(2, 3), capture_chain=True)
    assert rule.sow(board([1, 1, 0], [1, 1, 1]), 0, 0).cells == board([0, 2, 0], [1, 1, 1])
    assert rule.sow(board([0, 0, 1], [3, 1, 1]), 0, 2).cells == board([0, 0, 0], [4, 1, 1])


def test_capture_even():
    rule = mechanic(capture_even=True, origin_first=True)
    # 2 seeds from c: c A -> A 4: even, taken
    assert rule.sow(board([0, 0, 2], [3, 1, 1]), 0, 2).cells == board([0, 0, 1], [0, 1, 1], (4, 0))
    assert rule.sow(board([0, 0, 2], [2, 1, 1]), 0, 2).cells == board([0, 0, 1], [3, 1, 1])


@pytest.mark.parametrize(("slam", "south", "store", "moves"), [
    ("allowed", [1, 0, 0], 7, 2),     # c takes B and A: 5 seeds, all of north's
    ("no_capture", [1, 0, 2], 0, 2),  # the sowing stands, nothing is taken
    ("forbidden", [1, 0, 2], 0, 1),   # c is not a legal move while a is
])
def test_grand_slam_rules(slam, south, store, moves):
    rule = mechanic(capture_counts=(2, 3), capture_chain=True, grand_slam=slam)
    cells = board([1, 0, 2], [1, 2, 0], (2, 0))
    sow = rule.sow(cells, 0, 2)  # c A B -> A2 B3
    assert sow.grand_slam == (slam != "allowed")
    expected = board([1, 0, 0], [0, 0, 0], (store, 0)) if slam == "allowed" else board([1, 0, 0], [2, 3, 0], (2, 0))
    assert sow.cells == expected
    assert len(rule.moves(cells, 0)) == moves


def test_forbidden_grand_slams_can_leave_no_legal_move():
    rule = mechanic(capture_counts=(2, 3), capture_chain=True, grand_slam="forbidden")
    assert rule.moves(board([0, 0, 2], [1, 2, 0]), 0) == []
    assert len(mechanic(capture_counts=(2, 3), capture_chain=True).moves(board([0, 0, 2], [1, 2, 0]), 0)) == 1


def test_must_feed_keeps_only_the_moves_that_reach_the_opponent():
    cells = board([1, 2, 0], [0, 0, 0], (10, 11))
    assert len(mechanic().moves(cells, 0)) == 2
    (feed,) = mechanic(must_feed=True).moves(cells, 0)
    assert feed[0][2] == 1  # b reaches A; a only reaches b
    assert mechanic(must_feed=True).moves(board([1, 0, 0], [0, 0, 0]), 0) == []


def test_claims_are_made_once_and_collect_later_seeds():
    rule = mechanic(origin_first=True, capture_even=True, claim_count=3)
    # 2 seeds from c: c A -> A 3: claimed by south, the 3 seeds stored
    sow = rule.sow(board([0, 0, 2], [2, 1, 1]), 0, 2)
    assert sow.claimed == 4 and sow.captured == 3 and sow.cells == board([0, 0, 1], [0, 1, 1], (3, 0))
    (move,) = [m for m in rule.moves(board([0, 0, 2], [2, 1, 1]), 0)]
    assert claimed_in(move) == 4 and any(a[4] == CLAIM_PART and a[2] == 4 for a in move)
    # once claimed, seeds sown into A go to south's store, whoever sows
    after = rule.sow(board([0, 0, 0], [0, 4, 0]), 1, 5, (4, NO_CLAIM))  # B C a b: none into A
    assert after.cells == board([1, 1, 0], [0, 1, 1])
    lap = rule.sow(board([0, 0, 0], [0, 0, 7]), 1, 6, (4, NO_CLAIM))  # C a b c A B C
    assert lap.cells == board([1, 1, 1], [0, 1, 2], (1, 0))
    # a second claim is not made
    assert rule.sow(board([0, 0, 2], [0, 2, 1]), 0, 2, (4, NO_CLAIM)).claimed == NO_CLAIM


def test_claim_restrictions():
    last = mechanic(origin_first=True, capture_even=True, claim_count=3, claim_last_house=False)
    # 4 seeds from b: b c A B -> B 3, B is north's second of three houses: allowed
    assert last.sow(board([0, 4, 0], [1, 2, 1]), 0, 1).claimed == 5
    # 5 seeds from b: b c A B C -> C 3, north's last house: refused
    assert last.sow(board([0, 5, 0], [1, 1, 2]), 0, 1).claimed == NO_CLAIM
    mirror = mechanic(origin_first=True, capture_even=True, claim_count=3, claim_mirror=False)
    # north holds south's b (number 2): south may not claim B (number 2), may claim A
    assert mirror.sow(board([0, 4, 0], [1, 2, 1]), 0, 1, (NO_CLAIM, 1)).claimed == NO_CLAIM
    assert mirror.sow(board([0, 0, 2], [2, 1, 1]), 0, 2, (NO_CLAIM, 1)).claimed == 4


def test_declaration_errors():
    with pytest.raises(GameDefinitionError, match="grand_slam"):
        mechanic(grand_slam="sometimes")
    with pytest.raises(GameDefinitionError, match="capture counts"):
        mechanic(capture_counts=(0,))
    with pytest.raises(GameDefinitionError, match="repeated or a store"):
        CaptureSowing(TOPOLOGY, ((0, 1, 3), (4, 5, 6)), STORES, max_seeds=10)
    with pytest.raises(GameDefinitionError, match="sowing order"):
        CaptureSowing(TOPOLOGY, ((1, 0, 2), (4, 5, 6)), STORES, max_seeds=10)
    with pytest.raises(GameDefinitionError, match="two players"):
        CaptureSowing(TOPOLOGY, ((0, 1, 2),), STORES, max_seeds=10)
