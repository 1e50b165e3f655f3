"""Placement games on the kernel engine: the in-a-row family (tic-tac-toe, Connect Four,
gomoku) and the line-flips family (Othello at every size, Rolit for 2-4 players) against
the reference engine, their specification, and against outside perft counts.

    python -m pytest -q tests/test_kernel_placement.py            # a minute cold (numba compiles), seconds warm
    python -m pytest -q tests/test_kernel_placement.py -m slow    # Othello perft 9-10, more games

Every check loops over the registry: a placement game registered later is covered the
day a kernel family takes it.
"""

from __future__ import annotations

import gzip
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from myriad.core.game import Game, perft
from myriad.core.move import PASS, Move
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.games.inarow import InARow
from myriad.games.othello import Othello
from myriad.games.rolit import Rolit
from myriad.kernel import rules
from myriad.kernel.engine import Kernel
from myriad.kernel.families import flips, inarow
from myriad.kernel.registry import kernel_for

from kernel_checks import NO_KEYS
from oracles import load_oracle

#: Black's forbidden points in 6,000 random renju positions as Wenzhe Lu's
#: CForbiddenPointFinder judged them (see tests/test_forbidden.py).
LU = Path(__file__).parent / "data" / "renju_forbidden_lu.json.gz"

#: Random games per covered game in the default run (the slow run plays five times more).
GAMES = 20
#: The kernel families this file is about.
PLACEMENT = (inarow, flips)



def noisy_moves(kernel: Kernel, state: State) -> list[Move]:
    """The kernel's ``noisy_moves`` of ``state`` (quiescence's moves), as reference moves, in
    the kernel's order."""
    s = kernel.pack(state)
    hist = kernel.history(state)
    rows = kernel.move_buffer()
    count = rules.noisy_moves(kernel.tables, s, hist, len(hist), rows)
    return [kernel.to_move(s, rows[i]) for i in range(count)]

def placement_games() -> list[str]:
    """The registered games a placement family of the kernel runs."""
    found = []
    for game_id in game_ids():
        kernel = kernel_for(get_game(game_id))
        if kernel is not None and kernel.family in PLACEMENT:
            found.append(game_id)
    return found


def winners(game: Game, state: State) -> int:
    """The reference outcome as the kernel's bit set: -1 while the game goes on, else the
    players with the best score."""
    result = game.outcome(state)
    if result is None:
        return -1
    best = max(result.scores)
    return sum(1 << p for p, score in enumerate(result.scores) if score == best)


def fields(state: State) -> tuple[object, ...]:
    return state.cells, state.to_move, state.flags, state.counters, state.hands, state.key, state.history


def test_the_placement_games_run_on_the_kernel() -> None:
    """Every registered Othello, Rolit and in-a-row game (renju's forbidden points and
    opening included) has a kernel of its family."""
    covered = set(placement_games())
    for game_id in game_ids():
        game = get_game(game_id)
        kernel = kernel_for(game)
        if type(game) in (Othello, Rolit):
            assert kernel is not None and kernel.family is flips, game_id
        elif type(game) is InARow:
            assert kernel is not None and kernel.family is inarow, game_id
    assert {"tictactoe", "connect4", "gomoku", "renju", "othello", "othello4", "othello6", "othello10",
            "rolit", "rolit2", "rolit3"} <= covered


def test_gravity_columns_must_be_linked_both_ways() -> None:
    """The kernel walks a gravity board's columns bottom up for the links down, so it takes
    a board only where the columns hold every cell once and each cell's link down reaches
    the cell under it in its column (else the game stays on the reference engine)."""
    below = [-1, 0, -1, 2]  # two columns of two cells: 0 under 1, 2 under 3
    assert inarow._linked_columns(((0, 1), (2, 3)), below, 4)
    assert not inarow._linked_columns(((0, 1), (2, 3)), [-1, 2, -1, 0], 4)  # links down elsewhere
    assert not inarow._linked_columns(((0, 1),), below, 4)  # cells 2 and 3 in no column
    assert not inarow._linked_columns(((0, 1), (1, 3)), below, 4)  # cell 1 twice

# -- perft --------------------------------------------------------------------------------

#: Depth per game for kernel perft against reference perft from the start (shallow: the
#: reference is the slow side).
PERFT_DEPTH = {9: 6, 16: 6, 36: 5, 42: 5, 64: 4, 100: 3, 225: 2}


@pytest.mark.parametrize("game_id", placement_games())
def test_perft_equals_the_reference(game_id: str) -> None:
    game = get_game(game_id)
    kernel = kernel_for(game)
    assert kernel is not None
    state = game.initial_state()
    depth = PERFT_DEPTH.get(game.topology.size, 3)
    for d in range(depth + 1):
        assert kernel.perft(state, d) == perft(game, state, d), (game_id, d)


def othello_oracle() -> tuple[State, dict[int, int]]:
    """The oracle's Othello start, read from its square lists, and its perft counts."""
    entry = load_oracle("othello_perft.json")["positions"][0]
    game = get_game("othello")
    cells = [0] * game.topology.size
    for colour, player in (("black", 0), ("white", 1)):
        for square in entry["board"][colour]:
            cells[game.topology.pos(square)] = game.discs[player]
    state = game.make_state(cells, 0 if entry["board"]["to_move"] == "black" else 1, (), (0,))
    return state, {int(d): n for d, n in entry["perft"].items()}


def test_othello_perft_oracle() -> None:
    """Aart Bik's counts, depths 1-8 (all conventions agree up to 9)."""
    state, expected = othello_oracle()
    kernel = kernel_for(get_game("othello"))
    assert kernel is not None
    for depth in range(1, 9):
        assert kernel.perft(state, depth) == expected[depth], depth


@pytest.mark.slow
def test_othello_perft_oracle_deep() -> None:
    """Depth 9 (the first forced passes) from Bik's list; depth 10 in the convention of
    the reference, Fairy-Stockfish's (finished games have no moves), also in the oracle."""
    state, expected = othello_oracle()
    kernel = kernel_for(get_game("othello"))
    assert kernel is not None
    assert kernel.perft(state, 9) == expected[9]
    entry = load_oracle("othello_perft.json")["positions"][0]
    assert kernel.perft(state, 10) == entry["alternative_convention_fairy_stockfish"]["perft"]["10"]


def test_connect_four_perft_oracle() -> None:
    """Move sequences by ply from the oracle (first wins at ply 7: 7^7 - 7)."""
    facts = {int(d): n for d, n in load_oracle("counts.json")["connect_four_7x6"]["perft_move_sequences_by_ply"].items()}
    game = get_game("connect4")
    kernel = kernel_for(game)
    assert kernel is not None
    for depth in range(9):
        assert kernel.perft(game.initial_state(), depth) == facts[depth], depth


# -- random games: every ply, every field ----------------------------------------------------

def pick(game: Game, state: State, moves: list[Move], rng: random.Random) -> Move:
    """A random move, or (more often) one the game's move ordering likes best: games that
    make threats, forks and corners, not only random boards."""
    if rng.random() < 0.6 and moves[0]:
        values = game.move_heuristics(state, moves)
        return moves[max(range(len(moves)), key=lambda i: (values[i], rng.random()))]
    return rng.choice(moves)


def compare_games(game_id: str, games: int, seed: int) -> Counter[str]:
    """Play ``games`` games, comparing both engines at every ply; what was met, counted."""
    game = get_game(game_id)
    kernel = kernel_for(game)
    assert isinstance(kernel, Kernel)
    rng = random.Random(seed)
    met: Counter[str] = Counter()
    for _ in range(games):
        state = game.initial_state()
        while True:
            where = f"{game_id}: {game.format_position(state)}"
            reference = game.legal_moves(state)
            s, rows, count = kernel.move_rows(state)
            moves = [kernel.to_move(s, rows[i]) for i in range(count)]
            assert Counter(moves) == Counter(reference), where
            assert kernel.winners(state) == winners(game, state), where
            assert kernel.evaluate(state) == pytest.approx(game.evaluate(state), abs=1e-9), where
            values = game.move_heuristics(state, moves)
            for i, move in enumerate(moves):
                order = rules.order(kernel.tables, s, rows[i])
                assert order == pytest.approx(game.move_heuristic(state, move), abs=1e-9), (where, move)
                assert order == pytest.approx(values[i], abs=1e-9), (where, move)
                assert bool(rules.noisy(kernel.tables, s, rows[i])) == game.is_noisy(state, move), (where, move)
            if reference:  # quiescence's moves (asked while the game goes on; their order may differ)
                noisy = noisy_moves(kernel, state)
                assert Counter(noisy) == Counter(game.noisy_moves(state)), where
                met["noisy"] += len(noisy)
            if reference:  # the moves bots search: as many, in the same order
                kept = rules.candidates(kernel.tables, s, rows, count)
                pruned = game.candidate_moves(state, reference)
                assert [kernel.to_move(s, rows[i]) for i in range(kept)] == pruned, where
                met["pruned"] += len(pruned) < len(reference)
            met["positions"] += 1
            if not reference:
                met["ended"] += 1
                met["draws" if bin(winners(game, state)).count("1") > 1 else "wins"] += 1
                break
            if reference == [PASS]:
                met["passes"] += 1
            if isinstance(game, Rolit) and not game.flips.moves(state.cells, game.colours[state.to_move]):
                met["next to"] += 1
            move = pick(game, state, reference, rng)
            after, played = game.play(state, move), kernel.play(state, move)
            assert fields(played) == fields(after), (where, move)
            state = after
    return met


@pytest.mark.parametrize("game_id", placement_games())
def test_random_games_agree(game_id: str) -> None:
    """Legal move sets, successor states (keys and history included), winners, evaluation,
    move ordering of each move, quiescence moves and the candidate moves bots search:
    equal at every ply of 20 games."""
    met = compare_games(game_id, GAMES, seed=21)
    assert met["ended"] == GAMES
    assert met["positions"] > GAMES * 4
    game = get_game(game_id)
    if isinstance(game, InARow) and game.topology.size > 9:
        assert met["noisy"] > 0 and met["wins"] > 0  # threats were made and answered
        assert met["pruned"] > 0  # forced moves or the cells near stones
    if isinstance(game, Rolit):
        assert met["next to"] > 0  # some player could not trap


def test_othello_passes_and_wipe_outs() -> None:
    """Small boards pass often and end early: a pass is one move with no actions, the
    passes in a row are counted, and a finished position has no moves and is won on discs."""
    met = compare_games("othello4", 60, seed=4)
    assert met["passes"] > 0
    assert met["ended"] == 60 and met["wins"] > 0 and met["draws"] > 0


def test_rolit_ties_share_the_win() -> None:
    """A full Rolit board with two colours tied for the most: both players' bits."""
    game = get_game("rolit2")
    kernel = kernel_for(game)
    assert kernel is not None
    red, green = game.balls[game.colours[0]], game.balls[game.colours[1]]
    cells = [red if pos % 2 else green for pos in range(game.topology.size)]
    state = game.make_state(cells, 0)
    assert kernel.winners(state) == winners(game, state) == 0b11
    cells[0] = red
    state = game.make_state(cells, 0)
    assert kernel.winners(state) == winners(game, state) == 0b01


@pytest.mark.slow
@pytest.mark.parametrize("game_id", placement_games())
def test_random_games_agree_more(game_id: str) -> None:
    met = compare_games(game_id, 5 * GAMES, seed=2021)
    assert met["ended"] == 5 * GAMES


# -- in-a-row: the tally kept by ``play`` ---------------------------------------------------

def inarow_games() -> list[str]:
    """The registered games the in-a-row family runs."""
    found = []
    for game_id in placement_games():
        kernel = kernel_for(get_game(game_id))
        if kernel is not None and kernel.family is inarow:
            found.append(game_id)
    return found


def kernel_games(kernel: Kernel, game: Game, rng: random.Random, games: int) -> Iterator[np.ndarray]:
    """The state vectors of ``games`` games played on the kernel alone (state vector to state
    vector, as a search plays them), mostly by the move ordering's favourite (threats and
    forks), each vector as ``play`` left it."""
    t = kernel.tables
    for _ in range(games):
        s = kernel.pack(game.initial_state())
        rows = kernel.move_buffer()
        while True:
            yield s
            count = int(rules.gen(t, s, NO_KEYS, 0, rows))
            if count == 0:
                break
            if rng.random() < 0.7:
                values = [rules.order(t, s, rows[i]) for i in range(count)]
                i = max(range(count), key=lambda j: (values[j], rng.random()))
            else:
                i = rng.randrange(count)
            child = s.copy()
            rules.play(t, s, rows[i], child)
            s = child


@pytest.mark.parametrize("game_id", inarow_games())
def test_inarow_tally_equals_a_fresh_one(game_id: str) -> None:
    """Along games played on the kernel alone, the words ``play`` keeps up to date -- per
    window its stones, per player the window counts, threat, build and fork cells, fork
    lines, the cells near a stone; on bit sets the stones' bits -- equal those
    :func:`inarow.rebuild` works out from the cells, at every ply.  A game the family runs
    on bit sets is played on the tally too (its tables built without them)."""
    game = get_game(game_id)
    met: Counter[str] = Counter()
    for bit_sets in (True, False):
        tables = inarow.tables(game, bit_sets)
        assert tables is not None
        if not bit_sets and not kernel_for(game).tables.params[inarow.BITS]:  # type: ignore[union-attr]
            break  # (the same tables as the first round)
        kernel = Kernel(game, inarow, tables)
        t, p = kernel.tables, kernel.tables.params
        for s in kernel_games(kernel, game, random.Random(7), GAMES):
            fresh = s.copy()
            inarow.rebuild(t, fresh)
            assert s.tolist() == fresh.tolist(), f"{game_id}: {game.format_position(kernel.unpack(s))}"
            if p[inarow.NWINDOWS] and not p[inarow.BITS]:
                for player in range(2):
                    met["threat cells"] += int(s[p[inarow.NTHREAT_AT] + player])
                    met["fork cells"] += int(s[p[inarow.NFORK_AT] + player])
                    met["fork lines"] += int(inarow.fork_lines(t, s, player))
            met["plies"] += 1
    assert met["plies"] > GAMES * 4
    if game.topology.size > 9:  # bigger boards make threats and forks before they end
        assert met["threat cells"] > 0 and met["fork cells"] > 0 and met["fork lines"] > 0, met


def bit_set_games() -> list[str]:
    """The registered in-a-row games the family runs on bit sets."""
    return [g for g in inarow_games() if kernel_for(get_game(g)).tables.params[inarow.BITS]]  # type: ignore[union-attr]


def test_connect_four_runs_on_bit_sets() -> None:
    assert "connect4" in bit_set_games()


@pytest.mark.parametrize("game_id", bit_set_games())
def test_inarow_bit_facts_equal_the_tally(game_id: str) -> None:
    """On bit sets, the facts worked out for the whole board at once equal the tally's, cell
    by cell, along games played on the kernel: per player the threat cells (in one window, in
    two), build and fork cells, fork lines, window counts, and per stone count the cells of
    one window and of two that move ordering reads.  (Both engines' results are checked
    against the reference in test_kernel_equivalence.)"""
    game = get_game(game_id)
    bits = kernel_for(game)
    tally = Kernel(game, inarow, inarow.tables(game, bit_sets=False))  # type: ignore[arg-type]
    assert bits is not None and bits.tables.params[inarow.BITS] and not tally.tables.params[inarow.BITS]
    tb, tt = bits.tables, tally.tables
    k, low, nreach = int(tb.params[inarow.K]), int(tb.params[inarow.LOW]), int(tb.params[inarow.NREACH])
    met: Counter[str] = Counter()
    for s in kernel_games(bits, game, random.Random(11), GAMES):
        state = bits.unpack(s)
        st = tally.pack(state)
        at = inarow.facts_at(tb, s)
        for player in range(2):
            base = at + inarow.player_facts(k, nreach, player)

            def cells(word: int) -> set[int]:
                found = int(s[base + word]) & ((1 << 64) - 1)
                return {pos for pos in range(game.topology.size) if found >> int(inarow.bit_of(tb, pos)) & 1}

            def where(count: Callable[[int], int], least: int = 1) -> set[int]:
                return {pos for pos in range(game.topology.size) if state.cells[pos] == 0 and count(pos) >= least}

            where_ = f"{game_id}, player {player}: {game.format_position(state)}"
            assert cells(inarow.F_THREAT) == where(lambda q: inarow.threat_count(tt, st, player, q)), where_
            assert cells(inarow.F_THREAT2) == where(lambda q: inarow.threat_count(tt, st, player, q), 2), where_
            assert cells(inarow.F_BUILD) == where(lambda q: inarow.is_build(tt, st, player, q)), where_
            assert cells(inarow.F_FORK) == where(lambda q: inarow.is_fork(tt, st, player, q)), where_
            assert s[base + inarow.F_LINES] == inarow.fork_lines(tt, st, player), where_
            counts = tt.params[inarow.COUNTS_AT] + player * (k + 1)
            assert s[base + inarow.F_COUNTS:base + inarow.F_COUNTS + k + 1].tolist() == \
                st[counts:counts + k + 1].tolist(), where_
            for c in range(low, low + nreach):
                r = inarow.F_COUNTS + k + 1 + 2 * (c - low)
                shift = inarow.reach_shift(tt, c)
                bits_ = int(tt.params[inarow.TB])
                for least, word in ((1, r), (2, r + 1)):
                    assert {q for q in cells(word) if state.cells[q] == 0} == \
                        where(lambda q: inarow.cell_field(tt, st, player, q, shift, bits_), least), where_
            met["threat cells"] += len(cells(inarow.F_THREAT))
            met["fork cells"] += len(cells(inarow.F_FORK))
            met["fork lines"] += int(s[base + inarow.F_LINES])
    assert met["threat cells"] and met["fork cells"] and met["fork lines"], met


# -- renju: forbidden points ------------------------------------------------------------------

def check_renju_forbidden(limit: int | None, knowledge: int) -> None:
    """Black's legal moves on the kernel are the empty cells less Lu's forbidden points;
    on the first ``knowledge`` positions, with either side to move, evaluation, ordering
    and quiescence moves equal the reference's (its scan restricted by the same points)."""
    if not LU.exists():
        pytest.fail(f"{LU} is missing: regenerate it with tests/data/make_renju_forbidden.py")
    game = get_game("renju")
    assert isinstance(game, InARow)
    kernel = kernel_for(game)
    assert kernel is not None
    with gzip.open(LU, "rt") as f:
        rows = [json.loads(line) for _, line in zip(range(limit or 10**9), f)]
    assert len(rows) == (limit or 6000)
    stones = {"X": game.stones[0], "O": game.stones[1], ".": 0}
    forbidden = 0
    for n, row in enumerate(rows):
        cells = [stones[ch] for ch in row["board"]]
        state = game.make_state(cells, 0, (0,))
        expected = {game.topology.pos(name) for name in row["forbidden"]}
        forbidden += len(expected)
        empty = {pos for pos, value in enumerate(cells) if not value}
        assert len(empty) <= game.topology.size - 3  # past the opening rule
        assert {move.to for move in kernel.legal_moves(state)} == empty - expected, f"position {n}: {row['board']}"
        if n >= knowledge:
            continue
        for side in (0, 1):
            state = game.make_state(cells, side, (0,))
            where = f"position {n}, {game.player_names[side]} to move"
            assert kernel.evaluate(state) == game.evaluate(state), where
            s, moves, count = kernel.move_rows(state)
            for i in range(count):
                move = kernel.to_move(s, moves[i])
                assert rules.order(kernel.tables, s, moves[i]) == game.move_heuristic(state, move), (where, move)
            assert Counter(noisy_moves(kernel, state)) == Counter(game.noisy_moves(state)), where
    assert forbidden > len(rows)  # the data holds forbidden points to find


def test_renju_forbidden_points() -> None:
    check_renju_forbidden(600, 60)


@pytest.mark.slow
def test_renju_forbidden_points_all() -> None:
    check_renju_forbidden(None, 600)
