"""The custodial-capture and restricted-slide mechanics, on tafl positions (rules of
Copenhagen hnefatafl, aagenielsen.dk/copenhagen_rules.php, and the brandubh and tablut
reconstructions the games' docstrings name)."""

from __future__ import annotations

import pytest

from myriad.core.errors import GameDefinitionError, PositionError
from myriad.core.mechanics.custodial import CustodialCapture
from myriad.core.mechanics.restricted import RestrictedSlides
from myriad.core.topology import square_board
from myriad.games import get_game

EMPTY11 = "/".join(["11"] * 11)


def board(game_id: str, pieces: dict[str, str], side: str = "b") -> str:
    """A position text with ``pieces`` (square -> letter) on an empty board."""
    game = get_game(game_id)
    cells = [0] * game.topology.size
    for sq, letter in pieces.items():
        cells[game.topology.pos(sq)] = game.pieces.code_of_letter[letter]
    state = game.make_state(cells, 0 if side == "b" else 1, (), (0,))
    return game.format_position(state).rsplit(" ", 2)[0] + f" {side} 0"


def captures_of(game_id: str, pieces: dict[str, str], move: str, side: str = "b") -> set[str]:
    game = get_game(game_id)
    state = game.parse_position(board(game_id, pieces, side))
    m = game.parse_move(state, move)
    return {game.topology.names[p] for p in m.captures}


def test_sandwich_and_safe_entry() -> None:
    pieces = {"f6": "K", "d4": "D", "c4": "A", "e1": "A"}
    assert captures_of("hnefatafl", pieces, "e1-e4") == {"d4"}
    # a piece may move in between two enemies
    pieces = {"f6": "K", "c4": "A", "e4": "A", "d1": "D"}
    assert captures_of("hnefatafl", pieces, "d1-d4", "w") == set()


def test_corners_and_empty_throne_are_hostile() -> None:
    assert captures_of("hnefatafl", {"f7": "K", "b1": "D", "c5": "A"}, "c5-c1") == {"b1"}
    # the empty throne (f6) closes a sandwich against a defender on f5
    assert captures_of("hnefatafl", {"b2": "K", "f5": "D", "a4": "A"}, "a4-f4") == {"f5"}
    # ... but the throne with the king on it is not hostile to his defenders
    assert captures_of("hnefatafl", {"f6": "K", "f5": "D", "a4": "A"}, "a4-f4") == set()


def test_armed_king_captures() -> None:
    assert captures_of("hnefatafl", {"c6": "K", "d6": "A", "e2": "D", "j1": "A"}, "e2-e6", "w") == {"d6"}


def test_king_four_sides_in_copenhagen() -> None:
    around = {"e5": "K", "d5": "A", "f5": "A", "e6": "A", "j4": "A"}
    assert captures_of("hnefatafl", around, "j4-e4") == {"e5"}
    # two attackers are not enough
    assert captures_of("hnefatafl", {"e5": "K", "d5": "A", "j5": "A"}, "j5-f5") == set()
    # beside the throne: three attackers and the empty throne
    assert captures_of("hnefatafl", {"f5": "K", "e5": "A", "g5": "A", "j4": "A"}, "j4-f4") == {"f5"}
    # on the edge he cannot be taken
    assert captures_of("hnefatafl", {"e1": "K", "d1": "A", "e2": "A", "j1": "A"}, "j1-f1") == set()


def test_king_two_sides_in_brandubh_except_by_the_throne() -> None:
    assert captures_of("brandubh", {"b6": "K", "a6": "A", "c1": "A"}, "c1-c6") == {"b6"}
    # beside the throne (d4) four sides are needed: three attackers and the throne
    assert captures_of("brandubh", {"d5": "K", "c5": "A", "e2": "A"}, "e2-e5") == set()
    assert captures_of("brandubh", {"d5": "K", "c5": "A", "d6": "A", "e2": "A"}, "e2-e5") == {"d5"}


def test_shieldwall() -> None:
    wall = {"c1": "D", "d1": "D", "e1": "K", "c2": "A", "d2": "A", "e2": "A", "b1": "A", "k5": "A"}
    got = captures_of("hnefatafl", {**wall, "f7": "D"}, "k5-f5")
    assert got == set()  # not closed yet
    wall["f3"] = "A"
    got = captures_of("hnefatafl", wall, "f3-f1")
    assert got == {"c1", "d1"}  # the king helps form the wall and is never taken by it
    # one piece of the row not faced from inside: no capture
    del wall["d2"]
    assert captures_of("hnefatafl", wall, "f3-f1") == set()


def test_restricted_squares() -> None:
    game = get_game("hnefatafl")
    state = game.parse_position(board("hnefatafl", {"b2": "K", "f3": "A", "a6": "A"}))
    texts = {game.format_move(state, m) for m in game.legal_moves(state)}
    assert "f3-f7" in texts and "f3-f6" not in texts  # over the empty throne, not onto it
    assert "a6-a11" not in texts and "a6-a10" in texts  # never onto a corner
    tablut = get_game("tablut")
    assert tablut.escape_squares == tablut.edge


def test_exit_fort_and_encirclement() -> None:
    game = get_game("hnefatafl")
    fort = {"f1": "K", "e1": "D", "g1": "D", "e2": "D", "g2": "D", "e3": "D", "f3": "D", "g3": "D", "a5": "A"}
    state = game.parse_position(board("hnefatafl", fort, "b"))
    out = game.outcome(state)
    assert out is not None and out.reason == "the king stands in an exit fort"
    # without e3 and g3, attackers on e3 and g3 would take f3: the fort can be broken
    del fort["e3"], fort["g3"]
    assert game.outcome(game.parse_position(board("hnefatafl", fort, "b"))) is None
    # the king cannot move: no fort
    walled = {"f1": "K", "e1": "D", "g1": "D", "f2": "D", "e2": "D", "g2": "D", "a5": "A"}
    assert game.outcome(game.parse_position(board("hnefatafl", walled, "b"))) is None
    ring = {"f6": "K", "e6": "A", "g6": "A", "f5": "A", "f7": "A"}
    state = game.parse_position(board("hnefatafl", ring, "w"))
    assert game.outcome(state).reason == "the attackers encircle every white piece"


def test_repetition_loses_for_white_in_copenhagen() -> None:
    game = get_game("hnefatafl")
    state = game.parse_position(board("hnefatafl", {"c3": "K", "h8": "A", "b9": "D"}))
    for _ in range(2):
        for text in ("h8-h9", "c3-c4", "h9-h8", "c4-c3"):
            state = game.play_text(state, text)
    out = game.outcome(state)
    assert out is not None and out.winner == 0 and "repeated" in out.reason
    brandubh = get_game("brandubh")
    state = brandubh.parse_position(board("brandubh", {"c3": "K", "f6": "A", "b6": "D"}))
    for _ in range(2):
        for text in ("f6-f5", "c3-c2", "f5-f6", "c2-c3"):
            state = brandubh.play_text(state, text)
    assert brandubh.outcome(state).reason == "threefold repetition"


@pytest.mark.parametrize(("text", "words"), [
    ("3A3/3A3/3D3/AADKDAA/3D3/3A3/3A3", "side to move"),
    ("3A3/3A3/3D3/AADKDAA/3D3/3A3/3A3 x 0", "side to move"),
    ("3A3/3A3/3D3/AADXDAA/3D3/3A3/3A3 b 0", "no king"),
    ("3A3/3A3/3D3/AADADAA/3D3/3A3/3A3 b 0", "king"),
    ("A2A3/3A3/3D3/AADKDAA/3D3/3A3/3A3 b 0", "only the king"),
    ("K6/3A3/3D3/AAD1DAA/3D3/3A3/3A3 w 0", "escaped"),
    ("3A3/3A3/3D3/AADKDAA/3D3/3A3/3A3 b 999", "plies"),
    ("1AAAAA1/3A3/3D3/AADKDAA/3D3/3A3/3A3 b 0", "soldiers"),
])
def test_bad_positions(text: str, words: str) -> None:
    with pytest.raises(PositionError, match=words):
        get_game("brandubh").parse_position(text)


def test_mechanics_refuse_bad_parameters() -> None:
    topo = square_board(5, 5, diagonals=False)
    with pytest.raises(GameDefinitionError, match="royal_sides"):
        CustodialCapture(topo, (-1, 0, 1), royal_sides=3)
    with pytest.raises(GameDefinitionError, match="direction"):
        CustodialCapture(topo, (-1, 0, 1), directions=(("ne", "sw"),))


def test_unarmed_pieces_do_not_capture() -> None:
    topo = square_board(5, 5, diagonals=False)
    owner_of = (-1, 0, 1, 1)  # 1: a piece of player 0; 2, 3: player 1's soldier and unarmed king
    cap = CustodialCapture(topo, owner_of, armed={1, 2})
    cells = [0] * 25
    c = topo.pos
    cells[c("a1")], cells[c("b1")], cells[c("c1")] = 2, 1, 2
    assert cap.captures(cells, c("c1")) == [c("b1")]
    cells[c("a1")] = 3
    assert cap.captures(cells, c("c1")) == []  # nor does an unarmed piece at the far end
    cells[c("a1")], cells[c("c1")] = 2, 3
    assert cap.captures(cells, c("c1")) == []  # the unarmed king closes nothing


def test_slides_pass_or_stop_at_restricted_squares() -> None:
    topo = square_board(5, 1, diagonals=False)
    cells = [1, 0, 0, 0, 0]
    closed = RestrictedSlides(topo, restricted={2}, privileged={9})
    passing = RestrictedSlides(topo, restricted={2}, passable={2}, privileged={9})
    assert closed.targets(cells, 0) == [1]
    assert passing.targets(cells, 0) == [1, 3, 4]
    assert RestrictedSlides(topo, restricted={2}, privileged={1}).targets(cells, 0) == [1, 2, 3, 4]
