"""The kernel's alpha-beta (:mod:`myriad.kernel.search`) against the reference's
(:class:`myriad.ai.alphabeta.AlphaBeta`), for every game of the registry with a kernel.

Two comparisons.  The search itself: the reference search run over the kernel's own rules
and knowledge (:class:`KernelKnowledge`) must give the same score at every fixed depth,
and, where the kernel lists moves in the reference's order, the same move and the same
node count.  The bot: where the alphabeta bot runs on the kernel by itself
(:func:`myriad.ai.kernel_search.kernel_refusal` is None), the kernel's answer must match
the reference bot's, knowledge and all.  Then known values: tic-tac-toe solved from the
start (``solved.json``), short forced wins found in seeded random games, and mates in two
in chess-like games.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from myriad.ai import make_bot
from myriad.ai.alphabeta import CHECK_PLIES, INF, WIN, WON, AlphaBeta
from myriad.ai.bot import BotSpecError, Limits
from myriad.ai.kernel_search import kernel_refusal
from myriad.core.game import Game, Outcome
from myriad.core.move import Move
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.kernel import rules
from myriad.kernel.engine import Kernel
from myriad.kernel.layout import P_FAMILY, MoveBufferFull
from myriad.kernel.registry import kernel_for
from myriad.kernel.search import Searcher, best_move

ORACLES = Path(__file__).resolve().parents[1] / ".." / "shared" / "oracles"
#: The games on the kernel that alpha-beta plays (two players).
KERNEL_GAMES = [gid for gid in game_ids() if kernel_for(get_game(gid)) is not None
                and AlphaBeta.plays(get_game(gid))]
#: Positions per game and the largest tree (moves ** depth) searched at a fixed depth.
POSITIONS = 6
LARGEST_TREE = 3000


class KernelKnowledge(Game):
    """``game`` as the kernel plays it, for the reference search: its rules from the game,
    its knowledge (``evaluate``, ``order``, ``noisy``) and search hooks (``candidates``,
    ``noisy_moves``, ``stand_pat``, ``in_check``) from the kernel; no move cap, no threat-space search."""

    def __init__(self, game: Game, kernel: Kernel) -> None:  # (the game's tables serve)
        self.inner, self.kernel = game, kernel
        self.id, self.player_names = game.id, game.player_names
        self.quiescence, self.quiescence_depth = game.quiescence, game.quiescence_depth
        self.forced_captures, self.move_cap, self.threat_space = game.forced_captures, None, False
        self.late_move_reductions = game.late_move_reductions

    def legal_moves(self, state: State) -> list[Move]:
        return self.inner.legal_moves(state)

    def play(self, state: State, move: Move) -> State:
        return self.inner.play(state, move)

    def outcome(self, state: State) -> Outcome | None:
        return self.inner.outcome(state)

    def result(self, state: State, moves: list[Move] | None = None) -> Outcome | None:
        return self.inner.result(state, moves)

    def repetition_outcome(self, state: State) -> Outcome:
        return self.inner.repetition_outcome(state)

    def evaluate(self, state: State) -> float:
        return self.kernel.evaluate(state)

    def _rows(self, state: State):
        s, rows, count = self.kernel.move_rows(state)
        return s, {self.kernel.to_move(s, rows[i]): rows[i].copy() for i in range(count)}

    def move_heuristics(self, state: State, moves: Sequence[Move]) -> list[float]:
        s, rows = self._rows(state)
        return [float(rules.order(self.kernel.tables, s, rows[m])) for m in moves]

    def move_heuristic(self, state: State, move: Move) -> float:
        return self.move_heuristics(state, [move])[0]

    def is_noisy(self, state: State, move: Move) -> bool:
        s, rows = self._rows(state)
        return bool(rules.noisy(self.kernel.tables, s, rows[move]))

    def candidate_moves(self, state: State, moves: list[Move]) -> list[Move]:
        s, found, count = self.kernel.move_rows(state)
        kept = rules.candidates(self.kernel.tables, s, found, count)
        given = {m: m for m in moves}  # (the kernel's order: Go's candidates come best first)
        return [given[m] for m in (self.kernel.to_move(s, found[i]) for i in range(kept)) if m in given]

    def noisy_moves(self, state: State) -> list[Move]:
        s = self.kernel.pack(state)
        hist = self.kernel.history(state)
        found = self.kernel.move_buffer()
        count = rules.noisy_moves(self.kernel.tables, s, hist, len(hist), found)
        chosen = {self.kernel.to_move(s, found[i]) for i in range(count)}
        return [m for m in self.legal_moves(state) if m in chosen]

    def may_stand_pat(self, state: State) -> bool:
        return bool(rules.stand_pat(self.kernel.tables, self.kernel.pack(state)))

    def in_check(self, state: State) -> bool:
        return bool(rules.in_check(self.kernel.tables, self.kernel.pack(state)))


def positions(game: Game, count: int, seed: int) -> list[State]:
    """``count`` positions still in play from seeded random games, at random plies."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = game.initial_state()
        stop = rng.randrange(0, 60)
        for _ in range(stop):
            moves = game.legal_moves(state)
            if not moves or game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(moves))
        if game.outcome(state) is None and len(game.legal_moves(state)) > 1:
            found.append(state)
    return found


def depths(game: Game, state: State) -> list[int]:
    """The fixed depths 1..3 whose full tree stays under :data:`LARGEST_TREE`."""
    width = len(game.legal_moves(state))
    return [d for d in (1, 2, 3) if d == 1 or width ** d <= LARGEST_TREE]


def reference_value(bot: AlphaBeta, state: State, move: Move, depth: int) -> int:
    """The reference search's value of ``move`` in ``state`` at ``depth`` (full window)."""
    bot.nodes, bot.deadline, bot.node_limit = 0, None, None
    bot.check_plies = CHECK_PLIES * depth  # (as an iteration of that depth sets it)
    child = bot.game.play(state, move)
    return bot._child(child, state.to_move, depth - 1, -INF, INF, 1)


def same_order(game: Game, kernel: Kernel, state: State) -> bool:
    """Whether the kernel lists ``state``'s moves in the reference's order."""
    return kernel.legal_moves(state) == game.legal_moves(state)


def test_registry_has_kernel_games() -> None:
    """The in-a-row family at least is on the kernel (else nothing below is tested)."""
    assert {"tictactoe", "connect4", "gomoku"} <= set(KERNEL_GAMES)


@pytest.mark.parametrize("game_id", KERNEL_GAMES)
def test_search_equals_reference_search(game_id: str) -> None:
    """Fixed depths 1..3, seeded positions: the kernel's score is the reference's over
    the same rules and knowledge; its move is one the reference values as its best, the
    very move (and the node count the same) when the moves come in the same order and the
    bot searches the game on the kernel (Go's too: its line keeps board keys, as the
    reference's history does for superko)."""
    game = get_game(game_id)
    kernel = kernel_for(game)
    assert kernel is not None
    mirror = KernelKnowledge(game, kernel)
    on_kernel = kernel_refusal(game, "pvs", False, True) is None
    compared = 0
    for state in positions(game, POSITIONS, seed=21):
        ordered = same_order(game, kernel, state)
        for depth in depths(game, state):
            reference = AlphaBeta(mirror, algo="pvs", moves=0, threats=0, engine="reference")
            expected = reference.analyse(state, Limits(depth=depth))
            found, done = Searcher(kernel).search(state, depth=depth)
            assert done
            assert found.depth == expected.info["depth"]
            assert found.score == expected.info["score"], (game_id, game.format_position(state), depth)
            judge = AlphaBeta(mirror, algo="pvs", moves=0, threats=0, engine="reference")
            assert reference_value(judge, state, found.move, depth) == expected.info["score"]
            if ordered and on_kernel:  # (where the bot searches on the kernel: the very same tree)
                assert found.move == expected.move, (game_id, game.format_position(state), depth)
                assert found.nodes == reference.nodes, (game_id, game.format_position(state), depth)
            compared += 1
    assert compared >= POSITIONS


@pytest.mark.parametrize("game_id", KERNEL_GAMES)
def test_negamax_and_node_limit(game_id: str) -> None:
    """``algo=negamax`` gives the reference's score too, and a node limit stops both
    searches at the same count with the same move where the move order is the same (in the
    games whose bot searches on the kernel)."""
    game = get_game(game_id)
    kernel = kernel_for(game)
    assert kernel is not None
    mirror = KernelKnowledge(game, kernel)
    for state in positions(game, 2, seed=5):
        reference = AlphaBeta(mirror, algo="negamax", moves=0, threats=0, engine="reference")
        expected = reference.analyse(state, Limits(depth=2))
        found, _ = Searcher(kernel, algo="negamax").search(state, depth=2)
        assert found.score == expected.info["score"]
        if same_order(game, kernel, state) and kernel_refusal(game, "pvs", False, True) is None:
            whole = AlphaBeta(mirror, algo="pvs", moves=0, threats=0, engine="reference")
            whole.analyse(state, Limits(depth=3))
            limit = whole.nodes // 2
            if limit < 2:
                continue
            reference = AlphaBeta(mirror, algo="pvs", moves=0, threats=0, engine="reference")
            cut = reference.analyse(state, Limits(depth=3, nodes=limit))
            found, done = Searcher(kernel).search(state, depth=3, nodes=limit)
            assert (found.move, found.depth, found.nodes) == (cut.move, cut.info["depth"], reference.nodes)
            assert found.nodes == limit and done == cut.done and found.score == cut.info["score"]


@pytest.mark.parametrize("game_id", KERNEL_GAMES)
def test_bot_on_kernel_matches_reference_bot(game_id: str) -> None:
    """Where the alphabeta bot runs on the kernel by itself, it answers as the reference
    bot does (score; move when the moves come in the same order, and node count when the
    noisy moves do too); elsewhere it says why it cannot (``engine=kernel`` refused with
    the reason)."""
    game = get_game(game_id)
    quiescence = game.quiescence and game.quiescence_depth > 0
    refusal = kernel_refusal(game, "pvs", False, quiescence)
    if refusal is not None:
        with pytest.raises(BotSpecError, match="engine=kernel"):
            make_bot("alphabeta:engine=kernel,threats=0,moves=0", game)
        assert make_bot("alphabeta:threats=0,moves=0", game).kernel is None
        return
    kernel = kernel_for(game)
    assert kernel is not None
    for state in positions(game, 3, seed=8):
        for depth in depths(game, state):
            mine = make_bot("alphabeta:threats=0,moves=0", game)
            assert isinstance(mine, AlphaBeta) and mine.kernel is not None
            theirs = make_bot("alphabeta:threats=0,moves=0,engine=reference", game)
            assert isinstance(theirs, AlphaBeta) and theirs.kernel is None
            a = mine.analyse(state, Limits(depth=depth))
            b = theirs.analyse(state, Limits(depth=depth))
            assert a.info["engine"] == "kernel" and a.info["score"] == b.info["score"]
            if same_order(game, kernel, state):
                assert a.move == b.move
                if not quiescence or type(game).noisy_moves is Game.noisy_moves:
                    # (a game's own noisy_moves may list them in another order than the
                    # kernel's, which changes quiescence's cuts, not its values)
                    assert a.info["nodes"] == b.info["nodes"]


def test_go_line_keeps_board_keys() -> None:
    """Go's superko along the searched line: after White takes the ko at D2, Black's
    retake at C2 recreates an earlier board, so neither engine searches it (the line keeps
    board keys, as the game's history does); the bot searches Go on the kernel, with the
    reference's move, score and node count at depths 1-3."""
    game = get_game("go9")
    kernel = kernel_for(game)
    assert kernel is not None and kernel_refusal(game, "pvs", False, True) is None
    state = game.parse_position("9/9/9/9/9/9/2OX5/1OX1X4/2OX5 w 0 0 0 6")
    take = game.parse_move(state, "D2")
    assert take in game.candidate_moves(state, game.legal_moves(state))
    after = game.play(state, take)
    retake = game.parse_move(game.parse_position(game.format_position(after)), "C2")
    forgotten = game.parse_position(game.format_position(after))  # (no history: the retake is legal)
    assert retake in game.candidate_moves(forgotten, game.legal_moves(forgotten))
    assert retake not in game.legal_moves(after) and retake not in kernel.legal_moves(after)
    mirror = KernelKnowledge(game, kernel)
    for depth in (1, 2, 3):
        reference = AlphaBeta(mirror, algo="pvs", moves=0, threats=0, engine="reference")
        expected = reference.analyse(state, Limits(depth=depth))
        found, done = Searcher(kernel).search(state, depth=depth)
        assert done and (found.move, found.score, found.nodes) == (expected.move, expected.info["score"],
                                                                  reference.nodes)


def test_a_pass_in_go_is_no_repetition() -> None:
    """After White's pass the position's key meets a board key of the history (Black's
    side word is zero), yet Go's rules make nothing of it: both engines search on, and
    White, whose only move is the pass, sees Black end the game by area (a draw before)."""
    game = get_game("go9")
    kernel = kernel_for(game)
    assert kernel is not None
    before = game.parse_position("/".join(["XXXXXXXXX"] * 8 + ["1X1X1XXXX"]) + " b 0 0 0 60")
    state = game.play(before, game.parse_move(before, "E1"))
    passed = game.play(state, game.parse_move(state, "pass"))
    assert game.legal_moves(state) == [game.parse_move(state, "pass")]
    assert passed.key in passed.history and game.repetition_outcome(passed) is None
    reference = AlphaBeta(game, algo="pvs", moves=0, threats=0, engine="reference")
    expected = reference.analyse(state, Limits(depth=2))
    found, done = Searcher(kernel).search(state, depth=2)
    assert done and expected.info["score"] < 0
    assert (found.move, found.score, found.nodes) == (expected.move, expected.info["score"], reference.nodes)


def test_engine_option_is_checked() -> None:
    """``engine`` takes auto, kernel or reference only; ``kernel`` is refused, with the
    reason, for a game without a kernel and for a search the kernel does not do."""
    game = get_game(KERNEL_GAMES[0])
    with pytest.raises(BotSpecError, match="engine must be one of"):
        make_bot("alphabeta:engine=fast", game)
    with pytest.raises(BotSpecError, match="pvs or negamax"):
        make_bot("alphabeta:engine=kernel,algo=mtdf", game)
    without = next(gid for gid in game_ids() if kernel_for(get_game(gid)) is None
                   and AlphaBeta.plays(get_game(gid)))
    with pytest.raises(BotSpecError, match="has no kernel"):
        make_bot("alphabeta:engine=kernel", get_game(without))
    assert make_bot("alphabeta", get_game(without)).kernel is None


def test_tictactoe_solved_from_the_start() -> None:
    """Searched to the end from the empty board, tic-tac-toe is worth what ``solved.json``
    says (a draw), on both engines, within the nine plies there are."""
    solved = json.loads((ORACLES / "solved.json").read_text())
    value = next(r["value_for_first_player"] for r in solved["results"] if r["game"] == "tic-tac-toe")
    game = get_game("tictactoe")
    kernel = kernel_for(game)
    assert kernel is not None
    found = best_move(kernel, game.initial_state(), depth=9)
    assert found.depth == 9 and found.score == value
    reference = AlphaBeta(KernelKnowledge(game, kernel), moves=0, engine="reference")
    assert reference.analyse(game.initial_state(), Limits(depth=9)).info["score"] == value


def short_wins(game: Game, kernel: Kernel, depth: int, wanted: int,
               seed: int) -> list[tuple[State, int, int]]:
    """Positions of seeded random games where the kernel finds a forced win searching
    ``depth`` plies, or fewer where the tree would pass :data:`LARGEST_TREE` (up to
    ``wanted`` of them), with its score and the depth searched (a win may lie further
    than that depth where checks are extended)."""
    rng = random.Random(seed)
    found: list[tuple[State, int, int]] = []
    searcher = Searcher(kernel, tt_bytes=1 << 20)
    for _ in range(200):
        state = game.initial_state()
        for _ply in range(2000):  # (Go 19x19's random games pass only near their end)
            moves = game.legal_moves(state)
            if not moves or game.outcome(state) is not None:
                break
            if len(moves) > 1:
                searched = min(depth, max(depths(game, state)))
                result, _ = searcher.search(state, depth=searched)
                if result.score >= WON:
                    found.append((state, int(result.score), searched))
                    break
            state = game.play(state, rng.choice(moves))
        if len(found) >= wanted:
            break
    return found


@pytest.mark.parametrize("game_id", [gid for gid in KERNEL_GAMES
                                     if kernel_refusal(get_game(gid), "pvs", False, True) is None])
def test_short_wins(game_id: str) -> None:
    """Forced wins found searching three plies (Connect Four's, gomoku's, ...) from seeded
    random games: the reference search to the same depth finds the same distance, the
    kernel's move wins, and its line ends the game (or repeats a position that the rules
    give the mover); a win past the depth (through checks, extended) has the depth's line."""
    game = get_game(game_id)
    kernel = kernel_for(game)
    assert kernel is not None
    mirror = KernelKnowledge(game, kernel)
    wins = short_wins(game, kernel, 3, 3, seed=3)
    assert wins, f"{game_id}: no short win met in 200 random games"
    for state, score, depth in wins:
        reference = AlphaBeta(mirror, moves=0, threats=0, engine="reference")
        assert reference.analyse(state, Limits(depth=depth)).info["score"] == score
        found = best_move(kernel, state, depth=depth)
        judge = AlphaBeta(mirror, moves=0, threats=0, engine="reference")
        assert reference_value(judge, state, found.move, depth) == score
        end = state
        for move in found.line:
            end = game.play(end, move)
        # the line ends the game, or comes back to a position the rules score as a win
        repeat = game.repetition_outcome(end) if end.key in end.history else None
        repeated = repeat is not None and repeat.winner == state.to_move
        if WIN - score <= found.depth:
            assert len(found.line) == WIN - score and (game.outcome(end) is not None or repeated)
        else:
            assert len(found.line) == found.depth


def mates_in_two(game: Game, kernel: Kernel, wanted: int, seed: int) -> list[tuple[State, int]]:
    """Positions of seeded random games where the side to move mates in two (``WIN - 3``
    at depth 3): looked for two plies before each position where a mate in one is
    (found at depth 1), up to ``wanted`` of them."""
    rng = random.Random(seed)
    found: list[tuple[State, int]] = []
    searcher = Searcher(kernel, tt_bytes=1 << 20)
    for _ in range(200):
        line = [game.initial_state()]
        for _ply in range(300):
            state = line[-1]
            moves = game.legal_moves(state)
            if not moves or game.outcome(state) is not None:
                break
            if len(line) >= 3 and searcher.search(state, depth=1)[0].score == WIN - 1:
                earlier = line[-3]
                result, _ = searcher.search(earlier, depth=3)
                if result.score == WIN - 3 and all(earlier != f for f, _ in found):
                    found.append((earlier, int(result.score)))
                    if len(found) >= wanted:
                        return found
            line.append(game.play(state, rng.choice(moves)))
    return found


@pytest.mark.parametrize("game_id", [gid for gid in KERNEL_GAMES if get_game(gid).family == "chess"])
def test_chess_mate_in_two(game_id: str) -> None:
    """In every chess-like game on the kernel, mates in two met in seeded random games:
    score ``WIN - 3`` on both engines, and the kernel's line mates."""
    game = get_game(game_id)
    kernel = kernel_for(game)
    assert kernel is not None
    mates = mates_in_two(game, kernel, 1, seed=11)
    assert mates, f"{game_id}: no mate in two met in 200 random games"
    for state, score in mates:
        reference = AlphaBeta(KernelKnowledge(game, kernel), moves=0, engine="reference")
        assert reference.analyse(state, Limits(depth=3)).info["score"] == score


def test_extra_turns_keep_the_movers_view() -> None:
    """A game where a side moves again (Kalah's extra turn), if one is on the kernel:
    the kernel scores every child from the side that moves there, as the reference does
    (compared in the tests above); here, that such a game is among them once merged."""
    extra = [gid for gid in KERNEL_GAMES if get_game(gid).family == "mancala"]
    for game_id in extra:
        game = get_game(game_id)
        kernel = kernel_for(game)
        assert kernel is not None
        state = game.initial_state()
        found = best_move(kernel, state, depth=4)
        reference = AlphaBeta(KernelKnowledge(game, kernel), moves=0, engine="reference")
        assert found.score == reference.analyse(state, Limits(depth=4)).info["score"]


def test_time_limit_and_table_reuse() -> None:
    """A clock stops the kernel's search (it answers with the deepest finished iteration's
    move), and a searcher kept between moves answers the same as a fresh one at a fixed
    depth."""
    game = get_game("connect4")
    kernel = kernel_for(game)
    assert kernel is not None
    state = game.initial_state()
    timed, done = Searcher(kernel).search(state, seconds=0.2)
    assert not done and timed.depth >= 1 and timed.move in game.legal_moves(state)
    kept = Searcher(kernel)
    first, _ = kept.search(state, depth=6)
    again, _ = kept.search(state, depth=6)
    assert again.score == first.score == Searcher(kernel).search(state, depth=6)[0].score


def test_kernel_table_within_hash() -> None:
    """A bot on the kernel keeps its table within its ``hash=`` megabytes and ``tt=``
    entries, in every game it runs on the kernel."""
    from myriad.core.caches import MB
    on_kernel = 0
    for game_id in KERNEL_GAMES:
        game = get_game(game_id)
        tiny = make_bot("alphabeta:hash=0.0625,threats=0", game)
        capped = make_bot("alphabeta:tt=100,threats=0", game)
        assert isinstance(tiny, AlphaBeta) and isinstance(capped, AlphaBeta)
        if tiny.kernel is None or capped.kernel is None:
            continue
        on_kernel += 1
        assert tiny.kernel.searcher.work.tt.nbytes <= 0.0625 * MB
        assert len(capped.kernel.searcher.work.tt) <= 100
        state = positions(game, 1, seed=2)[0]
        assert tiny.choose(state, Limits(nodes=3000)).move in game.legal_moves(state)
    assert on_kernel >= 3


@pytest.mark.parametrize("game_id", KERNEL_GAMES)
def test_node_batches_equal_the_per_move_hooks(game_id: str) -> None:
    """What the search works out for a node's moves at once equals the per-move hooks, on
    seeded positions: ``order_moves`` is ``order`` of each move; ``move_hashes`` is the
    search's ``move_hash`` of each, equal for two moves exactly when they are the same
    reference move (across positions too: killers and history are keyed by it);
    ``noisy_moves`` lists the legal moves ``noisy`` says are, in ``gen``'s order, where
    the family keeps the default list (chess generates only those that capture or
    promote), and ``noisy_among`` takes the same list as ``noisy_moves`` from the
    generated moves (-1 where it cannot)."""
    from myriad.kernel.search import make_work, move_hash
    game = get_game(game_id)
    kernel = kernel_for(game)
    assert kernel is not None
    t = kernel.tables
    w = make_work(t, 1 << 12)
    own_noisy = int(t.params[P_FAMILY]) in rules.OWN_NOISY_MOVES
    hashes: dict[Move, int] = {}
    checked_noisy = 0
    states = positions(game, 8, seed=34)
    for state in states:
        s, moves, n = kernel.move_rows(state)
        hist = kernel.history(state)
        values = np.zeros(n)
        rules.order_moves(t, s, moves, n, values)
        assert values.tolist() == [float(rules.order(t, s, moves[i])) for i in range(n)]
        found = np.zeros(n, np.int64)
        rules.move_hashes(t, s, moves, n, w.acts, found)
        for i in range(n):
            assert found[i] == move_hash(t, w, s, moves[i]) != 0
            move = kernel.to_move(s, moves[i])
            assert hashes.setdefault(move, int(found[i])) == found[i], (game_id, str(move))
        # (a move as the search tells it apart: its id, word 0, and its reference move;
        # families leave a row's unused words unwritten)
        expected = [(int(moves[i, 0]), kernel.to_move(s, moves[i])) for i in range(n) if rules.noisy(t, s, moves[i])]
        listed = kernel.move_buffer()
        count = int(rules.noisy_moves(t, s, hist, len(hist), listed))
        noisy_list = [(int(listed[i, 0]), kernel.to_move(s, listed[i])) for i in range(count)]
        among = moves.copy()
        kept = int(rules.noisy_among(t, s, among, n))
        if kept >= 0:
            assert [(int(among[i, 0]), kernel.to_move(s, among[i])) for i in range(kept)] == noisy_list, \
                (game_id, game.format_position(state))
        if own_noisy:
            checked_noisy += count
            continue
        assert kept >= 0
        assert noisy_list == expected, (game_id, game.format_position(state))
        checked_noisy += len(expected)
    assert len(set(hashes.values())) == len(hashes)  # different moves, different hashes
    assert checked_noisy > 0 or not any(game.noisy_moves(state) for state in states)


def test_a_full_kernel_buffer_hands_the_move_to_the_reference() -> None:
    """The kernel never passes a full move buffer silently (it raises
    ``MoveBufferFull``: a fox with many capture routes in fox and geese did); the bot
    then searches that move on the reference, within the same limits, and answers a legal
    move.  Any other error is not taken for it."""
    game = get_game("foxgeese17")
    bot = make_bot("alphabeta:depth=2", game)
    assert isinstance(bot, AlphaBeta) and bot.kernel is not None
    state = game.initial_state()

    def full(*_args: object) -> None:
        raise MoveBufferFull("hunt: more capture routes than the move buffer holds")

    bot.kernel.choose = full  # type: ignore[method-assign]
    decision = bot.choose(state)
    assert decision.move in game.legal_moves(state)
    assert decision.info.get("engine") != "kernel" and decision.info["depth"] == 2

    def broken(*_args: object) -> None:
        raise IndexError("a bug, not a full buffer")

    bot.kernel.choose = broken  # type: ignore[method-assign]
    with pytest.raises(IndexError, match="a bug"):
        bot.choose(state)


def test_the_compiled_rules_raise_move_buffer_full() -> None:
    """Compiled code raises ``MoveBufferFull`` itself: a fox's capture route with no room
    left in the move buffer."""
    game = get_game("foxgeese")
    k = kernel_for(game)
    assert k is not None
    rng = random.Random(2)
    state = game.initial_state()
    while not (state.to_move == 0 and any(len(m) > 1 for m in game.legal_moves(state))):
        moves = game.legal_moves(state)
        state = game.play(state, rng.choice(moves)) if moves else game.initial_state()
    hist = k.history(state)
    no_room = np.empty((0, k.move_buffer().shape[1]), np.int64)
    with pytest.raises(MoveBufferFull, match="capture routes"):
        rules.gen(k.tables, k.pack(state), hist, len(hist), no_room)


def test_a_full_kernel_buffer_hands_the_mcts_move_to_the_reference() -> None:
    """The same for MCTS: a kernel search that fills a move buffer leaves that move to the
    reference tree search."""
    game = get_game("foxgeese17")
    bot = make_bot("mcts:playouts=40", game)
    assert getattr(bot, "kernel", None) is not None
    state = game.initial_state()

    def full(*_args: object) -> None:
        raise MoveBufferFull("hunt: more capture routes than the move buffer holds")

    bot._choose_kernel = full  # type: ignore[attr-defined]
    decision = bot.choose(state)
    assert decision.move in game.legal_moves(state) and decision.info["nodes"] == 40

    def broken(*_args: object) -> None:
        raise IndexError("a bug, not a full buffer")

    bot._choose_kernel = broken  # type: ignore[attr-defined]
    with pytest.raises(IndexError, match="a bug"):
        bot.choose(state)


def test_a_bot_loads_the_compiled_search_before_its_first_move() -> None:
    """Making a kernel alphabeta bot loads (once after an install: compiles) the compiled
    search, so the first move's clock does not pay for it; a fresh process shows it."""
    code = ("from myriad.ai import make_bot\n"
            "from myriad.games import get_game\n"
            "from myriad.kernel.search import search\n"
            "before = len(search.signatures)\n"
            "make_bot('alphabeta:depth=1', get_game('chess'))\n"
            "print(before, len(search.signatures))\n")
    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=1800)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "1"]


def test_merge_ranks_is_numpys_stable_argsort() -> None:
    """The search's allocation-free sort of many moves orders as ``np.argsort(kind=
    "mergesort")``: ascending, ties in index order, whatever the count (runs that do and
    do not fill a power of two, minus infinity for the table's move); and the ranks left
    after the first, in their index order (a node's moves sorted lazily), as numpy orders them."""
    from myriad.kernel.search import merge_ranks
    rng = np.random.default_rng(3)
    for n in (0, 1, 2, 3, 5, 25, 31, 32, 33, 64, 100, 300):
        for _ in range(10):
            vals = rng.integers(0, 5, 400) * rng.choice([1.0, 1e6]) + rng.choice([0.0, 0.5], 400)
            vals[rng.integers(0, 400, 3)] = -np.inf
            ranks, spare = np.arange(400, dtype=np.int64), np.zeros(400, np.int64)
            merge_ranks(vals, ranks, spare, n)
            expected = np.argsort(vals[:n], kind="mergesort").tolist()
            assert ranks[:n].tolist() == expected, n
            if n > 1:
                rest = np.array([i for i in range(n) if i != expected[0]], np.int64)
                merge_ranks(vals, rest, spare, n - 1)
                assert rest.tolist() == expected[1:], n
