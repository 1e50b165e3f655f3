"""Values of command-line options: counts and durations read strictly and within bounds.

argparse's ``type=int`` accepts what ``int()`` does (signs, ``_``, blanks, other scripts'
digits, thousands of digits) and ``type=float`` accepts ``nan`` and ``inf``; a count or a
time on the command line is one of these readers instead, so that a bad value is refused
with its option's name before any work starts, and no value can ask for endless work.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable

from myriad.core.errors import MyriadError
from myriad.core.numbers import read_int, shortened

#: The longest time, in seconds, any option may ask for (an hour).
MAX_SECONDS = 3600.0
_DECIMAL = re.compile(r"[0-9]{1,9}(\.[0-9]{0,9})?|\.[0-9]{1,9}")


class OptionError(MyriadError):
    """A command-line option's value is not acceptable (argparse reports it as
    :class:`argparse.ArgumentTypeError`, prefixed with the option's name)."""


def count(low: int, high: int, what: str = "value") -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high`` in ASCII digits
    (argparse puts the option's name before the message naming ``what``)."""

    def read(text: str) -> int:
        try:
            return read_int(text, what, low=low, high=high, error=OptionError)
        except OptionError as err:  # argparse prefixes the option's name
            raise argparse.ArgumentTypeError(str(err)) from None

    return read


def seconds(high: float = MAX_SECONDS, what: str = "value") -> Callable[[str], float]:
    """An argparse ``type``: a positive time in seconds (``0.5``, ``2``), at most ``high``."""

    def read(text: str) -> float:
        if not _DECIMAL.fullmatch(text):
            raise argparse.ArgumentTypeError(f"{what} {shortened(text)} is not a time in seconds "
                                             f"(write it like 0.5 or 2, with the digits 0-9)")
        value = float(text)
        if not (value > 0 and math.isfinite(value) and value <= high):
            raise argparse.ArgumentTypeError(f"{what} {text} is out of range, must be above 0 "
                                             f"and at most {high:g} seconds")
        return value

    return read
