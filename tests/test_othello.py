"""Othello against othello_perft.json (Aart Bik's convention), solved.json and the rule book.

    python -m pytest -q tests/test_othello.py            # perft to depth 7, a few seconds
    python -m pytest -q tests/test_othello.py -m slow    # depths 8-10 (minutes)
"""

from __future__ import annotations

import random

import pytest

from myriad.core.errors import GameDefinitionError, IllegalMoveError, InvalidMoveError, PositionError
from myriad.core.game import perft
from myriad.core.mechanics.placement import LineFlips
from myriad.core.move import DROP, PASS, SET
from myriad.core.state import State
from myriad.games import get_game
from myriad.games.othello import Othello, othello

from oracles import load_oracle

FAST_DEPTH = 7


def oracle(name: str) -> dict:  # type: ignore[type-arg]
    data: dict = load_oracle(name)  # type: ignore[type-arg]  # fails when the file is missing
    return data


def bik_start() -> tuple[Othello, State, dict[int, int]]:
    """The start position of the oracle file, read from its square lists, and its perft."""
    entry = oracle("othello_perft.json")["positions"][0]
    game = othello()
    board = entry["board"]
    cells = [0] * game.topology.size
    for colour, player in (("black", 0), ("white", 1)):
        for square in board[colour]:
            cells[game.topology.pos(square)] = game.discs[player]
    state = game.make_state(cells, 0 if board["to_move"] == "black" else 1, (), (0,))
    return game, state, {int(d): n for d, n in entry["perft"].items()}


def bik_perft(game: Othello, state: State, depth: int) -> int:
    """Perft in Bik's convention: at a finished position not reached by a pass, the side
    to move still passes once (``legal_moves`` lists nothing there: the game is over)."""
    if depth == 0:
        return 1
    moves = game.legal_moves(state)
    if not moves and state.counters[0] == 0:
        moves = [PASS]
    if depth == 1:
        return len(moves)
    return sum(bik_perft(game, game.play(state, m), depth - 1) for m in moves)


def test_start_matches_the_oracle_board() -> None:
    game, state, _ = bik_start()
    assert state == game.initial_state()


def test_perft_bik() -> None:
    game, state, expected = bik_start()
    for depth in range(1, FAST_DEPTH + 1):
        assert bik_perft(game, state, depth) == expected[depth], depth
        assert perft(game, state, depth) == expected[depth], depth  # no game ends this early


@pytest.mark.slow
@pytest.mark.parametrize("depth", [8, 9, 10])
def test_perft_bik_deep(depth: int) -> None:
    """Depth 9 has the first forced passes; depth 10 counts the pass out of the 228 9-ply
    wipe-outs (Bik convention: 24571284, not Fairy-Stockfish's 24571056)."""
    game, state, expected = bik_start()
    assert bik_perft(game, state, depth) == expected[depth]


# -- start positions ------------------------------------------------------------------------------

@pytest.mark.parametrize("size, text", [
    (4, "4/1XO1/1OX1/4 x"),
    (6, "6/6/2XO2/2OX2/6/6 x"),
    (8, "8/8/8/3XO3/3OX3/8/8/8 x"),
    (10, "10/10/10/10/4XO4/4OX4/10/10/10/10 x"),
])
def test_start_positions(size: int, text: str) -> None:
    game = othello(size)
    start = game.initial_state()
    assert game.format_position(start) == text
    assert game.parse_position(text) == start
    assert start.to_move == 0 and game.player_names[0] == "black"
    assert len(game.legal_moves(start)) == 4  # the four symmetric openings


def test_standard_start_squares_and_openings() -> None:
    game = othello()
    start = game.initial_state()
    black, white = game.discs
    assert {game.square_name(p) for p, v in enumerate(start.cells) if v == black} == {"d5", "e4"}
    assert {game.square_name(p) for p, v in enumerate(start.cells) if v == white} == {"d4", "e5"}
    assert sorted(game.format_move(start, m) for m in game.legal_moves(start)) == ["c4", "d3", "e6", "f5"]
    after = game.play_text(start, "d3")
    assert game.format_position(after) == "8/8/8/3XO3/3XX3/3X4/8/8 o"
    assert sorted(game.format_move(after, m) for m in game.legal_moves(after)) == ["c3", "c5", "e3"]


@pytest.mark.parametrize("size", [0, 2, 3, 5, 7, 11, 12, -4])
def test_bad_sizes(size: int) -> None:
    with pytest.raises(GameDefinitionError):
        othello(size)
    with pytest.raises(ValueError):
        othello(size)


# -- flips -------------------------------------------------------------------------------------

def test_flips_in_several_directions() -> None:
    game = othello()
    # Black plays d4: flanks c4 (W), e4 (E), d5 (N), d3 (S), c5 (NW), e3+f2 (SE);
    # e5 (NE, open end at f6) and c3 (SW, open end at b2) stay white.
    state = game.parse_position("8/8/1X1X4/2OOO3/1XO1OX2/2OOO3/3X1O2/6X1 x")
    move = game.parse_move(state, "d4")
    assert move[0][0] == DROP and all(a[0] == SET for a in move[1:])
    assert sorted(game.square_name(a[2]) for a in move[1:]) == ["c4", "c5", "d3", "d5", "e3", "e4", "f2"]
    after = game.play(state, move)
    assert game.format_position(after) == "8/8/1X1X4/2XXO3/1XXXXX2/2OXX3/3X1X2/6X1 o"
    assert after.key == game.recomputed_key(after)


def test_no_placement_without_a_flip() -> None:
    game = othello(4)
    state = game.parse_position("4/1XO1/1OX1/4 x")
    for text in ("a1", "a4", "d4", "a3", "d1"):
        with pytest.raises(IllegalMoveError):
            game.parse_move(state, text)


# -- passes and the end ------------------------------------------------------------------------

def test_forced_pass() -> None:
    game = othello(4)
    # White's only disc b4 sits beside Black's a4 on the edge: White cannot flank anything.
    state = game.parse_position("XO2/4/4/4 o")
    assert game.legal_moves(state) == [PASS]
    assert game.format_move(state, PASS) == "pass"
    assert game.outcome(state) is None
    with pytest.raises(IllegalMoveError):
        game.parse_move(state, "c4")
    passed = game.play_text(state, "pass")
    assert passed.to_move == 0 and passed.counters == (1,)
    assert game.format_position(passed) == "XO2/4/4/4 x 1"
    assert game.parse_position("XO2/4/4/4 x 1") == passed
    assert [game.format_move(passed, m) for m in game.legal_moves(passed)] == ["c4"]
    with pytest.raises(IllegalMoveError):
        game.parse_move(passed, "pass")
    # Black wipes White out: nobody can place, the game is over at once ...
    wiped = game.play_text(passed, "c4")
    assert game.format_position(wiped) == "XXX1/4/4/4 o" and wiped.counters == (0,)
    outcome = game.outcome(wiped)
    assert outcome is not None and outcome.winner == 0 and "3-0" in outcome.reason
    # ... and there is no legal move (Bik's perft still counts a pass here: bik_perft).
    assert game.legal_moves(wiped) == []
    final = game.play(wiped, PASS)
    assert game.legal_moves(final) == []
    assert game.outcome(final) == outcome


def test_full_board_results() -> None:
    game = othello(4)
    draw = game.outcome(game.parse_position("XXXX/XXXX/OOOO/OOOO x"))
    assert draw is not None and draw.winner is None and draw.scores == (0.5, 0.5) and "8-8" in draw.reason
    black = game.outcome(game.parse_position("XXXX/XXXX/XOOO/OOOO o"))
    assert black is not None and black.winner == 0 and "9-7" in black.reason
    white = game.outcome(game.parse_position("OOOO/OOOO/OOOO/XXXO x"))
    assert white is not None and white.winner == 1


def test_game_with_empty_cells_left_ends_when_nobody_can_place() -> None:
    game = othello(4)
    # a4 empty, but both its lines lead to White discs only: neither side can flank.
    state = game.parse_position("1OOO/OOOO/OOOO/OOXO x")
    assert game.outcome(state) is not None and game.outcome(state).winner == 1  # type: ignore[union-attr]
    state = game.parse_position("1OOO/OOOO/OOOO/XOOX x")  # Black can play a4 (flank the a-file)
    assert game.outcome(state) is None
    assert [game.format_move(state, m) for m in game.legal_moves(state)] == ["a4"]


def test_4x4_is_a_white_win_by_eight() -> None:
    fact = next(r for r in oracle("solved.json")["results"]
                if r["game"] == "othello / reversi" and r["board"].startswith("4x4"))
    game = othello(4)
    black, white = game.discs
    memo: dict[State, int] = {}

    def value(state: State) -> int:
        """Final disc difference (Black minus White) under perfect play."""
        if state not in memo:
            if game.outcome(state) is not None:
                memo[state] = state.cells.count(black) - state.cells.count(white)
            else:
                scores = [value(game.play(state, m)) for m in game.legal_moves(state)]
                memo[state] = max(scores) if state.to_move == 0 else min(scores)
        return memo[state]

    assert value(game.initial_state()) == fact["details"]["final_disc_difference_for_first_player"] == -8


# -- notation ------------------------------------------------------------------------------------

def test_errors() -> None:
    game = othello()
    start = game.initial_state()
    for text in ["8/8/8/3XO3/3OX3/8/8 x", "8/8/8/3XO3/3OX3/8/8/8/8 x", "8/8/8/3XB3/3OX3/8/8/8 x",
                 "8/8/8/3XO3/3OX4/8/8/8 x", "8/8/8/3XO3/3OX3/8/8/8", "8/8/8/3XO3/3OX3/8/8/8 b",
                 "8/8/8/3XO3/3OX3/8/8/8 x 2", "8/8/8/3XO3/3OX3/8/8/8 x -", "8/8/8/3XO3/3OX3/8/8/8 x 1 1"]:
        with pytest.raises(PositionError):
            game.parse_position(text)
    with pytest.raises(IllegalMoveError):
        game.parse_move(start, "d4")  # occupied
    with pytest.raises(IllegalMoveError):
        game.parse_move(start, "a1")  # flanks nothing
    with pytest.raises(IllegalMoveError):
        game.parse_move(start, "pass")  # placements exist
    for text in ("i1", "a9", "z99", "d", "3", "passe", "d3d4", "\u00b3"):
        with pytest.raises(InvalidMoveError):
            game.parse_move(start, text)
    assert game.parse_move(start, "D3") == game.parse_move(start, "d3")


@pytest.mark.parametrize("size", [4, 6, 8, 10])
def test_round_trips_along_random_games(size: int) -> None:
    game = othello(size)
    rng = random.Random(size)
    for _ in range(3):
        state = game.initial_state()
        while game.outcome(state) is None:
            text = game.format_position(state)
            assert game.parse_position(text) == state
            assert game.recomputed_key(state) == state.key
            moves = game.legal_moves(state)
            for move in moves:
                assert game.parse_move(state, game.format_move(state, move)) == move
            state = game.play(state, rng.choice(moves))
        assert 0 not in state.cells or not game.flips.can_place(state.cells, 0)


def test_ray_walk_and_bit_sets_agree() -> None:
    """The bit-set search of legal cells and the plain ray walk (used on boards whose
    directions are not translations) give the same moves."""
    game = othello(6)
    walker = LineFlips(game.topology, game.discs)
    walker.shifts = None  # as on a board whose directions are not translations
    rng = random.Random(3)
    for _ in range(5):
        state = game.initial_state()
        while game.outcome(state) is None:
            moves = game.legal_moves(state)
            if moves != [PASS]:
                assert walker.moves(state.cells, state.to_move) == moves
                assert walker.placement_cells(state.cells, state.to_move) == \
                    game.flips.placement_cells(state.cells, state.to_move)
            state = game.play(state, rng.choice(moves))


def test_registry() -> None:
    assert get_game("othello").size == 8  # type: ignore[attr-defined]
    assert get_game("othello4").size == 4  # type: ignore[attr-defined]
    assert get_game("othello10").format_position(get_game("othello10").initial_state()).startswith("10/")
