"""Game records: PGN for the chess family, PDN for draughts, a plain move list otherwise.

Each record has tag pairs (``[White "alphabeta"]``), then the moves numbered in pairs, then
the result (``1-0``, ``0-1``, ``1/2-1/2`` or ``*``).  ``read_records`` takes any of them back
to lists of move texts, skipping tags, numbers, comments (``{...}``, ``; ...`` and lines
starting with ``%`` or ``#``) and results.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from myriad.core.errors import MyriadError
from myriad.core.game import Game, Outcome
from myriad.core.state import State

MOVE_NUMBER = re.compile(r"^\d+\.+")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
_COMMENT = re.compile(r"\{[^}]*\}|;[^\n]*|^[%#][^\n]*", re.MULTILINE)


@dataclass
class Record:
    """One game: its tags and moves (in the game's notation)."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)


def result_text(outcome: Outcome | None) -> str:
    """``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (two players)."""
    if outcome is None:
        return "*"
    winner = outcome.winner
    return "1/2-1/2" if winner is None else ("1-0" if winner == 0 else "0-1")


def record_format(game: Game) -> str:
    """``pgn``, ``pdn`` or ``txt`` for the game's family."""
    return {"chess": "pgn", "draughts": "pdn"}.get(game.family, "txt")


def write_record(game: Game, moves: Sequence[str], outcome: Outcome | None,
                 tags: Mapping[str, str] | None = None, start: State | None = None) -> str:
    """One record as text, ending with a blank line."""
    all_tags = {"Game": game.id, **dict(tags or {}), "Result": result_text(outcome)}
    if start is not None and start != game.initial_state():
        all_tags["FEN"] = game.format_position(start)
    if outcome is not None:
        all_tags.setdefault("Termination", outcome.reason)
    lines = [f'[{k} "{v}"]' for k, v in all_tags.items()]
    body: list[str] = []
    first = 0 if start is None else start.to_move
    for i, move in enumerate(moves):
        ply = i + first
        if ply % 2 == 0:
            body.append(f"{ply // 2 + 1}. {move}")
        elif i == 0:
            body.append(f"{ply // 2 + 1}... {move}")
        else:
            body.append(move)
    body.append(all_tags["Result"])
    text, line = [], ""
    for token in body:
        if len(line) + len(token) + 1 > 79:
            text.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    text.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(text) + "\n\n"


def read_records(text: str, source: str = "records") -> list[Record]:
    """Every record in ``text``; a line that is neither a tag nor moves is an error."""
    records: list[Record] = []
    current: Record | None = None
    in_moves = False
    for number, raw in enumerate(_COMMENT.sub(" ", text).splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        tag = _TAG.match(line)
        if tag:
            if current is None or in_moves:
                current, in_moves = Record(), False
                records.append(current)
            current.tags[tag.group(1)] = tag.group(2)
            continue
        if line.startswith("["):
            raise MyriadError(f"{source}:{number}: malformed tag {line!r}")
        if current is None:
            current = Record()
            records.append(current)
        in_moves = True
        for token in line.split():
            token = MOVE_NUMBER.sub("", token)
            if not token:
                continue
            if token in RESULTS:
                current, in_moves = None, False
                break
            current.moves.append(token)
    return records


def replay(game: Game, record: Record) -> list[State]:
    """The states of a record, from its start (tag ``FEN``) through every move."""
    state = game.parse_position(record.tags["FEN"]) if "FEN" in record.tags else game.initial_state()
    states = [state]
    for i, text in enumerate(record.moves, start=1):
        try:
            state = game.play_text(state, text)
        except MyriadError as err:
            raise MyriadError(f"move {i} ({text!r}): {err}") from None
        states.append(state)
    return states
