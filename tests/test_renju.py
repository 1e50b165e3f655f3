"""Renju (the in-a-row family with Black's restrictions) against the RIF rules: the centre
opening, exactly five for Black and five or more for White, Black's forbidden points left
out of its legal moves (a five is never forbidden), and bots that neither play a forbidden
point nor count on one.  The forbidden-point judge itself is proved in test_forbidden.py."""

from __future__ import annotations

import pytest

from myriad import get_game
from myriad.ai.threats import ThreatSearch
from myriad.core.errors import GameDefinitionError, IllegalMoveError
from myriad.core.state import State
from myriad.games.inarow import InARow, renju


@pytest.fixture(scope="module")
def game() -> InARow:
    found = get_game("renju")
    assert isinstance(found, InARow)
    return found


def position(game: InARow, black: str, white: str, to_move: int = 0) -> State:
    cells = [0] * game.topology.size
    for name in black.split():
        cells[game.topology.pos(name)] = game.stones[0]
    for name in white.split():
        cells[game.topology.pos(name)] = game.stones[1]
    return game.make_state(cells, to_move, (0,))


def names(game: InARow, state: State, moves: list) -> set[str]:  # type: ignore[type-arg]
    return {game.format_move(state, m) for m in moves}


def test_classic_opening(game: InARow) -> None:
    # Black on the centre, White next to it, Black within the central 5x5, then anywhere
    start = game.initial_state()
    assert names(game, start, game.legal_moves(start)) == {"h8"}
    with pytest.raises(IllegalMoveError):
        game.parse_move(start, "a1")
    second = game.play_text(start, "h8")
    assert names(game, second, game.legal_moves(second)) == {"g7", "g8", "g9", "h7", "h9", "i7", "i8", "i9"}
    third = game.play_text(second, "i9")
    legal = names(game, third, game.legal_moves(third))
    assert len(legal) == 25 - 2 and {"f6", "j10", "f10"} <= legal and "e8" not in legal
    fourth = game.play_text(third, "f6")
    assert len(game.legal_moves(fourth)) == 225 - 3
    centre = renju(opening="centre")
    after = centre.play_text(centre.initial_state(), "h8")
    assert len(centre.legal_moves(after)) == 224
    free = renju(opening="free")
    assert len(free.legal_moves(free.initial_state())) == 225
    with pytest.raises(GameDefinitionError, match="opening"):
        renju(opening="yamaguchi")


def test_forbidden_points_are_not_legal_for_black(game: InARow) -> None:
    # h8 would make two open threes (f8 g8 h8 across, h6 h7 h8 up): illegal for Black
    state = position(game, "f8 g8 h6 h7", "a1 a3 a5 o15")
    legal = names(game, state, game.legal_moves(state))
    assert "h8" not in legal and "i8" in legal and len(legal) == 225 - 8 - 1
    with pytest.raises(IllegalMoveError, match="h8 is a forbidden point for black \\(double-three\\)"):
        game.parse_move(state, "h8")
    assert game.forbidden_points(state) == 1 << game.topology.pos("h8")
    # White may play there
    white = position(game, "f8 g8 h6 h7", "a1 a3 a5", to_move=1)
    assert "h8" in names(game, white, game.legal_moves(white))


def test_five_wins_exactly_for_black_and_overline_wins_for_white(game: InARow) -> None:
    # a five that comes with a double three is legal and wins
    state = position(game, "d8 e8 f8 g8 h6 h7 i7 j6", "a1 a3 a5 a7 a9 a11 a13")
    won = game.play_text(state, "h8")
    assert game.outcome(won) is not None and game.outcome(won).winner == 0
    assert game.legal_moves(won) == []
    # six black stones: forbidden (overline), so neither legal nor a win
    six = position(game, "d8 e8 f8 g8 i8", "a1 a3 a5 a7 a9")
    assert "h8" not in names(game, six, game.legal_moves(six))
    # White's overline wins
    white = position(game, "a1 a3 a5 a7 a9 a11", "d8 e8 f8 g8 i8", to_move=1)
    won = game.play_text(white, "h8")
    assert game.outcome(won) is not None and game.outcome(won).winner == 1
    # a position where White has six in a row reads as won by White; Black's six are no row
    text = game.format_position(won)
    assert game.outcome(game.parse_position(text)).winner == 1
    cells = list(won.cells)
    black_six = game.make_state([{game.stones[0]: game.stones[1], game.stones[1]: game.stones[0]}.get(v, 0)
                                 for v in cells], 1, (0,))
    assert game.outcome(game.parse_position(game.format_position(black_six))) is None


def test_bots_never_choose_a_forbidden_point(game: InARow) -> None:
    # Black's only way to make a four-four (h8) is forbidden; the threat moves, the answers
    # and the candidates leave it out, and a search plays something else.
    state = position(game, "e8 f8 g8 h4 h5 h6", "a1 a3 a5 a7 o15")
    forbidden = game.topology.pos("h8")
    assert game.forbidden_points(state) >> forbidden & 1
    for moves in (game.threat_moves(state, True), game.candidate_moves(state, game.legal_moves(state)),
                  game.noisy_moves(state)):
        assert "h8" not in names(game, state, moves)
    assert not game.scan(state).forks[0] >> forbidden & 1
    from myriad.ai import make_bot
    bot = make_bot("alphabeta:depth=2", game)
    assert game.format_move(state, bot.choose(state).move) != "h8"


def test_white_wins_on_a_forbidden_point(game: InARow) -> None:
    # White's four e8-h8 (blocked on d8) completes on i8 only, a double four for Black
    # (i4 i5 i6 up, j9 k10 l11 on the diagonal): Black cannot block it and has no answer.
    black = "d8 i4 i5 i6 j9 k10 l11 a1 a3"
    state = position(game, black, "e8 f8 g8 h8 a15 d15 g15 j15", to_move=0)
    assert game.forbidden_points(state) >> game.topology.pos("i8") & 1
    assert "i8" not in names(game, state, game.legal_moves(state))
    assert game.threat_answers(state) == []
    assert game.evaluate(state) == -game.weights.win_now  # lost, though one four only
    # so White, to move before h8, wins by playing it: a four Black cannot stop
    white = position(game, black, "e8 f8 g8 a15 d15 g15 j15 m15", to_move=1)
    move = ThreatSearch(game).winning_move(white, 1)
    assert move is not None and game.format_move(white, move) == "h8"
    # in gomoku the same four is blocked on i8: no win in one threat
    from myriad.games.inarow import gomoku
    free = gomoku()
    assert ThreatSearch(free).winning_move(free.make_state(white.cells, 1, (0,)), 1) is None


def test_bot_moves_are_legal_in_random_games() -> None:
    # Along random games (Black's stones kept close, so forbidden points come up), every
    # move the bots' knowledge offers Black is legal, and the points judged for a few
    # cells agree with those judged for the whole board.
    import random
    rng = random.Random(7)
    seen = 0
    judge = renju()  # asked for a few cells only: it never holds a whole board's points
    for _ in range(3):
        game = renju()
        state = game.initial_state()
        while game.outcome(state) is None:
            legal = game.legal_moves(state)
            if state.to_move == 0:
                stones = game.stones_of(state)
                empty = game.full & ~(stones[0] | stones[1])
                whole = game.forbidden_points(state)
                assert judge.forbidden_among(state, empty) == whole
                assert all(judge.forbidden_among(state, 1 << pos) == whole & 1 << pos
                           for pos in range(game.topology.size) if empty >> pos & 1)
                seen += whole.bit_count()
                allowed = set(legal)
                offered = (game.threat_moves(state, True) + game.noisy_moves(state)
                           + game.candidate_moves(state, legal) + (game.threat_answers(state) or []))
                assert set(offered) <= allowed
            near = [m for m in legal if any(abs(a - b) <= 2 for a, b in zip(
                game.topology.coords[m[0][2]], (7.0, 7.0)))] or legal
            state = game.play(state, rng.choice(near if rng.random() < 0.8 else legal))
    assert seen > 0, "no forbidden point came up"
