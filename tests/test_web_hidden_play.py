"""End-to-end browser games with hidden information and chance, against a bot, by clicks.

* Dark chess, a human (seeded random moves, captures first) against a seeded bot, played to
  its end by clicks, a watcher's page open: while it goes on the fogged squares are clouds and exactly the view's
  ``fog``, the own pieces no enemy may see are translucent; at the end the fog is lifted,
  the pieces hidden until then are ringed and the page says "Final position revealed".
* BanQi against a seeded bot, played to its end by clicks with a watcher's page open:
  colours undecided until the first flip, then named in the bars; the flips turn discs
  over in both pages; the backs on the board are the face-down cells; the end revealed.
  Then the last capture of a game with 15 pieces still face down, and the list of the
  pieces never turned up.
* The Game of the Generals: the set-up by dragging a piece from the hand, by clicks, and
  the "Random set-up" button; the own pieces translucent (the opponent never sees a rank);
  then the last move of a game near its end and the enemy's ranks revealed.

Every WebSocket message and HTTP answer each page received is checked for leaks with
``tests/test_web_hidden.py``'s checker: a seat's page gets exactly its observation, a
watcher's the public view, and the view's ``fog`` and ``unseen`` come from it alone.
Screenshots go to /tmp/hiddenweb-*.png.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from test_web_e2e import CLIENT, call, create, enter, new_page, open_game, piece, square, wait_played
from test_web_hidden import check_view
from web_server import Server

from myriad.core.game import Game
from myriad.core.state import State
from myriad.games import get_game
from myriad.notation.records import read_records, replay
from myriad.web.hidden import fogged, unseen
from myriad.web.layout import cells_json

pytest.importorskip("playwright")
from playwright.sync_api import Browser, Page, expect  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402

#: Counts, in a page, the face-down discs turned over (hidden.js adds a ``flip-out`` disc).
COUNT_FLIPS = """
window.flips = 0;
new MutationObserver((changes) => {
  for (const change of changes) for (const node of change.addedNodes)
    if (node.classList && node.classList.contains("flip-out")) window.flips += 1;
}).observe(document, { childList: true, subtree: true });
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    running = Server(tmp_path_factory.mktemp("hiddenweb") / "games.sqlite3", workers=1)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Any:
    from test_web_e2e import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class Received:
    """Every WebSocket message and game answer (JSON) a page received."""

    def __init__(self, page: Page, game_id: str) -> None:
        self.frames: list[str] = []
        self.responses: list[Any] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: self.frames.append(payload)))
        page.on("response", lambda r: self.responses.append(r) if f"/api/games/{game_id}" in r.url else None)

    def views(self) -> list[dict[str, Any]]:
        """The game views among them (answers to requests and socket messages)."""
        out = []
        for response in self.responses:
            if response.request.method in ("GET", "POST") and not response.url.endswith("/record") and response.ok:
                out.append(response.json())
        for frame in self.frames:
            message = json.loads(frame)
            assert message["type"] == "state"
            out.append(message["game"])
        return out


def check_received(game: Game, states: list[State], views: list[dict[str, Any]], seat: int | None) -> int:
    """Each view is the receiver's own (``seat``, or the watcher's before the key is read),
    its fog and translucent pieces from that view alone; how many were of the game in play."""
    in_play = 0
    names = game.topology.names
    for view in views:
        assert view["seat"] in (None, seat)
        in_play += check_view(game, states, view, view["seat"])
        state = states[view["ply"]]
        if view["outcome"] is None:
            seen = game.public_view(state) if view["seat"] is None else game.observe(state, view["seat"])
            assert view["fog"] == fogged(game, seen)
            mine = [] if view["seat"] is None else sorted(unseen(game, seen, view["seat"]))
            assert view["unseen"] == [names[p] for p in mine]
    return in_play


def shoot(page: Page, name: str) -> None:
    page.screenshot(path=f"/tmp/hiddenweb-{name}.png", full_page=True)


def human_move(rng: random.Random, game: Game, view: dict[str, Any]) -> dict[str, Any]:
    """A seeded player's move: a capture of a royal piece, else a capture (most of the
    time), else any."""
    legal = view["legal"]
    cells = view["cells"]
    names = game.topology.names
    royal = [m for m in legal for c in m["captures"]
             if isinstance(cells[names.index(c)], dict) and cells[names.index(c)]["kind"] in ("king", "general")]
    captures = [m for m in legal if m["captures"]]
    if royal:
        return royal[0]
    if captures and rng.random() < 0.8:
        return rng.choice(captures)
    return rng.choice(legal)


def play_by_clicks(page: Page, server: Server, view: dict[str, Any], key: str, choose: Any,
                   stop: Any = lambda view: False, minutes: float = 8) -> dict[str, Any]:
    """Enter ``choose(view)``'s moves by clicks whenever the page's seat is to move, until
    the game ends or ``stop(view)``; the last view."""
    gid = view["id"]
    deadline = time.monotonic() + 60 * minutes
    while True:
        assert time.monotonic() < deadline, f"{view['game']}: not over in {minutes} minutes"
        view = call(server, "GET", f"/api/games/{gid}", seat=key)
        if view["outcome"] is not None or stop(view):
            return view
        if not view["human_turn"] or not view["legal"]:
            time.sleep(0.05)
            continue
        wait_played(page, view["ply"])
        expect(page.locator("#board.interactive")).to_have_count(1)
        move = choose(view)
        enter(page, move)
        same = [m for m in view["legal"] if m["path"] == move["path"] and m.get("drop") == move.get("drop")]
        if len(same) > 1:
            page.click(f'#promotion-choices .choice[data-notation="{move["notation"]}"]')
        ply = view["ply"]
        wait_view(server, gid, key, lambda v: v["ply"] > ply or v["outcome"] is not None)


def record_states(server: Server, game: Game, gid: str, key: str) -> list[State]:
    """The positions of a finished game, from its record."""
    request_view = call(server, "GET", f"/api/games/{gid}", seat=key)
    assert request_view["outcome"] is not None
    import urllib.request
    request = urllib.request.Request(f"{server.base}/api/games/{gid}/record",
                                     headers={"X-Myriad-Client": CLIENT, "X-Myriad-Seat": key})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
    return replay(game, read_records(text)[0])


def wait_view(server: Server, gid: str, key: str, done: Any, seconds: float = 60) -> dict[str, Any]:
    """The game as the seat of ``key`` sees it, once ``done(view)`` holds."""
    deadline = time.monotonic() + seconds
    while True:
        view: dict[str, Any] = call(server, "GET", f"/api/games/{gid}", seat=key)
        if done(view):
            return view
        assert time.monotonic() < deadline, f"game {gid}: still not there at ply {view['ply']}"
        time.sleep(0.05)


# -- dark chess --------------------------------------------------------------------------------

def test_dark_chess_against_a_bot_to_the_end_by_clicks(browser: Browser, server: Server) -> None:
    game = get_game("darkchess")
    view = create(server, {"game": "darkchess", "seats": ["human", "random:seed=5"], "delay": 0, "public": True})
    key = view["keys"][0]
    rng = random.Random(7)
    checks = {"fog": 0, "unseen": 0, "seen": 0}
    with new_page(browser, CLIENT) as page, new_page(browser, "dark-chess-watcher") as watcher:
        received = Received(page, view["id"])
        watched = Received(watcher, view["id"])
        open_game(page, server, view)
        open_game(watcher, server, {**view, "keys": []})

        def look(current: dict[str, Any]) -> bool:
            """The board as the view says, at the page's turns (drawn once the page shows it)."""
            if not current["human_turn"]:
                return False
            wait_played(page, current["ply"])
            page.wait_for_function("n => document.querySelectorAll('#board .pieces .fogged').length === n",
                                   arg=len(current["fog"]))
            for name in current["fog"]:
                expect(piece(page, name)).to_have_class("piece owner-0 kind-fog fogged")
            shown = sorted(page.locator("#board .pieces .unseen").evaluate_all("els => els.map(e => e.dataset.square)"))
            assert shown == sorted(current["unseen"])
            checks["fog"] += bool(current["fog"])
            checks["unseen"] += bool(current["unseen"])
            own = sum(1 for c in current["cells"] if isinstance(c, dict) and c["owner"] == 0 and c["kind"] != "fog")
            checks["seen"] += len(current["unseen"]) < own
            if current["ply"] == 6:
                shoot(page, "darkchess-fog")
            return False

        last = play_by_clicks(page, server, view, key, lambda v: (look(v), human_move(rng, game, v))[1])
        assert last["outcome"] is not None and last["outcome"]["reason"]
        expect(page.locator("#status")).to_contain_text("Game over")
        expect(page.locator("#hidden-note")).to_contain_text("Final position revealed")
        expect(page.locator("#board .pieces .fogged")).to_have_count(0)
        expect(page.locator("#board .pieces .unseen")).to_have_count(0)
        assert last["revealed"], "the end revealed nothing"
        expect(page.locator("#board .pieces .revealed")).to_have_count(len(last["revealed"]))
        assert f"{len(last['revealed'])} pieces you could not see" in page.locator("#hidden-note").inner_text()
        page.wait_for_timeout(1000)  # the reveal's fading in is over
        shoot(page, "darkchess-reveal")
        states = record_states(server, game, view["id"], key)
        expect(watcher.locator("#hidden-note")).to_contain_text("Final position revealed")
        views, watcher_views = received.views(), watched.views()
    assert game.outcome(states[-1]) is not None and len(states) > 10
    assert check_received(game, states, watcher_views, None) > 10  # the watcher: the public view
    assert checks["fog"] > 3 and checks["unseen"] > 3 and checks["seen"] > 3, checks
    assert check_received(game, states, views, 0) > 10


# -- BanQi -------------------------------------------------------------------------------------

def banqi_move(rng: random.Random, view: dict[str, Any]) -> dict[str, Any]:
    """Captures first, then flips mostly, else a step."""
    legal = view["legal"]
    captures = [m for m in legal if m["captures"]]
    flips = [m for m in legal if len(m["path"]) == 1]
    if captures:
        return rng.choice(captures)
    if flips and rng.random() < 0.7:
        return rng.choice(flips)
    return rng.choice(legal)


def backs(view: dict[str, Any]) -> list[int]:
    return [i for i, c in enumerate(view["cells"]) if isinstance(c, dict) and c["shape"] == "back"]


def test_banqi_against_a_bot_to_the_end_by_clicks(browser: Browser, server: Server) -> None:
    game = get_game("banqi")
    view = create(server, {"game": "banqi", "seats": ["human", "random:seed=2"], "delay": 0, "public": True})
    key = view["keys"][0]
    rng = random.Random(3)
    with new_page(browser, CLIENT) as page, new_page(browser, "banqi-watcher-browser") as watcher:
        for opened in (page, watcher):
            opened.context.add_init_script(COUNT_FLIPS)
        received = Received(page, view["id"])
        open_game(page, server, view)
        open_game(watcher, server, {**view, "keys": []})
        expect(page.locator("#bar-bottom")).to_contain_text("(undecided)")
        expect(page.locator("#hidden-note")).to_contain_text("Colours undecided")
        expect(page.locator("#board .pieces .kind-cover")).to_have_count(32)
        looked = []

        def midgame(current: dict[str, Any]) -> None:
            """Once, some moves in: the colours named, the backs drawn, the flips seen turning."""
            wait_played(page, current["ply"])
            colour = current["sides"][0]["name"]
            expect(page.locator("#bar-bottom")).to_contain_text(f"({colour})")
            expect(watcher.locator("#bar-bottom")).to_contain_text(f"({colour})")
            expect(page.locator("#hidden-note")).to_contain_text(f"First plays {colour}")
            page.wait_for_timeout(700)  # the last flip's turn is over
            expect(page.locator("#board .pieces .kind-cover")).to_have_count(len(backs(current)))
            flips = sum(1 for e in current["history"] if e["by"] == "chance")
            assert flips >= 6
            mine, watched = page.evaluate("window.flips"), watcher.evaluate("window.flips")
            assert mine >= flips // 2 and watched >= flips // 2, (mine, watched, flips)  # flips seen turning
            shoot(page, "banqi-midgame")
            looked.append(current["ply"])

        def choose(current: dict[str, Any]) -> dict[str, Any]:
            if not looked and current["ply"] >= 24:
                midgame(current)
            return banqi_move(rng, current)

        last = play_by_clicks(page, server, view, key, choose)
        assert looked and last["outcome"]["reason"]
        expect(page.locator("#status")).to_contain_text("Game over")
        expect(page.locator("#hidden-note")).to_contain_text("Final position revealed")
        expect(watcher.locator("#hidden-note")).to_contain_text("Final position revealed")
        left = sum(e["count"] for e in last["face_down"])
        expect(page.locator("#board .pieces .kind-cover")).to_have_count(left)
        flips = sum(1 for e in last["history"] if e["by"] == "chance")
        assert page.evaluate("window.flips") >= flips // 2 and watcher.evaluate("window.flips") >= flips // 2
        views = received.views()
    states = replay_positions(game, last)
    assert game.outcome(states[-1]) is not None
    for seen in views:  # nothing but the board as it is: a back is a back, whoever looks
        assert seen["cells"] == cells_json(game, states[seen["ply"]])
        assert all(c["kind"] == "cover" for c in (seen["cells"][i] for i in backs(seen)))
    print(f"banqi: {len(states) - 1} plies, {flips} flips, {last['outcome']['reason']}")


def replay_positions(game: Game, view: dict[str, Any]) -> list[State]:
    """The positions of a game in play from its (public, in BanQi) history."""
    state = game.initial_state()
    states = [state]
    for entry in view["history"]:
        state = game.play(state, game.parse_move(state, entry["notation"]))
        states.append(state)
    return states


def near_end(game: Game, seed: int) -> tuple[State, str]:
    """A position whose mover ends a random game with its next move (not chance's), and
    that move."""
    for attempt in range(seed, seed + 50):
        rng = random.Random(attempt)
        state = game.initial_state()
        while game.outcome(state) is None:
            if game.is_chance(state):
                outcomes = game.chance_outcomes(state)
                state = game.play(state, rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            moves = game.legal_moves(state)
            captures = [m for m in moves if state.cells[m[0][2]] and m[0][1] != m[0][2]]
            ending = [m for m in moves if game.outcome(game.play(state, m)) is not None]
            if ending and not game.is_chance(game.play(state, ending[0])):
                return state, game.format_move(state, ending[0])
            state = game.play(state, rng.choice(captures if captures and rng.random() < 0.7 else moves))
    raise AssertionError(f"{game.id}: no game ended by a move")


def finish_by_click(page: Page, server: Server, gid: str, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game of ``gid`` created from a position one move from its end, the mover's seat
    human (this page), the other a bot; the page plays the last move by clicks."""
    game = get_game(gid)
    state, notation = near_end(game, seed)
    seats = ["random:seed=1", "random:seed=1"]
    seats[state.to_move] = "human"
    view = create(server, {"game": gid, "position": game.format_position(state), "seats": seats, "delay": 0})
    key = view["keys"][state.to_move]
    open_game(page, server, view)
    move = next(m for m in view["legal"] if m["notation"] == notation)
    enter(page, move)
    last = wait_view(server, view["id"], key, lambda v: v["outcome"] is not None)
    return last, view


#: BanQi one capture from the end: red's chariot takes black's last piece, the horse on a2,
#: while 15 red pieces are still face down.
BANQI_LAST = "XXXX/XXXX/XXXX/XX2/4/X3/n3/R3 1 r kggmmrrnccppppp 3"


def test_banqi_reveal_at_the_end(page: Page, server: Server) -> None:
    view = create(server, {"game": "banqi", "position": BANQI_LAST, "seats": ["human", "random"], "delay": 0})
    open_game(page, server, view)
    expect(page.locator("#bar-bottom")).to_contain_text("(red)")
    square(page, "a1").click()
    square(page, "a2").click()
    final = wait_view(server, view["id"], view["keys"][0], lambda v: v["outcome"] is not None)
    assert final["history"][0]["notation"] == "a1xa2" and final["outcome"]["winner"] == "first"
    expect(page.locator("#status")).to_contain_text("Game over: First wins")
    expect(page.locator("#hidden-note")).to_contain_text("Final position revealed")
    left = {e["piece"]["kind"]: e["count"] for e in final["face_down"]}
    assert left == {"general": 1, "advisor": 2, "elephant": 2, "chariot": 1, "horse": 2, "cannon": 2, "soldier": 5}
    assert {e["piece"]["owner"] for e in final["face_down"]} == {0}  # all red: black's are captured
    expect(page.locator("#board .pieces .kind-cover")).to_have_count(15)
    expect(page.locator("#hidden-note")).to_contain_text("15 pieces were never turned up")
    expect(page.locator("#hidden-note .face-down-left")).to_have_count(7)
    expect(page.locator('#hidden-note .face-down-left[data-kind="soldier"]')).to_contain_text("×5")
    shoot(page, "banqi-reveal")


@pytest.fixture
def page(browser: Browser) -> Any:
    with new_page(browser, CLIENT) as opened:
        yield opened


# -- the Game of the Generals --------------------------------------------------------------------

def drag(page: Page, source: Any, target: Any) -> None:
    """Drag with the mouse from the middle of ``source`` to the middle of ``target``."""
    a = b = None
    for _ in range(30):  # the hand or board may be drawn again under the locator meanwhile
        try:
            source.wait_for(state="visible")
            source.scroll_into_view_if_needed(timeout=2000)
            a, b = source.bounding_box(), target.bounding_box()
        except PlaywrightError:
            a = b = None
        if a is not None and b is not None:
            break
        page.wait_for_timeout(100)
    assert a is not None and b is not None
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    for step in range(1, 6):
        page.mouse.move(a["x"] + a["width"] / 2 + (b["x"] - a["x"] + (b["width"] - a["width"]) / 2) * step / 5,
                        a["y"] + a["height"] / 2 + (b["y"] - a["y"] + (b["height"] - a["height"]) / 2) * step / 5)
    page.mouse.up()


def test_generals_set_up_by_dragging_clicks_and_at_random(page: Page, server: Server) -> None:
    game = get_game("generals")
    view = create(server, {"game": "generals", "seats": ["human", "random:seed=4"], "delay": 0})
    key = view["keys"][0]
    received = Received(page, view["id"])
    open_game(page, server, view)
    hand = page.locator('#hand-bottom .hand-piece[data-kind="flag"]')
    drag(page, hand, square(page, "e1"))
    expect(piece(page, "e1")).to_have_class("piece owner-0 kind-flag unseen")
    assert call(server, "GET", f"/api/games/{view['id']}", seat=key)["history"][0]["notation"] == "flag@e1"
    drag(page, page.locator('#hand-bottom .hand-piece[data-kind="spy"]'), square(page, "c3"))
    expect(piece(page, "c3")).to_have_class("piece owner-0 kind-spy unseen")
    page.locator('#hand-bottom .hand-piece[data-kind="private"]').click()
    square(page, "d1").click()
    expect(piece(page, "d1")).to_have_class("piece owner-0 kind-private unseen")
    expect(page.locator("#hand-bottom .hand-piece[data-kind='private']")).to_have_attribute("data-count", "5")
    shoot(page, "generals-setup")
    page.locator("#random-setup").click()
    view = wait_view(server, view["id"], key, lambda v: v["human_turn"] and not v["legal"][0].get("drop"))
    expect(page.locator("#random-setup")).to_be_hidden()
    expect(page.locator("#board .pieces .owner-0")).to_have_count(21)
    expect(page.locator("#board .pieces .owner-0.unseen")).to_have_count(21)  # no rank is known to black
    expect(page.locator("#board .pieces .owner-1.kind-hidden")).to_have_count(21)
    assert len(view["unseen"]) == 21
    shoot(page, "generals-play")
    # nothing of black's ranks reached the page: its pieces and its hand are unknown ones
    views = received.views()
    assert len(views) > 21
    for seen in views:
        assert all(c["kind"] == "hidden" for c in seen["cells"] if c and c["owner"] == 1)
        assert all(e["piece"]["kind"] == "hidden" for e in seen.get("hands", [[], []])[1])
    assert game.hidden_information


def test_generals_reveal_at_the_end(page: Page, server: Server) -> None:
    final, _ = finish_by_click(page, server, "generals", 2)
    expect(page.locator("#status")).to_contain_text("Game over")
    expect(page.locator("#hidden-note")).to_contain_text("Final position revealed")
    expect(page.locator("#board .pieces .kind-hidden")).to_have_count(0)
    assert final["revealed"]
    expect(page.locator("#board .pieces .revealed")).to_have_count(len(final["revealed"]))
    expect(page.locator("#board .pieces .owner-0.revealed")).to_have_count(0)  # the enemy's, not one's own
    page.wait_for_timeout(1000)  # the reveal's fading in is over
    shoot(page, "generals-reveal")
