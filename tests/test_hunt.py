"""Hunt games: fox and geese (13 and 17 geese), bagh-chal; the graph boards and the jump
options they use; bagh-chal compared with an independent implementation.

Independent data: ``tests/data/baghchal_basnetsoyuj_playouts.txt``, 30 random games by the
``baghchal`` library of https://github.com/basnetsoyuj/baghchal (commit fb60a7a, MIT), run as
a separate program (``tests/data/baghchal_playouts.py``): at every ply the legal moves must
be the same, and so must the result.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from myriad.core.errors import IllegalMoveError, PositionError
from myriad.core.game import perft
from myriad.core.mechanics.jumps import JumpCaptures
from myriad.core.topology import square_board
from myriad.games import get_game
from myriad.games.hunt import alquerque_lines, cross_board

DATA = Path(__file__).parent / "data" / "baghchal_basnetsoyuj_playouts.txt"


def read_playouts() -> list[tuple[list[tuple[str, int, list[str]]], str, int]]:
    games, plies = [], []
    for line in DATA.read_text().splitlines():
        if line.startswith(("#", "game")):
            continue
        fields = line.split()
        if fields[0] == "end":
            games.append((plies, fields[1], int(fields[2])))
            plies = []
        else:
            plies.append((fields[0], int(fields[1]), fields[2:]))
    return games


PLAYOUTS = read_playouts()
END = {"B": ("tigers", ("5 goats taken", "goats cannot move")), "G": ("goats", ("tigers cannot move",))}


def test_the_baghchal_data_is_there() -> None:
    assert len(PLAYOUTS) == 30
    assert PLAYOUTS[0][0][0][1] == 21  # goats open with 21 placements


@pytest.mark.parametrize("index", range(30))
def test_baghchal_playouts_agree_with_basnetsoyuj(index: int) -> None:
    game = get_game("baghchal")
    state = game.initial_state()
    plies, result, length = PLAYOUTS[index]
    for ply, (played, count, theirs) in enumerate(plies):
        assert game.outcome(state) is None, ply
        moves = {game.format_move(state, m): m for m in game.legal_moves(state)}
        assert len(moves) == count and sorted(moves) == theirs, f"ply {ply}"
        state = game.play(state, moves[played])
    out = game.outcome(state)
    assert out is not None
    winner, reasons = END[result]
    assert out.winner == game.player_names.index(winner) and out.reason in reasons, out


def test_graph_boards() -> None:
    cross = cross_board()
    assert cross.size == 33
    lines = {(min(p, q), max(p, q)) for row in cross.links for p, q in enumerate(row) if q >= 0}
    # counted on the board: 26 lines along the rows and 26 along the columns; 10 diagonal
    # segments each way through the points whose column + row is even
    orth = sum(1 for p, q in lines if cross.coords[p][0] == cross.coords[q][0] or cross.coords[p][1] == cross.coords[q][1])
    assert (orth, len(lines) - orth) == (52, 20)
    alq = alquerque_lines(square_board(5, 5))
    centre, b3 = alq.pos("c3"), alq.pos("b3")
    assert alq.step(centre, "ne") == alq.pos("d4")
    assert alq.step(b3, "ne") == -1  # no diagonal through b3


def test_fox_may_stop_or_go_on_jumping() -> None:
    game = get_game("foxgeese")
    state = game.parse_position("GGG/GGG/7/2FG3/4G2/3/3 f 0 0")  # fox c4, geese d4, e3 and six far
    texts = {game.format_move(state, m) for m in game.legal_moves(state)}
    assert {"c4xe4", "c4xe4xe2"} <= texts
    after = game.play_text(state, "c4xe4xe2")
    assert after.cells.count(game.prey) == 6 and game.outcome(after) is None


def test_tigers_take_one_goat_per_move() -> None:
    game = get_game("baghchal")
    state = game.parse_position("TG1GT/5/3G1/5/T3T t 17 0")
    texts = {game.format_move(state, m) for m in game.legal_moves(state)}
    assert "a5xc5" in texts and "e5xc5" in texts
    # after a5xc5 the tiger could go on over d5 to e5 if chains were allowed; it may not
    assert not any(t.count("x") > 1 for t in texts)


def test_geese17_never_step_back() -> None:
    game = get_game("foxgeese17")
    state = game.initial_state()
    state = game.play_text(state, "d4-d3")
    texts = {game.format_move(state, m) for m in game.legal_moves(state)}
    assert "d5-d4" in texts and "c5-c4" in texts
    assert not any(t.startswith("d5-") and t.endswith(("6", "7")) for t in texts)
    assert "c5-b4" not in texts  # no diagonal steps for the 17 geese


def test_fox_wins_when_too_few_geese() -> None:
    game = get_game("foxgeese")
    state = game.parse_position("3/3/7/3F3/7/1G1/1G1 g 0 0")  # 2 geese, fewer than 4
    out = game.outcome(state)
    assert out is not None and out.winner == 0


def test_geese_win_by_trapping() -> None:
    game = get_game("foxgeese")
    state = game.parse_position("3/3/7/7/3G3/GGG/GFG f 0 0")
    assert game.legal_moves(state) == []
    assert game.outcome(state).winner == 1


@pytest.mark.parametrize(("text", "words"), [
    ("T3T/5/5/5/T3T g 21 0", "in hand"),
    ("T3T/5/5/5/T4 g 20 0", "tiger"),
    ("T3T/5/5/5/T3T q 20 0", "side to move"),
    ("T3T/5/5/5/T3T g 20", "four fields"),
    ("T3T/5/5/5/T3x g 20 0", "no piece"),
])
def test_bad_positions(text: str, words: str) -> None:
    with pytest.raises(PositionError, match=words):
        get_game("baghchal").parse_position(text)


def test_placement_phase_has_no_goat_steps() -> None:
    game = get_game("baghchal")
    state = game.initial_state()
    state = game.play_text(state, "c3")
    state = game.play_text(state, "a1-b1")
    with pytest.raises(IllegalMoveError):
        game.play_text(state, "c3-c2")


def test_perft_fox_and_geese_start() -> None:
    # counted by hand on the diagrams: 13 geese (geese first) have 10 first moves; the
    # 17-goose fox (first) has 5
    assert perft(get_game("foxgeese"), get_game("foxgeese").initial_state(), 1) == 10
    assert perft(get_game("foxgeese17"), get_game("foxgeese17").initial_state(), 1) == 5


def test_jump_options_refused() -> None:
    with pytest.raises(Exception, match="continue_capture"):
        JumpCaptures(square_board(3, 3), men=(1, 2), kings=(3, 4), promotion=((), ()), piece_codes=5,
                     continue_capture="sometimes")
