"""Write random Oware games played by StoneShark's MancalaGames (GPL-3), an independent
implementation, with a chosen grand-slam rule, as test data
(tests/data/oware_<rule>_mancalagames.json.gz).

Run it as a separate process from MancalaGames' ``src`` directory (nothing of MancalaGames is
imported by Myriad or copied into it):

    cd MancalaGames/src && PYTHONPATH=. python /path/to/make_oware_mancalagames.py RULE GAMES SEED OUT

RULE is MancalaGames' ``grandslam`` value: 0 LEGAL (a grand slam captures), 1 NOT_LEGAL,
2 NO_CAPT (GameProps/Oware.txt's own).  Source: https://github.com/StoneShark/MancalaGames,
GameProps/Oware.txt (commit 2b1c596).  Each ply records the mover (0 = the holes 0..5, who
starts), MancalaGames' move index, the legal move indices before it, the board (12 holes,
counter-clockwise from the first player's left) and stores after it, and the end condition.
"""

import copy
import gzip
import json
import random
import sys

import man_config


def one_game(config: dict, rng: random.Random) -> list[dict]:
    game = man_config.game_from_config(copy.deepcopy(config))
    game.turn = False
    game.starter = False
    plies = []
    for _ in range(3000):
        mover = int(game.turn)
        moves = list(game.get_moves())
        if not moves:
            plies.append({"mover": mover, "legal": [], "end": "no moves"})
            break
        move = rng.choice(moves)
        cond = game.move(move)
        plies.append({"mover": mover, "move": move, "legal": moves, "board": list(game.board),
                      "stores": list(game.store), "end": None if cond is None else cond.name})
        if cond is not None:
            break
    return plies


def main() -> None:
    rule, games, seed, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    config = man_config.read_game("../GameProps/Oware.txt")
    config["game_info"]["grandslam"] = type(config["game_info"]["grandslam"])(rule)
    rng = random.Random(seed)
    data = {"source": f"StoneShark/MancalaGames 2b1c596, GameProps/Oware.txt with grandslam={rule}, run as a "
                      "separate process by tests/data/make_oware_mancalagames.py",
            "seed": seed, "games": [one_game(config, rng) for _ in range(games)]}
    with gzip.open(out, "wt") as f:
        json.dump(data, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
