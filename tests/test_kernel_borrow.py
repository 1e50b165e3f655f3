"""How the kernel's entry points hand their arrays to compiled calls (``myriad.kernel.borrow``):
borrowed arrays and tuples passed by reference read and write the caller's data."""
from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
import pytest
from numba import njit

from myriad.kernel.borrow import Ref, borrowed, by_ref, lent


class Pair(NamedTuple):
    counts: np.ndarray
    grid: np.ndarray


class Other(NamedTuple):
    counts: np.ndarray
    weights: np.ndarray


@njit
def _bump(p, at):
    p.counts[at] += 1
    p.grid[at, at] = p.counts[at] * 10
    return p.counts.sum() + p.grid.shape[1]


@njit
def bump_through_ref(p, at):
    return _bump(by_ref(borrowed(p)), at)


@njit
def _weigh(o):
    return o.counts.sum() * o.weights[0]


@njit
def weigh_through_ref(o):
    return _weigh(by_ref(o))


@njit
def bump_lent(p, at):
    return _bump(lent(p), at)


@pytest.mark.parametrize("bump", [bump_through_ref, bump_lent])
def test_a_tuple_passed_by_reference_reads_and_writes_the_callers_arrays(bump: object) -> None:
    pair = Pair(np.array([1, 2, 3], np.int64), np.zeros((3, 4), np.int64))
    assert bump(pair, 1) == 7 + 4  # type: ignore[operator]
    assert bump(pair, 1) == 8 + 4  # type: ignore[operator]
    assert pair.counts.tolist() == [1, 4, 3]
    assert pair.grid[1, 1] == 40 and int(pair.grid.sum()) == 40


def test_references_to_different_tuples_are_different_types() -> None:
    pair = Pair(np.array([1, 2], np.int64), np.zeros((2, 2), np.int64))
    other = Other(np.array([1, 2], np.int64), np.array([0.5]))
    bump_through_ref(pair, 0)
    assert weigh_through_ref(other) == 1.5
    pair_type, other_type = numba.typeof(pair), numba.typeof(other)
    assert Ref(pair_type) != Ref(other_type) and str(Ref(pair_type)) != str(Ref(other_type))
    assert Ref(pair_type) == Ref(numba.typeof(Pair(np.zeros(5, np.int64), np.zeros((1, 1), np.int64))))


@njit
def _not_a_named_tuple(x):
    return by_ref(x)


@njit
def _lend_not_a_named_tuple(x):
    return lent(x)


def test_by_ref_takes_only_named_tuples() -> None:
    with pytest.raises(numba.core.errors.TypingError):
        _not_a_named_tuple(np.zeros(3))
    with pytest.raises(numba.core.errors.TypingError):
        _lend_not_a_named_tuple(np.zeros(3))
