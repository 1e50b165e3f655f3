"""Hunt games' evaluation terms, checked on positions counted by hand."""

from __future__ import annotations

import dataclasses

from myriad.games import get_game


def hunter_score(game, text: str, **weights: int) -> float:
    """The hunters' raw score of ``text`` with some knowledge weights replaced."""
    twin = dataclasses.replace(game.knowledge, **weights)
    saved = game.knowledge
    game.knowledge = twin
    try:
        return game._hunter_score(game.parse_position(text))
    finally:
        game.knowledge = saved


def test_exposed_counts_geese_with_an_empty_point_behind_them():
    game = get_game("foxgeese")
    # The start: the fox's region is rows 1-4; no goose of row 5 has an empty point
    # behind it on a line from that region (the top arm is full, a5/b5/f5/g5 end lines).
    start = game.format_position(game.initial_state())
    assert hunter_score(game, start, exposed=50) == hunter_score(game, start, exposed=0)
    # A lone goose on d3 (no diagonals there): the fox, from d1, reaches d2, d4, c3 and
    # e3, and each jumps it to an empty point: one exposed goose (counted once).
    lone = "GGG/GGG/7/7/3G3/3/1F1 g 0 0"
    assert hunter_score(game, lone, exposed=50) - hunter_score(game, lone, exposed=0) == 50
    # Row 3 full: the fox reaches c1..e2 only; from c2, d2 and e2 the jumps over c3, d3
    # and e3 land on c4, d4 and e4 (empty): three exposed geese; a3, b3, f3 and g3 are
    # out of its reach.
    walled = "GGG/GGG/7/7/GGGGGGG/3/1F1 g 0 0"
    assert hunter_score(game, walled, exposed=50) - hunter_score(game, walled, exposed=0) == 150


def test_spread_sums_the_line_steps_from_each_goose_to_the_fox():
    game = get_game("foxgeese")
    # Fox on d1 (no diagonals there), geese on d3 and the top arm: d3 is 2 steps away
    # (d2, d3); c6, d6 and e6 are 5 (d2, c3 by d2's diagonal, c4, c5, c6; or up the d
    # line); c7, d7 and e7 one more: 2 + 3 * 5 + 3 * 6 = 35.
    lone = "GGG/GGG/7/7/3G3/3/1F1 g 0 0"
    assert hunter_score(game, lone, spread=3, chase=0) - hunter_score(game, lone, spread=0, chase=0) == 3 * 35


def test_chase_takes_the_place_of_spread_once_enough_geese_are_taken():
    game = get_game("foxgeese")
    # The position above: 6 of 13 geese taken, the steps sum to 35 (see the spread test).
    lone = "GGG/GGG/7/7/3G3/3/1F1 g 0 0"
    plain = hunter_score(game, lone, spread=0, chase=0)
    assert hunter_score(game, lone, spread=3, chase=-5, chase_after=6) - plain == -5 * 35
    assert hunter_score(game, lone, spread=3, chase=-5, chase_after=7) - plain == 3 * 35
    # at the start nothing is taken: spread, as before
    start = game.format_position(game.initial_state())
    assert hunter_score(game, start, chase=-5, chase_after=0) != hunter_score(game, start, chase=-5, chase_after=1)
    # the 13-geese fox chases once four geese are gone; the 17-geese game never does
    assert game.knowledge.chase < 0 and game.knowledge.chase_after == 4
    assert get_game("foxgeese17").knowledge.chase == 0
