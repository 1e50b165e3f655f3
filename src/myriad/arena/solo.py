"""Measure a bot alone in a one-player game (fox hunt): ``myriad solo GAME BOT... --games N
--seed K``.  A match needs two bots; a one-player game is measured instead by the mean score
and the mean length (moves of the player: fox hunt's shots), with its 95% interval, over
games whose chance is drawn from the seeds ``K``, ``K+1``, ... (the same placements for
every bot given the same seeds).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from dataclasses import dataclass
from typing import Any

from myriad.arena import options
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

    @property
    def moves_interval(self) -> float:
        """Half the width of the 95% interval of the mean length (normal approximation:
        1.96 standard errors; 0 for a single game)."""
        if len(self.moves) < 2:
            return 0.0
        return 1.96 * statistics.stdev(self.moves) / math.sqrt(len(self.moves))

    def summary(self, game_id: str, seed: int, movetime: float) -> dict[str, Any]:
        """The result as JSON-ready numbers."""
        return {"game": game_id, "bot": self.bot, "games": len(self.moves), "seed": seed,
                "movetime": movetime, "mean_moves": round(self.mean_moves, 3),
                "moves_interval": round(self.moves_interval, 3),
                "stdev_moves": round(statistics.pstdev(self.moves), 3),
                "mean_score": round(self.mean_score, 4)}


def run_solo(game_id: str, bot: str, games: int, seed: int = 1, movetime: float = 5.0) -> SoloResult:
    """Play ``games`` games of the one-player game ``game_id`` with ``bot``, chance seeded
    ``seed``, ``seed + 1``, ...; a forfeit (crash, illegal move, time) raises."""
    game = get_game(game_id)
    if game.players != 1:
        raise MyriadError(f"{game.id} has {game.players} players: measure it with 'myriad match'")
    if games < 1:
        raise MyriadError(f"games must be at least 1, not {games}")
    from myriad.ai import make_bot
    make_bot(bot, game)  # (a bad spec is refused before the first game, not as a forfeit)
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


#: The most games a measure may ask for.
MAX_GAMES = 1_000_000


def cmd_solo(args: argparse.Namespace) -> int:
    """``myriad solo``: each bot's line (or JSON object with ``--json``), one after another."""
    for bot in args.bots:
        r = run_solo(args.game, bot, args.games, args.seed, args.movetime)
        summary = r.summary(args.game, args.seed, args.movetime)
        if args.json:
            print(json.dumps(summary), flush=True)
        else:
            print(f"{args.game} {bot}: {summary['mean_moves']:.2f} ± {summary['moves_interval']:.2f} moves "
                  f"(95%), score {summary['mean_score']:.4f}, over {summary['games']} games "
                  f"(seeds {args.seed}..{args.seed + args.games - 1}, {args.movetime:g} s a move)", flush=True)
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``solo``."""
    parser.add_argument("game", metavar="GAME", help="a one-player game (foxhunt, foxhunt6)")
    parser.add_argument("bots", nargs="+", metavar="BOT", help="bot specs, measured one after another")
    parser.add_argument("--games", type=options.count(1, MAX_GAMES), default=100, metavar="N")
    parser.add_argument("--seed", type=options.count(0, 10**9 - 1), default=1, metavar="K",
                        help="the first game's chance seed (then K+1, ...)")
    parser.add_argument("--movetime", type=options.seconds(), default=5.0, metavar="S",
                        help="seconds a move at most (default 5)")
    parser.add_argument("--json", action="store_true", help="one JSON object a bot")
    parser.set_defaults(run=cmd_solo)


def add_solo_command(commands: Any) -> None:
    """Register ``solo`` on the command-line parser."""
    add_arguments(commands.add_parser("solo", help="measure bots alone in a one-player game (fox hunt)",
                                      description=__doc__))


def main(argv: list[str] | None = None) -> int:
    """``python -m myriad.arena.solo``: the same as ``myriad solo``."""
    parser = argparse.ArgumentParser(prog="python -m myriad.arena.solo", description=__doc__)
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return cmd_solo(args)
    except MyriadError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
