"""Opening books read from game records.

The records are read by :func:`myriad.notation.records.read_records` (PGN/PDN or plain
move lists, one game per line, ``1-0``-style results ending each game).  The book maps each position reached (by Zobrist key) to the moves played from it and how
often; the bot plays one of them, weighted by count, and answers "no move" outside the
book so that a chain falls through to its next link.
"""

from __future__ import annotations

import random
from collections import Counter
from importlib import resources
from typing import Any, ClassVar

from myriad.ai.bot import SEED, Allowed, Bot, Decision, Limits
from myriad.core.errors import MyriadError
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State
from myriad.notation.files import read_text_file
from myriad.notation.records import read_records


class OutOfBook(Exception):
    """The position is not in the book."""


def build_book(game: Game, text: str, source: str = "book") -> dict[int, Counter[Move]]:
    """Positions and the moves played from them in the records of ``text``; a bad move
    names its record and move."""
    book: dict[int, Counter[Move]] = {}
    for number, record in enumerate(read_records(text, source), start=1):
        try:
            state = game.parse_position(record.tags["FEN"]) if "FEN" in record.tags else game.initial_state()
        except MyriadError as err:
            raise MyriadError(f"{source}: game {number}, FEN tag: {err}") from None
        for ply, token in enumerate(record.moves, start=1):
            try:
                move = game.parse_move(state, token)
            except MyriadError as err:
                raise MyriadError(f"{source}: game {number}, move {ply}: {err}") from None
            book.setdefault(state.key, Counter())[move] += 1
            state = game.play(state, move)
    return book


def builtin_book(game_id: str) -> str:
    """The text of the book shipped for ``game_id`` ('' when there is none)."""
    path = resources.files("myriad.ai") / "books" / f"{game_id}.txt"
    return path.read_text() if path.is_file() else ""


class BookBot(Bot):
    """Plays from an opening book (option ``file=PATH``, else the game's built-in book); a
    file that cannot be read as a book is a :class:`~myriad.core.errors.MyriadError`."""

    name = "book"
    OPTIONS: ClassVar[dict[str, Allowed]] = {"file": str, "seed": SEED}
    max_players = None  # a book plays whatever its records played
    chance = True
    suggested = False

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        file = options.get("file")
        text = read_text_file(str(file), "book file") if file is not None else builtin_book(game.id)
        self.book = build_book(game, text, f"book file {file!r}" if file is not None else f"{game.id} book")
        self.rng = random.Random(options.get("seed"))

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        counts = self.book.get(state.key)
        legal = self.game.legal_moves(state)
        if counts:
            moves = [m for m in counts if m in legal]
            if moves:
                move = self.rng.choices(moves, weights=[counts[m] for m in moves])[0]
                return Decision(move, True, {"bot": self.name, "depth": 0, "nodes": 0, "pv": [move]})
        raise OutOfBook(f"{self.game.id}: position not in the book")
