"""Benchmarks of the rules engine: perft speed per game, against python-chess for chess.

Every speed claim is a ratio measured in the same run.  The reference is python-chess's
fastest perft (push/pop recursion, ``legal_moves.count()`` at the last ply).  python-chess
is GPL: it is never imported here, only run in a separate Python process.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass

from myriad.core.game import Game, perft
from myriad.core.state import State

#: How many times the chess perft and its reference run, alternating (the best counts).
REPEATS = 3

#: Deepest perft the depth search tries (a game whose tree ends earlier stops earlier).
MAX_DEPTH = 40

#: The reference perft, run as ``python -c`` in its own process.  argv: depth, FEN.
REFERENCE_CODE = r"""
import json, sys, time
try:
    import chess
except ImportError:
    print(json.dumps({"error": "python-chess not installed"}))
    sys.exit(0)

def perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes

depth, fen = int(sys.argv[1]), sys.argv[2]
board = chess.Board(fen)
start = time.perf_counter()
nodes = perft(board, depth)
seconds = time.perf_counter() - start
print(json.dumps({"version": chess.__version__, "nodes": nodes, "seconds": seconds}))
"""

#: The chess start position as python-chess reads it (the same position as Myriad's).
CHESS_START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


@dataclass(frozen=True)
class PerftTiming:
    """One timed perft: leaf nodes at ``depth`` and the wall time it took."""

    game: str
    depth: int
    nodes: int
    seconds: float

    @property
    def nodes_per_second(self) -> float:
        """Leaf nodes counted per second (0 when the run was too short to time)."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class Reference:
    """The python-chess reference run, or why there is none (``error``)."""

    depth: int
    nodes: int = 0
    seconds: float = 0.0
    version: str = ""
    error: str = ""

    @property
    def nodes_per_second(self) -> float:
        """Leaf nodes counted per second."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def timed_perft(game: Game, state: State, depth: int) -> PerftTiming:
    """Run :func:`myriad.core.game.perft` once and time it."""
    start = time.perf_counter()
    nodes = perft(game, state, depth)
    return PerftTiming(game.id, depth, nodes, time.perf_counter() - start)


def bench_game(game: Game, seconds: float = 2.0, state: State | None = None) -> PerftTiming:
    """Perft at the deepest depth expected to take at most ``seconds``.

    Depths 1, 2, ... are run in turn; the time of the next depth is predicted from the last
    one times the growth of the node count, and the search stops before a depth predicted
    to exceed the budget, or when the game tree has no leaves deeper down.
    """
    state = state if state is not None else game.initial_state()
    best = timed_perft(game, state, 1)
    previous_nodes = 1
    while best.depth < MAX_DEPTH and best.nodes:
        growth = max(best.nodes / previous_nodes, 1.0)
        if best.seconds * growth > seconds:
            break
        deeper = timed_perft(game, state, best.depth + 1)
        if not deeper.nodes:
            break
        previous_nodes, best = best.nodes, deeper
    return best


def python_chess_perft(depth: int, fen: str = CHESS_START_FEN, timeout: float | None = None) -> Reference:
    """python-chess's perft of ``fen`` at ``depth``, run in a separate process."""
    try:
        proc = subprocess.run([sys.executable, "-c", REFERENCE_CODE, str(depth), fen],
                              capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return Reference(depth, error=f"python-chess perft {depth} timed out")
    lines = proc.stdout.strip().splitlines()
    try:
        data = json.loads(lines[-1])
    except (IndexError, ValueError):
        reason = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
        return Reference(depth, error=f"python-chess reference failed: {reason}")
    if "error" in data:
        return Reference(depth, error=str(data["error"]))
    return Reference(depth, int(data["nodes"]), float(data["seconds"]), str(data["version"]))


@dataclass(frozen=True)
class RulesBench:
    """Result of ``myriad bench rules``: one timing per game and the chess reference."""

    timings: tuple[PerftTiming, ...]
    reference: Reference | None

    @property
    def chess_ratio(self) -> float | None:
        """Myriad chess nodes/s divided by python-chess nodes/s (None without a reference)."""
        chess = next((t for t in self.timings if t.game == "chess"), None)
        ref = self.reference
        if chess is None or ref is None or ref.error or not ref.nodes_per_second:
            return None
        return chess.nodes_per_second / ref.nodes_per_second


def bench_rules(games: list[Game], seconds: float = 2.0) -> RulesBench:
    """Perft speed of each game; when chess is among them, python-chess at the same depth.

    The reference is only meaningful for the start position, which is what both sides use.
    """
    timings = [bench_game(game, seconds) for game in games]
    reference = None
    chess_at = next((i for i, t in enumerate(timings) if t.game == "chess"), None)
    if chess_at is not None:
        # Alternate the two sides a few times and keep the best run of each, so that a burst
        # of load on a shared machine does not decide the ratio.
        chess = timings[chess_at]
        game, runs = games[chess_at], [chess]
        reference = python_chess_perft(chess.depth, timeout=max(60.0, 50 * seconds))
        for _ in range(REPEATS - 1):
            if reference.error:
                break
            runs.append(timed_perft(game, game.initial_state(), chess.depth))
            again = python_chess_perft(chess.depth, timeout=max(60.0, 50 * seconds))
            if not again.error and again.seconds < reference.seconds:
                reference = again
        chess = timings[chess_at] = min(runs, key=lambda t: t.seconds)
        if not reference.error and reference.nodes != chess.nodes:
            reference = Reference(chess.depth, reference.nodes, reference.seconds, reference.version,
                                  error=f"node counts differ: Myriad {chess.nodes}, "
                                        f"python-chess {reference.nodes}")
    return RulesBench(tuple(timings), reference)


# -- search ---------------------------------------------------------------------------------

#: Middle-game positions for the search benchmark, by game.
SEARCH_POSITIONS: dict[str, list[str]] = {
    "chess": ["r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
              "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8"],
    "gomoku": ["15/15/15/15/15/6O8/6XO7/5OXX7/6XO7/7X7/15/15/15/15/15 x",
               "15/15/15/7O7/9O5/7XX6/6OX7/6XXO6/5X1O7/4O10/15/15/15/15/15 x"],
}


#: The searchers compared, the reference (plain negamax over every candidate move) first;
#: the threat-space search is off, so the clock times the alpha-beta variants alone.
SEARCH_ALGOS = ("negamax:moves=0,threats=0", "pvs:moves=0,threats=0", "mtdf:moves=0,threats=0",
                "mtdf:moves=10,root=10,threats=0")


@dataclass(frozen=True)
class SearchTiming:
    """One timed search: the deepest finished iteration and when each depth finished."""

    game: str
    position: int
    algo: str
    depth: int
    nodes: int
    seconds_to_depth: dict[int, float]


def bench_search(games: dict[str, list[str]] | None = None, seconds: float = 2.0,
                 algos: tuple[str, ...] = SEARCH_ALGOS) -> list[SearchTiming]:
    """Run each alpha-beta variant for ``seconds`` on each position, one after the other."""
    from myriad.ai import Limits, make_bot
    from myriad.ai.alphabeta import AlphaBeta
    from myriad.games import get_game

    out = []
    for game_id, positions in (games or SEARCH_POSITIONS).items():
        game = get_game(game_id)
        for index, text in enumerate(positions, start=1):
            state = game.parse_position(text)
            for algo in algos:
                name, _, extra = algo.partition(":")
                bot = make_bot(f"alphabeta:algo={name}" + (f",{extra}" if extra else ""), game)
                assert isinstance(bot, AlphaBeta)
                bot.choose(state, Limits.of(seconds))
                done = {d: round(t, 4) for d, t, _n in bot.iterations}
                depth = max(done, default=0)
                out.append(SearchTiming(game_id, index, algo, depth, bot.nodes, done))
    return out
