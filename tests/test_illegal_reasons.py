"""An illegal move says which rule it breaks: ``IllegalMoveError.reason`` in every game of
the registry, and the specific rules of chess (check), xiangqi (the flying general),
draughts (compulsory, continued and majority capture), Go (ko, suicide, occupied points)
and renju (forbidden points)."""

from __future__ import annotations

import random
import re

import pytest

from myriad import IllegalMoveError, get_game
from myriad.core.game import Game
from myriad.core.state import State
from myriad.games import game_ids


def reason(game: Game, state: State, text: str) -> str:
    """The reason the parse of ``text`` gives (it must be refused as illegal)."""
    with pytest.raises(IllegalMoveError) as caught:
        game.parse_move(state, text)
    assert caught.value.reason and caught.value.reason in str(caught.value)
    return caught.value.reason


def illegal_text(game: Game) -> tuple[State, str]:
    """A position of ``game`` and a well-formed move text not legal there: a move of a
    nearby position (seeded random play) that the position does not allow."""
    rng = random.Random(7)
    for attempt in range(40):
        states = [game.initial_state()]
        for _ in range(12):
            s = states[-1]
            if game.outcome(s) is not None:
                break
            moves = ([m for m, _ in game.chance_outcomes(s)] if game.is_chance(s) else game.legal_moves(s))
            states.append(game.play(s, rng.choice(moves)))
        for a in states:
            if game.is_chance(a) or game.outcome(a) is not None:
                continue
            here = {game.format_move(a, m) for m in game.legal_moves(a)}
            for b in states:
                if b is a or game.is_chance(b) or game.outcome(b) is not None:
                    continue
                for m in game.legal_moves(b):
                    text = game.format_move(b, m)
                    if text not in here:
                        try:
                            game.parse_move(a, text)
                        except IllegalMoveError:
                            return a, text
                        except ValueError:
                            continue
    raise AssertionError(f"{game.id}: no illegal move found to try")


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_gives_a_reason(game_id: str) -> None:
    game = get_game(game_id)
    state, text = illegal_text(game)
    assert len(reason(game, state, text)) > 5


def test_chess_check() -> None:
    chess = get_game("chess")
    pinned = chess.parse_position("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1")
    assert reason(chess, pinned, "Nc3") == "your king would be in check"
    assert reason(chess, pinned, "e2-c3") == "your king would be in check"
    checked = chess.parse_position("4k3/8/8/8/8/8/4r3/4K1N1 w - - 0 1")
    assert reason(chess, checked, "Nf3") == "your king is in check and this move leaves it in check"
    start = chess.initial_state()
    assert reason(chess, start, "e3e4") == "there is no piece on e3"
    assert reason(chess, start, "e7e5") == "the pawn on e7 is not yours"
    assert reason(chess, start, "e2e5").startswith("your pawn on e2 cannot go to e5")


def test_xiangqi_flying_general() -> None:
    xiangqi = get_game("xiangqi")
    state = xiangqi.parse_position("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1")
    for text in ("e1d2", "E1-D2", "A5+4"):  # ICCS either case, WXF
        assert reason(xiangqi, state, text) == "it leaves your general facing the enemy general on an open file"


def test_russian_compulsory_and_continued_capture() -> None:
    russian = get_game("russian")
    state = russian.parse_position("B:W17,18,21,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15")
    (capture,) = russian.legal_moves(state)
    path = [russian.move_square_names()[p] for p in capture.path]
    assert len(path) == 3
    quiet = russian.jumps.quiet_moves(state.cells, state.to_move)[0]
    assert reason(russian, state, russian.format_move(state, quiet)).startswith("a capture is compulsory")
    assert path[0] in reason(russian, state, russian.format_move(state, quiet))
    written = russian.format_move(state, capture)
    partial = re.sub(r"[x:-][^x:-]+$", "", written)  # the first jump only: 15x22 of 15x22x13, c3:e5 of c3:e5:g3
    assert partial != written
    assert reason(russian, state, partial).startswith("the capture must go on")


def test_international_majority_rule() -> None:
    international = get_game("international")
    state = international.parse_position("W:W32:B27,28,18")
    assert [international.format_move(state, m) for m in international.legal_moves(state)] == ["32x23x12"]
    assert reason(international, state, "32x21") == "the majority rule: a capture must take the most pieces (2)"
    assert reason(international, state, "32x23").startswith("the capture must go on: 32x23x12")


def test_go_ko_suicide_occupied() -> None:
    go = get_game("go9")
    state = go.initial_state()
    for text in ("C5", "D5", "D4", "E4", "D6", "E6", "A1", "F5", "E5"):  # Black takes D5: a ko
        state = go.play_text(state, text)
    assert reason(go, state, "D5") == "ko: the move would repeat an earlier position (superko)"
    assert reason(go, state, "E5") == "E5 is occupied"
    corner = go.initial_state()
    for text in ("A2", "J9", "B1"):  # White to move: A1 has no liberty
        corner = go.play_text(corner, text)
    assert reason(go, corner, "A1") == "suicide: the stone would have no liberty"


def test_renju_forbidden_point() -> None:
    renju = get_game("renju")
    cells = [0] * renju.topology.size
    for name, stone in (("f8", 0), ("g8", 0), ("h6", 0), ("h7", 0), ("a1", 1), ("a3", 1), ("a5", 1), ("o15", 1)):
        cells[renju.topology.pos(name)] = renju.stones[stone]
    state = renju.make_state(cells, 0, (0,))  # h8 makes two open threes for Black
    assert reason(renju, state, "h8") == "h8 is a forbidden point for black (double-three)"
    assert reason(renju, state, "f8") == "f8 is occupied"


def test_othello_flank_and_pass() -> None:
    othello = get_game("othello")
    start = othello.initial_state()
    assert reason(othello, start, "a1").startswith("a disc must outflank at least one of the opponent's discs")
    assert reason(othello, start, "d4") == "d4 is occupied"
    assert reason(othello, start, "pass") == "you may pass only when you cannot place a disc"


def test_hidden_information_is_not_told() -> None:
    """In dark chess White does not see Black's pawns: an illegal move that names their
    squares learns nothing of them."""
    dark = get_game("darkchess")
    start = dark.initial_state()
    for text in ("e7e5", "e6e5"):  # a hidden black pawn, a hidden empty square
        why = reason(dark, start, text)
        assert "pawn" not in why and "no piece" not in why and "not yours" not in why
