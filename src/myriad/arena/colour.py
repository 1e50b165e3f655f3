"""Colour in the terminal: ANSI escapes when the output is a terminal that wants them.

Colour is on when the stream is a TTY and ``NO_COLOR`` (https://no-color.org) is unset or
empty, unless asked for or against (``--color`` / ``--no-color``); ``TERM=dumb`` has none.
A :class:`Palette` that is off returns every text unchanged, so piped output never holds
an escape code.
"""

from __future__ import annotations

import os
import re
from typing import TextIO

from myriad.core.game import Game

RESET = "\x1b[0m"
STYLES = {
    "bold": "\x1b[1m", "dim": "\x1b[2m", "red": "\x1b[31m", "green": "\x1b[32m",
    "yellow": "\x1b[33m", "blue": "\x1b[34m", "magenta": "\x1b[35m", "cyan": "\x1b[36m",
}
#: the colour of each player's pieces on the board, in turn order
PLAYER_STYLES = ("bold", "red", "blue", "green", "magenta", "cyan")

_TOKEN = re.compile(r"\S+")


def wants_colour(stream: TextIO, choice: bool | None = None) -> bool:
    """Whether to write colour to ``stream``: ``choice`` when given, else a TTY without
    ``NO_COLOR`` and not ``TERM=dumb``."""
    if choice is not None:
        return choice
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Palette:
    """Styles text when ``enabled``; else returns it unchanged."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def paint(self, text: str, *styles: str) -> str:
        """``text`` in the ``styles`` (names of :data:`STYLES`)."""
        if not self.enabled or not text:
            return text
        return "".join(STYLES[s] for s in styles) + text + RESET

    def board(self, game: Game, drawing: str) -> str:
        """A board drawn by ``game.render`` with each player's pieces in its colour and the
        coordinates dimmed (a token is a piece when it is exactly a piece's drawing)."""
        if not self.enabled:
            return drawing
        owner: dict[str, int] = {}
        pieces = game.pieces
        for code in range(1, pieces.count):
            text = game.cell_text(code)
            if text.strip() and not text.strip().isdigit() and 0 <= pieces.owner_of[code] < game.players:
                owner.setdefault(text.strip(), pieces.owner_of[code])
        lines = drawing.split("\n")
        out = []
        for number, line in enumerate(lines):
            first = True
            if number == len(lines) - 1 and game.topology.width:  # the files' letters under a grid
                out.append(_TOKEN.sub(lambda found: self.paint(found.group(0), "dim"), line))
                continue

            def colour(found: re.Match[str]) -> str:
                nonlocal first
                token, label = found.group(0), first
                first = False
                if token in owner:
                    return self.paint(token, PLAYER_STYLES[owner[token] % len(PLAYER_STYLES)])
                if label:  # the row's number
                    return self.paint(token, "dim")
                return token
            out.append(_TOKEN.sub(colour, line))
        return "\n".join(out)
