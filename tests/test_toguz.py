"""Toguz Kumalak: MancalaGames' games replayed move by move, rule-book examples (tuzdyk and
its restrictions, the lone stone, atsyrau), notation and errors.

Proof data: tests/data/toguz_mancalagames.json.gz holds 300 random games played by
StoneShark's MancalaGames (https://github.com/StoneShark/MancalaGames, commit 2b1c596,
GameProps/Toguz_Kumalak.txt, GPL-3), written by tests/data/make_toguz_mancalagames.py run
as a separate process inside MancalaGames' source tree (none of its code is in Myriad): the
legal moves, the move played, the board, the stores and the tuzdyks after every ply, and the
end condition.  MancalaGames keeps the stones sown into a tuzdyk in the hole and counts them
for its holder at the end, and sweeps the stones left on the board into their owners' stores
when the game ends; Myriad sends them to the holder's kazan at once, so the replay compares
store + tuzdyk contents.  The default run replays 40 games, ``-m slow`` all 300.

Rules sources: the World Nomad Games rules of toguz korgool
(worldnomadgames.com/media/images/2018/04/05/27-toguz-korgool-rules-en.pdf, as cited by
MancalaGames), playstrategy.org/variant/togyzkumalak and toguzkumalak.com's rules guide: a
house's first stone goes back into it (a lone stone moves on), even counts in an opponent's
house are captured, a last stone making 3 makes a tuzdyk (once, not the 9th house, not
mirroring the opponent's), 82 wins and 81-81 draws.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from myriad.core.errors import GameDefinitionError, IllegalMoveError, InvalidMoveError, PositionError
from myriad.games import get_game
from myriad.games.toguz import toguz

DATA = Path(__file__).parent / "data" / "toguz_mancalagames.json.gz"
START = "9,9,9,9,9,9,9,9,9,0/9,9,9,9,9,9,9,9,9,0 w"


@pytest.fixture(scope="module")
def game():
    return get_game("toguz")


def after(game, position: str, *moves: str) -> str:
    state = game.parse_position(position)
    for text in moves:
        state = game.play_text(state, text)
    return game.format_position(state)


# -- MancalaGames' games ---------------------------------------------------------------------

def mancalagames_games() -> list[list[dict]]:
    if not DATA.exists():
        pytest.fail(f"{DATA} is missing: regenerate it with tests/data/make_toguz_mancalagames.py")
    with gzip.open(DATA, "rt") as f:
        data = json.load(f)
    assert len(data["games"]) == 300
    return data["games"]


def label(mover: int, index: int) -> str:
    """MancalaGames' move index as a house number: the first player's holes 0-8 are houses
    1-9; the second player's index i is hole 17 - i, their house 9 - i."""
    return str(index + 1) if mover == 0 else str(9 - index)


def replay(game, plies: list[dict]) -> str:
    """Every ply: the same legal moves, board, stores and tuzdyks; the same end.  The reason
    of the end."""
    state = game.initial_state()
    order = game.houses[0] + game.houses[1]  # MancalaGames' holes 0..17
    for ply, step in enumerate(plies):
        where = f"ply {ply}"
        mover = step["mover"]
        assert mover == state.to_move, where
        assert sorted(game.format_move(state, m) for m in game.legal_moves(state)) == \
            sorted(label(mover, i) for i in step["legal"]), where
        state = game.play_text(state, label(mover, step["move"]))
        cells, child = state.cells, step["child"]
        totals = [step["stores"][p] + sum(n for n, c in zip(step["board"], child) if c == p) for p in (0, 1)]
        outcome = game.outcome(state)
        if step["end"] is not None:  # MancalaGames swept the board into the stores
            assert outcome is not None, where
            assert outcome.winner == (None if step["end"] == "TIE" else 0 if totals[0] > totals[1] else 1), where
            if not outcome.reason.startswith("captured"):
                assert list(game.sowing.final_scores(cells)) == totals, where
            return outcome.reason
        assert outcome is None, where
        assert [cells[h] for h in order] == [0 if c is not None else n for n, c in zip(step["board"], child)], where
        assert [cells[game.stores[0]], cells[game.stores[1]]] == totals, where
        claims = game.claims(state)
        assert [order.index(c) if c >= 0 else None for c in claims] == \
            [next((i for i, c in enumerate(child) if c == p), None) for p in (0, 1)], where
    pytest.fail("MancalaGames' game did not end")


def test_mancalagames_games_move_by_move(game):
    games = mancalagames_games()
    reasons = {replay(game, plies).split()[0] for plies in games[:40]}
    assert reasons == {"captured", "no"}  # majorities and atsyrau both met
    assert sum(1 for plies in games[:40] if any(c is not None for c in plies[-1]["child"])) >= 30  # tuzdyks made


@pytest.mark.slow
def test_all_mancalagames_games_move_by_move(game):
    for plies in mancalagames_games():
        replay(game, plies)


# -- the rule book ---------------------------------------------------------------------------

def test_start(game):
    state = game.initial_state()
    assert game.format_position(state) == START
    assert [game.format_move(state, m) for m in game.legal_moves(state)] == [str(i) for i in range(1, 10)]


def test_first_stone_goes_back_and_even_counts_are_captured(game):
    # house 9 (9 stones): one back into 9, eight into black's 1..8 -> black 8 holds 10: captured.
    # (MancalaGames' own test of its Toguz Kumalak opens the same way: store 10.)
    assert after(game, START, "9") == "9,9,9,9,9,9,9,9,1,10/10,10,10,10,10,10,10,0,9,0 b"
    # house 1: 1..9 of one's own row get a stone each, the last in one's own house 9: no capture
    assert after(game, START, "1") == "1,10,10,10,10,10,10,10,10,0/9,9,9,9,9,9,9,9,9,0 b"


def test_a_lone_stone_moves_to_the_next_house(game):
    position = "1,0,0,0,0,0,0,0,1,80/2,0,0,0,0,0,0,0,0,78 w"
    assert after(game, position, "1") == "0,1,0,0,0,0,0,0,1,80/2,0,0,0,0,0,0,0,0,78 b"
    # a lone stone from house 9 goes to the opponent's house 1: 2 -> 3 makes a tuzdyk
    assert after(game, position, "9") == "1,0,0,0,0,0,0,0,0,83/X,0,0,0,0,0,0,0,0,78 b"


def test_tuzdyk_collects_every_later_stone(game):
    # black's house 1 is white's tuzdyk
    position = "0,0,0,0,0,0,0,0,5,73/X,0,0,0,0,0,0,0,4,80 w"
    # white 9 (5): 9, black 1 (tuzdyk: to white's kazan), 2, 3, 4
    assert after(game, position, "9") == "0,0,0,0,0,0,0,0,1,74/X,1,1,1,0,0,0,0,4,80 b"


def test_tuzdyk_restrictions(game):
    # white 1 with 17: 1..9, black 1..8 -> black 8 holds 2 + 1 = 3: claimed
    position = "17,0,0,0,0,0,0,0,0,71/0,0,0,0,0,0,0,2,2,70 w"
    assert after(game, position, "1").split("/")[1].startswith("1,1,1,1,1,1,1,X,2")
    # with one more stone the last lands in black 9, making 3: the 9th house cannot be
    # claimed, and 3 is odd: nothing
    position = "18,0,0,0,0,0,0,0,0,70/0,0,0,0,0,0,0,2,2,70 w"
    assert after(game, position, "1").split("/")[1] == "1,1,1,1,1,1,1,3,3,70 b"
    # black holds white's house 3: white may not claim black's house 3
    position = "0,4,X,0,0,0,0,0,0,70/0,0,2,0,0,0,0,0,0,86 w"
    assert game.outcome(game.parse_position(position)) is not None  # 86 > 81: over
    position = "0,0,X,0,0,0,0,0,8,70/0,0,2,0,0,0,0,0,0,82 w"
    assert game.outcome(game.parse_position(position)).winner == 1
    position = "0,0,X,0,0,0,0,0,4,75/0,2,2,0,0,0,0,0,0,79 w"
    # white 9 (4): 9, black 1, 2, 3 -> black 3 holds 3 but mirrors black's tuzdyk: nothing
    assert after(game, position, "9") == "0,0,X,0,0,0,0,0,1,75/1,3,3,0,0,0,0,0,0,79 b"
    # only one tuzdyk a game: white already holds black's house 1
    position = "0,0,0,0,0,0,0,0,4,75/X,2,2,0,0,0,0,0,0,79 w"
    assert after(game, position, "9") == "0,0,0,0,0,0,0,0,1,76/X,3,3,0,0,0,0,0,0,79 b"


def test_atsyrau_ends_the_game_and_the_opponent_takes_the_rest(game):
    state = game.parse_position("0,0,0,0,0,0,0,0,0,75/1,2,0,0,0,0,0,0,3,81 w")
    assert game.legal_moves(state) == []
    outcome = game.outcome(state)
    assert outcome.winner == 1 and outcome.reason == "no stones to move (atsyrau) 75-87"


def test_majority_and_draw(game):
    assert game.outcome(game.parse_position("0,0,0,0,0,0,0,0,1,82/0,0,0,0,0,0,0,0,1,78 b")).winner == 0
    draw = game.outcome(game.parse_position("0,0,0,0,0,0,0,0,0,81/0,0,0,0,0,0,0,0,0,81 w"))
    assert draw.winner is None and draw.reason == "captured 81-81"


# -- notation, positions, drawing ---------------------------------------------------------------

def test_move_notation_errors(game):
    state = game.initial_state()
    with pytest.raises(InvalidMoveError, match="not a house"):
        game.parse_move(state, "10")
    state = game.parse_position("0,0,0,0,0,0,0,0,9,72/9,9,9,9,9,9,9,9,9,0 w")
    with pytest.raises(IllegalMoveError, match="legal moves: 9"):
        game.parse_move(state, "1")


@pytest.mark.parametrize(("text", "where"), [
    (START.replace(" w", " s"), "side to move"),
    ("9,9,9,9,9,9,9,9,9,0/9,9,9,9,9,9,9,9,0 w", "black row"),
    ("9,9,9,9,9,9,9,9,X,9/9,9,9,9,9,9,9,9,9,0 w", "last house cannot be claimed"),
    ("9,X,9,9,9,9,9,9,9,18/9,X,9,9,9,9,9,9,9,0 w", "same number"),
    ("X,X,9,9,9,9,9,9,9,18/9,9,9,9,9,9,9,9,9,0 w", "holds two houses"),
    ("9,9,9,9,9,9,9,9,9,1/9,9,9,9,9,9,9,9,9,0 w", "163 seeds"),
    ("9,9,9,9,9,9,9,9,9,0/9,9,9,9,9,9,9,9,-9,0 w", "black house 9"),
])
def test_position_errors_name_the_field(game, text, where):
    with pytest.raises(PositionError, match=where):
        game.parse_position(text)


def test_position_round_trip_and_render(game):
    text = "0,0,X,0,0,0,0,0,4,73/0,2,2,0,0,0,0,0,0,81 w"
    state = game.parse_position(text)
    assert game.format_position(state) == text and game.claims(state) == (-1, game.houses[0][2])
    lines = game.render(state).splitlines()
    assert lines[0].split() == [str(i) for i in range(9, 0, -1)]
    assert lines[3].split() == "0 0 X 0 0 0 0 0 4".split() and lines[2].split() == ["81", "73"]
    assert lines[-1] == "white to move"


def test_smaller_boards_and_bad_declarations():
    small = toguz(5, 5)
    assert small.format_position(small.initial_state()) == "5,5,5,5,5,0/5,5,5,5,5,0 w"
    with pytest.raises(GameDefinitionError, match="pits"):
        toguz(10)


def test_the_web_page_draws_two_rows_of_nine(game):
    from myriad.web.layout import cells_json, layout_json

    layout = layout_json(game)
    assert layout["style"] == "mancala" and layout["counts"]
    pits = [p for p in layout["positions"] if not p.get("store")]
    stores = [p for p in layout["positions"] if p.get("store")]
    assert len(pits) == 18 and {p["y"] for p in pits} == {0.0, 1.0} and len(stores) == 2
    assert (layout["width"], layout["height"]) == (11, 2)
    assert cells_json(game, game.initial_state()) == list(game.initial_state().cells)
    state = game.parse_position("0,0,X,0,0,0,0,0,4,75/0,2,2,0,0,0,0,0,0,79 w")
    cells = cells_json(game, state)
    assert cells[game.houses[0][2]] == "X" and cells.count("X") == 1 and cells[game.stores[1]] == 79
