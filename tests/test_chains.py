"""The chain/parity heuristic (games/chains.py) on hand-built boards.

A 1x8 corridor and a 4x8 grid; two sides, kinds 0 (strong) and 1 (weak): the strong kind
takes both, the weak kind takes only its own kind, so strong-strong and weak-weak pairs
are equal chains decided by parity.
"""

from __future__ import annotations

import pytest

from myriad.games.chains import ChainPiece, chain_score, distances, piece_outlook, weight
from myriad.games import get_game

STRONG, WEAK = 0, 1
TAKES = ((True, True), (False, True))
VALUES = (10.0, 2.0)


def corridor(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(t for t in (p - 1, p + 1) if 0 <= t < n) for p in range(n))


def empty_except(n: int, pieces: list[ChainPiece]) -> list[bool]:
    occupied = {p.cell for p in pieces}
    return [c not in occupied for c in range(n)]


def test_distances_stop_at_pieces() -> None:
    line = corridor(8)
    empty = [True] * 8
    empty[4] = False
    reach = distances(line, empty, 0, 12)
    assert reach[3] == 3 and reach[4] == 4 and 5 not in reach  # a piece is reached, not passed


@pytest.mark.parametrize(("gap", "mover_wins"), [(1, True), (2, False), (3, True), (4, False)])
def test_equal_chains_go_by_parity(gap: int, mover_wins: bool) -> None:
    """Two weak pieces ``gap`` steps apart: the side to move wins the race when the gap is
    odd (one step: it takes at once; two: whoever steps in between is taken)."""
    pieces = [ChainPiece(0, 0, WEAK), ChainPiece(gap, 1, WEAK)]
    line = corridor(8)
    empty = empty_except(8, pieces)
    score = chain_score(line, empty, pieces, TAKES, VALUES, side=0, to_move=0)
    # the winner of the race gains the other piece, in 2 * gap - 1 plies if it moves first
    stake = VALUES[WEAK] * weight(gap, mover_wins)
    assert score == pytest.approx(stake if mover_wins else -stake)
    # the same position with the other side to move: the sign flips
    other = chain_score(line, empty, pieces, TAKES, VALUES, side=0, to_move=1)
    assert other == pytest.approx(-score)


def test_bonus_and_penalty_chains() -> None:
    """A strong piece three steps from a weak one: a bonus for the strong side whoever
    moves, a penalty for the weak side, and nothing through a wall."""
    pieces = [ChainPiece(0, 0, STRONG), ChainPiece(3, 1, WEAK)]
    line = corridor(8)
    empty = empty_except(8, pieces)
    for to_move in (0, 1):
        stake = 2.0 * weight(3, to_move == 0)
        assert chain_score(line, empty, pieces, TAKES, VALUES, 0, to_move) == pytest.approx(stake)
        assert chain_score(line, empty, pieces, TAKES, VALUES, 1, to_move) == pytest.approx(-stake)
    # the strong side gains sooner when it moves first
    assert chain_score(line, empty, pieces, TAKES, VALUES, 0, 0) > chain_score(line, empty, pieces, TAKES, VALUES, 0, 1)
    gain, loss = piece_outlook(line, empty, pieces[1], [pieces[0]], TAKES, VALUES, True)
    assert gain == 0 and loss == pytest.approx(2.0 * weight(3, False))
    walled = empty[:]
    walled[1] = False  # a third piece (face down, say) in the way
    assert chain_score(line, walled, pieces, TAKES, VALUES, 0, 0) == 0


def test_weights_fade_with_plies() -> None:
    assert weight(1, True) == pytest.approx(0.8) and weight(1, True) < 1  # less than the capture itself
    plies = [weight(1, True), weight(1, False), weight(2, True), weight(2, False), weight(3, True)]
    assert plies == sorted(plies, reverse=True)


def test_nearer_targets_count_more() -> None:
    line = corridor(8)
    near = [ChainPiece(0, 0, STRONG), ChainPiece(2, 1, WEAK)]
    far = [ChainPiece(0, 0, STRONG), ChainPiece(6, 1, WEAK)]
    assert (chain_score(line, empty_except(8, near), near, TAKES, VALUES, 0, 1)
            > chain_score(line, empty_except(8, far), far, TAKES, VALUES, 0, 1) > 0)


def test_banqi_evaluation_uses_the_chains() -> None:
    """In BanQi, red chariot and black chariot two squares apart on an open board: the side
    to move is worse off (whoever steps next to the other is taken); three apart, better."""
    game = get_game("banqi")
    everything = "KkGGggMMmmRRrrNNnnCCccPPPPPppppp"
    captured = everything.replace("R", "", 1).replace("r", "", 1)
    two = game.parse_position(f"4/4/4/1r2/4/1R2/4/4 1 r {captured} 0")
    three = game.parse_position(f"4/4/1r2/4/4/1R2/4/4 1 r {captured} 0")
    assert game.evaluate(two) < 0 < game.evaluate(three)
    # and move ordering puts the capture of a more valuable piece first
    # (red chariot b2, black chariot b3 and soldier a2: both can be taken)
    board = game.parse_position(f"4/4/4/4/4/1r2/pR2/4 1 r {captured.replace('p', '', 1)} 0")
    moves = game.legal_moves(board)
    scores = game.move_heuristics(board, moves)
    ranked = [game.format_move(board, m) for _, m in sorted(zip(scores, moves), key=lambda sm: -sm[0])]
    assert ranked[:2] == ["b2xb3", "b2xa2"]


def test_banqi_evaluation_shrinks_towards_the_quiet_draw() -> None:
    """The side ahead (red: a chariot more) sees its advantage shrink as the plies without
    a flip or capture near the 60-ply draw, so a flip or capture that resets them pays."""
    game = get_game("banqi")
    captured = "KkGGggMMmmrrNNnnCCccPPPPPpppp"  # all but two red chariots and a black soldier
    values = [game.evaluate(game.parse_position(f"4/4/4/1p2/4/4/R3/R3 1 r {captured} {q}"))
              for q in (0, 30, 59)]
    assert values[0] > values[1] > values[2] > 0


def test_jungle_can_add_the_chains_to_its_evaluation() -> None:
    """Jungle's ``chains`` knowledge (percent of the term; 0 by default): a red tiger two
    land steps from a black dog, red to move: the bonus chain raises red's evaluation by
    the term, taken over the land squares with the rank-capture table."""
    from myriad.games.jungle import Jungle, JungleKnowledge
    plain, chained = Jungle(), Jungle(knowledge=JungleKnowledge(chains=100))
    assert plain.knowledge.chains == 0
    position = "7/7/7/7/7/3d3/7/3T3/7 w - - 0 1"  # tiger d2, dog d4 (land between)
    state = chained.parse_position(position)
    tiger, dog = chained.topology.pos("d2"), chained.topology.pos("d4")
    pieces = [ChainPiece(tiger, 0, chained.pieces.kind_of[state.cells[tiger]]),
              ChainPiece(dog, 1, chained.pieces.kind_of[state.cells[dog]])]
    empty = [not c for c in state.cells]
    term = chain_score(chained.land_neighbours, empty, pieces, chained.capture.takes, chained.kind_values, 0, 0)
    assert term == pytest.approx(chained.kind_values[pieces[1].kind] * weight(2, True))
    assert chained.evaluate(state) - plain.evaluate(plain.parse_position(position)) == pytest.approx(term)
    water = chained.topology.pos("b4")
    assert all(water not in row for row in chained.land_neighbours)  # (no chain through the water)
