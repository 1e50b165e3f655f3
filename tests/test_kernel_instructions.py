"""The machine instructions the kernel adds to numba (``myriad.kernel.instructions``): bit
counts and the lowest and highest set bit agree with Python's integers on every kind of
word, and a prefetch changes nothing it touches."""
from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from myriad.kernel.instructions import highest, lowest, popcount, prefetch


@njit
def _facts(word):
    return popcount(word), lowest(word), highest(word)


@njit
def _read_after_prefetch(table, row):
    prefetch(table, row)
    return table[row].sum()


def words() -> list[int]:
    rng = random.Random(7)
    chosen = [1, 2, 3, 1 << 63, (1 << 64) - 1, (1 << 63) | 1, 0x8000_0000]
    chosen += [rng.getrandbits(64) for _ in range(200)]
    chosen += [1 << rng.randrange(64) for _ in range(50)]
    return chosen


def test_bit_facts_agree_with_python() -> None:
    for word in words():
        count, low, high = _facts(np.uint64(word))
        assert count == word.bit_count(), hex(word)
        assert low == (word & -word).bit_length() - 1, hex(word)
        assert high == word.bit_length() - 1, hex(word)


def test_an_empty_word() -> None:
    assert _facts(np.uint64(0)) == (0, 64, -1)


def test_prefetch_changes_nothing() -> None:
    table = np.arange(60, dtype=np.int64).reshape(12, 5)
    before = table.copy()
    assert [_read_after_prefetch(table, row) for row in range(12)] == table.sum(axis=1).tolist()
    assert np.array_equal(table, before)


def test_wrong_types_are_refused() -> None:
    with pytest.raises(TypingError):
        _facts(np.int64(5))
    with pytest.raises(TypingError):
        _read_after_prefetch(np.zeros(4, np.int64), 0)  # a row of a 2-D table only
