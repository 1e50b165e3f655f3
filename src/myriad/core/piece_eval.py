"""Evaluation terms of the games of moving pieces beyond material and square tables: a
tapered evaluation (middle-game and endgame values and square tables, blended by the game
phase), passed pawns, the pawn shield of the royal piece and the mop-up of a bare royal
piece.  All are data (:class:`EvalTerms`, read from variant files), and the kernel family
of these games reads the same compiled tables (:class:`EvalTables`), so both engines score
a position alike.

The phase is the sum of the ``phase`` weights of the pieces on the board (a queen 4, a rook
2, a knight or bishop 1 in chess), capped at that of the start position (the full middle
game); the score is ``(mg * phase + eg * (full - phase)) // full`` in whole centipawns.
"Ahead" and "rank" are seen from each player's side: the first player's pieces move up the
board (the ranks as coordinates count them), the second player's down, as the square tables
are mirrored.  A pawn (a kind marked ``pawn``) is passed when no enemy pawn stands ahead of
it on its file or a neighbouring one.  The pawn shield counts the own pawns one and two
ranks ahead of the royal piece, on its file and the neighbouring ones (middle-game term).
Mop-up: when one side has only its royal piece left (and nothing in hand) and the other has
more, the stronger side gains ``mop_up[0]`` per step of the bare royal piece from the
centre and ``mop_up[1]`` per step the royal pieces are closer than the board allows
(Manhattan distances), after the blend.

The passed-pawn terms depend on the pawns alone: the reference keeps them per pawn
placement in a bounded cache (:data:`PAWN_CACHE` entries, emptied when full), as the
pawns of a searched tree change far less often than the pieces.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from myriad.core.errors import GameDefinitionError
from myriad.core.pieces import PieceSet
from myriad.core.ranks import board_rows
from myriad.core.topology import Topology

#: Pawn placements whose passed-pawn terms an :class:`EvalTables` keeps (0: none).
PAWN_CACHE = 1 << 14


@dataclass(frozen=True)
class EvalTerms:
    """The declaration: every part optional (none: material and square tables only).

    * ``endgame_values``: kind -> its value in the endgame (else its value);
    * ``endgame_squares``: kind -> its endgame square bonus, written as ``square_bonus``
      (else its middle-game table);
    * ``phase``: kind -> its weight in the game phase; without any, no blend (the
      middle-game values alone);
    * ``passed_pawn`` / ``passed_pawn_endgame``: a bonus per rank (the first player's
      first rank first, as each side sees the board) for a passed pawn, in the middle game
      and the endgame;
    * ``king_shield``: the bonus per own pawn one and two ranks ahead of the royal piece
      (middle game);
    * ``mop_up``: ``(per step from the centre, per step closer)``, see the module.
    """

    endgame_values: Mapping[str, int] = field(default_factory=dict)
    endgame_squares: Mapping[str, Sequence[int]] = field(default_factory=dict)
    phase: Mapping[str, int] = field(default_factory=dict)
    passed_pawn: Sequence[int] = ()
    passed_pawn_endgame: Sequence[int] = ()
    king_shield: Sequence[int] = ()
    mop_up: Sequence[int] = ()

    @property
    def active(self) -> bool:
        """Whether any term is declared."""
        return bool(self.phase or self.passed_pawn or self.passed_pawn_endgame or self.king_shield or self.mop_up)


def square_values(topology: Topology, pieces: PieceSet, values: Sequence[int],
                  bonus: Mapping[str, Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Per code and square: ``values[code]`` plus the kind's square bonus (written top row
    first as the first player sees the board; mirrored for the second player)."""
    rows = board_rows(topology)
    order = [p for row in rows for p in row]
    mirrored = [p for row in reversed(rows) for p in row]
    table = [tuple(0 for _ in range(topology.size))]
    for code in range(1, pieces.count):
        kind = pieces.kind(code)
        row = [values[code]] * topology.size
        extra = bonus.get(kind.name)
        if extra is not None:
            if len(extra) != topology.size:
                raise GameDefinitionError(f"{kind.name}: square bonus needs {topology.size} values")
            squares = order if pieces.owner_of[code] == 0 else mirrored
            for pos, b in zip(squares, extra):
                row[pos] += b
        table.append(tuple(row))
    return tuple(table)


class EvalTables:
    """:class:`EvalTerms` compiled for one game: per code and square the middle-game and
    endgame values, per code its phase weight and pawn/royal marks, the board's geometry."""

    def __init__(self, topology: Topology, pieces: PieceSet, terms: EvalTerms, square_bonus: Mapping[str, Sequence[int]],
                 royal: frozenset[int], pawns: frozenset[int]) -> None:
        self.terms = terms
        self.active = terms.active
        count = pieces.count
        for name in (*terms.endgame_values, *terms.endgame_squares, *terms.phase):
            pieces.code(name, 0)  # validates the names
        self.files = 1 + max(int(x) for x, _ in topology.coords)
        self.ranks = 1 + max(int(y) for _, y in topology.coords)
        for name, table in (("passed_pawn", terms.passed_pawn), ("passed_pawn_endgame", terms.passed_pawn_endgame)):
            if table and len(table) != self.ranks:
                raise GameDefinitionError(f"{name}: needs a value per rank ({self.ranks}), got {len(table)}")
        for name, pair in (("king_shield", terms.king_shield), ("mop_up", terms.mop_up)):
            if pair and len(pair) != 2:
                raise GameDefinitionError(f"{name}: needs two values, got {len(pair)}")
        #: Per code and square: the middle-game and the endgame value.
        self.middle = square_values(topology, pieces, pieces.value_of, square_bonus)
        end_values = [0] + [terms.endgame_values.get(pieces.kind(c).name, pieces.value_of[c]) for c in range(1, count)]
        end_bonus = {k.name: terms.endgame_squares.get(k.name, square_bonus.get(k.name)) for k in pieces.kinds}
        self.end = square_values(topology, pieces, end_values, {n: b for n, b in end_bonus.items() if b is not None})
        self.phase_of = tuple(0 if c == 0 else terms.phase.get(pieces.kind(c).name, 0) for c in range(count))
        self.owner_of = pieces.owner_of
        self.royal = tuple(c in royal for c in range(count))
        self.pawn = tuple(c in pawns for c in range(count))
        self.file = tuple(int(x) for x, _ in topology.coords)
        self.rank = tuple(int(y) for _, y in topology.coords)
        self.grid = [-1] * (self.files * self.ranks)
        for pos, (x, y) in enumerate(zip(self.file, self.rank)):
            self.grid[y * self.files + x] = pos
        self.centre = tuple((abs(2 * x - self.files + 1) + abs(2 * y - self.ranks + 1)) // 2
                            for x, y in zip(self.file, self.rank))
        self.passed_mg = tuple(terms.passed_pawn) or (0,) * self.ranks
        self.passed_eg = tuple(terms.passed_pawn_endgame) or (0,) * self.ranks
        self.has_passed = bool(terms.passed_pawn or terms.passed_pawn_endgame)
        self.shield = tuple(terms.king_shield) or (0, 0)
        self.mop = tuple(terms.mop_up) or (0, 0)
        #: pawns (position, owner) in board order -> their passed-pawn terms (middle game,
        #: endgame) for the first player; at most ``pawn_cache`` entries.
        self.passed_cache: dict[tuple[tuple[int, int], ...], tuple[int, int]] = {}
        self.pawn_cache = PAWN_CACHE
        #: The phase of the full middle game (the start position's, set by the game); 0: no blend.
        self.full_phase = 0

    def passed(self, pawns: Sequence[tuple[int, int]]) -> tuple[int, int]:
        """The passed-pawn terms (middle game, endgame) for the first player of the pawns
        ``(position, owner)``."""
        files, ranks, rank, file = self.files, self.ranks, self.rank, self.file
        # per player and file (+1), its pawns' furthest rank as the opponent counts
        front = [[-1] * (files + 2), [-1] * (files + 2)]
        for pos, q in pawns:
            r = rank[pos] if q == 1 else ranks - 1 - rank[pos]
            f = file[pos] + 1
            if r > front[q][f]:
                front[q][f] = r
        mg = eg = 0
        for pos, o in pawns:
            r = rank[pos] if o == 0 else ranks - 1 - rank[pos]
            enemy = front[1 - o]
            f = file[pos] + 1
            if enemy[f - 1] <= r and enemy[f] <= r and enemy[f + 1] <= r:
                if o == 0:
                    mg += self.passed_mg[r]
                    eg += self.passed_eg[r]
                else:
                    mg -= self.passed_mg[r]
                    eg -= self.passed_eg[r]
        return mg, eg

    def score(self, cells: Sequence[int], me: int, hands: Sequence[Sequence[int]]) -> int:
        """The board's value for ``me`` (the hands are the caller's, but a bare side's
        hand stops its mop-up)."""
        mid, end, owner_of, phase_of, royal, pawn = self.middle, self.end, self.owner_of, self.phase_of, \
            self.royal, self.pawn
        mg = eg = phase = 0
        kings = [-1, -1]
        others = [0, 0]
        pawns = []
        for pos, c in enumerate(cells):
            if c:
                o = owner_of[c]
                if o == me:
                    mg += mid[c][pos]
                    eg += end[c][pos]
                else:
                    mg -= mid[c][pos]
                    eg -= end[c][pos]
                phase += phase_of[c]
                if royal[c]:
                    if kings[o] < 0:
                        kings[o] = pos
                else:
                    others[o] += 1
                if pawn[c]:
                    pawns.append((pos, o))
        files, ranks, rank, file = self.files, self.ranks, self.rank, self.file
        if self.has_passed and pawns:
            placement = tuple(pawns)
            passed = self.passed_cache.get(placement)
            if passed is None:
                passed = self.passed(pawns)
                if self.pawn_cache:
                    if len(self.passed_cache) >= self.pawn_cache:
                        self.passed_cache.clear()
                    self.passed_cache[placement] = passed
            if me == 0:
                mg += passed[0]
                eg += passed[1]
            else:
                mg -= passed[0]
                eg -= passed[1]
        if self.shield[0] or self.shield[1]:
            for o in range(2):
                king = kings[o]
                if king < 0:
                    continue
                x, y = file[king], rank[king]
                for d in range(2):
                    yy = y + d + 1 if o == 0 else y - d - 1
                    if yy < 0 or yy >= ranks:
                        continue
                    count = 0
                    for xx in range(x - 1, x + 2):
                        if 0 <= xx < files:
                            q = self.grid[yy * files + xx]
                            if q >= 0:
                                c = cells[q]
                                if c and pawn[c] and owner_of[c] == o:
                                    count += 1
                    mg += self.shield[d] * count if o == me else -self.shield[d] * count
        full = self.full_phase
        if full > 0:
            ph = min(phase, full)
            score = (mg * ph + eg * (full - ph)) // full
        else:
            score = mg
        if (self.mop[0] or self.mop[1]) and kings[0] >= 0 and kings[1] >= 0:
            for strong in range(2):
                weak = 1 - strong
                if others[weak] == 0 and others[strong] > 0 and not (hands and any(hands[weak])):
                    a, b = kings[strong], kings[weak]
                    apart = abs(file[a] - file[b]) + abs(rank[a] - rank[b])
                    bonus = self.mop[0] * self.centre[b] + self.mop[1] * (files + ranks - 2 - apart)
                    score += bonus if strong == me else -bonus
        return score
