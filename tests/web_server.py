"""The web app as a subprocess for tests: ``python -m myriad.web`` on a free port over its
own database file, with a small JSON client."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any


def free_port() -> int:
    """A port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m myriad.web`` on a free port over the database ``db``."""

    def __init__(self, db: Path, workers: int = 1) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = db.parent / f"server-{self.port}.log"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "myriad.web", "--port", str(self.port), "--db", str(db),
             "--workers", str(workers)],
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
        request = urllib.request.Request(self.base + path, data, {"Content-Type": "application/json"},
                                         method=method)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

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
