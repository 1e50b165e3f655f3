"""Oware abapa, the two-row mancala of West Africa and the Caribbean (awari, awale, ayo).

Equipment: two rows of six houses with four seeds each; each player owns the row nearer to
them and a store for captured seeds.  South moves first.

Rules (abapa, as the Oware Society and Wikipedia's "Oware" article give them; solved as a
draw by Romein & Bal, 2002): lift all the seeds of one of your houses and sow them one by one
counter-clockwise, never into the emptied house (a sowing of 12 or more goes round and skips
it).  If the last seed makes 2 or 3 in an opponent's house, capture those seeds and those of
the houses before it on the opponent's side, back along an unbroken run of 2s and 3s.  A
*grand slam*, a capture that would take every seed of the opponent, captures nothing (the
``grand_slam`` parameter: ``"no_capture"``, ``"allowed"``, or ``"forbidden"`` as a move; a
player whose every move is a forbidden grand slam has no legal move, as MancalaGames rules).
When the opponent has no seeds you must sow into their row if you can.  The game ends when a
player has captured more than 24 (24 each is a draw), when the side to move cannot move (it
cannot feed, or has no seeds) or when a position repeats since the last capture: then each
player takes the seeds on their own side.  OpenSpiel's ``oware`` ends the game the same way.

Notation: as in Kalah, each player names their houses ``a-f`` from their own left, south
lower case and north upper case (south's ``a`` faces north's ``F``); a move is the letter of
the house sown.  Position text: ``<south a..f>,<store>/<north A..F>,<store> <s|n>``.
"""

from __future__ import annotations

from myriad.core.errors import GameDefinitionError
from myriad.core.mechanics.capture_sowing import GRAND_SLAM_RULES, GrandSlam
from myriad.core.topology import file_letter
from myriad.games.capture_mancala import CaptureMancala


class Oware(CaptureMancala):
    """Oware abapa and its grand-slam variants."""

    id = "oware"
    name = "Oware (abapa)"
    player_names = ("south", "north")
    rules = ("Pick up all seeds of one of your houses and sow them one by one counter-clockwise, "
             "skipping the emptied house. If the last seed makes 2 or 3 in an opponent's house, "
             "capture them and the 2s and 3s just before it on that side. A capture of all the "
             "opponent's seeds captures nothing. If the opponent has no seeds you must give them "
             "some if you can. More than 24 captured wins; if the side to move cannot move, or a "
             "position repeats, each player takes the seeds on their side.")

    def __init__(self, pits: int = 6, seeds: int = 4, *, grand_slam: GrandSlam = "no_capture") -> None:
        if not 1 <= pits <= 26:
            raise GameDefinitionError(f"oware: pits must be 1..26, not {pits}")
        if grand_slam not in GRAND_SLAM_RULES:
            raise GameDefinitionError(
                f"oware: grand_slam must be one of {', '.join(GRAND_SLAM_RULES)}, not {grand_slam!r}")
        south = [file_letter(i) for i in range(pits)]
        super().__init__((south, [s.upper() for s in south]), seeds, ("s", "n"), repetition_ends=True,
                         no_move_reason="no legal move", skip_origin=True, capture_counts=(2, 3),
                         capture_chain=True, grand_slam=grand_slam, must_feed=True)
        self.grand_slam = grand_slam
        size = "" if (pits, seeds) == (6, 4) else f"({pits},{seeds})"
        self.name = f"Oware{size} ({'abapa' if grand_slam == 'no_capture' else 'grand slam ' + grand_slam})"


def oware(pits: int = 6, seeds: int = 4, *, grand_slam: GrandSlam = "no_capture") -> Oware:
    """Oware abapa; ``grand_slam`` is "no_capture" (abapa), "allowed" (a grand slam captures
    everything, as in Romein & Bal's solved awari) or "forbidden" (not a legal move)."""
    return Oware(pits, seeds, grand_slam=grand_slam)
