"""Xiangqi as data (myriad/games/variants/xiangqi.toml): the generic mechanics it needs, each
on its own (pieces confined to a zone, moves gained in a zone, royal pieces that may not face
each other), then perft against the oracle and the rules that make the game."""

from __future__ import annotations

import random

import pytest

from myriad import PositionError, get_game
from myriad.core.errors import GameDefinitionError
from myriad.core.game import perft
from myriad.core.mechanics.betza import parse_betza
from myriad.core.mechanics.movement import CAPTURE, MoveTables
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.topology import square_board
from myriad.games.variant_file import load_variants

from oracles import load_oracle, require

FAST_NODES = 120_000      # default suite: every depth whose count is below this
SLOW_NODES = 5_000_000    # -m slow: deeper

# -- confinement and zone moves, on a bare 9x9 board ----------------------------------------------

BOX = ["d1", "e1", "f1", "d2", "e2", "f2", "d3", "e3", "f3"]


def tables(betza: str, confined: bool = True, zone_moves: str = "") -> tuple[MoveTables, object]:
    board = square_board(9, 9)
    box = frozenset(board.pos(s) for s in BOX)
    mirrored = frozenset(board.pos(s[0] + str(10 - int(s[1]))) for s in BOX)
    board = board.with_zones(box=[box, mirrored], top=[frozenset(p for p in range(board.size)
                                                                 if board.names[p].endswith(("6", "7", "8", "9"))),
                                                       frozenset(p for p in range(board.size)
                                                                 if board.names[p][1:] in ("1", "2", "3", "4"))])
    pieces = PieceSet([PieceKind("x", "X"), PieceKind("o", "O")])
    rules = parse_betza(betza)
    if zone_moves:
        from dataclasses import replace
        rules += tuple(replace(r, zone="top") for r in parse_betza(zone_moves))
    return MoveTables(board, pieces, {"x": rules, "o": ()}, confined={"x": "box"} if confined else None), board


def targets(betza: str, at: str, player: int = 0, **kw: object) -> set[str]:
    t, board = tables(betza, **kw)  # type: ignore[arg-type]
    cells = [0] * board.size  # type: ignore[attr-defined]
    cells[board.pos(at)] = t.pieces.code("x", player)  # type: ignore[attr-defined]
    return {board.names[m[-1][2]] for m in t.pseudo_moves(cells, player)}  # type: ignore[attr-defined]


def test_a_confined_piece_never_leaves_its_zone() -> None:
    assert targets("W", "e2") == {"e1", "e3", "d2", "f2"}
    assert targets("W", "d1") == {"d2", "e1"}
    assert targets("F", "d1") == {"e2"}
    assert targets("R", "d1") == {"d2", "d3", "e1", "f1"}      # rays stop at the edge
    assert targets("N", "e2") == set()
    assert targets("W", "e9", player=1) == {"e8", "d9", "f9"}  # Black's zone is mirrored
    assert targets("W", "d1", confined=False) == {"d2", "c1", "e1"}


def test_a_hopper_cannot_be_confined() -> None:
    with pytest.raises(GameDefinitionError, match="hopper"):
        tables("mRcpR")


def test_zone_moves_count_only_from_the_zone() -> None:
    assert targets("fW", "e5", confined=False, zone_moves="sW") == {"e6"}
    assert targets("fW", "e6", confined=False, zone_moves="sW") == {"e7", "d6", "f6"}
    assert targets("fW", "e4", player=1, confined=False, zone_moves="sW") == {"e3", "d4", "f4"}


@pytest.mark.parametrize("betza,confined,zone_moves", [
    ("W", True, ""), ("F", True, ""), ("R", True, ""), ("K", True, ""), ("nA", True, ""), ("N", True, ""),
    ("fW", False, "sW"), ("fW", False, "R"), ("fmW", False, "fcF")])
def test_attacks_agree_with_captures(betza: str, confined: bool, zone_moves: str) -> None:
    """A square is attacked exactly when a capture goes there, for confined pieces and for
    moves made from a zone only."""
    t, board = tables(betza, confined, zone_moves)
    pieces = t.pieces
    rng = random.Random(11)
    for _ in range(80):
        cells = [0] * board.size
        for pos in rng.sample(range(board.size), 16):
            cells[pos] = rng.choice([pieces.code("x", 0), pieces.code("o", 0), pieces.code("o", 1)])
        taken = {m[0][1] for m in t.pseudo_moves(cells, 0) if m[0][0] == CAPTURE}
        for pos in range(board.size):
            if cells[pos] and pieces.owner_of[cells[pos]] == 1:
                assert t.attacked(cells, pos, 0) == (pos in taken), (betza, board.names[pos])


# -- facing royal pieces ------------------------------------------------------------------------

FACING = '''
[facing]
name = "Facing kings"
files = 5
ranks = 5
start = "k4/4r/5/5/1RK1G w - - 0 1"

[facing.pieces.king]
letter = "K"
betza = "W"
royal = true

[facing.pieces.rook]
letter = "R"
betza = "R"

[facing.pieces.guard]
letter = "G"
betza = "F"

[facing.options]
no_facing_kings = true
'''


def test_royal_pieces_may_not_face_each_other() -> None:
    (game,) = load_variants(FACING, name="facing.toml")
    state = game.parse_position("1k3/5/5/5/2K2 w - - 0 1")
    assert {game.uci(state, m) for m in game.legal_moves(state)} == {"c1c2", "c1d1"}  # not b1: faces b5
    screened = game.parse_position("2k2/5/2G2/5/2K2 w - - 0 1")
    moves = {game.uci(screened, m) for m in game.legal_moves(screened)}
    assert moves == {"c1b1", "c1d1", "c1c2"}  # the screen may not leave the file
    with pytest.raises(PositionError, match="face"):
        game.parse_position("2k2/5/5/5/2K2 b - - 0 1")
    (free,) = load_variants(FACING.replace("no_facing_kings = true", "no_facing_kings = false"), name="f.toml")
    state = free.parse_position("1k3/5/5/5/2K2 w - - 0 1")
    assert "c1b1" in {free.uci(state, m) for m in free.legal_moves(state)}


# -- xiangqi --------------------------------------------------------------------------------------


def perft_cases(limit: int, floor: int = 0) -> list[object]:
    data = load_oracle("xiangqi_perft.json")
    return require([pytest.param(p["fen"], int(d), n, id=f"{p['name']}-d{d}")
                    for p in data["positions"] for d, n in p["perft"].items() if floor < n <= limit],
                   f"xiangqi perft counts from {floor + 1} to {limit} nodes")


@pytest.mark.parametrize("fen,depth,expected", perft_cases(FAST_NODES))
def test_perft(fen: str, depth: int, expected: int) -> None:
    game = get_game("xiangqi")
    assert perft(game, game.parse_position(fen), depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize("fen,depth,expected", perft_cases(SLOW_NODES, FAST_NODES))
def test_perft_deep(fen: str, depth: int, expected: int) -> None:
    game = get_game("xiangqi")
    assert perft(game, game.parse_position(fen), depth) == expected


def test_the_start_position_and_its_letters() -> None:
    game = get_game("xiangqi")
    assert game.format_position(game.initial_state()) == (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
    assert game.topology.width == 9 and game.topology.height == 10


def test_stalemate_loses() -> None:
    game = get_game("xiangqi")
    # Black's general on d10 cannot move: d9 and e10 are covered by the chariots, and it is not in check
    state = game.parse_position("3k5/R8/9/9/9/9/9/9/9/4RK3 b - - 0 1")
    assert not game.legal_moves(state) and not game.in_check(state)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.scores == (1.0, 0.0)


def test_pieces_off_their_zones_are_refused() -> None:
    game = get_game("xiangqi")
    with pytest.raises(PositionError, match="advisor on e5"):
        game.parse_position("4k4/9/9/9/9/4A4/9/9/9/4K4 w - - 0 1")
    with pytest.raises(PositionError, match="elephant on c7"):
        game.parse_position("4k4/9/9/2B6/9/9/9/9/9/4K4 w - - 0 1")


def test_moves_in_iccs_coordinates() -> None:
    game = get_game("xiangqi")
    state = game.initial_state()
    moves = {game.uci(state, m) for m in game.legal_moves(state)}
    assert {"h2e2", "b0c2", "a0a1", "e0e1", "c3c4"} <= moves and "h3e3" not in moves
    after = game.play_text(game.play_text(state, "h2e2"), "h9g7")
    assert game.format_position(after).split()[0] == "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR"


def test_a_triple_check_is_a_position_of_the_game() -> None:
    """A horse leaving the file uncovers a chariot and the cannon behind it and checks as
    well: three checkers, which chess positions never have."""
    game = get_game("xiangqi")
    state = game.parse_position("4k4/2N6/9/9/9/9/9/4R4/9/3KC4 b - - 0 1")
    assert game.in_check(state)
    assert {game.uci(state, m) for m in game.legal_moves(state)} == {"e9f9"}  # d9 faces the red general


def test_cpw_letters_are_read_too() -> None:
    game = get_game("xiangqi")
    for position in require(load_oracle("xiangqi_perft.json")["positions"], "xiangqi positions"):
        cpw = game.parse_position(position["fen_cpw_letters"] + " - - 0 1")
        assert game.format_position(cpw) == game.format_position(game.parse_position(position["fen"]))
