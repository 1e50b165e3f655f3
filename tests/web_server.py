"""The web app for tests: ``python -m myriad.web`` on a free port over its own database
file, with a small JSON client, and an in-process client; both play one browser, which
sends its client secret and, to act on a game, the seat key it was given."""

from __future__ import annotations

import json
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

#: The requests about one game: they carry a seat key when the browser holds one (a seat's
#: view of a game with hidden information; acting for a seat).
SEAT_ACTION = re.compile(r"/api/games/([^/?]+)")
#: The requests that act for a seat: the key of the seat to move when two are held.
ACTION = re.compile(r"/api/games/[^/?]+/(moves|undo|redo)")


class Keyring:
    """What one browser holds: its client secret and the seat keys of the games it made."""

    def __init__(self) -> None:
        self.client = secrets.token_hex(16)
        self.keys: dict[str, list[str | None]] = {}

    def remember(self, view: dict[str, Any]) -> None:
        """Keep the keys a new game's answer gives out."""
        if isinstance(view, dict) and "keys" in view:
            self.keys[view["id"]] = view["keys"]

    def headers(self, path: str, to_move: Callable[[str], int]) -> dict[str, str]:
        """The headers for a request to ``path``: the client secret, and for a request about
        a game the key of a seat held: for an action, of the seat to move (``to_move(game_id)``
        asks), else the first."""
        headers = {"X-Myriad-Client": self.client}
        match = SEAT_ACTION.search(path)
        held = [k for k in self.keys.get(match[1], []) if k] if match else []
        if match and held:
            keys = self.keys[match[1]]
            key = keys[to_move(match[1])] if len(held) > 1 and ACTION.search(path) else None
            headers["X-Myriad-Seat"] = key or held[0]
        return headers


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    """Start a game through the API; its view (with its seat keys)."""
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


class BrowserClient(TestClient):
    """Starlette's test client as one browser of ``keyring`` on http://localhost."""

    def __init__(self, app: Any, keyring: Keyring | None = None, **options: Any) -> None:
        super().__init__(app, base_url="http://localhost", **options)
        self.keyring = keyring or Keyring()

    def websocket_connect(self, url: str, *args: Any, **options: Any) -> Any:  # type: ignore[override]
        """Starlette's client asks for host ``testserver``, which the app refuses: ask for localhost."""
        headers = {"host": "localhost", **(options.pop("headers", None) or {})}
        return super().websocket_connect(url, *args, headers=headers, **options)

    def request(self, method: str, url: Any, **options: Any) -> Any:  # type: ignore[override]
        headers = self.keyring.headers(
            str(url), lambda gid: int(super(BrowserClient, self).request("GET", f"/api/games/{gid}").json()["to_move"]))
        headers.update(options.pop("headers", None) or {})
        response = super().request(method, url, headers=headers, **options)
        if method == "POST" and str(url).rstrip("/").endswith("/api/games") and response.status_code == 201:
            self.keyring.remember(response.json())
        return response


def free_port() -> int:
    """A port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m myriad.web`` on a free port over the database ``db`` (loading the
    variant files ``variants``)."""

    def __init__(self, db: Path, workers: int = 1, keyring: Keyring | None = None,
                 variants: Sequence[Path] = ()) -> None:
        self.keyring = keyring or Keyring()
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = db.parent / f"server-{self.port}.log"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "myriad.web", "--port", str(self.port), "--db", str(db),
             "--workers", str(workers), *(arg for path in variants for arg in ("--variants", str(path)))],
            stdout=self.log.open("w"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()}")
            try:
                urllib.request.urlopen(f"{self.base}/api/catalog", timeout=5)
                return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                # (not listening yet, or listening but not answering yet: a slow start)
                if time.monotonic() > deadline:
                    raise RuntimeError("server did not start in 30 s") from None
                time.sleep(0.1)

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """One JSON request; the decoded answer."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json",
                   **self.keyring.headers(path, lambda gid: int(self.call("GET", f"/api/games/{gid}")["to_move"]))}
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        with urllib.request.urlopen(request, timeout=10) as response:
            answer = json.load(response)
        if method == "POST" and path == "/api/games":
            self.keyring.remember(answer)
        return answer

    def wait_for(self, game_id: str, done: Callable[[dict[str, Any]], bool],
                 seconds: float = 30) -> dict[str, Any]:
        """The game's view once ``done(view)`` holds."""
        deadline = time.monotonic() + seconds
        while True:
            view = self.call("GET", f"/api/games/{game_id}")
            if done(view):
                return view
            assert time.monotonic() < deadline, f"game {game_id} timed out at ply {view['ply']}"
            time.sleep(0.02)

    def wait_for_ply(self, game_id: str, ply: int, seconds: float = 30) -> dict[str, Any]:
        """The game once it has at least ``ply`` moves (or is over)."""
        return self.wait_for(game_id, lambda v: v["ply"] >= ply or v["outcome"] is not None, seconds)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Stop the server (SIGKILL if it does not exit in 10 s)."""
        self.process.send_signal(sig)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
