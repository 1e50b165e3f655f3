"""The leak test of the web app: complete games of dark chess, a human against a bot, from
each seat; every HTTP answer and WebSocket message the human's browser receives while the
game goes on is checked against the whole game, replayed from the record given at the end.

The view's board is exactly the human's observation (no fogged square's content, no
opponent's castling right), the history shows the opponent's moves as ``?``, there is no
last move of the opponent's, the legal moves are the human's, and the record is refused
until the game is over.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from myriad.games import get_game
from myriad.notation.records import read_records, replay
from myriad.web.app import create_app
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
        views.append(ws.receive_json()["game"])
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
