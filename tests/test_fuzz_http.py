"""Fuzzing every HTTP endpoint: any field, query parameter, path or header a client sends
gets a 2xx, or a 4xx/503 with a JSON ``{"error": ...}``, never a 500 or a traceback, and the
server carries on.  The default run tries a few dozen requests per endpoint; ``-m slow``
tries many more."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from myriad.web.app import create_app
from web_server import BrowserClient

ANSWERS = {200, 201, 204, 400, 403, 404, 405, 409, 415, 503}
ODD_TEXT = st.sampled_from(["", " ", "²", "١٠", "1_0", "9" * 5000, "e4\x00", "‮e4", "../../etc/passwd",
                            "chain:" * 50 + "random", "book:file=/etc/passwd", "<script>", "%s%n", "\n"])
TEXT = st.one_of(ODD_TEXT, st.text(max_size=40), st.text(alphabet="0123456789abcdefgh/-=:,xKQRBNP*", max_size=30))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), TEXT)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                    max_leaves=12)
HEADER = st.one_of(st.none(), st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=140))


def body(keys: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """A JSON object mostly made of the endpoint's own fields, with odd values, and sometimes others."""
    return st.dictionaries(st.one_of(st.sampled_from(keys), TEXT), JSON, max_size=len(keys) + 1)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserClient]:
    db: Path = tmp_path_factory.mktemp("fuzz") / "games.sqlite3"
    with BrowserClient(create_app(db, workers=1), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def game_id(client: BrowserClient) -> str:
    response = client.post("/api/games", json={"game": "chess", "seats": ["human", "human"]})
    assert response.status_code == 201
    return str(response.json()["id"])


def send(client: BrowserClient, method: str, url: str, value: Any, extra: dict[str, str]) -> Any:
    """A request with ``value`` as its JSON body, NaN and infinities included (as Python writes them)."""
    return client.request(method, url, content=json.dumps(value),
                          headers={**extra, "Content-Type": "application/json"})


def check(response: Any) -> None:
    assert response.status_code in ANSWERS, (response.status_code, response.text)
    if response.status_code >= 400:
        assert response.headers["content-type"].startswith("application/json"), response.text
        message = response.json()["error"]
        assert isinstance(message, str) and message and "Traceback" not in message


def headers(client_secret: str | None, seat: str | None) -> dict[str, str]:
    found = {}
    if client_secret is not None:
        found["X-Myriad-Client"] = client_secret
    if seat is not None:
        found["X-Myriad-Seat"] = seat
    return found


FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
FUZZ_LONG = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))


def fuzz_requests(client: BrowserClient, game_id: str, data: st.DataObject) -> None:
    """One request to a drawn endpoint with drawn fields, query, path and headers."""
    endpoint = data.draw(st.sampled_from(["create", "patch", "move", "undo", "redo", "list", "get",
                                          "catalog", "record", "delete", "raw", "position", "records",
                                          "resign", "draw", "rematch"]))
    extra = headers(data.draw(HEADER), data.draw(HEADER))
    gid = data.draw(st.one_of(st.just(game_id), TEXT.map(lambda t: quote(t, safe=""))))
    base = f"/api/games/{gid}"
    if endpoint == "create":
        fields = ["game", "seats", "position", "setup", "movetime", "delay", "public", "clock"]
        sent = data.draw(body(fields))
        if "movetime" in sent:  # keep bot games short if they start
            sent["movetime"] = 0.05
        response = send(client, "POST", "/api/games", sent, extra)
        if response.status_code == 201:
            client.delete(f"/api/games/{response.json()['id']}")
    elif endpoint == "patch":
        response = send(client, "PATCH", base, data.draw(body(["delay", "paused", "movetime", "public"])), extra)
    elif endpoint == "move":
        response = send(client, "POST", f"{base}/moves", data.draw(body(["move", "ply"])), extra)
    elif endpoint == "draw":
        response = send(client, "POST", f"{base}/draw", data.draw(body(["action"])), extra)
    elif endpoint in ("undo", "redo", "resign", "rematch"):
        response = send(client, "POST", f"{base}/{endpoint}", data.draw(JSON), extra)
    elif endpoint == "list":
        query = data.draw(st.dictionaries(st.sampled_from(["limit", "family", "x"]), TEXT, max_size=3))
        response = client.get("/api/games", params=query, headers=extra)
    elif endpoint == "catalog":
        response = client.get(f"/api/catalog/{gid}", headers=extra)
    elif endpoint == "record":
        response = client.get(f"{base}/record", headers=extra)
    elif endpoint == "position":
        query = data.draw(st.dictionaries(st.sampled_from(["ply", "x"]), TEXT, max_size=2))
        response = client.get(f"{base}/position", params=query, headers=extra)
    elif endpoint == "records":
        sent = data.draw(body(["game", "text", "index"]))
        if data.draw(st.booleans()):  # a record-like text: tags, numbers, moves, comments, SGF
            sent["text"] = data.draw(st.text(alphabet='[]"(){};$!?.\n 0123456789abcdefghxKQRBNP-=GMSZW*;', max_size=80))
            sent["game"] = data.draw(st.sampled_from(["chess", "international", "go9", "othello", "pig"]))
        response = send(client, "POST", "/api/records", sent, extra)
    elif endpoint == "delete":
        response = client.delete(base if gid != game_id else "/api/games/x", headers=extra)
    elif endpoint == "raw":
        raw = data.draw(st.binary(max_size=200))
        response = client.post("/api/games", content=raw, headers={**extra, "Content-Type": "application/json"})
    else:
        response = client.get(base, headers=extra)
    check(response)


@FUZZ
@given(data=st.data())
def test_every_endpoint_answers_bad_input_with_a_json_error(client: BrowserClient, game_id: str,
                                                           data: st.DataObject) -> None:
    fuzz_requests(client, game_id, data)


@pytest.mark.slow
@FUZZ_LONG
@given(data=st.data())
def test_every_endpoint_answers_bad_input_with_a_json_error_long(client: BrowserClient, game_id: str,
                                                                data: st.DataObject) -> None:
    fuzz_requests(client, game_id, data)


def test_the_server_carries_on_after_fuzzing(client: BrowserClient, game_id: str) -> None:
    view = client.get(f"/api/games/{game_id}").json()
    assert client.post(f"/api/games/{game_id}/moves", json={"move": "e4" if view["ply"] % 2 == 0 else "e5"}).status_code in (200, 409)
    assert client.get("/api/catalog").status_code == 200
