"""Random playouts of bagh-chal by basnetsoyuj/baghchal (MIT), run as a separate program:
``python baghchal_playouts.py PATH_TO_REPO GAMES``.  Per ply: the move played, the number of
legal moves and the sorted legal moves, all in Myriad's notation (c3, a5-b4, a5xc3); per
game: 'end' and the library's result (B tigers, G goats, 0 draw) and the plies."""

import random
import sys
import types

# The library draws boards with Pillow at import time; its rules need none of it.
pil = types.ModuleType("PIL")
pil.Image = types.SimpleNamespace(open=lambda *a, **k: None)
sys.modules["PIL"] = pil
sys.path.insert(0, sys.argv[1])
from baghchal.env import Board  # noqa: E402


def name(x: str, y: str) -> str:
    """The library's (row from the top, column) as a Myriad square name."""
    return f"{'abcde'[int(y) - 1]}{6 - int(x)}"


def ours(move: str) -> str:
    if len(move) == 3:
        return name(move[1], move[2])
    if move[1] == "x":
        return f"{name(move[2], move[3])}x{name(move[4], move[5])}"
    return f"{name(move[1], move[2])}-{name(move[3], move[4])}"


for game in range(int(sys.argv[2])):
    rng = random.Random(2000 + game)
    board = Board()
    print(f"game {game}")
    plies = 0
    while not board.is_game_over() and plies < 300:
        moves = sorted(board.possible_moves())
        move = rng.choice(moves)
        print(ours(move), len(moves), " ".join(sorted(ours(m) for m in moves)))
        board.move(move)
        plies += 1
    print("end", board.winner() if board.is_game_over() else "ongoing", plies)
