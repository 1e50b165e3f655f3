"""Max-n: every player maximises its own share, for any number of players.

A node's value is a vector of shares, one per player (:mod:`myriad.ai.utility`: each in
``[0, 1]``, summing to at most 1).  At a player node the mover picks the child whose
vector gives it the largest share, whoever moved before (extra turns, passes); among
children equal for it, the one leaving the strongest other player least, then the
smallest shares in player order (a total order, so the value does not depend on the order
moves are searched).  A chance node averages its outcomes by probability; it does not
count as a ply of depth (see :mod:`myriad.ai.expectimax`).

Pruning, as far as max-n allows (Korf 1991):

- *immediate*: a mover whose share reaches 1, the most any player can get, stops;
- *shallow*: a child's mover ``i`` sure of ``s`` leaves at most ``1 - s`` to anybody else,
  so when that is less than what the parent's mover ``j`` already has, the child stops
  (deeper pruning is unsound in max-n).  When ``j`` moves again at the child (an extra
  turn) its bound is passed down instead: the child looks for more than it.  A value is
  exact when the parent may need it; otherwise it is only known to be worse for ``j``.

Iterative deepening under ``time=``, ``depth=``, ``nodes=``; a table (``hash=`` megabytes)
of exact vectors and best moves, an entry answering only a search of the same depth.
"""

from __future__ import annotations

from typing import Any

from myriad.ai.deepening import DeepeningSearch, ordered
from myriad.ai.utility import evaluation_shares, outcome_shares
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State

Shares = tuple[float, ...]
#: The most a player's share can be, and the float slack kept when pruning on a sum.
WHOLE, SLACK = 1.0, 1e-9
#: Bytes of a table entry until some are measured (key, depth, a vector, a move).
ENTRY_GUESS = 400
#: No bound: the player and value passed when nothing is known of the parent.
NOBODY = -1


def preference(shares: Shares, player: int) -> tuple[float, float, Shares]:
    """How much ``player`` likes ``shares`` (larger is better): its share, then the
    largest other share the less, then every share the less in player order."""
    others = max((s for p, s in enumerate(shares) if p != player), default=0.0)
    return shares[player], -others, tuple(-s for s in shares)


class MaxN(DeepeningSearch):
    """Options: ``time``, ``depth``, ``nodes``, ``hash`` (megabytes of table, default 64),
    ``scale`` (the evaluation worth a 73% share; default: the game's typical one)."""

    name = "maxn"
    max_players: int | None = None
    chance = True

    entry_guess = ENTRY_GUESS

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        #: position key -> (depth, exact vector or None, best move).
        self.table: dict[int, tuple[int, Shares | None, Move | None]] = {}

    def _start_value(self, state: State) -> Shares:
        return evaluation_shares(self.game, state, self.scale)

    def _sure(self, value: Shares, mover: int) -> bool:
        return value[mover] >= WHOLE - SLACK  # nothing is better than all of it

    def _score(self, value: Shares, mover: int) -> dict[str, Any]:
        return {"score": value[mover], "shares": list(value)}

    def _root(self, state: State, moves: list[Move], depth: int) -> tuple[Shares, Move]:
        """The max-n vector of ``state`` searched ``depth`` player moves deep, and its move."""
        game = self.game
        me = state.to_move
        entry = self.table.get(state.key)
        best: Shares | None = None
        best_move = moves[0]
        for move in ordered(game, state, moves, entry[2] if entry else None):
            floor = NOBODY if best is None else best[me]
            shares, _ = self._value(game.play(state, move), depth - 1, NOBODY if best is None else me, floor)
            if best is None or preference(shares, me) > preference(best, me):
                best, best_move = shares, move
                self.partial = (shares, move)
                if shares[me] >= WHOLE - SLACK:
                    break
        assert best is not None
        self._store(state.key, depth, best, best_move)
        return best, best_move

    def _value(self, state: State, depth: int, parent: int, floor: float) -> tuple[Shares, bool]:
        """The max-n vector of ``state`` searched ``depth`` player moves deep, and whether it
        is exact.  ``parent`` (or :data:`NOBODY`) only needs it when its share is at least
        ``floor``: then it is exact; otherwise it may be any vector whose ``parent`` share is
        below ``floor``."""
        self._tick()
        game = self.game
        if game.is_chance(state):
            return self._chance(state, depth), True
        moves = game.legal_moves(state)
        outcome = game.result(state, moves)
        if outcome is not None:
            return outcome_shares(outcome), True
        if depth <= 0:
            return evaluation_shares(game, state, self.scale), True
        key = state.key
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            if entry[0] == depth and entry[1] is not None:
                return entry[1], True
            hint = entry[2]
        mover = state.to_move
        # The mover looks for more than ``floor`` when the parent is itself (an extra turn).
        bound = floor if parent == mover else NOBODY
        best: Shares | None = None
        best_move = None
        exact = True
        for move in ordered(game, state, game.candidate_moves(state, moves), hint):
            shares, _ = self._value(game.play(state, move), depth - 1, mover,
                                    bound if best is None else max(bound, best[mover]))
            if best is None or preference(shares, mover) > preference(best, mover):
                best, best_move = shares, move
                if best[mover] >= WHOLE - SLACK:
                    break  # immediate pruning
                if parent not in (NOBODY, mover) and WHOLE - best[mover] < floor - SLACK:
                    exact = False  # shallow pruning: the parent's mover gets less here
                    break
        assert best is not None
        if bound != NOBODY and best[mover] < bound:
            exact = False  # every child was worse than the parent's bound: known only as such
        self._store(key, depth, best if exact else None, best_move)
        return best, exact

    def _chance(self, state: State, depth: int) -> Shares:
        """The probability-weighted average of the outcomes' vectors (none pruned)."""
        game = self.game
        total = [0.0] * game.players
        for move, p in game.chance_outcomes(state):
            shares, _ = self._value(game.play(state, move), depth, NOBODY, 0.0)
            for player, share in enumerate(shares):
                total[player] += p * share
        return tuple(total)

    def _store(self, key: int, depth: int, shares: Shares | None, move: Move | None) -> None:
        old = self.table.get(key)
        if old is None:
            self.budget.make_room(self.table)
        elif old[0] == depth and old[1] is not None and shares is None:
            return  # keep the exact vector already known
        self.table[key] = (depth, shares, move)

