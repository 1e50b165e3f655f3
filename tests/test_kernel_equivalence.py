"""The kernel engine against the reference engine, for every game that runs on the kernel.

The reference engine is the specification.  For every game in the registry whose
``kernel_for`` is not None (a new kernel family is covered the day it registers), along
seeded random games, at every ply: the same legal moves (and their notation unique and
read back), the same successor of every move checked (cells, side to move, flags,
counters, hands, key, history), the same winners, evaluation, move ordering, noisy moves
and repetition value; perft equal at depth 2 from the start and from positions met on the
way; and, on every oracle position of ``../shared/oracles`` (or ``MYRIAD_ORACLES``) of a
kernel game, the kernel's perft equal to the oracle's count.

The default run checks a sample (a few games, ten successors per ply, shallow oracle
depths); ``-m slow`` checks thousands of positions, up to 64 successors per ply and deep
oracle counts.
"""
from __future__ import annotations

import inspect
import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from myriad.core.game import Game, Outcome, perft
from myriad.core.move import Move
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.kernel import registry, rules
from myriad.kernel.engine import Kernel
from myriad.kernel.families import GAVE_CHECK, IRREVERSIBLE
from myriad.kernel.registry import engine_name, kernel_for

from oracles import load_oracle, require

#: Every registered game the kernel runs, found at collection.
KERNEL_GAMES = [g for g in game_ids() if kernel_for(get_game(g)) is not None]


@dataclass(frozen=True)
class Sample:
    """How much of each game a run checks."""

    games: int            #: seeded random games per game
    plies: int            #: longest game walked
    successors: int       #: moves per ply whose successor is compared, at most (0: all)
    perft_every: int      #: depth-2 perft at every this many plies
    oracle_nodes: int     #: oracle depths whose count is at most this


FAST = Sample(games=2, plies=60, successors=10, perft_every=25, oracle_nodes=300_000)
SLOW = Sample(games=30, plies=1000, successors=64, perft_every=4, oracle_nodes=30_000_000)


#: Successors per ply whose history is compared too, through ``Kernel.play`` (which
#: looks its move up among all: the others compare every other field, played directly),
#: besides the move the walk plays.
HISTORIES = 2


def winner_bits(outcome: Outcome | None, players: int) -> int:
    """An outcome as the kernel says it: -1 while the game goes on, else the bits of the
    players with the best score; a draw (every score equal) is every player's bit (the
    reference's default repetition draw has two scores whatever the number of players)."""
    if outcome is None:
        return -1
    if len(set(outcome.scores)) == 1:
        return (1 << players) - 1
    best = max(outcome.scores)
    return sum(1 << p for p, score in enumerate(outcome.scores) if score == best)


def same_number(a: float, b: float) -> bool:
    """Equal floats, or within 1e-9 (the kernel may add in another order)."""
    return a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def fields(state: State) -> tuple[Any, ...]:
    """Every field of a state that the engines must agree on."""
    return (state.cells, state.to_move, state.flags, state.counters, state.hands, state.key, state.history)


def describe(game: Game, state: State) -> str:
    """A position for a failure message."""
    try:
        return game.format_position(state)
    except Exception as exc:  # noqa: BLE001 - the message must not hide the real failure
        return f"<unformattable position: {exc}>"


# -- one position -----------------------------------------------------------------------------

def check_position(game: Game, kernel: Kernel, state: State, rng: random.Random, sample: Sample,
                   knowledge: bool = False) -> list[Move]:
    """Compare the engines' rules on ``state`` (with ``knowledge``: the bots' knowledge,
    evaluate, order and noisy, instead); return the reference's legal moves."""
    where = f"{game.id} at {describe(game, state)}"
    t = kernel.tables
    reference = game.legal_moves(state)
    s, rows, count = kernel.move_rows(state)
    assert count >= 0, f"{where}: the kernel's gen failed ({count})"
    kmoves = [kernel.to_move(s, rows[i]) for i in range(count)]
    assert len(set(kmoves)) == len(kmoves), f"{where}: the kernel lists a move twice"
    assert set(kmoves) == set(reference), (
        f"{where}: legal moves differ; kernel only {sorted(set(kmoves) - set(reference))[:5]}, "
        f"reference only {sorted(set(reference) - set(kmoves))[:5]}")

    texts = [game.format_move(state, m) for m in kmoves]
    chosen = list(range(count))
    if sample.successors and count > sample.successors:
        chosen = sorted(rng.sample(chosen, sample.successors))
    if knowledge:
        assert same_number(kernel.evaluate(state), game.evaluate(state)), \
            f"{where}: evaluate {kernel.evaluate(state)} != {game.evaluate(state)}"
        for i in chosen:
            move, text = kmoves[i], texts[i]
            assert same_number(rules.order(t, s, rows[i]), game.move_heuristic(state, move)), \
                f"{where}: order of {text} {rules.order(t, s, rows[i])} != {game.move_heuristic(state, move)}"
            assert bool(rules.noisy(t, s, rows[i])) == game.is_noisy(state, move), \
                f"{where}: noisy {text} differs"
        check_search_hooks(game, kernel, state, reference)
        return reference

    assert len(set(texts)) == len(texts), f"{where}: two moves share a notation"

    hist = kernel.history(state)
    assert rules.outcome(t, s, hist, len(hist), count) == winner_bits(game.outcome(state), game.players), \
        f"{where}: winners differ"
    if not rules.moves_at_leaves(t, False):  # a search's leaf asks without counting the moves
        assert rules.outcome(t, s, hist, len(hist), -1) == winner_bits(game.outcome(state), game.players), \
            f"{where}: winners differ when the moves are not counted"
    assert kernel.winners(state) == winner_bits(game.outcome(state), game.players), f"{where}: Kernel.winners differs"
    # what a search scores this position met again: asked of the position with its own key
    # in its history, as a search asks it
    again = State(state.cells, state.to_move, state.flags, state.counters, state.hands, state.key,
                  state.history + (state.key,), game)
    again_hist = kernel.history(again)
    assert rules.repeat(t, s, again_hist, len(again_hist)) == winner_bits(game.repetition_outcome(again),
                                                                          game.players), \
        f"{where}: repetition value differs"
    for n, i in enumerate(chosen):
        move, text = kmoves[i], texts[i]
        assert game.parse_move(state, text) == move, f"{where}: {text!r} does not read back"
        dst = np.empty_like(s)
        bits = int(rules.play(t, s, rows[i], dst))
        after = game.play(state, move)
        irreversible = after.history == ()  # a reversible move appends the key it left
        assert bool(bits & IRREVERSIBLE) == irreversible, f"{where}: IRREVERSIBLE of {text} differs"
        if not irreversible:
            assert bool(bits & GAVE_CHECK) == (after.history[-1:] == (-1,)), f"{where}: GAVE_CHECK of {text} differs"
        mine = kernel.unpack(dst)
        assert fields(mine)[:-1] == fields(after)[:-1], \
            f"{where}: the state after {text} differs:\n kernel    {fields(mine)}\n reference {fields(after)}"
        # the family's own words (bit sets, tallies, royal squares) kept by ``play`` equal
        # those worked out afresh from the state it reached
        fresh = kernel.pack(mine)
        assert np.array_equal(dst, fresh), \
            f"{where}: the words kept after {text} differ from the fresh ones at {np.flatnonzero(dst != fresh)}"
        if n < HISTORIES:  # the history too, as the kernel's wrapper writes it from the bits
            mine = kernel.play(state, move)
            assert fields(mine) == fields(after), \
                f"{where}: the state after {text} differs:\n kernel    {fields(mine)}\n reference {fields(after)}"
    return reference


def check_search_hooks(game: Game, kernel: Kernel, state: State, legal: list[Move]) -> None:
    """Where the kernel's rules have the search's hooks, they equal the game's
    ``noisy_moves`` (as a set), ``candidate_moves`` (as a set, where the family claims them
    or the game prunes none), ``may_stand_pat`` and ``in_check``."""
    where = f"{game.id} at {describe(game, state)}"
    t = kernel.tables
    hooks = {name: getattr(rules, name, None) for name in ("noisy_moves", "candidates", "stand_pat", "in_check")}
    if hooks["noisy_moves"] is not None:
        s, rows, _count = kernel.move_rows(state)
        hist = kernel.history(state)
        n = int(hooks["noisy_moves"](t, s, hist, len(hist), rows))
        found = {kernel.to_move(s, rows[i]) for i in range(n)}
        assert found == set(game.noisy_moves(state)), f"{where}: noisy_moves differ"
    # (a family that lists candidate moves lists the game's: the kernel's MCTS searches
    # them, and alphabeta too where the family names them among its SEARCH_HOOKS)
    if hooks["candidates"] is not None:
        s, rows, count = kernel.move_rows(state)
        n = int(hooks["candidates"](t, s, rows, count))
        found = {kernel.to_move(s, rows[i]) for i in range(n)}
        assert found == set(game.candidate_moves(state, list(legal))), f"{where}: candidate moves differ"
    if hooks["stand_pat"] is not None:
        s = kernel.pack(state)
        assert bool(hooks["stand_pat"](t, s)) == game.may_stand_pat(state), f"{where}: may_stand_pat differs"
    if hooks["in_check"] is not None:
        s = kernel.pack(state)
        assert bool(hooks["in_check"](t, s)) == game.in_check(state), f"{where}: in_check differs"


def walk(game_id: str, seed: int, sample: Sample, on_state: Callable[[State, int], None] | None = None,
         knowledge: bool = False) -> int:
    """Play one seeded random game by the reference, comparing the engines at every ply
    (and the successor through ``Kernel.play`` for the move played); return the plies."""
    game = get_game(game_id)
    kernel = kernel_for(game)
    assert kernel is not None
    rng = random.Random(f"{game_id}/{seed}")
    state = game.initial_state()
    for ply in range(sample.plies + 1):
        if on_state is not None:
            on_state(state, ply)
        moves = check_position(game, kernel, state, rng, sample, knowledge)
        if not moves:
            return ply
        move = rng.choice(moves)
        after = game.play(state, move)
        if not knowledge:
            assert fields(kernel.play(state, move)) == fields(after), \
                f"{game_id} at {describe(game, state)}: Kernel.play({game.format_move(state, move)}) differs"
        state = after
    return sample.plies


# -- along random games ---------------------------------------------------------------------------

def test_kernel_games_are_found() -> None:
    """The registry-wide checks below have games to check: at least the in-a-row family's."""
    assert {"tictactoe", "connect4", "gomoku"} <= set(KERNEL_GAMES), KERNEL_GAMES


@pytest.mark.parametrize("game_id", KERNEL_GAMES)
def test_random_games_agree(game_id: str) -> None:
    plies = sum(walk(game_id, seed, FAST) for seed in range(FAST.games))
    assert plies > 0


@pytest.mark.slow
@pytest.mark.parametrize("game_id", KERNEL_GAMES)
def test_random_games_agree_thoroughly(game_id: str) -> None:
    plies = sum(walk(game_id, seed, SLOW) for seed in range(100, 100 + SLOW.games))
    assert plies >= SLOW.games


#: What a kernel family's source says while its bots' knowledge is not written yet (the
#: skeleton's in-a-row family: evaluate and order return 0).
PENDING = "TODO(issue 21)"


def knowledge_params() -> list[Any]:
    """The kernel games, those of a family whose source still says :data:`PENDING`
    expected to fail (strictly: the day the knowledge lands, the check runs for real)."""
    pending = pytest.mark.xfail(reason=f"the family's knowledge is still {PENDING}", strict=True)
    out: list[Any] = []
    for g in KERNEL_GAMES:
        family = kernel_for(get_game(g)).family  # type: ignore[union-attr]
        out.append(pytest.param(g, marks=pending) if PENDING in inspect.getsource(family) else g)
    return out


@pytest.mark.parametrize("game_id", knowledge_params())
def test_knowledge_agrees(game_id: str) -> None:
    """evaluate, order (move_heuristic), noisy (is_noisy) and, where the kernel has the
    search's hooks, noisy_moves, candidate_moves, may_stand_pat and in_check equal along random games."""
    assert sum(walk(game_id, seed, FAST, knowledge=True) for seed in range(FAST.games)) > 0


@pytest.mark.slow
@pytest.mark.parametrize("game_id", knowledge_params())
def test_knowledge_agrees_thoroughly(game_id: str) -> None:
    assert sum(walk(game_id, seed, SLOW, knowledge=True) for seed in range(100, 100 + SLOW.games)) >= SLOW.games


def perft_along(game_id: str, sample: Sample, seeds: range) -> int:
    """Depth-2 perft, kernel against reference, from the start and at every
    ``sample.perft_every`` plies of seeded random games; the positions compared."""
    game = get_game(game_id)
    kernel = kernel_for(game)
    assert kernel is not None
    compared = 0

    def compare(state: State, ply: int) -> None:
        nonlocal compared
        if ply % sample.perft_every == 0:
            for depth in (1, 2):
                assert kernel.perft(state, depth) == perft(game, state, depth), \
                    f"{game_id} perft {depth} at {describe(game, state)}"
            compared += 1

    quick = Sample(1, sample.plies, 1, sample.perft_every, sample.oracle_nodes)
    for seed in seeds:
        walk(game_id, seed, quick, compare)
    return compared


@pytest.mark.parametrize("game_id", KERNEL_GAMES)
def test_perft_from_start_and_midgame(game_id: str) -> None:
    assert perft_along(game_id, FAST, range(200, 201)) >= 1


@pytest.mark.slow
@pytest.mark.parametrize("game_id", KERNEL_GAMES)
def test_perft_from_many_positions(game_id: str) -> None:
    assert perft_along(game_id, SLOW, range(300, 310)) >= 10


# -- oracle positions -----------------------------------------------------------------------------

#: Perft files holding ``positions`` with a ``fen`` (or ``sfen``), by game id.
FEN_FILES = {"chess": "chess_perft.json", "shatranj": "shatranj_perft.json", "makruk": "makruk_perft.json",
             "breakthrough": "breakthrough_perft.json", "crazyhouse": "crazyhouse_perft.json",
             "janggi": "janggi_perft.json", "xiangqi": "xiangqi_perft.json", "shogi": "shogi_perft.json",
             "minishogi": "minishogi_perft.json", "international": "draughts_international_perft.json",
             "frisian": "draughts_frisian_perft.json", "turkish": "draughts_turkish_perft.json"}
#: The 8x8 draughts file names its variants; the registered ones, by the start of the name.
DRAUGHTS_8X8 = {"english": "checkers", "russian": "russian", "brazilian": "brazilian"}


@dataclass(frozen=True)
class OraclePosition:
    """A position of an oracle file and its perft counts, for a registered game."""

    game_id: str
    name: str
    text: str | None          #: the position (None: the game's start, as the file says)
    perft: dict[int, int]

    def state(self, game: Game) -> State:
        return game.initial_state() if self.text is None else game.parse_position(self.text)


def ints(table: dict[str, int]) -> dict[int, int]:
    return {int(d): int(n) for d, n in table.items() if int(d) > 0}


def oracle_positions() -> list[OraclePosition]:
    """Every oracle perft position of a registered game (those without a kernel too: the
    list must not depend on what the kernel covers today)."""
    out = []
    for game_id, name in FEN_FILES.items():
        for p in load_oracle(name)["positions"]:
            text = p.get("sfen") or p.get("fen")
            out.append(OraclePosition(game_id, p["name"], text, ints(p["perft"])))
    for record in load_oracle("draughts_8x8_perft.json")["variants_from_start"]:
        for prefix, game_id in DRAUGHTS_8X8.items():
            if record["variant"].startswith(prefix):
                out.append(OraclePosition(game_id, record["variant"], record["fen"], ints(record["perft"])))
    othello = load_oracle("othello_perft.json")["positions"][0]
    # The reference's convention (a forced pass is a move; a finished game has none) is
    # Fairy-Stockfish's, recorded beside Bik's.
    out.append(OraclePosition("othello", othello["name"], None,
                              ints(othello["alternative_convention_fairy_stockfish"]["perft"])))
    counts = load_oracle("counts.json")
    out.append(OraclePosition("tictactoe", "tic_tac_toe", None, ints(counts["tic_tac_toe"]["perft_by_ply"])))
    out.append(OraclePosition("connect4", "connect_four_7x6", None,
                              ints(counts["connect_four_7x6"]["perft_move_sequences_by_ply"])))
    registered = set(game_ids())
    return require([p for p in out if p.game_id in registered], "oracle perft positions of registered games")


ORACLE = oracle_positions()
KERNEL_ORACLE = [p for p in ORACLE if p.game_id in KERNEL_GAMES]


def test_oracle_positions_cover_the_kernel_games_that_have_them() -> None:
    """The oracle table reads every file (a wrong key fails here) and the in-a-row games
    with counts are among the kernel's."""
    assert {"tictactoe", "connect4"} <= {p.game_id for p in KERNEL_ORACLE}
    assert {p.game_id for p in ORACLE} >= {"chess", "international", "othello", "checkers", "xiangqi"}
    for p in ORACLE:  # each position read as its file means it: the reference agrees at depth 2
        game = get_game(p.game_id)
        assert perft(game, p.state(game), 2) == p.perft[2], f"{p.game_id} {p.name}"


def check_oracle(position: OraclePosition, floor: int, limit: int) -> int:
    game = get_game(position.game_id)
    kernel = kernel_for(game)
    assert kernel is not None
    state = position.state(game)
    if position.game_id == "othello":  # the file gives squares, not a position text
        othello = load_oracle("othello_perft.json")["positions"][0]["board"]
        for colour, player in (("black", 0), ("white", 1)):
            assert all(state.cells[game.topology.pos(sq)] == game.discs[player] for sq in othello[colour])  # type: ignore[attr-defined]
    checked = 0
    for depth, expected in sorted(position.perft.items()):
        if floor < expected <= limit:
            assert kernel.perft(state, depth) == expected, f"{position.game_id} {position.name} perft {depth}"
            checked += 1
    return checked


@pytest.mark.parametrize("position", KERNEL_ORACLE, ids=lambda p: f"{p.game_id}-{p.name[:24]}")
def test_oracle_perft(position: OraclePosition) -> None:
    assert check_oracle(position, 0, FAST.oracle_nodes) >= 1


@pytest.mark.slow
@pytest.mark.parametrize("position", KERNEL_ORACLE, ids=lambda p: f"{p.game_id}-{p.name[:24]}")
def test_oracle_perft_deep(position: OraclePosition) -> None:
    check_oracle(position, FAST.oracle_nodes, SLOW.oracle_nodes)


# -- which engine ---------------------------------------------------------------------------------

def test_every_game_names_its_engine() -> None:
    names = {g: engine_name(get_game(g)) for g in game_ids()}
    assert set(names.values()) <= {"kernel", "reference"}
    assert {g for g, n in names.items() if n == "kernel"} == set(KERNEL_GAMES)
    assert names["tictactoe"] == "kernel" and names["pig"] == "reference"


def test_games_command_names_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    from myriad.cli import main
    assert main(["games", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["id"]: r["engine"] for r in rows} == {g: engine_name(get_game(g)) for g in game_ids()}
    assert main(["games"]) == 0
    lines = {line.split()[0]: line.split()[-1] for line in capsys.readouterr().out.splitlines()}
    assert lines["connect4"] == "kernel" and lines["pig"] == "reference"


def test_the_kernel_refuses_chance_and_hidden_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Even a family that would take any game is never asked about a game with chance or
    hidden information: those stay on the reference engine."""
    asked: list[str] = []
    any_tables = kernel_for(get_game("tictactoe")).tables  # type: ignore[union-attr]

    class Greedy:
        FAMILY = 99

        @staticmethod
        def tables(game: Game) -> object:
            asked.append(game.id)
            return any_tables

        @staticmethod
        def prepare(t: object, s: object) -> None:
            pass

    from myriad.kernel import rules as kernel_rules
    monkeypatch.setattr(kernel_rules, "FAMILIES", {99: Greedy})
    monkeypatch.setattr(registry, "_kernels", {})
    refused = [g for g in game_ids() if get_game(g).chance or get_game(g).hidden_information]
    assert {"pig", "banqi", "darkchess", "foxhunt"} <= set(refused)
    for game_id in refused:
        assert kernel_for(get_game(game_id)) is None
        assert engine_name(get_game(game_id)) == "reference"
    assert asked == []
    assert kernel_for(get_game("tictactoe")) is not None and asked == ["tictactoe"]
