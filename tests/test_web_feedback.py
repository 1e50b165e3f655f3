"""What the page says about a position: the royal piece in check (a red mark on its square
and "Check" in the status), the end of every game in words, and captured material.

The registry-wide checks build the web's own view (``Session.view``) of random games of
every game played to their end in memory; the browser tests play a check, a capture and
a fool's mate by clicks on a real server.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_server import BrowserClient, new_game

from myriad.core.game import Game
from myriad.core.piece_game import PieceGame
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.notation.describe import end_text
from myriad.web.app import create_app
from myriad.web.bots import BotPool
from myriad.web.sessions import Caller, Session, status_text
from myriad.web.storage import GameRow


def random_game(game: Game, seed: int) -> tuple[list[State], list[Any]]:
    """The states and moves of a random game played to its end (chance drawn by its odds)."""
    rng = random.Random(seed)
    states, moves = [game.initial_state()], []
    while game.outcome(states[-1]) is None:
        state = states[-1]
        if game.is_chance(state):
            outcomes = game.chance_outcomes(state)
            move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            move = rng.choice(game.legal_moves(state))
        moves.append(move)
        states.append(game.play(state, move))
        assert len(moves) < 20_000, f"{game.id}: a random game did not end"
    return states, moves


def session_of(game: Game, states: list[State], moves: list[Any]) -> Session:
    """A session holding a game played in memory (no store, no bots: only its views)."""
    row = GameRow("0" * 16, game.id, game.format_position(states[0]), ["human"] * game.players, 1.0)
    row.keys = [None] * game.players
    session = Session(game, row, states[0], SimpleNamespace(store=None), BotPool(1))  # type: ignore[arg-type]
    for move in moves:
        session._push(move, "human")
    return session


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_ends_in_words(game_id: str) -> None:
    game = get_game(game_id)
    for seed in range(2):
        states, moves = random_game(game, seed)
        outcome = game.outcome(states[-1])
        assert outcome is not None and outcome.reason.strip(), f"{game_id}: an end without a reason"
        view = session_of(game, states, moves).view(Caller())
        assert view["end"] == end_text(game, outcome)
        assert outcome.reason in view["end"] and outcome.reason in view["status"]
        assert view["status"] == status_text(game, states[-1])  # what the game list shows
        if outcome.winner is not None and game.players > 1 and max(outcome.scores) == 1.0:
            assert view["end"].startswith(game.player_names[outcome.winner].capitalize() + " wins")
        elif game.players > 1 and len(set(outcome.scores)) == 1:
            assert view["end"].startswith("Draw")


@pytest.mark.parametrize("game_id", [g for g in game_ids()
                                     if isinstance(get_game(g), PieceGame) and get_game(g).piece_rules.royal_check])
def test_check_is_shown_in_every_game_with_check_rules(game_id: str) -> None:
    """The first position of a random game where the side to move is in check: its royal
    piece's square is in the view's ``check``, and nowhere else is."""
    game = get_game(game_id)
    assert isinstance(game, PieceGame)
    for seed in range(40):
        states, moves = random_game(game, seed)
        for ply, state in enumerate(states):
            if game.outcome(state) is None and game.in_check(state):
                view = session_of(game, states[:ply + 1], moves[:ply]).view(Caller())
                royal = [game.square_name(p) for p, c in enumerate(state.cells) if c in game.royal_of[state.to_move]]
                assert view["check"] and set(view["check"]) <= set(royal), (view["check"], royal)
                before = session_of(game, states[:1], []).view(Caller())
                assert before["check"] == []
                return
    pytest.fail(f"{game_id}: no check in 40 random games")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("feedback") / "games.sqlite3"
    with BrowserClient(create_app(db, workers=1), raise_server_exceptions=False) as test_client:
        yield test_client


def play(client: TestClient, view: dict[str, Any], *moves: str) -> dict[str, Any]:
    for move in moves:
        response = client.post(f"/api/games/{view['id']}/moves", json={"move": move})
        assert response.status_code == 200, response.text
        view = response.json()
    return view


def taken(view: dict[str, Any], player: int) -> list[tuple[str, int]]:
    return [(p["piece"]["kind"], p["count"]) for p in view["captured"][player]["pieces"]]


def test_fools_mate_through_the_api(client: TestClient) -> None:
    view = new_game(client, game="chess", seats=["human", "human"])
    view = play(client, view, "f3", "e5", "g4")
    assert view["check"] == [] and view["end"] is None
    view = play(client, view, "Qh4")
    assert view["history"][-1]["notation"] == "Qh4#"  # the check mark as the notation writes it
    assert view["check"] == ["e1"]
    assert view["end"] == "Black wins by checkmate" and view["status"] == "Black wins by checkmate"
    listed = client.get("/api/games").json()["games"]
    assert next(g for g in listed if g["id"] == view["id"])["status"] == "Black wins by checkmate"


def test_check_and_captured_material(client: TestClient) -> None:
    view = new_game(client, game="chess", seats=["human", "human"])
    view = play(client, view, "e4", "d5", "exd5")
    assert taken(view, 0) == [("pawn", 1)] and taken(view, 1) == []
    assert view["captured"][0]["advantage"] == 1 and view["captured"][1]["advantage"] == 0
    view = play(client, view, "Qxd5", "Nc3", "Qe5+")
    assert view["check"] == ["e1"] and view["history"][-1]["notation"] == "Qe5+"
    assert taken(view, 1) == [("pawn", 1)] and view["captured"][0]["advantage"] == 0
    view = play(client, view, "Qe2", "Qxe2+")
    assert taken(view, 1) == [("queen", 1), ("pawn", 1)] and view["captured"][1]["advantage"] == 9
    view = play(client, view, "Bxe2")
    assert taken(view, 0) == [("queen", 1), ("pawn", 1)] and view["check"] == []


def test_a_promotion_is_not_a_capture(client: TestClient) -> None:
    view = new_game(client, game="chess", seats=["human", "human"], position="1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    view = play(client, view, "axb8=Q")
    assert taken(view, 0) == [("knight", 1)] and taken(view, 1) == []
    assert view["captured"][0]["advantage"] == 3  # 320 centipawns, in pawns


def test_no_captured_material_where_the_hand_shows_it(client: TestClient) -> None:
    shogi = new_game(client, game="shogi", seats=["human", "human"])
    assert shogi["captured"] is None and "hands" in shogi
    kalah = new_game(client, game="kalah", seats=["human", "human"])
    assert kalah["captured"] is None  # seeds are counts, not pieces


# -- in the browser -----------------------------------------------------------------------------

try:
    from test_web_e2e import browser, create, open_game, page, server, square  # noqa: F401 - fixtures
    from playwright.sync_api import Page, expect
except pytest.skip.Exception:  # pragma: no cover - Playwright or chromium missing here
    Page = None  # type: ignore[assignment,misc]

SHOTS = Path("/tmp")


def click_move(page: Any, frm: str, to: str, ply: int) -> None:
    square(page, frm).click()
    square(page, to).click()
    expect(page.locator("#moves td.last")).to_have_count(1)
    expect(page.locator("#moves td:not(:empty)")).to_have_count(ply)


@pytest.mark.skipif(Page is None, reason="Playwright or chromium missing")
def test_check_and_captures_in_the_browser(page: Any, server: Any) -> None:
    view = create(server, {"game": "chess", "seats": ["human", "human"]})
    open_game(page, server, view)
    for ply, (frm, to) in enumerate([("e2", "e4"), ("d7", "d5"), ("e4", "d5"), ("d8", "d5"),
                                     ("b1", "c3"), ("d5", "e5")], start=1):
        click_move(page, frm, to, ply)
    status = page.locator("#status")
    expect(status).to_contain_text("Check")
    expect(status).to_have_class("status in-check")
    expect(page.locator('#board .mark-check')).to_have_count(1)
    box, king = None, None
    for _ in range(50):  # the board may be drawn again as the last move's news arrives
        expect(page.locator("#board .mark-check")).to_be_visible()
        box, king = page.locator("#board .mark-check").bounding_box(), square(page, "e1").bounding_box()
        if box is not None and king is not None:
            break
        page.wait_for_timeout(100)
    assert box is not None and king is not None
    assert abs(box["x"] - king["x"]) < 2 and abs(box["y"] - king["y"]) < 2  # the red glow is on e1
    # each side took a pawn: one pawn icon beside each bar, no advantage
    expect(page.locator('#bar-bottom .captured .captured-piece[data-kind="pawn"]')).to_have_count(1)
    expect(page.locator('#bar-top .captured .captured-piece[data-kind="pawn"]')).to_have_count(1)
    expect(page.locator(".captured .advantage")).to_have_count(0)
    page.screenshot(path=str(SHOTS / "analysis-check.png"), full_page=True)
    click_move(page, "d1", "e2", 7)
    click_move(page, "e5", "e2", 8)  # Qxe2+: black is a queen up
    expect(page.locator("#bar-top .captured .advantage")).to_have_text("+9")
    expect(page.locator('#bar-top .captured .captured-piece[data-kind="queen"]')).to_have_count(1)
    expect(status).to_contain_text("Check")
    page.screenshot(path=str(SHOTS / "analysis-captured.png"), full_page=True)


@pytest.mark.skipif(Page is None, reason="Playwright or chromium missing")
def test_fools_mate_by_clicks(page: Any, server: Any) -> None:
    view = create(server, {"game": "chess", "seats": ["human", "human"]})
    open_game(page, server, view)
    for ply, (frm, to) in enumerate([("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")], start=1):
        click_move(page, frm, to, ply)
    expect(page.locator("#status")).to_have_text("Game over: Black wins by checkmate")
    expect(page.locator("#moves td.last")).to_have_text("Qh4#")
    expect(page.locator("#board .mark-check")).to_have_count(1)
    page.screenshot(path=str(SHOTS / "analysis-mate.png"), full_page=True)
    page.goto(server.base)  # the game list says it too
    expect(page.locator(f'#games-list li[data-id="{view["id"]}"] .status-line')).to_contain_text(
        "Black wins by checkmate")


CHECK_GAMES = [g for g in game_ids() if isinstance(get_game(g), PieceGame) and get_game(g).piece_rules.royal_check]


def first_check(game: PieceGame) -> State:
    """The first position of a random game (seeds in turn) whose side to move is in check."""
    for seed in range(40):
        for state in random_game(game, seed)[0]:
            if game.outcome(state) is None and game.in_check(state):
                return state
    raise AssertionError(f"{game.id}: no check in 40 random games")


@pytest.mark.skipif(Page is None, reason="Playwright or chromium missing")
def test_every_check_game_glows_in_the_browser(page: Any, server: Any) -> None:
    """Each game with check rules, opened at a position in check: its royal square glows,
    the status says so (xiangqi's general on a point, shogi's king on a square alike)."""
    for game_id in CHECK_GAMES:
        game = get_game(game_id)
        assert isinstance(game, PieceGame)
        state = first_check(game)
        view = create(server, {"game": game_id, "seats": ["human", "human"], "position": game.format_position(state)})
        assert view["check"], game_id
        open_game(page, server, view)
        expect(page.locator("#board .mark-check")).to_have_count(len(view["check"]))
        expect(page.locator("#status")).to_contain_text("Check")
        if game_id in ("xiangqi", "shogi"):
            page.screenshot(path=str(SHOTS / f"analysis-check-{game_id}.png"), full_page=True)
