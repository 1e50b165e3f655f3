"""Hidden information: the observation contract of every game with hidden information in
the registry, the honesty of its bots, and the rules of dark chess.

* the mover's legal moves in its observation are exactly those of the whole state;
* an observation never shows a fogged cell's content, reads back from its text, and a
  whole state drawn behind it (``determinize``) observes as the same observation;
* at a finished position there is no legal move, and the observation reveals everything;
* honesty: for a fixed observation and seed, every whole state consistent with it (drawn
  by ``determinize`` with other generators, and built by swapping unseen enemy pieces)
  gets the same move from ``determinize``, ``ismcts``, ``heuristic`` and ``random``.
"""

from __future__ import annotations

import random

import pytest

from myriad.ai import BOTS, BotSpecError, Limits, make_bot, parse_spec
from myriad.core.errors import GameDefinitionError
from myriad.core.game import Game
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.games.variant_file import load_variants

HIDDEN = [gid for gid in game_ids() if get_game(gid).hidden_information]
#: Bots whose answer depends on the observation and the seed only (no clock).
HONEST = ("determinize:depth=1,samples=3,seed=5", "ismcts:playouts=40,seed=5", "heuristic:seed=5", "random:seed=5",
          "infogain:samples=6,seed=5")


def test_the_dark_games_are_registered() -> None:
    assert {"darkchess", "darkxiangqi", "darkshatranj"} <= set(HIDDEN)


def positions(game: Game, games: int, seed: int) -> list[State]:
    """States of random games (unfinished), every third ply."""
    rng, out = random.Random(seed), []
    for _ in range(games):
        state = game.initial_state()
        ply = 0
        while game.outcome(state) is None and ply < 200:
            if ply % 3 == 0:
                out.append(state)
            state = game.play(state, rng.choice(game.legal_moves(state)))
            ply += 1
    return out


def fog_of(game: Game, player: int) -> int:
    return game.fog_codes[player]  # type: ignore[attr-defined]


@pytest.mark.parametrize("gid", HIDDEN)
def test_observation_contract(gid: str) -> None:
    game = get_game(gid)
    rng = random.Random(3)
    checked = fogged = 0
    for state in positions(game, 4, seed=len(gid)):
        for player in range(game.players):
            seen = game.observe(state, player)
            marker = fog_of(game, player)
            for truth, shown in zip(state.cells, seen.cells):
                assert shown == truth or shown == marker  # never anything but the truth or fog
            fogged += seen.cells.count(marker)
            assert game.parse_position(game.format_position(seen)) == seen
            if player != state.to_move:
                continue
            assert game.legal_moves(seen) == game.legal_moves(state)
            for _ in range(2):
                whole = game.determinize(seen, player, rng)
                assert marker not in whole.cells
                assert game.observe(whole, player) == seen
            checked += 1
    assert checked > 30 and fogged > 100  # the fog hid something


@pytest.mark.parametrize("gid", HIDDEN)
def test_finished_games_have_no_moves_and_reveal_all(gid: str) -> None:
    game = get_game(gid)
    rng = random.Random(11)
    state = game.initial_state()
    while game.outcome(state) is None:
        state = game.play(state, rng.choice(game.legal_moves(state)))
    assert game.legal_moves(state) == []
    assert all(game.observe(state, p) == state for p in range(game.players))


def test_dark_chess_start_view() -> None:
    game = get_game("darkchess")
    start = game.initial_state()
    assert game.format_position(game.observe(start, 0)) == \
        "????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR[] w KQ - 0 1"
    assert game.format_position(game.observe(start, 1)) == \
        "rnbqkbnr/pppppppp/8/8/********/********/********/********[] w kq - 0 1"


def test_dark_chess_rules() -> None:
    game = get_game("darkchess")
    # no check: the king may step next to the enemy queen, and castles through an attacked f1
    state = game.parse_position("4k3/8/8/8/8/8/5q2/4K2R[] w K - 0 1")
    texts = {game.describe(state, m) for m in game.legal_moves(state)}
    assert {"Ke2", "Kf1", "Kxf2", "O-O", "Kd1"} <= texts  # Ke2, Kf1 and O-O walk into the queen
    # capturing the king wins at once, and the game has no move after it
    state = game.parse_position("4k3/8/8/8/8/8/8/4K2r[] b - - 0 1")
    after = game.play_text(state, "Rxe1")
    assert game.outcome(after).winner == 1 and game.outcome(after).reason == "captured the king"
    assert game.legal_moves(after) == [] and game.format_position(after).startswith("4k3/8/8/8/8/8/8/4r3[k]")
    # a blocked pawn sees its blocker, and its diagonals; the squares behind the blocker are fog
    state = game.parse_position("4k3/8/8/8/4p3/4P3/8/4K3[] w - - 0 1")
    seen = game.observe(state, 0)
    names = game.topology.index
    assert seen.cells[names["e4"]] == state.cells[names["e4"]]
    assert seen.cells[names["d4"]] == 0 and seen.cells[names["e5"]] == fog_of(game, 0)


def test_dark_xiangqi_cannon_sees_its_screen_and_target() -> None:
    game = get_game("darkxiangqi")
    seen = game.observe(game.initial_state(), 0)
    names = game.topology.index
    # the cannon on b2 (b3 here: ranks named from 1) takes the horse on b10 over the cannon on b8
    for square in ("b8", "b9", "b10"):
        assert seen.cells[names[square]] != fog_of(game, 0)
    assert seen.cells[names["a10"]] == fog_of(game, 0)


def test_moves_seen_by_each_player() -> None:
    game = get_game("darkchess")
    start = game.initial_state()
    move = game.parse_move(start, "e4")
    assert game.move_seen(start, move, 0) == "e4" and game.move_seen(start, move, 1) == "?"
    chess = get_game("chess")
    assert chess.move_seen(chess.initial_state(), chess.parse_move(chess.initial_state(), "e4"), 1) == "e4"


def test_searchers_of_whole_states_refuse_hidden_games() -> None:
    for spec in ("alphabeta", "mcts", "expectimax", "book"):
        with pytest.raises(BotSpecError, match="hidden information.*determinize"):
            make_bot(spec, get_game("darkchess"))
    with pytest.raises(BotSpecError, match="samples"):
        make_bot("determinize:samples=0", get_game("darkchess"))
    with pytest.raises(BotSpecError, match="bot must be one of"):
        make_bot("determinize:bot=solver", get_game("darkchess"))


def test_fog_with_drops_is_refused() -> None:
    text = '[fogzh]\ninherits = "crazyhouse"\nname = "x"\n[fogzh.options]\nfog = true\n'
    with pytest.raises(GameDefinitionError, match="fog.*not with drops"):
        load_variants(text, name="fog.toml")


def swapped(game: Game, state: State, player: int) -> list[State]:
    """Whole states behind ``state``'s observation built by hand: two unseen enemy pieces
    of different kinds exchanged, kept when the exchange is consistent."""
    seen = game.observe(state, player)
    marker = fog_of(game, player)
    hidden = [q for q, c in enumerate(state.cells) if c and seen.cells[q] == marker]
    out = []
    for a in hidden:
        for b in hidden:
            if a < b and state.cells[a] != state.cells[b]:
                cells = list(state.cells)
                cells[a], cells[b] = cells[b], cells[a]
                try:
                    other = game.make_state(cells, state.to_move, state.flags, state.counters, state.hands)
                    game.check_reachable(other.cells, other.to_move, other.flags, other.hands)  # type: ignore[attr-defined]
                except Exception:
                    continue
                if game.observe(other, player) == seen:
                    out.append(other)
                if len(out) >= 2:
                    return out
    return out


@pytest.mark.parametrize("gid", HIDDEN)
def test_honesty(gid: str) -> None:
    """The move depends on what the player saw, never on what the fog hides."""
    game = get_game(gid)
    rng = random.Random(5)
    asked = 0
    for state in positions(game, 2, seed=7)[4::3][:8]:
        if game.is_chance(state):
            continue  # (chance's turns are the referee's: no bot is asked)
        player = state.to_move
        seen = game.observe(state, player)
        wholes = [state] + [game.determinize(seen, player, random.Random(i)) for i in range(2)]
        wholes += swapped(game, state, player)
        if len({w.cells for w in wholes}) == 1:  # drawn alike: look further (fox hunt's numbers
            # often leave few hidings, or pin down every fox: then 30 draws agree)
            more = {w.cells: w for w in (game.determinize(seen, player, random.Random(i)) for i in range(2, 30))}
            wholes += [w for c, w in more.items() if c != state.cells][:2]
        assert len({w.cells for w in wholes}) > 1 or seen.cells.count(fog_of(game, player)) == 0 or len(more) == 1
        for spec in HONEST:
            if not BOTS[parse_spec(spec)[0]].plays(game):
                continue  # (refused: another turn structure)
            moves = {make_bot(spec, game).choose(game.observe(w, player), Limits()).move for w in wholes}
            assert len(moves) == 1, (spec, game.format_position(state))
            asked += 1
        rng.random()
    assert asked >= 4 * sum(BOTS[parse_spec(spec)[0]].plays(game) for spec in HONEST)
