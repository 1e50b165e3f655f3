"""Drop games as data: shogi and minishogi (myriad/games/variants/shogi.toml) and crazyhouse
(crazyhouse.toml).  Perft against the oracles first, then one rule per test: captures feed
the hand (a promoted piece returns unpromoted), drops and their limits (nifu, no pawn-drop
mate, no dead drops, crazyhouse pawn ranks), promotion into, within and out of the zone,
forced where the piece could not move again, sennichite and perpetual check, the position
and move notations (SFEN, USI, pockets, ``N@f3``) and the variant-file fields behind them."""

from __future__ import annotations

import pytest

from myriad import PositionError, get_game
from myriad.core.errors import GameDefinitionError, IllegalMoveError, InvalidMoveError
from myriad.core.game import perft
from myriad.core.piece_game import PieceGame
from myriad.core.state import State
from myriad.games.variant_file import load_variants

from oracles import load_oracle, require

FAST_NODES = 1_000_000     # default suite: every depth whose count is below this
SLOW_NODES = 25_000_000    # -m slow: deeper

ORACLES = {"shogi": "shogi_perft.json", "minishogi": "minishogi_perft.json", "crazyhouse": "crazyhouse_perft.json"}


def perft_cases(limit: int, floor: int = 0) -> list[object]:
    cases = []
    for game_id, file in ORACLES.items():
        for p in load_oracle(file)["positions"]:
            text = p.get("sfen") or p["fen"]
            cases += [pytest.param(game_id, text, int(d), n, id=f"{game_id}-{p['name'][:20]}-d{d}")
                      for d, n in p["perft"].items() if floor < n <= limit]
    return require(cases, f"drop-game perft counts from {floor + 1} to {limit} nodes")


@pytest.mark.parametrize("game_id,text,depth,expected", perft_cases(FAST_NODES))
def test_perft(game_id: str, text: str, depth: int, expected: int) -> None:
    game = get_game(game_id)
    assert perft(game, game.parse_position(text), depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize("game_id,text,depth,expected", perft_cases(SLOW_NODES, FAST_NODES))
def test_perft_deep(game_id: str, text: str, depth: int, expected: int) -> None:
    game = get_game(game_id)
    assert perft(game, game.parse_position(text), depth) == expected


def shogi() -> PieceGame:
    game = get_game("shogi")
    assert isinstance(game, PieceGame)
    return game


def texts(game: PieceGame, state: State) -> set[str]:
    return {game.format_move(state, m) for m in game.legal_moves(state)}


def drops(game: PieceGame, state: State) -> set[str]:
    return {t for t in texts(game, state) if "*" in t or "@" in t}


# -- the hand --------------------------------------------------------------------------------------


def test_a_capture_goes_to_the_hand_and_a_promoted_piece_returns_unpromoted() -> None:
    game = shogi()
    state = game.parse_position("4k4/9/9/9/4+p4/4R4/9/9/4K4 b - 1")  # sente's rook takes gote's tokin
    after = game.play_text(state, "5f5e")
    assert game.format_position(after) == "4k4/9/9/9/4R4/9/9/9/4K4 w P 2"
    assert "P*5b" in texts(game, game.play_text(after, "5a4a"))


def test_crazyhouse_promoted_pieces_return_as_pawns() -> None:
    game = get_game("crazyhouse")
    state = game.parse_position("4k3/8/8/3Q~4/8/8/3r4/7K[] b - - 0 1")
    after = game.play_text(state, "Rxd5")
    assert game.format_position(after) == "4k3/8/8/3r4/8/8/8/7K[p] w - - 0 2"


def test_crazyhouse_promotion_makes_a_marked_piece() -> None:
    game = get_game("crazyhouse")
    state = game.parse_position("8/4P3/8/8/8/2k5/8/4K3[] w - - 0 1")
    assert game.format_position(game.play_text(state, "e8=Q")).startswith("4Q~3/8/")
    assert {"e8=Q", "e8=R", "e8=B", "e8=N"} <= texts(game, state)


# -- drops and their limits -------------------------------------------------------------------------


def test_nifu_no_second_unpromoted_pawn_on_a_file() -> None:
    game = shogi()
    state = game.parse_position("4k4/9/9/9/9/9/4P4/9/4K4 b P 1")
    dropped = drops(game, state)
    assert len(dropped) == 8 * 8  # eight files, ranks b to i (never a: the pawn could not move)
    assert not any(t.startswith("P*5") for t in dropped)
    tokin = game.parse_position("4k4/9/9/9/9/9/4+P4/9/4K4 b P 1")  # a tokin is no pawn
    assert "P*5e" in drops(game, tokin)


def test_no_piece_dropped_where_it_could_never_move() -> None:
    game = shogi()
    state = game.parse_position("4k4/9/9/9/9/9/9/9/4K4 b NLP 1")
    dropped = drops(game, state)
    assert not any(t[-1] == "a" for t in dropped)                    # pawn, lance, knight
    assert not any(t.startswith("N*") and t[-1] == "b" for t in dropped)
    assert "L*1b" in dropped and "N*1c" in dropped
    gote = game.parse_position("4k4/9/9/9/9/9/9/9/4K4 w p 1")
    assert not any(t[-1] == "i" for t in drops(game, gote)) and "P*1h" in drops(game, gote)


def test_a_pawn_drop_may_not_mate_but_other_drops_and_pawn_moves_may() -> None:
    game = shogi()
    state = game.parse_position("7nk/9/7G1/9/9/9/9/9/4K4 b PL 1")
    assert "P*1b" not in texts(game, state)                            # uchifuzume
    assert "L*1b" in texts(game, state)
    mated = game.play_text(state, "L*1b")
    assert game.outcome(mated) is not None and game.outcome(mated).reason == "checkmate"  # type: ignore[union-attr]
    moved = game.parse_position("7nk/9/7GP/9/9/9/9/9/4K4 b - 1")    # the same mate by a pawn's step
    assert "1c1b" in texts(game, moved)
    assert game.outcome(game.play_text(moved, "1c1b")).reason == "checkmate"  # type: ignore[union-attr]


def test_a_pawn_drop_that_checks_without_mating_is_legal() -> None:
    game = shogi()
    state = game.parse_position("8k/9/9/9/9/9/9/9/4K4 b P 1")
    assert "P*1b" in texts(game, state)


def test_a_drop_may_block_a_check() -> None:
    game = shogi()
    state = game.parse_position("4k4/9/9/9/9/9/9/9/r3K4 b G 1")   # the rook checks along rank i
    assert drops(game, state) == {"G*6i", "G*7i", "G*8i"}


def test_crazyhouse_pawns_are_dropped_on_ranks_2_to_7() -> None:
    game = get_game("crazyhouse")
    state = game.parse_position("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1")
    dropped = {t for t in texts(game, state) if "@" in t}
    assert len(dropped) == 6 * 8 - 0 and not any(t[-1] in "18" for t in dropped)
    assert "P@e7+" not in dropped and "P@d7+" in dropped and "P@f7+" in dropped


def test_crazyhouse_drop_notation() -> None:
    game = get_game("crazyhouse")
    state = game.parse_position("4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1")
    move = game.parse_move(state, "N@f6+")
    assert game.format_move(state, move) == "N@f6+"
    assert game.parse_move(state, "N@f6") == move and game.uci(state, move) == "N@f6"
    with pytest.raises(IllegalMoveError):
        game.parse_move(state, "Q@f6")


# -- promotion ---------------------------------------------------------------------------------------


def test_promotion_is_optional_unless_the_piece_could_not_move_again() -> None:
    game = shogi()
    state = game.parse_position("k8/9/9/4P4/9/2N6/9/9/4K4 b - 1")
    moves = texts(game, state)
    assert {"5d5c", "5d5c+"} <= moves                      # into the zone: a choice
    pawn_b = game.parse_position("k8/4P4/9/9/9/9/9/9/4K4 b - 1")
    assert {t for t in texts(game, pawn_b) if t.startswith("5b")} == {"5b5a+"}
    knight = game.parse_position("k8/9/9/2N6/9/9/9/9/4K4 b - 1")   # 7d: to rank b it must promote
    assert {t for t in texts(game, knight) if t.startswith("7d")} == {"7d8b+", "7d6b+"}


def test_a_move_out_of_the_zone_may_promote() -> None:
    game = shogi()
    state = game.parse_position("k8/9/4S4/9/9/9/9/9/4K4 b - 1")  # silver on 5c
    assert {"5c4d", "5c4d+", "5c6d", "5c6d+"} <= texts(game, state)
    outside = game.parse_position("k8/9/9/4S4/9/9/9/9/4K4 b - 1")  # on 5d, never in the zone
    assert "5d4e+" not in texts(game, outside) and "5d5c+" in texts(game, outside)


# -- repetition ----------------------------------------------------------------------------------------


def test_sennichite_is_a_draw_after_four_occurrences() -> None:
    game = shogi()
    state = game.parse_position("k8/9/9/9/9/9/9/9/4K4 b - 1")
    for i in range(12):
        assert game.outcome(state) is None, i
        state = game.play_text(state, ["5i5h", "9a9b", "5h5i", "9b9a"][i % 4])
    assert game.outcome(state) is not None and game.outcome(state).reason == "repetition"  # type: ignore[union-attr]
    assert game.outcome(state).scores == (0.5, 0.5)  # type: ignore[union-attr]


def test_perpetual_check_loses() -> None:
    game = shogi()
    state = game.parse_position("k8/9/9/9/9/9/9/9/1R2K4 b - 1")
    for i in range(12):
        assert game.outcome(state) is None, i
        state = game.play_text(state, ["8i9i", "9a8a", "9i8i", "8a9a"][i % 4])
    outcome = game.outcome(state)
    assert outcome is not None and outcome.reason == "perpetual check"
    assert outcome.scores == (0.0, 1.0)  # sente checked with every move: gote wins


# -- positions and moves as text ---------------------------------------------------------------------


def test_sfen_hands_with_counts_read_and_written() -> None:
    game = shogi()
    text = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"
    state = game.parse_position(text)
    assert game.format_position(state) == text
    assert game.parse_position(text.replace("RGgsn5p", "GRgns5p")) == state  # any order reads


@pytest.mark.parametrize("text,needle", [
    ("4k4/9/9/9/9/9/9/9/4K4 b K 1", "not a piece a hand may hold"),
    ("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", "19 pieces that count as pawn"),
    ("4k4/9/9/9/9/9/9/9/4K4 x - 1", "side to move must be 'b'"),
    ("4k4/9/9/9/9/9/9/9/4K4 b - 0", "move number"),
    ("4k4/9/9/9/9/9/9/9/4K4", "SFEN position of 4 fields"),
    ("4k4/9/9/9/9/9/9/9/4+K4 b - 1", "unknown piece '\\+K'"),
])
def test_bad_sfen_is_refused_with_a_reason(text: str, needle: str) -> None:
    with pytest.raises(PositionError, match=needle):
        shogi().parse_position(text)


def test_crazyhouse_pockets_read_and_written() -> None:
    game = get_game("crazyhouse")
    text = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Qpp] w KQkq - 2 3"
    with pytest.raises(PositionError, match="3 pieces that count as queen"):  # a queen too many
        game.parse_position(text)
    text = "r1bqkbnr/pppp1ppp/2n5/8/8/5N2/PPPP1PPP/RNBQKB1R[Pp] w KQkq - 0 4"
    assert game.format_position(game.parse_position(text)) == text
    with pytest.raises(PositionError, match="end with"):
        game.parse_position(text.replace("[Pp]", "[Pp"))
    with pytest.raises(PositionError, match="QQ, not 2Q"):
        game.parse_position(text.replace("[Pp]", "[2Pp]"))


def test_usi_moves_read_and_refused() -> None:
    game = shogi()
    start = game.initial_state()
    assert game.format_move(start, game.parse_move(start, "7g7f")) == "7g7f"
    with pytest.raises(InvalidMoveError, match="not a USI move"):
        game.parse_move(start, "P-7f")
    with pytest.raises(InvalidMoveError, match="no square '7j'"):
        game.parse_move(start, "7g7j")
    with pytest.raises(IllegalMoveError, match="not legal here"):
        game.parse_move(start, "P*5e")
    with pytest.raises(IllegalMoveError, match="may not promote there: 7g7f is legal"):
        game.parse_move(start, "7g7f+")


def test_minishogi_squares_are_named_from_5a_to_1e() -> None:
    game = get_game("minishogi")
    assert isinstance(game, PieceGame)
    start = game.initial_state()
    assert game.format_position(start) == "rbsgk/4p/5/P4/KGSBR b - 1"
    assert "5d5c" in texts(game, start) and "1b1c" not in texts(game, start)


# -- the variant-file fields ----------------------------------------------------------------------------

BASE = '''
[mini]
name = "Mini drops"
files = 4
ranks = 4
start = "k3/p3/3P/3K[] w - - 0 1"
[mini.pieces.king]
letter = "K"
betza = "K"
royal = true
[mini.pieces.pawn]
letter = "P"
betza = "fW"
[mini.options]
drops = true
'''


@pytest.mark.parametrize("old,new,field,expected", [
    ('betza = "fW"', 'betza = "fW"\ncaptured_as = "queen"', "mini.pieces.pawn.captured_as", "no piece kind 'queen'"),
    ('betza = "fW"', 'betza = "fW"\ndrop_zone = "nowhere"', "mini.pieces.pawn.drop_zone", "no zone 'nowhere'"),
    ("drops = true", "drops = false", "mini.start", ""),
    ('letter = "P"', 'letter = "++P"', "mini.pieces.pawn.letter", "upper-case ASCII letter"),
    ("drops = true", 'drops = true\nposition_format = "csa"', "mini.options.position_format", "fen or sfen"),
    ("drops = true", 'drops = true\nnotation = "kif"', "mini.options.notation", "san or usi"),
    ("drops = true", 'drops = true\nperpetual_check = "win"', "mini.options.perpetual_check", "loss or draw"),
])
def test_broken_drop_fields_name_the_field(old: str, new: str, field: str, expected: str) -> None:
    assert old in BASE
    text = BASE.replace(old, new)
    if new == "drops = false":
        text = text.replace('betza = "fW"', 'betza = "fW"\nhand_value = 120')
        field, expected = "mini.pieces.pawn.hand_value", "only a drop game"
    with pytest.raises(GameDefinitionError, match=rf"^mini.toml:\d+: {field}: .*{expected}"):
        load_variants(text, name="mini.toml")


def test_a_user_drop_variant_plays() -> None:
    (game,) = load_variants(BASE, name="mini.toml")
    state = game.initial_state()
    assert game.format_position(state) == "k3/p3/3P/3K[] w - - 0 1"
    after = game.play_text(game.play_text(state, "Kc2"), "Kb4")
    assert game.outcome(after) is None and after.hands == ((0, 0), (0, 0))


# -- shogi against cshogi (GPL: a test oracle only, never imported by the package) -------------------

try:
    import cshogi
except ImportError:  # part of the test extra: a missing oracle must not pass silently
    pytest.fail("cshogi is not installed: pip install -e '.[test]'", pytrace=False)


def agree_with_cshogi(seed: int, positions: int) -> int:
    """Seeded random shogi games, each position's legal moves (USI) compared with cshogi's."""
    import random

    game, rng, seen = shogi(), random.Random(seed), 0
    while seen < positions:
        state = game.initial_state()
        for _ply in range(300):
            board = cshogi.Board(game.format_position(state))
            theirs = {cshogi.move_to_usi(m) for m in board.legal_moves}
            ours = texts(game, state)
            assert ours == theirs, (f"{game.format_position(state)}: only Myriad {sorted(ours - theirs)}, "
                                    f"only cshogi {sorted(theirs - ours)}")
            seen += 1
            if not ours or game.outcome(state) is not None or seen >= positions:
                break
            state = game.play_text(state, rng.choice(sorted(ours)))
    return seen


def test_shogi_agrees_with_cshogi_in_random_games() -> None:
    assert agree_with_cshogi(seed=3, positions=400) == 400


@pytest.mark.slow
def test_shogi_agrees_with_cshogi_in_many_random_games() -> None:
    assert agree_with_cshogi(seed=2026, positions=5000) == 5000


def test_a_pawn_drop_mate_that_fairy_stockfish_allows_is_illegal() -> None:
    # Found by the Fairy-Stockfish comparison: it allows P*1g, which mates (the king on 1f
    # has no square and nothing takes the pawn); cshogi refuses it, as the rules do.
    text = "1n1s2+N2/lr1s2p1l/pg3sn2/2ppg2pp/PP3pP2/3PG1K1k/2P2P1P1/L2BPBS1G/1N4R1L b 3P 139"
    game = shogi()
    state = game.parse_position(text)
    assert "P*1g" not in texts(game, state)
    assert "P*1g" not in {cshogi.move_to_usi(m) for m in cshogi.Board(text).legal_moves}
    assert "P*1e" in texts(game, state)  # a pawn drop on that file is no nifu


# -- sittuyin: a set-up phase of drops, and promotion as a move of its own ----------------------------


def test_sittuyin_sets_up_by_drops_before_any_move() -> None:
    game = get_game("sittuyin")
    state = game.initial_state()
    moves = texts(game, state)
    assert all("@" in t for t in moves)                         # the pawns wait: drops only
    assert {t for t in moves if t.startswith("R@")} == {f"R@{f}1" for f in "abcdefgh"}  # chariots: back rank
    assert "K@e3" in moves and "K@a3" not in moves and "K@e4" not in moves  # own three ranks, empty squares
    after = game.play_text(state, "K@h3")
    assert all(t.startswith(("K@", "F@", "R@", "S@", "N@")) and t[-1] in "678" for t in texts(game, after))


def test_sittuyin_captures_leave_the_game() -> None:
    game = get_game("sittuyin")
    state = game.parse_position("k7/8/8/3p4/4P3/8/8/K7[] w - - 0 1")
    assert game.format_position(game.play_text(state, "exd5")) == "k7/8/8/3P4/8/8/8/K7[] b - - 0 1"


def test_sittuyin_promotion_in_place_or_a_step_without_check() -> None:
    game = get_game("sittuyin")
    state = game.parse_position("8/1k6/8/3P4/8/P7/8/K7[] w - - 0 1")
    promotions = {t for t in texts(game, state) if "=F" in t}
    assert promotions == {"d5=F", "d5-e6=F", "d5-c4=F", "d5-e4=F"}   # not c6: it would check b7
    near_a_knight = game.parse_position("6P1/8/3k4/7S/1P1n4/Fp1N4/8/2K5[] b - - 0 108")
    assert {t for t in texts(game, near_a_knight) if "=F" in t} == {"b3=F", "b3-a2=F", "b3-a4=F"}  # not c2, c4
    with_general = game.parse_position("8/1k6/8/3P4/8/P7/8/KF6[] w - - 0 1")
    assert not any("=F" in t for t in texts(game, with_general))
    off_diagonal = game.parse_position("k7/8/8/2P5/8/P7/8/K7[] w - - 0 1")
    assert not any("=F" in t for t in texts(game, off_diagonal))
    last_pawn = game.parse_position("k7/8/8/2P5/8/8/8/K7[] w - - 0 1")
    assert "c5=F" in texts(game, last_pawn)
