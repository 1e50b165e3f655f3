"""Legal moves of positions by jungle-chess (Sergei Kasaurov, MIT, PyPI ``jungle-chess``
1.0.0, ``jungle_chess/board.py``), the common modern rules: for 400 positions of the
netcan/AnimalChess random games (``jungle_netcan_playouts.txt.gz``), 100 more of them
with a rat in the water beside an enemy on land, and eight written for the rules where
the engines' options differ, every piece of the
side to move and the squares ``Board.legal_moves`` gives it.

jungle-chess's river leap loops forever when a piece stands in the water on the way
(``continue`` without a step), so a lion or tiger with an occupied water square beside it
is left out (written ``skip``); an alarm guards against any other hang.

Run (the wheel unpacked, or installed without its pygame dependencies):
    PYTHONPATH=/path/to/unpacked/wheel python tests/data/jungle_kasaurov_moves.py > tests/data/jungle_kasaurov_moves.txt
"""

from __future__ import annotations

import gzip
import random
import signal
import sys
from pathlib import Path

from jungle_chess.board import Board
from jungle_chess.constants import Side
from jungle_chess.piece import Piece, PieceType

LETTERS = {"r": PieceType.RAT, "c": PieceType.CAT, "d": PieceType.DOG, "w": PieceType.WOLF,
           "p": PieceType.LEOPARD, "t": PieceType.TIGER, "l": PieceType.LION, "e": PieceType.ELEPHANT}


def board_from(fen: str) -> Board:
    board = Board()
    board._squares = [[None] * 7 for _ in range(9)]
    board._pieces = {Side.RED: set(), Side.GREEN: set()}
    for i, row in enumerate(fen.split()[0].split("/")):
        col = 0
        for ch in row:
            if ch.isdigit():
                col += int(ch)
                continue
            piece = Piece(LETTERS[ch.lower()], Side.RED if ch.isupper() else Side.GREEN)
            pos = (col, 8 - i)
            piece.move(pos)
            board._squares[pos[1]][pos[0]] = piece
            board._pieces[piece.side].add(piece)
            col += 1
    return board


def name(pos: tuple[int, int]) -> str:
    return f"{chr(ord('a') + pos[0])}{pos[1] + 1}"


def hangs(board: Board, pos: tuple[int, int]) -> bool:
    piece = board.at(pos)
    if not piece.can_jump:
        return False
    for dc, dr in ((-1, 0), (1, 0), (0, 1), (0, -1)):
        col, row = pos[0] + dc, pos[1] + dr
        while 0 <= col < 7 and 0 <= row < 9 and Board.is_river((col, row)):
            if board.at((col, row)) is not None:
                return True
            col, row = col + dc, row + dr
    return False


class Hang(Exception):
    pass


def alarm(_signum, _frame):
    raise Hang


#: Positions written for the rules where the two engines' options differ (their moves
#: come from jungle-chess all the same): an elephant beside a rat on its own side's trap,
#: rats in the water beside enemies on the bank.
CRAFTED = [
    "6t/7/7/7/7/7/7/7/1Er3T w", "6t/7/7/7/7/7/3E3/3r3/6T w", "4Re1/7/7/7/7/7/7/7/6T b",
    "6t/7/7/7/7/rR5/7/7/6T w", "6t/7/7/7/7/eR5/7/7/6T w", "6t/7/7/7/7/2Rr3/7/7/6T w",
    "6t/7/7/7/7/Rr5/7/7/6T b", "6t/7/7/7/7/2rR3/7/7/6T b",
]


def on_the_bank(fen: str) -> bool:
    """Whether a rat swims beside an enemy on land."""
    board = board_from(fen)
    for side in (Side.RED, Side.GREEN):
        for piece in board.pieces(side):
            if piece.type != PieceType.RAT or not Board.is_river(piece.pos):
                continue
            for dc, dr in ((-1, 0), (1, 0), (0, 1), (0, -1)):
                pos = (piece.pos[0] + dc, piece.pos[1] + dr)
                other = board.at(pos) if 0 <= pos[0] < 7 and 0 <= pos[1] < 9 else None
                if other is not None and other.side != side and not Board.is_river(pos):
                    return True
    return False


def main() -> None:
    data = Path(__file__).parent / "jungle_netcan_playouts.txt.gz"
    with gzip.open(data, "rt") as f:
        fens = [line.split(" | ")[0] for line in f if " | - | " in line]
    rng = random.Random(2026)
    signal.signal(signal.SIGALRM, alarm)
    print("# jungle-chess 1.0.0 (PyPI, MIT) Board.legal_moves per piece of the side to move:")
    print("# FEN | from:to,to,... (sorted) | skipped pieces")
    bank = [f for f in dict.fromkeys(fens) if on_the_bank(f)]
    for fen in rng.sample(fens, 400) + rng.sample(bank, min(100, len(bank))) + CRAFTED:
        board = board_from(fen)
        side = Side.RED if fen.split()[1] == "w" else Side.GREEN
        moves, skipped = [], []
        for piece in sorted(board.pieces(side), key=lambda p: name(p.pos)):
            if hangs(board, piece.pos):
                skipped.append(name(piece.pos))
                continue
            signal.setitimer(signal.ITIMER_REAL, 1.0)
            try:
                targets = sorted(name(t) for t in board.legal_moves(piece.pos))
            except Hang:
                skipped.append(name(piece.pos))
                continue
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            moves.append(f"{name(piece.pos)}:{','.join(targets)}")
        print(f"{fen} | {' '.join(moves)} | {' '.join(skipped) or '-'}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
