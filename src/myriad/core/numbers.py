"""The one reader of numbers written in input text (positions, moves, query parameters).

Python's ``int()`` accepts more than a notation means by a number: signs, ``_`` between
digits, surrounding blanks, digits of other scripts (``"١"``, ``"１"``), and up to 4,300
digits before it raises a plain ``ValueError``; ``str.isdigit()`` also accepts superscripts
(``"²"``) that ``int()`` then refuses.  :func:`read_int` accepts ASCII digits only, at most
``max_digits`` of them, within a range, and raises the caller's own error otherwise.
"""

from __future__ import annotations

from myriad.core.errors import MyriadError

DIGITS = frozenset("0123456789")
#: Characters of the input kept when it is quoted in an error message.
QUOTE_LIMIT = 40


def shortened(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``repr(text)``, or for text longer than ``limit`` characters the repr of its first
    ``limit`` characters followed by ``...`` and the full length (error messages quote
    input this way, so a huge input cannot make a huge message)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def read_int(text: str, what: str, *, low: int | None = 0, high: int | None = None,
             error: type[MyriadError] = MyriadError, max_digits: int = 9) -> int:
    """The number written ``text``: one to ``max_digits`` ASCII digits ``0-9`` (no sign,
    blank, ``_`` or other script's digit), between ``low`` and ``high`` inclusive (None: no
    bound).  Otherwise raises ``error`` with a message naming ``what`` (a noun such as
    ``"limit"`` or ``"row 3: run of empty cells"``) and quoting ``text``.
    """
    if not text:
        raise error(f"{what} is empty, expected a number")
    if not all(ch in DIGITS for ch in text):
        raise error(f"{what} {shortened(text)} is not a number (write it with the digits 0-9 only)")
    if len(text) > max_digits:
        raise error(f"{what} {shortened(text)} has {len(text)} digits, at most {max_digits} allowed")
    value = int(text)
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            wanted = f"from {low} to {high}"
        elif low is not None:
            wanted = f"at least {low}"
        else:
            wanted = f"at most {high}"
        raise error(f"{what} {value} is out of range, must be {wanted}")
    return value
