"""Threat-space search: a forced win by continuous threats, generic over games.

The attacker plays only moves that threaten to win (:meth:`Game.threat_moves`), the
defender answers only with the moves that may stop the threat
(:meth:`Game.threat_answers`, a superset of the real defences).  A win found so is a win
in the game; finding none proves nothing.  Because both sides have so few moves, such a
search sees wins many times deeper than a full-width search of the same cost (Allis's
threat-space search, Thomsen's lambda search; in gomoku: victory by continuous fours, and
by fours and threes).

Searches deeper than ``FREE_DEPTH`` threats look, after the first threat, only at threats
that build on a stone the attacker has played in the sequence (in the union of their
:meth:`Game.threat_zone`), as in Allis's dependency-based search.  Wins that combine two
unrelated threats are lost; a search that finds nothing costs a few times less, so within
the same time it goes deeper and finds more.
"""

from __future__ import annotations

import time

from myriad.ai.bot import SearchTimeout
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State

#: Positions kept in the table (proved wins and the depth to which a search failed).
TABLE_SIZE = 1 << 16
#: Positions of a proof walked at most by :meth:`ThreatSearch.proof`.
PROOF_WALK = 400
#: The deepest search (in threats) that looks at every threat after the first.
FREE_DEPTH = 2
#: A zone holding every position.
EVERYWHERE = -1


class ThreatSearch:
    """Proves wins by threats for the side to move; one table per search object."""

    def __init__(self, game: Game) -> None:
        self.game = game
        #: (position key, wide) -> (winning move, depth) for the wins proved, and (position
        #: key, wide, zone) -> (None, deepest failed search) for the searches that failed.
        self.table: dict[tuple[int, ...], tuple[Move | None, int]] = {}
        self.nodes = 0
        self._deadline: float | None = None
        self._node_limit = 0
        self._wide = False
        self._zoned = False

    def winning_move(self, state: State, depth: int, *, wide: bool = False,
                     deadline: float | None = None, nodes: int | None = None) -> Move | None:
        """The first move of a win for the side to move in at most ``depth`` moves of its
        own, each a threat (with ``wide``, threats to threaten count too), or None when
        there is none that deep.  Iterative deepening: the shortest win is found first.
        Raises :class:`SearchTimeout` when the ``deadline`` (``time.monotonic()``) or
        ``nodes`` positions run out first."""
        if len(self.table) > TABLE_SIZE:
            self.table.clear()
        self._deadline, self._wide = deadline, wide
        self._node_limit = self.nodes + nodes if nodes is not None else -1
        for d in range(1, depth + 1):
            self._zoned = d > FREE_DEPTH
            move = self._attack(state, d, EVERYWHERE)
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
            stack, seen = [state], set()
            while stack and len(seen) < PROOF_WALK:
                position = stack.pop()
                entry = self.table.get((position.key, wide))
                if position.key in seen or entry is None or entry[0] is None:
                    continue
                seen.add(position.key)
                attacks.append(entry[0])
                threat = game.play(position, entry[0])
                if game.outcome(threat) is None:
                    replies = game.threat_answers(threat) or []
                    answers.extend(replies)
                    stack.extend(game.play(threat, answer) for answer in replies)
            return attacks, answers
        return [], []

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes == self._node_limit or (self._deadline is not None and time.monotonic() >= self._deadline):
            raise SearchTimeout

    def _attack(self, state: State, depth: int, zone: int) -> Move | None:
        """A threat of the side to move on ``zone`` (a forced move anywhere) that wins
        against every answer, or None."""
        self._tick()
        game = self.game
        if depth <= 0 or game.outcome(state) is not None:
            return None
        won = self.table.get((state.key, self._wide))
        if won is not None:
            return won[0]
        key = (state.key, self._wide, zone)
        failed = self.table.get(key)
        if failed is not None and failed[1] >= depth:
            return None
        attacker = state.to_move
        for move in game.threat_moves(state, self._wide, zone):
            if self._defence_fails(game.play(state, move), attacker, depth - 1, self._next_zone(zone, move)):
                self.table[(state.key, self._wide)] = (move, depth)
                return move
        self.table[key] = (None, max(depth, failed[1]) if failed is not None else depth)
        return None

    def _next_zone(self, zone: int, move: Move) -> int:
        """Where the attacker's threats may go after its threat ``move``: anywhere in a
        free search, else on the zones of its stones in the sequence."""
        if not self._zoned:
            return EVERYWHERE
        built_on = self.game.threat_zone(move)
        return built_on if zone == EVERYWHERE else zone | built_on

    def _defence_fails(self, state: State, attacker: int, depth: int, zone: int) -> bool:
        """Whether every answer of the side to move to the threat just made loses."""
        game = self.game
        outcome = game.outcome(state)
        if outcome is not None:
            return outcome.winner == attacker
        answers = game.threat_answers(state)
        if answers is None:
            return False
        for move in answers:
            if self._attack(game.play(state, move), depth, zone) is None:
                return False
        return True
