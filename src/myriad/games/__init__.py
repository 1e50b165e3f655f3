"""The game registry: every game by id, loaded on first use."""

from __future__ import annotations

import importlib
import os
from functools import cache

from myriad.core.errors import GameDefinitionError, UnknownGameError
from myriad.core.game import Game

#: game id -> (module, factory name, keyword arguments).  Variants are parameters of
#: their family's factory; the chess family's are variant files (myriad/games/variants).
REGISTRY: dict[str, tuple[str, str, dict[str, object]]] = {
    "tictactoe": ("myriad.games.inarow", "tictactoe", {}),
    "connect4": ("myriad.games.inarow", "connect_four", {}),
    "gomoku": ("myriad.games.inarow", "gomoku", {}),
    "renju": ("myriad.games.inarow", "renju", {}),
    "othello": ("myriad.games.othello", "othello", {"size": 8}),
    "othello4": ("myriad.games.othello", "othello", {"size": 4}),
    "othello6": ("myriad.games.othello", "othello", {"size": 6}),
    "othello10": ("myriad.games.othello", "othello", {"size": 10}),
    "chess": ("myriad.games.variant_file", "shipped", {"variant": "chess"}),
    "shatranj": ("myriad.games.variant_file", "shipped", {"variant": "shatranj"}),
    "makruk": ("myriad.games.variant_file", "shipped", {"variant": "makruk"}),
    "xiangqi": ("myriad.games.variant_file", "shipped", {"variant": "xiangqi"}),
    "shogi": ("myriad.games.variant_file", "shipped", {"variant": "shogi"}),
    "minishogi": ("myriad.games.variant_file", "shipped", {"variant": "minishogi"}),
    "crazyhouse": ("myriad.games.variant_file", "shipped", {"variant": "crazyhouse"}),
    "sittuyin": ("myriad.games.variant_file", "shipped", {"variant": "sittuyin"}),
    "janggi": ("myriad.games.variant_file", "shipped", {"variant": "janggi"}),
    "darkchess": ("myriad.games.variant_file", "shipped", {"variant": "darkchess"}),
    "darkxiangqi": ("myriad.games.variant_file", "shipped", {"variant": "darkxiangqi"}),
    "darkshatranj": ("myriad.games.variant_file", "shipped", {"variant": "darkshatranj"}),
    "checkers": ("myriad.games.draughts", "english", {}),
    "russian": ("myriad.games.draughts", "russian", {}),
    "brazilian": ("myriad.games.draughts", "brazilian", {}),
    "international": ("myriad.games.draughts", "international", {}),
    "frisian": ("myriad.games.frisian", "frisian", {}),
    "turkish": ("myriad.games.turkish", "turkish", {}),
    "lasca": ("myriad.games.columns", "lasca", {}),
    "bashni": ("myriad.games.columns", "bashni", {}),
    "kalah": ("myriad.games.kalah", "kalah", {}),
    "oware": ("myriad.games.oware", "oware", {}),
    "oware_grandslam": ("myriad.games.oware", "oware", {"grand_slam": "allowed"}),
    "toguz": ("myriad.games.toguz", "toguz", {}),
    "breakthrough": ("myriad.games.breakthrough", "breakthrough", {}),
    "pig": ("myriad.games.pig", "pig", {"target": 100}),
    "pig20": ("myriad.games.pig", "pig", {"target": 20}),
    "foxhunt": ("myriad.games.foxhunt", "foxhunt", {"size": 10, "foxes": 8}),
    "foxhunt6": ("myriad.games.foxhunt", "foxhunt", {"size": 6, "foxes": 4}),
    "rolit": ("myriad.games.rolit", "rolit", {"players": 4}),
    "rolit3": ("myriad.games.rolit", "rolit", {"players": 3}),
    "rolit2": ("myriad.games.rolit", "rolit", {"players": 2}),
    "brandubh": ("myriad.games.tafl", "brandubh", {}),
    "tablut": ("myriad.games.tafl", "tablut", {}),
    "hnefatafl": ("myriad.games.tafl", "hnefatafl", {}),
    "foxgeese": ("myriad.games.hunt", "fox_and_geese", {"geese": 13}),
    "foxgeese17": ("myriad.games.hunt", "fox_and_geese", {"geese": 17}),
    "baghchal": ("myriad.games.hunt", "bagh_chal", {}),
    "jungle": ("myriad.games.jungle", "jungle", {}),
    "go9": ("myriad.games.go", "go", {"size": 9}),
    "go13": ("myriad.games.go", "go", {"size": 13}),
    "go19": ("myriad.games.go", "go", {"size": 19}),
    "atarigo": ("myriad.games.go", "atari_go", {"size": 9}),
    "hex": ("myriad.games.hex", "hex_game", {"size": 11}),
    "hex7": ("myriad.games.hex", "hex_game", {"size": 7}),
    "hex9": ("myriad.games.hex", "hex_game", {"size": 9}),
    "hex13": ("myriad.games.hex", "hex_game", {"size": 13}),
    "hex_noswap": ("myriad.games.hex", "hex_game", {"size": 11, "swap": False}),
    "generals": ("myriad.games.generals", "generals", {}),
    "banqi": ("myriad.games.banqi", "banqi", {"rules": "taiwan"}),
    "banqi_hk": ("myriad.games.banqi", "banqi", {"rules": "hongkong"}),
}


#: Games registered while the process runs (variant files a user loads), by id.
REGISTERED: dict[str, Game] = {}


def register(*games: Game) -> None:
    """Add games (e.g. those of ``myriad.games.variant_file.load_variants``) to the registry
    of this process.  Refuses (``GameDefinitionError``), registering none of them, when an
    id is already taken or given twice."""
    ids = [g.id for g in games]
    for gid in ids:
        if gid in REGISTRY or gid in REGISTERED or ids.count(gid) > 1:
            raise GameDefinitionError(f"a game with id {gid!r} is already registered")
    REGISTERED.update((g.id, g) for g in games)


def load_variant_file(path: str | os.PathLike[str]) -> list[Game]:
    """Read a user's variant file (TOML) and register its games, all or none; its games.
    Raises ``GameDefinitionError`` (``file:line: field: message``: a mistake, a limit
    exceeded, an id already taken) or ``FileError`` (cannot be read); then nothing is
    registered.  See ``myriad.games.user_variants`` for the limits."""
    from myriad.games.user_variants import load_variant_file as load

    return load(path)


def game_ids() -> list[str]:
    """Every registered game id, in registry order."""
    return list(REGISTRY) + list(REGISTERED)


@cache
def get_game(game_id: str) -> Game:
    """The game registered as ``game_id`` (built once, then shared: games are immutable)."""
    if game_id in REGISTERED:
        return REGISTERED[game_id]
    try:
        module_name, factory, kwargs = REGISTRY[game_id]
    except KeyError:
        raise UnknownGameError(f"unknown game {game_id!r}; known games: {', '.join(game_ids())}") from None
    game: Game = getattr(importlib.import_module(module_name), factory)(**kwargs)
    game.id = game_id
    return game


def all_games() -> list[Game]:
    """Every registered game."""
    return [get_game(g) for g in game_ids()]
