"""Two tiny games on the ``Game`` API that exercise searchers on turn structures the
registered games may lack: more players with extra turns (:class:`Claim`), and chance
(:class:`DiceRace`).  Test fixtures only, not registered."""

from __future__ import annotations

from myriad.core.errors import PositionError
from myriad.core.game import Game, Next, Outcome
from myriad.core.move import DROP, SET, Action, Move
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.state import State
from myriad.core.topology import ring

NAMES = ("red", "green", "blue", "yellow")


class Claim(Game):
    """Players in turn claim an empty cell of a ring; claiming a cell next to one's own
    gives another turn.  When the ring is full, the most cells wins (tied leaders share)."""

    family = "test"

    def __init__(self, players: int = 3, cells: int = 7) -> None:
        self.player_names = NAMES[:players]
        self.id = self.name = f"claim{players}"
        topology = ring([f"c{i}" for i in range(cells)], [(float(i), 0.0) for i in range(cells)], players=players)
        pieces = PieceSet([PieceKind("stone", "s", letters=tuple(n[0].upper() for n in NAMES[:players]))],
                          players=players)
        super().__init__(topology, pieces, {"start": "." * cells + " 0"})
        self.size = cells

    def legal_moves(self, state: State) -> list[Move]:
        stone = self.pieces.code("stone", state.to_move)
        return [Move((Action(DROP, p, p, stone),)) for p, c in enumerate(state.cells) if not c]

    def after_move(self, state: State, move: Move, cells: list[int]) -> Next:
        to = move[0][2]
        mine = cells[to]
        again = mine in (cells[(to - 1) % self.size], cells[(to + 1) % self.size])
        return Next(state.to_move if again else (state.to_move + 1) % self.players,
                    state.flags, state.counters, state.hands, True)

    def outcome(self, state: State) -> Outcome | None:
        if 0 in state.cells:
            return None
        counts = [sum(1 for c in state.cells if self.pieces.owner_of[c] == p) for p in range(self.players)]
        leaders = [p for p in range(self.players) if counts[p] == max(counts)]
        return Outcome(tuple(1 / len(leaders) if p in leaders else 0.0 for p in range(self.players)), "ring full")

    def evaluate_for(self, state: State, player: int) -> float:
        def worth(p: int) -> float:
            owner = self.pieces.owner_of
            cells = state.cells
            stones = sum(1 for c in cells if c and owner[c] == p)
            pairs = sum(1 for i, c in enumerate(cells) if c and owner[c] == p and cells[(i + 1) % self.size] == c)
            return stones + 0.3 * pairs
        others = [worth(p) for p in range(self.players) if p != player]
        return worth(player) - sum(others) / len(others)

    def evaluate(self, state: State) -> float:
        return self.evaluate_for(state, state.to_move)

    def format_move(self, state: State, move: Move) -> str:
        return self.topology.names[move[0][2]]

    def format_position(self, state: State) -> str:
        return "".join(self.pieces.letter_of[c] or "." for c in state.cells) + f" {state.to_move}"

    def parse_position(self, text: str) -> State:
        board, _, mover = text.partition(" ")
        if len(board) != self.size or not mover.isdigit() or int(mover) >= self.players:
            raise PositionError(f"{self.id}: bad position {text!r}")
        cells = [0 if ch == "." else self.pieces.code_of_letter[ch] for ch in board]
        return self.make_state(cells, int(mover))


#: The die of :class:`DiceRace`: faces and their probabilities (a 1 loses the turn).
FACES = ((1, 0.25), (2, 0.5), (3, 0.25))


class DiceRace(Game):
    """Pig on a small die: the player to move rolls (adding the face to the turn's total;
    a 1 loses the total and the turn) or, with a total, holds (banking it; the turn
    passes).  The first to bank ``target`` wins; a player whose bank and total reach it
    can only hold.  Cells: each player's bank, then the turn's total; the flag is the roller."""

    family = "test"
    chance = True
    ROLL, HOLD = Move(((SET, 0, 0, 0, 0),)), Move(((SET, 0, 1, 0, 0),))

    def __init__(self, players: int = 2, target: int = 6) -> None:
        self.player_names = NAMES[:players]
        self.id = self.name = f"dice{players}"
        self.target = target
        topology = ring([f"bank{p}" for p in range(players)] + ["turn"],
                        [(float(i), 0.0) for i in range(players + 1)], players=players)
        super().__init__(topology, PieceSet([PieceKind("point", "p", letters=tuple("pqrs"[:players]))], players=players),
                         {"start": " ".join(["0"] * (players + 1)) + " 0"}, cell_values=3 * target)
        self.faces = [(Move(((SET, 0, 2 + face, 0, 0),)), p) for face, p in FACES]

    def legal_moves(self, state: State) -> list[Move]:
        if self.is_chance(state):
            return [move for move, _ in self.faces]
        if self.outcome(state) is not None:
            return []
        bank, total = state.cells[state.to_move], state.cells[-1]
        if bank + total >= self.target:
            return [self.HOLD]
        return [self.ROLL, self.HOLD] if total else [self.ROLL]

    def chance_outcomes(self, state: State) -> list[tuple[Move, float]]:
        return list(self.faces)

    def play(self, state: State, move: Move) -> State:
        cells = list(state.cells)
        n = self.players
        if self.is_chance(state):
            roller = state.flags[0]
            face = move[0][2] - 2
            if face == 1:
                cells[-1] = 0
                return self.make_state(cells, (roller + 1) % n, (0,))
            cells[-1] += face
            return self.make_state(cells, roller, (0,))
        if move == self.ROLL:
            return self.make_state(cells, n, (state.to_move,))
        cells[state.to_move] += cells[-1]
        cells[-1] = 0
        return self.make_state(cells, (state.to_move + 1) % n, (0,))

    def outcome(self, state: State) -> Outcome | None:
        for p in range(self.players):
            if state.cells[p] >= self.target:
                return Outcome.win(p, "target reached", self.players)
        return None

    def evaluate_for(self, state: State, player: int) -> float:
        worth = list(state.cells[:self.players])
        mover = state.flags[0] if self.is_chance(state) else state.to_move
        worth[mover] += state.cells[-1] / 2
        others = [w for p, w in enumerate(worth) if p != player]
        return worth[player] - sum(others) / len(others)

    def evaluate(self, state: State) -> float:
        return self.evaluate_for(state, state.to_move)

    def format_move(self, state: State, move: Move) -> str:
        if self.is_chance(state):
            return str(move[0][2] - 2)
        return "roll" if move == self.ROLL else "hold"

    def format_position(self, state: State) -> str:
        return " ".join(map(str, state.cells)) + f" {state.to_move}"

    def parse_position(self, text: str) -> State:
        fields = text.split()
        if len(fields) != self.players + 2 or not all(f.isdigit() for f in fields):
            raise PositionError(f"{self.id}: bad position {text!r}")
        numbers = [int(f) for f in fields]
        return self.make_state(numbers[:-1], numbers[-1], (0,))
