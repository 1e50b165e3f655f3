"""Go on 9x9, 13x13 and 19x19 boards (Tromp-Taylor rules), and Atari Go as a parameter.

Equipment: a board of ``size`` x ``size`` intersections; black and white stones.
Start: an empty board, Black to move; or a handicap setup (``handicap2`` .. ``handicap9``:
Black's stones on the star points that GTP's ``fixed_handicap`` names, White to move).
Play: a stone goes on an empty point; enemy chains left without a liberty (an empty point
next to them) are taken off.  Suicide (a placement that leaves its own chain without a
liberty and takes nothing) is forbidden, and so is a placement that recreates any earlier
board position (positional superko).  A player may pass instead.
End: two passes in a row, or ``max_plies`` plies (3 per point: random games must end), end
the game.  Scoring is by area (Tromp-Taylor): each player's stones plus the empty regions
that reach only that player's stones; White adds ``komi`` (7.5 by default: no draws; an
integer komi makes draws possible).  Dead stones are not agreed: what is on the board
counts, so players (and the bots) take off dead stones by capturing them before passing.

Atari Go (``first_capture=True``): the first player to capture wins at once; a game that
ends without a capture (two passes, the ply cap) is scored by area like Go.

Notation.  Moves are GTP coordinates: a column letter ``A``..``T`` without ``I`` and a row
number from the bottom (``D4``; lower case accepted), or ``pass``.  Positions are
``<rows> <side> <captured by Black> <captured by White> <passes in a row> <plies>``: the
rows top first with ``X`` Black, ``O`` White and digits for runs of empty points (as FEN),
the side ``b`` or ``w``:  ``9/9/9/9/4X4/9/9/9/9 w 0 0 0 1``.  The history of positions that
superko needs is not part of the text: a position read from text has none.  Game records
are written and read as SGF (:meth:`Go.to_sgf`, :meth:`Go.from_sgf`).

Knowledge for bots: the candidate moves leave out filling one's own true eyes and
self-atari and keep the best ten by a quick look (captures, saving or giving atari,
contact, the third and fourth lines); pass stays a candidate when nothing else is, and
right after the opponent passed.  The move heuristic prefers captures, saving chains in
atari and giving atari; the evaluation is an area estimate (each empty point to the colour
of the nearer stones) plus chains in atari.  Atari Go forces a capture, the one saving
move or a ladder that takes a chain, leaves out moves walking into a ladder, ranks six
candidates by liberties, and weighs liberties and ataris in its evaluation (a chain in
atari whose extension stays in atari is lost).  Its quiescence reads tactics past the
search's depth: ataris that leave the new chain two liberties, and the one extension
saving a chain in atari (no standing pat then), so ladders and nets are read to the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from myriad.core.errors import GameDefinitionError, InvalidMoveError, PositionError
from myriad.core.game import Game, Next, Outcome
from myriad.core.mechanics.surround import Groups, Surround
from myriad.core.move import CAPTURE, DROP, PASS, Move
from myriad.core.numbers import read_int, shortened
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.ranks import format_ranks, parse_ranks
from myriad.core.state import State
from myriad.core.topology import square_board
from myriad.notation import sgf

#: GTP column letters: ``I`` is skipped (it looks like ``J`` and ``1``).
GTP_COLUMNS = "ABCDEFGHJKLMNOPQRST"
#: Counters of a state: passes in a row, plies played, stones captured by Black and White.
PASSES, PLIES, BLACK_CAPTURES, WHITE_CAPTURES = 0, 1, 2, 3


@dataclass(frozen=True)
class GoWeights:
    """Evaluation and move-ordering weights of Go, in points of area."""

    atari_mine: float = 0.5       # per own stone in atari (its chain may be taken)
    atari_theirs: float = 1.0     # per enemy stone in atari when we move (we may take it)
    capture: float = 3.0          # move ordering: per stone taken
    capture_bonus: float = 6.0    # move ordering: any capture
    save: float = 4.0             # move ordering: per stone of an own chain in atari saved
    give_atari: float = 2.0       # move ordering: putting an enemy chain in atari
    self_atari: float = -8.0      # move ordering: leaving the new chain with one liberty
    candidates: int = 10          # moves searched at a node (the best by heuristic and line)
    lines: tuple[float, ...] = (-3.0, -1.0, 1.0, 0.5)  # a point's worth on lines 1, 2, 3, 4
    contact: float = 1.0          # a point next to a stone (either colour)
    ladder_budget: int = 80       # Atari Go: positions read per ladder
    atari_liberty: float = 1.0    # Atari Go's quick look: per liberty of the new chain
    atari_pressure: float = 3.0   # ... and for each enemy chain it touches, divided by its liberties
    atari_candidates: int = 6     # Atari Go: moves searched at a node
    #: Atari Go's evaluation, for the side to move (kept small, so that MCTS's scale, the
    #: mean of the evaluations it meets, stays fine enough for them): an enemy chain in
    #: atari (we take it: the first capture wins), minus it for an own chain that cannot
    #: be saved (in atari on two points, or its one extension left in atari) ...
    atari_win: float = 10.0
    atari_saved: float = 3.0      # ... an own chain in atari that one extension saves (quiescence reads on)
    atari_share: float = 2.0      # ... each chain, against its owner: this divided by its liberties
    #: Atari Go's quiescence (tactical reading past the depth): ataris that leave the new
    #: chain two liberties or more, and the one extension saving a chain in atari, at
    #: most this many in a row (a ladder of ``atari_qdepth // 2`` ataris is read out).
    atari_qdepth: int = 16
    #: Playouts (MCTS on the kernel): a move's priority is the sum of the terms that apply
    #: -- a capture, saving an own chain in atari, a self-atari taking nothing, filling an
    #: own true eye, pass, putting an enemy chain in atari -- and a playout plays one of the
    #: moves of the highest priority: captures first, then saves; never an own eye nor a
    #: self-atari (pass instead).  Atari Go's also prefer ataris (a chain in atari is half
    #: taken, and the first capture wins).
    playout: tuple[float, ...] = (2.0, 1.0, -200.0, -1000.0, -100.0, 0.0)
    atari_playout: tuple[float, ...] = (2.0, 1.0, -200.0, -1000.0, -100.0, 0.5)
    mcts_cutoff: int = 10**6      # MCTS on the kernel: plies a playout plays before the evaluation (all)
    mcts_rave: float = 1000.0     # ... RAVE's equivalence parameter (0: plain UCT)
    mcts_c: float = 0.4           # ... the exploration constant
    atari_mcts_cutoff: int = 10**6  # Atari Go: the same three
    atari_mcts_rave: float = 1000.0
    atari_mcts_c: float = 0.4


def star_points(size: int) -> list[tuple[int, int]]:
    """The handicap points of a board, in GTP ``fixed_handicap`` order as (column, row):
    the four corner points on the third line (below 13) or the fourth, then the centre and
    the side points; [] for boards smaller than 7."""
    if size < 7:
        return []
    edge = 2 if size < 13 else 3
    far, mid = size - 1 - edge, size // 2
    return [(edge, edge), (far, far), (edge, far), (far, edge), (mid, mid),
            (edge, mid), (far, mid), (mid, edge), (mid, far)]


def handicap_points(size: int, stones: int) -> list[tuple[int, int]]:
    """Where ``stones`` handicap stones go (2 to 9), as GTP's ``fixed_handicap`` places them."""
    points = star_points(size)
    if size % 2 == 0 or not 2 <= stones <= (9 if size >= 9 else 4):
        raise GameDefinitionError(f"go: no fixed handicap of {stones} stones on {size}x{size}")
    if stones <= 4:
        return points[:stones]
    if stones % 2:  # 5, 7, 9: the centre point and one fewer around it
        return handicap_points(size, stones - 1) + [points[4]]
    return points[:4] + points[5:5 + stones - 4]


class Go(Game):
    """Go on a ``size`` x ``size`` board with ``komi``; Atari Go when ``first_capture``."""

    family = "go"
    player_names = ("black", "white")
    move_cap = 24  # alpha-beta searches the best 24 moves at a node

    def __init__(self, size: int = 19, komi: float = 7.5, first_capture: bool = False) -> None:
        if not isinstance(size, int) or not 5 <= size <= 19:
            raise GameDefinitionError(f"go: board size must be 5 to 19, not {size!r}")
        if komi * 2 != int(komi * 2):
            raise GameDefinitionError(f"go: komi must be a whole or half number, not {komi!r}")
        self.size = size
        self.komi = float(komi)
        self.first_capture = first_capture
        self.id = f"atarigo{size}" if first_capture else f"go{size}"
        self.name = f"Atari Go {size}x{size}" if first_capture else f"Go {size}x{size}"
        self.max_plies = 3 * size * size
        if first_capture:
            self.rules = ("Atari Go. Players take turns placing a stone on an empty point; chains of "
                          "stones left without liberties (adjacent empty points) are captured. The "
                          "first player to capture wins. Suicide is forbidden. If the game ends by "
                          "two passes without a capture, area decides.")
        else:
            self.rules = (f"Go, Tromp-Taylor rules. Place a stone on an empty point; enemy chains left "
                          f"without liberties are captured. Suicide is forbidden, and so is recreating "
                          f"any earlier position (superko). Pass instead if you wish; two passes in a "
                          f"row end the game. Score = your stones + empty regions touching only your "
                          f"stones; White adds komi {self.komi:g}. Dead stones are not agreed: capture "
                          f"them before passing.")
        topology = square_board(size, size, diagonals=False,
                                name=lambda c, r: f"{GTP_COLUMNS[c]}{r + 1}")
        pieces = PieceSet([PieceKind("stone", "x", letters=("X", "O"))])
        self.stones = (pieces.code("stone", 0), pieces.code("stone", 1))
        self.side_letters = ("b", "w")
        empty = [0] * topology.size
        setups = {"start": f"{format_ranks(topology, empty, pieces.letter_of)} b 0 0 0 0"}
        if not first_capture:
            for n in range(2, 10 if size >= 9 else 5):
                cells = list(empty)
                for c, r in handicap_points(size, n):
                    cells[r * size + c] = self.stones[0]
                setups[f"handicap{n}"] = f"{format_ranks(topology, cells, pieces.letter_of)} w 0 0 0 0"
        super().__init__(topology, pieces, setups)
        # -- rules
        self.surround = Surround(topology, self.stones)
        self.upper_names = {name.upper(): p for p, name in enumerate(topology.names)}
        self.lower_names = tuple(name.lower() for name in topology.names)
        self.star = frozenset(r * size + c for c, r in star_points(size))
        # -- knowledge for bots
        self.weights = GoWeights()
        if first_capture:  # (tactics decide Atari Go: ladders are read in quiescence)
            self.quiescence_depth = self.weights.atari_qdepth
        diagonals: list[tuple[int, ...]] = []
        for p in range(topology.size):
            c, r = p % size, p // size
            diagonals.append(tuple((r + dr) * size + c + dc for dc in (-1, 1) for dr in (-1, 1)
                                   if 0 <= c + dc < size and 0 <= r + dr < size))
        self.diagonals: tuple[tuple[int, ...], ...] = tuple(diagonals)
        lines = self.weights.lines
        #: Each point's worth by its line (the first line last, the third best).
        self.prior: tuple[float, ...] = tuple(
            lines[d] if (d := min(p % size, p // size, size - 1 - p % size, size - 1 - p // size)) < len(lines)
            else 0.0 for p in range(topology.size))
        #: The placements that take nothing, made once: (player, point) -> move.
        self.quiet_moves: tuple[tuple[Move, ...], ...] = tuple(
            tuple(Move(((DROP, p, p, stone, 0),)) for p in range(topology.size)) for stone in self.stones)
        # The chains of the last board asked about: legal moves, candidates, heuristics and
        # evaluation of one state share them.  (A memo of a pure function: the board tuple
        # is kept, so identity means equality; one tuple is swapped in at once.)
        self._memo: tuple[tuple[int, ...], Groups] = ((), Groups([], [], [], []))
        self._value_memo: tuple[State | None, float] = (None, 0.0)

    def chains(self, cells: tuple[int, ...]) -> Groups:
        """The chains of ``cells`` (see :meth:`Surround.groups`), remembered for the last board."""
        memo = self._memo
        if memo[0] is cells:
            return memo[1]
        found = self.surround.groups(cells)
        self._memo = (cells, found)
        return found

    # -- play ----------------------------------------------------------------------------

    def finished(self, state: State) -> bool:
        """Whether the game is over: two passes, the ply cap, or (Atari Go) a capture."""
        counters = state.counters
        return (counters[PASSES] >= 2 or counters[PLIES] >= self.max_plies
                or (self.first_capture and (counters[BLACK_CAPTURES] > 0 or counters[WHITE_CAPTURES] > 0)))

    def repetition_outcome(self, state: State) -> Outcome | None:
        """None: superko forbids a stone to repeat a board, and a pass, which leaves the
        board as it was, repeats no position (its key may still meet a board key of the
        history: Black's side word is zero)."""
        return None

    def board_key(self, state: State) -> int:
        """The Zobrist key of the board alone (whoever moves): what superko compares."""
        return state.key ^ self.zobrist.side[state.to_move]

    def legal_moves(self, state: State) -> list[Move]:
        """Pass, then every placement that is not suicide and recreates no earlier board."""
        if self.finished(state):
            return []
        me = state.to_move
        stone = self.stones[me]
        cells = state.cells
        table, values = self.zobrist.cell, self.zobrist.values
        board = self.board_key(state)
        seen = set(state.history)
        seen.add(board)
        moves = [PASS]
        quiet = self.quiet_moves[me]
        for pos, taken in self.surround.placements(cells, me, self.chains(cells)):
            key = board ^ table[pos * values + stone]
            if not taken:
                if key not in seen:
                    moves.append(quiet[pos])
                continue
            for q in taken:
                key ^= table[q * values + cells[q]]
            if key in seen:
                continue
            moves.append(Move(((DROP, pos, pos, stone, 0),)
                              + tuple((CAPTURE, q, q, cells[q], 0) for q in taken)))
        return moves

    def near_moves(self, state: State) -> list[tuple[Move, str]]:
        """Each empty point the mover may not play, with why: suicide (the stone or its
        chain would have no liberty) or ko (the board would repeat an earlier one)."""
        if self.finished(state):
            return []
        me, cells = state.to_move, state.cells
        legal = set(self.legal_moves(state))
        quiet = self.quiet_moves[me]
        placeable = {}
        for pos, taken in self.surround.placements(cells, me, self.chains(cells)):
            placeable[pos] = Move(((DROP, pos, pos, self.stones[me], 0),)
                                  + tuple((CAPTURE, q, q, cells[q], 0) for q in taken))
        near = []
        for pos, cell in enumerate(cells):
            if cell:
                continue
            move = placeable.get(pos)
            if move is None:
                near.append((quiet[pos], "suicide: the stone would have no liberty"))
            elif move not in legal:
                near.append((move, "ko: the move would repeat an earlier position (superko)"))
        return near

    def play(self, state: State, move: Move) -> State:
        """The state after ``move``; the history keeps the earlier boards (for superko)."""
        after = super().play(state, move)
        return State(after.cells, after.to_move, after.flags, after.counters, after.hands, after.key,
                     state.history + (self.board_key(state),), self)

    def after_move(self, state: State, move: Move, cells: list[int]) -> Next:
        """The other player moves; passes in a row, plies and captures are counted."""
        passes, plies, black, white = state.counters
        taken = len(move) - 1 if move else 0
        if state.to_move == 0:
            black += taken
        else:
            white += taken
        return Next(1 - state.to_move, state.flags,
                    (0 if move else passes + 1, plies + 1, black, white), state.hands, True)

    def score(self, state: State) -> float:
        """Black's area less White's area and komi (Tromp-Taylor)."""
        black, white = self.surround.area(state.cells)
        return black - white - self.komi

    def outcome(self, state: State) -> Outcome | None:
        """The first capture (Atari Go); else, after two passes or the ply cap, the area
        score with komi."""
        if not self.finished(state):
            return None
        counters = state.counters
        if self.first_capture and (counters[BLACK_CAPTURES] or counters[WHITE_CAPTURES]):
            return Outcome.win(0 if counters[BLACK_CAPTURES] else 1, "first capture")
        black, white = self.surround.area(state.cells)
        margin = black - white - self.komi
        how = "two passes" if counters[PASSES] >= 2 else f"move limit ({self.max_plies} plies)"
        text = f"{how}; area {black}-{white}, komi {self.komi:g}"
        if margin == 0:
            return Outcome.draw(f"{text}: jigo")
        return Outcome.win(0 if margin > 0 else 1, f"{text}: {'B' if margin > 0 else 'W'}+{abs(margin):g}")

    def result(self, state: State, moves: list[Move] | None = None) -> Outcome | None:
        """:meth:`outcome`, skipped when ``moves`` (the legal moves) exist."""
        if moves is None:  # (not given: the outcome works them out)
            return self.outcome(state)
        return None if moves else self.outcome(state)

    # -- knowledge for bots ------------------------------------------------------------------

    def _liberties_after(self, groups: Groups, cells: Sequence[int], pos: int, me: int) -> int:
        """Liberties of the chain a stone of ``me`` on ``pos`` forms, not counting captures."""
        libs: set[int] = set()
        label, own = groups.label, groups.owner
        for r in self.surround.neighbours[pos]:
            g = label[r]
            if g < 0:
                libs.add(r)
            elif own[g] == me:
                libs |= groups.liberties[g]
        libs.discard(pos)
        return len(libs)

    def is_own_eye(self, cells: Sequence[int], pos: int, me: int) -> bool:
        """Whether the empty ``pos`` is a true eye of ``me``: every neighbour is ``me``'s
        stone and the opponent holds no diagonal point (at most one away from the edge)."""
        stone = self.stones[me]
        for r in self.surround.neighbours[pos]:
            if cells[r] != stone:
                return False
        enemy = self.stones[1 - me]
        diagonals = self.diagonals[pos]
        bad = sum(1 for d in diagonals if cells[d] == enemy)
        return bad == 0 if len(diagonals) < 4 else bad <= 1

    def candidate_moves(self, state: State, moves: list[Move]) -> list[Move]:
        """Placements except those filling an own true eye or putting the new chain in
        atari without a capture, the best :attr:`GoWeights.candidates` of them by a quick
        look (captures, saving or giving atari, contact, the point's line), best first
        (ties in the order of ``moves``, as the kernel's candidates come); pass when
        nothing else is left or the opponent just passed (then passing may end the game).
        In Atari Go a capture, or the one move saving a chain in atari, is forced."""
        if not moves:
            return moves
        cells, me = state.cells, state.to_move
        groups = self.chains(cells)
        label, libs, owner = groups.label, groups.liberties, groups.owner
        neighbours, prior, w = self.surround.neighbours, self.prior, self.weights
        out: list[Move] = []
        values: list[float] = []
        for move in moves:
            if not move:
                continue
            pos = move[0][2]
            value = prior[pos]
            empties = own = 0
            for r in neighbours[pos]:
                g = label[r]
                if g < 0:
                    empties += 1
                    continue
                value += w.contact
                n = len(libs[g])
                if owner[g] == me:
                    own += 1
                    if n == 1:
                        value += w.save
                elif n == 2:
                    value += w.give_atari
            if len(move) > 1:
                value += w.capture_bonus + w.capture * (len(move) - 1)
            elif empties <= 1:
                if own == len(neighbours[pos]) and self.is_own_eye(cells, pos, me):
                    continue
                if self._liberties_after(groups, cells, pos, me) <= 1:
                    continue
            if self.first_capture:  # liberties are what matters: the new chain's, the enemy's
                value = prior[pos] + w.atari_liberty * self._liberties_after(groups, cells, pos, me)
                for g in {label[r] for r in neighbours[pos] if label[r] >= 0}:
                    if owner[g] != me:
                        value += w.atari_pressure / len(libs[g])
            out.append(move)
            values.append(value)
        if self.first_capture and out:
            forced = self._atari_go_forced(cells, groups, out, me)
            if len(forced) == 1:
                return forced
            if forced:
                kept = set(forced)
                values = [v for m, v in zip(out, values) if m in kept]
                out = [m for m in out if m in kept]
        cap = w.atari_candidates if self.first_capture else w.candidates
        ranked = sorted(range(len(out)), key=values.__getitem__, reverse=True)  # (stable: ties keep their order)
        out = [out[i] for i in ranked[:cap]]
        if not out or state.counters[PASSES]:
            out.append(PASS)
        return out

    def _atari_go_forced(self, cells: tuple[int, ...], groups: Groups, moves: list[Move],
                         me: int) -> list[Move]:
        """Atari Go's forced moves among ``moves``: a capture (it wins); else the one move
        that gives an own chain in atari its liberties back; else an atari that starts a
        ladder taking an enemy chain.  Otherwise the moves that do not walk into a ladder
        (all of them if every one does); [] when nothing is forced or left out."""
        captures = [m for m in moves if len(m) > 1]
        if captures:
            return captures[:1]
        threatened = {next(iter(libs)) for g, libs in enumerate(groups.liberties)
                      if groups.owner[g] == me and len(libs) == 1}
        if len(threatened) == 1:
            point = threatened.pop()
            return [m for m in moves if m and m[0][2] == point]
        if threatened:
            return []
        surround, budget = self.surround, self.weights.ladder_budget
        by_point = {m[0][2]: m for m in moves if m}
        for g, libs in enumerate(groups.liberties):
            if groups.owner[g] != me and len(libs) == 2:
                start = surround.ladder(cells, groups.stones[g][0], budget)
                if start is not None and start in by_point:
                    return [by_point[start]]
        safe = []
        for move in moves:
            if move and self._liberties_after(groups, cells, move[0][2], me) == 2:
                after = list(cells)
                after[move[0][2]] = self.stones[me]
                if surround.ladder(after, move[0][2], budget) is not None:
                    continue
            safe.append(move)
        return safe if safe and len(safe) < len(moves) else []

    def noisy_moves(self, state: State) -> list[Move]:
        """Go: captures.  Atari Go (where a capture wins at once, which the evaluation
        already scores): when an own chain is in atari, its one saving extension (to two
        liberties or more); otherwise the ataris on enemy chains of two liberties that
        leave the new chain two liberties or more; none when an enemy chain is in atari,
        or own chains on two points (the evaluation scores them won and lost)."""
        if not self.first_capture:
            return super().noisy_moves(state)
        moves = self.legal_moves(state)
        if not moves:
            return moves
        cells, me = state.cells, state.to_move
        groups = self.chains(cells)
        label, libs, owner = groups.label, groups.liberties, groups.owner
        threatened: set[int] = set()
        for g, chain_libs in enumerate(libs):
            if len(chain_libs) == 1:
                if owner[g] != me:
                    return []
                threatened |= chain_libs
        if threatened:
            if len(threatened) > 1:
                return []
            point = next(iter(threatened))
            if self._liberties_after(groups, cells, point, me) < 2:
                return []
            return [m for m in moves if m and m[0][2] == point]
        neighbours = self.surround.neighbours
        out = []
        for move in moves:
            if not move:
                continue
            pos = move[0][2]
            for r in neighbours[pos]:
                g = label[r]
                if g >= 0 and owner[g] != me and len(libs[g]) == 2:
                    if self._liberties_after(groups, cells, pos, me) >= 2:
                        out.append(move)
                    break
        return out

    def may_stand_pat(self, state: State) -> bool:
        """Go: always (no capture is forced).  Atari Go: not while an own chain is in
        atari and no enemy chain is (the saving move must be read: a chain left in atari
        is lost)."""
        if not self.first_capture:
            return super().may_stand_pat(state)
        groups = self.chains(state.cells)
        me = state.to_move
        own = False
        for g, chain_libs in enumerate(groups.liberties):
            if len(chain_libs) == 1:
                if groups.owner[g] != me:
                    return True
                own = True
        return not own

    def move_heuristics(self, state: State, moves: Sequence[Move]) -> list[float]:
        """Captures first (by size), then saving own chains in atari, giving atari and
        contact with stones, and last self-atari; pass 0."""
        cells, me = state.cells, state.to_move
        groups = self.chains(cells)
        w = self.weights
        label, own, libs, stones = groups.label, groups.owner, groups.liberties, groups.stones
        neighbours = self.surround.neighbours
        out: list[float] = []
        for move in moves:
            if not move:
                out.append(0.0)
                continue
            pos = move[0][2]
            near = [label[r] for r in neighbours[pos] if label[r] >= 0]
            if not near:
                out.append(0.0)
                continue
            taken = len(move) - 1
            score = w.contact
            if taken:
                score += w.capture_bonus + w.capture * taken
            empties = len(neighbours[pos]) - len(near)
            after = -1  # worked out when needed
            for g in set(near):
                n = len(libs[g])
                if n > 2:
                    continue
                if after < 0:
                    after = self._liberties_after(groups, cells, pos, me) + (1 if taken else 0)
                if own[g] == me:
                    if n == 1 and after >= 2:
                        score += w.save * len(stones[g])
                elif n == 2 and after >= 2:
                    score += w.give_atari
            if empties <= 1 and not taken:
                if after < 0:
                    after = self._liberties_after(groups, cells, pos, me)
                if after <= 1:
                    score += w.self_atari
            out.append(score)
        return out

    def move_heuristic(self, state: State, move: Move) -> float:
        """See :meth:`move_heuristics`."""
        return self.move_heuristics(state, [move])[0]

    def evaluate(self, state: State) -> float:
        """:meth:`static_value`, remembered for the last state (``evaluate_for`` asks for
        each player in turn)."""
        memo = self._value_memo
        if memo[0] is state:
            return memo[1]
        value = self.static_value(state)
        self._value_memo = (state, value)
        return value

    def static_value(self, state: State) -> float:
        """For the side to move: an area estimate (stones, and each empty point to the
        colour whose stones are nearer) with komi, plus chains in atari; in Atari Go,
        ataris and liberties."""
        me = state.to_move
        cells = state.cells
        groups = self.chains(cells)
        w = self.weights
        if self.first_capture:
            return self._atari_go_value(cells, groups, me)
        area = self._nearest_area(cells)
        score = area[me] - area[1 - me] + (self.komi if me == 1 else -self.komi)
        for g, libs in enumerate(groups.liberties):
            if len(libs) == 1:
                size = len(groups.stones[g])
                score += w.atari_theirs * size if groups.owner[g] != me else -w.atari_mine * size
        return score

    def _atari_go_value(self, cells: tuple[int, ...], groups: Groups, me: int) -> float:
        """Atari Go, for ``me`` to move: an enemy chain in atari is taken, and wins
        (:attr:`GoWeights.atari_win`); own chains in atari on two points, or on one whose
        extension stays in atari, are lost (minus it); one that the extension saves costs
        ``atari_saved``.  Otherwise each chain counts against its owner ``atari_share``
        divided by its liberties."""
        w = self.weights
        points: set[int] = set()
        score = 0.0
        for g, libs in enumerate(groups.liberties):
            n = len(libs)
            if groups.owner[g] != me:
                if n == 1:
                    return w.atari_win
                score += w.atari_share / n
            else:
                if n == 1:
                    points |= libs
                score -= w.atari_share / n
        if points:
            if len(points) >= 2 or self._liberties_after(groups, cells, next(iter(points)), me) < 2:
                return -w.atari_win
            score -= w.atari_saved
        return score

    def _nearest_area(self, cells: Sequence[int]) -> list[int]:
        """Per player: stones plus empty points nearer (in steps) to that player's stones."""
        size = len(cells)
        neighbours = self.surround.neighbours
        dist: list[list[int]] = []
        for stone in self.stones:
            d = [size] * size
            frontier = [p for p, v in enumerate(cells) if v == stone]
            for p in frontier:
                d[p] = 0
            step = 0
            while frontier:
                step += 1
                nxt = []
                for p in frontier:
                    for r in neighbours[p]:
                        if d[r] > step and not cells[r]:
                            d[r] = step
                            nxt.append(r)
                frontier = nxt
            dist.append(d)
        black, white = dist
        counts = [0, 0]
        for p in range(size):
            if black[p] < white[p]:
                counts[0] += 1
            elif white[p] < black[p]:
                counts[1] += 1
        return counts

    # -- notation --------------------------------------------------------------------------

    def parse_position(self, text: str) -> State:
        """Read ``<rows> <b|w> <captured by Black> <captured by White> <passes> <plies>``;
        refuses chains without a liberty (no game reaches them)."""
        fields = text.split()
        if len(fields) != 6:
            raise PositionError(f"{self.id}: expected '<rows> <b|w> <captured by black> <captured by white> "
                                f"<passes> <plies>' like {self.setups['start']!r}, got {shortened(text)}")
        cells = parse_ranks(self.topology, fields[0], self.pieces.code_of_letter)
        if fields[1] not in self.side_letters:
            raise PositionError(f"{self.id}: side to move must be b or w, got {shortened(fields[1])}")
        black = read_int(fields[2], f"{self.id}: stones captured by black", error=PositionError)
        white = read_int(fields[3], f"{self.id}: stones captured by white", error=PositionError)
        passes = read_int(fields[4], f"{self.id}: passes in a row", high=2, error=PositionError)
        plies = read_int(fields[5], f"{self.id}: plies played", error=PositionError)
        groups = self.surround.groups(cells)
        for g, libs in enumerate(groups.liberties):
            if not libs:
                where = self.topology.names[groups.stones[g][0]]
                raise PositionError(f"{self.id}: the chain at {where} has no liberty")
        return self.make_state(cells, self.side_letters.index(fields[1]), (),
                               (passes, plies, black, white))

    def format_position(self, state: State) -> str:
        """``<rows> <b|w> <captured by Black> <captured by White> <passes> <plies>``."""
        passes, plies, black, white = state.counters
        rows = format_ranks(self.topology, state.cells, self.pieces.letter_of)
        return f"{rows} {self.side_letters[state.to_move]} {black} {white} {passes} {plies}"

    def format_move(self, state: State, move: Move) -> str:
        """The point of the new stone in GTP coordinates (``D4``), or ``pass``."""
        return self.topology.names[move[0][2]] if move else "pass"

    def move_aliases(self, state: State, move: Move) -> Sequence[str]:
        """Lower-case points (``d4``), and ``PASS``."""
        return (self.lower_names[move[0][2]],) if move else ("PASS", "Pass")

    def check_move_syntax(self, text: str) -> None:
        """A point of this board or ``pass``."""
        if text.lower() != "pass" and text.upper() not in self.upper_names:
            raise InvalidMoveError(f"{self.id}: {shortened(text)} is not a point of the {self.size}x{self.size} "
                                   f"board (columns {GTP_COLUMNS[0]}-{GTP_COLUMNS[self.size - 1]} without I, "
                                   f"rows 1-{self.size}) or 'pass'")

    def column_label(self, x: int) -> str:
        """GTP column letters (no ``I``)."""
        return GTP_COLUMNS[x]

    def edge_labels(self) -> tuple[list[str], list[str]]:
        """The labels of the columns (left to right) and the rows (bottom up), for drawing."""
        return list(GTP_COLUMNS[:self.size]), [str(r + 1) for r in range(self.size)]

    def cell_text(self, value: int) -> str:
        """``X`` Black, ``O`` White, ``.`` an empty point."""
        return self.pieces.letter_of[value] if value else "."

    # -- SGF -------------------------------------------------------------------------------

    def to_sgf(self, start: State, moves: Sequence[Move], outcome: Outcome | None = None,
               info: dict[str, str] | None = None) -> str:
        """An SGF (FF[4], GM[1]) record of ``moves`` played from ``start``: setup stones
        (``AB``/``AW``) when it is not empty, ``PL`` when White starts, ``RE`` when over."""
        props: list[tuple[str, list[str]]] = [("FF", ["4"]), ("GM", ["1"]), ("CA", ["UTF-8"]),
                                              ("SZ", [str(self.size)]), ("KM", [f"{self.komi:g}"]),
                                              ("RU", ["Tromp-Taylor" if not self.first_capture else "Atari Go"])]
        for key, value in (info or {}).items():
            props.append((key, [value]))
        for player, tag in enumerate(("AB", "AW")):
            points = [self._sgf_point(p) for p, v in enumerate(start.cells) if v == self.stones[player]]
            if points:
                props.append((tag, points))
        if start.to_move == 1:
            props.append(("PL", ["W"]))
        if outcome is not None:
            props.append(("RE", [self._sgf_result(start, moves, outcome)]))
        nodes = [props]
        state = start
        for move in moves:
            colour = "B" if state.to_move == 0 else "W"
            nodes.append([(colour, [self._sgf_point(move[0][2]) if move else ""])])
            state = self.play(state, move)
        return sgf.write(nodes)

    def _sgf_result(self, start: State, moves: Sequence[Move], outcome: Outcome) -> str:
        winner = outcome.winner
        if winner is None:
            return "0"
        ended = {"resignation": "R", "time forfeit": "T"}.get(outcome.reason)
        if ended:  # (a game ended off the board: by resignation or on time)
            return f"{'B' if winner == 0 else 'W'}+{ended}"
        state = start
        for move in moves:
            state = self.play(state, move)
        margin = abs(self.score(state))
        tail = "R" if self.first_capture else f"{margin:g}"
        return f"{'B' if winner == 0 else 'W'}+{tail}"

    def from_sgf(self, text: str, source: str = "SGF", game: int = 0) -> tuple[State, list[str]]:
        """The start position and the moves (as GTP text) of the main line of game number
        ``game`` (from 0) in the SGF collection ``text``; raises ``PositionError`` naming
        ``source`` when it is not a Go record of this board (``SZ``), its setup cannot be
        read or the collection has fewer games."""
        trees = sgf.parse(text, source)
        if not 0 <= game < max(1, len(trees)):
            raise PositionError(f"{source}: no game {game + 1} (the file holds {len(trees)})")
        nodes = sgf.main_line(trees[game:game + 1])
        root = dict(nodes[0]) if nodes else {}
        if root.get("GM", ["1"])[0] != "1":
            raise PositionError(f"{source}: not a Go record (GM[{root['GM'][0]}])")
        size = root.get("SZ", ["19"])[0].split(":")[0]
        if size != str(self.size):
            raise PositionError(f"{source}: record is for a {size}x{size} board, {self.id} is {self.size}x{self.size}")
        cells = [0] * self.topology.size
        moves: list[str] = []
        to_move = 0
        for n, node in enumerate(nodes):
            for key, values in node:
                if key in ("AB", "AW"):
                    for value in values:
                        for p in sgf.point_list(value, self.size, source):
                            cells[p] = self.stones[0 if key == "AB" else 1]
                elif key == "PL" and n == 0:
                    to_move = 0 if values[0].upper().startswith("B") else 1
                elif key in ("B", "W"):
                    if not moves and n <= 1 and key == "W" and "PL" not in root:
                        to_move = 1
                    point = sgf.point(values[0], self.size, source)
                    moves.append("pass" if point is None else self.topology.names[point])
        if "PL" not in root and "HA" in root and not moves and any(cells):
            to_move = 1
        rows = format_ranks(self.topology, cells, self.pieces.letter_of)
        return self.parse_position(f"{rows} {self.side_letters[to_move]} 0 0 0 0"), moves

    def _sgf_point(self, pos: int) -> str:
        """SGF's two letters: column from the left, row from the top."""
        c, r = pos % self.size, pos // self.size
        return sgf.LETTERS[c] + sgf.LETTERS[self.size - 1 - r]


def go(size: int = 19, komi: float = 7.5) -> Go:
    """Go on a ``size`` x ``size`` board."""
    return Go(size, komi)


def atari_go(size: int = 9) -> Go:
    """Atari Go: the first capture wins (komi 0 if it comes to counting)."""
    return Go(size, 0.0, first_capture=True)
