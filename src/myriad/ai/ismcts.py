"""Information-set MCTS (single observer, Cowling, Powley and Whitehouse 2012), for every
game with hidden information or chance.

One tree over the searching player's information set: each iteration draws a whole state
behind the observation (``game.determinize``), descends the tree choosing only among moves
legal in that state (UCB with availability counts: a child is scored against the number of
times it could have been chosen, not its parent's visits), adds one move, plays random
moves for ``cutoff`` plies (``playout=random``, the default; ``playout=heuristic``: the
move the game's move heuristic likes best, captures of the most valuable pieces first,
random ties: weaker in dark chess, 0 of 20 games against ``heuristic``) and scores the end
by each player's evaluation squashed to a share (a lone player: its own evaluation).

Chance inside the tree (a BanQi flip, fox hunt's hiding) is drawn from the game's
``chance_outcomes`` by their probabilities: a chance node's children are its outcomes,
never chosen by UCB and never scored.  With ``split=1`` (the default in one-player games)
the searcher's own moves branch by what the move shows it (``game.move_signal``): fox
hunt's next shot depends on the number the last one showed; in two-player games the
splitting spreads the visits thin, so it is off.  With ``prune=1`` the tree considers only
the game's ``candidate_moves`` (BanQi: every step and capture, and the four flips that look
best), at the cost of asking for them at every node.

Memory: the tree holds at most as many nodes as ``hash=`` megabytes allow (by the measured
size of a node); past that, iterations walk the tree and play out from its leaves without
growing it.  Reuse: in a game whose observations hide nothing (BanQi: its face-down pieces
have no identity), the subtree of the position reached is kept for the next move, found by
replaying the moves below the move played; a tree over hidden states lives one move.

The root's moves are the observer's, the same in every sample; the most visited is played.
Seeded by the bot's seed and the observation: with ``playouts=`` (not time) one observation
always gives the same move (a kept tree is used only under a clock, so that it does too).
"""

from __future__ import annotations

import math
import random
import sys
import time
from typing import Any, ClassVar

from myriad.ai.bot import FLAG, SEED, TIME, Allowed, Bot, Decision, Limits, collection_reserve, gc_paused
from myriad.ai.budget import HASH, hash_bytes
from myriad.ai.utility import evaluation_value, outcome_shares, shares_of
from myriad.core.caches import MIN_ENTRIES
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State

#: Random plies played after the tree before the evaluation scores a playout.
DEFAULT_CUTOFF = 8


class _Node:
    """A move in the information set tree: who made it, its wins and visits, and how often
    it was available (legal in the sampled state) when its parent was passed.  With
    splitting, the searcher's own move keeps a node per signal it may show (``seen``),
    whose children are the moves after it."""

    __slots__ = ("move", "mover", "children", "visits", "wins", "available", "seen")

    def __init__(self, move: Move | None, mover: int) -> None:
        self.move = move
        self.mover = mover
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.wins = 0.0
        self.available = 0
        self.seen: dict[int, _Node] | None = None


#: Bytes of one node with its entry in its parent's table and a small table of its own.
NODE_BYTES = sys.getsizeof(_Node(None, 0)) + sys.getsizeof({}) + 2 * sys.getsizeof(0.5) + 64


class ISMCTS(Bot):
    """SO-ISMCTS (``ismcts:time=1``, ``playouts=``, ``c=0.7``, ``cutoff=8``, ``playout=``,
    ``split=``, ``prune=``, ``hash=`` megabytes of tree, ``seed=``)."""

    name = "ismcts"
    OPTIONS: ClassVar[dict[str, Allowed]] = {
        "time": TIME, "playouts": (int, 1, 10**9), "c": (float, 0, 100), "cutoff": (int, 0, 10**6),
        "playout": frozenset({"random", "heuristic"}), "split": FLAG, "prune": FLAG, "hash": HASH, "seed": SEED}
    max_players = None
    chance = True
    hidden = True

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        self.playouts = int(options.get("playouts", 0)) or None
        self.c = float(options.get("c", 0.7))
        self.cutoff = int(options.get("cutoff", DEFAULT_CUTOFF))
        self.seed = int(options.get("seed", 0))
        self.heuristic_playouts = options.get("playout", "random") == "heuristic"
        self.split = bool(options.get("split", game.players == 1))
        self.prune = bool(options.get("prune", 0))
        self.full = game.full_view()
        self.rng = random.Random()
        self.typical = 0.0
        #: The most nodes the tree may hold, and how many it holds.
        self.max_nodes = max(MIN_ENTRIES, hash_bytes(options, self.name) // NODE_BYTES)
        self.nodes = 0
        self.me = 0
        #: The tree kept from the last move (games without hidden information): the state
        #: searched, and the root's child played.
        self.kept: tuple[State, _Node] | None = None

    def reset(self) -> None:
        self.kept = None
        self.nodes = 0

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        with gc_paused():
            return self._choose(state, limits)

    def _choose(self, state: State, limits: Limits) -> Decision:
        start = time.monotonic()
        moves, limits, forced = self.opening(state, limits, bounded=self.playouts is not None)
        if forced is not None:
            self.kept = None
            return forced
        remaining = limits.remaining()
        if remaining is not None and limits.deadline is not None:
            limits = Limits(limits.deadline - collection_reserve(remaining), limits.depth, limits.nodes)
        self.rng = random.Random(self.seed * 1_000_003 + state.key)
        player = self.me = state.to_move
        root = self._reuse(state) if self.playouts is None and limits.nodes is None else None
        kept = 0 if root is None else self.nodes
        if root is None:
            root, self.nodes, self.typical = _Node(None, -1), 1, 0.0
        self.kept = None
        budget = self.playouts or limits.nodes
        done = 0
        determinize, iterate = self.game.determinize, self._iterate
        while True:
            iterate(root, determinize(state, player, self.rng))
            done += 1
            if budget is not None and done >= budget:
                break
            if limits.deadline is not None and time.monotonic() >= limits.deadline:
                break
        legal = set(moves)
        best = max((ch for ch in root.children.values() if ch.move in legal),
                   key=lambda ch: (ch.visits, ch.wins))
        if not self.game.hidden_information:
            self.kept = (state, best)
        return Decision(best.move, True, {  # type: ignore[arg-type]
            "bot": self.name, "nodes": done, "depth": self._depth(best), "tree": self.nodes, "kept": kept,
            "score": round(best.wins / max(1, best.visits), 3), "seconds": time.monotonic() - start})

    def _reuse(self, state: State) -> _Node | None:
        """The node of ``state`` below the move played last, found by replaying the kept
        tree's moves for a round of turns (each player's move, a chance event before
        each), else None.  Only in games whose observations are whole states."""
        if self.kept is None or self.game.hidden_information:
            return None
        before, played = self.kept
        game = self.game
        frontier = [(game.play(before, played.move), played)]  # type: ignore[arg-type]
        for _ in range(2 * game.players + 1):
            for reached, node in frontier:
                if reached == state:
                    node.move, node.mover = None, -1  # (the new root)
                    self.nodes = self._count(node)
                    return node
            frontier = [(game.play(reached, child.move), child)  # type: ignore[arg-type]
                        for reached, node in frontier for child in node.children.values()
                        if game.outcome(reached) is None]
        return None

    @staticmethod
    def _count(root: _Node) -> int:
        count, stack = 0, [root]
        while stack:
            node = stack.pop()
            count += 1
            stack.extend(node.children.values())
            if node.seen:
                stack.extend(node.seen.values())
        return count

    @staticmethod
    def _depth(node: _Node) -> int:
        depth = 1
        while node.children:
            node = max(node.children.values(), key=lambda ch: ch.visits)
            depth += 1
        return depth

    def _iterate(self, root: _Node, state: State) -> None:
        """One walk down the tree from a sampled whole ``state``: UCB among the moves legal
        in it, a drawn outcome at chance; one node added, a playout, the shares backed up."""
        game, rng, c, me = self.full, self.rng, self.c, self.me
        node, path = root, []
        chance = game.chance_player if game.chance else -2
        log, sqrt = math.log, math.sqrt
        while True:
            mover = state.to_move
            if mover == chance:
                move = _draw(game.chance_outcomes(state), rng)
                child = node.children.get(move)
                if child is None:
                    if self.nodes >= self.max_nodes:
                        break
                    child = node.children[move] = _Node(move, mover)
                    self.nodes += 1
                node = child
                state = game.play(state, move)
                continue
            moves = game.legal_moves(state)
            if game.result(state, moves) is not None:
                break
            if self.prune:
                moves = game.candidate_moves(state, moves)
            children = node.children
            untried = None
            best, best_value = None, -1.0
            for move in moves:
                child = children.get(move)
                if child is None:
                    if untried is None:
                        untried = [move]
                    else:
                        untried.append(move)
                    continue
                child.available += 1
                if untried is None:
                    value = child.wins / child.visits + c * sqrt(log(child.available) / child.visits)
                    if value > best_value:
                        best, best_value = child, value
            if untried is not None:
                if self.nodes >= self.max_nodes:
                    break
                move = rng.choice(untried)
                child = children[move] = _Node(move, mover)
                child.available = 1
                self.nodes += 1
                path.append(child)
                if self.split and mover == me:
                    self._branch(child, state, move)
                state = game.play(state, move)
                break
            assert best is not None and best.move is not None
            path.append(best)
            move = best.move
            branch = self._branch(best, state, move) if self.split and mover == me else best
            state = game.play(state, move)
            if branch is None:
                break
            node = branch
        shares = self._playout(state)
        players = len(shares)
        for n in path:
            n.visits += 1
            if n.mover < players:
                n.wins += shares[n.mover]

    def _branch(self, child: _Node, state: State, move: Move) -> _Node | None:
        """The node after the searcher's ``move`` for what it shows in ``state`` (None: a
        new one, and the tree is full)."""
        signal = self.full.move_signal(state, move, self.me)
        if child.seen is None:
            child.seen = {}
        node = child.seen.get(signal)
        if node is None:
            if self.nodes >= self.max_nodes:
                return None
            node = child.seen[signal] = _Node(None, -1)
            self.nodes += 1
        return node

    def _playout(self, state: State) -> tuple[float, ...]:
        """Each player's share after ``cutoff`` plies of play from ``state``."""
        game, rng = self.full, self.rng
        chance = game.chance_player if game.chance else -2
        for _ in range(self.cutoff):
            if state.to_move == chance:
                state = game.play(state, _draw(game.chance_outcomes(state), rng))
                continue
            moves = game.legal_moves(state)
            outcome = game.result(state, moves)
            if outcome is not None:
                return outcome_shares(outcome)
            if self.heuristic_playouts:
                scores = game.move_heuristics(state, moves)
                move = moves[max(range(len(moves)), key=lambda i: scores[i] + rng.random())]
            else:
                move = rng.choice(moves)
            state = game.play(state, move)
        if state.to_move != chance:
            outcome = game.result(state, game.legal_moves(state))
            if outcome is not None:
                return outcome_shares(outcome)
        values = [game.evaluate_for(state, p) for p in range(game.players)]
        size = max(abs(v) for v in values)
        self.typical += (size - self.typical) * 0.01
        scale = max(1e-9, self.typical, size / 10)
        if game.players == 1:
            return ((evaluation_value(game, state, 0, scale) + 1.0) / 2.0,)
        return shares_of(values, scale)


def _draw(chances: list[tuple[Move, float]], rng: random.Random) -> Move:
    """A chance outcome drawn by its probability."""
    r = rng.random()
    for move, p in chances:
        r -= p
        if r < 0.0:
            return move
    return chances[-1][0]
