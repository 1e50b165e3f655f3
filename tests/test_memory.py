"""Bots bounded in bytes: ``hash=`` read strictly, every searcher's tables within the caps
derived from it, a game's caches within theirs, and no garbage frozen after a search."""

from __future__ import annotations

import gc
import importlib
import json
import subprocess
import sys

import pytest

from myriad.ai import BOTS, BotSpecError, Limits, make_bot
from myriad.ai.alphabeta import AlphaBeta
from myriad.ai.bot import SearchTimeout, gc_paused
from myriad.ai.budget import DEFAULT_HASH_MB, MAX_HASH_MB
from myriad.ai.mcts import MCTS, Node
from myriad.ai.solver import Solver
from myriad.core.caches import DICT_ENTRY_BYTES, MB, MIN_ENTRIES, ByteBudget
from myriad.core.game import Game
from myriad.games import REGISTRY, game_ids, get_game
from myriad.games.inarow import GAME_CACHE_BYTES, InARow

#: The smallest budget: 64 KiB, a few hundred entries, which a short search fills.
TINY = "hash=0.0625"
SEARCHERS = ("alphabeta", "mcts", "solver", "heuristic", "maxn", "paranoid", "expectimax")


@pytest.mark.parametrize("name", SEARCHERS)
@pytest.mark.parametrize("value", ["x", "64MB", "0", "-1", "0.01", str(MAX_HASH_MB + 1), "99999999999", "1_0", "²"])
def test_a_bad_hash_is_refused(name: str, value: str) -> None:
    with pytest.raises(BotSpecError, match="hash"):
        make_bot(f"{name}:hash={value}", get_game("tictactoe"))


@pytest.mark.parametrize("name", SEARCHERS)
def test_hash_is_megabytes_and_defaults_to_64(name: str) -> None:
    game = get_game("tictactoe")
    with pytest.raises(BotSpecError, match="hash"):
        make_bot(f"{name}:hash", game)  # a bare word is True, not a size
    assert make_bot(f"{name}:hash=0.5", game).hash_bytes == MB // 2  # type: ignore[attr-defined]
    assert make_bot(f"{name}:hash={MAX_HASH_MB}", game).hash_bytes == MAX_HASH_MB * MB  # type: ignore[attr-defined]
    assert make_bot(name, game).hash_bytes == DEFAULT_HASH_MB * MB  # type: ignore[attr-defined]


@pytest.mark.parametrize("value", ["0", "-3", "1.5", "x"])
def test_a_bad_table_cap_is_refused(value: str) -> None:
    with pytest.raises(BotSpecError, match="tt"):
        make_bot(f"alphabeta:tt={value}", get_game("tictactoe"))


def test_alphabeta_shares_its_budget_between_its_tables() -> None:
    plain = make_bot("alphabeta:hash=8", get_game("chess"))
    threats = make_bot("alphabeta:hash=8", get_game("gomoku"))
    assert isinstance(plain, AlphaBeta) and isinstance(threats, AlphaBeta)
    assert plain.threats is None and threats.threats is not None
    assert plain.tt_budget.budget + plain.expansion_budget.budget <= 8 * MB
    assert (threats.tt_budget.budget + threats.expansion_budget.budget
            + threats.threats.budget.budget) <= 8 * MB
    assert threats.tt_budget.budget < plain.tt_budget.budget  # the threat table takes its share
    capped = make_bot("alphabeta:hash=8,tt=100", get_game("chess"))
    assert isinstance(capped, AlphaBeta) and capped.tt_budget.cap == 100


def _within(budget: ByteBudget, table: dict[object, object]) -> None:
    """``table`` holds no more than ``budget``'s cap, derived from its measured entries."""
    assert budget.per_entry > DICT_ENTRY_BYTES
    assert budget.cap == max(MIN_ENTRIES, budget.budget // budget.per_entry)
    assert len(table) <= budget.cap


def _played(game: Game, plies: int) -> object:
    """A position ``plies`` moves in (first legal moves), or earlier if the game ends."""
    state = game.initial_state()
    for _ in range(plies):
        moves = game.legal_moves(state)
        if not moves or game.outcome(state) is not None:
            break
        state = game.play(state, moves[len(moves) // 2])
    while game.is_chance(state):  # (a player's turn: bots are never asked to move for chance)
        state = game.play(state, game.legal_moves(state)[0])
    return state


def test_alphabeta_tables_stay_within_a_tiny_hash_in_every_game() -> None:
    filled = []
    for game_id in game_ids():
        game = get_game(game_id)
        if not AlphaBeta.plays(game):  # (refused: another turn structure)
            continue
        bot = make_bot(f"alphabeta:{TINY},engine=reference", game)  # (the kernel's: test_kernel_search)
        assert isinstance(bot, AlphaBeta)
        state = _played(game, 4)
        for _ in range(2):  # the table is kept between moves: two searches
            bot.choose(state, Limits(nodes=3000))  # type: ignore[arg-type]
        _within(bot.tt_budget, bot.tt)  # type: ignore[arg-type]
        assert not bot.expansions  # kept for one search only
        if bot.threats is not None:
            assert len(bot.threats.table) <= bot.threats.budget.cap
        if bot.tt_budget.dropped or len(bot.tt) >= bot.tt_budget.cap * 15 // 16:
            filled.append(game_id)
    # The cap bit, not the search's size: most games filled their table.
    assert len(filled) >= len(game_ids()) // 2, filled


def _tree_size(node: Node) -> int:
    count, stack = 0, [node]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node.children)
    return count


def test_mcts_tree_stays_within_a_tiny_hash_in_every_game() -> None:
    for game_id in game_ids():
        game = get_game(game_id)
        if not MCTS.plays(game):  # (hidden information: ismcts, its tree's cap in tests/test_ismcts.py)
            continue
        bot = make_bot(f"mcts:playouts=400,cutoff=4,seed=1,engine=reference,{TINY}", game)
        assert isinstance(bot, MCTS)
        state = game.initial_state()
        for _ in range(2):  # the tree is kept between moves
            state = game.play(state, bot.choose(state).move)
        tree = bot.discarded[-1]  # the whole tree of the last search
        assert MIN_ENTRIES <= bot.max_nodes < 400, game_id
        assert _tree_size(tree) <= bot.max_nodes, game_id


def test_solver_table_stays_within_a_tiny_hash_in_every_game() -> None:
    for game_id in game_ids():
        game = get_game(game_id)
        if not Solver.plays(game):  # (refused: another turn structure)
            continue
        bot = make_bot(f"solver:{TINY}", game)
        assert isinstance(bot, Solver)
        try:
            bot.solve(game.initial_state(), Limits(nodes=5000))
        except (SearchTimeout, RecursionError):  # (chess games run deeper than Python's stack)
            pass
        _within(bot.budget, bot.table)  # type: ignore[arg-type]
    solver = make_bot(f"solver:{TINY}", get_game("tictactoe"))
    assert isinstance(solver, Solver)
    assert solver.solve(get_game("tictactoe").initial_state()) == 0  # still right, with a small table
    assert len(solver.table) < 5478  # fewer entries than tic-tac-toe's positions


def _fresh(game_id: str) -> Game:
    """A new instance of a registered game, its caches its own (``get_game`` shares one)."""
    module_name, factory, kwargs = REGISTRY[game_id]
    game: Game = getattr(importlib.import_module(module_name), factory)(**kwargs)
    game.id = game_id
    return game


def test_game_caches_stay_within_their_bytes() -> None:
    tiny = 64 * 1024
    checked = []
    for game_id in game_ids():
        game = _fresh(game_id)
        if not isinstance(game, InARow) or game.line_index is None:
            continue
        budgets = (game._scan_budget, game._tally_budget, game._parent_budget, game.line_index.stats_budget)
        assert sum(b.budget for b in budgets) <= GAME_CACHE_BYTES
        game._scan_budget = ByteBudget(tiny, 1024)
        game._tally_budget = ByteBudget(tiny, 4096, skip=(game.line_index,))
        game._parent_budget = ByteBudget(tiny, 256)
        game.line_index.stats_budget = ByteBudget(tiny, 512)
        bot = make_bot("alphabeta:threats=0", game)
        bot.choose(_played(game, 6), Limits(nodes=4000))  # type: ignore[arg-type]
        for budget, cache in ((game._scan_budget, game._scans), (game._tally_budget, game._tallies),
                              (game._parent_budget, game._parents),
                              (game.line_index.stats_budget, game.line_index._stats)):
            _within(budget, cache)  # type: ignore[arg-type]
            assert budget.cap < 1000  # tiny indeed: the search made more
        checked.append(game_id)
    assert "gomoku" in checked and "connect4" in checked


#: Run in a fresh process (gc.freeze freezes the whole process: objects frozen alive by
#: earlier tests and dropped since would be found too).
FROZEN_GARBAGE = """
import gc
from myriad.ai.bot import gc_paused
gc.collect()
gc.disable()
cycle = []
cycle.append(cycle)  # the caller's garbage, made before a search
with gc_paused():
    inner = []
    inner.append(inner)  # the search's garbage
    del inner
del cycle  # (alive when frozen: found once unfrozen below)
gc.unfreeze()  # frozen garbage would be found now
print(gc.collect())
"""


def test_no_garbage_is_frozen_after_a_search() -> None:
    found = subprocess.run([sys.executable, "-c", FROZEN_GARBAGE], capture_output=True, text=True, check=True)
    assert found.stdout.split() == ["1"]  # the caller's list only, not the search's


def test_searches_make_no_cyclic_garbage_in_any_game() -> None:
    """Cycles cost a collection after every search (a recursive closure in draughts' capture
    generator left 140k objects a half-second search, 190 ms to collect)."""
    found = {}
    gc.disable()
    try:
        for game_id in game_ids():
            game = get_game(game_id)
            for spec in ("alphabeta:nodes=1500", "mcts:playouts=50", "ismcts:playouts=50"):
                if not BOTS[spec.partition(":")[0]].plays(game):
                    continue  # (refused: another turn structure, or hidden information)
                bot = make_bot(spec, game)
                state = _played(game, 4)
                state = game.observe(state, state.to_move)  # (all a bot is given)
                gc.collect()
                gc.freeze()  # (so that the next collection walks only what the search made)
                # (choose collects after a search: the searchers that do it are asked within)
                getattr(bot, "_choose", bot.choose)(state, Limits())
                garbage = gc.collect()
                if garbage:
                    found[f"{game_id} {spec}"] = garbage
    finally:
        gc.enable()
    assert not found


def test_bench_memory_reports_the_bot_and_its_reference(capsys: pytest.CaptureFixture[str]) -> None:
    from myriad.cli import main

    assert main(["bench", "memory", "--games", "tictactoe", "--moves", "12", "--movetime", "0.05",
                 "--bot", "alphabeta:hash=1", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert record["game"] == "tictactoe" and record["bot"] == "alphabeta:hash=1"
    assert record["reference"] == "random" and record["games"] >= 2  # tic-tac-toe ends within 9 moves
    assert record["rss_end_mb"] > 0 and record["reference_rss_end_mb"] > 0
    # (the ratio is of the unrounded sizes; the sizes are printed to 0.1 MB)
    assert record["rss_end_ratio"] == pytest.approx(record["rss_end_mb"] / record["reference_rss_end_mb"], abs=0.02)
    assert main(["bench", "memory", "--games", "tictactoe", "--moves", "0"]) == 2
    assert main(["bench", "memory", "--games", "tictactoe", "--bot", "alphabeta:hash=0"]) == 2
