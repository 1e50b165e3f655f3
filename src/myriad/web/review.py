"""Reviewing a game: its earlier positions, and records opened from a paste or a file.

``position_json(session, caller, ply)`` is the board after ``ply`` moves as the caller's
page may see it: the same door as the live view (:meth:`Session.view`), so in a game with
hidden information that goes on, a seat gets its own observation of that earlier position
(``observe``), a watcher the public view, and no last move of another player's; once the
game is over, everything.

``open_record(sessions, caller, game_id, text, index)`` reads a game record (PGN, PDN, a
move list, or SGF for Go) with the project's record readers and stores it as a new game of
the caller's with every seat human (the keys given out once, as for a new game), its moves
in force: the page then steps through it, and an unfinished record can be played on.  A
record that does not read is refused naming the line or the move that is wrong.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from myriad.core.errors import MyriadError, UnknownGameError
from myriad.core.game import Game
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.notation.records import Record, read_records
from myriad.web.bots import HUMAN
from myriad.web.layout import cells_json, hands_json
from myriad.web.moves import last_move_json
from myriad.web.sessions import (CHANCE, DEFAULT_MOVETIME, Caller, Forbidden, Session, Sessions, digest,
                                 status_text)
from myriad.web.storage import GameRow

#: The largest record a page may send (bytes of the request body).
MAX_RECORD_BYTES = 512 * 1024
#: The most moves a record opened on the web may hold.
MAX_RECORD_PLIES = 3000


def position_json(session: Session, caller: Caller, ply: int) -> dict[str, Any]:
    """The position after ``ply`` moves of ``session`` as ``caller`` may see it: ``ply``,
    ``plies`` (the moves in force now), ``position``, ``cells``, ``hands`` (when held),
    ``last`` (the move that led there, or None), ``to_move``, ``to_move_name`` and
    ``outcome`` (None unless that position ends the game)."""
    game, states = session.game, session.states
    count = len(session.moves)
    if not 0 <= ply <= count:
        raise MyriadError(f"ply must be from 0 to {count} (the moves played), not {ply}")
    state = states[ply]
    viewer = session.viewer(caller)
    hidden = game.hidden_information and session.outcome() is None
    seen = state if not hidden else game.public_view(state) if viewer is None else game.observe(state, viewer)
    last = None
    if ply > 0 and not (hidden and states[ply - 1].to_move != viewer):
        last = last_move_json(game, states[ply - 1], session.moves[ply - 1])
    outcome = game.outcome(state)
    return {"id": session.id, "ply": ply, "plies": count,
            "position": game.format_position(seen), "cells": cells_json(game, seen),
            **({"hands": hands_json(game, seen)} if seen.hands else {}),
            "last": last, "to_move": state.to_move, "to_move_name": game.mover_name(state),
            "outcome": None if outcome is None else {"reason": outcome.reason,
                                                     "winner": None if outcome.winner is None
                                                     else game.player_names[outcome.winner]}}


def read_record(game: Game | None, text: str, index: int = 1) -> tuple[Game, Record]:
    """Record number ``index`` (from 1) of ``text``, and its game: ``game``, else the one its
    ``Game`` tag names.  SGF (text starting with ``(``) is read by ``game``, else by the
    first game that reads it (Go of its size).  Raises ``MyriadError`` saying what is wrong
    and where."""
    records: list[Record]
    if text.lstrip().startswith("("):
        if game is None:
            game = _sgf_reader(text)
        from_sgf = getattr(game, "from_sgf", None)
        if from_sgf is None:
            raise MyriadError(f"{game.id} does not read SGF records; paste PGN, PDN or a move list")
        start, moves = from_sgf(text, "record")
        records = [Record({"FEN": game.format_position(start)}, list(moves))]
    else:
        records = read_records(text, "record")
    if not records:
        raise MyriadError("no game record found in the text (tags, then numbered moves)")
    if not 1 <= index <= len(records):
        raise MyriadError(f"the text holds {len(records)} game record(s); 'index' must be from 1 to "
                          f"{len(records)}, not {index}")
    record = records[index - 1]
    if game is None:
        named = record.tags.get("Game") or record.tags.get("Variant", "").lower()
        if not named:
            raise MyriadError("say which game the record is of ('game'): it has no Game tag")
        try:
            game = get_game(named)
        except UnknownGameError as err:
            raise MyriadError(f"the record's Game tag: {err}") from None
    if not record.moves and "FEN" not in record.tags:
        raise MyriadError(f"game record {index} has no moves (and no FEN tag to start from)")
    if len(record.moves) > MAX_RECORD_PLIES:
        raise MyriadError(f"the record has {len(record.moves)} moves; at most {MAX_RECORD_PLIES} are opened here")
    return game, record


def _sgf_reader(text: str) -> Game:
    """The first game (in the registry's order) that reads the SGF ``text`` (Go of its ``SZ``);
    a ``MyriadError`` with the first game's reason when none does."""
    first: MyriadError | None = None
    for game_id in game_ids():
        game = get_game(game_id)
        from_sgf = getattr(game, "from_sgf", None)
        if from_sgf is None:
            continue
        try:
            from_sgf(text, "record")
            return game
        except MyriadError as err:
            first = first or err
    raise MyriadError(f"no game reads this SGF record ({first})" if first else "no game reads SGF records")


def replay_record(game: Game, record: Record) -> tuple[State, list[tuple[State, Any, str, str]]]:
    """The record's start and, for each of its moves, (the state before it, the move, its
    notation as the game writes it, who played it: ``human`` or ``chance``).  A move that
    does not read is a ``MyriadError`` naming its number as players count them."""
    try:
        start = game.parse_position(record.tags["FEN"]) if "FEN" in record.tags else game.initial_state()
    except MyriadError as err:
        raise MyriadError(f"the record's FEN tag: {err}") from None
    state, out = start, []
    for ply, text in enumerate(record.moves):
        if game.outcome(state) is not None:
            raise MyriadError(f"{_move_name(game, start, ply, text)}: the game was over before it")
        try:
            move = game.parse_move(state, text)
        except MyriadError as err:
            raise MyriadError(f"{_move_name(game, start, ply, text)}: {err}") from None
        out.append((state, move, game.format_move(state, move), CHANCE if game.is_chance(state) else HUMAN))
        state = game.play(state, move)
    return start, out


def _move_name(game: Game, start: State, ply: int, text: str) -> str:
    """``move 12... 'Nf9'`` (two players: numbered in pairs from the start's side to move),
    else ``move 7 'x'`` (the 7th move of the record)."""
    shown = text if len(text) <= 40 else f"{text[:40]}..."
    if game.players != 2:
        return f"move {ply + 1} {shown!r}"
    half = ply + start.to_move
    return f"move {half // 2 + 1}{'.' if half % 2 == 0 else '...'} {shown!r}"


async def open_record(sessions: Sessions, caller: Caller, game_id: Any, text: Any,
                      index: Any = None) -> tuple[Session, list[str | None]]:
    """A new game of ``caller``'s holding the record: every seat human, the moves in force,
    stored in one transaction; the seats' keys, given out only here."""
    if not caller.client:
        raise Forbidden("opening a record needs a client secret (X-Myriad-Client)")
    if not isinstance(text, str) or not text.strip():
        raise MyriadError("'text' must be the record: PGN, PDN, SGF or a move list")
    if game_id is not None and not isinstance(game_id, str):
        raise MyriadError(f"'game' must be a game id, not {game_id!r}")
    if index is None:
        index = 1
    if isinstance(index, bool) or not isinstance(index, int):
        raise MyriadError(f"'index' must be a whole number (which game of the text), not {index!r}")
    try:
        chosen = None if not game_id else get_game(game_id)
    except UnknownGameError as err:
        raise MyriadError(str(err)) from None
    # Reading and replaying a long record takes a while: on a thread, the server answers meanwhile.
    game, record = await asyncio.to_thread(read_record, chosen, text, index)
    start, plies = await asyncio.to_thread(replay_record, game, record)
    keys: list[str | None] = [secrets.token_urlsafe(24) for _ in range(game.players)]
    end = game.play(plies[-1][0], plies[-1][1]) if plies else start
    row = GameRow(secrets.token_hex(8), game.id, game.format_position(start), [HUMAN] * game.players,
                  DEFAULT_MOVETIME, owner=caller.owner, keys=[digest(k) if k else None for k in keys],
                  cursor=len(plies), position=game.format_position(end), status=status_text(game, end),
                  moves=[notation for _, _, notation, _ in plies], by=[by for _, _, _, by in plies])
    await sessions.storage(sessions.store.create, row)
    session = Session(game, row, start, sessions.storage, sessions.pool, sessions.timer, sessions.wall)
    for _, move, notation, by in plies:
        session._push(move, by, notation)
    sessions.keep(session)
    return session, keys
