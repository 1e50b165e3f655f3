"""Xiangqi notation: WXF moves (myriad/notation/wxf.py) and ICCS coordinates, pinned by a
published game record, by the examples of the WXF notation page
(http://www.wxf.org/xq/computer/wxf_notation.html), by Fairy-Stockfish's WXF writer and by
round trips over random games; positions as xiangqi programs write them."""

from __future__ import annotations

import random
import re

import pytest

from myriad import get_game
from myriad.core.errors import GameDefinitionError, IllegalMoveError, InvalidMoveError
from myriad.core.piece_game import PieceGame
from myriad.core.state import State
from myriad.games.variant_file import load_variants
from myriad.notation.records import read_records, replay, write_record
from myriad.notation.wxf import parse_wxf, wxf_texts

# A game played on PlayOK, as its WXF file records it (hartwork/xiangqi-setup,
# doc/demo-with-history-playok.wxf; RESULT 0-1).  PlayOK writes Black's moves in lower case.
PLAYOK = """
 1. P3+1 c8.7   2. E7+5 c2.5   3. H2+3 h2+3
 4. H8+6 r1.2   5. H3+4 h8+9   6. C2+4 r9+1
 7. C2.5 a4+5   8. C5-1 r9.6   9. H4+6 r6+3
10. H++7 c7.3  11. C5-1 r6.4  12. R9+1 c3.4
13. R1.2 c4+6  14. R9.8 c4-2  15. R2+7 c4.9
16. C5+2 r4+3  17. C5.1 r2+7  18. R8+1 r4.2
19. C1.7 c9+3  20. R2.1 e7+9  21. P7+1 r2.5
22. A6+5 r5+1  23. K5.6 r5-2  24. C7.8 c9.6
25. C8+3 a5-4  26. P7+1 c5.4  27. P7+1 r5.4
"""
PLAYOK_MOVES = [t for t in PLAYOK.split() if not re.fullmatch(r"\d+\.", t)]


@pytest.fixture(scope="module")
def game() -> PieceGame:
    found = get_game("xiangqi")
    assert isinstance(found, PieceGame)
    return found


def written(game: PieceGame, fen: str) -> dict[str, str]:
    """The legal moves of ``fen``: WXF text -> ICCS."""
    state = game.parse_position(fen)
    return {game.format_move(state, m): game.uci(state, m) for m in game.legal_moves(state)}


# -- a published game -------------------------------------------------------------------------


def test_a_published_game_reads_and_writes_back_move_for_move(game: PieceGame) -> None:
    state = game.initial_state()
    iccs = []
    for text in PLAYOK_MOVES:
        move = game.parse_move(state, text)
        assert game.format_move(state, move) == text.upper()
        uci = game.uci(state, move)
        assert game.parse_move(state, uci) == move and game.parse_move(state, uci.upper()[:2] + "-"
                                                                       + uci.upper()[2:]) == move
        iccs.append(uci)
        state = game.play(state, move)
    # Red's third-file pawn, Black's cannon on its file 8 (the h-file), the front horse of two
    assert iccs[:2] == ["g3g4", "h7g7"] and iccs[PLAYOK_MOVES.index("H++7")] == "d5c7"
    assert iccs[PLAYOK_MOVES.index("a5-4")] == "e8d9"         # an advisor's retreat
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == 1 and outcome.reason == "checkmate"


def test_the_start_position(game: PieceGame) -> None:
    moves = written(game, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
    assert len(moves) == 44
    assert {"C2.5": "h2e2", "H2+3": "h0g2", "H8+7": "b0c2", "E3+5": "g0e2", "A4+5": "f0e1",
            "R1+2": "i0i2", "P7+1": "c3c4", "C8-1": "b2b1", "K5+1": "e0e1", "C2+7": "h2h9"}.items() <= moves.items()
    black = written(game, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1")
    assert {"C8.5": "h7e7", "C2.5": "b7e7", "H8+7": "h9g7", "H2+3": "b9c7", "P3+1": "c6c5"}.items() <= black.items()


# -- the WXF page's rules for tandem pieces ----------------------------------------------------------


def test_two_pieces_on_a_file_are_front_and_rear(game: PieceGame) -> None:
    moves = written(game, "3k5/9/9/9/9/9/4R4/9/4R4/5K3 w - - 0 1")  # chariots on e3 and e1
    assert moves["R+.3"] == "e3g3" and moves["R-.3"] == "e1g1"     # "車前平三 R+.3"
    assert moves["R++4"] == "e3e7" and moves["R--1"] == "e1e0" and moves["R-+1"] == "e1e2"
    assert not any(re.match(r"R\d", t) for t in moves)
    cannons = written(game, "3k5/9/9/9/9/9/4C4/9/4C4/5K3 w - - 0 1")
    assert cannons["C--1"] == "e1e0"                                # "炮後退一 C--1"


def test_three_pawns_on_a_file(game: PieceGame) -> None:
    moves = written(game, "3k5/9/6P2/6P2/6P2/9/9/9/9/5K3 w - - 0 1")  # Red's file 3: g7, g6, g5
    assert {"P+.4": "g7f7", "P3.4": "g6f6", "P-.4": "g5f5"}.items() <= moves.items()


def test_five_and_four_pawns_on_a_file(game: PieceGame) -> None:
    five = written(game, "3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/5K3 w - - 0 1")
    assert {"++.4": "g9f9", "P+.4": "g8f8", "P3.4": "g7f7", "P-.4": "g6f6", "--.4": "g5f5"}.items() <= five.items()
    four = written(game, "3k5/6P2/6P2/6P2/6P2/9/9/9/9/5K3 w - - 0 1")
    assert {"++.4": "g8f8", "P+.4": "g7f7", "P-.4": "g6f6", "--.4": "g5f5"}.items() <= four.items()


def test_pawns_on_two_files_are_named_by_their_file(game: PieceGame) -> None:
    moves = written(game, "3k5/6P2/2P3P2/2P3P2/9/9/9/9/9/5K3 w - - 0 1")  # 3 on file 3, 2 on file 7
    assert {"3+.4": "g8f8", "33.4": "g7f7", "3-.4": "g6f6", "7+.6": "c7d7", "7-.6": "c6d6"}.items() <= moves.items()
    assert not any(t.startswith("P") for t in moves)


def test_black_tandem_pieces_count_forward_towards_red(game: PieceGame) -> None:
    moves = written(game, "5k3/9/9/9/2p6/2p6/9/9/9/4K4 b - - 0 1")  # Black's file 3: c5 in front of c4
    assert moves["P++1"] == "c4c3" and moves["P+.4"] == "c4d4" and moves["P+.2"] == "c4b4"
    assert "P-+1" not in moves and moves.keys() >= {"P++1", "P+.4", "P+.2"}  # c5 is blocked by c4


# -- advisors, elephants, retreats -------------------------------------------------------------------


def test_advisor_and_elephant_moves_name_the_file_they_reach(game: PieceGame) -> None:
    moves = written(game, "4k4/9/9/9/9/9/9/4B4/4A4/3K1A3 w - - 0 1")
    assert moves["A5+6"] == "e1d2" and moves["A5+4"] == "e1f2"
    assert not any(t.startswith("A4") for t in moves)                 # f0's only point, e1, is taken
    assert moves["E5+3"] == "e2g4" and moves["E5-7"] == "e2c0" and moves["E5+7"] == "e2c4"
    assert moves["E5-3"] == "e2g0" and moves["K6+1"] == "d0d1"


def test_tandem_advisors_take_the_file_digit_too(game: PieceGame) -> None:
    state = game.parse_position("3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1")   # advisors on d2 and d0
    moves = {game.format_move(state, m): game.uci(state, m) for m in game.legal_moves(state)}
    assert moves["A+-5"] == "d2e1" and moves["A-+5"] == "d0e1"
    # as Chinese notation writes them: the one that can retreat is the front one
    assert game.uci(state, game.parse_move(state, "A6-5")) == "d2e1"
    assert game.uci(state, game.parse_move(state, "A6+5")) == "d0e1"


def test_retreats_and_traverses(game: PieceGame) -> None:
    moves = written(game, "3k5/9/9/9/4N4/2C6/9/9/4K4/R8 w - - 0 1")
    assert moves["H5-4"] == "e5f3" and moves["H5-6"] == "e5d3" and moves["H5-3"] == "e5g4"
    assert moves["C7-3"] == "c4c1" and moves["C7.1"] == "c4i4" and moves["R9.8"] == "a0b0"
    assert moves["K5-1"] == "e1e0" and moves["K5.4"] == "e1f1" and "K5.6" not in moves  # d1 faces d9


# -- reading what people write ------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["C2.5", "C2=5", "c2.5", "C25", "C2.5+", "C2.5!?", "h2e2", "H2-E2", "h2-e2",
                                  "H2E2", " C2.5 "])
def test_spellings_of_one_move(game: PieceGame, text: str) -> None:
    state = game.initial_state()
    assert game.uci(state, game.parse_move(state, text)) == "h2e2"


@pytest.mark.parametrize("text,uci", [("H2+3", "h0g2"), ("N2+3", "h0g2"), ("n2+3", "h0g2"), ("E3+5", "g0e2"),
                                      ("B3+5", "g0e2"), ("b3+5", "g0e2")])
def test_position_letters_are_read_for_horse_and_elephant(game: PieceGame, text: str, uci: str) -> None:
    state = game.initial_state()
    assert game.uci(state, game.parse_move(state, text)) == uci


def test_front_and_rear_written_before_the_letter(game: PieceGame) -> None:
    state = game.parse_position("3k5/9/9/9/9/9/4R4/9/4R4/5K3 w - - 0 1")
    assert game.uci(state, game.parse_move(state, "+R.3")) == "e3g3"
    assert game.uci(state, game.parse_move(state, "R+=3")) == "e3g3"


@pytest.mark.parametrize("text", ["hello", "X2.5", "C0.5", "C2*5", "j2e2", "e2e99", "C2.5.", "#@%", "R++", "P3+10"])
def test_garbage_is_not_a_move(game: PieceGame, text: str) -> None:
    with pytest.raises(InvalidMoveError, match="not a move"):
        game.parse_move(game.initial_state(), text)


@pytest.mark.parametrize("text,why", [
    ("H2+4", r"your horse on h0 cannot make it; its legal moves: H2\+1, H2\+3"),
    ("C5.4", "no piece C on your file 5"),
    ("R+.3", "no piece of yours written R\\+"),
    ("K5+2", "its legal moves: K5\\+1"),
    ("h2h8", "not legal here"),
    ("33.4", "no piece of yours written 33"),
])
def test_a_well_formed_move_not_legal_here_says_why(game: PieceGame, text: str, why: str) -> None:
    with pytest.raises(IllegalMoveError, match=why):
        game.parse_move(game.initial_state(), text)


def test_a_file_digit_that_fits_two_tandem_moves_is_ambiguous(game: PieceGame) -> None:
    state = game.parse_position("3k5/9/9/9/9/9/4R4/9/4R4/5K3 w - - 0 1")
    with pytest.raises(IllegalMoveError, match="ambiguous: it may be R\\+\\.3 or R-\\.3"):
        game.parse_move(state, "R5.3")


def test_in_check_the_message_says_so(game: PieceGame) -> None:
    state = game.parse_position("3k5/9/9/9/9/9/9/9/9/3r1K3 w - - 0 1")  # the chariot on d0 checks
    assert game.in_check(state)
    with pytest.raises(IllegalMoveError, match="in check"):
        game.parse_move(state, "K4.5")


# -- round trips and the Fairy-Stockfish oracle ----------------------------------------------------


def random_positions(game: PieceGame, seed: int, games: int, plies: int) -> list[State]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = game.initial_state()
        for _ply in range(plies):
            moves = game.legal_moves(state)
            if not moves or game.outcome(state) is not None:
                break
            out.append(state)
            state = game.play(state, rng.choice(moves))
    return out


def test_every_legal_move_reads_back_in_random_games(game: PieceGame) -> None:
    """Every legal move of every position of seeded random games: its WXF text and its ICCS
    aliases read back to it, and no two moves of a position share a text (``parse_wxf`` given
    the legal moves; ``parse_move``, which generates them, for a sample)."""
    positions = random_positions(game, seed=2024, games=3, plies=150)
    rng = random.Random(1)
    tandems = 0
    for state in positions:
        legal = game.legal_moves(state)
        texts = wxf_texts(game, state, legal)
        assert len(set(texts.values())) == len(legal)
        assert all(re.fullmatch(r"[KAEHRCP1-9+\-][1-9+\-][+\-.][1-9]", t) for t in texts.values()), texts
        tandems += any(t[1] in "+-" or t[0] in "+-" for t in texts.values())
        for move, text in texts.items():
            assert parse_wxf(game, state, text, legal) == move, (game.format_position(state), text)
            for alias in game.move_aliases(state, move):
                assert parse_wxf(game, state, alias, legal) == move, (game.format_position(state), alias)
        move = rng.choice(legal)
        assert game.parse_move(state, game.format_move(state, move)) == move
    assert len(positions) > 300 and tandems > 10   # the games did put pieces on one file


def test_wxf_agrees_with_fairy_stockfish(game: PieceGame) -> None:
    """Fairy-Stockfish writes WXF with ``=`` and names tandem pieces by their file when no
    other move reads alike; our text equals its own wherever it names the file, and its
    text reads to the same move wherever it starts with a piece letter (its numbering of
    pawns, ``17+1``, is its own)."""
    try:
        import pyffish as sf
    except ImportError:
        pytest.fail("pyffish (Fairy-Stockfish) is not installed: pip install -e '.[test]'", pytrace=False)
    rng = random.Random(7)
    compared = read = 0
    for state in random_positions(game, seed=31, games=2, plies=120):
        fen = game.format_position(state)
        texts = wxf_texts(game, state)
        for move in rng.sample(list(texts), min(6, len(texts))):
            uci = re.sub(r"\d+", lambda r: str(int(r.group()) + 1), game.uci(state, move))
            theirs = sf.get_san("xiangqi", fen, uci, False, sf.NOTATION_XIANGQI_WXF)
            if texts[move][0].isalpha() and texts[move][1].isdigit():
                assert texts[move] == theirs.replace("=", "."), (fen, uci)
                compared += 1
            if theirs[0].isalpha():
                assert game.parse_move(state, theirs) == move, (fen, theirs)
                read += 1
    assert compared > 400 and read > 400


# -- positions as xiangqi programs write them ------------------------------------------------------


@pytest.mark.parametrize("fen", [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",   # Fairy-Stockfish, UCCI
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1",   # r for Red
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",           # a WXF file's FEN line
    "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r",           # H and E
])
def test_start_position_forms(game: PieceGame, fen: str) -> None:
    assert game.format_position(game.parse_position(fen)) == (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")


def test_a_wxf_file_position_with_black_to_move(game: PieceGame) -> None:
    # the FEN line of hartwork/xiangqi-setup's doc/demo.wxf
    state = game.parse_position("4kaer1/4a2c1/2h1e1h2/3Rp1C1p/2C6/5rP2/1pP1P3P/8E/9/1cEAKA1R1 b")
    assert state.to_move == 1
    assert game.format_position(state) == (
        "4kabr1/4a2c1/2n1b1n2/3Rp1C1p/2C6/5rP2/1pP1P3P/8B/9/1cBAKA1R1 b - - 0 1")


def test_a_bad_side_is_still_refused(game: PieceGame) -> None:
    from myriad.core.errors import PositionError
    with pytest.raises(PositionError, match="side to move"):
        game.parse_position("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1")


# -- records, variant files ---------------------------------------------------------------------------


def test_a_xiangqi_record_round_trips(game: PieceGame) -> None:
    state = game.initial_state()
    moves = []
    for text in PLAYOK_MOVES:
        move = game.parse_move(state, text)
        moves.append(game.format_move(state, move))
        state = game.play(state, move)
    text = write_record(game, moves, game.outcome(state), {"Event": "PlayOK Game"})
    assert "10. H++7 C7.3" in " ".join(text.split()) and text.rstrip().endswith("0-1")
    (record,) = read_records(text)
    assert record.moves == moves and replay(game, record)[-1] == state


def test_a_record_with_the_middle_of_three_pawns(game: PieceGame) -> None:
    """``33.4`` is a move, not the number 33 and a 4."""
    start = game.parse_position("3k5/6P2/2P3P2/2P3P2/9/9/9/9/9/5K3 w - - 0 1")
    after = game.play_text(start, "33.4")
    text = write_record(game, ["33.4", "K4+1"], None, start=start)
    (record,) = read_records(text)
    assert record.moves == ["33.4", "K4+1"]
    assert replay(game, record)[1] == after


VARIANT = """
[minixiangqi]
inherits = "xiangqi"
name = "No cannons"
remove = ["cannon"]
start = "rnbakabnr/9/9/p1p1p1p1p/9/9/P1P1P1P1P/9/9/RNBAKABNR w - - 0 1"
"""


def test_a_users_variant_inherits_the_notation() -> None:
    (variant,) = load_variants(VARIANT, name="mini.toml")
    state = variant.initial_state()
    assert variant.format_move(state, variant.parse_move(state, "h0g2")) == "H2+3"
    (sans,) = load_variants(VARIANT + '[minixiangqi.options]\nnotation = "san"\n', name="mini.toml")
    assert sans.format_move(state, sans.parse_move(state, "h0g2")) == "Ng3"


@pytest.mark.parametrize("options,why", [('notation = "iccs"', "expected san or usi or wxf"),
                                         ("notation = 1", "expected a string")])
def test_a_bad_notation_option_is_refused(options: str, why: str) -> None:
    with pytest.raises(GameDefinitionError, match=f"mini.toml:.*options.notation: {why}"):
        load_variants(VARIANT + f"[minixiangqi.options]\n{options}\n", name="mini.toml")


def test_wxf_needs_a_board_of_at_most_nine_files() -> None:
    wide = """
[wide]
name = "Wide"
files = 10
ranks = 10
start = "4k5/10/10/10/10/10/10/10/10/4K5 w - - 0 1"
[wide.pieces.king]
letter = "K"
betza = "W"
royal = true
[wide.options]
notation = "wxf"
"""
    with pytest.raises(GameDefinitionError, match="at most 9 files"):
        load_variants(wide, name="wide.toml")
