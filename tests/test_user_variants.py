"""A user's own variant file, used everywhere a game is: the Python API, every command that
takes a game (``--variants FILE``), the match runner's worker processes, the web server and
its bot workers; a broken file, a taken id or a file over the limits is refused with
``file:line: field: message`` and nothing is registered.

The file is the README's complete example, ``examples/losalamos.toml`` (Los Alamos chess).
Its perft 1 and 2 (10, 100) follow from the start position: six pawn steps and two knights
with two squares each; no move of either side can touch the other's pieces before ply 3.
Deeper counts are checked against Fairy-Stockfish when pyffish is installed.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.error
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import pytest

from myriad import GameDefinitionError, get_game, load_variant_file
from myriad.cli import main
from myriad.core.errors import UnknownGameError
from myriad.core.game import perft
from myriad.games import game_ids
from myriad.games.user_variants import (MAX_FILE_BYTES, load_variant_files, load_variant_sources,
                                        loaded_sources)
from myriad.notation.files import FileError
from web_server import Server

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "losalamos.toml"
#: The line of the pawn's Betza string in the example, broken by :func:`broken_file`.
PAWN_BETZA_LINE = 36


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    """The example with an impossible Betza string for the pawn."""
    text = EXAMPLE.read_text(encoding="utf-8")
    assert text.splitlines()[PAWN_BETZA_LINE - 1].startswith('betza = "fmWfcF"')
    path = tmp_path / "broken.toml"
    path.write_text(text.replace('betza = "fmWfcF"', 'betza = "fmWfcX"'), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- the README and the Python API ------------------------------------------------------------


def test_the_readme_shows_the_example_file_whole() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Your own variant files", 1)[1].split("\n## ", 1)[0]
    block = section.split("```toml\n", 1)[1].split("```", 1)[0]
    assert block == EXAMPLE.read_text(encoding="utf-8")
    assert "--variants examples/losalamos.toml" in section and "400 squares" in section


def test_load_variant_file_registers_a_new_game_once(own_registry: None) -> None:
    assert "losalamos" not in game_ids()
    (game,) = load_variant_file(EXAMPLE)
    assert game.id == "losalamos" and game.name == "Los Alamos chess" and game.family == "chess"
    assert get_game("losalamos") is game and game_ids()[-1] == "losalamos"
    assert [perft(game, game.initial_state(), d) for d in (1, 2)] == [10, 100]
    # the same file again (e.g. in a forked worker): nothing new, the same game
    assert load_variant_file(str(EXAMPLE)) == [game]
    assert game_ids().count("losalamos") == 1


def test_the_example_moves_as_fairy_stockfish_says(own_registry: None) -> None:
    sf = pytest.importorskip("pyffish")
    sf.load_variant_config((ROOT / "tests" / "variants" / "fairy.ini").read_text(encoding="utf-8"))
    (game,) = load_variant_file(EXAMPLE)
    fen = game.format_position(game.initial_state())

    def count(moves: list[str], depth: int) -> int:
        legal = sf.legal_moves("losalamos-t", fen, moves)
        return len(legal) if depth == 1 else sum(count([*moves, m], depth - 1) for m in legal)

    assert perft(game, game.initial_state(), 4) == count([], 4) == 14332  # as the README says


def test_a_file_is_registered_all_or_none(own_registry: None, tmp_path: Path, broken: Path) -> None:
    two = tmp_path / "two.toml"
    two.write_text(EXAMPLE.read_text(encoding="utf-8")
                   + '\n[second]\ninherits = "losalamos"\nname = "Second"\nstart = "rnqknr/pppppp/6/6/PPPPPP/RNQKNX w - - 0 1"\n',
                   encoding="utf-8")
    start_line = len(EXAMPLE.read_text(encoding="utf-8").splitlines()) + 5
    with pytest.raises(GameDefinitionError, match=rf"^{re.escape(str(two))}:{start_line}: second.start: "):
        load_variant_file(two)
    assert "losalamos" not in game_ids() and "second" not in game_ids()
    with pytest.raises(GameDefinitionError, match=rf"^{re.escape(str(broken))}:{PAWN_BETZA_LINE}: "):
        load_variant_files([EXAMPLE, broken])  # the first file is good: neither is loaded
    assert "losalamos" not in game_ids() and loaded_sources() == ()


def test_an_id_already_taken_is_refused_with_file_and_line(own_registry: None, tmp_path: Path) -> None:
    clash = tmp_path / "clash.toml"
    clash.write_text('# chess, my way\n[chess]\ninherits = "makruk"\n', encoding="utf-8")
    with pytest.raises(GameDefinitionError, match=rf"^{re.escape(str(clash))}:2: chess: the id 'chess' is "
                                                  r"already taken by a built-in game"):
        load_variant_file(clash)
    assert get_game("chess").name == "Chess"
    copy = tmp_path / "copy.toml"
    copy.write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(GameDefinitionError, match=rf"^{re.escape(str(copy))}:3: losalamos: the id 'losalamos' "
                                                  rf"is already taken by a variant of {re.escape(str(EXAMPLE))}"):
        load_variant_files([EXAMPLE, copy])
    assert "losalamos" not in game_ids()
    load_variant_file(EXAMPLE)
    with pytest.raises(GameDefinitionError, match="already taken by a variant of"):
        load_variant_file(copy)
    assert get_game("losalamos").id == "losalamos" and loaded_sources()[0].name == str(EXAMPLE)


# -- limits -----------------------------------------------------------------------------------


def _pieces(count: int) -> str:
    return "".join(f'[many.pieces.p{i}]\nletter = "{chr(65 + i % 26)}"\nbetza = "W"\n' for i in range(count))


LIMITS = {
    "squares": ('[big]\ninherits = "chess"\nfiles = 20\nranks = 21\n', 4, "big.ranks",
                "a 20x21 board has 420 squares, more than the 400 allowed"),
    "ranks": ('[tall]\ninherits = "chess"\nranks = 27\n', 3, "tall.ranks", "expected 1 to 26 ranks, got 27"),
    "inherited size": ('[wide]\ninherits = "chess"\nfiles = 20\nranks = 20\n\n[wider]\ninherits = "wide"\n'
                       'ranks = 21\n', 8, "wider.ranks", "420 squares"),
    "variants": ("".join(f'[v{i}]\ninherits = "chess"\n' for i in range(65)), 129, "v64",
                 "more than 64 variants in one file"),
    "squares in all": ("".join(f'[b{i}]\ninherits = "chess"\nfiles = 20\nranks = 20\n' for i in range(17)), 65,
                       "b16", "6800 squares in all, more than the 6400 allowed"),
    "piece kinds": ('[many]\ninherits = "chess"\n' + _pieces(27), 81, "many.pieces.p26", "more than 26 piece kinds"),
    "betza": ('[long]\ninherits = "chess"\n\n[long.pieces.knight]\nbetza = "' + "N" * 65 + '"\n', 5,
              "long.pieces.knight.betza", "a Betza string of 65 characters, more than the 64 allowed"),
    "zone betza": ('[long]\ninherits = "chess"\n\n[long.pieces.knight]\nzone_moves = { far = "' + "W" * 70
                   + '" }\n', 5, "long.pieces.knight.zone_moves.far", "70 characters"),
}


@pytest.mark.parametrize("limit", LIMITS)
def test_a_file_over_a_limit_is_refused_naming_file_line_and_field(limit: str, own_registry: None,
                                                                    tmp_path: Path) -> None:
    text, line, field, message = LIMITS[limit]
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    before = game_ids()
    with pytest.raises(GameDefinitionError) as caught:
        load_variant_file(path)
    assert str(caught.value).startswith(f"{path}:{line}: {field}: ") and message in str(caught.value)
    assert game_ids() == before


def test_the_limits_leave_room_for_a_twenty_by_twenty_board(own_registry: None, tmp_path: Path) -> None:
    rows = ["k" + "19", *["20"] * 18, "K" + "19"]
    path = tmp_path / "big.toml"
    path.write_text('[kings20]\ninherits = "chess"\nfiles = 20\nranks = 20\ncastling = []\nzones = {}\n'
                    'promotions = []\nremove = ["pawn"]\n'
                    f'start = "{"/".join(rows)} w - - 0 1"\n', encoding="utf-8")
    (game,) = load_variant_file(path)
    start = game.initial_state()
    # (kings alone: drawn at once by insufficient material, so no legal move; the king's
    # moves by the rules are the corner's three)
    assert game.topology.size == 400 and len(game.moves_by_rules(start)) == 3


def test_a_file_too_large_is_refused_before_it_is_read_whole(own_registry: None, tmp_path: Path) -> None:
    path = tmp_path / "huge.toml"
    path.write_text("#" * MAX_FILE_BYTES + "\n", encoding="utf-8")
    with pytest.raises(FileError, match=rf"variant file '{re.escape(str(path))}': .*larger than the "):
        load_variant_file(path)


# -- worker processes -------------------------------------------------------------------------


def _name_of(game_id: str) -> str:
    return get_game(game_id).name


def test_a_fresh_worker_process_knows_the_games_it_is_given(own_registry: None) -> None:
    load_variant_file(EXAMPLE)
    spawn = get_context("spawn")  # nothing inherited: only what the initializer is given
    with ProcessPoolExecutor(1, mp_context=spawn) as pool:
        with pytest.raises(UnknownGameError):
            pool.submit(_name_of, "losalamos").result(timeout=60)
    with ProcessPoolExecutor(1, mp_context=spawn, initializer=load_variant_sources,
                             initargs=(loaded_sources(),)) as pool:
        assert pool.submit(_name_of, "losalamos").result(timeout=60) == "Los Alamos chess"


# -- the command line -------------------------------------------------------------------------


def test_games_show_perft_think_and_replay_use_the_file(own_registry: None, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    flag = ("--variants", str(EXAMPLE))
    code, out, err = run(capsys, "games", "--json", *flag)
    assert code == 0, err
    assert {"id": "losalamos", "name": "Los Alamos chess"}.items() <= json.loads(out)[-1].items()
    code, out, err = run(capsys, "show", "losalamos", "--json", *flag)
    assert code == 0, err
    shown = json.loads(out)
    assert shown["position"] == "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1" and len(shown["moves"]) == 10
    code, out, err = run(capsys, "perft", "losalamos", "2", "--json", *flag)
    assert code == 0, err
    assert [json.loads(line)["nodes"] for line in out.splitlines()] == [10, 100]
    code, out, err = run(capsys, "think", "losalamos", "--position", "3k2/R5/6/6/6/3K1R w - - 0 1",
                         "--bot", "alphabeta:depth=3", "--json", *flag)
    assert code == 0, err
    assert json.loads(out)["move"] == "Rf6#"  # the rook on a5 holds rank 5: the only mate in one
    record = tmp_path / "game.txt"
    record.write_text("1. d3 c4 2. dxc4 *\n", encoding="utf-8")
    code, out, err = run(capsys, "replay", "losalamos", str(record), *flag)
    assert code == 0, err
    assert "dxc4" in out and out.count(" a b c d e f") == 4


def test_tournament_and_bench_use_the_file(own_registry: None, capsys: pytest.CaptureFixture[str]) -> None:
    flag = ("--variants", str(EXAMPLE))
    code, out, err = run(capsys, "tournament", "losalamos", "random", "heuristic", "--games", "2",
                         "--movetime", "0.1", "--json", *flag)
    assert code == 0, err
    assert [(r["a"], r["b"], r["games"]) for r in json.loads(out)["results"]] == [("random", "heuristic", 2)]
    code, out, err = run(capsys, "bench", "rules", "--games", "losalamos", "--seconds", "0.05", "--json", *flag)
    assert code == 0, err
    timing = json.loads(out.splitlines()[0])
    assert timing["game"] == "losalamos" and timing["nodes"] == [1, 10, 100, 1212, 14332][timing["depth"]]
    # bench memory measures in fresh processes: they load the file too
    code, out, err = run(capsys, "bench", "memory", "--games", "losalamos", "--moves", "4", "--bot", "heuristic",
                         "--movetime", "0.1", "--json", *flag)
    assert code == 0, err
    assert json.loads(out)["game"] == "losalamos" and json.loads(out)["bot"] == "heuristic"


def test_match_with_two_worker_processes_plays_the_user_variant(tmp_path: Path) -> None:
    games = tmp_path / "games.txt"
    done = subprocess.run([sys.executable, "-m", "myriad", "match", "losalamos", "random", "heuristic",
                           "--games", "4", "--jobs", "2", "--movetime", "0.2", "--json", "--out", str(games),
                           "--variants", str(EXAMPLE)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 4 and summary["forfeits"] == [0, 0]
    assert games.read_text(encoding="utf-8").count('[Round "') == 4


def test_play_reads_moves_of_the_user_variant_from_stdin() -> None:
    done = subprocess.run([sys.executable, "-m", "myriad", "play", "losalamos", "--second", "random",
                           "--movetime", "0.2", "--variants", str(EXAMPLE)],
                          input="d4\nmoves\nquit\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "illegal" in done.stdout  # d4 would be a double step: Los Alamos pawns have none
    assert "legal moves (10)" in done.stdout and " a b c d e f" in done.stdout


COMMANDS = {
    "games": ["games"], "show": ["show", "losalamos"], "perft": ["perft", "losalamos", "2"],
    "think": ["think", "losalamos"], "match": ["match", "losalamos", "random", "random", "--games", "2"],
    "tournament": ["tournament", "losalamos", "random", "heuristic"],
    "replay": ["replay", "losalamos", "games.pgn"], "play": ["play", "losalamos"],
    "bench rules": ["bench", "rules", "--games", "losalamos"],
    "bench memory": ["bench", "memory", "--games", "losalamos"],
    "serve": ["serve", "--port", "0"],
}


@pytest.mark.parametrize("command", COMMANDS)
def test_a_broken_file_stops_every_command_with_one_clear_line(command: str, broken: Path, tmp_path: Path,
                                                                own_registry: None,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    argv = [*COMMANDS[command], "--variants", str(broken)]
    if command == "serve":
        argv += ["--db", str(tmp_path / "games.sqlite3")]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"myriad: error: {broken}:{PAWN_BETZA_LINE}: losalamos.pieces.pawn.betza: Betza 'fmWfcX'")
    assert "losalamos" not in game_ids() and not (tmp_path / "games.sqlite3").exists()


def test_an_id_clash_and_a_missing_file_on_the_command_line(tmp_path: Path, own_registry: None,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    clash = tmp_path / "clash.toml"
    clash.write_text('[xiangqi]\ninherits = "chess"\n', encoding="utf-8")
    code, out, err = run(capsys, "show", "xiangqi", "--variants", str(clash))
    assert (code, out) == (2, "")
    assert err == f"myriad: error: {clash}:1: xiangqi: the id 'xiangqi' is already taken by a built-in game " \
                  "(see 'myriad games'); give this variant another id\n"
    code, out, err = run(capsys, "show", "chess", "--variants", str(tmp_path / "nope.toml"))
    assert code == 2 and err == f"myriad: error: variant file '{tmp_path / 'nope.toml'}': no such file\n"


def test_the_web_servers_command_refuses_a_broken_file_and_does_not_start(broken: Path, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    done = subprocess.run([sys.executable, "-m", "myriad.web", "--port", "0", "--db", str(db),
                           "--variants", str(broken)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (f"myriad: error: {broken}:{PAWN_BETZA_LINE}: losalamos.pieces.pawn.betza: "
                                   "Betza 'fmWfcX': 'X' at character 6 is not an atom (expected one of WFDNAHCZGKRBQ)")
    assert not db.exists()


# -- the web server ---------------------------------------------------------------------------


def test_the_web_server_serves_the_variant_and_its_bots_play_it(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    first = Server(db, variants=[EXAMPLE])
    try:
        catalog = {g["id"]: g for g in first.call("GET", "/api/catalog")["games"]}
        assert catalog["losalamos"]["name"] == "Los Alamos chess"
        game = first.call("POST", "/api/games", {"game": "losalamos", "seats": ["easy", "human"], "movetime": 0.3})
        view = first.wait_for_ply(game["id"], 1)
        # the bot worker knew the game: its own move, not the server's random fallback
        assert view["history"][0]["by"] == "heuristic"
        first.call("POST", f"/api/games/{game['id']}/moves", {"move": "a4"})  # legal after any first move
        view = first.wait_for_ply(game["id"], 3)
        assert [h["by"] for h in view["history"]] == ["heuristic", "human", "heuristic"]
        other = first.call("POST", "/api/games", {"game": "chess", "seats": ["human", "human"]})
        first.call("POST", f"/api/games/{other['id']}/moves", {"move": "e4"})
    finally:
        first.stop()

    second = Server(db, keyring=first.keyring)  # restarted without the file
    try:
        with pytest.raises(urllib.error.HTTPError) as caught:
            second.call("GET", f"/api/games/{game['id']}")
        assert caught.value.code == 409
        assert "its game 'losalamos' is not served now" in json.load(caught.value)["error"]
        assert second.call("GET", f"/api/games/{other['id']}")["ply"] == 1  # the others are served
        assert [g["id"] for g in second.call("GET", "/api/games")["games"]] == [other["id"]]
        assert "losalamos" not in {g["id"] for g in second.call("GET", "/api/catalog")["games"]}
    finally:
        second.stop()

    third = Server(db, keyring=first.keyring, variants=[EXAMPLE])  # and with it again
    try:
        back = third.call("GET", f"/api/games/{game['id']}")
        assert [h["notation"] for h in back["history"]] == [h["notation"] for h in view["history"]]
    finally:
        third.stop()
