"""The alpha-beta search's check extension (``checks``, on by default), on both engines:
a node whose side to move is in check (the game's ``in_check``) is searched one ply
deeper, and in quiescence every answer to a check is searched, so that a mate at the
horizon is seen; games without checks search exactly as before.  (The kernel's
``in_check`` equals the reference's along random games: tests/test_kernel_equivalence.py.)"""

from __future__ import annotations

import pytest

from myriad.ai import make_bot
from myriad.ai.alphabeta import WIN, WON, AlphaBeta
from myriad.ai.bot import Limits
from myriad.core.game import Game
from myriad.games import game_ids, get_game

#: 1. Rxe8+ Qxe8 2. Rxe8#: a mate in two through a check, seen at depth 1 or 2 only when
#: the answers to the check are searched past the depth.
MATE_THROUGH_CHECK = "3qr1k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1"


def analyse(spec: str, fen: str, depth: int) -> tuple[str, int, int]:
    """The move, score and nodes of ``spec``'s search of ``fen`` in chess to ``depth``."""
    game = get_game("chess")
    bot = make_bot(spec, game)
    assert isinstance(bot, AlphaBeta)
    state = game.parse_position(fen)
    found = bot.analyse(state, Limits(depth=depth))
    return game.format_move(state, found.move), int(found.info["score"]), int(found.info["nodes"])


@pytest.mark.parametrize("depth", [1, 2])
def test_a_mate_through_a_check_is_found_past_the_depth_by_both_engines(depth: int) -> None:
    """At depths 1 and 2, both engines find the mate in two (``WIN - 3``) with the same
    move and node count; without the extension the reference sees only material."""
    reference = analyse("alphabeta:engine=reference", MATE_THROUGH_CHECK, depth)
    kernel = analyse("alphabeta:engine=kernel", MATE_THROUGH_CHECK, depth)
    assert reference == kernel
    assert reference[:2] == ("Rxe8+", WIN - 3)
    _move, score, _nodes = analyse("alphabeta:engine=reference,checks=0", MATE_THROUGH_CHECK, depth)
    assert score < WON


def test_the_kernel_bot_without_the_extension_is_the_reference_without_it() -> None:
    """``checks=0`` reaches the kernel too: the same move, score and nodes as the reference."""
    for depth in (1, 2, 3):
        assert analyse("alphabeta:engine=kernel,checks=0", MATE_THROUGH_CHECK, depth) == \
            analyse("alphabeta:engine=reference,checks=0", MATE_THROUGH_CHECK, depth)


def no_checks(game: Game) -> bool:
    """Whether ``game`` keeps the base ``Game``'s ``in_check`` (never in check)."""
    return type(game).in_check is Game.in_check


@pytest.mark.parametrize("game_id", [g for g in game_ids() if AlphaBeta.plays(get_game(g)) and no_checks(get_game(g))])
def test_games_without_checks_search_as_before(game_id: str) -> None:
    """Every game without an ``in_check`` of its own: the same move, score and node count
    with the extension as without it, from the start at depth 2 (at most 3000 nodes)."""
    game = get_game(game_id)
    state = game.initial_state()
    if game.is_chance(state) or len(game.legal_moves(state)) < 2:
        return
    answers = []
    for checks in (0, 1):
        bot = make_bot(f"alphabeta:engine=reference,threats=0,checks={checks}", game)
        assert isinstance(bot, AlphaBeta)
        found = bot.analyse(state, Limits(depth=2, nodes=3000))
        answers.append((found.move, found.info["score"], bot.nodes))
    assert answers[0] == answers[1]


def test_the_chess_like_games_have_checks() -> None:
    """The extension reaches the games with royal pieces: chess, shogi and xiangqi answer
    ``in_check`` with their own (and a king in check is seen as one)."""
    for game_id in ("chess", "shogi", "xiangqi"):
        assert not no_checks(get_game(game_id))
    game = get_game("chess")
    assert game.in_check(game.parse_position("4k3/8/8/8/8/8/8/4RK2 b - - 0 1"))
    assert not game.in_check(game.parse_position("4k3/8/8/8/8/8/8/3R1K2 b - - 0 1"))


#: Black to move: 1... Bxc3 wins a knight and loses to 2. Re8# (a quiet mate, no capture).
MATE_THREAT = "6k1/5ppp/8/8/1b6/2N5/5PPP/4R1K1 b - - 0 1"


def test_a_mate_threatened_at_the_horizon_is_seen_with_quiet_checks() -> None:
    """With ``qchecks=1`` quiescence's first ply searches the quiet checks: at depth 1
    both engines see that taking the knight allows a mate and play another move (same
    move, score and nodes); without it the search takes the knight."""
    reference = analyse("alphabeta:engine=reference,qchecks=1", MATE_THREAT, 1)
    kernel = analyse("alphabeta:engine=kernel,qchecks=1", MATE_THREAT, 1)
    assert reference == kernel
    assert reference[0] != "Bxc3" and reference[1] > -WON
    assert analyse("alphabeta:engine=reference,qchecks=0", MATE_THREAT, 1)[0] == "Bxc3"
    for depth in (2, 3):  # deeper, the engines still agree
        assert analyse("alphabeta:engine=reference,qchecks=1", MATE_THREAT, depth) == \
            analyse("alphabeta:engine=kernel,qchecks=1", MATE_THREAT, depth)
