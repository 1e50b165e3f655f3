"""Jungle (Dou Shou Qi, 斗兽棋): eight animals a side race for the enemy den.

Equipment: a 7x9 board with two rivers (b4-c6 and e4-f6: twelve water squares), a den
in the middle of each back row (d1 for red, d9 for black) and three traps round each den
(c1, e1, d2 and c9, e9, d8).  Each side has, by rank, the rat (1), cat, dog, wolf,
leopard, tiger, lion and elephant (8), set up as the common modern rules have them.

Play: red moves first.  An animal steps one square along a row or column; it never
enters its own den, and only the rat enters the water.  The lion and the tiger leap the
river along a row or column to the first square beyond it, unless a rat (of either side)
swims on a square passed.  A move onto an enemy takes it (:mod:`myriad.core.mechanics.
rank_capture`): a piece takes an enemy of equal or lower rank; the rat takes the
elephant and the elephant never takes the rat; an animal on a trap of the other side's
den has rank 0 (any enemy takes it).  By default a rat does not capture between water
and land (it may neither take out of the water nor be taken from the bank); the rats meet
in the water.

End: an animal entering the enemy den wins; a side left with no piece or no legal move
loses.  Repetition (an option): by default a position occurring for the third time is a
draw; ``"mover_loses"``: the side to move in it loses; ``"none"``.  200 plies without a
capture draw (our limit, an option; the traditional rules have none).

Moves are written ``Ea3-a4``, a capture ``Rc4xc5``; ``a3a4`` and ``a3-a4`` are read too.
Positions as netcan/AnimalChess writes them (a FEN: the board from row 9, upper case for
red, ``r c d w p t l e`` for rat, cat, dog, wolf, leopard (panther), tiger, lion,
elephant, then the side to move, ``w`` for red, ``b`` for black), followed by ``- -``,
the plies since the last capture and the move number:
``l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w - - 0 1``; the board and side alone are
read too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from myriad.core.errors import GameDefinitionError, InvalidMoveError, PositionError
from myriad.core.game import REPEATED, Game, Next, Outcome
from myriad.core.mechanics.rank_capture import RankCapture
from myriad.core.mechanics.terrain import TerrainMoves
from myriad.core.move import CAPTURE, MOVE, Move
from myriad.core.numbers import read_int, shortened
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.ranks import board_rows, format_ranks, parse_ranks
from myriad.core.state import State
from myriad.core.topology import NO_LINK, ORTHOGONAL, square_board
from myriad.games.chains import ChainPiece, chain_score

RED, BLACK = 0, 1

#: The animals by rank (1 to 8); values are the bots' material, not rules.
PIECES = (
    PieceKind("rat", "r", value=350, glyphs=("鼠", "鼠")),
    PieceKind("cat", "c", value=200, glyphs=("貓", "貓")),
    PieceKind("dog", "d", value=250, glyphs=("狗", "狗")),
    PieceKind("wolf", "w", value=300, glyphs=("狼", "狼")),
    PieceKind("leopard", "p", value=450, glyphs=("豹", "豹")),
    PieceKind("tiger", "t", value=750, glyphs=("虎", "虎")),
    PieceKind("lion", "l", value=850, glyphs=("獅", "獅")),
    PieceKind("elephant", "e", value=900, glyphs=("象", "象")),
)
RANKS = {kind.name: rank for rank, kind in enumerate(PIECES, start=1)}

WATER = tuple(f"{f}{r}" for f in "bcef" for r in (4, 5, 6))
DENS = ("d1", "d9")
TRAPS = (("c1", "e1", "d2"), ("c9", "e9", "d8"))
START = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w - - 0 1"


@dataclass(frozen=True)
class JungleRules:
    """The options of Jungle.

    * ``across_bank``: a rat may capture between water and land (as netcan/AnimalChess
      plays; never the elephant out of the water); default no: captures stay on one side
      of the bank;
    * ``trapped_rat_safe``: the elephant may not take the rat even on a trap (netcan);
      default: a trapped rat is rank 0 like any trapped animal;
    * ``repetition``: ``"draw"`` (a third occurrence draws), ``"mover_loses"`` (the side to
      move in a position occurring the third time loses) or ``"none"``;
    * ``move_limit``: plies without a capture that draw (None: no limit).
    """

    across_bank: bool = False
    trapped_rat_safe: bool = False
    repetition: str = "draw"
    move_limit: int | None = 200


@dataclass(frozen=True)
class JungleKnowledge:
    """Evaluation weights, data beside the rules: material (the piece values), a bonus per
    animal for nearness to the enemy den (``advance[d]`` at ``d`` steps from it, scaled by
    ``advance_scale`` percent of the animal's weight ``advance_weight``), a bonus for an
    animal beside the enemy den or on its traps, and mobility per legal move."""

    advance: tuple[int, ...] = (0, 120, 70, 45, 30, 20, 14, 9, 5, 2, 0, 0, 0, 0, 0, 0)
    advance_weight: dict[str, int] = field(default_factory=lambda: {
        "rat": 60, "cat": 35, "dog": 45, "wolf": 45, "leopard": 60, "tiger": 100, "lion": 100, "elephant": 70})
    den_guard: int = 40
    mobility: int = 3
    #: Percent of the chain/parity term (:mod:`myriad.games.chains`, over the land squares;
    #: the rat's swims and the big cats' leaps are not chained) added to the evaluation:
    #: 0, off, by measure (see the README).
    chains: int = 0


class Jungle(Game):
    """Jungle on its 7x9 board; ``rules`` picks the options."""

    family = "jungle"
    player_names = ("red", "black")
    side_letters = ("w", "b")

    def __init__(self, rules: JungleRules = JungleRules(), knowledge: JungleKnowledge = JungleKnowledge()) -> None:
        if rules.repetition not in ("draw", "mover_loses", "none"):
            raise GameDefinitionError(f"jungle: repetition {rules.repetition!r}: expected draw, mover_loses or none")
        if rules.move_limit is not None and rules.move_limit < 1:
            raise GameDefinitionError(f"jungle: move limit {rules.move_limit}: expected a positive number of plies")
        topology = square_board(7, 9, diagonals=False).with_zones(
            water=(WATER, WATER), den=((DENS[0],), (DENS[1],)), trap=TRAPS)
        pieces = PieceSet(PIECES)
        super().__init__(topology, pieces, {"start": START})
        self.name = "Jungle (Dou Shou Qi)"
        self.jungle_rules = rules
        self.knowledge = knowledge
        self.rules = RULES_TEXT
        zone = topology.zone
        self.water = zone("water", RED)
        self.dens = (min(zone("den", RED)), min(zone("den", BLACK)))
        #: per player, the traps round its den (weak squares for the other side)
        self.traps = (zone("trap", RED), zone("trap", BLACK))
        self.rats = (pieces.code("rat", RED), pieces.code("rat", BLACK))
        self.codes = tuple(frozenset(c for c in range(1, pieces.count) if pieces.owner_of[c] == p)
                           for p in (RED, BLACK))
        closed = {}
        for code in range(1, pieces.count):
            owner = pieces.owner_of[code]
            closed[code] = {self.dens[owner]} | (set() if code in self.rats else set(self.water))
        leapers = {pieces.code(k, p) for k in ("lion", "tiger") for p in (RED, BLACK)}
        self.moves = TerrainMoves(topology, pieces.count, closed=closed, leapers=leapers, leap_zone=self.water)
        #: the quiet moves, built once: [code][from][to]
        self.quiet: tuple[tuple[dict[int, Move], ...], ...] = tuple(
            tuple({t: Move(((MOVE, p, t, code, 0),)) for t, _ in self.moves.reach[code][p]}
                  for p in range(topology.size)) if code else () for code in range(pieces.count))
        self._taking: dict[tuple[int, int, int, int], Move] = {}
        self.capture = RankCapture(
            pieces, RANKS, allowed=[("rat", "elephant")], forbidden=[("elephant", "rat")],
            # an animal is weak on the traps round the other side's den
            weak=(self.traps[BLACK], self.traps[RED]), forbidden_on_weak=rules.trapped_rat_safe,
            surface=self.water, across=rules.across_bank, not_from_surface=[("rat", "elephant")])
        #: the squares the web draws as terrain, by kind
        self.terrain = {**{p: "water" for p in self.water}, **{p: "den" for p in self.dens},
                        **{p: "trap" for t in self.traps for p in t}}
        coords = topology.coords
        self.den_distance = tuple(tuple(int(abs(x - coords[d][0]) + abs(y - coords[d][1])) for x, y in coords)
                                  for d in (self.dens[BLACK], self.dens[RED]))  # [player]: to the enemy den
        k = knowledge
        self.square_bonus = tuple(
            tuple(k.advance[self.den_distance[pieces.owner_of[code]][p]] * k.advance_weight[pieces.kind(code).name]
                  // 100 for p in range(topology.size)) if code else (0,) * topology.size
            for code in range(pieces.count))
        closed_land = set(self.water) | set(self.dens)
        #: per square, its land neighbours (no water, no den): the graph of the chains
        self.land_neighbours = tuple(
            tuple(t for t in (topology.step(p, d) for d in ORTHOGONAL) if t != NO_LINK and t not in closed_land)
            for p in range(topology.size))
        self.kind_values = tuple(float(k.value) for k in pieces.kinds)
        self.near_den = tuple(frozenset(p for p in range(topology.size) if self.den_distance[player][p] == 1)
                              for player in (RED, BLACK))

    # -- play ----------------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        if self._decided(state) is not None:
            return []
        return self._moves(state.cells, state.to_move)

    def _moves(self, cells: Sequence[int], player: int, captures_only: bool = False) -> list[Move]:
        owner_of, reach, quiet = self.pieces.owner_of, self.moves.reach, self.quiet
        may_take, taking = self.capture.may_take, self._taking
        out: list[Move] = []
        for frm, code in enumerate(cells):
            if not code or owner_of[code] != player:
                continue
            for to, passed in reach[code][frm]:
                if passed and any(cells[q] for q in passed):
                    continue
                victim = cells[to]
                if not victim:
                    if not captures_only:
                        out.append(quiet[code][frm][to])
                elif owner_of[victim] != player and may_take(code, frm, victim, to):
                    key = (code, frm, to, victim)
                    move = taking.get(key)
                    if move is None:
                        move = taking[key] = Move(((CAPTURE, to, to, victim, 0), (MOVE, frm, to, code, 0)))
                    out.append(move)
        return out

    def _mobility(self, cells: Sequence[int], player: int) -> int:
        """How many moves ``player`` has (counted, not built)."""
        owner_of, reach, may_take = self.pieces.owner_of, self.moves.reach, self.capture.may_take
        n = 0
        for frm, code in enumerate(cells):
            if not code or owner_of[code] != player:
                continue
            for to, passed in reach[code][frm]:
                if passed and any(cells[q] for q in passed):
                    continue
                victim = cells[to]
                if not victim or (owner_of[victim] != player and may_take(code, frm, victim, to)):
                    n += 1
        return n

    def noisy_moves(self, state: State) -> list[Move]:
        if self._decided(state) is not None:
            return []
        return self._moves(state.cells, state.to_move, captures_only=True)

    def after_move(self, state: State, move: Move, cells: list[int]) -> Next:
        captured = len(move) > 1
        clock = 0 if captured else state.counters[0] + 1
        number = state.counters[1] + (state.to_move == BLACK)
        return Next(1 - state.to_move, state.flags, (clock, number), state.hands, captured)

    def _decided(self, state: State) -> Outcome | None:
        """The end of the game that does not depend on the legal moves, or None."""
        cells = state.cells
        for player in (RED, BLACK):
            den = self.dens[1 - player]
            if cells[den] and self.pieces.owner_of[cells[den]] == player:
                return Outcome.win(player, f"{self.player_names[player]} enters the den")
        for player in (RED, BLACK):
            if self.codes[player].isdisjoint(cells):
                return Outcome.win(1 - player, f"{self.player_names[player]} has no piece left")
        rules = self.jungle_rules
        if rules.repetition != "none" and state.repetitions() >= 2:
            if rules.repetition == "draw":
                return Outcome.draw("threefold repetition")
            return Outcome.win(1 - state.to_move, "a position repeated three times (the side to move loses)")
        if rules.move_limit is not None and state.counters[0] >= rules.move_limit:
            return Outcome.draw(f"{rules.move_limit} plies without a capture")
        return None

    def outcome(self, state: State) -> Outcome | None:
        return self.result(state, self.legal_moves(state))

    def repetition_outcome(self, state: State) -> Outcome:
        """A repetition, kept up, loses for the side to move under ``mover_loses``, else
        draws."""
        if self.jungle_rules.repetition == "mover_loses":
            return Outcome.win(1 - state.to_move, "a position repeated (the side to move loses)")
        return REPEATED

    def result(self, state: State, moves: list[Move] | None = None) -> Outcome | None:
        if moves is None:  # (not given: the outcome works them out)
            return self.outcome(state)
        decided = self._decided(state)
        if decided is not None:
            return decided
        if not moves:
            return Outcome.win(1 - state.to_move, "no legal move")
        return None

    # -- knowledge for bots ----------------------------------------------------------------------

    def evaluate(self, state: State) -> float:
        """Material, each animal's nearness to the enemy den (a table per kind), the guard
        of the own den against animals beside it, and mobility, for the side to move."""
        cells = state.cells
        owner_of, value_of, bonus = self.pieces.owner_of, self.pieces.value_of, self.square_bonus
        score = [0, 0]
        for p, c in enumerate(cells):
            if c:
                score[owner_of[c]] += value_of[c] + bonus[c][p]
        k = self.knowledge
        for player in (RED, BLACK):
            for p in self.near_den[player]:  # an animal of player beside the enemy den
                c = cells[p]
                if c and owner_of[c] == player:
                    score[1 - player] -= k.den_guard
        me = state.to_move
        if k.mobility:
            score[me] += k.mobility * self._mobility(cells, me)
            score[1 - me] += k.mobility * self._mobility(cells, 1 - me)
        total = float(score[me] - score[1 - me])
        if k.chains:
            kind_of = self.pieces.kind_of
            pieces = [ChainPiece(p, owner_of[c], kind_of[c]) for p, c in enumerate(cells) if c]
            empty = [not c for c in cells]
            total += k.chains / 100 * chain_score(self.land_neighbours, empty, pieces, self.capture.takes,
                                                  self.kind_values, me, me)
        return total

    def move_heuristic(self, state: State, move: Move) -> float:
        """Captures by the victim's value, then a move into the den, then advance."""
        score = 0.0
        for kind, frm, to, piece, _ in move:
            if kind == CAPTURE:
                score += 10 * self.pieces.value_of[piece] + 1
            elif kind == MOVE:
                player = self.pieces.owner_of[piece]
                if to == self.dens[1 - player]:
                    score += 100000
                score += self.square_bonus[piece][to] - self.square_bonus[piece][frm]
        return score

    # -- positions -----------------------------------------------------------------------------

    def parse_position(self, text: str) -> State:
        fields = text.split()
        if len(fields) not in (2, 6):
            raise PositionError(f"{self.id or 'jungle'}: {shortened(text)}: expected the board and the side to move "
                                "(w for red, b for black), optionally followed by - -, the plies since the last "
                                "capture and the move number")
        cells = parse_ranks(self.topology, fields[0], self.pieces.code_of_letter)
        side = fields[1]
        if side not in ("w", "r", "b"):
            raise PositionError(f"{self.id or 'jungle'}: side to move {shortened(side)}: expected w (red) or b (black)")
        to_move = BLACK if side == "b" else RED
        clock, number = 0, 1
        if len(fields) == 6:
            if fields[2] != "-" or fields[3] != "-":
                raise PositionError(f"{self.id or 'jungle'}: {shortened(text)}: the third and fourth fields are - -")
            limit = self.jungle_rules.move_limit
            clock = read_int(fields[4], "jungle: plies since the last capture", low=0,
                             high=limit if limit is not None else 100000, error=PositionError)
            number = read_int(fields[5], "jungle: move number", low=1, high=100000, error=PositionError)
        self.check_reachable(cells, to_move)
        return self.make_state(cells, to_move, (), (clock, number))

    def check_reachable(self, cells: Sequence[int], to_move: int) -> None:
        """Raise ``PositionError`` for a board no game reaches: two animals of one kind on a
        side, an animal other than a rat in the water, an animal in its own den, an animal
        in the enemy den when its side is to move (entering the den ends the game, so the
        other side moves next; both dens entered is refused so too)."""
        names = self.topology.names
        pieces = self.pieces
        for code in range(1, pieces.count):
            if cells.count(code) > 1:
                raise PositionError(f"jungle: {cells.count(code)} {self.player_names[pieces.owner_of[code]]} "
                                    f"{pieces.kind(code).name}s (each side has one)")
        for p, code in enumerate(cells):
            if not code:
                continue
            owner = pieces.owner_of[code]
            if p in self.water and code not in self.rats:
                raise PositionError(f"jungle: a {pieces.kind(code).name} in the water on {names[p]} (only rats swim)")
            if p == self.dens[owner]:
                raise PositionError(f"jungle: {self.player_names[owner]}'s {pieces.kind(code).name} in its own "
                                    f"den {names[p]}")
            if p == self.dens[1 - owner] and owner == to_move:
                raise PositionError(f"jungle: {self.player_names[owner]} is in the den on {names[p]}, so it moved "
                                    "last and the other side is to move")

    def format_position(self, state: State) -> str:
        board = format_ranks(self.topology, state.cells, self.pieces.letter_of)
        return f"{board} {self.side_letters[state.to_move]} - - {state.counters[0]} {state.counters[1]}"

    # -- moves ---------------------------------------------------------------------------------

    def format_move(self, state: State, move: Move) -> str:
        names = self.topology.names
        frm, to = move[-1][1], move[-1][2]
        letter = self.pieces.kinds[self.pieces.kind_of[move[-1][3]]].letter.upper()
        return f"{letter}{names[frm]}{'x' if len(move) > 1 else '-'}{names[to]}"

    def move_aliases(self, state: State, move: Move) -> Sequence[str]:
        names = self.topology.names
        frm, to = names[move[-1][1]], names[move[-1][2]]
        return (f"{frm}{to}", f"{frm}-{to}", f"{frm}x{to}")

    def check_move_syntax(self, text: str) -> None:
        if not 4 <= len(text) <= 7 or not text.isascii() or not text.replace("-", "").replace("x", "").isalnum():
            raise InvalidMoveError(f"{self.id or 'jungle'}: {shortened(text)} is not a move (expected e.g. Ea3-a4 "
                                   "or a3a4)")

    # -- drawing -------------------------------------------------------------------------------

    def render(self, state: State) -> str:
        """The board, top row first: water ``~``, traps ``#``, dens ``@`` where empty."""
        marks = {"water": "~", "trap": "#", "den": "@"}
        lines = []
        for row in board_rows(self.topology):
            y = int(self.topology.coords[row[0]][1])
            text = " ".join(self.pieces.letter_of[state.cells[p]] or marks.get(self.terrain.get(p, ""), ".")
                            for p in row)
            lines.append(f"{y + 1:>2} {text}")
        lines.append("   " + " ".join("abcdefg"))
        return "\n".join(lines)


RULES_TEXT = (
    "7x9 board: two rivers (b4-c6, e4-f6), a den in the middle of each back row (d1 red, d9 black) and "
    "three traps round it. Eight animals a side, by rank: rat 1, cat 2, dog 3, wolf 4, leopard 5, tiger 6, "
    "lion 7, elephant 8. Red moves first. An animal steps one square along a row or column; never into its "
    "own den; only the rat swims. The lion and tiger leap a river along a row or column to the square beyond, "
    "unless a rat swims in the way. An animal takes an enemy of equal or lower rank; the rat takes the "
    "elephant, the elephant never takes the rat; an animal on a trap of the other side's den can be taken by "
    "any enemy. A rat does not capture between water and land. Entering the enemy den wins; a side with no "
    "piece or no legal move loses. A third repetition of a position, or 200 plies without a capture, draws.")


def jungle(**options: object) -> Jungle:
    """Jungle with the common modern rules (Wikipedia, "Jungle (board game)"); ``options``
    are :class:`JungleRules` fields."""
    try:
        rules = JungleRules(**options)  # type: ignore[arg-type]
    except TypeError as err:
        raise GameDefinitionError(f"jungle: {err}") from None
    return Jungle(rules)
