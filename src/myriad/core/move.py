"""Moves: atomic, ordered lists of actions.

An action is ``(kind, frm, to, piece, part)``:

* ``MOVE``    a piece goes from ``frm`` to ``to``; ``piece`` is what stands on ``to`` after
  (the same piece, or its promoted form);
* ``CAPTURE`` the piece ``piece`` on ``frm`` (== ``to``) is removed;
* ``DROP``    ``piece`` appears on the empty cell ``to`` (placements, drops from hand);
* ``SET``     cell ``to`` becomes ``piece`` whatever it held (flips, seed counts).

``part`` numbers the steps of a multi-part move (each jump of a draughts capture).  A move
with no actions is a pass.
"""

from __future__ import annotations

from typing import NamedTuple

MOVE, CAPTURE, DROP, SET = 0, 1, 2, 3
ACTION_NAMES = ("move", "capture", "drop", "set")


class Action(NamedTuple):
    """One step of a move."""

    kind: int
    frm: int
    to: int
    piece: int
    part: int = 0


class Move(tuple):  # type: ignore[type-arg]
    """An immutable tuple of :class:`Action` (plain 5-tuples compare equal to them);
    equal moves have equal actions.  ``Move()`` is a pass."""

    __slots__ = ()

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions, in order."""
        return tuple(self)

    @property
    def is_pass(self) -> bool:
        """True for the empty move."""
        return not self

    @property
    def frm(self) -> int:
        """Where the (first) moving piece starts, or the placed cell; -1 for a pass."""
        for a in self:
            if a[0] == MOVE:
                return a[1]
        for a in self:
            if a[0] in (DROP, SET):
                return a[2]
        return -1

    @property
    def to(self) -> int:
        """Where the moving piece ends, or the placed cell; -1 for a pass."""
        last = -1
        for a in self:
            if a[0] == MOVE:
                last = a[2]
        if last == -1:
            for a in self:
                if a[0] in (DROP, SET):
                    return a[2]
        return last

    @property
    def path(self) -> tuple[int, ...]:
        """The squares the moving piece visits: start, then each landing square."""
        steps = [a for a in self if a[0] == MOVE]
        if not steps:
            return (self.to,) if self else ()
        return (steps[0][1],) + tuple(a[2] for a in steps)

    @property
    def captures(self) -> tuple[int, ...]:
        """Positions of captured pieces, in order."""
        return tuple(a[1] for a in self if a[0] == CAPTURE)

    def __repr__(self) -> str:
        return "Move(" + ", ".join(
            f"{ACTION_NAMES[a[0]]} {a[1]}->{a[2]} [{a[3]}]#{a[4]}" for a in self) + ")"


PASS = Move()


class NamedMove(Move):
    """A move with its notation in the position it was listed for
    (:meth:`myriad.core.game.Game.named_moves`): its repr is ``<Move Nf3>``, ``text`` the
    notation.  It equals and hashes as the plain move (``move in game.legal_moves(state)``,
    ``game.play(state, move)`` alike); search lists plain moves, so they cost nothing."""

    text: str

    def __new__(cls, actions: Move, text: str) -> NamedMove:
        move = super().__new__(cls, actions)
        move.text = text
        return move

    def __repr__(self) -> str:
        return f"<Move {self.text}>"

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[object, ...]:
        return (NamedMove, (Move(self), self.text))

