"""Frisian and Turkish draughts: oracle perft (../shared/oracles) and their capture rules.

The oracle files name the rules they were computed with (Frisian: dctl and pydraughts;
Turkish: pydraughts and a helper script).  The rule positions below are built from the
rules as the game modules state them (FMJD Frisian rules, pydraughts' Frisian values and
king limit; the Turkish rules of the oracle file).  They also test the jump-capture
options these games brought to the mechanic: orthogonal capture directions, capture
values and king preference, removal of captured pieces at once, no turning back.
"""

from __future__ import annotations

import pytest

from myriad.core.errors import PositionError
from myriad.core.game import perft
from myriad.games.frisian import frisian
from myriad.games.turkish import turkish

from oracles import load_oracle, require

FAST = {"frisian": 5, "turkish": 5}
SLOW = {"frisian": 8, "turkish": 6}


def _positions(name: str) -> list[dict]:
    return require(load_oracle(f"draughts_{name}_perft.json")["positions"], f"{name} perft positions")


def _state(game, record):
    # The Turkish start is given in words (its pydraughts FEN is "startpos").
    return game.parse_position(record["fen"]) if "fen" in record else game.initial_state()


def _check(name: str, max_depth: int, key: str = "perft", merge: bool = True) -> None:
    game = frisian(merge_duplicate_routes=merge) if name == "frisian" else turkish(merge_duplicate_routes=merge)
    for record in _positions(name):
        state = _state(game, record)
        checked = 0
        for depth in range(1, max_depth + 1):
            expected = record[key].get(str(depth))
            if expected is not None:
                assert perft(game, state, depth) == expected, f"{name} {record['name']} depth {depth}"
                checked += 1
        assert checked, f"no {key} depths up to {max_depth} in the {name} oracle"


@pytest.mark.parametrize("name", ["frisian", "turkish"])
def test_perft(name: str) -> None:
    _check(name, FAST[name])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["frisian", "turkish"])
def test_perft_deep(name: str) -> None:
    _check(name, SLOW[name])


@pytest.mark.slow
def test_frisian_perft_keeping_duplicate_routes() -> None:
    # Orthogonal captures give duplicate routes from depth 4 on (3880 against 3874).
    _check("frisian", 6, key="perft_keep_duplicates", merge=False)


def test_turkish_king_does_not_slide_through_its_own_man() -> None:
    """The oracle's position where pydraughts goes wrong: 21 moves, and no a8-a1."""
    bug = load_oracle("draughts_turkish_perft.json")["pydraughts_bug"]
    game = turkish()
    state = game.parse_position(bug["position_fen_pydraughts"])
    moves = [game.format_move(state, m) for m in game.legal_moves(state)]
    assert len(moves) == bug["legal_moves_helper"] == 21
    assert "a8-a1" not in moves and "a8-a3" in moves  # a2 holds a white man


def _moves(game, text: str) -> set[str]:
    state = game.parse_position(text)
    return {game.format_move(state, m) for m in game.legal_moves(state)}


# -- Frisian ----------------------------------------------------------------------------------


def test_frisian_men_capture_orthogonally_two_squares_away() -> None:
    game = frisian()
    assert _moves(game, "W:W33:B23") == {"33x13"}   # straight ahead along the file
    assert _moves(game, "W:W23:B33") == {"23x43"}   # and backwards
    assert _moves(game, "W:W33:B34") == {"33x35"}   # along the rank
    assert _moves(game, "W:W33:B28") == {"33x22"}   # diagonal captures as usual


def test_frisian_capture_value_king_more_than_a_man_less_than_two() -> None:
    game = frisian()
    # A man takes a king (the file) rather than a man (the rank).
    assert _moves(game, "W:W33:BK23,32") == {"33x13"}
    # Two men outweigh one king.
    assert _moves(game, "W:W43:B33,13,K42") == {"43x23x3"}


def test_frisian_king_must_capture_when_a_man_takes_as_much() -> None:
    game = frisian()
    moves = _moves(game, "W:W33,K50:B23,40")
    assert moves and {m.split("x")[0] for m in moves} == {"50"}


def test_frisian_same_king_makes_three_quiet_moves_at_most() -> None:
    game = frisian()
    state = game.parse_position("W:WK46,49:B3")
    for white, black in (("46-41", "3-8"), ("41-46", "8-12"), ("46-41", "12-17")):
        state = game.play_text(state, white)
        state = game.play_text(state, black)
    text = game.format_position(state)
    assert text.endswith(":KW41+3")
    assert game.parse_position(text) == state
    moves = {game.format_move(state, m) for m in game.legal_moves(state)}
    assert moves == {"49-43", "49-44"}
    state = game.play_text(game.play_text(state, "49-43"), "17-22")
    assert "41-37" in {game.format_move(state, m) for m in game.legal_moves(state)}
    with pytest.raises(PositionError, match="no white king"):
        game.parse_position("W:W46,49:B2:KW46+2")
    with pytest.raises(PositionError):
        game.parse_position("W:WK46,49:B2:KW46+4")


# -- Turkish ----------------------------------------------------------------------------------


def test_turkish_men_capture_forward_and_sideways_never_backwards() -> None:
    game = turkish()
    assert _moves(game, "W:Wd4:Bd3,c4,h7") == {"d4xb4"}
    assert _moves(game, "W:Wd4:Bd5,h7") == {"d4xd6"}
    assert _moves(game, "W:Wd4:Bh7") == {"d4-d5", "d4-c4", "d4-e4"}


def test_turkish_captured_pieces_leave_at_once() -> None:
    """A flying king lands on the square of a piece it took earlier in the same capture."""
    game = turkish()
    moves = _moves(game, "W:WKa3:Bc3,g5,e6,c4,h7")
    assert moves == {"a3xg3xg6xc6xc3", "a3xg3xg6xc6xc2", "a3xg3xg6xc6xc1"}


def test_turkish_capture_never_turns_back() -> None:
    game = turkish()
    assert _moves(game, "W:WKd4:Bd6,d2,h7") == {"d4xd7", "d4xd8", "d4xd1"}


def test_turkish_maximum_capture_and_promotion_at_the_end() -> None:
    game = turkish()
    # Two pieces forward beat one sideways; the man reaching the far row is crowned.
    state = game.parse_position("W:Wd4:Bd5,d7,e4,h6")
    moves = game.legal_moves(state)
    assert [game.format_move(state, m) for m in moves] == ["d4xd6xd8"]
    after = game.play(state, moves[0])
    assert game.format_position(after).startswith("B:WKd8:")


def test_frisian_king_endgames_draw() -> None:
    game = frisian()
    assert game.outcome(game.parse_position("W:WK46:BK5:H3")) is None
    drawn = game.parse_position("W:WK46:BK5:H4")
    assert game.legal_moves(drawn) == [] and "one king" in game.outcome(drawn).reason
    assert game.outcome(game.parse_position("W:WK46,K50:BK5:H13")) is None
    assert "two kings" in game.outcome(game.parse_position("W:WK46,K50:BK5:H14")).reason
    assert game.outcome(game.parse_position("W:WK46,K50,45:BK5:H14")) is None   # a man left
