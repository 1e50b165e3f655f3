"""Lasca and Bashni: column draughts.

No independent Lasca or Bashni move generator was found (PyPI, the code index), so the
rules are checked on positions built from the published rules: the examples of lasca.org
("The Game of Lasca": http://www.lasca.org/show?2M1 and http://www.lasca.org/show?6UW),
and for Bashni the Russian draughts rules with towers.  Until a tower holding a prisoner
is jumped, Bashni plays exactly as Russian draughts, so its first perft depths must equal
the Russian oracle (../shared/oracles/draughts_8x8_perft.json).
"""

from __future__ import annotations

import pytest

from myriad.core.errors import PositionError
from myriad.core.game import perft
from myriad.games import get_game

from oracles import load_oracle, require


def _moves(game, text: str) -> set[str]:
    state = game.parse_position(text)
    return {game.format_move(state, m) for m in game.legal_moves(state)}


def _after(game, text: str, move: str) -> str:
    return game.format_position(game.play_text(game.parse_position(text), move))


# -- Lasca --------------------------------------------------------------------------------------


def test_lasca_start() -> None:
    game = get_game("lasca")
    state = game.initial_state()
    assert len(state.cells) == 25
    assert sum(1 for c in state.cells if c) == 22
    assert _moves(game, game.format_position(state)) == {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4"}


def test_lasca_capture_makes_a_column() -> None:
    """lasca.org: the white soldier at a1 captures the black soldier at b2, producing a
    two-counter column at c3, moved as a single piece belonging to White."""
    game = get_game("lasca")
    assert _moves(game, "W:a1=w,b2=b") == {"a1xc3"}
    assert _after(game, "W:a1=w,b2=b", "a1xc3") == "B:c3=wb"


def test_lasca_only_the_commander_is_captured() -> None:
    """lasca.org: the black soldier on b4 can capture the column's commander: White loses
    a piece and the black prisoner is released."""
    game = get_game("lasca")
    assert _moves(game, "B:b4=b,c3=wb") == {"b4xd2"}
    assert _after(game, "B:b4=b,c3=wb", "b4xd2") == "W:d2=bw,c3=b"


def test_lasca_a_column_is_jumped_once_per_move() -> None:
    """lasca.org: the black officer may only jump over the three-man column once."""
    game = get_game("lasca")
    assert _moves(game, "B:d4=B,c3=www") == {"d4xb2"}
    assert _after(game, "B:d4=B,c3=www", "d4xb2") == "W:b2=Bw,c3=ww"


def test_lasca_promotion_comes_at_the_end_of_the_move() -> None:
    """lasca.org: a soldier reaching the back line in a capture is promoted only at the end
    of the move, so it may not go on capturing as an officer."""
    game = get_game("lasca")
    assert _moves(game, "B:e3=b,d2=w,b2=w") == {"e3xc1"}
    assert _after(game, "B:e3=b,d2=w,b2=w", "e3xc1") == "W:c1=Bw,b2=w"


def test_lasca_soldiers_forward_officers_both_ways_one_step() -> None:
    game = get_game("lasca")
    assert _moves(game, "W:d4=w,a7=b") == {"d4-c5", "d4-e5"}
    assert _moves(game, "W:d4=Wbb,a7=b") == {"d4-c5", "d4-e5", "d4-c3", "d4-e3"}


def test_lasca_capture_compulsory_but_not_the_longest() -> None:
    game = get_game("lasca")
    # c3xa5 takes one piece, c3xe5xg7... two: both may be played.
    assert _moves(game, "W:c3=w,b4=b,d4=b,f6=b,a7=b") == {"c3xa5", "c3xe5xg7"}


def test_lasca_captured_officer_keeps_its_rank() -> None:
    game = get_game("lasca")
    assert _after(game, "B:b4=b,c3=wB", "b4xd2") == "W:d2=bw,c3=B"


def test_lasca_all_pieces_prisoners_loses() -> None:
    game = get_game("lasca")
    state = game.parse_position("W:c3=bw,e5=bw")
    assert game.legal_moves(state) == []
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == 1


@pytest.mark.parametrize(("text", "words"), [
    ("W:c3=wbw", "alternates colours"),
    ("W:c3=" + "w" * 12, "12 white pieces"),
    ("W:a7=w", "promotion row"),
    ("W:b3=w", "not square=column"),
    ("W:c3=x", "not square=column"),
    ("W:c3=w,c3=b", "given twice"),
    ("X:c3=w", "side W or B"),
    ("W:c3=w:H999", "half-move clock"),
])
def test_lasca_bad_positions(text: str, words: str) -> None:
    with pytest.raises(PositionError, match=words):
        get_game("lasca").parse_position(text)


# -- Bashni -------------------------------------------------------------------------------------


def test_bashni_plays_as_russian_draughts_until_towers_matter() -> None:
    records = require([r for r in load_oracle("draughts_8x8_perft.json")["variants_from_start"]
                       if r["variant"].startswith("russian")], "Russian draughts perft")
    game = get_game("bashni")
    state = game.initial_state()
    for depth in range(1, 6):
        assert perft(game, state, depth) == records[0]["perft"][str(depth)], depth


def test_bashni_men_capture_backwards_and_kings_fly() -> None:
    game = get_game("bashni")
    assert _moves(game, "W:d4=w,c3=b") == {"d4xb2"}
    assert _moves(game, "W:a1=W,d4=b") == {"a1xe5", "a1xf6", "a1xg7", "a1xh8"}


def test_bashni_promotion_during_a_capture_goes_on_as_a_king() -> None:
    game = get_game("bashni")
    assert _moves(game, "W:b6=w,c7=b,f6=b") == {"b6xd8xg5", "b6xd8xh4"}
    assert _after(game, "W:b6=w,c7=b,f6=b", "b6xd8xh4") == "B:h4=Wbb"


def test_bashni_prisoners_go_under_in_the_order_taken() -> None:
    game = get_game("bashni")
    assert _after(game, "W:a1=w,b2=B,d4=bw", "a1xc3xe5") == "B:d4=w,e5=wBb"


def test_column_draughts_finished_positions_have_no_moves() -> None:
    game = get_game("bashni")
    state = game.parse_position("W:a1=W,h8=B:H30")
    assert game.outcome(state) is not None and game.legal_moves(state) == []


def test_bashni_king_routes_differing_only_in_landings_are_one_move() -> None:
    """A flying king taking c3 then g7 may land on d4, e5 or f6 between: one move (the same
    pieces taken in the same order give the same tower), as routes merge in draughts."""
    game = get_game("bashni")
    state = game.parse_position("W:a1=W,c3=b,g7=b")
    moves = game.legal_moves(state)
    assert len(moves) == 1
    assert moves[0].path[-1] == game.topology.index["h8"]
    assert game.format_position(game.play(state, moves[0])) == "B:h8=Wbb"


def test_the_browser_is_sent_each_column_top_first() -> None:
    from myriad.web.layout import board_style, cells_json
    from myriad.web.moves import moves_json

    game = get_game("lasca")
    state = game.parse_position("W:c3=wbB,d4=b,a7=b")
    cells = {game.topology.names[p]: c for p, c in enumerate(cells_json(game, state)) if c}
    assert cells["c3"]["stack"] == [{"owner": 0, "king": False}, {"owner": 1, "king": False},
                                    {"owner": 1, "king": True}]
    assert cells["c3"]["owner"] == 0 and "stack" not in cells["d4"]
    # A capture grows the column but promotes nothing: no promotion is offered.
    state = game.parse_position("W:c3=w,d4=b,a7=b")
    assert [m.get("promotion") for m in moves_json(game, state, game.legal_moves(state))] == [None]
    assert board_style(game) == "checkered" and board_style(get_game("turkish")) == "grid"
