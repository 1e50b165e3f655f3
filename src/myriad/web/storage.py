"""Games on disk: one SQLite file with a ``games`` table and a ``moves`` table.

A game row holds what was chosen when it started (game id, start position, seats, time
per bot move), its settings (bot-vs-bot delay, paused) and, for listing games without
replaying them, the position in force and a status line; the ``moves`` rows hold every
move in the game's notation by ply.  ``cursor`` is the number of moves in force: rows at
or after it are the moves taken back, kept for redo until a new move replaces them.
Every change is committed before the call returns, so a restart loses nothing.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id        TEXT PRIMARY KEY,
    game      TEXT NOT NULL,
    start     TEXT NOT NULL,
    seats     TEXT NOT NULL,
    movetime  REAL NOT NULL,
    delay     REAL NOT NULL DEFAULT 0.6,
    paused    INTEGER NOT NULL DEFAULT 0,
    cursor    INTEGER NOT NULL DEFAULT 0,
    position  TEXT NOT NULL,
    status    TEXT NOT NULL DEFAULT '',
    created   REAL NOT NULL,
    updated   REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    game_id   TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL,
    notation  TEXT NOT NULL,
    by        TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, ply)
);
"""


@dataclass
class GameRow:
    """One stored game: its set-up, settings and every move (taken-back ones after
    ``cursor``)."""

    id: str
    game: str
    start: str
    seats: list[str]
    movetime: float
    delay: float = 0.6
    paused: bool = False
    cursor: int = 0
    position: str = ""
    status: str = ""
    created: float = 0.0
    updated: float = 0.0
    moves: list[str] = field(default_factory=list)
    by: list[str] = field(default_factory=list)


class Store:
    """The SQLite file of games.  Used from one thread (the server's event loop)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        """Close the file."""
        self.db.close()

    def _write(self, *statements: tuple[str, tuple[Any, ...]]) -> None:
        """Run ``statements`` in one transaction, committed before returning."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            for sql, params in statements:
                self.db.execute(sql, params)

    def create(self, row: GameRow) -> None:
        """Store a new game (with no moves)."""
        now = time.time()
        row.created = row.updated = now
        row.position = row.position or row.start
        insert = ("INSERT INTO games (id, game, start, seats, movetime, delay, paused, cursor, "
                  "position, status, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)")
        self._write((insert,
                     (row.id, row.game, row.start, json.dumps(row.seats), row.movetime, row.delay,
                      int(row.paused), row.position, row.status, now, now)))

    def add_move(self, game_id: str, ply: int, notation: str, by: str, position: str, status: str) -> None:
        """Record the move of ply ``ply`` (0-based) by ``by``, leading to ``position``; moves
        taken back from there on are dropped, and the cursor moves past the new move."""
        self._write(("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply)),
                    ("INSERT INTO moves (game_id, ply, notation, by) VALUES (?, ?, ?, ?)",
                     (game_id, ply, notation, by)),
                    ("UPDATE games SET cursor = ?, position = ?, status = ?, updated = ? WHERE id = ?",
                     (ply + 1, position, status, time.time(), game_id)))

    def set_cursor(self, game_id: str, cursor: int, position: str, status: str) -> None:
        """Take moves back or forward: ``cursor`` moves are in force, leading to ``position``."""
        self._write(("UPDATE games SET cursor = ?, position = ?, status = ?, updated = ? WHERE id = ?",
                     (cursor, position, status, time.time(), game_id)))

    def set_settings(self, game_id: str, *, delay: float, paused: bool, movetime: float) -> None:
        """Save the delay between bot moves, the paused flag and the time per bot move."""
        self._write(("UPDATE games SET delay = ?, paused = ?, movetime = ?, updated = ? WHERE id = ?",
                     (delay, int(paused), movetime, time.time(), game_id)))

    def delete(self, game_id: str) -> bool:
        """Forget a game; False when there was none."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("DELETE FROM moves WHERE game_id = ?", (game_id,))
            return self.db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount > 0

    def load(self, game_id: str) -> GameRow | None:
        """The stored game with all its moves, or None."""
        found = self.db.execute(f"SELECT {COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if found is None:
            return None
        row = _row(found)
        for notation, by in self.db.execute(
                "SELECT notation, by FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)):
            row.moves.append(notation)
            row.by.append(by)
        return row

    def recent(self, games: Sequence[str] | None = None, limit: int = 100) -> list[GameRow]:
        """The most recently changed games, newest first, without their moves (only of the
        game ids ``games`` if given)."""
        if games is None:
            found = self.db.execute(f"SELECT {COLUMNS} FROM games ORDER BY updated DESC LIMIT ?", (limit,))
        else:
            marks = ",".join("?" * len(games))
            found = self.db.execute(f"SELECT {COLUMNS} FROM games WHERE game IN ({marks}) "
                                    "ORDER BY updated DESC LIMIT ?", (*games, limit))
        return [_row(r) for r in found]


COLUMNS = "id, game, start, seats, movetime, delay, paused, cursor, position, status, created, updated"


def _row(values: tuple[Any, ...]) -> GameRow:
    gid, game, start, seats, movetime, delay, paused, cursor, position, status, created, updated = values
    return GameRow(gid, game, start, json.loads(seats), float(movetime), float(delay), bool(paused),
                   int(cursor), position, status, float(created), float(updated))
