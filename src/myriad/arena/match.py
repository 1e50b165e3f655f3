"""Bot-versus-bot games and matches, refereed by the rules engine alone.

A match plays games in cycles from the same opening, the two bots seated in every
arrangement in turn: in a two-player game a pair with colours swapped; with more players
every way of seating both bots (each seat once by each bot, over a cycle).  A bot that
raises, returns an illegal move or overruns its time (``movetime`` plus a grace) loses
that game and the match goes on.  Bots see only ``game.observe(state, player)``.

Where chance moves (a die), the referee draws the outcome by its probability from its own
generator, seeded per cycle: both games of a pair see the same sequence of draws, and the
draws are written in the game record like any move, so that it replays exactly.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field

from myriad.ai import Limits, make_bot
from myriad.core.errors import MyriadError
from myriad.core.game import Game, Outcome
from myriad.core.move import PASS, Move
from myriad.core.state import State
from myriad.games import get_game
from myriad.games.user_variants import load_variant_sources, loaded_sources
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
    """Totals from the first bot's side.

    A game is a win for the first bot when its score (the mean over its seats, with more
    than two players) is above the second bot's, a loss when below, else a draw."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    #: Games lost by forfeit: by the first bot, by the second.
    forfeits: list[int] = field(default_factory=lambda: [0, 0])
    #: Each bot's score summed over the games (the mean over its seats in each game).
    points: list[float] = field(default_factory=lambda: [0.0, 0.0])
    results: list[GameResult] = field(default_factory=list)

    def add(self, result: GameResult, arrangement: Sequence[int]) -> None:
        """Count a game in which seat ``s`` was played by bot ``arrangement[s]`` (0 the
        first bot, 1 the second)."""
        self.games += 1
        mine, other = (sum(s for s, bot in zip(result.scores, arrangement) if bot == b)
                       / arrangement.count(b) for b in (0, 1))
        self.points[0] += mine
        self.points[1] += other
        if mine > other:
            self.wins += 1
        elif mine < other:
            self.losses += 1
        else:
            self.draws += 1
        if result.forfeited is not None:
            self.forfeits[arrangement[result.forfeited]] += 1
        self.results.append(result)

    @property
    def average_scores(self) -> tuple[float, float]:
        """Each bot's mean score per game (0 to 1)."""
        return (self.points[0] / self.games, self.points[1] / self.games) if self.games else (0.0, 0.0)


def arrangements(players: int) -> list[tuple[int, ...]]:
    """Every way of seating two bots (0 and 1) at ``players`` seats with both playing:
    ``[(0, 1), (1, 0)]`` for two players; over the list each bot sits at each seat equally
    often."""
    return [seats for seats in itertools.product((0, 1), repeat=players) if len(set(seats)) == 2]


def draw_chance(game: Game, state: State, rng: random.Random) -> Move:
    """The referee's draw at a chance node: an outcome, by its probability."""
    outcomes = game.chance_outcomes(state)
    return rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]


def is_pass(game: Game, state: State, move: Move) -> bool:
    """Whether ``move`` is a pass: no action, and no chance to draw after it (Pig's roll
    is an empty move too, but the die decides what it does)."""
    return move == PASS and not game.is_chance(game.play(state, move))


#: Random plies that open each pair of a match without an openings file.
RANDOM_PLIES = 2


def random_opening(game: Game, plies: int, seed: int) -> list[str]:
    """``plies`` random legal moves from the start, in notation (stopping at a game end).
    A pass is drawn only when it is the only move: an opening plays the board (in Go a
    random pass would let the other side end the game at once)."""
    rng = random.Random(seed)
    state = game.initial_state()
    out = []
    for _ in range(plies):
        moves = game.legal_moves(state)
        if not moves or game.outcome(state) is not None:
            break
        moves = [m for m in moves if not is_pass(game, state, m)] or moves
        move = draw_chance(game, state, rng) if game.is_chance(state) else rng.choice(moves)
        out.append(game.format_move(state, move))
        state = game.play(state, move)
    return out


def play_game(game_id: str, specs: Sequence[str], movetime: float, opening: Sequence[str] = (),
              position: str | None = None, max_plies: int = MAX_PLIES, chance_seed: int | str = 0) -> GameResult:
    """Play one game between bots (``specs[p]`` plays player ``p``); chance's moves are
    drawn from a generator seeded with ``chance_seed``."""
    game = get_game(game_id)
    if len(specs) != game.players:
        raise MyriadError(f"{game.id} has {game.players} players: {len(specs)} bots given")
    rng = random.Random(chance_seed)
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
        # The others win (with two players, the opponent).
        scores = tuple(0.0 if p == player else 1.0 for p in range(game.players))
        outcome = Outcome(scores, f"{specs[player]} {reason}")
        return GameResult(tuple(specs), outcome.scores, outcome.reason, notation, start, max_seconds,
                          [f"{specs[player]}: {failure}"], player)

    for _ply in range(max_plies):
        outcome = game.outcome(state)
        if outcome is not None:
            return finish(outcome)
        if game.is_chance(state):
            move = draw_chance(game, state, rng)
            notation.append(game.format_move(state, move))
            state = game.play(state, move)
            continue
        player = state.to_move
        began = time.monotonic()
        limits = Limits(deadline=began + movetime)  # the bot's clock starts now, whatever follows
        try:
            decision = bots[player].choose(game.observe(state, player), limits)
            move = decision.move
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
    return finish(Outcome.draw(f"adjudicated after {-(-max_plies // max(1, game.players))} moves"))


#: One scheduled game: game id, the two bots, move time, opening, the bot (0 or 1) at each
#: seat, and the seed of chance's draws.
Scheduled = tuple[str, tuple[str, str], float, tuple[str, ...], tuple[int, ...], str]


def _play_scheduled(args: Scheduled) -> tuple[GameResult, tuple[int, ...]]:
    game_id, bots, movetime, opening, arrangement, chance_seed = args
    specs = tuple(bots[b] for b in arrangement)
    return play_game(game_id, specs, movetime, opening, chance_seed=chance_seed), arrangement


def match_schedule(game_id: str, bot_a: str, bot_b: str, games: int, movetime: float,
                   openings: Sequence[Sequence[str]] | None, seed: int,
                   random_plies: int) -> list[Scheduled]:
    """The games of a match: cycles through every arrangement of the two bots from one
    opening (a pair, first bot white then black, in a two-player game)."""
    game = get_game(game_id)
    seatings = arrangements(game.players)
    schedule = []
    for i in range(games):
        cycle = i // len(seatings)
        if openings:
            opening = tuple(openings[cycle % len(openings)])
        else:
            opening = tuple(random_opening(game, random_plies, seed * 100_003 + cycle))
        schedule.append((game_id, (bot_a, bot_b), movetime, opening, seatings[i % len(seatings)],
                         f"{seed}:{cycle}"))
    return schedule


def run_match(game_id: str, bot_a: str, bot_b: str, games: int, movetime: float = 0.5, *,
              jobs: int = 1, seed: int = 1, openings: Sequence[Sequence[str]] | None = None,
              random_plies: int = RANDOM_PLIES, progress: Callable[[MatchResult], None] | None = None,
              on_game: Callable[[GameResult], None] | None = None) -> MatchResult:
    """Play a match.  As each game ends (in any order when ``jobs`` > 1), ``on_game`` is
    called with it (its ``round`` set) and then ``progress`` with the running totals;
    ``results`` are kept in round order."""
    schedule = match_schedule(game_id, bot_a, bot_b, games, movetime, openings, seed, random_plies)
    result = MatchResult()
    for number, game_result, arrangement in _run(schedule, jobs):
        game_result.round = number
        result.add(game_result, arrangement)
        result.results.sort(key=lambda r: r.round)
        if on_game:
            on_game(game_result)
        if progress:
            progress(result)
    return result


def _run(schedule: list[Scheduled], jobs: int) -> Iterator[tuple[int, GameResult, tuple[int, ...]]]:
    """(round, result, arrangement) of each game as it ends.  With a pool, a failure or an
    interruption cancels the games not yet started instead of waiting for all of them."""
    if jobs <= 1:
        for number, args in enumerate(schedule, start=1):
            yield (number, *_play_scheduled(args))
        return
    # Workers know the user's variant files too: they are given their texts (a forked
    # worker that inherited them loads nothing twice).
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=load_variant_sources, initargs=(loaded_sources(),))
    try:
        pending: dict[Future[tuple[GameResult, tuple[int, ...]]], int] = {
            pool.submit(_play_scheduled, args): number for number, args in enumerate(schedule, start=1)}
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
