"""In-a-row games: the m,n,k family, with or without gravity.

Two players take turns putting a stone of their own on the board; the first to make an
unbroken row of ``k`` stones (across, up or diagonally) wins.  The board filling up
without a row is a draw.

* **tic-tac-toe**  3x3, three in a row;
* **Connect Four** 7 columns x 6 rows with gravity (a stone falls to the lowest empty
  cell of its column), four in a row;
* **gomoku**       15x15, five in a row; free-style: a longer row (an overline) wins too;
* **renju**        gomoku where Black wins with exactly five and may not make an overline,
  a double four or a double three (its forbidden points), after the classic opening.

Notation.  Positions are the rank string (top row first, ``X`` for the first player's
stones, ``O`` for the second's, digits for empty runs) and the side to move as a lower-case
letter: ``3/3/3 x``, ``7/7/7/7/7/7 x``.  A move is the name of the cell the stone goes on:
``b2``, ``h8``.  With gravity the move is written as the cell where the stone lands
(``d1`` for the first stone in the fourth column); the column letter (``d``) and the
column number counted from 1 (``4``, as in the digit strings such as ``4453`` that
Connect Four solvers read) are accepted too.

Knowledge for bots.  Every window of ``k`` cells in a line is scanned on bit sets
(:class:`~myriad.core.mechanics.placement.LineWindows`); a window still open to one player
only is worth more the more of its stones it holds, with the weights of
:class:`~myriad.core.mechanics.placement.WindowWeights` (data, per game).  Search sees only
forced moves when there are any (complete a row; else block the opponent's), and on big
boards only the cells near the stones.  Threat-space search (:mod:`myriad.ai.threats`)
plays the stones that make a four or an open three, and answers them with the blocks and
defences the windows name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from myriad.core.caches import MB, ByteBudget
from myriad.core.errors import GameDefinitionError, IllegalMoveError, InvalidMoveError, PositionError
from myriad.core.game import Game, Outcome
from myriad.core.mechanics.forbidden import ForbiddenPoints
from myriad.core.mechanics.line_tally import LineIndex, LineTally
from myriad.core.mechanics.placement import (
    FreePlacement,
    GravityDrops,
    LineGoal,
    LineWindows,
    Vicinity,
    WindowReach,
    WindowScan,
    WindowWeights,
    bit_positions,
    bit_table,
    cell_bits,
    window_weights,
)
from myriad.core.move import Move
from myriad.core.numbers import shortened
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.state import State
from myriad.core.ranks import format_ranks, parse_ranks
from myriad.core.topology import NO_LINK, file_letter, square_board

#: Bytes of the scans, tallies, parent links and line statistics kept per game, per process
#: (by position key; shared by every bot of the process and not counted in a bot's
#: ``hash=``), and their shares; when one is full its oldest sixteenth goes (a search needs
#: those of a node and its children, and of its earlier iterations: a tally worked out anew
#: costs as much as twenty added stones).  Entries measured in gomoku: a tally 2.8 KB, a
#: scan 0.8 KB, a parent link 0.2 KB, line statistics 0.4 KB; at 32 MB, a gomoku search to
#: depth 8 took 1.5 times as long (tallies worked out again), at 64 MB as long as with the
#: 120 MB the caches held when bounded in entries (16k tallies and scans, 64k links, 128k
#: statistics).
GAME_CACHE_BYTES = 64 * MB
CACHE_SHARES = {"tallies": 0.5, "scans": 0.15, "parents": 0.1, "stats": 0.25}
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
CELL_NAME = re.compile(r"[a-z]+[0-9]+")
#: Up to this many moves, the move heuristics of a position are worked out for their
#: cells alone (quiescence orders a few threats) rather than for every cell.
FEW_MOVES = 8


class InARow(Game):
    """An m,n,k-game: ``width`` x ``height`` board, ``k`` in a row wins.

    ``gravity`` makes stones fall to the bottom of their column; ``overlines`` says whether
    a row longer than ``k`` wins too; with ``candidate_radius`` bots consider only the cells
    near a stone (see :meth:`candidate_moves`), with ``move_cap`` only that many of them,
    the best first; ``threat_space`` lets them search wins by threats (see
    :meth:`threat_moves`), ``quiescence_depth`` bounds their threat quiescence; ``weights``
    is the bots' knowledge (default
    :func:`~myriad.core.mechanics.placement.window_weights`).  Rule options: the players
    in ``exact_for`` win only with exactly ``k`` (renju's Black); ``forbidden`` judges the
    first player's forbidden points, which are then not legal for it (see
    :mod:`~myriad.core.mechanics.forbidden`); ``opening_radii[n]`` bounds how far (in king
    steps) from the centre the ``n``-th stone may go.  ``flags[0]`` is 0 while nobody has a row,
    else 1 + the winner (set by :meth:`play` from the lines through the last stone).
    """

    family = "in-a-row"
    player_names: tuple[str, ...] = ("X", "O")

    def __init__(self, game_id: str, name: str, width: int, height: int, k: int, *,
                 gravity: bool = False, overlines: bool = True, candidate_radius: int | None = None,
                 player_names: tuple[str, str] = ("X", "O"), rules: str = "",
                 weights: WindowWeights | None = None, move_cap: int | None = None,
                 threat_space: bool = False, quiescence_depth: int = 8,
                 exact_for: tuple[int, ...] = (), forbidden: ForbiddenPoints | None = None,
                 opening_radii: tuple[int, ...] = ()) -> None:
        if k > max(width, height):
            raise GameDefinitionError(f"{game_id}: {k} in a row cannot fit on {width}x{height}")
        self.id = game_id
        self.name = name
        self.player_names = player_names
        self.rules = rules
        self.k = k
        topology = square_board(width, height)
        pieces = PieceSet([PieceKind("stone", "x", letters=("X", "O"))])
        self.stones = (pieces.code("stone", 0), pieces.code("stone", 1))
        self.side_letters = tuple(pieces.letter_of[c].lower() for c in self.stones)
        empty = "/".join([str(width)] * height)
        super().__init__(topology, pieces, {"start": f"{empty} {self.side_letters[0]}"})
        # -- rules: where a stone may go, and what wins
        self.placement: FreePlacement | GravityDrops = (
            GravityDrops(topology, self.stones, down="s") if gravity else FreePlacement(topology, self.stones))
        self.goal = LineGoal(topology, k, overlines=overlines)
        #: Per player, what wins: a row of ``k`` or more, or exactly ``k`` for the players
        #: of ``exact_for`` (renju's Black).
        exact = LineGoal(topology, k, overlines=False) if overlines and exact_for else self.goal
        self.goals: tuple[LineGoal, LineGoal] = (exact if 0 in exact_for else self.goal,
                                                 exact if 1 in exact_for else self.goal)
        #: The first player's forbidden points (renju), not legal moves for it; kept per
        #: position key as bit sets.
        self.forbidden = forbidden
        self._forbidden: dict[int, int] = {}
        self._forbidden_budget = ByteBudget(int(GAME_CACHE_BYTES * 0.05), 128)
        #: Opening rule: the ``n``-th stone goes within ``opening_radii[n]`` steps (king
        #: moves) of the centre cell, as a bit set per stone (renju's classic opening: the
        #: centre, then next to it, then within the central 5x5).
        cx, cy = width // 2, height // 2
        self.opening: tuple[int, ...] = tuple(
            sum(1 << pos for pos, (x, y) in enumerate(topology.coords) if max(abs(x - cx), abs(y - cy)) <= r)
            for r in opening_radii)
        self.reason = f"{NUMBER_WORDS.get(k, str(k))} in a row"
        self.gravity = gravity
        self.vicinity = Vicinity(topology, candidate_radius) if candidate_radius else None
        #: With gravity: column letters and numbers, and per cell the aliases of a move there.
        self.column_names: tuple[str, ...] = ()
        self.column_numbers: tuple[str, ...] = ()
        self.aliases: tuple[tuple[str, ...], ...] = ((),) * topology.size
        if isinstance(self.placement, GravityDrops):
            count = len(self.placement.columns)
            self.column_names = tuple(file_letter(c) for c in range(count))
            self.column_numbers = tuple(str(c + 1) for c in range(count))
            self.aliases = tuple((self.column_names[c], self.column_numbers[c]) for c in self.placement.column_of)
        # -- knowledge for bots
        self.windows = LineWindows(topology, k) if k >= 2 else None
        self.weights = weights or window_weights(k, forks_playable=not gravity)
        self.stone_bits = tuple(bit_table(code) for code in self.stones)
        self.full = (1 << topology.size) - 1
        #: With gravity: per cell the cell above it (-1 at the top).
        self.above = topology.links[topology.direction("n")]
        #: Per player, the cells where an unplayable threat counts as strong (with gravity
        #: and columns of even height: odd rows for the first player, even rows for the
        #: second, the zugzwang rule of Connect Four end games).
        self.strong: tuple[int, int] = (0, 0)
        if isinstance(self.placement, GravityDrops) and all(len(c) % 2 == 0 for c in self.placement.columns):
            columns = self.placement.columns
            self.strong = (sum(1 << pos for column in columns for pos in column[0::2]),
                           sum(1 << pos for column in columns for pos in column[1::2]))
        #: Quiescence searches threats (see :meth:`noisy_moves`); not under gravity, where
        #: a threat may not be playable for many moves.
        self.quiescence = not gravity
        self.move_cap = move_cap
        self.threat_space = threat_space and not gravity
        self.quiescence_depth = quiescence_depth
        self._scans: dict[int, WindowScan] = {}
        #: Line tallies (see :mod:`~myriad.core.mechanics.line_tally`) by position key, and
        #: per position played in search its parent's key and the stone added.
        self.line_index = (LineIndex(self.windows, topology, self.weights.lowest_ordering_count,
                                     cache_bytes=int(GAME_CACHE_BYTES * CACHE_SHARES["stats"]))
                           if self.windows is not None else None)
        if self.line_index is not None and not self.line_index.exact:
            self.line_index = None
        self._tallies: dict[int, LineTally] = {}
        self._parents: dict[int, tuple[int, int, int]] = {}
        share = {cache: int(GAME_CACHE_BYTES * part) for cache, part in CACHE_SHARES.items()}
        self._scan_budget = ByteBudget(share["scans"], 1024)
        self._tally_budget = ByteBudget(share["tallies"], 4096, skip=(self.line_index,))
        self._parent_budget = ByteBudget(share["parents"], 256)
        self._move_values: tuple[int, dict[int, int]] = (-1, {})
        #: Per cell, ``weights.central`` times the windows through it: the move value of a
        #: cell in no open window.
        self.central_values: tuple[int, ...] = tuple(
            self.weights.central * n for n in self.windows.centrality) if self.windows else (0,) * topology.size

    # -- play ----------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        """A stone on any empty cell (the landing cell of any open column with gravity);
        nothing once a row is made."""
        if state.flags[0]:
            return []
        moves = self.placement.moves(state.cells, self.stones[state.to_move])
        if self.opening:
            placed = len(state.cells) - state.cells.count(0)
            if placed < len(self.opening):
                zone = self.opening[placed]
                moves = [m for m in moves if zone >> m[0][2] & 1]
        if self.forbidden is not None and state.to_move == 0:
            banned = self.forbidden_points(state)
            if banned:
                moves = [m for m in moves if not banned >> m[0][2] & 1]
        return moves

    def forbidden_points(self, state: State) -> int:
        """The bit set of the cells where the first player may not put a stone (its
        forbidden points, see :mod:`~myriad.core.mechanics.forbidden`); 0 without such
        rules.  Kept per position key."""
        if self.forbidden is None:
            return 0
        found = self._forbidden.get(state.key)
        if found is None:
            stones = self._read_stones(state)
            found = self.forbidden.points(state.cells, self.stones[0], stones[0],
                                          self.full & ~(stones[0] | stones[1]))
            self._forbidden_budget.make_room(self._forbidden)
            self._forbidden[state.key] = found
        return found

    def play(self, state: State, move: Move) -> State:
        """The state after ``move``, a stone put on an empty cell (the generic
        :meth:`Game.play` made simple: search plays millions of them); the bots' knowledge
        of it is worked out from its parent's, so where it came from is remembered."""
        pos, stone = move[0][2], move[0][3]
        me = state.to_move
        cells = list(state.cells)
        cells[pos] = stone
        zobrist = self.zobrist
        key = state.key ^ zobrist.cell[pos * zobrist.values + stone] ^ zobrist.side[me] ^ zobrist.side[1 - me]
        flags = state.flags
        if self.goals[me].completed_at(cells, pos):
            flags = (me + 1,)
            key ^= zobrist.flags_key(state.flags) ^ zobrist.flags_key(flags)
        child = State(tuple(cells), 1 - me, flags, state.counters, state.hands, key, (), self)
        if self.line_index is not None:
            parents = self._parents
            self._parent_budget.make_room(parents)
            parents[key] = (state.key, pos, me)
        return child

    def outcome(self, state: State) -> Outcome | None:
        """The player who made a row wins; a full board without one is a draw."""
        if state.flags[0]:
            return Outcome.win(state.flags[0] - 1, self.reason)
        if 0 not in state.cells:
            return Outcome.draw("board full")
        return None

    # -- knowledge for bots -------------------------------------------------------------------

    def stones_of(self, state: State) -> tuple[int, int]:
        """The bit sets of each player's stones (the tally's when there is one)."""
        if self.line_index is not None:
            return self.tally(state).stones
        return self._read_stones(state)

    def _read_stones(self, state: State) -> tuple[int, int]:
        """The bit sets of each player's stones, read from the cells."""
        cells = state.cells
        return cell_bits(cells, self.stone_bits[0]), cell_bits(cells, self.stone_bits[1])

    def tally(self, state: State) -> LineTally:
        """The line tally of ``state``: its parent's with the last stone added when the
        parent's is known, else worked out from the board (kept by position key)."""
        assert self.line_index is not None
        tallies = self._tallies
        found = tallies.get(state.key)
        if found is None:
            link = self._parents.get(state.key)
            parent = tallies.get(link[0]) if link is not None else None
            if link is not None and parent is not None:
                found = parent.add(link[1], link[2])
            else:
                found = self.line_index.tally(self._read_stones(state))
            self._tally_budget.make_room(tallies)
            tallies[state.key] = found
        return found

    def reach(self, state: State, lowest: int) -> WindowReach:
        """The cells in one and in two pure windows, per player and stone count from
        ``lowest`` up (see :meth:`LineWindows.reach`)."""
        if self.line_index is not None and self.line_index.lowest <= lowest:
            return self.tally(state).reach(lowest)
        assert self.windows is not None
        return self.windows.reach(self.stones_of(state), lowest)

    def scan(self, state: State) -> WindowScan:
        """The window scan of ``state`` (kept in a cache by position key)."""
        scan = self._scans.get(state.key)
        if scan is None:
            assert self.windows is not None
            self._scan_budget.make_room(self._scans)
            if self.line_index is not None:
                scan = self.tally(state).scan()
            else:
                scan = self.windows.scan(self.stones_of(state))
            if self.forbidden is not None:
                scan = self._restricted(state, scan)
            self._scans[state.key] = scan
        return scan

    def _restricted(self, state: State, scan: WindowScan) -> WindowScan:
        """The scan as the first player's restrictions leave it: its threats only where a
        stone makes a winning row (not an overline where those do not win), its builds and
        fork cells without its forbidden points (a double four or a double three there is
        no threat: the stone may not go there)."""
        banned = self.forbidden_among(state, scan.builds[0])  # only those of its builds matter here
        goal, code = self.goals[0], self.stones[0]
        threats = 0
        for pos in bit_positions(scan.threats[0]):
            if goal.completes(state.cells, pos, code):
                threats |= 1 << pos
        return scan._replace(threats=(threats, scan.threats[1]), builds=(scan.builds[0] & ~banned, scan.builds[1]),
                             forks=(scan.forks[0] & ~banned, scan.forks[1]))

    def forbidden_among(self, state: State, cells: int) -> int:
        """The first player's forbidden points among the empty ``cells`` (a bit set):
        those of :meth:`forbidden_points` when they are known, else judged for these
        cells alone (evaluation and quiescence ask about a few cells of many positions)."""
        if self.forbidden is None:
            return 0
        known = self._forbidden.get(state.key)
        if known is not None:
            return known & cells
        stones = self._read_stones(state)
        return self.forbidden.points(state.cells, self.stones[0], stones[0], cells & ~(stones[0] | stones[1]))

    def banned(self, state: State) -> int:
        """The bit set of the cells the mover may not play for its restrictions (the
        first player's forbidden points), 0 for the other player or without them."""
        return self.forbidden_points(state) if state.to_move == 0 and self.forbidden is not None else 0

    def playable(self, scan: WindowScan) -> int:
        """The bit set of the cells a stone may go on in the scanned position."""
        return self.placement.playable(self.full & ~scan.empty)

    def evaluate(self, state: State) -> float:
        """Windows still open to one player only, by stones held, the mover's minus the
        other's; a playable threat, a double threat or a fork decide (see ``weights``); so
        does, for a restricted mover, a threat of the opponent on one of its forbidden points
        (it cannot be blocked)."""
        if self.windows is None:
            return 0
        scan = self.scan(state)
        playable = self.playable(scan)
        if self.forbidden is not None and state.to_move == 0:
            theirs = scan.threats[1] & playable
            if theirs and not scan.threats[0] & playable and self.forbidden_among(state, theirs):
                return -self.weights.win_now
        gravity = self.placement if isinstance(self.placement, GravityDrops) else None
        return self.weights.evaluate(scan, state.to_move, playable, self.strong, gravity)

    def move_heuristic(self, state: State, move: Move) -> float:
        """What a stone on the cell builds of the mover's windows and blocks of the
        opponent's, plus ``central`` per window through it; with gravity, a stone that lets
        the opponent play on a threat cell (its own or the opponent's) comes last.  The
        values of all cells are worked out once per position."""
        if not move:
            return 0
        pos = move[0][2]
        return self._cell_values(state).get(pos, self.central_values[pos])

    def move_heuristics(self, state: State, moves: Sequence[Move]) -> list[float]:
        """:meth:`move_heuristic` of each move, the cell values worked out once (for a
        few moves, those of their cells alone, as quiescence asks)."""
        if not moves or not moves[0]:
            return [self.move_heuristic(state, move) for move in moves]
        cells = [move[0][2] for move in moves]
        if len(cells) <= FEW_MOVES and self._move_values[0] != state.key:
            values = self.move_values(state, sum(1 << pos for pos in cells))
        else:
            values = self._cell_values(state)
        get, central = values.get, self.central_values
        return [get(pos, central[pos]) for pos in cells]

    def _cell_values(self, state: State) -> dict[int, int]:
        """:meth:`move_values` of ``state``, kept for the last position asked about."""
        key, values = self._move_values
        if key != state.key:
            values = self.move_values(state)
            self._move_values = (state.key, values)
        return values

    def move_values(self, state: State, cells: int = -1) -> dict[int, int]:
        """:meth:`move_heuristic` of the cells in some window still open (the others are
        worth their ``central_values``), of those in the bit set ``cells`` only if given."""
        if self.windows is None:
            return {}
        me = state.to_move
        weights = self.weights
        values = weights.move_values(self.reach(state, weights.lowest_ordering_count), me, cells)
        central = self.central_values
        for pos in values:
            values[pos] += central[pos]
        if isinstance(self.placement, GravityDrops):
            scan = self.scan(state)
            playable = self.playable(scan) & cells
            theirs, mine = scan.threats[1 - me], scan.threats[me]
            for pos in bit_positions(playable):
                up = self.above[pos]
                if up < 0:
                    continue
                if theirs >> up & 1:
                    penalty = weights.block_once[self.k - 1]
                elif mine >> up & 1 and self.k >= 3:
                    penalty = weights.block_once[self.k - 2]
                else:
                    continue
                values[pos] = values.get(pos, central[pos]) - penalty
        return values

    def noisy_moves(self, state: State) -> list[Move]:
        """Threats, for quiescence: nothing when the mover can complete a row, or has a fork
        cell, or the opponent has two playable threats (the evaluation knows how that ends);
        the block when the opponent has one threat; else the mover's stones that make a
        threat, and, when the opponent has a fork cell (an open three), the cells of the
        opponent's windows with two gaps (the defences).  A search on these alone finds
        wins by continuous threats and does not stop in front of an open three."""
        scan = self.scan(state)
        me, other = state.to_move, 1 - state.to_move
        playable = self.playable(scan)
        theirs = scan.threats[other] & playable
        if scan.threats[me] & playable or theirs & (theirs - 1) or scan.forks[me] & playable:
            return []
        if theirs:
            cells = theirs
        elif scan.forks[other]:
            cells = scan.builds[me] | scan.builds[other]
        else:
            cells = scan.builds[me]
        drops = self.placement.drops[self.stones[me]]
        cells &= playable
        if me == 0 and self.forbidden is not None:
            cells &= ~self.forbidden_among(state, cells)
        return [drops[pos] for pos in bit_positions(cells)]

    def may_stand_pat(self, state: State) -> bool:
        """Not when the opponent has one playable threat (it must be blocked) or, with no
        threat or fork of the mover's, a fork cell (an open three must be answered)."""
        scan = self.scan(state)
        me, other = state.to_move, 1 - state.to_move
        playable = self.playable(scan)
        theirs = scan.threats[other] & playable
        if scan.threats[me] & playable or theirs & (theirs - 1):
            return True
        if theirs:
            return False
        return bool(scan.forks[me] & playable) or not scan.forks[other] & playable

    def _row_moves(self, scan: WindowScan, me: int, playable: int, banned: int = 0) -> list[Move] | None:
        """The stone that completes a row of the mover ``me``; else the block of the
        opponent's single threat ([] against two); None when no row is about to be made."""
        drops = self.placement.drops[self.stones[me]]
        mine = scan.threats[me] & playable
        if mine:
            return [drops[(mine & -mine).bit_length() - 1]]
        theirs = scan.threats[1 - me] & playable
        if theirs:  # two, or one on a cell the mover may not play, cannot be stopped
            return [] if theirs & (theirs - 1) or theirs & banned else [drops[theirs.bit_length() - 1]]
        return None

    def threat_moves(self, state: State, wide: bool) -> list[Move]:
        """Threat-space search for the mover: a completion of a row if there is one; else
        the block of the opponent's single threat (nothing against two); else the fork
        cells (two threats at once); else the stones that make a threat and, when ``wide``
        and the opponent has no open three waiting, those that make a fork cell (an open
        three), best first."""
        scan = self.scan(state)
        me, other = state.to_move, 1 - state.to_move
        playable = self.playable(scan)
        banned = self.banned(state)
        forced = self._row_moves(scan, me, playable, banned)
        if forced is not None:
            return forced
        drops = self.placement.drops[self.stones[me]]
        forks = scan.forks[me] & playable & ~banned
        if forks:
            return [drops[pos] for pos in bit_positions(forks)]
        cells = scan.builds[me] & playable
        if wide and not scan.forks[other] & playable:
            assert self.windows is not None
            stones = self.stones_of(state)
            own, opponent = stones[me], stones[other]
            reach = self.reach(state, self.k - 3)
            made = self.windows.forks_made
            builds = scan.builds[me]
            for pos in bit_positions(reach.once[me][self.k - 3] & playable & ~cells):
                if made(own, opponent, pos, builds):
                    cells |= 1 << pos
        moves = [drops[pos] for pos in bit_positions(cells & ~banned)]
        if len(moves) > 1:
            values = self.move_heuristics(state, moves)
            moves = [m for _, m in sorted(zip(values, moves), key=lambda vm: -vm[0])]
        return moves

    def threat_answers(self, state: State) -> list[Move] | None:
        """The mover's answers to a threat: a completion of its own row alone; the block of
        the opponent's single threat ([] against two); against the opponent's fork cells
        (an open three), the cells that may stop all of them and the mover's own threats;
        None when nothing is pending or the mover has a fork cell of its own (it is then
        not forced)."""
        scan = self.scan(state)
        me, other = state.to_move, 1 - state.to_move
        playable = self.playable(scan)
        banned = self.banned(state)
        forced = self._row_moves(scan, me, playable, banned)
        if forced is not None:
            return forced
        drops = self.placement.drops[self.stones[me]]
        forks = scan.forks[other] & playable
        if not forks or scan.forks[me] & playable:
            return None
        assert self.windows is not None
        stones = self.stones_of(state)
        cells = (self.windows.fork_defences(stones[other], stones[me], forks) | scan.builds[me]) & playable
        return [drops[pos] for pos in bit_positions(cells & ~banned)]

    def candidate_moves(self, state: State, moves: list[Move]) -> list[Move]:
        """For bots: the moves that complete a row if there are any; else those that block
        an opponent's row about to be completed; else, without gravity, those that make two
        threats at once (an open four: the opponent cannot stop both); else, when the
        opponent could make two threats at once (an open three in gomoku), the cells of the
        opponent's windows with two gaps and those that make a threat of one's own; else,
        with ``candidate_radius``, only the cells within that many steps of a stone (a
        stone far from every other one rarely matters); else every move."""
        if self.windows is None or len(moves) <= 1:
            return moves if self.vicinity is None else self.vicinity.near_stones(state.cells, moves)
        scan = self.scan(state)
        occupied = self.full & ~scan.empty
        playable = self.placement.playable(occupied)
        cells = state.cells
        me, other = state.to_move, 1 - state.to_move
        every = not self.gravity and len(moves) == playable.bit_count()
        drops = self.placement.drops[self.stones[me]] if every else None

        def moves_on(bits: int) -> list[Move]:
            """The moves onto the cells of ``bits``, in the order of ``moves``; read from the
            bits, not the moves, when ``moves`` are all the legal ones without gravity (a
            stone on every empty cell, in position order)."""
            if drops is not None:
                return [drops[pos] for pos in bit_positions(bits & playable)]
            return [m for m in moves if m and bits >> m[0][2] & 1]
        for player in (me, other):
            threats = scan.threats[player] & playable
            if threats:
                code = self.stones[player]
                forced = [m for m in moves_on(threats) if self.goals[player].completes(cells, m[0][2], code)]
                if forced:
                    return forced
        if not self.gravity and scan.forks[me]:
            # No threat to answer: a stone making two threats at once wins.
            return moves_on(scan.forks[me])
        if not self.gravity and scan.forks[other]:
            return moves_on(scan.builds[other] | scan.builds[me])
        if self.vicinity is None or not occupied:
            return moves
        return moves_on(self.vicinity.near(occupied))

    # -- notation --------------------------------------------------------------------------

    def parse_position(self, text: str) -> State:
        """Read ``<rank string> <side to move>``, e.g. ``3/3/3 x``."""
        fields = text.split()
        if len(fields) != 2:
            raise PositionError(
                f"{self.id}: expected '<rows> <side to move>' like {self.setups['start']!r}, got {shortened(text)}")
        cells = parse_ranks(self.topology, fields[0], self.pieces.code_of_letter)
        if fields[1] not in self.side_letters:
            raise PositionError(f"{self.id}: side to move must be one of {'/'.join(self.side_letters)}, "
                                f"got {shortened(fields[1])}")
        to_move = self.side_letters.index(fields[1])
        winner = self.check_reachable(cells, to_move)
        return self.make_state(cells, to_move, (winner,))

    def check_reachable(self, cells: list[int], to_move: int) -> int:
        """Raise ``PositionError`` for a board no game reaches: stone counts that do not
        alternate from the first player, stones above an empty cell under gravity, rows of
        both players, a row with its maker to move, or rows that no single last stone
        completed (the game stops at the first row).  Returns 0, or 1 + the player with a row.

        The side to move is not checked against the counts: study positions (a threat to
        answer, whoever is to move) are read as written."""
        names = self.player_names
        counts = [cells.count(self.stones[0]), cells.count(self.stones[1])]
        if counts[0] - counts[1] not in (0, 1):
            raise PositionError(
                f"{self.id}: {counts[0]} {names[0]} and {counts[1]} {names[1]} stones: players alternate "
                f"from {names[0]}, so {names[0]} has as many stones as {names[1]} or one more")
        if isinstance(self.placement, GravityDrops):
            floating = self.placement.unsupported(cells)
            if floating:
                where = ", ".join(self.square_name(p) for p in floating)
                raise PositionError(f"{self.id}: stones on {where} have an empty cell below them")
        rows = {code for code, goal in zip(self.stones, self.goals) if code in goal.completed(cells)}
        if len(rows) > 1:
            raise PositionError(f"{self.id}: both players have {self.reason}")
        if not rows:
            return 0
        code = rows.pop()
        player = self.stones.index(code)
        if player == to_move:
            raise PositionError(f"{self.id}: {names[player]} has {self.reason}, so the game ended with "
                                f"{names[player]}'s stone and {names[player]} cannot be to move")
        for pos in range(len(cells)):
            if cells[pos] != code or not self.goals[player].completed_at(cells, pos):
                continue
            if self.gravity and self.above[pos] != NO_LINK and cells[self.above[pos]]:
                continue  # not the last stone of its column
            before = list(cells)
            before[pos] = 0
            if code not in self.goals[player].completed(before):
                return player + 1
        raise PositionError(f"{self.id}: {names[player]}'s rows cannot all have been made by one last "
                            "stone (the game stops at the first row)")

    def parse_move(self, state: State, text: str) -> Move:
        """The legal move written ``text`` (see :meth:`Game.parse_move`); a forbidden point
        of the first player is refused with the pattern that forbids it."""
        if self.forbidden is not None and state.to_move == 0 and not state.flags[0]:
            pos = self.topology.index.get(text.strip(), -1)
            if pos >= 0 and not state.cells[pos] and self.forbidden_points(state) >> pos & 1:
                why = self.forbidden.verdict(state.cells, pos, self.stones[0])
                rule = f"{text.strip()} is a forbidden point for {self.player_names[0]} ({why})"
                raise IllegalMoveError(f"{self.id}: {rule}, not a legal move here", rule)
        return super().parse_move(state, text)

    def format_position(self, state: State) -> str:
        """``<rank string> <side to move>``."""
        return f"{format_ranks(self.topology, state.cells, self.pieces.letter_of)} {self.side_letters[state.to_move]}"

    def format_move(self, state: State, move: Move) -> str:
        """The cell the stone goes on, e.g. ``b2``."""
        return self.topology.names[move[0][2]]

    def move_aliases(self, state: State, move: Move) -> Sequence[str]:
        """With gravity: the column letter and the column number counted from 1."""
        return self.aliases[move[0][2]]

    def check_move_syntax(self, text: str) -> None:
        """A cell of the board, or (with gravity) a column letter or number."""
        if text in self.topology.index or text in self.column_names or text in self.column_numbers:
            return
        what = "a cell name like 'b2'"
        if self.gravity:
            what += f", a column letter a-{self.column_names[-1]} or a column number 1-{len(self.column_names)}"
        if CELL_NAME.fullmatch(text):
            raise InvalidMoveError(f"{self.id}: there is no cell {text!r} on this board; expected {what}")
        raise InvalidMoveError(f"{self.id}: {shortened(text)} is not a move; expected {what}")


def mnk_game(width: int, height: int, k: int, *, gravity: bool = False, overlines: bool = True,
             candidate_radius: int | None = None, game_id: str = "", name: str = "",
             player_names: tuple[str, str] = ("X", "O"), weights: WindowWeights | None = None,
             move_cap: int | None = None, threat_space: bool = False, quiescence_depth: int = 8) -> InARow:
    """The m,n,k-game on ``width`` x ``height`` with ``k`` in a row (gravity optional)."""
    rules = (f"Players alternate placing a stone {'in a column; it falls to the lowest empty cell' if gravity else 'on an empty cell'}. "
             f"{'At least' if overlines else 'Exactly'} {k} own stones in a row (orthogonal or diagonal) win; "
             "a full board without one is a draw.")
    return InARow(game_id or f"mnk-{width}-{height}-{k}{'-gravity' if gravity else ''}",
                  name or f"{width},{height},{k}-game", width, height, k, gravity=gravity,
                  overlines=overlines, candidate_radius=candidate_radius, player_names=player_names,
                  rules=rules, weights=weights, move_cap=move_cap, threat_space=threat_space,
                  quiescence_depth=quiescence_depth)


def tictactoe() -> InARow:
    """Tic-tac-toe: 3x3, three in a row, X first."""
    return mnk_game(3, 3, 3, game_id="tictactoe", name="Tic-tac-toe")


#: Connect Four knowledge: the default window weights, plus threats on the right rows (odd
#: for the first player, even for the second) and threats stacked in a column.
CONNECT_FOUR_WEIGHTS = replace(window_weights(4, forks_playable=False), threat=24, strong_threat=40, stacked=60)


def connect_four(columns: int = 7, rows: int = 6) -> InARow:
    """Connect Four: 7 columns x 6 rows, stones fall, four in a row; the players are called
    by their discs' colours, Red (first) and Yellow."""
    return mnk_game(columns, rows, 4, gravity=True, game_id="connect4", name="Connect Four",
                    player_names=("red", "yellow"), weights=CONNECT_FOUR_WEIGHTS)


#: Gomoku knowledge: the mover's windows count six times (the side to move is a tempo
#: ahead).  Chosen on 12-game samples as the second player against `heuristic` at 0.5 s a
#: move, with the seven-move cap: 2 games of 24 lost; 3 of 12 with the default (double, ten
#: moves), 8 of 12 with equal weights.  With the threat quiescence bounded at two moves,
#: three times (instead of six) and a ten-move cap scored within a game of it (18 and 21 of
#: 26 against 20, as the second player from 13 openings where it had lost).
GOMOKU_WEIGHTS = window_weights(5, mover=6)


def gomoku(size: int = 15, overlines: bool = True) -> InARow:
    """Gomoku on 15x15: five in a row; free-style (``overlines``): six or more win too,
    standard gomoku (``overlines=False``): exactly five.  Bots look at the cells within two
    steps of a stone, search the best seven of them at each node below the root (all of
    them at the root), play at most two threats in quiescence (longer threat sequences are
    the threat-space search's: in quiescence they multiply in sharp positions, where a
    search reached 2 plies in 0.6 s with eight and 7 plies with two) and search wins by
    threats for both sides."""
    return mnk_game(size, size, 5, overlines=overlines, candidate_radius=2, move_cap=7, weights=GOMOKU_WEIGHTS,
                    threat_space=True, quiescence_depth=2,
                    game_id="gomoku" if overlines and size == 15 else f"gomoku-{size}{'' if overlines else '-exact'}",
                    name="Gomoku" if overlines else "Gomoku (exactly five)", player_names=("black", "white"))


RENJU_RULES = (
    "Renju: gomoku with restrictions on Black, who moves first. Players alternate placing a stone on an empty "
    "intersection of the 15x15 board; Black's first stone goes on the centre (h8), White's first on one of the eight points next to it, Black's second within the central 5x5 (f6-j10). Exactly five black stones in a "
    "row win for Black; five or more white stones (an overline too) win for White. Black may not play a forbidden "
    "point: one that makes an overline (six or more), two fours at once (double four), or two open threes at once "
    "(double three; a three counts only if one more stone, itself allowed, makes it a straight four). A move that "
    "makes five is never forbidden. Here forbidden points are not legal moves for Black (the RIF rules make playing "
    "one a loss); White may play anywhere and may use them. A full board without a row is a draw.")


#: Renju's opening rules (stone by stone, how far from the centre it may go): the classic
#: one (the centre, an adjacent point, a point of the central 5x5), the centre alone, none.
RENJU_OPENINGS = {"classic": (0, 1, 2), "centre": (0,), "free": ()}


def renju(size: int = 15, opening: str = "classic") -> InARow:
    """Renju on 15x15: Black (first) wins with exactly five and may not make an overline,
    a double four or a double three (its forbidden points, see
    :mod:`~myriad.core.mechanics.forbidden`, are left out of its legal moves); White wins
    with five or more.  ``opening`` (see :data:`RENJU_OPENINGS`): ``classic``, Black's
    first stone on the centre, White's next to it, Black's second within the central 5x5;
    ``centre``, only the first; ``free``, none (the RIF/Yamaguchi/Soosyrv openings with
    their swaps and proposals are not played).  Bots as in gomoku; their threats respect
    the forbidden points (a black four whose five-point is forbidden is no threat)."""
    if opening not in RENJU_OPENINGS:
        raise GameDefinitionError(f"renju: opening must be one of {', '.join(RENJU_OPENINGS)}, not {opening!r}")
    return InARow("renju" if size == 15 and opening == "classic" else f"renju-{size}-{opening}",
                  "Renju", size, size, 5, candidate_radius=2, move_cap=7, weights=GOMOKU_WEIGHTS,
                  threat_space=True, quiescence_depth=2, player_names=("black", "white"), rules=RENJU_RULES,
                  exact_for=(0,), forbidden=ForbiddenPoints(square_board(size, size), 5),
                  opening_radii=RENJU_OPENINGS[opening])
