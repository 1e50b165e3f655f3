"""Rolit: the rule sheet's facts, one per test, and Othello's perft where the rules coincide.

Worked example: the Grey Labyrinth's 2011 game thread (board written with row 1 on top:
red on D4, yellow E4, blue D5, green E5, i.e. d5, e5, d4, e4 here): "from the starting
position, Red can play D6 (capturing Blue), F4 (capturing Yellow), or F6 (capturing
Green)", here d3, f5 and f3; after F4 "Yellow has 14 moves available".
Othello perft 4, 12, 56, 244, 1396, 8200: Aart Bik's published counts (also in
tests/test_othello.py).
"""

from __future__ import annotations

import pytest

from myriad.core.errors import GameDefinitionError, IllegalMoveError, PositionError
from myriad.core.game import perft
from myriad.core.mechanics.flanking import ColourFlips
from myriad.core.topology import square_board
from myriad.games import get_game
from myriad.games.rolit import Rolit

START = "8/8/8/3RY3/3BG3/8/8/8 r"
OTHELLO_PERFT = [4, 12, 56, 244, 1396, 8200]


@pytest.fixture(scope="module")
def game() -> Rolit:
    return get_game("rolit")  # type: ignore[return-value]


def names(game: Rolit, position: str) -> list[str]:
    state = game.parse_position(position)
    return [game.format_move(state, m) for m in game.legal_moves(state)]


def after(game: Rolit, position: str, *texts: str) -> str:
    state = game.parse_position(position)
    for text in texts:
        state = game.play_text(state, text)
    return game.format_position(state)


def test_four_balls_one_of_each_colour_start_in_the_centre_clockwise(game: Rolit) -> None:
    assert game.format_position(game.initial_state()) == START


def test_the_players_are_the_four_colours_in_clockwise_order(game: Rolit) -> None:
    assert game.player_names == ("red", "yellow", "green", "blue")


def test_every_player_count_starts_from_the_same_four_balls() -> None:
    for game_id, players in (("rolit2", ("red", "green")), ("rolit3", ("red", "yellow", "green"))):
        game = get_game(game_id)
        assert game.player_names == players
        assert game.format_position(game.initial_state()) == START


def test_red_opens_with_the_three_traps_of_the_worked_example(game: Rolit) -> None:
    assert names(game, START) == ["d3", "f3", "f5"]


def test_a_trap_rolls_the_line_over(game: Rolit) -> None:
    assert after(game, START, "f5") == "8/8/8/3RRR2/3BG3/8/8/8 y"


def test_without_a_trap_a_ball_goes_next_to_any_ball(game: Rolit) -> None:
    moves = names(game, "8/8/8/3RRR2/3BG3/8/8/8 y")   # yellow has no ball left
    assert len(moves) == 14
    assert set(moves) == {"c6", "d6", "e6", "f6", "g6", "c5", "g5", "c4", "f4", "g4", "c3", "d3", "e3", "f3"}


def test_a_ball_placed_without_a_trap_turns_nothing(game: Rolit) -> None:
    assert after(game, "8/8/8/3RRR2/3BG3/8/8/8 y", "c6") == "8/8/2Y5/3RRR2/3BG3/8/8/8 g"


def test_a_trap_is_compulsory_when_there_is_one(game: Rolit) -> None:
    state = game.parse_position(START)
    with pytest.raises(IllegalMoveError):
        game.parse_move(state, "c6")  # next to a ball, but red can trap elsewhere


def test_turns_go_clockwise_round_the_colours(game: Rolit) -> None:
    state = game.initial_state()
    order = []
    for _ in range(5):
        order.append(game.player_names[state.to_move])
        state = game.play(state, game.legal_moves(state)[0])
    assert order == ["red", "yellow", "green", "blue", "red"]


def test_a_line_of_mixed_colours_is_trapped_whole(game: Rolit) -> None:
    assert after(game, "8/8/8/8/8/8/8/RYGB4 r", "e1") == "8/8/8/8/8/8/8/RRRRR3 y"


def test_only_the_balls_up_to_the_nearest_own_ball_roll(game: Rolit) -> None:
    assert after(game, "8/8/8/8/8/8/8/RYRY4 r", "e1") == "8/8/8/8/8/8/8/RYRRR3 y"


def test_colours_nobody_plays_are_trapped_like_any_other() -> None:
    two = get_game("rolit2")   # yellow and blue are nobody's
    assert after(two, START, "f5") == "8/8/8/3RRR2/3BG3/8/8/8 g"
    assert names(two, START) == ["d3", "f3", "f5"]


def test_a_colour_that_does_not_play_cannot_be_to_move() -> None:
    with pytest.raises(PositionError, match="r/g"):
        get_game("rolit2").parse_position("8/8/8/3RY3/3BG3/8/8/8 y")


def test_two_players_from_othellos_start_move_as_in_othello() -> None:
    rolit2, othello = get_game("rolit2"), get_game("othello")
    start = rolit2.initial_state("othello")
    assert rolit2.format_position(start) == "8/8/8/3RG3/3GR3/8/8/8 r"
    assert [perft(rolit2, start, d) for d in range(1, 7)] == OTHELLO_PERFT
    assert [perft(othello, othello.initial_state(), d) for d in range(1, 7)] == OTHELLO_PERFT


def test_where_othello_would_pass_rolit_places_next_to_a_ball() -> None:
    rolit2 = get_game("rolit2")
    # Green has no ball to trap with: Othello passes, Rolit places next to the red ones.
    assert names(rolit2, "8/8/8/8/8/8/8/RR6 g") == ["c1", "a2", "b2", "c2"]


def test_the_game_ends_when_the_board_is_full_and_most_balls_win(game: Rolit) -> None:
    full = "RRRRRRRR/RRRRRRRR/YYYYYYYY/YYYYYYYY/GGGGGGGG/GGGGGGGG/BBBBBBBB/BBBBBBBR r"
    state = game.parse_position(full)
    outcome = game.outcome(state)
    assert game.legal_moves(state) == []
    assert outcome is not None and outcome.scores == (1.0, 0.0, 0.0, 0.0) and "17-16-16-15" in outcome.reason


def test_players_tied_for_the_most_share_the_win(game: Rolit) -> None:
    full = "RRRRRRRR/RRRRRRRR/YYYYYYYY/YYYYYYYY/GGGGGGGG/GGGGGGGG/BBBBBBBB/BBBBBBBB r"
    outcome = game.outcome(game.parse_position(full))
    assert outcome is not None and outcome.scores == (0.25,) * 4 and outcome.winner is None
    three = get_game("rolit3")
    shared = three.outcome(three.parse_position(
        "RRRRRRRR/RRRRRRRR/RRRRRRRR/YYYYYYYY/YYYYYYYY/YYYYYYYY/GGGGGGGG/BBBBBBBB r"))
    assert shared is not None and shared.scores == (0.5, 0.5, 0.0) and "share" in shared.reason


def test_the_game_goes_on_while_a_cell_is_empty(game: Rolit) -> None:
    assert game.outcome(game.initial_state()) is None


def test_an_empty_board_is_refused(game: Rolit) -> None:
    with pytest.raises(PositionError, match="empty"):
        game.parse_position("8/8/8/8/8/8/8/8 r")


def test_evaluation_favours_the_player_with_more_balls_and_corners(game: Rolit) -> None:
    state = game.parse_position("R7/8/8/3RR3/3BG3/8/8/8 y")
    assert game.evaluate_for(state, 0) > 0 > game.evaluate_for(state, 1)
    assert sum(game.evaluate_for(state, p) for p in range(4)) == pytest.approx(0)


def test_bad_declarations_are_refused() -> None:
    with pytest.raises(GameDefinitionError):
        Rolit(players=5)
    with pytest.raises(GameDefinitionError):
        Rolit(size=7)
    with pytest.raises(GameDefinitionError):
        ColourFlips(square_board(4, 4), (1,))


def test_the_small_board_starts_in_its_centre() -> None:
    small = Rolit(4, size=6)
    assert small.format_position(small.initial_state()) == "6/6/2RY2/2BG2/6/6 r"
