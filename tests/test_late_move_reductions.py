"""Late move reductions (the alphabeta bot's ``lmr``, on by default where the game's
``late_move_reductions`` says so): the kernel reduces exactly the moves the reference
reduces, and the reductions shrink the tree without hiding a mate."""
from __future__ import annotations

import random

import pytest

from myriad.ai import make_bot
from myriad.ai.alphabeta import WON, AlphaBeta
from myriad.ai.bot import Limits
from myriad.core.game import Game
from myriad.core.state import State
from myriad.core.move import Move
from myriad.games import game_ids, get_game
from myriad.kernel.registry import kernel_for
from myriad.kernel.search import Searcher
from test_kernel_search import KernelKnowledge

#: The games whose bots reduce late moves by default.
REDUCING = [gid for gid in game_ids() if get_game(gid).late_move_reductions and AlphaBeta.plays(get_game(gid))]
#: A node budget for the comparisons at depth 4 (both engines stop at the same count).
NODES = 12000


def positions(game: Game, count: int, seed: int) -> list[State]:
    """``count`` positions still in play after 6 to 30 random plies."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(6, 30)):
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.play(state, rng.choice(moves))
        if game.outcome(state) is None and len(game.legal_moves(state)) > 1:
            found.append(state)
    return found


def test_the_piece_games_reduce_and_the_others_do_not() -> None:
    assert {"chess", "xiangqi", "shogi"} <= set(REDUCING)
    assert not {"go9", "othello", "connect4", "draughts", "kalah"} & set(REDUCING)


class KernelOrdered(KernelKnowledge):
    """The game as the kernel plays it (:class:`KernelKnowledge`), its moves listed in the
    kernel's order (xiangqi's and janggi's differ from the reference's): a reduction
    depends on a move's rank, so the reference reduces the same moves only in that order."""

    def legal_moves(self, state: State) -> list[Move]:
        return self.kernel.legal_moves(state)


@pytest.mark.parametrize("game_id", [gid for gid in REDUCING if kernel_for(get_game(gid)) is not None])
def test_the_kernel_reduces_as_the_reference(game_id: str) -> None:
    """Depth 4 (reductions from depth 3 happen below the root), cut at the same node
    count: the same move, score, depth and nodes from the reference search over the
    kernel's rules, knowledge and move order as from the kernel's search."""
    game = get_game(game_id)
    kernel = kernel_for(game)
    assert kernel is not None
    mirror = KernelOrdered(game, kernel)
    assert mirror.late_move_reductions
    for state in positions(game, 3, seed=4):
        reference = AlphaBeta(mirror, algo="pvs", moves=0, threats=0, engine="reference")
        expected = reference.analyse(state, Limits(depth=4, nodes=NODES))
        found, _done = Searcher(kernel).search(state, depth=4, nodes=NODES)
        assert (found.move, found.score, found.depth, found.nodes) == (
            expected.move, expected.info["score"], expected.info["depth"], reference.nodes), game.format_position(state)


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_reductions_shrink_the_tree(engine: str) -> None:
    """The same chess position and depth: fewer nodes with reductions than without
    (measured: 44,876 against 92,105 at depth 5)."""
    game = get_game("chess")
    state = game.parse_position("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    nodes = {}
    for lmr in (0, 1):
        bot = make_bot(f"alphabeta:engine={engine},lmr={lmr}", game)
        bot.analyse(state, Limits(depth=5))
        assert isinstance(bot, AlphaBeta)
        nodes[lmr] = bot.nodes
    assert nodes[1] < 0.8 * nodes[0], nodes


def test_a_quiet_mate_is_still_found() -> None:
    """The one mate in two, by a quiet first move (Qe7!, found by python-chess's move
    generator walking every line), searched with reductions on both engines."""
    game = get_game("chess")
    state = game.parse_position("6k1/6pp/6p1/4B3/7Q/8/5PPP/6K1 w - - 0 1")
    for engine in ("kernel", "reference"):
        found = make_bot(f"alphabeta:engine={engine}", game).analyse(state, Limits(depth=5))
        assert found.info["score"] >= WON, (engine, found.info)
        assert game.format_move(state, found.move) == "Qe7", (engine, found.info)
