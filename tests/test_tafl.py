"""Tafl: the custodial-capture and restricted-slide mechanics, the three variants, and the
comparison with an independent Copenhagen engine.

Independent data: ``tests/data/hnefatafl_ftzm_playouts.txt``, random playouts by
libhnefatafl of https://github.com/ftzm/hnefatafl (commit 320fcb3), run as a separate
program (``tests/data/hnefatafl_playouts.c``).  At every ply the legal moves, with the
pieces each would take, must agree, and so must the way the game ends.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path

import pytest

from myriad.core.errors import PositionError
from myriad.core.game import perft
from myriad.core.mechanics.custodial import CustodialCapture
from myriad.core.mechanics.restricted import RestrictedSlides
from myriad.core.topology import square_board
from myriad.games import get_game
from myriad.games.tafl import Tafl

DATA = Path(__file__).parent / "data" / "hnefatafl_ftzm_playouts.txt"


def fnv(texts: list[str]) -> str:
    h = 2166136261
    for t in sorted(texts):
        for ch in (t + " ").encode():
            h = ((h ^ ch) * 16777619) & 0xFFFFFFFF
    return f"{h:08x}"


def ftzm_name(name: str) -> str:
    """ftzm names files from k (its index 0) to a; the board is symmetric, so mirror."""
    return chr(ord("a") + ord("k") - ord(name[0])) + name[1:]


def described(game, state, move) -> str:
    """A move as the driver writes it: from-to, then xSQ per capture in ftzm's index order
    (the king's capture is not among them: libhnefatafl reports it as the game's end)."""
    names = [ftzm_name(n) for n in game.topology.names]
    index = {n: int(n[1:]) * 11 + ord("k") - ord(n[0]) for n in names}
    caps = sorted((names[c] for c in move.captures if state.cells[c] != game.king), key=index.__getitem__)
    return f"{names[move[0][1]]}-{names[move[0][2]]}" + "".join("x" + c for c in caps)


def read_playouts() -> list[tuple[list[tuple[str, int, str]], str, int]]:
    games, plies = [], []
    for line in DATA.read_text().splitlines():
        if line.startswith("#") or line.startswith("game"):
            continue
        fields = line.split()
        if fields[0] == "end":
            games.append((plies, fields[1], int(fields[2])))
            plies = []
        else:
            plies.append((fields[0], int(fields[1]), fields[2]))
    return games


# ftzm's statuses and Myriad's reasons for the same ends.
SAME_END = {"king_escaped": "the king escapes", "king_captured": "the king is captured",
            "white_surrounded": "the attackers encircle every white piece",
            "exit_fort": "the king stands in an exit fort", "no_moves": "no legal move"}


def replay(plies: list[tuple[str, int, str]], status: str, length: int) -> int:
    """Replay one playout; return the plies compared."""
    game = get_game("hnefatafl")
    state = game.initial_state()
    for ply, (played, count, digest) in enumerate(plies):
        out = game.outcome(state)
        if out is not None:
            # only the rules libhnefatafl leaves out may end our game first
            assert out.reason.startswith(("a position repeated", "200 plies")), (ply, out)
            return ply
        moves = game.legal_moves(state)
        ours = [described(game, state, m) for m in moves]
        assert len(moves) == count, f"ply {ply}: {len(moves)} moves, libhnefatafl {count}"
        assert fnv(ours) == digest, f"ply {ply}: the legal moves or their captures differ"
        move = moves[ours.index(played)]
        state = game.play(state, move)
    out = game.outcome(state)
    if status == "ongoing":
        assert out is None or out.reason.startswith(("a position repeated", "200 plies")), out
    elif status == "king_escaped" and out is None:
        # libhnefatafl ends the game one move early when the king stands beside a corner
        # he can step into (no piece but the king may stand there, and on the edge he cannot
        # be captured): that move must exist and win.
        for reply in game.legal_moves(state):
            after = game.play(state, reply)
            escapes = [m for m in game.legal_moves(after) if m[0][2] in game.corners]
            assert escapes and game.outcome(game.play(after, escapes[0])).reason == "the king escapes"
    else:
        assert out is not None and out.reason == SAME_END[status], (status, out)
    return len(plies)


PLAYOUTS = read_playouts()


def test_the_data_is_there() -> None:
    assert len(PLAYOUTS) == 40
    assert PLAYOUTS[0][0][0][1] == 116  # the opening position's 116 moves


@pytest.mark.parametrize("index", range(4))
def test_playouts_agree_with_libhnefatafl(index: int) -> None:
    plies, status, length = PLAYOUTS[index]
    assert replay(plies, status, length) > 50


@pytest.mark.slow
@pytest.mark.parametrize("index", range(4, 40))
def test_playouts_agree_with_libhnefatafl_deep(index: int) -> None:
    plies, status, length = PLAYOUTS[index]
    assert replay(plies, status, length) > 0


@pytest.mark.parametrize("game_id", ["brandubh", "tablut", "hnefatafl"])
def test_noisy_moves_are_the_noisy_legal_moves(game_id: str) -> None:
    """The directly generated captures and escapes are exactly the legal moves
    ``is_noisy`` keeps, along random games (captures and escapes do occur)."""
    import random

    game = get_game(game_id)
    rng = random.Random(3)
    noisy_seen = 0
    for _ in range(6):
        state = game.initial_state()
        for _ply in range(300):
            moves = game.legal_moves(state)
            noisy = game.noisy_moves(state)
            assert len(set(noisy)) == len(noisy), game.format_position(state)
            assert set(noisy) == {m for m in moves if game.is_noisy(state, m)}, game.format_position(state)
            noisy_seen += len(noisy)
            if not moves:
                break
            state = game.play(state, rng.choice(moves))
    assert noisy_seen > 20


def test_the_corner_seals_are_the_squares_two_steps_from_a_corner() -> None:
    """Copenhagen's seals: three squares per corner (a3, b2, c1 for a1); tablut escapes
    to the edge, so its seals never count, and an attacker on a seal lowers white's score
    by the weight of ``corner_seal``."""
    game = get_game("hnefatafl")
    assert isinstance(game, Tafl)
    names = {game.topology.names[p] for p in game.corner_seals}
    assert names == {"a3", "b2", "c1", "i1", "j2", "k3", "a9", "b10", "c11", "i11", "j10", "k9"}
    state = game.parse_position("3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/11/5A5/3AAAAA3 w 0")
    sealed = game.parse_position("3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/11/1A3A5/3AAAA4 w 0")
    # (h1 moved to b2: one more attacker on a seal, nothing else changed for the score)
    assert game._white_score(state) - game._white_score(sealed) == game.knowledge.corner_seal


#: Copenhagen's start with d1 moved to b1 and a4 to a2: corner a1 shut out of the king's room.
SHUT_A1 = "3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/5D4A/11/A4A5/1A2AAAA3 w 0"


def test_the_kings_room_is_what_the_attackers_cordon_leaves() -> None:
    """The king's room: every square joined to his over squares free of attackers (121
    less the 24 attackers at the start, all four corners in it); two attackers beside
    corner a1 shut it out, and white's score loses ``escape_room`` for it and
    ``king_room`` for the square."""
    game = get_game("hnefatafl")
    assert isinstance(game, Tafl)
    k = game.knowledge
    assert k.king_room > 0 and k.escape_room > 0
    assert get_game("brandubh").knowledge.king_room == get_game("tablut").knowledge.escape_room == 0
    names = game.topology.names
    start = game.initial_state()
    room = game._king_room(start.cells, start.cells.index(game.king))
    assert len(room) == 97 and game.corners <= room
    shut = game.parse_position(SHUT_A1)
    room = game._king_room(shut.cells, shut.cells.index(game.king))
    assert len(room) == 96 and {names[p] for p in game.corners - room} == {"a1"}
    plain = copy.copy(game)
    plain.knowledge = replace(k, king_room=0, escape_room=0)
    for state, squares, corners in ((start, 97, 4), (shut, 96, 3)):
        assert game._white_score(state) - plain._white_score(state) == k.king_room * squares + k.escape_room * corners


def board_with(game: Tafl, pieces: dict[str, str], to_move: str) -> str:
    """The position with ``pieces`` (square name -> letter) on an empty board."""
    cells = [0] * game.topology.size
    for name, letter in pieces.items():
        cells[game.topology.pos(name)] = game.pieces.code_of_letter[letter]
    return game.format_position(game.make_state(tuple(cells), game.side_letters.index(to_move), (), (0,)))


#: Copenhagen positions for the king's capture on four sides (the defender on k6 keeps
#: white from encirclement): the king on e5 with attackers on d5, f5 and e4 and one on e9
#: that reaches e6 (a trap); the king on f5 beside the empty throne with attackers on e5
#: and g5 and f4 open to the attacker on f1 (the throne counts as his third hostile side).
ENCLOSED = {"e5": "K", "d5": "A", "f5": "A", "e4": "A", "e9": "A", "k6": "D"}
BESIDE_THRONE = {"f5": "K", "e5": "A", "g5": "A", "f1": "A", "k6": "D"}


def test_the_kings_enclosure_weighs_his_hostile_sides_and_the_attackers_reach() -> None:
    """Copenhagen's enclosure terms on known positions: three hostile sides (attackers, or
    the empty throne) with an attacker able to close the fourth score ``king_enclosed``
    times nine, ``king_side_reach`` and ``king_trap``; a defender between the attacker and
    the fourth side leaves no reach and no trap; the king on the edge has no enclosure (he
    cannot be taken on four sides there); brandubh and tablut weigh none of it."""
    game = get_game("hnefatafl")
    assert isinstance(game, Tafl)
    k = game.knowledge
    assert k.king_enclosed < 0 and k.king_side_reach < 0 and k.king_trap < 0
    for knowledge in (get_game("brandubh").knowledge, get_game("tablut").knowledge):
        assert knowledge.king_enclosed == knowledge.king_side_reach == knowledge.king_trap == 0
    trap = 9 * k.king_enclosed + k.king_side_reach + k.king_trap
    for pieces in (ENCLOSED, BESIDE_THRONE):
        for side in "bw":
            state = game.parse_position(board_with(game, pieces, side))
            king = state.cells.index(game.king)
            assert game._enclosure(state.cells, king) == trap, (pieces, side)
    blocked = game.parse_position(board_with(game, {**ENCLOSED, "e7": "D"}, "w"))
    assert game._enclosure(blocked.cells, blocked.cells.index(game.king)) == 9 * k.king_enclosed
    two = game.parse_position(board_with(game, {n: c for n, c in ENCLOSED.items() if n != "e4"}, "w"))
    # two hostile sides; e6 reached from e9, e4 from nowhere
    assert game._enclosure(two.cells, two.cells.index(game.king)) == 4 * k.king_enclosed + k.king_side_reach
    plain = copy.copy(game)
    plain.knowledge = replace(k, king_enclosed=0, king_side_reach=0, king_trap=0)
    state = game.parse_position(board_with(game, ENCLOSED, "w"))
    assert game._white_score(state) - plain._white_score(state) == trap
    edge = game.parse_position(board_with(game, {"a5": "K", "a4": "A", "a6": "A", "b5": "A", "k6": "D"}, "w"))
    assert game._white_score(edge) == plain._white_score(edge)
