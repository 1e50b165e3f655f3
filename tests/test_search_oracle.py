"""Searchers against a literal oracle, on every registered game they apply to.

The oracle is minimax written in the most literal way: every node keeps a value per
player (no negation anywhere); the player to move takes the child whose value *for that
player* is largest, whoever moves there, so extra turns (Kalah), passes and any turn order
are scored right by construction.  Leaves use the evaluation the bots use, finished games
the search's terminal scoring (:func:`myriad.ai.alphabeta.terminal_score`, wins by
distance).  Nodes expand the moves the game declares worth searching
(``candidate_moves``), as the searchers do.

Positions come from seeded random games, preferring those where a legal move keeps the
side to move (an extra turn) or passes, when the game has any.  To add a searcher, append
a :class:`Case` to :data:`CASES`: its spec, the games it applies to and its literal
oracle (for more players, :func:`literal_values` already gives every player's value).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from myriad.ai import make_bot
from myriad.ai.alphabeta import AlphaBeta, terminal_score
from myriad.ai.bot import Limits
from myriad.core.game import Game
from myriad.core.state import State
from myriad.games import game_ids, get_game

#: Off: everything that makes the search more than a depth-limited minimax with pruning.
PLAIN = "quiescence=0,checks=0,threats=0,moves=0,root=0"


def literal_values(game: Game, state: State, depth: int, ply: int = 0) -> tuple[int, ...]:
    """Every player's value of ``state`` searched ``depth`` plies: the player to move
    takes the child best for that player."""
    repeat = game.repetition_outcome(state) if ply and state.key in state.history else None
    if repeat is not None:  # a repetition: as the game's rule scores it (None: searched on)
        return tuple(terminal_score(repeat, p, ply) for p in range(game.players))
    outcome = game.outcome(state)
    if outcome is not None:
        return tuple(terminal_score(outcome, player, ply) for player in range(game.players))
    if depth == 0:
        return tuple(int(game.evaluate_for(state, player)) for player in range(game.players))
    mover = state.to_move
    best: tuple[int, ...] | None = None
    for move in game.candidate_moves(state, game.legal_moves(state)):
        values = literal_values(game, game.play(state, move), depth - 1, ply + 1)
        if best is None or values[mover] > best[mover]:
            best = values
    assert best is not None, f"{game.id}: a position that is not over has no move"
    return best


def literal_minimax(game: Game, state: State, depth: int) -> int:
    """The value of ``state`` for the player to move."""
    return literal_values(game, state, depth)[state.to_move]


def alphabeta_value(game: Game, spec: str, state: State, depth: int) -> int:
    """The score alpha-beta reports for ``state`` searched to ``depth``."""
    bot = make_bot(spec, game)
    assert isinstance(bot, AlphaBeta)
    decision = bot.analyse(state, Limits(depth=depth))
    return int(decision.info["score"])


def two_players_no_chance(game: Game) -> bool:
    return game.players == 2 and not game.chance


@dataclass(frozen=True)
class Case:
    """A searcher checked against an oracle: its spec, the games it applies to, its value
    of a position at a depth, and the oracle's."""

    spec: str
    applies: Callable[[Game], bool]
    value: Callable[[Game, str, State, int], float]
    oracle: Callable[[Game, State, int], float]


CASES = [Case(f"alphabeta:algo={algo},{PLAIN}", two_players_no_chance, alphabeta_value, literal_minimax)
         for algo in ("negamax", "pvs", "mtdf")]


def keeps_turn_or_passes(game: Game, state: State) -> bool:
    """Whether some legal move of ``state`` keeps the side to move, or is a pass."""
    for move in game.legal_moves(state):
        if not move or game.play(state, move).to_move == state.to_move:
            return True
    return False


#: Random games played for positions, and their plies at most.
GAMES, PLIES = 4, 160


def positions(game: Game, count: int, seed: int) -> list[State]:
    """``count`` positions from seeded random games, those where a move keeps the side to
    move or passes first (when there are any), read back from their text (so no history
    from before them, where the literal oracle and the table would disagree on
    repetitions)."""
    rng = random.Random(seed)
    special: list[State] = []
    plain: list[State] = []
    for _ in range(GAMES):
        state = game.initial_state()
        for _ in range(PLIES):
            moves = game.legal_moves(state)
            if game.outcome(state) is not None or not moves:
                break
            (special if keeps_turn_or_passes(game, state) else plain).append(state)
            state = game.play(state, rng.choice(moves))
        if len(special) >= 4 * count:
            break
    pool = special if len(special) >= count else special + plain
    picked = rng.sample(pool, min(count, len(pool)))
    return [game.parse_position(game.format_position(state)) for state in picked]


#: (depth, positions per game): few at depth 3 in the default run, more under -m slow.
DEFAULT = [(1, 3), (2, 2), (3, 1)]
SLOW = [(1, 12), (2, 8), (3, 4)]


#: The oracle's values already worked out: (oracle, game, position, depth) -> value.
ORACLE_VALUES: dict[tuple[object, str, str, int], float] = {}


def check(case: Case, game_id: str, plan: list[tuple[int, int]], seed: int) -> None:
    game = get_game(game_id).full_view()  # (hidden games: the whole states honest bots search)
    if not case.applies(game):
        pytest.skip(f"{case.spec} does not apply to {game_id}")
    for depth, count in plan:
        for state in positions(game, count, seed + depth):
            key = (case.oracle, game_id, game.format_position(state), depth)
            if key not in ORACLE_VALUES:  # (the same for every algorithm)
                ORACLE_VALUES[key] = case.oracle(game, state, depth)
            expected = ORACLE_VALUES[key]
            got = case.value(game, case.spec, state, depth)
            assert got == expected, (f"{game_id} {game.format_position(state)!r} depth {depth}: "
                                     f"{case.spec} gives {got}, the literal minimax {expected}")


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.spec.split(",")[0])
def test_search_equals_the_literal_minimax(case: Case, game_id: str) -> None:
    check(case, game_id, DEFAULT, seed=16)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.spec.split(",")[0])
def test_search_equals_the_literal_minimax_on_more_positions(case: Case, game_id: str) -> None:
    check(case, game_id, SLOW, seed=1600)


def test_kalah_positions_include_extra_turns() -> None:
    """The positions searched in Kalah offer extra turns (the case negamax got wrong)."""
    game = get_game("kalah")
    found = positions(game, 3, 16 + 1)
    assert found and all(keeps_turn_or_passes(game, state) for state in found)
