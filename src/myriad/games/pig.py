"""Pig, the dice game of pushing one's luck (two players by default, race to 100).

Rules as in Neller and Presser, "Optimal Play of the Dice Game Pig", The UMAP Journal 25(1),
2004, and in Scarne's and Knizia's books on dice games:

Equipment: one six-sided die; a score per player, starting at 0.
Play: on a turn the player rolls the die, again and again as they like, adding each roll to
a turn total, until either
* a 1 is rolled: the turn total is lost and the turn passes, or
* the player holds: the turn total is added to their score and the turn passes.
A turn always starts with a roll (holding a total of 0 is no move).
End: the first player whose score reaches the target (100) wins.  A turn total that
brings the score to the target is banked at once: rolling on could only lose it, so the
game ends the moment a player reaches the target (as every analysis of Pig assumes).

Turns here are moves of the model: ``roll`` hands the move to chance (the die, see
:class:`~myriad.core.mechanics.dice.PushYourLuck`), whose moves are the faces ``1`` to
``6``; after a roll of 2-6 the same player moves again.  ``hold`` banks the total.

Position text: ``<scores> <turn total> <die> <side>``, e.g. ``0,0 0 - 1`` (the start) or
``12,30 8 4 2`` (scores 12 and 30, the second player has 8 on this turn, the die shows 4):
the scores in player order, the turn total of the player whose turn it is, the face the
die last showed (``-`` before the first roll) and that player's number, followed by ``?``
while the die is rolling for them (chance to move).
"""

from __future__ import annotations

from collections.abc import Sequence

from myriad.core.errors import GameDefinitionError, InvalidMoveError, PositionError
from myriad.core.game import Game, Next, Outcome
from myriad.core.mechanics.dice import Die, PushYourLuck
from myriad.core.move import Move
from myriad.core.numbers import read_int, shortened
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.state import State
from myriad.core.topology import Topology

PLAYER_NAMES = ("first", "second", "third", "fourth")
ROLL, HOLD = "roll", "hold"


def score_track(players: Sequence[str]) -> Topology:
    """The equipment as positions: a score cell per player, the turn total and the die, in
    a row (no links: nothing moves between them)."""
    names = (*players, "turn", "die")
    coords = tuple((float(i), 0.0) for i in range(len(names)))
    return Topology(names, coords, (), (), tuple(() for _ in players), width=0, height=0)


class Pig(Game):
    """Pig to ``target`` points for ``players`` players."""

    family = "dice"
    chance = True
    quiescence = False  # no captures: every roll is a gamble, none is quieter

    def __init__(self, target: int = 100, players: int = 2) -> None:
        if not 2 <= target <= 1000:
            raise GameDefinitionError(f"pig: the target must be 2 to 1000, not {target!r}")
        if not 2 <= players <= len(PLAYER_NAMES):
            raise GameDefinitionError(f"pig: 2 to {len(PLAYER_NAMES)} players, not {players!r}")
        self.player_names = PLAYER_NAMES[:players]
        self.target = target
        self.id = "pig" if target == 100 else f"pig{target}"
        self.name = "Pig" if target == 100 else f"Pig to {target}"
        self.rules = (f"On your turn roll the die as often as you like, adding each roll to your turn "
                      f"total; hold to add the total to your score. Rolling a 1 loses the turn total "
                      f"and ends the turn. The first to reach {target} points wins.")
        # -- equipment: a score track and a die
        topology = score_track(self.player_names)
        scores = tuple(range(players))
        self.turn_cell, self.die_cell = players, players + 1
        self.turns = PushYourLuck(scores, self.turn_cell, self.die_cell, Die(6), bust=(1,), target=target)
        pieces = PieceSet([PieceKind("point", "p", letters=tuple("ABCD"[:players]))], players)
        # -- start: no points, the first player rolls
        start = f"{','.join('0' * players)} 0 - 1"
        super().__init__(topology, pieces, {"start": start}, cell_values=self.turns.max_count + 1)

    # -- play -----------------------------------------------------------------------------

    def player_of(self, state: State) -> int:
        """The player whose turn it is (also while the die rolls for them)."""
        return state.flags[0]

    def legal_moves(self, state: State) -> list[Move]:
        """For the player: ``roll``, and ``hold`` once the turn total is not 0; for chance:
        the six faces of the die; none once a player has reached the target."""
        cells = state.cells
        if self.turns.winner(cells) is not None:
            return []
        player = state.flags[0]
        if state.to_move == self.chance_player:
            return [move for _face, move in self.turns.rolls(cells, player)]
        hold = self.turns.hold(cells, player)
        return [Move()] if hold is None else [Move(), hold]

    def after_move(self, state: State, move: Move, cells: list[int]) -> Next:
        """A roll hands the move to the die; a face of 2-6 hands it back to the roller, a 1
        (or a total banked at the target) to the next player, as does a hold."""
        player = state.flags[0]
        if state.to_move == self.chance_player:
            again = not self.turns.turn_ends(cells)
        elif not move:
            return Next(self.chance_player, state.flags, state.counters, state.hands, True)
        else:
            again = False
        nxt = player if again else (player + 1) % self.players
        return Next(nxt, (nxt,), state.counters, state.hands, True)

    def outcome(self, state: State) -> Outcome | None:
        """Over when a player's score reaches the target."""
        winner = self.turns.winner(state.cells)
        if winner is None:
            return None
        scores = "-".join(str(state.cells[p]) for p in range(self.players))
        return Outcome.win(winner, f"{self.player_names[winner]} reached {self.target} ({scores})", self.players)

    # -- knowledge for bots ------------------------------------------------------------------

    def points(self, state: State) -> list[int]:
        """Each player's score, with the turn total counted for the player whose turn it is."""
        cells = state.cells
        points = [cells[p] for p in range(self.players)]
        points[state.flags[0]] += cells[self.turn_cell]
        return points

    def evaluate_for(self, state: State, player: int) -> float:
        """``player``'s points (the turn total counted, at risk as it is) less the best of
        the others'."""
        points = self.points(state)
        return points[player] - max(p for q, p in enumerate(points) if q != player)

    def evaluate(self, state: State) -> float:
        """:meth:`evaluate_for` the player whose turn it is."""
        return self.evaluate_for(state, state.flags[0])

    # -- notation -------------------------------------------------------------------------

    def format_move(self, state: State, move: Move) -> str:
        """``roll`` or ``hold`` for a player; the face (``1`` to ``6``) for the die."""
        if state.to_move == self.chance_player:
            return str(self.turns.face_of(move))
        return HOLD if move else ROLL

    def check_move_syntax(self, text: str) -> None:
        if text not in (ROLL, HOLD) and text not in {str(f) for f in self.turns.die.faces}:
            raise InvalidMoveError(f"{self.id}: {shortened(text)} is not a move: 'roll', 'hold', "
                                   f"or a face of the die 1-{self.turns.die.sides}")

    def format_position(self, state: State) -> str:
        cells = state.cells
        scores = ",".join(str(cells[p]) for p in range(self.players))
        die = str(cells[self.die_cell]) if cells[self.die_cell] else "-"
        side = f"{state.flags[0] + 1}{'?' if state.to_move == self.chance_player else ''}"
        return f"{scores} {cells[self.turn_cell]} {die} {side}"

    def parse_position(self, text: str) -> State:
        """Read ``<scores> <turn total> <die> <side>[?]``; refuses counts no game reaches."""
        fields = text.split()
        if len(fields) != 4:
            raise PositionError(f"{self.id}: expected '<scores> <turn total> <die> <side>' like "
                                f"{self.setups['start']!r}, got {shortened(text)}")
        scores_text, turn_text, die_text, side_text = fields
        parts = scores_text.split(",")
        if len(parts) != self.players:
            raise PositionError(f"{self.id}: {len(parts)} scores in {shortened(scores_text)}, "
                                f"expected {self.players} separated by ','")
        limit = self.turns.max_count
        scores = [read_int(s, f"{self.id}: score of {name}", high=limit, error=PositionError)
                  for s, name in zip(parts, self.player_names)]
        total = read_int(turn_text, f"{self.id}: turn total", high=self.target - 1, error=PositionError)
        die = 0 if die_text == "-" else read_int(die_text, f"{self.id}: die", low=1, high=self.turns.die.sides,
                                                 error=PositionError)
        rolling = side_text.endswith("?")
        player = read_int(side_text.removesuffix("?"), f"{self.id}: side", low=1, high=self.players,
                          error=PositionError) - 1
        self.check_reachable(scores, total, die, player, rolling)
        cells = [*scores, total, die]
        return self.make_state(cells, self.chance_player if rolling else player, (player,))

    def check_reachable(self, scores: Sequence[int], total: int, die: int, player: int, rolling: bool) -> None:
        """Raise ``PositionError`` for counts no game of Pig reaches."""
        winners = [p for p, s in enumerate(scores) if s >= self.target]
        if len(winners) > 1:
            raise PositionError(f"{self.id}: {len(winners)} players at the target {self.target}; the game "
                                f"ends when the first gets there")
        if winners and (total or rolling):
            raise PositionError(f"{self.id}: the game is over ({self.player_names[winners[0]]} reached "
                                f"{self.target}): no turn total or roll can follow")
        if not winners and scores[player] + total >= self.target:
            raise PositionError(f"{self.id}: a turn total of {total} brings {self.player_names[player]} to "
                                f"{self.target}: it would have been banked")
        if total and (not die or die in self.turns.bust or total < die):
            raise PositionError(f"{self.id}: a turn total of {total} cannot follow a die showing "
                                f"{die or 'nothing'} (the total is the sum of this turn's rolls of 2-6)")

    # -- drawing --------------------------------------------------------------------------

    def render(self, state: State) -> str:
        """A line per player (score out of the target, the turn total beside the player whose
        turn it is), then the die (and whether it is rolling)."""
        cells, player = state.cells, state.flags[0]
        width = max(len(n) for n in self.player_names)
        lines = []
        for p, name in enumerate(self.player_names):
            mark = ">" if p == player else " "
            turn = f"   turn total {cells[self.turn_cell]}" if p == player else ""
            lines.append(f"{mark} {name:<{width}} {cells[p]:>4} / {self.target}{turn}")
        die = cells[self.die_cell]
        rolling = "   (rolling)" if state.to_move == self.chance_player else ""
        lines.append(f"  die: {die if die else '-'}{rolling}")
        return "\n".join(lines)


def pig(target: int = 100, players: int = 2) -> Pig:
    """Pig to ``target`` points (100 in the rule book; 20 is small enough to search exactly)."""
    return Pig(target, players)
