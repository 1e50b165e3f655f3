"""The rank-capture mechanic (core/mechanics/rank_capture.py), one rule for BanQi and Jungle.

Each game's table is checked pair by pair against its rule book's statement (BanQi:
Wikipedia's "Banqi" and the CDC rules, Taiwanese and Hong Kong orders; Jungle: the rat 1
... elephant 8, the rat takes the elephant and the elephant never takes the rat), and the
order-written ranks against their refusals.  The terrain cases are in tests/test_jungle.py.
"""

from __future__ import annotations

import itertools

import pytest

from myriad.core.errors import GameDefinitionError
from myriad.core.mechanics.rank_capture import RankCapture, ranks_in_order
from myriad.games import get_game
from myriad.games.banqi import HONG_KONG_RANKS, KINDS, TAIWAN_RANKS, Banqi
from myriad.games.jungle import Jungle

JUNGLE_ORDER = ("rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant")  # rank 1 to 8


def test_ranks_in_order_reads_a_rule_book_order_and_refuses_a_bad_one() -> None:
    assert ranks_in_order(("general", "advisor", "soldier")) == {"general": 3, "advisor": 2, "soldier": 1}
    assert ranks_in_order(TAIWAN_RANKS, KINDS)["general"] == 7
    with pytest.raises(GameDefinitionError, match="once"):
        ranks_in_order(("general", "general"))
    with pytest.raises(GameDefinitionError, match="each of general"):
        ranks_in_order(TAIWAN_RANKS[:-1], KINDS)  # the soldier is missing
    with pytest.raises(GameDefinitionError, match="each of general"):
        ranks_in_order((*TAIWAN_RANKS[:-1], "king"), KINDS)


@pytest.mark.parametrize(("game_id", "order"), [("banqi", TAIWAN_RANKS), ("banqi_hk", HONG_KONG_RANKS)])
def test_banqi_takes_by_its_rule_books_order(game_id: str, order: tuple[str, ...]) -> None:
    game = get_game(game_id)
    assert isinstance(game, Banqi) and isinstance(game.capture, RankCapture)
    kind = game.pieces.kind_index
    checked = 0
    for attacker, victim in itertools.product(order, repeat=2):
        said = order.index(attacker) <= order.index(victim)  # equal or lower rank
        if (attacker, victim) == ("soldier", "general"):
            said = True
        if (attacker, victim) == ("general", "soldier"):
            said = False
        assert game.capture.takes[kind[attacker]][kind[victim]] == said, (attacker, victim)
        red, black = game.pieces.code(attacker, 0), game.pieces.code(victim, 1)
        assert game.capture.may_take(red, 0, black, 1) == said  # (no terrain: the table is the rule)
        checked += 1
    assert checked == 49


def test_jungle_takes_by_rank_with_the_rat_and_the_elephant() -> None:
    game = get_game("jungle")
    assert isinstance(game, Jungle) and isinstance(game.capture, RankCapture)
    a1, a2 = game.topology.pos("a1"), game.topology.pos("a2")  # open ground, no trap
    for attacker, victim in itertools.product(JUNGLE_ORDER, repeat=2):
        said = JUNGLE_ORDER.index(attacker) >= JUNGLE_ORDER.index(victim)
        if (attacker, victim) == ("rat", "elephant"):
            said = True
        if (attacker, victim) == ("elephant", "rat"):
            said = False
        red, black = game.pieces.code(attacker, 0), game.pieces.code(victim, 1)
        assert game.capture.may_take(red, a1, black, a2) == said, (attacker, victim)


def test_the_same_table_serves_a_strict_order() -> None:
    """Another parameter, not another mechanic: strictly lower ranks only."""
    game = get_game("banqi")
    strict = RankCapture(game.pieces, ranks_in_order(TAIWAN_RANKS, KINDS), equal_takes=False)
    kind = game.pieces.kind_index
    assert game.capture.takes[kind["horse"]][kind["horse"]]
    assert not strict.takes[kind["horse"]][kind["horse"]]
    assert strict.takes[kind["general"]][kind["soldier"]]  # (no exceptions given)
