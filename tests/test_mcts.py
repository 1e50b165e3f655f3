"""MCTS on every turn structure: each node credited to the player who chose its move,
share vectors for any number of players, chance outcomes drawn by their probabilities."""

from __future__ import annotations

import pytest

from myriad.ai import BOTS, BotSpecError, make_bot
from myriad.ai.mcts import MCTS, Node
from myriad.core.game import Game
from myriad.games import game_ids, get_game
from turn_games import FACES, Claim, DiceRace


def nodes(root: Node) -> list[Node]:
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(node.children)
    return found


@pytest.mark.parametrize("game", [get_game("kalah"), Claim(3), Claim(4, cells=9), DiceRace(2), DiceRace(3)],
                         ids=lambda g: g.id)
def test_each_node_is_credited_to_the_player_who_chose_its_move(game: Game) -> None:
    bot = make_bot("mcts:playouts=600,seed=3,engine=reference", game)
    assert isinstance(bot, MCTS)
    state = game.initial_state()
    moved_again = 0
    for _ in range(3):  # the tree kept between moves too
        while game.is_chance(state):
            state = game.play(state, game.chance_outcomes(state)[-1][0])
        state = game.play(state, bot.choose(state).move)
        root = bot.discarded[-1]
        for node in nodes(root):
            for child in node.children:
                assert child.mover == node.state.to_move
                moved_again += child.state.to_move in (child.mover, node.mover)  # (again, or after chance)
                if child.mover < game.players:
                    assert 0 <= child.wins <= child.visits
    assert moved_again  # every one of these games has extra turns


def test_chance_outcomes_are_drawn_by_their_probabilities() -> None:
    game = DiceRace(2, target=30)
    state = game.parse_position("3 4 0 0")
    roll = game.play(state, game.ROLL)  # the only move, then the die
    bot = make_bot("mcts:playouts=4000,seed=1,engine=reference", game)
    bot.choose(game.play(roll, game.chance_outcomes(roll)[1][0]))  # a 2: the roller again, now with a choice
    chance = [node for node in nodes(bot.discarded[-1]) if node.chances is not None and node.visits > 1000]
    assert chance
    for node in chance:
        shares = {game.format_move(node.state, child.move): child.visits / node.visits for child in node.children}
        for face, p in FACES:
            assert shares[str(face)] == pytest.approx(p, abs=0.05)


def test_three_players_the_move_that_wins_is_chosen() -> None:
    """Blue (to move) wins by claiming c5, next to its own c4, and then c6 on the extra
    turn; claiming c6 first gives the turn to red, who takes c5 and wins."""
    game = Claim(3)
    state = game.parse_position("RRGGB.. 2")
    decision = make_bot("mcts:playouts=300,seed=2", game).choose(state)
    assert game.format_move(state, decision.move) == "c5"
    assert decision.info["score"] > 0.9


def test_mcts_plays_every_registered_game() -> None:
    for game_id in game_ids():
        game = get_game(game_id)
        state = game.initial_state()
        while game.is_chance(state):
            state = game.play(state, game.chance_outcomes(state)[0][0])
        # (hidden information: mcts refuses; ismcts searches information sets, infogain the
        # one-player hidden games with chance)
        spec = next(s for s in ("mcts:playouts=60,seed=1", "ismcts:playouts=60,seed=1", "infogain:samples=8,seed=1")
                    if BOTS[s.partition(":")[0]].plays(game))
        decision = make_bot(spec, game).choose(state)
        assert decision.move in game.legal_moves(state)


@pytest.mark.parametrize("option", ["playout=x", "playout=1", "playout"])
def test_a_bad_playout_is_refused(option: str) -> None:
    with pytest.raises(BotSpecError, match="playout"):
        make_bot(f"mcts:{option}", get_game("kalah"))
