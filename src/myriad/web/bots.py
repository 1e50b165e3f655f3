"""Bots for the server: levels, specs with a fallback, and a pool of worker processes.

A seat is ``human``, a level (``easy``, ``medium``, ``strong``) or any bot spec.  Every bot
is run as a chain ending in ``random``, so a link that fails is replaced by the next and
the failure is reported and logged.  Bots think in worker processes under the game's time
limit; the server's event loop only awaits their answer, so a slow bot blocks nothing.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
import time
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from myriad.ai import BotSpecError, Limits, make_bot, parse_spec
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State
from myriad.games import get_game

log = logging.getLogger("myriad.web")

HUMAN = "human"
#: Bot levels offered by the page, as bot specs.
LEVELS = {
    "easy": "heuristic",
    "medium": "alphabeta:time=0.5",
    "strong": "chain:book,alphabeta:time=2,random",
}
#: Options that make a bot read files on the server: refused from the browser.
FORBIDDEN_OPTIONS = frozenset({"file"})
#: How a book says it has no move (not a failure: the chain's next link is meant to answer).
OUT_OF_BOOK = "not in the book"
#: Seconds a worker may overrun the time limit before the server plays the fallback itself.
GRACE = 5.0


def seat_spec(seat: str) -> str | None:
    """The bot spec of a seat (a level or a spec), or None for a human."""
    seat = seat.strip()
    if seat == HUMAN:
        return None
    return LEVELS.get(seat, seat)


def with_fallback(spec: str) -> str:
    """``spec`` as a chain whose last link is ``random``."""
    if spec == "random":
        return spec
    if spec.startswith("chain:"):
        links = parse_spec(spec)[1]["links"]
        return spec if links[-1].partition(":")[0] == "random" else f"{spec},random"
    return f"chain:{spec},random"


def check_seat(seat: str, game: Game) -> str:
    """The seat text, checked: a level, ``human``, or a bot spec that builds for ``game``;
    raises ``BotSpecError`` naming what is wrong."""
    spec = seat_spec(seat)
    if spec is None:
        return HUMAN
    name, options = parse_spec(spec)
    links = options["links"] if name == "chain" else [spec]
    for link in links:
        bad = FORBIDDEN_OPTIONS & set(parse_spec(link)[1])
        if bad:
            raise BotSpecError(f"bot option {', '.join(sorted(bad))!r} is not allowed from the browser")
    make_bot(with_fallback(spec), game)
    return seat.strip()


# -- the worker side --------------------------------------------------------------------------

_bots: dict[tuple[str, str], Any] = {}


def think(game_id: str, spec: str, fields: tuple[Any, ...], seconds: float) -> dict[str, Any]:
    """Run in a worker process: the move of bot ``spec`` in the observation given by its
    ``State`` fields, within ``seconds``.  Returns the move's actions and what the bot said."""
    game = get_game(game_id)
    key = (game_id, spec)
    if key not in _bots:
        _bots[key] = make_bot(with_fallback(spec), game)
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


def serve_jobs(conn: Connection) -> None:
    """A worker process's loop: receive ``think`` arguments, send back ``("ok", answer)``
    or ``("error", message)``, until the server closes the pipe."""
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[str, Any] = ("ok", think(*job))
        except Exception as err:  # noqa: BLE001 - reported to the server, which falls back
            reply = ("error", f"{type(err).__name__}: {err}")
        conn.send(reply)


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

    def __init__(self, context: Any) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=serve_jobs, args=(child,), daemon=True, name="myriad-bot")
        self.process.start()
        child.close()

    def kill(self) -> None:
        """Stop the process now (it may be thinking) and close the pipe."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()


class BotPool:
    """Bot worker processes; :meth:`choose` never blocks the event loop.

    ``workers`` processes start with the server; more are started when every one is busy,
    up to ``max_workers``, then a request waits for a free one.  A worker that overruns
    its time limit by :data:`GRACE` seconds or crashes is killed and replaced, so a runaway
    bot never holds a worker.
    """

    def __init__(self, workers: int | None = None, max_workers: int | None = None) -> None:
        self.workers = workers or 2
        self.max_workers = max(self.workers, max_workers or 4)
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(["myriad.web.bots"])
        self.idle: list[Worker] = []
        self.count = 0
        self.waiters: deque[asyncio.Future[Worker]] = deque()
        self.busy: set[Worker] = set()

    def start(self) -> None:
        """Start the first workers."""
        while self.count < self.workers:
            self.idle.append(Worker(self.context))
            self.count += 1

    def close(self) -> None:
        """Stop every worker."""
        for worker in [*self.idle, *self.busy]:
            worker.kill()
        self.idle.clear()
        self.busy.clear()
        self.count = 0

    async def _acquire(self) -> Worker:
        if self.idle:
            worker = self.idle.pop()
        elif self.count < self.max_workers:
            self.count += 1
            try:
                worker = await asyncio.to_thread(Worker, self.context)
            except BaseException:
                self.count -= 1
                raise
        else:
            waiter: asyncio.Future[Worker] = asyncio.get_running_loop().create_future()
            self.waiters.append(waiter)
            worker = await waiter
        self.busy.add(worker)
        return worker

    def _release(self, worker: Worker) -> None:
        self.busy.discard(worker)
        while self.waiters:
            waiter = self.waiters.popleft()
            if not waiter.done():
                self.busy.add(worker)
                waiter.set_result(worker)
                return
        self.idle.append(worker)

    def _discard(self, worker: Worker) -> None:
        self.busy.discard(worker)
        self.count -= 1
        worker.kill()
        if any(not w.done() for w in self.waiters):
            asyncio.get_running_loop().create_task(self._replace())

    async def _replace(self) -> None:
        self.count += 1
        try:
            worker = await asyncio.to_thread(Worker, self.context)
        except Exception:  # the waiters keep waiting for a busy worker
            self.count -= 1
            log.exception("cannot start a bot worker")
            return
        self._release(worker)

    async def run(self, job: tuple[Any, ...], timeout: float) -> dict[str, Any]:
        """Run ``think(*job)`` in a worker; raises :class:`WorkerFailed` on a crash, an
        error or no answer within ``timeout`` seconds (then the worker is replaced)."""
        worker = await self._acquire()
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        fd = worker.conn.fileno()
        try:
            worker.conn.send(job)
            loop.add_reader(fd, lambda: ready.done() or ready.set_result(None))
            try:
                await asyncio.wait_for(ready, timeout)
            finally:
                loop.remove_reader(fd)
            status, answer = worker.conn.recv()
        except TimeoutError:
            self._discard(worker)
            raise WorkerFailed(f"no answer in {timeout:.0f} s; the worker was stopped") from None
        except (EOFError, OSError) as err:
            self._discard(worker)
            raise WorkerFailed(f"the worker crashed ({type(err).__name__})") from None
        except BaseException:
            self._discard(worker)  # cancelled while thinking: the answer would be stale
            raise
        self._release(worker)
        if status != "ok":
            raise WorkerFailed(str(answer))
        return dict(answer)

    async def choose(self, game: Game, state: State, player: int, spec: str, seconds: float) -> BotMove:
        """The move of the bot ``spec`` playing ``player`` in ``state``: asked in a worker
        with ``game.observe(state, player)``, checked against the legal moves; a failure of
        the whole chain, a crash or an overrun is replaced by a random legal move and logged."""
        legal = game.legal_moves(state)
        if not legal:
            raise ValueError(f"{game.id}: no legal move for the bot to play")
        observation = game.observe(state, player)
        started = time.monotonic()
        try:
            answer = await self.run((game.id, spec, state_fields(observation), seconds), seconds + GRACE)
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
