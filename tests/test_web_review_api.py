"""The review API: ``GET /api/games/{id}/position?ply=n`` and ``POST /api/records``.

Every registered game: a random game is written as its record (``write_record``), opened
through the API, and each of its positions read back, compared with the rules engine's
(through the public view for a game with hidden information that goes on, as a page
without a seat key sees it).  Hostile input: bad records (a move that is not legal, a
malformed tag, moves after the end, a wrong board size), bad fields, a huge body, unknown
games and plies; each is a 4xx naming what is wrong, and the server carries on.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from myriad.core.game import Game
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.notation.records import write_record
from myriad.web import review
from myriad.web.app import create_app
from myriad.web.layout import cells_json, hands_json
from myriad.web.moves import last_move_json
from web_server import BrowserClient

SECRET = "r" * 40


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserClient]:
    db = tmp_path_factory.mktemp("review") / "games.sqlite3"
    with BrowserClient(create_app(db, workers=1), raise_server_exceptions=False) as test_client:
        yield test_client


def open_record(client: BrowserClient, **body: Any) -> Any:
    return client.post("/api/records", json=body, headers={"X-Myriad-Client": SECRET})


def random_game(game: Game, seed: int, plies: int) -> tuple[list[State], list[str], list[bool]]:
    """Up to ``plies`` random moves from the start: the states, the notations, and for each
    move whether chance played it."""
    rng = random.Random(seed)
    state = game.initial_state()
    states, notations, chance = [state], [], []
    for _ in range(plies):
        moves = game.legal_moves(state)
        if game.outcome(state) is not None or not moves:
            break
        move = rng.choice(moves)
        notations.append(game.format_move(state, move))
        chance.append(game.is_chance(state))
        state = game.play(state, move)
        states.append(state)
    return states, notations, chance


@pytest.mark.parametrize("game_id", game_ids())
def test_every_games_record_opens_and_each_position_reads_back(client: BrowserClient, game_id: str) -> None:
    game = get_game(game_id)
    states, notations, chance = random_game(game, seed=len(game_id), plies=8)
    assert notations, f"{game_id}: no move was played"
    text = write_record(game, notations, game.outcome(states[-1]), {"White": "a", "Black": "b"})
    answer = open_record(client, game=game_id, text=text)
    assert answer.status_code == 201, answer.text
    view = answer.json()
    assert view["game"] == game_id and view["ply"] == len(notations) and view["seats"] == ["human"] * game.players
    assert len(view["keys"]) == game.players and all(view["keys"])
    assert [e["by"] for e in view["history"]] == ["chance" if c else "human" for c in chance]
    hidden = game.hidden_information and game.outcome(states[-1]) is None
    if not hidden:
        assert [e["notation"] for e in view["history"]] == notations
    for ply, state in enumerate(states):
        frame = client.get(f"/api/games/{view['id']}/position?ply={ply}").json()  # no seat key: a watcher
        seen = game.public_view(state) if hidden else state
        assert frame["ply"] == ply and frame["plies"] == len(notations)
        assert frame["cells"] == cells_json(game, seen), f"{game_id} ply {ply}"
        assert frame["position"] == game.format_position(seen)
        assert frame["to_move"] == state.to_move
        assert frame.get("hands") == (hands_json(game, seen) if seen.hands else None)
        if ply == 0 or hidden:
            assert frame["last"] is None
        else:
            before = states[ply - 1]
            assert frame["last"] == last_move_json(game, before, game.parse_move(before, notations[ply - 1]))


def test_a_record_is_stored_with_its_moves(client: BrowserClient, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    text = '[Event "x"]\n1. e4 e5 2. Nf3 {a comment} Nc6 $1 3. Bb5 (3. Bc4 Bc5) a6 *\n'
    with BrowserClient(create_app(db, workers=1), raise_server_exceptions=False) as first:
        view = open_record(first, game="chess", text=text).json()
    with BrowserClient(create_app(db, workers=1), raise_server_exceptions=False) as again:  # a restart
        back = again.get(f"/api/games/{view['id']}").json()
        assert [e["notation"] for e in back["history"]] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
        assert back["position"] == view["position"] and back["human_turn"] is True
        # the importer holds the keys: an unfinished record is played on
        moved = again.post(f"/api/games/{view['id']}/moves", json={"move": "Ba4", "ply": 6},
                           headers={"X-Myriad-Client": SECRET, "X-Myriad-Seat": view["keys"][0]})
        assert moved.status_code == 200 and moved.json()["ply"] == 7
        listed = again.get("/api/games", headers={"X-Myriad-Client": SECRET}).json()["games"]
        assert any(g["id"] == view["id"] and g["mine"] and g["ply"] == 7 for g in listed)


def test_which_record_and_which_game(client: BrowserClient) -> None:
    two = '[Game "othello"]\n1. d3 c5 *\n\n[Game "othello"]\n1. d3 c3 2. c4 *\n'
    second = open_record(client, text=two, index=2)  # the game from its Game tag
    assert second.status_code == 201, second.text
    assert second.json()["game"] == "othello" and [e["notation"] for e in second.json()["history"]] == ["d3", "c3", "c4"]
    beyond = open_record(client, text=two, index=3)
    assert beyond.status_code == 400 and "2 game record(s)" in beyond.json()["error"]
    sgf = open_record(client, text="(;GM[1]FF[4]SZ[13];B[gg];W[dd])")  # Go of its size
    assert sgf.status_code == 201 and sgf.json()["game"] == "go13" and sgf.json()["ply"] == 2
    odd = open_record(client, text="(;GM[1]SZ[7];B[aa])")
    assert odd.status_code == 400 and "no game reads this SGF record" in odd.json()["error"]
    untagged = open_record(client, text="1. e4 e5 *")
    assert untagged.status_code == 400 and "say which game" in untagged.json()["error"]


@pytest.mark.parametrize("body, words", [
    ({"game": "chess", "text": "1. e4 e5 2. Ke3 *"}, ["move 2.", "'Ke3'"]),
    ({"game": "chess", "text": "1. e4 e5 2. Nf3 Nf9"}, ["move 2...", "'Nf9'", "no square f9"]),
    ({"game": "chess", "text": "hello world"}, ["move 1.", "'hello'"]),
    ({"game": "chess", "text": '[Event "x"]\n[White "unclosed\n1. e4 *'}, ["record:2", "malformed tag"]),
    ({"game": "chess", "text": '[FEN "not a position"]\n1. e4 *'}, ["FEN tag"]),
    ({"game": "tictactoe", "text": "1. a1 b1 2. a2 b2 3. a3 c3 *"}, ["move 3...", "'c3'", "over before it"]),
    ({"game": "chess", "text": "(;GM[1]SZ[9];B[ee])"}, ["chess does not read SGF"]),
    ({"game": "go9", "text": "(;GM[1]SZ[19];B[dd])"}, ["19x19", "9x9"]),
    ({"game": "go9", "text": "(;GM[1]SZ[9];B[zz])"}, ["zz"]),
    ({"game": "nosuchgame", "text": "1. e4"}, ["unknown game 'nosuchgame'"]),
    ({"game": "chess", "text": ""}, ["'text' must be the record"]),
    ({"game": "chess", "text": 42}, ["'text' must be the record"]),
    ({"game": ["chess"], "text": "1. e4"}, ["'game' must be a game id"]),
    ({"game": "chess", "text": "1. e4", "index": "2"}, ["'index' must be a whole number"]),
    ({"game": "chess", "text": "1. e4", "index": 0}, ["'index' must be from 1 to 1"]),
    ({"game": "chess", "text": "1. e4", "path": "/etc/passwd"}, ["unknown field", "'path'"]),
    ({"game": "chess", "text": "*"}, ["has no moves"]),
    ({"game": "chess", "text": "{only a comment}"}, ["no game record found"]),
])
def test_bad_records_are_400_and_name_the_fault(client: BrowserClient, body: dict[str, Any], words: list[str]) -> None:
    before = len(client.get("/api/games", headers={"X-Myriad-Client": SECRET}).json()["games"])
    answer = open_record(client, **body)
    assert answer.status_code == 400, answer.text
    message = answer.json()["error"]
    for word in words:
        assert word in message, message
    assert len(client.get("/api/games", headers={"X-Myriad-Client": SECRET}).json()["games"]) == before


def test_huge_long_and_anonymous_records_are_refused(client: BrowserClient, monkeypatch: pytest.MonkeyPatch) -> None:
    huge = open_record(client, game="chess", text="1. e4 e5 " * 60_000)  # about 540 KB
    assert huge.status_code == 400 and "too large" in huge.json()["error"]
    assert client.get("/api/catalog").status_code == 200  # the server carries on
    monkeypatch.setattr(review, "MAX_RECORD_PLIES", 3)
    long = open_record(client, game="chess", text="1. e4 e5 2. Nf3 Nc6 *")
    assert long.status_code == 400 and "at most 3" in long.json()["error"]
    anonymous = client.post("/api/records", json={"game": "chess", "text": "1. e4"}, headers={"X-Myriad-Client": ""})
    assert anonymous.status_code in (400, 403)
    plain = client.post("/api/records", content=b"1. e4 e5", headers={"X-Myriad-Client": SECRET,
                                                                      "Content-Type": "text/plain"})
    assert plain.status_code == 415


def test_bad_plies_and_games_for_positions(client: BrowserClient) -> None:
    view = open_record(client, game="chess", text="1. e4 e5 *").json()
    url = f"/api/games/{view['id']}/position"
    assert client.get(f"{url}?ply=2").json()["position"] == view["position"]
    for query, words in (("?ply=3", "from 0 to 2"), ("?ply=-1", "not a number"), ("", "ply is empty"),
                         ("?ply=1e3", "not a number"), ("?ply=" + "9" * 20, "digits")):
        answer = client.get(url + query)
        assert answer.status_code == 400 and words in answer.json()["error"], (query, answer.text)
    missing = client.get("/api/games/0123456789abcdef/position?ply=0")
    assert missing.status_code == 404 and "no game" in missing.json()["error"]
    assert client.get("/api/games/../../etc/position?ply=0").status_code == 404
