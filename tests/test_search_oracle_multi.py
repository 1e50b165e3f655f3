"""The searchers for any turn structure against literal searches written here.

For every registered game each searcher plays (and the tiny games of ``turn_games``: three
and four players with extra turns, dice for two and three players), on positions from
seeded random games, the root value of ``maxn``, ``paranoid`` and ``expectimax`` searched to
depths 1-3 equals that of the most literal search of the same tree: a vector per node, the
mover's share maximised, no pruning (max-n); max where the root's mover moves, min
elsewhere, the probability-weighted average at chance nodes, no windows (paranoid and
expectimax).  Leaves are valued by :mod:`myriad.ai.utility`, which these tests do not
judge; what they check is the search.  A player move is a ply, a chance event is not.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from myriad.ai import BotSpecError, make_bot
from myriad.ai.bot import Bot, Limits
from myriad.ai.expectimax import Expectimax
from myriad.ai.maxn import MaxN
from myriad.ai.paranoid import Paranoid
from myriad.ai.utility import evaluation_shares, evaluation_value, outcome_shares, outcome_value
from myriad.core.game import Game
from myriad.core.state import State
from myriad.games import game_ids, get_game
from turn_games import Claim, DiceRace

TINY = {"claim3": lambda: Claim(3), "claim4": lambda: Claim(4, cells=9),
        "dice2": lambda: DiceRace(2), "dice3": lambda: DiceRace(3, target=5)}
GAMES = [*game_ids(), *TINY]
SEARCHERS: dict[str, type[Bot]] = {"maxn": MaxN, "paranoid": Paranoid, "expectimax": Expectimax}
#: Float slack: the searchers add and weight in other orders than the literal searches.
TOLERANCE = 1e-9
#: The most leaves a literal search may have, estimated as the root's number of moves to
#: the power of the depth: in the default run, and with -m slow.
QUICK_LEAVES = 8000
SLOW_LEAVES = 60_000


def game_of(game_id: str) -> Game:
    """The game (hidden games: in the open, as the inner searchers of honest bots see it)."""
    return TINY[game_id]() if game_id in TINY else get_game(game_id).full_view()


def draw(game: Game, state: State, rng: random.Random) -> State:
    """``state`` after a chance outcome drawn by its probability."""
    r, outcomes = rng.random(), game.chance_outcomes(state)
    for move, p in outcomes:
        r -= p
        if r < 0:
            return game.play(state, move)
    return game.play(state, outcomes[-1][0])


def positions(game: Game, count: int, seed: int) -> list[State]:
    """``count`` positions from seeded random games where a player chooses among two or
    more moves (the searchers then search; with one move they need not)."""
    rng = random.Random(seed)
    found: list[State] = []
    for _ in range(50 * count):
        state = game.initial_state()
        for _ in range(rng.randrange(0, 24)):
            if game.is_chance(state):
                state = draw(game, state, rng)
                continue
            moves = game.legal_moves(state)
            if not moves or game.result(state, moves) is not None:
                break
            state = game.play(state, rng.choice(moves))
        for _ in range(100):  # on past forced stretches (a set-up placed piece by piece)
            while game.is_chance(state):
                state = draw(game, state, rng)
            moves = game.legal_moves(state)
            if game.result(state, moves) is not None or len(game.candidate_moves(state, moves)) > 1:
                break
            state = game.play(state, rng.choice(moves))
        if game.is_chance(state):
            continue
        moves = game.legal_moves(state)
        if game.result(state, moves) is None and len(game.candidate_moves(state, moves)) > 1:
            found.append(state)
            if len(found) == count:
                break
    return found


# -- the literal searches -------------------------------------------------------------------

def literal_maxn(game: Game, state: State, depth: int, scale: float) -> tuple[float, ...]:
    """Max-n, literally: each player node takes the child vector best for its mover (its
    share; on a tie, the strongest other share the least; then each share the least in
    player order), chance nodes average by probability."""
    if game.is_chance(state):
        vectors = [(p, literal_maxn(game, game.play(state, m), depth, scale)) for m, p in game.chance_outcomes(state)]
        return tuple(sum(p * v[i] for p, v in vectors) for i in range(game.players))
    moves = game.legal_moves(state)
    outcome = game.result(state, moves)
    if outcome is not None:
        return outcome_shares(outcome)
    if depth == 0:
        return evaluation_shares(game, state, scale)
    mover = state.to_move
    children = [literal_maxn(game, game.play(state, m), depth - 1, scale) for m in game.candidate_moves(state, moves)]
    return max(children, key=lambda v: (v[mover], -max((s for i, s in enumerate(v) if i != mover), default=0.0),
                                        [-s for s in v]))


def literal_paranoid(game: Game, state: State, depth: int, me: int, scale: float) -> float:
    """Paranoid minimax (expectimax with two players), literally: ``me`` maximises its
    value, everybody else minimises it, chance nodes average by probability."""
    if game.is_chance(state):
        return sum(p * literal_paranoid(game, game.play(state, m), depth, me, scale)
                   for m, p in game.chance_outcomes(state))
    moves = game.legal_moves(state)
    outcome = game.result(state, moves)
    if outcome is not None:
        return outcome_value(outcome, me)
    if depth == 0:
        return evaluation_value(game, state, me, scale)
    values = [literal_paranoid(game, game.play(state, m), depth - 1, me, scale)
              for m in game.candidate_moves(state, moves)]
    return max(values) if state.to_move == me else min(values)


def leaves(game: Game, state: State, depth: int) -> int:
    """About how many leaves the literal search to ``depth`` has: the root's branching to
    the power of the depth, a move that hands the turn to chance counting its outcomes
    (a BanQi flip opens up to 14)."""
    branching = 0
    for move in game.candidate_moves(state, game.legal_moves(state)):
        after = game.play(state, move)
        branching += len(game.chance_outcomes(after)) if game.is_chance(after) else 1
    return branching ** depth


# -- the checks -----------------------------------------------------------------------------

def check(searcher: str, game: Game, state: State, depth: int) -> None:
    bot = SEARCHERS[searcher](game, depth=depth)
    decision = bot.choose(state, Limits())
    scale = bot.scale  # type: ignore[attr-defined]
    me = state.to_move
    where = f"{searcher} {game.id} depth {depth} at {game.format_position(state)}"
    after = game.play(state, decision.move)
    assert decision.done, where
    if searcher == "maxn":
        expected = literal_maxn(game, state, depth, scale)
        assert decision.info["shares"] == pytest.approx(expected, abs=TOLERANCE), where
        chosen = literal_maxn(game, after, depth - 1, scale)
        assert chosen[me] == pytest.approx(expected[me], abs=TOLERANCE), where  # the move is worth it
    else:
        value = literal_paranoid(game, state, depth, me, scale)
        assert decision.info["score"] == pytest.approx(value, abs=TOLERANCE), where
        assert literal_paranoid(game, after, depth - 1, me, scale) == pytest.approx(value, abs=TOLERANCE), where


def cases() -> list[tuple[str, str]]:
    return [(searcher, game_id) for game_id in GAMES for searcher, kind in SEARCHERS.items()
            if kind.plays(game_of(game_id))]


def run_oracle(searcher: str, game_id: str, count: int, limit: int) -> None:
    game = game_of(game_id)
    states = positions(game, count, seed=len(game_id) * 1009 + count)
    assert states, f"no position with a choice found in {game_id}"
    for state in states:
        for depth in (1, 2, 3):
            if depth > 1 and leaves(game, state, depth) > limit:
                break
            check(searcher, game, state, depth)


@pytest.mark.parametrize(("searcher", "game_id"), cases())
def test_root_value_equals_the_literal_search(searcher: str, game_id: str) -> None:
    run_oracle(searcher, game_id, count=2, limit=QUICK_LEAVES)


@pytest.mark.slow
@pytest.mark.parametrize(("searcher", "game_id"), cases())
def test_root_value_equals_the_literal_search_deep(searcher: str, game_id: str) -> None:
    run_oracle(searcher, game_id, count=6, limit=SLOW_LEAVES)


def test_every_game_is_searched_by_some_searcher_here() -> None:
    covered = {game_id for _, game_id in cases()}
    assert covered == set(GAMES)


# -- the special cases -----------------------------------------------------------------------

@pytest.mark.parametrize("game_id", ["kalah", "othello6", "dice2", "checkers"])
def test_maxn_with_two_players_is_minimax(game_id: str) -> None:
    """Two players' shares sum to 1, so max-n's share is paranoid's value halfway mapped."""
    game = game_of(game_id)
    for state in positions(game, 3, seed=7):
        shares = MaxN(game, depth=3).choose(state).info["shares"]
        value = Paranoid(game, depth=3).choose(state).info["score"]
        assert shares[state.to_move] == pytest.approx((1 + value) / 2, abs=TOLERANCE)


def count_literal_nodes(game: Game, state: State, depth: int) -> int:
    """Nodes of the literal tree to ``depth`` (every node, as the searchers count theirs)."""
    if game.is_chance(state):
        return 1 + sum(count_literal_nodes(game, game.play(state, m), depth) for m, _ in game.chance_outcomes(state))
    moves = game.legal_moves(state)
    if depth == 0 or game.result(state, moves) is not None:
        return 1
    return 1 + sum(count_literal_nodes(game, game.play(state, m), depth - 1) for m in moves)


@pytest.mark.parametrize("factory", [lambda: DiceRace(2, target=12), lambda: DiceRace(3, target=10)])
def test_star1_prunes_chance_nodes(factory: Callable[[], Game]) -> None:
    """In a dice game (two moves at most at a player node, so the savings are mostly at
    chance nodes) a search to depth 5 visits fewer nodes than the whole trees of its
    iterations 1 to 5 hold, and finds the same value (checked above)."""
    game = factory()
    pruned = whole = 0
    for state in positions(game, 4, seed=3):
        bot = Paranoid(game, depth=5)
        bot.choose(state)
        pruned += bot.nodes
        whole += sum(count_literal_nodes(game, state, depth) - 1 for depth in range(1, 6))  # (roots uncounted)
    assert pruned < whole * 0.85, (pruned, whole)


@pytest.mark.parametrize(("game_id", "ratio"), [("kalah", 0.7), ("claim3", 0.9)])
def test_maxn_prunes(game_id: str, ratio: float) -> None:
    """Shallow and immediate pruning: fewer nodes than the whole trees of iterations 1-4
    (with two players shallow pruning is alpha-beta's shallow cut-off; with three it
    prunes less, as Korf found)."""
    game = game_of(game_id)
    pruned = whole = 0
    for state in positions(game, 4, seed=3):
        bot = MaxN(game, depth=4)
        bot.choose(state)
        pruned += bot.nodes
        whole += sum(count_literal_nodes(game, state, depth) - 1 for depth in range(1, 5))
    assert pruned < whole * ratio, (pruned, whole)


@pytest.mark.parametrize("searcher", list(SEARCHERS))
def test_a_searcher_refuses_what_it_cannot_search_at_once(searcher: str) -> None:
    kind = SEARCHERS[searcher]
    for game in [*(get_game(g) for g in game_ids()), *(make() for make in TINY.values())]:
        can = ((kind.max_players is None or game.players <= kind.max_players) and (kind.chance or not game.chance)
               and (kind.hidden or not game.hidden_information))
        if can:
            kind(game, depth=1)
            continue
        with pytest.raises(ValueError, match=f"{searcher}.*{game.id}"):
            kind(game, depth=1)


def test_expectimax_refuses_three_players_naming_the_alternatives() -> None:
    with pytest.raises(ValueError, match=r"expectimax searches two-player games.*claim3 \(3 players\).*maxn"):
        Expectimax(Claim(3))
    registered = [g for g in game_ids() if get_game(g).players > 2]
    for game_id in registered:  # once the registry has such games, through the spec too
        with pytest.raises(BotSpecError, match="expectimax"):
            make_bot("expectimax", get_game(game_id))


@pytest.mark.parametrize("searcher", list(SEARCHERS))
@pytest.mark.parametrize("option", ["scale=0", "scale=-2", "scale=x", "hash=0", "depth=0"])
def test_bad_options_are_refused(searcher: str, option: str) -> None:
    with pytest.raises(BotSpecError):
        make_bot(f"{searcher}:{option}", get_game("kalah"))


@pytest.mark.parametrize("searcher", list(SEARCHERS))
def test_a_clock_or_node_limit_ends_the_search_with_a_legal_move(searcher: str) -> None:
    for game in (get_game("chess"), Claim(4, cells=9), DiceRace(3, target=20)):
        state = positions(game, 1, seed=5)[0]
        if not SEARCHERS[searcher].plays(game):
            continue
        for spec in ("nodes=200", "time=0.05"):
            decision = make_bot(f"{searcher}:{spec}", game).choose(state)
            assert decision.move in game.legal_moves(state)
            assert decision.done == (decision.info["score"] in (-1.0, 1.0)), spec  # cut short unless decided


@pytest.mark.parametrize("searcher", list(SEARCHERS))
def test_the_table_stays_within_a_tiny_hash(searcher: str) -> None:
    for game in [get_game(g) for g in game_ids()] + [Claim(4, cells=9), DiceRace(3, target=20)]:
        if not SEARCHERS[searcher].plays(game):
            continue
        bot = make_bot(f"{searcher}:hash=0.0625,nodes=1500", game)
        state = positions(game, 1, seed=2)[0]
        for _ in range(2):  # the table is kept between moves
            bot.choose(state)
        table, budget = bot.table, bot.budget  # type: ignore[attr-defined]
        assert len(table) <= budget.cap < 1500, game.id
