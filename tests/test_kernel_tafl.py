"""Tafl on the kernel: every ply of libhnefatafl's independent playouts (see
``test_tafl.py``) replayed on the kernel, whose moves, captures and ends must agree with
that engine and with the reference; and the rules the playouts leave out (repetition, the
move limit) checked against the reference."""
from __future__ import annotations

import random

import pytest

from myriad.core.game import Game
from myriad.core.move import Action, Move
from myriad.core.state import State
from myriad.games import get_game
from myriad.games.tafl import Tafl
from myriad.kernel import rules
from myriad.kernel.registry import kernel_for

from kernel_checks import winner_bits
from test_tafl import PLAYOUTS, SAME_END, described, fnv

#: libhnefatafl's statuses as winners' bits (black, the attackers, is player 0).
WINNERS = {"king_escaped": 2, "king_captured": 1, "white_surrounded": 1, "exit_fort": 2}


def replay_on_kernel(plies: list[tuple[str, int, str]], status: str) -> int:
    """Replay one playout with the kernel's moves; return the plies compared."""
    game = get_game("hnefatafl")
    kernel = kernel_for(game)
    assert kernel is not None
    state = game.initial_state()
    for ply, (played, count, digest) in enumerate(plies):
        if kernel.winners(state) != -1:
            assert game.outcome(state) is not None
            return ply
        moves = kernel.legal_moves(state)
        ours = [described(game, state, m) for m in moves]
        assert len(moves) == count, f"ply {ply}: {len(moves)} kernel moves, libhnefatafl {count}"
        assert fnv(ours) == digest, f"ply {ply}: the kernel's moves or captures differ"
        state = kernel.play(state, moves[ours.index(played)])
    if status in WINNERS and game.outcome(state) is not None:
        assert kernel.winners(state) == WINNERS[status]
        assert game.outcome(state).reason == SAME_END[status]
    return len(plies)


@pytest.mark.parametrize("index", range(4))
def test_the_kernel_agrees_with_libhnefatafl(index: int) -> None:
    plies, status, _length = PLAYOUTS[index]
    assert replay_on_kernel(plies, status) > 50


@pytest.mark.slow
@pytest.mark.parametrize("index", range(4, 40))
def test_the_kernel_agrees_with_libhnefatafl_deep(index: int) -> None:
    plies, status, _length = PLAYOUTS[index]
    assert replay_on_kernel(plies, status) > 0


@pytest.mark.parametrize("game_id", ["brandubh", "tablut", "hnefatafl"])
def test_every_tafl_game_is_on_the_kernel(game_id: str) -> None:
    assert kernel_for(get_game(game_id)) is not None


def reverse(move: Move) -> Move:
    """A quiet move played backwards."""
    (kind, frm, to, piece, part), = move
    return Move((Action(kind, to, frm, piece, part),))


def shuttle(game: Game, state: State) -> list[Move]:
    """Four quiet moves (a move of each side, then both back) that bring ``state`` back."""
    for first in game.legal_moves(state):
        if len(first) > 1:
            continue
        after = game.play(state, first)
        for second in game.legal_moves(after):
            if len(second) > 1:
                continue
            line = [first, second, reverse(first), reverse(second)]
            here = after
            for move in line[1:]:
                if move not in game.legal_moves(here):
                    break
                here = game.play(here, move)
            else:
                if here.key == state.key:
                    return line
    raise AssertionError("no shuttle found")


@pytest.mark.parametrize("game_id", ["brandubh", "hnefatafl"])
def test_a_third_repetition_ends_the_game_as_the_reference_says(game_id: str) -> None:
    """Both sides step back and forth twice: the kernel reads the history as the
    reference does (a draw in brandubh, a loss for white in Copenhagen rules)."""
    game = get_game(game_id)
    kernel = kernel_for(game)
    assert kernel is not None
    state = game.initial_state()
    line = shuttle(game, state)
    for move in line + line:
        assert kernel.winners(state) == -1
        state = kernel.play(state, move)
    assert state.repetitions() == 2
    expected = game.outcome(state)
    assert expected is not None and expected.reason in ("threefold repetition",
                                                        "a position repeated three times (white loses)")
    assert kernel.winners(state) == winner_bits(expected)
    assert kernel.legal_moves(state) == game.legal_moves(state) == []
    assert rules.repetition(kernel.tables, kernel.pack(state)) == kernel.winners(state)


def ringed_boards(game: Tafl, count: int, seed: int) -> list[State]:
    """Copenhagen boards, white to move, with the king and defenders inside a diamond of
    attackers around a random square: the ring whole, broken by a gap, reaching the edge,
    or with a defender left outside (encircled or not, as it falls)."""
    rng = random.Random(seed)
    coords = [(int(x), int(y)) for x, y in game.topology.coords]
    size = game.size
    attacker, defender = game.soldier
    boards: list[State] = []
    while len(boards) < count:
        cx, cy = rng.randrange(size), rng.randrange(size)
        radius = rng.choice((1, 2, 3))
        far = [abs(x - cx) + abs(y - cy) for x, y in coords]
        cells = [0] * len(coords)
        ring = [p for p, d in enumerate(far) if d == radius + 1 and game.slides.may_stand(attacker, p)]
        inside = [p for p, d in enumerate(far) if d <= radius and game.slides.may_stand(defender, p)]
        if not inside or len(ring) > game.start_counts[0]:
            continue
        for p in ring:
            cells[p] = attacker
        if rng.random() < 0.3:
            cells[rng.choice(ring)] = 0  # a gap
        cells[rng.choice(inside)] = game.king
        for p in rng.sample(inside, min(len(inside), rng.randrange(4))):
            if not cells[p]:
                cells[p] = defender
        outside = [p for p, d in enumerate(far) if d > radius + 1 and game.slides.may_stand(defender, p)]
        if outside and rng.random() < 0.2:
            cells[rng.choice(outside)] = defender
        boards.append(game.make_state(tuple(cells), 1, (), (0,)))
    return boards


def test_encirclement_ends_the_game_on_the_kernel_as_on_the_reference() -> None:
    """The kernel floods from the white pieces, the reference from the edge: the same
    ends on boards built around rings of attackers, both kinds present."""
    game = get_game("hnefatafl")
    assert isinstance(game, Tafl)
    kernel = kernel_for(game)
    assert kernel is not None
    ends = []
    for state in ringed_boards(game, 300, seed=19):
        expected = game.outcome(state)
        assert kernel.winners(state) == winner_bits(expected), game.format_position(state)
        ends.append(expected is not None and expected.reason == "the attackers encircle every white piece")
    assert 30 < sum(ends) < 270


@pytest.mark.parametrize("game_id", ["brandubh", "tablut", "hnefatafl"])
def test_noisy_moves_come_in_the_order_of_the_legal_moves(game_id: str) -> None:
    """The kernel finds tafl's captures and escapes from the squares where they end, and
    lists them as the legal moves filtered by ``noisy`` would (the search's tree depends
    on it), along random games where such moves occur."""
    import numpy as np

    game = get_game(game_id)
    kernel = kernel_for(game)
    assert kernel is not None
    t = kernel.tables
    rng = random.Random(7)
    listed = 0
    for _game in range(2):
        state = game.initial_state()
        for _ply in range(150):
            s, rows, count = kernel.move_rows(state)
            hist = kernel.history(state)
            expected = [kernel.to_move(s, rows[i]) for i in range(count) if rules.noisy(t, s, rows[i])]
            found = np.zeros_like(rows)
            n = int(rules.noisy_moves(t, s, hist, len(hist), found))
            assert [kernel.to_move(s, found[i]) for i in range(n)] == expected, game.format_position(state)
            listed += n
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.play(state, rng.choice(moves))
    assert listed > 20


def test_the_kernel_weighs_the_kings_room_as_the_reference() -> None:
    """The cordon's terms (``king_room``, ``escape_room``) on the kernel: the evaluation of
    Copenhagen's start and of a corner shut out of the king's room equals the reference's,
    and shutting the corner moves both engines' scores alike."""
    from test_tafl import SHUT_A1
    game = get_game("hnefatafl")
    kernel = kernel_for(game)
    assert kernel is not None
    start, shut = game.parse_position(SHUT_A1.replace("5D4A/11/A4A5/1A2AAAA3", "A4D4A/11/5A5/3AAAAA3")), \
        game.parse_position(SHUT_A1)
    for state in (start, shut):
        assert kernel.evaluate(state) == pytest.approx(game.evaluate(state), abs=1e-9)
    assert game.evaluate(start) - game.evaluate(shut) > game.knowledge.escape_room


def test_the_kernel_weighs_the_kings_enclosure_as_the_reference() -> None:
    """The enclosure's terms (``king_enclosed``, ``king_side_reach``, ``king_trap``) on the
    kernel: on the known positions of ``test_tafl`` (a trap, a trap beside the throne, the
    fourth side blocked by a defender, two hostile sides, the king on the edge) both
    engines' evaluations are equal, and the trap moves both alike."""
    from test_tafl import BESIDE_THRONE, ENCLOSED, board_with
    game = get_game("hnefatafl")
    assert isinstance(game, Tafl)
    kernel = kernel_for(game)
    assert kernel is not None
    boards = (ENCLOSED, BESIDE_THRONE, {**ENCLOSED, "e7": "D"}, {n: c for n, c in ENCLOSED.items() if n != "e4"},
              {"a5": "K", "a4": "A", "a6": "A", "b5": "A", "k6": "D"})
    for pieces in boards:
        for side in "bw":
            state = game.parse_position(board_with(game, pieces, side))
            assert kernel.evaluate(state) == pytest.approx(game.evaluate(state), abs=1e-9), (pieces, side)
    trap, blocked = (game.parse_position(board_with(game, pieces, "w"))
                     for pieces in (ENCLOSED, {**ENCLOSED, "e7": "D"}))
    assert game.evaluate(blocked) != game.evaluate(trap)
    assert kernel.evaluate(blocked) - kernel.evaluate(trap) == pytest.approx(
        game.evaluate(blocked) - game.evaluate(trap), abs=1e-9)


@pytest.mark.parametrize("times", [1, 2])
def test_a_repeat_in_search_is_scored_as_the_reference_scores_it(times: int) -> None:
    """``rules.repeat``: Copenhagen's position met once before is a draw (3), met twice
    before (its third occurrence) a win for the attackers (1), as
    ``Tafl.repetition_outcome``; brandubh's always a draw."""
    for game_id, expected in (("hnefatafl", {1: 3, 2: 1}), ("brandubh", {1: 3, 2: 3})):
        game = get_game(game_id)
        kernel = kernel_for(game)
        assert kernel is not None
        state = game.play(game.initial_state(), game.legal_moves(game.initial_state())[0])
        again = State(state.cells, state.to_move, state.flags, state.counters, state.hands, state.key,
                      state.history + (state.key,) * times, game)
        hist = kernel.history(again)
        assert rules.repeat(kernel.tables, kernel.pack(again), hist, len(hist)) == expected[times] == \
            winner_bits(game.repetition_outcome(again))
