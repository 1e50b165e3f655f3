"""End-to-end tests of the browser app with the Asian chess family: xiangqi drawn on the
points with its palaces and river, round pieces with their characters (or letters), a
cannon's capture by clicks; shogi's hands, a drop picked from the hand and the choice to
promote or not.  The fixtures (a real server, a headless chromium) are those of
``test_web_e2e``; like it, this module is skipped outside CI without Playwright."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

# (test_web_e2e first: it skips this module too where Playwright is missing, outside CI)
from test_web_e2e import (  # noqa: F401, I001  (fixtures: browser, page, server)
    ARTIFACTS, CLIENT, box, browser, create, move_cells, new_page, open_game, page, piece, played, server, shoot,
    square, wait_played)
from playwright.sync_api import Browser, Page, expect
from web_server import Server

from myriad.games import game_ids


def drawn_box(locator: Any) -> Any:
    """The element's bounding box once it is drawn (the board is redrawn on each update)."""
    deadline = time.monotonic() + 5
    while (found := locator.bounding_box()) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def test_xiangqi_is_drawn_on_the_points_with_palaces_and_river(page: Page, server: Server) -> None:
    view = create(server, {"game": "xiangqi", "seats": ["human", "human"]})
    open_game(page, server, view)
    board = page.locator("#board")
    expect(board).to_have_class(re.compile(r"\bstyle-intersections\b"))
    # Two palaces with their two diagonals each; the river's name on both halves.
    expect(board.locator(".palace")).to_have_count(2)
    expect(board.locator(".palace line")).to_have_count(4)
    expect(board.locator(".river-label")).to_have_count(2)
    assert board.locator(".river-label").all_text_contents() == ["楚 河", "漢 界"]
    # The inner files stop at the river: 7 of them drawn in two halves, the 2 edges whole.
    assert board.locator(".ground line.grid:not(.edge)").count() - 4 == 7 * 2 + 2 + 10
    # The pieces stand on the points as round discs with their characters, red and black.
    cannon = piece(page, "b3")
    expect(cannon.locator("circle.round-piece")).to_have_count(1)
    expect(cannon.locator("text")).to_have_text("炮")
    expect(piece(page, "b8").locator("text")).to_have_text("砲")
    red = cannon.locator("text").get_attribute("fill")
    black = piece(page, "b8").locator("text").get_attribute("fill")
    assert red == "#d1342f" and black == "#23201d"  # its players, red and black
    # A point's hit cell is centred on the crossing of its lines.
    hit = box(page, "e1")
    disc = drawn_box(cannon.locator("circle.round-piece"))
    assert hit is not None and disc is not None and abs(disc["width"] - 0.86 * hit["width"]) < 2
    shoot(page, "xiangqi")


def test_western_letters_are_a_remembered_setting(page: Page, server: Server) -> None:
    view = create(server, {"game": "xiangqi", "seats": ["human", "human"]})
    open_game(page, server, view)
    expect(page.locator("#board-settings")).to_be_visible()
    expect(page.locator("#western")).not_to_be_checked()
    page.check("#western")
    expect(piece(page, "b3").locator("text")).to_have_text("C")
    expect(piece(page, "e1").locator("text")).to_have_text("K")
    expect(piece(page, "e10").locator("text")).to_have_text("K")
    expect(page.locator(".river-label").first).to_have_text("River")
    assert page.evaluate("localStorage.getItem('myriad.western')") == "1"
    page.reload()
    expect(page.locator("#western")).to_be_checked()
    expect(piece(page, "h3").locator("text")).to_have_text("C")
    page.uncheck("#western")
    expect(piece(page, "h3").locator("text")).to_have_text("炮")
    # Chess has no pieces written as characters: no such setting.
    chess = create(server, {"game": "chess", "seats": ["human", "human"]})
    open_game(page, server, chess)
    expect(page.locator("#board-settings")).to_be_hidden()


def test_xiangqi_cannon_captures_over_a_screen_by_clicks(page: Page, server: Server) -> None:
    view = create(server, {"game": "xiangqi", "seats": ["human", "human"]})
    open_game(page, server, view)
    square(page, "b3").click()
    targets = page.locator("#board [data-target]").evaluate_all("els => els.map(e => e.dataset.target)")
    # Along the file up to the screen (b8), and the horse behind it; along the rank.
    assert "b10" in targets and "b8" not in targets and "b9" not in targets
    expect(page.locator('#board .target-ring[data-target="b10"]')).to_have_count(1)  # a capture: a ring
    square(page, "b10").click()
    assert wait_played(page, 1)[0] == server.call("GET", f"/api/games/{view['id']}")["history"][0]["notation"]
    expect(piece(page, "b10").locator("text")).to_have_text("炮")
    expect(piece(page, "b3")).to_have_count(0)
    after = server.call("GET", f"/api/games/{view['id']}")
    assert after["last"]["captures"] == ["b10"] and after["to_move"] == 1
    assert page.locator("#board .mark-last").count() == 2
    expect(move_cells(page)).to_have_count(2)
    page.click("#rules-toggle")  # the rules panel shows the game's own rules
    expect(page.locator("#rules-text")).to_contain_text("the cannon moves like a rook")


def test_xiangqi_fits_a_phone_and_turns_for_black(server: Server, browser: Browser) -> None:
    view = create(server, {"game": "xiangqi", "seats": ["random", "human"], "delay": 0})
    with new_page(browser, CLIENT, viewport={"width": 390, "height": 800}, is_mobile=True, has_touch=True) as small:
        open_game(small, server, view)
        width = small.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px screen"
        # Black's seat is seen from below: its general at the bottom, pointing the river up.
        e10, e1 = box(small, "e10"), box(small, "e1")
        assert e10 is not None and e1 is not None and e10["y"] > e1["y"]
        expect(small.locator("#bar-bottom .player-name")).to_have_text("black")
        server.wait_for_ply(view["id"], 1)
        expect(small.locator("#board .mark-last")).to_have_count(2)
        ARTIFACTS.mkdir(exist_ok=True)
        small.screenshot(path=str(ARTIFACTS / "phone-xiangqi.png"), full_page=True)


def hand_piece(page: Page, owner: int, kind: str) -> Any:
    return page.locator(f'.hand .hand-piece[data-owner="{owner}"][data-kind="{kind}"]')


def test_shogi_drop_picked_from_the_hand(page: Page, server: Server) -> None:
    # Sente holds gote's silver (taken from 3a), as SFEN writes it: "S" after the side.
    view = create(server, {"game": "shogi", "seats": ["human", "human"],
                           "position": "lnsgkg1nl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b S 1"})
    open_game(page, server, view)
    expect(page.locator("#board")).to_have_class(re.compile(r"\bstyle-grid\b"))
    # Files numbered 9 to 1 and ranks a to i, as USI names the squares the moves are written in.
    assert page.locator("#board .labels .coord").all_text_contents() == [*"987654321", *"ihgfedcba"]
    # Each side's pieces point at the other: sente's up, gote's down.
    expect(piece(page, "e1").locator(".wedge.up")).to_have_count(1)
    expect(piece(page, "e9").locator(".wedge.down")).to_have_count(1)
    expect(piece(page, "e1").locator("text")).to_have_text("玉")
    expect(piece(page, "e9").locator("text")).to_have_text("王")
    king, pawn = drawn_box(piece(page, "e1").locator("polygon")), drawn_box(piece(page, "e3").locator("polygon"))
    assert king["height"] > pawn["height"] * 1.1  # the king is the largest piece, pawns the smallest
    # Sente's hand below the board, gote's (empty) above it.
    expect(page.locator("#hand-bottom .hand-piece")).to_have_count(1)
    expect(page.locator("#hand-top .hand-piece")).to_have_count(0)
    expect(page.locator("#hand-top")).to_contain_text("gote: no pieces in hand", ignore_case=True)
    silver = hand_piece(page, 0, "silver")
    expect(silver).to_have_attribute("data-count", "1")
    expect(silver.locator(".hand-count")).to_have_text("1")
    assert page.locator("#board [data-target]").count() == 0
    silver.click()
    expect(silver).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator("#status")).to_have_text("Sente to move · drop the silver")
    drops = [m for m in view["legal"] if m.get("drop")]
    targets = page.locator("#board [data-target]")
    expect(targets).to_have_count(len(drops))
    assert sorted(targets.evaluate_all("els => els.map(e => e.dataset.target)")) == sorted(
        m["path"][0] for m in drops)
    square(page, "e5").click()  # USI 5e
    assert wait_played(page, 1) == ["S*5e"]
    expect(piece(page, "e5").locator("text")).to_have_text("銀")
    expect(piece(page, "e5").locator(".wedge.up")).to_have_count(1)
    expect(page.locator("#hand-bottom .hand-piece")).to_have_count(0)
    shoot(page, "shogi")
    # The western setting writes the pieces' letters.
    page.check("#western")
    expect(piece(page, "e5").locator("text")).to_have_text("S")


def test_a_drop_on_a_square_it_may_not_go_is_refused(page: Page, server: Server) -> None:
    view = create(server, {"game": "shogi", "seats": ["human", "human"],
                           "position": "lnsgkg1nl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b S 1"})
    open_game(page, server, view)
    hand_piece(page, 0, "silver").click()
    square(page, "e7").click()  # an enemy pawn stands there
    expect(page.locator("#message")).to_have_text("The silver cannot be dropped on e7.")
    expect(page.locator("#board [data-target]")).to_have_count(0)
    assert played(page) == []


def test_shogi_promotion_is_a_choice_promote_or_keep(page: Page, server: Server) -> None:
    view = create(server, {"game": "shogi", "seats": ["human", "human"], "position": "4k4/9/9/4P4/9/9/9/9/4K4 b - 1"})
    open_game(page, server, view)
    square(page, "e6").click()  # the pawn on 5d
    square(page, "e7").click()  # into the camp at 5c: it may promote
    expect(page.locator("#promotion-title")).to_have_text("Promote?")
    choices = page.locator("#promotion-choices .choice")
    expect(choices).to_have_count(2)
    assert choices.evaluate_all(
            "els => els.map(e => [e.dataset.choice, e.dataset.notation, e.querySelector('span').textContent])") == [
        ["promote", "5d5c+", "Promote"], ["keep", "5d5c", "Keep"]]
    page.click('#promotion-choices .choice[data-choice="promote"]')
    assert wait_played(page, 1) == ["5d5c+"]
    tokin = piece(page, "e7")
    expect(tokin).to_have_class(re.compile(r"\bkind-tokin\b"))
    expect(tokin.locator("text")).to_have_text("と")
    expect(tokin.locator("text.promoted")).to_have_count(1)


def test_crazyhouse_pockets_beside_a_chess_board(page: Page, server: Server) -> None:
    view = create(server, {"game": "crazyhouse", "seats": ["human", "human"],
                           "position": "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[N] w KQkq - 0 1"})
    open_game(page, server, view)
    expect(page.locator("#board")).to_have_class(re.compile(r"\bstyle-checkered\b"))
    expect(page.locator("#board-settings")).to_be_hidden()
    knight = hand_piece(page, 0, "knight")
    expect(knight).to_have_attribute("data-count", "1")
    expect(page.locator("#hand-bottom .hand-piece")).to_have_count(1)
    knight.click()
    square(page, "d5").click()
    assert wait_played(page, 1) == ["N@d5"]
    expect(page.locator('#board .pieces .kind-knight[data-square="d5"]')).to_have_count(1)
    expect(page.locator(".hand .hand-piece")).to_have_count(0)


def test_shogi_hands_fit_a_phone_and_turn_with_the_board(server: Server, browser: Browser) -> None:
    # Sente holds a silver, gote a bishop; the page is gote's: gote's hand below the board.
    view = create(server, {"game": "shogi", "seats": ["human", "human"],
                           "position": "lnsgkg1nl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL b Sb 1"})
    with new_page(browser, CLIENT, viewport={"width": 390, "height": 800}, is_mobile=True, has_touch=True) as small:
        open_game(small, server, view)
        expect(hand_piece(small, 0, "silver").locator(".wedge.up")).to_have_count(1)
        expect(small.locator("#hand-top .hand-piece")).to_have_count(1)
        expect(small.locator("#hand-top .hand-piece")).to_have_attribute("data-kind", "bishop")
        expect(small.locator("#hand-top .hand-piece")).to_be_disabled()  # not gote's turn
        small.click("#flip")
        expect(small.locator("#hand-bottom .hand-piece")).to_have_attribute("data-kind", "bishop")
        expect(hand_piece(small, 1, "bishop").locator(".wedge.up")).to_have_count(1)
        expect(piece(small, "e9").locator(".wedge.up")).to_have_count(1)  # gote's king, seen from gote's side
        width = small.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px screen"
        ARTIFACTS.mkdir(exist_ok=True)
        small.screenshot(path=str(ARTIFACTS / "phone-shogi.png"), full_page=True)


def test_a_board_of_points_without_a_river_draws_whole_files(page: Page, server: Server) -> None:
    # Janggi's board: palaces, no river. Drawn by the page's own module from xiangqi's layout
    # without its river (a game declares one by a zone holding each side's half).
    view = create(server, {"game": "xiangqi", "seats": ["human", "human"]})
    open_game(page, server, view)
    counts = page.evaluate("""async () => {
        const { drawBoard } = await import('/static/board.js');
        const layout = { ...(await (await fetch('/api/catalog/xiangqi')).json()), river: null };
        const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
        drawBoard(svg, layout, layout.positions.map(() => null));
        return [svg.querySelectorAll('.ground line.grid:not(.edge)').length,
                svg.querySelectorAll('.palace line').length, svg.querySelectorAll('.river-label').length];
    }""")
    assert counts == [9 + 10 + 4, 4, 0]  # each file and rank whole, the palaces' diagonals, no river


def test_crazyhouse_underpromotion_names_the_promoted_piece(page: Page, server: Server) -> None:
    view = create(server, {"game": "crazyhouse", "seats": ["human", "human"], "position": "8/1P5k/8/8/8/8/8/K7[] w - - 0 1"})
    open_game(page, server, view)
    expect(page.locator(".hand")).to_have_count(2)
    expect(page.locator("#hand-bottom")).to_contain_text("no pieces in hand")
    square(page, "b7").click()
    square(page, "b8").click()
    expect(page.locator("#promotion-title")).to_have_text("Promote to")
    labels = page.locator("#promotion-choices .choice span").all_text_contents()
    assert labels == ["promoted queen", "promoted rook", "promoted bishop", "promoted knight"]
    page.click('#promotion-choices .choice[data-notation="b8=N"]')
    assert wait_played(page, 1) == ["b8=N"]
    expect(page.locator('#board .pieces .kind-promoted-knight[data-square="b8"]')).to_have_count(1)


@pytest.mark.skipif("janggi" not in game_ids(), reason="janggi is not registered yet")
def test_janggi_is_drawn_on_the_points_without_a_river(page: Page, server: Server) -> None:
    view = create(server, {"game": "janggi", "seats": ["human", "human"]})
    open_game(page, server, view)
    expect(page.locator("#board")).to_have_class(re.compile(r"\bstyle-intersections\b"))
    expect(page.locator("#board .palace line")).to_have_count(4)
    expect(page.locator("#board .river-label")).to_have_count(0)
    general = piece(page, "e2").locator("text")  # Cho's general, in the middle of its palace
    expect(general).to_have_text("楚")
    assert general.get_attribute("fill") == "#2f6fd1"  # Cho plays blue (its player name), Han red
    assert piece(page, "e9").locator("text").get_attribute("fill") == "#d1342f"
    shoot(page, "janggi")
