"""Fuzzing the position and move readers of every registered game.

Whatever text comes in, ``parse_position`` returns a state or raises ``PositionError``, and
``parse_move`` returns a legal move or raises ``InvalidMoveError`` / ``IllegalMoveError``:
never a plain ``ValueError``, ``IndexError``, ``KeyError`` or ``RecursionError``.  A state
that is read writes back to a text that reads to the same state.

Inputs: numbers of 5,000 digits, digits of other scripts (``"²"``, ``"١"``, ``"１"``),
``1_0``, empty, blank and huge texts, control characters, random text, and mutations of the
valid texts of a few states reached by short random playouts.  The default run keeps to a
few seconds per reader; ``-m slow`` runs many more examples.
"""

from __future__ import annotations

import random
import re
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from myriad.core.errors import IllegalMoveError, InvalidMoveError, PositionError
from myriad.core.game import Game
from myriad.core.state import State
from myriad.games import game_ids, get_game

GAME_IDS = game_ids()

#: Texts that no reader may choke on, and replacements for the numbers inside valid texts.
ODD_NUMBERS = ["5" * 5000, "9" * 4301, "²", "١", "１", "٣٤", "1_0", "-1", "+1", "0", "00", "999999999999", ""]
ODD_TEXTS = ODD_NUMBERS + [" ", "\t\n", "\x00", "\x00\x01\x1b[31m\x7f", "\u202e", "\ufeff", "x" * 100_000,
                           "/" * 5000, ":" * 5000, "," * 5000, "-" * 5000, "1" + "x1" * 3000,
                           "K" * 5000, "é", "\ud800", "w", "b", "s", "n", "pass", "O-O-O", "a1a1"]
#: Characters mutations insert: the notations' own, digits of other scripts, controls.
ALPHABET = "0123456789/ :,-xXOKkQqRrBbNnPpWwSsHFe=+#.\"²١１_\x00\n\t\u00a0é"


@cache
def sample_states(game_id: str, playouts: int = 2, seed: int = 15) -> tuple[State, ...]:
    """The start and a few states reached by short random playouts."""
    game = get_game(game_id)
    rng = random.Random(seed)
    states = [game.initial_state()]
    for _ in range(playouts):
        state = game.initial_state()
        for ply in range(40):
            moves = game.legal_moves(state)
            if not moves or game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(moves))
            if ply in (3, 12, 39):
                states.append(state)
    return tuple(states)


def numbers_replaced(text: str) -> list[str]:
    """``text`` with each of its first few runs of digits replaced by each odd number."""
    out = []
    for m in list(re.finditer(r"[0-9]+", text))[:6]:
        out.extend(text[:m.start()] + odd + text[m.end():] for odd in ODD_NUMBERS)
    return out


def fields_replaced(text: str) -> list[str]:
    """``text`` with each blank-separated field replaced by each odd text (huge ones left out)."""
    fields = text.split()
    return [" ".join(fields[:i] + [odd] + fields[i + 1:]) for i in range(len(fields))
            for odd in ODD_TEXTS if len(odd) < 10_000]


def check_position_text(game: Game, text: str) -> None:
    """Reading ``text`` gives a state that round-trips, or a ``PositionError``."""
    try:
        state = game.parse_position(text)
    except PositionError:
        return
    assert isinstance(state, State)
    assert state.key == game.recomputed_key(state), f"{game.id}: {text[:80]!r}: wrong key"
    written = game.format_position(state)
    assert game.parse_position(written) == state, f"{game.id}: {text[:80]!r} -> {written!r} reads back differently"


def check_move_text(game: Game, state: State, text: str) -> None:
    """Reading ``text`` gives a legal move, or an ``InvalidMoveError`` / ``IllegalMoveError``."""
    try:
        move = game.parse_move(state, text)
    except (InvalidMoveError, IllegalMoveError):
        return
    assert move in game.legal_moves(state), f"{game.id}: {text[:80]!r} read as a move that is not legal"


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` after a few random insertions, deletions and replacements."""
    chars = list(text)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(chars)))
        edit = draw(st.sampled_from(["insert", "delete", "replace", "number"]))
        if edit == "insert":
            chars[at:at] = draw(st.text(ALPHABET, min_size=1, max_size=3))
        elif edit == "delete":
            del chars[at:at + draw(st.integers(1, 3))]
        elif edit == "replace" and at < len(chars):
            chars[at] = draw(st.sampled_from(ALPHABET))
        else:
            chars[at:at] = draw(st.sampled_from(ODD_NUMBERS))
    return "".join(chars)


def inputs(game_id: str, kind: str) -> st.SearchStrategy[tuple[int, str]]:
    """(index of a sample state, text): random text, odd texts, mutations of the sample
    states' position texts (``kind="position"``) or of their legal moves' texts."""
    game = get_game(game_id)
    states = sample_states(game_id)
    if kind == "position":
        valid = [game.format_position(s) for s in states]
    else:
        valid = [game.format_move(s, m) for s in states for m in game.legal_moves(s)[:4]] or ["pass"]
    index = st.integers(0, len(states) - 1)
    text = st.one_of(st.text(max_size=60), st.text(ALPHABET, max_size=60), st.sampled_from(ODD_TEXTS),
                     st.sampled_from(valid).flatmap(mutated))
    return st.tuples(index, text)


# -- every odd input, every game ------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_odd_positions_are_refused_or_read_whole(game_id: str) -> None:
    game = get_game(game_id)
    for state in sample_states(game_id):
        text = game.format_position(state)
        check_position_text(game, text)
        assert game.parse_position(text) == state, f"{game_id}: {text!r} does not round-trip"
        for odd in ODD_TEXTS + numbers_replaced(text) + fields_replaced(text):
            check_position_text(game, odd)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_odd_moves_are_refused_or_read_legal(game_id: str) -> None:
    game = get_game(game_id)
    for state in sample_states(game_id)[:3]:
        for move in game.legal_moves(state)[:2]:
            text = game.format_move(state, move)
            assert game.parse_move(state, text) == move, f"{game_id}: {text!r} does not round-trip"
            for odd in numbers_replaced(text):
                check_move_text(game, state, odd)
        for odd in ODD_TEXTS:
            check_move_text(game, state, odd)


# -- random and mutated inputs (hypothesis) -------------------------------------------------------


def fuzz_positions(game_id: str, examples: int) -> None:
    game = get_game(game_id)

    @settings(max_examples=examples, database=None)
    @given(inputs(game_id, "position"))
    def run(case: tuple[int, str]) -> None:
        check_position_text(game, case[1])
    run()


def fuzz_moves(game_id: str, examples: int) -> None:
    game = get_game(game_id)
    states = sample_states(game_id)

    @settings(max_examples=examples, database=None)
    @given(inputs(game_id, "move"))
    def run(case: tuple[int, str]) -> None:
        check_move_text(game, states[case[0]], case[1])
    run()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_fuzz_positions(game_id: str) -> None:
    fuzz_positions(game_id, 60)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_fuzz_moves(game_id: str) -> None:
    fuzz_moves(game_id, 40)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_fuzz_positions_long(game_id: str) -> None:
    fuzz_positions(game_id, 3000)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_fuzz_moves_long(game_id: str) -> None:
    fuzz_moves(game_id, 1500)
