"""Games in progress on the server: create, move, undo/redo, settings, and bot turns.

A :class:`Session` is one game: the rules engine judges every move, every accepted change
is committed to the :class:`~myriad.web.storage.Store` before it is answered, and each
change is published to the game's WebSocket subscribers.  When a bot is to move, a task
asks the :class:`~myriad.web.bots.BotPool` and plays its answer, unless the game changed
meanwhile (an undo, a new game state), in which case the answer is dropped.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Sequence
from typing import Any

from myriad.notation.describe import outcome_json, outcome_text
from myriad.core.errors import MyriadError, UnknownGameError
from myriad.core.game import Game, Outcome
from myriad.core.move import Move
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.notation.records import write_record
from myriad.web.bots import HUMAN, BotPool, check_seat, seat_spec
from myriad.web.layout import cells_json
from myriad.web.moves import last_move_json, moves_json
from myriad.web.storage import GameRow, Store

log = logging.getLogger("myriad.web")

DEFAULT_MOVETIME = 2.0
MOVETIME_RANGE = (0.05, 60.0)
DELAY_RANGE = (0.0, 10.0)


class Conflict(MyriadError):
    """The request is well formed but does not fit the game's state (not your turn, over)."""


class NotFound(MyriadError):
    """No game with that id."""


def status_text(game: Game, state: State) -> str:
    """A line for the game list: the result, or who is to move."""
    outcome = game.outcome(state)
    if outcome is not None:
        return outcome_text(game, outcome)
    return f"{game.player_names[state.to_move]} to move"


def check_range(name: str, value: Any, low: float, high: float) -> float:
    """``value`` as a float within [low, high], else a ``MyriadError`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise MyriadError(f"{name} must be a number from {low:g} to {high:g}, not {value!r}")
    return float(value)


class Session:
    """One game in progress."""

    def __init__(self, game: Game, row: GameRow, start: State, store: Store, pool: BotPool) -> None:
        self.game = game
        self.row = row
        self.store = store
        self.pool = pool
        self.specs = [seat_spec(s) for s in row.seats]
        self.states = [start]
        self.moves: list[Move] = []
        self.notations: list[str] = []
        self.by: list[str] = []
        #: moves taken back, next one first: (notation, who played it)
        self.redo_stack: list[tuple[str, str]] = []
        self.version = 0
        self.thinking = False
        self.notice = ""
        self.lock = asyncio.Lock()
        self.subscribers: set[asyncio.Queue[dict[str, Any]]] = set()
        self.task: asyncio.Task[None] | None = None

    # -- the position ----------------------------------------------------------------------

    @property
    def id(self) -> str:
        """The game's id."""
        return self.row.id

    @property
    def state(self) -> State:
        """The position in force."""
        return self.states[-1]

    @property
    def humans(self) -> list[int]:
        """The players seated by humans."""
        return [p for p, spec in enumerate(self.specs) if spec is None]

    def outcome(self) -> Outcome | None:
        """The result, or None while the game goes on."""
        return self.game.outcome(self.state)

    def over(self) -> bool:
        """Whether the game has ended (a result, or nobody can move)."""
        return self.outcome() is not None or not self.game.legal_moves(self.state)

    def viewer(self) -> int:
        """The player whose view the page gets: the human to move, else the first human
        seat, else the first player."""
        humans = self.humans
        if self.state.to_move in humans:
            return self.state.to_move
        return humans[0] if humans else 0

    def _push(self, move: Move, by: str) -> None:
        """Play ``move`` (legal) in memory."""
        self.notations.append(self.game.format_move(self.state, move))
        self.states.append(self.game.play(self.state, move))
        self.moves.append(move)
        self.by.append(by)

    def _pop(self) -> None:
        """Take the last move back in memory, keeping it for redo."""
        self.states.pop()
        self.moves.pop()
        self.redo_stack.insert(0, (self.notations.pop(), self.by.pop()))

    def _changed(self) -> None:
        self.version += 1
        self.publish()

    # -- requests ------------------------------------------------------------------------------

    async def play(self, notation: str, expect_ply: int | None = None) -> None:
        """A human's move, written in the game's notation; refused (nothing changes) when it
        is illegal, the game is over, a bot is to move or the page saw an older position."""
        async with self.lock:
            if expect_ply is not None and expect_ply != len(self.moves):
                raise Conflict(f"the game has moved on (ply {len(self.moves)}, not {expect_ply}); "
                               "the board is refreshed")
            if self.outcome() is not None:
                raise Conflict("the game is over")
            if self.specs[self.state.to_move] is not None:
                raise Conflict(f"it is the bot's turn ({self.game.player_names[self.state.to_move]})")
            move = self.game.parse_move(self.state, notation)
            self._push(move, HUMAN)
            self.redo_stack.clear()
            self._save_move()
            self.notice = ""
            self._changed()
        self.kick()

    def _save_move(self) -> None:
        ply = len(self.moves) - 1
        self.store.add_move(self.id, ply, self.notations[ply], self.by[ply],
                            self.game.format_position(self.state), status_text(self.game, self.state))

    def undo_target(self) -> int | None:
        """How many moves stay in force after an undo: back to the last earlier position a
        human was to move in (one move back when only bots play); None when there is none."""
        count = len(self.moves)
        if count == 0:
            return None
        if not self.humans:
            return count - 1
        for ply in range(count - 1, -1, -1):
            if self.specs[self.states[ply].to_move] is None:
                return ply
        return None

    def redo_target(self) -> int | None:
        """How many redo moves an undo-redo replays: up to the next position a human is to
        move in (or all of them); None when there is nothing to redo."""
        if not self.redo_stack:
            return None
        if not self.humans:
            return 1
        state = self.state
        for count, (notation, _) in enumerate(self.redo_stack, start=1):
            try:
                state = self.game.play_text(state, notation)
            except MyriadError:
                return count - 1 or None
            if self.specs[state.to_move] is None:
                return count
        return len(self.redo_stack)

    async def undo(self) -> None:
        """Take moves back to the human's previous turn (one move when only bots play, and
        then the bots pause)."""
        async with self.lock:
            target = self.undo_target()
            if target is None:
                raise Conflict("nothing to undo")
            while len(self.moves) > target:
                self._pop()
            if not self.humans and not self.row.paused:
                self.row.paused = True
                self._save_settings()
            self.store.set_cursor(self.id, len(self.moves), self.game.format_position(self.state),
                                  status_text(self.game, self.state))
            self.notice = ""
            self._changed()
        self.kick()

    async def redo(self) -> None:
        """Replay taken-back moves up to the human's next turn."""
        async with self.lock:
            count = self.redo_target()
            if count is None:
                raise Conflict("nothing to redo")
            for _ in range(count):
                notation, by = self.redo_stack.pop(0)
                self._push(self.game.parse_move(self.state, notation), by)
            self.store.set_cursor(self.id, len(self.moves), self.game.format_position(self.state),
                                  status_text(self.game, self.state))
            self._changed()
        self.kick()

    async def configure(self, *, delay: Any = None, paused: Any = None, movetime: Any = None) -> None:
        """Change the delay between bot moves, pause or resume bots, or the time per bot move."""
        async with self.lock:
            if delay is not None:
                self.row.delay = check_range("delay", delay, *DELAY_RANGE)
            if movetime is not None:
                self.row.movetime = check_range("movetime", movetime, *MOVETIME_RANGE)
            if paused is not None:
                if not isinstance(paused, bool):
                    raise MyriadError(f"paused must be true or false, not {paused!r}")
                self.row.paused = paused
            self._save_settings()
            self._changed()
        self.kick()

    def _save_settings(self) -> None:
        self.store.set_settings(self.id, delay=self.row.delay, paused=self.row.paused,
                                movetime=self.row.movetime)

    # -- bots ----------------------------------------------------------------------------------

    def kick(self) -> None:
        """Start the bot task if a bot is to move and none is running."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._drive(), name=f"bots {self.id}")

    def bot_to_move(self) -> str | None:
        """The spec of the bot to move now, or None (a human's turn, paused, or over)."""
        spec = self.specs[self.state.to_move]
        if spec is None or self.row.paused or self.over():
            return None
        return spec

    async def _drive(self) -> None:
        """Play bot moves while bots are to move."""
        try:
            while True:
                async with self.lock:
                    spec = self.bot_to_move()
                    if spec is None:
                        if self.thinking:
                            self.thinking = False
                            self.publish()
                        return
                    state = self.state
                    seconds = self.row.movetime
                    delay = self.row.delay if not self.humans else 0.0
                    self.thinking = True
                    self.publish()
                started = time.monotonic()
                answer = await self.pool.choose(self.game, state, state.to_move, spec, seconds)
                wait = delay - (time.monotonic() - started)
                if wait > 0:
                    await asyncio.sleep(wait)
                async with self.lock:
                    if self.state is not state or self.row.paused:
                        continue  # moves were taken back or the bots paused meanwhile
                    self._push(answer.move, answer.by)
                    self.redo_stack.clear()
                    self._save_move()
                    self.notice = (f"{self.game.player_names[state.to_move]}'s bot failed, "
                                   f"{answer.by} answered: {'; '.join(answer.failures)}"
                                   if answer.failures else "")
                    self.thinking = False
                    self._changed()
        except asyncio.CancelledError:
            raise
        except Exception:  # logged; the game stays as it was
            log.exception("%s %s: bot turn failed", self.game.id, self.id)
            self.thinking = False
            self.notice = "the bot could not move; see the server log"
            self.publish()

    # -- views ---------------------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The game as the page sees it (through ``observe`` for the viewing player)."""
        game, state = self.game, self.state
        seen = game.observe(state, self.viewer())
        outcome = game.outcome(state)
        human_turn = outcome is None and self.specs[state.to_move] is None
        legal = game.legal_moves(state) if human_turn else []
        return {
            "id": self.id, "game": game.id, "name": game.name, "family": game.family,
            "version": self.version, "seats": self.row.seats, "players": list(game.player_names),
            "movetime": self.row.movetime, "delay": self.row.delay, "paused": self.row.paused,
            "position": game.format_position(seen), "cells": cells_json(game, seen),
            "to_move": state.to_move, "to_move_name": game.player_names[state.to_move],
            "outcome": outcome_json(game, outcome),
            "status": status_text(game, state),
            "human_turn": human_turn, "thinking": self.thinking, "notice": self.notice,
            "legal": moves_json(game, state, legal),
            "ply": len(self.moves),
            "history": [{"notation": text, "player": self.states[i].to_move, "by": self.by[i]}
                        for i, text in enumerate(self.notations)],
            "last": last_move_json(game, self.states[-2], self.moves[-1]) if self.moves else None,
            "can_undo": self.undo_target() is not None,
            "can_redo": bool(self.redo_stack),
        }

    def record(self) -> str:
        """The game record (PGN, PDN or a move list) with the seats as tags."""
        tags = {name.capitalize(): seat for name, seat in zip(self.game.player_names, self.row.seats)}
        tags["Date"] = time.strftime("%Y.%m.%d", time.localtime(self.row.created))
        return write_record(self.game, self.notations, self.outcome(), tags, start=self.states[0])

    def publish(self) -> None:
        """Send the current view to every subscriber (each keeps only the newest)."""
        if not self.subscribers:
            return
        message = {"type": "state", "game": self.view()}
        for queue in self.subscribers:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(message)

    def subscribe(self) -> asyncio.Queue[dict[str, Any]]:
        """A queue that receives every new view of the game."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=1)
        self.subscribers.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[dict[str, Any]]) -> None:
        """Stop sending views to ``queue``."""
        self.subscribers.discard(queue)


class Sessions:
    """Every game: created here, loaded from the store on first use, kept in memory."""

    def __init__(self, store: Store, pool: BotPool) -> None:
        self.store = store
        self.pool = pool
        self.open: dict[str, Session] = {}

    async def create(self, game_id: str | None, seats: Sequence[Any] | None = None,
                     position: str | None = None, setup: str | None = None,
                     movetime: Any = None, delay: Any = None) -> Session:
        """A new game, stored; raises ``MyriadError`` naming the first bad argument.  Without
        a game id, the position text picks the first game that reads it."""
        game, start = self._start(game_id, position, setup)
        if seats is None:
            seats = [HUMAN] + ["medium"] * (game.players - 1)
        if not isinstance(seats, (list, tuple)) or len(seats) != game.players:
            raise MyriadError(f"seats must be a list of {game.players} seats "
                              f"({', '.join(game.player_names)}): 'human', a level or a bot spec")
        checked = []
        for player, seat in zip(game.player_names, seats):
            if not isinstance(seat, str) or not seat.strip():
                raise MyriadError(f"seat of {player}: expected 'human', a level or a bot spec, not {seat!r}")
            try:
                checked.append(check_seat(seat, game))
            except MyriadError as err:
                raise MyriadError(f"seat of {player}: {err}") from None
        row = GameRow(secrets.token_hex(5), game.id, game.format_position(start), checked,
                      check_range("movetime", DEFAULT_MOVETIME if movetime is None else movetime,
                                  *MOVETIME_RANGE),
                      check_range("delay", 0.6 if delay is None else delay, *DELAY_RANGE))
        row.status = status_text(game, start)
        self.store.create(row)
        session = Session(game, row, start, self.store, self.pool)
        self.open[row.id] = session
        session.kick()
        return session

    @staticmethod
    def _start(game_id: str | None, position: str | None, setup: str | None) -> tuple[Game, State]:
        if game_id is not None and not isinstance(game_id, str):
            raise MyriadError(f"game must be a game id, not {game_id!r}")
        if position is not None and not isinstance(position, str):
            raise MyriadError(f"position must be text, not {position!r}")
        if setup is not None and not isinstance(setup, str):
            raise MyriadError(f"setup must be a setup name, not {setup!r}")
        if position is not None and setup is not None:
            raise MyriadError("give a position or a setup, not both")
        if game_id is None:
            if position is None:
                raise MyriadError("say which game to play: 'game' is missing")
            for candidate in game_ids():
                game = get_game(candidate)
                try:
                    return game, game.parse_position(position.strip())
                except MyriadError:
                    continue
            raise MyriadError(f"no game reads the position {position!r}")
        try:
            game = get_game(game_id)
        except UnknownGameError as err:  # a bad field of the request, not a missing page
            raise MyriadError(str(err)) from None
        if position is not None:
            return game, game.parse_position(position.strip())
        return game, game.initial_state(setup)

    def get(self, game_id: str) -> Session:
        """The game ``game_id``, loaded from the store if needed; raises ``NotFound``."""
        if game_id in self.open:
            return self.open[game_id]
        row = self.store.load(game_id)
        if row is None:
            raise NotFound(f"no game {game_id!r}")
        game = get_game(row.game)
        session = Session(game, row, game.parse_position(row.start), self.store, self.pool)
        for ply, (notation, by) in enumerate(zip(row.moves, row.by)):
            if ply >= row.cursor:
                session.redo_stack.append((notation, by))
                continue
            try:
                session._push(session.game.parse_move(session.state, notation), by)
            except MyriadError as err:
                log.error("game %s: stored move %d (%r) no longer reads: %s; the game stops there",
                          game_id, ply + 1, notation, err)
                break
        self.open[game_id] = session
        session.kick()  # a bot that was to move when the server stopped moves now
        return session

    def summaries(self, family: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """The most recent games, newest first, as small records for the game list."""
        games = None if family is None else [g for g in game_ids() if get_game(g).family == family]
        out = []
        for row in self.store.recent(games, limit):
            try:
                game = get_game(row.game)
                state = game.parse_position(row.position)
            except MyriadError as err:
                log.warning("game %s cannot be listed: %s", row.id, err)
                continue
            humans = [p for p, seat in enumerate(row.seats) if seat == HUMAN]
            seen = game.observe(state, humans[0] if humans else 0)
            out.append({"id": row.id, "game": game.id, "name": game.name, "family": game.family,
                        "seats": row.seats, "players": list(game.player_names),
                        "cells": cells_json(game, seen), "status": row.status, "ply": row.cursor,
                        "over": game.outcome(state) is not None,
                        "created": row.created, "updated": row.updated})
        return out

    async def delete(self, game_id: str) -> None:
        """Forget a game; raises ``NotFound``."""
        session = self.open.pop(game_id, None)
        if session is not None and session.task is not None:
            session.task.cancel()
        if not self.store.delete(game_id):
            raise NotFound(f"no game {game_id!r}")

    async def close(self) -> None:
        """Stop every bot task."""
        tasks = [s.task for s in self.open.values() if s.task is not None and not s.task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
