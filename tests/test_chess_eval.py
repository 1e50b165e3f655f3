"""The chess family's evaluation terms (:mod:`myriad.core.piece_eval`): a tapered
evaluation from the variant file's middle-game and endgame tables, passed pawns, the pawn
shield and the mop-up of a bare king; variant files without them evaluate as before
(material and squares); bad tables are refused naming the field; and the kernel chess
family scores every position as the reference does (one process: the kernel compiles once
per source version)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from myriad.core.errors import GameDefinitionError
from myriad.core.piece_eval import PAWN_CACHE
from myriad.core.piece_game import PieceGame
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.games.variant_file import load_variants
from myriad.kernel.families import chess as family
from myriad.kernel.registry import kernel_for

VARIANTS = Path(__file__).parent / "variants"


def chess() -> PieceGame:
    game = get_game("chess")
    assert isinstance(game, PieceGame)
    return game


def score(fen: str, game: PieceGame | None = None) -> float:
    game = game or chess()
    return game.evaluate(game.parse_position(fen))


def material_and_squares(game: PieceGame, state: State) -> int:
    """The evaluation before the terms: values plus square bonuses, for the side to move."""
    me, owner = state.to_move, game.pieces.owner_of
    return sum((1 if owner[c] == me else -1) * game.value_at[c][pos] for pos, c in enumerate(state.cells) if c)


def test_chess_declares_the_terms_and_the_start_is_the_full_middle_game() -> None:
    game = chess()
    terms = game.piece_rules.evaluation
    assert game.eval_tables.active
    assert terms.phase == {"queen": 4, "rook": 2, "bishop": 1, "knight": 1}
    assert game.full_phase == 24
    assert len(terms.passed_pawn) == len(terms.passed_pawn_endgame) == 8
    start = game.initial_state()
    # symmetric start, full middle game: the middle-game tables alone, as before
    assert game.evaluate(start) == material_and_squares(game, start) == 0


def test_the_king_hides_in_the_middle_game_and_centralises_in_the_endgame() -> None:
    # middle game (all pieces): the castled king beats the king in the centre ...
    castled = score("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 6 6")
    central = score("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N1KN2/PPPP1PPP/R1BQ3R w - - 6 6")
    assert castled > central + 50
    # ... and with kings and pawns only, the central king beats the cornered one
    corner = score("6k1/5ppp/8/8/8/8/5PPP/7K w - - 0 1")
    centre = score("6k1/5ppp/8/8/4K3/8/5PPP/8 w - - 0 1")
    assert centre > corner + 30


def test_a_passed_pawn_counts_more_the_further_it_stands_in_the_endgame() -> None:
    passed = score("4k3/8/8/8/3P4/8/8/4K3 w - - 0 1")
    blocked = score("4k3/2p5/8/8/3P4/8/8/4K3 w - - 0 1")   # c7 guards d4's path: neither is passed
    assert passed - blocked > 100  # a pawn, and its passed bonus, against none
    rank4 = score("4k3/p7/8/8/3P4/8/8/4K3 w - - 0 1")
    rank6 = score("4k3/p7/3P4/8/8/8/8/4K3 w - - 0 1")
    game = chess()
    bonus = game.piece_rules.evaluation.passed_pawn_endgame
    assert rank6 - rank4 >= bonus[5] - bonus[3] > 0


def test_the_pawn_shield_counts_in_the_middle_game() -> None:
    whole = score("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 6 6")
    open_king = score("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P1PP/2N2N2/PPPP1P2/R1BQ1RK1 w - - 6 6")
    assert whole > open_king


def test_mop_up_drives_the_bare_king_to_the_edge_and_the_kings_together() -> None:
    edge = score("k7/8/8/8/8/8/8/1R2K3 w - - 0 1")
    centre = score("8/8/8/4k3/8/8/8/1R2K3 w - - 0 1")
    assert edge > centre
    far = score("k7/8/8/8/8/8/8/1R5K w - - 0 1")
    near = score("k7/8/2K5/8/8/8/8/1R6 w - - 0 1")
    assert near > far
    # the bare side sees the same from its side, and nothing applies while it has a pawn
    assert score("k7/8/8/8/8/8/8/1R2K3 b - - 0 1") < -500
    with_pawn = score("k7/p7/8/8/8/8/8/1R2K3 w - - 0 1")
    assert with_pawn < edge


def test_a_variant_without_the_terms_evaluates_material_and_squares() -> None:
    (game,) = load_variants('[plain]\nname = "Plain"\nfiles = 4\nranks = 4\nstart = "k3/p3/3P/3K w - - 0 1"\n'
                            '[plain.pieces.king]\nletter = "K"\nbetza = "K"\nroyal = true\n'
                            '[plain.pieces.pawn]\nletter = "P"\nbetza = "fW"\npawn = true\n'
                            'squares = [0, 0, 0, 0, 9, 9, 9, 9, 0, 0, 0, 0, 0, 0, 0, 0]\n', name="plain.toml")
    assert not game.eval_tables.active and game.full_phase == 0
    rng = random.Random(3)
    state = game.initial_state()
    for _ in range(8):
        if game.outcome(state) is not None:
            break
        assert game.evaluate(state) == material_and_squares(game, state)
        state = game.play(state, rng.choice(game.legal_moves(state)))


def test_inherited_terms_follow_the_board() -> None:
    (grand,) = load_variants(VARIANTS / "grand.toml")  # 10 ranks: chess's 8-rank tables are not inherited
    assert isinstance(grand, PieceGame)
    terms = grand.piece_rules.evaluation
    assert terms.passed_pawn == () and terms.endgame_squares == {}
    assert terms.king_shield == (12, 6) and grand.full_phase > 0
    shatranj = get_game("shatranj")
    assert isinstance(shatranj, PieceGame) and shatranj.full_phase == 12  # rooks 2, knights 1 (no queen, bishop)


@pytest.mark.parametrize("field, text, expected", [
    ("passed_pawn", "[bad.evaluation]\npassed_pawn = [1, 2, 3]\n", "expected 8 values"),
    ("mop_up", "[bad.evaluation]\nmop_up = [1]\n", "expected 2 values"),
    ("endgame_squares", "[bad.pieces.rook]\nendgame_squares = [1, 2]\n", "expected 64 values"),
    ("phase", "[bad.pieces.rook]\nphase = \"two\"\n", "expected an integer"),
    ("evaluation", "[bad.evaluation]\nmobility = 3\n", "unknown key 'mobility'"),
])
def test_bad_evaluation_data_is_refused_naming_the_field(field: str, text: str, expected: str) -> None:
    with pytest.raises(GameDefinitionError) as err:
        load_variants('[bad]\ninherits = "chess"\nname = "Bad"\n' + text, name="bad.toml")
    assert expected in str(err.value) and field.split(".")[0] in str(err.value)


def terms_games() -> list[str]:
    """Every registered game the kernel's chess family runs with evaluation terms."""
    out = []
    for gid in game_ids():
        game = get_game(gid)
        kernel = kernel_for(game)
        if kernel is not None and kernel.family is family and isinstance(game, PieceGame) \
                and game.eval_tables.active:
            out.append(gid)
    return out


def test_the_kernel_scores_every_position_as_the_reference() -> None:
    games = terms_games()
    assert {"chess", "shatranj", "makruk", "crazyhouse"} <= set(games)
    rng = random.Random(11)
    fens = ["k7/8/8/8/8/8/8/1R2K3 w - - 0 1", "4k3/p7/8/8/3P4/2p5/8/4K3 b - - 0 1",
            "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P1PP/2N2N2/PPPP1P2/R1BQ1RK1 w - - 6 6",
            "6k1/5ppp/8/8/4K3/8/5PPP/8 b - - 0 1", "8/P6k/8/8/8/8/6Kp/8 w - - 0 1"]
    game = chess()
    kernel = kernel_for(game)
    assert kernel is not None
    for fen in fens:
        state = game.parse_position(fen)
        assert kernel.evaluate(state) == game.evaluate(state), fen
    for gid in games:
        g = get_game(gid)
        k = kernel_for(g)
        assert k is not None
        for _ in range(6):
            state = g.initial_state()
            for _ply in range(200):
                if g.outcome(state) is not None:
                    break
                assert k.evaluate(state) == g.evaluate(state), f"{gid}: {g.format_position(state)}"
                moves = g.legal_moves(state)
                captures = [m for m in moves if g.is_noisy(state, m)]
                state = g.play(state, rng.choice(captures if captures and rng.random() < 0.7 else moves))


def test_the_pawn_cache_changes_no_score_and_stays_bounded() -> None:
    """The reference keeps passed-pawn terms per pawn placement: along random games the
    scores with a cache of 8 entries equal those without one (the first time and met
    again), and the cache never holds more than 8."""
    game = chess()
    tables = game.eval_tables
    rng = random.Random(5)
    states: list[State] = []
    for _ in range(6):
        state = game.initial_state()
        for _ply in range(120):
            if game.outcome(state) is not None:
                break
            states.append(state)
            state = game.play(state, rng.choice(game.legal_moves(state)))
    try:
        tables.pawn_cache = 0
        tables.passed_cache.clear()
        plain = [game.evaluate(s) for s in states]
        assert not tables.passed_cache
        tables.pawn_cache = 8
        sizes = []
        for _ in range(2):
            cached = []
            for s in states:
                cached.append(game.evaluate(s))
                sizes.append(len(tables.passed_cache))
            assert cached == plain
        assert max(sizes) == 8
    finally:
        tables.pawn_cache = PAWN_CACHE
        tables.passed_cache.clear()
