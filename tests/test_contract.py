"""The contract every registered game keeps (DESIGN.md section 6).

One suite, parametrised over ``myriad.games.game_ids()``: a game that is registered but
cannot be built fails here, it is never skipped.

* random playouts end without error and reach an outcome or the ply cap;
* a finished position has no legal move (``outcome`` not None implies ``legal_moves`` is
  []), and a position without a legal move is finished;
* ``play`` never mutates its input state;
* the incrementally updated Zobrist key equals the key recomputed from scratch;
* every legal move's notation (and each alias) parses back to the same move, and no two
  legal moves share a notation;
* a position written with ``format_position`` reads back to an equal state and the same text;
* every named setup loads;
* bad input (garbage positions, garbage moves) raises the documented ``MyriadError`` and
  changes nothing;
* chance (games with ``chance = True``): at a chance node the outcomes are the legal moves,
  with probabilities that are positive and sum to 1, and playouts draw them by those
  probabilities; a game without chance never reaches a chance node;
* any number of players: outcomes score every player, and in a game of more than two
  players random playouts give the move to every player.

The default examples keep the whole suite around a minute; ``python -m pytest -m slow``
runs long playouts.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from myriad.core.errors import (
    IllegalMoveError,
    InvalidMoveError,
    MyriadError,
    PositionError,
)
from myriad.core.game import Game, Outcome
from myriad.core.move import Move
from myriad.core.state import State
from myriad.games import game_ids, get_game

GAME_IDS = game_ids()

#: Plies per random playout, and playouts per game, in the default run.
PLY_CAP = 200
PLAYOUTS = 6
#: At each step the notation of the move played and of one other legal move is parsed back;
#: every ``FULL_CHECK_EVERY`` plies all legal moves are (gomoku has 225 moves, and parsing one
#: move scans them all).
FULL_CHECK_EVERY = 50
#: A playout's seed has nothing to shrink: a failure reports the moves played instead.
PLAYOUT_PHASES = (Phase.explicit, Phase.reuse, Phase.generate)

GARBAGE_POSITIONS = ["", "   ", "\n", "not a position", "?", "////////////", "x" * 300, "-1",
                     "\x00", "\u2654\u2655", "1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17 w"]
GARBAGE_MOVES = ["", "   ", "zz99", "@@", "a0a0", "pass pass", "\u2654", "x" * 80,
                 "99999999999999999999", "-1", "\x00", "e2e4e6e8g7", "a1-"]


def snapshot(state: State) -> tuple[object, ...]:
    """Every field of a state, history included, to detect mutation."""
    return (state.cells, state.to_move, state.flags, state.counters, state.hands, state.key,
            state.history)


def check_state(game: Game, state: State, where: str) -> None:
    """Key, side to move and the position round trip of one state."""
    assert 0 <= state.to_move < game.players or game.is_chance(state), f"{where}: to_move {state.to_move}"
    assert game.is_chance(state) == (game.chance and state.to_move == game.chance_player), where
    assert game.mover_name(state) == ("chance" if game.is_chance(state) else game.player_names[state.to_move])
    assert len(state.cells) == game.topology.size, where
    assert state.key == game.recomputed_key(state), f"{where}: incremental key differs from recomputed"
    text = game.format_position(state)
    assert isinstance(text, str) and text, where
    again = game.parse_position(text)
    assert again == state, f"{where}: {text!r} reads back to a different state"
    assert game.format_position(again) == text, f"{where}: {text!r} is not written back the same"


def check_outcome(game: Game, outcome: Outcome, where: str) -> None:
    """An outcome has a score per player and a reason."""
    assert isinstance(outcome, Outcome), where
    assert len(outcome.scores) == game.players, f"{where}: scores {outcome.scores}"
    assert all(isinstance(s, int | float) for s in outcome.scores), where
    assert isinstance(outcome.reason, str) and outcome.reason, f"{where}: outcome without a reason"


def check_notation(game: Game, state: State, sample: list[Move], complete: bool, aliases: bool,
                   where: str) -> None:
    """Each sampled move (and, with ``aliases``, each of its aliases) parses back; when the
    sample is ``complete`` (every legal move), no two share a notation."""
    notations = [game.format_move(state, m) for m in sample]
    assert all(isinstance(n, str) and n and n == n.strip() for n in notations), f"{where}: {notations}"
    if complete and len(set(notations)) != len(notations):
        dupes = sorted({n for n in notations if notations.count(n) > 1})
        pytest.fail(f"{where}: several legal moves are written {dupes}")
    for move, text in zip(sample, notations):
        assert game.parse_move(state, text) == move, f"{where}: {text!r} parses to another move"
        if aliases:
            for alias in game.move_aliases(state, move):
                assert game.parse_move(state, alias) == move, f"{where}: alias {alias!r} of {text!r}"


def check_chance(game: Game, state: State, moves: list[Move], where: str) -> list[float]:
    """At a chance node: the outcomes are the legal moves, each with a positive probability,
    summing to 1; their probabilities, in the order of ``moves``."""
    outcomes = game.chance_outcomes(state)
    assert [m for m, _ in outcomes] == moves, f"{where}: chance outcomes are not the legal moves"
    probabilities = [p for _, p in outcomes]
    assert all(p > 0 for p in probabilities), f"{where}: {probabilities}"
    assert sum(probabilities) == pytest.approx(1.0), f"{where}: probabilities sum to {sum(probabilities)}"
    return probabilities


def playout(game: Game, rng: random.Random, ply_cap: int) -> set[int]:
    """Play random legal moves (chance's by their probabilities), checking the contract at
    every step; the set of ``to_move`` values met."""
    state = game.initial_state()
    played: list[str] = []
    movers: set[int] = set()
    for ply in range(ply_cap + 1):
        where = f"{game.id} after {' '.join(played) or 'the start'} (ply {ply})"
        check_state(game, state, where)
        moves = game.legal_moves(state)
        assert all(isinstance(m, Move) and all(len(a) == 5 for a in m) for m in moves), where
        outcome = game.outcome(state)
        if not moves:
            assert outcome is not None, f"{where}: no legal move but no outcome"
        if outcome is not None:
            assert moves == [], f"{where}: the game is over ({outcome.reason}) but {len(moves)} moves are legal"
            check_outcome(game, outcome, where)
            break
        if ply == ply_cap:
            break
        movers.add(state.to_move)
        if game.is_chance(state):
            move = rng.choices(moves, check_chance(game, state, moves, where))[0]
        else:
            move = rng.choice(moves)
        if ply % FULL_CHECK_EVERY == 0:  # every legal move, with its aliases
            check_notation(game, state, moves, True, True, where)
            assert game.legal_moves(state) == moves, f"{where}: legal_moves is not deterministic"
        else:  # the move played (with its aliases) and one other
            check_notation(game, state, [move], False, True, where)
            check_notation(game, state, [rng.choice(moves)], False, False, where)
        before = snapshot(state)
        played.append(game.format_move(state, move))
        after = game.play(state, move)
        assert snapshot(state) == before, f"{where}: play({played[-1]}) mutated its input"
        assert isinstance(after, State), where
        state = after
    # bad input at the last state reached changes nothing either
    before = snapshot(state)
    for text in ("zz99", ""):
        with pytest.raises((InvalidMoveError, IllegalMoveError)):
            game.play_text(state, text)
    assert snapshot(state) == before
    return movers


@pytest.fixture(params=GAME_IDS)
def game(request: pytest.FixtureRequest) -> Game:
    """Each registered game (built by the registry; a missing module fails the test)."""
    return get_game(request.param)


# -- declaration and setups ---------------------------------------------------------------------

@pytest.mark.parametrize("game_id", GAME_IDS)
def test_declaration(game_id: str) -> None:
    game = get_game(game_id)
    assert isinstance(game, Game)
    assert game.id == game_id
    for attr in ("name", "family", "rules"):
        value = getattr(game, attr)
        assert isinstance(value, str) and value.strip(), f"{game_id}: {attr} is empty"
    assert game.players == len(game.player_names) >= 1
    assert len(set(game.player_names)) == game.players, f"{game_id}: player names repeat"
    assert game.setups, f"{game_id}: no named setup"
    assert game.topology.size > 0


def test_every_setup_loads(game: Game) -> None:
    for name in game.setups:
        state = game.initial_state(name)
        check_state(game, state, f"{game.id} setup {name!r}")
        assert game.legal_moves(state) or game.outcome(state) is not None
    assert game.initial_state() == game.initial_state(next(iter(game.setups)))
    with pytest.raises(PositionError):
        game.initial_state("no such setup")


def test_square_names(game: Game) -> None:
    names = [game.square_name(p) for p in range(game.topology.size)]
    assert all(isinstance(n, str) and n for n in names)
    assert len(set(names)) == len(names), f"{game.id}: two positions share a name"


# -- random playouts ----------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=PLAYOUTS, phases=PLAYOUT_PHASES)
@given(rng=st.randoms(use_true_random=False))
def test_random_playouts(game_id: str, rng: random.Random) -> None:
    playout(get_game(game_id), rng, PLY_CAP)


@pytest.mark.parametrize("game_id", [g for g in GAME_IDS if get_game(g).players > 2 or get_game(g).chance])
def test_every_player_and_chance_get_moves(game_id: str) -> None:
    """In games of more than two players or with chance, random playouts reach every
    player's turn and, with chance, chance nodes (turns are not silently two-player)."""
    game = get_game(game_id)
    movers: set[int] = set()
    for seed in range(4):
        movers |= playout(game, random.Random(seed), PLY_CAP)
    expected = set(range(game.players)) | ({game.chance_player} if game.chance else set())
    assert movers == expected, f"{game_id}: moves by {sorted(movers)}"


@pytest.mark.parametrize("game_id", [g for g in GAME_IDS if get_game(g).chance])
def test_every_chance_outcome_is_written_and_plays(game_id: str) -> None:
    """At the chance nodes of a random game, every outcome is written, parses back and
    plays to a state that keeps the contract."""
    game = get_game(game_id)
    rng = random.Random(7)
    state = game.initial_state()
    nodes = 0
    while game.outcome(state) is None and nodes < 20:
        moves = game.legal_moves(state)
        if game.is_chance(state):
            nodes += 1
            check_chance(game, state, moves, game_id)
            for move in moves:
                text = game.format_move(state, move)
                assert game.parse_move(state, text) == move
                check_state(game, game.play(state, move), f"{game_id} after {text}")
        state = game.play(state, rng.choice(moves))
    assert nodes, f"{game_id}: no chance node in a random game"


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=40, phases=PLAYOUT_PHASES)
@given(rng=st.randoms(use_true_random=False))
def test_long_random_playouts(game_id: str, rng: random.Random) -> None:
    playout(get_game(game_id), rng, 2000)


# -- bad input ----------------------------------------------------------------------------------

def test_garbage_positions_are_refused(game: Game) -> None:
    start = game.format_position(game.initial_state())
    near_misses = ["?" + start[1:], start + "/?", start.replace(" ", " ? ", 1)]
    for text in GARBAGE_POSITIONS + [t for t in near_misses if t != start]:
        with pytest.raises(PositionError) as info:
            game.parse_position(text)
        assert str(info.value), f"{game.id}: empty error message for {text!r}"


def mutations(start: str) -> st.SearchStrategy[str]:
    """Texts one to three edits away from ``start`` (inserted, deleted, replaced characters)."""
    alphabet = sorted(set(start) | set("0123456789/?:,.-+ wbWBxXoO"))

    @st.composite
    def mutate(draw: st.DrawFn) -> str:
        text = list(start)
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.integers(0, len(text)))
            op = draw(st.sampled_from(["insert", "delete", "replace"]))
            ch = draw(st.sampled_from(alphabet))
            if op == "insert" or not text or i == len(text):
                text.insert(i, ch)
            elif op == "delete":
                del text[i]
            else:
                text[i] = ch
        return "".join(text)

    return mutate()


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=60)
@given(data=st.data())
def test_position_reader_fuzz(game_id: str, data: st.DataObject) -> None:
    """Any text is either refused with PositionError or read as a state that round-trips."""
    game = get_game(game_id)
    start = game.format_position(game.initial_state())
    text = data.draw(st.one_of(mutations(start), st.text(max_size=40)), label="text")
    try:
        state = game.parse_position(text)
    except PositionError:
        return
    written = game.format_position(state)
    again = game.parse_position(written)
    assert again == state, f"{game.id}: {text!r} read, written as {written!r}, reads back differently"
    assert game.format_position(again) == written


def test_garbage_moves_are_refused(game: Game) -> None:
    state = game.initial_state()
    before = snapshot(state)
    for text in GARBAGE_MOVES:
        with pytest.raises((InvalidMoveError, IllegalMoveError)) as info:
            game.parse_move(state, text)
        assert isinstance(info.value, MyriadError) and isinstance(info.value, ValueError)
        assert str(info.value), f"{game.id}: empty error message for {text!r}"
        with pytest.raises((InvalidMoveError, IllegalMoveError)):
            game.play_text(state, text)
    assert snapshot(state) == before


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=60)
@given(data=st.data())
def test_move_reader_fuzz(game_id: str, data: st.DataObject) -> None:
    """Any text is a legal move or raises InvalidMoveError / IllegalMoveError."""
    game = get_game(game_id)
    state = game.initial_state()
    moves = game.legal_moves(state)
    notations = [game.format_move(state, m) for m in moves]
    alphabet = sorted(set("".join(notations)) | set("0123456789abcdefghxX-:+=#@*/ "))
    near = st.tuples(st.sampled_from(notations), st.text(alphabet, max_size=3)).map("".join)
    text = data.draw(st.one_of(near, st.text(alphabet, max_size=8), st.text(max_size=8)), label="text")
    before = snapshot(state)
    try:
        move = game.parse_move(state, text)
    except (InvalidMoveError, IllegalMoveError):
        assert snapshot(state) == before
        return
    assert move in moves
    assert snapshot(state) == before
