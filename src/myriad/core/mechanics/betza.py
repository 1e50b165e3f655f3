"""Betza notation: a piece's movement written as letters, compiled into movement rules.

``parse_betza("mRcpR")`` (the xiangqi cannon) returns the rules of
:mod:`myriad.core.mechanics.movement` that the engine runs: here a rook slide that only
moves and a hop over one screen that only captures.  A piece is a sequence of groups, each
an atom with modifiers before it::

    group    = modifier* atom [atom | digits]
    atom     = W F D N A H C Z G      leapers (x, y): W (1,0) F (1,1) D (2,0) N (2,1) A (2,2)
                                      H (3,0) C (3,1) camel, Z (3,2) zebra, G (3,3)
             | K                      W and F (one step any way)
             | R B Q                  riders along W, F, both (rook, bishop, queen)

The subset read here (XBetza as Fairy-Stockfish reads it, where the two differ):

* **riders**: a doubled leaper (``WW`` = ``R``, ``NN`` nightrider) or a range (``R4``:
  at most four steps; ``N2``: at most two knight leaps in a line);
* **directions**, relative to the player (forward is towards the opponent): ``f`` ``b``
  ``l`` ``r``, ``v`` (``f`` and ``b``) and ``s`` (``l`` and ``r``).  On orthogonal atoms
  a pair such as ``fs`` is the union (``fsW``: forward and sideways, the xiangqi soldier
  over the river).  On diagonal atoms a pair names one diagonal (``frF``), a letter the
  two on that side (``fF``).  On oblique atoms (``N``, ``C``, ``Z``) a letter means the
  two moves closest to that direction (``fN``: the shogi knight), a pair the single move
  ``fr`` (mostly right, a little forward) or ``rf`` (mostly forward, a little right),
  and ``fh`` ``bh`` ``lh`` ``rh`` the four moves with a component that way.  Several
  directions add up (``fbN``).  No direction means all;
* **modes**: ``m`` moves only (to an empty square), ``c`` captures only; neither or
  both: either;
* ``n`` **lame** leaper: blocked by a piece on a square it passes, orthogonal steps
  first, then diagonal ones (``nN`` the xiangqi horse, ``nA`` the elephant, ``nZ`` the
  janggi elephant);
* ``p`` **hopper** on a rider along ``W`` or ``F`` lines: it needs one piece (the screen)
  to jump over, then moves beyond it (``pR`` the janggi cannon, ``mRcpR`` the xiangqi one);
* ``i`` **initial**: only as ``ifmnD`` (any orthogonal direction), the pawn's double step
  from the squares where the piece starts, over an empty square, which an ``e`` capture
  may answer;
* ``e`` **en passant**: the capture of a piece that has just passed the target square with
  a double step (``fceF``: the pawn's diagonal capture, en passant included).

Not read (refused with a message): ``g`` grasshoppers, ``j``, ``o``, ``a`` and other
multi-leg moves, ``hr``/``hl`` chiral pairs, hoppers on leapers or with a range.
"""

from __future__ import annotations

from myriad.core.errors import GameDefinitionError
from myriad.core.mechanics.movement import (
    BOTH,
    CAPTURE_ONLY,
    MOVE_ONLY,
    DoubleStep,
    EnPassant,
    Hop,
    LameLeap,
    Leap,
    Ride,
    Rule,
    Slide,
)

#: Leaper atoms: letter -> (long leg, short leg).
LEAPERS: dict[str, tuple[tuple[int, int], ...]] = {
    "W": ((1, 0),), "F": ((1, 1),), "D": ((2, 0),), "N": ((2, 1),), "A": ((2, 2),),
    "H": ((3, 0),), "C": ((3, 1),), "Z": ((3, 2),), "G": ((3, 3),), "K": ((1, 0), (1, 1)),
}
#: Rider atoms: letter -> the leaper atoms they repeat.
RIDERS: dict[str, tuple[tuple[int, int], ...]] = {"R": ((1, 0),), "B": ((1, 1),), "Q": ((1, 0), (1, 1))}
VERTICAL, HORIZONTAL = "fbvh", "rlsh"
#: The direction tokens read: a lone letter doubled (``ff``), or a vertical-horizontal pair.
DIRECTIONS = frozenset({"ff", "bb", "ll", "rr", "vv", "ss", "fr", "rf", "fl", "lf", "br", "rb", "bl", "lb",
                        "fs", "bs", "rv", "lv", "fh", "bh", "rh", "lh"})
MODIFIERS = set(VERTICAL + HORIZONTAL + "mcnpie")
UNSUPPORTED = {"g": "grasshoppers", "j": "j (jumping)", "o": "o (cylinder boards)", "a": "multi-leg moves (a)",
               "x": "x", "y": "y", "z": "z", "q": "q (circular moves)", "t": "t", "u": "u", "k": "k",
               "d": "d (friendly captures)"}
#: Unit vectors as compass directions, the first player's view (dy > 0 is forward).
COMPASS = {(0, 1): "n", (0, -1): "s", (1, 0): "e", (-1, 0): "w",
           (1, 1): "ne", (-1, 1): "nw", (1, -1): "se", (-1, -1): "sw"}


class BetzaError(GameDefinitionError):
    """A Betza string that cannot be read; says where and why."""


def _moves(a: int, b: int) -> list[tuple[tuple[int, int], frozenset[str]]]:
    """The eight moves of atom ``(a, b)`` (``a`` >= ``b``) as ``(dx, dy)`` with the direction
    tokens that select each (as Fairy-Stockfish reads them)."""
    return [((b, a), frozenset({"ff", "vv", "rf", "rv", "fh", "rh"})),
            ((-b, a), frozenset({"ff", "vv", "lf", "lv", "fh", "lh"})),
            ((b, -a), frozenset({"bb", "vv", "rb", "rv", "bh", "rh"})),
            ((-b, -a), frozenset({"bb", "vv", "lb", "lv", "bh", "lh"})),
            ((a, b), frozenset({"rr", "ss", "fr", "fs", "fh", "rh"})),
            ((a, -b), frozenset({"rr", "ss", "br", "bs", "bh", "rh"})),
            ((-a, b), frozenset({"ll", "ss", "fl", "fs", "fh", "lh"})),
            ((-a, -b), frozenset({"ll", "ss", "bl", "bs", "bh", "lh"}))]


def vectors(atom: tuple[int, int], tokens: list[str]) -> list[tuple[int, int]]:
    """The moves ``(dx, dy)`` of a leaper atom selected by direction tokens (two letters
    each, ``ff`` for a lone ``f``); none selects all.  In a fixed order: for the knight,
    the two forward, the two backward, then the sideways ones."""
    a, b = atom
    if b == 0:  # orthogonal: a pair is the union of its letters
        tokens = [t[0] * 2 for t in tokens] + [t[1] * 2 for t in tokens if t[0] != t[1]]
    out: list[tuple[int, int]] = []
    for vec, selected_by in _moves(a, b):
        if (not tokens or selected_by.intersection(tokens)) and vec not in out:
            out.append(vec)
    return out


def path(vec: tuple[int, int]) -> tuple[str, ...]:
    """The compass steps of a leap: orthogonal steps first, then diagonal ones (the
    squares a lame leaper passes)."""
    dx, dy = vec
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    diagonal, straight = min(abs(dx), abs(dy)), abs(abs(dx) - abs(dy))
    ortho = (sx, 0) if abs(dx) > abs(dy) else (0, sy)
    return (COMPASS[ortho],) * straight + (COMPASS[(sx, sy)],) * diagonal


def parse_betza(text: str, initial_zone: str | None = None) -> tuple[Rule, ...]:
    """The movement rules of a piece written ``text`` in Betza notation; ``initial_zone``
    names the zone of the piece's start squares, where ``i`` moves begin.  Raises
    :class:`BetzaError` naming the character and what was expected."""
    rules: list[Rule] = []
    i, n = 0, len(text)
    while i < n:
        start = i
        mods: list[str] = []
        tokens: list[str] = []
        while i < n and text[i] in MODIFIERS:
            ch = text[i]
            if ch in VERTICAL or ch in HORIZONTAL:
                nxt = text[i + 1] if i + 1 < n else ""
                if nxt and (nxt == ch or (ch in VERTICAL and nxt in HORIZONTAL)
                            or (ch in HORIZONTAL and nxt in VERTICAL)):
                    tokens.append(ch + nxt)
                    i += 2
                    continue
                tokens.append(ch * 2)
            else:
                mods.append(ch)
            i += 1
        if i >= n:
            raise BetzaError(f"Betza {text!r}: modifiers {text[start:]!r} at character {start + 1} "
                             f"have no atom after them (expected one of {''.join(LEAPERS) + ''.join(RIDERS)})")
        letter = text[i]
        if letter in UNSUPPORTED or (letter.islower() and letter not in MODIFIERS):
            what = UNSUPPORTED.get(letter, f"modifier {letter!r}")
            raise BetzaError(f"Betza {text!r}: {what} at character {i + 1} is not supported "
                             "(supported modifiers: f b l r v s h m c n p i e)")
        if letter not in LEAPERS and letter not in RIDERS:
            raise BetzaError(f"Betza {text!r}: {letter!r} at character {i + 1} is not an atom "
                             f"(expected one of {''.join(LEAPERS) + ''.join(RIDERS)})")
        i += 1
        limit: int | None = None if letter in RIDERS else 1
        if i < n and text[i] == letter:
            limit = None
            i += 1
        elif i < n and text[i].isdigit():
            j = i
            while j < n and text[j].isdigit():
                j += 1
            limit = int(text[i:j])
            if limit < 1:
                raise BetzaError(f"Betza {text!r}: range {text[i:j]!r} at character {i + 1} must be at least 1")
            i = j
        group = text[start:i]
        for token in tokens:
            if token not in DIRECTIONS:
                raise BetzaError(f"Betza {text!r}: direction {token.rstrip(token[0]) or token[0]!r} in {group!r} "
                                 "is not read (directions: f b l r v s, pairs such as fr rf fs, and "
                                 "fh bh lh rh on oblique atoms)")
        rules.extend(_group(text, group, letter, tokens, set(mods), limit, initial_zone))
    return tuple(rules)


def _group(text: str, group: str, letter: str, tokens: list[str], mods: set[str], limit: int | None,
           initial_zone: str | None) -> list[Rule]:
    """The rules of one group: ``letter`` with its direction tokens and modifiers."""
    def refuse(why: str) -> BetzaError:
        return BetzaError(f"Betza {text!r}: {group!r} {why}")

    atoms = RIDERS.get(letter) or LEAPERS[letter]
    mode = (MOVE_ONLY if "m" in mods and "c" not in mods else
            CAPTURE_ONLY if "c" in mods and "m" not in mods else BOTH)
    vecs = [v for atom in atoms for v in vectors(atom, tokens)]
    if not vecs:
        raise refuse("selects no move (check its direction letters)")
    units = [COMPASS[v] for v in vecs if v in COMPASS]
    others = [v for v in vecs if v not in COMPASS]
    if "i" in mods:
        if not ("n" in mods and letter == "D" and limit == 1 and mode == MOVE_ONLY and "p" not in mods):
            raise refuse("uses i, read only as ifmnD (the pawn's double step, move only, lame)")
        if initial_zone is None:
            raise refuse("uses i, but no zone of start squares was given")
        return [DoubleStep(COMPASS[(dx // 2, dy // 2)], initial_zone) for dx, dy in vecs]
    if "e" in mods:
        if limit != 1 or others or {"n", "p"} & mods:
            raise refuse("uses e (en passant), read only on one-step atoms (W, F, K)")
        out: list[Rule] = [EnPassant(tuple(units))]
        return ([Slide(tuple(units), 1, CAPTURE_ONLY)] + out) if "c" in mods else out
    if "p" in mods:
        if others or limit is not None or "n" in mods:
            raise refuse("uses p (hopper), read only on unlimited riders along W and F lines (pR, pB, pQ)")
        return [Hop(tuple(units), mode)]
    if "n" in mods:
        if limit != 1 or not others or units:
            raise refuse("uses n (lame), read only on leapers longer than one step (nD, nN, nA, nZ, ...)")
        return [LameLeap(tuple(path(v) for v in others), mode)]
    out = []
    if units:
        out.append(Slide(tuple(units), limit, mode))
    if others:
        paths = tuple(path(v) for v in others)
        out.append(Leap(paths, mode) if limit == 1 else Ride(paths, limit, mode))
    return out


def keeps_colour(rules: tuple[Rule, ...]) -> bool:
    """Whether a piece moving by ``rules`` stays on squares of one colour (every move an
    even number of orthogonal steps): the bishop, the alfil, the ferz."""
    def even(steps: tuple[str, ...]) -> bool:
        return sum(1 for s in steps if len(s) == 1) % 2 == 0

    for rule in rules:
        if isinstance(rule, (Slide, Hop, EnPassant)):
            if not all(even((d,)) for d in rule.directions):
                return False
        elif isinstance(rule, (Leap, Ride, LameLeap)):
            if not all(even(p) for p in rule.paths):
                return False
        elif isinstance(rule, DoubleStep):
            continue
    return bool(rules)
