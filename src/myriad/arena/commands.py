"""Command-line verbs about bots: think, match, tournament, replay.

Each ``cmd_*`` takes the parsed arguments and returns an exit code; bad input raises a
:class:`~myriad.core.errors.MyriadError`, which the command line prints as one line.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from myriad.ai import Bot, Limits, make_bot
from myriad.arena.elo import (describe_elo, elo_interval, elo_with_error, fit_ratings, interval_text,
                              points_elo_interval, score_interval,
                              wilson_bounds, wilson_interval)
from myriad.arena import options
from myriad.arena.match import RANDOM_PLIES, GameResult, MatchResult, opening_lines, run_match
from myriad.core.errors import MyriadError
from myriad.core.game import Game, Outcome
from myriad.games import get_game
from myriad.games.user_variants import add_variants_option
from myriad.notation.files import TextOutput, open_text_output, read_text_file
from myriad.notation import sgf
from myriad.notation.describe import end_text
from myriad.notation.records import Record, read_records, replay, write_record

#: The most games a match (or each pairing of a tournament) may ask for.
MAX_GAMES = 100_000
#: The most worker processes a match may ask for.
MAX_JOBS = 64


#: Seconds ``think`` gives a bot whose spec sets no limit of its own (time, depth, nodes)
#: when no ``--time`` is given: options without a limit never mean an endless search.
DEFAULT_THINK_SECONDS = 1.0
#: Bots that answer without a search, needing no limit.
INSTANT_BOTS = frozenset({"random", "book"})


def bounded(bot: Bot) -> bool:
    """Whether ``bot``'s own options limit each search (``time``, ``depth`` or ``nodes``;
    in a chain, every link's); ``random`` and ``book`` answer at once, without a search."""
    if bot.name in INSTANT_BOTS:
        return True
    links = getattr(bot, "links", None)
    if isinstance(links, list) and links:
        return all(bounded(link) for link in links)
    return any(bot.options.get(key) is not None for key in ("time", "depth", "nodes"))


def _check_specs(game: Game, *specs: str) -> None:
    for spec in specs:
        make_bot(spec, game)  # raises BotSpecError naming what is wrong


class _LoggedProgress(Progress):
    """A progress bar on a terminal; on anything else (a log file, a pipe), where a bar
    cannot redraw, a plain line each time another twentieth of the games is done."""

    def __init__(self, label: str, quiet: bool) -> None:
        console = Console(stderr=True)
        super().__init__(TextColumn(label), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}"),
                         TimeElapsedColumn(), console=console, disable=quiet)
        self.logging = not quiet and not console.is_terminal
        self.label = label
        self.logged = 0

    def update(self, task_id: TaskID, *, completed: float | None = None, description: str | None = None,
               **fields: Any) -> None:
        super().update(task_id, completed=completed, description=description, **fields)
        if not self.logging or completed is None:
            return
        task = next(t for t in self.tasks if t.id == task_id)
        total = int(task.total or 0)
        if completed - self.logged >= max(1, total // 20) or completed == total:
            self.logged = int(completed)
            self.console.print(f"{self.label}: {self.logged}/{total} {task.description} {task.elapsed or 0:.0f} s",
                               highlight=False, soft_wrap=True)


def _progress(label: str, quiet: bool) -> Progress:
    return _LoggedProgress(label, quiet)


def cmd_think(args: argparse.Namespace) -> int:
    """Ask a bot for its move in a position."""
    game = get_game(args.game)
    state = game.parse_position(args.position) if args.position else game.initial_state()
    if game.outcome(state) is not None or not game.legal_moves(state):
        raise MyriadError(f"{game.id}: the game is over in this position, there is no move to think about")
    if game.is_chance(state):
        raise MyriadError(f"{game.id}: chance moves next in this position; no bot chooses it "
                          f"(its outcomes: {', '.join(game.format_move(state, m) for m, _ in game.chance_outcomes(state))})")
    bot = make_bot(args.bot, game)
    default_time = None
    if args.time:
        limits = Limits.of(args.time)
    elif bounded(bot):
        limits = Limits()
    else:
        default_time = DEFAULT_THINK_SECONDS
        limits = Limits.of(default_time)
    try:
        decision = bot.choose(game.observe(state, state.to_move), limits)
    except Exception as err:  # noqa: BLE001 - e.g. a lone book out of its book: said in one line
        raise MyriadError(f"{args.bot}: no move found: {err}") from None
    pv, s = [], state
    for move in decision.info.get("pv") or [decision.move]:
        if move not in game.legal_moves(s):
            break
        pv.append(game.format_move(s, move))
        s = game.play(s, move)
    out = {"move": game.format_move(state, decision.move), "player": game.mover_name(state),
           "score": decision.info.get("score"),
           "depth": decision.info.get("depth"), "nodes": decision.info.get("nodes"),
           "seconds": round(decision.info.get("seconds", 0.0), 4), "pv": pv,
           "bot": decision.info.get("bot", bot.name), "default_time": default_time}
    if args.json:
        print(json.dumps(out))
    else:
        if default_time is not None:
            print(f"no limit in {args.bot!r} and no --time: thinking {default_time:g} s (the default)")
        print(f"move: {out['move']}  (score {out['score']}, depth {out['depth']}, nodes {out['nodes']}, "
              f"{out['seconds']} s, by {out['bot']})")
        print(f"pv: {' '.join(pv)}")
    return 0


def _finite(x: float) -> float | None:
    """``x`` rounded to a tenth, or None (JSON null) when infinite."""
    return None if math.isinf(x) else round(x, 1)


def match_summary(result: MatchResult) -> dict[str, Any]:
    """The JSON object of a match, from the first bot's side (``average_scores``: each
    bot's mean score per game, 0 to 1). ``elo_low``/``elo_high`` bound the 95% (Wilson)
    interval, null when unbounded (a sweep); ``elo``/``elo_error`` are null when infinite."""
    w, d, l = result.wins, result.draws, result.losses
    score, half = score_interval(w, d, l)
    score_low, score_high = wilson_interval(w, d, l)
    elo, elo_error = elo_with_error(w, d, l)
    elo_low, elo_high = elo_interval(w, d, l)
    return {"games": result.games, "wins": w, "draws": d, "losses": l,
            "score": round(score, 4), "score_error": round(half, 4),
            "score_low": round(score_low, 4), "score_high": round(score_high, 4),
            "elo": _finite(elo), "elo_error": _finite(elo_error),
            "elo_low": _finite(elo_low), "elo_high": _finite(elo_high),
            "elo_text": describe_elo(w, d, l),
            "average_scores": [round(s, 4) for s in result.average_scores]}


def cmd_match(args: argparse.Namespace) -> int:
    """Play a match between two bots and report score and Elo."""
    game = get_game(args.game)
    _check_specs(game, args.bot_a, args.bot_b)
    openings = None
    if args.openings is not None:
        openings = opening_lines(game, read_text_file(args.openings, "openings file"))
        if not openings:
            raise MyriadError(f"openings file {args.openings!r}: no openings in it")
    # The output file is opened before the first game and each game written as it ends:
    # a bad path fails at once, an interrupted match keeps the games already played.
    out = open_text_output(args.out, "--out file") if args.out is not None else None
    try:
        with _progress(f"{args.bot_a} vs {args.bot_b}", args.json) as bar:
            task = bar.add_task("", total=args.games)

            def progress(r: MatchResult) -> None:
                bar.update(task, completed=r.games, description=f"+{r.wins} ={r.draws} -{r.losses}")

            def save(r: GameResult) -> None:
                if out is not None:
                    _save(game, r, out)
            result = run_match(game.id, args.bot_a, args.bot_b, args.games, args.movetime, jobs=args.jobs,
                               seed=args.seed, openings=openings, random_plies=args.random_plies,
                               progress=progress, on_game=save)
    finally:
        if out is not None:
            out.close()
    summary = match_summary(result)
    slowest = [max((r.max_seconds[seat] for r in result.results for seat, s in enumerate(r.specs)
                    if s == spec), default=0.0) for spec in (args.bot_a, args.bot_b)]
    forfeits = [f for r in result.results for f in r.failures]
    if args.json:
        report = {k: summary[k] for k in ("games", "wins", "draws", "losses", "score", "elo", "elo_error",
                                          "elo_low", "elo_high", "average_scores")}
        report.update(longest_move=[round(t, 4) for t in slowest], forfeits=result.forfeits)
        print(json.dumps(report))
        return 0
    print(f"{game.name}: {args.bot_a} vs {args.bot_b}, {result.games} games, {args.movetime} s/move")
    print(f"+{result.wins} ={result.draws} -{result.losses}  score {summary['score']:.3f} "
          f"(95%: {summary['score_low']:.3f} to {summary['score_high']:.3f})  {summary['elo_text']}")
    if game.players > 2:
        mean = summary["average_scores"]
        print(f"{game.players} players, both bots seated every way: mean score per game "
              f"{args.bot_a} {mean[0]:.3f}, {args.bot_b} {mean[1]:.3f} (a win or loss compares them)")
    print(f"longest move: {args.bot_a} {slowest[0]:.3f} s, {args.bot_b} {slowest[1]:.3f} s")
    for failure in forfeits:
        print(f"forfeit: {failure}")
    return 0


def _save(game: Game, r: GameResult, out: TextOutput) -> None:
    """Append the record of one finished game (its round, seats and result) to ``out``:
    the seats by player name, and in a two-player game whose players are not named
    white and black (xiangqi's red, Kalah's south), the first as ``White`` and the second
    as ``Black``, the tags a record's readers expect."""
    names = [name.capitalize() for name in game.player_names]
    if game.players == 2 and set(names) != {"White", "Black"}:
        names = ["White", "Black"]
    seats = dict(zip(names, r.specs))
    out.write(write_record(game, r.moves, Outcome(r.scores, r.reason), {"Round": str(r.round), **seats}))


def cmd_tournament(args: argparse.Namespace) -> int:
    """A round robin (or gauntlet of the first bot) with a maximum-likelihood Elo table."""
    game = get_game(args.game)
    bots = list(dict.fromkeys(args.bots))
    if len(bots) < 2:
        raise MyriadError("a tournament needs at least two different bots")
    _check_specs(game, *bots)
    pairings = ([(bots[0], b) for b in bots[1:]] if args.gauntlet
                else list(itertools.combinations(bots, 2)))
    results: dict[tuple[str, str], tuple[float, int]] = {}
    total = len(pairings) * args.games
    with _progress("tournament", args.json) as bar:
        task = bar.add_task("", total=total)
        done = 0
        for a, b in pairings:
            def progress(r: MatchResult, base: int = done) -> None:
                bar.update(task, completed=base + r.games, description=f"{a} vs {b}")
            r = run_match(game.id, a, b, args.games, args.movetime, jobs=args.jobs, seed=args.seed,
                          random_plies=args.random_plies, progress=progress)
            done += r.games
            results[(a, b)] = (r.wins + 0.5 * r.draws, r.games)
    anchor = "random" if "random" in bots else None
    ratings = fit_ratings(bots, results, anchor=anchor)
    field = {b: points_elo_interval(*_field_score(b, results)) for b in bots}
    if args.json:
        print(json.dumps({"ratings": {b: round(v, 1) for b, v in ratings.items()}, "anchor": anchor,
                          "vs_field": {b: [_finite(lo), _finite(hi)] for b, (lo, hi) in field.items()},
                          "results": [{"a": a, "b": b, "points_a": p, "games": n,
                                       "conclusive": _pairing_conclusive(p, n)}
                                      for (a, b), (p, n) in results.items()]}))
        return 0
    table = Table(title=f"{game.name}: {'gauntlet' if args.gauntlet else 'round robin'}, "
                        f"{args.games} games per pairing, {args.movetime} s/move")
    table.add_column("bot")
    table.add_column("Elo", justify="right")
    table.add_column("vs field, 95%", justify="right")
    for b in bots:
        table.add_column(b, justify="center")
    for b in sorted(bots, key=lambda x: -ratings[x]):
        cells = []
        for o in bots:
            if (b, o) in results:
                p, n = results[(b, o)]
                cells.append(f"{p:g}/{n}")
            elif (o, b) in results:
                p, n = results[(o, b)]
                cells.append(f"{n - p:g}/{n}")
            else:
                cells.append("")
        table.add_row(b, f"{ratings[b]:+.0f}", interval_text(*field[b]), *cells)
    Console(width=max(100, 16 * (len(bots) + 2) + sum(len(b) for b in bots))).print(table)
    if anchor:
        print("Elo anchored at random = 0")
    print("vs field: the Elo difference from the bot's opponents, on average, that its score allows at 95% "
          "(Wilson interval; unbounded after a clean sweep)")
    close = [f"{a} vs {b} ({p:g}/{n})" for (a, b), (p, n) in results.items() if not _pairing_conclusive(p, n)]
    if close:
        print(f"too few games to conclude (the 95% interval of the score includes an even match): "
              f"{', '.join(close)}")
    return 0


def _field_score(bot: str, results: dict[tuple[str, str], tuple[float, int]]) -> tuple[float, int]:
    """The points ``bot`` scored and the games it played, over all its pairings."""
    points, games = 0.0, 0
    for (a, b), (p, n) in results.items():
        if bot in (a, b):
            points += p if a == bot else n - p
            games += n
    return points, games


def _pairing_conclusive(points: float, games: int) -> bool:
    """Whether ``points`` of ``games`` tell the two bots apart at 95% (Wilson interval)."""
    lo, hi = wilson_bounds(points, games)
    return lo > 0.5 or hi < 0.5


def cmd_replay(args: argparse.Namespace) -> int:
    """Print every position of a saved game."""
    game = get_game(args.game)
    text = read_text_file(args.file, "record file")
    from_sgf = getattr(game, "from_sgf", None)
    if text.lstrip().startswith("(") and from_sgf is not None:  # an SGF collection (Go): one tree a game
        trees = sgf.parse(text, args.file)
        if not 1 <= args.index <= max(1, len(trees)):
            raise MyriadError(f"record file {args.file!r}: --index must be 1..{len(trees)}, got {args.index}")
        start, moves = from_sgf(text, args.file, args.index - 1)
        root = dict(trees[args.index - 1].nodes[0]) if trees and trees[args.index - 1].nodes else {}
        tags = {tag: root[prop][0] for prop, tag in (("PB", "Black"), ("PW", "White"), ("RE", "Result"))
                if root.get(prop)}
        record = Record({**tags, "FEN": game.format_position(start)}, moves)
    else:
        records = read_records(text, args.file)
        if not records:
            raise MyriadError(f"record file {args.file!r}: no game records found")
        if not 1 <= args.index <= len(records):
            raise MyriadError(f"record file {args.file!r}: --index must be 1..{len(records)}, got {args.index}")
        record = records[args.index - 1]
    try:
        states = replay(game, record)
    except MyriadError as err:
        raise MyriadError(f"record file {args.file!r}, game {args.index}: {err}") from None
    print(" ".join(f'{k}="{_printable(v)}"' for k, v in record.tags.items()))
    print(game.render(states[0]))
    for text, state in zip(record.moves, states[1:]):
        print(f"\n{text}")
        print(game.render(state))
    outcome = game.outcome(states[-1])
    said = end_text(game, outcome) if outcome else "unfinished"
    print(f"\nresult: {said} ({_printable(record.tags.get('Result', '*'))})")
    return 0


def _printable(text: str) -> str:
    """``text`` with control characters (a terminal's escape sequences) shown escaped."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def add_random_plies_option(parser: Any) -> None:
    """``--random-plies N``: the random plies opening each pair without an openings file."""
    parser.add_argument("--random-plies", type=options.count(0, 40), default=RANDOM_PLIES, metavar="N",
                        help=f"random plies opening each pair without --openings (default {RANDOM_PLIES}; 0: "
                             "from the start, where bots' noise alone varies the games)")


def add_commands(commands: Any) -> None:
    """Register think, match, tournament and replay on the command-line parser."""
    think = commands.add_parser("think", help="ask a bot for its move in a position")
    think.add_argument("game", metavar="GAME")
    think.add_argument("--position", metavar="TEXT", help="the position (default: the start)")
    think.add_argument("--bot", default="alphabeta:time=1", metavar="SPEC", help="bot spec")
    think.add_argument("--time", type=options.seconds(), metavar="S",
                       help=f"seconds to think (besides the spec's own; when neither --time nor the spec "
                            f"sets a time, depth or node limit: {DEFAULT_THINK_SECONDS:g} s)")
    think.add_argument("--json", action="store_true")
    add_variants_option(think)
    think.set_defaults(run=cmd_think)

    match = commands.add_parser("match", help="a match between two bots, with Elo")
    match.add_argument("game", metavar="GAME")
    match.add_argument("bot_a", metavar="BOT_A")
    match.add_argument("bot_b", metavar="BOT_B")
    match.add_argument("--games", type=options.count(1, MAX_GAMES), default=10, metavar="N")
    match.add_argument("--movetime", type=options.seconds(), default=0.5, metavar="S")
    match.add_argument("--jobs", type=options.count(1, MAX_JOBS), default=1, metavar="J")
    match.add_argument("--seed", type=options.count(0, 10**9 - 1), default=1, metavar="K")
    match.add_argument("--openings", metavar="FILE", help="one opening (moves) per line")
    add_random_plies_option(match)
    match.add_argument("--out", metavar="FILE", help="save the games (PGN / PDN / SGF / move lists)")
    match.add_argument("--json", action="store_true")
    add_variants_option(match)
    match.set_defaults(run=cmd_match)

    tour = commands.add_parser("tournament", help="round robin or gauntlet with an Elo table")
    tour.add_argument("game", metavar="GAME")
    tour.add_argument("bots", nargs="+", metavar="BOT")
    tour.add_argument("--games", type=options.count(1, MAX_GAMES), default=10, metavar="N",
                      help="games per pairing")
    tour.add_argument("--movetime", type=options.seconds(), default=0.5, metavar="S")
    tour.add_argument("--jobs", type=options.count(1, MAX_JOBS), default=1, metavar="J")
    tour.add_argument("--seed", type=options.count(0, 10**9 - 1), default=1, metavar="K")
    tour.add_argument("--gauntlet", action="store_true", help="the first bot against each other")
    add_random_plies_option(tour)
    tour.add_argument("--json", action="store_true")
    add_variants_option(tour)
    tour.set_defaults(run=cmd_tournament)

    rep = commands.add_parser("replay", help="print every position of a saved game")
    rep.add_argument("game", metavar="GAME")
    rep.add_argument("file", metavar="FILE")
    rep.add_argument("--index", type=options.count(1, 10**9 - 1), default=1, metavar="N",
                     help="which game of the file")
    add_variants_option(rep)
    rep.set_defaults(run=cmd_replay)

