"""The alpha-beta family: negamax, NegaScout/PVS and MTD(f), generic over games.

Iterative deepening under a clock; a Zobrist transposition table of bounded size; move
ordering by the table's move, the game's move heuristic, killer moves and the history
heuristic; quiescence on noisy moves (captures, threats); a node whose side to move is in check
(the game's ``in_check``) searched one ply deeper, and every answer to a check searched in
quiescence; late quiet moves searched a ply shallower first where the game asks for it
(``late_move_reductions``); wins scored by distance so the bot takes the fastest win and the slowest loss.

Invariants: scores are for the side to move; ``search`` returns a value ``v`` with
``v <= alpha`` (an upper bound), ``v >= beta`` (a lower bound) or the exact value.  Turns
are the game's business: a child is scored from the side that moves there, so its score
(and the window) is negated only when the side to move changes (Kalah's extra turn keeps
it); wins and losses are still counted in plies from the root.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

from myriad.ai.bot import (FLAG, LIMIT_OPTIONS, Allowed, Bot, Decision, Limits, SearchTimeout, collection_reserve,
                            gc_paused)
from myriad.ai.budget import HASH, entry_limit, hash_bytes, split
from myriad.ai.kernel_search import ENGINES, KernelAlphaBeta, kernel_refusal
from myriad.ai.threats import ThreatSearch
from myriad.core.caches import ByteBudget
from myriad.core.game import Game, Outcome
from myriad.core.move import Move
from myriad.core.state import State
from myriad.kernel.layout import MoveBufferFull

WIN = 1_000_000
WON = WIN - 10_000          # scores beyond this are forced wins (or losses below -WON)
INF = WIN + 1
ALGORITHMS = ("negamax", "pvs", "mtdf")
#: With threat-space search: the share of the clock spent looking for the mover's win by
#: threats before searching, the share kept after it for checking that the chosen move
#: leaves the opponent none, the moves of the mover's own wins by threats (fours, then
#: with threes), the positions per threat search without a clock, and how many other
#: moves are tried when the chosen one loses to threats.
OWN_THREATS_SHARE = 0.15
SAFETY_SHARE = 0.25
VCF_DEPTH, VCT_DEPTH = 12, 6
THREAT_NODES = 4000
SAFETY_TRIES = 10
#: When the check after the search ends early, the search goes on if more than
#: ``EXTENSION_SHARE`` of the clock is left, keeping back ``EXTENSION_RESERVE`` of it (or
#: three times what the check took) to check a new choice.
EXTENSION_SHARE, EXTENSION_RESERVE = 0.05, 0.05
#: A node in check is searched one ply deeper while it lies fewer than this many times the
#: iteration's depth plies below the root (so that a line of checks cannot go on for ever).
CHECK_PLIES = 2
#: Late move reductions (PVS only): at a node this many plies deep or more, not in check,
#: each quiet move from the ``LMR_AFTER``-th on that gives no check is searched first one
#: ply shallower with the null window, and at its full depth only when it beats alpha.
LMR_DEPTH, LMR_AFTER = 3, 3
#: How the ``hash=`` budget is shared: the transposition table, the positions whose
#: candidate moves are kept (see ``AlphaBeta.expansions``) and the threat-space search's
#: table (when the game has one).  Killers (two moves a ply), history (one count per quiet
#: move the game has) and the principal variation are small and not counted.
SHARES = {"tt": 0.5, "expansions": 0.25, "threats": 0.25}
#: Bytes of an entry assumed until some are measured: a table entry (key, tuple of bounds,
#: its move), measured 250-380 bytes; kept candidate moves, 2-6 KB (chess, gomoku).
TT_GUESS, EXPANSION_GUESS = 400, 4096


def _to_table(score: int, ply: int) -> int:
    """A score as kept in the table: win distances counted from the position, not the root."""
    return score + ply if WON <= score < INF else score - ply if -INF < score <= -WON else score


def _from_table(score: int, ply: int) -> int:
    """A kept score seen from ``ply`` half-moves below the root."""
    return score - ply if WON <= score < INF else score + ply if -INF < score <= -WON else score


def _find(moves: list[Move], move: Move) -> int:
    """The index of ``move`` in ``moves``, or -1: the same object is looked for first
    (games that keep their moves in tables hand out the same ones again), as comparing
    moves action by action costs far more."""
    for i, m in enumerate(moves):
        if m is move:
            return i
    for i, m in enumerate(moves):
        if m == move:
            return i
    return -1


def terminal_score(outcome: Outcome, player: int, ply: int) -> int:
    """The score of a finished game for ``player``, ``ply`` half-moves from the root."""
    mine = outcome.scores[player]
    best_other = max(s for p, s in enumerate(outcome.scores) if p != player)
    if mine > best_other:
        return WIN - ply
    if mine < best_other:
        return -(WIN - ply)
    return 0


@dataclass
class _Progress:
    """Where iterative deepening stands: the best move, its score, the depth finished,
    the principal variation, and whether the search is complete (no deeper search can
    change the choice)."""

    best: Move
    score: int = 0
    depth: int = 0
    pv: list[Move] = field(default_factory=list)
    done: bool = False


class AlphaBeta(Bot):
    """Options: ``algo`` (negamax | pvs | mtdf), ``time``, ``depth``, ``nodes``,
    ``moves`` (search only the best N moves at each node below the root; default the
    game's ``move_cap``, 0 for all), ``root`` (the same at the root; default 0, every
    candidate: a move the cap leaves out at the root is one no depth of search can find),
    ``hash`` (megabytes for all the tables together, default 64: see
    :mod:`myriad.ai.budget`), ``tt`` (at most this many table entries, within ``hash``),
    ``quiescence`` (0 to switch off; default: the game's ``quiescence``), ``qdepth``
    (the most noisy moves in a row; default the game's ``quiescence_depth``), ``threats``
    (0 to switch off the threat-space searches of games with ``threat_space``), ``checks``
    (0 to switch off the check extension: a node whose side to move is in check, the
    game's ``in_check``, searched one ply deeper, and in quiescence every answer to a
    check searched, no standing pat), ``qchecks`` (1: quiescence's first ply searches the
    quiet moves that give check too, so that a mate threatened at the horizon is seen;
    default 0), ``lmr`` (late move reductions with ``algo=pvs``: see :data:`LMR_DEPTH`;
    default the game's ``late_move_reductions``), ``engine``
    (auto: the kernel engine where it reproduces this search, see
    :mod:`myriad.ai.kernel_search`; ``kernel`` demands it, ``reference`` forbids it)."""

    name = "alphabeta"
    OPTIONS: ClassVar[dict[str, Allowed]] = {
        "algo": frozenset({"negamax", "pvs", "mtdf"}), **LIMIT_OPTIONS, "moves": (int, 0, 1000),
        "root": (int, 0, 1000), "quiescence": FLAG, "qdepth": (int, 0, 64), "threats": FLAG, "checks": FLAG,
        "qchecks": FLAG, "lmr": FLAG,
        "tt": (int, 1, 1 << 30), "hash": HASH, "engine": ENGINES}
    # (Two players, no chance: the base's ``max_players`` and ``chance``, inherited, as
    # this class is compiled and its own would not be readable from the class.)

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        self.algo = str(options.get("algo", "pvs"))
        if self.algo not in ALGORITHMS:
            raise ValueError(f"alphabeta: algo must be one of {', '.join(ALGORITHMS)}, not {self.algo!r}")
        self.max_moves = int(options.get("moves", game.move_cap or 0)) or None
        self.root_moves = int(options.get("root", 0)) or None
        self.hash_bytes = hash_bytes(options, self.name)
        self.tt_size = entry_limit(options, "tt", self.name)
        self.quiescence = bool(options.get("quiescence", game.quiescence))
        self.max_qdepth = int(options.get("qdepth", game.quiescence_depth))
        #: Whether nodes in check are extended (and searched in full in quiescence); the
        #: ply from which they no longer are, set by each iteration.
        self.checks = bool(options.get("checks", 1))
        self.quiet_checks = bool(options.get("qchecks", 0))
        self.check_plies = 0
        self.reductions = bool(options.get("lmr", game.late_move_reductions)) and self.algo == "pvs"
        with_threats = bool(options.get("threats", 1)) and game.threat_space
        shares = split(self.hash_bytes, SHARES if with_threats else
                       {table: share for table, share in SHARES.items() if table != "threats"})
        self.threats = ThreatSearch(game, shares["threats"]) if with_threats else None
        #: Caps in entries of the table and kept expansions, from their shares of ``hash``.
        self.tt_budget = ByteBudget(shares["tt"], TT_GUESS, limit=self.tt_size)
        self.expansion_budget = ByteBudget(shares["expansions"], EXPANSION_GUESS)
        #: position key -> (depth, lower bound, upper bound, best move): both bounds, so
        #: that MTD(f)'s searches on either side of the value reuse each other's work.
        self.tt: dict[int, tuple[int, int, int, Move | None]] = {}
        self.killers: dict[int, list[Move]] = {}
        self.history: dict[Move, int] = {}
        #: position key -> its counters, the moves searched there (the game's candidates)
        #: and their move heuristics: iterative deepening comes back to the same positions,
        #: and one known with the same counters needs no move generation or game-end test.
        self.expansions: dict[int, tuple[tuple[int, ...], list[Move], list[float]]] = {}
        self.nodes = 0
        self.deadline: float | None = None
        self.node_limit: int | None = None
        self._partial: tuple[int, Move] | None = None
        self.iterations: list[tuple[int, float, int]] = []
        #: The search on the kernel engine, when it runs this one (see ``engine``).
        self.kernel: KernelAlphaBeta | None = None
        self.engine = str(options.get("engine", "auto"))
        if self.engine != "reference":
            refusal = kernel_refusal(game, self.algo, with_threats,
                                     self.quiescence and self.max_qdepth > 0)
            if refusal is None:
                self.kernel = KernelAlphaBeta(game, self.name, self.algo,
                                              self.max_qdepth if self.quiescence else 0, self.max_moves or 0,
                                              self.root_moves or 0, shares["tt"] + shares["expansions"],
                                              self.tt_size, self.checks, self.quiet_checks, self.reductions)
            elif self.engine == "kernel":
                raise ValueError(f"alphabeta: engine=kernel, but {refusal}")

    def reset(self) -> None:
        if self.kernel is not None:
            self.kernel.reset()
        self.tt.clear()
        self.history.clear()
        self.killers.clear()
        self.expansions.clear()
        if self.threats is not None:
            self.threats.table.clear()

    # -- driver --------------------------------------------------------------------------------

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        if self.kernel is not None:
            return self._on_kernel(state, limits, True)
        with gc_paused():
            try:
                return self._choose(state, limits)
            finally:
                # Met again only within one search: freed now, so that the collection of
                # what the search made (see gc_paused) does not walk them.
                self.expansions.clear()

    def analyse(self, state: State, limits: Limits = Limits()) -> Decision:
        """The search's value of ``state`` for the side to move (``info["score"]``), its
        move and principal variation, searched even when only one move is legal (where
        ``choose`` answers at once)."""
        if self.kernel is not None:
            return self._on_kernel(state, limits, False)
        with gc_paused():
            try:
                return self._choose(state, limits, forced_at_once=False)
            finally:
                self.expansions.clear()

    def _on_kernel(self, state: State, limits: Limits, forced_at_once: bool) -> Decision:
        """The search on the kernel engine; its nodes and iterations kept as the reference's.
        A line that reaches a position with more moves than the kernel's buffers hold (it
        raises :class:`MoveBufferFull`, never passing silently: fox and geese's capture
        routes can multiply) is searched again, within the same limits, by the reference."""
        assert self.kernel is not None
        try:
            decision = self.kernel.choose(state, self.limits(limits), forced_at_once)
        except MoveBufferFull:
            with gc_paused():
                try:
                    return self._choose(state, limits, forced_at_once)
                finally:
                    self.expansions.clear()
        self.nodes = self.kernel.searcher.nodes
        self.iterations = self.kernel.searcher.iterations
        return decision

    def _choose(self, state: State, limits: Limits, forced_at_once: bool = True) -> Decision:
        limits = self.limits(limits)
        remaining = limits.remaining()
        if remaining is not None:
            # End early by what collecting the search's young objects took last time.
            reserve = collection_reserve(remaining)
            limits = Limits(limits.deadline - reserve if limits.deadline is not None else None,
                            limits.depth, limits.nodes)
        game = self.game
        moves = game.legal_moves(state)
        if not moves:
            raise ValueError(f"{game.id}: no legal move to choose from")
        start = time.monotonic()
        self.nodes = 0
        self.deadline = limits.deadline
        self.node_limit = limits.nodes
        self.killers.clear()
        self.iterations = []  # (depth, seconds, nodes) per finished iteration
        # Age the history between moves (moves aged to nothing are forgotten).
        self.history = {move: count // 4 for move, count in self.history.items() if count >= 4}
        self.tt_budget.refit(self.tt)  # the cap from the entries' measured size
        if self.threats is not None:
            self.threats.budget.refit(self.threats.table)
        self.expansions.clear()
        if len(moves) == 1 and forced_at_once:
            return Decision(moves[0], True, self._info(0, 0, [moves[0]], start))
        root_moves = game.candidate_moves(state, moves)
        if self.threats is None:
            found = self._deepen(state, root_moves, _Progress(root_moves[0], pv=[root_moves[0]]), limits, start)
            return Decision(found.best, found.done, self._info(found.depth, found.score, found.pv, start))
        return self._choose_with_threats(state, root_moves, limits, start)

    def _choose_with_threats(self, state: State, root_moves: list[Move], limits: Limits, start: float) -> Decision:
        """Threat-space search around the alpha-beta search: the mover's own win by
        threats is played at once; the chosen move is checked against the opponent's wins
        by threats (and replaced if it loses); time the check leaves goes to searching on."""
        assert self.threats is not None
        total = limits.remaining()

        def share(part: float) -> float | None:
            return None if total is None else time.monotonic() + part * total
        counted = self.threats.nodes
        try:
            win = self._threat_win(state, VCT_DEPTH, share(OWN_THREATS_SHARE))
        except SearchTimeout:
            win = None
        if win is not None:
            info = self._info(0, WIN, [win], start)
            info.update(nodes=self.threats.nodes - counted, threats="win")
            return Decision(win, True, info)
        end = limits.deadline
        if total is not None:
            limits = Limits(start + (1 - SAFETY_SHARE) * total, limits.depth, limits.nodes)
        found = self._deepen(state, root_moves, _Progress(root_moves[0], pv=[root_moves[0]]), limits, start)
        if found.score <= -WON:
            return Decision(found.best, found.done, self._info(found.depth, found.score, found.pv, start))
        checking = time.monotonic()
        safe = self._safe_move(state, found.best, root_moves, end)
        if safe == found.best and total is not None and end is not None and not found.done:
            # The check was quick: search on with the time it left (keeping some to check
            # a new choice), and take the new choice if it holds too.
            now = time.monotonic()
            reserve = max(3 * (now - checking), EXTENSION_RESERVE * total)
            if end - now - reserve > EXTENSION_SHARE * total:
                more = self._deepen(state, root_moves, found, Limits(end - reserve, limits.depth, limits.nodes), start)
                if more.best == found.best or self._safe_move(state, more.best, root_moves, end) == more.best:
                    found, safe = more, more.best
        info = self._info(found.depth, found.score, found.pv, start)
        if safe != found.best:
            info.update(pv=[safe], threats="defended")
            return Decision(safe, False, info)
        return Decision(found.best, found.done, info)

    def _deepen(self, state: State, root_moves: list[Move], found: _Progress, limits: Limits,
                start: float) -> _Progress:
        """Iterative deepening from one ply past ``found`` until the limits stop it."""
        self.deadline = limits.deadline
        best, score, depth, pv, guess = found.best, found.score, found.depth, found.pv, found.score
        done = True
        max_depth = limits.depth or 64
        for d in range(depth + 1, max_depth + 1):
            try:
                if self.algo == "mtdf":
                    value, mtdf_move = self._mtdf(state, d, guess)
                    guess = value
                    move = mtdf_move or best
                else:
                    value, move = self._root(state, d, root_moves, best)
            except SearchTimeout:
                done = False
                if self.algo != "mtdf" and self._partial is not None:
                    best, score = self._partial[1], self._partial[0]  # beat the previous best at depth d
                    pv = [best]
                break
            best, score, depth = move, value, d
            pv = self._pv(state, best, d)
            self.iterations.append((d, time.monotonic() - start, self.nodes))
            if abs(score) >= WON:
                break
            remaining = limits.remaining()
            # Negamax and PVS keep a move that beats the previous best in an unfinished
            # iteration, so they use all their time; MTD(f) loses an unfinished iteration,
            # so it starts one only when it may finish.
            if remaining is not None and (remaining <= 0 or self.algo == "mtdf"
                                          and time.monotonic() - start > remaining):
                done = d == max_depth  # the clock, not the depth limit, ends the search
                break
        return _Progress(best, score, depth, pv, done or abs(score) >= WON)

    def _info(self, depth: int, score: int, pv: list[Move], start: float) -> dict[str, Any]:
        return {"bot": self.name, "algo": self.algo, "depth": depth, "nodes": self.nodes,
                "score": score, "pv": pv, "seconds": time.monotonic() - start}

    def _pv(self, state: State, first: Move, depth: int) -> list[Move]:
        pv, seen = [first], {state.key}
        state = self.game.play(state, first)
        while len(pv) < depth and state.key not in seen:
            seen.add(state.key)
            entry = self.tt.get(state.key)
            if not entry or entry[3] is None or entry[3] not in self.game.legal_moves(state):
                break
            pv.append(entry[3])
            state = self.game.play(state, entry[3])
        return pv

    def _root(self, state: State, depth: int, moves: list[Move], previous: Move) -> tuple[int, Move]:
        """One iteration at the root: every move searched, the previous best first."""
        self.check_plies = CHECK_PLIES * depth
        ordered = self._order(state, moves, previous, 0)
        if self.root_moves:
            ordered = ordered[:self.root_moves]
        alpha, best = -INF, ordered[0]
        mover = state.to_move
        self._partial = None
        for i, move in enumerate(ordered):
            child = self.game.play(state, move)
            if self.algo == "pvs" and i > 0:
                score = self._child(child, mover, depth - 1, alpha, alpha + 1, 1)
                if score > alpha:
                    score = self._child(child, mover, depth - 1, alpha, INF, 1)
            else:
                score = self._child(child, mover, depth - 1, alpha, INF, 1)
            if score > alpha:
                alpha, best = score, move
                if i > 0:
                    self._partial = (alpha, best)
        self._store(state.key, depth, alpha, alpha, best, 0)
        return alpha, best

    def _mtdf(self, state: State, depth: int, guess: int) -> tuple[int, Move | None]:
        """MTD(f): null-window searches converging on the value from ``guess``.  The move
        is the root's best from the last search that failed high (a fail-low search proves
        only that every move is below its window, not which is best)."""
        lower, upper, g = -INF, INF, guess
        move = None
        self.check_plies = CHECK_PLIES * depth
        while lower < upper:
            beta = g + 1 if g == lower else g
            g = self._search(state, depth, beta - 1, beta, 0)
            if g < beta:
                upper = g
            else:
                lower = g
                entry = self.tt.get(state.key)
                move = entry[3] if entry else move
        return g, move

    # -- threats -------------------------------------------------------------------------------

    def _threat_win(self, state: State, depth: int, deadline: float | None) -> Move | None:
        """The first move of a win by threats for the side to move: fours to ``VCF_DEPTH``
        moves, then fours and threes to ``depth``; raises SearchTimeout when the time (or,
        without a clock, ``THREAT_NODES`` positions) runs out first."""
        assert self.threats is not None
        nodes = None if deadline is not None else THREAT_NODES
        return (self.threats.winning_move(state, VCF_DEPTH, deadline=deadline, nodes=nodes)
                or self.threats.winning_move(state, depth, wide=True, deadline=deadline, nodes=nodes))

    def _safe_move(self, state: State, best: Move, moves: list[Move], deadline: float | None) -> Move:
        """``best``, unless the opponent then wins by threats (with threes to the deepest
        level searched in time); then the first of the other moves after which it does
        not at that level, if one is found in time: first those on the cells the
        opponent's win plays on, then the best of the rest by the game's heuristic."""
        game = self.game
        assert self.threats is not None

        def loses(move: Move, depth: int) -> bool:
            child = game.play(state, move)
            # (When the mover moves again, the opponent has no threat to carry out yet.)
            return child.to_move != state.to_move and self._threat_win(child, depth, deadline) is not None
        try:
            for depth in range(1, VCT_DEPTH + 1):
                if loses(best, depth):
                    break
            else:
                return best
        except SearchTimeout:
            return best
        attacks, answers = self.threats.proof(game.play(state, best))
        cells = {move.to for move in attacks + answers}
        ordered = self._order(state, moves, None, 0)
        tries = [m for m in ordered if m.to in cells] + [m for m in ordered[:SAFETY_TRIES] if m.to not in cells]
        try:
            for move in tries:
                if move != best and not loses(move, depth):
                    return move
        except SearchTimeout:
            pass
        return best

    # -- the search ----------------------------------------------------------------------------

    def _tick(self) -> None:
        self.nodes += 1
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise SearchTimeout
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise SearchTimeout

    def _search(self, state: State, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._tick()
        game = self.game
        if ply and state.history and state.key in state.history:
            # a repeated position: scored as the rules score repetition (a draw by default)
            repeat = game.repetition_outcome(state)
            if repeat is not None:
                return terminal_score(repeat, state.to_move, ply)
        asked = self.checks and ply < self.check_plies  # (whether in_check is known below)
        checked = asked and game.in_check(state)
        if checked:
            depth += 1  # a check: its answers searched one ply deeper
        alpha_start = alpha
        entry = self.tt.get(state.key)
        tt_move = None
        if entry is not None:
            e_depth, lower, upper, tt_move = entry
            if e_depth >= depth:
                lower, upper = _from_table(lower, ply), _from_table(upper, ply)
                if lower >= beta or lower == upper:
                    return lower
                if upper <= alpha:
                    return upper
        if depth <= 0:
            outcome = game.outcome(state)
            if outcome is not None:
                return terminal_score(outcome, state.to_move, ply)
            return self._quiesce(state, alpha, beta, ply, 0)
        expansion = self.expansions.get(state.key)
        if expansion is None or expansion[0] != state.counters:
            # (Met again with the same counters, a position is still not over: no need to ask.)
            moves = game.legal_moves(state)
            outcome = game.result(state, moves)
            if outcome is not None:
                return terminal_score(outcome, state.to_move, ply)
            self.expansion_budget.make_room(self.expansions)
            candidates = game.candidate_moves(state, moves)
            expansion = (state.counters, candidates, game.move_heuristics(state, candidates))
            self.expansions[state.key] = expansion
        ordered = self._order(state, expansion[1], tt_move, ply, expansion[2])
        cap = self.max_moves if ply else self.root_moves  # (MTD(f) searches the root here)
        if cap:
            ordered = ordered[:cap]
        best, best_move = -INF, ordered[0]
        pvs = self.algo == "pvs"
        reducing = (self.reductions and depth >= LMR_DEPTH and not checked
                    and (asked or not game.in_check(state)))
        mover = state.to_move
        for i, move in enumerate(ordered):
            child = game.play(state, move)
            if pvs and i > 0:
                if (reducing and i >= LMR_AFTER and not game.is_noisy(state, move)
                        and not game.in_check(child)):
                    score = self._child(child, mover, depth - 2, alpha, alpha + 1, ply + 1)
                    if score > alpha:  # a late move that may be best after all: at full depth
                        score = self._child(child, mover, depth - 1, alpha, alpha + 1, ply + 1)
                else:
                    score = self._child(child, mover, depth - 1, alpha, alpha + 1, ply + 1)
                if alpha < score < beta:
                    score = self._child(child, mover, depth - 1, score, beta, ply + 1)
            else:
                score = self._child(child, mover, depth - 1, alpha, beta, ply + 1)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if not game.is_noisy(state, move):
                            killers = self.killers.setdefault(ply, [])
                            if move not in killers:
                                killers.insert(0, move)
                                del killers[2:]
                            self.history[move] = self.history.get(move, 0) + depth * depth
                        break
        lower = best if best > alpha_start else -INF
        upper = best if best < beta else INF
        self._store(state.key, depth, lower, upper, best_move, ply)
        return best

    def _child(self, child: State, mover: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The value of ``child`` for ``mover`` (who made the move to it) within the window
        (``alpha``, ``beta``) of ``mover``'s scores: searched as it is when ``mover`` moves
        again, negated with the window swapped when the other side moves."""
        if child.to_move == mover:
            return self._search(child, depth, alpha, beta, ply)
        return -self._search(child, depth, -beta, -alpha, ply)

    def _store(self, key: int, depth: int, lower: int, upper: int, move: Move | None, ply: int) -> None:
        """Keep bounds on the value of a position searched ``depth`` plies deep; bounds
        from a search of the same depth are merged with the ones kept."""
        lower, upper = _to_table(lower, ply), _to_table(upper, ply)
        entry = self.tt.get(key)
        if entry is None:
            self.tt_budget.make_room(self.tt)
        elif entry[0] == depth and max(lower, entry[1]) <= min(upper, entry[2]):
            lower, upper = max(lower, entry[1]), min(upper, entry[2])
            move = move or entry[3]
        self.tt[key] = (depth, lower, upper, move)

    def _quiesce(self, state: State, alpha: int, beta: int, ply: int, qdepth: int) -> int:
        """Search the noisy moves only (captures, threats), standing pat on the static score
        where the game allows it; in check (with ``checks``), every legal move; at its first
        ply (with ``qchecks``), the quiet moves that give check too."""
        game = self.game
        if not self.quiescence or qdepth >= self.max_qdepth:
            return int(game.evaluate(state))
        if self.checks and game.in_check(state):
            # In check: every answer is searched (none standing pat), and a mate is found.
            noisy = game.legal_moves(state)
            outcome = game.result(state, noisy)
            if outcome is not None:
                return terminal_score(outcome, state.to_move, ply)
            best = -INF
        else:
            stand = int(game.evaluate(state))
            noisy = game.noisy_moves(state)
            if qdepth == 0 and self.quiet_checks:
                noisy = noisy + self._quiet_checks(state, noisy)
            if not noisy:
                return stand
            if game.may_stand_pat(state):
                if stand >= beta:
                    return stand
                alpha = max(alpha, stand)
                best = stand
            else:
                best = -INF
        if len(noisy) > 1:
            values = game.move_heuristics(state, noisy)
            noisy = [noisy[i] for i in sorted(range(len(noisy)), key=values.__getitem__, reverse=True)]
        mover = state.to_move
        for move in noisy:
            self._tick()
            child = game.play(state, move)
            if child.to_move == mover:  # the same side moves again: its own score, its own window
                score = self._quiesce(child, alpha, beta, ply + 1, qdepth + 1)
            else:
                score = -self._quiesce(child, -beta, -alpha, ply + 1, qdepth + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def _quiet_checks(self, state: State, noisy: list[Move]) -> list[Move]:
        """The legal moves of ``state`` beyond ``noisy`` that put the other side in check,
        in their order."""
        game = self.game
        taken = set(noisy)
        return [m for m in game.legal_moves(state) if m not in taken and game.in_check(game.play(state, m))]

    def _order(self, state: State, moves: list[Move], first: Move | None, ply: int,
               values: list[float] | None = None) -> list[Move]:
        """Moves sorted best-first: table move, game heuristic (``values``, when known),
        killers, history."""
        if values is None:
            values = self.game.move_heuristics(state, moves)
        history = self.history
        if history:
            keys = [value * 1e6 + history.get(move, 0) for value, move in zip(values, moves)]
        else:
            keys = [value * 1e6 for value in values]
        for killer in self.killers.get(ply, ()):
            i = _find(moves, killer)
            if i >= 0:
                keys[i] += 5e5
        if first is not None:
            i = _find(moves, first)
            if i >= 0:
                keys[i] = math.inf  # before any other move
        order = sorted(range(len(moves)), key=keys.__getitem__, reverse=True)
        return [moves[i] for i in order]
