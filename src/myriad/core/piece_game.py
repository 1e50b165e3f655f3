"""Games of moving pieces: chess-likes, breakthrough and their kin.

A :class:`PieceRules` declaration names the movement of each kind (rules of
:mod:`myriad.core.mechanics.movement`), promotions, castlings and the end rules; a
:class:`PieceGame` runs it.  Positions are FEN-like: board, side to move, optionally
castling rights and en-passant square, half-move clock and move number.

Flags: ``(castling rights bitmask, en-passant square + 1)``, then the passes in a row where
passing is a move (written after the move number when not 0: two end the game, so they
change which moves are legal and are part of the key).
Counters: ``(half-move clock, move number)``, then under makruk's counting the limit of the
count (0: none), the half-move field holding the count while one runs
(:mod:`myriad.core.mechanics.honour`).
Under ``perpetual_check_loses`` the history notes each move that gave check
(``CHECK_MARK``).

In drop games (``drops``) a captured piece goes to the captor's hand (``State.hands``: per
player, a count per piece kind), as the kind ``hand_kind`` names (a promoted piece returns
unpromoted); a move may instead drop a piece from the hand on an empty square.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from myriad.core.errors import GameDefinitionError, InvalidMoveError, PositionError
from myriad.core.game import CHECK_MARK, Game, Next, Outcome
from myriad.core.mechanics.fog import FogOfWar, fog_kind
from myriad.core.mechanics.honour import HonourCount, HonourCounting
from myriad.core.mechanics.movement import CAPTURE_ONLY, Castling, MoveTables, Promotion, Rule
from myriad.core.move import CAPTURE, DROP, MOVE, PASS, Move
from myriad.core.numbers import read_int, shortened
from myriad.core.piece_eval import EvalTables, EvalTerms, square_values
from myriad.core.piece_fog import PieceFog
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.ranks import board_rows, format_ranks, parse_ranks
from myriad.core.state import State
from myriad.core.topology import Topology, file_letter

CASTLING_LETTERS = "KQkq"


def board_after(cells: Sequence[int], move: Move) -> list[int]:
    """The board after the steps of ``move`` (moves and captures; no promotion, drop or
    hand), enough to ask whether a royal piece is attacked."""
    board = list(cells)
    for kind, a, b, p, _ in move:
        board[a] = 0
        if kind == MOVE:
            board[b] = p
    return board


@dataclass(frozen=True)
class PieceRules:
    """The declaration of a game of moving pieces.

    * ``movement``: kind name -> movement rules;
    * ``royal_check``: a move may not leave one's royal piece attacked (checkmate ends
      the game); without it, royal pieces are ordinary;
    * ``checkmated``/``stalemated``: the score of the side to move with no legal move,
      in check or not (0 loss, 0.5 draw, 1 win);
    * ``goal_zone``: reaching this zone (per player) wins at once;
    * ``lose_when_no_pieces``: a player with no piece left loses;
    * ``bare_king_loses``: a player left with only royal pieces loses (unless the
      opponent is bared by the very next move, which draws);
    * ``move_limit``: draw after this many half-moves with no capture or pawn move
      (0: no limit); ``repetitions``: draw when a position occurs this many times;
    * ``minor_kinds``: kinds that cannot mate alone: with no other non-royal piece on the
      board, one minor in all, or only ``colour_bound_kinds`` all on squares of one colour,
      is a dead position (draw by insufficient material); empty: no such rule;
    * ``pawn_kinds``: kinds whose moves reset the half-move clock and are written without
      a letter in SAN;
    * ``rights_fields``: write castling and en-passant fields in positions;
    * ``square_bonus``: kind -> a bonus per square for evaluation, written as the board is
      printed for the first player (top row first); the second player's is mirrored;
    * ``evaluation``: more evaluation terms (:class:`~myriad.core.piece_eval.EvalTerms`:
      endgame values and tables blended by the phase, passed pawns, pawn shield, mop-up);
    * ``confined``: kind -> a zone (per player) its moves never leave (xiangqi's palace
      and river);
    * ``letter_aliases``: more letters read for a kind in positions (upper case; lower case for
      the second player), never written: letter -> kind;
    * ``first_rank``: the number of the first rank in move coordinates (1 as in chess's UCI;
      0 in xiangqi's ICCS, ``h2e2``);
    * ``royals_may_not_face``: royal pieces of the two sides may not stand on one file with
      nothing between them (xiangqi's flying general): a move that leaves them so is illegal,
      as one that leaves the own royal piece attacked;
    * ``drops``: captured pieces go to the captor's hand, ``hand_kind`` (kind -> kind)
      saying what a captured piece becomes there (itself by default), and a turn may
      drop a piece from the hand on an empty square: within ``drop_zones[kind]`` (a zone,
      per player) when given, never where the piece would have no move (a shogi pawn on
      the last rank); ``drop_one_per_file``: kinds not dropped on a file that holds an
      own piece of that kind (nifu); ``no_drop_mate``: kinds whose drop may not checkmate
      (uchifuzume); ``hand_values``: kind -> its value in hand for the bots (else its
      value on the board); ``captures_to_hand=False``: captured pieces leave the game, and
      only the pieces a setup puts in the hands are dropped (sittuyin's set-up phase);
      ``must_drop``: while a player's hand holds pieces, the turn must be a drop;
    * ``perpetual_check_loses``: at a repetition, a player who gave check with every
      move since the position first occurred loses (shogi's sennichite);
    * ``sfen``: positions in SFEN (board, side ``b``/``w`` with the first player ``b``,
      hand, move number counted in plies), as shogi programs write them; otherwise FEN,
      with a drop game's hands in brackets after the board (``...RNBQKBNR[Qp]``).
    * ``may_pass``: a pass (the empty move) is legal for the side to move when not in check;
      two passes in a row end the game undecided (see ``counting``): no move is legal then;
    * ``facing_royals_end``: royal pieces may come to face each other on an open file
      (janggi's bikjang); the side to move then either parts them (any move after which they
      no longer face) or passes, even in check, and a pass there ends the game undecided;
    * ``counting``: a game that ends undecided (two passes, a declined facing of royal pieces,
      the move rule, repetition, ``max_moves``) goes to the side with more points: the
      ``counting_points`` of its pieces on the board, plus ``komi`` for the second player;
      equal points draw.  Without it such a game is drawn;
    * ``max_moves``: the game ends undecided once each side has made this many moves (the
      move number passes it); 0: no limit;
    * ``honour``: makruk's counting rules (board's and pieces' honour), see
      :mod:`myriad.core.mechanics.honour`: a game whose count passes its limit is drawn.
    * ``fog``: fog of war (dark chess, :mod:`myriad.core.mechanics.fog`): a player sees its
      pieces and the squares its moves reach; there is no check (``royal_check`` must be
      off), capturing a royal piece wins; the hands count the pieces each player has
      captured (public: both players see their pieces vanish).
    """

    movement: Mapping[str, Sequence[Rule]]
    promotions: Sequence[Promotion] = ()
    castlings: Sequence[Castling] = ()
    royal_check: bool = True
    checkmated: float = 0.0
    stalemated: float = 0.5
    goal_zone: str | None = None
    lose_when_no_pieces: bool = False
    bare_king_loses: bool = False
    move_limit: int = 0
    repetitions: int = 0
    minor_kinds: frozenset[str] = field(default_factory=frozenset)
    colour_bound_kinds: frozenset[str] = field(default_factory=frozenset)
    pawn_kinds: frozenset[str] = field(default_factory=frozenset)
    rights_fields: bool = True
    square_bonus: Mapping[str, Sequence[int]] = field(default_factory=dict)
    evaluation: EvalTerms = field(default_factory=EvalTerms)
    confined: Mapping[str, str] = field(default_factory=dict)
    royals_may_not_face: bool = False
    first_rank: int = 1
    letter_aliases: Mapping[str, str] = field(default_factory=dict)
    drops: bool = False
    hand_kind: Mapping[str, str] = field(default_factory=dict)
    drop_zones: Mapping[str, str] = field(default_factory=dict)
    drop_one_per_file: frozenset[str] = field(default_factory=frozenset)
    no_drop_mate: frozenset[str] = field(default_factory=frozenset)
    hand_values: Mapping[str, int] = field(default_factory=dict)
    captures_to_hand: bool = True
    must_drop: bool = False
    perpetual_check_loses: bool = False
    sfen: bool = False
    may_pass: bool = False
    facing_royals_end: bool = False
    counting: bool = False
    counting_points: Mapping[str, float] = field(default_factory=dict)
    komi: float = 0.0
    max_moves: int = 0
    honour: HonourCounting | None = None
    fog: bool = False


class PieceGame(Game):
    """Runs a :class:`PieceRules` declaration."""

    player_names: tuple[str, ...] = ("white", "black")
    side_letters = ("w", "b")
    late_move_reductions = True

    def __init__(self, topology: Topology, kinds: Sequence[PieceKind], rules: PieceRules,
                 setups: Mapping[str, str], player_names: Sequence[str] | None = None) -> None:
        if rules.fog:
            if rules.royal_check or rules.drops:
                raise GameDefinitionError("fog of war has no check (royal_check off) and no drops: a captured "
                                          "royal piece ends the game, the hands count captures")
            kinds = (*kinds, fog_kind())
        pieces = PieceSet(kinds, 2)
        if player_names is not None:
            self.player_names = tuple(player_names)
        if rules.sfen:
            self.side_letters = ("b", "w")
        super().__init__(topology, pieces, setups)
        if rules.may_pass and not rules.rights_fields:
            raise GameDefinitionError("passing needs the rights fields of positions (the passes follow them)")
        if rules.honour is not None and (not rules.rights_fields or rules.move_limit):
            raise GameDefinitionError("counting rules need the rights fields of positions (the limit is written "
                                      "in the en-passant field) and no move rule (the count takes its field)")
        self.honour = HonourCount(rules.honour, pieces) if rules.honour is not None else None
        self.piece_rules = rules
        self.tables = MoveTables(topology, pieces, rules.movement, rules.promotions, rules.confined)
        #: Square names in move coordinates (``first_rank`` counts the ranks).
        self.coordinate_names = tuple(f"{file_letter(int(x))}{int(y) + rules.first_rank}"
                                      for x, y in topology.coords) if rules.first_rank != 1 else topology.names
        #: Letters read in positions: the pieces' own and their aliases.
        self.letter_codes = dict(pieces.code_of_letter)
        for letter, kind in rules.letter_aliases.items():
            self.letter_codes[letter.upper()] = pieces.code(kind, 0)
            self.letter_codes[letter.lower()] = pieces.code(kind, 1)
        self.file_dirs = (tuple(topology.direction(d) for d in ("n", "s"))
                          if rules.royals_may_not_face or rules.facing_royals_end else ())
        #: Per piece code, its points when a game is decided by counting.
        self.points = tuple(0.0 if code == 0 else float(rules.counting_points.get(pieces.kind(code).name, 0))
                            for code in range(pieces.count))
        self.castlings = tuple(self._compile_castling(c) for c in rules.castlings)
        # squares whose every touch clears castling rights
        self.rights_lost: dict[int, int] = {}
        for c, kf, _kt, rf, _rt, _empty, _path in self.castlings:
            self.rights_lost[kf] = self.rights_lost.get(kf, 0) | c.right
            self.rights_lost[rf] = self.rights_lost.get(rf, 0) | c.right
        self.royal = pieces.royal_codes
        self.royal_of = tuple(tuple(c for c in sorted(self.royal) if pieces.owner_of[c] == p) for p in range(2))
        self.pawn_codes = frozenset(pieces.code(k, p) for k in rules.pawn_kinds for p in range(2))
        self.goal = (tuple(topology.zone(rules.goal_zone, p) for p in range(2))
                     if rules.goal_zone else None)
        self.value_at = square_values(topology, pieces, pieces.value_of, rules.square_bonus)
        #: The evaluation terms beyond material and squares (``eval_tables.active``: any declared).
        self.eval_tables = EvalTables(topology, pieces, rules.evaluation, rules.square_bonus, self.royal,
                                      self.pawn_codes)
        self._full_phase = -1
        self.in_place_codes = tuple(c for c in range(1, pieces.count) if self.tables.in_place[c] is not None)
        self._compile_drops()
        #: Per piece code: the squares it may ever stand on, and its most pieces in a setup.
        self.reachable = self._reachable()
        self.start_counts = self._start_counts()
        #: Fog of war (``rules.fog``): the fog marker of each player, and who sees what.
        self.fog: FogOfWar | None = None
        self.fog_codes: tuple[int, ...] = ()
        self.fog_view = PieceFog(self) if rules.fog else None

    def _compile_drops(self) -> None:
        """The tables of a drop game: per captured code the hand kind it feeds, per code the
        squares it may be dropped on, and the kinds a hand may hold."""
        rules, pieces, topology = self.piece_rules, self.pieces, self.topology
        count = pieces.count
        #: per captured code, the index of the kind it becomes in the captor's hand (-1: none).
        self.hand_index = [-1] * count
        #: per code, the squares it may be dropped on (for kinds a hand may hold).
        self.drop_squares: list[tuple[int, ...]] = [()] * count
        #: indices of the kinds a hand may hold.
        self.hand_kinds: frozenset[int] = frozenset()
        self.hand_values: tuple[int, ...] = ()
        self.file_of = tuple(int(x) for x, _ in topology.coords)
        #: per setup, the pieces it puts in the hands (counts per kind, per player).
        self.setup_hands = {name: self._setup_hand(text) for name, text in self.setups.items()}
        if not rules.drops:
            return
        for name in (*rules.hand_kind, *rules.hand_kind.values(), *rules.drop_zones, *rules.drop_one_per_file,
                     *rules.no_drop_mate, *rules.hand_values):
            pieces.code(name, 0)  # validates the names
        for code in range(1, count):
            kind = pieces.kind(code)
            if code not in self.royal and rules.captures_to_hand:
                self.hand_index[code] = pieces.kind_index[rules.hand_kind.get(kind.name, kind.name)]
        self.hand_kinds = frozenset(i for i in self.hand_index if i >= 0) | frozenset(
            k for hands in self.setup_hands.values() for hand in hands for k, n in enumerate(hand) if n)
        for k in self.hand_kinds:
            name = pieces.kinds[k].name
            for owner in range(2):
                code = pieces.code(name, owner)
                zone = topology.zone(rules.drop_zones[name], owner) if name in rules.drop_zones else range(topology.size)
                self.drop_squares[code] = tuple(sq for sq in zone if sq not in self.tables.dead[code])
        self.hand_values = tuple(rules.hand_values.get(k.name, k.value) for k in pieces.kinds)

    def _setup_hand(self, text: str) -> tuple[tuple[int, ...], ...]:
        """The hands of a setup's FEN (``[KFRR...]`` after the board), counted per kind."""
        pocket = text.split()[0].partition("[")[2].rstrip("]")
        hands = [[0] * len(self.pieces.kinds) for _ in range(2)]
        for letter in pocket:
            code = self.letter_codes.get(letter)
            if code is None:
                raise GameDefinitionError(f"{self.id}: unknown piece {letter!r} in the hands of a setup")
            hands[self.pieces.owner_of[code]][self.pieces.kind_of[code]] += 1
        return tuple(tuple(h) for h in hands)

    @property
    def full_phase(self) -> int:
        """The game phase of the start position (the phase weights of its pieces): the
        full middle game of the tapered evaluation, 0 without phase weights."""
        if self._full_phase < 0:
            phase_of = self.eval_tables.phase_of
            self._full_phase = sum(phase_of[c] for c in self.initial_state().cells if c) \
                if any(phase_of) else 0
            self.eval_tables.full_phase = self._full_phase
        return self._full_phase

    def evaluate(self, state: State) -> float:
        """Material and square bonuses, for the side to move; with ``evaluation`` terms,
        the tapered score of :class:`~myriad.core.piece_eval.EvalTables`."""
        me = state.to_move
        if self.eval_tables.active:
            if self._full_phase < 0:
                self.eval_tables.full_phase = self.full_phase
            score = self.eval_tables.score(state.cells, me, state.hands)
        else:
            value_at, owner_of = self.value_at, self.pieces.owner_of
            score = 0
            for pos, c in enumerate(state.cells):
                if c:
                    score += value_at[c][pos] if owner_of[c] == me else -value_at[c][pos]
        if state.hands:
            for player, hand in enumerate(state.hands):
                held = sum(n * v for n, v in zip(hand, self.hand_values))
                score += held if player == me else -held
        return score

    def _compile_castling(self, c: Castling) -> tuple[Castling, int, int, int, int, tuple[int, ...], tuple[int, ...]]:
        """A castling with its squares: those that must be empty and the king's path."""
        kf, kt, rf, rt = (self.topology.pos(s) for s in (c.king_from, c.king_to, c.rook_from, c.rook_to))
        must_be_empty = tuple(sorted((set(self._between(kf, rf)) | {kt, rt}) - {kf, rf}))
        king_path = (kf, *self._between(kf, kt), kt)
        return c, kf, kt, rf, rt, must_be_empty, king_path

    # -- moves -------------------------------------------------------------------------------

    def royal_square(self, cells: Sequence[int], player: int) -> int:
        """The square of ``player``'s royal piece (the first found), or -1."""
        for code in self.royal_of[player]:
            try:
                return cells.index(code)
            except ValueError:
                continue
        return -1

    def in_check(self, state: State) -> bool:
        """Whether the side to move has its royal piece attacked."""
        if not self.piece_rules.royal_check:
            return False
        king = self.royal_square(state.cells, state.to_move)
        return king >= 0 and self.tables.attacked(state.cells, king, 1 - state.to_move)

    def royals_face(self, cells: Sequence[int], king: int) -> bool:
        """Whether the royal piece on ``king`` sees an enemy royal piece along its file with
        nothing between (only under ``royals_may_not_face``)."""
        owner_of, royal, me = self.pieces.owner_of, self.royal, self.pieces.owner_of[cells[king]]
        for d in self.file_dirs:
            for t in self.topology.ray(king, d):
                c = cells[t]
                if c:
                    if c in royal and owner_of[c] != me:
                        return True
                    break
        return False

    def legal_moves(self, state: State) -> list[Move]:
        """The moves the pieces may make, or [] once the game is over (also when it ends by
        a rule that leaves moves on the board: repetition, a move limit, a bare king)."""
        moves = self._generate(state, noisy_only=False)
        if moves and self._judge(state, moves) is not None:
            return []
        return moves

    def moves_by_rules(self, state: State) -> list[Move]:
        """The moves the pieces may make, whether or not the game is over (checkmate and
        stalemate are judged on these)."""
        return self._generate(state, noisy_only=False)

    def noisy_moves(self, state: State) -> list[Move]:
        """Legal captures and promotions, generated directly."""
        return self._generate(state, noisy_only=True)

    def _generate(self, state: State, noisy_only: bool) -> list[Move]:
        cells = state.cells
        player = state.to_move
        if self.goal is not None and self._goal_reached(cells):
            return []
        if self.piece_rules.lose_when_no_pieces and self._has_no_pieces(cells):
            return []
        if self.piece_rules.may_pass and state.flags[2] and self._ended_by_passing(state):
            return []
        ep = state.flags[1] - 1 if len(state.flags) > 1 else -1
        if self.fog is not None and self._royal_taken(state) >= 0:
            return []
        in_hand = bool(self.piece_rules.drops and state.hands and any(state.hands[player]))
        drops = in_hand and not noisy_only
        if in_hand and self.piece_rules.must_drop:  # (set-up: only drops, none of them noisy)
            moves = []
        else:
            moves = self.tables.pseudo_moves(cells, player, ep, noisy_only)
            if self.in_place_codes:
                moves += self._in_place_promotions(cells, player)
        passing = self.piece_rules.may_pass and not noisy_only
        if not self.piece_rules.royal_check:
            if self.castlings and not noisy_only and state.flags[0]:
                moves += self._castling_moves(state, player)
            return moves + (self._drop_moves(state, -1, False) if drops else []) + ([PASS] if passing else [])
        king = self.royal_square(cells, player)
        if king < 0:
            return moves + (self._drop_moves(state, -1, False) if drops else []) + ([PASS] if passing else [])
        enemy = 1 - player
        attacked = self.tables.attacked
        in_check = attacked(cells, king, enemy)
        pinned = self.tables.pinned(cells, king, enemy)
        royal = self.royal
        # Royal pieces facing each other where that must end: every move but a pass parts them.
        parting = self.piece_rules.facing_royals_end and self.royals_face(cells, king)
        facing = self.royals_face if self.piece_rules.royals_may_not_face or parting else None
        # Without rides, lame leaps or hops among the enemy's attacks, only a pinned piece,
        # the king, an en-passant capture or any move out of check can expose the king;
        # with them, every move is tried.
        safe = not in_check and self.tables.simple[enemy] and facing is None
        legal = []
        for move in moves:
            last = move[-1]
            frm, piece = last[1], last[3]
            if safe and frm not in pinned and piece not in royal and (
                    len(move) == 1 or move[0][1] == last[2]):
                legal.append(move)  # cannot expose the king: not pinned, no check, not en passant
                continue
            board = board_after(cells, move)
            mine = last[2] if piece in royal else king
            if not attacked(board, mine, enemy) and not (facing is not None and facing(board, mine)):
                legal.append(move)
        if self.castlings and not noisy_only and not in_check and state.flags[0]:
            legal.extend(self._castling_moves(state, player))
        if drops:
            legal.extend(self._drop_moves(state, king, in_check))
        if passing and (not in_check or parting):
            legal.append(PASS)
        return legal

    def move_square_names(self) -> Sequence[str]:
        """The squares as coordinate moves write them (``h2e2`` in xiangqi counts ranks from 0)."""
        return self.coordinate_names

    def royal_name(self, state: State) -> str:
        """The name of the royal piece of the side to move ("king", "general"); "king"
        when it has none on the board."""
        king = self.royal_square(state.cells, state.to_move)
        return self.pieces.kind(state.cells[king]).name if king >= 0 else "king"

    def near_moves(self, state: State) -> list[tuple[Move, str]]:
        """The pieces' moves that only the royal piece's safety forbids: each would leave it
        attacked ("your king would be in check"; "your king is in check and ..." when it
        already is) or facing the enemy's royal piece (xiangqi's flying general)."""
        rules = self.piece_rules
        player = state.to_move
        if not rules.royal_check or self.outcome(state) is not None:
            return []
        king = self.royal_square(state.cells, player)
        if king < 0:
            return []
        cells, royal, enemy = state.cells, self.royal, 1 - player
        ep = state.flags[1] - 1 if len(state.flags) > 1 else -1
        legal = set(self.legal_moves(state))
        name = self.royal_name(state)
        checked = self.tables.attacked(cells, king, enemy)
        facing = self.royals_face if rules.royals_may_not_face or rules.facing_royals_end else None
        near = []
        for move in self.tables.pseudo_moves(cells, player, ep, False):
            if move in legal:
                continue
            board = board_after(cells, move)
            last = move[-1]
            mine = last[2] if last[3] in royal else king
            if self.tables.attacked(board, mine, enemy):
                why = (f"your {name} is in check and this move leaves it in check" if checked and mine == king
                       else f"your {name} would be in check")
            elif facing is not None and facing(board, mine):
                why = f"it leaves your {name} facing the enemy {name} on an open file"
            else:
                continue
            near.append((move, why))
        return near

    def _in_place_promotions(self, cells: Sequence[int], player: int) -> list[Move]:
        """Promotions that are moves of their own (``Promotion.in_place``): the piece becomes
        the new kind where it stands or on an empty square the new kind moves to."""
        tables, owner_of, out = self.tables, self.pieces.owner_of, []
        for code in self.in_place_codes:
            if owner_of[code] != player:
                continue
            zone, choices, may_attack, last_anywhere = tables.in_place[code]  # type: ignore[misc]
            squares = [pos for pos, c in enumerate(cells) if c == code]
            for pos in squares:
                if pos not in zone and not (last_anywhere and len(squares) == 1):
                    continue
                for new in choices:
                    if tables.limits[new] and cells.count(new) >= tables.limits[new]:
                        continue
                    targets = [pos] + [ray[0] for ray, mode in tables.rays[new][pos]
                                       if mode != CAPTURE_ONLY and not cells[ray[0]]]
                    for t in targets:
                        if not may_attack:
                            board = list(cells)
                            board[pos], board[t] = 0, new
                            if any(c and owner_of[c] != player and tables.attacked_by(board, q, t)
                                   for q, c in enumerate(board)):
                                continue
                        out.append(Move(((MOVE, pos, t, new, 0),)))
        return out

    def _drop_moves(self, state: State, king: int, in_check: bool) -> list[Move]:
        """The legal drops of the side to move (``king``: its royal square, -1 when royal
        safety does not count)."""
        cells, player, rules = state.cells, state.to_move, self.piece_rules
        pieces, file_of = self.pieces, self.file_of
        out: list[Move] = []
        for k, n in enumerate(state.hands[player]):
            if not n:
                continue
            code = 1 + k * 2 + player
            blocked = ({file_of[sq] for sq, c in enumerate(cells) if c == code}
                       if pieces.kinds[k].name in rules.drop_one_per_file else ())
            out.extend(Move(((DROP, sq, sq, code, 0),)) for sq in self.drop_squares[code]
                       if not cells[sq] and file_of[sq] not in blocked)
        enemy = 1 - player
        if king >= 0 and (in_check or not self.tables.simple[enemy] or self.file_dirs):
            attacked, facing = self.tables.attacked, self.royals_face if self.file_dirs else None
            kept = []
            for move in out:  # a drop only blocks a line, or screens a hopper's
                board = list(cells)
                board[move[0][2]] = move[0][3]
                if not attacked(board, king, enemy) and not (facing is not None and facing(board, king)):
                    kept.append(move)
            out = kept
        if rules.no_drop_mate:
            out = [m for m in out if not self._drop_mates(state, m)]
        return out

    def _drop_mates(self, state: State, move: Move) -> bool:
        """Whether ``move``, a drop of a kind that may not mate (a shogi pawn), checkmates."""
        code = move[0][3]
        if self.pieces.kind(code).name not in self.piece_rules.no_drop_mate:
            return False
        board = list(state.cells)
        board[move[0][2]] = code
        enemy_king = self.royal_square(board, 1 - state.to_move)
        if enemy_king < 0 or not self.tables.attacked(board, enemy_king, state.to_move):
            return False
        return not self.moves_by_rules(self.play(state, move))

    def _castling_moves(self, state: State, player: int) -> list[Move]:
        cells = state.cells
        rights = state.flags[0]
        owner_of = self.pieces.owner_of
        out = []
        for c, kf, kt, rf, rt, must_be_empty, king_path in self.castlings:
            if c.player != player or not rights & c.right:
                continue
            king, rook = cells[kf], cells[rf]
            if king not in self.royal or not rook or owner_of[rook] != player:
                continue
            if any(cells[s] for s in must_be_empty):
                continue
            board = list(cells)
            board[kf] = 0
            if self.piece_rules.royal_check and any(self.tables.attacked(board, s, 1 - player) for s in king_path):
                continue
            out.append(Move(((MOVE, kf, kt, king, 0), (MOVE, rf, rt, rook, 1))))
        return out

    def _between(self, a: int, b: int) -> tuple[int, ...]:
        """Squares strictly between ``a`` and ``b`` on a line (empty if not on one)."""
        if a == b:
            return ()
        for d in range(len(self.topology.directions)):
            ray = self.topology.ray(a, d)
            if b in ray:
                return ray[:ray.index(b)]
        return ()

    def _goal_reached(self, cells: Sequence[int]) -> bool:
        assert self.goal is not None
        owner_of = self.pieces.owner_of
        return any(cells[p] and owner_of[cells[p]] == player
                   for player in range(2) for p in self.goal[player])

    def _has_no_pieces(self, cells: Sequence[int]) -> bool:
        owner_of = self.pieces.owner_of
        present = {owner_of[c] for c in cells if c}
        return len(present) < 2

    def after_move(self, state: State, move: Move, cells: list[int]) -> Next:
        rights, ep = (state.flags[0], state.flags[1]) if state.flags else (0, 0)
        half, full = state.counters[0], state.counters[1]
        capture = any(a[0] == CAPTURE for a in move)
        pawn_move = any(a[0] == MOVE and (state.cells[a[1]] in self.pawn_codes) for a in move)
        new_rights = rights
        if rights:
            for a in move:
                new_rights &= ~(self.rights_lost.get(a[1], 0) | self.rights_lost.get(a[2], 0))
        new_ep = 0
        if pawn_move and len(move) == 1:
            passed = self.tables.double_step_passed(move, state.cells[move[0][1]])
            if passed >= 0 and self._ep_possible(cells, passed, state.to_move):
                new_ep = passed + 1
        flags: tuple[int, ...] = (new_rights, new_ep) if state.flags else ()
        if self.piece_rules.may_pass:  # passes in a row
            flags += (0 if move else state.flags[2] + 1,)
        player = state.to_move
        hands = state.hands
        dropped = False
        if hands:
            hand = list(hands[player])
            for a in move:
                if a[0] == CAPTURE and self.hand_index[a[3]] >= 0:
                    hand[self.hand_index[a[3]]] += 1
                elif a[0] == DROP:
                    hand[self.pieces.kind_of[a[3]]] -= 1
                    dropped = True
            hands = tuple(tuple(hand) if p == player else h for p, h in enumerate(hands))
        irreversible = capture or pawn_move or new_rights != rights or dropped
        counters: tuple[int, ...]
        if self.piece_rules.sfen:  # no move rule: the move number counts plies
            counters = (0, full + 1)
        else:
            counters = (0 if capture or pawn_move else half + 1, full + player)
        if self.honour is not None:
            limit = state.counters[2]
            taken = next((a[3] for a in move if a[0] == CAPTURE), 0)
            promoted = any(a[0] == MOVE and a[3] != state.cells[a[1]] for a in move)
            count, limit = self.honour.after(cells, player, half + 1 if limit else 0, limit, taken,
                                             capture or promoted)
            counters = (count if limit else counters[0], counters[1], limit)
        gave_check = False
        if self.piece_rules.perpetual_check_loses and not irreversible:
            king = self.royal_square(cells, 1 - player)
            gave_check = king >= 0 and self.tables.attacked(cells, king, player)
        return Next(1 - player, flags, counters, hands, irreversible, gave_check)

    def _ep_possible(self, cells: Sequence[int], passed: int, mover: int) -> bool:
        """Whether an enemy piece could capture en passant on ``passed`` next move."""
        enemy = 1 - mover
        owner_of = self.pieces.owner_of
        for pos, code in enumerate(cells):
            if code and owner_of[code] == enemy and passed in self.tables.en_passant[code][pos]:
                return True
        return False

    # -- end of game ---------------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        return self._judge(state, self.moves_by_rules(state))

    def result(self, state: State, moves: list[Move] | None = None) -> Outcome | None:
        """None while there are legal moves (``legal_moves`` lists none once the game is
        over), else the outcome."""
        if moves is None:  # (not given: the outcome works them out)
            return self.outcome(state)
        return None if moves else self.outcome(state)

    def _judge(self, state: State, moves: list[Move]) -> Outcome | None:
        """The outcome of ``state`` given ``moves``, its moves by the rules."""
        rules = self.piece_rules
        cells = state.cells
        owner_of = self.pieces.owner_of
        if self.goal is not None:
            for player in range(2):
                if any(cells[p] and owner_of[cells[p]] == player for p in self.goal[player]):
                    return Outcome.win(player, "reached the last rank")
        if rules.lose_when_no_pieces:
            present = {owner_of[c] for c in cells if c}
            for player in range(2):
                if player not in present:
                    return Outcome.win(1 - player, "no pieces left")
        if rules.may_pass and state.flags[2] and self._ended_by_passing(state):
            return self.undecided(state, "two passes in a row" if state.flags[2] >= 2 else
                                  "bikjang: the kings face each other and a pass left them so")
        if self.fog is not None and (taken := self._royal_taken(state)) >= 0:
            return Outcome.win(1 - taken, "captured the king")
        if not moves:
            checked = self.in_check(state)
            score = rules.checkmated if checked else rules.stalemated
            reason = "checkmate" if checked else ("stalemate" if rules.royal_check else "no legal move")
            return Outcome(tuple(score if p == state.to_move else 1 - score for p in range(2)), reason)
        if rules.bare_king_loses:
            bare = [p for p in range(2) if all(c in self.royal for c in cells if c and owner_of[c] == p)]
            if len(bare) == 2:
                return Outcome.draw("both kings bare")
            if bare == [1 - state.to_move]:
                return Outcome.win(state.to_move, "bare king")
            # the side to move is bare: it still draws if it can bare the other king at once
            if bare == [state.to_move] and not self._can_bare(state):
                return Outcome.win(1 - state.to_move, "bare king")
        if rules.minor_kinds and not any(any(h) for h in state.hands) and self._insufficient(cells):
            return Outcome.draw("insufficient material")
        if rules.move_limit and state.counters[0] >= rules.move_limit:
            return self.undecided(state, f"{rules.move_limit // 2}-move rule")
        if rules.repetitions and state.repetitions() + 1 >= rules.repetitions:
            checker = self._perpetual_checker(state) if rules.perpetual_check_loses else None
            if checker is not None:
                return Outcome.win(1 - checker, "perpetual check")
            return self.undecided(state, "repetition")
        if rules.max_moves and state.counters[1] > rules.max_moves:
            return self.undecided(state, f"{rules.max_moves} moves played")
        if self.honour is not None and state.counters[2] and state.counters[0] > state.counters[2]:
            lone_king = any(sum(1 for c in cells if c and owner_of[c] == p) == 1 for p in range(2))
            honour = "pieces'" if lone_king else "board's"
            return Outcome.draw(f"counting: {state.counters[2] // 2} moves of {honour} honour")
        return None

    def _royal_taken(self, state: State) -> int:
        """The player whose royal piece has been captured (counted in the other's hand), or -1."""
        for player in range(2):
            hand = state.hands[1 - player] if state.hands else ()
            if hand and any(hand[self.pieces.kind_of[c]] for c in self.royal_of[player]):
                return player
        return -1

    def observe(self, state: State, player: int) -> State:
        """Under fog of war, ``player``'s view (:meth:`PieceFog.observe`); else everything."""
        return state if self.fog_view is None else self.fog_view.observe(state, player)

    def determinize(self, observation: State, player: int, rng: random.Random) -> State:
        """Under fog of war, a whole state behind ``observation`` (:meth:`PieceFog.determinize`)."""
        return observation if self.fog_view is None else self.fog_view.determinize(observation, player, rng)

    def _perpetual_checker(self, state: State) -> int | None:
        """The player who gave check with every move since ``state``'s position first
        occurred (read from the check marks of the history), or None."""
        cycle = state.history[state.history.index(state.key):]
        checks: list[list[bool]] = [[], []]
        mover = state.to_move
        for i, key in enumerate(cycle):
            if key != CHECK_MARK:
                checks[mover].append(i + 1 < len(cycle) and cycle[i + 1] == CHECK_MARK)
                mover = 1 - mover
        for player in range(2):
            if checks[player] and all(checks[player]):
                return player
        return None

    def _ended_by_passing(self, state: State) -> bool:
        """Whether the last moves end the game (``state`` follows a pass): two passes in a
        row, or a pass that left the royal pieces facing under ``facing_royals_end``.  The
        game then has no legal move, as in Fairy-Stockfish."""
        if state.flags[2] >= 2:
            return True
        if not self.piece_rules.facing_royals_end:
            return False
        king = self.royal_square(state.cells, state.to_move)
        return king >= 0 and self.royals_face(state.cells, king)

    def can_win(self, state: State, player: int) -> bool:
        """In a game with the insufficient-material rule (``minor_kinds``), a player left with
        only royal pieces and nothing in hand can never mate; otherwise True."""
        if not self.piece_rules.minor_kinds or (state.hands and any(state.hands[player])):
            return True
        owner_of = self.pieces.owner_of
        return any(c and c not in self.royal and owner_of[c] == player for c in state.cells)

    def undecided(self, state: State, reason: str) -> Outcome:
        """The end of a game that no one won on the board: a draw, or under ``counting`` a
        win for the side with more points (the second player's komi included)."""
        if not self.piece_rules.counting:
            return Outcome.draw(reason)
        first, second = self.count_points(state.cells)
        counted = f"{reason}; counted {first:g} to {second:g}"
        if self.piece_rules.komi:
            counted += f" (komi {self.piece_rules.komi:g})"
        if first == second:
            return Outcome.draw(counted)
        return Outcome.win(0 if first > second else 1, counted)

    def count_points(self, cells: Sequence[int]) -> tuple[float, float]:
        """Each player's points for counting: its pieces' points, plus the komi for the
        second player."""
        totals = [0.0, self.piece_rules.komi]
        owner_of, points = self.pieces.owner_of, self.points
        for c in cells:
            if c:
                totals[owner_of[c]] += points[c]
        return totals[0], totals[1]

    def _can_bare(self, state: State) -> bool:
        enemy = 1 - state.to_move
        for move in self.moves_by_rules(state):
            after = self.play(state, move).cells
            if all(c in self.royal for c in after if c and self.pieces.owner_of[c] == enemy):
                return True
        return False

    def _insufficient(self, cells: Sequence[int]) -> bool:
        rules = self.piece_rules
        minors = []
        for pos, c in enumerate(cells):
            if c and c not in self.royal:
                name = self.pieces.kind(c).name
                if name not in rules.minor_kinds:
                    return False
                minors.append((pos, name))
        if len(minors) <= 1:
            return True
        coords = self.topology.coords
        colours = {int(coords[p][0] + coords[p][1]) % 2 for p, _ in minors}
        return all(n in rules.colour_bound_kinds for _, n in minors) and len(colours) == 1

    # -- positions -----------------------------------------------------------------------------

    def parse_position(self, text: str) -> State:
        """Read a FEN-like position (SFEN under ``sfen``); refuses (``PositionError``) text
        that is not one and positions no game reaches (see :meth:`check_reachable`)."""
        if self.piece_rules.sfen:
            return self._parse_sfen(text)
        fields = text.split()
        hands: tuple[tuple[int, ...], ...] = ()
        if (self.piece_rules.drops or self.fog is not None) and fields:
            board, bracket, pocket = fields[0].partition("[")
            if bracket and not pocket.endswith("]"):
                raise PositionError(f"{self.id}: the hands in {shortened(fields[0])} must end with ']'")
            fields[0] = board
            hands = self._parse_hand(pocket[:-1] if bracket else "", counted=False)
        wanted = 6 if self.piece_rules.rights_fields else 4
        passing = self.piece_rules.may_pass
        if len(fields) not in (wanted - 2, wanted) and not (passing and len(fields) == wanted + 1):
            raise PositionError(f"{self.id}: expected {wanted} fields (board, side"
                                f"{', castling, en passant' if self.piece_rules.rights_fields else ''}"
                                f", half-moves, move number{' [, passes in a row]' if passing else ''}), "
                                f"got {len(fields)} in {shortened(text)}")
        if len(fields) == wanted - 2:
            fields += ["0", "1"]  # the clocks may be left out, as in EPD
        passes = read_int(fields.pop(), f"{self.id}: passes in a row", high=2,
                          error=PositionError) if len(fields) == wanted + 1 else 0
        cells = parse_ranks(self.topology, fields[0], self.letter_codes)
        if fields[1] not in self.side_letters:
            raise PositionError(f"{self.id}: side to move must be 'w' or 'b', got {shortened(fields[1])}")
        to_move = self.side_letters.index(fields[1])
        flags: tuple[int, ...] = ()
        limit = 0
        if self.piece_rules.rights_fields:
            rights = 0
            if fields[2] != "-":
                for ch in fields[2]:
                    if ch not in CASTLING_LETTERS or not any(c.right == 1 << CASTLING_LETTERS.index(ch)
                                                             for c in self.piece_rules.castlings):
                        raise PositionError(
                            f"{self.id}: bad castling field {shortened(fields[2])} (letter {ch!r})")
                    rights |= 1 << CASTLING_LETTERS.index(ch)
            ep = 0
            if self.honour is not None and fields[3].isdigit():
                limit = read_int(fields[3], f"{self.id}: counting limit (half moves)", low=1,
                                 high=2 * self.honour.most, error=PositionError)
            elif fields[3] != "-":
                if fields[3] not in self.topology.index:
                    raise PositionError(f"{self.id}: bad en-passant square {shortened(fields[3])}")
                ep = self.topology.pos(fields[3]) + 1
            flags = (rights, ep)
        half = read_int(fields[-2], f"{self.id}: half-move clock", error=PositionError)
        full = read_int(fields[-1], f"{self.id}: move number", low=1, error=PositionError)
        counters: tuple[int, ...] = (half, full)
        if self.honour is not None:
            if limit and any(c in self.honour.pawn_codes for c in cells):
                raise PositionError(f"{self.id}: a counting limit ({limit}) with pawns on the board, where no "
                                    "count runs")
            counters += (limit,)
        self.check_reachable(cells, to_move, flags + (passes,) if passing else flags, hands)
        if flags and flags[1] and not self._ep_possible(cells, flags[1] - 1, 1 - to_move):
            flags = (flags[0], 0)  # no pawn can take en passant: the same position as without
        if not passing:
            return self.make_state(cells, to_move, flags, counters, hands)
        if passes and flags[1]:
            raise PositionError(f"{self.id}: an en-passant square after a pass (passes in a row: {passes})")
        state = self.make_state(cells, to_move, flags + (passes,), counters, hands)
        if passes and self.in_check(state):
            raise PositionError(f"{self.id}: {self.player_names[to_move]} is in check after a pass, but the "
                                f"board before the pass had it in check with the other side to move")
        return state

    def _parse_sfen(self, text: str) -> State:
        """Board, side (``b``: the first player), hand (``-`` or e.g. ``2Pb``), move number."""
        fields = text.split()
        if len(fields) not in (3, 4):
            raise PositionError(f"{self.id}: expected an SFEN position of 4 fields (board, side b or w, hand, "
                                f"move number), got {len(fields)} in {shortened(text)}")
        cells = parse_ranks(self.topology, fields[0], self.letter_codes)
        if fields[1] not in self.side_letters:
            raise PositionError(f"{self.id}: side to move must be 'b' (sente) or 'w' (gote), got "
                                f"{shortened(fields[1])}")
        to_move = self.side_letters.index(fields[1])
        hands = self._parse_hand("" if fields[2] == "-" else fields[2], counted=True)
        number = read_int(fields[3], f"{self.id}: move number", low=1, error=PositionError) if len(fields) == 4 else 1
        self.check_reachable(cells, to_move, (), hands)
        return self.make_state(cells, to_move, (), (0, number), hands)

    def _parse_hand(self, text: str, counted: bool) -> tuple[tuple[int, ...], ...]:
        """The hands written ``text``: letters (upper case for the first player), each
        repeated (``QPp``) or, ``counted``, after its count (``2Pb``)."""
        hands = [[0] * len(self.pieces.kinds) for _ in range(2)]
        for count, letter in re.findall(r"(\d*)(.)", text):
            code = self.letter_codes.get(letter)
            if code is None or self.pieces.kind_of[code] not in self.hand_kinds:
                held = " ".join(sorted({self.pieces.letter_of[1 + k * 2 + p] for k in self.hand_kinds for p in (0, 1)}))
                raise PositionError(f"{self.id}: {letter!r} in the hands {shortened(text)} is not a piece a hand may "
                                    f"hold ({held})")
            if count and not counted:
                raise PositionError(f"{self.id}: the hands {shortened(text)}: write each piece once per piece held "
                                    f"(QQ, not 2Q)")
            n = read_int(count, f"{self.id}: count in the hands", low=1, high=999, error=PositionError) if count else 1
            hands[self.pieces.owner_of[code]][self.pieces.kind_of[code]] += n
        return tuple(tuple(h) for h in hands)

    def _format_hand(self, hands: Sequence[Sequence[int]], counted: bool) -> str:
        """The hands as :meth:`_parse_hand` reads them, most valuable kinds first."""
        return "".join(self._held(hands[player], player, counted) for player in range(2))

    def _held(self, hand: Sequence[int], player: int, counted: bool) -> str:
        """One player's hand: its letters, each after its count or repeated."""
        order = sorted(self.hand_kinds, key=lambda k: (-self.pieces.kinds[k].value, k))
        out = []
        for k in order:
            n, letter = hand[k], self.pieces.letter_of[1 + k * 2 + player]
            if n:
                out.append((str(n) if n > 1 else "") + letter if counted else letter * n)
        return "".join(out)

    # -- positions no game reaches ---------------------------------------------------------------

    def check_reachable(self, cells: Sequence[int], to_move: int, flags: Sequence[int] = (),
                        hands: Sequence[Sequence[int]] = ()) -> None:
        """Raise ``PositionError`` for a board no game of these rules reaches: a piece on a
        square its kind never gets to (pawns behind their start rows or in their promotion
        zone), more pieces of a kind than the setup and promotions give, royal pieces other
        than one per side, the side not to move in check (unless it has just passed with the
        royal pieces facing, under ``facing_royals_end``), more than two checkers, castling
        rights without king and rook at home, an en-passant square that no double step just
        passed, the goal reached or the pieces lost by the wrong side."""
        owner_of, names = self.pieces.owner_of, self.topology.names
        for pos, code in enumerate(cells):
            if code and pos not in self.reachable[code]:
                promo = self.tables.promotion[code]
                why = ("it is promoted on reaching that square" if promo is not None and pos in promo[0]
                       else "no move from the start position takes it there")
                raise PositionError(f"{self.id}: a {self._piece_name(code)} on {names[pos]} is impossible: {why}")
        rules = self.piece_rules
        if rules.royal_check:
            for player in range(2):
                kings = sum(1 for c in cells if c in self.royal and owner_of[c] == player)
                held = sum(hands[player][self.pieces.kind_of[c]] for c in self.royal_of[player]) if hands else 0
                if kings + held != 1:
                    raise PositionError(
                        f"{self.id}: {self.player_names[player]} must have exactly one king, has {kings + held}")
        if rules.royal_check and all(self.royal_square(cells, p) >= 0 for p in range(2)):  # (not in hand)
            # (A pass leaving royal pieces facing may be made in check; it ends the game.)
            passed_facing = (rules.facing_royals_end and len(flags) > 2 and flags[2] > 0
                             and self.royals_face(cells, self.royal_square(cells, to_move)))
            if self.tables.attacked(cells, self.royal_square(cells, 1 - to_move), to_move) and not passed_facing:
                raise PositionError(f"{self.id}: the side not to move is in check")
            if rules.royals_may_not_face and self.royals_face(cells, self.royal_square(cells, to_move)):
                raise PositionError(f"{self.id}: the kings face each other on an open file, which no "
                                    "legal move leaves")
            king = self.royal_square(cells, to_move)
            checkers = {m[-1][1] for m in self.tables.pseudo_moves(cells, 1 - to_move, -1, True)
                        if m[-1][2] == king}
            if len(checkers) > 2 and self.tables.simple[1 - to_move]:  # a hop or lame leap may make three
                raise PositionError(f"{self.id}: {self.player_names[to_move]} is checked by {len(checkers)} "
                                    "pieces at once; one move gives at most two checks")
        if self.piece_rules.drops and self.piece_rules.captures_to_hand:
            self._check_counts_with_hands(cells, hands)
        elif self.fog is not None and hands:  # each side's pieces captured are in the other's hand
            self._check_counts(cells, (hands[1], hands[0]))
        else:
            self._check_counts(cells, hands)
        if self.fog_view is not None:
            self.fog_view.check_observation(cells, to_move, flags, hands)
        if flags:
            self._check_rights(cells, flags[0])
            if flags[1]:
                self._check_en_passant(cells, flags[1] - 1, 1 - to_move)
        self._check_game_end(cells, to_move)

    def _piece_name(self, code: int) -> str:
        return f"{self.player_names[self.pieces.owner_of[code]]} {self.pieces.kind(code).name}"

    def _reachable(self) -> tuple[frozenset[int], ...]:
        """Per piece code, the squares it may ever stand on: those of the setups, then any
        its moves (captures and double steps included) lead to, a move into its promotion
        zone leading to the promoted codes instead."""
        tables = self.tables
        todo: list[tuple[int, int]] = []
        for text in self.setups.values():
            board = parse_ranks(self.topology, text.split()[0].partition("[")[0], self.pieces.code_of_letter)
            todo.extend((code, pos) for pos, code in enumerate(board) if code)
        castles: dict[int, list[int]] = {}  # from-square -> to-squares of castling moves
        for _c, kf, kt, rf, rt, _empty, _path in self.castlings:
            castles.setdefault(kf, []).append(kt)
            castles.setdefault(rf, []).append(rt)
        todo.extend((code, pos) for code in range(1, self.pieces.count) for pos in self.drop_squares[code])
        seen = set(todo)
        while todo:
            code, pos = todo.pop()
            promo = tables.promote_anywhere[code] if pos in tables.promote_from[code] else tables.promote_at[code]
            targets = [t for ray, _mode in tables.rays[code][pos] for t in ray]
            targets += [t for _passed, t, _mode in tables.lame[code][pos]]
            targets += [t for ray, _mode in tables.hops[code][pos] for t in ray[1:]]
            targets += [t for _passed, t in tables.double_steps[code][pos]]
            targets += tables.en_passant[code][pos]
            targets += castles.get(pos, ())
            reached = [(new, t) for t in targets for new in (promo[t] if promo is not None and t in promo else (code,))]
            in_place = tables.in_place[code]
            if in_place is not None and (pos in in_place[0] or in_place[3]):
                reached += [(new, pos) for new in in_place[1]]  # then it moves as the new kind
            for new, t in reached:
                if (new, t) not in seen:
                    seen.add((new, t))
                    todo.append((new, t))
        squares: list[set[int]] = [set() for _ in range(self.pieces.count)]
        for code, pos in seen:
            squares[code].add(pos)
        return tuple(frozenset(s) for s in squares)

    def _start_counts(self) -> tuple[int, ...]:
        """Per piece code, the most pieces of it in any setup (on the board and in hand)."""
        counts = [0] * self.pieces.count
        owner_of, kind_of = self.pieces.owner_of, self.pieces.kind_of
        for name, text in self.setups.items():
            board = parse_ranks(self.topology, text.split()[0].partition("[")[0], self.pieces.code_of_letter)
            hands = self.setup_hands[name]
            for code in range(1, self.pieces.count):
                held = hands[owner_of[code]][kind_of[code]] if hands else 0
                counts[code] = max(counts[code], board.count(code) + held)
        return tuple(counts)

    def _check_counts(self, cells: Sequence[int], hands: Sequence[Sequence[int]] = ()) -> None:
        """Pieces are only ever taken off or promoted: more of a kind (on the board and in
        hand) than the setup has must be paid for by missing pieces that promote."""
        tables, start = self.tables, self.start_counts
        for player in range(2):
            codes = [c for c in range(1, self.pieces.count) if self.pieces.owner_of[c] == player
                     and c not in self.fog_codes]
            targets = {p for c in codes if (promo := tables.promotion[c]) is not None for p in promo[1] if p != c}
            extra, missing = 0, 0
            for code in codes:
                count = cells.count(code) + (hands[player][self.pieces.kind_of[code]] if hands else 0)
                if count > start[code] and code not in targets:
                    raise PositionError(f"{self.id}: {count} of {self._piece_name(code)}, the start position "
                                        f"has {start[code]} and no promotion makes one")
                extra += max(0, count - start[code])
                if tables.promotion[code] is not None:
                    missing += max(0, start[code] - count)
            if extra > missing:
                raise PositionError(
                    f"{self.id}: {self.player_names[player]} has {extra} more piece(s) of some kinds than the "
                    f"start position, but only {missing} of its promoting pieces (pawns) are missing")

    def _check_counts_with_hands(self, cells: Sequence[int], hands: Sequence[Sequence[int]]) -> None:
        """In a drop game pieces change sides: per kind a hand may hold, the pieces on the
        board (promoted ones counted as what they return to) and in both hands are at most
        as many as the setup has on both sides."""
        kinds, start = self.pieces.kinds, self.start_counts
        setup = [0] * len(kinds)
        found = [0] * len(kinds)
        for code in range(1, self.pieces.count):
            k = self.hand_index[code]
            if k >= 0:
                setup[k] += start[code]
                found[k] += cells.count(code)
        for hand in hands:
            for k, n in enumerate(hand):
                found[k] += n
        for k in sorted(self.hand_kinds):
            if found[k] > setup[k]:
                raise PositionError(f"{self.id}: {found[k]} pieces that count as {kinds[k].name} on the board and "
                                    f"in the hands; the start position has {setup[k]}")

    def _check_rights(self, cells: Sequence[int], rights: int) -> None:
        """Each castling right held needs its king and rook on their start squares."""
        owner_of, names = self.pieces.owner_of, self.topology.names
        for c, kf, _kt, rf, _rt, _empty, _path in self.castlings:
            if rights & c.right and not (cells[kf] in self.royal and owner_of[cells[kf]] == c.player
                                         and cells[rf] and owner_of[cells[rf]] == c.player
                                         and cells[rf] not in self.royal):
                letter = CASTLING_LETTERS[c.right.bit_length() - 1]
                raise PositionError(f"{self.id}: castling right {letter} needs the {self.player_names[c.player]} "
                                    f"king on {names[kf]} and its rook on {names[rf]}")

    def _check_en_passant(self, cells: Sequence[int], passed: int, mover: int) -> None:
        """The en-passant square must be one that a pawn of ``mover`` (who just moved) passed
        with a double step: empty, with the pawn beyond it and its start square empty."""
        names, owner_of = self.topology.names, self.pieces.owner_of
        steps = [(code, frm, t) for code in range(1, self.pieces.count) if owner_of[code] == mover
                 for frm, pairs in enumerate(self.tables.double_steps[code]) for p, t in pairs if p == passed]
        if not steps:
            raise PositionError(f"{self.id}: en-passant square {names[passed]} is not one a "
                                f"{self.player_names[mover]} double step passes over")
        if not any(cells[t] == code and not cells[passed] and (not cells[frm] or cells[frm] in self.fog_codes)
                   for code, frm, t in steps):
            raise PositionError(
                f"{self.id}: en-passant square {names[passed]}: no {self.player_names[mover]} pawn has just "
                f"passed it with a double step (it must stand on "
                f"{' or '.join(sorted({names[t] for _, _, t in steps}))}, with the squares behind it empty)")

    def _check_game_end(self, cells: Sequence[int], to_move: int) -> None:
        """The game ends at once when the goal is reached or a side loses its last piece:
        both cannot happen to both sides, and the side that did it is not to move."""
        owner_of = self.pieces.owner_of
        names = self.player_names
        if self.goal is not None:
            arrived = [p for p in range(2) if any(cells[q] and owner_of[cells[q]] == p for q in self.goal[p])]
            if len(arrived) == 2:
                raise PositionError(f"{self.id}: both sides have reached their goal; the game ends at the first")
            if arrived == [to_move]:
                raise PositionError(f"{self.id}: {names[to_move]} has reached its goal (the game is over), "
                                    f"so {names[to_move]} cannot be to move")
        if self.piece_rules.lose_when_no_pieces:
            present = {owner_of[c] for c in cells if c}
            if not present:
                raise PositionError(f"{self.id}: no pieces on the board")
            if len(present) == 1 and to_move in present:
                loser = 1 - to_move
                raise PositionError(f"{self.id}: {names[loser]} has no pieces left, so its last one was "
                                    f"just taken and {names[loser]} must be to move")

    def row_label(self, y: int) -> str:
        return str(y + self.piece_rules.first_rank)

    def render(self, state: State) -> str:
        """The board, then each side's hand in a drop game."""
        text = super().render(state)
        if not state.hands:
            return text
        held = [self._held(state.hands[player], player, True) for player in range(2)]
        label = "captured by" if self.fog is not None else "hand of"
        return text + "\n" + "\n".join(f"{label} {self.player_names[p]}: {held[p] or '-'}" for p in range(2))

    def full_move_number(self, state: State) -> int | None:
        """The number of the move being played as the position text counts it (a FEN's
        full-move number); None for SFEN, which numbers every player's move on its own."""
        return None if self.piece_rules.sfen else state.counters[1]

    def format_position(self, state: State) -> str:
        board = format_ranks(self.topology, state.cells, self.pieces.letter_of)
        if self.piece_rules.sfen:
            hand = self._format_hand(state.hands, True) if state.hands else ""
            return (f"{board} {self.side_letters[state.to_move]} {hand or '-'} "
                    f"{state.counters[1]}")
        if self.piece_rules.drops or self.fog is not None:
            board += f"[{self._format_hand(state.hands, False) if state.hands else ''}]"
        parts = [board, self.side_letters[state.to_move]]
        if self.piece_rules.rights_fields:
            rights, ep = state.flags[0], state.flags[1]
            parts.append("".join(ch for i, ch in enumerate(CASTLING_LETTERS) if rights & 1 << i) or "-")
            parts.append(self.topology.names[ep - 1] if ep else
                         str(state.counters[2]) if self.honour is not None and state.counters[2] else "-")
        parts += [str(state.counters[0]), str(state.counters[1])]
        if self.piece_rules.may_pass and state.flags[2]:
            parts.append(str(state.flags[2]))
        return " ".join(parts)

    # -- moves as text -----------------------------------------------------------------------

    def uci(self, state: State, move: Move) -> str:
        """Coordinate notation: from-square, to-square, promotion letter (``e7e8q``; ranks
        counted from ``first_rank``); a drop is ``N@f3``; a pass is the royal piece's square
        twice (``e2e2``), or ``0000`` without one."""
        names = self.coordinate_names
        if not move:  # a pass: the royal piece's square twice, as Fairy-Stockfish writes it
            king = self.royal_square(state.cells, state.to_move)
            return names[king] * 2 if king >= 0 else "0000"
        first = next((a for a in move if a[0] == MOVE), None)
        if first is None:  # a drop: N@f3
            return f"{self.pieces.kind(move[0][3]).letter.upper()}@{names[move[0][2]]}"
        text = names[first[1]] + names[first[2]]
        if first[3] != state.cells[first[1]]:
            text += self.pieces.kind(first[3]).letter.strip("+~").lower()
        return text

    def format_move(self, state: State, move: Move) -> str:
        return self.uci(state, move)

    def check_move_syntax(self, text: str) -> None:
        if not 2 <= len(text) <= 12 or not text.isascii() or not text.replace("-", "").replace("@", "").replace(
                "+", "").replace("#", "").replace("=", "").isalnum():
            raise InvalidMoveError(f"{self.id}: {shortened(text)} is not a move (expected e.g. e2e4)")
