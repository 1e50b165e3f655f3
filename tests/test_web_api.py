"""The web app's JSON API: every endpoint, with good and bad input.

The app runs in-process (Starlette's TestClient) over a temporary SQLite file, with its
bot worker processes.  Bad requests must get a 4xx status and a JSON ``{"error": ...}``
that says what is wrong, and must change nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from myriad.games import game_ids, get_game
from myriad.web import bots
from myriad.web.app import create_app
from myriad.web.bots import LEVELS, BotPool, check_seat, with_fallback
from myriad.web.moves import piece_path
from myriad.web.storage import GameRow, Store
from web_server import BrowserClient, new_game


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("api") / "games.sqlite3"
    with BrowserClient(create_app(db, workers=2), raise_server_exceptions=False) as test_client:
        yield test_client


def wait_for(client: TestClient, game_id: str, done: Any, seconds: float = 30) -> dict[str, Any]:
    """Poll the game until ``done(view)``."""
    deadline = time.monotonic() + seconds
    while True:
        view = client.get(f"/api/games/{game_id}").json()
        if done(view):
            return view
        assert time.monotonic() < deadline, f"timed out; last view: {view['status']}, ply {view['ply']}"
        time.sleep(0.05)


def assert_error(response: Any, status: int, *words: str) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    message = response.json()["error"]
    assert "Traceback" not in message
    for word in words:
        assert word in message, message
    return message


# -- catalog --------------------------------------------------------------------------------

def test_catalog_lists_every_game_with_its_layout(client: TestClient) -> None:
    catalog = client.get("/api/catalog").json()
    assert [g["id"] for g in catalog["games"]] == game_ids()
    assert catalog["levels"] == LEVELS
    assert set(catalog["families"]) == {get_game(g).family for g in game_ids()}
    chess = next(g for g in catalog["games"] if g["id"] == "chess")
    assert (chess["style"], chess["width"], chess["height"]) == ("checkered", 8, 8)
    assert chess["files"] == list("abcdefgh") and chess["ranks"] == [str(r) for r in range(1, 9)]
    assert chess["positions"][0] == {"name": "a1", "x": 0.0, "y": 0.0}
    assert chess["colours"][0] != chess["colours"][1]


@pytest.mark.parametrize(("game", "style", "positions"), [
    ("checkers", "checkered", 32), ("othello", "reversi", 64), ("gomoku", "intersections", 225),
    ("connect4", "columns", 42), ("tictactoe", "plain", 9), ("kalah", "mancala", 14)])
def test_catalog_game_styles(client: TestClient, game: str, style: str, positions: int) -> None:
    layout = client.get(f"/api/catalog/{game}").json()
    assert layout["style"] == style
    assert len(layout["positions"]) == positions
    if game == "checkers":  # numbered squares: labels in the squares, not on the edges
        assert layout["cell_labels"] and layout["files"] == []
    if game == "kalah":
        stores = [p["name"] for p in layout["positions"] if p.get("store")]
        assert sorted(stores) == ["store_n", "store_s"] and layout["counts"]
    if game == "connect4":
        assert layout["gravity"]


def test_catalog_unknown_game_is_404(client: TestClient) -> None:
    assert_error(client.get("/api/catalog/nosuchgame"), 404, "nosuchgame")


# -- creating and reading games --------------------------------------------------------------

def test_create_game_defaults_and_view(client: TestClient) -> None:
    view = new_game(client, game="chess", seats=["human", "human"])
    assert view["game"] == "chess" and view["seats"] == ["human", "human"]
    assert view["ply"] == 0 and view["history"] == [] and view["last"] is None
    assert view["to_move_name"] == "white" and view["human_turn"] and view["outcome"] is None
    assert view["position"] == get_game("chess").format_position(get_game("chess").initial_state())
    assert len(view["legal"]) == 20
    assert {"notation": "e4", "path": ["e2", "e4"], "captures": []} in view["legal"]
    assert view["cells"][4] == {"owner": 0, "kind": "king", "letter": "K", "shape": "picture",
                                "picture": "staunton-king", "text": "K"}  # drawn by web/static/pieces.js
    assert view["cells"][20] is None
    keys = view.pop("keys")
    assert len(keys) == 2 and all(len(k) >= 24 for k in keys) and keys[0] != keys[1]
    assert client.get(f"/api/games/{view['id']}").json() == view  # the keys are given out once


def test_create_default_seats_human_against_medium(client: TestClient) -> None:
    view = new_game(client, game="tictactoe")
    assert view["seats"] == ["human", "medium"]


def test_create_from_a_position_and_a_setup(client: TestClient) -> None:
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    view = new_game(client, game="chess", seats=["human", "human"], position=fen)
    assert view["position"] == fen
    assert sorted(m["notation"] for m in view["legal"] if m["path"][0] == "e2") == ["e3", "e4"]
    setup = get_game("chess").setups
    view = new_game(client, game="chess", seats=["human", "human"], setup=next(iter(setup)))
    assert view["ply"] == 0


def test_create_without_game_finds_the_game_reading_the_position(client: TestClient) -> None:
    view = new_game(client, position="XO1/1X1/3 o", seats=["human", "human"])
    assert view["game"] == "tictactoe"


@pytest.mark.parametrize(("body", "words"), [
    ({"game": "nosuchgame"}, ["nosuchgame"]),
    ({"game": 7}, ["game"]),
    ({"game": "chess", "position": "not a fen"}, ["chess"]),
    ({"game": "chess", "position": "8/8/8/8/8/8/8/8 w - - 0 1", "setup": "start"}, ["not both"]),
    ({"game": "chess", "setup": "nosuchsetup"}, ["nosuchsetup"]),
    ({"game": "chess", "seats": ["human"]}, ["seats", "2"]),
    ({"game": "chess", "seats": "human,human"}, ["seats"]),
    ({"game": "chess", "seats": ["human", 3]}, ["black"]),
    ({"game": "chess", "seats": ["human", "nosuchbot"]}, ["black", "nosuchbot"]),
    ({"game": "chess", "seats": ["human", "alphabeta:algo=nonsense"]}, ["nonsense"]),
    ({"game": "chess", "seats": ["human", "book:file=/etc/passwd"]}, ["file", "not allowed"]),
    ({"game": "chess", "seats": ["human", "chain:book:file=/etc/hosts,random"]}, ["not allowed"]),
    ({"game": "chess", "movetime": 0}, ["movetime"]),
    ({"game": "chess", "movetime": "fast"}, ["movetime"]),
    ({"game": "chess", "delay": -1}, ["delay"]),
    ({"game": "chess", "colour": "white"}, ["colour"]),
    ({"position": "no game reads this"}, ["no game reads"]),
    ({}, ["game"]),
])
def test_create_bad_input_is_400(client: TestClient, body: dict[str, Any], words: list[str]) -> None:
    before = len(client.get("/api/games?limit=1000").json()["games"])
    assert_error(client.post("/api/games", json=body), 400, *words)
    assert len(client.get("/api/games?limit=1000").json()["games"]) == before


@pytest.mark.parametrize("raw", [b"{not json", b"[1, 2]", b"\xff\xfe", b'"text"'])
def test_create_malformed_body_is_400(client: TestClient, raw: bytes) -> None:
    response = client.post("/api/games", content=raw, headers={"Content-Type": "application/json"})
    assert_error(response, 400)


def test_posts_must_be_json(client: TestClient) -> None:
    """A form or plain text (what another site's page can send without asking) is refused."""
    view = new_game(client, game="chess", seats=["human", "human"])
    assert_error(client.post("/api/games", content='{"game": "chess"}', headers={"Content-Type": "text/plain"}),
                 415, "JSON")
    assert_error(client.post(f"/api/games/{view['id']}/moves", data={"move": "e4"}), 415)
    client.post(f"/api/games/{view['id']}/moves", json={"move": "e4"})
    assert_error(client.post(f"/api/games/{view['id']}/undo"), 415)
    assert client.get(f"/api/games/{view['id']}").json()["ply"] == 1


def test_oversized_body_is_400(client: TestClient) -> None:
    body = b'{"game": "chess", "position": "' + b"x" * 70_000 + b'"}'
    assert_error(client.post("/api/games", content=body, headers={"Content-Type": "application/json"}),
                 400, "too large")


def test_unknown_game_id_and_route_are_404(client: TestClient) -> None:
    for path in ("/api/games/doesnotexist", "/api/games/doesnotexist/record"):
        assert_error(client.get(path), 404)
    assert_error(client.post("/api/games/doesnotexist/moves", json={"move": "e4"}), 404, "doesnotexist")
    assert_error(client.post("/api/games/doesnotexist/undo", json={}), 404)
    assert_error(client.get("/api/nothing/here"), 404)
    assert_error(client.put("/api/games"), 405)


# -- listing -----------------------------------------------------------------------------------

def test_list_games_newest_first_with_previews_and_family_filter(client: TestClient) -> None:
    chess = new_game(client, game="chess", seats=["human", "human"])
    kalah = new_game(client, game="kalah", seats=["human", "human"])
    listed = client.get("/api/games").json()["games"]
    assert [g["id"] for g in listed[:2]] == [kalah["id"], chess["id"]]
    entry = listed[1]
    assert entry["cells"] == chess["cells"] and entry["status"] == "white to move" and entry["ply"] == 0
    assert listed[0]["cells"][:7] == [4, 4, 4, 4, 4, 4, 0]  # kalah: seed counts
    mancala = client.get("/api/games?family=mancala").json()["games"]
    assert kalah["id"] in {g["id"] for g in mancala}
    assert {g["family"] for g in mancala} == {"mancala"}
    assert len(client.get("/api/games?limit=1").json()["games"]) == 1


@pytest.mark.parametrize("query", ["family=nosuchfamily", "limit=0", "limit=-3", "limit=many", "limit=100000"])
def test_list_bad_query_is_400(client: TestClient, query: str) -> None:
    assert_error(client.get(f"/api/games?{query}"), 400)


# -- moves ------------------------------------------------------------------------------------

def test_legal_move_is_played_and_stored(client: TestClient) -> None:
    view = new_game(client, game="chess", seats=["human", "human"])
    played = client.post(f"/api/games/{view['id']}/moves", json={"move": "e4", "ply": 0})
    assert played.status_code == 200
    after = played.json()
    assert after["ply"] == 1 and after["history"] == [{"notation": "e4", "player": 0, "by": "human"}]
    assert after["last"] == {"notation": "e4", "path": ["e2", "e4"], "captures": []}
    assert after["to_move_name"] == "black" and after["version"] > view["version"]
    assert client.post(f"/api/games/{view['id']}/moves", json={"move": "e7e5"}).status_code == 200  # UCI alias
    assert client.get(f"/api/games/{view['id']}").json()["history"][1]["notation"] == "e5"


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"move": "e5"}, 400, ["not legal"]),
    ({"move": "Zz9"}, 400, []),
    ({"move": ""}, 400, ["not a move"]),
    ({"move": 42}, 400, ["move"]),
    ({}, 400, ["move"]),
    ({"move": "e4", "ply": 3}, 409, ["moved on"]),
    ({"move": "e4", "ply": "zero"}, 400, ["ply"]),
    ({"move": "e4", "promote": "q"}, 400, ["promote"]),
])
def test_bad_moves_change_nothing(client: TestClient, body: dict[str, Any], status: int, words: list[str]) -> None:
    view = new_game(client, game="chess", seats=["human", "human"])
    assert_error(client.post(f"/api/games/{view['id']}/moves", json=body), status, *words)
    keys = view.pop("keys")
    assert len(keys) == 2 and all(len(k) >= 24 for k in keys) and keys[0] != keys[1]
    assert client.get(f"/api/games/{view['id']}").json() == view  # the keys are given out once


def test_moves_json_for_captures_chains_castling_and_promotion(client: TestClient) -> None:
    checkers = new_game(client, game="checkers", seats=["human", "human"], position="B:W18,19,26,27:B14")
    assert sorted((m["notation"], tuple(m["path"]), tuple(m["captures"])) for m in checkers["legal"]) == [
        ("14x23x30", ("14", "23", "30"), ("18", "26")),
        ("14x23x32", ("14", "23", "32"), ("18", "27"))]
    chess = new_game(client, game="chess", seats=["human", "human"],
                     position="r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1")
    by_notation = {m["notation"]: m for m in chess["legal"]}
    assert by_notation["O-O"]["path"] == ["e1", "g1"]  # the king's path; the rook is not clicked
    promotions = [m for m in chess["legal"] if m["path"] == ["b7", "b8"]]
    assert sorted(m["promotion"]["kind"] for m in promotions) == ["bishop", "knight", "queen", "rook"]
    assert "promotion" not in by_notation["Ke2"]
    othello = new_game(client, game="othello", seats=["human", "human"])
    assert sorted(m["path"][0] for m in othello["legal"]) == ["c4", "d3", "e6", "f5"]


def test_piece_path_follows_the_moving_piece() -> None:
    chess = get_game("chess")
    state = chess.parse_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    castle = chess.parse_move(state, "O-O")
    assert [chess.square_name(p) for p in piece_path(castle)] == ["e1", "g1"]
    kalah = get_game("kalah")
    sow = kalah.parse_move(kalah.initial_state(), "c")
    assert [kalah.square_name(p) for p in piece_path(sow)] == ["c"]


def test_game_over_refuses_moves(client: TestClient) -> None:
    view = new_game(client, game="tictactoe", seats=["human", "human"], position="XX1/OO1/3 x")
    won = client.post(f"/api/games/{view['id']}/moves", json={"move": "c3"}).json()
    assert won["outcome"]["winner"] == "X" and won["legal"] == [] and not won["human_turn"]
    assert "X wins" in won["status"]
    assert_error(client.post(f"/api/games/{view['id']}/moves", json={"move": "c1"}), 409, "over")


def test_pass_is_a_move_with_an_empty_path(client: TestClient) -> None:
    view = new_game(client, game="othello", seats=["human", "human"], position="8/8/8/8/8/8/8/XO6 o")
    assert view["legal"] == [{"notation": "pass", "path": [], "captures": []}]


# -- bots -------------------------------------------------------------------------------------

def test_bot_answers_a_human_move(client: TestClient) -> None:
    view = new_game(client, game="chess", seats=["human", "easy"], movetime=0.5)
    client.post(f"/api/games/{view['id']}/moves", json={"move": "d4"})
    answered = wait_for(client, view["id"], lambda v: v["ply"] == 2)
    assert answered["history"][1]["by"] == "heuristic" and answered["human_turn"]
    assert not answered["thinking"]


def test_moving_on_the_bots_turn_is_409(client: TestClient) -> None:
    view = new_game(client, game="chess", seats=["alphabeta:time=3", "human"], movetime=3)
    assert_error(client.post(f"/api/games/{view['id']}/moves", json={"move": "e4"}), 409, "bot")
    assert client.get(f"/api/games/{view['id']}").json()["ply"] == 0
    assert client.delete(f"/api/games/{view['id']}").status_code == 204  # stops the thinking bot


def test_a_slow_bot_blocks_neither_other_games_nor_requests(client: TestClient) -> None:
    slow = new_game(client, game="chess", seats=["alphabeta:time=4", "human"], movetime=4)
    wait_for(client, slow["id"], lambda v: v["thinking"])
    fast = new_game(client, game="tictactoe", seats=["human", "random"])
    started = time.monotonic()
    client.post(f"/api/games/{fast['id']}/moves", json={"move": "b2"})
    wait_for(client, fast["id"], lambda v: v["ply"] == 2)
    answered = time.monotonic() - started
    still = client.get(f"/api/games/{slow['id']}").json()
    assert still["thinking"] and still["ply"] == 0, "the slow bot should still be thinking"
    assert answered < 2.0, f"the quick bot took {answered:.1f} s while the slow one thought"
    client.delete(f"/api/games/{slow['id']}")


def test_bot_game_plays_to_the_end(client: TestClient) -> None:
    view = new_game(client, game="othello4", seats=["random", "heuristic"], delay=0, movetime=0.2)
    done = wait_for(client, view["id"], lambda v: v["outcome"] is not None)
    assert done["ply"] >= 4 and done["status"].startswith(
        ("Black wins by more discs", "White wins by more discs", "Draw by equal discs"))
    assert {h["by"] for h in done["history"]} <= {"random", "heuristic"}


def test_failing_bot_link_is_replaced_by_random_and_reported(client: TestClient,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    # The solver runs out of its 10 nodes on chess and fails; the chain's random link answers.
    view = new_game(client, game="chess", seats=["human", "solver:nodes=10"])
    with caplog.at_level(logging.WARNING, logger="myriad.web"):
        client.post(f"/api/games/{view['id']}/moves", json={"move": "e4"})
        answered = wait_for(client, view["id"], lambda v: v["ply"] == 2)
    assert answered["history"][1]["by"] == "random"
    assert "solver" in answered["notice"]
    assert any("solver" in r.getMessage() for r in caplog.records)


def test_pause_resume_and_speed(client: TestClient) -> None:
    view = new_game(client, game="connect4", seats=["random", "random"], delay=0.3)
    paused = client.patch(f"/api/games/{view['id']}", json={"paused": True}).json()
    assert paused["paused"]
    time.sleep(1)  # let a move started before the pause land
    ply = client.get(f"/api/games/{view['id']}").json()["ply"]
    time.sleep(1)
    assert client.get(f"/api/games/{view['id']}").json()["ply"] == ply  # nothing moves while paused
    resumed = client.patch(f"/api/games/{view['id']}", json={"paused": False, "delay": 0, "movetime": 1}).json()
    assert not resumed["paused"] and resumed["delay"] == 0 and resumed["movetime"] == 1
    wait_for(client, view["id"], lambda v: v["ply"] > ply)


@pytest.mark.parametrize(("body", "words"), [
    ({"delay": 11}, ["delay"]), ({"delay": "slow"}, ["delay"]), ({"paused": "yes"}, ["paused"]),
    ({"movetime": 0}, ["movetime"]), ({"speed": 1}, ["speed"]), ({"delay": True}, ["delay"])])
def test_bad_settings_are_400(client: TestClient, body: dict[str, Any], words: list[str]) -> None:
    view = new_game(client, game="chess", seats=["human", "human"])
    assert_error(client.patch(f"/api/games/{view['id']}", json=body), 400, *words)
    keys = view.pop("keys")
    assert len(keys) == 2 and all(len(k) >= 24 for k in keys) and keys[0] != keys[1]
    assert client.get(f"/api/games/{view['id']}").json() == view  # the keys are given out once


# -- undo and redo ----------------------------------------------------------------------------

def test_undo_and_redo_between_humans_go_one_move(client: TestClient) -> None:
    view = new_game(client, game="chess", seats=["human", "human"])
    gid = view["id"]
    assert_error(client.post(f"/api/games/{gid}/undo", json={}), 409, "nothing to undo")
    assert_error(client.post(f"/api/games/{gid}/redo", json={}), 409, "nothing to redo")
    for move in ("e4", "e5", "Nf3"):
        client.post(f"/api/games/{gid}/moves", json={"move": move})
    back = client.post(f"/api/games/{gid}/undo", json={}).json()
    assert [h["notation"] for h in back["history"]] == ["e4", "e5"] and back["can_redo"]
    forward = client.post(f"/api/games/{gid}/redo", json={}).json()
    assert [h["notation"] for h in forward["history"]] == ["e4", "e5", "Nf3"] and not forward["can_redo"]
    client.post(f"/api/games/{gid}/undo", json={})
    replaced = client.post(f"/api/games/{gid}/moves", json={"move": "Nc3"}).json()
    assert [h["notation"] for h in replaced["history"]] == ["e4", "e5", "Nc3"] and not replaced["can_redo"]


def test_undo_against_a_bot_goes_back_to_the_humans_turn(client: TestClient) -> None:
    view = new_game(client, game="chess", seats=["human", "easy"], movetime=0.5)
    gid = view["id"]
    client.post(f"/api/games/{gid}/moves", json={"move": "e4"})
    wait_for(client, gid, lambda v: v["ply"] == 2)
    undone = client.post(f"/api/games/{gid}/undo", json={}).json()
    assert undone["ply"] == 0 and undone["human_turn"] and not undone["can_undo"]
    redone = client.post(f"/api/games/{gid}/redo", json={}).json()
    assert redone["ply"] == 2 and redone["human_turn"]


def test_undo_when_the_bot_moved_first_keeps_its_move(client: TestClient) -> None:
    view = new_game(client, game="tictactoe", seats=["random", "human"])
    first = wait_for(client, view["id"], lambda v: v["ply"] == 1)
    assert not first["can_undo"]  # there is no earlier human turn to go back to
    assert_error(client.post(f"/api/games/{view['id']}/undo", json={}), 409)


def test_undo_in_a_bot_game_pauses_it(client: TestClient) -> None:
    view = new_game(client, game="connect4", seats=["random", "random"], delay=0.2)
    wait_for(client, view["id"], lambda v: v["ply"] >= 2)
    undone = client.post(f"/api/games/{view['id']}/undo", json={}).json()
    assert undone["paused"]
    time.sleep(0.8)
    assert client.get(f"/api/games/{view['id']}").json()["ply"] == undone["ply"]


# -- record, delete, websocket -------------------------------------------------------------------

def test_record_export(client: TestClient) -> None:
    view = new_game(client, game="chess", seats=["human", "easy"], position="4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    client.post(f"/api/games/{view['id']}/moves", json={"move": "e4"})
    wait_for(client, view["id"], lambda v: v["ply"] == 2)
    response = client.get(f"/api/games/{view['id']}/record")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    assert f'filename="chess-{view["id"]}.pgn"' in response.headers["content-disposition"]
    text = response.text
    assert '[White "human"]' in text and '[Black "easy"]' in text
    assert '[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]' in text and "1. e4 " in text


def test_delete_game(client: TestClient) -> None:
    view = new_game(client, game="chess", seats=["human", "human"])
    assert client.delete(f"/api/games/{view['id']}").status_code == 204
    assert_error(client.get(f"/api/games/{view['id']}"), 404)
    assert_error(client.delete(f"/api/games/{view['id']}"), 404)
    assert view["id"] not in {g["id"] for g in client.get("/api/games?limit=1000").json()["games"]}


def test_websocket_sends_every_change(client: TestClient) -> None:
    view = new_game(client, game="chess", seats=["human", "easy"], movetime=0.5)
    with client.websocket_connect(f"/api/games/{view['id']}/ws") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["game"]["ply"] == 0
        client.post(f"/api/games/{view['id']}/moves", json={"move": "e4"})
        plies = set()
        while 2 not in plies:
            message = ws.receive_json()
            plies.add(message["game"]["ply"])
        assert message["game"]["history"][0]["notation"] == "e4" and not message["game"]["thinking"]


def test_websocket_for_an_unknown_game_is_closed(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect("/api/games/doesnotexist/ws") as ws:
        ws.receive_json()
    assert closed.value.code == 4404


def test_page_and_static_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<script type="module" src="/static/app.js">' in page.text
    for name in ("app.js", "board.js", "app.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert_error(client.get("/static/nothing.js"), 404)


# -- the parts ---------------------------------------------------------------------------------

def test_seats_and_specs() -> None:
    chess = get_game("chess")
    assert with_fallback("random") == "random"
    assert with_fallback("alphabeta:time=1") == "chain:alphabeta:time=1,random"
    assert with_fallback("chain:book,alphabeta") == "chain:book,alphabeta,random"
    assert with_fallback(LEVELS["strong"]) == LEVELS["strong"]
    assert check_seat(" human ", chess) == "human"
    assert check_seat("medium", chess) == "medium"
    for level in LEVELS:
        check_seat(level, get_game("kalah"))


def test_pool_falls_back_when_the_worker_fails(monkeypatch: pytest.MonkeyPatch,
                                               caplog: pytest.LogCaptureFixture) -> None:
    """An illegal answer, an error and an overrun each give a random legal move, logged."""
    game = get_game("chess")
    state = game.initial_state()
    legal = game.legal_moves(state)

    def illegal(*job: Any) -> dict[str, Any]:
        return {"actions": [(0, 0, 63, 1, 0)], "bot": "x", "failures": []}

    def failing(*job: Any) -> dict[str, Any]:
        raise bots.WorkerFailed("every link failed")

    async def run() -> list[Any]:
        pool = BotPool(workers=1)
        answers = []
        with ThreadPoolExecutor(1) as threads:
            async def fake_run(job: tuple[Any, ...], timeout: float, *_: Any) -> dict[str, Any]:
                return await asyncio.get_running_loop().run_in_executor(threads, current, *job)
            monkeypatch.setattr(pool, "run", fake_run)
            for current in (illegal, failing):
                answers.append(await pool.choose(game, state, 0, "custom", 1.0))
        return answers

    with caplog.at_level(logging.WARNING, logger="myriad.web"):
        answers = asyncio.run(run())
    for answer in answers:
        assert answer.move in legal and answer.by == "random" and answer.failures
    assert sum("playing a random move" in r.getMessage() for r in caplog.records) == 2


def test_pool_stops_a_worker_that_overruns() -> None:
    """A worker that does not answer in time (here a search told to think for 30 s, with a
    1 s limit on the pool's side) is stopped; it is replaced and the next request is answered."""
    game = get_game("tictactoe")
    state = game.initial_state()

    async def run() -> tuple[Any, Any, float]:
        pool = BotPool(workers=1, max_workers=1)
        pool.start()
        try:
            started = time.monotonic()
            with pytest.raises(bots.WorkerFailed, match="no answer"):
                await pool.run(("chess", "alphabeta", bots.state_fields(get_game("chess").initial_state()), 30.0), 1.0)
            elapsed = time.monotonic() - started
            answer = await pool.choose(game, state, 0, "random", 1.0)
            return answer, pool.count, elapsed
        finally:
            pool.close()

    answer, count, elapsed = asyncio.run(run())
    assert answer.move in game.legal_moves(state) and answer.by == "random" and answer.failures == []
    assert count == 1 and elapsed < 5


def test_store_round_trip(tmp_path: Path) -> None:
    store = Store(tmp_path / "deep" / "games.sqlite3")
    row = GameRow("g1", "chess", "start-text", ["human", "easy"], 2.0, owner="o1")
    store.create(row)
    store.add_move("g1", 0, "e4", "human", "pos1", "black to move")
    store.add_move("g1", 1, "e5", "heuristic", "pos2", "white to move")
    store.set_cursor("g1", 1, "pos1", "black to move")
    store.add_move("g1", 1, "c5", "heuristic", "pos3", "white to move")  # replaces the taken-back e5
    loaded = store.load("g1")
    assert loaded is not None
    assert (loaded.moves, loaded.by, loaded.cursor, loaded.position) == (
        ["e4", "c5"], ["human", "heuristic"], 2, "pos3")
    assert store.recent("o1", ["kalah"]) == [] and [r.id for r in store.recent("o1", ["chess"])] == ["g1"]
    assert store.recent("o2") == []  # another client's private game
    assert store.delete("g1") and store.load("g1") is None and not store.delete("g1")
    store.close()


# -- chance and more than two players -------------------------------------------------------------

def test_pig_against_a_bot_records_the_servers_dice(client: TestClient) -> None:
    from myriad.notation.records import read_records, replay
    view = new_game(client, game="pig20", seats=["human", "random"], movetime=0.2, delay=0)
    gid = view["id"]
    assert view["legal"] == [{"notation": "roll", "path": [], "captures": []}]
    for _ in range(200):
        if view["outcome"]:
            break
        view = wait_for(client, gid, lambda v: v["human_turn"] or v["outcome"])
        if view["outcome"]:
            break
        move = "hold" if any(m["notation"] == "hold" for m in view["legal"]) and view["ply"] % 3 else "roll"
        view = client.post(f"/api/games/{gid}/moves", json={"move": move, "ply": view["ply"]}).json()
    assert view["outcome"] is not None
    game = get_game("pig20")
    rolls = [h for h in view["history"] if h["by"] == "chance"]
    assert rolls and all(h["notation"] in "123456" and h["player"] == game.chance_player for h in rolls)
    assert {h["by"] for h in view["history"]} == {"human", "random", "chance"}
    [record] = read_records(client.get(f"/api/games/{gid}/record").text)
    assert game.format_position(replay(game, record)[-1]) == view["position"]


def test_the_server_rolls_when_a_game_starts_at_a_chance_node(client: TestClient) -> None:
    view = new_game(client, game="pig", seats=["human", "human"], position="10,20 6 6 1?")
    assert not view["human_turn"] or view["ply"] == 1
    rolled = wait_for(client, view["id"], lambda v: v["ply"] == 1)
    assert rolled["history"][0]["by"] == "chance" and rolled["human_turn"]
    assert rolled["to_move_name"] in ("first", "second") and not rolled["chance"]


def test_undo_goes_back_past_the_dice_and_the_same_roll_comes_again(client: TestClient) -> None:
    view = new_game(client, game="pig", seats=["human", "random"], movetime=0.2, delay=0)
    gid = view["id"]
    client.post(f"/api/games/{gid}/moves", json={"move": "roll"})
    rolled = wait_for(client, gid, lambda v: v["human_turn"])
    face = rolled["history"][1]["notation"]
    assert rolled["history"][1]["by"] == "chance"
    undone = client.post(f"/api/games/{gid}/undo", json={}).json()
    assert undone["ply"] == 0 and undone["human_turn"] and undone["can_redo"]
    client.post(f"/api/games/{gid}/moves", json={"move": "roll"})
    again = wait_for(client, gid, lambda v: v["human_turn"])
    assert again["history"][1]["notation"] == face     # no fishing for another roll


def test_a_four_player_game_seats_every_player(client: TestClient) -> None:
    assert_error(client.post("/api/games", json={"game": "rolit", "seats": ["human", "random"]}), 400, "4 seats")
    view = new_game(client, game="rolit", seats=["human", "random", "random", "random"], delay=0)
    assert view["players"] == ["red", "yellow", "green", "blue"] and len(view["seats"]) == 4
    assert sorted(m["notation"] for m in view["legal"]) == ["d3", "f3", "f5"]
    client.post(f"/api/games/{view['id']}/moves", json={"move": "f5"})
    answered = wait_for(client, view["id"], lambda v: v["ply"] == 4)
    assert [h["player"] for h in answered["history"]] == [0, 1, 2, 3] and answered["human_turn"]
    from myriad.web.layout import NAMED_COLOURS
    colours = {c["colour"] for c in answered["cells"] if c}
    assert colours == {NAMED_COLOURS[name] for name in ("red", "yellow", "green", "blue")} & colours
    start = [view["cells"][35], view["cells"][36], view["cells"][28], view["cells"][27]]  # d5 e5 e4 d4
    assert [c["colour"] for c in start] == [NAMED_COLOURS[n] for n in ("red", "yellow", "green", "blue")]


def test_catalog_draws_the_dice_game_as_score_cells(client: TestClient) -> None:
    layout = client.get("/api/catalog/pig").json()
    assert layout["style"] == "dice" and layout["counts"]
    assert [p["name"] for p in layout["positions"]] == ["first", "second", "turn", "die"]
    rolit = client.get("/api/catalog/rolit").json()
    assert rolit["style"] == "reversi" and len(set(rolit["colours"])) == 4


# -- the Asian chess family: boards, pieces, hands ---------------------------------------------

MINI_SHOGI_LIKE = '''
[kanji]
name = "Kanji test"
files = 5
ranks = 5
start = "rbsgk/4p/5/P4/KGSBR w - - 0 1"
[kanji.pieces.king]
letter = "K"
betza = "K"
royal = true
glyphs = ["玉", "王"]
[kanji.pieces.gold]
letter = "G"
betza = "WfF"
glyphs = ["金", "金"]
[kanji.pieces.silver]
letter = "S"
betza = "FfW"
glyphs = ["銀", "銀"]
[kanji.pieces.bishop]
letter = "B"
betza = "B"
glyphs = ["角", "角"]
[kanji.pieces.rook]
letter = "R"
betza = "R"
glyphs = ["飛", "飛"]
[kanji.pieces.pawn]
letter = "P"
betza = "fW"
glyphs = ["歩", "歩"]
'''

PALACE_ONLY = '''
[points]
name = "Points without a river"
files = 9
ranks = 10
start = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"
[points.zones]
palace = ["d1", "e1", "f1", "d2", "e2", "f2", "d3", "e3", "f3"]
[points.pieces.general]
letter = "K"
betza = "W"
royal = true
confined = "palace"
glyphs = ["楚", "漢"]
'''


def test_xiangqi_layout_has_points_palaces_and_a_river(client: TestClient) -> None:
    layout = client.get("/api/catalog/xiangqi").json()
    assert (layout["style"], layout["width"], layout["height"]) == ("intersections", 9, 10)
    assert layout["palaces"] == [["d1", "e1", "f1", "d2", "e2", "f2", "d3", "e3", "f3"],
                                 ["d8", "e8", "f8", "d9", "e9", "f9", "d10", "e10", "f10"]]
    assert layout["river"] == 4.5 and layout["written"]
    assert layout["colours"] == ["#d1342f", "#23201d"]  # red moves first, then black
    assert "cannon" in layout["rules"] and "river" in layout["rules"]
    view = new_game(client, game="xiangqi", seats=["human", "human"])
    cells = {p["name"]: cell for p, cell in zip(layout["positions"], view["cells"])}
    assert cells["b3"] == {"owner": 0, "kind": "cannon", "letter": "C", "shape": "round", "text": "炮",
                           "western": "C"}
    assert cells["e10"]["text"] == "將" and cells["e10"]["western"] == "K"
    assert "hands" not in view  # no hands in xiangqi
    chess = client.get("/api/catalog/chess").json()
    assert (chess["palaces"], chess["river"], chess["written"]) == ([], None, False)


def test_board_style_follows_the_declaration() -> None:
    from myriad.core.errors import GameDefinitionError
    from myriad.games.variant_file import load_variants
    from myriad.web.layout import board_style, layout_json, piece_picture

    points = load_variants(PALACE_ONLY, name="points.toml")[0]
    layout = layout_json(points)  # a palace zone: on the points, palaces drawn, no river (janggi)
    assert (layout["style"], layout["river"], len(layout["palaces"])) == ("intersections", None, 2)
    assert layout["colours"] == ["#1f7a5a", "#c0392b"]  # the generals 楚 and 漢: green Cho, red Han
    assert piece_picture(points, points.pieces.code("general", 1))["shape"] == "round"
    squares = load_variants(PALACE_ONLY.replace('start =', 'board = "squares"\nstart ='), name="s.toml")[0]
    assert board_style(squares) == "grid" and layout_json(squares)["palaces"] == []  # ruled squares
    with pytest.raises(GameDefinitionError, match=r"b\.toml:\d+: points\.board: expected"):
        load_variants(PALACE_ONLY.replace('start =', 'board = "hexes"\nstart ='), name="b.toml")
    kanji = load_variants(MINI_SHOGI_LIKE, name="kanji.toml")[0]
    assert board_style(kanji) == "grid"  # written pieces on squares: a ruled shogi board
    king = piece_picture(kanji, kanji.pieces.code("king", 1))
    assert (king["shape"], king["text"], king["western"], king["owner"]) == ("wedge", "王", "K", 1)
    assert piece_picture(kanji, kanji.pieces.code("king", 0))["text"] == "玉"


def test_hands_and_drops_in_the_view() -> None:
    from myriad.core.move import DROP, Move
    from myriad.core.state import State
    from myriad.games.variant_file import load_variants
    from myriad.web.layout import hands_json
    from myriad.web.moves import moves_json

    game = load_variants(MINI_SHOGI_LIKE, name="kanji.toml")[0]
    start = game.initial_state()
    kinds = [k.name for k in game.pieces.kinds]
    held = tuple(2 if k == "pawn" else 1 if k == "gold" else 0 for k in kinds)
    state = State(start.cells, 0, start.flags, start.counters, (held, (0,) * len(kinds)), start.key)
    hands = hands_json(game, state)
    assert [[(h["piece"]["kind"], h["count"]) for h in hand] for hand in hands] == [
        [("gold", 1), ("pawn", 2)], []]
    assert hands[0][1]["piece"]["owner"] == 0 and hands[0][1]["piece"]["text"] == "歩"
    c3 = game.topology.index["c3"]
    drop = Move(((DROP, c3, c3, game.pieces.code("pawn", 0), 0),))
    game.format_move = lambda state, move: "P*c3"  # type: ignore[method-assign]  (this file's SAN has no drops)
    entry = moves_json(game, state, [drop])[0]
    assert entry["path"] == ["c3"] and entry["drop"]["kind"] == "pawn" and "promotion" not in entry
    assert entry["notation"] == "P*c3"
    # Without hands, a DROP is a placement (gomoku's stones): no "drop" picture.
    assert "drop" not in moves_json(game, start, [drop])[0]


def test_a_shogi_view_has_hands_and_drops(client: TestClient) -> None:
    view = new_game(client, game="shogi", seats=["human", "human"],
                    position="lnsgkg1nl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL b Sb 1")
    assert view["hands"] == [
        [{"piece": {"owner": 0, "kind": "silver", "letter": "S", "shape": "wedge", "text": "銀", "western": "S",
                    "size": 0.9}, "count": 1}],
        [{"piece": {"owner": 1, "kind": "bishop", "letter": "b", "shape": "wedge", "text": "角", "western": "B",
                    "size": 0.94}, "count": 1}]]
    # Pieces are made in sizes, as shogi sets are: the king largest, a promoted piece as it was.
    sizes = {cell["kind"]: cell["size"] for cell in view["cells"] if cell}
    assert sizes["king"] == 1 > sizes["rook"] > sizes["gold"] > sizes["knight"] > sizes["pawn"] == 0.84
    drops = [m for m in view["legal"] if "drop" in m]
    assert drops and all(m["notation"].startswith("S*") and m["drop"]["kind"] == "silver" for m in drops)
    assert {m["path"][0] for m in drops} == {p["name"] for p, cell in zip(
        client.get("/api/catalog/shogi").json()["positions"], view["cells"]) if cell is None}
    played = client.post(f"/api/games/{view['id']}/moves", json={"move": "S*5e", "ply": 0}).json()
    assert played["hands"][0] == [] and played["last"]["path"] == ["e5"]
    assert "hands" not in new_game(client, game="chess", seats=["human", "human"])
