"""Draughts family: oracle perft, PDN notation, capture rules from the rule books, errors."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from myriad.core.errors import IllegalMoveError, InvalidMoveError, PositionError
from myriad.core.game import perft
from myriad.core.move import CAPTURE, MOVE
from myriad.games import get_game
from myriad.games.draughts import (
    BLACK,
    WHITE,
    Draughts,
    brazilian,
    english,
    international,
    russian,
)

import oracles
from oracles import load_oracle, require

FACTORIES = {"checkers": english, "russian": russian, "brazilian": brazilian, "international": international}
# Depths run by default (well under a few seconds together); the slow marker goes deeper.
FAST_DEPTH = {"checkers": 6, "russian": 6, "brazilian": 6, "international": 5}
SLOW_DEPTH = {"checkers": 8, "russian": 8, "brazilian": 8, "international": 8}
# Where each oracle file calls the variant.
VARIANT_PREFIX = {"checkers": "english", "russian": "russian", "brazilian": "brazilian"}


def oracle_positions() -> list[tuple[str, dict]]:
    """(game id, position record) for every draughts position we play, from the oracle files."""
    out = []
    for record in load_oracle("draughts_8x8_perft.json")["variants_from_start"]:
        for gid, prefix in VARIANT_PREFIX.items():
            if record["variant"].startswith(prefix):
                out.append((gid, record))
    out.extend(("international", record)
               for record in load_oracle("draughts_international_perft.json")["positions"])
    return require(out, "draughts positions")


ORACLE = oracle_positions()
ORACLE_IDS = [f"{gid}-{rec.get('name', rec.get('variant'))}" for gid, rec in ORACLE]


def test_oracle_files_cover_every_variant() -> None:
    assert {gid for gid, _ in ORACLE} == set(FACTORIES)


def test_missing_oracle_data_fails_instead_of_passing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With MYRIAD_ORACLES naming an empty (or no) directory, loading fails the test, and
    collecting this file is an error: the perft checks cannot pass by checking nothing."""
    monkeypatch.setenv(oracles.ENV, str(tmp_path))
    with pytest.raises(pytest.fail.Exception, match="draughts_8x8_perft.json not found"):
        oracle_positions()
    with pytest.raises(pytest.fail.Exception, match="oracle directory .* not found"):
        monkeypatch.setenv(oracles.ENV, str(tmp_path / "nowhere"))
        oracles.load_oracle("solved.json")
    env = {**os.environ, oracles.ENV: str(tmp_path)}
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                          __file__], env=env, capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[1])
    assert run.returncode != 0, run.stdout
    assert "draughts_8x8_perft.json not found" in run.stdout


def test_oracle_loader_reads_the_directory_named_and_refuses_empty_data(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "facts.json").write_text('{"perft": {"1": 7}}')
    (tmp_path / "empty.json").write_text("{}")
    (tmp_path / "broken.json").write_text('{"perft": ')
    monkeypatch.setenv(oracles.ENV, str(tmp_path))
    assert oracles.load_oracle("facts.json") == {"perft": {"1": 7}}
    for name, reason in [("empty.json", "is empty"), ("broken.json", "cannot be read as JSON")]:
        with pytest.raises(pytest.fail.Exception, match=reason):
            oracles.load_oracle(name)
    with pytest.raises(pytest.fail.Exception, match="no draughts positions"):
        oracles.require([], "draughts positions")


def _check_perft(gid: str, record: dict, max_depth: int, key: str = "perft", merge: bool = True) -> None:
    game = FACTORIES[gid](merge_duplicate_routes=merge)
    state = game.parse_position(record["fen"])
    for depth in range(1, max_depth + 1):
        expected = record[key].get(str(depth))
        if expected is not None:
            assert perft(game, state, depth) == expected, f"{gid} depth {depth}"


@pytest.mark.parametrize(("gid", "record"), ORACLE, ids=ORACLE_IDS)
def test_perft(gid: str, record: dict) -> None:
    _check_perft(gid, record, FAST_DEPTH[gid])


@pytest.mark.slow
@pytest.mark.parametrize(("gid", "record"), ORACLE, ids=ORACLE_IDS)
def test_perft_deep(gid: str, record: dict) -> None:
    # Depth 8 is where duplicate capture routes first appear (Russian, Brazilian, 10x10).
    _check_perft(gid, record, SLOW_DEPTH[gid])


@pytest.mark.slow
@pytest.mark.parametrize(("gid", "record"), ORACLE, ids=ORACLE_IDS)
def test_perft_keeping_duplicate_routes(gid: str, record: dict) -> None:
    # The same tree counting every capture route as a move of its own.
    _check_perft(gid, record, SLOW_DEPTH[gid], key="perft_keep_duplicates", merge=False)


# -- the games --------------------------------------------------------------------------------


def test_registry_and_start_positions() -> None:
    for gid in FACTORIES:
        game = get_game(gid)
        assert isinstance(game, Draughts) and game.id == gid
    # English checkers: Black moves first; the others: White.
    assert get_game("checkers").initial_state().to_move == BLACK
    for gid in ("russian", "brazilian", "international"):
        assert get_game(gid).initial_state().to_move == WHITE
    assert get_game("checkers").format_position(get_game("checkers").initial_state()) == (
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
    assert len(get_game("international").legal_moves(get_game("international").initial_state())) == 9


def test_numbering_follows_pdn() -> None:
    game = international()
    topo = game.topology
    # Square 1 is b10 (top left dark square from White's side), 46 is a1, 5 and 46 end the
    # long diagonal.
    assert topo.coords[topo.index["1"]] == (1.0, 9.0)
    assert topo.coords[topo.index["46"]] == (0.0, 0.0)
    assert topo.coords[topo.index["5"]] == (9.0, 9.0)
    eight = english().topology
    assert eight.coords[eight.index["29"]] == (0.0, 0.0)
    assert eight.coords[eight.index["4"]] == (7.0, 7.0)


# -- PDN positions ----------------------------------------------------------------------------


@pytest.mark.parametrize(("gid", "record"), ORACLE, ids=ORACLE_IDS)
def test_oracle_fen_round_trip(gid: str, record: dict) -> None:
    game = FACTORIES[gid]()
    assert game.format_position(game.parse_position(record["fen"])) == record["fen"]


def test_fen_ranges_kings_and_list_order() -> None:
    game = international()
    start = game.initial_state()
    assert game.parse_position("W:W31-50:B1-20") == start
    assert game.parse_position("W:B1-20:W31-50.") == start
    assert game.parse_position('"w:w31-50:b1-20"') == start
    state = game.parse_position("W:WK5,31:B1")
    assert game.format_position(state) == "W:WK5,31:B1"
    kings = game.parse_position("B:WK46-48:BK1-2,9")
    assert game.format_position(kings) == "B:WK46,K47,K48:BK1,K2,9"
    assert game.parse_position("W:W:B1").cells.count(0) == 49
    # The half-move clock (lidraughts' H field) travels with the position; F is ignored.
    clocked = game.parse_position("W:WK46:BK1:H7:F30")
    assert clocked.counters == (7,)
    assert game.format_position(clocked) == "W:WK46:BK1:H7"


@pytest.mark.parametrize(("text", "words"), [
    ("", "empty"),
    ("X:W31:B1", "side to move"),
    ("W", "no piece lists"),
    ("W:W31:B1:W32", "field W is given twice"),
    ("W:W31:B1:Hx", "'Hx'"),
    ("W:W31:Q1", "'Q1'"),
    ("W:W31:W32", "twice"),
    ("W:W51:B1", "square 51"),
    ("W:W0:B1", "square 0"),
    ("W:W31,31:B1", "square 31 is given twice"),
    ("W:W31:B31", "square 31 is given twice"),
    ("W:W3x:B1", "'3x'"),
    ("W:W31,,32:B1", "empty square"),
    ("W:W40-35:B1", "backwards"),
    ("W:W3:B1", "square 3"),  # a white man on its promotion row
    ("W:W31:B48", "square 48"),  # a black man on its promotion row
])
def test_bad_fen(text: str, words: str) -> None:
    with pytest.raises(PositionError, match=words.replace("(", r"\(")):
        international().parse_position(text)


# -- moves and notation ----------------------------------------------------------------------


def random_states(game: Draughts, count: int, seed: int) -> list:
    """States met in random games (captures, promotions and kings included)."""
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        state = game.initial_state()
        for _ in range(120):
            moves = game.legal_moves(state)
            if not moves:
                break
            states.append(state)
            state = game.play(state, rng.choice(moves))
    return states


@pytest.mark.parametrize("gid", list(FACTORIES))
def test_move_and_position_round_trips(gid: str) -> None:
    game = FACTORIES[gid]()
    for state in random_states(game, 300, seed=len(gid)):
        assert game.parse_position(game.format_position(state)) == state
        assert game.recomputed_key(state) == state.key
        for move in game.legal_moves(state):
            text = game.format_move(state, move)
            assert game.parse_move(state, text) == move
            for alias in game.move_aliases(state, move):
                assert game.parse_move(state, alias) == move


def test_actions_of_a_multi_capture() -> None:
    game = international()
    state = game.parse_position("W:W33:B17,28,29")
    (move,) = game.legal_moves(state)
    kinds = [a.kind for a in move]
    assert kinds == [MOVE, MOVE, CAPTURE, CAPTURE]
    assert [a.part for a in move if a.kind == MOVE] == [0, 1]
    after = game.play(state, move)
    assert game.format_position(after) == "B:W11:B29"
    assert after.cells == game.play(state, game.parse_move(state, "33x11")).cells


def test_move_errors() -> None:
    game = international()
    start = game.initial_state()
    for text in ("e2e4", "32--28", "32-28-23", "x32", "32x", "32 28"):
        with pytest.raises(InvalidMoveError):
            game.parse_move(start, text)
    with pytest.raises(InvalidMoveError, match="square 51"):
        game.parse_move(start, "46-51")
    with pytest.raises(IllegalMoveError):
        game.parse_move(start, "36-31")
    with pytest.raises(IllegalMoveError):
        game.parse_move(start, "32x21")


# -- capture rules, from the rule books ------------------------------------------------------


# The rule-book positions below are written in PDN square numbers: Russian and Brazilian
# draughts take them with notation="numeric" (their default is algebraic, see
# tests/test_draughts_notation.py).


def legal(game: Draughts, fen: str) -> set[str]:
    state = game.parse_position(fen)
    return {game.format_move(state, m) for m in game.legal_moves(state)}


def test_capture_is_compulsory() -> None:
    # White man 22 (c3) can take 18 (d4), landing on 15; the man on 30 could step.
    for game in (english(), russian(notation="numeric"), brazilian(notation="numeric")):
        assert legal(game, "W:W22,30:B18") == {"22x15"}, game.id


def test_men_capture_backwards_except_in_english() -> None:
    # A white man on 18 (d4) with a black man behind it on 22 (c3), 25 (b2) empty.
    assert legal(english(), "W:W18:B22") == {"18-14", "18-15"}
    for game in (russian(notation="numeric"), brazilian(notation="numeric")):
        assert legal(game, "W:W18:B22") == {"18x25"}


def test_promotion_during_a_capture() -> None:
    # White man 9 (b6) jumps 6 (c7) to 2 (d8) on the king row.  From d8 the diagonal runs
    # 7 (e7), 11 (f6), 16 (g5), 20 (h4); a black piece waits on 11 or on 7.
    fen_far, fen_near = "W:W9:B6,11", "W:W9:B6,7"
    # English: the man is crowned and the move ends.
    assert legal(english(), fen_far) == {"9x2"}
    assert legal(english(), fen_near) == {"9x2"}
    # Russian: it becomes a king at once and captures on as a flying king.
    assert legal(russian(notation="numeric"), fen_far) == {"9x2x16", "9x2x20"}
    assert legal(russian(notation="numeric"), fen_near) == {"9x2x11", "9x2x16", "9x2x20"}
    # Brazilian (international rules): it stays a man while the capture goes on and is
    # crowned only if the move ends on the king row.
    assert legal(brazilian(notation="numeric"), fen_far) == {"9x2"}
    assert legal(brazilian(notation="numeric"), fen_near) == {"9x2x11"}

    def piece_after(game: Draughts, fen: str, text: str) -> str:
        state = game.parse_position(fen)
        move = game.parse_move(state, text)
        assert move[len(move.path) - 2].piece == game.play(state, move).cells[move.to]
        return game.pieces.kind(game.play(state, move).cells[move.to]).name

    assert piece_after(english(), fen_far, "9x2") == "king"
    assert piece_after(russian(notation="numeric"), fen_near, "9x2x11") == "king"
    assert piece_after(brazilian(notation="numeric"), fen_far, "9x2") == "king"
    assert piece_after(brazilian(notation="numeric"), fen_near, "9x2x11") == "man"


def test_maximum_capture() -> None:
    # White man 33 (f4) can take 28 (e5) then 17 (c7), or only 29 (g5): the international
    # rules demand the sequence taking the most pieces.
    fen = "W:W33:B17,28,29"
    assert legal(international(), fen) == {"33x22x11"}
    assert legal(international(), "W:W33:B28,29") == {"33x22", "33x24"}


def test_maximum_capture_counts_pieces_not_kings() -> None:
    # White man 22 (c3) takes 18 (a black king on d4) and 11 (f6); the white king on 32 (g1)
    # can only take the king on 18, landing on 14, 9 or 5.  Brazilian: the man's two-piece
    # capture is the only legal move; Russian (free choice): all of them.
    fen = "W:W22,K32:B11,K18"
    assert legal(brazilian(notation="numeric"), fen) == {"22x15x8"}
    assert legal(russian(notation="numeric"), fen) == {"22x15x8", "32x14", "32x9", "32x5"}


def test_flying_king_must_land_where_the_capture_goes_on() -> None:
    # White king 29 (a1) takes 25 (b2) and may land on 22, 18, 15, 11, 8 or 4; only from 15
    # (e5) can it take 24 (g3), landing on 28: so it must land there.
    for game in (russian(notation="numeric"), brazilian(notation="numeric")):
        assert legal(game, "W:WK29:B25,24") == {"29x15x28"}, game.id
    # With nothing to take afterwards, every landing square is free.
    assert legal(russian(notation="numeric"), "W:WK29:B25") == {"29x22", "29x18", "29x15", "29x11", "29x8", "29x4"}


def test_captured_pieces_block_until_the_move_ends() -> None:
    # White king 27 (f2) takes 18 (d4) landing on 14 or 9 (a7 leads nowhere), then 7 from
    # 14, or 6 then 7 from 9.  Landing on 11 (f6), the king faces 18 again down the long
    # diagonal: a captured piece stays on the board until the move ends, so 22 behind it
    # cannot be reached (it could if captured pieces vanished at once).
    fen = "W:WK27:B6,7,18,22"
    assert legal(russian(notation="numeric"), fen) == {"27x14x3", "27x9x2x11", "27x9x2x16", "27x9x2x20"}
    assert legal(brazilian(notation="numeric"), fen) == {"27x9x2x11", "27x9x2x16", "27x9x2x20"}


def test_duplicate_routes_are_one_move() -> None:
    # An English king on 30 (c1) can take 25, 17, 18, 26 round the square 22 (c3) either
    # way: same start, end and captured pieces, so one move.
    fen = "W:WK30:B17,18,25,26"
    game = english()
    moves = game.legal_moves(game.parse_position(fen))
    assert len(moves) == 1
    assert moves[0].frm == moves[0].to == game.topology.index["30"]
    assert sorted(game.topology.names[c] for c in moves[0].captures) == ["17", "18", "25", "26"]
    routes = english(merge_duplicate_routes=False).legal_moves(game.parse_position(fen))
    assert len(routes) == 2


# -- end of the game -------------------------------------------------------------------------


def test_no_legal_move_loses() -> None:
    game = international()
    out = game.outcome(game.parse_position("W:W:B1"))
    assert out is not None and out.winner == BLACK
    # Blocked: the white man on 46 (a1) faces 41 (b2), and 37 (c3) behind it is taken.
    blocked = game.parse_position("W:W46:B41,37")
    assert game.legal_moves(blocked) == [] and game.outcome(blocked).winner == BLACK
    assert game.outcome(game.initial_state()) is None


def test_repetition_and_move_count_draws() -> None:
    game = international()
    state = game.parse_position("W:WK46:BK1")
    for _ in range(2):
        for text in ("46-41", "1-6", "41-46", "6-1"):
            assert game.outcome(state) is None
            state = game.play_text(state, text)
    out = game.outcome(state)
    assert out is not None and out.winner is None and "repetition" in out.reason
    # 25 moves each of kings only, without capture or man move, is a draw.
    near = game.make_state(game.parse_position("W:WK46,35:BK1").cells, WHITE, (), (49,))
    assert game.outcome(near) is None
    after = game.play_text(near, "46-41")
    assert after.counters == (50,)
    assert game.outcome(after) is not None and game.outcome(after).winner is None
    # A man move is irreversible: the clock and the history restart.
    reset = game.play_text(near, "35-30")
    assert reset.counters == (0,) and reset.history == ()


def test_render_shows_pieces_and_numbers() -> None:
    game = english()
    text = game.render(game.parse_position("W:WK5,31:B1"))
    lines = text.splitlines()
    assert lines[0].split()[0] == "b" and lines[0].rstrip().endswith("1-4")
    assert lines[1].split()[0] == "W" and lines[1].rstrip().endswith("5-8")
    assert "w" in lines[7]
    assert "white to move" in text
