"""The alphabeta bot on the kernel engine: which searches the kernel reproduces, and the
search run there (:mod:`myriad.kernel.search`) answering as the reference bot answers.

The kernel searches a game when a kernel family compiles it
(:func:`myriad.kernel.registry.kernel_for`) and the bot's options are ones it
reproduces: ``algo`` pvs or negamax (MTD(f) stays on the reference), no threat-space
search (a game with ``threat_space`` needs ``threats=0``), and the game's own search
hooks (``candidate_moves``, ``in_check``; with quiescence, ``may_stand_pat``) either the base
:class:`~myriad.core.game.Game`'s or named in the family's ``SEARCH_HOOKS``.  (A family's
``noisy`` says which moves are among the game's ``noisy_moves``, so that hook is always
reproduced.)
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from myriad.ai.bot import Decision, Limits
from myriad.core.game import Game
from myriad.core.state import State

if TYPE_CHECKING:
    from myriad.kernel.search import Searcher

#: The ``engine`` option's values: the kernel where it reproduces the search, or either
#: engine demanded.
ENGINES = frozenset({"auto", "kernel", "reference"})
#: The game's methods a search calls beyond the family interface, and whether each
#: matters only with quiescence.
HOOKS = (("candidate_moves", False), ("in_check", False), ("may_stand_pat", True))


def kernel_refusal(game: Game, algo: str, threats: bool, quiescence: bool) -> str | None:
    """Why the kernel cannot run this search of ``game`` exactly as the reference does,
    or None when it can."""
    from myriad.kernel.registry import kernel_for
    kernel = kernel_for(game)
    if kernel is None:
        return f"{game.id} has no kernel (it runs on the reference engine only)"
    if algo not in ("pvs", "negamax"):
        return f"the kernel searches with pvs or negamax, not {algo}"
    if threats and game.threat_space:
        return f"the kernel has no threat-space search ({game.id} needs threats=0 for the kernel)"
    declared: frozenset[str] = getattr(kernel.family, "SEARCH_HOOKS", frozenset())
    for hook, only_quiescence in HOOKS:
        if only_quiescence and not quiescence:
            continue
        if getattr(type(game), hook) is not getattr(Game, hook) and hook not in declared:
            return f"the kernel does not reproduce {game.id}'s {hook}"
    return None


def load_search(game: Game) -> None:
    """Load the compiled search into this process now (compile it, once after an install),
    so that no move's clock pays for it: a throwaway depth-1 search of the start, on its
    own small table (the bot's table and history stay untouched)."""
    from myriad.kernel.registry import kernel_for
    from myriad.kernel.search import Searcher, search
    kernel = kernel_for(game)
    if search.signatures or kernel is None:
        return
    state = game.initial_state()
    if game.outcome(state) is None and game.legal_moves(state):
        Searcher(kernel, tt_bytes=1 << 16).search(state, depth=1)


class KernelAlphaBeta:
    """An alphabeta bot's search on the kernel, kept between moves (table and history)."""

    def __init__(self, game: Game, name: str, algo: str, quiescence: int, moves: int, root: int,
                 tt_bytes: int, tt_limit: int | None, checks: bool = True, quiet_checks: bool = False,
                 reductions: bool = False) -> None:
        from myriad.kernel.registry import kernel_for
        from myriad.kernel.search import Searcher
        kernel = kernel_for(game)
        assert kernel is not None
        self.game = game
        self.name = name
        self.algo = algo
        self.searcher: Searcher = Searcher(kernel, algo=algo, quiescence=quiescence, moves=moves, root=root,
                                           tt_bytes=tt_bytes, tt_limit=tt_limit, checks=checks,
                                           quiet_checks=quiet_checks, reductions=reductions)
        load_search(game)

    def reset(self) -> None:
        """Forget the table and history (a new game)."""
        self.searcher.reset()

    def choose(self, state: State, limits: Limits, forced_at_once: bool = True) -> Decision:
        """The reference bot's answer, searched on the kernel: at once when one move is
        legal (unless ``forced_at_once`` is False), else iterative deepening within
        ``limits`` (already tightened by the bot's options)."""
        moves = self.game.legal_moves(state)
        if not moves:
            raise ValueError(f"{self.game.id}: no legal move to choose from")
        start = time.monotonic()
        if len(moves) == 1 and forced_at_once:
            return Decision(moves[0], True, self._info(0, 0, [moves[0]], 0, start))
        deadline = None
        if limits.deadline is not None:
            deadline = time.perf_counter() + (limits.deadline - time.monotonic())
        found, done = self.searcher.search(state, depth=limits.depth, nodes=limits.nodes, deadline=deadline)
        return Decision(found.move, done, self._info(found.depth, int(found.score), found.line, found.nodes, start))

    def _info(self, depth: int, score: int, pv: list[Any], nodes: int, start: float) -> dict[str, Any]:
        return {"bot": self.name, "algo": self.algo, "engine": "kernel", "depth": depth, "nodes": nodes,
                "score": score, "pv": pv, "seconds": time.monotonic() - start}
