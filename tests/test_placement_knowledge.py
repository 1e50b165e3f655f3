"""Bot knowledge of the placement games: line windows (tic-tac-toe, Connect Four, gomoku)
and Othello's evaluation, checked against walked oracles and on positions with one right
answer.

    python -m pytest -q tests/test_placement_knowledge.py
    python -m pytest -q tests/test_placement_knowledge.py -m slow   # bot-versus-bot games
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from myriad.ai import make_bot
from myriad.ai.bot import Limits
from myriad.arena.match import run_match
from myriad.core.game import Game
from myriad.core.mechanics.line_tally import LineIndex
from myriad.core.mechanics.placement import GravityDrops, LineWindows, cell_bits
from myriad.core.state import State
from myriad.core.topology import square_board
from myriad.games.inarow import InARow, connect_four, gomoku, tictactoe
from myriad.games.othello import othello


def random_states(game: Game, count: int, seed: int, max_plies: int = 60) -> list[State]:
    """Non-final states met along random games."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(1, max_plies)):
            moves = game.legal_moves(state)
            if not moves or game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(moves))
        if game.outcome(state) is None:
            found.append(state)
    return found


def stones_of(game: InARow, state: State) -> tuple[int, int]:
    return (cell_bits(state.cells, game.stone_bits[0]), cell_bits(state.cells, game.stone_bits[1]))


def swapped(game: Game, state: State) -> State:
    """The same position with the colours and the side to move exchanged."""
    codes = game.stones if isinstance(game, InARow) else game.discs  # type: ignore[attr-defined]
    exchange = {codes[0]: codes[1], codes[1]: codes[0], 0: 0}
    return game.make_state([exchange[c] for c in state.cells], 1 - state.to_move, state.flags,
                           state.counters)


def best_move(game: Game, spec: str, text: str, seconds: float | None = None) -> str:
    state = game.parse_position(text)
    bot = make_bot(spec, game)
    decision = bot.choose(state, Limits.of(seconds) if seconds else Limits())
    return game.format_move(state, decision.move)


# -- line windows -----------------------------------------------------------------------------

@pytest.mark.parametrize("factory", [tictactoe, connect_four, gomoku])
def test_window_scan_matches_walking_every_window(factory: object) -> None:
    game = factory()  # type: ignore[operator]
    windows = game.windows
    assert windows.axes is not None  # square boards: the bit-set scan is the one used
    for state in random_states(game, 40, seed=3):
        stones = stones_of(game, state)
        assert windows.scan(stones) == windows.scan_walked(stones)
        assert windows.reach(stones) == windows.reach_walked(stones)


@pytest.mark.parametrize("factory", [tictactoe, connect_four, gomoku])
def test_line_tally_added_stone_by_stone_matches_the_walked_scan(factory: object) -> None:
    """A tally updated one stone at a time answers what walking every window answers, and
    what a tally of the finished board answers."""
    game = factory()  # type: ignore[operator]
    index = game.line_index
    assert index is not None and index.exact
    rng = random.Random(17)
    for _ in range(25):
        state, tally = game.initial_state(), index.tally((0, 0))
        for _ in range(rng.randrange(0, 50)):
            moves = game.legal_moves(state)
            if not moves:
                break
            move = rng.choice(moves)
            tally = tally.add(move[0][2], state.to_move)
            state = game.play(state, move)
        stones = stones_of(game, state)
        assert tally.stones == stones
        assert tally.scan() == game.windows.scan_walked(stones)
        assert tally.reach(index.lowest) == game.windows.reach_walked(stones, index.lowest)
        assert index.tally(stones).scan() == tally.scan()


def test_line_tally_needs_the_lines_to_hold_every_window() -> None:
    """On a board whose lines are cut by a hole the tally still matches; it refuses to
    report windows it does not track."""
    topology = square_board(6, 6, keep=lambda c, r: (c, r) != (2, 2))
    windows = LineWindows(topology, 3)
    index = LineIndex(windows, topology, lowest=1)
    assert index.exact
    rng = random.Random(8)
    for _ in range(30):
        cells = [rng.choice((0, 0, 1, 2)) for _ in range(topology.size)]
        stones = (sum(1 << p for p, v in enumerate(cells) if v == 1), sum(1 << p for p, v in enumerate(cells) if v == 2))
        tally = index.tally(stones)
        assert tally.scan() == windows.scan_walked(stones)
        assert tally.reach(1) == windows.reach_walked(stones, 1)
    with pytest.raises(ValueError, match="tracks windows of 1"):
        tally.reach(0)


def test_window_counts_by_hand() -> None:
    game = tictactoe()
    windows = game.windows
    assert len(windows.windows) == 8 and windows.centrality[game.topology.pos("b2")] == 4
    state = game.parse_position("X2/1O1/2X o")       # X on a3 and c1, O in the centre
    scan = windows.scan(stones_of(game, state))
    # X: the top row, left column, bottom row, right column hold one X each and no O.
    assert scan.counts[0][1] == 4 and scan.counts[0][2] == 0
    # O: the middle row and column and the a1-c3 diagonal (a3-c1 holds both colours).
    assert scan.counts[1][1] == 3
    assert scan.threats == (0, 0)
    # X forks on a1 and c3 (each in two windows with one X), O nowhere.
    assert scan.forks[0] == (1 << game.topology.pos("a1")) | (1 << game.topology.pos("c3"))
    assert scan.forks[1] == 0
    threat = windows.scan(stones_of(game, game.parse_position("XX1/1O1/3 o")))
    assert threat.threats[0] == 1 << game.topology.pos("c3")


@pytest.mark.parametrize("factory", [tictactoe, gomoku])
def test_threats_made_by_a_stone(factory: object) -> None:
    """A stone keeps its owner's threats (but its own cell) and adds those of its windows."""
    game = factory()  # type: ignore[operator]
    rng = random.Random(13)
    for state in random_states(game, 30, seed=13):
        me = state.to_move
        pos = rng.choice([p for p, v in enumerate(state.cells) if not v])
        stones = stones_of(game, state)
        before = game.windows.scan(stones).threats[me]
        placed = list(stones)
        placed[me] |= 1 << pos
        after = game.windows.scan(placed).threats[me]
        made = game.windows.threats_made(stones[me], stones[1 - me], pos)
        assert after == (before & ~(1 << pos)) | made


def test_windows_on_a_board_without_translations() -> None:
    """Rows of a board whose numbering is not a shift everywhere are walked."""
    topology = square_board(5, 5, keep=lambda c, r: (c, r) != (2, 2))  # a hole in the middle
    windows = LineWindows(topology, 3)
    assert windows.axes is None
    rng = random.Random(5)
    for _ in range(30):
        cells = [rng.choice((0, 0, 1, 2)) for _ in range(topology.size)]
        stones = (sum(1 << p for p, v in enumerate(cells) if v == 1),
                  sum(1 << p for p, v in enumerate(cells) if v == 2))
        assert windows.scan(stones) == windows.scan_walked(stones)
        assert windows.reach(stones) == windows.reach_walked(stones)
    with pytest.raises(ValueError):
        LineWindows(topology, 1)


def test_vicinity_on_bit_sets_matches_the_table() -> None:
    game = gomoku()
    vicinity = game.vicinity
    assert vicinity is not None and vicinity.steps is not None
    for state in random_states(game, 20, seed=4, max_plies=30):
        stones = [p for p, v in enumerate(state.cells) if v]
        expected = {q for p in stones for q in vicinity.around[p]}
        near = vicinity.near(sum(1 << p for p in stones))
        empty = {p for p in range(game.topology.size) if not state.cells[p]}
        assert {p for p in empty if near >> p & 1} == expected & empty


def test_playable_cells_are_the_legal_moves() -> None:
    for factory in (connect_four, gomoku):
        game = factory()
        for state in random_states(game, 20, seed=6):
            scan = game.scan(state)
            playable = game.playable(scan)
            assert playable == sum(1 << m[0][2] for m in game.legal_moves(state))


def test_gravity_columns_on_bit_sets() -> None:
    game = connect_four()
    drops = game.placement
    assert isinstance(drops, GravityDrops) and drops.up == 7
    pos = game.topology.pos
    cells = (1 << pos("d1")) | (1 << pos("a6"))
    assert drops.lift(cells) == 1 << pos("d2")                       # nothing above a6
    assert drops.above(1 << pos("d3")) == sum(1 << pos(f"d{r}") for r in (4, 5, 6))
    # The walked form (for boards whose columns are not one shift) gives the same sets.
    walked = GravityDrops(game.topology, game.stones)
    walked.up = None
    rng = random.Random(11)
    for _ in range(30):
        bits = rng.getrandbits(game.topology.size)
        assert walked.lift(bits) == drops.lift(bits)
        assert walked.above(bits) == drops.above(bits)
    for state in random_states(game, 20, seed=12):
        occupied = game.full & ~game.scan(state).empty
        assert walked.playable(occupied) == drops.playable(occupied)


def test_connect_four_threats_under_gravity() -> None:
    """A threat above the opponent's threat in the same column comes too late."""
    game = connect_four()
    # O threatens b3 (a3 c3 d3), X threatens b4 right above it (a4 c4 d4); b2 is playable.
    state = game.parse_position("7/7/X1XX3/O1OO3/X1OX3/OXXO3 o")
    scan = game.scan(state)
    pos = game.topology.pos
    assert scan.threats[0] == 1 << pos("b4") and scan.threats[1] == 1 << pos("b3")
    plain = replace(game.weights, threat=0, strong_threat=0, stacked=0)
    drops = game.placement
    assert isinstance(drops, GravityDrops)
    playable = game.playable(scan)
    for me in (0, 1):
        base = plain.evaluate(scan, me, playable, game.strong, drops)
        counted = replace(plain, threat=100).evaluate(scan, me, playable, game.strong, drops)
        assert counted - base == (100 if me == 1 else -100)     # only O's threat counts


def test_completes_says_whether_a_stone_would_win() -> None:
    exact = gomoku(overlines=False)
    state = exact.parse_position("/".join(["OOOO11"] + ["15"] * 6 + ["XXXX1X9"] + ["15"] * 7) + " x")
    e8 = exact.topology.pos("e8")
    assert not exact.goal.completes(state.cells, e8, exact.stones[0])   # six: no win here
    free = gomoku()
    assert free.goal.completes(state.cells, e8, free.stones[0])
    assert not free.goal.completes(state.cells, e8, free.stones[1])


# -- in-a-row evaluation and forced moves -------------------------------------------------------

#: X to move with an open four on g8-j8: f8 or k8 makes five.
OPEN_FOUR = "/".join(["15"] * 7 + ["6XXXX5", "15", "4O2O2O4"] + ["15"] * 5) + " x"
#: O to move; X's four e8-h8 is closed by O on d8: O must take i8.
BLOCK_FOUR = "/".join(["15"] * 5 + ["2O12", "15", "3OXXXX7", "15", "5O3O5"] + ["15"] * 5) + " o"
#: O to move; X has an open three f8-h8 with room on both sides: if O leaves it, X makes an
#: open four.  Only e8 and i8 stop it (after d8, X's i8 still makes f8-i8 open at both ends).
OPEN_THREE = "/".join(["15"] * 5 + ["2O12", "15", "5XXX7", "15", "10O4"] + ["15"] * 5) + " o"


def test_gomoku_forced_moves_are_the_only_candidates() -> None:
    game = gomoku()
    win = game.parse_position(OPEN_FOUR)
    wins = {game.format_move(win, m) for m in game.candidate_moves(win, game.legal_moves(win))}
    assert wins == {"f8", "k8"}
    block = game.parse_position(BLOCK_FOUR)
    blocks = {game.format_move(block, m) for m in game.candidate_moves(block, game.legal_moves(block))}
    assert blocks == {"i8"}
    # With an open three of its own and nothing to answer, X makes an open four (d8 or
    # j8 would make a single threat).
    attack = game.parse_position(OPEN_THREE[:-1] + "x")
    fours = {game.format_move(attack, m) for m in game.candidate_moves(attack, game.legal_moves(attack))}
    assert fours == {"e8", "i8"}
    # Against an open three: the cells of X's windows with two gaps (O has no threat to make).
    three = game.parse_position(OPEN_THREE)
    defences = {game.format_move(three, m) for m in game.candidate_moves(three, game.legal_moves(three))}
    assert defences == {"d8", "e8", "i8", "j8"}
    # Nothing to answer: every cell within two steps of a stone.
    quiet = game.play_text(game.play_text(three, "e8"), "d12")
    assert len(game.candidate_moves(quiet, game.legal_moves(quiet))) > 40


@pytest.mark.parametrize("spec", ["alphabeta:depth=2", "alphabeta:algo=negamax,depth=2", "heuristic:noise=0"])
def test_gomoku_bots_block_a_four(spec: str) -> None:
    assert best_move(gomoku(), spec, BLOCK_FOUR) == "i8"


@pytest.mark.parametrize("spec", ["alphabeta:depth=2", "alphabeta:algo=mtdf,depth=2", "heuristic:noise=0"])
def test_gomoku_bots_stop_an_open_three(spec: str) -> None:
    """After O's move X must not be able to make an open four (two threats at once)."""
    game = gomoku()
    state = game.parse_position(OPEN_THREE)
    move = best_move(game, spec, OPEN_THREE)
    after = game.play_text(state, move)
    assert game.scan(after).forks[0] == 0, move


@pytest.mark.parametrize("spec", ["alphabeta:depth=2", "alphabeta:algo=mtdf,depth=2", "heuristic:noise=0",
                                  "mcts:playouts=50,seed=1"])
def test_gomoku_bots_complete_an_open_four(spec: str) -> None:
    assert best_move(gomoku(), spec, OPEN_FOUR) in {"f8", "k8"}


#: X to move: g8 makes the four d8-g8 (O holds c8, so only h8 completes it) and the open
#: three g6-g8; once O has blocked on h8, X makes an open four in column g.
FOUR_THREE = "O13O/15/15/15/15/15/15/2OXXX9/6X8/6X8/15/15/15/15/O13O x"


def test_gomoku_quiescence_moves() -> None:
    """Quiescence plays the block of a four, the defences against an open three, or the
    mover's fours; it may not stop while a four or an open three waits for an answer."""
    game = gomoku()

    def noisy(text: str) -> set[str]:
        state = game.parse_position(text)
        return {game.format_move(state, m) for m in game.noisy_moves(state)}

    assert noisy(BLOCK_FOUR) == {"i8"} and not game.may_stand_pat(game.parse_position(BLOCK_FOUR))
    assert noisy(OPEN_THREE) == {"d8", "e8", "i8", "j8"}
    assert not game.may_stand_pat(game.parse_position(OPEN_THREE))
    assert noisy(FOUR_THREE) == {"g8", "h8"} and game.may_stand_pat(game.parse_position(FOUR_THREE))
    assert noisy(OPEN_FOUR) == set() and game.may_stand_pat(game.parse_position(OPEN_FOUR))


def test_quiescence_sees_a_four_three_coming() -> None:
    """One ply of search and the threat quiescence find the four-three (the open four after
    the forced block); without quiescence the same ply sees a four that will be blocked."""
    game = gomoku()
    state = game.parse_position(FOUR_THREE)
    found = make_bot("alphabeta:depth=1,threats=0", game).choose(state, Limits())
    blind = make_bot("alphabeta:depth=1,quiescence=0,threats=0", game).choose(state, Limits())
    assert found.info["score"] >= game.weights.fork > blind.info["score"]
    assert game.format_move(state, blind.move) == "g8"  # the four looks best without quiescence too


def test_gomoku_evaluation_sees_the_threats() -> None:
    game = gomoku()
    win = game.parse_position(OPEN_FOUR)
    assert game.evaluate(win) >= game.weights.win_now                 # X completes next move
    assert game.evaluate(swapped(game, win)) == game.evaluate(win)
    lost = game.parse_position(OPEN_FOUR[:-1] + "o")                   # O cannot stop both ends
    assert game.evaluate(lost) <= -game.weights.win_now
    assert abs(game.evaluate(win)) < 100_000


def test_two_open_threes_cannot_both_be_stopped() -> None:
    game = gomoku()
    corners = ["O6O6O"] + ["15"] * 6
    one = game.parse_position("/".join(corners[:1] + ["X13X"] + corners[2:] + ["5XXX7"] + ["15"] * 6 + ["O13O"]) + " o")
    two = game.parse_position("/".join(corners + ["5XXX7", "15", "15", "11X3", "11X3", "11X3", "15", "O13O"]) + " o")
    assert game.scan(one).fork_lines == (1, 0) and game.scan(two).fork_lines == (2, 0)
    names = {game.square_name(p) for p in range(game.topology.size) if game.scan(two).forks[0] >> p & 1}
    assert names == {"e8", "i8", "l2", "l6"}
    assert game.evaluate(one) > -game.weights.double_fork
    assert game.evaluate(two) < -game.weights.double_fork


def test_evaluation_is_colour_symmetric() -> None:
    """Swapping the colours and the side to move leaves the mover's score as it was, except
    for Connect Four's deliberate parity term (odd-row threats help the first player)."""
    neutral_connect_four = connect_four()
    neutral_connect_four.weights = replace(neutral_connect_four.weights, strong_threat=0)
    for game in (tictactoe(), neutral_connect_four, gomoku(), othello(), othello(6)):
        for state in random_states(game, 25, seed=8):
            assert game.evaluate(swapped(game, state)) == game.evaluate(state)
            assert abs(game.evaluate(state)) < 100_000
    parity = connect_four()
    states = random_states(parity, 40, seed=8)
    assert any(parity.evaluate(swapped(parity, s)) != parity.evaluate(s) for s in states)


def test_connect_four_wins_and_blocks_at_once() -> None:
    game = connect_four()
    win = "7/7/7/6O/6O/XXX3O x"       # d1 wins at once (O would win on g4 next)
    block = "7/7/7/X6/X6/X4OO o"       # X on a1 a2 a3: O must take a4
    for spec in ("alphabeta:depth=3", "alphabeta:algo=mtdf,depth=3", "heuristic:noise=0",
                 "mcts:playouts=100,seed=2"):
        assert best_move(game, spec, win) == "d1", spec
        assert best_move(game, spec, block) == "a4", spec


def test_connect_four_never_plays_under_an_opponent_threat() -> None:
    game = connect_four()
    # O threatens d2 (a2 b2 c2 are O's); d1 is empty: a stone on d1 lets O win on d2.
    state = game.parse_position("7/7/7/7/OOO4/XXO1X1X x")
    ranked = sorted(game.legal_moves(state), key=lambda m: game.move_heuristic(state, m), reverse=True)
    assert game.format_move(state, ranked[-1]) == "d1"
    assert best_move(game, "alphabeta:depth=2", game.format_position(state)) != "d1"


# -- Othello ------------------------------------------------------------------------------------

# Black to move: a1 (a corner) and d3, c4, f5, e6 (the usual openings) each flip one disc.
CORNER = "8/8/8/3XO3/3OX3/8/8/1OX5 x"


@pytest.mark.parametrize("spec", ["alphabeta:depth=1", "alphabeta:depth=2", "alphabeta:algo=negamax,depth=3",
                                  "heuristic:noise=0"])
def test_othello_bots_take_the_corner(spec: str) -> None:
    game = othello()
    state = game.parse_position(CORNER)
    flips = {game.format_move(state, m): len(m) - 1 for m in game.legal_moves(state)}
    assert flips["a1"] == 1 and flips["d3"] == 1
    assert best_move(game, spec, CORNER) == "a1"


def test_othello_ordering_corner_first_x_square_last() -> None:
    game = othello()
    state = game.parse_position(CORNER)
    ranked = sorted(game.legal_moves(state), key=lambda m: game.move_heuristic(state, m), reverse=True)
    assert game.format_move(state, ranked[0]) == "a1"
    # b2 (next to the empty a1) flips c3 against d4; e6, f5, f6 are quiet moves.
    state = game.parse_position("8/8/8/3XO3/3XX3/2O5/8/8 x")
    values = {game.format_move(state, m): game.move_heuristic(state, m) for m in game.legal_moves(state)}
    assert min(values, key=values.__getitem__) == "b2" and values["b2"] < 0
    taken = game.parse_position("8/8/8/3XO3/3XX3/2O5/8/O7 x")   # once a1 is taken, b2 is not feared
    assert game.move_heuristic(taken, game.parse_move(taken, "b2")) >= 0


def test_othello_evaluation_negates_with_the_colours() -> None:
    """No side-to-move term: the same discs seen by the other player score the opposite."""
    for size in (6, 8):
        game = othello(size)
        for state in random_states(game, 25, seed=9):
            other = game.make_state(state.cells, 1 - state.to_move, state.flags, state.counters)
            assert game.evaluate(other) == -game.evaluate(state)


def test_othello_placement_bits_match_the_moves() -> None:
    game = othello()
    for state in random_states(game, 30, seed=10):
        cells = state.cells
        mine = cell_bits(cells, game.flips.bit_tables[state.to_move])
        theirs = cell_bits(cells, game.flips.bit_tables[1 - state.to_move])
        expected = sum(1 << m[0][2] for m in game.legal_moves(state) if m)
        assert game.flips.placement_bits(mine, theirs) == expected


def test_othello_stable_edges_and_corners() -> None:
    game = othello()
    corners = game.corners
    assert sorted(game.square_name(c) for c in corners.corners) == ["a1", "a8", "h1", "h8"]
    a1 = corners.corners.index(game.topology.pos("a1"))
    assert corners.x_cells[a1] == 1 << game.topology.pos("b2")
    assert corners.c_cells[a1] == (1 << game.topology.pos("a2")) | (1 << game.topology.pos("b1"))
    state = game.parse_position("8/8/8/3XO3/3OX3/X7/X7/XXXO4 x")
    assert corners.stable_edge_discs(state.cells, game.discs[0]) == 5   # a1 a2 a3 b1 c1
    assert corners.stable_edge_discs(state.cells, game.discs[1]) == 0


# -- matches (slow) -----------------------------------------------------------------------------
# Bots think well within the move time, so a loaded machine does not forfeit games.

@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["connect4", "gomoku"])
def test_mcts_beats_random(game_id: str) -> None:
    result = run_match(game_id, "mcts:time=0.3", "random", games=4, movetime=0.5)
    assert result.wins == 4


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["othello", "gomoku"])
def test_alphabeta_beats_random(game_id: str) -> None:
    result = run_match(game_id, "alphabeta:time=0.3", "random", games=4, movetime=0.5)
    assert result.wins == 4


@pytest.mark.slow
def test_alphabeta_beats_heuristic_at_othello() -> None:
    result = run_match("othello", "alphabeta:time=0.3", "heuristic", games=4, movetime=0.5)
    assert result.wins >= 3
