"""Toguz Kumalak (togyz kumalak, toguz korgool), the Kazakh and Kyrgyz two-row mancala.

Equipment: two rows of nine houses (otau) with nine stones (kumalak) each, 162 in all, and a
store (kazan) per player.  White moves first.

Rules (as the World Nomad Games rules of toguz korgool and the Kazakh federation's rules
state them; see also playstrategy.org/variant/togyzkumalak): lift all the stones of one of
your houses; the first goes back into that house and the rest follow one by one counter-
clockwise (a lone stone moves to the next house).  If the last stone makes an even count in
an opponent's house, capture those stones.  If it makes exactly 3 there, the house becomes
your *tuzdyk* and the 3 are captured, unless you already have one (one per game), it is the
opponent's ninth house, or the opponent's tuzdyk is your house with the same number; every
stone later sown into a tuzdyk goes to its holder's kazan.  More than 81 captured wins, 81
each draws.  A player who cannot move (no stones: atsyrau) ends the game, and the stones left
on the board, all on the opponent's side, go to the opponent.

Notation: each player numbers their houses 1-9 from their own left (the sowing order), and a
move is the number of the house sown, as in toguz kumalak records.  Position text:
``<white 1..9>,<kazan>/<black 1..9>,<kazan> <w|b>``; a tuzdyk is written ``X`` in the row it
lies in (it belongs to the other player).
"""

from __future__ import annotations

from myriad.core.errors import GameDefinitionError
from myriad.games.capture_mancala import CaptureMancala


class Toguz(CaptureMancala):
    """Toguz Kumalak (9 houses of 9 by default; smaller boards keep the rules)."""

    id = "toguz"
    name = "Toguz Kumalak"
    player_names = ("white", "black")
    rules = ("Pick up all stones of one of your houses; drop the first back into it (a lone stone "
             "moves on) and the rest one by one counter-clockwise. If the last stone makes an even "
             "number in an opponent's house, capture them. If it makes exactly 3 there, that house "
             "becomes your tuzdyk (once per game, never the 9th house, nor the house facing the same "
             "number as the opponent's tuzdyk): you capture the 3 and every stone later sown into it. "
             "More than 81 wins; a player who cannot move ends the game and the opponent takes the rest.")

    def __init__(self, pits: int = 9, seeds: int = 9) -> None:
        if not 2 <= pits <= 9:
            raise GameDefinitionError(f"toguz: pits must be 2..9, not {pits}")
        labels = [str(i + 1) for i in range(pits)]
        super().__init__((labels, labels), seeds, ("w", "b"), store_names=("kazan_w", "kazan_b"),
                         no_move_reason="no stones to move (atsyrau)", claim_value=1000,
                         origin_first=True, capture_even=True, claim_count=3,
                         claim_last_house=False, claim_mirror=False)
        if (pits, seeds) != (9, 9):
            self.name = f"Toguz Kumalak({pits},{seeds})"


def toguz(pits: int = 9, seeds: int = 9) -> Toguz:
    """Toguz Kumalak on ``pits`` houses a side with ``seeds`` stones each (9 and 9)."""
    return Toguz(pits, seeds)
