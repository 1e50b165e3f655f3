"""End-to-end tests of reviewing a game in the browser (review.js) and of opening records
(records.js): a real server, a real headless chromium, as in ``test_web_e2e.py``.

The board the page draws is read from the DOM (each piece's square, owner and kind) and
compared with the position the rules engine reaches after that many moves, so a review
that showed the wrong position, or the live one, fails.  Screenshots go to
``tests/artifacts/review-*.png``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from test_web_e2e import (browser, call, create, move_cells, new_page, open_game, page,  # noqa: F401
                          server, shoot, square)
from web_server import Server

from myriad.core.game import Game
from myriad.core.state import State
from myriad.games import get_game
from myriad.notation.records import Record, read_records, replay
from myriad.web.layout import cells_json

from playwright.sync_api import Browser, Page, expect  # (installed: test_web_e2e skips otherwise)

#: A game record as people paste them: tags, comments, NAGs, annotations and a variation.
ANNOTATED_PGN = """[Event "Casual game"]
[White "Anderssen"]
[Black "Kieseritzky"]
[Result "*"]

1. e4 {the king's pawn} e5 2. f4!? exf4 3. Bc4 $6 Qh4+ (3... d5 4. Bxd5 Nf6) 4. Kf1 b5?! 5. Bxb5 Nf6 *
"""
DRAUGHTS_PDN = """[Event "training"]
[GameType "20"]
1. 32-28 19-23 2. 28x19 14x23 3. 37-32 {a quiet move} 10-14 4. 31-27 *
"""
GO9_SGF = "(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[gc];B[cg];W[ce](;B[dc];W[gg])(;B[gg]))"


def board_cells(page: Page) -> dict[str, str]:
    """The pieces drawn on the board: square -> ``owner-N kind-K``."""
    found = page.eval_on_selector_all(
        "#board .pieces .piece[data-square]",
        "els => els.map(e => [e.dataset.square, [...e.classList].filter(c => c !== 'piece').sort().join(' ')])")
    return dict(found)


def expected_cells(game: Game, state: State) -> dict[str, str]:
    """The same for a state of the engine."""
    out = {}
    for name, cell in zip(game.topology.names, cells_json(game, state)):
        if cell:
            out[name] = f"kind-{cell['kind']} owner-{cell['owner']}"
    return out


def shows_ply(page: Page, game: Game, states: list[State], ply: int) -> None:
    """The board says it shows ``ply`` and draws exactly the engine's position there."""
    expect(page.locator("#board")).to_have_attribute("data-ply", str(ply))
    want = expected_cells(game, states[ply])
    page.wait_for_function("n => document.querySelectorAll('#board .pieces .piece').length === n", arg=len(want))
    assert board_cells(page) == want


def states_of(game: Game, moves: list[str], start: State | None = None) -> list[State]:
    return replay(game, Record({} if start is None else {"FEN": game.format_position(start)}, moves))


def server_ply(server: Server, view: dict[str, Any]) -> int:
    return int(call(server, "GET", f"/api/games/{view['id']}")["ply"])


def test_review_a_chess_game_while_it_goes_on(page: Page, server: Server, browser: Browser) -> None:  # noqa: F811
    game = get_game("chess")
    view = create(server, {"game": "chess", "seats": ["human", "human"]})
    open_game(page, server, view)
    for count, move in enumerate(("e2 e4", "e7 e5", "g1 f3", "b8 c6"), start=1):
        for name in move.split():
            square(page, name).click()
        expect(page.locator("#moves td[data-ply]")).to_have_count(count)  # played before the next
    expect(move_cells(page).nth(3)).to_have_text("Nc6")
    states = states_of(game, ["e4", "e5", "Nf3", "Nc6"])
    shows_ply(page, game, states, 4)
    expect(page.locator("#review-bar")).to_be_hidden()

    # A click on White's first move: the position after it, the move highlighted.
    page.locator('#moves td[data-ply="1"]').click()
    shows_ply(page, game, states, 1)
    expect(page.locator("#review-bar")).to_be_visible()
    expect(page.locator("#review-text")).to_contain_text("Reviewing 1. e4 (move 1 of 4) · Black to move")
    expect(page.locator("#moves td.reviewed")).to_have_text("e4")
    expect(page.locator("#status")).to_have_text("In the game: White to move")
    expect(page.locator("#position-text")).to_have_value(game.format_position(states[1]))  # to copy
    assert page.locator("#board .mark-last").count() == 2  # e2 and e4: the move that led there
    shoot(page, "review-chess-move1")
    # Clicks on the board do not move: White's d-pawn stays, the game stays at 4 moves.
    square(page, "d2").click()
    square(page, "d4").click()
    assert page.locator("#board [data-target]").count() == 0
    assert server_ply(server, view) == 4
    shows_ply(page, game, states, 1)

    # The keys: left, Home, right, End.
    page.keyboard.press("ArrowLeft")
    shows_ply(page, game, states, 0)
    expect(page.locator("#moves td.reviewed")).to_have_count(0)
    expect(page.locator("#review-first")).to_be_disabled()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    shows_ply(page, game, states, 2)
    expect(page.locator("#moves td.reviewed")).to_have_text("e5")
    page.keyboard.press("Home")
    shows_ply(page, game, states, 0)
    page.keyboard.press("End")
    shows_ply(page, game, states, 4)
    expect(page.locator("#review-bar")).to_be_hidden()
    # The buttons under the list do the same.
    page.click("#review-prev")
    shows_ply(page, game, states, 3)
    page.click("#review-next")
    shows_ply(page, game, states, 4)

    # A move made elsewhere (the other seat's key, as a friend's browser) while reviewing:
    # the page stays where it is and says that the game moved on.
    page.locator('#moves td[data-ply="2"]').click()
    shows_ply(page, game, states, 2)
    call(server, "POST", f"/api/games/{view['id']}/moves", {"move": "Bb5", "ply": 4}, seat=view["keys"][0])
    expect(move_cells(page).nth(4)).to_have_text("Bb5")
    expect(page.locator("#review-bar")).to_have_class(re.compile("moved-on"))
    expect(page.locator("#review-text")).to_contain_text("the game has moved on (1 new move)")
    shows_ply(page, game, states, 2)
    shoot(page, "review-chess-moved-on")
    page.click("#review-back")
    states = states_of(game, ["e4", "e5", "Nf3", "Nc6", "Bb5"])
    shows_ply(page, game, states, 5)
    expect(page.locator("#review-bar")).to_be_hidden()
    # Back in the game, the board takes moves again.
    square(page, "a7").click()
    square(page, "a6").click()
    expect(move_cells(page).nth(5)).to_have_text("a6")
    assert server_ply(server, view) == 6

    # An undo back to (or before) the position reviewed ends the review: the game is shown.
    page.locator('#moves td[data-ply="5"]').click()
    shows_ply(page, game, states, 5)
    page.click("#undo")
    expect(page.locator("#moves td[data-ply]")).to_have_count(5)
    expect(page.locator("#review-bar")).to_be_hidden()
    shows_ply(page, game, states, 5)
    square(page, "a7").click()
    square(page, "a6").click()
    expect(page.locator("#moves td[data-ply]")).to_have_count(6)

    # A watcher (another browser, no key) reviews the same way.
    with new_page(browser, "w1" * 32) as other:
        other.goto(f"{server.base}/#/game/{view['id']}")
        expect(other.locator("#moves td[data-ply='6']")).to_have_text("a6")
        other.locator('#moves td[data-ply="3"]').click()
        shows_ply(other, game, states_of(game, ["e4", "e5", "Nf3"]), 3)


def test_review_a_dark_game_shows_only_the_seats_own_view(page: Page, server: Server) -> None:  # noqa: F811
    view = create(server, {"game": "darkchess", "seats": ["human", "random:seed=4"], "movetime": 0.05, "delay": 0})
    seat = {"X-Myriad-Seat": view["keys"][0]}
    for ply in (0, 2):
        server.wait_for_ply(view["id"], ply)
        move = view_as(server, view["id"], view["keys"][0])["legal"][0]["notation"]
        call(server, "POST", f"/api/games/{view['id']}/moves", {"move": move, "ply": ply}, seat=view["keys"][0])
    server.wait_for_ply(view["id"], 4)
    open_game(page, server, view)
    expect(page.locator("#moves td[data-ply]")).to_have_count(4)
    assert page.locator('#moves td[data-ply="2"]').inner_text().strip() == "?"  # the bot's move stays hidden
    page.locator('#moves td[data-ply="2"]').click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    frame = call(server, "GET", f"/api/games/{view['id']}/position?ply=2", seat=seat["X-Myriad-Seat"])
    assert frame["last"] is None and any(c and c["kind"] == "fog" for c in frame["cells"])
    names = get_game("darkchess").topology.names
    want = {names[i]: f"kind-{c['kind']} owner-{c['owner']}" for i, c in enumerate(frame["cells"])
            if c and c["kind"] != "fog"}
    drawn = {k: v for k, v in board_cells(page).items() if "kind-fog" not in v}
    assert drawn == want
    assert page.locator("#board .mark-last").count() == 0  # no mark of the bot's hidden move
    shoot(page, "review-darkchess")


def view_as(server: Server, game_id: str, key: str) -> dict[str, Any]:
    return dict(call(server, "GET", f"/api/games/{game_id}", seat=key))


def open_record(page: Page, server: Server, game_id: str, text: str = "", file: Path | None = None) -> None:
    page.goto(server.base)
    expect(page.locator("#list-view")).to_be_visible()
    page.locator("#record-panel summary").click()
    page.select_option("#record-game", game_id)
    if file is not None:
        page.set_input_files("#record-file", str(file))
        expect(page.locator("#record-text")).not_to_have_value("")
    else:
        page.fill("#record-text", text)
    shoot(page, f"review-record-form-{game_id}")
    page.click("#open-record")


def step_through(page: Page, game: Game, states: list[State]) -> None:
    """From the start, right arrow by right arrow to the end, each position checked."""
    shows_ply(page, game, states, 0)
    for ply in range(1, len(states)):
        page.keyboard.press("ArrowRight")
        shows_ply(page, game, states, ply)
    expect(page.locator("#review-bar")).to_be_hidden()  # the last position: the game itself


def test_open_an_annotated_pgn_and_step_through_it(page: Page, server: Server) -> None:  # noqa: F811
    game = get_game("chess")
    record = read_records(ANNOTATED_PGN)[0]
    assert record.moves[:6] == ["e4", "e5", "f4", "exf4", "Bc4", "Qh4+"] and len(record.moves) == 10
    states = replay(game, record)
    open_record(page, server, "chess", ANNOTATED_PGN)
    expect(page).to_have_url(re.compile(r"#/game/\w+"))
    expect(page.locator("#review-text")).to_contain_text("Reviewing the start (10 moves played)")
    expect(page.locator("#moves td[data-ply]")).to_have_count(10)
    assert [t.strip() for t in page.locator("#moves td[data-ply]").all_inner_texts()] == record.moves
    shoot(page, "review-pgn-start")
    step_through(page, game, states)
    page.locator('#moves td[data-ply="6"]').click()  # Black's queen check
    shows_ply(page, game, states, 6)
    expect(page.locator("#review-text")).to_contain_text("Reviewing 3… Qh4+ (move 6 of 10) · White to move")
    shoot(page, "review-pgn-move6")
    # The record is a game of this browser's: an unfinished one can be played on.
    page.keyboard.press("End")
    square(page, "d1").click()
    square(page, "e2").click()
    expect(move_cells(page).nth(10)).to_have_text("Qe2")

    # A finished game: its end in words, and reviewed the same way.
    open_record(page, server, "chess", "1. f3 e5 2. g4 Qh4# 0-1")
    expect(page.locator("#status")).to_have_text("In the game: Game over: Black wins by checkmate")
    mate = states_of(game, ["f3", "e5", "g4", "Qh4#"])
    step_through(page, game, mate)
    page.keyboard.press("ArrowLeft")
    shows_ply(page, game, mate, 3)
    expect(page.locator("#review-text")).to_contain_text("Reviewing 2. g4 (move 3 of 4) · Black to move")
    assert page.locator("#board [data-target]").count() == 0
    # Analysis applies to the position shown: the mate in one before its last move.
    page.select_option("#analysis-seconds", "1")
    page.click("#analyse")
    expect(page.locator("#analysis-text")).to_contain_text("black plays Qh4#")
    expect(page.locator("#eval-number")).to_have_text("#-1")

    # A record with a move that is not legal: the message names it; the list stays.
    open_record(page, server, "chess", "1. e4 e5 2. Ke3 Nc6 *")
    expect(page.locator("#message")).to_contain_text("Record not opened: move 2. 'Ke3'")
    expect(page.locator("#list-view")).to_be_visible()
    open_record(page, server, "chess", '[Event "x"\n1. e4 *')
    expect(page.locator("#message")).to_contain_text("record:1: malformed tag")


def test_open_a_pdn_paste_and_an_sgf_file(page: Page, server: Server, tmp_path: Path) -> None:  # noqa: F811
    draughts = get_game("international")
    record = read_records(DRAUGHTS_PDN)[0]
    states = replay(draughts, record)
    open_record(page, server, "international", DRAUGHTS_PDN)
    expect(page.locator('#board[data-game="international"]')).to_be_visible()
    step_through(page, draughts, states)
    page.locator('#moves td[data-ply="3"]').click()  # White's capture 28x19
    shows_ply(page, draughts, states, 3)
    assert page.locator("#board .mark-captured").count() == 1  # the man taken on 23
    shoot(page, "review-pdn-capture")

    go = get_game("go9")
    start, moves = go.from_sgf(GO9_SGF)
    assert moves == ["E5", "G7", "C3", "C5", "D7", "G3"]  # the main line: the first variation
    go_states = states_of(go, moves, start)
    path = tmp_path / "game.sgf"
    path.write_text(GO9_SGF)
    open_record(page, server, "go9", file=path)
    expect(page.locator('#board[data-game="go9"]')).to_be_visible()
    step_through(page, go, go_states)
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    shows_ply(page, go, go_states, 2)
    shoot(page, "review-sgf-go9")
