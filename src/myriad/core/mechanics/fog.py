"""Fog of war: what a player of a game of moving pieces sees, and whole boards behind it.

A player sees the squares of its own pieces, every square one of its moves reaches (lands
on, captures on or passes over: a slide's path, a lame leap's leg, a hop's screen and the
squares after it) and each piece's ``sights``: for pawns, the square in front and the
forward diagonals whatever stands there (the rule of Fog of War chess as
http://www.dragonheelslair.com/en/rulesdrk.php states it).  Everything else is fog.  In an observation a fogged cell holds
the *fog marker of the observer*: a piece kind with no moves and no value that the observer
owns, so it blocks the observer's pieces and is never captured by them.  Since no move of
the observer reaches a fogged square, its moves in the observation are exactly its moves
in the whole state (a pawn's forward square in the fog is occupied, a fogged diagonal is
not an enemy).

:class:`Shadow` draws whole boards consistent with an observation: the opponent's pieces
that the observer cannot see (the start set less those captured and those in sight, a
promoted piece in sight paid for by a pawn) are placed on fogged squares their kind may
stand on, fogged squares that would be seen if empty are filled, those that would be seen
if occupied are left empty, and a board is kept only when it looks exactly like the
observation.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from myriad.core.errors import PositionError
from myriad.core.move import CAPTURE, MOVE, Move
from myriad.core.pieces import PieceKind
from myriad.core.topology import Topology

#: The name of the fog marker's piece kind.
FOG = "fog"
#: How fogged cells are written in positions: ``?`` in White's (the first player's) view,
#: ``*`` in Black's (the marker is the observer's, so the two views differ).
FOG_LETTERS = ("?", "*")
#: Placements :meth:`Shadow.sample` tries before it gives up, and repairs of each.
TRIES = 50
REPAIRS = 60


def fog_kind() -> PieceKind:
    """The fog marker as a piece kind: no value, no moves, drawn as a question mark."""
    return PieceKind(FOG, FOG_LETTERS[0], 0, glyphs=("?", "?"), letters=FOG_LETTERS)


class FogOfWar:
    """Visibility on one board: ``lame[code][pos]`` are the lame leaps of a code (their legs
    are passed over), ``sights[code][pos]`` the squares a piece sees whatever stands there
    (empty for most), ``fog_codes[player]`` the fog marker each player owns."""

    def __init__(self, topology: Topology, lame: Sequence[Sequence[Sequence[tuple[tuple[int, ...], int, int]]]],
                 sights: Sequence[Sequence[tuple[int, ...]]], fog_codes: tuple[int, int]) -> None:
        self.topology = topology
        self.lame = lame
        self.sights = sights
        self.fog_codes = fog_codes
        self._paths: dict[tuple[int, int], tuple[int, ...]] = {}

    def path(self, a: int, b: int) -> tuple[int, ...]:
        """The squares strictly between ``a`` and ``b`` on a line (none when not on one)."""
        key = (a, b)
        found = self._paths.get(key)
        if found is None:
            found = ()
            for d in range(len(self.topology.directions)):
                ray = self.topology.ray(a, d)
                if b in ray:
                    found = tuple(ray[:ray.index(b)])
                    break
            self._paths[key] = found
        return found

    def seen(self, cells: Sequence[int], player: int, moves: Sequence[Move], owner_of: Sequence[int]) -> set[int]:
        """The squares ``player`` sees: its pieces' and those ``moves`` (its moves on
        ``cells``) land on, capture on or pass over."""
        out = set()
        sights = self.sights
        for pos, c in enumerate(cells):
            if c and owner_of[c] == player and c not in self.fog_codes:
                out.add(pos)
                out.update(sights[c][pos])
        lame, path = self.lame, self.path
        for move in moves:
            for kind, frm, to, _piece, _part in move:
                out.add(to)
                if kind == CAPTURE:
                    out.add(frm)
                elif kind == MOVE:
                    out.update(path(frm, to))
                    for passed, t, _mode in lame[cells[frm]][frm]:
                        if t == to:
                            out.update(passed)
        return out

    def mask(self, cells: Sequence[int], seen: set[int], player: int) -> tuple[int, ...]:
        """``cells`` with every square outside ``seen`` holding ``player``'s fog marker."""
        fog = self.fog_codes[player]
        return tuple(c if pos in seen else fog for pos, c in enumerate(cells))


class Shadow:
    """Whole boards behind one observation (``cells``, fogged for ``player``).

    ``pool``: the codes of the unseen opponent pieces to hide; ``stands[code]``: the
    squares a code may stand on; ``seen_of(cells)``: what the observer sees on a board;
    ``probe``: an opponent code used to test which fogged squares must stay empty."""

    def __init__(self, fog: FogOfWar, cells: Sequence[int], player: int, pool: Sequence[int],
                 stands: Sequence[frozenset[int]], seen_of: Callable[[Sequence[int]], set[int]], probe: int) -> None:
        self.cells = tuple(cells)
        self.pool = tuple(pool)
        self.stands = stands
        self.seen_of = seen_of
        marker = fog.fog_codes[player]
        self.fogged = [pos for pos, c in enumerate(cells) if c == marker]
        blank = [0 if c == marker else c for c in cells]
        self.seen = set(range(len(cells))) - set(self.fogged)
        self.must_fill: list[int] = []
        self.may_fill: list[int] = []
        for pos in self.fogged:
            board = list(blank)
            board[pos] = 0
            for q in self.fogged:
                if q != pos:
                    board[q] = marker
            if pos in seen_of(board):
                self.must_fill.append(pos)
                continue
            board[pos] = probe
            if pos not in seen_of(board):
                self.may_fill.append(pos)
        if len(self.must_fill) > len(self.pool):
            raise PositionError(f"{len(self.must_fill)} fogged squares must hold a piece, but only "
                                f"{len(self.pool)} unseen pieces are left")

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        """A board with the unseen pieces placed in the fog that looks like the observation
        to its observer; raises ``PositionError`` when no such board is found.

        A random placement is repaired a square at a time: a fogged square that would be
        seen empty gets a piece moved onto it, one that would be seen occupied has its piece
        moved away (a cannon's target behind a screen, a pawn's diagonal)."""
        for _ in range(TRIES):
            board = self._place(rng)
            for _step in range(REPAIRS):
                if board is None:
                    break
                extra = self.seen_of(board) - self.seen
                if not extra:
                    return tuple(board)
                board = self._repair(board, sorted(extra), rng)
        raise PositionError("no board consistent with this observation was found")

    def _repair(self, board: list[int], extra: list[int], rng: random.Random) -> list[int] | None:
        """``board`` with one piece moved to hide one of ``extra`` (fogged squares it shows)."""
        y = rng.choice(extra)
        code = board[y]
        if code:
            choices = [q for q in self.fogged if not board[q] and q not in extra and q in self.stands[code]]
            if not choices:
                return None
            board[y], board[rng.choice(choices)] = 0, code
        else:
            choices = [q for q in self.fogged if board[q] and q not in self.must_fill and y in self.stands[board[q]]]
            if not choices:
                return None
            q = rng.choice(choices)
            board[y], board[q] = board[q], 0
        return board

    def _place(self, rng: random.Random) -> list[int] | None:
        pool = list(self.pool)
        rng.shuffle(pool)
        board = [0 if pos in self.fogged else c for pos, c in enumerate(self.cells)]
        free = set(self.may_fill)
        for pos in self.must_fill:
            for i, code in enumerate(pool):
                if pos in self.stands[code]:
                    board[pos] = pool.pop(i)
                    break
            else:
                return None
        for code in pool:
            squares = [q for q in free if q in self.stands[code]]
            if not squares:
                squares = [q for q in self.fogged if not board[q] and q in self.stands[code]]
                if not squares:
                    return None
            pos = rng.choice(sorted(squares))
            free.discard(pos)
            board[pos] = code
        return board
