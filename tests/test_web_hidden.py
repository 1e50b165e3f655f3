"""The leak test of the web app.

Complete games of dark chess, a human against a bot, from each seat: every HTTP answer and
WebSocket message the human's browser receives while the game goes on is checked against
the whole game, replayed from the record given at the end.  The view's board is exactly the
human's observation (no fogged square's content, no opponent's castling right), the history
shows the opponent's moves as ``?``, there is no last move of the opponent's, the legal
moves are the human's, and the record is refused until the game is over.

Complete games of two humans on two browsers (each with its own client secret and seat
key) and a spectator with no key, each with its WebSocket open: every answer and message is
compared cell by cell with the true state: a seat gets exactly its observation, the
spectator exactly the public view (every cell some player cannot see fogged), and so does
the games list; the record is given to all three only at the end, where all is shown.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from myriad.core.game import Game
from myriad.core.state import State
from myriad.games import get_game
from myriad.notation.records import read_records, replay
from myriad.web.app import create_app
from myriad.web.layout import cells_json, hands_json
from web_server import BrowserClient, new_game


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserClient]:
    db = tmp_path_factory.mktemp("hidden") / "games.sqlite3"
    with BrowserClient(create_app(db, workers=1), raise_server_exceptions=False) as test_client:
        yield test_client


def play_out(client: BrowserClient, seat: int, seed: int) -> tuple[list[dict[str, Any]], str]:
    """A game of dark chess, the human at ``seat`` playing random moves; every view it
    received (HTTP and WebSocket) and the record given at the end."""
    seats = ["random:seed=3", "random:seed=3"]
    seats[seat] = "human"
    view = new_game(client, game="darkchess", seats=seats, delay=0)
    views = [view]
    rng = random.Random(seed)
    with client.websocket_connect(f"/api/games/{view['id']}/ws") as ws:
        watcher = ws.receive_json()["game"]  # sent before the page's key is read: the public view
        assert watcher["seat"] is None and watcher["legal"] == []
        ws.send_json({"type": "seat", "key": view["keys"][seat]})
        answer = ws.receive_json()
        while "seated" not in answer:  # the bot moved before the key was read: still the public view
            assert answer["type"] == "state" and answer["game"]["seat"] is None and answer["game"]["legal"] == []
            answer = ws.receive_json()
        assert answer["seated"] is True and answer["game"]["seat"] == seat
        views.append(answer["game"])
        while view["outcome"] is None:
            view = client.get(f"/api/games/{view['id']}").json()
            views.append(view)
            if view["outcome"] is not None:
                break
            if not view["human_turn"]:
                continue
            refused = client.get(f"/api/games/{view['id']}/record")
            assert refused.status_code == 409 and "when the game is over" in refused.json()["error"]
            move = rng.choice(view["legal"])
            answer = client.post(f"/api/games/{view['id']}/moves", json={"move": move["notation"], "ply": view["ply"]})
            assert answer.status_code == 200, answer.text
            view = answer.json()
            views.append(view)
            views.append(ws.receive_json()["game"])
    record = client.get(f"/api/games/{view['id']}/record")
    assert record.status_code == 200
    return views, record.text


@pytest.mark.parametrize("seat", [0, 1])
def test_a_browser_sees_only_what_its_player_sees(client: BrowserClient, seat: int) -> None:
    game = get_game("darkchess")
    views, text = play_out(client, seat, seed=seat + 1)
    states = replay(game, read_records(text)[0])
    assert game.outcome(states[-1]) is not None
    checked = hidden_seen = 0
    for view in views:
        state = states[view["ply"]]
        if view["outcome"] is not None:
            assert view["position"] == game.format_position(state)  # revealed at the end
            continue
        seen = game.observe(state, seat)
        assert view["position"] == game.format_position(seen)
        body = json.dumps(view)
        for i, entry in enumerate(view["history"]):
            if states[i].to_move != seat:
                assert entry["notation"] == "?"
        if view["last"] is not None:
            assert states[view["ply"] - 1].to_move == seat
        if view["legal"]:
            assert state.to_move == seat
        hidden = [game.topology.names[q] for q, c in enumerate(seen.cells) if c == game.fog_codes[seat]]
        hidden_seen += bool(hidden)
        # a fogged square never appears as a cell of the view with its true content
        shown = {cell["position"]: cell for cell in view["cells"]} if isinstance(view["cells"], list) \
            and view["cells"] and isinstance(view["cells"][0], dict) and "position" in view["cells"][0] else None
        if shown is not None:
            for name in hidden:
                assert shown[name].get("piece") in (None, "?", "*")
        assert game.format_position(state).split()[0] not in body or not hidden
        checked += 1
    assert checked > 10 and hidden_seen > 5


# -- two humans on two browsers, and a spectator -------------------------------------------


def check_public_view(game: Game, state: State) -> None:
    """The public view shows a cell only where every player sees its true content, and
    fogs every other one."""
    public = game.public_view(state)
    if game.outcome(state) is not None:
        assert public == state
        return
    seen = [game.observe(state, p) for p in range(game.players)]
    for q, cell in enumerate(public.cells):
        if all(o.cells[q] == state.cells[q] for o in seen):
            assert cell == state.cells[q]
        else:
            assert cell in game.fog_codes and cell != state.cells[q]


def check_view(game: Game, states: list[State], view: dict[str, Any], seat: int | None) -> bool:
    """``view`` (an answer or a message to ``seat``'s browser, None: the spectator's) holds
    nothing beyond that seat's observation, or the public view; whether it was in play."""
    state = states[view["ply"]]
    assert view["seat"] == seat
    if view["outcome"] is not None:
        assert game.outcome(state) is not None
        assert view["position"] == game.format_position(state) and view["cells"] == cells_json(game, state)
        return False
    expected = game.public_view(state) if seat is None else game.observe(state, seat)
    assert view["position"] == game.format_position(expected)
    assert view["cells"] == cells_json(game, expected)
    assert view.get("hands", hands_json(game, expected)) == hands_json(game, expected)
    for i, entry in enumerate(view["history"]):
        if seat is None or states[i].to_move != seat:
            assert entry["notation"] == "?"
    if view["last"] is not None:
        assert seat is not None and states[view["ply"] - 1].to_move == seat
    if view["legal"]:
        assert state.to_move == seat
    truth = game.format_position(state).split("[")[0].split()[0]
    assert expected.cells == state.cells or truth not in json.dumps(view)
    return True


def check_frame(game: Game, states: list[State], frame: dict[str, Any], seat: int | None, over: bool) -> bool:
    """An earlier position asked for by ``seat``'s page (None: the spectator's) while the
    game went on holds exactly what that seat saw then: its observation of that position
    (the public view), no last move of another player's; once the game is over, all of it."""
    ply = frame["ply"]
    state = states[ply]
    expected = state if over else game.public_view(state) if seat is None else game.observe(state, seat)
    assert frame["position"] == game.format_position(expected)
    assert frame["cells"] == cells_json(game, expected)
    assert frame.get("hands", hands_json(game, expected)) == hands_json(game, expected)
    if frame["last"] is not None:
        assert over or (seat is not None and states[ply - 1].to_move == seat)
    elif ply > 0:
        assert not over
    truth = game.format_position(state).split("[")[0].split()[0]
    assert over or expected.cells == state.cells or truth not in json.dumps(frame)
    return expected.cells != state.cells


def listed(client: BrowserClient, game_id: str, headers: dict[str, str]) -> dict[str, Any]:
    """The game's entry in the games list as ``headers``' browser gets it."""
    games = client.get("/api/games", headers=headers).json()["games"]
    return next(g for g in games if g["id"] == game_id)


@pytest.mark.parametrize("game_id, seed", [("darkchess", 5), ("darkxiangqi", 6)])
def test_two_browsers_and_a_spectator_see_only_their_own(client: BrowserClient, game_id: str, seed: int) -> None:
    game = get_game(game_id)
    secrets = [f"{name}-browser-secret-{seed}" for name in ("first", "second", "watcher")]
    created = client.post("/api/games", json={"game": game_id, "seats": ["human", "human"], "public": True},
                          headers={"X-Myriad-Client": secrets[0]})
    assert created.status_code == 201, created.text
    first = created.json()
    gid, keys = first["id"], first["keys"]
    client.keyring.keys.pop(gid, None)  # each browser below sends its own headers
    headers: list[dict[str, str]] = [{"X-Myriad-Client": secrets[0], "X-Myriad-Seat": keys[0]},
                                     {"X-Myriad-Client": secrets[1], "X-Myriad-Seat": keys[1]},
                                     {"X-Myriad-Client": secrets[2]}]
    seats: list[int | None] = [0, 1, None]
    received: list[list[dict[str, Any]]] = [[first], [], []]
    frames: list[tuple[int | None, dict[str, Any], bool]] = []  # (seat, position, game over)
    rng = random.Random(seed)
    url = f"/api/games/{gid}"
    with client.websocket_connect(f"{url}/ws") as ws0, client.websocket_connect(f"{url}/ws") as ws1, \
            client.websocket_connect(f"{url}/ws") as ws2:
        sockets = [ws0, ws1, ws2]
        for who, ws in enumerate(sockets):
            opening = ws.receive_json()["game"]  # before any key: the public view
            received[who].append({"opening": opening, "ply": opening["ply"]})
            assert opening["seat"] is None
        for who in (0, 1):
            sockets[who].send_json({"type": "seat", "key": keys[who]})
            answer = sockets[who].receive_json()
            assert answer["seated"] is True
            received[who].append(answer["game"])
        ply = 0
        while True:
            views = [client.get(url, headers=h).json() for h in headers]
            for who, view in enumerate(views):
                received[who].append(view)
                received[who].append({"listed": listed(client, gid, headers[who]), "ply": view["ply"]})
            if views[0]["outcome"] is not None:
                break
            for h in headers:
                refused = client.get(f"{url}/record", headers=h)
                assert refused.status_code == 409 and "when the game is over" in refused.json()["error"]
            for who, h in enumerate(headers):  # reviewing an earlier position (review.js)
                back = rng.randrange(ply + 1)
                frame = client.get(f"{url}/position?ply={back}", headers=h)
                assert frame.status_code == 200, frame.text
                frames.append((seats[who], frame.json(), False))
            mover = views[0]["to_move"]
            assert views[1 - mover]["legal"] == [] and views[2]["legal"] == []
            captures = [m for m in views[mover]["legal"] if m["captures"]]  # a shorter game
            move = rng.choice(captures if captures and rng.random() < 0.8 else views[mover]["legal"])
            answer = client.post(f"{url}/moves", json={"move": move["notation"], "ply": ply}, headers=headers[mover])
            assert answer.status_code == 200, answer.text
            received[mover].append(answer.json())
            ply += 1
            for who, ws in enumerate(sockets):
                message = ws.receive_json()
                assert message["type"] == "state" and message["game"]["ply"] == ply
                received[who].append(message["game"])
    for who, h in enumerate(headers):  # once the game is over, every earlier position in full
        for back in (0, ply // 2, ply - 1):
            frames.append((seats[who], client.get(f"{url}/position?ply={back}", headers=h).json(), True))
    records = [client.get(f"{url}/record", headers=h) for h in headers]
    assert all(r.status_code == 200 for r in records) and len({r.text for r in records}) == 1
    states = replay(game, read_records(records[0].text)[0])
    assert game.outcome(states[-1]) is not None and len(states) == ply + 1
    for state in states:
        check_public_view(game, state)
    in_play = 0
    for who, seat in enumerate(seats):
        for view in received[who]:
            state = states[view["ply"]]
            if "listed" in view:  # the games list: always the public view
                assert view["listed"]["cells"] == cells_json(game, game.public_view(state))
                continue
            if "opening" in view:  # a socket's first message, before its key was read
                in_play += check_view(game, states, view["opening"], None)
                continue
            in_play += check_view(game, states, view, seat)
    assert in_play > 3 * 10
    fogged = sum(check_frame(game, states, frame, seat, over) for seat, frame, over in frames)
    assert fogged > 10
    assert sum(not over for _, _, over in frames) > 3 * 10
    # while the game went on the spectator saw less than either player
    public = [game.public_view(s) for s in states[:-1]]
    assert any(sum(c in game.fog_codes for c in p.cells) > sum(c in game.fog_codes for c in game.observe(s, q).cells)
               for p, s in zip(public, states) for q in (0, 1))
