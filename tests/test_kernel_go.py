"""The Go family on the kernel (``myriad.kernel.families.go``) against the reference
``Go`` game, and the kernel's MCTS (``myriad.kernel.mcts``) behind the ``mcts`` bot."""
from __future__ import annotations

import random

import numpy as np
import pytest

from myriad.ai import make_bot
from myriad.ai.alphabeta import AlphaBeta
from myriad.ai.bot import BotSpecError, Limits
from myriad.ai.mcts import MCTS, same_candidates
from myriad.core.game import Game, perft
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.games.go import Go
from myriad.kernel import mcts as kmcts
from myriad.kernel import rules
from myriad.kernel.engine import Kernel
from myriad.kernel.layout import P_MAX_MOVES
from myriad.kernel.registry import kernel_for
from myriad.kernel.search import Searcher


def kernel(game: Game) -> Kernel:
    found = kernel_for(game)
    assert found is not None, f"{game.id} has no kernel"
    return found


def winners_bits(game: Game, state: State) -> int:
    """The reference outcome as the kernel's winners' bits (-1 while the game goes on)."""
    outcome = game.outcome(state)
    if outcome is None:
        return -1
    best = max(outcome.scores)
    return sum(1 << p for p, score in enumerate(outcome.scores) if score == best)


def agree(game: Game, k: Kernel, state: State, rng: random.Random, plays: int = 3) -> None:
    """Both engines agree on ``state``: legal moves, outcome, evaluation, each move's
    heuristic and noise, and the states after a few moves (every field, key and history)."""
    ref = game.legal_moves(state)
    mine = k.legal_moves(state)
    assert len(mine) == len(ref) and set(mine) == set(ref), game.format_position(state)
    assert k.winners(state) == winners_bits(game, state)
    assert k.evaluate(state) == pytest.approx(game.evaluate(state), abs=1e-9)
    s, rows, count = k.move_rows(state)
    for i in range(count):
        move = k.to_move(s, rows[i])
        assert float(rules.order(k.tables, s, rows[i])) == pytest.approx(game.move_heuristic(state, move), abs=1e-9)
        assert bool(rules.noisy(k.tables, s, rows[i])) == game.is_noisy(state, move)
    for move in rng.sample(ref, min(plays, len(ref))):
        a, b = game.play(state, move), k.play(state, move)
        assert (a.cells, a.to_move, a.flags, a.counters, a.hands, a.key, a.history) == \
            (b.cells, b.to_move, b.flags, b.counters, b.hands, b.key, b.history)
        assert b.key == game.recomputed_key(b)


def test_a_capture_of_the_whole_board() -> None:
    """One stone taking 359 on 19x19 (met in a random game): the kernel lists the move's
    360 actions as the reference does (more than a draughts capture's), plays it, and its
    search of the position and of the one before answers as the reference's does."""
    game = get_game("go19")
    k = kernel(game)
    rows = ["X" * 19] * 19
    rows[16], rows[17] = "X" * 12 + "O" + "X" * 6, "X" * 12 + "1" + "X" * 6
    state = game.parse_position("/".join(rows) + " w 0 0 0 500")
    ref = game.legal_moves(state)
    take = game.parse_move(state, "N2")
    assert take in ref and len(take) == 360
    agree(game, k, state, random.Random(1))
    assert set(k.legal_moves(state)) == set(ref)
    for position in (state, game.play(state, take)):
        mine = make_bot("alphabeta:threats=0,moves=0", game)
        theirs = make_bot("alphabeta:threats=0,moves=0,engine=reference", game)
        assert isinstance(mine, AlphaBeta) and mine.kernel is not None
        a, b = mine.analyse(position, Limits(depth=2)), theirs.analyse(position, Limits(depth=2))
        assert (a.move, a.info["score"], a.info["nodes"]) == (b.move, b.info["score"], b.info["nodes"])


@pytest.mark.parametrize("game_id,setup,plies", [("go9", "start", 150), ("atarigo", "start", 80),
                                                 ("go9", "handicap4", 40), ("go13", "start", 30)])
def test_random_games_agree(game_id: str, setup: str, plies: int) -> None:
    """Random games (passes rarer, so that boards fill and chains are taken): both engines
    agree at every ply, until the game ends."""
    game = get_game(game_id)
    k = kernel(game)
    rng = random.Random(21)
    state = game.initial_state(setup)
    captures = 0
    for _ in range(plies):
        agree(game, k, state, rng)
        moves = game.legal_moves(state)
        if not moves:
            break
        placements = [m for m in moves if m] or moves
        move = rng.choice(placements if rng.random() < 0.97 else moves)
        captures += len(move) > 1
        state = game.play(state, move)
    agree(game, k, state, rng)
    if plies >= 80:
        assert captures > 0  # the long games took stones: captures were compared


def test_two_passes_score_as_the_reference() -> None:
    """Two passes end the game; the kernel's winners are the area score's, with a draw
    (jigo) under an integer komi and White's win under a half point."""
    rng = random.Random(3)
    for komi, bits in ((0.0, 3), (0.5, 2), (6.0, None)):
        game = Go(5, komi)
        k = kernel(game)
        state = game.initial_state()
        for _ in range(10 if komi == 6.0 else 0):
            state = game.play(state, rng.choice([m for m in game.legal_moves(state) if m]))
        for _ in range(2):
            assert k.winners(state) == -1
            state = k.play(state, game.legal_moves(state)[0])  # pass
        assert game.outcome(state) is not None
        assert k.winners(state) == winners_bits(game, state)
        if bits is not None:
            assert k.winners(state) == bits
        assert k.legal_moves(state) == []


def test_superko_forbids_retaking_the_ko() -> None:
    """Black takes the ko; White's retake would recreate the board before: legal in the
    position read from text (no history), forbidden after the capture (history), whether
    the history holds board keys (as ``Go.play`` keeps it) or state keys."""
    game = Go(5, 0.5)
    k = kernel(game)
    before = game.parse_position("5/1XO2/XO1O1/1XO2/5 b 0 0 0 0")
    take = game.parse_move(before, "C3")
    assert len(take) == 2  # the drop and B3's capture
    after = k.play(before, take)
    assert after == game.play(before, take) and after.history == game.play(before, take).history
    retake = "B3"
    assert retake not in {game.format_move(after, m) for m in k.legal_moves(after)}
    assert retake not in {game.format_move(after, m) for m in game.legal_moves(after)}
    fresh = game.parse_position(game.format_position(after))
    assert retake in {game.format_move(fresh, m) for m in k.legal_moves(fresh)}
    # the same history as state keys: still forbidden
    s = k.pack(after)
    hist = np.array([before.key - (1 << 64) if before.key >> 63 else before.key], np.int64)
    moves = k.move_buffer()
    count = rules.gen(k.tables, s, hist, 1, moves)
    assert game.topology.names.index(retake) not in moves[:count, 0].tolist()
    assert count == len(game.legal_moves(after))


@pytest.mark.parametrize("game,text,depth", [
    (Go(5, 0.5), None, 3),
    (get_game("atarigo"), "9/9/9/2XO5/2OX5/9/9/9/9 b 0 0 0 4", 2),
    (Go(5, 0.5), "5/1XO2/XO1O1/1XO2/5 b 0 0 0 0", 3)])
def test_perft_matches_the_reference(game: Go, text: str | None, depth: int) -> None:
    """Kernel perft (one compiled call) equals the reference's."""
    k = kernel(game)
    state = game.parse_position(text) if text else game.initial_state()
    assert k.perft(state, depth) == perft(game, state, depth)


def test_playout_policy_keeps_own_eyes_and_takes() -> None:
    """The playout policy (weights[1]) takes a chain in atari, and never fills its own
    true eye while another move is left."""
    game = get_game("go9")
    k = kernel(game)
    capture = game.parse_position("9/9/9/1XXX5/XOOOX4/1XX6/9/9/9 b 0 0 0 10")
    s, rows, count = k.move_rows(capture)
    np.random.seed(1)
    picked = {game.format_move(capture, k.to_move(s, rows[rules.playout_move(k.tables, s, rows, count)]))
              for _ in range(20)}
    assert picked == {"D4"}
    eye = game.parse_position("X1X6/XXX6/9/9/9/9/9/9/9 b 0 0 0 10")
    s, rows, count = k.move_rows(eye)
    picked = {game.format_move(eye, k.to_move(s, rows[rules.playout_move(k.tables, s, rows, count)]))
              for _ in range(200)}
    assert "B9" not in picked and "pass" not in picked and len(picked) > 20


@pytest.mark.parametrize("game_id,text,best", [
    # White's five stones on row 6 have one liberty, E5: E5 takes them; E4 and F5 kill them
    # too (White's E5 would then have one liberty); White's nine on row 3 balance the board
    ("go9", "9/9/XXXXXX3/OOOOOX3/XXXX5/9/OOOOOOOOO/9/9 b 0 0 0 20", {"E5", "E4", "F5"}),
    ("atarigo", "9/9/9/9/3XOX3/3OX4/9/9/9 b 0 0 0 5", {"E6"})])
def test_kernel_mcts_takes_the_chain(game_id: str, text: str, best: set[str]) -> None:
    """A few hundred kernel iterations find the capture (in Atari Go it wins at once)."""
    game = get_game(game_id)
    state = game.parse_position(text)
    for seed in range(3):
        bot = MCTS(game, playouts=400, seed=seed, engine="kernel")
        decision = bot.choose(state)
        assert decision.info["engine"] == "kernel" and decision.info["nodes"] == 400
        assert game.format_move(state, decision.move) in best


def test_search_backs_up_by_the_player_who_moved() -> None:
    """Iteration budget honoured; the root's chosen child is scored for the side to move
    (a sure capture scores near 1 for Black, and for White in the mirrored position)."""
    game = get_game("atarigo")
    for text in ("9/9/9/9/3XOX3/3OX4/9/9/9 b 0 0 0 5", "9/9/9/9/3OXO3/3XO4/9/9/9 w 0 0 0 5"):
        state = game.parse_position(text)
        k = kernel(game)
        pv = np.empty((8, 1), np.int64)
        stats = np.zeros(kmcts.STATS)
        hist = k.history(state)
        length = kmcts.search(k.tables, k.pack(state), hist, len(hist), 300, 0.0, 1.4, 10**6, 0.0, 7,
                              kmcts.new_tree(20000, 1), pv, stats, 0.0)
        assert length >= 1 and stats[kmcts.ST_ITERATIONS] == 300
        assert stats[kmcts.ST_WINS] / stats[kmcts.ST_VISITS] > 0.9


def test_mcts_engines_play_legal_moves_in_every_kernel_game() -> None:
    """For every registered game with a kernel, the mcts bot on each engine plays legal
    moves (from the start and after a few random plies), and by default runs on the kernel
    where the kernel searches the game's candidate moves; engine=kernel is refused where
    there is no kernel."""
    rng = random.Random(8)
    on_kernel = 0
    refused = 0
    for game_id in game_ids():
        game = get_game(game_id)
        if kernel_for(game) is None:
            if not game.chance and not game.hidden_information and game.players == 2 and refused < 2:
                with pytest.raises(BotSpecError, match="no kernel"):
                    MCTS(game, engine="kernel")
                refused += 1
            continue
        on_kernel += 1
        default = MCTS(game, playouts=5, seed=1)
        assert (default.kernel is not None) == same_candidates(kernel(game), game)
        for engine in ("kernel", "reference"):
            bot = MCTS(game, playouts=30, seed=1, engine=engine)
            state = game.initial_state()
            for _ in range(4):
                moves = game.legal_moves(state)
                if not moves or game.outcome(state) is not None:
                    break
                decision = bot.choose(state)
                assert decision.move in moves, (game_id, engine)
                assert ("engine" in decision.info) == (engine == "kernel")
                state = game.play(state, rng.choice(moves))
    assert on_kernel >= 4  # Go's four games at least
    assert refused > 0


def test_kernel_tree_stays_within_the_hash() -> None:
    """The kernel's tree is sized from ``hash`` (64 MB by default): its arrays fit the
    budget, and a search that fills them still plays a legal move."""
    game = get_game("go9")
    bot = MCTS(game, playouts=2000, seed=1, hash=0.0625, engine="kernel")
    state = game.initial_state()
    decision = bot.choose(state)
    tree = bot.tree
    assert isinstance(tree, kmcts.Tree)
    assert sum(array.nbytes for array in tree) <= 0.0625 * 2**20
    assert bot.kernel is not None
    assert tree.first.shape[0] > int(bot.kernel.tables.params[P_MAX_MOVES])  # a root's children fit
    assert decision.move in game.legal_moves(state) and decision.info["nodes"] == 2000


def ladder_cases(game: Go, games: int, seed: int) -> list[tuple[State, int]]:
    """(position, a stone of a chain with one or two liberties) along seeded games played
    by the reference's candidate moves (tactical enough for ladders to arise)."""
    rng = random.Random(seed)
    found: list[tuple[State, int]] = []
    for _ in range(games):
        state = game.initial_state()
        while game.outcome(state) is None:
            groups = game.chains(state.cells)
            found += [(state, stones[0]) for stones, libs in zip(groups.stones, groups.liberties) if len(libs) <= 2]
            legal = game.legal_moves(state)
            state = game.play(state, rng.choice(game.candidate_moves(state, legal) if rng.random() < 0.7 else legal))
    return found


def test_kernel_ladder_reads_as_the_reference() -> None:
    """The kernel's ladder reading (``go.ladder``) answers as ``Surround.ladder`` for
    every chain with one or two liberties along seeded Atari Go games, with the game's
    budget and with budgets small enough to run out (the positions are counted alike);
    both answers (a ladder and none) occur."""
    from myriad.kernel.families import go as kgo
    game = get_game("atarigo")
    assert isinstance(game, Go)
    k = kernel(game)
    taken = escapes = 0
    for state, pos in ladder_cases(game, 6, seed=3):
        board = np.array(state.cells, np.int64)
        for budget in (game.weights.ladder_budget, 2, 5, 12):
            expected = game.surround.ladder(state.cells, pos, budget)
            found = int(kgo.ladder(k.tables, board, pos, budget))
            assert found == (-1 if expected is None else expected), (game.format_position(state), pos, budget)
            assert list(board) == list(state.cells)  # (read on copies)
        if game.surround.ladder(state.cells, pos, game.weights.ladder_budget) is None:
            escapes += 1
        else:
            taken += 1
    assert taken > 0 and escapes > 0


def test_atari_go_candidates_read_the_ladder() -> None:
    """Atari Go's candidates on both engines: Black's J9 (two liberties, on the edge) is
    taken by a ladder along the first line, so White's only candidate is the atari J8;
    along seeded games the kernel's candidates are the reference's (as sets); a finished
    game has none."""
    game = get_game("atarigo")
    assert isinstance(game, Go)
    k = kernel(game)
    state = game.initial_state()
    for text in ("J9", "J5", "G3"):
        state = game.play(state, game.parse_move(state, text))
    ref = game.candidate_moves(state, game.legal_moves(state))
    assert [game.format_move(state, m) for m in ref] == ["J8"]
    over = game.parse_position("9/9/9/9/9/9/9/9/9 w 1 0 0 9")  # (Black has captured: no candidates)
    s, rows, count = k.move_rows(over)
    assert count == 0 and int(rules.candidates(k.tables, s, rows, count)) == 0
    assert game.candidate_moves(over, game.legal_moves(over)) == []
    positions = [state] + [s for s, _ in ladder_cases(game, 4, seed=11)]
    for position in positions:
        expected = set(game.candidate_moves(position, game.legal_moves(position)))
        s, rows, count = k.move_rows(position)
        n = int(rules.candidates(k.tables, s, rows, count))
        assert {k.to_move(s, rows[i]) for i in range(n)} == expected, game.format_position(position)


def test_mcts_knowledge_is_the_games_data() -> None:
    """The kernel's playout policy and MCTS defaults are read from each game's
    ``GoWeights``: Go's and Atari Go's differ where their weights do (Atari Go's playouts
    prefer ataris), and a changed weight reaches the tables."""
    from dataclasses import replace

    from myriad.kernel.families import go as kgo
    for game_id, policy, prefix in (("go9", "playout", "mcts"), ("atarigo", "atari_playout", "atari_mcts")):
        game = get_game(game_id)
        assert isinstance(game, Go)
        w = game.weights
        row = kernel(game).tables.weights[1]
        assert tuple(row[:kgo.PO_ATARI + 1]) == getattr(w, policy)
        assert kgo.mcts_defaults(game) == {"cutoff": getattr(w, f"{prefix}_cutoff"),
                                           "rave": getattr(w, f"{prefix}_rave"), "c": getattr(w, f"{prefix}_c")}
    assert get_game("atarigo").weights.atari_playout[kgo.PO_ATARI] > get_game("go9").weights.playout[kgo.PO_ATARI]
    changed = Go(9, 0.0, first_capture=True)
    changed.weights = replace(changed.weights, atari_playout=(5.0, 4.0, -3.0, -2.0, -1.0, 0.25), atari_mcts_rave=7.0)
    tables = kgo.tables(changed)
    assert tables is not None and tuple(tables.weights[1, :6]) == (5.0, 4.0, -3.0, -2.0, -1.0, 0.25)
    assert kgo.mcts_defaults(changed)["rave"] == 7.0


def atari_position(game: Go, black: list[str], white: list[str], side: str) -> State:
    """An Atari Go position with ``black`` and ``white`` stones (GTP points)."""
    cells = [0] * game.topology.size
    for points, stone in ((black, game.stones[0]), (white, game.stones[1])):
        for point in points:
            cells[game.topology.names.index(point)] = stone
    state = game.make_state(cells, 0 if side == "b" else 1, (), (0, len(black) + len(white), 0, 0))
    return game.parse_position(game.format_position(state))


def test_atari_go_quiescence_reads_the_ladder() -> None:
    """Atari Go's quiescence reads ladders past the search's depth, on both engines:
    Black's J9 has two liberties on the edge and White's J8 starts a ladder along the first
    line (eight ataris, past the one ply searched), scored as a win (``atari_win``);
    with a ladder breaker (Black's D8) the chain runs out and the score is far below.
    Without quiescence the ladder is not read at one ply.  The kernel gives the
    reference's move, score and node count."""
    game = get_game("atarigo")
    assert isinstance(game, Go)
    k = kernel(game)
    win = game.weights.atari_win
    assert game.quiescence_depth == game.weights.atari_qdepth >= 16
    ladder = atari_position(game, ["J9", "G3", "C2"], ["J5"], "w")
    broken = atari_position(game, ["J9", "G3", "D8"], ["J5"], "w")
    j9 = game.topology.names.index("J9")
    assert game.surround.ladder(ladder.cells, j9, 300) is not None
    assert game.surround.ladder(broken.cells, j9, 300) is None
    scores = {}
    for name, state in (("ladder", ladder), ("broken", broken)):
        for qdepth in (game.quiescence_depth, 0):
            reference = AlphaBeta(game, algo="pvs", moves=0, threats=0, engine="reference", qdepth=qdepth)
            expected = reference.analyse(state, Limits(depth=1))
            found, done = Searcher(k, quiescence=qdepth).search(state, depth=1)
            assert done and (found.move, found.score, found.nodes) == \
                (expected.move, expected.info["score"], reference.nodes), (name, qdepth)
            scores[name, qdepth] = expected.info["score"]
    assert scores["ladder", game.quiescence_depth] >= win
    assert scores["broken", game.quiescence_depth] < win / 2
    assert scores["ladder", 0] < win / 2


def test_atari_go_tactical_hooks() -> None:
    """Atari Go's noisy moves are the ataris that leave the new chain two liberties, or
    the one extension saving an own chain in atari; quiescence may not stand pat on an
    own chain in atari; a chain whose extension stays in atari is lost (``-atari_win``),
    an enemy chain in atari won.  Go keeps captures as its noisy moves and always stands
    pat.  Both engines agree."""
    game = get_game("atarigo")
    assert isinstance(game, Go)
    k = kernel(game)
    w = game.weights

    def hooks(g: Go, kk: Kernel, state: State) -> tuple[list[str], bool]:
        noisy = g.noisy_moves(state)
        s, rows, _count = kk.move_rows(state)
        hist = kk.history(state)
        n = int(rules.noisy_moves(kk.tables, s, hist, len(hist), rows))
        assert [kk.to_move(s, rows[i]) for i in range(n)] == noisy
        assert bool(rules.stand_pat(kk.tables, s)) == g.may_stand_pat(state)
        assert kk.evaluate(state) == pytest.approx(g.evaluate(state), abs=1e-9)
        return sorted(g.format_move(state, m) for m in noisy), g.may_stand_pat(state)

    # White's D5-E5 has two liberties (E6, F5): both are ataris, and nothing else is noisy
    quiet = atari_position(game, ["D4", "E4", "C5", "D6"], ["E5", "D5"], "b")
    assert hooks(game, k, quiet) == (["E6", "F5"], True)
    # Black's D4 in atari at D5, which saves it (three liberties): the one noisy move, no standing pat
    saving = atari_position(game, ["D4"], ["C4", "D3", "E4"], "b")
    assert hooks(game, k, saving) == (["D5"], False)
    # Black's A1 in atari at B1, whose extension stays in atari: lost, nothing to read
    lost = atari_position(game, ["A1", "E5"], ["A2", "B2", "C1"], "b")
    assert hooks(game, k, lost) == ([], False)
    assert game.evaluate(lost) == -w.atari_win
    # White to move there: Black's A1 is in atari, White takes it and wins
    won = atari_position(game, ["A1", "E5"], ["A2", "B2", "C1"], "w")
    assert hooks(game, k, won) == ([], True)
    assert game.evaluate(won) == w.atari_win
    go9 = get_game("go9")
    assert isinstance(go9, Go)
    position = go9.parse_position(game.format_position(saving).replace(" b ", " w "))
    assert go9.quiescence_depth == 8
    assert hooks(go9, kernel(go9), position) == (["D5"], True)  # (White's capture of D4)
