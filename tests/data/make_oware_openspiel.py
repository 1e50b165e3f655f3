"""Write random Oware games played by DeepMind's OpenSpiel (``pyspiel``, the ``oware`` game,
Apache-2.0), an independent implementation, as test data (tests/data/oware_openspiel.json.gz).

Run as a separate process with the ``open_spiel`` wheel from PyPI (2.0.2 was used):

    pip install --target /tmp/ospt open_spiel==2.0.2
    PYTHONPATH=/tmp/ospt python tests/data/make_oware_openspiel.py GAMES SEED OUT

OpenSpiel's rules (open_spiel/games/oware/oware.cc): abapa sowing that skips the emptied
house, captures of 2 or 3 going backwards, a grand slam captures nothing, a player must feed
an empty opponent when they can; the game ends at more than half the seeds captured, at 24-24,
when the side to move has no legal move, or when a position repeats since the last capture:
then each player takes the seeds on their side.  Each ply records OpenSpiel's observation
string before the move ("<to move> | <score 0> <score 1> | <12 houses>", houses counter-
clockwise from player 0's left), the legal actions (0-5, each player's houses from their
own left) and the action played; the game ends with the final observation and returns.
"""

import gzip
import json
import random
import sys

import pyspiel


def one_game(game: "pyspiel.Game", rng: random.Random) -> dict:
    state = game.new_initial_state()
    plies = []
    while not state.is_terminal():
        legal = list(state.legal_actions())
        action = rng.choice(legal)
        plies.append({"obs": state.observation_string(0), "legal": legal, "action": action})
        state.apply_action(action)
    return {"plies": plies, "final": state.observation_string(0), "returns": list(state.returns())}


def main() -> None:
    games, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    game = pyspiel.load_game("oware")
    data = {"source": "OpenSpiel (pip open_spiel==2.0.2) game 'oware', run as a separate process by "
                      "tests/data/make_oware_openspiel.py",
            "seed": seed, "games": [one_game(game, rng) for _ in range(games)]}
    with gzip.open(out, "wt") as f:
        json.dump(data, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
