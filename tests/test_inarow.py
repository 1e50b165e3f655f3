"""In-a-row games: tic-tac-toe, Connect Four and gomoku against counts.json and their rule books.

Numbers come from the oracle files (found by tests/oracles.py): counts.json (tic-tac-toe games
and positions, Connect Four positions per ply and move sequences) and solved.json (tic-tac-toe
is a draw);
rule facts (overlines, gravity, notation) from the rules of each game.

    python -m pytest -q tests/test_inarow.py            # default, a few seconds
    python -m pytest -q tests/test_inarow.py -m slow    # deeper Connect Four counts
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from myriad.core.errors import GameDefinitionError, IllegalMoveError, InvalidMoveError, PositionError
from myriad.core.game import Game, perft
from myriad.core.state import State
from myriad.games import get_game
from myriad.games.inarow import InARow, connect_four, gomoku, mnk_game, tictactoe

from oracles import load_oracle


def oracle(name: str) -> dict:  # type: ignore[type-arg]
    data: dict = load_oracle(name)  # type: ignore[type-arg]
    return data


def ints(table: dict[str, int]) -> dict[int, int]:
    return {int(k): v for k, v in table.items()}


def layers(game: Game, plies: int) -> list[dict[State, int]]:
    """Distinct positions after each ply, each with the number of move sequences reaching it;
    finished games are not extended."""
    out = [{game.initial_state(): 1}]
    for _ in range(plies):
        nxt: dict[State, int] = {}
        for state, paths in out[-1].items():
            for move in game.legal_moves(state):
                child = game.play(state, move)
                nxt[child] = nxt.get(child, 0) + paths
        out.append(nxt)
    return out


def play_line(game: Game, moves: str, start: State | None = None) -> State:
    state = start or game.initial_state()
    for text in moves.split():
        state = game.play_text(state, text)
    return state


# -- tic-tac-toe ------------------------------------------------------------------------------

RESULT = {0: "X", 1: "O", None: "draw"}


@pytest.fixture(scope="module")
def ttt_layers() -> list[dict[State, int]]:
    return layers(tictactoe(), 9)


def test_tictactoe_positions_and_move_sequences(ttt_layers: list[dict[State, int]]) -> None:
    facts = oracle("counts.json")["tic_tac_toe"]
    assert {ply: len(layer) for ply, layer in enumerate(ttt_layers)} == ints(facts["legal_positions_by_ply"])
    assert sum(len(layer) for layer in ttt_layers) == facts["legal_positions_total_including_empty"] == 5478
    assert {ply: sum(layer.values()) for ply, layer in enumerate(ttt_layers)} == ints(facts["perft_by_ply"])


def test_tictactoe_games_and_terminal_positions(ttt_layers: list[dict[State, int]]) -> None:
    facts = oracle("counts.json")["tic_tac_toe"]
    game = tictactoe()
    games_by_result: Counter[str] = Counter()
    games_by_length: Counter[str] = Counter()
    terminal_by_result: Counter[str] = Counter()
    for ply, layer in enumerate(ttt_layers):
        for state, paths in layer.items():
            outcome = game.outcome(state)
            assert (outcome is None) == bool(game.legal_moves(state))
            if outcome is not None:
                games_by_result[RESULT[outcome.winner]] += paths
                games_by_length[str(ply)] += paths
                terminal_by_result[RESULT[outcome.winner]] += 1
    assert sum(games_by_result.values()) == facts["games_total"] == 255168
    assert dict(games_by_result) == facts["games_by_result"]
    assert dict(games_by_length) == facts["games_by_length_plies"]
    assert sum(terminal_by_result.values()) == facts["terminal_positions"]
    assert dict(terminal_by_result) == facts["terminal_positions_by_result"]


def square_symmetries(size: int) -> list[list[int]]:
    """The 8 symmetries of a square board as position permutations (a1 = 0, row by row)."""
    def at(c: int, r: int) -> int:
        return r * size + c
    n = size - 1
    maps = [lambda c, r: (c, r), lambda c, r: (n - r, c), lambda c, r: (n - c, n - r), lambda c, r: (r, n - c),
            lambda c, r: (n - c, r), lambda c, r: (c, n - r), lambda c, r: (r, c), lambda c, r: (n - r, n - c)]
    return [[at(*f(c, r)) for r in range(size) for c in range(size)] for f in maps]


def test_tictactoe_positions_up_to_symmetry(ttt_layers: list[dict[State, int]]) -> None:
    facts = oracle("counts.json")["tic_tac_toe"]
    game = tictactoe()
    syms = square_symmetries(3)
    by_ply = {}
    terminal: Counter[str] = Counter()
    for ply, layer in enumerate(ttt_layers):
        classes = {}
        for state in layer:
            canon = min(tuple(state.cells[p] for p in perm) for perm in syms)
            classes[canon] = state
        by_ply[ply] = len(classes)
        for state in classes.values():
            outcome = game.outcome(state)
            if outcome is not None:
                terminal[RESULT[outcome.winner]] += 1
    assert by_ply == ints(facts["positions_up_to_symmetry_by_ply"])
    assert sum(by_ply.values()) == facts["positions_up_to_symmetry"] == 765
    assert sum(terminal.values()) == facts["terminal_positions_up_to_symmetry"]
    assert dict(terminal) == facts["terminal_up_to_symmetry_by_result"]


def test_tictactoe_generic_perft() -> None:
    facts = ints(oracle("counts.json")["tic_tac_toe"]["perft_by_ply"])
    game = tictactoe()
    for depth in range(0, 7):
        assert perft(game, game.initial_state(), depth) == facts[depth], depth


def test_tictactoe_is_a_draw() -> None:
    solved = next(r for r in oracle("solved.json")["results"] if r["game"] == "tic-tac-toe")
    game = tictactoe()
    memo: dict[State, float] = {}

    def value(state: State) -> float:
        """Score of the first player under perfect play."""
        if state not in memo:
            outcome = game.outcome(state)
            if outcome is not None:
                memo[state] = outcome.scores[0]
            else:
                scores = [value(game.play(state, m)) for m in game.legal_moves(state)]
                memo[state] = max(scores) if state.to_move == 0 else min(scores)
        return memo[state]

    assert solved["result"] == "draw"
    assert value(game.initial_state()) == 0.5


def test_tictactoe_rules() -> None:
    game = tictactoe()
    start = game.initial_state()
    assert game.format_position(start) == "3/3/3 x"
    assert [game.format_move(start, m) for m in game.legal_moves(start)] == [
        "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    won = play_line(game, "a1 a2 b1 b2 c1")
    assert game.format_position(won) == "3/OO1/XXX o"
    assert game.legal_moves(won) == []
    outcome = game.outcome(won)
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "three in a row"
    column = play_line(game, "a1 b1 c1 b2 a2 b3")
    assert game.outcome(column) is not None and game.outcome(column).winner == 1  # type: ignore[union-attr]
    anti = play_line(game, "c1 a1 b2 b1 a3")
    assert game.outcome(anti).reason == "three in a row"  # type: ignore[union-attr]
    drawn = play_line(game, "b2 a1 c1 a3 a2 c2 b1 b3 c3")
    assert game.format_position(drawn) == "OOX/XXO/OXX o"
    assert game.legal_moves(drawn) == []
    outcome = game.outcome(drawn)
    assert outcome is not None and outcome.winner is None and outcome.scores == (0.5, 0.5)
    assert game.outcome(play_line(game, "b2 a1")) is None


def test_tictactoe_errors() -> None:
    game = tictactoe()
    start = game.initial_state()
    for text in ["3/3 x", "3/3/3/3 x", "3/1Z1/3 x", "3/4/3 x", "3/2/3 x", "3/3/3", "3/3/3 z", "3/3/3 x 1",
                 "XXX/OOO/3 x", "3/0XX/3 x"]:
        with pytest.raises(PositionError):
            game.parse_position(text)
    after = game.play_text(start, "b2")
    with pytest.raises(IllegalMoveError):
        game.parse_move(after, "b2")  # occupied
    for text in ["d4", "z9", "b", "2", "B2", "b2b3", "pass"]:
        with pytest.raises(InvalidMoveError):
            game.parse_move(start, text)
    with pytest.raises(GameDefinitionError):
        mnk_game(3, 3, 4)


def test_tictactoe_position_reads_back() -> None:
    game = tictactoe()
    state = game.parse_position("X1O/1X1/2O x")
    assert game.format_position(state) == "X1O/1X1/2O x"
    assert state.cells[game.topology.pos("a3")] == game.stones[0]
    assert state.cells[game.topology.pos("c3")] == game.stones[1]
    assert state.to_move == 0
    won = game.parse_position("XXX/OO1/3 o")
    assert game.legal_moves(won) == [] and game.outcome(won).winner == 0  # type: ignore[union-attr]
    assert won == play_line(game, "a3 a2 b3 b2 c3")


# -- Connect Four -----------------------------------------------------------------------------

C4_POSITION_PLIES = 6
C4_PERFT_DEPTH = 6


def test_connect_four_positions_per_ply() -> None:
    facts = ints(oracle("counts.json")["connect_four_7x6"]["legal_positions_by_ply"])
    found = layers(connect_four(), C4_POSITION_PLIES)
    assert [len(layer) for layer in found] == [facts[p] for p in range(C4_POSITION_PLIES + 1)]


@pytest.mark.slow
def test_connect_four_positions_per_ply_deep() -> None:
    facts = ints(oracle("counts.json")["connect_four_7x6"]["legal_positions_by_ply"])
    found = layers(connect_four(), 9)
    assert [len(layer) for layer in found] == [facts[p] for p in range(10)]


def test_connect_four_perft() -> None:
    facts = ints(oracle("counts.json")["connect_four_7x6"]["perft_move_sequences_by_ply"])
    game = connect_four()
    for depth in range(C4_PERFT_DEPTH + 1):
        assert perft(game, game.initial_state(), depth) == facts[depth], depth


@pytest.mark.slow
@pytest.mark.parametrize("depth", [7, 8, 9])
def test_connect_four_perft_deep(depth: int) -> None:
    facts = ints(oracle("counts.json")["connect_four_7x6"]["perft_move_sequences_by_ply"])
    game = connect_four()
    assert perft(game, game.initial_state(), depth) == facts[depth]


def test_connect_four_gravity_and_notation() -> None:
    game = connect_four()
    start = game.initial_state()
    assert game.format_position(start) == "7/7/7/7/7/7 x"
    moves = game.legal_moves(start)
    assert [game.format_move(start, m) for m in moves] == ["a1", "b1", "c1", "d1", "e1", "f1", "g1"]
    # the same move, written as landing cell, column letter and column number
    for text in ("d1", "d", "4"):
        assert game.parse_move(start, text) == moves[3]
    state = play_line(game, "d 4 d3")
    assert game.format_position(state) == "7/7/7/3X3/3O3/3X3 o"
    assert game.format_move(state, game.parse_move(state, "d")) == "d4"
    with pytest.raises(IllegalMoveError):
        game.parse_move(state, "d1")  # occupied
    with pytest.raises(IllegalMoveError):
        game.parse_move(state, "d6")  # a stone cannot float
    full = play_line(game, "a a a a a a")
    assert game.format_position(full) == "O6/X6/O6/X6/O6/X6 x"
    assert len(game.legal_moves(full)) == 6
    for text in ("a", "1", "a7"):
        with pytest.raises((IllegalMoveError, InvalidMoveError)):
            game.parse_move(full, text)
    for text in ("h", "8", "0", "h1", "a0", "dd", "-1", "\u00b3"):
        with pytest.raises(InvalidMoveError):
            game.parse_move(start, text)


def test_connect_four_wins_and_errors() -> None:
    game = connect_four()
    vertical = play_line(game, "d e d e d e d")
    outcome = game.outcome(vertical)
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "four in a row"
    assert game.legal_moves(vertical) == []
    row = play_line(game, "a a b b c c d")
    assert game.outcome(row).winner == 0  # type: ignore[union-attr]
    assert game.outcome(play_line(game, "a a b b c c")) is None
    # O's diagonal b1-c2-d3-e4, every stone resting on another
    diagonal = game.parse_position("7/7/4O2/3OX2/2OXX2/1OXXO2 x")
    assert game.outcome(diagonal).winner == 1  # type: ignore[union-attr]
    assert game.legal_moves(diagonal) == []
    for text in ("7/7/7/7/7/7", "7/7/7/7/7 x", "7/7/7/7/7/7/7 x", "7/7/7/7/7/8 x", "7/7/7/7/3Y3/7 x",
                 "7/7/7/7/3X3/7 x", "7/7/7/7/7/7 y"):
        with pytest.raises(PositionError):
            game.parse_position(text)


# -- gomoku -------------------------------------------------------------------------------------

def test_gomoku_start() -> None:
    game = gomoku()
    start = game.initial_state()
    assert game.format_position(start) == "/".join(["15"] * 15) + " x"
    assert len(game.legal_moves(start)) == 225
    assert game.format_move(start, game.parse_move(start, "h8")) == "h8"
    for text in ("p1", "a16", "a0"):
        with pytest.raises(InvalidMoveError):
            game.parse_move(start, text)


def gomoku_row(game: InARow, stones: str, to_move: str = "x") -> State:
    """A position with ``stones`` (cells separated by spaces) for X and far-away O stones."""
    cells = [0] * game.topology.size
    for name in stones.split():
        cells[game.topology.pos(name)] = game.stones[0]
    for name in ("a15", "c15", "e15", "g15"):
        cells[game.topology.pos(name)] = game.stones[1]
    return game.make_state(cells, 0 if to_move == "x" else 1, (0,))


def test_gomoku_five_and_overlines() -> None:
    free = gomoku()
    exact = gomoku(overlines=False)
    # five in a row wins in both rule sets
    for game in (free, exact):
        state = game.play_text(gomoku_row(game, "d4 e4 f4 g4"), "h4")
        outcome = game.outcome(state)
        assert outcome is not None and outcome.winner == 0 and outcome.reason == "five in a row"
        assert game.legal_moves(state) == []
    # filling the gap of XXXX.X makes six: a win in free-style, nothing in standard gomoku
    six = "d8 e8 f8 g8 i8"
    state = free.play_text(gomoku_row(free, six), "h8")
    assert free.outcome(state).winner == 0  # type: ignore[union-attr]
    state = exact.play_text(gomoku_row(exact, six), "h8")
    assert exact.outcome(state) is None and exact.legal_moves(state)
    # diagonals, and four is not enough
    state = free.play_text(gomoku_row(free, "b2 c3 d4 f6"), "e5")
    assert free.outcome(state).reason == "five in a row"  # type: ignore[union-attr]
    state = free.play_text(gomoku_row(free, "k1 j2 h4 g5"), "i3")
    assert free.outcome(state).winner == 0  # type: ignore[union-attr]
    state = free.play_text(gomoku_row(free, "b2 c3 d4"), "e5")
    assert free.outcome(state) is None


def test_gomoku_position_with_a_row_is_read_as_won() -> None:
    game = gomoku()
    text = "/".join(["15"] * 7 + ["3XXXXX7", "15", "3OOOO8"] + ["15"] * 5) + " o"
    state = game.parse_position(text)
    assert game.format_position(state) == text
    assert game.outcome(state).winner == 0 and game.legal_moves(state) == []  # type: ignore[union-attr]


def test_gomoku_candidates_are_near_the_stones() -> None:
    game = gomoku()
    start = game.initial_state()
    assert game.candidate_moves(start, game.legal_moves(start)) == game.legal_moves(start)
    state = game.play_text(start, "h8")
    near = {game.format_move(state, m) for m in game.candidate_moves(state, game.legal_moves(state))}
    block = {f"{c}{r}" for c in "fghij" for r in range(6, 11)}
    assert near == block - {"h8"}
    corner = game.play_text(game.play_text(state, "a1"), "o15")
    near = {game.format_move(corner, m) for m in game.candidate_moves(corner, game.legal_moves(corner))}
    assert near == (block | {"a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"} | {
        "m13", "m14", "m15", "n13", "n14", "n15", "o13", "o14"}) - {"h8"}
    small = tictactoe()
    moves = small.legal_moves(small.play_text(small.initial_state(), "a1"))
    assert small.candidate_moves(small.initial_state(), moves) == moves  # no pruning without a radius


# -- round trips ----------------------------------------------------------------------------------

@pytest.mark.parametrize("factory", [tictactoe, connect_four, gomoku])
def test_round_trips_along_random_games(factory: object) -> None:
    game = factory()  # type: ignore[operator]
    rng = random.Random(7)
    for _ in range(8):
        state = game.initial_state()
        while True:
            text = game.format_position(state)
            assert game.parse_position(text) == state
            assert game.recomputed_key(state) == state.key
            moves = game.legal_moves(state)
            if not moves:
                assert game.outcome(state) is not None
                break
            for move in rng.sample(moves, min(4, len(moves))):
                assert game.parse_move(state, game.format_move(state, move)) == move
                for alias in game.move_aliases(state, move):
                    assert game.parse_move(state, alias) == move
            state = game.play(state, rng.choice(moves))


def test_registry_ids() -> None:
    assert get_game("tictactoe").k == 3  # type: ignore[attr-defined]
    assert get_game("connect4").gravity  # type: ignore[attr-defined]
    assert get_game("gomoku").topology.size == 225


@pytest.mark.parametrize("factory", [tictactoe, connect_four, gomoku])
def test_candidates_keep_the_order_of_the_moves_given(factory: object) -> None:
    """Along random games: the candidates are some of the legal moves, in their order (ties
    in search and in the heuristic bot are broken by it)."""
    game = factory()  # type: ignore[operator]
    rng = random.Random(11)
    for _ in range(20):
        state = game.initial_state()
        while game.outcome(state) is None:
            moves = game.legal_moves(state)
            candidates = game.candidate_moves(state, moves)
            assert candidates
            rest = iter(moves)
            assert all(any(c is m or c == m for m in rest) for c in candidates), game.format_position(state)
            state = game.play(state, rng.choice(moves))
