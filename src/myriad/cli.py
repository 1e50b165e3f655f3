"""The ``myriad`` command line: list games, show positions, count perft, benchmark the rules.

Bad input (unknown game, unreadable position, bad depth or arguments) ends with exit code 2
and one line on stderr.  ``--json`` output is meant for programs: ``games`` and ``show``
print one JSON value, ``perft`` and ``bench`` one object per line.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import textwrap
import time
from collections.abc import Sequence
from typing import Any, NoReturn

from myriad.arena import options
from myriad.core.errors import MyriadError
from myriad.core.game import Game, perft
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.games.user_variants import add_variants_option, load_variants_option
from myriad.notation.describe import move_json, outcome_json, outcome_text

USAGE_ERROR = 2
#: The deepest perft the command accepts (far beyond what any game can count in a day).
MAX_PERFT_DEPTH = 100
#: The longest error message printed; a longer one (quoting huge input) is cut.
MAX_MESSAGE = 1000


class UsageError(MyriadError):
    """The command line itself is wrong (raised instead of argparse's exit)."""


class Parser(argparse.ArgumentParser):
    """An argument parser that raises :class:`UsageError` instead of printing usage and exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


# -- loading --------------------------------------------------------------------------------

def load_game(game_id: str) -> Game:
    """The registered game, or a :class:`MyriadError` saying why it cannot be used."""
    try:
        return get_game(game_id)
    except MyriadError:
        raise
    except (ImportError, AttributeError) as exc:
        raise MyriadError(f"game {game_id!r} is registered but not available: {exc}") from None


def load_state(game: Game, position: str | None, setup: str | None) -> State:
    """The state given by ``--position`` text, else the named ``--setup``, else the start."""
    if position is not None:
        return game.parse_position(position)
    return game.initial_state(setup)


# -- JSON shapes ----------------------------------------------------------------------------

def show_json(game: Game, state: State) -> dict[str, Any]:
    """Everything ``myriad show --json`` prints; at a chance node ``to_move`` is
    ``"chance"`` and each move has its ``probability``."""
    moves = [move_json(game, state, m) for m in game.legal_moves(state)]
    if game.is_chance(state):
        for entry, (_move, probability) in zip(moves, game.chance_outcomes(state)):
            entry["probability"] = probability
    return {"game": game.id, "position": game.format_position(state),
            "to_move": game.mover_name(state),
            "outcome": outcome_json(game, game.outcome(state)), "moves": moves}


# -- commands -------------------------------------------------------------------------------

def cmd_games(args: argparse.Namespace) -> int:
    """List every registered game."""
    from myriad.kernel.registry import engine_name

    rows: list[dict[str, Any]] = []
    failures: list[str] = []
    for game_id in game_ids():
        try:
            game = load_game(game_id)
        except MyriadError as exc:
            failures.append(str(exc))
            continue
        rows.append({"id": game.id, "name": game.name, "family": game.family,
                     "players": game.players, "player_names": list(game.player_names),
                     "setups": list(game.setups), "engine": engine_name(game)})
    if args.json:
        print(json.dumps(rows))
    else:
        width = max((len(r["id"]) for r in rows), default=2)
        name_width = max((len(r["name"]) for r in rows), default=4)
        for r in rows:
            print(f"{r['id']:<{width}}  {r['name']:<{name_width}}  {r['family']:<12}  "
                  f"{r['players']} players  {r['engine']}")
    for failure in failures:
        print(f"myriad: {failure}", file=sys.stderr)
    return 1 if failures else 0


def cmd_show(args: argparse.Namespace) -> int:
    """Print a position: board, side to move, legal moves, outcome."""
    game = load_game(args.game)
    state = load_state(game, args.position, args.setup)
    if args.json:
        print(json.dumps(show_json(game, state)))
        return 0
    if game.is_chance(state):  # the outcomes, with their probabilities
        moves = [f"{game.format_move(state, m)} ({p:.3g})" for m, p in game.chance_outcomes(state)]
        heading = "chance outcomes"
    else:
        moves = [game.format_move(state, m) for m in game.legal_moves(state)]
        heading = "legal moves"
    print(f"{game.name} ({game.id})")
    print(game.render(state))
    print(f"position: {game.format_position(state)}")
    print(f"to move: {game.mover_name(state)}")
    print(f"outcome: {outcome_text(game, game.outcome(state))}")
    listed = " ".join(moves) if moves else "none"
    print(textwrap.fill(f"{heading} ({len(moves)}): {listed}", width=100,
                        subsequent_indent="  ", break_on_hyphens=False))
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    """Count move sequences of each length 1..DEPTH (stopping after the first depth with
    none: every deeper count is zero too)."""
    game = load_game(args.game)
    state = load_state(game, args.position, args.setup)
    nodes = 1
    for depth in range(1, args.depth + 1):
        if nodes == 0:
            break
        start = time.perf_counter()
        nodes = perft(game, state, depth)
        seconds = time.perf_counter() - start
        if args.json:
            print(json.dumps({"game": game.id, "depth": depth, "nodes": nodes,
                              "seconds": round(seconds, 6)}), flush=True)
        else:
            rate = f"{nodes / seconds:,.0f} nodes/s" if seconds > 0 else ""
            print(f"perft {depth:>2}  {nodes:>14,}  {seconds:9.3f} s  {rate}", flush=True)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    """Benchmark the rules: perft nodes per second, python-chess as the chess reference."""
    from myriad.bench import bench_rules

    games = [load_game(g) for g in (args.games or game_ids())]
    if not args.json:
        print(f"perft speed, deepest depth predicted to take at most {args.seconds:g} s per game",
              flush=True)
    result = bench_rules(games, args.seconds)
    for t in result.timings:
        if args.json:
            print(json.dumps({"game": t.game, "depth": t.depth, "nodes": t.nodes,
                              "seconds": round(t.seconds, 6),
                              "nodes_per_second": round(t.nodes_per_second)}))
        else:
            print(f"{t.game:<14} perft {t.depth:>2}  {t.nodes:>12,} nodes  {t.seconds:7.3f} s  "
                  f"{t.nodes_per_second:>12,.0f} nodes/s")
    from myriad.bench_kernel import Rate, print_rules
    print_rules(games, {t.game: Rate(t.nodes, t.seconds, t.depth) for t in result.timings}, args.seconds,
                args.json)
    ref = result.reference
    if ref is None:
        if not args.json:
            print("reference: chess not benchmarked, no python-chess comparison")
        return 0
    if args.json:
        record: dict[str, Any] = {"reference": "python-chess", "game": "chess", "depth": ref.depth}
        if ref.error:
            record["error"] = ref.error
        else:
            record.update(version=ref.version, nodes=ref.nodes, seconds=round(ref.seconds, 6),
                          nodes_per_second=round(ref.nodes_per_second),
                          ratio=round(result.chess_ratio or 0.0, 4))
        print(json.dumps(record))
    elif ref.error:
        print(f"reference: {ref.error}")
    else:
        print(f"reference: python-chess {ref.version}, chess start position perft {ref.depth}: "
              f"{ref.nodes:,} nodes  {ref.seconds:.3f} s  {ref.nodes_per_second:,.0f} nodes/s")
        print(f"Myriad/python-chess (chess perft {ref.depth}): {result.chess_ratio:.2f}")
    return 0


def cmd_bench_search(args: argparse.Namespace) -> int:
    """Benchmark the searchers: kernel against reference alpha-beta; with ``--algorithms``,
    the depth reached in equal time by each algorithm, as ratios to plain negamax."""
    from myriad.bench import SEARCH_ALGOS, SEARCH_POSITIONS, bench_search
    if not args.algorithms:
        from myriad.bench_kernel import cmd_bench_kernel_search
        args.seconds = args.seconds or 1.0
        return cmd_bench_kernel_search(args)
    args.seconds = args.seconds or 2.0

    chosen = args.games or list(SEARCH_POSITIONS)
    unknown = [g for g in chosen if g not in SEARCH_POSITIONS]
    if unknown:
        raise UsageError(f"no search positions for {', '.join(unknown)} (have: {', '.join(SEARCH_POSITIONS)})")
    timings = bench_search({g: SEARCH_POSITIONS[g] for g in chosen}, args.seconds)
    base = {(t.game, t.position): t.depth for t in timings if t.algo == SEARCH_ALGOS[0]}
    for t in timings:
        ratio = t.depth / base[(t.game, t.position)] if base.get((t.game, t.position)) else None
        if args.json:
            print(json.dumps({"game": t.game, "position": t.position, "algo": t.algo, "depth": t.depth,
                              "nodes": t.nodes, "depth_ratio_to_negamax": ratio,
                              "seconds_to_depth": t.seconds_to_depth}))
        else:
            reached = " ".join(f"d{d}:{s:.2f}s" for d, s in t.seconds_to_depth.items())
            print(f"{t.game:<8} #{t.position} {t.algo:<26} depth {t.depth:>2}  nodes {t.nodes:>8,}  "
                  f"ratio {ratio if ratio is None else round(ratio, 2)}  [{reached}]", flush=True)
    return 0


# -- the parser -----------------------------------------------------------------------------

def build_parser() -> Parser:
    """The argument parser of every command."""
    parser = Parser(prog="myriad", description="Myriad, a general board-game engine.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    games = commands.add_parser("games", help="list every game")
    games.add_argument("--json", action="store_true", help="print a JSON list")
    add_variants_option(games)
    games.set_defaults(run=cmd_games)

    def position_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("game", metavar="GAME", help="a game id (see 'myriad games')")
        where = p.add_mutually_exclusive_group()
        where.add_argument("--position", metavar="TEXT", help="a position in the game's notation")
        where.add_argument("--setup", metavar="NAME", help="a named start position of the game")
        p.add_argument("--json", action="store_true", help="print JSON")
        add_variants_option(p)

    show = commands.add_parser("show", help="show a position, its legal moves and outcome")
    position_options(show)
    show.set_defaults(run=cmd_show)

    perft_cmd = commands.add_parser("perft", help="count move sequences up to a depth")
    position_options(perft_cmd)
    perft_cmd.add_argument("depth", metavar="DEPTH", type=options.count(1, MAX_PERFT_DEPTH),
                           help=f"deepest ply count (1 to {MAX_PERFT_DEPTH})")
    perft_cmd.set_defaults(run=cmd_perft)

    bench = commands.add_parser("bench", help="benchmarks")
    kinds = bench.add_subparsers(dest="kind", metavar="KIND", required=True)
    rules = kinds.add_parser("rules", help="perft nodes/s per game; python-chess as the reference")
    rules.add_argument("--json", action="store_true", help="print one JSON object per line")
    rules.add_argument("--games", nargs="+", metavar="GAME", help="games to run (default: all)")
    rules.add_argument("--seconds", type=options.seconds(), default=2.0, metavar="S",
                       help="time budget of the deepest perft per game (default 2)")
    add_variants_option(rules)
    rules.set_defaults(run=cmd_bench)
    search = kinds.add_parser("search", help="alpha-beta nodes/s and depth, kernel against reference "
                                             "(--algorithms: negamax, NegaScout and MTD(f) in equal time)")
    search.add_argument("--json", action="store_true", help="print one JSON object per line")
    search.add_argument("--games", nargs="+", metavar="GAME",
                        help="games to run (default: chess international othello gomoku connect4; "
                             "--algorithms: chess gomoku)")
    search.add_argument("--seconds", type=options.seconds(), default=None, metavar="S",
                        help="thinking time per position and engine (default 1) or algorithm (default 2)")
    search.add_argument("--algorithms", action="store_true",
                        help="compare the reference's alpha-beta algorithms instead of the engines")
    search.set_defaults(run=cmd_bench_search)
    from myriad.bench_kernel import add_kernel_commands
    add_kernel_commands(kinds)
    from myriad.bench_memory import add_memory_command
    add_memory_command(kinds)

    from myriad.arena.commands import add_commands
    from myriad.arena.solo import add_solo_command
    from myriad.arena.terminal import add_play_command
    from myriad.web.cli import add_serve_command
    add_commands(commands)
    add_solo_command(commands)
    add_play_command(commands)
    add_serve_command(commands)
    return parser


def one_line(message: str, limit: int = MAX_MESSAGE) -> str:
    """``message`` as one printable line: control characters (newlines from quoted input,
    a terminal's escape sequences) shown escaped, and cut after ``limit`` characters."""
    text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in message)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    try:
        args = build_parser().parse_args(argv)
        load_variants_option(args)  # --variants FILE: all of them, or an error and nothing
        return int(args.run(args))
    except MyriadError as exc:
        print(f"myriad: error: {one_line(str(exc))}", file=sys.stderr)
        return USAGE_ERROR
    except SystemExit as exc:  # --help and --version exit through argparse
        return exc.code if isinstance(exc.code, int) else 0
    except KeyboardInterrupt:
        print("myriad: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `myriad perft chess 6 | head -2`
        sys.stderr.close()
        return 0


def run() -> NoReturn:
    """The ``myriad`` command (and ``python -m myriad``): :func:`main`, then exit with its
    code.  What is alive then is frozen out of the garbage collector first: the interpreter's
    last collection would walk every object numba and the compiled kernel made, about 0.2 s
    after the answer is printed (``myriad bench startup`` shows that teardown)."""
    code = main()
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
