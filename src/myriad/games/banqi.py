"""BanQi (半棋), Chinese dark chess: half a xiangqi board, the pieces face down and shuffled.

Rules (Wikipedia, "Banqi"; the Computer Olympiad's Chinese Dark Chess (CDC) for the
Taiwanese default):

Equipment: a board of 4 files (a-d) by 8 ranks, as CDC programs number it; the 32
xiangqi pieces, per colour (red, black) 1 general, 2 advisors, 2 elephants, 2 chariots,
2 horses, 2 cannons and 5 soldiers, all face down on the 32 squares.
Play: a turn either *flips* a face-down piece (turns it face up) or moves a face-up piece
of the player's colour one square orthogonally, onto an empty square or onto an enemy
face-up piece it may capture: one of equal or lower rank, except that a soldier takes
the general and the general never takes a soldier.  The cannon captures only by jumping,
along a file or rank, over exactly one piece (face up or down, of either colour) to an
enemy face-up piece beyond, of any rank.  Face-down pieces are never captured and never
move.  The first flip decides the colours: the flipper plays the colour turned up.
End: a player whose pieces are all captured, or who has no legal move, loses; a run of
``quiet_limit`` plies (default 60, as in the TCGA/CDC rules) without a flip or a capture
draws, and so does a position occurring for the ``repetitions``-th time (default 3: the
TCGA rules' threefold repetition; 0 turns it off).  A position is the board, the colours,
the captured pieces and the player to move: the state keeps the keys of the positions since
the last flip or capture (its history; a flip or capture makes every earlier position
unreachable), so a repetition is found by key.  Position text does not carry that history,
as a FEN does not: a position read from text starts a fresh count.

Rule sets (parameters): ``ranks`` is the order, highest first (Taiwanese/CDC:
general > advisor > elephant > chariot > horse > cannon > soldier; Hong Kong, where the
chariot ranks second: general > chariot > horse > cannon > advisor > elephant > soldier,
the xiangqi piece values); ``sliders``: kinds that move any distance over empty squares
(capturing what ends the run, by rank), e.g. the chariot (and cannon) of house rules;
``chained``: after a capture the same piece may capture again in the same move.

How chance is modelled: a face-down piece has *no identity* in the state.  Flipping is a
player's move (the square turns ``?``), after which the game's chance player draws the
piece turned up from the pool of pieces not yet seen (every piece of the set that is not
face up or captured), with probabilities by counts.  This is exactly a shuffled set-up
nobody has seen, and nobody can peek at it, because the state holds no secret: the arena's
and the server's referee draw the flip with their seeded generator, and a record with its
seed (and its chance moves) replays exactly.

Notation (as CDC programs write squares): a flip is the square, ``b3`` (CDC's same-square
form ``b3-b3`` is read too); a step ``a1-a2``; a capture ``a1xa2`` (also read ``a1-a2``), a
chained capture ``a1xa2xa4``; the chance's move is the piece turned up, CDC's letter:
``K G M R N C P`` for red general, advisor (guard), elephant (minister), chariot (rook),
horse (knight), cannon, soldier (pawn), lower case for black.
Position: ``<board> <player>[?] <colours> <captured> <quiet plies>``: the board from rank 8
down, ``X`` a face-down piece, ``?`` the piece being turned, digits for empty runs; the
player to move (``1`` or ``2``; ``1?`` while chance turns their flip); ``-`` before the
first flip, else ``r`` or ``b``, the first player's colour; the captured pieces' letters
(``-`` for none); the plies since the last flip or capture.  The start is
``XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX 1 - - 0``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from myriad.core.errors import GameDefinitionError, InvalidMoveError, PositionError
from myriad.core.game import Game, Next, Outcome
from myriad.games.chains import ChainPiece, chain_score, piece_outlook
from myriad.core.mechanics.rank_capture import RankCapture, ranks_in_order
from myriad.core.move import CAPTURE, MOVE, SET, Action, Move
from myriad.core.numbers import read_int, shortened
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.ranks import format_ranks, parse_ranks
from myriad.core.state import State
from myriad.core.topology import NO_LINK, ORTHOGONAL, Topology, square_board

RED, BLACK = 0, 1
COLOUR_NAMES = ("red", "black")
#: The kinds, their CDC letters, their counts per colour and their characters (red, black).
KINDS = ("general", "advisor", "elephant", "chariot", "horse", "cannon", "soldier")
LETTERS = ("K", "G", "M", "R", "N", "C", "P")
COUNTS = (1, 2, 2, 2, 2, 2, 5)
GLYPHS = (("帥", "將"), ("仕", "士"), ("相", "象"), ("俥", "車"), ("傌", "馬"), ("炮", "砲"), ("兵", "卒"))
GENERAL, ADVISOR, ELEPHANT, CHARIOT, HORSE, CANNON, SOLDIER = range(7)
COVER = len(KINDS)  # the kind of the face-down marker ("X") and of a piece being turned ("?")

TAIWAN_RANKS = ("general", "advisor", "elephant", "chariot", "horse", "cannon", "soldier")
HONG_KONG_RANKS = ("general", "chariot", "horse", "cannon", "advisor", "elephant", "soldier")
#: Values for the bots by place in the rank order, highest first; the cannon, which takes
#: any rank by jumping, is worth at least :data:`CANNON_VALUE`.
RANK_VALUES = (60, 35, 20, 12, 8, 6, 4)
CANNON_VALUE = 15
#: How much a face-down piece of one's colour counts of its value (it is safe, but idle).
HIDDEN_SHARE = 0.6
#: How much of the evaluation is gone when the quiet plies reach the draw limit (it shrinks
#: with their square): the side ahead flips or captures before the draw, the side behind
#: steers for it.
QUIET_SHRINK = 0.75
#: How many flips the bots search at a node (the best by :meth:`Banqi.flip_scores`).
FLIP_CANDIDATES = 4


@dataclass(frozen=True)
class BanqiRules:
    """A rule set: the rank order (highest first) and its exceptions, the kinds that move
    any distance, whether the cannon takes only by jumping, chained captures, and the draw
    after ``quiet_limit`` plies without a flip or capture or when a position occurs for the
    ``repetitions``-th time (0: never)."""

    ranks: tuple[str, ...] = TAIWAN_RANKS
    allow: tuple[tuple[str, str], ...] = (("soldier", "general"),)
    forbid: tuple[tuple[str, str], ...] = (("general", "soldier"),)
    sliders: frozenset[str] = field(default_factory=frozenset)
    cannon_jumps: bool = True
    chained: bool = False
    quiet_limit: int = 60
    repetitions: int = 3


def board() -> Topology:
    """The 4x8 board, files a-d and ranks 1-8, linked orthogonally."""
    return square_board(4, 8, diagonals=False)


class Banqi(Game):
    """BanQi under one :class:`BanqiRules`."""

    family = "banqi"
    chance = True
    player_names = ("first", "second")

    def __init__(self, rules: BanqiRules = BanqiRules(), name: str = "BanQi") -> None:
        if not 2 <= rules.quiet_limit <= 1000:
            raise GameDefinitionError(f"banqi: quiet_limit must be 2 to 1000, not {rules.quiet_limit}")
        if rules.repetitions != 0 and not 2 <= rules.repetitions <= 100:
            raise GameDefinitionError(f"banqi: repetitions must be 0 (off) or 2 to 100, not {rules.repetitions}")
        unknown = set(rules.sliders) - set(KINDS)
        if unknown:
            raise GameDefinitionError(f"banqi: unknown slider kinds {sorted(unknown)}")
        kinds = [PieceKind(k, LETTERS[i], RANK_VALUES[0], glyphs=GLYPHS[i]) for i, k in enumerate(KINDS)]
        kinds.append(PieceKind("cover", "X", 0, letters=("X", "?")))
        pieces = PieceSet(kinds, 2)
        topology = board()
        super().__init__(topology, pieces, {"start": "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX 1 - - 0"})
        self.name = name
        self.banqi_rules = rules
        #: who takes whom by a step: the rank-capture mechanic shared with Jungle, its
        #: table ``[attacker kind][victim kind]`` (the face-down marker has no rank).
        self.capture = RankCapture(pieces, ranks_in_order(rules.ranks, KINDS), allowed=rules.allow,
                                   forbidden=rules.forbid)
        self.table = self.capture.takes
        #: the captures by a step, for the chains (a jumping cannon takes nothing by a step).
        self.chain_table = tuple(tuple(False for _ in row) if k == CANNON and rules.cannon_jumps else row
                                 for k, row in enumerate(self.table))
        self.face_down = pieces.code("cover", 0)
        self.turning = pieces.code("cover", 1)
        #: the codes the page draws as the backs of pieces.
        self.face_down_codes = (self.face_down, self.turning)
        self.slides = tuple(k in rules.sliders for k in KINDS)
        #: codes of the real pieces: code -> (kind, colour), full count.
        self.real_codes = tuple(pieces.code(k, c) for k in KINDS for c in (RED, BLACK))
        self.full = {c: COUNTS[pieces.kind_of[c]] for c in self.real_codes}
        self.kind_of = pieces.kind_of
        self.colour_of = pieces.owner_of
        place = {k: i for i, k in enumerate(rules.ranks)}
        self.values = tuple(float(max(RANK_VALUES[place[k]], CANNON_VALUE if i == CANNON and rules.cannon_jumps
                                      else 0)) for i, k in enumerate(KINDS))
        size = topology.size
        #: per cell, the ray of cells in each orthogonal direction.
        self.rays = tuple(tuple(topology.ray(p, d) for d in ORTHOGONAL) for p in range(size))
        self.neighbours = tuple(tuple(t for t in (topology.step(p, d) for d in ORTHOGONAL) if t != NO_LINK)
                                for p in range(size))
        self.rules = self._rules_text()

    def _rules_text(self) -> str:
        r = self.banqi_rules
        order = " > ".join(r.ranks)
        slide = (f" {' and '.join(sorted(r.sliders))} may move any distance over empty squares."
                 if r.sliders else "")
        chain = " After a capture the same piece may capture again in the same move." if r.chained else ""
        return ("A 4x8 board, the 32 xiangqi pieces face down and shuffled. On your turn flip a face-down "
                "piece, or move one of your face-up pieces one square up, down, left or right onto an empty "
                f"square or onto an enemy face-up piece of equal or lower rank ({order}); the soldier "
                "takes the general, the general never takes a soldier. The cannon captures by jumping over "
                "exactly one piece along a line onto an enemy face-up piece of any rank."
                f"{slide}{chain} The first flip decides the colours: you play the colour you turn up. "
                "A player with no piece or no legal move loses; "
                f"{r.quiet_limit} plies without a flip or capture draw"
                f"{f', and so does a position occurring {r.repetitions} times' if r.repetitions else ''}. "
                "The flips are drawn by chance "
                "from the pieces not yet seen.")

    # -- state helpers ---------------------------------------------------------------------

    def colour_of_player(self, state: State, player: int) -> int:
        """The colour ``player`` plays, or -1 before the first flip."""
        colours = state.flags[1]
        return -1 if not colours else (colours - 1) ^ player

    def captured(self, state: State) -> dict[int, int]:
        """How many of each piece code have been captured."""
        return {c: state.flags[2 + i] for i, c in enumerate(self.real_codes) if state.flags[2 + i]}

    def pool(self, state: State) -> dict[int, int]:
        """The pieces not yet seen (neither face up nor captured), code -> count: what a
        flip may turn up."""
        left = dict(self.full)
        for i, c in enumerate(self.real_codes):
            left[c] -= state.flags[2 + i]
        for v in state.cells:
            if v in left:
                left[v] -= 1
        return {c: n for c, n in left.items() if n > 0}

    def lost_colour(self, state: State) -> int:
        """A colour whose 16 pieces are all captured, or -1."""
        flags = state.flags
        for colour in (RED, BLACK):
            if sum(flags[2 + 2 * k + colour] for k in range(len(KINDS))) == 16:
                return colour
        return -1

    # -- play ------------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        """At a chance node, each piece the flip may turn up; else the flips, steps and
        captures of the player to move; none once the game is over."""
        cells = state.cells
        if state.to_move == self.chance_player:
            at = cells.index(self.turning)
            return [Move((Action(SET, at, at, c, 0),)) for c in sorted(self.pool(state))]
        if (self.lost_colour(state) >= 0 or state.counters[0] >= self.banqi_rules.quiet_limit
                or self.repeated(state)):
            return []
        fd = self.face_down
        moves = [Move((Action(SET, p, p, self.turning, 0),)) for p, v in enumerate(cells) if v == fd]
        colour = self.colour_of_player(state, state.to_move)
        if colour >= 0:
            for p, v in enumerate(cells):
                if v and v < fd and self.colour_of[v] == colour:
                    self._piece_moves(cells, p, v, moves)
        return moves

    def _piece_moves(self, cells: Sequence[int], frm: int, piece: int, out: list[Move]) -> None:
        kind = self.kind_of[piece]
        rules = self.banqi_rules
        for ray in self.rays[frm]:
            reach = ray if self.slides[kind] else ray[:1]
            for t in reach:
                if not cells[t]:
                    out.append(Move((Action(MOVE, frm, t, piece, 0),)))
                    continue
                if not (kind == CANNON and rules.cannon_jumps) and self._takes(piece, cells[t]):
                    self._captures(list(cells), frm, t, piece, (), out)
                break
        if kind == CANNON and rules.cannon_jumps:
            for t in self._cannon_targets(cells, frm, piece):
                self._captures(list(cells), frm, t, piece, (), out)

    def _takes(self, attacker: int, victim: int) -> bool:
        return (victim < self.face_down and self.colour_of[victim] != self.colour_of[attacker]
                and self.table[self.kind_of[attacker]][self.kind_of[victim]])

    def _cannon_targets(self, cells: Sequence[int], frm: int, piece: int) -> list[int]:
        """The enemy face-up pieces a cannon on ``frm`` hits over exactly one screen."""
        targets = []
        fd, colour = self.face_down, self.colour_of[piece]
        for ray in self.rays[frm]:
            screen = False
            for t in ray:
                if not cells[t]:
                    continue
                if not screen:
                    screen = True
                    continue
                v = cells[t]
                if v < fd and self.colour_of[v] != colour:
                    targets.append(t)
                break
        return targets

    def _captures(self, cells: list[int], frm: int, to: int, piece: int, done: tuple[Action, ...],
                  out: list[Move]) -> None:
        """The capture from ``frm`` onto ``to`` after the actions ``done``, and (chained
        rules) every continuation by the same piece."""
        part = len(done) // 2
        actions = done + (Action(CAPTURE, to, to, cells[to], part), Action(MOVE, frm, to, piece, part))
        out.append(Move(actions))
        if not self.banqi_rules.chained:
            return
        after = list(cells)
        after[frm], after[to] = 0, piece
        kind = self.kind_of[piece]
        if kind == CANNON and self.banqi_rules.cannon_jumps:
            nexts = self._cannon_targets(after, to, piece)
        else:
            nexts = []
            for ray in self.rays[to]:
                reach = ray if self.slides[kind] else ray[:1]
                for t in reach:
                    if after[t]:
                        if self._takes(piece, after[t]):
                            nexts.append(t)
                        break
        for t in nexts:
            self._captures(after, to, t, piece, actions, out)

    def chance_outcomes(self, state: State) -> list[tuple[Move, float]]:
        """Each piece the flip may turn up, with its share of the unseen pieces."""
        pool = self.pool(state)
        total = sum(pool.values())
        return [(m, pool[m[0][3]] / total) for m in self.legal_moves(state)]

    def after_move(self, state: State, move: Move, cells: list[int]) -> Next:
        """A flip hands the move to chance; the piece turned up decides the colours at the
        first flip and hands the move to the other player; captures are recorded."""
        player, colours = state.flags[0], state.flags[1]
        flags = list(state.flags)
        if state.to_move == self.chance_player:
            if not colours:
                flags[1] = 1 + (self.colour_of[move[0][3]] ^ player)
            flags[0] = 1 - player
            return Next(1 - player, tuple(flags), (0,), state.hands, True)
        if move[0][0] == SET:
            return Next(self.chance_player, state.flags, (0,), state.hands, True)
        quiet = state.counters[0] + 1
        for action in move:
            if action[0] == CAPTURE:
                flags[2 + self.real_codes.index(action[3])] += 1
                quiet = 0
        flags[0] = 1 - player
        # (a step keeps the positions since the last flip or capture, for the repetition rule)
        return Next(1 - player, tuple(flags), (quiet,), state.hands, quiet == 0)

    def outcome(self, state: State) -> Outcome | None:
        if state.to_move == self.chance_player:
            return None
        return self.result(state, self.legal_moves(state))

    def result(self, state: State, moves: list[Move] | None = None) -> Outcome | None:
        if moves is None:  # (not given: the outcome works them out)
            return self.outcome(state)
        if state.to_move == self.chance_player:
            return None
        lost = self.lost_colour(state)
        if lost >= 0:
            loser = 0 if self.colour_of_player(state, 0) == lost else 1
            return Outcome.win(1 - loser, f"all of {COLOUR_NAMES[lost]}'s pieces are captured")
        if state.counters[0] >= self.banqi_rules.quiet_limit:
            return Outcome.draw(f"{self.banqi_rules.quiet_limit} plies without a flip or capture")
        if self.repeated(state):
            return Outcome.draw(f"the same position {self.banqi_rules.repetitions} times")
        if not moves:
            return Outcome.win(1 - state.to_move, f"{self.player_names[state.to_move]} has no legal move")
        return None

    def repeated(self, state: State) -> bool:
        """Whether ``state``'s position occurs for the ``repetitions``-th time (its key in
        the history of the positions since the last flip or capture)."""
        limit = self.banqi_rules.repetitions
        return bool(limit) and state.repetitions() + 1 >= limit

    # -- knowledge for bots ------------------------------------------------------------------

    def evaluate(self, state: State) -> float:
        """:meth:`evaluate_for` the player to move (the flipper at a chance node)."""
        return self.evaluate_for(state, state.flags[0])

    def evaluate_for(self, state: State, player: int) -> float:
        """Material of ``player``'s colour less the other's (face-down pieces still unseen
        counted at :data:`HIDDEN_SHARE` of their value), plus the chain/parity term of
        :mod:`myriad.games.chains`, shrunk as the quiet plies near the draw
        (:data:`QUIET_SHRINK`); 0 before the first flip."""
        mine = self.colour_of_player(state, player)
        if mine < 0:
            return 0.0
        values, kind_of, colour_of, fd = self.values, self.kind_of, self.colour_of, self.face_down
        score = 0.0
        pieces = []
        cells = state.cells
        side_of = [0, 0]  # colour -> player
        side_of[mine], side_of[1 - mine] = player, 1 - player
        for p, v in enumerate(cells):
            if v and v < fd:
                k, c = kind_of[v], colour_of[v]
                score += values[k] if c == mine else -values[k]
                pieces.append(ChainPiece(p, side_of[c], k))
        for c, n in self.pool(state).items():
            worth = HIDDEN_SHARE * values[kind_of[c]] * n
            score += worth if colour_of[c] == mine else -worth
        if pieces:
            empty = [not v for v in cells]
            to_move = 1 - state.flags[0] if state.to_move == self.chance_player else state.to_move
            score += chain_score(self.neighbours, empty, pieces, self.chain_table, values, player, to_move)
        return score * (1.0 - QUIET_SHRINK * (state.counters[0] / self.banqi_rules.quiet_limit) ** 2)

    def move_heuristics(self, state: State, moves: Sequence[Move]) -> list[float]:
        """Captures first (the most valuable victims), then steps by how much the moved
        piece's chains improve (:func:`~myriad.games.chains.piece_outlook` before and
        after), then flips."""
        cells = state.cells
        if state.to_move == self.chance_player:
            return [0.0] * len(moves)
        colour = self.colour_of_player(state, state.to_move)
        fd, values = self.face_down, self.values
        enemies = [ChainPiece(p, 1, self.kind_of[v]) for p, v in enumerate(cells)
                   if v and v < fd and self.colour_of[v] != colour]
        empty = [not v for v in cells]
        flips = [m[0][2] for m in moves if m[0][0] == SET]
        flip_value = dict(zip(flips, self.flip_scores(state, flips)))
        scores = []
        for move in moves:
            first = move[0]
            if first[0] == SET:
                scores.append(flip_value[first[2]] - 1.0)
            elif first[0] == CAPTURE:
                scores.append(100.0 + 10 * sum(values[self.kind_of[a[3]]] for a in move if a[0] == CAPTURE))
            else:
                frm, to, piece = first[1], first[2], first[3]
                kind = self.kind_of[piece]
                before = piece_outlook(self.neighbours, empty, ChainPiece(frm, 0, kind), enemies, self.chain_table,
                                       values, True)
                empty[frm], empty[to] = True, False
                after = piece_outlook(self.neighbours, empty, ChainPiece(to, 0, kind), enemies, self.chain_table,
                                      values, False)
                empty[frm], empty[to] = False, True
                scores.append((after[0] - after[1]) - (before[0] - before[1]))
        return scores

    def flip_scores(self, state: State, squares: Sequence[int]) -> list[float]:
        """The expected result of flipping each of ``squares``, one reply deep, in piece
        values: the piece turned up is drawn from the pool; one of the mover's is lost if
        an enemy piece next to it may take it, one of the opponent's costs the mover its
        best neighbour the new piece may take (the opponent moves next), and is itself
        worth a little when a neighbour of the mover's may take it."""
        pool = self.pool(state)
        total = sum(pool.values())
        if not total:
            return [0.0] * len(squares)
        mine = self.colour_of_player(state, state.to_move)
        cells, fd, values, table = state.cells, self.face_down, self.values, self.chain_table
        kind_of, colour_of = self.kind_of, self.colour_of
        scores = []
        for sq in squares:
            near = [cells[t] for t in self.neighbours[sq] if cells[t] and cells[t] < fd]
            if not near:
                scores.append(0.0)
                continue
            expected = 0.0
            for code, n in pool.items():
                k, colour = kind_of[code], colour_of[code]
                if colour == mine or mine < 0:
                    if any(colour_of[v] != colour and table[kind_of[v]][k] for v in near):
                        expected -= n * values[k]
                else:
                    hit = [values[kind_of[v]] for v in near if colour_of[v] == mine and table[k][kind_of[v]]]
                    if hit:
                        expected -= n * max(hit)
                    elif any(colour_of[v] == mine and table[kind_of[v]][k] for v in near):
                        expected += n * 0.3 * values[k]
            scores.append(expected / total)
        return scores

    def candidate_moves(self, state: State, moves: list[Move]) -> list[Move]:
        """Every step and capture, and the :data:`FLIP_CANDIDATES` flips that look best by
        :meth:`flip_scores` (most flips far from the action are alike)."""
        flips = [m for m in moves if m[0][0] == SET]
        if len(flips) <= FLIP_CANDIDATES or self.is_chance(state):
            return moves
        scores = self.flip_scores(state, [m[0][2] for m in flips])
        best = sorted(range(len(flips)), key=lambda i: -scores[i])[:FLIP_CANDIDATES]
        keep = {flips[i] for i in best}
        return [m for m in moves if m[0][0] != SET or m in keep]

    def move_heuristic(self, state: State, move: Move) -> float:
        return self.move_heuristics(state, [move])[0]

    # -- notation ----------------------------------------------------------------------------

    def format_move(self, state: State, move: Move) -> str:
        names = self.topology.names
        first = move[0]
        if state.to_move == self.chance_player:
            return self.pieces.letter_of[first[3]]
        if first[0] == SET:
            return names[first[2]]
        path = [a[2] for a in move if a[0] == MOVE]
        if first[0] == CAPTURE:
            return names[move[1][1]] + "".join("x" + names[t] for t in path)
        return f"{names[first[1]]}-{names[first[2]]}"

    def move_aliases(self, state: State, move: Move) -> Sequence[str]:
        """CDC's forms: a flip ``b3-b3``, a single capture ``a1-a2``."""
        if state.to_move == self.chance_player:
            return ()
        names = self.topology.names
        first = move[0]
        if first[0] == SET:
            return (f"{names[first[2]]}-{names[first[2]]}",)
        if first[0] == CAPTURE and len(move) == 2:
            return (f"{names[move[1][1]]}-{names[move[1][2]]}",)
        return ()

    def check_move_syntax(self, text: str) -> None:
        letters = set(LETTERS) | {c.lower() for c in LETTERS}
        if text in letters:
            return
        squares = text.replace("x", "-").split("-")
        if not all(s in self.topology.index for s in squares) or len(squares) > 16:
            raise InvalidMoveError(f"{self.id}: {shortened(text)} is not a move: expected a flip (b3), a step "
                                   f"(a1-a2), a capture (a1xa2) or, for chance, a piece letter (K, p, ...)")

    # -- positions ---------------------------------------------------------------------------

    def format_position(self, state: State) -> str:
        board_text = format_ranks(self.topology, state.cells, self.pieces.letter_of)
        chance = state.to_move == self.chance_player
        side = f"{state.flags[0] + 1}{'?' if chance else ''}"
        colours = "-rb"[state.flags[1]]
        captured = "".join(self.pieces.letter_of[c] * n for c, n in self.captured(state).items()) or "-"
        return f"{board_text} {side} {colours} {captured} {state.counters[0]}"

    def parse_position(self, text: str) -> State:
        """Read ``<board> <player>[?] <colours> <captured> <quiet plies>``; refuses piece
        counts the set does not have and positions no game reaches."""
        fields = text.split()
        if len(fields) != 5:
            raise PositionError(f"{self.id}: expected '<board> <player> <colours> <captured> <quiet plies>' "
                                f"like {self.setups['start']!r}, got {shortened(text)}")
        board_text, side_text, colours_text, captured_text, quiet_text = fields
        try:
            cells = parse_ranks(self.topology, board_text, self.pieces.code_of_letter)
        except PositionError as err:
            raise PositionError(f"{self.id}: {err}") from None
        chance = side_text.endswith("?")
        if side_text.removesuffix("?") not in ("1", "2"):
            raise PositionError(f"{self.id}: player {shortened(side_text)}: expected 1 or 2, with '?' while "
                                "chance turns their flip")
        player = int(side_text[0]) - 1
        if colours_text not in ("-", "r", "b"):
            raise PositionError(f"{self.id}: colours {shortened(colours_text)}: expected '-' (before the first "
                                "flip), 'r' or 'b' (the first player's colour)")
        colours = "-rb".index(colours_text)
        quiet = read_int(quiet_text, f"{self.id}: plies without a flip or capture", low=0,
                         high=self.banqi_rules.quiet_limit, error=PositionError)
        captured = [0] * len(self.real_codes)
        if captured_text != "-":
            for ch in captured_text:
                code = self.pieces.code_of_letter.get(ch)
                if code is None or code not in self.full:
                    raise PositionError(f"{self.id}: captured {shortened(captured_text)}: {ch!r} is not a piece "
                                        f"letter (K G M R N C P, lower case for black)")
                captured[self.real_codes.index(code)] += 1
        self._check_position(cells, captured, chance, colours, quiet)
        return self.make_state(cells, self.chance_player if chance else player, (player, colours, *captured),
                               (quiet,))

    def _check_position(self, cells: list[int], captured: list[int], chance: bool, colours: int, quiet: int) -> None:
        for i, code in enumerate(self.real_codes):
            seen = cells.count(code) + captured[i]
            if seen > self.full[code]:
                raise PositionError(f"{self.id}: {seen} {self.pieces.letter_of[code]!r} face up or captured; the "
                                    f"set has {self.full[code]}")
        hidden = cells.count(self.face_down) + cells.count(self.turning)
        unseen = 32 - sum(1 for v in cells if v and v < self.face_down) - sum(captured)
        if hidden != unseen:
            raise PositionError(f"{self.id}: {hidden} face-down pieces, but {unseen} pieces of the set are neither "
                                "face up nor captured")
        turning = cells.count(self.turning)
        if turning != (1 if chance else 0):
            raise PositionError(f"{self.id}: {turning} piece(s) being turned ('?'); exactly one while chance "
                                "turns a flip (player written '1?' or '2?'), else none")
        if not colours and (unseen < 32 or quiet):
            raise PositionError(f"{self.id}: pieces are face up or captured (or plies counted) but the colours "
                                "are undecided ('-'); the first flip decides them")
        if colours and unseen == 32:
            raise PositionError(f"{self.id}: colours decided but no piece was ever turned up")

    # -- drawing -----------------------------------------------------------------------------

    def render(self, state: State) -> str:
        """The board (rank 8 at the top), who plays which colour, the captured pieces."""
        text = super().render(state)
        colour = self.colour_of_player(state, 0)
        who = ("colours not yet decided" if colour < 0 else
               f"first plays {COLOUR_NAMES[colour]}, second plays {COLOUR_NAMES[1 - colour]}")
        captured = "".join(self.pieces.letter_of[c] * n for c, n in self.captured(state).items()) or "none"
        return f"{text}\n{who}; captured: {captured}"


def banqi(rules: str = "taiwan", chained: bool = False, quiet_limit: int = 60, repetitions: int = 3) -> Banqi:
    """BanQi under the ``taiwan`` (CDC, the default) or ``hongkong`` rank order."""
    if rules == "taiwan":
        return Banqi(BanqiRules(chained=chained, quiet_limit=quiet_limit, repetitions=repetitions),
                     "BanQi (dark chess)")
    if rules == "hongkong":
        return Banqi(BanqiRules(ranks=HONG_KONG_RANKS, chained=chained, quiet_limit=quiet_limit,
                                repetitions=repetitions), "BanQi, Hong Kong ranks")
    raise GameDefinitionError(f"banqi: rules 'taiwan' or 'hongkong', not {rules!r}")
