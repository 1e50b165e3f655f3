"""A restart of the server loses no game and no move.

Each test runs ``python -m myriad.web`` as a subprocess over one database file, stops it
(cleanly, or with SIGKILL right after a move was answered), starts it again and checks
that every game is there with all its moves.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

from web_server import Server


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

    second = Server(db, keyring=first.keyring)  # the same browser comes back
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

    second = Server(db, keyring=first.keyring)  # the same browser comes back
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

    second = Server(db, keyring=first.keyring)  # the same browser comes back
    try:
        view = second.call("GET", f"/api/games/{game['id']}")
        assert view["ply"] >= stopped_at
        second.wait_for(game["id"], lambda v: v["ply"] > view["ply"] or v["outcome"] is not None)
    finally:
        second.stop()


def test_clocks_and_results_survive_a_restart(tmp_path: Path) -> None:
    """A timed game's clocks are stored with each move: after a restart the running clock
    has run on (a clock on the table does not stop when the arbiter leaves the room), the
    other shows what it showed; a resignation stays a resignation."""
    import time

    db = tmp_path / "games.sqlite3"
    first = Server(db)
    try:
        game = first.call("POST", "/api/games", {"game": "chess", "seats": ["human", "human"],
                                                 "clock": {"kind": "fischer", "base": 600, "increment": 5}})
        ended = first.call("POST", "/api/games", {"game": "chess", "seats": ["human", "human"],
                                                  "clock": {"kind": "byoyomi", "base": 60, "periods": 2, "period": 10}})
        first.call("POST", f"/api/games/{ended['id']}/resign")
        first.call("POST", f"/api/games/{game['id']}/moves", {"move": "e4"})
        time.sleep(1)
        first.call("POST", f"/api/games/{game['id']}/moves", {"move": "e5"})
        before = first.call("GET", f"/api/games/{game['id']}")["clock"]
        stopped = time.monotonic()
    finally:
        first.stop()

    second = Server(db, keyring=first.keyring)
    try:
        after = second.call("GET", f"/api/games/{game['id']}")["clock"]
        gone = time.monotonic() - stopped
        assert after["running"] == 0 and after["main"][1] == before["main"][1]  # black's clock stopped
        assert before["main"][1] > 600  # (charged about a second, then 5 s added)
        assert before["main"][0] - gone - 1 < after["main"][0] <= before["main"][0] - gone + 0.2
        assert after["control"] == before["control"]
        view = second.call("GET", f"/api/games/{ended['id']}")
        assert view["outcome"]["reason"] == "resignation" and view["clock"]["control"]["kind"] == "byoyomi"
        assert second.call("POST", f"/api/games/{game['id']}/moves", {"move": "Nf3"})["clock"]["running"] == 1
    finally:
        second.stop()
