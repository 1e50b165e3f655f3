"""Two people on two browsers, and a watcher: a timed game by an invitation link, moves seen
at once on every page, reloads that change nothing, draw offers, resignation, a flag fall
and a rematch.  A real server (``python -m myriad.web``) and headless chromium, each person
in a browser context of their own; screenshots go to ``tests/artifacts/play-*.png``."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import pytest
from test_web_e2e import (CLIENT, Browser, Page, call, create, expect, move_cells, new_page, open_game, shoot,
                          square)
from test_web_e2e import browser as browser  # noqa: F401  (the module's fixtures)
from test_web_e2e import page as page  # noqa: F401
from web_server import Server

from myriad.games import game_ids, get_game


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("play") / "games.sqlite3", workers=1)
    yield running
    running.stop()


def seconds(text: str) -> float:
    """A clock's text ("4:58", "0:09.3", "1:02:00") in seconds."""
    parts = [float(p) for p in text.split(":")]
    total = 0.0
    for part in parts:
        total = total * 60 + part
    return total


def clock_text(page: Page, bar: str) -> str:
    return page.locator(f"#{bar} .clock .clock-time").inner_text()


def move(page: Page, frm: str, to: str) -> None:
    square(page, frm).click()
    square(page, to).click()


def ended(who: str, why: str) -> re.Pattern[str]:
    """The status line at the end: "Game over: white wins (resignation)" or, where the end is
    written in words, "White wins by resignation"."""
    return re.compile(rf"(Game over: )?{who} (\({why}\)|by {why})", re.IGNORECASE)


def wait_status(page: Page, text: str | re.Pattern[str]) -> None:
    expect(page.locator("#status")).to_have_text(text)


def same_clocks(page: Page, server: Server, game_id: str) -> None:
    """The page's clocks show the server's numbers (within the time the check takes)."""
    clock = call(server, "GET", f"/api/games/{game_id}")["clock"]
    flipped = page.locator("#bar-bottom .player-name").inner_text().lower() == "black"
    for bar, player in (("bar-bottom", 1 if flipped else 0), ("bar-top", 0 if flipped else 1)):
        shown = seconds(clock_text(page, bar))
        assert abs(shown - clock["main"][player]) < 2.5, (bar, shown, clock)


def test_two_people_play_a_timed_game_with_a_watcher(browser: Browser, server: Server) -> None:
    with new_page(browser) as alice, new_page(browser) as bob, new_page(browser) as watcher:
        alice.goto(server.base)
        alice.select_option("#game-select", "chess")
        alice.select_option('#seats select[data-player="0"]', "human")
        alice.select_option('#seats select[data-player="1"]', "human")
        alice.select_option("#clock-kind", "5+3")
        shoot(alice, "play-new-game-form")
        alice.click("#start-game")
        expect(alice.locator('#board[data-game="chess"]')).to_be_visible()
        expect(alice.locator(".player-bar .clock")).to_have_count(2)
        assert clock_text(alice, "bar-bottom") == "5:00" and clock_text(alice, "bar-top") == "5:00"
        game_id = alice.url.rsplit("/", 1)[1]
        link = alice.locator('#invites .invite[data-player="1"]').get_attribute("href")
        assert link is not None and "#seat=" in link
        bob.goto(link)
        expect(bob.locator('#board[data-game="chess"]')).to_be_visible()
        expect(bob.locator("#bar-bottom .player-name")).to_have_text("black")
        watch = alice.locator("#invites .watch-link").get_attribute("href")
        assert watch == f"{server.base}/#/game/{game_id}"  # the public link: no key in it
        watcher.goto(watch)
        expect(watcher.locator("#watching")).to_be_visible()
        expect(watcher.locator("#offers button")).to_have_count(0)  # a watcher neither resigns nor offers

        # Moves appear on the other pages at once; the clock runs from the first move.
        move(alice, "e2", "e4")
        for page in (alice, bob, watcher):
            expect(move_cells(page).first).to_have_text("e4")
        # Bob took black's seat up: with the next change Alice's page lets go of it, and plays
        # white only.
        expect(alice.locator("#invites .claimed")).to_have_text("Black: played from the browser that opened "
                                                                "its invitation")
        expect(alice.locator("#invites .invite")).to_have_count(1)
        assert alice.evaluate(f"JSON.parse(localStorage.getItem('myriad.keys.{game_id}'))")[1] is None
        shoot(alice, "play-alice-handed-over")
        expect(bob.locator("#bar-bottom .clock.running")).to_have_count(1)
        expect(watcher.locator(".clock.running")).to_have_count(1)
        wait_status(alice, "Black to move")  # not Alice's move any more
        expect(alice.locator("#board.interactive")).to_have_count(0)
        expect(alice.locator("#offer-draw")).to_be_visible()  # (offered as white, her seat)
        bob.wait_for_timeout(1500)
        assert seconds(clock_text(bob, "bar-bottom")) < 299  # black's time is going
        move(bob, "e7", "e5")
        for page in (alice, bob, watcher):
            expect(move_cells(page).nth(1)).to_have_text("e5")
        expect(alice.locator("#bar-bottom .clock.running")).to_have_count(1)
        black = call(server, "GET", f"/api/games/{game_id}")["clock"]["main"][1]
        assert 295 < black < 303  # charged, then 3 s added
        shoot(bob, "play-bob-black")

        # A reload on either side changes nothing: the same moves, the same clocks.
        for page in (bob, alice):
            page.reload()
            expect(move_cells(page).nth(1)).to_have_text("e5")
            same_clocks(page, server, game_id)
        expect(alice.locator("#bar-bottom .clock.running")).to_have_count(1)
        wait_status(alice, "Your move (white)")
        expect(alice.locator("#undo")).to_be_hidden()  # a game on the clock takes no moves back

        # A draw offer shows on the other side, and is declined; the next move withdraws one.
        alice.click("#offer-draw")
        expect(bob.locator("#offers .draw-offer")).to_have_text("white offers a draw")
        expect(watcher.locator("#offers .draw-offer")).to_have_text("white offers a draw")
        expect(alice.locator("#offer-draw")).to_be_disabled()
        shoot(bob, "play-draw-offered")
        bob.click("#decline-draw")
        expect(alice.locator("#offer-draw")).to_be_enabled()
        expect(bob.locator("#offers .draw-offer")).to_have_count(0)
        alice.click("#offer-draw")
        expect(bob.locator("#accept-draw")).to_be_visible()
        move(alice, "g1", "f3")
        expect(bob.locator("#accept-draw")).to_have_count(0)  # withdrawn by the move

        # Bob resigns (two clicks): every page says so.
        bob.click("#resign")
        expect(bob.locator("#resign")).to_have_text("Really resign?")
        bob.click("#resign")
        for page in (alice, bob, watcher):
            wait_status(page, ended("white wins", "resignation"))
        expect(alice.locator(".clock.running")).to_have_count(0)
        shoot(watcher, "play-resigned-watcher")

        # A rematch: seats swapped, the same clock, both players follow, the watcher gets a link.
        alice.click("#rematch")
        expect(alice.locator("#bar-bottom .player-name")).to_have_text("black")
        expect(bob.locator("#bar-bottom .player-name")).to_have_text("white")
        rematch = alice.url.rsplit("/", 1)[1]
        assert rematch != game_id and bob.url.endswith(f"#/game/{rematch}")
        wait_status(bob, "Your move (white)")
        assert clock_text(bob, "bar-bottom") == "5:00"
        expect(watcher.locator("#rematch-link")).to_have_text("Watch the rematch →")
        move(bob, "d2", "d4")
        expect(move_cells(alice).first).to_have_text("d4")
        wait_status(alice, "Your move (black)")
        watcher.click("#rematch-link")
        expect(move_cells(watcher).first).to_have_text("d4")
        expect(watcher.locator("#watching")).to_be_visible()
        shoot(alice, "play-rematch-alice")


@contextlib.contextmanager
def two_players(browser: Browser, server: Server, view: dict[str, Any]) -> Iterator[tuple[Page, Page]]:
    with new_page(browser, CLIENT) as white, new_page(browser) as black:
        open_game(white, server, {**view, "keys": [view["keys"][0], None]})
        open_game(black, server, {**view, "keys": [None, view["keys"][1]]})
        yield white, black


def test_a_flag_falls_on_both_pages_with_nobody_moving(browser: Browser, server: Server) -> None:
    view = create(server, {"game": "chess", "seats": ["human", "human"],
                           "clock": {"kind": "fischer", "base": 3, "increment": 0}})
    with two_players(browser, server, view) as (white, black):
        move(white, "e2", "e4")
        expect(black.locator("#bar-bottom .clock.running")).to_have_count(1)
        expect(black.locator("#bar-bottom .clock.low")).to_have_count(1)  # three seconds: low from the start
        for page in (white, black):
            wait_status(page, ended("white wins", "time forfeit"))
        expect(black.locator("#bar-bottom .clock.out")).to_have_count(1)
        assert clock_text(black, "bar-bottom") == "0:00.0"
        expect(black.locator("#rematch")).to_be_visible()
        shoot(black, "play-flag-fall")
        record = white.evaluate("fetch(document.getElementById('export').href).then(r => r.text())")
        assert '[Termination "time forfeit"]' in record and '[Result "1-0"]' in record
        assert '[TimeControl "3+0"]' in record


def test_an_agreed_draw_and_byoyomi_clocks(browser: Browser, server: Server) -> None:
    view = create(server, {"game": "shogi", "seats": ["human", "human"],
                           "clock": {"kind": "byoyomi", "base": 60, "periods": 3, "period": 30}})
    with two_players(browser, server, view) as (first, second):
        expect(first.locator("#bar-bottom .clock .clock-extra")).to_have_text("+ 3×30s")
        legal = call(server, "GET", f"/api/games/{view['id']}", seat=view["keys"][0])["legal"]
        path = next(m["path"] for m in legal if len(m["path"]) == 2)
        move(first, path[0], path[1])
        expect(move_cells(second).first).not_to_be_empty()
        second.click("#offer-draw")
        first.click("#accept-draw")
        for page in (first, second):
            wait_status(page, ended("draw", "agreement"))
        shoot(first, "play-shogi-draw")
        assert re.search(r"^1:00$|^0:5\d$", clock_text(first, "bar-bottom"))


def test_the_form_sets_custom_clocks(page: Page, server: Server) -> None:
    page.goto(server.base)
    page.select_option("#game-select", "shogi")
    page.select_option('#seats select[data-player="0"]', "human")
    page.select_option('#seats select[data-player="1"]', "human")
    page.select_option("#clock-kind", "byoyomi")
    expect(page.locator("#clock-kind option[value=byoyomi]")).to_have_text("byo-yomi (this game's own)")
    expect(page.locator("#clock-increment-field")).to_be_hidden()
    page.fill("#clock-base", "1.5")
    page.fill("#clock-periods", "3")
    page.fill("#clock-period", "20")
    shoot(page, "play-byoyomi-form")
    page.click("#start-game")
    expect(page.locator("#bar-bottom .clock .clock-extra")).to_have_text("+ 3×20s")
    assert clock_text(page, "bar-bottom") == "1:30"
    game_id = page.url.rsplit("/", 1)[1]
    control = call(server, "GET", f"/api/games/{game_id}")["clock"]["control"]
    assert control == {"kind": "byoyomi", "base": 90, "periods": 3, "period": 20, "label": "1.5 min + 3×20 s"}
    page.goto(server.base)
    page.select_option("#game-select", "chess")
    page.select_option("#clock-kind", "fischer")
    page.fill("#clock-base", "2")
    page.fill("#clock-increment", "1")
    page.click("#start-game")
    expect(page.locator("#bar-bottom .clock")).to_have_count(1)
    assert clock_text(page, "bar-bottom") == "2:00"
    # A game of more than two players has no clock to choose; a bad one is refused in words.
    many = next(g for g in game_ids() if get_game(g).players > 2)
    page.goto(server.base)
    page.select_option("#game-select", many)
    expect(page.locator("#clock-field")).to_be_hidden()
    page.select_option("#game-select", "chess")
    page.select_option("#clock-kind", "fischer")
    page.fill("#clock-base", "999")  # over three hours: the form itself refuses it
    assert page.eval_on_selector("#clock-base", "e => e.validity.valid") is False
    page.fill("#clock-base", "0.01")  # under a second: the server refuses it, and the page says why
    page.click("#start-game")
    expect(page.locator("#message")).to_contain_text("clock: fischer base must be a number of seconds "
                                                     "from 1 to 10800, not 0.6")
    expect(page.locator("#list-view")).to_be_visible()


def test_byoyomi_periods_count_down_on_the_page_and_the_last_one_loses(browser: Browser, server: Server) -> None:
    view = create(server, {"game": "chess", "seats": ["human", "human"],
                           "clock": {"kind": "byoyomi", "base": 0, "periods": 2, "period": 4}})
    with two_players(browser, server, view) as (white, black):
        move(white, "e2", "e4")
        extra = black.locator("#bar-bottom .clock .clock-extra")
        expect(extra).to_have_text("2×4s")  # in its periods from the start: two of four seconds
        assert seconds(clock_text(black, "bar-bottom")) <= 4
        expect(extra).to_have_text("1×4s", timeout=6_000)  # the first period ran out: the last one
        expect(black.locator("#bar-bottom .clock.low")).to_have_count(1)
        shoot(black, "play-byoyomi-last-period")
        for page in (white, black):
            wait_status(page, ended("white wins", "time forfeit"))
