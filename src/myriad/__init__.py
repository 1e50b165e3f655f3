"""Myriad: a general board-game engine.

A game is a declaration compiled into integer tables; states are immutable; moves are
atomic lists of actions.  ``legal_moves``, ``play`` and ``outcome`` are the whole loop::

    from myriad import get_game
    game = get_game("chess")
    state = game.initial_state()
    state = game.play(state, game.parse_move(state, "e2e4"))
"""

from myriad.compiled import warn_if_stale
from myriad.core.errors import (
    GameDefinitionError,
    IllegalMoveError,
    InvalidMoveError,
    MyriadError,
    PositionError,
    UnknownGameError,
)
from myriad.core.game import Game, Outcome
from myriad.core.move import Action, Move, NamedMove
from myriad.core.state import State
from myriad.games import all_games, get_game, load_variant_file

warn_if_stale()

__all__ = [
    "Action", "Game", "GameDefinitionError", "IllegalMoveError", "InvalidMoveError", "Move", "NamedMove",
    "MyriadError", "Outcome", "PositionError", "State", "UnknownGameError", "all_games",
    "get_game", "load_variant_file",
]
