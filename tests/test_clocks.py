"""Clocks, resignation, draw offers and rematches: the clock arithmetic with a fake time
source, then the server's rules over HTTP and its WebSocket (a fake time source too, so a
flag falls when the test says, with no move arriving)."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from myriad.games import game_ids, get_game
from myriad.web.app import create_app
from myriad.web.clocks import Clocks, TimeControl, TimeControlError
from myriad.web.storage import Store
from web_server import BrowserClient


class FakeTime:
    """A monotonic time source the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def wall(self) -> float:
        """The wall clock, moving with it."""
        return self.now + 1_700_000_000


# -- the arithmetic ---------------------------------------------------------------------------

def test_fischer_charges_the_mover_and_adds_the_increment() -> None:
    clocks = Clocks.new(TimeControl("fischer", 300, 3), 2)
    clocks.start(0, 10.0)
    assert clocks.flag_at() == 310.0 and clocks.flagged(309.9) is None and clocks.flagged(310.0) == 0
    clocks.charge(40.0)  # 30 s spent, 3 s back
    assert clocks.main == [273.0, 300.0] and clocks.running is None
    clocks.start(1, 40.0)
    assert clocks.shown(100.0)["main"] == [273.0, 240.0] and clocks.shown(100.0)["running"] == 1
    clocks.charge(100.0, increment=False)
    assert clocks.main == [273.0, 240.0]


def test_byoyomi_spends_main_time_then_periods() -> None:
    control = TimeControl("byoyomi", 60, periods=3, period=10)
    clocks = Clocks.new(control, 2)
    clocks.start(0, 0.0)
    assert clocks.flag_at() == 90.0  # 60 s + 3 periods of 10 s
    clocks.charge(55.0)
    assert clocks.main[0] == 5.0 and clocks.periods[0] == 3
    clocks.start(0, 100.0)
    clocks.charge(112.0)  # 5 s of main time, then 7 s into the first period: kept
    assert clocks.main[0] == 0.0 and clocks.periods[0] == 3
    clocks.start(0, 200.0)
    clocks.charge(225.0)  # two periods run out, moved in the third
    assert clocks.periods[0] == 1
    clocks.start(0, 300.0)
    assert clocks.flagged(309.99) is None and clocks.flagged(310.0) == 0


def test_clocks_read_back_from_the_store_keep_running() -> None:
    clocks = Clocks.new(TimeControl("fischer", 60, 0), 2)
    clocks.start(1, 500.0)  # monotonic 500 = wall 10_000
    stored = json.loads(json.dumps(clocks.to_json(10_020.0, 520.0)))
    again = Clocks.from_json(stored, 2, wall_now=10_050.0, now=7.0)  # another process, 30 s later
    assert again.running == 1 and again.shown(7.0)["main"] == [60.0, 10.0]
    with pytest.raises(TimeControlError):
        Clocks.from_json({**stored, "main": [1]}, 2, 0.0, 0.0)


@pytest.mark.parametrize(("data", "words"), [
    ("5+3", "must be an object"),
    ({"kind": "sudden"}, "kind must be"),
    ({"kind": "fischer"}, "needs 'base'"),
    ({"kind": "fischer", "base": 3 * 3600 + 1}, "from 1 to 10800"),
    ({"kind": "fischer", "base": 0}, "from 1 to 10800"),
    ({"kind": "fischer", "base": "300"}, "base must be a number"),
    ({"kind": "fischer", "base": 300, "increment": -1}, "increment"),
    ({"kind": "fischer", "base": 300, "periods": 3}, "has no field 'periods'"),
    ({"kind": "byoyomi", "base": 300, "periods": 0, "period": 30}, "periods must be a whole number"),
    ({"kind": "byoyomi", "base": 300, "periods": 5}, "needs 'period'"),
    ({"kind": "byoyomi", "base": 300, "periods": 5, "period": 1e9}, "period must be"),
    ({"kind": "fischer", "base": float("nan")}, "base must be"),
])
def test_malformed_time_controls_are_refused(data: Any, words: str) -> None:
    with pytest.raises(TimeControlError, match=words):
        TimeControl.parse(data)


def test_labels_and_pgn_tags() -> None:
    assert TimeControl.parse({"kind": "fischer", "base": 300, "increment": 3}) == TimeControl("fischer", 300, 3)
    assert TimeControl("fischer", 300, 3).label == "5+3" and TimeControl("fischer", 300, 3).pgn == "300+3"
    assert TimeControl("byoyomi", 600, periods=5, period=30).label == "10 min + 5×30 s"
    assert TimeControl.parse(None) is None and TimeControl.parse({"kind": "none"}) is None


# -- the server -------------------------------------------------------------------------------

@pytest.fixture()
def fake() -> FakeTime:
    return FakeTime()


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture()
def client(db: Path, fake: FakeTime) -> Iterator[BrowserClient]:
    with BrowserClient(create_app(db, workers=1, timer=fake, wall=fake.wall), raise_server_exceptions=False) as test_client:
        yield test_client


FIVE_THREE = {"kind": "fischer", "base": 300, "increment": 3}
#: The end in words, as the status line writes it (either way the project has written it).
WHITE_ON_TIME = re.compile(r"white wins \(time forfeit\)|White wins by time forfeit")


def timed(client: BrowserClient, game: str = "chess", clock: Any = None, seats: Any = None) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": game, "seats": seats or ["human", "human"],
                                               "clock": FIVE_THREE if clock is None else clock})
    assert response.status_code == 201, response.text
    return dict(response.json())


def act(client: BrowserClient, view: dict[str, Any], seat: int, what: str, body: Any = None) -> Any:
    """A request of the person holding seat ``seat``'s key (not the creator's keyring)."""
    return client.post(f"/api/games/{view['id']}/{what}", json=body or {},
                       headers={"X-Myriad-Seat": view["keys"][seat]})


def test_the_mover_is_charged_when_its_move_is_accepted(client: BrowserClient, fake: FakeTime) -> None:
    view = timed(client)
    assert view["clock"]["running"] is None and view["clock"]["main"] == [300, 300]
    fake.now += 50  # before the first move no clock runs
    assert act(client, view, 0, "moves", {"move": "e4"}).json()["clock"]["running"] == 1
    fake.now += 20
    after = act(client, view, 1, "moves", {"move": "e5"}).json()
    assert after["clock"]["main"] == [300, 283] and after["clock"]["running"] == 0
    fake.now += 7.5
    shown = client.get(f"/api/games/{view['id']}").json()["clock"]
    assert shown["main"] == [292.5, 283] and shown["control"]["label"] == "5+3"
    # stored with the move: a second server over the same file shows the same clocks
    with BrowserClient(create_app(client.app.state.api.store.path, workers=1, timer=fake, wall=fake.wall),  # type: ignore[attr-defined]
                       client.keyring) as again:
        reread = again.get(f"/api/games/{view['id']}").json()["clock"]
    assert reread["running"] == 0 and reread["main"][1] == 283
    assert reread["main"][0] == 292.5
    assert "moves cannot be taken back" in act(client, view, 0, "undo").json()["error"]


def test_a_flag_falls_without_a_move_and_is_announced(client: BrowserClient, fake: FakeTime) -> None:
    view = timed(client, clock={"kind": "fischer", "base": 60, "increment": 0})
    act(client, view, 0, "moves", {"move": "e4"})
    with client.websocket_connect(f"/api/games/{view['id']}/ws") as socket:
        assert socket.receive_json()["game"]["outcome"] is None
        fake.now += 61  # black's clock runs out; nobody asks anything: the server's timer sees it
        message = socket.receive_json()
    assert message["game"]["outcome"] == {"scores": [1.0, 0.0], "reason": "time forfeit", "winner": "white"}
    assert message["game"]["clock"]["main"][1] == 0 and message["game"]["clock"]["running"] is None
    assert WHITE_ON_TIME.fullmatch(message["game"]["status"])
    late = act(client, view, 1, "moves", {"move": "e5"})
    assert late.status_code == 409 and "over" in late.json()["error"]
    record = client.get(f"/api/games/{view['id']}/record").text
    assert '[Result "1-0"]' in record and '[Termination "time forfeit"]' in record
    assert '[TimeControl "60+0"]' in record


def test_byoyomi_flag_after_the_last_period(client: BrowserClient, fake: FakeTime) -> None:
    view = timed(client, game="shogi", clock={"kind": "byoyomi", "base": 0, "periods": 2, "period": 10})
    move = view["legal"][0]["notation"]
    act(client, view, 0, "moves", {"move": move})
    fake.now += 15  # one period gone, moving in the second
    reply = client.get(f"/api/games/{view['id']}").json()
    act(client, view, 1, "moves", {"move": reply["legal"][0]["notation"]})
    assert client.get(f"/api/games/{view['id']}").json()["clock"]["periods"] == [2, 1]
    fake.now += 20.01  # white's two periods
    assert client.get(f"/api/games/{view['id']}").json()["outcome"]["reason"] == "time forfeit"


def test_resign_and_who_may(client: BrowserClient) -> None:
    view = timed(client)
    stranger = client.post(f"/api/games/{view['id']}/resign", json={}, headers={"X-Myriad-Seat": "x" * 32})
    assert stranger.status_code == 403
    watcher = BrowserClient(client.app)
    for what, body in (("resign", {}), ("draw", {"action": "offer"}), ("rematch", {})):
        refused = watcher.post(f"/api/games/{view['id']}/{what}", json=body)
        assert refused.status_code == 403 and "watching" in refused.json()["error"], what
    assert client.post(f"/api/games/{view['id']}/resign", content=b"{}").status_code == 415  # not sent as JSON
    assert act(client, view, 0, "resign", {"why": 1}).status_code == 400
    done = act(client, view, 1, "resign").json()
    assert done["outcome"]["winner"] == "white" and done["outcome"]["reason"] == "resignation"
    assert act(client, view, 0, "resign").status_code == 409
    assert act(client, view, 0, "moves", {"move": "e4"}).status_code == 409
    listed = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert listed[view["id"]]["over"]
    assert re.fullmatch(r"white wins \(resignation\)|White wins by resignation", listed[view["id"]]["status"])


def test_draw_offer_accept_decline_and_withdrawn_by_a_move(client: BrowserClient) -> None:
    view = timed(client)
    assert act(client, view, 0, "draw", {"action": "maybe"}).status_code == 400
    assert act(client, view, 0, "draw", {"action": "accept"}).status_code == 409  # nothing offered
    assert act(client, view, 0, "draw", {"action": "offer"}).json()["draw_offer"] == 0
    assert act(client, view, 0, "draw", {"action": "offer"}).status_code == 409
    assert act(client, view, 1, "draw", {"action": "decline"}).json()["draw_offer"] is None
    act(client, view, 0, "draw", {"action": "offer"})
    act(client, view, 0, "moves", {"move": "e4"})
    assert client.get(f"/api/games/{view['id']}").json()["draw_offer"] is None  # the move withdrew it
    act(client, view, 1, "draw", {"action": "offer"})
    agreed = act(client, view, 0, "draw", {"action": "accept"}).json()
    assert agreed["outcome"] == {"scores": [0.5, 0.5], "reason": "agreement", "winner": None}
    assert '[Result "1/2-1/2"]' in client.get(f"/api/games/{view['id']}/record").text


def test_a_bot_takes_no_draw_offer_and_bots_have_no_clock(client: BrowserClient, fake: FakeTime) -> None:
    view = timed(client, game="tictactoe", seats=["human", "random"])
    assert "bot" in act(client, view, 0, "draw", {"action": "offer"}).json()["error"]
    act(client, view, 0, "moves", {"move": view["legal"][0]["notation"]})
    fake.now += 10_000  # the bot's turn: no clock runs, no flag falls
    for _ in range(200):
        seen = client.get(f"/api/games/{view['id']}").json()
        if seen["ply"] >= 2:
            break
        time.sleep(0.05)
    assert seen["outcome"] is None and seen["ply"] == 2 and seen["clock"]["running"] == 0


def test_rematch_swaps_seats_and_carries_the_keys(client: BrowserClient) -> None:
    view = timed(client)
    assert act(client, view, 0, "rematch").status_code == 409  # not over yet
    act(client, view, 0, "moves", {"move": "e4"})
    act(client, view, 0, "resign")
    rematch = act(client, view, 1, "rematch").json()
    assert rematch["id"] != view["id"] and rematch["ply"] == 0 and rematch["seat"] == 0  # black's key: white now
    assert rematch["clock"]["control"]["label"] == "5+3" and rematch["clock"]["main"] == [300, 300]
    assert act(client, view, 0, "rematch").json()["id"] == rematch["id"]  # made once
    assert client.get(f"/api/games/{view['id']}").json()["rematch"] == rematch["id"]
    moved = client.post(f"/api/games/{rematch['id']}/moves", json={"move": "d4"},
                        headers={"X-Myriad-Seat": view["keys"][1]})
    assert moved.status_code == 200, moved.text
    refused = client.post(f"/api/games/{rematch['id']}/moves", json={"move": "d5"},
                          headers={"X-Myriad-Seat": view["keys"][1]})
    assert refused.status_code == 409  # black is the other key's now


def test_time_controls_are_refused_where_they_do_not_fit(client: BrowserClient) -> None:
    for game in game_ids():
        players = get_game(game).players
        seats = ["human"] * players
        response = client.post("/api/games", json={"game": game, "seats": seats, "clock": FIVE_THREE})
        if players == 2:
            assert response.status_code == 201, (game, response.text)
            assert response.json()["clock"]["control"]["kind"] == "fischer"
        else:
            assert response.status_code == 400 and "two-player" in response.json()["error"], game
    bad = client.post("/api/games", json={"game": "chess", "clock": {"kind": "fischer", "base": 99999}})
    assert bad.status_code == 400 and "clock: fischer base" in bad.json()["error"]


def test_a_schema_2_store_is_migrated(db: Path) -> None:
    Store(db).close()
    with sqlite3.connect(db) as old:  # back to the layout before clocks
        for column in ("clock", "result", "rematch"):
            old.execute(f"ALTER TABLE games DROP COLUMN {column}")
        old.execute("PRAGMA user_version = 2")
    store = Store(db)
    assert {r[1] for r in store.db.execute("PRAGMA table_info(games)")} >= {"clock", "result", "rematch"}
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == 3
    store.close()


def test_a_flag_against_a_lone_king_draws(client: BrowserClient, fake: FakeTime) -> None:
    lone = client.post("/api/games", json={"game": "chess", "seats": ["human", "human"], "clock": FIVE_THREE,
                                           "position": "kq6/8/8/8/8/8/8/K7 w - - 0 1"}).json()
    armed = client.post("/api/games", json={"game": "chess", "seats": ["human", "human"], "clock": FIVE_THREE,
                                            "position": "kq6/8/8/8/8/8/8/KR6 w - - 0 1"}).json()
    for view in (lone, armed):
        act(client, view, 0, "moves", {"move": "Ka2"})
    fake.now += 400  # black's flag falls in both
    drawn = client.get(f"/api/games/{lone['id']}").json()["outcome"]
    assert drawn["winner"] is None and drawn["scores"] == [0.5, 0.5] and "cannot win" in drawn["reason"]
    assert client.get(f"/api/games/{armed['id']}").json()["outcome"]["reason"] == "time forfeit"


def test_every_game_can_be_won_by_either_side_at_its_start() -> None:
    for game_id in game_ids():
        game = get_game(game_id)
        state = game.initial_state()
        assert all(game.can_win(state, p) for p in range(game.players)), game_id


@pytest.mark.parametrize(("column", "value"), [
    ("clock", "not json"), ("clock", "[1, 2]"), ("clock", '{"control": [1], "main": [1, 2]}'),
    ("clock", '{"control": {"kind": "fischer", "base": 60}, "main": [60], "periods": [0, 0]}'),
    ("result", '"resigned"'), ("result", '{"scores": [1], "reason": "x"}'),
])
def test_a_damaged_stored_clock_or_result_is_refused_alone(client: BrowserClient, db: Path, column: str,
                                                           value: str) -> None:
    bad, good = timed(client), timed(client)
    with sqlite3.connect(db) as other:
        other.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, bad["id"]))
    client.app.state.api.games.open.pop(bad["id"])  # type: ignore[attr-defined]  # as after a restart
    refused = client.get(f"/api/games/{bad['id']}")
    assert refused.status_code == 409 and "cannot be read back" in refused.json()["error"]
    assert client.get(f"/api/games/{good['id']}").status_code == 200


def test_a_restart_resumes_running_clocks_unasked(client: BrowserClient, db: Path, fake: FakeTime) -> None:
    running = timed(client, clock={"kind": "fischer", "base": 30, "increment": 0})
    act(client, running, 0, "moves", {"move": "e4"})
    idle, ended = timed(client), timed(client)
    act(client, ended, 0, "resign")
    with BrowserClient(create_app(db, workers=1, timer=fake, wall=fake.wall), client.keyring) as again:
        assert list(again.app.state.api.games.open) == [running["id"]]  # type: ignore[attr-defined]
        fake.now += 31
        for _ in range(100):  # nobody asks for the game: the list shows the flag fall
            listed = {g["id"]: g for g in again.get("/api/games").json()["games"]}
            if listed[running["id"]]["over"]:
                break
            time.sleep(0.05)
        assert WHITE_ON_TIME.fullmatch(listed[running["id"]]["status"])
        assert not listed[idle["id"]]["over"]


def test_an_invitation_taken_up_by_another_browser_is_claimed(client: BrowserClient) -> None:
    view = timed(client)
    assert client.get(f"/api/games/{view['id']}", headers={"X-Myriad-Seat": view["keys"][1]}).json()["claimed"] == []
    friend = BrowserClient(client.app)  # another browser, with black's key from the link
    assert friend.get(f"/api/games/{view['id']}", headers={"X-Myriad-Seat": view["keys"][1]}).json()["seat"] == 1
    assert client.get(f"/api/games/{view['id']}").json()["claimed"] == [1]
    stranger = BrowserClient(client.app)
    stranger.get(f"/api/games/{view['id']}", headers={"X-Myriad-Seat": "y" * 32})  # no seat's key: nothing
    assert client.get(f"/api/games/{view['id']}").json()["claimed"] == [1]
