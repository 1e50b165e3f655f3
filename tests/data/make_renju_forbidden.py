"""Write random renju positions with Black's forbidden points as judged by an independent
implementation, Wenzhe Lu's ``CForbiddenPointFinder`` (the C++ forbidden-point finder
that many renju programs and Gomocup tools embed), as test data
(tests/data/renju_forbidden_lu.json.gz).

The finder was read from github.com/welkincrowns/AlphaGo-UnlimitedGomokuWorks, commit
bb08f3d0cffe9b700c205712eb27b41c3f9fa5b0, files demo/ForbiddenPointFinder.{h,cpp} and
demo/Point.h (no licence stated there; the code is not part of Myriad, only the verdicts
it printed are kept).  Build it with a small driver that reads one board per line (225
characters, 'X' black, 'O' white, '.' empty; row 1 first, columns a-o within a row) and
prints each empty cell that is not a five for Black and is an overline, a double four or a
double three (in that order of checks) as ``x,y,kind`` (0-based column and row):

    g++ -O2 -o oracle driver.cpp ForbiddenPointFinder.cpp
    python tests/data/make_renju_forbidden.py ORACLE POSITIONS SEED OUT

Positions: a window of 11x11 cells around a random centre (partly off the board, so edges
are met), Black's and White's stones dropped at random in it (5-30 black, up to as many
white); boards are kept whatever rows they hold (the judge looks at empty cells only).
"""

import gzip
import json
import random
import subprocess
import sys

SIZE = 15


def position(rng: random.Random) -> str:
    cx, cy = rng.randrange(2, SIZE - 2), rng.randrange(2, SIZE - 2)
    cells = [(x, y) for x in range(cx - 5, cx + 6) for y in range(cy - 5, cy + 6) if 0 <= x < SIZE and 0 <= y < SIZE]
    black = rng.randrange(5, 31)
    white = rng.randrange(0, black + 1)
    board = ["."] * (SIZE * SIZE)
    chosen = rng.sample(cells, min(len(cells), black + white))
    for i, (x, y) in enumerate(chosen):
        board[y * SIZE + x] = "X" if i < black else "O"
    return "".join(board)


def main() -> None:
    oracle, count, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    rng = random.Random(seed)
    boards = [position(rng) for _ in range(count)]
    done = subprocess.run([oracle], input="\n".join(boards) + "\n", capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    assert len(lines) == len(boards)
    with gzip.open(out, "wt") as f:
        for board, line in zip(boards, lines):
            verdicts = {}
            for item in line.split():
                x, y, kind = item.split(",")
                verdicts[f"{chr(97 + int(x))}{int(y) + 1}"] = kind
            f.write(json.dumps({"board": board, "forbidden": verdicts}, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
