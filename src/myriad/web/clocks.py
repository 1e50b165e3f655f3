"""Time controls and the clocks the server keeps for people.

A :class:`TimeControl` is chosen when a game is created: none, a Fischer increment (a base
time and seconds added after each move: ``5+3`` is five minutes plus three seconds a move)
or byo-yomi (a main time, then ``periods`` periods of ``period`` seconds: a move made within
a period keeps it, a period run out is lost, the last one lost loses the game).

A :class:`Clocks` holds each player's main time and periods left, and whose clock runs since
when.  Times are read from an injectable source (``time.monotonic`` on the server, a fake in
tests), and every method takes ``now`` explicitly, so the arithmetic is exact and testable.
The page only shows these numbers ticking down: the server alone decides a flag fall.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from myriad.core.errors import MyriadError

#: The longest main time (3 hours), increment, period and number of periods a game may have.
MAX_BASE = 3 * 3600.0
MAX_INCREMENT = 180.0
MAX_PERIOD = 600.0
MAX_PERIODS = 30
KINDS = ("fischer", "byoyomi")


class TimeControlError(MyriadError):
    """A time control that cannot be used (bad kind, field, value or range)."""


def _seconds(kind: str, name: str, value: Any, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not low <= value <= high:
        raise TimeControlError(f"clock: {kind} {name} must be a number of seconds from {low:g} to {high:g}, "
                               f"not {value!r}")
    return float(value)


@dataclass(frozen=True)
class TimeControl:
    """How much time each player has: ``base`` seconds, plus ``increment`` seconds after
    each move (Fischer), or then ``periods`` periods of ``period`` seconds (byo-yomi)."""

    kind: str
    base: float
    increment: float = 0.0
    periods: int = 0
    period: float = 0.0

    @staticmethod
    def parse(data: Any) -> TimeControl | None:
        """A time control from a request's JSON: None or ``{"kind": "none"}`` for none,
        ``{"kind": "fischer", "base": 300, "increment": 3}``, or ``{"kind": "byoyomi",
        "base": 600, "periods": 5, "period": 30}`` (seconds); raises
        :class:`TimeControlError` naming the field that is wrong."""
        if data is None:
            return None
        if not isinstance(data, dict):
            raise TimeControlError(f"clock must be an object such as {{\"kind\": \"fischer\", \"base\": 300, "
                                   f"\"increment\": 3}}, not {str(data)[:40]!r}")
        kind = data.get("kind")
        if kind == "none":
            if set(data) != {"kind"}:
                raise TimeControlError("clock: kind 'none' takes no other field")
            return None
        if kind not in KINDS:
            raise TimeControlError(f"clock: kind must be 'none', 'fischer' or 'byoyomi', not {str(kind)[:40]!r}")
        allowed = {"kind", "base", "increment"} if kind == "fischer" else {"kind", "base", "periods", "period"}
        unknown = sorted(str(k)[:40] for k in set(data) - allowed)
        if unknown:
            raise TimeControlError(f"clock: {kind} has no field {', '.join(map(repr, unknown))}; "
                                   f"its fields: {', '.join(sorted(allowed))}")
        if "base" not in data:
            raise TimeControlError(f"clock: {kind} needs 'base', the main time in seconds")
        if kind == "fischer":
            base = _seconds(kind, "base", data["base"], 1, MAX_BASE)
            return TimeControl(kind, base, _seconds(kind, "increment", data.get("increment", 0), 0, MAX_INCREMENT))
        base = _seconds(kind, "base", data["base"], 0, MAX_BASE)
        periods = data.get("periods", 1)
        if isinstance(periods, bool) or not isinstance(periods, int) or not 1 <= periods <= MAX_PERIODS:
            raise TimeControlError(f"clock: byoyomi periods must be a whole number from 1 to {MAX_PERIODS}, "
                                   f"not {periods!r}")
        if "period" not in data:
            raise TimeControlError("clock: byoyomi needs 'period', the seconds of each period")
        return TimeControl(kind, base, periods=periods, period=_seconds(kind, "period", data["period"], 1, MAX_PERIOD))

    def to_json(self) -> dict[str, Any]:
        """The fields :meth:`parse` reads, and a ``label``."""
        fields: dict[str, Any] = {"kind": self.kind, "base": self.base}
        if self.kind == "fischer":
            fields["increment"] = self.increment
        else:
            fields.update(periods=self.periods, period=self.period)
        return {**fields, "label": self.label}

    @property
    def label(self) -> str:
        """``5+3`` (minutes + seconds), ``10 min + 5×30 s`` (byo-yomi)."""
        if self.kind == "fischer":
            return f"{_minutes(self.base)}+{self.increment:g}"
        return f"{_minutes(self.base)} min + {self.periods}×{self.period:g} s"

    @property
    def pgn(self) -> str:
        """The PGN ``TimeControl`` tag: ``300+3``; byo-yomi as ``600`` and its periods."""
        if self.kind == "fischer":
            return f"{self.base:g}+{self.increment:g}"
        return f"{self.base:g}+{self.periods}x{self.period:g}"


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:g}"


@dataclass
class Clocks:
    """Each player's clock under a time control.  ``main[p]`` is what is left of player
    ``p``'s main time when its clock last stopped (in byo-yomi it is 0 once spent);
    ``periods[p]`` its byo-yomi periods left; ``running`` the player whose clock runs
    (None: none does) and ``since`` when it started."""

    control: TimeControl
    main: list[float]
    periods: list[int]
    running: int | None = None
    since: float = 0.0

    @staticmethod
    def new(control: TimeControl, players: int) -> Clocks:
        """Full clocks, none running."""
        return Clocks(control, [control.base] * players, [control.periods] * players)

    def budget(self, player: int) -> float:
        """Seconds ``player`` may spend on the move from when its clock started: main time
        plus every period left."""
        return self.main[player] + self.periods[player] * self.control.period

    def elapsed(self, now: float) -> float:
        """Seconds the running clock has run (0 when none runs)."""
        return max(0.0, now - self.since) if self.running is not None else 0.0

    def flag_at(self) -> float | None:
        """When the running player's time runs out (None: no clock runs)."""
        if self.running is None:
            return None
        return self.since + self.budget(self.running)

    def flagged(self, now: float) -> int | None:
        """The player whose time has run out at ``now``, or None."""
        at = self.flag_at()
        return self.running if at is not None and now >= at else None

    def start(self, player: int | None, now: float) -> None:
        """Run ``player``'s clock from ``now`` (None: stop every clock without charging)."""
        self.running, self.since = player, now

    def charge(self, now: float, increment: bool = True) -> None:
        """The running player moved at ``now`` (within its time): take the time spent off its
        clock, add the increment (unless ``increment`` is False: the game ended without a
        move) or keep the period it moved in, and stop the clock."""
        player = self.running
        if player is None:
            return
        spent = self.elapsed(now)
        if self.control.kind == "fischer":
            self.main[player] = self.main[player] - spent + (self.control.increment if increment else 0.0)
        else:
            over = spent - self.main[player]
            if over > 0:
                self.main[player] = 0.0
                self.periods[player] -= int(over // self.control.period)
                self.periods[player] = max(self.periods[player], 1)
            else:
                self.main[player] -= spent
        self.running = None

    def shown(self, now: float) -> dict[str, Any]:
        """What the page shows: each player's main time and periods left at ``now`` (the
        running player's main time goes below zero into its periods: the page counts
        down the same way), and whose clock runs."""
        main = list(self.main)
        if self.running is not None:
            main[self.running] -= self.elapsed(now)
        return {"control": self.control.to_json(), "main": [round(m, 3) for m in main],
                "periods": list(self.periods), "running": self.running}

    # -- storing ----------------------------------------------------------------------------

    def to_json(self, wall_now: float, now: float) -> dict[str, Any]:
        """The clocks for the store: the running clock's start as a wall-clock time
        (``wall_now`` is the wall clock at the monotonic ``now``), so another process can
        take it up after a restart."""
        return {"control": self.control.to_json(), "main": self.main, "periods": self.periods,
                "running": self.running, "started": wall_now - self.elapsed(now) if self.running is not None else None}

    @staticmethod
    def from_json(data: Any, players: int, wall_now: float, now: float) -> Clocks:
        """Clocks read back from the store: the running clock has run since its stored
        wall-clock start (a server restart stops no clock, as a clock on the table does
        not stop when the arbiter leaves the room).  Raises :class:`TimeControlError`."""
        if not isinstance(data, dict):
            raise TimeControlError("stored clocks are not an object")
        control_data = data.get("control")
        if not isinstance(control_data, dict):
            raise TimeControlError("stored clocks have no time control")
        control_data = {k: v for k, v in control_data.items() if k != "label"}
        control = TimeControl.parse(control_data)
        main, periods, running, started = (data.get("main"), data.get("periods"), data.get("running"),
                                           data.get("started"))
        if control is None or not isinstance(main, list) or not isinstance(periods, list) \
                or len(main) != players or len(periods) != players \
                or not all(isinstance(m, (int, float)) and not isinstance(m, bool) for m in main) \
                or not all(isinstance(p, int) and not isinstance(p, bool) for p in periods) \
                or not (running is None or (isinstance(running, int) and 0 <= running < players
                                            and isinstance(started, (int, float)))):
            raise TimeControlError("stored clocks do not read back")
        clocks = Clocks(control, [float(m) for m in main], list(periods))
        if running is not None and isinstance(started, (int, float)):
            clocks.start(running, now - max(0.0, wall_now - float(started)))
        return clocks
