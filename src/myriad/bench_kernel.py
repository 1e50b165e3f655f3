"""Benchmarks of the kernel engine: each prints the kernel against the reference engine (and
outside engines) measured in the same run.

* ``myriad bench rules`` (with :mod:`myriad.bench`): kernel perft nodes/s per game and the
  kernel/reference ratio; for chess, the kernel against python-chess and OpenSpiel;
* ``myriad bench playouts``: uniformly random games per second, kernel against the
  reference and OpenSpiel's Python loop, with compiled RBG's published rates for context;
* ``myriad bench search``: alpha-beta nodes/s and depth reached in equal time, kernel
  against reference;
* ``myriad bench startup``: a fresh process's first kernel search move, warm cache.

OpenSpiel (``open-spiel``, Apache-2.0) and python-chess (GPL) are benchmark references
only: they run in separate processes, and ``myriad`` never imports them.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any

from myriad.core.game import Game
from myriad.core.state import State

#: The deepest perft the depth search tries.
MAX_DEPTH = 40

#: OpenSpiel's name (and parameters) of our games where it has the same game.
OPENSPIEL_GAMES: dict[str, str] = {
    "tictactoe": "tic_tac_toe", "connect4": "connect_four", "breakthrough": "breakthrough",
    "othello": "othello", "checkers": "checkers", "chess": "chess", "oware": "oware",
    "kalah": "mancala", "go9": "go(board_size=9)", "go13": "go(board_size=13)", "go19": "go",
    "hex": "hex", "gomoku": "gomoku",
}

#: Random playouts per second of compiled RBG (C++), issue 21's figures "on a comparable
#: machine": context printed beside ours, not measured here.
RBG_PLAYOUTS: dict[str, float] = {
    "tictactoe": 2_000_000, "connect4": 694_000, "breakthrough": 37_000, "othello": 15_000,
    "checkers": 51_000, "chess": 822, "gomoku": 11_000,
}

#: The reference search compared with the kernel's: the same tree, every move at every
#: node (no move cap) and no threat-space search around it.
REFERENCE_SEARCH = "alphabeta:moves=0,threats=0"

#: The games of ``bench search`` (those without a kernel print "reference only").
SEARCH_GAMES = ("chess", "international", "othello", "gomoku", "connect4")

#: OpenSpiel's perft and playouts, run as ``python -c`` in their own process.
#: argv: JSON {"mode": "perft"|"playouts", "game", "fen", "depth", "seconds", "seed"}.
OPENSPIEL_CODE = r"""
import json, random, sys, time
job = json.loads(sys.argv[1])
try:
    import pyspiel
except ImportError:
    print(json.dumps({"error": "open-spiel is not installed (pip install open-spiel)"}))
    sys.exit(0)
try:
    from importlib.metadata import version
    ver = version("open_spiel")
except Exception:
    ver = "?"
game = pyspiel.load_game(job["game"])

def perft(state, depth):
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    nodes = 0
    player = state.current_player()
    for a in actions:
        state.apply_action(a)
        nodes += perft(state, depth - 1)
        state.undo_action(player, a)
    return nodes

if job["mode"] == "perft":
    state = game.new_initial_state(job["fen"]) if job.get("fen") else game.new_initial_state()
    start = time.perf_counter()
    nodes = perft(state, job["depth"])
    print(json.dumps({"version": ver, "nodes": nodes, "seconds": time.perf_counter() - start}))
else:
    rng = random.Random(job["seed"])
    games = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < job["seconds"]:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
        games += 1
    print(json.dumps({"version": ver, "games": games, "plies": plies,
                      "seconds": time.perf_counter() - start}))
"""


@dataclass(frozen=True)
class Rate:
    """A timed count (nodes, games) and what was counted; ``error`` says why there is none."""

    count: int = 0
    seconds: float = 0.0
    depth: int = 0
    version: str = ""
    error: str = ""

    @property
    def per_second(self) -> float:
        """Counted per second (0 when untimed or failed)."""
        return self.count / self.seconds if self.seconds > 0 and not self.error else 0.0


def ratio(a: Rate, b: Rate) -> float | None:
    """``a``'s rate over ``b``'s, None when either is missing."""
    return a.per_second / b.per_second if a.per_second and b.per_second else None


def show_ratio(value: float | None) -> str:
    """A ratio for a table ('-' when there is none)."""
    return "-" if value is None else f"{value:.2f}x"


def run_openspiel(job: dict[str, Any], timeout: float) -> dict[str, Any]:
    """Run :data:`OPENSPIEL_CODE` on ``job`` in a separate process; its JSON answer, or
    ``{"error": ...}``."""
    try:
        proc = subprocess.run([sys.executable, "-c", OPENSPIEL_CODE, json.dumps(job)],
                              capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"OpenSpiel {job['mode']} timed out after {timeout:g} s"}
    try:
        data: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        reason = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
        return {"error": f"OpenSpiel failed: {reason}"}
    return data


# -- perft ------------------------------------------------------------------------------------------

def deepest(count: Any, seconds: float, start_depth: int = 1) -> Rate:
    """The deepest ``count(depth)`` (a perft) predicted to take at most ``seconds``,
    deepening from ``start_depth`` while the tree grows."""
    def timed(depth: int) -> Rate:
        begin = time.perf_counter()
        nodes = int(count(depth))
        return Rate(nodes, time.perf_counter() - begin, depth)

    best = timed(start_depth)
    previous = 1
    while best.depth < MAX_DEPTH and best.count:
        growth = max(best.count / previous, 1.0)
        # a call this short is mostly its overhead: it predicts nothing
        if best.seconds * growth > seconds and best.seconds > seconds / 50:
            break
        deeper = timed(best.depth + 1)
        if not deeper.count:
            break
        previous, best = best.count, deeper
    return best


@dataclass(frozen=True)
class KernelPerft:
    """One game's kernel perft against the reference's (``reference``: the reference
    engine's timing of :mod:`myriad.bench`), with the count checked at the reference's depth."""

    game: str
    kernel: Rate
    reference: Rate
    compile_seconds: float
    agrees: bool

    @property
    def ratio(self) -> float | None:
        return ratio(self.kernel, self.reference)


def kernel_perft(game: Game, reference: Rate, seconds: float, state: State | None = None) -> KernelPerft | None:
    """The kernel's deepest perft within ``seconds`` for ``game`` (None: no kernel), after
    one call that compiles (or loads) the code; its count at ``reference.depth`` is
    checked against the reference's."""
    from myriad.kernel.registry import kernel_for
    kernel = kernel_for(game)
    if kernel is None:
        return None
    state = state if state is not None else game.initial_state()
    begin = time.perf_counter()
    at_reference = kernel.perft(state, reference.depth)
    warm = time.perf_counter() - begin
    rate = deepest(lambda d: kernel.perft(state, d), seconds)
    return KernelPerft(game.id, rate, reference, warm, at_reference == reference.count)


def openspiel_chess_perft(depth: int, fen: str, timeout: float) -> Rate:
    """OpenSpiel's chess perft (its C++ move generator, walked by a Python recursion:
    pyspiel exposes no perft) in its own process."""
    data = run_openspiel({"mode": "perft", "game": "chess", "fen": fen, "depth": depth}, timeout)
    if "error" in data:
        return Rate(depth=depth, error=str(data["error"]))
    return Rate(int(data["nodes"]), float(data["seconds"]), depth, str(data["version"]))


@dataclass(frozen=True)
class ChessReferences:
    """The kernel's chess perft at one depth, against python-chess and OpenSpiel at the same
    depth (best of ``repeats`` runs each)."""

    kernel: Rate
    python_chess: Rate
    openspiel: Rate


def chess_references(game: Game, depth: int, seconds: float, repeats: int = 2) -> ChessReferences | None:
    """Kernel chess perft at ``depth`` from the start, against python-chess and OpenSpiel
    (None: chess is not on the kernel)."""
    from myriad.bench import CHESS_START_FEN, python_chess_perft
    from myriad.kernel.registry import kernel_for
    kernel = kernel_for(game)
    if kernel is None:
        return None
    state = game.initial_state()
    best: Rate | None = None
    pc: Rate | None = None
    os_: Rate | None = None
    timeout = max(60.0, 60 * seconds)
    for _ in range(repeats):
        begin = time.perf_counter()
        nodes = kernel.perft(state, depth)
        run = Rate(nodes, time.perf_counter() - begin, depth)
        best = run if best is None or run.seconds < best.seconds else best
        ref = python_chess_perft(depth, CHESS_START_FEN, timeout)
        again = Rate(ref.nodes, ref.seconds, depth, ref.version, ref.error)
        pc = again if pc is None or (not again.error and (pc.error or again.seconds < pc.seconds)) else pc
        spiel = openspiel_chess_perft(depth, CHESS_START_FEN, timeout)
        os_ = spiel if os_ is None or (not spiel.error and (os_.error or spiel.seconds < os_.seconds)) else os_
    assert best is not None and pc is not None and os_ is not None
    for name, ref_rate in (("python-chess", pc), ("OpenSpiel", os_)):
        if not ref_rate.error and ref_rate.count != best.count:
            mismatch = Rate(ref_rate.count, ref_rate.seconds, depth, ref_rate.version,
                            f"node counts differ: kernel {best.count}, {name} {ref_rate.count}")
            pc, os_ = (mismatch, os_) if name == "python-chess" else (pc, mismatch)
    return ChessReferences(best, pc, os_)


def print_rules(games: list[Game], references: dict[str, Rate], seconds: float, as_json: bool) -> None:
    """The kernel part of ``myriad bench rules``: per game with a kernel, its perft nodes/s
    and the ratio to the reference engine's (``references``: the reference timings)."""
    from myriad.kernel.registry import engine_name
    if not as_json:
        print(f"kernel perft, deepest depth predicted to take at most {seconds:g} s per game "
              f"(after one call that compiles or loads it)", flush=True)
    for game in games:
        result = kernel_perft(game, references[game.id], seconds) if engine_name(game) == "kernel" else None
        if result is None:
            if as_json:
                print(json.dumps({"engine": "kernel", "game": game.id, "kernel": None}))
            else:
                print(f"{game.id:<14} reference only")
            continue
        k = result.kernel
        if as_json:
            print(json.dumps({"engine": "kernel", "game": game.id, "depth": k.depth, "nodes": k.count,
                              "seconds": round(k.seconds, 6), "nodes_per_second": round(k.per_second),
                              "reference_nodes_per_second": round(result.reference.per_second),
                              "ratio": None if result.ratio is None else round(result.ratio, 3),
                              "first_call_seconds": round(result.compile_seconds, 3),
                              "agrees": result.agrees}), flush=True)
        else:
            print(f"{game.id:<14} perft {k.depth:>2}  {k.count:>14,} nodes  {k.seconds:7.3f} s  "
                  f"{k.per_second:>13,.0f} nodes/s  kernel/reference {show_ratio(result.ratio)}"
                  + ("" if result.agrees else "  COUNTS DIFFER FROM THE REFERENCE"), flush=True)
    chess = next((g for g in games if g.id == "chess"), None)
    if chess is None:
        return
    # the reference engine's depth: python-chess and OpenSpiel's Python loops take about as long
    refs = chess_references(chess, max(1, references["chess"].depth), seconds, repeats=3)
    if refs is None:
        if not as_json:
            print("chess is not on the kernel: no kernel comparison with python-chess and OpenSpiel")
        return
    k = refs.kernel
    for name, ref in (("python-chess", refs.python_chess), ("OpenSpiel", refs.openspiel)):
        r = ratio(k, ref)
        if as_json:
            print(json.dumps({"engine": "kernel", "reference": name, "game": "chess", "depth": k.depth,
                              "nodes": k.count, "kernel_nodes_per_second": round(k.per_second),
                              "reference_nodes_per_second": round(ref.per_second), "version": ref.version,
                              "ratio": None if r is None else round(r, 3), "error": ref.error or None}))
        elif ref.error:
            print(f"kernel vs {name}: {ref.error}")
        else:
            how = " (C++ moves, Python recursion: pyspiel has no perft)" if name == "OpenSpiel" else ""
            print(f"kernel/{name} {ref.version}{how}, chess perft {k.depth}: {k.per_second:,.0f} vs "
                  f"{ref.per_second:,.0f} nodes/s = {show_ratio(r)}"
                  + ("  (goal >= 1.0x)" if name == "OpenSpiel" else ""))


# -- playouts -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Playouts:
    """Random playouts of one game: kernel, reference and OpenSpiel."""

    game: str
    kernel: Rate | None
    reference: Rate
    openspiel: Rate | None
    rbg: float | None


def reference_playouts(game: Game, seconds: float, seed: int = 1, max_plies: int = 1000) -> Rate:
    """Uniformly random games by the reference engine for about ``seconds``."""
    rng = random.Random(seed)
    start = time.perf_counter()
    games = 0
    while True:
        state = game.initial_state()
        for _ in range(max_plies):
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.play(state, rng.choice(moves))
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return Rate(games, elapsed)


def kernel_playouts(game: Game, seconds: float, seed: int = 1, max_plies: int = 1000) -> Rate | None:
    """Uniformly random games inside the kernel for about ``seconds``: batches doubled
    until one takes a tenth of the budget (None: no kernel)."""
    from myriad.kernel.registry import kernel_for
    kernel = kernel_for(game)
    if kernel is None:
        return None
    state = game.initial_state()
    kernel.playouts(state, 1, max_plies, seed)  # compile or load
    games, elapsed = 0, 0.0
    batch = 1
    while elapsed < seconds:
        begin = time.perf_counter()
        kernel.playouts(state, batch, max_plies, seed + games)
        took = time.perf_counter() - begin
        elapsed += took
        games += batch
        if took < seconds / 10:
            batch *= 2
    return Rate(games, elapsed)


def bench_playouts(games: list[Game], seconds: float, openspiel: bool = True) -> list[Playouts]:
    """Random playouts per second for each game, by every engine that has it."""
    out = []
    for game in games:
        kernel = kernel_playouts(game, seconds)
        reference = reference_playouts(game, seconds)
        spiel = None
        name = OPENSPIEL_GAMES.get(game.id)
        if openspiel and name:
            data = run_openspiel({"mode": "playouts", "game": name, "seconds": seconds, "seed": 1},
                                 timeout=max(60.0, 20 * seconds))
            spiel = Rate(error=str(data["error"])) if "error" in data else \
                Rate(int(data["games"]), float(data["seconds"]), version=str(data["version"]))
        out.append(Playouts(game.id, kernel, reference, spiel, RBG_PLAYOUTS.get(game.id)))
    return out


def cmd_bench_playouts(args: argparse.Namespace) -> int:
    """``myriad bench playouts``."""
    from myriad.cli import load_game
    from myriad.kernel.registry import engine_name
    from myriad.games import game_ids
    ids = args.games or [g for g in game_ids() if engine_name(load_game(g)) == "kernel"]
    games = [load_game(g) for g in ids]
    if not args.json:
        print(f"uniformly random games per second, {args.seconds:g} s per engine and game; "
              f"RBG: compiled C++ figures from issue 21, for context (another machine)", flush=True)
    for p in bench_playouts(games, args.seconds, not args.no_openspiel):
        k = p.kernel
        vs_ref = ratio(k, p.reference) if k else None
        vs_os = ratio(k, p.openspiel) if k and p.openspiel else None
        if args.json:
            print(json.dumps({
                "game": p.game, "kernel": round(k.per_second, 1) if k else None,
                "reference": round(p.reference.per_second, 1),
                "openspiel": round(p.openspiel.per_second, 1) if p.openspiel and not p.openspiel.error else None,
                "openspiel_error": p.openspiel.error or None if p.openspiel else None,
                "kernel_vs_reference": None if vs_ref is None else round(vs_ref, 3),
                "kernel_vs_openspiel": None if vs_os is None else round(vs_os, 3),
                "rbg": p.rbg}), flush=True)
            continue
        spiel = "-" if p.openspiel is None else (p.openspiel.error if p.openspiel.error
                                                  else f"{p.openspiel.per_second:,.0f}/s")
        kernel_text = f"{k.per_second:>11,.0f}/s" if k else "  reference only"
        rbg = f"{p.rbg:,.0f}/s" if p.rbg else "-"
        print(f"{p.game:<14} kernel {kernel_text}  reference {p.reference.per_second:>9,.1f}/s "
              f"({show_ratio(vs_ref)})  OpenSpiel {spiel} ({show_ratio(vs_os)})  RBG {rbg}", flush=True)
    return 0


# -- search ---------------------------------------------------------------------------------------

def quiet(game: Game, state: State, width: int = 60) -> bool:
    """Whether no move of the side to move, nor any answer to one, ends the game (a
    search would stop at once); positions with more than ``width`` moves are not looked
    into beyond the first ply."""
    moves = game.legal_moves(state)
    if not moves:
        return False
    for move in moves:
        after = game.play(state, move)
        if game.outcome(after) is not None:
            return False
        if len(moves) <= width and any(game.outcome(game.play(after, reply)) is not None
                                       for reply in game.legal_moves(after)):
            return False
    return True


def search_position(game: Game, plies: int = 8) -> State:
    """The position a search is timed in: the bench's middle-game position where
    :mod:`myriad.bench` has one, else the first of seeded random games that is
    :func:`quiet` after ``plies`` moves."""
    from myriad.bench import SEARCH_POSITIONS
    if game.id in SEARCH_POSITIONS:
        return game.parse_position(SEARCH_POSITIONS[game.id][0])
    for length in range(plies, 0, -1):  # shorter games where long ones end or decide too soon
        for seed in range(20):
            rng = random.Random(f"{game.id}/{seed}")
            state = game.initial_state()
            for _ in range(length):
                moves = game.legal_moves(state)
                if not moves:
                    break
                state = game.play(state, rng.choice(moves))
            if quiet(game, state):
                return state
    return game.initial_state()


@dataclass(frozen=True)
class SearchRate:
    """A timed search: the deepest finished depth, nodes and seconds, and the move."""

    depth: int
    nodes: int
    seconds: float
    move: str
    error: str = ""

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def reference_search(game: Game, state: State, seconds: float) -> SearchRate:
    """The reference alpha-beta bot for ``seconds`` (:data:`REFERENCE_SEARCH`, with
    ``engine=reference`` where bots take that option)."""
    from myriad.ai import Limits, make_bot
    from myriad.ai.alphabeta import AlphaBeta
    from myriad.core.errors import MyriadError
    try:
        spec = f"{REFERENCE_SEARCH},engine=reference"
        make_bot(spec, game)
    except MyriadError:  # bots that know no engine option run on the reference
        spec = REFERENCE_SEARCH
    make_bot(spec, game).choose(state, Limits(depth=1))  # the game's one-time tables, out of the clock
    bot = make_bot(spec, game)
    assert isinstance(bot, AlphaBeta)
    begin = time.perf_counter()
    decision = bot.choose(state, Limits.of(seconds))
    took = time.perf_counter() - begin
    depth = max((d for d, _t, _n in bot.iterations), default=0)
    return SearchRate(depth, bot.nodes, took, game.format_move(state, decision.move))


def kernel_best_move() -> Any:
    """``myriad.kernel.search.best_move``, or None before the kernel has a search."""
    try:
        module = importlib.import_module("myriad.kernel.search")
    except ImportError:
        return None
    return getattr(module, "best_move", None)


def kernel_search(game: Game, state: State, seconds: float) -> SearchRate | None:
    """The kernel's alpha-beta (``myriad.kernel.search.best_move``) for ``seconds`` (None:
    the game is not on the kernel; an ``error`` when the kernel has no search yet)."""
    from myriad.kernel.registry import kernel_for
    kernel = kernel_for(game)
    if kernel is None:
        return None
    best_move = kernel_best_move()
    if best_move is None:
        return SearchRate(0, 0, 0.0, "", "kernel search not available")
    best_move(kernel, state, depth=1)  # compile or load
    begin = time.perf_counter()
    found = best_move(kernel, state, seconds=seconds)
    took = time.perf_counter() - begin
    return SearchRate(int(found.depth), int(found.nodes), took, game.format_move(state, found.move))


def cmd_bench_kernel_search(args: argparse.Namespace) -> int:
    """``myriad bench search``: kernel against reference alpha-beta."""
    from myriad.cli import UsageError, load_game
    ids = args.games or list(SEARCH_GAMES)
    if not args.json:
        print(f"alpha-beta for {args.seconds:g} s per engine from one middle-game position per game: "
              f"nodes/s and depth reached; reference {REFERENCE_SEARCH} (goal: kernel >= 20x its nodes/s)", flush=True)
    for game_id in ids:
        game = load_game(game_id)
        if game.chance or game.hidden_information or game.players != 2:
            raise UsageError(f"{game_id}: alpha-beta searches two-player games without chance or hidden information")
        state = search_position(game)
        kernel = kernel_search(game, state, args.seconds)
        reference = reference_search(game, state, args.seconds)
        r = None
        if kernel is not None and not kernel.error and reference.nodes_per_second:
            r = kernel.nodes_per_second / reference.nodes_per_second
        if args.json:
            print(json.dumps({"game": game_id, "position": game.format_position(state),
                              "reference": asdict(reference) | {"nodes_per_second": round(reference.nodes_per_second)},
                              "kernel": None if kernel is None else
                              asdict(kernel) | {"nodes_per_second": round(kernel.nodes_per_second)},
                              "nodes_per_second_ratio": None if r is None else round(r, 3)}), flush=True)
            continue
        ref = (f"reference depth {reference.depth:>2} {reference.nodes_per_second:>10,.0f} nodes/s "
               f"({reference.move})")
        if kernel is None:
            print(f"{game_id:<14} {ref}  kernel: reference only", flush=True)
        elif kernel.error:
            print(f"{game_id:<14} {ref}  kernel: {kernel.error}", flush=True)
        else:
            print(f"{game_id:<14} {ref}  kernel depth {kernel.depth:>2} {kernel.nodes_per_second:>12,.0f} nodes/s "
                  f"({kernel.move})  kernel/reference {show_ratio(r)}", flush=True)
    return 0


# -- start-up ---------------------------------------------------------------------------------------

#: What the start-up process runs: import Myriad, then the first kernel search move (or,
#: without a kernel search, the first kernel call: the legal moves).  argv: game id.
STARTUP_CODE = r"""
import json, sys, time
begin = time.perf_counter()
from myriad.games import get_game
from myriad.kernel.registry import kernel_for
game = get_game(sys.argv[1])
kernel = kernel_for(game)
state = game.initial_state()
try:
    from myriad.kernel.search import best_move
except ImportError:
    best_move = None
if best_move is not None:
    found = best_move(kernel, state, depth=1)
    what, move = "search", game.format_move(state, found.move)
else:
    what, move = "legal moves", game.format_move(state, kernel.legal_moves(state)[0])
from myriad.kernel.cache_load import is_installed
print(json.dumps({"what": what, "move": move, "seconds": time.perf_counter() - begin, "at": time.time(),
                  "quick_load": is_installed()}), flush=True)
"""

#: numba's own share, which no kernel avoids: import it and make it ready to run cached
#: code (:func:`myriad.kernel.cache.load_numba`: start its runtime, or load its registries
#: where the quick loader cannot run).
NUMBA_CODE = r"""
import json, sys, time
begin = time.perf_counter()
import myriad.kernel.cache
print(json.dumps({"seconds": time.perf_counter() - begin, "at": time.time()}), flush=True)
"""


def children_cpu() -> float:
    """The processor seconds this process's finished children have used (0 on platforms
    that do not count them, such as Windows)."""
    times = os.times()
    return times.children_user + times.children_system


def startup(code: str, *args: str, timeout: float = 600.0) -> dict[str, Any]:
    """One fresh process running ``code`` (which prints a JSON line with ``at``, the
    clock time of its answer): its wall time from launch to that answer (``wall``: what a
    user waits for), to its exit (``exit``: the interpreter's teardown comes after the
    answer), and its processor time (``cpu``: a loaded machine stretches the wall time, not
    this).  The process may write Python's bytecode cache, as an installed package's
    imports do (``PYTHONDONTWRITEBYTECODE`` would recompile every module at every start)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    before = children_cpu()
    launch = time.time()
    begin = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=timeout, check=False, env=env)
    to_exit = time.perf_counter() - begin
    cpu = children_cpu() - before
    try:
        data: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        reason = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
        return {"error": f"start-up process failed: {reason}"}
    data["wall"] = min(data.pop("at") - launch, to_exit)
    data["exit"] = to_exit
    data["cpu"] = cpu
    return data


def cmd_bench_startup(args: argparse.Namespace) -> int:
    """``myriad bench startup``: the first kernel search move of a fresh process."""
    from myriad.cli import UsageError, load_game
    from myriad.kernel.registry import kernel_for
    game_id = args.game
    if game_id is None:
        game_id = next((g for g in ("chess", "connect4") if kernel_for(load_game(g)) is not None), "tictactoe")
    if kernel_for(load_game(game_id)) is None:
        raise UsageError(f"{game_id} is not on the kernel (see 'myriad games')")
    cold = startup(STARTUP_CODE, game_id)  # fills the cache if it is cold
    begin = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=False)
    interpreter = time.perf_counter() - begin
    runs = [startup(STARTUP_CODE, game_id) for _ in range(args.runs)]
    floors = [startup(NUMBA_CODE) for _ in range(args.runs)]
    errors = [r["error"] for r in [cold, *runs, *floors] if "error" in r]
    if errors:
        raise UsageError(errors[0])
    best = min(runs, key=lambda r: r["wall"])
    floor = min(floors, key=lambda r: r["wall"])
    if args.json:
        print(json.dumps({"game": game_id, "what": best["what"], "move": best["move"],
                          "first_run_wall": round(cold["wall"], 3), "wall": round(best["wall"], 3),
                          "exit": round(best["exit"], 3), "in_process": round(best["seconds"], 3),
                          "cpu": round(best["cpu"], 3), "interpreter": round(interpreter, 3),
                          "quick_load": best["quick_load"],
                          "numba": round(floor["wall"], 3), "goal": 0.5}))
    else:
        print(f"{game_id}: a fresh process's first kernel {best['what']} ({best['move']}) from a warm cache: "
              f"{best['wall']:.3f} s from launch to the move (best of {args.runs}; {best['exit']:.3f} s to the "
              f"process's exit), {best['seconds']:.3f} s after its first line, {best['cpu']:.3f} s of processor "
              f"time; goal <= 0.5 s (the first run, maybe compiling: {cold['wall']:.2f} s); cached code loaded by "
              f"{'the quick loader' if best['quick_load'] else 'numba (registries loaded: the quick loader cannot run)'}\n"
              f"  in the same run, from launch: the interpreter alone {interpreter:.3f} s; importing numba and "
              f"readying it for cached code {floor['wall']:.3f} s (best of {args.runs}), which every kernel process pays "
              f"before its own work ({best['wall'] - floor['wall']:.3f} s here)")
    return 0


def add_kernel_commands(kinds: Any) -> None:
    """Add ``bench playouts`` and ``bench startup`` to the ``bench`` subcommands ``kinds``."""
    from myriad.arena import options
    from myriad.games.user_variants import add_variants_option
    playouts = kinds.add_parser("playouts", help="random playouts per second: kernel, reference, OpenSpiel")
    playouts.add_argument("--json", action="store_true", help="print one JSON object per line")
    playouts.add_argument("--games", nargs="+", metavar="GAME", help="games to run (default: the kernel's)")
    playouts.add_argument("--seconds", type=options.seconds(), default=2.0, metavar="S",
                          help="time per engine and game (default 2)")
    playouts.add_argument("--no-openspiel", action="store_true", help="skip OpenSpiel")
    add_variants_option(playouts)
    playouts.set_defaults(run=cmd_bench_playouts)
    start = kinds.add_parser("startup", help="a fresh process's first kernel search move, warm cache")
    start.add_argument("--json", action="store_true", help="print one JSON object")
    start.add_argument("--game", metavar="GAME", help="the game (default: chess when on the kernel, else connect4)")
    start.add_argument("--runs", type=options.count(1, 20), default=3, metavar="N",
                       help="warm runs, the best is printed (default 3)")
    start.set_defaults(run=cmd_bench_startup)
