"""Dice and push-your-luck turns: roll on to add to a turn total, or bank it.

* :class:`Die`          a fair die with ``sides`` faces, numbered from 1;
* :class:`PushYourLuck` the turn of the Pig family of games: the player either rolls (the
  die decides, as a chance move) or holds, banking the turn total onto their score; a
  "bust" face loses the turn total and ends the turn, any other face adds to it.  A turn
  total that brings the score to the ``target`` is banked at once (rolling on could only
  lose it), so a game of this kind ends the moment a player reaches the target.

The mechanic works on counts held in cells: one score cell per player, the turn total and
the face the die last showed (0 before the first roll).  Moves are SET actions on those
cells, so the state's key covers every score, the turn total and the die.
"""

from __future__ import annotations

from collections.abc import Sequence

from myriad.core.errors import GameDefinitionError
from myriad.core.move import SET, Action, Move


class Die:
    """A fair die: faces 1 to ``sides``, each with probability ``1 / sides``."""

    def __init__(self, sides: int = 6) -> None:
        if not 2 <= sides <= 100:
            raise GameDefinitionError(f"a die needs 2 to 100 sides, not {sides}")
        self.sides = sides
        self.faces: tuple[int, ...] = tuple(range(1, sides + 1))

    def probability(self, face: int) -> float:
        """The chance of rolling ``face`` (0 for a face the die does not have)."""
        return 1.0 / self.sides if face in self.faces else 0.0


class PushYourLuck:
    """Roll-or-hold turns over count cells: ``scores[p]`` (player ``p``'s banked score),
    ``turn`` (the turn total) and ``die`` (the face last rolled).

    ``bust`` are the faces that lose the turn total and end the turn; ``target`` is the
    score that wins.  A cell holds at most :attr:`max_count`.
    """

    def __init__(self, scores: Sequence[int], turn: int, die_cell: int, die: Die, *,
                 bust: Sequence[int] = (1,), target: int) -> None:
        if target < 1:
            raise GameDefinitionError(f"push your luck: the target must be positive, not {target}")
        if not set(bust) <= set(die.faces) or len(set(bust)) == die.sides:
            raise GameDefinitionError(f"push your luck: bust faces {tuple(bust)} must be some, not all, "
                                      f"of the die's faces 1-{die.sides}")
        self.scores = tuple(scores)
        self.turn = turn
        self.die_cell = die_cell
        self.die = die
        self.bust = frozenset(bust)
        self.target = target
        #: The largest count a cell can hold: a score just short of the target plus the
        #: largest face (the turn total and the die stay below it).
        self.max_count = target - 1 + die.sides

    def hold(self, cells: Sequence[int], player: int) -> Move | None:
        """Banking the turn total onto ``player``'s score; None when the total is 0 (a
        turn starts with a roll)."""
        total = cells[self.turn]
        if not total:
            return None
        score = self.scores[player]
        return Move((Action(SET, score, score, cells[score] + total), Action(SET, self.turn, self.turn, 0)))

    def rolls(self, cells: Sequence[int], player: int) -> list[tuple[int, Move]]:
        """Each face of the die with its move for ``player``: the die shows it, and the turn
        total is lost (a bust), grows, or is banked when it reaches the target."""
        score, turn, die = self.scores[player], self.turn, self.die_cell
        banked, total = cells[score], cells[turn]
        out = []
        for face in self.die.faces:
            shows = Action(SET, die, die, face)
            if face in self.bust:
                move = Move((Action(SET, turn, turn, 0), shows))
            elif banked + total + face >= self.target:
                move = Move((Action(SET, score, score, banked + total + face), Action(SET, turn, turn, 0), shows))
            else:
                move = Move((Action(SET, turn, turn, total + face), shows))
            out.append((face, move))
        return out

    def face_of(self, move: Move) -> int:
        """The face a roll's move shows (see :meth:`rolls`)."""
        for kind, _frm, to, value, _part in move:
            if kind == SET and to == self.die_cell:
                return value
        raise GameDefinitionError(f"push your luck: {move!r} is not a roll of the die")

    def turn_ends(self, cells: Sequence[int]) -> bool:
        """After a roll (``cells`` updated), whether the turn is over: the total is 0 after
        a bust or once it was banked at the target."""
        return cells[self.turn] == 0

    def winner(self, cells: Sequence[int]) -> int | None:
        """The player whose score reached the target, or None."""
        for player, score in enumerate(self.scores):
            if cells[score] >= self.target:
                return player
        return None
