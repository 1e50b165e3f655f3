"""Games in progress on the server: create, move, undo/redo, settings, and bot turns.

A :class:`Session` is one game: the rules engine judges every move, and a change is first
committed to the :class:`~myriad.web.storage.Store` and only then applied in memory, so it
is either durable and visible or refused and invisible.  Each change is published to the
game's WebSocket subscribers.  When a bot is to move, a task asks the
:class:`~myriad.web.bots.BotPool` and plays its answer, unless the game changed meanwhile
(an undo, a new game state), in which case the answer is dropped.

Chance (a die): when chance is to move, the server draws the outcome and stores it as an
ordinary move by ``"chance"`` (store first, then apply, as every move), so a game read back
from the store replays exactly.  No human moves for chance, and an undo goes back past
chance's moves to a human's turn.  The draw comes from a generator seeded with a secret of
the session (never stored or sent: a seed derived from the public game id would let a
player foresee the dice), the ply and the position: after an undo, the same move at the
same point meets the same roll.

Who may act: the client that created a game owns it (settings, deletion); each human seat
has a secret key, given to the creator once, that moving, undoing and redoing need; anyone
else may watch.  The store keeps only SHA-256 digests of client secrets and keys.

Games between people may be played on the clock (:mod:`myriad.web.clocks`): the server
keeps the clocks, stored with every move, charges the mover when its move is accepted, and
a timer ends the game when the running clock's time is out (a time forfeit: the opponent
wins), whether or not a move arrives.  Clocks start with the first move, and run for human
seats only: a bot's thinking is bounded by its own time per move, and it may wait for a
busy worker through no fault of its own.  Either human seat may resign, offer a draw (the
next move withdraws it), accept or decline one; once the game is over, a rematch starts a
new game with the seats rotated (swapped, for two players), the same start and time
control, and each seat's key carried to the seat its holder now plays.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from myriad.core.errors import MyriadError, UnknownGameError
from myriad.core.game import Game, Outcome
from myriad.core.move import Move
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.notation.describe import end_text, outcome_json
from myriad.notation.records import write_record
from myriad.web.bots import HUMAN, MAX_THINK, BotPool, Ticket, check_seat, seat_spec
from myriad.web.feedback import captured_json, checked_squares
from myriad.web.conventions import conventions_json
from myriad.web.hidden import hidden_json
from myriad.web.clocks import Clocks, TimeControl, TimeControlError
from myriad.web.layout import cells_json, hands_json
from myriad.web.moves import last_move_json, moves_json
from myriad.web.storage import Damaged, GameRow, Store, StoreError

log = logging.getLogger("myriad.web")

DEFAULT_MOVETIME = 2.0
MOVETIME_RANGE = (0.05, MAX_THINK)
DELAY_RANGE = (0.0, 10.0)
#: Seconds between attempts to store a bot's move while the store is busy.
RETRY_SAVE = 1.0
#: Games kept in memory beyond those in use (the others are read again from the store).
MAX_OPEN = 256
#: Who a chance move (a roll of the die) is stored as being played by.
CHANCE = "chance"
T = TypeVar("T")


class Conflict(MyriadError):
    """The request is well formed but does not fit the game's state (not your turn, over)."""


class NotFound(MyriadError):
    """No game with that id."""


class Forbidden(MyriadError):
    """The caller may watch this game but not do what was asked."""


def digest(secret: str) -> str:
    """What the store keeps of a client secret or a seat key: its SHA-256, in hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class Caller:
    """Who sends a request: the client's secret (identifies a browser) and the seat key it
    presents, either may be missing; both already checked for shape by the app."""

    client: str | None = None
    seat_key: str | None = None

    @property
    def owner(self) -> str:
        """The owner digest this caller would have ('' without a client secret)."""
        return digest(self.client) if self.client else ""


def status_text(game: Game, state: State, result: Outcome | None = None) -> str:
    """A line for the game list: the result (``result``, when the game ended off the board,
    else the rules'), or who is to move."""
    outcome = result or game.outcome(state)
    if outcome is not None:
        return end_text(game, outcome)
    return f"{game.mover_name(state)} to move"


def check_range(name: str, value: Any, low: float, high: float) -> float:
    """``value`` as a float within [low, high], else a ``MyriadError`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise MyriadError(f"{name} must be a number from {low:g} to {high:g}, not {value!r}")
    return float(value)


def result_json(outcome: Outcome) -> str:
    """A result reached off the board, as the store keeps it."""
    return json.dumps({"scores": list(outcome.scores), "reason": outcome.reason})


def read_result(text: str, players: int) -> Outcome | None:
    """The stored result (None for ''); raises ``MyriadError`` when it does not read."""
    if not text:
        return None
    data = json.loads(text)
    if not isinstance(data, dict):
        raise MyriadError(f"stored result {text[:80]!r} is not an object")
    scores, reason = data.get("scores"), data.get("reason")
    if not (isinstance(scores, list) and len(scores) == players and isinstance(reason, str)
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in scores)):
        raise MyriadError(f"stored result {text[:80]!r} does not read")
    return Outcome(tuple(float(v) for v in scores), reason)


def check_flag(name: str, value: Any) -> bool:
    """``value`` as a bool, else a ``MyriadError`` naming ``name``."""
    if not isinstance(value, bool):
        raise MyriadError(f"{name} must be true or false, not {value!r}")
    return value


class Storage:
    """The store, called on its own thread: a wait for a lock never blocks the event loop,
    and calls reach SQLite one at a time."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="myriad-store")

    async def __call__(self, method: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.thread, lambda: method(*args, **kwargs))

    def close(self) -> None:
        """Finish pending calls and stop the thread."""
        self.thread.shutdown(wait=True)


class Session:
    """One game in progress."""

    def __init__(self, game: Game, row: GameRow, start: State, storage: Storage, pool: BotPool,
                 timer: Callable[[], float] = time.monotonic, wall: Callable[[], float] = time.time) -> None:
        self.game = game
        self.row = row
        self.storage = storage
        self.store = storage.store
        self.pool = pool
        self.specs = [seat_spec(s, game) for s in row.seats]
        self.states = [start]
        self.moves: list[Move] = []
        self.notations: list[str] = []
        self.by: list[str] = []
        #: moves taken back, next one first: (notation, who played it)
        self.redo_stack: list[tuple[str, str]] = []
        self.version = 0
        #: the bot's job: None, or its place in the pool (waiting or running)
        self.ticket: Ticket | None = None
        self.notice = ""
        self.lock = asyncio.Lock()
        self.subscribers: set[asyncio.Queue[int]] = set()
        self.task: asyncio.Task[None] | None = None
        #: the secret part of the seed of chance's draws (see the module's notes)
        self.chance_seed = secrets.randbits(64)
        #: the clocks' time source (monotonic) and the wall clock (for the store)
        self.timer, self.wall = timer, wall
        self.clocks: Clocks | None = None
        #: a result reached off the board (resignation, agreed draw, time forfeit)
        self.result: Outcome | None = None
        #: the seat that offers a draw now, or None
        self.draw_offer: int | None = None
        self.flag_task: asyncio.Task[None] | None = None
        #: the seats whose key another browser than the owner's has used (an invitation
        #: taken up): the owner's page then stops acting for them (kept in memory)
        self.claimed: set[int] = set()

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

    def human_to_move(self, state: State) -> bool:
        """Whether a human seat chooses the move in ``state`` (not a bot, not chance)."""
        return not self.game.is_chance(state) and self.specs[state.to_move] is None

    def outcome(self) -> Outcome | None:
        """The result (one reached off the board first), or None while the game goes on."""
        return self.result or self.game.outcome(self.state)

    def over(self) -> bool:
        """Whether the game has ended (a result, or nobody can move)."""
        return self.outcome() is not None or not self.game.legal_moves(self.state)

    def seat_of(self, caller: Caller) -> int | None:
        """The human seat whose key ``caller`` presents, or None."""
        if not caller.seat_key:
            return None
        key = digest(caller.seat_key)
        for player, stored in enumerate(self.row.keys):
            if stored is not None and secrets.compare_digest(stored, key):
                return player
        return None

    def owned_by(self, caller: Caller) -> bool:
        """Whether ``caller`` is the client that created the game."""
        return bool(self.row.owner) and bool(caller.client) and secrets.compare_digest(self.row.owner,
                                                                                      caller.owner)

    def require_seat(self, caller: Caller) -> int:
        """The caller's seat, else :class:`Forbidden`."""
        seat = self.seat_of(caller)
        if seat is None:
            raise Forbidden("you are watching this game: acting on it needs the key of one of its "
                            "human seats (X-Myriad-Seat)")
        return seat

    def note_claim(self, caller: Caller) -> None:
        """Remember that a browser other than the owner's holds the seat whose key it
        presents (an invitation taken up); the pages learn it with the next change."""
        seat = self.seat_of(caller)
        if seat is None or seat in self.claimed or not caller.client or self.owned_by(caller):
            return
        self.claimed.add(seat)

    def require_owner(self, caller: Caller) -> None:
        """:class:`Forbidden` unless ``caller`` created the game."""
        if not self.owned_by(caller):
            raise Forbidden("only the player who created this game may change its settings or delete it")

    def viewer(self, caller: Caller | None = None) -> int | None:
        """The player whose view the page gets: the caller's seat; else, in a game with
        hidden information, None (the public view: :meth:`Game.public_view`, nothing any
        one player cannot see); else the human to move, else the first human seat, else the
        first player (the whole state is shown either way)."""
        seat = self.seat_of(caller) if caller else None
        if seat is not None:
            return seat
        if self.game.hidden_information:
            return None
        humans = self.humans
        if self.state.to_move in humans:
            return self.state.to_move
        return humans[0] if humans else 0

    def _push(self, move: Move, by: str, notation: str | None = None) -> None:
        """Play ``move`` (legal) in memory."""
        self.notations.append(notation or self.game.format_move(self.state, move))
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
        self.arm_flag()

    # -- clocks ----------------------------------------------------------------------------

    def clock_player(self, state: State, plies: int, result: Outcome | None = None) -> int | None:
        """Whose clock runs in ``state`` after ``plies`` moves: the human seat to move, once
        the first move is played, while the game goes on; else None."""
        if self.clocks is None or plies == 0 or result is not None or self.game.is_chance(state) \
                or self.specs[state.to_move] is not None or self.game.outcome(state) is not None:
            return None
        return state.to_move

    def clocks_json(self, clocks: Clocks) -> str:
        """``clocks`` as the store keeps them."""
        return json.dumps(clocks.to_json(self.wall(), self.timer()))

    def _next_clocks(self, after: State, plies: int) -> Clocks | None:
        """The clocks once the mover's move is accepted now, leading to ``after``."""
        if self.clocks is None:
            return None
        now = self.timer()
        clocks = Clocks(self.clocks.control, list(self.clocks.main), list(self.clocks.periods),
                        self.clocks.running, self.clocks.since)
        clocks.charge(now)
        clocks.start(self.clock_player(after, plies), now)
        return clocks

    def arm_flag(self) -> None:
        """Set the timer that ends the game when the running clock's time is out."""
        task = self.flag_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
        self.flag_task = None
        at = self.clocks.flag_at() if self.clocks is not None and self.result is None \
            and not self.store.read_only else None  # (a read-only store shows games as they were)
        if at is not None:
            self.flag_task = asyncio.get_running_loop().create_task(self._flag_timer(at), name=f"flag {self.id}")

    async def _flag_timer(self, at: float) -> None:
        # (woken at least every second, so a time source that jumps, as a test's does, is followed)
        while True:
            wait = at - self.timer()
            await asyncio.sleep(min(max(0.0, wait), 1.0) + 0.005)
            if self.clocks is None or self.clocks.flag_at() != at:
                return  # the clocks changed: a new timer was set
            if await self.check_flag():
                return
            if self.timer() >= at:
                await asyncio.sleep(RETRY_SAVE)  # the store refused the result for now: try again

    async def check_flag(self) -> bool:
        """End the game by time forfeit if the running clock's time is out now: stored,
        then announced to every page.  True when the game is over (by this or before)."""
        async with self.lock:
            return await self._flag_if_out()

    async def _flag_if_out(self) -> bool:
        """:meth:`check_flag` with the lock held: True when the game has ended off the board."""
        if self.result is not None:
            return True
        clocks = self.clocks
        if clocks is None or self.store.read_only:
            return False
        loser = clocks.flagged(self.timer())
        if loser is None:
            return False
        winner = 1 - loser
        result = (Outcome.win(winner, "time forfeit") if self.game.can_win(self.state, winner)
                  else Outcome.draw(f"{self.game.player_names[loser]}'s time ran out; "
                                    f"{self.game.player_names[winner]} cannot win"))
        stopped = Clocks(clocks.control, list(clocks.main), list(clocks.periods))
        stopped.main[loser], stopped.periods[loser] = 0.0, 0
        try:
            await self._end(result, stopped)
        except StoreError as err:
            log.warning("%s %s: the time forfeit is not stored yet: %s", self.game.id, self.id, err)
            return False
        return True

    async def _end(self, result: Outcome, clocks: Clocks | None) -> None:
        """Store, then apply, a result reached off the board (clocks stopped)."""
        await self.storage(self.store.set_result, self.id, result_json(result),
                           status_text(self.game, self.state, result),
                           None if clocks is None else self.clocks_json(clocks))
        self.result, self.clocks, self.draw_offer = result, clocks, None
        self.notice = ""
        self._changed()  # (a bot thinking meanwhile has its answer dropped)

    def _stopped_clocks(self) -> Clocks | None:
        """The clocks stopped now, the running one charged (no increment: no move was made)."""
        if self.clocks is None:
            return None
        clocks = Clocks(self.clocks.control, list(self.clocks.main), list(self.clocks.periods),
                        self.clocks.running, self.clocks.since)
        clocks.charge(self.timer(), increment=False)
        return clocks

    def _timed_check(self) -> None:
        if self.clocks is not None:
            raise Conflict("moves cannot be taken back in a game played on the clock")

    # -- resign, draw ----------------------------------------------------------------------

    def _opponent_check(self, caller: Caller, what: str) -> int:
        """The caller's seat, in a two-player game that goes on; else the refusal."""
        seat = self.require_seat(caller)
        if self.game.players != 2:
            raise Conflict(f"{what} is for two-player games; {self.game.name} has {self.game.players} players")
        if self.outcome() is not None:
            raise Conflict("the game is over")
        return seat

    async def resign(self, caller: Caller) -> None:
        """The caller's seat resigns: the other player wins."""
        async with self.lock:
            await self._flag_if_out()
            seat = self._opponent_check(caller, "resigning")
            await self._end(Outcome.win(1 - seat, "resignation"), self._stopped_clocks())

    async def draw(self, caller: Caller, action: Any) -> None:
        """``action``: ``"offer"`` a draw (accepting the other side's offer, when there is
        one), ``"accept"`` or ``"decline"`` the other side's offer."""
        if action not in ("offer", "accept", "decline"):
            raise MyriadError(f"'action' must be 'offer', 'accept' or 'decline', not {str(action)[:40]!r}")
        async with self.lock:
            await self._flag_if_out()
            seat = self._opponent_check(caller, "a draw offer")
            other = 1 - seat
            if self.specs[other] is not None:
                raise Conflict(f"{self.game.player_names[other]} is a bot: it does not answer draw offers")
            if action == "offer" and self.draw_offer == seat:
                raise Conflict("you have offered a draw already; the next move withdraws it")
            if action == "offer" and self.draw_offer != other:
                self.draw_offer = seat
                self._changed()
                return
            if self.draw_offer != other:
                raise Conflict(f"{self.game.player_names[other]} has not offered a draw")
            if action == "decline":
                self.draw_offer = None
                self._changed()
                return
            await self._end(Outcome.draw("agreement"), self._stopped_clocks())

    async def _store_and_play(self, move: Move, by: str) -> None:
        """Store ``move`` (legal, by ``by``) as the next ply, then play it in memory, charging
        the mover's clock; raises a :class:`StoreError`, and changes nothing, when it could
        not be stored."""
        notation = self.game.format_move(self.state, move)
        after = self.game.play(self.state, move)
        clocks = self._next_clocks(after, len(self.moves) + 1)
        await self.storage(self.store.add_move, self.id, len(self.moves), notation, by,
                           self.game.format_position(after), status_text(self.game, after),
                           None if clocks is None else self.clocks_json(clocks))
        self.notations.append(notation)
        self.states.append(after)
        self.moves.append(move)
        self.by.append(by)
        self.clocks = clocks
        self.draw_offer = None

    # -- requests ------------------------------------------------------------------------------

    async def play(self, notation: str, expect_ply: int | None = None, caller: Caller = Caller()) -> None:
        """A human's move, written in the game's notation, by the seat whose key ``caller``
        presents; refused (nothing changes) when it is illegal, the game is over, another
        seat is to move, the page saw an older position or the store cannot save it."""
        async with self.lock:
            seat = self.require_seat(caller)
            if self.result is None and await self._flag_if_out():
                raise Conflict(f"the game is over: {status_text(self.game, self.state, self.result)}")
            if expect_ply is not None and expect_ply != len(self.moves):
                raise Conflict("the game has moved on since this page saw it (a move was played or taken back); "
                               "the board is refreshed")
            if self.outcome() is not None:
                raise Conflict("the game is over")
            if self.game.is_chance(self.state):
                raise Conflict("chance moves next (the server draws it)")
            to_move = self.state.to_move
            if self.specs[to_move] is not None:
                raise Conflict(f"it is the bot's turn ({self.game.player_names[to_move]})")
            if seat != to_move:
                raise Conflict(f"it is {self.game.player_names[to_move]}'s turn, not yours "
                               f"({self.game.player_names[seat]})")
            move = self.game.parse_move(self.state, notation)
            await self._store_and_play(move, HUMAN)
            self.redo_stack.clear()
            self.notice = ""
            self._changed()
        self.kick()

    def undo_target(self) -> int | None:
        """How many moves stay in force after an undo: back to the last earlier position a
        human was to move in (one move back when only bots play); None when there is none."""
        count = len(self.moves)
        if count == 0:
            return None
        if not self.humans:
            return count - 1
        for ply in range(count - 1, -1, -1):
            if self.human_to_move(self.states[ply]):
                return ply
        return None

    def redo_moves(self) -> list[tuple[Move, str, str]]:
        """The taken-back moves an undo-redo replays, as (move, notation, who): up to the next
        position a human is to move in (or all of them); empty when there is nothing to redo."""
        if not self.redo_stack:
            return []
        state, replay = self.state, []
        for notation, by in self.redo_stack:
            try:
                move = self.game.parse_move(state, notation)
            except MyriadError:
                break
            replay.append((move, notation, by))
            state = self.game.play(state, move)
            if not self.humans or self.human_to_move(state):
                break
        return replay

    async def undo(self, caller: Caller = Caller()) -> None:
        """Take moves back to the human's previous turn (one move when only bots play, and
        then the bots pause)."""
        async with self.lock:
            self.require_seat(caller) if self.humans else self.require_owner(caller)
            self._timed_check()
            if self.result is not None:
                raise Conflict("the game is over")
            target = self.undo_target()
            if target is None:
                raise Conflict("nothing to undo")
            pause = not self.humans and not self.row.paused
            state = self.states[target]
            await self.storage(self.store.set_cursor, self.id, target, self.game.format_position(state),
                               status_text(self.game, state), True if pause else None)
            while len(self.moves) > target:
                self._pop()
            if pause:
                self.row.paused = True
            self.notice = ""
            self._changed()
        self.kick()

    async def redo(self, caller: Caller = Caller()) -> None:
        """Replay taken-back moves up to the human's next turn."""
        async with self.lock:
            self.require_seat(caller) if self.humans else self.require_owner(caller)
            self._timed_check()
            if self.result is not None:
                raise Conflict("the game is over")
            replay = self.redo_moves()
            if not replay:
                raise Conflict("nothing to redo")
            state = self.state
            for move, _, _ in replay:
                state = self.game.play(state, move)
            await self.storage(self.store.set_cursor, self.id, len(self.moves) + len(replay),
                               self.game.format_position(state), status_text(self.game, state))
            for move, notation, by in replay:
                self.redo_stack.pop(0)
                self._push(move, by, notation)
            self._changed()
        self.kick()

    async def configure(self, caller: Caller = Caller(), *, delay: Any = None, paused: Any = None,
                        movetime: Any = None, public: Any = None) -> None:
        """Change the delay between bot moves, pause or resume bots, the time per bot move,
        or whether the game is listed for everyone; only its owner may.  Every value is
        checked and stored before any is applied."""
        async with self.lock:
            self.require_owner(caller)
            row = self.row
            new_delay = row.delay if delay is None else check_range("delay", delay, *DELAY_RANGE)
            new_movetime = row.movetime if movetime is None else check_range("movetime", movetime,
                                                                              *MOVETIME_RANGE)
            new_paused = row.paused if paused is None else check_flag("paused", paused)
            new_public = row.public if public is None else check_flag("public", public)
            await self.storage(self.store.set_settings, self.id, delay=new_delay, paused=new_paused,
                               movetime=new_movetime, public=new_public)
            row.delay, row.movetime, row.paused, row.public = new_delay, new_movetime, new_paused, new_public
            self._changed()
        self.kick()

    # -- bots ----------------------------------------------------------------------------------

    def kick(self) -> None:
        """Start the bot task if a bot is to move and none is running."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._drive(), name=f"bots {self.id}")

    def bot_to_move(self) -> str | None:
        """The spec of the bot to move now, or None (a human's or chance's turn, paused, or over)."""
        if self.game.is_chance(self.state):
            return None
        spec = self.specs[self.state.to_move]
        if spec is None or self.row.paused or self.over():
            return None
        return spec

    def draw_chance(self) -> Move:
        """Chance's move in the position in force, drawn by its probability (the same draw
        for the same position at the same ply of this session)."""
        rng = random.Random(f"{self.chance_seed}:{len(self.moves)}:{self.state.key}")
        outcomes = self.game.chance_outcomes(self.state)
        return rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]

    async def _chance_turn(self) -> bool | None:
        """When chance is to move (and the game is not over, nor a paused game of bots): draw, store, then
        play its move; True once played, False when the store refused it (nothing changed).
        None when chance is not to move.  Called with the lock held."""
        if not self.game.is_chance(self.state) or (self.row.paused and not self.humans) or self.over():
            return None  # (a pause stops bot-only games; humans wait for no die)
        move = self.draw_chance()
        try:
            await self._store_and_play(move, CHANCE)
        except StoreError as err:
            log.warning("%s %s: chance's move is not stored yet: %s", self.game.id, self.id, err)
            self.notice = f"the roll could not be saved yet ({err}); retrying"
            self.publish()
            return False
        self.redo_stack.clear()
        self.notice = ""
        self._changed()
        return True

    async def _drive(self) -> None:
        """Play chance's and bot moves while they are to move."""
        try:
            while True:
                async with self.lock:
                    drawn = await self._chance_turn()
                if drawn is False:
                    await asyncio.sleep(RETRY_SAVE)
                if drawn is not None:
                    continue
                async with self.lock:
                    spec = self.bot_to_move()
                    if spec is None:
                        if self.ticket is not None:
                            self.ticket = None
                            self.publish()
                        return
                    state = self.state
                    seconds = self.row.movetime
                    delay = self.row.delay if not self.humans else 0.0
                    self.ticket = Ticket(self.row.owner or self.id)
                    self.publish()
                started = time.monotonic()
                answer = await self.pool.choose(self.game, state, state.to_move, spec, seconds, self.ticket,
                                                on_start=self.publish)
                wait = delay - (time.monotonic() - started)
                if wait > 0:
                    await asyncio.sleep(wait)
                while True:
                    async with self.lock:
                        if self.state is not state or self.row.paused or self.result is not None:
                            break  # moves were taken back, the bots paused or the game ended meanwhile
                        try:
                            await self._store_and_play(answer.move, answer.by)
                        except StoreError as err:
                            log.warning("%s %s: the bot's move is not stored yet: %s", self.game.id, self.id, err)
                            self.notice = f"the bot's move could not be saved yet ({err}); retrying"
                            self.publish()
                        else:
                            self.redo_stack.clear()
                            self.notice = (f"{self.game.player_names[state.to_move]}'s bot failed, "
                                           f"{answer.by} answered: {'; '.join(answer.failures)}"
                                           if answer.failures else "")
                            self.ticket = None
                            self._changed()
                            break
                    await asyncio.sleep(RETRY_SAVE)
        except asyncio.CancelledError:
            raise
        except Exception:  # logged; the game stays as it was
            log.exception("%s %s: bot turn failed", self.game.id, self.id)
            self.ticket = None
            self.notice = "the bot could not move; see the server log"
            self.publish()

    def bot_status(self) -> str | None:
        """None, ``"queued"`` (waiting for a worker) or ``"thinking"``."""
        if self.ticket is None:
            return None
        return "thinking" if self.ticket.running else "queued"

    # -- views ---------------------------------------------------------------------------------

    def view(self, caller: Caller | None = None) -> dict[str, Any]:
        """The game as the page of ``caller`` sees it (through ``observe`` for the caller's
        seat, else the player :meth:`viewer` picks, else ``public_view``); without a caller,
        as a watcher does.  This is the one door of the web's views: every answer and
        WebSocket message about a game is built here for its own receiver."""
        game, state = self.game, self.state
        viewer = self.viewer(caller)
        seen = game.public_view(state) if viewer is None else game.observe(state, viewer)
        outcome = self.outcome()
        human_turn = outcome is None and self.human_to_move(state)
        # Hidden information, while the game goes on: the viewer's moves from its observation
        # (the same as the whole state's), the opponent's moves in the history as "?", no
        # last move of the opponent's; everything once the game is over.
        hidden = game.hidden_information and outcome is None
        shown = seen if hidden else state
        legal = game.legal_moves(shown) if human_turn and (not hidden or viewer == state.to_move) else []
        history = [self.notations[i] if not hidden else "?" if viewer is None
                   else game.move_seen(self.states[i], move, viewer) for i, move in enumerate(self.moves)]
        last = None
        if self.moves and not (hidden and self.states[-2].to_move != viewer):
            last = last_move_json(game, self.states[-2], self.moves[-1])
        bot = self.bot_status()
        return {
            "id": self.id, "game": game.id, "name": game.name, "family": game.family,
            "version": self.version, "seats": self.row.seats, "players": list(game.player_names),
            "movetime": self.row.movetime, "delay": self.row.delay, "paused": self.row.paused,
            "public": self.row.public, "owner": self.owned_by(caller) if caller else False,
            "seat": self.seat_of(caller) if caller else None,
            "position": game.format_position(seen), "cells": cells_json(game, seen),
            **({"hands": hands_json(game, seen)} if seen.hands else {}),
            "to_move": state.to_move, "to_move_name": game.mover_name(state),
            "chance": game.is_chance(state),
            "outcome": outcome_json(game, outcome),
            "status": status_text(game, state, self.result),
            "end": end_text(game, outcome) if outcome is not None else None,
            # the royal pieces in check and the material taken (hidden games: at the end)
            "check": checked_squares(game, state) if not hidden else [],
            "captured": captured_json(game, self.states, self.moves) if not hidden else None,
            "human_turn": human_turn, "thinking": bot is not None, "bot": bot,
            "queue": self.pool.ahead(self.ticket) if bot == "queued" and self.ticket else 0,
            "notice": self.notice,
            "legal": moves_json(game, shown, legal),
            "ply": len(self.moves),
            "history": [{"notation": text, "player": self.states[i].to_move, "by": self.by[i]}
                        for i, text in enumerate(history)],
            "last": last,
            "conventions": conventions_json(game, shown, seen, legal, self.states[0]),
            **hidden_json(game, state, seen, viewer, self.states[-2] if self.moves else None, legal),
            "can_undo": self.clocks is None and outcome is None and self.undo_target() is not None,
            "can_redo": self.clocks is None and outcome is None and bool(self.redo_stack),
            "clock": None if self.clocks is None else self.clocks.shown(self.timer()),
            "draw_offer": self.draw_offer,
            "rematch": self.row.rematch or None,
            "claimed": sorted(self.claimed),
        }

    def record(self) -> str:
        """The game record (PGN, PDN or a move list) with the seats as tags; a game with
        hidden information shows it once the game is over (raises ``Conflict`` before)."""
        if self.game.hidden_information and self.outcome() is None:
            raise Conflict(f"{self.game.id} hides information: its record is shown when the game is over")
        tags = {name.capitalize(): seat for name, seat in zip(self.game.player_names, self.row.seats)}
        tags["Date"] = time.strftime("%Y.%m.%d", time.localtime(self.row.created))
        if self.clocks is not None:
            tags["TimeControl"] = self.clocks.control.pgn
        return write_record(self.game, self.notations, self.outcome(), tags, start=self.states[0])

    def publish(self) -> None:
        """Tell every subscriber the game changed (each keeps only the newest version): each
        WebSocket connection then builds its own receiver's view (:meth:`view`)."""
        for queue in self.subscribers:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(self.version)

    def subscribe(self) -> asyncio.Queue[int]:
        """A queue that receives the version of the game after every change."""
        queue: asyncio.Queue[int] = asyncio.Queue(maxsize=1)
        self.subscribers.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[int]) -> None:
        """Stop sending views to ``queue``."""
        self.subscribers.discard(queue)


class Sessions:
    """Every game: created here, loaded from the store on first use, kept in memory.
    ``timer`` is the clocks' monotonic time source and ``wall`` the wall clock (both
    replaceable in tests)."""

    def __init__(self, store: Store, pool: BotPool, timer: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.timer, self.wall = timer, wall
        self.storage = Storage(store)
        self.store = store
        self.pool = pool
        #: the games in memory, least recently used first
        self.open: OrderedDict[str, Session] = OrderedDict()
        self.loading: dict[str, asyncio.Future[Session]] = {}

    async def create(self, caller: Caller, game_id: str | None, seats: Sequence[Any] | None = None,
                     position: str | None = None, setup: str | None = None,
                     movetime: Any = None, delay: Any = None, public: Any = None,
                     clock: Any = None) -> tuple[Session, list[str | None]]:
        """A new game owned by ``caller``, stored, and the keys of its human seats (None for a
        bot's seat), given out only here; raises ``MyriadError`` naming the first bad argument.
        Without a game id, the position text picks the first game that reads it.  ``clock``:
        a time control (:meth:`TimeControl.parse`), for two-player games with a human seat."""
        if not caller.client:
            raise Forbidden("creating a game needs a client secret (X-Myriad-Client)")
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
        control = TimeControl.parse(clock)
        if control is not None and (game.players != 2 or HUMAN not in checked):
            raise TimeControlError(f"clock: time controls are for two-player games with a human seat; "
                                   f"{game.name} has {game.players} player(s) and "
                                   f"{checked.count(HUMAN)} human seat(s)")
        keys = [secrets.token_urlsafe(24) if seat == HUMAN else None for seat in checked]
        row = GameRow(secrets.token_hex(8), game.id, game.format_position(start), checked,
                      check_range("movetime", DEFAULT_MOVETIME if movetime is None else movetime,
                                  *MOVETIME_RANGE),
                      check_range("delay", 0.6 if delay is None else delay, *DELAY_RANGE),
                      owner=caller.owner, keys=[digest(k) if k else None for k in keys],
                      public=False if public is None else check_flag("public", public))
        row.status = status_text(game, start)
        if control is not None:
            row.clock = json.dumps(Clocks.new(control, game.players).to_json(self.wall(), self.timer()))
        await self.storage(self.store.create, row)
        session = self._session(game, row, start)
        self.keep(session)
        session.kick()
        return session, keys

    def _session(self, game: Game, row: GameRow, start: State) -> Session:
        """A session of ``row`` at its start, with its clocks and result read back (raises
        ``MyriadError`` when they do not read)."""
        session = Session(game, row, start, self.storage, self.pool, self.timer, self.wall)
        if row.clock:
            session.clocks = Clocks.from_json(json.loads(row.clock), game.players, self.wall(), self.timer())
        session.result = read_result(row.result, game.players)
        return session

    async def rematch(self, session: Session, caller: Caller) -> Session:
        """The rematch of a finished game, asked by one of its human seats: made once (asked
        again, the same), with the seats rotated (swapped, for two players), each seat's key
        carried to the seat its holder now plays, the same start, time control and
        settings.  Raises ``Forbidden`` or ``Conflict``."""
        async with session.lock:
            session.require_seat(caller)
            if session.outcome() is None:
                raise Conflict("a rematch is offered once the game is over")
            if not session.row.rematch:
                old, count = session.row, session.game.players
                rotated = [old.seats[(p - 1) % count] for p in range(count)]
                keys: list[str | None] = [old.keys[(p - 1) % count] if old.keys else None for p in range(count)]
                row = GameRow(secrets.token_hex(8), old.game, old.start, rotated, old.movetime, old.delay,
                              owner=old.owner, keys=keys, public=old.public)
                start = session.states[0]
                row.status = status_text(session.game, start)
                if session.clocks is not None:
                    row.clock = json.dumps(Clocks.new(session.clocks.control, count).to_json(self.wall(),
                                                                                             self.timer()))
                await self.storage(self.store.create_rematch, row, old.id)
                new = self._session(session.game, row, start)
                self.keep(new)
                new.kick()
                old.rematch = row.id
                session._changed()
        return await self.get(session.row.rematch)

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

    async def get(self, game_id: str) -> Session:
        """The game ``game_id``, loaded from the store if needed; raises ``NotFound``, or
        ``Damaged`` when its stored row or start no longer reads."""
        if game_id in self.open:
            self.open.move_to_end(game_id)
            return self.open[game_id]
        if len(game_id) > 64 or not game_id.isascii() or not game_id.isalnum():
            raise NotFound(f"no game {game_id[:64]!r}")
        if game_id not in self.loading:
            self.loading[game_id] = asyncio.ensure_future(self._load(game_id))
        try:
            return await asyncio.shield(self.loading[game_id])
        finally:
            if self.loading.get(game_id) is not None and self.loading[game_id].done():
                del self.loading[game_id]

    async def _load(self, game_id: str) -> Session:
        row = await self.storage(self.store.load, game_id)
        if row is None:
            raise NotFound(f"no game {game_id!r}")
        try:
            try:
                game = get_game(row.game)
            except UnknownGameError:  # e.g. a variant file's game, not loaded at this start
                raise MyriadError(f"its game {row.game!r} is not served now; a variant file's games are served "
                                  f"while the server is started with --variants FILE") from None
            start = game.parse_position(row.start)
            if len(row.seats) != game.players or len(row.keys) not in (0, game.players):
                raise MyriadError(f"{len(row.seats)} seats stored for {game.players} players")
            for seat in row.seats:
                check_seat(seat, game)
        except MyriadError as err:
            log.error("game %s cannot be loaded: %s", game_id, err)
            raise Damaged(f"stored game {game_id!r} cannot be read back ({err})") from None
        if not row.keys:
            row.keys = [None] * game.players
        try:
            session = self._session(game, row, start)
        except (MyriadError, ValueError, TypeError) as err:
            log.error("game %s cannot be loaded: %s", game_id, err)
            raise Damaged(f"stored game {game_id!r} cannot be read back ({err})") from None
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
        self.keep(session)
        session.kick()  # a bot that was to move when the server stopped moves now
        session.arm_flag()  # and a clock that ran out meanwhile ends the game
        return session

    def keep(self, session: Session) -> None:
        """Hold ``session`` in memory, letting go of the least recently used idle games (no
        watcher, no bot at work, no request) beyond :data:`MAX_OPEN`; they load again on use."""
        self.open[session.id] = session
        for game_id, old in list(self.open.items())[:max(0, len(self.open) - MAX_OPEN)]:
            if not old.subscribers and not old.lock.locked() and (old.task is None or old.task.done()) \
                    and (old.flag_task is None or old.flag_task.done()):
                del self.open[game_id]

    async def resume_clocks(self) -> int:
        """Load the games whose clock runs, so that each flag falls in time even if nobody
        opens the game after a restart; how many there were (those that do not load are
        logged and left)."""
        count = 0
        if self.store.read_only:
            return 0
        for game_id in await self.storage(self.store.running_clocks):
            try:
                await self.get(game_id)
                count += 1
            except MyriadError as err:
                log.warning("game %s: its clock is not resumed: %s", game_id, err)
        return count

    async def summaries(self, caller: Caller, family: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """The caller's games and the public ones, newest first, as small records for the
        game list (``mine``: created by the caller).  A game that cannot be read is left out
        and logged."""
        games = None if family is None else [g for g in game_ids() if get_game(g).family == family]
        owner = caller.owner
        out = []
        for row in await self.storage(self.store.recent, owner, games, limit):
            try:
                game = get_game(row.game)
                state = game.parse_position(row.position)
            except MyriadError as err:
                log.warning("game %s cannot be listed: %s", row.id, err)
                continue
            seen = game.public_view(state)  # no seat key here: a hidden game shows what is public
            out.append({"id": row.id, "game": game.id, "name": game.name, "family": game.family,
                        "seats": row.seats, "players": list(game.player_names),
                        "cells": cells_json(game, seen), "status": row.status, "ply": row.cursor,
                        "over": bool(row.result) or game.outcome(state) is not None, "public": row.public,
                        "mine": bool(owner) and row.owner == owner,
                        "created": row.created, "updated": row.updated})
        return out

    async def delete(self, game_id: str, caller: Caller) -> None:
        """Forget a game (its owner only); raises ``NotFound`` or ``Forbidden``."""
        session = await self.get(game_id)
        async with session.lock:
            session.require_owner(caller)
            await self.storage(self.store.delete, game_id)
            self.open.pop(game_id, None)
            for task in (session.task, session.flag_task):
                if task is not None:
                    task.cancel()
            session.row.paused = True  # a request that holds the session now changes nothing

    async def close(self) -> None:
        """Stop every bot task and the store's thread."""
        tasks = [t for s in self.open.values() for t in (s.task, s.flag_task) if t is not None and not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.storage.close()
