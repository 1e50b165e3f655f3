"""Benchmark of bots' memory: the resident size of a process whose bots play many moves.

For each game, a fresh Python process plays the bot against itself (two bots of the same
spec, one per side) for ``moves`` moves, starting a new game (and resetting the bots) when
one ends, and reports its resident memory (RSS) once the game is loaded, after the moves,
and at its peak.  The reference, in the same command, is the same process with ``random``
against ``random``: what the interpreter, the package and the game cost without a bot's
tables, so that the ratio of the two is comparable from one run (or machine) to another.

Resident sizes are read from ``/proc/self/statm`` (Linux) and the peak from
``resource.getrusage``; elsewhere the current size is not known and only the peak is given.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from myriad.core.errors import MyriadError

#: The bot measured and the reference bot, by default.
DEFAULT_BOT = "alphabeta:time=0.5"
REFERENCE_BOT = "random"

#: What each measured process runs (``python -c``); argv: game, bot spec, moves, seconds
#: per move, then the variant files to load.  It uses only the public API, so that another checkout of the package can be
#: measured too (``--pythonpath``).
CHILD_CODE = r"""
import json, os, resource, sys, time

def rss_mb():
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return None

def peak_mb():
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10

game_id, spec, moves, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
from myriad.ai import Limits, make_bot
from myriad.games import get_game
if sys.argv[5:]:  # the user's variant files (--variants)
    from myriad.games import load_variant_file
    for path in sys.argv[5:]:
        load_variant_file(path)
import myriad.ai.alphabeta as alphabeta
game = get_game(game_id)
bots = [make_bot(spec, game) for _ in range(game.players)]
state = game.initial_state()
start_rss, games, longest, started = rss_mb(), 1, 0.0, time.monotonic()
for _ in range(moves):
    if game.outcome(state) is not None:
        state, games = game.initial_state(), games + 1
        for bot in bots:
            bot.reset()
    clock = time.monotonic()
    decision = bots[state.to_move].choose(state, Limits.of(seconds))
    longest = max(longest, time.monotonic() - clock)
    state = game.play(state, decision.move)
print(json.dumps({"rss_start_mb": start_rss, "rss_end_mb": rss_mb(), "peak_mb": peak_mb(),
                  "games": games, "longest_move": longest, "seconds": time.monotonic() - started,
                  "compiled": not alphabeta.__file__.endswith(".py")}))
"""


class BenchError(MyriadError):
    """A measured process failed."""


@dataclass(frozen=True)
class MemoryRun:
    """One measured process: resident sizes in MB (None where unknown), the games started,
    the longest move in seconds, and whether the search ran compiled."""

    game: str
    bot: str
    moves: int
    rss_start_mb: float | None
    rss_end_mb: float | None
    peak_mb: float
    games: int
    longest_move: float
    seconds: float
    compiled: bool


def measure(game_id: str, spec: str, moves: int, seconds: float, pythonpath: str | None = None,
            timeout: float | None = None, variants: Sequence[str] = ()) -> MemoryRun:
    """Play ``moves`` moves of ``game_id`` with ``spec`` on both sides in a fresh process;
    its memory figures.  ``pythonpath`` imports the package from another checkout;
    ``variants`` are variant files the process loads first."""
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    try:
        proc = subprocess.run([sys.executable, "-c", CHILD_CODE, game_id, spec, str(moves), str(seconds),
                               *variants],
                              capture_output=True, text=True, timeout=timeout, env=env, check=False)
    except subprocess.TimeoutExpired:
        raise BenchError(f"bench memory: {game_id} with {spec} took more than {timeout:g} s") from None
    try:
        data = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        reason = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
        raise BenchError(f"bench memory: {game_id} with {spec} failed: {reason}") from None
    return MemoryRun(game_id, spec, moves, data["rss_start_mb"], data["rss_end_mb"], data["peak_mb"],
                     data["games"], data["longest_move"], data["seconds"], data["compiled"])


def _ratio(run: float | None, reference: float | None) -> float | None:
    return None if run is None or not reference else round(run / reference, 2)


def record(run: MemoryRun, reference: MemoryRun) -> dict[str, Any]:
    """A run and its reference as one JSON object; ratios are the run's over the reference's."""
    def mb(value: float | None) -> float | None:
        return None if value is None else round(value, 1)
    return {"game": run.game, "bot": run.bot, "moves": run.moves, "games": run.games,
            "rss_start_mb": mb(run.rss_start_mb), "rss_end_mb": mb(run.rss_end_mb), "peak_mb": mb(run.peak_mb),
            "longest_move": round(run.longest_move, 3), "compiled": run.compiled,
            "reference": reference.bot, "reference_rss_end_mb": mb(reference.rss_end_mb),
            "reference_peak_mb": mb(reference.peak_mb),
            "rss_end_ratio": _ratio(run.rss_end_mb, reference.rss_end_mb),
            "peak_ratio": _ratio(run.peak_mb, reference.peak_mb)}


def cmd_bench_memory(args: argparse.Namespace) -> int:
    """Resident memory of a process whose bots played ``--moves`` moves, per game, with
    ``random`` against ``random`` as the reference."""
    from myriad.ai import make_bot
    from myriad.games import game_ids, get_game

    if not 1 <= args.moves <= 100_000:
        raise MyriadError(f"--moves must be from 1 to 100000, got {args.moves}")
    if not args.movetime > 0:
        raise MyriadError(f"--movetime must be positive, got {args.movetime}")
    chosen = args.games or game_ids()
    for game_id in chosen:
        make_bot(args.bot, get_game(game_id))  # an unknown game or a bad spec fails here, at once
    if not args.json:
        print(f"resident memory (MB) after {args.moves} moves of {args.bot} against itself, each game in "
              f"a fresh process; reference: {REFERENCE_BOT} against {REFERENCE_BOT}", flush=True)
    for game_id in chosen:
        run = measure(game_id, args.bot, args.moves, args.movetime, args.pythonpath, variants=args.variants)
        reference = measure(game_id, REFERENCE_BOT, args.moves, args.movetime, args.pythonpath,
                            variants=args.variants)
        data = record(run, reference)
        if args.json:
            print(json.dumps(data), flush=True)
        else:
            def show(value: float | None) -> str:
                return "?" if value is None else f"{value:,.0f}"
            print(f"{game_id:<14} start {show(run.rss_start_mb):>6}  after {show(run.rss_end_mb):>6}  "
                  f"peak {show(run.peak_mb):>6}  reference {show(reference.rss_end_mb):>5}  "
                  f"ratio {data['rss_end_ratio']}  games {run.games}  longest move {run.longest_move:.2f} s"
                  + ("" if run.compiled else "  (pure Python)"), flush=True)
    return 0


def add_memory_command(kinds: Any) -> None:
    """Add ``bench memory`` to the ``bench`` subcommands ``kinds``."""
    memory = kinds.add_parser("memory", help="resident memory after many bot moves per game; random as reference")
    memory.add_argument("--json", action="store_true", help="print one JSON object per line")
    memory.add_argument("--games", nargs="+", metavar="GAME", help="games to run (default: all)")
    memory.add_argument("--moves", type=int, default=500, metavar="N",
                        help="moves played per game, new games started as they end (default 500)")
    memory.add_argument("--bot", default=DEFAULT_BOT, metavar="SPEC", help=f"the bot (default {DEFAULT_BOT})")
    memory.add_argument("--movetime", type=float, default=0.5, metavar="S",
                        help="seconds per move at most, besides the bot's own limits (default 0.5)")
    memory.add_argument("--pythonpath", metavar="DIR",
                        help="import the package of the measured processes from DIR (another checkout's src)")
    from myriad.games.user_variants import add_variants_option
    add_variants_option(memory)
    memory.set_defaults(run=cmd_bench_memory)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``bench memory`` alone (``python -m myriad.bench_memory``)."""
    parser = argparse.ArgumentParser(prog="myriad bench")
    add_memory_command(parser.add_subparsers(dest="kind", required=True))
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
