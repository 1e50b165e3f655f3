"""The chess family against Fairy-Stockfish (pyffish, GPL: used here as a test oracle only,
never imported by the package).

For the shipped games (chess, shatranj, makruk, xiangqi, janggi, against Fairy-Stockfish's own) and for
variants declared both ways (``tests/variants/*.toml`` for Myriad, ``tests/variants/fairy.ini``
in Fairy-Stockfish's ``variants.ini`` syntax): the same legal moves, as UCI strings, in every
position of seeded random games, the same next position after each move, and the same
perft counts.  Squares are written alike on boards of ten ranks (``a9a10``).  A fast sample
runs by default; ``-m slow`` plays thousands of positions.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from myriad.core.move import DROP, Move
from myriad.core.piece_game import PieceGame
from myriad.core.state import State
from myriad.games import get_game
from myriad.games.variant_file import load_variants

try:
    import pyffish as sf
except ImportError:  # the oracle is part of the test extra: a missing one must not pass silently
    pytest.fail("pyffish (Fairy-Stockfish) is not installed: pip install -e '.[test]'", pytrace=False)

VARIANTS = Path(__file__).parent / "variants"

#: (Myriad game: a registered id or "file.toml:id", Fairy-Stockfish variant).
PAIRS = [("chess", "chess"), ("shatranj", "shatranj"), ("makruk", "makruk"), ("xiangqi", "xiangqi"),
         ("crazyhouse", "crazyhouse"), ("shogi", "shogi"), ("minishogi", "minishogi"), ("sittuyin", "sittuyin"),
         ("dropvariants.toml:losalamoshouse", "losalamoshouse-t"),
         ("janggi", "janggi"),
         ("capablanca.toml:capablanca", "capablanca-t"), ("grand.toml:grand", "grand-t"),
         ("camelzebra.toml:camelzebra", "camelzebra-t"), ("zonechess.toml:zonechess", "zonechess-t"),
         ("cannonchess.toml:cannonchess", "cannonchess-t"), ("nightrider.toml:nightrider", "nightrider-t"),
         ("nightrider.toml:losalamos", "losalamos-t")]
IDS = [p[0].split(":")[-1] for p in PAIRS]


@pytest.fixture(scope="module", autouse=True)
def fairy_variants() -> None:
    sf.load_variant_config((VARIANTS / "fairy.ini").read_text(encoding="utf-8"))


def myriad_game(name: str) -> PieceGame:
    if ":" not in name:
        game = get_game(name)
    else:
        file, vid = name.split(":")
        game = next(g for g in load_variants(VARIANTS / file) if g.id == vid)
    assert isinstance(game, PieceGame)
    return game


def fairy_uci(game: PieceGame, state: State, move: object) -> str:
    """A move's UCI text as Fairy-Stockfish writes it: ranks from 1 (xiangqi's ICCS counts
    from 0), a shogi promotion marked ``+``, drops ``P@e5``."""
    text = game.uci(state, move)  # type: ignore[arg-type]
    shift = 1 - game.piece_rules.first_rank
    if shift:
        text = re.sub(r"\d+", lambda r: str(int(r.group()) + shift), text)
    if game.piece_rules.sfen and "@" not in text and text[-1].isalpha():
        text = text[:-1] + "+"  # b2h8b (the horse, +B) -> b2h8+
    return text


def ucis(game: PieceGame, state: State) -> dict[str, object]:
    """The pieces' moves by their UCI text as Fairy-Stockfish writes it (Fairy-Stockfish
    lists them also where a rule such as repetition or insufficient material has ended the
    game, where ``legal_moves`` lists none: so ``moves_by_rules``)."""
    return {fairy_uci(game, state, m): m for m in game.moves_by_rules(state)}


def perft(game: PieceGame, state: State, depth: int) -> int:
    """Perft over ``moves_by_rules``, Fairy-Stockfish's convention (see :func:`ucis`)."""
    moves = game.moves_by_rules(state)
    if depth == 1:
        return len(moves)
    return sum(perft(game, game.play(state, m), depth - 1) for m in moves)


def pawn_drop_mates(game: PieceGame, state: State) -> set[str]:
    """The pawn drops that would checkmate, which shogi forbids (uchifuzume) and
    Fairy-Stockfish sometimes allows (cshogi agrees with Myriad: tests/test_drops.py)."""
    if not game.piece_rules.no_drop_mate:
        return set()
    out = set()
    for k in game.hand_kinds:
        code = 1 + 2 * k + state.to_move
        if state.hands[state.to_move][k] and game.pieces.kind(code).name in game.piece_rules.no_drop_mate:
            for sq in game.drop_squares[code]:
                move = Move(((DROP, sq, sq, code, 0),))
                if not state.cells[sq] and game._drop_mates(state, move):
                    out.add(fairy_uci(game, state, move))
    return out


def fairy_fen(game: PieceGame, state: State) -> str:
    """A position as Fairy-Stockfish writes it: SFEN's hand goes in brackets after the board
    and the first player is w."""
    text = game.format_position(state)
    if not game.piece_rules.sfen:
        return text
    board, side, hand, number = text.split()
    pocket = "".join(letter * int(count or 1) for count, letter in re.findall(r"(\d*)([A-Za-z])", hand.strip("-")))
    return f"{board}[{pocket}] {'w' if side == 'b' else 'b'} - - 0 {number}"


def fields(fen: str) -> list[object]:
    """Board, hands (as a sorted string), side to move and castling rights (en-passant
    squares are written differently by the two when no capture is possible)."""
    board, _, pocket = fen.split()[0].partition("[")
    side, rights = (fen.split() + ["-", "-"])[1:3]
    return [board, "".join(sorted(pocket.strip("]-"))), side, "-" if rights.isdigit() else rights]


def random_games(name: str, variant: str, seed: int, positions: int, max_plies: int = 120) -> int:
    """Plays seeded random games, comparing each position with Fairy-Stockfish (given the
    moves played since the start, which decide janggi's ends by passing); returns the number
    of positions compared."""
    game = myriad_game(name)
    rng = random.Random(seed)
    seen = 0
    while seen < positions:
        state = game.initial_state()
        start, played = fairy_fen(game, state), []
        for _ply in range(max_plies):
            fen = fairy_fen(game, state)
            ours = ucis(game, state)
            theirs = set(sf.legal_moves(variant, start, played)) - pawn_drop_mates(game, state)
            assert set(ours) == theirs, (f"{name} {fen}: only Myriad {sorted(set(ours) - theirs)}, "
                                         f"only Fairy-Stockfish {sorted(theirs - set(ours))}")
            seen += 1
            if not ours or game.outcome(state) is not None or seen >= positions:
                break
            uci = rng.choice(sorted(ours))
            state = game.play(state, ours[uci])  # type: ignore[arg-type]
            after = sf.get_fen(variant, fen, [uci])
            played.append(uci)
            assert fields(fairy_fen(game, state)) == fields(after), f"{name} {fen} + {uci}"
    return seen


#: Positions that put each variant's features to work (castling on 10 files, promotions
#: within limits, optional and forced, custom zones, hops over screens, blocked legs and
#: eyes, checks along nightrider lines), each compared by its perft at depth 2.
TARGETED = {
    "capablanca": ["r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1",
                   "r4k3r/1P8/10/10/10/10/8PP/R4K3R w KQkq - 0 1",
                   "4k5/10/10/10/10/10/5c4/R4K3R w KQ - 0 1"],
    "grand": ["r8r/1nbqkcabn1/P9/10/10/10/10/1PPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
              "r8r/1nbqkca1n1/9P/10/10/10/10/1PPPPPPPP1/1NBQKCABN1/R8R w - - 0 1",
              "1r7r/P1bqkcab2/10/10/10/10/10/1PPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
              "4k5/10/10/10/10/4p5/10/3P6/10/4K5 w - - 0 1"],
    "zonechess": ["4k3/8/8/2PPP3/8/8/8/4K3 w - - 0 1", "4k3/8/2rnb3/3P4/8/8/8/4K3 w - - 0 1",
                  "4k3/8/8/8/3p4/8/8/4K3 b - - 0 1"],
    "cannonchess": ["4k3/4p3/8/8/8/8/4P3/4C1K1 w - - 0 1", "8/8/8/4k3/8/4P3/3H4/4K3 b - - 0 1",
                    "4k3/8/8/8/4c3/8/4P3/4K3 w - - 0 1", "4k3/8/8/8/4c3/8/3R4/4K3 w - - 0 1",
                    "4k3/8/8/3h4/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/4P3/5EK1 w - - 0 1"],
    "camelzebra": ["4k3/8/8/8/8/8/8/L3KZ2 b - - 0 1", "4k3/8/8/8/1l6/8/8/4K3 w - - 0 1"],
    "nightrider": ["4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "4k3/8/8/2n5/8/8/5P2/6K1 w - - 0 1",
                   "k7/8/8/2n5/8/4P3/8/6K1 w - - 0 1"],
    # palaces, the river, the flying general (a move off the file, a screen leaving it),
    # soldiers across the river, cannons screening checks
    "xiangqi": ["3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", "4k4/9/9/9/4p4/9/9/9/9/3K5 w - - 0 1",
                "4k4/9/9/9/9/9/9/4R4/9/3K5 b - - 0 1", "4k4/9/9/2P1P4/9/9/9/9/9/3K5 w - - 0 1",
                "3k5/4a4/4c4/9/9/2B3B2/9/4C4/9/4K4 w - - 0 1", "2bk5/9/4b4/9/2N6/9/9/9/9/5K3 w - - 0 1",
                "4k4/2N6/9/9/9/9/9/4R4/9/3KC4 b - - 0 1"],  # a triple check: horse, chariot, cannon
    "losalamos": ["2k3/P5/6/6/6/3K2 w - - 0 1", "1r1k2/P5/6/6/6/3K2 w - - 0 1"],
    # promotion in place or a step away: on the diagonals, anywhere for the last pawn, never
    # with a general on the board, never giving check; the set-up phase's drops
    "sittuyin": ["k7/8/8/3P4/8/P7/8/K7[] w - - 0 1", "k7/8/8/2P5/8/8/8/K7[] w - - 0 1",
                 "k7/8/8/2P5/8/P7/8/KF6[] w - - 0 1", "8/1k6/8/3P4/8/P7/8/K7[] w - - 0 1",
                 "8/8/4pppp/pppp4/4PPPP/PPPP3K/8/8[SSFRRNNkssfrrnn] b - - 0 1",
                 "6P1/8/3k4/7S/1P1n4/Fp1N4/8/2K5[] b - - 0 108"],  # the new general may attack no piece
    # cannons over and onto cannons, cannons, chariots and soldiers on palace diagonals,
    # blocked elephants, generals facing (bikjang; in check too), pass refused in check
    "janggi": ["4k4/9/9/4c4/9/4p4/9/4C4/9/3K5 w - - 0 1", "4k4/9/9/9/4c4/9/9/4C4/9/3K5 w - - 0 1",
               "4k4/9/9/9/9/9/9/5p3/4A4/3C1K3 w - - 0 1", "4k4/9/5R3/9/9/9/9/9/9/3K5 w - - 0 1",
               "5k3/9/3P5/9/9/9/9/9/9/4K4 w - - 0 1", "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1",
               "4k4/9/9/9/9/9/9/5n3/9/4K4 w - - 0 1", "3k5/9/9/9/9/9/2P6/1B7/2N6/4K4 w - - 0 1",
               "4k4/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1", "3k5/4a4/4c4/9/9/9/9/4C4/4A4/3K5 b - - 0 1"],
}


@pytest.mark.parametrize("name,variant,fen", [(n, v, fen) for n, v in PAIRS
                                              for fen in TARGETED.get(n.split(":")[-1], ())])
def test_targeted_positions_agree(name: str, variant: str, fen: str) -> None:
    game = myriad_game(name)
    state = game.parse_position(fen)
    assert set(ucis(game, state)) == set(sf.legal_moves(variant, fairy_fen(game, state), []))
    assert perft(game, state, 2) == fairy_perft(variant, fairy_fen(game, state), 2)


def fairy_perft(variant: str, fen: str, depth: int, played: tuple[str, ...] = ()) -> int:
    """Fairy-Stockfish's perft from ``fen`` after the moves ``played`` (the history decides
    whether two passes in a row have ended a janggi game)."""
    moves = sf.legal_moves(variant, fen, list(played))
    if depth == 1:
        return len(moves)
    return sum(fairy_perft(variant, fen, depth - 1, played + (m,)) for m in moves)


def midgame(name: str, seed: int, plies: int) -> State:
    """A position after ``plies`` seeded random moves (fewer if the game ends)."""
    game = myriad_game(name)
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        moves = game.legal_moves(state)
        if not moves or game.outcome(state) is not None:
            break
        state = game.play(state, rng.choice(moves))
    return state


@pytest.mark.parametrize("name,variant", PAIRS, ids=IDS)
def test_start_positions_agree(name: str, variant: str) -> None:
    game = myriad_game(name)
    assert fields(fairy_fen(game, game.initial_state())) == fields(sf.start_fen(variant))


@pytest.mark.parametrize("name,variant", PAIRS, ids=IDS)
def test_legal_moves_agree_in_random_games(name: str, variant: str) -> None:
    assert random_games(name, variant, seed=17, positions=50) == 50


@pytest.mark.slow
@pytest.mark.parametrize("name,variant", PAIRS, ids=IDS)
def test_legal_moves_agree_in_many_random_games(name: str, variant: str) -> None:
    assert random_games(name, variant, seed=2026, positions=1500, max_plies=300) == 1500


@pytest.mark.parametrize("name,variant", PAIRS, ids=IDS)
def test_perft_agrees(name: str, variant: str) -> None:
    game = myriad_game(name)
    for state in (game.initial_state(), midgame(name, 5, 30)):
        expected = fairy_perft(variant, fairy_fen(game, state), 2)
        assert expected > 0
        assert perft(game, state, 2) == expected, game.format_position(state)


@pytest.mark.slow
@pytest.mark.parametrize("name,variant", PAIRS, ids=IDS)
def test_perft_agrees_deeper(name: str, variant: str) -> None:
    game = myriad_game(name)
    for state in (game.initial_state(), midgame(name, 5, 30), midgame(name, 9, 60)):
        assert perft(game, state, 3) == fairy_perft(variant, fairy_fen(game, state), 3), game.format_position(state)
