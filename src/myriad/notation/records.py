"""Game records: PGN for the chess family, PDN for draughts, SGF for a game that writes it
(Go: :class:`SgfRecords`), a plain move list otherwise.

Each record has tag pairs (``[White "alphabeta"]``), then the moves numbered in pairs, then
the result (``1-0``, ``0-1``, ``1/2-1/2`` or ``*``).  ``read_records`` takes any of them back
to lists of move texts, skipping tags, numbers, comments (``{...}``, ``; ...`` and lines
starting with ``%`` or ``#``), variations (``( ... )``, nested), annotations (``!?``, ``??``
after a move or alone, NAGs such as ``$1``) and results; a file may hold several games.

Tag values are quoted as PGN says: ``\\`` for a backslash and ``\"`` for a quote; characters
that would break the line (newlines, other control characters) are written as spaces.  So a
value such as a bot's name can never close its tag and write tags of its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from myriad.core.errors import MyriadError
from myriad.core.game import Game, Outcome
from myriad.core.move import Move
from myriad.core.state import State

#: A move number before a move (``12.``, ``12...``, ``12.e4``), but not the WXF move ``33.4`` (the
#: middle of three pawns on file 3 moving to file 4), a number and one digit.
MOVE_NUMBER = re.compile(r"^\d+\.+(?!\d$)")
#: Game results ending a record: PGN's, and PDN's written in points of two (``2-0``, ``1-1``).
RESULTS = ("1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1")
#: Move annotations written after a move (``e4!?``, ``Nf3!!``, ``32-28?``).
_ANNOTATION = re.compile(r"[!?]+$")
TAG_NAME = re.compile(r"\w+", re.ASCII)
# One piece of a record file: a whole tag line, a comment, a line starting with "[" that is
# not a well-formed tag, a word of the movetext, or blanks.
_PIECE = re.compile(r"""
    (?P<tag>^[ \t]*\[(?P<name>\w+)[ \t]+"(?P<value>(?:[^"\\\n]|\\[^\n])*)"[ \t]*\][ \t]*$)
  | (?P<comment>\{[^}]*(?:\}|\Z)|;[^\n]*|^[%#][^\n]*)
  | (?P<bad>^[ \t]*\[[^\n]*)
  | (?P<open>\() | (?P<close>\)) | (?P<nag>\$\d+)
  | (?P<word>[^\s{;()]+)
  | [^\S\n]+ | \n
""", re.MULTILINE | re.VERBOSE)
_ESCAPED = re.compile(r"\\(.)")


@dataclass
class Record:
    """One game: its tags and moves (in the game's notation)."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)


def quote_tag_value(value: str) -> str:
    """``value`` as written between a tag's quotes: backslash and quote escaped, every
    character that is not printable (newlines, tabs, other controls) replaced by a space."""
    clean = "".join(ch if ch.isprintable() else " " for ch in value)
    return clean.replace("\\", "\\\\").replace('"', '\\"')


def unquote_tag_value(text: str) -> str:
    """The value written ``text`` between a tag's quotes (the inverse of :func:`quote_tag_value`)."""
    return _ESCAPED.sub(r"\1", text)


def result_text(outcome: Outcome | None) -> str:
    """``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (two players; ``*`` with more, whose result the
    ``Termination`` tag says)."""
    if outcome is None or len(outcome.scores) != 2:
        return "*"
    winner = outcome.winner
    return "1/2-1/2" if winner is None else ("1-0" if winner == 0 else "0-1")


@runtime_checkable
class SgfRecords(Protocol):
    """A game whose records are SGF (Go): it writes one from its start and moves, with SGF
    properties (``info``: ``PB``, ``DT``, ...) in the root node."""

    def to_sgf(self, start: State, moves: Sequence[Move], outcome: Outcome | None = None,
               info: dict[str, str] | None = None) -> str: ...


#: Record tags and the SGF root properties that carry them; the others go in the game
#: comment (``GC``), one ``Name: value`` line each.
SGF_PROPERTIES = {"Black": "PB", "White": "PW", "Date": "DT", "Event": "EV", "Round": "RO", "Site": "PC"}


def record_format(game: Game) -> str:
    """``sgf`` for a game that writes SGF, else ``pgn``, ``pdn`` or ``txt`` by family."""
    if isinstance(game, SgfRecords):
        return "sgf"
    return {"chess": "pgn", "draughts": "pdn"}.get(game.family, "txt")


def write_sgf(game: SgfRecords, moves: Sequence[Move], outcome: Outcome | None,
              tags: Mapping[str, str], start: State) -> str:
    """One SGF game tree: the record's tags as root properties (:data:`SGF_PROPERTIES`, the
    rest in the game comment), the date as SGF writes it (``2026-11-24``)."""
    info: dict[str, str] = {}
    comment: list[str] = []
    for name, value in tags.items():
        if name in SGF_PROPERTIES:
            info[SGF_PROPERTIES[name]] = value.replace(".", "-") if name == "Date" else value
        elif name not in ("Game", "Result"):
            comment.append(f"{name}: {value}")
    if comment:
        info["GC"] = "\n".join(comment)
    tree = game.to_sgf(start, moves, outcome, info)
    return tree if tree.endswith("\n") else tree + "\n"


def write_record(game: Game, moves: Sequence[str], outcome: Outcome | None,
                 tags: Mapping[str, str] | None = None, start: State | None = None) -> str:
    """One record as text, ending with a blank line (SGF: one game tree and a line break, so
    that records written one after another make an SGF collection)."""
    if isinstance(game, SgfRecords):
        begin = start if start is not None else game.initial_state()
        played: list[Move] = []
        at = begin
        for notation in moves:
            played.append(game.parse_move(at, notation))
            at = game.play(at, played[-1])
        all_tags = dict(tags or {})
        if outcome is not None:
            all_tags.setdefault("Termination", outcome.reason)
        return write_sgf(game, played, outcome, all_tags, begin)
    all_tags = {"Game": game.id, **dict(tags or {}), "Result": result_text(outcome)}
    if start is not None and start != game.initial_state():
        all_tags["FEN"] = game.format_position(start)
    if outcome is not None:
        all_tags.setdefault("Termination", outcome.reason)
    for name in all_tags:
        if not TAG_NAME.fullmatch(name):
            raise MyriadError(f"record tag name {name!r} must be letters, digits and '_' only")
    lines = [f'[{k} "{quote_tag_value(str(v))}"]' for k, v in all_tags.items()]
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
    """Every record in ``text``; a line starting with ``[`` that is not a well-formed tag
    is an error naming ``source`` and the line."""
    text = "\n".join(text.splitlines())
    records: list[Record] = []
    current: Record | None = None
    in_moves = False
    depth = 0  # inside how many variations: their moves are skipped
    for piece in _PIECE.finditer(text):
        kind = piece.lastgroup
        if kind == "tag":
            depth = 0  # a new game's tags close any variation left open
            if current is None or in_moves:
                current, in_moves = Record(), False
                records.append(current)
            current.tags[piece.group("name")] = unquote_tag_value(piece.group("value"))
        elif kind == "bad":
            number = text.count("\n", 0, piece.start()) + 1
            line = piece.group().strip()
            shown = line if len(line) <= 80 else f"{line[:80]}..."
            raise MyriadError(f"{source}:{number}: malformed tag {shown!r}")
        elif kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
        elif kind == "word" and depth == 0:
            token = _ANNOTATION.sub("", MOVE_NUMBER.sub("", piece.group()))
            if not token:
                continue
            if current is None:
                current = Record()
                records.append(current)
            if token in RESULTS:
                current, in_moves = None, False
                continue
            in_moves = True
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
