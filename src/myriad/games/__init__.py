"""The game registry: every game by id, loaded on first use."""

from __future__ import annotations

import importlib
from functools import cache

from myriad.core.errors import UnknownGameError
from myriad.core.game import Game

#: game id -> (module, factory name, keyword arguments).  Variants are parameters of
#: their family's factory.
REGISTRY: dict[str, tuple[str, str, dict[str, object]]] = {
    "tictactoe": ("myriad.games.inarow", "tictactoe", {}),
    "connect4": ("myriad.games.inarow", "connect_four", {}),
    "gomoku": ("myriad.games.inarow", "gomoku", {}),
    "othello": ("myriad.games.othello", "othello", {"size": 8}),
    "othello4": ("myriad.games.othello", "othello", {"size": 4}),
    "othello6": ("myriad.games.othello", "othello", {"size": 6}),
    "othello10": ("myriad.games.othello", "othello", {"size": 10}),
    "chess": ("myriad.games.chess", "chess", {}),
    "shatranj": ("myriad.games.chess", "shatranj", {}),
    "makruk": ("myriad.games.chess", "makruk", {}),
    "checkers": ("myriad.games.draughts", "english", {}),
    "russian": ("myriad.games.draughts", "russian", {}),
    "brazilian": ("myriad.games.draughts", "brazilian", {}),
    "international": ("myriad.games.draughts", "international", {}),
    "kalah": ("myriad.games.kalah", "kalah", {}),
    "breakthrough": ("myriad.games.breakthrough", "breakthrough", {}),
    "pig": ("myriad.games.pig", "pig", {"target": 100}),
    "pig20": ("myriad.games.pig", "pig", {"target": 20}),
    "rolit": ("myriad.games.rolit", "rolit", {"players": 4}),
    "rolit3": ("myriad.games.rolit", "rolit", {"players": 3}),
    "rolit2": ("myriad.games.rolit", "rolit", {"players": 2}),
}


def game_ids() -> list[str]:
    """Every registered game id, in registry order."""
    return list(REGISTRY)


@cache
def get_game(game_id: str) -> Game:
    """The game registered as ``game_id`` (built once, then shared: games are immutable)."""
    try:
        module_name, factory, kwargs = REGISTRY[game_id]
    except KeyError:
        raise UnknownGameError(f"unknown game {game_id!r}; known games: {', '.join(REGISTRY)}") from None
    game: Game = getattr(importlib.import_module(module_name), factory)(**kwargs)
    game.id = game_id
    return game


def all_games() -> list[Game]:
    """Every registered game."""
    return [get_game(g) for g in REGISTRY]
