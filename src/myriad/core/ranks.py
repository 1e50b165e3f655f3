"""The rank string: a board written row by row from the top, as in FEN.

Rows are separated by ``/``; a piece is its letter, which may carry a ``+`` before it (a
promoted shogi piece, ``+P``) or a ``~`` after it (a promoted crazyhouse piece, ``Q~``); a
run of empty cells is its length in digits (``15`` for a whole gomoku row).  Rows follow the drawing coordinates of the
topology, so any board whose positions sit on rows (square boards, dark squares only, ...)
can be written.

It lives in ``core`` because the board text is the one every grid game shares (the generic
piece games of :mod:`myriad.core.piece_game` read FEN boards with it), and core imports
nothing above itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from myriad.core.errors import PositionError
from myriad.core.numbers import DIGITS, read_int, shortened
from myriad.core.topology import Topology


def board_rows(topology: Topology) -> list[list[int]]:
    """Positions grouped by row, top row first, each row left to right."""
    rows: dict[float, list[tuple[float, int]]] = {}
    for pos, (x, y) in enumerate(topology.coords):
        rows.setdefault(y, []).append((x, pos))
    return [[pos for _, pos in sorted(rows[y])] for y in sorted(rows, reverse=True)]


def format_ranks(topology: Topology, cells: Sequence[int], letter_of: Sequence[str]) -> str:
    """Write the cells as a rank string."""
    out = []
    for row in board_rows(topology):
        text, empty = "", 0
        for pos in row:
            v = cells[pos]
            if v == 0:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += letter_of[v]
        if empty:
            text += str(empty)
        out.append(text)
    return "/".join(out)


def parse_ranks(topology: Topology, text: str, code_of_letter: Mapping[str, int]) -> list[int]:
    """Read a rank string into cells; raises ``PositionError`` naming the bad row or letter."""
    rows = board_rows(topology)
    parts = text.split("/")
    if len(parts) != len(rows):
        raise PositionError(f"board has {len(rows)} rows, position gives {len(parts)} in {shortened(text)}")
    cells = [0] * topology.size
    for r, (row, part) in enumerate(zip(rows, parts), start=1):
        i, col = 0, 0
        while i < len(part):
            ch = part[i]
            if ch in DIGITS:
                j = i
                while j < len(part) and part[j] in DIGITS:
                    j += 1
                col += read_int(part[i:j], f"row {r} ({shortened(part)}): run of empty cells",
                                low=1, error=PositionError)
                if col > len(row):
                    raise PositionError(f"row {r} ({shortened(part)}) has more than {len(row)} cells")
                i = j
                continue
            token = part[i:i + 2] if ch == "+" else ch
            if part[i + len(token):i + len(token) + 1] == "~":
                token += "~"
            code = code_of_letter.get(token)
            if code is None:
                known = " ".join(sorted(code_of_letter))
                raise PositionError(
                    f"row {r} ({shortened(part)}): unknown piece {token!r} (known: {known}, digits 0-9)")
            if col >= len(row):
                raise PositionError(f"row {r} ({shortened(part)}) has more than {len(row)} cells")
            cells[row[col]] = code
            col += 1
            i += len(token)
        if col != len(row):
            raise PositionError(f"row {r} ({shortened(part)}) has {col} cells, expected {len(row)}")
    return cells
