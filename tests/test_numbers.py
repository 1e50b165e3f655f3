"""The one numeric reader of input text: ASCII digits only, bounded length and range."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from myriad.core.errors import InvalidMoveError, MyriadError, PositionError
from myriad.core.numbers import read_int, shortened


@pytest.mark.parametrize(("text", "value"), [("0", 0), ("7", 7), ("42", 42), ("007", 7),
                                             ("999999999", 999_999_999)])
def test_reads_ascii_digits(text: str, value: int) -> None:
    assert read_int(text, "count") == value


@pytest.mark.parametrize("text", ["²", "١", "１", "٣٤", "1_0", "-1", "+1", " 1", "1 ", "1.0", "0x1", "1e3",
                                  "", "one", "\x00", "1\n"])
def test_refuses_what_int_or_isdigit_would_take(text: str) -> None:
    with pytest.raises(MyriadError, match="count"):
        read_int(text, "count")


def test_refuses_more_digits_than_allowed_before_converting() -> None:
    with pytest.raises(MyriadError, match="5000 digits, at most 9"):
        read_int("5" * 5000, "limit")
    with pytest.raises(MyriadError, match="4 digits, at most 3"):
        read_int("1000", "limit", max_digits=3)
    assert read_int("100", "limit", max_digits=3) == 100


def test_bounds_are_inclusive_and_named() -> None:
    assert read_int("1", "limit", low=1, high=1000) == 1
    assert read_int("1000", "limit", low=1, high=1000) == 1000
    with pytest.raises(MyriadError, match=r"limit 0 is out of range, must be from 1 to 1000"):
        read_int("0", "limit", low=1, high=1000)
    with pytest.raises(MyriadError, match=r"limit 1001 is out of range, must be from 1 to 1000"):
        read_int("1001", "limit", low=1, high=1000)
    with pytest.raises(MyriadError, match="at most 5"):
        read_int("6", "n", low=None, high=5)
    with pytest.raises(MyriadError, match="at least 2"):
        read_int("1", "n", low=2)
    assert read_int("123456789", "n", low=None) == 123456789


def test_raises_the_error_type_asked_for() -> None:
    with pytest.raises(PositionError):
        read_int("x", "clock", error=PositionError)
    with pytest.raises(InvalidMoveError):
        read_int("99", "square", high=50, error=InvalidMoveError)


def test_messages_quote_a_shortened_copy() -> None:
    with pytest.raises(MyriadError) as caught:
        read_int("x" * 100_000, "limit")
    assert len(str(caught.value)) < 200
    assert "100000 characters" in str(caught.value)
    assert shortened("abc") == "'abc'"
    assert shortened("a" * 50, 10) == "'aaaaaaaaaa'... (50 characters)"


@given(st.integers(min_value=0, max_value=10 ** 9 - 1))
def test_every_written_number_reads_back(value: int) -> None:
    assert read_int(str(value), "n") == value


@given(st.text(max_size=30))
def test_any_text_is_a_number_of_ascii_digits_or_refused(text: str) -> None:
    try:
        value = read_int(text, "n", max_digits=12)
    except MyriadError:
        assert not (text and text.isascii() and text.isdigit() and len(text) <= 12)
    else:
        assert text.isascii() and text.isdigit() and int(text) == value
