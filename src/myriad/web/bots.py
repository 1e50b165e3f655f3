"""Bots for the server: levels, specs checked against an allow-list, and a fair pool of
worker processes.

A seat is ``human``, a level (``easy``, ``medium``, ``strong``) or a bot spec.  Specs come
from the network, so they are data checked against :data:`BOT_OPTIONS` (which bots, which
options, which values) without building anything: no option names a file, no value is
unbounded, and the bot itself is built in a worker process.  Every bot is run as a chain
ending in ``random``, so a link that fails is replaced by the next and the failure is
reported and logged.  Bots think in worker processes under the game's time limit; the
server's event loop only awaits their answer, so a slow bot blocks nothing.  The pool
serves its clients in turn: one client's games never hold more than a share of the workers.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import random
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from myriad.ai import BOTS, BotSpecError, Limits, make_bot, parse_spec
from myriad.ai.bot import Allowed, check_option
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State
from myriad.games import get_game
from myriad.games.user_variants import VariantSource, load_variant_sources

log = logging.getLogger("myriad.web")

HUMAN = "human"
#: Bot levels offered by the page, as bot specs: for each level, the first spec whose bots
#: all play the game's turn structure (two-player games without chance take the first).
LEVEL_CHOICES = {
    "easy": ("heuristic",),
    "medium": ("alphabeta:time=0.5", "expectimax:time=0.5", "mcts:time=0.5", "determinize:time=0.5",
               "infogain:time=0.5"),
    "strong": ("chain:book,alphabeta:time=2,random", "expectimax:time=2", "mcts:time=2", "determinize:time=2",
               "infogain:time=2"),
}
#: The levels of a chess-like game (two players, no chance).
LEVELS = {level: specs[0] for level, specs in LEVEL_CHOICES.items()}
#: How a book says it has no move (not a failure: the chain's next link is meant to answer).
OUT_OF_BOOK = "not in the book"
#: Seconds a worker may overrun the time limit before the server plays the fallback itself.
GRACE = 5.0
#: The longest a bot may think on this server, whatever its spec or the game's setting says.
MAX_THINK = 30.0
#: The most memory (MB) a browser's bot may ask for with ``hash=``.
MAX_HASH = 256

TIME: Allowed = (float, 0.01, MAX_THINK)
HASH: Allowed = (int, 1, MAX_HASH)
#: The bots a browser may seat.
OFFERED = ("random", "heuristic", "alphabeta", "mcts", "book", "solver", "maxn", "paranoid", "expectimax",
           "determinize", "ismcts", "infogain")
#: Options whose values the server narrows (each bot class declares its own in ``OPTIONS``).
SERVER_LIMITS: dict[str, Allowed] = {"time": TIME, "hash": HASH}
#: Options never taken from the network: ``file`` names a file (a book's), so ``book`` here
#: is the package's own book.
NOT_OFFERED = frozenset({"file"})
#: The bots a browser may seat and the options it may give each: every bot's own options
#: (:attr:`myriad.ai.Bot.OPTIONS`), narrowed by :data:`SERVER_LIMITS`, less
#: :data:`NOT_OFFERED`.  Nothing here reads a file.
BOT_OPTIONS: dict[str, dict[str, Allowed]] = {
    name: {key: SERVER_LIMITS.get(key, allowed) for key, allowed in BOTS[name].OPTIONS.items()
           if key not in NOT_OFFERED}
    for name in OFFERED}


def levels(game: Game) -> dict[str, str]:
    """Each level's bot spec for ``game``: the first of its choices that plays the game."""
    return {level: next(spec for spec in specs if spec_plays(spec, game))
            for level, specs in LEVEL_CHOICES.items()}


def spec_plays(spec: str, game: Game) -> bool:
    """Whether every bot of ``spec`` can search ``game``'s turn structure."""
    name, options = parse_spec(spec)
    links = [parse_spec(link)[0] for link in options["links"]] if name == "chain" else [name]
    return all(link in BOTS and BOTS[link].plays(game) for link in links)


def seat_spec(seat: str, game: Game) -> str | None:
    """The bot spec of a seat (a level or a spec) in ``game``, or None for a human."""
    seat = seat.strip()
    if seat == HUMAN:
        return None
    return levels(game).get(seat, seat)


def with_fallback(spec: str) -> str:
    """``spec`` as a chain whose last link is ``random``."""
    if spec == "random":
        return spec
    if spec.startswith("chain:"):
        links = parse_spec(spec)[1]["links"]
        return spec if links[-1].partition(":")[0] == "random" else f"{spec},random"
    return f"chain:{spec},random"


def check_seat(seat: str, game: Game) -> str:
    """The seat text, checked: ``human``, a level, or a bot spec whose every link is an
    allowed bot with allowed options and values (:data:`BOT_OPTIONS`); raises
    ``BotSpecError`` naming what is wrong.  Builds nothing and reads nothing."""
    spec = seat_spec(seat, game)
    if spec is None:
        return HUMAN
    name, options = parse_spec(with_fallback(spec))
    for link in options["links"] if name == "chain" else [spec]:
        check_link(*parse_spec(link), game)
    return seat.strip()


def check_link(name: str, options: dict[str, Any], game: Game) -> None:
    """One bot of a spec against the allow-list, and against the turn structure of ``game``
    (a bot that cannot search it is refused now, not replaced by ``random`` later)."""
    allowed = BOT_OPTIONS.get(name)
    if allowed is None:
        raise BotSpecError(f"bot {name!r} is not offered here; choose from {', '.join(BOT_OPTIONS)}")
    if not BOTS[name].plays(game):
        raise BotSpecError(BOTS[name].refusal(game))
    for key, value in options.items():
        if key not in allowed and key in BOTS[name].OPTIONS:
            raise BotSpecError(f"{name}: option {key!r} is not allowed here; allowed: {', '.join(allowed) or 'none'}")
        check_option(name, key, value, allowed)


# -- the worker side --------------------------------------------------------------------------

#: The bots a worker keeps between jobs, most recently used last (each is bounded by its
#: ``hash=``; a few are kept so that a game's next move skips building its bot).
_bots: OrderedDict[tuple[str, str], Any] = OrderedDict()
KEPT_BOTS = 2


def think(game_id: str, spec: str, fields: tuple[Any, ...], seconds: float) -> dict[str, Any]:
    """Run in a worker process: the move of bot ``spec`` in the observation given by its
    ``State`` fields, within ``seconds``.  Returns the move's actions and what the bot said."""
    game = get_game(game_id)
    key = (game_id, spec)
    if key not in _bots:
        _bots[key] = make_bot(with_fallback(spec), game)
        while len(_bots) > KEPT_BOTS:
            _bots.popitem(last=False)
    _bots.move_to_end(key)
    bot = _bots[key]
    bot.reset()
    started = time.monotonic()
    decision = bot.choose(State(*fields), Limits.of(seconds))
    info = decision.info
    return {"actions": [tuple(a) for a in decision.move], "bot": info.get("bot", bot.name),
            "failures": list(info.get("failures", [])), "depth": info.get("depth"),
            "score": info.get("score"), "seconds": round(time.monotonic() - started, 3)}


def state_fields(state: State) -> tuple[Any, ...]:
    """The arguments that rebuild ``state`` with ``State(*fields)`` in another process."""
    return (state.cells, state.to_move, state.flags, state.counters, state.hands, state.key, state.history)


def serve_jobs(conn: Connection, variants: tuple[VariantSource, ...] = ()) -> None:
    """A worker process's loop: register the server's user variants (their texts, read by
    the server at start), then receive ``think`` arguments, send back ``("ok", answer)``
    or ``("error", message)``, until the server closes the pipe; collect garbage between
    jobs."""
    try:
        load_variant_sources(variants)
    except Exception:  # noqa: BLE001 - checked by the server already; its games' jobs fail and fall back
        log.exception("a bot worker cannot load the server's variant files")
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            # a job is ``think``'s arguments, or another job function of the server and its arguments
            reply: tuple[str, Any] = ("ok", job[0](*job[1:]) if callable(job[0]) else think(*job))
        except Exception as err:  # noqa: BLE001 - reported to the server, which falls back
            reply = ("error", f"{type(err).__name__}: {err}")
        conn.send(reply)
        # A search freezes what is alive at its end (see ``gc_paused``), the worker's own
        # objects included: let the collector see them all again between jobs, while the
        # server plays the answer, so that nothing a long-lived worker drops is kept.
        gc.unfreeze()
        gc.collect()


# -- the server side --------------------------------------------------------------------------

@dataclass
class BotMove:
    """A bot's legal move, which link of its chain answered, and the failures on the way."""

    move: Move
    by: str
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0


class WorkerFailed(Exception):
    """A worker crashed or overran its time, or every link of the chain failed."""


class Worker:
    """One bot process and the server's end of its pipe."""

    def __init__(self, context: Any, variants: tuple[VariantSource, ...] = ()) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=serve_jobs, args=(child, variants), daemon=True, name="myriad-bot")
        self.process.start()
        child.close()

    def kill(self) -> None:
        """Stop the process now (it may be thinking) and close the pipe."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()


@dataclass(eq=False)
class Ticket:
    """One bot job's place in the pool: whose it is (the client that owns the game), and
    whether it waits for a worker or runs."""

    owner: str
    waiting: asyncio.Future[Worker] | None = None
    running: bool = False


class BotPool:
    """Bot worker processes; :meth:`choose` never blocks the event loop.

    ``workers`` processes start with the server; more are started when every one is busy,
    up to ``max_workers``.  One owner's jobs hold at most ``per_owner`` workers at once
    (default: half of them); the others wait, and a freed worker goes to the waiting job
    whose owner runs fewest jobs (the earliest among equals), so a client with many long
    bot games cannot make another client's bot wait for all of them.  A worker that overruns
    its time limit by :data:`GRACE` seconds or crashes is killed and replaced, so a runaway
    bot never holds a worker.
    """

    def __init__(self, workers: int | None = None, max_workers: int | None = None,
                 per_owner: int | None = None, variants: Sequence[VariantSource] = ()) -> None:
        #: The user variant files every worker registers before its first job (their texts).
        self.variants = tuple(variants)
        self.workers = workers or 2
        self.max_workers = max(self.workers, max_workers or 4)
        self.per_owner = per_owner or max(1, self.max_workers // 2)
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(["myriad.web.bots"])
        self.idle: list[Worker] = []
        self.count = 0
        self.queue: list[Ticket] = []
        self.running: Counter[str] = Counter()
        self.busy: set[Worker] = set()

    def start(self) -> None:
        """Start the first workers."""
        while self.count < self.workers:
            self.idle.append(Worker(self.context, self.variants))
            self.count += 1

    def close(self) -> None:
        """Stop every worker."""
        for worker in [*self.idle, *self.busy]:
            worker.kill()
        self.idle.clear()
        self.busy.clear()
        self.count = 0

    def ahead(self, ticket: Ticket) -> int:
        """How many waiting jobs are before ``ticket`` (0 when it runs or is first)."""
        return self.queue.index(ticket) if ticket in self.queue else 0

    async def _acquire(self, ticket: Ticket) -> Worker:
        if self.running[ticket.owner] < self.per_owner and not self._eligible():
            if self.idle:
                return self._grant(ticket, self.idle.pop())
            if self.count < self.max_workers:
                self.count += 1
                self.running[ticket.owner] += 1  # counted while it starts
                try:
                    worker = await asyncio.to_thread(Worker, self.context, self.variants)
                except BaseException:
                    self.count -= 1
                    self.running[ticket.owner] -= 1
                    raise
                self.running[ticket.owner] -= 1
                return self._grant(ticket, worker)
        ticket.waiting = asyncio.get_running_loop().create_future()
        self.queue.append(ticket)
        try:
            return await ticket.waiting
        except BaseException:
            if ticket in self.queue:
                self.queue.remove(ticket)
            elif ticket.waiting.done() and not ticket.waiting.cancelled():
                self._release(ticket, ticket.waiting.result())  # granted as it was cancelled
            raise

    def _grant(self, ticket: Ticket, worker: Worker) -> Worker:
        self.running[ticket.owner] += 1
        ticket.running = True
        self.busy.add(worker)
        return worker

    def _eligible(self) -> Ticket | None:
        """The waiting job to serve next: its owner is under the cap and runs fewest jobs."""
        best: Ticket | None = None
        for ticket in self.queue:
            if self.running[ticket.owner] < self.per_owner and (
                    best is None or self.running[ticket.owner] < self.running[best.owner]):
                best = ticket
        return best

    def _release(self, ticket: Ticket, worker: Worker) -> None:
        self.busy.discard(worker)
        if ticket.running:
            ticket.running = False
            self.running[ticket.owner] -= 1
        self._dispatch(worker)

    def _dispatch(self, worker: Worker) -> None:
        """Give a free worker to the next eligible waiting job, else keep it idle."""
        while (ticket := self._eligible()) is not None:
            self.queue.remove(ticket)
            assert ticket.waiting is not None
            if not ticket.waiting.done():
                ticket.waiting.set_result(self._grant(ticket, worker))
                return
        self.idle.append(worker)

    def _discard(self, ticket: Ticket, worker: Worker) -> None:
        self.busy.discard(worker)
        if ticket.running:
            ticket.running = False
            self.running[ticket.owner] -= 1
        self.count -= 1
        worker.kill()
        if self.queue:
            asyncio.get_running_loop().create_task(self._replace())

    async def _replace(self) -> None:
        self.count += 1
        try:
            worker = await asyncio.to_thread(Worker, self.context, self.variants)
        except Exception:  # the waiters keep waiting for a busy worker
            self.count -= 1
            log.exception("cannot start a bot worker")
            return
        self._dispatch(worker)

    async def run(self, job: tuple[Any, ...], timeout: float, ticket: Ticket | None = None,
                  on_start: Callable[[], None] | None = None) -> dict[str, Any]:
        """Run ``think(*job)`` in a worker, once ``ticket`` (default: an anonymous owner's)
        has one (then ``on_start()`` is called); raises :class:`WorkerFailed` on a crash, an
        error or no answer within ``timeout`` seconds of starting (then the worker is replaced)."""
        ticket = ticket or Ticket("")
        worker = await self._acquire(ticket)
        if on_start is not None:
            on_start()
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        fd = worker.conn.fileno()
        try:
            worker.conn.send(job)
            loop.add_reader(fd, lambda: None if ready.done() else ready.set_result(None))
            try:
                await asyncio.wait_for(ready, timeout)
            finally:
                loop.remove_reader(fd)
            status, answer = worker.conn.recv()
        except TimeoutError:
            self._discard(ticket, worker)
            raise WorkerFailed(f"no answer in {timeout:.0f} s; the worker was stopped") from None
        except (EOFError, OSError) as err:
            self._discard(ticket, worker)
            raise WorkerFailed(f"the worker crashed ({type(err).__name__})") from None
        except BaseException:
            self._discard(ticket, worker)  # cancelled while thinking: the answer would be stale
            raise
        self._release(ticket, worker)
        if status != "ok":
            raise WorkerFailed(str(answer))
        return dict(answer)

    async def choose(self, game: Game, state: State, player: int, spec: str, seconds: float,
                     ticket: Ticket | None = None, on_start: Callable[[], None] | None = None) -> BotMove:
        """The move of the bot ``spec`` playing ``player`` in ``state``: asked in a worker
        with ``game.observe(state, player)`` for at most ``seconds`` (and at most
        :data:`MAX_THINK`), checked against the legal moves; a failure of the whole chain, a
        crash or an overrun is replaced by a random legal move and logged."""
        seconds = min(seconds, MAX_THINK)
        legal = game.legal_moves(state)
        if not legal:
            raise ValueError(f"{game.id}: no legal move for the bot to play")
        observation = game.observe(state, player)
        started = time.monotonic()
        try:
            answer = await self.run((game.id, spec, state_fields(observation), seconds), seconds + GRACE,
                                    ticket, on_start)
        except WorkerFailed as err:
            log.error("%s: bot %r failed: %s; playing a random move", game.id, spec, err)
            return self._fallback(legal, f"{spec}: {err}", started)
        move = Move(tuple(answer["actions"]))
        failures = [f for f in answer["failures"] if OUT_OF_BOOK not in f]
        for failure in failures:
            log.warning("%s: bot link failed, the next link answered: %s", game.id, failure)
        if move not in legal:
            log.error("%s: bot %r returned an illegal move; playing a random move", game.id, spec)
            return self._fallback(legal, f"{spec}: illegal move", started)
        return BotMove(move, str(answer["bot"]), failures, time.monotonic() - started)

    @staticmethod
    def _fallback(legal: list[Move], failure: str, started: float) -> BotMove:
        return BotMove(random.choice(legal), "random", [failure], time.monotonic() - started)
