"""Measure a bot alone in a one-player game (fox hunt): ``python -m myriad.arena.solo GAME
BOT --games N --seed K``.  A match needs two bots; a one-player game is measured instead by
the mean score and the mean length (moves of the player) over games whose chance is drawn
from the seeds ``K``, ``K+1``, ... (the same placements for every bot given the same seeds).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import dataclass

from myriad.arena.match import play_game
from myriad.core.errors import MyriadError
from myriad.games import get_game


@dataclass(frozen=True)
class SoloResult:
    """A bot's games alone: its score and its number of moves in each game."""

    bot: str
    scores: tuple[float, ...]
    moves: tuple[int, ...]

    @property
    def mean_moves(self) -> float:
        return statistics.fmean(self.moves)

    @property
    def mean_score(self) -> float:
        return statistics.fmean(self.scores)


def run_solo(game_id: str, bot: str, games: int, seed: int = 1, movetime: float = 5.0) -> SoloResult:
    """Play ``games`` games of the one-player game ``game_id`` with ``bot``, chance seeded
    ``seed``, ``seed + 1``, ...; a forfeit (crash, illegal move, time) raises."""
    game = get_game(game_id)
    if game.players != 1:
        raise MyriadError(f"{game.id} has {game.players} players: measure it with 'myriad match'")
    if games < 1:
        raise MyriadError(f"games must be at least 1, not {games}")
    scores, lengths = [], []
    for i in range(games):
        result = play_game(game_id, [bot], movetime, chance_seed=seed + i)
        if result.failures:
            raise MyriadError(f"{bot} forfeited game {i + 1}: {'; '.join(result.failures)}")
        state = game.initial_state()
        mine = 0
        for text in result.moves:
            mine += not game.is_chance(state)
            state = game.play_text(state, text)
        scores.append(result.scores[0])
        lengths.append(mine)
    return SoloResult(bot, tuple(scores), tuple(lengths))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m myriad.arena.solo", description=__doc__)
    parser.add_argument("game")
    parser.add_argument("bots", nargs="+", metavar="BOT")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--movetime", type=float, default=5.0)
    args = parser.parse_args(argv)
    try:
        for bot in args.bots:
            r = run_solo(args.game, bot, args.games, args.seed, args.movetime)
            print(json.dumps({"game": args.game, "bot": bot, "games": len(r.moves),
                              "mean_moves": round(r.mean_moves, 2),
                              "stdev_moves": round(statistics.pstdev(r.moves), 2),
                              "mean_score": round(r.mean_score, 4)}), flush=True)
    except MyriadError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
