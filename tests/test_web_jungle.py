"""End-to-end test of Jungle in the browser: the board drawn as its players know it (blue
water, staked traps, dens, the animals written on discs) and moves by clicks: the lion's
leap over the river, the rat's swim and a capture.  The fixtures (a real server,
a headless chromium) are those of ``test_web_e2e``; like it, this module is skipped
outside CI without Playwright."""

from __future__ import annotations

import re

# (test_web_e2e first: it skips this module too where Playwright is missing, outside CI)
from test_web_e2e import (  # noqa: F401, I001  (fixtures: browser, page, server)
    browser, create, open_game, page, piece, server, shoot, square, wait_played)
from playwright.sync_api import Page, expect
from web_server import Server


def test_jungle_is_drawn_with_its_terrain_and_played_by_clicks(page: Page, server: Server) -> None:
    position = "l5t/1d3c1/r1p1w2/7/7/7/eL3R1/1C3D1/T6 w - - 0 1"
    view = create(server, {"game": "jungle", "seats": ["human", "human"], "position": position})
    open_game(page, server, view)
    board = page.locator("#board")
    expect(board).to_have_class(re.compile(r"\bstyle-terrain\b"))
    expect(board.locator(".terrain-water")).to_have_count(12)
    expect(board.locator(".terrain-trap")).to_have_count(6)
    expect(board.locator(".terrain-den")).to_have_count(2)
    expect(board.locator(".den-text")).to_have_count(2)
    expect(piece(page, "b3")).to_contain_text("獅")
    expect(piece(page, "a3")).to_contain_text("象")
    shoot(page, "jungle-board")
    square(page, "b3").click()  # the lion leaps b4-b6 to b7
    square(page, "b7").click()
    assert wait_played(page, 1)[0] == "Lb3-b7"
    square(page, "a7").click()  # the black rat takes nothing; it steps to a6
    square(page, "a6").click()
    wait_played(page, 2)
    square(page, "f3").click()  # red rat swims to f4
    square(page, "f4").click()
    assert wait_played(page, 3)[2] == "Rf3-f4"
    square(page, "a6").click()
    square(page, "a5").click()
    wait_played(page, 4)
    square(page, "b7").click()  # the lion takes the leopard beside it
    square(page, "c7").click()
    assert wait_played(page, 5)[4] == "Lb7xc7"
    expect(piece(page, "c7")).to_contain_text("獅")
