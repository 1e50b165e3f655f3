"""What honesty costs: the honest ``determinize`` bot against a peeking version of itself.

Test-only (never registered, never reachable from the arena, the web or the protocols):
:class:`PeekingBot` is given the whole state, not the observation, and searches it with
the same inner searcher and the same time as ``determinize`` spends on its samples.  Run:

    PYTHONPATH=src:tests nice python tests/peek_match.py darkchess --games 40

Games are played in pairs from the same random two-ply opening, colours swapped; a bot
overrunning its time by more than the arena's grace loses, as in ``myriad match``.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from myriad.ai import Limits, make_bot
from myriad.ai.bot import Bot, Decision
from myriad.arena.match import GRACE, random_opening
from myriad.core.game import Game
from myriad.core.state import State
from myriad.games import get_game


class PeekingBot(Bot):
    """Cheats: searches the whole state it is handed (``inner`` on ``game.full_view()``)."""

    name = "peek"
    hidden = True

    def __init__(self, game: Game, inner: str = "alphabeta", **options: Any) -> None:
        super().__init__(game, **options)
        self.inner = make_bot(inner, game.full_view())

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        assert not any(c in getattr(self.game, "fog_codes", ()) for c in state.cells), "give me the whole state"
        self.inner.reset()
        return self.inner.choose(state, limits)


def play(game: Game, honest: Bot, peek: PeekingBot, honest_seat: int, opening: list[str],
         movetime: float, max_plies: int = 600) -> tuple[float, str]:
    """One game; the honest bot's score and the reason."""
    state = game.initial_state()
    for text in opening:
        state = game.play_text(state, text)
    honest.reset()
    for _ in range(max_plies):
        outcome = game.outcome(state)
        if outcome is not None:
            return outcome.scores[honest_seat], outcome.reason
        player = state.to_move
        began = time.monotonic()
        limits = Limits(deadline=began + movetime)
        if player == honest_seat:
            move = honest.choose(game.observe(state, player), limits).move
        else:
            move = peek.choose(state, limits).move  # the whole state: peeking
        if time.monotonic() - began > movetime + GRACE:
            return (0.0 if player == honest_seat else 1.0), "overran its time"
        assert move in game.legal_moves(state)
        state = game.play(state, move)
    return 0.5, "adjudicated"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--movetime", type=float, default=0.5)
    parser.add_argument("--honest", default="determinize")
    args = parser.parse_args()
    game = get_game(args.game)
    honest = make_bot(args.honest, game)
    peek = PeekingBot(game)
    scores, reasons = [], {}
    for i in range(args.games):
        opening = random_opening(game, 2, seed=i // 2)
        score, reason = play(game, honest, peek, i % 2, opening, args.movetime)
        scores.append(score)
        reasons[reason] = reasons.get(reason, 0) + 1
    print(json.dumps({"game": game.id, "honest": args.honest, "games": len(scores),
                      "honest_score": round(sum(scores) / len(scores), 3),
                      "wins": scores.count(1.0), "draws": scores.count(0.5), "losses": scores.count(0.0),
                      "reasons": reasons}))


if __name__ == "__main__":
    main()
