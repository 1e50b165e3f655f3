"""The fog-of-war mechanic (myriad.core.mechanics.fog) on dark chess's and dark xiangqi's tables:
what a player sees, and the whole boards a Shadow draws behind an observation."""

from __future__ import annotations

import random

import pytest

from myriad.core.errors import PositionError
from myriad.games import get_game


def names(game, squares) -> set[str]:  # type: ignore[no-untyped-def]
    return {game.topology.names[q] for q in squares}


def test_paths_are_the_squares_between_on_a_line() -> None:
    game = get_game("darkchess")
    pos = game.topology.index
    assert names(game, game.fog.path(pos["a1"], pos["a4"])) == {"a2", "a3"}
    assert game.fog.path(pos["g1"], pos["f3"]) == ()  # a knight's leap passes over nothing


def test_a_player_sees_its_pieces_and_where_they_move() -> None:
    game = get_game("darkchess")
    state = game.parse_position("7k/8/8/p7/8/8/8/R3K3[] w - - 0 1")
    seen = game.fog.seen(state.cells, 0, game.legal_moves(state), game.pieces.owner_of)
    assert names(game, seen) == {"a1", "e1", "a2", "a3", "a4", "a5", "b1", "c1", "d1",
                                 "d2", "e2", "f2", "f1"}


def test_a_cannon_sees_its_screen_and_what_it_takes() -> None:
    game = get_game("darkxiangqi")
    # Red: chariot a1, cannon c1, general e1; Black: horse c5 (the screen), chariot c8, general e10.
    state = game.parse_position("4k4/9/2r6/9/9/2n6/9/9/9/R1C1K4[] w - - 0 1")
    seen = names(game, game.fog.seen(state.cells, 0, game.legal_moves(state), game.pieces.owner_of))
    assert {"c2", "c3", "c4", "c5", "c6", "c7", "c8"} <= seen  # the path, the screen, the target
    assert "c9" not in seen and "c10" not in seen and "e10" not in seen


def test_a_blocked_double_step_square_must_hold_a_piece() -> None:
    game = get_game("darkchess")
    state = game.parse_position("7k/8/8/8/4p3/8/4P3/4K3[] w - - 0 1")
    seen = game.observe(state, 0)
    pos = game.topology.index
    assert seen.cells[pos["e4"]] == game.fog_codes[0] and seen.cells[pos["e3"]] == 0
    shadow = game.fog_view.shadow(seen, 0)
    assert names(game, shadow.must_fill) == {"e4"}
    rng = random.Random(1)
    for _ in range(20):
        whole = game.determinize(seen, 0, rng)
        assert whole.cells[pos["e4"]] != 0 and game.observe(whole, 0) == seen


def test_an_observation_no_board_fits_is_refused() -> None:
    game = get_game("darkchess")
    state = game.parse_position("7k/8/8/8/3pp3/8/3PP3/4K3[QRRBBNNPPPPPP] w - - 0 1")
    seen = game.observe(state, 0)
    assert len(game.fog_view.shadow(seen, 0).must_fill) == 2  # d4 and e4: the double steps are blocked
    # The same view if White had taken every black piece but the king: one piece, two squares to fill.
    hands = list(map(list, seen.hands))
    hands[0][game.pieces.kind_index["pawn"]] += 2
    forged = game.make_state(seen.cells, seen.to_move, seen.flags, seen.counters, hands)
    with pytest.raises(PositionError, match="2 fogged squares must hold a piece, but only 1"):
        game.determinize(forged, 0, random.Random(1))


def test_a_view_must_fog_exactly_what_its_player_cannot_see() -> None:
    game = get_game("darkchess")
    with pytest.raises(PositionError, match="e3 is fogged, but it sees it"):
        game.parse_position("????????/????????/????????/????????/8/4?3/PPPPPPPP/RNBQKBNR[] w KQ - 0 1")
    with pytest.raises(PositionError, match="e8 is shown, but it cannot see it"):
        game.parse_position("????k???/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR[] w KQ - 0 1")
    with pytest.raises(PositionError, match="both views"):
        game.parse_position("????????/????????/????????/*7/8/8/PPPPPPPP/RNBQKBNR[] w KQ - 0 1")


def test_a_view_is_observed_only_by_its_player() -> None:
    game = get_game("darkchess")
    view = game.observe(game.initial_state(), 1)
    assert game.observe(view, 1) == view  # observing one's own view changes nothing
    with pytest.raises(PositionError, match="black's view; white cannot observe it"):
        game.observe(view, 0)
