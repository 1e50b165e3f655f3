"""Piece kinds and their integer codes.

A cell holds 0 when empty, else a piece code ``1 + kind * players + owner``.  The tables
``kind_of``, ``owner_of`` and ``letter_of`` decode a code without arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from myriad.core.errors import GameDefinitionError

EMPTY = 0


@dataclass(frozen=True)
class PieceKind:
    """A kind of piece: its name, its letter in position strings, its value, royalty."""

    name: str
    letter: str
    value: int = 1
    royal: bool = False
    glyphs: tuple[str, ...] = ()
    letters: tuple[str, ...] = ()

    def letter_for(self, owner: int) -> str:
        """The letter of this kind for ``owner``: ``letters[owner]`` if given, else upper
        case for the first player and lower case for the others."""
        if owner < len(self.letters):
            return self.letters[owner]
        return self.letter.upper() if owner == 0 else self.letter.lower()

    def glyph(self, owner: int) -> str:
        """A picture character for this kind and owner (the letter when none is given)."""
        return self.glyphs[owner] if owner < len(self.glyphs) else self.letter_for(owner)


class PieceSet:
    """The piece kinds of a game and the codes of (kind, owner) pairs."""

    def __init__(self, kinds: Sequence[PieceKind], players: int = 2) -> None:
        names = [k.name for k in kinds]
        if len(set(names)) != len(names):
            raise GameDefinitionError(f"piece names are not unique: {names}")
        self.kinds = tuple(kinds)
        self.players = players
        self.kind_index = {k.name: i for i, k in enumerate(kinds)}
        count = 1 + len(kinds) * players
        self.kind_of: tuple[int, ...] = (-1,) + tuple(c // players for c in range(count - 1))
        self.owner_of: tuple[int, ...] = (-1,) + tuple(c % players for c in range(count - 1))
        self.value_of: tuple[int, ...] = (0,) + tuple(kinds[c // players].value for c in range(count - 1))
        self.royal_codes = frozenset(c for c in range(1, count) if kinds[self.kind_of[c]].royal)
        self.letter_of: tuple[str, ...] = ("",) + tuple(
            kinds[c // players].letter_for(c % players) for c in range(count - 1))
        self.code_of_letter = {letter: c for c, letter in enumerate(self.letter_of) if c}
        if len(self.code_of_letter) != count - 1:
            raise GameDefinitionError(f"piece letters are not distinct: {self.letter_of[1:]}")

    @property
    def count(self) -> int:
        """Number of codes, including 0 for empty."""
        return len(self.kind_of)

    def code(self, kind: str, owner: int) -> int:
        """The code of a ``kind`` piece owned by ``owner``."""
        try:
            return 1 + self.kind_index[kind] * self.players + owner
        except KeyError:
            raise GameDefinitionError(f"no piece kind named {kind!r}") from None

    def kind(self, code: int) -> PieceKind:
        """The kind of a non-empty code."""
        return self.kinds[self.kind_of[code]]

    def name(self, code: int) -> str:
        """A readable name like 'white knight' / 'player 2 stone'."""
        return f"{self.kind(code).name}({self.owner_of[code]})"
