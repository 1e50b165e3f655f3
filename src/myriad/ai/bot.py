"""The bot protocol: ``choose(state, limits) -> Decision``, and bot specs.

A bot is made for one game and one player by :func:`myriad.ai.make_bot` from a spec string
such as ``alphabeta:algo=mtdf,time=1``; it keeps its own context between moves.  A bot
receives ``game.observe(state, player)``, never more.
"""

from __future__ import annotations

import gc
import re
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar

from myriad.core.errors import MyriadError
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State


class BotSpecError(MyriadError):
    """A bot spec string cannot be read."""


class SearchTimeout(Exception):
    """Raised inside a search when its deadline or node budget is spent."""


#: An option's allowed values: a set of words, ``(type, lowest, highest)`` for a number
#: (``int``: a whole number), or ``str`` for any text.
Allowed = frozenset[str] | tuple[type, float, float] | type
FLAG: Allowed = (int, 0, 1)
SEED: Allowed = (int, 0, 2**32 - 1)
TIME: Allowed = (float, 0.001, 86_400.0)
DEPTH: Allowed = (int, 1, 64)
NODES: Allowed = (int, 1, 10**11)
#: The limits every searcher takes.
LIMIT_OPTIONS: dict[str, Allowed] = {"time": TIME, "depth": DEPTH, "nodes": NODES}


def check_option(bot: str, key: str, value: Any, allowed: Mapping[str, Allowed]) -> None:
    """Raise :class:`BotSpecError` unless ``allowed`` has option ``key`` of bot ``bot``
    and ``value`` is one of its values (``True``, a bare word, counts as 1)."""
    rule = allowed.get(key)
    if rule is None:
        raise BotSpecError(f"{bot} has no option {key!r}; its options: {', '.join(allowed) or 'none'}")
    if rule is str:
        if not isinstance(value, str):
            raise BotSpecError(f"{bot}: {key} must be text, not {value!r}")
        return
    if isinstance(rule, frozenset):
        if value not in rule:
            raise BotSpecError(f"{bot}: {key} must be one of {', '.join(sorted(rule))}, not {value!r}")
        return
    assert isinstance(rule, tuple)
    kind, low, high = rule
    number = int(value) if isinstance(value, bool) else value
    if (not isinstance(number, (int, float)) or (kind is int and not isinstance(number, int))
            or not low <= number <= high):
        wanted = "a whole number" if kind is int else "a number"
        raise BotSpecError(f"{bot}: {key} must be {wanted} from {low:g} to {high:g}, not {value!r}")


@dataclass(frozen=True)
class Limits:
    """What a bot may spend on one move: a wall-clock deadline (``time.monotonic()``
    seconds), a depth and a node count; None means no limit."""

    deadline: float | None = None
    depth: int | None = None
    nodes: int | None = None

    @staticmethod
    def of(seconds: float | None = None, depth: int | None = None, nodes: int | None = None) -> Limits:
        """Limits starting now: ``seconds`` to think."""
        return Limits(None if seconds is None else time.monotonic() + seconds, depth, nodes)

    def remaining(self) -> float | None:
        """Seconds left before the deadline."""
        return None if self.deadline is None else self.deadline - time.monotonic()

    def tighter(self, other: Limits) -> Limits:
        """The stricter of two limits, field by field."""
        def pick(a: Any, b: Any) -> Any:
            return b if a is None else a if b is None else min(a, b)
        return Limits(pick(self.deadline, other.deadline), pick(self.depth, other.depth),
                      pick(self.nodes, other.nodes))


@dataclass
class Decision:
    """A bot's answer: the move, whether the search finished (False when a clock or node
    limit cut it short), and
    ``info``: depth, nodes, score, pv (moves), and ``bot`` (who answered, in a chain)."""

    move: Move
    done: bool = True
    info: dict[str, Any] = field(default_factory=dict)


#: Seconds a move a bot given no limit at all thinks (see :meth:`Bot.opening`).
DEFAULT_SECONDS = 1.0


class Bot:
    """Base of every bot: made for one game; ``choose`` picks a move for the side to move.

    A bot class declares the turn structures it can play: ``max_players`` (the most
    players a game may have; None for any number) and ``chance`` (whether chance may
    decide turns).  Every bot plays extra turns (a side moving again).  Made for a game
    outside them, a bot refuses at once (``ValueError`` naming the game, what the bot
    cannot do and the bots that can), instead of playing bad moves."""

    name = "bot"
    #: The options a spec may give this kind of bot, and their values (see :data:`Allowed`):
    #: any other option, or a value out of range, is refused when the bot is made.
    OPTIONS: ClassVar[dict[str, Allowed]] = {}
    max_players: int | None = 2
    chance: bool = False
    #: Whether it plays games with hidden information (``game.hidden_information``): from
    #: the observation alone, without searching the masked cells as if they were the
    #: truth (random, heuristic, determinize, ismcts).  The others refuse such games.
    hidden: bool = False
    #: Whether a refusal names this registered bot among those that can play a game (not
    #: a book, which answers only in its positions, nor a chain).
    suggested: bool = True

    def __init__(self, game: Game, **options: Any) -> None:
        self.game = game
        self.options = options
        if not self.plays(game):
            raise ValueError(self.refusal(game))
        for key, value in options.items():
            check_option(self.name, key, value, self.OPTIONS)

    @classmethod
    def plays(cls, game: Game) -> bool:
        """Whether this kind of bot can search ``game``'s turn structure."""
        return ((cls.max_players is None or game.players <= cls.max_players)
                and (cls.chance or not game.chance) and (cls.hidden or not game.hidden_information))

    @classmethod
    def refusal(cls, game: Game) -> str:
        """Why this kind of bot cannot play ``game``, and which bots can, e.g. "alphabeta
        searches two-player games without chance; for yonin (4 players) use maxn,
        paranoid or mcts"."""
        if cls.max_players is None:
            players = "games of any number of players"
        elif cls.max_players == 2:
            players = "two-player games"
        else:
            players = f"games of up to {cls.max_players} players"
        can = f"{players} {'with or without' if cls.chance else 'without'} chance"
        if game.hidden_information and not cls.hidden:
            can += " and without hidden information"
        has = ", ".join([f"{game.players} player{'s' if game.players != 1 else ''}"] + (["chance"] if game.chance else [])
                        + (["hidden information"] if game.hidden_information else []))
        from myriad.ai import BOTS  # (the registry of bots by name, above this module)
        me = next((name for name, kind in BOTS.items() if kind is cls), cls.__name__.lower())
        others = sorted(name for name, kind in BOTS.items()
                        if kind is not cls and kind.suggested and kind.plays(game))
        if not others:
            return f"{me} searches {can}, not {game.id} ({has})"
        names = others[0] if len(others) == 1 else f"{', '.join(others[:-1])} or {others[-1]}"
        return f"{me} searches {can}; for {game.id} ({has}) use {names}"

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        """The move to play in ``state`` (an observation: all the bot may see)."""
        raise NotImplementedError

    def reset(self) -> None:
        """Forget the context kept between moves (a new game starts)."""

    def limits(self, given: Limits) -> Limits:
        """``given`` tightened by the bot's own ``time``, ``depth`` and ``nodes`` options."""
        own = Limits.of(self.options.get("time"), self.options.get("depth"), self.options.get("nodes"))
        return given.tighter(own)

    def opening(self, state: State, limits: Limits, default_seconds: float | None = DEFAULT_SECONDS,
                bounded: bool = False) -> tuple[list[Move], Limits, Decision | None]:
        """The common start of ``choose``: the legal moves in ``state`` (none: ValueError),
        ``limits`` tightened by the bot's own options and, when neither they nor ``bounded``
        (a budget of the bot's own, e.g. playouts) bound the search, by ``default_seconds``;
        and the decision already made when only one move is legal (else None)."""
        moves = self.game.legal_moves(state)
        if not moves:
            raise ValueError(f"{self.game.id}: no legal move to choose from")
        limits = self.limits(limits)
        if (default_seconds is not None and not bounded and limits.deadline is None
                and limits.depth is None and limits.nodes is None):
            limits = limits.tighter(Limits.of(default_seconds))
        if len(moves) == 1:
            return moves, limits, Decision(moves[0], True, {"bot": self.name, "depth": 0, "nodes": 0})
        return moves, limits, None


#: Seconds the collection after the last search (of 0.1 s or more) took, per second of
#: that search (see :func:`gc_paused`): the share of its time a search keeps back for it.
_collection_share = [0.0]
#: The most of its time a search keeps back for the collection after it.
MAX_COLLECTION_SHARE = 0.2


def collection_reserve(remaining: float) -> float:
    """Seconds a search with ``remaining`` seconds on its clock keeps back for the
    collection after it: the share the last one took, at most :data:`MAX_COLLECTION_SHARE`."""
    return max(0.0, remaining) * min(_collection_share[0], MAX_COLLECTION_SHARE)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a search runs: a full collection over a
    large transposition table or tree can stall for longer than a move's time margin.

    Afterwards the collector runs once, and what survives (tables, trees: acyclic, freed
    by reference counting when dropped) is frozen out of the collector's sight, so that no
    later collection walks it.  Garbage must never be frozen: frozen objects are never
    collected (freezing the cycles draughts' capture generator left kept 14 million
    objects, 1.7 GB, alive after 300 moves of international draughts; an exception's
    traceback, a caller's garbage can hold cycles too).  As everything older was frozen
    after the previous search, that collection walks only what was made since: the
    search's new table entries and a game's refilled caches, from under 1% of a
    half-second search (chess, draughts) to 10-20% (gomoku, Connect Four, whose caches of
    board tallies turn over fast).  A search keeps back that share of its time
    (:func:`collection_reserve`)."""
    was_enabled = gc.isenabled()
    gc.disable()
    start = time.monotonic()
    try:
        yield
    finally:
        searched = time.monotonic() - start
        gc.collect()
        if searched > 0.1:  # (a share of a shorter search says little)
            _collection_share[0] = (time.monotonic() - start - searched) / searched
        gc.freeze()
        if was_enabled:
            gc.enable()


#: The longest spec read, the most links of a chain: a spec is short text, never a program.
MAX_SPEC_LENGTH = 400
MAX_LINKS = 8
NUMBER = re.compile(r"-?[0-9]{1,12}(\.[0-9]{1,12})?")
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"alphabeta:algo=mtdf,time=1"`` -> ``("alphabeta", {"algo": "mtdf", "time": 1.0})``.

    Values are read as int (``12``), then float (``0.5``), in ASCII digits of bounded length,
    else kept as text; a bare word is ``True``.  ``chain:book,alphabeta,random`` keeps its
    links as a list under ``links``; a ``key=value`` item after a link belongs to it
    (``chain:alphabeta:algo=pvs,time=1,random``).  A chain's links are not chains, a chain
    has at most :data:`MAX_LINKS` links and a spec at most :data:`MAX_SPEC_LENGTH` characters:
    anything else raises :class:`BotSpecError`.
    """
    if not isinstance(spec, str):
        raise BotSpecError(f"a bot spec is text, not {type(spec).__name__}")
    if len(spec) > MAX_SPEC_LENGTH:
        raise BotSpecError(f"bot spec too long ({len(spec)} characters, at most {MAX_SPEC_LENGTH})")
    name, _, rest = spec.strip().partition(":")
    if not WORD.fullmatch(name):
        raise BotSpecError(f"bad bot spec {spec!r}: expected NAME or NAME:key=value,...")
    if name != "chain":
        return name, _options(rest, spec)
    links: list[str] = []
    for item in (s.strip() for s in rest.split(",")):
        if "=" in item and ":" not in item and links:
            links[-1] += ("," if ":" in links[-1] else ":") + item
        elif item:
            links.append(item)
    if not links:
        raise BotSpecError(f"bad bot spec {spec!r}: a chain needs links, e.g. chain:book,alphabeta,random")
    if len(links) > MAX_LINKS:
        raise BotSpecError(f"bad bot spec {spec!r}: a chain has at most {MAX_LINKS} links, not {len(links)}")
    for link in links:
        if parse_spec(link)[0] == "chain":
            raise BotSpecError(f"bad bot spec {spec!r}: a chain's link cannot be a chain")
    return name, {"links": links}


def _options(text: str, spec: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        key, eq, value = item.partition("=")
        if not WORD.fullmatch(key):
            raise BotSpecError(f"bad bot option {item!r} in {spec!r}")
        if key in options:
            raise BotSpecError(f"bot option {key!r} given twice in {spec!r}")
        options[key] = _value(value) if eq else True
    return options


def _value(text: str) -> Any:
    """An option's value: int, float (ASCII digits only, bounded), else the text."""
    if NUMBER.fullmatch(text):
        return float(text) if "." in text else int(text)
    return text
