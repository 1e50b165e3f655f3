"""ISMCTS (ai/ismcts.py): every game with hidden information or chance in the registry,
chance drawn inside the tree, a tree within its ``hash=`` budget, and a tree kept between
moves where the observation is the whole state (BanQi)."""

from __future__ import annotations

import random

from myriad.ai import make_bot
from myriad.ai.bot import Limits
from myriad.ai.ismcts import ISMCTS, _Node
from myriad.core.game import Game
from myriad.core.state import State
from myriad.games import game_ids, get_game

#: Every game ISMCTS is for: hidden information or chance.
GAMES = [gid for gid in game_ids() if get_game(gid).hidden_information or get_game(gid).chance]


def _played(game: Game, plies: int, seed: int = 3) -> State:
    """A state after ``plies`` random plies (chance drawn too), with a player to move."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        if game.outcome(state) is not None:
            break
        state = game.play(state, rng.choice(game.legal_moves(state)))
    while game.is_chance(state):
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return state


def _nodes(root: _Node) -> list[_Node]:
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children.values())
        stack.extend((node.seen or {}).values())
    return out


def test_ismcts_plays_every_hidden_or_chance_game_from_the_observation() -> None:
    assert {"banqi", "foxhunt", "darkchess", "generals"} <= set(GAMES)
    for gid in GAMES:
        game = get_game(gid)
        assert ISMCTS.plays(game), gid
        state = _played(game, 6)
        if game.outcome(state) is not None:
            continue
        seen = game.observe(state, state.to_move)
        decision = make_bot("ismcts:playouts=60,seed=1", game).choose(seen)
        assert decision.move in game.legal_moves(state), gid
        assert decision.info["nodes"] == 60 or len(game.legal_moves(state)) == 1


def test_chance_inside_the_tree_is_drawn_from_the_games_outcomes() -> None:
    """In BanQi every flip is followed by a chance node: its children are pieces the flip
    may turn up (chance_outcomes), each credited to nobody; the flips' own children are
    those outcomes only."""
    game = get_game("banqi")
    state = _played(game, 4)
    bot = make_bot("ismcts:playouts=400,seed=2", game)
    assert isinstance(bot, ISMCTS)
    captured: list[_Node] = []
    original = bot._iterate

    def keep_root(root: _Node, whole: State) -> None:
        if not captured:
            captured.append(root)
        original(root, whole)

    bot._iterate = keep_root  # type: ignore[method-assign]
    bot.choose(state)
    root = captured[0]
    flips = [ch for ch in root.children.values() if game.format_move(state, ch.move).isalnum()  # type: ignore[arg-type]
             and len(game.format_move(state, ch.move)) == 2]  # type: ignore[arg-type]
    assert flips and any(f.children for f in flips)
    for flip in flips:
        after = game.play(state, flip.move)  # type: ignore[arg-type]
        assert game.is_chance(after)
        outcomes = {m for m, p in game.chance_outcomes(after) if p > 0}
        assert set(flip.children) <= outcomes
        assert all(ch.mover == game.chance_player and ch.wins == 0.0 for ch in flip.children.values())


def test_the_tree_stays_within_a_tiny_hash_in_every_game() -> None:
    filled = []
    for gid in GAMES:
        game = get_game(gid)
        bot = make_bot("ismcts:playouts=600,seed=1,hash=0.0625", game)
        assert isinstance(bot, ISMCTS)
        state = _played(game, 4)
        if game.outcome(state) is not None or len(game.legal_moves(state)) < 2:
            continue
        decision = bot.choose(game.observe(state, state.to_move))
        assert bot.max_nodes < 600  # more playouts than nodes allowed
        assert decision.info["tree"] <= bot.max_nodes, gid
        assert decision.info["nodes"] == 600
        if decision.info["tree"] == bot.max_nodes:
            filled.append(gid)
    assert len(filled) >= len(GAMES) // 2, filled  # the cap bit, not the search's size


def test_the_tree_is_kept_between_moves_where_nothing_is_hidden() -> None:
    """BanQi: after the bot's move and the opponent's step, the next search starts from the
    subtree already grown; in dark chess (hidden) each search starts afresh."""
    game = get_game("banqi")
    # red chariot b2 and cannon d1 against black horse a8 and soldier d8, no piece face down
    captured = list("Kk" + "GGgg" + "MMmm" + "RRrr" + "NNnn" + "CCcc" + "PPPPPppppp")
    for letter in "RCnp":
        captured.remove(letter)
    state = game.parse_position(f"n2p/4/4/4/4/4/1R2/3C 1 r {''.join(captured)} 0")
    bot = make_bot("ismcts:time=0.3,seed=1", game)
    first = bot.choose(state)
    assert first.info["kept"] == 0
    after = game.play(state, first.move)
    reply = next(m for m in game.legal_moves(after))
    second = bot.choose(game.play(after, reply))
    assert second.info["kept"] > 1
    dark = get_game("darkchess")
    hidden_bot = make_bot("ismcts:time=0.1,seed=1", dark)
    start = dark.initial_state()
    hidden_bot.choose(dark.observe(start, 0))
    again = hidden_bot.choose(dark.observe(start, 0), Limits())
    assert again.info["kept"] == 0
