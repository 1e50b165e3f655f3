"""Make banqi_cdc_referee.txt.gz: BanQi positions from random games with the legal moves
an independent referee allows in each.

The referee is the ``Referee`` function of the TCGA computer dark chess homework kit, as
shipped in ``hw1/src/MyAI.cpp`` of https://github.com/George0828Zhang/chinese-dark-chess-hw
(the Taiwanese/CDC rules; the repository has no licence file, so none of its code is kept
here, only its answers).  Build the oracle from a checkout of that repository::

    g++ -std=c++11 -O2 -w -c hw1/src/MyAI.cpp -o MyAI.o
    g++ -std=c++11 -O2 -w -Ihw1/src tests/data/banqi_cdc_driver.cpp MyAI.o -o oracle
    PYTHONPATH=src python tests/data/make_banqi_cdc.py ./oracle

Each line: ``<position>\\t<moves>``, the position in Myriad's BanQi notation (a player to
move, colours decided) and the referee's legal moves (steps and captures, ``a1-a2``; flips
left out: they are the face-down squares), sorted, space-separated.
"""

from __future__ import annotations

import gzip
import random
import subprocess
import sys
from pathlib import Path

from myriad.games import get_game

GAMES = 15
OUT = Path(__file__).parent / "banqi_cdc_referee.txt.gz"


def referee_board(game, state) -> str:  # type: ignore[no-untyped-def]
    """The 32 chess numbers of the kit (location 0 = a8, row by row; red 0 soldier .. 6
    general, black + 7, -1 face down, -2 empty) and the colour to move."""
    out = [0] * 32
    for pos, code in enumerate(state.cells):
        file, rank = pos % 4, pos // 4 + 1
        loc = (8 - rank) * 4 + file
        if code == 0:
            out[loc] = -2
        elif code >= game.face_down:
            out[loc] = -1
        else:
            out[loc] = 6 - game.kind_of[code] + 7 * game.colour_of[code]
    colour = game.colour_of_player(state, state.to_move)
    return " ".join(map(str, out)) + f" {colour}"


def square(loc: int) -> str:
    return f"{'abcd'[loc % 4]}{8 - loc // 4}"


def main(oracle: str) -> None:
    game = get_game("banqi")
    rng = random.Random(20261124)
    positions = []
    for _ in range(GAMES):
        state = game.initial_state()
        while game.outcome(state) is None:
            if game.is_chance(state):
                outcomes = game.chance_outcomes(state)
                move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                if game.colour_of_player(state, 0) >= 0:
                    positions.append(state)
                move = rng.choice(game.legal_moves(state))
            state = game.play(state, move)
    lines = "\n".join(referee_board(game, s) for s in positions) + "\n"
    answers = subprocess.run([oracle], input=lines, capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(answers) == len(positions)
    with gzip.open(OUT, "wt") as out:
        for state, answer in zip(positions, answers):
            moves = sorted(f"{square(int(f))}-{square(int(t))}" for f, t in (p.split("-") for p in answer.split()))
            out.write(f"{game.format_position(state)}\t{' '.join(moves)}\n")
    print(f"{len(positions)} positions written to {OUT}")


if __name__ == "__main__":
    main(sys.argv[1])
