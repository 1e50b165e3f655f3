"""What the kernel tests compare: an outcome as the kernel's winners' bits."""
from __future__ import annotations

from myriad.core.game import Outcome


def winner_bits(outcome: Outcome | None) -> int:
    """-1 while the game goes on, else the bit set of the players with the best score
    (every player's bit: a draw), as ``Kernel.winners`` says it."""
    if outcome is None:
        return -1
    best = max(outcome.scores)
    return sum(1 << p for p, score in enumerate(outcome.scores) if score == best)
