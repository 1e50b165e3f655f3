"""Monte Carlo tree search (UCT), generic over games.

Each iteration walks the tree by UCB1, adds one node, plays a random (or heuristic)
playout and backs the result up.  A result is a vector, one share per player: a finished
game's scores (:func:`myriad.ai.utility.outcome_shares`), or, for a playout cut after
``cutoff`` plies, every player's evaluation (``evaluate_for``) squashed to a share
(:func:`myriad.ai.utility.shares_of`).  Each node is credited with the share of the player
who chose its move, its parent's mover, whoever moves next: extra turns, passes and any
number of players are played right.  At a chance node the walk draws an outcome by its
probability (a child is made for each outcome drawn), and playouts draw chance outcomes
the same way.  The tree is kept between moves: the next search starts from the node of
the position reached, when the tree holds it.

Options: ``playouts`` (per move), ``time``, ``c`` (exploration), ``cutoff`` (default 10),
``playout=random|heuristic``, ``seed``, ``scale`` (the evaluation difference worth a 73%
win chance; by default the running mean of the evaluations seen), ``hash`` (megabytes of
tree, default 64: once the tree holds as many nodes as fit, measured as in
:mod:`myriad.core.caches`, iterations stop adding nodes and play out from the leaf they
reach; the tree kept between moves counts), ``engine`` (``kernel`` or ``reference``), ``rave``
(the kernel only, see below).

On the kernel engine (:mod:`myriad.kernel.mcts`), used whenever the game has one
(:func:`myriad.kernel.registry.kernel_for`) that searches the game's candidate moves
(:func:`same_candidates`) unless ``engine=reference``, the whole search
runs in one compiled call: the same UCT, with the family's playout policy, and the
defaults the family gives for the game (``mcts_defaults(game)``: ``cutoff``, ``c`` and
``rave``, RAVE's equivalence parameter, 0: plain UCT; Go's come from its ``GoWeights``:
playouts to the end of the game, rave 1000, c 0.4); the tree is not kept between moves.
``engine=kernel`` demands the kernel (an error names a game without one).
"""

from __future__ import annotations

import math
import random
import sys
import time
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from myriad.ai.bot import (SEED, TIME, Allowed, Bot, BotSpecError, Decision, Limits, collection_reserve,
                           gc_paused)
from myriad.ai.budget import HASH, hash_bytes
from myriad.ai.utility import outcome_shares, shares_of
from myriad.core.caches import MIN_ENTRIES, deep_size
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State
from myriad.kernel.layout import MoveBufferFull
from myriad.kernel.registry import kernel_for

if TYPE_CHECKING:
    from myriad.kernel.engine import Kernel


class Node:
    """A tree node: the position reached by ``move``, played by ``mover`` (a player, or
    the game's chance player); ``wins`` sums ``mover``'s shares of the results.  At a
    chance node ``chances`` holds its outcomes and their probabilities, else None.  Nodes
    hold no parent link, so a discarded tree has no cycles and is freed at once by
    reference counting."""

    __slots__ = ("state", "move", "mover", "children", "untried", "visits", "wins", "outcome", "chances")

    def __init__(self, game: Game, state: State, move: Move | None, mover: int) -> None:
        self.state = state
        self.move = move
        self.mover = mover
        self.children: list[Node] = []
        moves = game.legal_moves(state)
        self.outcome = game.result(state, moves)
        self.chances = game.chance_outcomes(state) if game.is_chance(state) else None
        self.untried = ([] if self.outcome is not None or self.chances is not None
                        else game.candidate_moves(state, moves))
        self.visits = 0
        self.wins = 0.0

    def own_size(self, seen: set[int]) -> int:
        """Bytes of this node without its children (see :func:`deep_size`)."""
        return (sys.getsizeof(self) + sys.getsizeof(self.children)
                + deep_size((self.state, self.move, self.untried, self.outcome, self.chances), seen))


#: The most moves of the principal variation a kernel search reports.
PV_LENGTH = 32
#: Nodes measured to estimate the size of one.
SAMPLE = 64
#: Plies a playout plays before the evaluation scores it, by default.  Short playouts
#: with the evaluation beat long ones where random play says little (at 0.3 s a move,
#: 10 plies against 40: 8-0 in breakthrough, 4-4 in othello6, 3-5 in connect4; against
#: ``heuristic`` in kalah at 0.5 s a move, 40 plies scored 72.5% in 40 games, 10 plies 96%).
DEFAULT_CUTOFF = 10
#: How playouts choose their moves: uniformly, or the best by the game's move heuristics
#: with a uniform noise of one point (ties and moves the heuristics do not tell apart).
PLAYOUTS = ("random", "heuristic")
#: The engines a search may run on (see the module's docstring).
ENGINES = ("kernel", "reference")


def same_candidates(kernel: Kernel, game: Game) -> bool:
    """Whether the kernel's tree searches the game's candidate moves: its family says
    them (``candidates``), or the game prunes none."""
    return hasattr(kernel.family, "candidates") or type(game).candidate_moves is Game.candidate_moves


class MCTS(Bot):
    """UCT with playouts cut off by evaluation, and tree reuse between moves."""

    name = "mcts"
    OPTIONS: ClassVar[dict[str, Allowed]] = {
        "time": TIME, "playouts": (int, 1, 10**9), "c": (float, 0, 100), "cutoff": (int, 0, 10**6),
        "playout": frozenset(PLAYOUTS), "seed": SEED, "scale": (float, 0, 10**9), "hash": HASH,
        "engine": frozenset(ENGINES), "rave": (float, 0, 10**9)}
    max_players: int | None = None
    chance = True

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        self.playouts = int(options.get("playouts", 0)) or None
        self.c = float(options.get("c", 1.4))
        self.cutoff = int(options.get("cutoff", DEFAULT_CUTOFF))
        playout = options.get("playout", "random")
        if playout not in PLAYOUTS:
            raise ValueError(f"mcts: playout must be one of {', '.join(PLAYOUTS)}, not {playout!r}")
        self.heuristic_playouts = playout == "heuristic"
        self.rng = random.Random(options.get("seed"))
        self.deadline: float | None = None
        self.root: Node | None = None
        self.discarded: list[Node] = []  # trees dropped after a move, freed before the next search
        self.fixed_scale = float(options.get("scale", 0)) or None
        self.typical = 0.0  # running mean of |evaluation| at cut-offs, the default scale
        self.hash_bytes = hash_bytes(options, self.name)
        #: Nodes in the tree, and the most it may hold (from ``hash`` and the measured size
        #: of a node, see :meth:`_fit`).
        self.nodes = 0
        self.max_nodes = MIN_ENTRIES
        engine = options.get("engine")
        self.kernel: Kernel | None = None if engine == "reference" else kernel_for(game)
        if engine == "kernel" and self.kernel is None:
            raise BotSpecError(f"mcts: engine=kernel, but {game.id} has no kernel (it runs on the reference "
                               f"engine: leave engine out, or say engine=reference)")
        if engine is None and self.kernel is not None and not same_candidates(self.kernel, game):
            self.kernel = None  # the kernel would search other moves than the game's candidates
        self.tree: Any = None  # the kernel's search tree (myriad.kernel.mcts.Tree), made at the first search
        if self.kernel is not None:  # load (or compile) the search now, not on the first move's clock
            self._choose_kernel(self.kernel, game.initial_state(), Limits(), 1)

    def reset(self) -> None:
        self.root = None
        self.discarded.clear()
        self.nodes = 0

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        with gc_paused():
            return self._choose(state, limits)

    def _choose(self, state: State, limits: Limits) -> Decision:
        limits = self.limits(limits)
        if limits.deadline is None and self.playouts is None and limits.nodes is None:
            limits = limits.tighter(Limits.of(1.0))
        remaining = limits.remaining()
        if remaining is not None and limits.deadline is not None:
            limits = Limits(limits.deadline - collection_reserve(remaining), limits.depth, limits.nodes)
        budget = self.playouts or limits.nodes
        if self.kernel is not None:
            try:
                return self._choose_kernel(self.kernel, state, limits, budget)
            except MoveBufferFull:
                pass  # this move on the reference
        root = self._reuse(state)
        self.root = root
        self.discarded.clear()  # freeing a big tree takes time: do it now, inside this move's budget
        self._fit(root)
        if root.outcome is not None or (not root.untried and not root.children):
            raise ValueError(f"{self.game.id}: no legal move to choose from")
        start, done = time.monotonic(), 0
        self.deadline = limits.deadline
        while True:  # one playout at least, so that the root has a child to choose
            self._iterate(root)
            done += 1
            if budget is not None and done >= budget:
                break
            if limits.deadline is not None and time.monotonic() >= limits.deadline:
                break
        best = max(root.children, key=lambda ch: ch.visits)
        self.discarded.append(root)  # keep the old tree alive until the next search starts
        self.root = best
        return Decision(best.move, True, {  # type: ignore[arg-type]
            "bot": self.name, "nodes": done, "depth": self._depth(best) + 1,
            "score": round(best.wins / max(1, best.visits), 3), "pv": self._pv(best),
            "seconds": time.monotonic() - start})

    def _choose_kernel(self, kernel: Kernel, state: State, limits: Limits, budget: int | None) -> Decision:
        """The search in one compiled call (:func:`myriad.kernel.mcts.search`)."""
        from myriad.kernel import mcts as kmcts
        from myriad.kernel import rules
        from myriad.kernel.cache import compiling
        from myriad.kernel.layout import P_MAX_MOVES, P_MOVE_WIDTH
        start = time.monotonic()
        seconds = 0.0
        if limits.deadline is not None:
            seconds = max(1e-3, limits.deadline - start)
        family = kernel.family
        defaults = family.mcts_defaults(self.game) if hasattr(family, "mcts_defaults") else {}
        cutoff = self.cutoff if "cutoff" in self.options else int(defaults.get("cutoff", self.cutoff))
        c = self.c if "c" in self.options else float(defaults.get("c", self.c))
        rave = float(self.options.get("rave", defaults.get("rave", 0.0)))
        width = int(kernel.tables.params[P_MOVE_WIDTH])
        if self.tree is None:
            capacity = max(MIN_ENTRIES, int(kernel.tables.params[P_MAX_MOVES]) + 1,
                           self.hash_bytes // (8 * width + kmcts.NODE_BYTES))
            self.tree = kmcts.new_tree(capacity, width)
        pv = np.empty((PV_LENGTH, width), np.int64)
        stats = np.zeros(kmcts.STATS, np.float64)
        stats[kmcts.ST_TYPICAL] = self.typical
        s = kernel.pack(state)
        hist = kernel.history(state)
        with compiling(kmcts.search, "MCTS"):
            length = int(kmcts.search(kernel.tables, s, hist, len(hist), budget or 0, seconds, c, cutoff,
                                      self.fixed_scale or 0.0, self.rng.randrange(2**31), self.tree, pv, stats, rave))
        if length == 0:
            raise ValueError(f"{self.game.id}: no legal move to choose from")
        self.typical = float(stats[kmcts.ST_TYPICAL])
        line: list[Move] = []
        after = np.empty_like(s)
        for i in range(length):
            line.append(kernel.to_move(s, pv[i]))
            rules.play(kernel.tables, s, pv[i], after)
            s, after = after, s
        visits = float(stats[kmcts.ST_VISITS])
        return Decision(line[0], True, {
            "bot": self.name, "engine": "kernel", "nodes": int(stats[kmcts.ST_ITERATIONS]), "depth": length,
            "score": round(float(stats[kmcts.ST_WINS]) / max(1.0, visits), 3), "pv": line,
            "seconds": time.monotonic() - start})

    def _reuse(self, state: State) -> Node:
        """The node of ``state`` in the kept tree, else a new root.  It is looked for as far
        down as a round of turns reaches: one move of each player, and a chance event
        before each in games with chance."""
        if self.root is not None:
            frontier = [self.root]
            for _ in range(self.game.players * (2 if self.game.chance else 1) + 1):
                for node in frontier:
                    if node.state == state:
                        return node
                frontier = [ch for node in frontier for ch in node.children]
        return Node(self.game, state, None, (state.to_move - 1) % self.game.players)

    def _iterate(self, root: Node) -> None:
        """One walk down the tree (UCB1 at player nodes, a draw at chance nodes) to a new
        node, a playout from it, and the result backed up along the path."""
        node = root
        path = [root]
        log, sqrt, c = math.log, math.sqrt, self.c
        while node.outcome is None:
            child: Node | None
            if node.chances is not None:
                move = self._draw(node.chances)
                child = next((ch for ch in node.children if ch.move is move), None)
                if child is None:
                    if self.nodes >= self.max_nodes:
                        break
                    child = self._add(node, move)
                    path.append(child)
                    node = child
                    break
            elif node.untried:
                if self.nodes >= self.max_nodes:
                    break
                child = self._add(node, node.untried.pop(self.rng.randrange(len(node.untried))))
                path.append(child)
                node = child
                break
            elif node.children:
                parent_log = log(node.visits)
                child = max(node.children, key=lambda ch: ch.wins / ch.visits + c * sqrt(parent_log / ch.visits))
            else:
                break
            path.append(child)
            node = child
        results = self._playout(node)
        players = len(results)
        for visited in path:
            visited.visits += 1
            if visited.mover < players:  # (chance's choices are drawn, not scored)
                visited.wins += results[visited.mover]

    def _add(self, node: Node, move: Move) -> Node:
        """A new child of ``node`` by ``move``, credited to ``node``'s mover."""
        child = Node(self.game, self.game.play(node.state, move), move, node.state.to_move)
        node.children.append(child)
        self.nodes += 1
        return child

    def _draw(self, chances: list[tuple[Move, float]]) -> Move:
        """A chance outcome drawn by its probability."""
        r = self.rng.random()
        for move, p in chances:
            r -= p
            if r < 0.0:
                return move
        return chances[-1][0]

    def _fit(self, root: Node) -> None:
        """Count the nodes of the tree kept (``root``'s), and derive the most it may hold
        from ``hash`` and the mean size of up to :data:`SAMPLE` of them."""
        count, seen, measured, sampled = 0, set[int](), 0, 0
        stack = [root]
        while stack:
            node = stack.pop()
            count += 1
            if sampled < SAMPLE:
                measured += node.own_size(seen)
                sampled += 1
            stack.extend(node.children)
        self.nodes = count
        self.max_nodes = max(MIN_ENTRIES, self.hash_bytes * sampled // max(1, measured))

    def _playout(self, node: Node) -> tuple[float, ...]:
        """Scores per player of a playout from ``node``."""
        game = self.game
        if node.outcome is not None:
            return outcome_shares(node.outcome)
        state = node.state
        rng = self.rng
        deadline = self.deadline
        for _ in range(self.cutoff):
            if deadline is not None and time.monotonic() >= deadline:
                break  # out of time: the evaluation scores the playout where it stands
            moves = game.legal_moves(state)
            outcome = game.result(state, moves)
            if outcome is not None:
                return outcome_shares(outcome)
            if game.is_chance(state):
                state = game.play(state, self._draw(game.chance_outcomes(state)))
                continue
            moves = game.candidate_moves(state, moves)
            if self.heuristic_playouts:
                scores = game.move_heuristics(state, moves)
                move = moves[max(range(len(moves)), key=lambda i: scores[i] + rng.random())]
            else:
                move = rng.choice(moves)
            state = game.play(state, move)
        values = [game.evaluate_for(state, player) for player in range(game.players)]
        size = max(abs(v) for v in values)
        self.typical += (size - self.typical) * 0.01
        return shares_of(values, self.fixed_scale or max(1e-9, self.typical, size / 10))

    def _depth(self, node: Node) -> int:
        depth = 0
        while node.children:
            node = max(node.children, key=lambda ch: ch.visits)
            depth += 1
        return depth

    def _pv(self, node: Node) -> list[Move]:
        pv = [node.move]
        while node.children:
            node = max(node.children, key=lambda ch: ch.visits)
            pv.append(node.move)
        return pv  # type: ignore[return-value]
