"""Each game as its players know it, in the browser and in the API's views: Russian draughts
written c3-d4 with a-h / 1-8 on the board, a compulsory capture said and marked, Othello's
disc counts, hints and forced pass, mancala stores labelled, Connect Four's colours, every
chess-family piece drawn as a picture, moves numbered from the position's own move number.

Screenshots go to /tmp/conventions-*.png.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_web_e2e import (  # the fixtures and helpers of the end-to-end tests
    CLIENT,
    Browser,
    Page,
    call,
    create,
    expect,
    new_page,
    open_game,
    piece,
    square,
    wait_played,
)
from test_web_e2e import browser as browser  # noqa: F401  (fixture)
from test_web_e2e import server as server  # noqa: F401  (fixture)
from web_server import Server

from myriad.core.game import Game
from myriad.core.mechanics.movement import Slide
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.games.variant_file import load_variants
from myriad.web.conventions import conventions_json
from myriad.web.layout import piece_picture
from myriad.web.pictures import kind_role, movement_role, picture_name, written_kind

SHOTS = Path("/tmp")


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:  # noqa: F811
    with new_page(browser, CLIENT) as opened:
        yield opened


def shoot(page: Page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"conventions-{name}.png"), full_page=True)


def statuses(page: Page) -> str:
    return page.locator("#status").inner_text()


def chess_family() -> list[str]:
    ids = [g for g in game_ids() if get_game(g).family == "chess"]
    assert len(ids) >= 9, ids
    return ids


def find_state(game: Game, wanted, seed: int = 7, games: int = 400) -> State:  # type: ignore[no-untyped-def]
    """A state met in random games for which ``wanted(state, legal moves)`` holds."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.initial_state()
        while game.outcome(state) is None:
            moves = game.legal_moves(state)
            if wanted(state, moves):
                return state
            state = game.play(state, rng.choice(moves))
    raise AssertionError(f"{game.id}: no such state in {games} random games")


# -- draughts notation and compulsory capture --------------------------------------------------


def test_russian_is_written_algebraically_with_a_to_h_on_the_board(page: Page, server: Server) -> None:
    layout = call(server, "GET", "/api/catalog/russian")
    assert layout["files"] == list("abcdefgh") and layout["ranks"] == [str(r) for r in range(1, 9)]
    assert not layout["cell_labels"]  # no PDN numbers in the squares
    numbered = call(server, "GET", "/api/catalog/international")
    assert numbered["cell_labels"] and numbered["files"] == []  # international stays numbered
    view = create(server, {"game": "russian", "seats": ["human", "human"]})
    assert {m["notation"] for m in view["legal"]} == {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}
    open_game(page, server, view)
    labels = page.locator("#board .labels text.coord").evaluate_all("els => els.map(e => e.textContent)")
    assert set("abcdefgh") <= set(labels) and {"1", "8"} <= set(labels)
    square(page, "c3").click()
    square(page, "d4").click()
    assert wait_played(page, 1) == ["c3-d4"]
    square(page, "f6").click()
    square(page, "e5").click()
    assert wait_played(page, 2) == ["c3-d4", "f6-e5"]
    # White must now take e5 from d4: said in the status, the piece that can take marked.
    expect(page.locator("#status")).to_contain_text("A capture is compulsory")
    expect(page.locator("#status")).to_contain_text("d4 must take")
    marked = page.locator("#board .must-capture").evaluate_all("els => els.map(e => e.dataset.square)")
    assert marked == ["d4"]
    shoot(page, "russian-capture")
    square(page, "d4").click()
    square(page, "f6").click()
    assert wait_played(page, 3) == ["c3-d4", "f6-e5", "d4:f6"]
    record = call(server, "GET", f"/api/games/{view['id']}")["history"]
    assert [h["notation"] for h in record] == ["c3-d4", "f6-e5", "d4:f6"]
    # The PDN-number option: the same moves in square numbers, each square's number shown.
    assert layout["square_numbers"]["c3"] == 22 and layout["square_numbers"]["b8"] == 1
    assert "square_numbers" not in numbered
    expect(page.locator("#notation-settings")).to_be_visible()
    page.locator("#pdn-numbers").check()
    expect(page.locator("#moves td").first).to_have_text("22-18")
    assert [t for t in page.locator("#moves td").all_inner_texts() if t] == ["22-18", "11-15", "18x11"]
    expect(page.locator("#board .pdn-number")).to_have_count(32)
    expect(page.locator("#status")).to_contain_text("the pieces on 7, 8 can take")  # e7, g7 take f6
    shoot(page, "russian-pdn-numbers")
    page.locator("#pdn-numbers").uncheck()
    expect(page.locator("#moves td").first).to_have_text("c3-d4")
    expect(page.locator("#board .pdn-number")).to_have_count(0)


def test_a_forced_capture_marks_every_piece_that_can_take(page: Page, server: Server) -> None:
    # White men on c3 and g3 can each take a black man (d4, h4 is on the edge: f4 from g3),
    # the man on a1 could only step: two pieces marked, no quiet move offered.
    view = create(server, {"game": "russian", "seats": ["human", "human"], "position": "W:Wa1,c3,g3:Bd4,f4,h8"})
    assert view["conventions"]["must_capture"] == ["c3", "g3"]
    assert all(m["captures"] for m in view["legal"])
    open_game(page, server, view)
    expect(page.locator("#status")).to_contain_text("the pieces on c3, g3 can take")
    assert sorted(page.locator("#board .must-capture").evaluate_all("els => els.map(e => e.dataset.square)")) == ["c3", "g3"]
    # Without a capture to make, nothing is marked or said.
    quiet = create(server, {"game": "russian", "seats": ["human", "human"]})
    assert quiet["conventions"]["must_capture"] == []


def test_compulsory_capture_is_found_from_the_rules_of_every_game() -> None:
    """Generic over the registry: a game that declares captures compulsory reports the
    pieces that can take whenever all its moves capture; no other game ever does."""
    for gid in game_ids():
        game = get_game(gid)
        state = game.initial_state()
        if game.hidden_information or game.is_chance(state) or not game.legal_moves(state):
            continue
        if getattr(game, "forced_captures", False):
            found = find_state(game, lambda s, ms: bool(ms) and all(m.captures for m in ms), seed=3)
            moves = game.legal_moves(found)
            marked = conventions_json(game, found, found, moves, game.initial_state())["must_capture"]
            assert marked and set(marked) <= {game.square_name(p) for p, c in enumerate(found.cells) if c}, gid
        else:
            moves = game.legal_moves(state)
            assert conventions_json(game, state, state, moves, state)["must_capture"] == [], gid


# -- Othello -----------------------------------------------------------------------------------


def test_othello_counts_hints_and_the_forced_pass(page: Page, server: Server) -> None:
    view = create(server, {"game": "othello", "seats": ["human", "human"]})
    assert view["conventions"]["piece_counts"] == [2, 2]
    open_game(page, server, view)
    counts = page.locator(".player-bar .disc-count")
    expect(counts).to_have_count(2)
    assert sorted(counts.all_inner_texts()) == ["2 discs", "2 discs"]
    hints = page.locator("#board .target-dot").evaluate_all("els => els.map(e => e.dataset.target)")
    assert sorted(hints) == sorted(m["path"][0] for m in view["legal"]) and len(hints) == 4
    square(page, hints[0]).click()
    wait_played(page, 1)
    expect(page.locator('.player-bar .disc-count[data-player="0"]')).to_have_text("4 discs")
    expect(page.locator('.player-bar .disc-count[data-player="1"]')).to_have_text("1 disc")
    shoot(page, "othello")
    # A position where the side to move has no move but the pass.
    game = get_game("othello")
    stuck = find_state(game, lambda s, ms: len(ms) == 1 and game.format_move(s, ms[0]) == "pass")
    passing = create(server, {"game": "othello", "seats": ["human", "human"],
                              "position": game.format_position(stuck)})
    assert passing["conventions"]["must_pass"] is True
    open_game(page, server, passing)
    expect(page.locator("#status")).to_contain_text("No legal move: you must pass")
    expect(page.locator("#pass")).to_be_visible()
    shoot(page, "othello-pass")
    page.locator("#pass").click()
    # White passed first in this game: the first row leaves Black's move out ("1. … pass").
    assert stuck.to_move == 1 and wait_played(page, 1) == ["pass"]
    expect(page.locator("#moves td.skipped")).to_have_count(1)
    expect(page.locator("#status")).not_to_contain_text("must pass")


def test_rolit_counts_every_players_balls(server: Server) -> None:
    view = create(server, {"game": "rolit", "seats": ["human"] * 4})
    assert view["conventions"]["piece_counts"] == [1, 1, 1, 1]


# -- mancala stores, Connect Four colours ------------------------------------------------------


def test_kalah_stores_carry_their_owner_and_count(page: Page, server: Server) -> None:
    view = create(server, {"game": "kalah", "seats": ["human", "human"]})
    open_game(page, server, view)
    labels = page.locator("#board .store-label").evaluate_all(
        "els => Object.fromEntries(els.map(e => [e.dataset.store, e.textContent]))")
    assert labels == {"store_s": "South: 0", "store_n": "North: 0"}
    square(page, "c").click()  # the last seed lands in South's store
    expect(page.locator('#board .store-label[data-store="store_s"]')).to_have_text("South: 1")
    shoot(page, "kalah")


def test_toguz_tuzdyk_is_labelled_with_its_holder(page: Page, server: Server) -> None:
    view = create(server, {"game": "toguz", "seats": ["human", "human"],
                           "position": "0,0,0,0,0,0,0,0,5,73/X,0,0,0,0,0,0,0,4,80 w"})
    stores = view["conventions"]["stores"]
    kazans = [s for s in stores if not s.get("claimed")]
    assert [(s["owner"], s["count"]) for s in kazans] == [(0, 73), (1, 80)]
    (tuzdyk,) = [s for s in stores if s.get("claimed")]
    assert tuzdyk["owner"] == 0  # White holds a house of Black's row
    open_game(page, server, view)
    labels = page.locator("#board .store-label").evaluate_all(
        "els => els.map(e => [...e.querySelectorAll('tspan')].map(t => t.textContent).join(' ') || e.textContent)")
    assert sorted(labels) == ["Black: 80", "White's tuzdyk", "White: 73"]
    shoot(page, "toguz")


def test_connect_four_players_are_red_and_yellow(page: Page, server: Server) -> None:
    view = create(server, {"game": "connect4", "seats": ["human", "easy"]})
    assert view["players"] == ["red", "yellow"]
    open_game(page, server, view)
    expect(page.locator("#status")).to_have_text("Your move (red)")
    names = page.locator(".player-bar .player-name").all_inner_texts()
    assert sorted(n.lower() for n in names) == ["red", "yellow"]
    layout = call(server, "GET", "/api/catalog/connect4")
    assert layout["colours"] == ["#d1342f", "#f2c230"]  # the discs are the colours named
    shoot(page, "connect4")


# -- piece pictures ----------------------------------------------------------------------------


def test_every_chess_family_kind_has_a_picture_or_a_reason() -> None:
    """Generic over the registry: a kind is drawn as a picture unless it is written in a
    script (xiangqi's, shogi's characters keep their discs and wedges) or has no movement a
    set draws (the fog of dark games), which keep their glyph or letter."""
    pictured = 0
    for gid in chess_family():
        game = get_game(gid)
        for code in range(1, game.pieces.count):
            kind = game.pieces.kind(code)
            picture = piece_picture(game, code)
            if picture["shape"] == "picture":
                pictured += 1
                assert picture["picture"] == picture_name(game, kind)
            else:
                assert written_kind(kind) or kind_role(game, kind) is None, (gid, kind.name)
                assert kind.name == "fog" or written_kind(kind), (gid, kind.name)
    assert pictured >= 60
    # Makruk and shatranj are drawn with their own sets, whatever their kinds are called.
    makruk = {piece_picture(get_game("makruk"), c)["picture"] for c in range(1, get_game("makruk").pieces.count)}
    assert makruk == {"thai-king", "thai-rook", "thai-knight", "thai-pawn", "thai-ferz", "thai-khon"}
    shatranj = {piece_picture(get_game("shatranj"), c)["picture"] for c in range(1, get_game("shatranj").pieces.count)}
    assert shatranj == {"shatranj-king", "shatranj-rook", "shatranj-knight", "shatranj-pawn",
                        "shatranj-ferz", "shatranj-alfil"}


def test_chess_family_pieces_are_drawn_as_pictures(page: Page, server: Server) -> None:
    drawn: dict[str, int] = {}
    for gid in chess_family():
        view = create(server, {"game": gid, "seats": ["human", "human"]})
        pictured = [c for c in view["cells"] if isinstance(c, dict) and c.get("shape") == "picture"]
        open_game(page, server, view)
        names = sorted({c["picture"] for c in pictured})
        missing = page.evaluate("names => import('/static/pieces.js').then(m => names.filter(n => !m.pictureParts(n)))",
                                names)
        assert missing == [], (gid, missing)
        expect(page.locator("#board .pieces g.picture")).to_have_count(len(pictured))
        drawn[gid] = len(pictured)
        if gid in ("chess", "shatranj", "makruk", "sittuyin"):
            shoot(page, gid)
    assert drawn["chess"] == drawn["shatranj"] == drawn["makruk"] == 32
    assert drawn["xiangqi"] == 0 and drawn["shogi"] == 0  # their own discs and wedges stay
    # A piece's picture is an SVG drawing, not a letter.
    view = create(server, {"game": "makruk", "seats": ["human", "human"]})
    open_game(page, server, view)
    assert piece(page, "d1").locator("path").count() >= 1
    assert piece(page, "d1").locator("text").count() == 0


# -- move numbers ------------------------------------------------------------------------------


def test_moves_are_numbered_from_the_positions_own_move_number(page: Page, server: Server) -> None:
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 23"
    view = create(server, {"game": "chess", "seats": ["human", "human"], "position": fen})
    assert view["conventions"]["first_move"] == 23
    open_game(page, server, view)
    square(page, "g8").click()
    square(page, "f6").click()
    wait_played(page, 1)
    square(page, "f1").click()
    square(page, "b5").click()
    wait_played(page, 2)
    rows = page.locator("#moves tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.children].map(c => c.textContent))")
    assert rows == [["23.", "", "Nf6"], ["24.", "Bb5", ""]]
    # White's place in the first row holds an ellipsis (drawn by the style sheet: "23. … Nf6"),
    # read from the live table: one the page has just drawn again reads as no style at all
    ellipsis = ("() => { const td = document.querySelector('#moves tbody tr td');"
                " return td.classList.contains('skipped') && getComputedStyle(td, '::before').content; }")
    page.wait_for_function(f"({ellipsis})() === '\"…\"'", timeout=5000)
    assert page.evaluate(ellipsis) == '"…"'

    shoot(page, "move-numbers")
    # A game from the start is numbered from 1; the game list counts moves, not plies.
    page.goto(server.base)
    card = page.locator(f'.game-card[data-id="{view["id"]}"] .status-line')
    expect(card).to_contain_text("· 1 move")  # one move pair played (two plies)
    assert "2 moves" not in card.inner_text()


def test_no_plies_in_what_the_page_says() -> None:
    static = Path(__file__).resolve().parents[1] / "src" / "myriad" / "web" / "static"
    for path in static.iterdir():
        text = path.read_text()
        for line in text.splitlines():
            visible = [part for part in line.split('"')[1::2] + line.split("`")[1::2]]
            assert not any("plies" in part or " ply" in part for part in visible), (path.name, line)


def test_a_users_variant_gets_pictures_by_movement_and_keeps_letters_for_fairy_pieces() -> None:
    """Los Alamos chess (the README's example) with a camel added: the known kinds are drawn
    as Staunton pieces by their movement; the camel, which no set draws, keeps its letter."""
    example = Path(__file__).resolve().parents[1] / "examples" / "losalamos.toml"
    text = example.read_text().replace("[losalamos.pieces.knight]", "[losalamos.pieces.camel]\n"
                                       'letter = "C"\nbetza = "C"\nvalue = 250\n\n[losalamos.pieces.knight]')
    (game,) = load_variants(text, name="camel.toml")
    shown = {game.pieces.kind(c).name: piece_picture(game, c) for c in range(1, game.pieces.count)
             if game.pieces.owner_of[c] == 0}
    assert {k: p.get("picture") for k, p in shown.items()} == {
        "king": "staunton-king", "queen": "staunton-queen", "rook": "staunton-rook", "camel": None,
        "knight": "staunton-knight", "pawn": "staunton-pawn"}
    assert shown["camel"]["shape"] == "token" and shown["camel"]["text"] == "C"
    # A kind is drawn by what it does, whatever it is called: a ferz named "counsellor".
    assert movement_role((Slide(directions=("ne", "nw", "se", "sw"), limit=1, mode=0, zone=None, within=None),)) == "ferz"
    assert movement_role((Slide(directions=("ne", "nw", "se", "sw", "n"), limit=1, mode=0, zone=None, within=None),)) == "khon"
