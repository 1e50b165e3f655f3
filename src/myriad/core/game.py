"""The Game: a declaration compiled into tables, and the verbs every algorithm uses.

``legal_moves``, ``play`` and ``outcome`` are the whole loop; ``observe`` is the one door
through which a player sees a state; ``parse_*``/``format_*`` come in pairs.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from myriad.core.errors import IllegalMoveError, InvalidMoveError, PositionError
from myriad.core.move import CAPTURE, MOVE, Move, NamedMove
from myriad.core.numbers import shortened
from myriad.core.pieces import PieceSet
from myriad.core.state import State
from myriad.core.topology import Topology
from myriad.core.zobrist import Zobrist


#: The longest move text read (a long multi-capture in international draughts, with the
#: squares of every landing, is under 100 characters).
MAX_MOVE_TEXT = 400


@dataclass(frozen=True)
class Outcome:
    """The end of a game: a score per player (1 win, 0 loss, 0.5 draw) and the reason."""

    scores: tuple[float, ...]
    reason: str

    @property
    def winner(self) -> int | None:
        """The single player with the best score, or None for a draw."""
        best = max(self.scores)
        leaders = [p for p, s in enumerate(self.scores) if s == best]
        return leaders[0] if len(leaders) == 1 else None

    @staticmethod
    def win(player: int, reason: str, players: int = 2) -> Outcome:
        """``player`` wins, everybody else loses."""
        return Outcome(tuple(1.0 if p == player else 0.0 for p in range(players)), reason)

    @staticmethod
    def draw(reason: str, players: int = 2) -> Outcome:
        """Nobody wins."""
        return Outcome((0.5,) * players, reason)


#: What a repeated position is worth by default (see :meth:`Game.repetition_outcome`).
REPEATED = Outcome.draw("repetition")

#: Written into a state's history after the key of a position whose move gave check, for
#: perpetual-check rules (no key equals it: keys are not negative).
CHECK_MARK = -1


class Next(NamedTuple):
    """What a move changes besides the cells: returned by :meth:`Game.after_move`.
    ``gave_check``: note in the history that the move gave check (:data:`CHECK_MARK`)."""

    to_move: int
    flags: tuple[int, ...]
    counters: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    irreversible: bool
    gave_check: bool = False


class Game:
    """Base of every game.  Subclasses set the declaration and implement the rules.

    A subclass provides ``legal_moves``, ``outcome``, ``parse_position``,
    ``format_position`` and ``format_move``; it may refine ``after_move`` (flags,
    counters, whose turn) and ``render``.
    """

    id: str = ""
    name: str = ""
    family: str = ""
    player_names: tuple[str, ...] = ("first", "second")
    rules: str = ""
    #: whether bots search on past their depth limit with the noisy moves (quiescence):
    #: captures and promotions by default; in-a-row games search threats; Othello and
    #: Kalah, where every move swings the material, set it False.
    quiescence: bool = True
    #: how many noisy moves in a row quiescence plays at most.
    quiescence_depth: int = 8
    #: whether a capture, when one exists, must be played (draughts): quiescence then
    #: never stands pat while captures are pending.
    forced_captures: bool = False
    #: the most moves bots search at a node, the best by the move heuristic (None: all);
    #: the "best 10 moves" of gomoku programs.
    move_cap: int | None = None
    #: whether bots search the late quiet moves of a node one ply shallower first (late
    #: move reductions), where move ordering is good enough that a late move rarely proves best.
    late_move_reductions: bool = False
    #: whether bots look for wins by continuous threats (threat-space search over
    #: :meth:`threat_moves` and :meth:`threat_answers`) for both sides around their search.
    threat_space: bool = False
    #: whether chance decides some turns (a die, a draw): in a state whose ``to_move`` is
    #: :attr:`chance_player`, ``legal_moves`` lists the outcomes and
    #: :meth:`chance_outcomes` their probabilities; a referee draws one with its seeded
    #: generator, and no bot is ever asked to choose it.
    chance: bool = False
    #: whether players may not see the whole state (dark chess's fog): then bots are given
    #: :meth:`observe` only, and only the bots that declare ``hidden`` play the game;
    #: :meth:`determinize` samples a whole state consistent with an observation.
    hidden_information: bool = False

    def __init__(self, topology: Topology, pieces: PieceSet, setups: Mapping[str, str],
                 cell_values: int | None = None) -> None:
        self.topology = topology
        self.pieces = pieces
        self.setups = dict(setups)
        self.zobrist = Zobrist(topology.size, cell_values or pieces.count,
                               len(self.player_names) + (1 if self.chance else 0))

    # -- the loop ---------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Number of players (chance is not one of them)."""
        return len(self.player_names)

    @property
    def chance_player(self) -> int:
        """The ``to_move`` of a chance node: the index after the last player."""
        return len(self.player_names)

    def is_chance(self, state: State) -> bool:
        """Whether chance, not a player, decides what happens next in ``state``."""
        return self.chance and state.to_move == len(self.player_names)

    def chance_outcomes(self, state: State) -> list[tuple[Move, float]]:
        """At a chance node, each outcome with its probability (they sum to 1).

        Default: the legal moves, equally likely (a fair die)."""
        moves = self.legal_moves(state)
        return [(move, 1.0 / len(moves)) for move in moves]

    def mover_name(self, state: State) -> str:
        """The name of who moves in ``state``: a player's, or ``"chance"``."""
        return "chance" if self.is_chance(state) else self.player_names[state.to_move]

    def initial_state(self, setup: str | None = None) -> State:
        """The start position, or the named setup (see ``setups``)."""
        name = setup or next(iter(self.setups))
        if name not in self.setups:
            raise PositionError(f"{self.id}: no setup named {name!r} (known: {', '.join(self.setups)})")
        return self.parse_position(self.setups[name])

    def legal_moves(self, state: State) -> list[Move]:
        """Every legal move of the side to move; [] once the game is over (whatever ended
        it: a goal, repetition, a move limit): ``outcome`` is None exactly while there are
        legal moves (a stuck player who must pass has the pass)."""
        raise NotImplementedError

    def named_moves(self, state: State) -> list[NamedMove]:
        """``legal_moves(state)``, each move carrying its notation here: ``repr`` shows
        ``<Move e4>`` (the moves of ``legal_moves`` are plain, for speed: ``describe`` names one)."""
        return [NamedMove(move, self.format_move(state, move)) for move in self.legal_moves(state)]

    def outcome(self, state: State) -> Outcome | None:
        """None while the game goes on, else the result and its reason."""
        raise NotImplementedError

    def can_win(self, state: State, player: int) -> bool:
        """Whether ``player`` could still win from ``state`` by some series of legal moves
        (False: its opponent running out of time draws, as the chess rules say of a player
        who cannot mate).  By default True: a game says where it knows better."""
        return True

    def result(self, state: State, moves: list[Move] | None = None) -> Outcome | None:
        """``outcome(state)``, given ``moves`` = ``legal_moves(state)`` when already known
        (games override it to save regenerating the moves; search calls this one); without
        ``moves`` it is ``outcome(state)``."""
        return self.outcome(state)

    def play(self, state: State, move: Move) -> State:
        """The state after ``move``.  ``move`` must come from ``legal_moves`` or ``parse_move``
        (this is the fast path used by search; use ``play_text`` or ``parse_move`` for input)."""
        cells = list(state.cells)
        key = state.key
        table = self.zobrist.cell
        values = self.zobrist.values
        for kind, frm, to, piece, _part in move:
            if kind == MOVE:
                key ^= table[frm * values + cells[frm]]
                cells[frm] = 0
                key ^= table[to * values + cells[to]] ^ table[to * values + piece]
                cells[to] = piece
            elif kind == CAPTURE:
                key ^= table[frm * values + cells[frm]]
                cells[frm] = 0
            else:
                key ^= table[to * values + cells[to]] ^ table[to * values + piece]
                cells[to] = piece
        nxt = self.after_move(state, move, cells)
        side = self.zobrist.side
        key ^= side[state.to_move] ^ side[nxt.to_move]
        if nxt.flags != state.flags:
            key ^= self.zobrist.flags_key(state.flags) ^ self.zobrist.flags_key(nxt.flags)
        if nxt.hands != state.hands:
            key ^= self.zobrist.hands_key(state.hands) ^ self.zobrist.hands_key(nxt.hands)
        history = () if nxt.irreversible else state.history + (
            (state.key, CHECK_MARK) if nxt.gave_check else (state.key,))
        return State(tuple(cells), nxt.to_move, nxt.flags, nxt.counters, nxt.hands, key, history, self)

    def after_move(self, state: State, move: Move, cells: list[int]) -> Next:
        """Turn order, flags and counters after ``move`` (``cells`` already updated).

        Default: the next player moves, nothing else changes, no history is kept.
        """
        return Next((state.to_move + 1) % self.players, state.flags, state.counters, state.hands, True)

    def observe(self, state: State, player: int) -> State:
        """What ``player`` may know of ``state`` (everything, in a game of perfect information).

        In a game with hidden information the answer is a state whose hidden cells hold the
        game's "unknown" marker, written and read by ``format_position``/``parse_position``."""
        return state

    def public_view(self, state: State) -> State:
        """What anyone may know of ``state``, holding no seat (a spectator): the whole state
        in a game of perfect information or once the game is over.  While a game with hidden
        information goes on, the facts every player's observation states alike: a cell
        shows its content only where every player sees it, else the "unknown" marker of the
        first player who does not (so nothing any one player cannot see is shown); a flag,
        counter or hand's count is kept where all observations agree, else 0.  The
        answer is for display, not a position any player could observe."""
        if not self.hidden_information or self.outcome(state) is not None:
            return state
        seen = [self.observe(state, p) for p in range(self.players)]
        cells = [next((o.cells[i] for o in seen if o.cells[i] != c), c) for i, c in enumerate(state.cells)]

        def agreed(values: Sequence[Sequence[int]]) -> list[int]:
            return [v[0] if all(x == v[0] for x in v) else 0 for v in zip(*values)]

        hands = [agreed(hand) for hand in zip(*(o.hands for o in seen))]
        return self.make_state(cells, state.to_move, agreed([o.flags for o in seen]),
                               agreed([o.counters for o in seen]), hands)

    def determinize(self, observation: State, player: int, rng: random.Random) -> State:
        """A whole state, drawn with ``rng``, that ``player`` would observe as ``observation``
        (the "shadow board" of determinizing bots).  Perfect information: the observation."""
        return observation

    def full_view(self) -> Game:
        """These rules with everything in the open (``hidden_information`` False): how a
        determinizing bot's inner searcher plays a sampled whole state.  The game itself
        when nothing is hidden."""
        if not self.hidden_information:
            return self
        twin = self.__dict__.get("_full_view")
        if twin is None:
            twin = copy.copy(self)
            twin.hidden_information = False
            self.__dict__["_full_view"] = twin
        return twin

    def move_seen(self, state: State, move: Move, player: int) -> str:
        """``move`` (legal in ``state``) as ``player`` saw it while the game went on: in full
        in a game of perfect information and for one's own moves, else ``"?"`` (the record
        shows every move in full once the game is over)."""
        if not self.hidden_information or state.to_move == player:
            return self.format_move(state, move)
        return "?"

    def move_signal(self, state: State, move: Move, player: int) -> int:
        """What ``player`` learns by playing ``move`` in the whole ``state``: the key of its
        observation after the move (games may answer faster with any value that tells the
        same observations apart)."""
        return self.observe(self.play(state, move), player).key

    # -- knowledge for bots --------------------------------------------------------------------

    def evaluate(self, state: State) -> float:
        """A static score of ``state`` for the side to move (positive: good for it).

        Default: material, from the piece values; games add their own terms.
        """
        value_of, owner_of, me = self.pieces.value_of, self.pieces.owner_of, state.to_move
        score = 0
        for c in state.cells:
            if c:
                score += value_of[c] if owner_of[c] == me else -value_of[c]
        return score

    def evaluate_for(self, state: State, player: int) -> float:
        """A static score of ``state`` for ``player`` (positive: good for it), whoever moves.

        Default: in a two-player game, :meth:`evaluate` (from the side to move), negated for
        the other player; at a chance node or with more players, the material of ``player``
        less the average of the others'.
        """
        if self.players == 2 and not self.is_chance(state):
            score = self.evaluate(state)
            return score if player == state.to_move else -score
        material = [0.0] * self.players
        value_of, owner_of = self.pieces.value_of, self.pieces.owner_of
        for c in state.cells:
            if c and 0 <= owner_of[c] < self.players:
                material[owner_of[c]] += value_of[c]
        others = sum(material) - material[player]
        return material[player] - (others / (self.players - 1) if self.players > 1 else 0.0)

    def repetition_outcome(self, state: State) -> Outcome | None:
        """The result a search gives ``state`` when it meets the position again on the line
        it searches (``state.key`` in ``state.history``): what the rules make of the
        repetition if it goes on until they end the game.  Default: a draw; a game whose
        repetition rule decides otherwise (a loss for one side, the board counted) says so,
        and one whose rules make nothing of a repeat (None) is searched on."""
        return REPEATED

    def move_heuristic(self, state: State, move: Move) -> float:
        """How promising ``move`` looks before searching it (higher first).

        Default: most valuable victim first, then promotions.
        """
        value_of = self.pieces.value_of
        score = 0.0
        for kind, frm, _to, piece, _ in move:
            if kind == CAPTURE:
                score += 10 * value_of[piece] + 1
            elif kind == MOVE and piece != state.cells[frm]:
                score += value_of[piece] - value_of[state.cells[frm]]
        return score

    def move_heuristics(self, state: State, moves: Sequence[Move]) -> list[float]:
        """:meth:`move_heuristic` of each of ``moves`` (games may work them out together)."""
        heuristic = self.move_heuristic
        return [heuristic(state, move) for move in moves]

    def is_noisy(self, state: State, move: Move) -> bool:
        """Whether ``move`` changes material (searched on in quiescence)."""
        cells = state.cells
        for kind, frm, _to, piece, _ in move:
            if kind == CAPTURE or (kind == MOVE and piece != cells[frm]):
                return True
        return False

    def noisy_moves(self, state: State) -> list[Move]:
        """The legal material-changing moves (quiescence search); games may generate them
        directly instead of filtering every legal move."""
        return [m for m in self.legal_moves(state) if self.is_noisy(state, m)]

    def may_stand_pat(self, state: State) -> bool:
        """Whether quiescence may stop at the static evaluation of ``state`` instead of
        playing one of its noisy moves (not where a capture is forced)."""
        return not self.forced_captures

    def in_check(self, state: State) -> bool:
        """Whether the side to move is in check: a search extends such a node by one ply
        and searches every answer in quiescence.  False here (a game without checks)."""
        return False

    def candidate_moves(self, state: State, moves: list[Move]) -> list[Move]:
        """The moves worth searching (all of them, unless the game prunes, as gomoku does)."""
        return moves

    def threat_moves(self, state: State, wide: bool) -> list[Move]:
        """The mover's moves in a threat-space search: a move that wins at once, else the
        forced answer to the opponent's threat, else the moves that threaten to win at the
        next move (and, when ``wide``, those that threaten to make such a threat).  Empty
        here (a game that provides them sets ``threat_space``)."""
        return []

    def threat_answers(self, state: State) -> list[Move] | None:
        """The mover's moves that may stop the opponent's threat (a superset of the
        defences, counter-threats included; a move that wins at once alone); [] when
        nothing can; None when no threat is pending."""
        return None

    # -- states ------------------------------------------------------------------------------

    def make_state(self, cells: Sequence[int], to_move: int, flags: Sequence[int] = (),
                   counters: Sequence[int] = (), hands: Sequence[Sequence[int]] = (),
                   history: Sequence[int] = ()) -> State:
        """A state with its Zobrist key computed from scratch."""
        if len(cells) != self.topology.size:
            raise PositionError(f"{self.id}: {len(cells)} cells given, the board has {self.topology.size}")
        hands_t = tuple(tuple(h) for h in hands)
        key = self.zobrist.key(cells, to_move, flags, hands_t)
        return State(tuple(cells), to_move, tuple(flags), tuple(counters), hands_t, key, tuple(history), self)

    def recomputed_key(self, state: State) -> int:
        """The key of ``state`` computed from scratch (equals ``state.key``)."""
        return self.zobrist.key(state.cells, state.to_move, state.flags, state.hands)

    # -- notation ----------------------------------------------------------------------------

    def parse_position(self, text: str) -> State:
        """Read a position written by ``format_position``."""
        raise NotImplementedError

    def format_position(self, state: State) -> str:
        """The position as one line of text."""
        raise NotImplementedError

    def format_move(self, state: State, move: Move) -> str:
        """``move`` (legal in ``state``) in the notation the game's players use."""
        raise NotImplementedError

    def move_aliases(self, state: State, move: Move) -> Sequence[str]:
        """Other accepted spellings of ``move`` besides ``format_move`` (e.g. SAN and UCI)."""
        return ()

    def check_move_syntax(self, text: str) -> None:
        """Raise ``InvalidMoveError`` when ``text`` cannot be a move of this game at all."""

    def parse_move(self, state: State, text: str) -> Move:
        """The legal move written ``text``; raises ``InvalidMoveError`` for text that is not
        a move of this game and ``IllegalMoveError`` for a move not legal here."""
        text = text.strip()
        if not text:
            raise InvalidMoveError(f"{self.id}: empty move")
        if len(text) > MAX_MOVE_TEXT:
            raise InvalidMoveError(f"{self.id}: {shortened(text)} is too long for a move")
        self.check_move_syntax(text)
        moves = self.legal_moves(state)
        for move in moves:
            if self.format_move(state, move) == text or text in self.move_aliases(state, move):
                return move
        raise self.illegal_move(state, text, moves)

    def illegal_move(self, state: State, text: str, moves: Sequence[Move] | None = None,
                     reason: str | None = None) -> IllegalMoveError:
        """The error for the well-formed move ``text`` that is not legal in ``state``: it
        names the rule the move breaks where it can (:func:`myriad.core.illegal.illegal_reason`,
        or ``reason``) and lists the legal moves (``moves``, when already known)."""
        from myriad.core.illegal import illegal_reason
        moves = self.legal_moves(state) if moves is None else moves
        why = reason or illegal_reason(self, state, text, moves)
        shown = ", ".join(self.format_move(state, m) for m in moves[:12])
        more = "" if len(moves) <= 12 else f" ... ({len(moves)} in all)"
        return IllegalMoveError(f"{self.id}: {shortened(text)} is not legal here: {why}; "
                                f"legal moves: {shown or 'none'}{more}", why)

    def near_moves(self, state: State) -> list[tuple[Move, str]]:
        """Moves that one rule forbids in ``state``, each with that rule in words (a move
        that would leave the king in check, a quiet move while a capture is compulsory, a
        ko): how an illegal move is explained.  None here; games add theirs."""
        return []

    def describe(self, state: State, move: Move) -> str:
        """``move`` in the game's notation, as played from ``state`` (``Nf3``); raises
        ``IllegalMoveError`` when it is not a legal move there (a move's text needs the
        position it is played from)."""
        if move not in self.legal_moves(state) and not (
                self.is_chance(state) and any(move == m for m, _ in self.chance_outcomes(state))):
            raise IllegalMoveError(f"{self.id}: {move!r} is not a legal move in {self.format_position(state)!r}",
                                   "it is not one of the legal moves here")
        return self.format_move(state, move)

    def show(self, state: State) -> str:
        """What a ``State``'s repr would say if it knew its game: the game, the position
        text and who moves, e.g. ``<chess 'rnbqkbnr/... w KQkq - 0 1': white to move>``
        (``render`` draws the board)."""
        return f"<{self.id} {self.format_position(state)!r}: {self.mover_name(state)} to move>"

    def play_text(self, state: State, text: str) -> State:
        """Parse and play one move written in the game's notation."""
        return self.play(state, self.parse_move(state, text))

    def move_square_names(self) -> Sequence[str]:
        """The name of each position as move texts write it (the topology's names, unless
        the game's move notation numbers its squares otherwise)."""
        return self.topology.names

    def square_name(self, pos: int) -> str:
        """The name of a position."""
        return self.topology.names[pos]

    def render(self, state: State) -> str:
        """The board as text, top row first, with coordinates when the board is a grid."""
        topo = self.topology
        rows: dict[float, list[tuple[float, int]]] = {}
        for pos, (x, y) in enumerate(topo.coords):
            rows.setdefault(y, []).append((x, pos))
        width = max(len(self.cell_text(v)) for v in set(state.cells)) if state.cells else 1
        lines = []
        for y in sorted(rows, reverse=True):
            cells = {int(x): pos for x, pos in rows[y]}
            line = " ".join(self.cell_text(state.cells[cells[c]]).rjust(width) if c in cells
                            else " " * width for c in range(max(cells) + 1))
            lines.append(f"{self.row_label(int(y)):>2} {line}")
        if topo.width:
            lines.append("   " + " ".join(self.column_label(c).rjust(width) for c in range(topo.width)))
        return "\n".join(lines)

    def row_label(self, y: int) -> str:
        """The label of row ``y`` (0 at the bottom) beside a rendered grid: its number."""
        return str(y + 1)

    def column_label(self, x: int) -> str:
        """The label of column ``x`` (0 at the left) under a rendered grid: its letter."""
        from myriad.core.topology import file_letter
        return file_letter(x)

    def cell_text(self, value: int) -> str:
        """How a cell is drawn by ``render``: its piece letter, or '.' when empty."""
        return self.pieces.letter_of[value] if value else "."

    def __repr__(self) -> str:
        return f"<Game {self.id}>"


def perft(game: Game, state: State, depth: int) -> int:
    """Number of legal move sequences of exactly ``depth`` plies (leaves counted in bulk)."""
    moves = game.legal_moves(state)
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    play = game.play
    return sum(perft(game, play(state, m), depth - 1) for m in moves)
