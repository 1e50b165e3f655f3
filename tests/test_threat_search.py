"""Threat-space search (myriad.ai.threats) and the gomoku threat moves it runs on: the
window helpers against whole-board scans, wins by fours and by threes, and every win it
claims checked against every legal answer.

    python -m pytest -q tests/test_threat_search.py
"""

from __future__ import annotations

import random

import pytest

from myriad.ai import make_bot
from myriad.ai.alphabeta import AlphaBeta
from myriad.ai.bot import Limits
from myriad.ai.threats import ThreatSearch
from myriad.core.mechanics.placement import bit_positions
from myriad.core.state import State
from myriad.games.inarow import InARow, gomoku
from test_placement_knowledge import FOUR_THREE, random_states, stones_of

#: O to move: f3 makes two open threes at once (e3-f3 with h3, f3-f4 with f6); no four
#: is anywhere to be made, so only a search with threes sees the win.
DOUBLE_THREE = "15/15/15/15/15/15/7X7/7X7/15/5O9/15/3X1O5X3/4O2O1X5/15/15 o"


def test_forks_made_by_a_stone() -> None:
    """A stone that makes no threat adds exactly the fork cells that a new scan finds."""
    game = gomoku()
    windows = game.windows
    rng = random.Random(17)
    for state in random_states(game, 40, seed=17, max_plies=40):
        me = state.to_move
        stones = stones_of(game, state)
        before = windows.scan(stones)
        free = list(bit_positions(before.empty & ~before.builds[me] & ~before.threats[me]))
        for pos in rng.sample(free, 5):
            placed = list(stones)
            placed[me] |= 1 << pos
            after = windows.scan(placed).forks[me]
            made = windows.forks_made(stones[me], stones[1 - me], pos, before.builds[me])
            assert after == before.forks[me] | made


def test_fork_defences_hold_every_defence() -> None:
    """Every cell where a stone leaves the opponent without fork cells is among the
    defences."""
    game = gomoku()
    windows = game.windows
    checked = 0
    for state in random_states(game, 400, seed=19, max_plies=50):
        me, other = state.to_move, 1 - state.to_move
        stones = stones_of(game, state)
        scan = windows.scan(stones)
        if not scan.forks[other]:
            continue
        checked += 1
        defences = windows.fork_defences(stones[other], stones[me], scan.forks[other])
        for pos in bit_positions(scan.empty):
            placed = list(stones)
            placed[me] |= 1 << pos
            if not windows.scan(placed).forks[other]:
                assert defences >> pos & 1, game.square_name(pos)
    assert checked >= 20


def test_cells_whose_two_windows_share_their_other_gap_are_no_fork_cells() -> None:
    """``XX..XX``: e8 and f8 each lie in two windows with two gaps, but those windows are
    c8-g8 and d8-h8, both missing e8 and f8, so a stone on either makes one threat; the
    open three c3-e3 has real fork cells (b3, f3: a stone there makes an open four)."""
    game = gomoku()
    state = game.parse_position("O13O/O13O/15/15/15/15/15/2XX2XX7/15/15/15/15/2XXX10/15/O13O o")
    stones = stones_of(game, state)
    scan = game.scan(state)
    assert {game.square_name(pos) for pos in bit_positions(scan.forks[0])} == {"b3", "f3"}
    assert {"e8", "f8", "b3", "f3"} <= {game.square_name(pos) for pos in bit_positions(scan.builds[0])}
    assert scan.fork_lines[0] == 1
    for name in ("e8", "b3"):
        made = game.windows.threats_made(stones[0], stones[1], game.topology.pos(name))
        assert made.bit_count() == (1 if name == "e8" else 2)


#: O to move, from a lost game: d4 makes a three, and the row h10 i10 . . l10 m10 looks
#: like two more fork cells (j10, k10) but each makes one threat; the search used to claim
#: a win here that X refuted with l8.
ONE_THREAT_FORKS = "15/15/15/15/7XX4X1/7OO2OO2/6OXOOOOX2/5O1X1XO4/4XOXXXOXO3/5X1OX3X2/4X10/15/15/15/15 o"


def test_no_win_claimed_through_fork_cells_that_make_one_threat() -> None:
    game = gomoku()
    state = game.parse_position(ONE_THREAT_FORKS)
    after = game.play(state, game.parse_move(state, "d4"))
    answers = game.threat_answers(after)  # against l8 alone: the search had seen none
    assert answers and "l8" in {game.format_move(after, move) for move in answers}
    search = ThreatSearch(game)
    assert search.winning_move(state, 12) is None
    assert search.winning_move(state, 6, wide=True) is None


def claimed_wins_hold(game: InARow, state: State, depth: int, wide: bool) -> bool:
    """Whether the win the threat search claims for the side to move survives every
    legal answer (checked recursively, the answers from the rules, not the search)."""
    move = ThreatSearch(game).winning_move(state, depth, wide=wide)
    if move is None:
        return False
    attacker = state.to_move
    after = game.play(state, move)
    outcome = game.outcome(after)
    if outcome is not None:
        return outcome.winner == attacker
    for reply in game.legal_moves(after):
        answered = game.play(after, reply)
        if game.outcome(answered) is not None or not claimed_wins_hold(game, answered, depth - 1, wide):
            return False
    return True


def test_a_win_by_fours() -> None:
    """The four on g8 forces the block on h8, after which g9 or g5 makes an open four."""
    game = gomoku()
    state = game.parse_position(FOUR_THREE)
    move = ThreatSearch(game).winning_move(state, 4)
    assert move is not None and game.format_move(state, move) == "g8"
    assert claimed_wins_hold(game, state, 3, wide=False)


def test_a_win_by_threes_needs_the_wide_search() -> None:
    game = gomoku()
    state = game.parse_position(DOUBLE_THREE)
    assert ThreatSearch(game).winning_move(state, 10) is None  # no win by fours alone
    move = ThreatSearch(game).winning_move(state, 3, wide=True)
    assert move is not None and game.format_move(state, move) == "f3"
    assert claimed_wins_hold(game, state, 3, wide=True)


def test_no_win_claimed_where_none_exists() -> None:
    """On the opening moves nobody can win by threats."""
    game = gomoku()
    state = game.parse_position("15/15/15/15/15/15/7X7/7O7/15/15/15/15/15/15/15 x")
    assert ThreatSearch(game).winning_move(state, 4, wide=True) is None


@pytest.mark.parametrize("algo", ["negamax", "pvs", "mtdf"])
def test_alphabeta_plays_a_win_by_threats(algo: str) -> None:
    """A one-ply search cannot see the double three; the threat search before it can."""
    game = gomoku()
    state = game.parse_position(DOUBLE_THREE)
    decision = make_bot(f"alphabeta:algo={algo},depth=1", game).choose(state, Limits())
    assert game.format_move(state, decision.move) == "f3" and decision.info["threats"] == "win"
    blind = make_bot(f"alphabeta:algo={algo},depth=1,threats=0", game).choose(state, Limits())
    assert "threats" not in blind.info


#: O to move.  A one-ply search likes h6, after which X wins by threats with its stones
#: on f6, h5 and h4; the threat check after the search finds a move after which X does not.
THREATENED = "15/15/15/15/15/5O9/7O7/7X7/15/5X9/7X7/7X1O5/7O7/15/9X5 o"


def test_alphabeta_avoids_a_move_that_loses_to_threats() -> None:
    game = gomoku()
    state = game.parse_position(THREATENED)
    plain = make_bot("alphabeta:depth=1,threats=0", game).choose(state, Limits())
    assert ThreatSearch(game).winning_move(game.play(state, plain.move), 3, wide=True) is not None
    checked = make_bot("alphabeta:depth=1", game).choose(state, Limits())
    assert checked.move != plain.move
    assert ThreatSearch(game).winning_move(game.play(state, checked.move), 3, wide=True) is None


def test_the_check_after_the_search_replaces_a_losing_choice() -> None:
    game = gomoku()
    state = game.parse_position(THREATENED)
    bot = make_bot("alphabeta:depth=1", game)
    assert isinstance(bot, AlphaBeta)
    plain = make_bot("alphabeta:depth=1,threats=0", game).choose(state, Limits()).move
    moves = game.candidate_moves(state, game.legal_moves(state))
    safe = bot._safe_move(state, plain, moves, None)
    assert safe != plain
    assert ThreatSearch(game).winning_move(game.play(state, safe), 3, wide=True) is None
