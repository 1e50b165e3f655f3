"""Forbidden points (core/mechanics/forbidden.py) against the renju rules and an independent
implementation.

Proof data:
* tests/data/renju_forbidden_cases.txt: cases written from the definitions of the RIF rules
  (double three, double four in two lines and in one, overline, a five that wins with a
  forbidden pattern, four-three, and false threes: blocked by the edge, by White, by an
  overline, by a forbidden four-point, by a four-point that makes a five);
* tests/data/renju_forbidden_lu.json.gz: 6,000 random positions with Black's forbidden points
  as Wenzhe Lu's CForbiddenPointFinder (C++) judged them (tests/data/make_renju_forbidden.py);
  the default run checks the first 600, ``-m slow`` all of them.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from myriad.core.errors import GameDefinitionError
from myriad.core.mechanics.forbidden import (
    DOUBLE_FOUR,
    DOUBLE_THREE,
    OVERLINE,
    ForbiddenPoints,
    line_facts,
)
from myriad.core.topology import square_board

DATA = Path(__file__).parent / "data"
CASES = DATA / "renju_forbidden_cases.txt"
LU = DATA / "renju_forbidden_lu.json.gz"
BOARD = square_board(15, 15)
RULES = ForbiddenPoints(BOARD, 5)
BLACK, WHITE = 1, 2


def read_cases() -> list[tuple[str, str, list[int], str]]:
    """(point, verdict, cells, what it shows) per line of the cases file."""
    if not CASES.exists():
        pytest.fail(f"{CASES} is missing")
    cases = []
    for line in CASES.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        head, black, white, why = (field.strip() for field in line.split("|"))
        point, verdict = head.split()
        cells = [0] * BOARD.size
        for name in black.split()[1:]:
            cells[BOARD.pos(name)] = BLACK
        for name in white.split()[1:]:
            cells[BOARD.pos(name)] = WHITE
        cases.append((point, verdict, cells, why))
    assert len(cases) >= 15, "the cases file lost its cases"
    return cases


def bits(cells: list[int], value: int) -> int:
    return sum(1 << p for p, v in enumerate(cells) if v == value)


@pytest.mark.parametrize("point,verdict,cells,why", read_cases(), ids=lambda v: v if isinstance(v, str) else "")
def test_rule_cases(point: str, verdict: str, cells: list[int], why: str) -> None:
    pos = BOARD.pos(point)
    assert (RULES.verdict(cells, pos, BLACK) or "allowed") == verdict, why
    found = RULES.points(cells, BLACK, bits(cells, BLACK), bits(cells, 0))
    assert bool(found >> pos & 1) == (verdict != "allowed"), why


def lu_positions(limit: int | None) -> list[dict[str, object]]:
    if not LU.exists():
        pytest.fail(f"{LU} is missing: regenerate it with tests/data/make_renju_forbidden.py")
    with gzip.open(LU, "rt") as f:
        rows = [json.loads(line) for _, line in zip(range(limit or 10**9), f)]
    assert len(rows) == (limit or 6000)
    return rows


def check_against_lu(rows: list[dict[str, object]]) -> None:
    kinds: set[str] = set()
    for n, row in enumerate(rows):
        board = str(row["board"])
        cells = [0] * BOARD.size
        for i, ch in enumerate(board):  # row 1 first, a-o within a row: as square_board numbers cells
            cells[i] = {"X": BLACK, "O": WHITE, ".": 0}[ch]
        expected = dict(row["forbidden"])  # type: ignore[call-overload]
        found = RULES.points(cells, BLACK, bits(cells, BLACK), bits(cells, 0))
        mine = {BOARD.names[p]: RULES.verdict(cells, p, BLACK) for p in range(BOARD.size) if found >> p & 1}
        assert mine == expected, f"position {n}: {board}"
        kinds.update(expected.values())
    assert kinds == {OVERLINE, DOUBLE_FOUR, DOUBLE_THREE}


def test_against_lu_finder() -> None:
    check_against_lu(lu_positions(600))


@pytest.mark.slow
def test_against_lu_finder_all() -> None:
    check_against_lu(lu_positions(None))


def pattern(text: str) -> bytes:
    """A line pattern from ``X`` (own), ``O`` (other), ``.`` (empty), ``#`` (off the board);
    the stone goes on the middle ``p``."""
    return bytes({"X": 1, "O": 2, ".": 0, "#": 3, "p": 0}[c] for c in text)


@pytest.mark.parametrize("text,five,overline,fours,threes", [
    ("...XXpXX...", True, False, 0, ()),
    ("..XXXpXX...", False, True, 0, ()),
    ("...XXpX....", False, False, 1, ()),
    ("..X.XpX.X..", False, False, 2, ()),      # two fours in one line
    (".XXX.p.XXX.", False, False, 2, ()),
    ("....XpX....", False, False, 0, (-2, 2)),  # an open three, two ways to a straight four
    ("...XXp.....", False, False, 0, (-3, 1)),
    ("..#XXp.....", False, False, 0, ()),       # against the edge: no straight four
    ("..O.XpX....", False, False, 0, (2,)),
    ("..XX.p.X...", False, False, 0, ()),       # the straight four would be an overline
    ("XXX..p.....", False, False, 0, ()),
])
def test_line_facts(text: str, five: bool, overline: bool, fours: int, threes: tuple[int, ...]) -> None:
    facts = line_facts(pattern(text), 5)
    assert (facts.five, facts.overline, facts.fours, facts.three_points) == (five, overline, fours, threes)


def test_each_rule_is_a_parameter() -> None:
    cases = {why: (point, cells) for point, _, cells, why in read_cases()}
    point, cells = cases["two open threes, across and up"]
    assert ForbiddenPoints(BOARD, 5, double_three=False).verdict(cells, BOARD.pos(point), BLACK) is None
    point, cells = cases["two fours in two lines"]
    assert ForbiddenPoints(BOARD, 5, double_four=False).verdict(cells, BOARD.pos(point), BLACK) is None
    point, cells = cases["six in a row"]
    assert ForbiddenPoints(BOARD, 5, overline=False).verdict(cells, BOARD.pos(point), BLACK) is None
    # White's stones are judged by the same rules when asked (the rules know no colour).
    swapped = [{BLACK: WHITE, WHITE: BLACK}.get(v, 0) for v in cells]
    assert RULES.verdict(swapped, BOARD.pos(point), WHITE) == OVERLINE


def test_other_boards_and_bad_definitions() -> None:
    board = square_board(9, 9)
    small = ForbiddenPoints(board, 5)
    cells = [0] * board.size
    for name in ("c5", "d5", "e4", "e3"):
        cells[board.pos(name)] = BLACK
    assert small.verdict(cells, board.pos("e5"), BLACK) == DOUBLE_THREE
    # against the edge of the small board the vertical three is false: one three only
    for name in ("e4", "e3"):
        cells[board.pos(name)] = 0
    for name in ("e8", "e9"):
        cells[board.pos(name)] = BLACK
    cells[board.pos("d5")] = 0
    cells[board.pos("b5")] = BLACK
    assert small.verdict(cells, board.pos("e7"), BLACK) is None
    with pytest.raises(GameDefinitionError):
        ForbiddenPoints(BOARD, 2)
