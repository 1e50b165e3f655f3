"""Fox hunt ("Охота на лис"), the one-player search game of the Soviet calculators and
home computers of the 1980s.

Equipment: a square grid (10x10 in the classic) and 8 foxes hidden on distinct cells.
Start: chance hides the foxes, one at a time, each on an empty cell drawn uniformly (the
referee's seeded generator draws them, so a record with its seed replays exactly).
Play: the hunter shoots at a cell not shot before.  A fox there is found (the cell shows
it); an empty cell shows the number of foxes on its row, its column and its two diagonals.
The number counts every fox on those lines, found or not, so a number once shown never
changes (our reading of the classic; the lines through a cell meet only at that cell, so no
fox is counted twice).
End: when every fox is found.  The hunter's score is ``(cells - shots) / (cells - foxes)``:
1 when every shot found a fox, 0 when every cell was shot; fewer shots score higher.

Hidden information: the hunter sees the cells shot (found foxes and numbers) and nothing
else (``?``) until the end, when everything is shown.

Position text: the rows from the top, separated by ``/``, a character per cell: ``.`` an
empty cell not shot, ``f`` a hidden fox, ``F`` a found fox, ``?`` a cell the hunter has
not shot (in an observation), a digit the number shown by a shot; then ``1`` when the
hunter shoots or ``?`` while chance hides the foxes.  Moves (shots and hidings) are cell
names, ``e5``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from myriad.core.errors import GameDefinitionError, InvalidMoveError, PositionError
from myriad.core.game import Game, Outcome
from myriad.core.move import DROP, Action, Move
from myriad.core.numbers import shortened
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.state import State
from myriad.core.topology import square_board

#: Cell codes: the piece codes of the one player's kinds, in order.
EMPTY, FOX, FOUND, UNKNOWN, NUMBER = 0, 1, 2, 3, 4
#: The nodes of one try of the sampler of hidings, and the tries (each from a fresh random
#: start: restarts cut the long tails of backtracking) before a last, whole search.
SAMPLER_NODES, SAMPLER_TRIES = 2_000, 100
#: The directions of the lines through a cell: row, column, both diagonals.
LINES = ((1, 0), (0, 1), (1, 1), (1, -1))


class FoxHunt(Game):
    """Find ``foxes`` foxes on a ``size`` x ``size`` grid."""

    family = "search"
    chance = True
    hidden_information = True
    quiescence = False
    player_names = ("hunter",)

    def __init__(self, size: int = 10, foxes: int = 8) -> None:
        if not 3 <= size <= 16:
            raise GameDefinitionError(f"foxhunt: the grid is 3 to 16 cells wide, not {size!r}")
        if not 1 <= foxes <= min(9, size * size - 1):
            raise GameDefinitionError(f"foxhunt: 1 to {min(9, size * size - 1)} foxes, not {foxes!r}")
        self.size, self.foxes = size, foxes
        classic = size == 10 and foxes == 8
        self.id = "foxhunt" if classic else f"foxhunt{size}" if foxes == size - 2 else f"foxhunt{size}x{foxes}"
        self.name = "Fox hunt" if classic else f"Fox hunt {size}x{size}, {foxes} foxes"
        self.rules = (f"{foxes} foxes hide on a {size}x{size} grid. Shoot at a cell: a fox there is "
                      f"found; an empty cell shows how many foxes (found or not) lie on its row, column "
                      f"and both diagonals. Find every fox in as few shots as you can: the score is "
                      f"(cells - shots) / (cells - foxes).")
        # -- equipment: the grid, the foxes, the unknown marker and the numbers
        topology = square_board(size, size, players=1)
        kinds = [PieceKind("fox", "f", letters=("f",), glyphs=("\N{FOX FACE}",)),
                 PieceKind("found", "F", letters=("F",), glyphs=("\N{FOX FACE}",)),
                 PieceKind("unknown", "?", letters=("?",))]
        kinds += [PieceKind(f"number{k}", str(k), letters=(str(k),)) for k in range(foxes + 1)]
        self.fog_codes = (UNKNOWN,)
        coords = [(int(x), int(y)) for x, y in topology.coords]
        at = {xy: p for p, xy in enumerate(coords)}
        #: the other cells on each cell's row, column and diagonals
        self.lines: tuple[tuple[int, ...], ...] = tuple(
            tuple(at[(x + dx * k, y + dy * k)] for dx, dy in LINES for k in range(-size, size + 1)
                  if k and (x + dx * k, y + dy * k) in at)
            for x, y in coords)
        # -- start: an empty grid; chance hides the foxes
        super().__init__(topology, PieceSet(kinds, 1), {"start": "/".join(["." * size] * size) + " ?"})

    # -- play ---------------------------------------------------------------------------------

    def hidden_count(self, cells: tuple[int, ...] | list[int]) -> int:
        """Foxes hidden so far (found or not)."""
        return cells.count(FOX) + cells.count(FOUND)

    def number_at(self, cells: tuple[int, ...] | list[int], pos: int) -> int:
        """How many foxes, found or not, lie on the lines through ``pos``."""
        return sum(1 for q in self.lines[pos] if cells[q] in (FOX, FOUND))

    def shots(self, state: State) -> int:
        """Shots fired so far: found foxes and numbers."""
        return sum(1 for c in state.cells if c == FOUND or c >= NUMBER)

    def legal_moves(self, state: State) -> list[Move]:
        """While hiding: every empty cell; the hunter: every cell not shot; [] at the end."""
        cells = state.cells
        if self.is_chance(state):
            return [Move((Action(DROP, p, p, FOX),)) for p, c in enumerate(cells) if c == EMPTY]
        if cells.count(FOUND) >= self.foxes:
            return []
        return [Move((Action(DROP, p, p, FOUND),)) for p, c in enumerate(cells) if c in (EMPTY, FOX, UNKNOWN)]

    def play(self, state: State, move: Move) -> State:
        """Hide a fox, or shoot: a fox is found, an empty cell shows its number.  In an
        observation a shot at an unknown cell has no known result: the state is unchanged."""
        pos = move[0][2]
        cells = list(state.cells)
        if self.is_chance(state):
            cells[pos] = FOX
            done = self.hidden_count(cells) == self.foxes
            return self.make_state(cells, 0 if done else self.chance_player)
        if cells[pos] == FOX:
            cells[pos] = FOUND
        elif cells[pos] == EMPTY:
            cells[pos] = NUMBER + self.number_at(cells, pos)
        elif cells[pos] == UNKNOWN:
            return state
        return self.make_state(cells, 0)

    def outcome(self, state: State) -> Outcome | None:
        """Over when every fox is found; the score falls with the shots."""
        if self.is_chance(state) or state.cells.count(FOUND) < self.foxes:
            return None
        shots, cells = self.shots(state), len(state.cells)
        score = (cells - shots) / (cells - self.foxes)
        return Outcome((score,), f"found the {self.foxes} foxes in {shots} shots")

    # -- hidden information -------------------------------------------------------------------

    def observe(self, state: State, player: int) -> State:
        """The hunter sees the cells shot; the rest is ``?`` until the end (then all)."""
        if self.outcome(state) is not None:
            return state
        cells = [UNKNOWN if c in (EMPTY, FOX) else c for c in state.cells]
        return self.make_state(cells, state.to_move)

    def determinize(self, observation: State, player: int, rng: random.Random) -> State:
        """A hiding of the foxes that gives every number shown, drawn with ``rng``.

        A search over the unshot cells with the numbers (and the count of foxes not found)
        as constraints "so many foxes among these cells": forced cells are set at once (a
        constraint met, or needing all its cells), then a random cell of the tightest
        constraint takes a fox with the probability the constraint gives it, backtracking on
        a contradiction, and starting afresh after too long a search.  Close to, not
        exactly, uniform over the consistent hidings."""
        cells = list(observation.cells)
        unknown = [p for p, c in enumerate(cells) if c == UNKNOWN]
        if not unknown:
            return observation
        # while hiding, the hunter knows nothing: a grid before the first fox is consistent
        left = 0 if self.is_chance(observation) else self.foxes - cells.count(FOUND)
        members: list[list[int]] = [unknown]
        need = [left]
        for s in (p for p, c in enumerate(cells) if c >= NUMBER):
            members.append([q for q in self.lines[s] if cells[q] == UNKNOWN])
            need.append(cells[s] - NUMBER - sum(1 for q in self.lines[s] if cells[q] == FOUND))
        avail = [len(m) for m in members]
        through: dict[int, list[int]] = {p: [] for p in unknown}
        for i, m in enumerate(members):
            for q in m:
                through[q].append(i)
        value = dict.fromkeys(unknown, -1)
        trail: list[int] = []
        budget = [0]

        def assign(p: int, v: int) -> bool:
            value[p] = v
            trail.append(p)
            for c in through[p]:
                avail[c] -= 1
                need[c] -= v
            # (no number needs more foxes than are left to hide)
            return all(0 <= need[c] <= avail[c] for c in through[p]) and (not v or max(need) <= need[0])

        def undo(mark: int) -> None:
            while len(trail) > mark:
                p = trail.pop()
                for c in through[p]:
                    avail[c] += 1
                    need[c] += value[p]
                value[p] = -1

        def propagate() -> bool:
            changed = True
            while changed:
                changed = False
                for c, m in enumerate(members):
                    if avail[c] and (need[c] == 0 or need[c] == avail[c]):
                        v = 1 if need[c] else 0
                        for q in m:
                            if value[q] < 0:
                                changed = True
                                if not assign(q, v):
                                    return False
            return True

        def solve() -> bool:
            budget[0] -= 1
            if budget[0] < 0:
                raise TimeoutError  # (this try is over: the next starts afresh)
            if not propagate():
                return False
            open_ = [c for c in range(len(members)) if avail[c]]
            if not open_:
                return not any(need)
            c = min(open_, key=lambda c: avail[c])
            p = rng.choice([q for q in members[c] if value[q] < 0])
            first = 1 if rng.random() * avail[c] < need[c] else 0
            for v in (first, 1 - first):
                mark = len(trail)
                if assign(p, v) and again[0]():
                    return True
                undo(mark)
            return False

        # (solve calls itself through this list, emptied at the end: a closure naming
        # itself is a reference cycle, garbage for the collector after every sample)
        again: list[Callable[[], bool]] = [solve]
        if any(not 0 <= n <= a for n, a in zip(need, avail)):
            raise PositionError(f"{self.id}: no hiding of the foxes gives the numbers of this observation")
        try:
            for attempt in range(SAMPLER_TRIES):
                # short tries from fresh random choices keep samples varied; the last try is a
                # whole search, which finds a hiding whenever one exists
                budget[0] = SAMPLER_NODES if attempt < SAMPLER_TRIES - 1 else 1 << 62
                try:
                    if not solve():
                        raise PositionError(f"{self.id}: no hiding of the foxes gives the numbers of this observation")
                    break
                except TimeoutError:
                    undo(0)
        finally:
            again.clear()
        return self.make_state([FOX if value.get(p) == 1 else EMPTY if c == UNKNOWN else c
                                for p, c in enumerate(cells)], observation.to_move)

    def move_signal(self, state: State, move: Move, player: int) -> int:
        """What the hunter sees of a shot in the whole ``state``: the code its cell shows."""
        pos = move[0][2]
        cell = state.cells[pos]
        return FOUND if cell == FOX else NUMBER + self.number_at(state.cells, pos) if cell == EMPTY else cell

    # -- knowledge for bots -------------------------------------------------------------------

    def evaluate_for(self, state: State, player: int) -> float:
        """Foxes found, less a tenth of a fox per shot."""
        return state.cells.count(FOUND) - 0.1 * self.shots(state)

    def evaluate(self, state: State) -> float:
        return self.evaluate_for(state, 0)

    def move_heuristic(self, state: State, move: Move) -> float:
        """A guess, from the shown cells only, of the chance of a fox at the shot's cell: -1
        on a line of a number already explained by found foxes, else the mean of the share of
        each number's unexplained foxes among its unshot cells and the share of all foxes not
        found among all cells not shot."""
        cells = state.cells
        pos = move[0][2]
        unshot = [c in (EMPTY, FOX, UNKNOWN) for c in cells]
        ratios = [(self.foxes - cells.count(FOUND)) / max(1, sum(unshot))]
        for q in self.lines[pos]:
            if cells[q] >= NUMBER:
                need = cells[q] - NUMBER - sum(1 for r in self.lines[q] if cells[r] == FOUND)
                if need <= 0:
                    return -1.0
                ratios.append(need / max(1, sum(1 for r in self.lines[q] if unshot[r])))
        return sum(ratios) / len(ratios)

    # -- notation -----------------------------------------------------------------------------

    def format_move(self, state: State, move: Move) -> str:
        """The cell's name (a shot, or where chance hid a fox)."""
        return self.topology.names[move[0][2]]

    def check_move_syntax(self, text: str) -> None:
        if text not in self.topology.index:
            raise InvalidMoveError(f"{self.id}: {shortened(text)} is not a cell of the "
                                   f"{self.size}x{self.size} grid (a1 to {self.topology.names[-1]})")

    def cell_text(self, value: int) -> str:
        return self.pieces.letter_of[value] if value else "."

    def format_position(self, state: State) -> str:
        n = self.size
        rows = ["".join(self.cell_text(state.cells[r * n + c]) for c in range(n)) for r in reversed(range(n))]
        return "/".join(rows) + (" ?" if self.is_chance(state) else " 1")

    def parse_position(self, text: str) -> State:
        """Read ``<rows> <1|?>``; refuses hidings and numbers no game reaches."""
        fields = text.split()
        if len(fields) != 2 or fields[1] not in ("1", "?"):
            raise PositionError(f"{self.id}: expected '<rows from the top, / between> <1 or ?>' like "
                                f"{self.setups['start']!r}, got {shortened(text)}")
        rows = fields[0].split("/")
        if len(rows) != self.size or any(len(r) != self.size for r in rows):
            raise PositionError(f"{self.id}: expected {self.size} rows of {self.size} cells, got "
                                f"{shortened(fields[0])}")
        codes = self.pieces.code_of_letter
        cells = [0] * (self.size * self.size)
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch != "." and ch not in codes:
                    raise PositionError(f"{self.id}: {ch!r} is not a cell: '.', 'f', 'F', '?' or a "
                                        f"number 0-{self.foxes}")
                cells[(self.size - 1 - r) * self.size + c] = 0 if ch == "." else codes[ch]
        to_move = self.chance_player if fields[1] == "?" else 0
        self.check_reachable(cells, to_move)
        return self.make_state(cells, to_move)

    def check_reachable(self, cells: tuple[int, ...] | list[int], to_move: int,
                        flags: object = (), hands: object = ()) -> None:
        """Raise ``PositionError`` for a grid no game (or observation of one) shows."""
        hidden, found = self.hidden_count(cells), cells.count(FOUND)
        numbers = [p for p, c in enumerate(cells) if c >= NUMBER]
        if hidden > self.foxes:
            raise PositionError(f"{self.id}: {hidden} foxes, the game has {self.foxes}")
        if UNKNOWN in cells and (FOX in cells or EMPTY in cells):
            raise PositionError(f"{self.id}: a grid is either whole (no '?') or the hunter's view "
                                f"(every cell not shot '?', no '.' or 'f')")
        if to_move == self.chance_player:
            if found or numbers:
                raise PositionError(f"{self.id}: no shot before every fox is hidden")
            return
        if UNKNOWN in cells:
            if found == self.foxes:
                raise PositionError(f"{self.id}: every fox is found: the game is over and shows everything")
            if found + cells.count(UNKNOWN) < self.foxes:
                raise PositionError(f"{self.id}: too few unshot cells for the {self.foxes} foxes")
            return
        if hidden != self.foxes:
            raise PositionError(f"{self.id}: {hidden} foxes hidden, the game has {self.foxes}")
        for p in numbers:
            if cells[p] - NUMBER != self.number_at(cells, p):
                raise PositionError(f"{self.id}: {self.topology.names[p]} shows {cells[p] - NUMBER}, "
                                    f"but {self.number_at(cells, p)} foxes lie on its lines")


def foxhunt(size: int = 10, foxes: int = 8) -> FoxHunt:
    """Fox hunt on a ``size`` grid with ``foxes`` foxes (10 and 8 in the classic)."""
    return FoxHunt(size, foxes)
