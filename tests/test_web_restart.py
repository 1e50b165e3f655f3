"""A restart of the server loses no game and no move.

Each test runs ``python -m myriad.web`` as a subprocess over one database file, stops it
(cleanly, or with SIGKILL right after a move was answered), starts it again and checks
that every game is there with all its moves.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """The web app in a subprocess, on a free port, over the database ``db``."""

    def __init__(self, db: Path) -> None:
        self.base = f"http://127.0.0.1:{free_port()}"
        port = self.base.rsplit(":", 1)[1]
        self.log = db.parent / f"server-{port}.log"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "myriad.web", "--port", port, "--db", str(db), "--workers", "1"],
            stdout=self.log.open("w"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            assert self.process.poll() is None, f"server exited: {self.log.read_text()}"
            try:
                urllib.request.urlopen(f"{self.base}/api/catalog", timeout=1)
                return
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline, "server did not start in 30 s"
                time.sleep(0.1)

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data, {"Content-Type": "application/json"},
                                         method=method)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def wait_for(self, game_id: str, done: Any, seconds: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while True:
            view = self.call("GET", f"/api/games/{game_id}")
            if done(view):
                return view
            assert time.monotonic() < deadline, f"timed out at ply {view['ply']}"
            time.sleep(0.05)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        self.process.send_signal(sig)
        self.process.wait(15)


def notations(view: dict[str, Any]) -> list[str]:
    return [h["notation"] for h in view["history"]]


def test_games_and_moves_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    first = Server(db)
    try:
        game = first.call("POST", "/api/games", {"game": "chess", "seats": ["human", "easy"], "movetime": 0.5})
        first.call("POST", f"/api/games/{game['id']}/moves", {"move": "e4"})
        first.wait_for(game["id"], lambda v: v["ply"] == 2)
        first.call("POST", f"/api/games/{game['id']}/moves", {"move": "Nf3"})
        before = first.wait_for(game["id"], lambda v: v["ply"] == 4)
        # A second game with a move taken back: the redo move must survive too.
        other = first.call("POST", "/api/games", {"game": "kalah", "seats": ["human", "human"]})
        for move in ("a", "B", "b"):
            first.call("POST", f"/api/games/{other['id']}/moves", {"move": move})
        first.call("POST", f"/api/games/{other['id']}/undo")
    finally:
        first.stop()

    second = Server(db)
    try:
        after = second.call("GET", f"/api/games/{game['id']}")
        assert notations(after) == notations(before) and len(notations(after)) == 4
        assert [h["by"] for h in after["history"]] == ["human", "heuristic", "human", "heuristic"]
        assert after["position"] == before["position"] and after["seats"] == ["human", "easy"]
        assert after["movetime"] == 0.5
        other_after = second.call("GET", f"/api/games/{other['id']}")
        assert notations(other_after) == ["a", "B"] and other_after["can_redo"]
        assert notations(second.call("POST", f"/api/games/{other['id']}/redo")) == ["a", "B", "b"]
        listed = {g["id"] for g in second.call("GET", "/api/games")["games"]}
        assert {game["id"], other["id"]} <= listed
        # The game goes on.
        second.call("POST", f"/api/games/{game['id']}/moves", {"move": "d4"})
        assert len(notations(second.wait_for(game["id"], lambda v: v["ply"] == 6))) == 6
    finally:
        second.stop()


def test_a_killed_server_loses_no_answered_move(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    first = Server(db)
    game = first.call("POST", "/api/games", {"game": "checkers", "seats": ["human", "human"]})
    moves = ["11-15", "23-19", "8-11"]  # black starts in English checkers
    for move in moves:
        first.call("POST", f"/api/games/{game['id']}/moves", {"move": move})
    first.stop(signal.SIGKILL)  # no shutdown: only what was committed survives

    second = Server(db)
    try:
        assert notations(second.call("GET", f"/api/games/{game['id']}")) == moves
    finally:
        second.stop()


def test_a_bot_game_resumes_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    first = Server(db)
    try:
        game = first.call("POST", "/api/games", {"game": "connect4", "seats": ["random", "random"],
                                                 "delay": 0.3})
        stopped_at = first.wait_for(game["id"], lambda v: v["ply"] >= 2)["ply"]
    finally:
        first.stop()

    second = Server(db)
    try:
        view = second.call("GET", f"/api/games/{game['id']}")
        assert view["ply"] >= stopped_at
        second.wait_for(game["id"], lambda v: v["ply"] > view["ply"] or v["outcome"] is not None)
    finally:
        second.stop()
