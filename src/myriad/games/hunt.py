"""Hunt games: one side's few hunters against the other's many prey, on graph boards.

Fox and geese (the 33-point cross with its diagonals) and bagh-chal, the tiger game of
Nepal (the 5x5 alquerque board).  The hunters step along the lines and capture by
jumping a prey piece to the empty point beyond, along a line (the jump mechanic of
:mod:`myriad.core.mechanics.jumps`); prey pieces step and never capture, some first come
onto the board one per turn from the hand.  The prey win by leaving the hunters no legal
move; the hunters win by taking enough prey (or when the prey cannot move).  A position
repeated a third time (bagh-chal), or a long run of moves without a capture (or, for prey
that never step back, without a forward step), draws.

Moves: ``d4-d5``, a capture ``d4xd6`` (a chain ``d4xd6xf6``), a placement ``c3``.
Positions: the rank string of the board (each row lists its points left to right), the
side to move, the prey in hand and the plies since the last capture.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from myriad.core.errors import InvalidMoveError, PositionError
from myriad.core.game import Game, Next, Outcome
from myriad.core.mechanics.jumps import JumpCaptures
from myriad.core.move import CAPTURE, DROP, MOVE, Action, Move
from myriad.core.numbers import read_int, shortened
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.ranks import board_rows, format_ranks, parse_ranks
from myriad.core.state import State
from myriad.core.topology import DIAGONAL, NO_LINK, Topology, square_board, without_links

HUNTER, PREY = 0, 1
ALL_DIRECTIONS = ("n", "s", "e", "w", "ne", "nw", "se", "sw")


def alquerque_lines(board: Topology) -> Topology:
    """Keep a diagonal only through points whose column + row is even, as the lines of an
    alquerque board (and the fox-and-geese cross) run."""
    coords = board.coords
    return without_links(board, lambda p, d, t: d in DIAGONAL and int(coords[p][0] + coords[p][1]) % 2 == 1)


def cross_board() -> Topology:
    """The 33-point cross of fox and geese: a 7x7 grid without its 2x2 corners, with the
    alquerque diagonals."""
    return alquerque_lines(square_board(7, 7, keep=lambda c, r: 2 <= c <= 4 or 2 <= r <= 4))


@dataclass(frozen=True)
class HuntKnowledge:
    """Evaluation weights (for the hunters; the prey's score is the negation): each prey
    taken, each move a hunter has, each capture it threatens, each hunter left without a
    move, each prey piece still in hand, and each point of the hunters' region (the points
    they reach over empty points: the prey win by shrinking it to nothing).  Tempo: a
    threatened capture with the hunters to move is nearly a capture (``threat_to_move``),
    and two prey threatened with the prey to move cannot both be saved (``fork``).
    ``exposed``: each prey piece a hunter could jump from some point of that region (an
    empty point behind it on a line): a weak spot in the prey's wall, a capture a few moves
    away.  ``spread``: each line step between a prey piece and the nearest hunter, summed
    over the prey (the hunters like the prey far, the prey close in: a net drawn tight
    makes progress where the region cannot shrink yet).  ``chase``: the same sum once
    ``chase_after`` prey are taken, in place of ``spread`` (0: never): prey too few to
    trap the hunters can only keep away, and the hunters must close in to take more."""

    taken: int = 120
    mobility: int = 6
    threat: int = 35
    trapped: int = -90
    in_hand: int = 0
    region: int = 5
    threat_to_move: int = 80
    fork: int = 60
    exposed: int = 0
    spread: int = 0
    chase: int = 0
    chase_after: int = 0


class HuntGame(Game):
    """A hunt game: ``hunter``/``prey`` piece kinds on ``topology``."""

    family = "hunt"

    def __init__(self, *, name: str, topology: Topology, player_names: tuple[str, str],
                 hunter: tuple[str, str], prey: tuple[str, str], start: str, prey_total: int,
                 prey_dirs: Sequence[str], continue_capture: str, capture_goal: int,
                 move_limit: int, rules: str, repetition_draws: bool = True,
                 knowledge: HuntKnowledge = HuntKnowledge()) -> None:
        self.player_names = player_names
        self.side_letters = (player_names[0][0], player_names[1][0])
        hl, pl = hunter[1], prey[1]
        # codes come in pairs (kind, owner); the prey's hunter and the hunters' prey never appear
        kinds = (PieceKind(hunter[0], hl, value=0, letters=(hl.upper(), "x")),
                 PieceKind(prey[0], pl, value=1, letters=("y", pl.upper())))
        pieces = PieceSet(kinds)
        super().__init__(topology, pieces, {"start": start})
        self.name = name
        self.rules = rules
        self.knowledge = knowledge
        self.hunter = pieces.code(hunter[0], HUNTER)
        self.prey = pieces.code(prey[0], PREY)
        self.unused = (pieces.code(hunter[0], PREY), pieces.code(prey[0], HUNTER))
        self.prey_total = prey_total
        self.capture_goal = capture_goal
        self.move_limit = move_limit
        self.repetition_draws = repetition_draws
        # prey that never step back make progress with every forward step (the clock restarts)
        self.forward_only = "s" not in prey_dirs
        self.forward = frozenset((p, t) for p in range(topology.size)
                                 for t in (topology.step(p, "n", PREY),) if t != NO_LINK)
        self.jumps = JumpCaptures(topology, men=(self.unused[1], self.prey), kings=(self.hunter, self.unused[0]),
                                  promotion=((), ()), piece_codes=pieces.count, directions=ALL_DIRECTIONS,
                                  flying_kings=False, compulsory=False, continue_capture=continue_capture)
        self.prey_steps = tuple(tuple(t for t in (topology.step(p, d, PREY) for d in prey_dirs) if t != NO_LINK)
                                for p in range(topology.size))
        self.hunter_count = start.split()[0].count(hl.upper())
        #: per point, the points one line-step away.
        self.neighbours = tuple(tuple(t for t in (row[p] for row in topology.links) if t != NO_LINK)
                                for p in range(topology.size))
        #: per pair of points, the line steps between them (breadth first over the links).
        self.distance = tuple(self._distances_from(p) for p in range(topology.size))
        self._baseline = self._hunter_score(self.initial_state())

    def _distances_from(self, start: int) -> tuple[int, ...]:
        far = [len(self.neighbours)] * len(self.neighbours)
        far[start] = 0
        todo = [start]
        for p in todo:
            for t in self.neighbours[p]:
                if far[t] > far[p] + 1:
                    far[t] = far[p] + 1
                    todo.append(t)
        return tuple(far)

    # -- play ----------------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        """The moves by the rules, or [] once the game is over."""
        if self._taken(state) >= self.capture_goal or self._drawn(state):
            return []
        return self._moves(state)

    def _moves(self, state: State) -> list[Move]:
        """The moves by the rules, whether or not the game is over."""
        cells = state.cells
        if state.to_move == HUNTER:
            return self.jumps.moves(cells, HUNTER)
        prey = self.prey
        if state.hands[PREY][1]:
            return [Move((Action(DROP, p, p, prey, 0),)) for p, c in enumerate(cells) if not c]
        return [Move((Action(MOVE, p, t, prey, 0),))
                for p, c in enumerate(cells) if c == prey for t in self.prey_steps[p] if not cells[t]]

    def _taken(self, state: State) -> int:
        return self.prey_total - state.cells.count(self.prey) - state.hands[PREY][1]

    def after_move(self, state: State, move: Move, cells: list[int]) -> Next:
        hands = state.hands
        if move and move[0][0] == DROP:
            hands = ((0, 0), (0, hands[PREY][1] - 1))
        progress = len(move) > 1 or hands != state.hands or (
            self.forward_only and state.to_move == PREY and (move[0][1], move[0][2]) in self.forward)
        clock = 0 if progress else state.counters[0] + 1
        # without a repetition rule no history is kept: a repeated position is no draw
        return Next(1 - state.to_move, state.flags, (clock,), hands, progress or not self.repetition_draws)

    def outcome(self, state: State) -> Outcome | None:
        return self.result(state, self.legal_moves(state))

    def result(self, state: State, moves: list[Move] | None = None) -> Outcome | None:
        if moves is None:  # (not given: the outcome works them out)
            return self.outcome(state)
        taken = self._taken(state)
        if taken >= self.capture_goal:
            return Outcome.win(HUNTER, f"{taken} {self.player_names[PREY]} taken")
        if moves:
            return None
        drawn = self._drawn(state)
        if drawn and self._moves(state):
            return Outcome.draw(drawn)
        return Outcome.win(1 - state.to_move, f"{self.player_names[state.to_move]} cannot move")

    def _drawn(self, state: State) -> str:
        """Why ``state`` is drawn if its side to move can move, else ""."""
        if self.repetition_draws and state.repetitions() >= 2:
            return "threefold repetition"
        if state.counters[0] >= self.move_limit:
            return f"{self.move_limit} plies without a capture or a placement"
        return ""

    # -- knowledge for bots ----------------------------------------------------------------------

    def evaluate(self, state: State) -> float:
        """Prey taken, the hunters' mobility and threatened captures, trapped hunters; less
        the same score of the start position, so that a draw (0) is not what the side the
        raw terms disfavour at the start steers for."""
        score = self._hunter_score(state) - self._baseline
        return score if state.to_move == HUNTER else -score

    def _hunter_score(self, state: State) -> float:
        k = self.knowledge
        cells = state.cells
        score = k.taken * self._taken(state) + k.in_hand * state.hands[PREY][1]
        steps = self.jumps._king_slides[HUNTER]
        jumps = self.jumps._king_jumps[HUNTER]
        hunters = [p for p, c in enumerate(cells) if c == self.hunter]
        if k.region:
            seen = set(hunters)
            todo = list(hunters)
            neighbours = self.neighbours
            while todo:
                for t in neighbours[todo.pop()]:
                    if t not in seen and not cells[t]:
                        seen.add(t)
                        todo.append(t)
            score += k.region * (len(seen) - len(hunters))
            if k.exposed:
                prey = self.prey
                exposed = {over for p in seen for over, land in jumps[p] if cells[over] == prey and not cells[land]}
                score += k.exposed * len(exposed)
        chasing = k.chase != 0 and self._taken(state) >= k.chase_after
        if k.spread or chasing:
            distance, prey = self.distance, self.prey
            weight = k.chase if chasing else k.spread
            score += weight * sum(min(distance[p][h] for h in hunters) for p, c in enumerate(cells) if c == prey)
        threatened: set[int] = set()
        for p in hunters:
            free = sum(1 for ray in steps[p] for t, _m in ray if not cells[t])
            jumpable = [over for over, land in jumps[p] if cells[over] == self.prey and not cells[land]]
            threatened.update(jumpable)
            score += k.mobility * free + k.threat * len(jumpable)
            if not free and not jumpable:
                score += k.trapped
        if threatened and state.to_move == HUNTER:
            score += k.threat_to_move
        elif len(threatened) > 1 and state.to_move == PREY:
            score += k.fork
        return score

    def move_heuristic(self, state: State, move: Move) -> float:
        return float(sum(1 for a in move if a[0] == CAPTURE))

    # -- positions -----------------------------------------------------------------------------

    def parse_position(self, text: str) -> State:
        fields = text.split()
        if len(fields) != 4:
            raise PositionError(f"{self.id}: {shortened(text)}: expected four fields: the board, the side to "
                                f"move ({' or '.join(self.side_letters)}), the {self.player_names[PREY]} in hand "
                                "and the plies since the last capture")
        cells = parse_ranks(self.topology, fields[0], self.pieces.code_of_letter)
        if fields[1] not in self.side_letters:
            raise PositionError(f"{self.id}: side to move {shortened(fields[1])}: expected "
                                f"{' or '.join(self.side_letters)}")
        to_move = self.side_letters.index(fields[1])
        hand = read_int(fields[2], f"{self.id}: {self.player_names[PREY]} in hand", low=0, high=self.prey_total,
                        error=PositionError)
        clock = read_int(fields[3], f"{self.id}: plies since the last capture", low=0, high=self.move_limit,
                         error=PositionError)
        for code in self.unused:
            if code in cells:
                raise PositionError(f"{self.id}: letter {self.pieces.letter_of[code]!r} is no piece of this game")
        hunters = cells.count(self.hunter)
        if hunters != self.hunter_count:
            raise PositionError(f"{self.id}: {hunters} {self.pieces.kinds[0].name}(s) on the board, the game has "
                                f"{self.hunter_count}")
        if cells.count(self.prey) + hand > self.prey_total:
            raise PositionError(f"{self.id}: {cells.count(self.prey) + hand} {self.player_names[PREY]} on the board "
                                f"and in hand, the game has {self.prey_total}")
        state = self.make_state(cells, to_move, (), (clock,), ((0, 0), (0, hand)))
        if self._taken(state) >= self.capture_goal and to_move == HUNTER:
            raise PositionError(f"{self.id}: the {self.player_names[HUNTER]} have already won, so they moved last")
        return state

    def format_position(self, state: State) -> str:
        board = format_ranks(self.topology, state.cells, self.pieces.letter_of)
        return f"{board} {self.side_letters[state.to_move]} {state.hands[PREY][1]} {state.counters[0]}"

    # -- moves ---------------------------------------------------------------------------------

    def format_move(self, state: State, move: Move) -> str:
        names = self.topology.names
        if move[0][0] == DROP:
            return names[move[0][2]]
        path = move.path
        sep = "x" if len(move) > 1 else "-"
        return sep.join(names[p] for p in path)

    def check_move_syntax(self, text: str) -> None:
        if len(text) > 60 or not text.isascii() or not text.replace("-", "").replace("x", "").isalnum():
            raise InvalidMoveError(f"{self.id}: {shortened(text)} is not a move (expected e.g. d4-d5, d4xd6 or c3)")

    # -- drawing -------------------------------------------------------------------------------

    def render(self, state: State) -> str:
        """The board top row first, each point in its column (gaps where the board has none),
        then the prey in hand."""
        topo = self.topology
        lines = []
        for row in board_rows(topo):
            y = int(topo.coords[row[0]][1])
            at = {int(topo.coords[p][0]): p for p in row}
            text = " ".join((self.pieces.letter_of[state.cells[at[c]]] or ".") if c in at else " "
                            for c in range(topo.width))
            lines.append(f"{y + 1:>2} {text}")
        lines.append("   " + " ".join(chr(ord("a") + c) for c in range(topo.width)))
        lines.append(f"{self.player_names[PREY]} in hand: {state.hands[PREY][1]}")
        return "\n".join(lines)


FOX_RULES = (
    "The 33-point cross with its diagonals; one fox against {n} geese. {first} moves first. The fox "
    "steps along a line to an adjacent empty point or jumps a goose next to it along a line to the "
    "empty point beyond, taking it; it may go on jumping in the same move, or stop. Capturing is "
    "not compulsory. Geese step {geese} and never jump. The geese win when the fox cannot move; the "
    "fox wins when fewer than {least} geese are left or the geese cannot move. 150 plies without "
    "a capture{progress} draw.")


#: The geese win only by closing in: each point of the fox's region weighs far more than a
#: step of the fox, a goose the fox could jump from its region is a weakness, and geese
#: drawn close to the fox (``spread``) are progress before the region can shrink (measured
#: against ``heuristic``: see the README).
FOX_KNOWLEDGE = HuntKnowledge(region=40, mobility=2, exposed=15, spread=4)
#: With 13 geese, four taken leave too few to trap the fox: from then on the fox closes in
#: (``chase``) and the geese keep away, where ``spread`` had the fox keep its distance
#: while the geese shuffled into the 150-ply draw.
FOX13_KNOWLEDGE = replace(FOX_KNOWLEDGE, chase=-5, chase_after=4)


def fox_and_geese(geese: int = 13) -> HuntGame:
    """Fox and geese: ``geese`` = 13 (geese move along any line, they move first, the fox
    wins when fewer than 4 are left) or 17 (geese step forward or sideways, never along a
    diagonal, the fox moves first and wins when fewer than 6 are left)."""
    if geese == 13:
        start = "GGG/GGG/GGGGGGG/3F3/7/3/3 g 0 0"
        dirs: Sequence[str] = ALL_DIRECTIONS
        least, first, how = 4, "The geese player", "along any line in any direction"
    elif geese == 17:
        start = "GGG/GGG/GGGGGGG/GG1F1GG/7/3/3 f 0 0"
        dirs = ("n", "e", "w")
        least, first, how = 6, "The fox", "one point forward or sideways along an orthogonal line"
    else:
        raise ValueError(f"fox and geese is played with 13 or 17 geese, not {geese}")
    game = HuntGame(
        name=f"Fox and geese ({geese} geese)", topology=cross_board(), player_names=("fox", "geese"),
        hunter=("fox", "f"), prey=("goose", "g"), start=start, prey_total=geese, prey_dirs=dirs,
        continue_capture="may", capture_goal=geese - least + 1, move_limit=150,
        repetition_draws=False, knowledge=FOX13_KNOWLEDGE if geese == 13 else FOX_KNOWLEDGE,
        rules=FOX_RULES.format(n=geese, first=first, geese=how, least=least,
                               progress=" or a forward goose step" if geese == 17 else ""))
    return game


def bagh_chal() -> HuntGame:
    """Bagh-chal, the tiger game of Nepal: four tigers against twenty goats on the 5x5
    alquerque board."""
    return HuntGame(
        name="Bagh-chal (tigers and goats)", topology=alquerque_lines(square_board(5, 5)),
        player_names=("tigers", "goats"), hunter=("tiger", "t"), prey=("goat", "g"),
        start="T3T/5/5/5/T3T g 20 0", prey_total=20, prey_dirs=ALL_DIRECTIONS, continue_capture="no",
        capture_goal=5, move_limit=150,
        rules="The 5x5 alquerque board (diagonals through every other point). Four tigers start on "
              "the corners; the twenty goats start in hand, and the goats move first. A goat turn "
              "places a goat on an empty point until all twenty are placed; then a goat steps along "
              "a line to an adjacent empty point. A tiger steps likewise, or jumps a goat next to it "
              "along a line to the empty point beyond, taking it (one goat per move; capturing is "
              "not compulsory). The tigers win by taking five goats (or when the goats cannot "
              "move); the goats win when no tiger can move. Threefold repetition or 150 plies "
              "without a capture or placement draws.")
