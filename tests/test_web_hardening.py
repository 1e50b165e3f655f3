"""The server against an attacker and an unlucky user: no file read through a bot spec, no
move lost to a failed write, no one acting in another's game, no client holding every bot
worker, no half-applied settings, broken databases refused or served read-only.

Each test names the item of issue 15 it checks; each failed on the main branch before."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from myriad.games import get_game
from myriad.web.app import create_app
from myriad.web.bots import BotPool, Ticket, state_fields
from myriad.web.storage import Store, StoreBroken
from web_server import BrowserClient, Keyring, new_game


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture()
def client(db: Path) -> Iterator[BrowserClient]:
    with BrowserClient(create_app(db, workers=1), raise_server_exceptions=False) as test_client:
        yield test_client


def error_of(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    return str(response.json()["error"])


# -- 1: bot specs are data --------------------------------------------------------------------

@pytest.mark.parametrize("seat", [
    "chain:chain:book:file={path}", "book:file={path}", "chain:book:file={path},random",
    "chain:alphabeta,book:file={path}", "chain:" + ",".join(["book"] * 300),
    "chain:" + "chain:" * 3000 + "random", "mcts:playout={path}", "alphabeta:algo={path}",
])
def test_no_seat_spec_reads_a_file(client: BrowserClient, tmp_path: Path, seat: str) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET 1. e4 e5\n")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # a read of it would hang the server
    for path in (secret, fifo, tmp_path / "missing"):
        response = client.post("/api/games", json={"game": "chess", "seats": ["human", seat.format(path=path)]})
        message = error_of(response, 400)
        assert "TOPSECRET" not in message and "Traceback" not in message


def test_allowed_specs_are_checked_value_by_value(client: BrowserClient) -> None:
    assert "time must be" in error_of(client.post("/api/games", json={
        "game": "chess", "seats": ["human", "alphabeta:time=100000"]}), 400)
    assert "not offered" in error_of(client.post("/api/games", json={
        "game": "chess", "seats": ["human", "solver2"]}), 400)
    new_game(client, game="chess", seats=["human", "chain:book,alphabeta:time=1,depth=3,random"])


# -- 2: save first, then apply ----------------------------------------------------------------

def hold_write_lock(db: Path) -> sqlite3.Connection:
    """Another program's connection, holding the database's write lock until closed."""
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    return other


def test_a_move_the_store_cannot_save_is_refused_and_not_played(db: Path) -> None:
    keyring = Keyring()
    with BrowserClient(create_app(db, workers=1), keyring, raise_server_exceptions=False) as client:
        gid = new_game(client, game="chess", seats=["human", "human"])["id"]
        other = hold_write_lock(db)
        try:
            refused = client.post(f"/api/games/{gid}/moves", json={"move": "e4"})
            assert "busy" in error_of(refused, 503) and refused.headers["Retry-After"] == "1"
            view = client.get(f"/api/games/{gid}").json()
            assert view["ply"] == 0 and view["history"] == []
            for action in ("undo", "redo"):
                assert client.post(f"/api/games/{gid}/{action}", json={}).status_code in (409, 503)
            assert error_of(client.patch(f"/api/games/{gid}", json={"movetime": 7}), 503)
            assert client.get(f"/api/games/{gid}").json()["movetime"] == 2.0
        finally:
            other.rollback()
            other.close()
        assert client.post(f"/api/games/{gid}/moves", json={"move": "e4", "ply": 0}).status_code == 200
        assert client.post(f"/api/games/{gid}/moves", json={"move": "e5", "ply": 1}).status_code == 200
    with BrowserClient(create_app(db, workers=1), keyring, raise_server_exceptions=False) as client:
        view = client.get(f"/api/games/{gid}").json()
        assert [h["notation"] for h in view["history"]] == ["e4", "e5"]


def test_a_locked_store_blocks_no_other_request(db: Path) -> None:
    with BrowserClient(create_app(db, workers=1), raise_server_exceptions=False) as client:
        gid = new_game(client, game="chess", seats=["human", "human"])["id"]
        other = hold_write_lock(db)
        finished: list[str] = []

        def move() -> None:
            client.post(f"/api/games/{gid}/moves", json={"move": "e4"})
            finished.append("move")

        try:
            mover = threading.Thread(target=move)
            mover.start()
            time.sleep(0.2)  # the move now waits for the lock
            assert client.get("/api/catalog").status_code == 200
            assert client.get(f"/api/games/{gid}").status_code == 200
            finished.append("reads")
            mover.join()
        finally:
            other.rollback()
            other.close()
        assert finished == ["reads", "move"]


# -- 3: seats belong to people ----------------------------------------------------------------

def test_another_client_can_watch_but_not_act(db: Path) -> None:
    app = create_app(db, workers=1)
    owner, stranger = Keyring(), Keyring()
    with BrowserClient(app, owner, raise_server_exceptions=False) as mine:
        private = new_game(mine, game="tictactoe", seats=["human", "human"])
        public = new_game(mine, game="tictactoe", seats=["human", "human"], public=True)
        theirs = BrowserClient(app, stranger, raise_server_exceptions=False)
        gid = private["id"]
        assert theirs.get(f"/api/games/{gid}").status_code == 200  # watching
        assert error_of(theirs.post(f"/api/games/{gid}/moves", json={"move": "b2"}), 403)
        assert error_of(theirs.post(f"/api/games/{gid}/moves", json={"move": "b2"},
                                    headers={"X-Myriad-Seat": "x" * 32}), 403)
        assert error_of(theirs.post(f"/api/games/{gid}/undo", json={}), 403)
        assert error_of(theirs.patch(f"/api/games/{gid}", json={"paused": True}), 403)
        assert error_of(theirs.delete(f"/api/games/{gid}"), 403)
        assert mine.get(f"/api/games/{gid}").json()["ply"] == 0
        listed = {g["id"]: g for g in theirs.get("/api/games").json()["games"]}
        assert gid not in listed and public["id"] in listed and not listed[public["id"]]["mine"]
        assert {g["id"] for g in mine.get("/api/games").json()["games"]} >= {gid, public["id"]}
        # An invitation: the second seat's key, and only that seat.
        guest = private["keys"][1]
        seat_o = {"X-Myriad-Seat": guest}
        assert "turn" in error_of(theirs.post(f"/api/games/{gid}/moves", json={"move": "b2"}, headers=seat_o), 409)
        assert mine.post(f"/api/games/{gid}/moves", json={"move": "b2"}).status_code == 200
        assert theirs.post(f"/api/games/{gid}/moves", json={"move": "a1"}, headers=seat_o).status_code == 200
        assert theirs.get(f"/api/games/{gid}", headers=seat_o).json()["seat"] == 1
        assert error_of(theirs.delete(f"/api/games/{gid}", headers=seat_o), 403)  # a guest is not the owner
        assert error_of(theirs.post("/api/games", json={"game": "chess"}, headers={"X-Myriad-Client": "short"}), 400)


@pytest.mark.parametrize(("headers", "status"), [
    ({"host": "evil.example"}, 403), ({"host": "localhost:8000", "origin": "http://evil.example"}, 403),
    ({"host": "localhost:8000", "origin": "null"}, 403), ({"host": "127.0.0.1:8000"}, 200),
    ({"host": "[::1]:8000", "origin": "http://[::1]:8000"}, 200), ({"host": "app.localhost"}, 200),
])
def test_host_and_origin_are_checked(client: BrowserClient, headers: dict[str, str], status: int) -> None:
    assert client.get("/api/catalog", headers=headers).status_code == status


def test_a_proxied_name_is_allowed_when_configured(db: Path) -> None:
    with BrowserClient(create_app(db, workers=1, allowed_hosts=["games.example.org"])) as client:
        assert client.get("/api/catalog", headers={"host": "games.example.org"}).status_code == 200
        assert client.get("/api/catalog", headers={"host": "other.example.org"}).status_code == 403


def test_a_websocket_from_another_site_is_refused(client: BrowserClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    gid = new_game(client, game="chess", seats=["human", "human"])["id"]
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(
            f"/api/games/{gid}/ws", headers={"origin": "http://evil.example"}) as ws:
        ws.receive_json()
    assert closed.value.code == 4403


# -- 4: fair bot workers ----------------------------------------------------------------------

def test_one_client_cannot_hold_every_worker() -> None:
    game = get_game("chess")
    job = ("chess", "alphabeta:time=3,depth=64", state_fields(game.initial_state()), 3.0)

    async def scenario() -> list[str]:
        pool = BotPool(workers=2, max_workers=2, per_owner=1)
        pool.start()
        order: list[str] = []

        async def run(owner: str, spec_job: tuple[Any, ...], name: str) -> None:
            await pool.run(spec_job, 30, Ticket(owner))
            order.append(name)

        try:
            hog = [asyncio.ensure_future(run("hog", job, f"hog{i}")) for i in range(3)]
            await asyncio.sleep(0.1)
            quick = ("chess", "random", state_fields(game.initial_state()), 1.0)
            await run("other", quick, "other")
            await asyncio.gather(*hog)
        finally:
            pool.close()
        return order

    order = asyncio.run(scenario())
    assert order[0] == "other", order  # served while the hog's first job still ran


def test_a_waiting_bot_says_it_is_queued(db: Path) -> None:
    with BrowserClient(create_app(db, workers=1), raise_server_exceptions=False) as client:
        api = client.app.state.api  # type: ignore[attr-defined]
        api.games.pool.max_workers = api.games.pool.per_owner = 1
        first = new_game(client, game="chess", seats=["alphabeta:time=2", "alphabeta:time=2"], movetime=2)
        second = new_game(client, game="chess", seats=["alphabeta:time=2", "alphabeta:time=2"], movetime=2)
        deadline = time.monotonic() + 20
        seen = set()
        while time.monotonic() < deadline and "queued" not in seen:
            views = [client.get(f"/api/games/{g['id']}").json() for g in (first, second)]
            seen |= {v["bot"] for v in views}
            time.sleep(0.05)
        assert {"queued", "thinking"} <= seen


# -- 5 and 6: numbers and half-applied updates ------------------------------------------------

@pytest.mark.parametrize("limit", ["²", "1_0", "9" * 5000, "١٠", "0", "-1", " 5", "5.0"])
def test_odd_numbers_in_query_parameters_are_refused(client: BrowserClient, limit: str) -> None:
    assert "limit" in error_of(client.get("/api/games", params={"limit": limit}), 400)


def test_a_refused_patch_changes_nothing(client: BrowserClient) -> None:
    gid = new_game(client, game="chess", seats=["human", "easy"])["id"]
    error_of(client.patch(f"/api/games/{gid}", json={"movetime": 1, "delay": 99}), 400)
    error_of(client.patch(f"/api/games/{gid}", json={"movetime": 1, "paused": "yes"}), 400)
    view = client.get(f"/api/games/{gid}").json()
    assert (view["movetime"], view["delay"], view["paused"]) == (2.0, 0.6, False)


# -- 8: broken databases ----------------------------------------------------------------------

def test_a_file_that_is_not_a_database_is_refused_in_one_line(db: Path) -> None:
    db.write_bytes(b"this is not SQLite\n" * 100)
    with pytest.raises(StoreBroken, match="games.sqlite3"):
        create_app(db)
    run = subprocess.run([sys.executable, "-W", "ignore", "-m", "myriad.web", "--db", str(db), "--port", "0"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert "games.sqlite3" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize(("sql", "words"), [
    ("CREATE TABLE users (name TEXT)", "not Myriad's"),
    ("CREATE TABLE games (id TEXT, score REAL)", "not a Myriad games database"),
    ("PRAGMA user_version = 99", "newer Myriad"),
])
def test_a_foreign_schema_is_refused(db: Path, sql: str, words: str) -> None:
    with sqlite3.connect(db) as other:
        other.execute(sql)
    with pytest.raises(StoreBroken, match=words):
        Store(db)


def test_a_bad_row_is_skipped_in_the_list_and_refused_alone(client: BrowserClient, db: Path,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    good = new_game(client, game="chess", seats=["human", "human"])["id"]
    bad = new_game(client, game="chess", seats=["human", "human"])["id"]
    with sqlite3.connect(db) as other:
        other.execute("UPDATE games SET seats = 'not json' WHERE id = ?", (bad,))
    client.app.state.api.games.open.pop(bad)  # type: ignore[attr-defined]  # as after a restart
    listed = client.get("/api/games")
    assert listed.status_code == 200 and [g["id"] for g in listed.json()["games"]] == [good]
    assert "cannot be read" in error_of(client.get(f"/api/games/{bad}"), 409)
    assert any(bad in record.getMessage() for record in caplog.records)


def test_the_first_schema_is_migrated_and_its_games_kept(db: Path) -> None:
    with sqlite3.connect(db) as old:
        old.executescript("""
            CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, start TEXT NOT NULL,
                seats TEXT NOT NULL, movetime REAL NOT NULL, delay REAL NOT NULL DEFAULT 0.6,
                paused INTEGER NOT NULL DEFAULT 0, cursor INTEGER NOT NULL DEFAULT 0,
                position TEXT NOT NULL, status TEXT NOT NULL DEFAULT '', created REAL NOT NULL,
                updated REAL NOT NULL);
            CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                ply INTEGER NOT NULL, notation TEXT NOT NULL, by TEXT NOT NULL DEFAULT '',
                PRIMARY KEY (game_id, ply));""")
        start = get_game("chess").format_position(get_game("chess").initial_state())
        old.execute("INSERT INTO games VALUES ('old1', 'chess', ?, ?, 2, 0.6, 0, 1, ?, '', 0, 0)",
                    (start, json.dumps(["human", "human"]), start))
        old.execute("INSERT INTO moves VALUES ('old1', 0, 'e4', 'human')")
    with BrowserClient(create_app(db, workers=1), raise_server_exceptions=False) as client:
        assert [g["id"] for g in client.get("/api/games").json()["games"]] == ["old1"]
        view = client.get("/api/games/old1").json()
        assert view["history"][0]["notation"] == "e4" and not view["owner"]
        assert client.post("/api/games/old1/moves", json={"move": "e5"}).status_code == 403


def test_a_read_only_store_is_served_with_a_banner(client: BrowserClient, db: Path) -> None:
    gid = new_game(client, game="chess", seats=["human", "human"])["id"]
    with BrowserClient(create_app(db, workers=1, read_only=True), client.keyring,
                       raise_server_exceptions=False) as reader:
        catalog = reader.get("/api/catalog").json()
        assert catalog["read_only"] and "read-only" in catalog["banner"]
        assert reader.get(f"/api/games/{gid}").status_code == 200
        assert gid in {g["id"] for g in reader.get("/api/games").json()["games"]}
        assert "read-only" in error_of(reader.post(f"/api/games/{gid}/moves", json={"move": "e4"}), 503)
        assert error_of(reader.post("/api/games", json={"game": "chess"}), 503)


def test_idle_games_leave_memory_and_come_back_whole(client: BrowserClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from myriad.web import sessions

    monkeypatch.setattr(sessions, "MAX_OPEN", 2)
    first = new_game(client, game="tictactoe", seats=["human", "human"])["id"]
    client.post(f"/api/games/{first}/moves", json={"move": "b2"})
    for _ in range(3):
        new_game(client, game="tictactoe", seats=["human", "human"])
    api = client.app.state.api  # type: ignore[attr-defined]
    assert first not in api.games.open and len(api.games.open) <= 3
    assert client.post(f"/api/games/{first}/moves", json={"move": "a1"}).json()["ply"] == 2


def test_levels_and_specs_fit_each_games_turns(client: BrowserClient) -> None:
    """Every level seats a bot that can search the game; a bot that cannot is refused at once."""
    from myriad.games import game_ids

    catalog = {g["id"]: g for g in client.get("/api/catalog").json()["games"]}
    for game_id in game_ids():
        game = get_game(game_id)
        for level in ("easy", "medium", "strong"):
            view = new_game(client, game=game_id, seats=[level] + ["human"] * (game.players - 1))
            assert client.delete(f"/api/games/{view['id']}").status_code == 204
        assert set(catalog[game_id]["levels"]) == {"easy", "medium", "strong"}
    assert catalog["pig"]["levels"]["medium"].startswith("expectimax")
    message = error_of(client.post("/api/games", json={"game": "pig", "seats": ["human", "alphabeta"]}), 400)
    assert "alphabeta" in message and "expectimax" in message
