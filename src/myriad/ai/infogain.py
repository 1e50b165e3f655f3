"""Information gain: play the move that tells the most about what is hidden.

For a game with hidden information the bot is given an observation only.  It draws
``samples`` whole states behind it (``game.determinize``, seeded by the bot's seed and the
observation, so one observation always gives the same move) and, for every legal move,
what the player would see after it in each sample (``game.move_signal``).  The samples
split by what the move would show; the entropy of that split (in bits) is the information
the move is expected to bring.  Each move scores that entropy plus ``greed`` times its mean
gain of evaluation over the samples (``greed=0``: information only); the best score is
played, ties going to the higher gain, then to the first move.  It suits search games such
as fox hunt (Mastermind-like solvers maximise the same entropy); it looks one move ahead.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from typing import Any, ClassVar

from myriad.ai.bot import SEED, TIME, Allowed, Bot, Decision, Limits
from myriad.core.game import Game
from myriad.core.state import State

#: Samples drawn by default (fox hunt 6x6: see the README for the measure).
DEFAULT_SAMPLES = 48
#: The most samples a spec may ask for.
MAX_SAMPLES = 1024


class InfoGain(Bot):
    """Maximises the expected information of the move (``infogain:samples=48,greed=1``)."""

    name = "infogain"
    OPTIONS: ClassVar[dict[str, Allowed]] = {
        "time": TIME, "samples": (int, 1, MAX_SAMPLES), "greed": (float, 0, 1000), "seed": SEED}
    max_players = None
    chance = True  # (chance's turns are the referee's: the bot chooses only its own moves)
    hidden = True

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        self.samples = int(options.get("samples", DEFAULT_SAMPLES))
        self.greed = float(options.get("greed", 1.0))
        self.seed = int(options.get("seed", 0))

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        game = self.game
        start = time.monotonic()
        moves, limits, forced = self.opening(state, limits, default_seconds=None)
        if forced is not None:
            return forced
        deadline = limits.deadline
        rng = random.Random(self.seed * 1_000_003 + state.key)
        me = state.to_move
        full = game.full_view()
        wholes: list[State] = []
        for _ in range(self.samples):  # (with a clock: half of it at most for the samples)
            if wholes and deadline is not None and time.monotonic() > start + (deadline - start) / 2:
                break
            wholes.append(game.determinize(state, me, rng))
        base = [full.evaluate_for(w, me) for w in wholes] if self.greed else []
        done = True
        best: tuple[float, float, int] | None = None
        for i, move in enumerate(moves):
            if deadline is not None and i and time.monotonic() > deadline - 0.02:
                done = False  # out of time: the best of the moves weighed so far
                break
            signals = Counter(full.move_signal(whole, move, me) for whole in wholes)
            entropy = -sum(n / len(wholes) * math.log2(n / len(wholes)) for n in signals.values())
            gain = 0.0
            if self.greed:
                gain = sum(full.evaluate_for(full.play(w, move), me) - b for w, b in zip(wholes, base)) / len(wholes)
            key = (entropy + self.greed * gain, gain, -i)
            if best is None or key > best:
                best = key
        assert best is not None
        return Decision(moves[-best[2]], done, {
            "bot": self.name, "depth": 1, "nodes": len(moves) * len(wholes), "samples": len(wholes),
            "score": best[0], "seconds": time.monotonic() - start})
