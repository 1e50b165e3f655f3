"""Threat-space search: a forced win by continuous threats, generic over games.

The attacker plays only moves that threaten to win (:meth:`Game.threat_moves`), the
defender answers only with the moves that may stop the threat
(:meth:`Game.threat_answers`, a superset of the real defences).  A win found so is a win
in the game; finding none proves nothing.  Because both sides have so few moves, such a
search sees wins many times deeper than a full-width search of the same cost (Allis's
threat-space search, Thomsen's lambda search; in gomoku: victory by continuous fours, and
by fours and threes).

Turns are the game's business: after a threat the attacker may move again (it goes on
attacking), and after an answer the defender may (it answers again); a proof never assumes
that the sides alternate.
"""

from __future__ import annotations

import time

from myriad.ai.bot import SearchTimeout
from myriad.core.caches import MB, ByteBudget
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State

#: Bytes of the table (proved wins and the depth to which a search failed) when not given,
#: and of one entry until some are measured (about 200 in gomoku).
TABLE_BYTES = 16 * MB
ENTRY_GUESS = 256
#: Positions of a proof walked at most by :meth:`ThreatSearch.proof`.
PROOF_WALK = 400


class ThreatSearch:
    """Proves wins by threats for the side to move; one table per search object, of at
    most ``table_bytes`` (the oldest entries go first)."""

    def __init__(self, game: Game, table_bytes: int = TABLE_BYTES) -> None:
        self.game = game
        #: (position key, wide) -> (winning move or None, deepest failed search).
        self.table: dict[tuple[int, bool], tuple[Move | None, int]] = {}
        self.budget = ByteBudget(table_bytes, ENTRY_GUESS)
        self.nodes = 0
        self._deadline: float | None = None
        self._node_limit = 0
        self._wide = False

    def winning_move(self, state: State, depth: int, *, wide: bool = False,
                     deadline: float | None = None, nodes: int | None = None) -> Move | None:
        """The first move of a win for the side to move in at most ``depth`` moves of its
        own, each a threat (with ``wide``, threats to threaten count too), or None when
        there is none that deep.  Iterative deepening: the shortest win is found first.
        Raises :class:`SearchTimeout` when the ``deadline`` (``time.monotonic()``) or
        ``nodes`` positions run out first."""
        self._deadline, self._wide = deadline, wide
        self._node_limit = self.nodes + nodes if nodes is not None else -1
        for d in range(1, depth + 1):
            move = self._attack(state, d)
            if move is not None:
                return move
        return None

    def proof(self, state: State) -> tuple[list[Move], list[Move]]:
        """The win last proved from ``state`` (by continuous fours if one was found, else
        with threes) as the table holds it (up to ``PROOF_WALK`` positions): the attacker's
        moves against every answer, and the defender's answers; ([], []) when no win from
        ``state`` is known.  A defence has to spoil one of its threats, so these are the
        places to look for one."""
        game = self.game
        for wide in (False, True):
            entry = self.table.get((state.key, wide))
            if entry is None or entry[0] is None:
                continue
            attacks: list[Move] = []
            answers: list[Move] = []
            stack, seen = [state], set[int]()
            while stack and len(seen) < PROOF_WALK:
                position = stack.pop()
                entry = self.table.get((position.key, wide))
                if position.key in seen or entry is None or entry[0] is None:
                    continue
                seen.add(position.key)
                attacks.append(entry[0])
                attacker = position.to_move
                defending = [game.play(position, entry[0])]
                while defending:  # the defender's turns, however many moves they take
                    threat = defending.pop()
                    if game.outcome(threat) is not None:
                        continue
                    if threat.to_move == attacker:
                        stack.append(threat)
                        continue
                    replies = game.threat_answers(threat) or []
                    answers.extend(replies)
                    defending.extend(game.play(threat, answer) for answer in replies)
            return attacks, answers
        return [], []

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes == self._node_limit or (self._deadline is not None and time.monotonic() >= self._deadline):
            raise SearchTimeout

    def _attack(self, state: State, depth: int) -> Move | None:
        """A threat of the side to move that wins against every answer, or None."""
        self._tick()
        game = self.game
        if depth <= 0 or game.outcome(state) is not None:
            return None
        key = (state.key, self._wide)
        entry = self.table.get(key)
        if entry is not None and (entry[0] is not None or entry[1] >= depth):
            return entry[0]
        attacker = state.to_move
        for move in game.threat_moves(state, self._wide):
            if self._defence_fails(game.play(state, move), attacker, depth - 1):
                self._keep(key, (move, depth))
                return move
        self._keep(key, (None, max(depth, entry[1]) if entry is not None else depth))
        return None

    def _keep(self, key: tuple[int, bool], entry: tuple[Move | None, int]) -> None:
        if key not in self.table:
            self.budget.make_room(self.table)
        self.table[key] = entry

    def _defence_fails(self, state: State, attacker: int, depth: int) -> bool:
        """Whether every answer of the defender to the threat just made loses (when the
        attacker moves again instead, whether it wins by threats from here)."""
        game = self.game
        outcome = game.outcome(state)
        if outcome is not None:
            return outcome.winner == attacker
        if state.to_move == attacker:
            return self._attack(state, depth) is not None
        answers = game.threat_answers(state)
        if answers is None:
            return False
        for move in answers:
            after = game.play(state, move)
            if after.to_move == attacker:
                if self._attack(after, depth) is None:
                    return False
            elif not self._defence_fails(after, attacker, depth):  # the defender moves again
                return False
        return True
