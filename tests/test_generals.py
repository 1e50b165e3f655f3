"""The Game of the Generals (``generals``): the arbiter, the set-up, the flag's run, what
each player knows (knowledge masks) and what ``determinize`` draws behind it, bad input,
and the leak tests of the web app, ``myriad play`` and ``think --json``.

The contract, observation and honesty tests run over it with every hidden game in
``tests/test_hidden.py``."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from myriad.ai import make_bot
from myriad.arena.terminal import TerminalGame
from myriad.cli import main
from myriad.core.errors import IllegalMoveError, InvalidMoveError, PositionError
from myriad.core.state import State
from myriad.games import get_game
from myriad.games.generals import ALL, ARMY, CELL_MASKS, GRAVES, RANK_COUNT, RANKS, Generals, challenge
from myriad.notation.records import read_records, replay
from myriad.web.app import create_app
from web_server import BrowserClient, new_game

GAME: Generals = get_game("generals")  # type: ignore[assignment]
RANK = {r[1]: k for k, r in enumerate(RANKS)}
# Both armies whole on the board: white's major on e5 faces black's 1st lieutenant on e6,
# black's 1-star general behind it on e7.
FACING = "fppppppsu/cmtoabdeg/yy2l4/4M4/9/FPPPPPPSU/C1TOABDEG/YYL6 w p -/- 0 " + ",".join(["*"] * 42) + " - -"


def mask(*ranks: str) -> int:
    return sum(1 << RANK[r] for r in ranks)


def cell_mask(state: State, square: str) -> int:
    return state.counters[CELL_MASKS + GAME.topology.index[square]]


def removed(state: State, side: int) -> list[int]:
    return [m for m in state.counters[GRAVES + side * 21:GRAVES + (side + 1) * 21] if m]


def few(rows: str, side: str = "w", white_removed: str = "", black_removed: str = "") -> State:
    """A position of a few pieces, the rest of each army removed (knowledge: anything, or
    the given masks)."""
    on = [sum(1 for c in rows if c.isupper()), sum(1 for c in rows if c.islower())]
    graves = []
    for s, given in enumerate((white_removed, black_removed)):
        masks = given.split(",") if given else []
        graves.append(",".join(masks + ["*"] * (21 - on[s] - len(masks))) or "-")
    return GAME.parse_position(f"{rows} {side} p -/- 0 " + ",".join(["*"] * sum(on)) + f" {graves[0]} {graves[1]}")


def test_the_arbiter() -> None:
    r = RANK
    assert challenge(r["5*"], r["col"]) == 1 and challenge(r["col"], r["5*"]) == -1
    assert challenge(r["col"], r["col"]) == 0  # equal ranks: both removed
    assert challenge(r["spy"], r["5*"]) == 1 and challenge(r["5*"], r["spy"]) == -1  # the spy removes officers
    assert challenge(r["pvt"], r["spy"]) == 1 and challenge(r["spy"], r["pvt"]) == -1  # ...but not privates
    assert challenge(r["spy"], r["spy"]) == 0
    assert challenge(r["pvt"], r["flag"]) == 1 and challenge(r["flag"], r["pvt"]) == -1
    assert challenge(r["flag"], r["flag"]) == 1  # the attacking flag wins
    assert challenge(r["sgt"], r["pvt"]) == 1 and challenge(r["pvt"], r["sgt"]) == -1


def test_set_up_from_the_hand_seen_by_the_opponent_as_occupied_squares() -> None:
    state = GAME.initial_state()
    moves = GAME.legal_moves(state)
    assert len(moves) == RANK_COUNT * 27 and state.to_move == 0  # any rank on any home square
    assert GAME.format_move(state, moves[0]) == "flag@a1"
    rng = random.Random(4)
    for ply in range(42):
        if ply == 21:
            assert state.to_move == 1 and GAME.outcome(state) is None
        move = rng.choice(GAME.legal_moves(state))
        text = GAME.format_move(state, move)
        assert GAME.move_seen(state, move, state.to_move) == text and GAME.move_seen(state, move, 1 - state.to_move) == "?"
        if ply == 30:  # black sets up: white sees only where, and how many are left in black's hand
            seen = GAME.observe(state, 0)
            assert all(c in (0, GAME.fog_codes[0]) for c in seen.cells[45:])
            assert seen.hands[1] == (0,) * RANK_COUNT + (sum(state.hands[1]),)
            assert GAME.format_position(seen).split()[3].endswith("/" + "x" * sum(state.hands[1]))
        state = GAME.play(state, move)
    assert state.flags == (1,) and state.to_move == 0 and not any(state.hands[0] + state.hands[1])
    assert all(GAME.topology.names[p][1] in "123" for p, c in enumerate(state.cells) if c and (c - 1) % 2 == 0)
    assert Counter((c - 1) // 2 for c in state.cells if c and (c - 1) % 2 == 1) == Counter(
        {k: n for k, n in enumerate(ARMY)})
    with pytest.raises(IllegalMoveError):
        GAME.parse_move(state, "pvt@a1")  # the set-up is over


def test_the_arbiter_tells_only_who_was_removed() -> None:
    state = GAME.parse_position(FACING)
    after = GAME.play_text(state, "e5xe6")  # the major removes the 1st lieutenant
    names = GAME.topology.index
    assert after.cells[names["e6"]] == state.cells[names["e5"]] and not after.cells[names["e5"]]
    beat_by_the_major = mask("flag", "pvt", "sgt", "2lt", "1lt", "cpt")
    assert removed(after, 1) == [beat_by_the_major]  # what white learnt of the removed piece
    assert cell_mask(after, "e6") == mask("cpt", "maj", "ltc", "col", "1*", "2*", "3*", "4*", "5*", "spy")
    black, white = GAME.observe(after, 1), GAME.observe(after, 0)
    assert black.cells[names["e6"]] == GAME.fog_codes[1]  # black sees a piece, not its rank
    assert cell_mask(black, "e6") == cell_mask(after, "e6") and removed(black, 1) == [ALL]  # white's secret
    assert removed(white, 1) == [beat_by_the_major] and cell_mask(white, "e6") == ALL  # black's secret
    board = GAME.format_position(black).split()[0]
    assert not any(ch.isupper() and ch != "X" for ch in board)  # no white rank in black's view
    # the 1-star general takes the major: knowledge moves with the piece, the removed major is
    # known (to black) to be below a 1-star general
    again = GAME.play_text(after, "e7xe6")
    assert cell_mask(again, "e6") == mask("ltc", "col", "1*", "2*", "3*", "4*", "5*", "spy")
    assert removed(again, 0) == [mask("cpt", "maj", "ltc", "col")]  # above a 1st lt, below a 1-star
    # equal ranks: both removed, each side knows exactly what it lost to
    cols = GAME.parse_position(FACING.replace("4M4", "4O4").replace("C1TOABDEG", "CMT1ABDEG")
                               .replace("yy2l4", "yy2o4").replace("cmtoabdeg", "cmtlabdeg"))
    both = GAME.play_text(cols, "e5xe6")
    assert not both.cells[names["e5"]] and not both.cells[names["e6"]]
    assert removed(both, 0) == [mask("col")] and removed(both, 1) == [mask("col")]


def test_determinize_keeps_knowledge_and_the_army() -> None:
    after = GAME.play_text(GAME.parse_position(FACING), "e5xe6")
    black = GAME.observe(after, 1)
    rng = random.Random(2)
    e6 = GAME.topology.index["e6"]
    ranks = set()
    for _ in range(30):
        whole = GAME.determinize(black, 1, rng)
        assert GAME.observe(whole, 1) == black
        rank = (whole.cells[e6] - 1) // 2
        assert cell_mask(after, "e6") >> rank & 1
        ranks.add(rank)
        assert Counter((c - 1) // 2 for c in whole.cells if c and (c - 1) % 2 == 0) == Counter(dict(enumerate(ARMY)))
    assert len(ranks) >= 4  # drawn, not fixed
    # both spies known to be removed: no spy on the board; the removed are not the flag
    spy = f"{1 << RANK['spy']:x}"
    state = few("f8/9/9/p3p4/9/9/4G4/F8", white_removed="", black_removed=f"{spy},{spy}")
    seen = GAME.observe(state, 0)
    for _ in range(20):
        whole = GAME.determinize(seen, 0, rng)
        kinds = [(c - 1) // 2 for c in whole.cells if c and (c - 1) % 2 == 1]
        assert RANK["spy"] not in kinds and kinds.count(RANK["flag"]) == 1


def test_the_flag_on_the_far_row() -> None:
    # alone on the far row: wins at once
    state = few("f8/4F4/9/9/9/9/9/8p")
    won = GAME.play_text(state, "e7-e8")
    assert GAME.outcome(won).winner == 0 and GAME.outcome(won).reason == "flag reached the far row"
    assert GAME.legal_moves(won) == []
    # beside an enemy piece: it must survive black's next turn
    guarded = few("f2p5/4F4/9/9/9/9/9/8p")
    there = GAME.play_text(guarded, "e7-e8")
    assert GAME.outcome(there) is None
    assert GAME.outcome(GAME.play_text(there, "i1-h1")).winner == 0
    taken = GAME.play_text(there, "d8xe8")  # any piece removes the flag
    assert GAME.outcome(taken).winner == 1 and GAME.outcome(taken).reason == "captured the flag"


def test_bad_input_is_refused_clearly() -> None:
    with pytest.raises(PositionError, match="8 fields"):
        GAME.parse_position("9/9/9/9/9/9/9/9 w s")
    with pytest.raises(PositionError, match="too many"):
        few("GG7/9/9/9/9/9/9/f8")
    with pytest.raises(PositionError, match="knowledge mask"):
        GAME.parse_position(FACING.replace(" 0 *,", " 0 zz,"))
    with pytest.raises(PositionError, match="home rows"):
        GAME.parse_position("9/9/9/9/F8/9/9/9 w s PPPPPPSULCMTOABDEGYY/" + "fppppppsulcmtoabdegyy".lower() + " 0 * - -")
    with pytest.raises(PositionError, match="unknown piece letter"):
        GAME.parse_position(FACING.replace("4M4", "4Q4"))
    start = GAME.initial_state()
    with pytest.raises(InvalidMoveError, match="is not a move"):
        GAME.parse_move(start, "hello")
    with pytest.raises(IllegalMoveError):
        GAME.parse_move(start, "e3-e4")
    with pytest.raises(IllegalMoveError):
        GAME.parse_move(start, "pvt@e6")  # not a home square


def test_bots_set_up_the_flag_on_the_back_row_from_the_observation() -> None:
    bot = make_bot("determinize:samples=2,depth=1,seed=1", GAME)
    state = GAME.initial_state()
    while GAME.setting_up(state):
        state = GAME.play(state, bot.choose(GAME.observe(state, state.to_move)).move)
    flags = [GAME.topology.names[p] for p, c in enumerate(state.cells) if c and (c - 1) // 2 == RANK["flag"]]
    assert sorted(f[1] for f in flags) == ["1", "8"]


# -- leak tests ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserClient]:
    db = tmp_path_factory.mktemp("generals") / "games.sqlite3"
    with BrowserClient(create_app(db, workers=1), raise_server_exceptions=False) as test_client:
        yield test_client


def play_out(client: BrowserClient, seat: int, seed: int) -> tuple[list[dict[str, Any]], str]:
    """A web game, the human at ``seat`` playing random moves against ``random``: every view
    its browser received and the record given at the end."""
    seats = ["random:seed=3", "random:seed=3"]
    seats[seat] = "human"
    view = new_game(client, game="generals", seats=seats, delay=0)
    views, rng = [view], random.Random(seed)
    while view["outcome"] is None:
        view = client.get(f"/api/games/{view['id']}").json()
        views.append(view)
        if view["outcome"] is not None or not view["human_turn"]:
            continue
        assert client.get(f"/api/games/{view['id']}/record").status_code == 409
        move = rng.choice(view["legal"])
        answer = client.post(f"/api/games/{view['id']}/moves", json={"move": move["notation"], "ply": view["ply"]})
        assert answer.status_code == 200, answer.text
        view = answer.json()
        views.append(view)
    record = client.get(f"/api/games/{view['id']}/record")
    assert record.status_code == 200
    return views, record.text


@pytest.mark.parametrize("seat", [0, 1])
def test_a_browser_never_sees_an_enemy_rank(client: BrowserClient, seat: int) -> None:
    views, text = play_out(client, seat, seed=seat + 5)
    states = replay(GAME, read_records(text)[0])
    assert GAME.outcome(states[-1]) is not None
    checked = 0
    for view in views:
        state = states[view["ply"]]
        if view["outcome"] is not None:
            continue
        seen = GAME.observe(state, seat)
        assert view["position"] == GAME.format_position(seen)
        enemy = [cell for cell in view["cells"] if cell and cell["owner"] != seat]
        assert all(cell["kind"] == "hidden" for cell in enemy)
        for side, hand in enumerate(view.get("hands", [])):
            if side != seat:
                assert all(entry["piece"]["kind"] == "hidden" for entry in hand)
        for i, entry in enumerate(view["history"]):
            if states[i].to_move != seat:
                assert "@" not in entry["notation"] or entry["notation"] == "?"
        checked += bool(enemy)
    assert checked > 10


@pytest.mark.parametrize("seat", [0, 1])
def test_play_prints_only_the_human_view(seat: int) -> None:
    rng = random.Random(seat)
    printed: list[tuple[int, str]] = []
    seats = [make_bot("random:seed=2", GAME), make_bot("random:seed=2", GAME)]
    seats[seat] = None

    def read(_prompt: str) -> str:
        legal = GAME.legal_moves(terminal.state)
        return GAME.format_move(terminal.state, rng.choice(legal))

    terminal = TerminalGame(GAME, seats, GAME.initial_state(), 0.5, read=read,
                            write=lambda text: printed.append((len(terminal.states) - 1, text)))
    assert terminal.run() == 0
    boards = 0
    for ply, text in printed:
        state = terminal.states[ply]
        if text.startswith(("game over", "moves:")) or GAME.outcome(state) is not None:
            continue
        if "\n" in text:
            assert text == GAME.render(GAME.observe(state, seat))
            assert not any(ch.isalpha() and ch not in "abcdefghiXx" and (ch.isupper() == (seat == 1))
                           for ch in text)  # no enemy rank letter
            boards += 1
        elif text.startswith("random plays"):
            assert text == "random plays ?"
    assert boards > 10


def test_think_json_says_only_the_move(capsys: pytest.CaptureFixture[str]) -> None:
    state = GAME.play_text(GAME.parse_position(FACING), "e5xe6")
    seen = GAME.observe(state, 1)
    assert main(["think", "generals", "--position", GAME.format_position(state),
                 "--bot", "determinize:samples=2,depth=1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert GAME.parse_move(state, out["move"]) in GAME.legal_moves(seen)
    body = json.dumps(out)
    assert GAME.format_position(state).split()[0] not in body
    assert main(["think", "generals", "--position", GAME.format_position(seen),
                 "--bot", "determinize:samples=2,depth=1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["move"] == out["move"]
