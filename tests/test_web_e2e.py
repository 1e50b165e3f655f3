"""End-to-end tests of the browser app: a real server, a real headless chromium.

The server runs as a subprocess (``python -m myriad.web``) on a free port with a fresh
database; Playwright drives Debian's chromium (``scripts/install-browser.sh`` installs it).
Outside CI the tests are skipped when chromium or Playwright is missing; in CI (``CI=true``)
they fail instead.  Screenshots of the game list and of several boards are saved to
``tests/artifacts/``.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_server import Server

from myriad.games import game_ids, get_game

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
# The client secret of the tests' API calls, also given to the pages of ``page``: games made
# through the API are that page's own.
CLIENT = "c1" * 32

try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None

if not IN_CI and (sync_playwright is None or not Path(CHROMIUM).exists()):
    pytest.skip("end-to-end tests need Playwright and /usr/bin/chromium "
                "(pip install playwright; bash scripts/install-browser.sh)", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web") / "games.sqlite3", workers=2)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert sync_playwright is not None, "Playwright is not installed (pip install playwright)"
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} missing: run bash scripts/install-browser.sh"
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@contextlib.contextmanager
def new_page(browser: Browser, client: str | None = None, **options: Any) -> Iterator[Page]:
    """A page in a browser context of its own (its own storage: another person), with
    ``client`` as its client secret (None: the page makes one); fails on JavaScript errors."""
    context = browser.new_context(**{"viewport": {"width": 1200, "height": 900}, **options})
    if client is not None:
        context.add_init_script(f"localStorage.setItem('myriad.client', {json.dumps(client)})")
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda err: errors.append(str(err)))
    opened.set_default_timeout(15_000)
    expect.set_options(timeout=15_000)  # assertions too wait out a stalled machine (default 5 s)
    try:
        yield opened
    finally:
        context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with new_page(browser, CLIENT) as opened:
        yield opened


def call(server: Server, method: str, path: str, body: Any = None, client: str | None = CLIENT,
         seat: str | None = None) -> Any:
    """One JSON request as the client ``client`` acting with the seat key ``seat``."""
    headers = {"Content-Type": "application/json"}
    if client is not None:
        headers["X-Myriad-Client"] = client
    if seat is not None:
        headers["X-Myriad-Seat"] = seat
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.base + path, data, headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def create(server: Server, body: dict[str, Any], client: str = CLIENT) -> dict[str, Any]:
    """A new game of ``client``'s: its view, with the seat keys under "keys"."""
    view: dict[str, Any] = call(server, "POST", "/api/games", body, client)
    assert len(view["keys"]) == len(view["seats"])
    return view


def shoot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def square(page: Page, name: str) -> Any:
    return page.locator(f'#board rect.hit[data-square="{name}"]')


def box(page: Page, name: str, unlike: Any = None) -> Any:
    """The square's bounding box once it is drawn (and differs from ``unlike``: the board
    may be redrawn just after a click)."""
    deadline = time.monotonic() + 5
    while True:
        found = square(page, name).bounding_box()
        if (found is not None and found != unlike) or time.monotonic() > deadline:
            return found
        page.wait_for_timeout(50)


def piece(page: Page, name: str) -> Any:
    return page.locator(f'#board .pieces [data-square="{name}"]')


def move_cells(page: Page) -> Any:
    return page.locator("#moves td")


def played(page: Page) -> list[str]:
    return [t for t in move_cells(page).all_inner_texts() if t.strip()]


def wait_played(page: Page, count: int, timeout: float = 15_000) -> list[str]:
    """The moves in the move list, once there are at least ``count``."""
    page.wait_for_function(
        "n => [...document.querySelectorAll('#moves td')].filter(td => td.textContent.trim()).length >= n",
        arg=count, timeout=timeout)
    return played(page)


def move_button(page: Page, notation: str) -> Any:
    """The button that makes a move not entered on the board (a pass, a roll, a hold)."""
    return page.locator(f'.actions button[data-notation="{notation}"]')


def enter(page: Page, move: dict[str, Any]) -> None:
    """Enter ``move`` (from a view's ``legal``) as a player does: its squares, else its
    button; a drop picks its piece from the hand first."""
    if not move["path"]:
        move_button(page, move["notation"]).click()
    if move.get("drop"):
        drop = move["drop"]
        page.locator(f'.hand .hand-piece[data-owner="{drop["owner"]}"][data-kind="{drop["kind"]}"]').click()
    for name in move["path"]:
        square(page, name).click()


def open_game(page: Page, server: Server, view: dict[str, Any]) -> None:
    """Open the game made by ``create`` in ``page``, which holds its seat keys."""
    name, keys = json.dumps(f"myriad.keys.{view['id']}"), json.dumps(json.dumps(view["keys"]))
    store = f"localStorage.setItem({name}, {keys})"
    if page.url.startswith(server.base):
        page.evaluate(store)  # (going to another game of the page changes the hash only: no reload)
    else:
        page.context.add_init_script(store)
    page.goto(f"{server.base}/#/game/{view['id']}")
    expect(page.locator(f'#board[data-game="{view["game"]}"]')).to_be_visible()


# -- the tests ----------------------------------------------------------------------------------

def test_chess_against_a_bot_move_answer_undo(page: Page, server: Server) -> None:
    page.goto(server.base)
    expect(page.locator("#list-view")).to_be_visible()
    page.select_option("#game-select", "chess")
    page.select_option('#seats select[data-player="0"]', "human")
    page.select_option('#seats select[data-player="1"]', "easy")
    page.click("#start-game")
    expect(page).to_have_url(re.compile(r"#/game/\w+"))
    expect(page.locator('#board[data-game="chess"]')).to_be_visible()
    expect(page.locator("#status")).to_have_text("Your move (white)")

    square(page, "e2").click()
    # The pawn's two targets are marked, nothing else.
    targets = page.locator("#board [data-target]")
    expect(targets).to_have_count(2)
    assert sorted(targets.evaluate_all("els => els.map(e => e.dataset.target)")) == ["e3", "e4"]
    square(page, "e4").click()

    expect(move_cells(page).nth(1)).not_to_have_text("")  # the bot answered
    moves = played(page)
    assert moves[0] == "e4" and len(moves) == 2
    expect(page.locator("#status")).to_have_text("Your move (white)")
    expect(piece(page, "e4")).to_have_count(1)
    expect(piece(page, "e2")).to_have_count(0)
    assert page.locator("#board .mark-last").count() == 2  # the bot's move is marked
    shoot(page, "chess")

    page.click("#undo")  # back to the human's turn: both moves taken back
    expect(move_cells(page)).to_have_count(0)
    expect(piece(page, "e2")).to_have_count(1)
    expect(piece(page, "e4")).to_have_count(0)
    expect(page.locator("#redo")).to_be_enabled()


def test_drag_a_piece_and_refused_input(page: Page, server: Server) -> None:
    view = create(server, {"game": "chess", "seats": ["human", "human"]})
    open_game(page, server, view)
    page.drag_and_drop('#board rect.hit[data-square="g1"]', '#board rect.hit[data-square="f3"]')
    expect(move_cells(page).first).to_have_text("Nf3")
    # An illegal move gets a message and changes nothing.
    square(page, "e7").click()
    square(page, "e4").click()
    expect(page.locator("#message")).to_have_text("e7–e4 is not a legal move.")
    square(page, "a8").click()
    expect(page.locator("#message")).to_have_text("The rook on a8 has no legal move.")
    assert played(page) == ["Nf3"]
    assert page.locator("#board [data-target]").count() == 0
    # A malformed position gets a visible message and the game stays as it was.
    page.fill("#open-position", "this is not a position")
    page.click("#open-position-button")
    expect(page.locator("#message")).to_contain_text("Position not opened")
    expect(page).to_have_url(re.compile(view["id"]))
    assert played(page) == ["Nf3"]


def test_controls_flip_rules_sound_export_copy(page: Page, server: Server) -> None:
    view = create(server, {"game": "chess", "seats": ["human", "human"]})
    open_game(page, server, view)
    a1 = box(page, "a1")
    h8 = box(page, "h8")
    assert a1 is not None and h8 is not None and a1["y"] > h8["y"] and a1["x"] < h8["x"]
    page.click("#flip")
    a1_flipped = box(page, "a1", unlike=a1)
    h8_flipped = box(page, "h8", unlike=h8)
    assert a1_flipped is not None and h8_flipped is not None
    assert a1_flipped["y"] < h8_flipped["y"] and a1_flipped["x"] > h8_flipped["x"]
    assert (a1_flipped["x"], a1_flipped["y"]) == (h8["x"], h8["y"])
    expect(page.locator("#bar-bottom .player-name")).to_have_text("black")
    page.click("#rules-toggle")
    expect(page.locator("#rules-text")).to_contain_text("Checkmate the opponent")
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "true")
    page.click("#sound")
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('myriad.muted')") == "1"
    record = page.request.get(server.base + page.locator("#export").get_attribute("href"))
    assert record.ok and '[Game "chess"]' in record.text()
    page.click("#copy-position")
    expect(page.locator("#message")).to_contain_text("Position")
    expect(page.locator("#position-text")).to_have_value(view["position"])


def test_position_from_the_url(page: Page, server: Server) -> None:
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    page.goto(f"{server.base}/?game=chess&position={urllib.parse.quote(fen)}")
    expect(page.locator('#board[data-game="chess"]')).to_be_visible()
    expect(page.locator("#position-text")).to_have_value(fen)
    assert sorted(page.locator("#board .pieces [data-square]").evaluate_all(
        "els => els.map(e => e.dataset.square)")) == ["e1", "e2", "e8"]
    page.goto(f"{server.base}/?game=chess&position=rubbish")
    expect(page.locator("#message")).to_contain_text("Cannot open the position")
    expect(page.locator("#list-view")).to_be_visible()


def test_promotion_asks_for_the_piece(page: Page, server: Server) -> None:
    view = create(server, {"game": "chess", "seats": ["human", "human"],
                                              "position": "8/1P5k/8/8/8/8/8/K7 w - - 0 1"})
    open_game(page, server, view)
    square(page, "b7").click()
    square(page, "b8").click()
    choices = page.locator("#promotion-choices .choice")
    expect(choices).to_have_count(4)
    page.click('#promotion-choices .choice[data-notation="b8=N"]')
    expect(move_cells(page).first).to_have_text("b8=N")
    expect(page.locator('#board .pieces .kind-knight[data-square="b8"]')).to_have_count(1)


def test_draughts_multi_capture_by_clicks(page: Page, server: Server) -> None:
    view = create(server, {"game": "checkers", "seats": ["human", "human"],
                                              "position": "B:W18,19,26,27:B14"})
    open_game(page, server, view)
    square(page, "14").click()
    square(page, "23").click()  # the first jump: the path is shown, the next landings marked
    expect(page.locator("#board polyline.path-line")).to_have_count(1)
    targets = page.locator("#board [data-target]").evaluate_all("els => els.map(e => e.dataset.target)")
    assert sorted(targets) == ["30", "32"]
    assert played(page) == []  # nothing is played before the capture is complete
    square(page, "30").click()
    assert wait_played(page, 1) == ["14x23x30"]
    on_board = page.locator("#board .pieces [data-square]").evaluate_all("els => els.map(e => e.dataset.square)")
    assert sorted(on_board, key=int) == ["19", "27", "30"]  # 18 and 26 were taken
    shoot(page, "draughts")


def test_reversi_between_two_bots_to_the_end(page: Page, server: Server) -> None:
    page.goto(server.base)
    page.select_option("#game-select", "othello")
    page.select_option('#seats select[data-player="0"]', "easy")
    page.select_option('#seats select[data-player="1"]', "custom")
    page.fill('#seats .seat:nth-child(2) input', "random")
    page.click("#start-game")
    expect(page.locator('#board[data-game="othello"]')).to_be_visible()
    expect(page.locator("#bot-controls")).to_be_visible()
    # At the normal speed the moves arrive one by one...
    seen = set()
    deadline = time.monotonic() + 10
    while len(seen) < 3 and time.monotonic() < deadline:
        seen.add(move_cells(page).count())
        time.sleep(0.2)
    assert len(seen) >= 3, f"the bot game did not progress visibly: {seen}"
    # ... then the fastest speed plays the game out.
    page.select_option("#speed", "0")
    expect(page.locator("#status")).to_contain_text("Game over", timeout=90_000)
    black = page.locator("#board .pieces .owner-0").count()
    white = page.locator("#board .pieces .owner-1").count()
    status = page.locator("#status").inner_text()
    if black == white:
        assert "Draw by equal discs" in status
    else:
        assert f"{'Black' if black > white else 'White'} wins by more discs: " in status
    shoot(page, "reversi")


def test_kalah_sowing_and_extra_turn(page: Page, server: Server) -> None:
    view = create(server, {"game": "kalah", "seats": ["human", "easy"]})
    open_game(page, server, view)
    square(page, "c").click()  # four seeds from c: the last one lands in the store
    expect(move_cells(page).first).to_have_text("c")
    counts = page.locator("#board text.count").evaluate_all(
        "els => Object.fromEntries(els.map(e => [e.dataset.square, e.textContent]))")
    assert counts["c"] == "0" and counts["store_s"] == "1" and counts["d"] == "5"
    expect(page.locator("#status")).to_have_text("Your move (south)")  # another turn
    shoot(page, "kalah")


def test_game_list_filter_and_phone_width(page: Page, server: Server, browser: Browser) -> None:
    for game in ("gomoku", "international", "connect4"):
        create(server, {"game": game, "seats": ["human", "human"]})
    page.goto(server.base)
    expect(page.locator(".game-card").first).to_be_visible()
    assert page.locator(".game-card svg.board").count() == page.locator(".game-card").count()
    shoot(page, "list")
    page.select_option("#family-filter", "draughts")
    expect(page.locator('.game-card[data-game="gomoku"]')).to_have_count(0)
    games = set(page.locator(".game-card").evaluate_all("els => els.map(e => e.dataset.game)"))
    assert games and games <= {"checkers", "russian", "brazilian", "international"}
    page.select_option("#family-filter", "")

    with new_page(browser, CLIENT, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True) as small:
        view = create(server, {"game": "gomoku", "seats": ["human", "human"]})
        open_game(small, server, view)
        small.locator('#board rect.hit[data-square="h8"]').tap()
        expect(small.locator("#moves td").first).to_have_text("h8")
        width = small.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px screen"
        board = small.locator("#board").bounding_box()
        assert board is not None and board["width"] <= 390
        ARTIFACTS.mkdir(exist_ok=True)
        small.screenshot(path=str(ARTIFACTS / "phone-gomoku.png"), full_page=True)


def legal_after_chance(server: Server, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The legal moves once the server's referee has played the chance turns a game starts
    with (fox hunt hides its foxes first), in the view of the first seat: polled for at
    most 10 s."""
    game_id, deadline = view["id"], time.monotonic() + 10
    while time.monotonic() < deadline:
        legal: list[dict[str, Any]] = call(server, "GET", f"/api/games/{game_id}", seat=view["keys"][0])["legal"]
        if legal:
            return legal
        time.sleep(0.1)
    raise AssertionError(f"{game_id}: no legal move 10 s after the start")


def test_every_game_opens_and_takes_a_move(page: Page, server: Server) -> None:
    catalog = server.call("GET", "/api/catalog")
    for layout in catalog["games"]:
        view = create(server, {"game": layout["id"],
                                                  "seats": ["human"] * len(layout["players"])})
        open_game(page, server, view)
        assert layout["rules"], layout["id"]
        expect(page.locator("#rules-text")).to_have_text(layout["rules"])  # the rules panel's text
        move = (view["legal"] or legal_after_chance(server, view))[0]
        enter(page, move)
        # (in a dice game the server's roll may follow at once; in a game with hidden
        # information the shared screen may already show the next player's view: "?")
        assert wait_played(page, 1)[0] in (move["notation"], "?" if layout["hidden"] else None), layout["id"]


def test_a_dark_game_shows_each_page_its_own_view(browser: Browser, server: Server) -> None:
    """Two players of dark chess on two browsers and a watcher: each page draws its own
    seat's view (the watcher the public one), also after a move comes over the WebSocket."""
    view = create(server, {"game": "darkchess", "seats": ["human", "human"], "public": True})
    keys = view["keys"]

    def kind(page: Page, name: str, what: str) -> None:
        expect(piece(page, name)).to_have_class(re.compile(rf"\bkind-{what}\b"))

    with new_page(browser, "dark-white-browser-1") as white, new_page(browser, "dark-black-browser-1") as black, \
            new_page(browser, "dark-watcher-browser-1") as watcher:
        for page, held in ((white, [keys[0], None]), (black, [None, keys[1]]), (watcher, [])):
            open_game(page, server, {**view, "keys": held})
        kind(white, "e2", "pawn")
        kind(white, "e7", "fog")
        kind(black, "e7", "pawn")
        kind(black, "e2", "fog")
        kind(watcher, "e2", "fog")
        kind(watcher, "e7", "fog")
        call(server, "POST", f"/api/games/{view['id']}/moves", {"move": "e4", "ply": 0}, seat=keys[0])
        assert wait_played(white, 1) == ["e4"]
        assert wait_played(black, 1) == ["?"] and wait_played(watcher, 1) == ["?"]
        kind(white, "e4", "pawn")
        kind(black, "e4", "fog")
        kind(watcher, "e4", "fog")
        kind(watcher, "e7", "fog")
        expect(black.locator("#status")).to_contain_text("black")


def test_an_invitation_link_hands_a_seat_to_a_friend(page: Page, server: Server, browser: Browser) -> None:
    page.goto(server.base)
    page.select_option("#game-select", "chess")
    page.select_option('#seats select[data-player="0"]', "human")
    page.select_option('#seats select[data-player="1"]', "human")
    page.click("#start-game")
    expect(page.locator('#board[data-game="chess"]')).to_be_visible()
    # The creator holds both seats' keys: an invitation for each.
    expect(page.locator("#invites .invite")).to_have_count(2)
    link = page.locator('#invites .invite[data-player="1"]').get_attribute("href")
    assert link is not None
    game_id = page.url.rsplit("/", 1)[1]
    assert re.fullmatch(rf"{re.escape(server.base)}/\?game_id={game_id}#seat=[\w-]+", link), link
    square(page, "e2").click()
    square(page, "e4").click()
    expect(move_cells(page).first).to_have_text("e4")

    with new_page(browser) as friend:
        friend.goto(link)
        expect(friend.locator('#board[data-game="chess"]')).to_be_visible()
        expect(friend).to_have_url(f"{server.base}/#/game/{game_id}")  # the key left the address
        key = link.rsplit("#seat=", 1)[1]
        assert friend.evaluate(f"JSON.parse(localStorage.getItem('myriad.keys.{game_id}'))") == [None, key]
        expect(friend.locator("#bar-bottom .player-name")).to_have_text("black")  # seen from black
        expect(friend.locator("#status")).to_have_text("Your move (black)")
        expect(friend.locator("#invites .invite")).to_have_count(1)  # only the seat it holds
        expect(friend.locator("#watching")).to_be_hidden()
        square(friend, "e7").click()
        square(friend, "e5").click()
        expect(move_cells(friend).nth(1)).to_have_text("e5")
        expect(friend.locator("#status")).to_have_text("White to move")
        expect(move_cells(page).nth(1)).to_have_text("e5")  # live on the creator's page
        shoot(friend, "invited")
        # White's turn: the friend's clicks do nothing.
        square(friend, "g1").click()
        expect(friend.locator("#board [data-target]")).to_have_count(0)


def test_a_browser_without_keys_watches(page: Page, server: Server, browser: Browser) -> None:
    view = create(server, {"game": "chess", "seats": ["human", "human"]})
    open_game(page, server, view)
    expect(page.locator("#owner-controls")).to_be_visible()
    with new_page(browser) as watcher:
        watcher.goto(f"{server.base}/?game_id={view['id']}#seat={'0' * 32}")  # a key of no seat
        expect(watcher.locator("#message")).to_contain_text("you can watch it")
        expect(watcher).to_have_url(f"{server.base}/#/game/{view['id']}")
        assert watcher.evaluate(f"localStorage.getItem('myriad.keys.{view['id']}')") is None
        expect(watcher.locator('#board[data-game="chess"]')).to_be_visible()
        expect(watcher.locator("#watching")).to_be_visible()
        expect(watcher.locator("#status")).to_have_text("White to move")
        for hidden in ("#undo", "#redo", "#pass", "#invites", "#owner-controls", "#bot-controls"):
            expect(watcher.locator(hidden)).to_be_hidden()
        expect(watcher.locator("#board.interactive")).to_have_count(0)
        square(watcher, "e2").click()
        expect(watcher.locator("#board [data-target]")).to_have_count(0)
        # The players' moves arrive live; the watcher still cannot move.
        call(server, "POST", f"/api/games/{view['id']}/moves", {"move": "e4"}, seat=view["keys"][0])
        expect(move_cells(watcher).first).to_have_text("e4")
        expect(move_cells(page).first).to_have_text("e4")
        square(watcher, "e7").click()
        expect(watcher.locator("#board [data-target]")).to_have_count(0)
        # Without a key the server refuses too.
        with pytest.raises(urllib.error.HTTPError) as refused:
            call(server, "POST", f"/api/games/{view['id']}/moves", {"move": "e5"}, client="d2" * 32)
        assert refused.value.code == 403


def test_another_clients_list_shows_only_public_games(page: Page, server: Server, browser: Browser) -> None:
    private = create(server, {"game": "tictactoe", "seats": ["human", "human"]})
    public = create(server, {"game": "connect4", "seats": ["human", "human"], "public": True})
    page.goto(server.base)
    for game in (private, public):  # both are the owner's own, with a delete button
        expect(page.locator(f'#games-list .game-card[data-id="{game["id"]}"] .remove')).to_have_count(1)
    with new_page(browser) as other:
        other.goto(server.base)
        card = other.locator(f'#public-list .game-card[data-id="{public["id"]}"]')
        expect(card).to_be_visible()
        expect(other.locator("#public-games")).to_be_visible()
        expect(card.locator(".remove")).to_have_count(0)
        expect(other.locator(f'.game-card[data-id="{private["id"]}"]')).to_have_count(0)
        expect(other.locator("#games-list .game-card")).to_have_count(0)
        expect(other.locator("#no-games")).to_be_visible()


def test_read_only_busy_and_refused_answers(page: Page, server: Server, browser: Browser) -> None:
    """The server's refusals, played by intercepting its answers: a read-only store, a busy
    one (503 with Retry-After: tried once more) and a seat key it does not accept."""
    catalog = call(server, "GET", "/api/catalog")
    view = create(server, {"game": "chess", "seats": ["human", "human"]})
    with new_page(browser, CLIENT) as reader:
        banner = "Read-only while the disk is checked"
        reader.route("**/api/catalog", lambda route: route.fulfill(
            json={**catalog, "read_only": True, "banner": banner}))
        reader.goto(server.base)
        expect(reader.locator("#banner")).to_have_text(banner)
        expect(reader.locator("#start-game")).to_be_disabled()
        open_game(reader, server, view)
        expect(reader.locator("#status")).to_have_text("White to move")
        expect(reader.locator("#board.interactive")).to_have_count(0)

    busy = {"count": 0}

    def once_busy(route: Any) -> None:
        busy["count"] += 1
        if busy["count"] == 1:
            route.fulfill(status=503, headers={"Retry-After": "1"}, json={"error": "the store is busy"})
        else:
            route.continue_()

    open_game(page, server, view)
    expect(page.locator("#banner")).to_be_hidden()
    page.route(f"**/api/games/{view['id']}/moves", once_busy)
    square(page, "e2").click()
    square(page, "e4").click()
    expect(page.locator("#message")).to_contain_text("busy")
    expect(move_cells(page).first).to_have_text("e4")
    assert busy["count"] == 2
    page.unroute(f"**/api/games/{view['id']}/moves")

    # A key the server does not take (here: a wrong one): the page says so and only watches.
    wrong = create(server, {"game": "chess", "seats": ["human", "human"]})
    open_game(page, server, {**wrong, "keys": ["0" * 32, "0" * 32]})
    square(page, "e2").click()
    square(page, "e4").click()
    expect(page.locator("#message")).to_contain_text("You are watching this game")
    expect(page.locator("#watching")).to_be_visible()
    expect(page.locator("#board.interactive")).to_have_count(0)
    assert played(page) == []


def play_to_the_end_by_clicks(page: Page, server: Server, game: str, seed: int = 1) -> dict[str, Any]:
    """Play ``game`` in the browser, human (random moves, entered by clicks) against the
    random bot, until it ends; returns the last view."""
    rng = random.Random(seed)
    players = get_game(game).players  # (one in fox hunt)
    view = create(server, {"game": game, "seats": ["human"] + ["random"] * (players - 1), "delay": 0})
    open_game(page, server, view)
    deadline = time.monotonic() + 600
    while True:
        assert time.monotonic() < deadline, f"{game}: not over in 10 minutes"
        view = server.call("GET", f"/api/games/{view['id']}")
        if view["outcome"] is not None:
            break
        if not view["human_turn"]:
            time.sleep(0.02)
            continue
        wait_played(page, view["ply"])  # the page shows this position
        page.wait_for_function("ply => document.querySelectorAll('#moves td.last').length === (ply ? 1 : 0)",
                               arg=view["ply"])
        move = rng.choice(view["legal"])
        enter(page, move)
        if move["path"]:
            same_path = [m for m in view["legal"] if m["path"] == move["path"] and m.get("drop") == move.get("drop")]
            if len(same_path) > 1:
                page.click(f'#promotion-choices .choice[data-notation="{move["notation"]}"]')
        ply = view["ply"]
        view = server.wait_for_ply(view["id"], ply + 1)
        assert view["history"][ply]["notation"] == move["notation"], game
    expect(page.locator("#status")).to_contain_text("Game over")
    return view


SHORT_GAMES = ["tictactoe", "connect4", "othello4", "kalah", "pig20"]


@pytest.mark.parametrize("game", SHORT_GAMES)
def test_short_games_are_played_to_the_end_by_clicks(page: Page, server: Server, game: str) -> None:
    view = play_to_the_end_by_clicks(page, server, game)
    assert view["outcome"]["reason"]


@pytest.mark.slow
@pytest.mark.parametrize("game", [g for g in game_ids() if g not in SHORT_GAMES])
def test_every_game_is_played_to_the_end_by_clicks(page: Page, server: Server, game: str) -> None:
    view = play_to_the_end_by_clicks(page, server, game)
    assert view["outcome"]["reason"]


def test_pig_by_buttons_shows_the_die_and_the_rolls(page: Page, server: Server) -> None:
    view = create(server, {"game": "pig", "seats": ["human", "random"], "delay": 0})
    open_game(page, server, view)
    expect(move_button(page, "roll")).to_be_visible()
    expect(move_button(page, "hold")).to_have_count(0)   # nothing to hold yet
    move_button(page, "roll").click()
    after = server.wait_for_ply(view["id"], 2)
    face = after["history"][1]["notation"]
    assert after["history"][1]["by"] == "chance"
    assert wait_played(page, 2)[:2] == ["roll", face]
    expect(page.locator("#moves td.chance").first).to_have_text(face)
    if face != "1":  # the same player goes on: roll or hold; the die shows the face
        expect(move_button(page, "hold")).to_be_visible()
        expect(page.locator(f'#board .die[data-face="{face}"]')).to_be_visible()
    shoot(page, "pig")


def test_rolit_shows_four_players_and_their_colours(page: Page, server: Server) -> None:
    view = create(server, {"game": "rolit", "seats": ["human", "random", "random", "random"], "delay": 0})
    open_game(page, server, view)
    expect(page.locator(".player-bar .player")).to_have_count(4)
    expect(page.locator("#bar-bottom .player-name")).to_have_text("red")
    square(page, "f5").click()
    server.wait_for_ply(view["id"], 4)
    wait_played(page, 4)
    fills = page.locator("#board .pieces circle[fill]").evaluate_all("els => els.map(e => e.getAttribute('fill'))")
    assert len(set(fills)) >= 2
    shoot(page, "rolit")


def test_renju_marks_blacks_forbidden_points(page: Page, server: Server) -> None:
    # h8 would make two open threes for Black: it is crossed out, and a click on it is refused.
    view = create(server, {"game": "renju", "seats": ["human", "human"],
                           "position": "15/15/15/15/15/15/15/5XX8/7X7/7X7/15/15/15/15/O1O1O1O8 x"})
    open_game(page, server, view)
    expect(page.locator('#board [data-blocked="h8"]')).to_have_count(1)
    expect(page.locator("#board [data-blocked]")).to_have_count(1)
    square(page, "h8").click()
    expect(page.locator("#message")).to_contain_text("not a legal move")
    assert played(page) == []
    square(page, "i8").click()  # White may then take the point Black may not
    expect(move_cells(page).first).to_have_text("i8")
    expect(page.locator("#board [data-blocked]")).to_have_count(0)
