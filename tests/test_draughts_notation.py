"""Draughts notation as each game's players write it: Russian and Brazilian algebraic
(``c3-d4``, ``c3:e5:g3``) with PDN numbers still read, English and international numbered."""

from __future__ import annotations

import pytest

from myriad.core.errors import IllegalMoveError, InvalidMoveError, PositionError
from myriad.games import get_game
from myriad.games.draughts import Draughts, brazilian, russian
from myriad.notation.records import read_records, replay, write_record

ALGEBRAIC = ("russian", "brazilian")
NUMBERED = ("checkers", "international")


def texts(game: Draughts, fen: str) -> set[str]:
    state = game.parse_position(fen)
    return {game.format_move(state, m) for m in game.legal_moves(state)}


@pytest.mark.parametrize("gid", ALGEBRAIC)
def test_russian_and_brazilian_are_written_algebraically(gid: str) -> None:
    game = get_game(gid)
    start = game.initial_state()
    # White's first moves: the men on the third rank step to the fourth.
    assert {game.format_move(start, m) for m in game.legal_moves(start)} == {
        "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}
    assert set(game.topology.names) == {f"{f}{r}" for f in "abcdefgh" for r in range(1, 9)
                                        if ("abcdefgh".index(f) + r) % 2 == 1}
    # The PDN number of c3 is 22 (1 is b8, counting row by row from White's far side).
    assert game.numbers[game.topology.index["c3"]] == 22
    assert game.numbers[game.topology.index["b8"]] == 1
    # The rendered board has ranks and files, not square numbers.
    drawn = game.render(start)
    assert drawn.splitlines()[-2].split() == list("abcdefgh")
    assert "21-24" not in drawn


@pytest.mark.parametrize("gid", NUMBERED)
def test_english_and_international_stay_numbered(gid: str) -> None:
    game = get_game(gid)
    start = game.initial_state()
    assert all(game.format_move(start, m).replace("-", "").isdigit() for m in game.legal_moves(start))
    assert all(name.isdigit() for name in game.topology.names)


def test_captures_use_a_colon_and_chain_every_landing_square() -> None:
    # White man c3 takes d4 and f6 (black men), landing on e5 then g7.
    game = russian()
    assert texts(game, "W:Wc3:Bd4,f6") == {"c3:e5:g7"}
    state = game.parse_position("W:Wc3:Bd4,f6")
    (move,) = game.legal_moves(state)
    # Every spelling reads back to the same move: x for captures, PDN numbers, the short form.
    for spelling in ("c3:e5:g7", "c3xe5xg7", "22x15x8", "c3:g7", "c3xg7", "22x8"):
        assert game.parse_move(state, spelling) == move, spelling


def test_pdn_numbers_are_still_accepted_as_input() -> None:
    game = russian()
    start = game.initial_state()
    assert game.parse_move(start, "22-18") == game.parse_move(start, "c3-d4")
    assert game.format_move(start, game.parse_move(start, "22-18")) == "c3-d4"


def test_numeric_option_writes_pdn_numbers_and_reads_names() -> None:
    game = russian(notation="numeric")
    start = game.initial_state()
    assert "22-18" in {game.format_move(start, m) for m in game.legal_moves(start)}
    # Brazilian with numbers keeps the same rules: maximum capture (two pieces, not one).
    assert texts(brazilian(notation="numeric"), "W:W22,K32:B11,K18") == {"22x15x8"}
    assert texts(brazilian(), "W:W22,K32:B11,K18") == {"c3:e5:g7"}
    with pytest.raises(ValueError, match="notation 'roman'"):
        russian(notation="roman")


def test_positions_are_pdn_fen_read_with_names_or_numbers() -> None:
    game = russian()
    by_names = game.parse_position("W:Wa1,c3,Kd4:Bf6,Kh8")
    by_numbers = game.parse_position("W:W29,22,K18:B11,K4")
    assert by_names == by_numbers
    # Written with numbers, as lidraughts and the perft tables write Russian positions.
    assert game.format_position(by_names) == "W:WK18,22,29:BK4,11"
    assert game.format_position(game.initial_state()).startswith("W:W21,22,")


@pytest.mark.parametrize(("text", "words"), [
    ("W:Wa2:Bf6", "'a2' in field W is not a playing square"),
    ("W:Wc3,c3:Bf6", "square c3 is given twice"),
    ("W:Wc3:Bf6,i9", "'i9' in field B is not a playing square"),
])
def test_bad_named_positions(text: str, words: str) -> None:
    with pytest.raises(PositionError, match=words):
        russian().parse_position(text)


def test_bad_and_illegal_algebraic_moves() -> None:
    game = russian()
    start = game.initial_state()
    for text in ("c3d4", "c3-", "c3-d4-e5", "c3:", "e2e4"):
        with pytest.raises(InvalidMoveError):
            game.parse_move(start, text)
    with pytest.raises(InvalidMoveError, match="'d3' is not a playing square"):
        game.parse_move(start, "c3-d3")
    with pytest.raises(IllegalMoveError, match="c3-d4"):  # the legal moves are listed algebraically
        game.parse_move(start, "c3-b2")


def test_a_record_is_written_and_read_back_algebraically() -> None:
    game = get_game("russian")
    state = game.initial_state()
    notations = []
    for text in ("c3-d4", "f6-e5", "d4:f6"):
        move = game.parse_move(state, text)
        notations.append(game.format_move(state, move))
        state = game.play(state, move)
    assert notations == ["c3-d4", "f6-e5", "d4:f6"]
    record = write_record(game, notations, None, {"White": "human"}, start=game.initial_state())
    assert "1. c3-d4 f6-e5 2. d4:f6" in record
    (read,) = read_records(record)
    assert read.moves == notations
    assert replay(game, read)[-1] == state
