"""Write random Toguz Kumalak games played by StoneShark's MancalaGames (GPL-3), an
independent implementation, as test data (tests/data/toguz_mancalagames.json.gz).

Run it as a separate process from MancalaGames' ``src`` directory (nothing of MancalaGames is
imported by Myriad or copied into it):

    cd MancalaGames/src && python /path/to/make_toguz_mancalagames.py GAMES SEED OUT

Source: https://github.com/StoneShark/MancalaGames, GameProps/Toguz_Kumalak.txt (commit
2b1c596).  Each game is a list of plies; a ply records the mover (0 = the holes 0..8, who
starts), MancalaGames' move index, the legal move indices before it, and the board (18 holes,
counter-clockwise from the first player's left), the two stores and the tuzdyk owners
("child": null, or the owner 0/1, per hole) after it, and the end condition it returned.
"""

import gzip
import json
import random
import sys

import man_config


def one_game(rng: random.Random) -> list[dict]:
    game, _ = man_config.make_game("../GameProps/Toguz_Kumalak.txt")
    game.turn = False
    game.starter = False
    plies = []
    for _ in range(2000):
        mover = int(game.turn)
        moves = list(game.get_moves())
        if not moves:
            plies.append({"mover": mover, "legal": [], "end": "no moves"})
            break
        move = rng.choice(moves)
        cond = game.move(move)
        plies.append({"mover": mover, "move": move, "legal": moves, "board": list(game.board),
                      "stores": list(game.store),
                      "child": [None if c is None else int(c) for c in game.child],
                      "end": None if cond is None else cond.name})
        if cond is not None:
            break
    return plies


def main() -> None:
    games, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    data = {"source": "StoneShark/MancalaGames 2b1c596, GameProps/Toguz_Kumalak.txt, run as a separate process "
                      "by tests/data/make_toguz_mancalagames.py",
            "seed": seed, "games": [one_game(rng) for _ in range(games)]}
    with gzip.open(out, "wt") as f:
        json.dump(data, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
