"""Fox hunt: the rules (hiding by chance, shots, numbers, the end and its score), the
observation and its sampler, the solo measure and the information-gain bot."""

from __future__ import annotations

import random

import pytest

from myriad.ai import BotSpecError, make_bot
from myriad.arena.match import play_game
from myriad.arena.solo import run_solo
from myriad.core.errors import GameDefinitionError, IllegalMoveError, InvalidMoveError, MyriadError, PositionError
from myriad.games import get_game
from myriad.games.foxhunt import FoxHunt

# a 6x6 grid (rows from the top), foxes on b5, e5, c2 and f1
WHOLE = "....../.f..f./....../....../..f.../.....f 1"


def test_chance_hides_the_foxes_one_by_one() -> None:
    game = get_game("foxhunt6")
    state = game.initial_state()
    assert game.is_chance(state) and len(game.chance_outcomes(state)) == 36
    for cell in ("a1", "b2", "c3"):
        state = game.play_text(state, cell)
        assert game.is_chance(state)
    assert len(game.legal_moves(state)) == 33  # not on a fox already hidden
    with pytest.raises(IllegalMoveError):
        game.parse_move(state, "b2")
    state = game.play_text(state, "f6")
    assert state.to_move == 0 and len(game.legal_moves(state)) == 36
    assert game.format_position(state) == ".....f/....../....../..f.../.f..../f..... 1"


def test_a_shot_shows_the_foxes_on_its_row_column_and_diagonals() -> None:
    game = get_game("foxhunt6")
    state = game.parse_position(WHOLE)
    # b2: row 2 (c2), column b (b5), diagonals a1-f6 (e5), a3-c1 (none)
    after = game.play_text(state, "b2")
    assert game.format_position(after).split("/")[4] == ".3f..."
    # c4: row 4 none; column c: c2; diagonals a2-e6 none, a6-f1: b5 and f1
    after = game.play_text(after, "c4")
    assert game.format_position(after).split("/")[2] == "..3..."
    # a6: row 6 none, column a none, diagonal a6-f1: b5 and f1 -> 2
    after = game.play_text(after, "a6")
    assert game.format_position(after).startswith("2")
    with pytest.raises(IllegalMoveError):
        game.parse_move(after, "a6")  # a cell is shot once
    with pytest.raises(InvalidMoveError):
        game.parse_move(after, "g7")


def test_the_game_ends_when_every_fox_is_found_and_scores_the_shots() -> None:
    game = get_game("foxhunt6")
    state = game.play_text(game.parse_position(WHOLE), "a1")  # a miss: 2 (f1, e5)
    for cell in ("b5", "e5", "c2"):
        state = game.play_text(state, cell)
        assert game.outcome(state) is None
    state = game.play_text(state, "f1")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.reason == "found the 4 foxes in 5 shots"
    assert outcome.scores == ((36 - 5) / (36 - 4),)
    assert game.legal_moves(state) == []
    assert game.observe(state, 0) == state  # all shown at the end


def test_the_observation_hides_the_cells_not_shot() -> None:
    game = get_game("foxhunt6")
    state = game.play_text(game.play_text(game.parse_position(WHOLE), "b5"), "a1")
    seen = game.observe(state, 0)
    assert game.format_position(seen) == "??????/?F????/??????/??????/??????/2????? 1"  # a1: f1, e5
    assert game.parse_position(game.format_position(seen)) == seen
    assert game.legal_moves(seen) == game.legal_moves(state)
    for i in range(20):
        whole = game.determinize(seen, 0, random.Random(i))
        assert game.observe(whole, 0) == seen
        assert game.format_position(whole).count("f") == 3


def test_numbers_that_pin_every_fox_down_leave_one_hiding() -> None:
    game = get_game("foxhunt6")
    assert isinstance(game, FoxHunt)
    state = game.parse_position(WHOLE)
    for cell in ("a6", "a5", "c5", "d5", "f5", "b2", "c4", "a1", "d1", "e2", "c1", "f2", "a2"):
        state = game.play_text(state, cell)
    seen = game.observe(state, 0)
    hidings = {game.determinize(seen, 0, random.Random(i)).cells for i in range(40)}
    assert state.cells in hidings
    # the sampler finds every hiding consistent with the numbers: count them by brute force
    from itertools import combinations
    unknown = [p for p, c in enumerate(seen.cells) if c == 3]
    consistent = 0
    for foxes in combinations(unknown, 4):
        cells = [0 if c == 3 else c for c in seen.cells]
        for p in foxes:
            cells[p] = 1
        try:
            game.check_reachable(cells, 0)
        except PositionError:
            continue
        consistent += game.observe(game.make_state(cells, 0), 0) == seen
    assert consistent == len(hidings) >= 1


def test_an_impossible_observation_is_refused() -> None:
    game = get_game("foxhunt6")
    # a 0 at a1 with every other cell of its lines... and a 1 at b1 whose lines are all on a1's
    seen = game.parse_position("??????/??????/??????/??????/??????/0????? 1")
    assert game.observe(game.determinize(seen, 0, random.Random(1)), 0) == seen
    with pytest.raises(PositionError, match="no hiding"):
        game.determinize(game.parse_position("?????0/????0?/???0??/??0???/?0????/0????? 1"), 0,
                         random.Random(1))


@pytest.mark.parametrize("text, match", [
    ("....../....../....../....../....../...... 1", "0 foxes hidden"),
    ("ffffff/....../....../....../....../...... ?", "6 foxes"),
    ("....../.f..f./....../....../..f.../....1f 1", "shows 1"),
    ("?...../.f..f./....../....../..f.../.....f 1", "either whole"),
    ("....../.F..../....../....../....../...... ?", "no shot before"),
    ("FFFF??/????../????../????../????../????.. 1", "either whole"),
    ("FFFF??/??????/??????/??????/??????/?????? 1", "game is over"),
    ("....../....../....../....../....../...... 2", "expected"),
    ("....../....../....../....../....../..x... ?", "not a cell"),
])
def test_bad_positions_are_refused(text: str, match: str) -> None:
    with pytest.raises(PositionError, match=match):
        get_game("foxhunt6").parse_position(text)


def test_sizes_and_names() -> None:
    assert get_game("foxhunt").size == 10 and get_game("foxhunt").foxes == 8  # type: ignore[attr-defined]
    assert FoxHunt(8, 5).id == "foxhunt8x5"
    with pytest.raises(GameDefinitionError):
        FoxHunt(10, 0)
    with pytest.raises(GameDefinitionError):
        FoxHunt(2, 1)


def test_a_record_with_its_seed_replays_exactly() -> None:
    one = play_game("foxhunt6", ["random:seed=3"], 5.0, chance_seed=7)
    two = play_game("foxhunt6", ["random:seed=3"], 5.0, chance_seed=7)
    other = play_game("foxhunt6", ["random:seed=3"], 5.0, chance_seed=8)
    assert one.moves == two.moves and one.moves[:4] != other.moves[:4]
    game = get_game("foxhunt6")
    state = game.initial_state()
    for text in one.moves:
        state = game.play_text(state, text)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.scores == one.scores


def test_the_information_bot_beats_random_and_heuristic() -> None:
    games = 6
    solver = run_solo("foxhunt6", "infogain:samples=24", games, seed=1, movetime=60)
    heuristic = run_solo("foxhunt6", "heuristic:seed=1", games, seed=1, movetime=60)
    chance = run_solo("foxhunt6", "random:seed=1", games, seed=1, movetime=60)
    assert solver.mean_moves < heuristic.mean_moves < chance.mean_moves
    assert all(4 <= m <= 36 for m in solver.moves + heuristic.moves + chance.moves)


def test_the_information_bot_plays_a_sure_fox_and_refuses_bad_options() -> None:
    game = get_game("foxhunt6")
    # every fox found but the last: only f1 is left where the numbers allow a fox
    state = game.parse_position(WHOLE)
    for cell in ("b5", "e5", "c2", "e1", "d1", "c1", "b1", "a1", "e2", "f2"):
        state = game.play_text(state, cell)
    seen = game.observe(state, 0)
    move = make_bot("infogain:samples=8", game).choose(seen).move
    assert game.format_move(seen, move) == "f1"
    for spec in ("infogain:samples=0", "infogain:greed=-1"):
        with pytest.raises(BotSpecError):
            make_bot(spec, game)
    with pytest.raises(MyriadError, match="at least 1"):
        run_solo("foxhunt6", "random", 0)
    with pytest.raises(MyriadError, match="myriad match"):
        run_solo("tictactoe", "random", 1)
