"""scripts/gnuchess_match.py: a Myriad bot against GNU Chess over UCI (Debian ``gnuchess``,
GPL: a separate process, installed by scripts/install-browser.sh), refereed by Myriad."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from myriad.games import get_game
from myriad.notation.records import read_records, replay

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "gnuchess_match.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gnuchess_match", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gnuchess_match"] = module
    spec.loader.exec_module(module)
    return module


match = load_script()


def gnuchess() -> list[str]:
    found = match.find_gnuchess()
    if found is None:
        pytest.fail("GNU Chess is not installed: apt-get install gnuchess (or scripts/install-browser.sh)",
                    pytrace=False)
    return [found, "--uci"]


def test_two_short_games_alternate_colours_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.pgn"
    records = match.run_match("alphabeta:depth=1", 2, 1, 10.0, gnuchess(), openings=((), ("e4", "e5")),
                              out=out, echo=False)
    assert [r.bot_white for r in records] == [True, False]
    game = get_game("chess")
    saved = read_records(out.read_text(encoding="utf-8"))
    assert len(saved) == 2
    for record, text in zip(records, saved):
        assert text.tags["White" if record.bot_white else "Black"] == "alphabeta:depth=1"
        assert text.tags["Black" if record.bot_white else "White"].startswith("GNU Chess")
        states = replay(game, text)
        assert len(states) == len(record.moves) + 1
        outcome = game.outcome(states[-1])
        if record.outcome.reason.startswith("adjudicated"):
            assert outcome is None and len(record.moves) >= match.MAX_PLIES
        else:  # Myriad's referee ended the game: the record's result is the final position's
            assert outcome == record.outcome
    summary = match.summary("alphabeta:depth=1", "gnuchess depth 1", records)
    points = sum(r.bot_score for r in records)
    assert f"{points:g}/2" in summary


def test_an_engine_that_moves_illegally_loses(tmp_path: Path) -> None:
    fake = tmp_path / "fake_uci.py"
    fake.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    word = line.split()[0] if line.split() else ''\n"
        "    if word == 'uci': print('id name Fake'); print('uciok', flush=True)\n"
        "    elif word == 'isready': print('readyok', flush=True)\n"
        "    elif word == 'go': print('bestmove a1a8', flush=True)\n"
        "    elif word == 'quit': break\n", encoding="utf-8")
    records = match.run_match("random", 2, 4, 5.0, [sys.executable, str(fake)], openings=((),), echo=False)
    assert [r.bot_score for r in records] == [1.0, 1.0]
    assert all("Fake played an illegal move 'a1a8'" in r.outcome.reason for r in records)
    assert len(records[1].moves) == 0 and len(records[0].moves) == 1


def test_an_engine_that_says_nothing_is_an_error(tmp_path: Path) -> None:
    mute = tmp_path / "mute.py"
    mute.write_text("import sys\nfor line in sys.stdin:\n    pass\n", encoding="utf-8")
    with pytest.raises(match.EngineError, match="no 'uciok'"):
        match.UciEngine([sys.executable, str(mute)], 4, timeout=1.0)


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    gnuchess()
    assert match.main(["random", "--games", "1", "--depth", "1", "--start-only"]) == 0
    out = capsys.readouterr().out
    assert "[White \"random\"]" in out and "game 1: random as White" in out and "+" in out.splitlines()[-1]
    assert match.main(["nobot", "--games", "1"]) == 2


def test_the_openings_are_legal_and_distinct() -> None:
    game = get_game("chess")
    assert len(set(match.OPENINGS)) == len(match.OPENINGS) == 20
    for opening in match.OPENINGS:
        state = game.initial_state()
        for text in opening:
            state = game.play(state, game.parse_move(state, text))


def test_a_series_resumes_at_its_first_game(tmp_path: Path) -> None:
    """``first=3``: game 3 of the series, the bot with White in the second opening."""
    openings = ((), ("e4", "e5"), ("d4", "d5"))
    records = match.run_match("alphabeta:depth=1", 1, 1, 10.0, gnuchess(), openings=openings,
                              echo=False, first=3)
    assert records[0].bot_white
    assert records[0].moves[:2] == ["e4", "e5"]
    assert 'Round "3"' in records[0].pgn
