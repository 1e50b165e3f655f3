"""Games on disk: one SQLite file with a ``games`` table and a ``moves`` table.

A game row holds what was chosen when it started (game id, start position, seats, time
per bot move), who may act on it (the owner's client and each human seat's key, both as
SHA-256 digests, and whether it is listed publicly), its settings (bot-vs-bot delay,
paused) and, for listing games without replaying them, the position in force and a status
line; the ``moves`` rows hold every move in the game's notation by ply.  A game played on
the clock keeps its clocks (JSON, :mod:`myriad.web.clocks`), stored with each move; a game
ended off the board (resignation, agreed draw, time forfeit) keeps that ``result`` (JSON
scores and reason), and a finished game the id of its ``rematch``.  ``cursor`` is the
number of moves in force: rows at or after it are the moves taken back, kept for redo until
a new move replaces them.  Every change is one transaction, committed before the call
returns: it is durable, or it raises and nothing changed.

Failures are the project's errors: :class:`StoreBroken` when the file cannot serve as a
games database at all (not SQLite, another program's tables, a newer schema),
:class:`StoreBusy` when another connection holds the write lock past a short wait,
:class:`StoreReadOnly` for a change to a store opened read-only.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from myriad.core.errors import MyriadError

log = logging.getLogger("myriad.web")

#: ``PRAGMA user_version`` of the layout below; 0 is the first layout (no owner, keys, public),
#: 2 the one before clocks, results and rematches.
SCHEMA_VERSION = 3
GAME_COLUMNS = {
    "id": "TEXT PRIMARY KEY", "game": "TEXT NOT NULL", "start": "TEXT NOT NULL", "seats": "TEXT NOT NULL",
    "movetime": "REAL NOT NULL", "delay": "REAL NOT NULL DEFAULT 0.6",
    "paused": "INTEGER NOT NULL DEFAULT 0", "cursor": "INTEGER NOT NULL DEFAULT 0",
    "position": "TEXT NOT NULL", "status": "TEXT NOT NULL DEFAULT ''",
    "created": "REAL NOT NULL", "updated": "REAL NOT NULL",
    # added in schema 2
    "owner": "TEXT NOT NULL DEFAULT ''", "keys": "TEXT NOT NULL DEFAULT '[]'",
    "public": "INTEGER NOT NULL DEFAULT 0",
    # added in schema 3
    "clock": "TEXT NOT NULL DEFAULT ''", "result": "TEXT NOT NULL DEFAULT ''",
    "rematch": "TEXT NOT NULL DEFAULT ''",
}
ADDED_IN_2 = ("owner", "keys", "public")
ADDED_IN_3 = ("clock", "result", "rematch")
#: The columns of ``games`` in each older layout this version reads and migrates.
OLDER_COLUMNS = {0: set(GAME_COLUMNS) - set(ADDED_IN_2) - set(ADDED_IN_3), 2: set(GAME_COLUMNS) - set(ADDED_IN_3)}
MOVE_COLUMNS = {"game_id", "ply", "notation", "by"}
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS games (
    {", ".join(f"{name} {kind}" for name, kind in GAME_COLUMNS.items())}
);
CREATE TABLE IF NOT EXISTS moves (
    game_id   TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL,
    notation  TEXT NOT NULL,
    by        TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, ply)
);
PRAGMA user_version = {SCHEMA_VERSION};
"""
COLUMNS = ", ".join(GAME_COLUMNS)
#: Seconds a change waits for another connection's write lock before :class:`StoreBusy`.
BUSY_WAIT = 1.0


class StoreError(MyriadError):
    """The games database cannot do what was asked."""


class StoreBroken(StoreError):
    """The file cannot serve as a games database (not SQLite, foreign tables, newer schema)."""


class StoreBusy(StoreError):
    """Another connection holds the write lock: the change was not made; try again."""


class StoreReadOnly(StoreError):
    """The store was opened read-only: no change can be made."""


class Damaged(StoreError):
    """A stored game cannot be read back."""


@dataclass
class GameRow:
    """One stored game: its set-up, settings, who may act on it, and every move (taken-back
    ones after ``cursor``)."""

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
    #: SHA-256 hex digest of the creating client's secret ('' for games from before owners)
    owner: str = ""
    #: SHA-256 hex digest of each human seat's key, None for a bot's seat
    keys: list[str | None] = field(default_factory=list)
    public: bool = False
    #: the clocks as JSON text ('' for a game without a time control)
    clock: str = ""
    #: a result reached off the board (resignation, agreement, time forfeit) as JSON text, or ''
    result: str = ""
    #: the id of the rematch of this game, or ''
    rematch: str = ""
    moves: list[str] = field(default_factory=list)
    by: list[str] = field(default_factory=list)


class Store:
    """The SQLite file of games.  Not thread-safe: the server calls it from one thread at a
    time (its store thread), so that a wait for a lock never blocks the event loop."""

    def __init__(self, path: str | Path, read_only: bool = False, busy_wait: float = BUSY_WAIT) -> None:
        self.path = Path(path)
        self.read_only = read_only
        name = str(path)
        try:
            if name != ":memory:" and not read_only:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            if read_only:
                self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                          timeout=busy_wait, check_same_thread=False, isolation_level=None)
            else:
                self.db = sqlite3.connect(name, timeout=busy_wait, check_same_thread=False,
                                          isolation_level=None)
            self._open()
        except sqlite3.Error as err:
            raise StoreBroken(f"{path}: cannot be used as the games database ({err})") from None
        except OSError as err:
            raise StoreBroken(f"{path}: cannot be opened ({err.strerror or err})") from None

    def _open(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        tables = {name: {row[1] for row in self.db.execute(f"PRAGMA table_info({name})")}
                  for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version > SCHEMA_VERSION:
            raise StoreBroken(f"{self.path}: written by a newer Myriad (schema {version}, this one reads "
                              f"up to {SCHEMA_VERSION}); use that version or another --db")
        foreign = sorted(set(tables) - {"games", "moves"})
        expected = {"games": set(GAME_COLUMNS) if version == SCHEMA_VERSION else OLDER_COLUMNS.get(version, set()),
                    "moves": MOVE_COLUMNS}
        wrong = [f"table {name} has columns {', '.join(sorted(tables[name]))}"
                 for name in ("games", "moves") if name in tables and tables[name] != expected[name]]
        if foreign or wrong or (version and set(tables) != {"games", "moves"}):
            what = "; ".join([*(f"table {t} is not Myriad's" for t in foreign), *wrong]) or "tables are missing"
            raise StoreBroken(f"{self.path}: not a Myriad games database ({what}); "
                              "give another file with --db")
        if not self.read_only:
            self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        if self.read_only or version == SCHEMA_VERSION:
            return
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            if "games" in tables and version == 0:  # the first layout: add who may act (nobody, for
                for name in ADDED_IN_2:  # old games: they stay listed for everyone, as they were, to watch)
                    self.db.execute(f"ALTER TABLE games ADD COLUMN {name} {GAME_COLUMNS[name]}")
                self.db.execute("UPDATE games SET public = 1")
            if "games" in tables:  # games from before clocks: no clock, result or rematch
                for name in ADDED_IN_3:
                    self.db.execute(f"ALTER TABLE games ADD COLUMN {name} {GAME_COLUMNS[name]}")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)

    def close(self) -> None:
        """Close the file."""
        self.db.close()

    def _write(self, *statements: tuple[str, tuple[Any, ...]]) -> int:
        """Run ``statements`` in one transaction, committed before returning: the number of
        rows the last one changed.  Raises :class:`StoreBusy` or :class:`StoreReadOnly`, and
        then nothing changed."""
        if self.read_only:
            raise StoreReadOnly("the games database is open read-only: nothing can be changed")
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                changed = 0
                for sql, params in statements:
                    changed = self.db.execute(sql, params).rowcount
                return changed
        except sqlite3.OperationalError as err:
            if "locked" in str(err) or "busy" in str(err):
                raise StoreBusy("the games database is busy (another program holds its lock); "
                                "nothing was changed, try again") from None
            if "readonly" in str(err):
                raise StoreReadOnly(f"the games database cannot be written: {err}") from None
            raise StoreError(f"the games database failed: {err}") from None

    def writable(self) -> bool:
        """Whether a change can be written now (False for a read-only file or directory)."""
        if self.read_only:
            return False
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("ROLLBACK")
            return True
        except sqlite3.OperationalError as err:
            return "readonly" not in str(err)

    def create(self, row: GameRow) -> None:
        """Store a new game, with its moves when it has some (a record opened on the web),
        in one transaction."""
        now = time.time()
        row.created = row.updated = now
        row.position = row.position or row.start
        insert = (f"INSERT INTO games ({COLUMNS}) VALUES ({', '.join('?' * len(GAME_COLUMNS))})")
        moves = [("INSERT INTO moves (game_id, ply, notation, by) VALUES (?, ?, ?, ?)", (row.id, ply, notation, by))
                 for ply, (notation, by) in enumerate(zip(row.moves, row.by))]
        self._write((insert, _values(row)), *moves)

    def create_rematch(self, row: GameRow, rematch_of: str) -> None:
        """Store the new game ``row`` (no moves) as the rematch of the game ``rematch_of``,
        which names it, in one transaction."""
        row.created = row.updated = time.time()
        row.position = row.position or row.start
        insert = (f"INSERT INTO games ({COLUMNS}) VALUES ({', '.join('?' * len(GAME_COLUMNS))})")
        self._write((insert, _values(row)), ("UPDATE games SET rematch = ? WHERE id = ?", (row.id, rematch_of)))

    def add_move(self, game_id: str, ply: int, notation: str, by: str, position: str, status: str,
                 clock: str | None = None) -> None:
        """Record the move of ply ``ply`` (0-based) by ``by``, leading to ``position``; moves
        taken back from there on are dropped, and the cursor moves past the new move (and
        the clocks, when given, are those after the move)."""
        statements: list[tuple[str, tuple[Any, ...]]] = [
            ("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply)),
            ("INSERT INTO moves (game_id, ply, notation, by) VALUES (?, ?, ?, ?)", (game_id, ply, notation, by)),
            ("UPDATE games SET cursor = ?, position = ?, status = ?, updated = ? WHERE id = ?",
             (ply + 1, position, status, time.time(), game_id))]
        if clock is not None:
            statements.append(("UPDATE games SET clock = ? WHERE id = ?", (clock, game_id)))
        self._write(*statements)

    def set_result(self, game_id: str, result: str, status: str, clock: str | None = None) -> None:
        """End a game off the board: its ``result`` (JSON), status line and stopped clocks."""
        statements: list[tuple[str, tuple[Any, ...]]] = [
            ("UPDATE games SET result = ?, status = ?, updated = ? WHERE id = ?",
             (result, status, time.time(), game_id))]
        if clock is not None:
            statements.append(("UPDATE games SET clock = ? WHERE id = ?", (clock, game_id)))
        self._write(*statements)

    def set_cursor(self, game_id: str, cursor: int, position: str, status: str,
                   paused: bool | None = None) -> None:
        """Take moves back or forward: ``cursor`` moves are in force, leading to ``position``
        (and, in the same transaction, pause or resume the bots when ``paused`` is given)."""
        statements: list[tuple[str, tuple[Any, ...]]] = [
            ("UPDATE games SET cursor = ?, position = ?, status = ?, updated = ? WHERE id = ?",
                       (cursor, position, status, time.time(), game_id))]
        if paused is not None:
            statements.append(("UPDATE games SET paused = ? WHERE id = ?", (int(paused), game_id)))
        self._write(*statements)

    def set_settings(self, game_id: str, *, delay: float, paused: bool, movetime: float,
                     public: bool) -> None:
        """Save the delay between bot moves, the paused flag, the time per bot move and
        whether the game is listed publicly."""
        self._write(("UPDATE games SET delay = ?, paused = ?, movetime = ?, public = ?, updated = ? "
                     "WHERE id = ?", (delay, int(paused), movetime, int(public), time.time(), game_id)))

    def delete(self, game_id: str) -> bool:
        """Forget a game; False when there was none."""
        return self._write(("DELETE FROM moves WHERE game_id = ?", (game_id,)),
                           ("DELETE FROM games WHERE id = ?", (game_id,))) > 0

    def load(self, game_id: str) -> GameRow | None:
        """The stored game with all its moves, or None; raises :class:`Damaged` when its row
        cannot be read."""
        found = self._read(f"SELECT {COLUMNS} FROM games WHERE id = ?", (game_id,))
        if not found:
            return None
        row = _row(found[0])
        for notation, by in self._read("SELECT notation, by FROM moves WHERE game_id = ? ORDER BY ply",
                                       (game_id,)):
            row.moves.append(str(notation))
            row.by.append(str(by))
        return row

    def recent(self, owner: str, games: Sequence[str] | None = None, limit: int = 100) -> list[GameRow]:
        """The most recently changed games of ``owner`` and the public ones, newest first,
        without their moves (only of the game ids ``games`` if given).  A row that cannot be
        read is skipped and logged."""
        where = "(owner = ? AND owner != '' OR public = 1)"
        params: tuple[Any, ...] = (owner,)
        if games is not None:
            where += f" AND game IN ({','.join('?' * len(games))})"
            params += tuple(games)
        rows = []
        for values in self._read(f"SELECT {COLUMNS} FROM games WHERE {where} ORDER BY updated DESC LIMIT ?",
                                 (*params, limit)):
            try:
                rows.append(_row(values))
            except Damaged as err:
                log.warning("%s", err)
        return rows

    def running_clocks(self) -> list[str]:
        """The ids of the games whose clock runs (on the clock, not over, someone to move)."""
        return [str(gid) for (gid,) in self._read(
            "SELECT id FROM games WHERE clock != '' AND result = '' AND clock NOT LIKE '%\"running\": null%'", ())]

    def _read(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        try:
            return self.db.execute(sql, params).fetchall()
        except sqlite3.OperationalError as err:
            if "locked" in str(err) or "busy" in str(err):
                raise StoreBusy("the games database is busy; try again") from None
            raise StoreError(f"the games database failed: {err}") from None
        except sqlite3.DatabaseError as err:
            raise StoreError(f"the games database failed: {err}") from None


def _values(row: GameRow) -> tuple[Any, ...]:
    return (row.id, row.game, row.start, json.dumps(row.seats), row.movetime, row.delay, int(row.paused),
            row.cursor, row.position, row.status, row.created, row.updated, row.owner, json.dumps(row.keys),
            int(row.public), row.clock, row.result, row.rematch)


def _row(values: tuple[Any, ...]) -> GameRow:
    """A stored row as a :class:`GameRow`; raises :class:`Damaged` naming the game."""
    gid = values[0]
    try:
        (gid, game, start, seats, movetime, delay, paused, cursor, position, status, created, updated,
         owner, keys, public, clock, result, rematch) = values
        seat_list, key_list = json.loads(seats), json.loads(keys)
        if not (isinstance(seat_list, list) and all(isinstance(s, str) for s in seat_list)
                and isinstance(key_list, list) and all(k is None or isinstance(k, str) for k in key_list)
                and all(isinstance(v, str) for v in (gid, game, start, position, status, owner, clock, result,
                                                      rematch))):
            raise TypeError("seats, keys or a text column have the wrong type")
        return GameRow(gid, game, start, seat_list, float(movetime), float(delay), bool(paused),
                       int(cursor), position, status, float(created), float(updated), owner, key_list,
                       bool(public), clock, result, rematch)
    except (TypeError, ValueError) as err:
        raise Damaged(f"stored game {gid!r} cannot be read ({err})") from None
