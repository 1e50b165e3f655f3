"""Pig: the rule book's facts (Neller and Presser 2004), one per test, on ``pig`` and ``pig20``."""

from __future__ import annotations

import pytest

from myriad.core.errors import GameDefinitionError, IllegalMoveError, InvalidMoveError, PositionError
from myriad.core.game import perft
from myriad.core.mechanics.dice import Die, PushYourLuck
from myriad.games import get_game
from myriad.games.pig import Pig


@pytest.fixture(scope="module")
def game() -> Pig:
    return get_game("pig")  # type: ignore[return-value]


def moves(game: Pig, position: str) -> list[str]:
    state = game.parse_position(position)
    return [game.format_move(state, m) for m in game.legal_moves(state)]


def after(game: Pig, position: str, *texts: str) -> str:
    state = game.parse_position(position)
    for text in texts:
        state = game.play_text(state, text)
    return game.format_position(state)


def test_the_game_starts_at_zero_with_the_first_player_rolling(game: Pig) -> None:
    state = game.initial_state()
    assert game.format_position(state) == "0,0 0 - 1"
    assert state.to_move == 0 and game.player_names == ("first", "second")


def test_a_turn_starts_with_a_roll_not_a_hold(game: Pig) -> None:
    assert moves(game, "0,0 0 - 1") == ["roll"]
    assert moves(game, "10,0 0 4 2") == ["roll"]


def test_with_a_turn_total_the_player_may_roll_or_hold(game: Pig) -> None:
    assert moves(game, "0,0 8 5 1") == ["roll", "hold"]


def test_a_roll_hands_the_move_to_the_die(game: Pig) -> None:
    state = game.play_text(game.initial_state(), "roll")
    assert game.is_chance(state) and game.mover_name(state) == "chance"
    assert game.format_position(state) == "0,0 0 - 1?"


def test_the_die_has_six_equally_likely_faces(game: Pig) -> None:
    state = game.parse_position("0,0 0 - 1?")
    outcomes = game.chance_outcomes(state)
    assert [game.format_move(state, m) for m, _ in outcomes] == ["1", "2", "3", "4", "5", "6"]
    assert [p for _, p in outcomes] == pytest.approx([1 / 6] * 6)


def test_a_roll_of_two_to_six_adds_to_the_turn_total_and_the_player_goes_on(game: Pig) -> None:
    assert after(game, "0,0 0 - 1", "roll", "4") == "0,0 4 4 1"
    assert after(game, "0,0 4 4 1", "roll", "6") == "0,0 10 6 1"


def test_a_roll_of_one_loses_the_turn_total_and_passes_the_turn(game: Pig) -> None:
    assert after(game, "30,12 17 5 1", "roll", "1") == "30,12 0 1 2"


def test_holding_banks_the_turn_total_and_passes_the_turn(game: Pig) -> None:
    assert after(game, "30,12 17 5 1", "hold") == "47,12 0 5 2"


def test_the_turn_passes_round_all_players() -> None:
    three = Pig(100, players=3)
    assert after(three, "0,0,0 6 6 3", "hold") == "0,0,6 0 6 1"
    assert after(three, "0,0,0 6 6 2", "roll", "1") == "0,0,0 0 1 3"


def test_reaching_the_target_ends_the_game_at_once(game: Pig) -> None:
    text = after(game, "90,50 6 6 1", "roll", "5")
    assert text.startswith("101,50 0 5 ")
    state = game.parse_position(text)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.scores == (1.0, 0.0) and "first reached 100" in outcome.reason
    assert game.legal_moves(state) == []


def test_a_one_at_the_brink_still_loses_the_total(game: Pig) -> None:
    assert after(game, "90,50 6 6 1", "roll", "1") == "90,50 0 1 2"


def test_a_small_target_is_won_by_any_first_roll_but_a_one() -> None:
    """Pig to 2: the first roll decides; the first player wins with probability 5/6."""
    tiny = Pig(2)
    state = tiny.play_text(tiny.initial_state(), "roll")
    wins = sum(p for move, p in tiny.chance_outcomes(state) if tiny.outcome(tiny.play(state, move)) is not None)
    assert wins == pytest.approx(5 / 6)


def test_pig20_is_registered_with_its_target() -> None:
    small = get_game("pig20")
    assert isinstance(small, Pig) and small.target == 20
    assert after(small, "15,0 4 4 1", "roll", "2").startswith("21,0 0 2")


def test_perft_counts_the_faces_as_plies(game: Pig) -> None:
    # roll; six faces; after 1 the second player's roll, after 2-6 roll or hold (2 each).
    assert [perft(game, game.initial_state(), d) for d in (1, 2, 3)] == [1, 6, 1 + 5 * 2]


def test_the_key_covers_scores_turn_total_die_and_who_moves(game: Pig) -> None:
    texts = ["10,20 6 6 1", "20,10 6 6 1", "10,20 8 6 1", "10,20 6 3 1", "10,20 6 6 1?", "10,20 6 6 2"]
    keys = {game.parse_position(t).key for t in texts}
    assert len(keys) == len(texts)


def test_positions_round_trip(game: Pig) -> None:
    for text in ("0,0 0 - 1", "12,30 8 4 2", "12,30 8 4 2?", "99,0 0 1 1", "100,30 0 6 2"):
        assert game.format_position(game.parse_position(text)) == text


@pytest.mark.parametrize("text,reason", [
    ("0,0 0 - 1 x", "expected"),
    ("0,0,0 0 - 1", "3 scores"),
    ("0,0 0 - 3", "side"),
    ("0,0 1 - 1", "cannot follow"),          # a total of 1: rolls of 2-6 only add
    ("0,0 4 - 1", "cannot follow"),          # points without a roll
    ("0,0 4 6 1", "cannot follow"),          # the last roll is more than the total
    ("95,0 6 6 1", "banked"),                # 101 would have been banked at once
    ("100,100 0 6 1", "players at the target"),
    ("100,0 4 6 2", "game is over"),
    ("0,0 0 7 1", "die"),
    ("-1,0 0 - 1", "score"),
])
def test_impossible_positions_are_refused(game: Pig, text: str, reason: str) -> None:
    with pytest.raises(PositionError, match=reason):
        game.parse_position(text)


def test_moves_outside_the_notation_and_illegal_ones_are_told_apart(game: Pig) -> None:
    state = game.initial_state()
    with pytest.raises(InvalidMoveError, match="'roll', 'hold'"):
        game.parse_move(state, "jump")
    with pytest.raises(IllegalMoveError):
        game.parse_move(state, "hold")   # nothing to hold yet
    with pytest.raises(IllegalMoveError):
        game.parse_move(state, "3")      # the die is not rolling


def test_evaluation_counts_the_turn_total_for_the_player_on_turn(game: Pig) -> None:
    state = game.parse_position("30,40 15 5 1")
    assert game.evaluate_for(state, 0) == 5 and game.evaluate_for(state, 1) == -5
    assert game.evaluate(game.parse_position("30,40 15 5 1?")) == 5


def test_render_shows_scores_turn_total_and_die(game: Pig) -> None:
    text = game.render(game.parse_position("12,30 8 4 2?"))
    assert "12 / 100" in text and "turn total 8" in text and "die: 4   (rolling)" in text


def test_bad_declarations_are_refused() -> None:
    with pytest.raises(GameDefinitionError):
        Pig(1)
    with pytest.raises(GameDefinitionError):
        Pig(100, players=5)
    with pytest.raises(GameDefinitionError):
        Die(1)
    with pytest.raises(GameDefinitionError):
        PushYourLuck((0, 1), 2, 3, Die(2), bust=(1, 2), target=10)  # every face a bust
