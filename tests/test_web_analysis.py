"""Analysis on demand: a bot's score and best line in a position, never played.

The API is asked about every game of the registry (an answer with a legal move, or a
clear refusal), about positions with a known answer (a mate in one), and with bad input
of every kind; the browser test presses "Analyse" in chess and reads the bar and the line.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_server import BrowserClient, Keyring, new_game

from myriad.ai import make_bot
from myriad.ai.analysis import analyse
from myriad.ai.bot import Limits
from myriad.games import game_ids, get_game
from myriad.web.analysis import MAX_SECONDS, default_spec
from myriad.web.app import create_app

#: Before black's 2...Qh4#: black mates in one.
FOOLS = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("analysis") / "games.sqlite3"
    with BrowserClient(create_app(db, workers=2), raise_server_exceptions=False) as test_client:
        yield test_client


def wait_for(client: TestClient, game_id: str, done: Any) -> Any:
    deadline = time.monotonic() + 30
    while not done(view := client.get(f"/api/games/{game_id}").json()):
        assert time.monotonic() < deadline, view["status"]
        time.sleep(0.05)
    return view


def analysis(client: TestClient, game_id: str, **body: Any) -> Any:
    return client.post(f"/api/games/{game_id}/analysis", json=body)


def error_of(response: Any, status: int, *words: str) -> str:
    assert response.status_code == status, response.text
    message = str(response.json()["error"])
    for word in words:
        assert word in message, message
    return message


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_gets_an_analysis_or_a_clear_refusal(client: TestClient, game_id: str) -> None:
    game = get_game(game_id)
    view = new_game(client, game=game_id, seats=["human"] * game.players)
    if view["chance"]:  # the server draws chance's move first (a deal, a roll)
        view = wait_for(client, view["id"], lambda v: not v["chance"])
    response = analysis(client, view["id"], seconds=0.3)
    after = client.get(f"/api/games/{view['id']}").json()
    assert after["ply"] == view["ply"] and after["position"] == view["position"]  # nothing was played
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["spec"] == default_spec(game)
    assert answer["move"] in [m["notation"] for m in view["legal"]]
    assert answer["line"] and answer["line"][0] == answer["move"]
    assert answer["position"] == view["position"]
    if answer["bar"] is not None:
        assert game.players == 2 and 0.0 <= answer["bar"] <= 1.0
    if answer["score"] is not None:
        assert answer["text"] != "?" and answer["kind"] in ("evaluation", "share", "value")


def test_a_mate_in_one_is_found_and_not_played(client: TestClient) -> None:
    view = new_game(client, game="chess", seats=["human", "human"], position=FOOLS)
    answer = analysis(client, view["id"], seconds=2).json()
    assert answer["move"] == "Qh4#" and answer["line"] == ["Qh4#"]
    assert answer["win_in"] == 1 and answer["text"] == "#-1" and answer["bar"] == 0.0  # black mates: white's share 0
    assert client.get(f"/api/games/{view['id']}").json()["ply"] == 0


def test_the_shown_position_is_analysed_not_the_game_in_force(client: TestClient) -> None:
    """Review shows an earlier position: its text is sent and analysed, the game unchanged."""
    view = new_game(client, game="chess", seats=["human", "human"])
    client.post(f"/api/games/{view['id']}/moves", json={"move": "e4"})
    answer = analysis(client, view["id"], position=FOOLS, seconds=1).json()
    assert answer["position"] == FOOLS and answer["player"] == "black" and answer["move"] == "Qh4#"
    assert client.get(f"/api/games/{view['id']}").json()["ply"] == 1
    error_of(analysis(client, view["id"], position="not a position"), 400)


def test_a_chosen_bot_and_a_line_in_notation(client: TestClient) -> None:
    view = new_game(client, game="chess", seats=["human", "human"])
    answer = analysis(client, view["id"], spec="alphabeta:depth=3", seconds=5).json()
    assert answer["spec"] == "alphabeta:depth=3" and answer["depth"] == 3
    assert len(answer["line"]) >= 2  # a principal variation, white's move then black's
    game = get_game("chess")
    state = game.initial_state()
    for text in answer["line"]:
        state = game.play(state, game.parse_move(state, text))  # every move legal in turn
    mcts = analysis(client, view["id"], spec="mcts", seconds=0.5).json()
    assert mcts["kind"] == "share" and mcts["text"].endswith("%")
    level = analysis(client, view["id"], spec="easy", seconds=0.5).json()
    assert level["spec"] == "heuristic" and level["kind"] == "evaluation"


def test_bad_requests_are_refused_and_change_nothing(client: TestClient) -> None:
    view = new_game(client, game="chess", seats=["human", "human"])
    game_id = view["id"]
    error_of(analysis(client, game_id, spec="nonsense"), 400, "not offered")
    error_of(analysis(client, game_id, spec="alphabeta:foo=1"), 400, "foo")
    error_of(analysis(client, game_id, spec="human"), 400, "bot")
    error_of(analysis(client, game_id, spec=7), 400, "spec")
    error_of(analysis(client, game_id, seconds=MAX_SECONDS + 1), 400, "seconds")
    error_of(analysis(client, game_id, seconds="3"), 400, "seconds")
    error_of(analysis(client, game_id, spec="alphabeta:time=25"), 400, "at most")
    error_of(analysis(client, game_id, depth=3), 400, "unknown field")
    error_of(client.post(f"/api/games/{game_id}/analysis", content=b"[1]",
                         headers={"Content-Type": "application/json"}), 400, "JSON object")
    error_of(client.post(f"/api/games/{game_id}/analysis", content=b"{}"), 415)
    error_of(analysis(client, "0123456789abcdef"), 404)
    error_of(client.post("/api/analysis", json={"game": "nosuchgame", "position": "x"}), 400, "nosuchgame")
    error_of(client.post("/api/analysis", json={"game": "chess"}), 400, "position")
    over = new_game(client, game="tictactoe", seats=["human", "human"], position="XXX/OO1/3 o")
    error_of(analysis(client, over["id"]), 409, "over")
    pig = get_game("pig")
    rolling = pig.initial_state()
    while not pig.is_chance(rolling):  # a roll of the die is next: nobody chooses it
        rolling = pig.play(rolling, pig.legal_moves(rolling)[0])
    error_of(client.post("/api/analysis", json={"game": "pig", "position": pig.format_position(rolling)}),
             409, "chance moves next")
    assert client.get(f"/api/games/{game_id}").json()["ply"] == 0


def test_one_analysis_at_a_time_per_game(client: TestClient) -> None:
    view = new_game(client, game="chess", seats=["human", "human"])
    answers: list[Any] = []
    asking = [threading.Thread(target=lambda: answers.append(analysis(client, view["id"], seconds=2)))
              for _ in range(2)]
    for thread in asking:
        thread.start()
    for thread in asking:
        thread.join()
    assert sorted(a.status_code for a in answers) == [200, 429], [a.text for a in answers]
    error_of(next(a for a in answers if a.status_code == 429), 429, "already running")
    assert analysis(client, view["id"], seconds=0.2).status_code == 200  # free again


def test_watchers_and_hidden_games(client: TestClient) -> None:
    watcher = BrowserClient(client.app, Keyring())
    chess = new_game(client, game="chess", seats=["human", "human"])
    assert watcher.post(f"/api/games/{chess['id']}/analysis", json={"seconds": 0.2}).status_code == 200
    dark = new_game(client, game="darkchess", seats=["human", "human"])
    error_of(watcher.post(f"/api/games/{dark['id']}/analysis", json={"seconds": 0.2}), 403, "hides information")
    error_of(analysis(client, dark["id"], position=dark["position"]), 409, "send no position")
    answer = analysis(client, dark["id"], seconds=0.3).json()  # the first seat, to move: from its view
    assert answer["spec"] == "ismcts" and answer["position"] == dark["position"] and "?" in answer["position"]
    refused = analysis(client, dark["id"], spec="alphabeta")
    error_of(refused, 400, "alphabeta")
    client.post(f"/api/games/{dark['id']}/moves", json={"move": answer["move"]})
    held = client.keyring.keys[dark["id"]]
    error_of(client.post(f"/api/games/{dark['id']}/analysis", json={"seconds": 0.2},
                         headers={"X-Myriad-Seat": held[0]}), 409, "your turn")
    anonymous = TestClient(client.app, base_url="http://localhost")  # no client secret
    error_of(anonymous.post("/api/analysis", json={"game": "chess", "position": FOOLS}), 403, "client secret")
    answer = watcher.post("/api/analysis", json={"game": "chess", "position": FOOLS, "seconds": 1}).json()
    assert answer["move"] == "Qh4#"


def test_the_analysis_reads_any_bots_report() -> None:
    """The generic reading of a search: alpha-beta's forced win in plies, the shares."""
    game = get_game("chess")
    state = game.parse_position(FOOLS)
    found = analyse(make_bot("alphabeta:depth=2", game), state, Limits())
    assert found.win_in == 1 and found.share == 1.0 and game.describe(state, found.move) == "Qh4#"
    for spec in ("mcts:playouts=200", "heuristic", "expectimax:depth=1", "random"):
        result = analyse(make_bot(spec, game), state, Limits.of(2))
        assert result.move in game.legal_moves(state) and result.line[0] == result.move
        assert (result.share is None) == (spec == "random")


# -- in the browser -----------------------------------------------------------------------------

try:
    from playwright.sync_api import expect
    from test_web_e2e import browser, create, open_game, page, server  # noqa: F401 - fixtures
except pytest.skip.Exception:  # pragma: no cover - Playwright or chromium missing here
    expect = None  # type: ignore[assignment]


@pytest.mark.skipif(expect is None, reason="Playwright or chromium missing")
def test_analyse_button_shows_a_bar_and_a_line(page: Any, server: Any) -> None:
    view = create(server, {"game": "chess", "seats": ["human", "human"], "position": FOOLS})
    open_game(page, server, view)
    expect(page.locator("#eval-bar")).to_be_hidden()
    page.select_option("#analysis-seconds", "1")
    page.click("#analyse")
    expect(page.locator("#analysis-text")).to_contain_text("black plays Qh4#")
    expect(page.locator("#analysis-text .analysis-score")).to_have_text("#-1")
    expect(page.locator("#eval-bar")).to_be_visible()
    expect(page.locator("#eval-number")).to_have_text("#-1")
    assert float(page.locator("#eval-fill").evaluate("el => el.style.height").rstrip("%")) == 0  # white: no share
    expect(page.locator("#moves td:not(:empty)")).to_have_count(0)  # nothing was played
    page.screenshot(path="/tmp/analysis-mate-in-one.png", full_page=True)
    start = create(server, {"game": "chess", "seats": ["human", "human"]})
    open_game(page, server, start)
    page.fill("#analysis-spec", "alphabeta:depth=4")
    page.select_option("#analysis-seconds", "10")  # depth 4 well within it, even on a loaded machine
    page.click("#analyse")
    expect(page.locator("#analysis-text")).to_contain_text("white plays")
    expect(page.locator("#analysis-text .analysis-bot")).to_contain_text("depth 4")
    height = float(page.locator("#eval-fill").evaluate("el => el.style.height").rstrip("%"))
    assert 20 < height < 80  # the start is about even
    page.screenshot(path="/tmp/analysis-start.png", full_page=True)
    page.fill("#analysis-spec", "nonsense")
    page.click("#analyse")
    expect(page.locator("#analysis-text")).to_contain_text("No analysis: bot 'nonsense' is not offered")
    expect(page.locator("#eval-bar")).to_be_hidden()
