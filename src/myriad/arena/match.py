"""Bot-versus-bot games and matches, refereed by the rules engine alone.

A match plays games in pairs from the same opening with colours swapped.  A bot that
raises, returns an illegal move or overruns its time (``movetime`` plus a grace) loses
that game and the match goes on.  Bots see only ``game.observe(state, player)``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field

from myriad.ai import Limits, make_bot
from myriad.core.errors import MyriadError
from myriad.core.game import Game, Outcome
from myriad.core.move import Move
from myriad.games import get_game
from myriad.notation.records import MOVE_NUMBER, Record, replay

GRACE = 0.25          # seconds a bot may overrun its move time before it loses
MAX_PLIES = 600       # a game this long is adjudicated a draw


@dataclass
class GameResult:
    """One finished game: scores per seat, the reason, moves in notation, timing."""

    specs: tuple[str, ...]
    scores: tuple[float, ...]
    reason: str
    moves: list[str]
    start: str
    max_seconds: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    #: The seat of the bot that lost by crashing, an illegal move or overrunning its time.
    forfeited: int | None = None
    #: The game's number in its match (1, 2, ...; 0 for a game played on its own).
    round: int = 0


@dataclass
class MatchResult:
    """Totals from the first bot's side."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    #: Games lost by forfeit: by the first bot, by the second.
    forfeits: list[int] = field(default_factory=lambda: [0, 0])
    results: list[GameResult] = field(default_factory=list)

    def add(self, result: GameResult, first_seat: int) -> None:
        """Count a game in which the first bot sat at ``first_seat``."""
        self.games += 1
        mine, other = result.scores[first_seat], result.scores[1 - first_seat]
        if mine > other:
            self.wins += 1
        elif mine < other:
            self.losses += 1
        else:
            self.draws += 1
        if result.forfeited is not None:
            self.forfeits[result.forfeited != first_seat] += 1
        self.results.append(result)


def random_opening(game: Game, plies: int, seed: int) -> list[str]:
    """``plies`` random legal moves from the start, in notation (stopping at a game end)."""
    rng = random.Random(seed)
    state = game.initial_state()
    out = []
    for _ in range(plies):
        moves = game.legal_moves(state)
        if not moves or game.outcome(state) is not None:
            break
        move = rng.choice(moves)
        out.append(game.format_move(state, move))
        state = game.play(state, move)
    return out


def play_game(game_id: str, specs: Sequence[str], movetime: float, opening: Sequence[str] = (),
              position: str | None = None, max_plies: int = MAX_PLIES) -> GameResult:
    """Play one game between bots (``specs[p]`` plays player ``p``)."""
    game = get_game(game_id)
    state = game.parse_position(position) if position else game.initial_state()
    notation: list[str] = []
    for text in opening:
        move = game.parse_move(state, text)
        notation.append(game.format_move(state, move))
        state = game.play(state, move)
    start = game.format_position(game.initial_state() if not position else game.parse_position(position))
    bots = [make_bot(spec, game) for spec in specs]
    max_seconds = [0.0] * len(bots)

    def finish(outcome: Outcome) -> GameResult:
        return GameResult(tuple(specs), outcome.scores, outcome.reason, notation, start, max_seconds)

    def forfeit(player: int, reason: str, failure: str) -> GameResult:
        outcome = Outcome.win(1 - player, f"{specs[player]} {reason}")
        return GameResult(tuple(specs), outcome.scores, outcome.reason, notation, start, max_seconds,
                          [f"{specs[player]}: {failure}"], player)

    for _ply in range(max_plies):
        outcome = game.outcome(state)
        if outcome is not None:
            return finish(outcome)
        player = state.to_move
        began = time.monotonic()
        limits = Limits(deadline=began + movetime)  # the bot's clock starts now, whatever follows
        try:
            decision = bots[player].choose(game.observe(state, player), limits)
            move: Move = decision.move
        except Exception as err:  # noqa: BLE001 - a crashing bot loses, the match goes on
            return forfeit(player, "crashed", repr(err))
        spent = time.monotonic() - began
        max_seconds[player] = max(max_seconds[player], spent)
        if move not in game.legal_moves(state):
            return forfeit(player, "played an illegal move", f"illegal move {move!r}")
        if spent > movetime + GRACE:
            return forfeit(player, "overran its time", f"{spent:.3f}s for a {movetime}s move")
        notation.append(game.format_move(state, move))
        state = game.play(state, move)
    return finish(Outcome.draw(f"adjudicated after {max_plies} plies"))


def _play_pair_game(args: tuple[str, tuple[str, str], float, tuple[str, ...], int]) -> tuple[GameResult, int]:
    game_id, (a, b), movetime, opening, first_seat = args
    specs = (a, b) if first_seat == 0 else (b, a)
    return play_game(game_id, specs, movetime, opening), first_seat


def match_schedule(game_id: str, bot_a: str, bot_b: str, games: int, movetime: float,
                   openings: Sequence[Sequence[str]] | None, seed: int,
                   random_plies: int) -> list[tuple[str, tuple[str, str], float, tuple[str, ...], int]]:
    """The games of a match: pairs from one opening, the first bot white then black."""
    game = get_game(game_id)
    schedule = []
    for i in range(games):
        pair = i // 2
        if openings:
            opening = tuple(openings[pair % len(openings)])
        else:
            opening = tuple(random_opening(game, random_plies, seed * 100_003 + pair))
        schedule.append((game_id, (bot_a, bot_b), movetime, opening, i % 2))
    return schedule


def run_match(game_id: str, bot_a: str, bot_b: str, games: int, movetime: float = 0.5, *,
              jobs: int = 1, seed: int = 1, openings: Sequence[Sequence[str]] | None = None,
              random_plies: int = 2, progress: Callable[[MatchResult], None] | None = None,
              on_game: Callable[[GameResult], None] | None = None) -> MatchResult:
    """Play a match.  As each game ends (in any order when ``jobs`` > 1), ``on_game`` is
    called with it (its ``round`` set) and then ``progress`` with the running totals;
    ``results`` are kept in round order."""
    schedule = match_schedule(game_id, bot_a, bot_b, games, movetime, openings, seed, random_plies)
    result = MatchResult()
    for number, game_result, first_seat in _run(schedule, jobs):
        game_result.round = number
        result.add(game_result, first_seat)
        result.results.sort(key=lambda r: r.round)
        if on_game:
            on_game(game_result)
        if progress:
            progress(result)
    return result


def _run(schedule: list[tuple[str, tuple[str, str], float, tuple[str, ...], int]],
         jobs: int) -> Iterator[tuple[int, GameResult, int]]:
    """(round, result, first seat) of each game as it ends.  With a pool, a failure or an
    interruption cancels the games not yet started instead of waiting for all of them."""
    if jobs <= 1:
        for number, args in enumerate(schedule, start=1):
            yield (number, *_play_pair_game(args))
        return
    pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        pending: dict[Future[tuple[GameResult, int]], int] = {
            pool.submit(_play_pair_game, args): number for number, args in enumerate(schedule, start=1)}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            failed = None
            for future in sorted(done, key=pending.__getitem__):
                number = pending.pop(future)
                if future.exception() is not None:
                    failed = failed or future
                else:
                    yield (number, *future.result())
            if failed is not None:  # after the games that ended with it are handed on
                failed.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def opening_lines(game: Game, text: str) -> list[list[str]]:
    """Openings from a file: one line of moves each, checked to be legal."""
    lines = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        record = Record(moves=[MOVE_NUMBER.sub("", t) for t in line.split() if MOVE_NUMBER.sub("", t)])
        try:
            replay(game, record)
        except MyriadError as err:
            raise MyriadError(f"openings line {number}: {err}") from None
        lines.append(record.moves)
    return lines
