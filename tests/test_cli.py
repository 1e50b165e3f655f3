"""The ``myriad`` command line, run in-process (``main(argv)``) with captured output.

Perft numbers are published values, not this program's output:
* tic-tac-toe 9, 72, 504: the first three plies are pure permutations (9, 9*8, 9*8*7; no
  line can be complete before ply 5); the same numbers are in the oracle file
  ``counts.json`` (``tic_tac_toe.perft_by_ply``, exhaustive enumeration, OEIS A008907 family);
* chess start 20, 400, 8902 and "Kiwipete" 48, 2039: chessprogramming.org/Perft_Results,
  reproduced by python-chess and Fairy-Stockfish (oracle file ``chess_perft.json``).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys

import pytest

from myriad import bench
from myriad.cli import main
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State
from myriad.games import game_ids, get_game

TICTACTOE_PERFT = {1: 9, 2: 72, 3: 504}
CHESS_START_PERFT = {1: 20, 2: 400, 3: 8902}
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
KIWIPETE_PERFT = {1: 48, 2: 2039}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``myriad argv...``."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def by_squares(game: Game, state: State, frm: str, to: str) -> Move:
    """The legal move from square ``frm`` to square ``to`` (the same square for a placement)."""
    pos = game.topology.pos
    found = [m for m in game.legal_moves(state) if m.frm == pos(frm) and m.to == pos(to)]
    assert len(found) == 1, f"{game.id}: {len(found)} legal moves {frm}->{to}"
    return found[0]


def play_squares(game: Game, line: str) -> State:
    """The state after moves written as ``from-to`` pairs (or single squares for placements)."""
    state = game.initial_state()
    for step in line.split():
        frm, _, to = step.partition("-")
        state = game.play(state, by_squares(game, state, frm, to or frm))
    return state


# -- games --------------------------------------------------------------------------------------

def test_games_json_lists_every_registered_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "games", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert [r["id"] for r in rows] == game_ids()
    for row in rows:
        game = get_game(row["id"])
        assert row["name"] == game.name and row["family"] == game.family
        assert row["players"] == game.players == len(row["player_names"])
        assert row["setups"] == list(game.setups)


def test_games_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == len(game_ids())
    for game_id, line in zip(game_ids(), lines):
        assert line.split()[0] == game_id
        assert get_game(game_id).name in line


# -- show ---------------------------------------------------------------------------------------

def test_show_tictactoe_start(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "tictactoe")
    assert code == 0
    game = get_game("tictactoe")
    assert game.render(game.initial_state()) in out
    assert f"to move: {game.player_names[0]}" in out
    assert "legal moves (9)" in out
    assert "outcome: none" in out


@pytest.mark.parametrize("game_id", game_ids())
def test_show_json_shape(capsys: pytest.CaptureFixture[str], game_id: str) -> None:
    game = get_game(game_id)
    state = game.initial_state()
    code, out, _ = run(capsys, "show", game_id, "--json")
    assert code == 0
    assert len(out.strip().splitlines()) == 1, "one JSON object on one line"
    data = json.loads(out)
    assert set(data) == {"game", "position", "to_move", "outcome", "moves"}
    assert data["game"] == game_id
    assert game.parse_position(data["position"]) == state
    assert data["to_move"] == game.mover_name(state)  # ("chance" where chance starts: fox hunt)
    assert data["outcome"] is None
    names = set(game.topology.names)
    assert len(data["moves"]) == len(game.legal_moves(state))
    for move in data["moves"]:
        assert set(move) == {"notation", "from", "to", "captures"} | (
            {"probability"} if game.is_chance(state) else set())  # (chance starts fox hunt)
        assert game.parse_move(state, move["notation"]) in game.legal_moves(state)
        if move["from"] is None:  # a move on no square: a pass, a dice game's roll
            assert move["to"] is None and not game.parse_move(state, move["notation"])
        else:
            assert move["from"] in names and move["to"] in names
        assert set(move["captures"]) <= names


def test_show_chess_squares_and_captures(capsys: pytest.CaptureFixture[str]) -> None:
    game = get_game("chess")
    code, out, _ = run(capsys, "show", "chess", "--json")
    assert code == 0
    pairs = {(m["from"], m["to"]) for m in json.loads(out)["moves"]}
    # the rule book: 16 pawn moves (one or two steps) and 4 knight moves
    expected = {(f"{f}2", f"{f}{r}") for f in "abcdefgh" for r in (3, 4)}
    expected |= {("b1", "a3"), ("b1", "c3"), ("g1", "f3"), ("g1", "h3")}
    assert pairs == expected
    # 1.e4 a6 2.e5 d5: exd6 takes en passant, the captured pawn stands on d5, not d6
    state = play_squares(game, "e2-e4 a7-a6 e4-e5 d7-d5")
    code, out, _ = run(capsys, "show", "chess", "--position", game.format_position(state), "--json")
    assert code == 0
    moves = {(m["from"], m["to"]): m for m in json.loads(out)["moves"]}
    assert moves[("e5", "d6")]["captures"] == ["d5"]
    assert moves[("e5", "e6")]["captures"] == []


def test_show_finished_tictactoe(capsys: pytest.CaptureFixture[str]) -> None:
    game = get_game("tictactoe")
    state = play_squares(game, "a1 a2 b1 b2 c1")  # X completes the first row
    position = game.format_position(state)
    code, out, _ = run(capsys, "show", "tictactoe", "--position", position, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["moves"] == []
    outcome = data["outcome"]
    assert outcome["winner"] == game.player_names[0]
    assert outcome["scores"] == [1.0, 0.0]
    assert isinstance(outcome["reason"], str) and outcome["reason"]
    code, out, _ = run(capsys, "show", "tictactoe", "--position", position)
    assert f"outcome: {game.player_names[0]} wins" in out
    assert "legal moves (0): none" in out


def test_show_pass_has_no_squares(capsys: pytest.CaptureFixture[str]) -> None:
    """An Othello pass is listed with from/to null and no captures."""
    game = get_game("othello6")
    rng = random.Random(7)
    for _ in range(500):
        state = game.initial_state()
        while game.legal_moves(state) and not any(m.is_pass for m in game.legal_moves(state)):
            state = game.play(state, rng.choice(game.legal_moves(state)))
        if game.legal_moves(state):
            break
    else:
        pytest.fail("no random 6x6 Othello game reached a forced pass")
    code, out, _ = run(capsys, "show", "othello6", "--position", game.format_position(state), "--json")
    assert code == 0
    passes = [m for m in json.loads(out)["moves"] if m["from"] is None]
    assert len(passes) == 1
    assert passes[0]["to"] is None and passes[0]["captures"] == []


# -- perft --------------------------------------------------------------------------------------

@pytest.mark.parametrize("game_id, position, expected", [
    ("tictactoe", None, TICTACTOE_PERFT),
    ("chess", None, CHESS_START_PERFT),
    ("chess", KIWIPETE, KIWIPETE_PERFT),
])
def test_perft_json_matches_oracle(capsys: pytest.CaptureFixture[str], game_id: str,
                                   position: str | None, expected: dict[int, int]) -> None:
    argv = ["perft", game_id, str(max(expected)), "--json"]
    if position:
        argv += ["--position", position]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["game"], r["depth"], r["nodes"]) for r in rows] == [
        (game_id, d, n) for d, n in sorted(expected.items())]
    assert all(set(r) == {"game", "depth", "nodes", "seconds"} and r["seconds"] >= 0 for r in rows)


def test_perft_text_from_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    # after X takes a1, 8 cells are left and no line can be completed within 3 plies
    game = get_game("tictactoe")
    position = game.format_position(play_squares(game, "a1"))
    code, out, _ = run(capsys, "perft", "tictactoe", "3", "--position", position)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3
    for line, nodes in zip(lines, (8, 56, 336)):
        assert f"{nodes:,}" in line.split()


# -- bench --------------------------------------------------------------------------------------

def test_bench_rules_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "rules", "--games", "tictactoe", "--seconds", "0.05", "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    kernel = [r for r in rows if r.get("engine") == "kernel"]  # tested in test_bench_kernel.py
    rows = [r for r in rows if r not in kernel]
    assert [r["game"] for r in kernel] == ["tictactoe"]
    assert len(rows) == 1, "no chess, no reference line"
    row = rows[0]
    assert set(row) == {"game", "depth", "nodes", "seconds", "nodes_per_second"}
    assert row["game"] == "tictactoe" and row["depth"] >= 1
    if row["depth"] in TICTACTOE_PERFT:
        assert row["nodes"] == TICTACTOE_PERFT[row["depth"]]


def test_bench_rules_chess_against_python_chess(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "rules", "--games", "chess", "--seconds", "0.1", "--json")
    assert code == 0
    mine, ref = (row for row in map(json.loads, out.splitlines()) if row.get("engine") != "kernel")
    assert mine["game"] == "chess" and mine["nodes"] == CHESS_START_PERFT[mine["depth"]]
    assert ref["reference"] == "python-chess" and ref["depth"] == mine["depth"]
    if "error" in ref:
        assert ref["error"] == "python-chess not installed"
    else:
        assert ref["nodes"] == mine["nodes"]
        assert ref["ratio"] > 0


def test_bench_rules_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "rules", "--games", "chess", "tictactoe", "--seconds", "0.05")
    assert code == 0
    assert "tictactoe" in out and "nodes/s" in out
    assert "Myriad/python-chess" in out or "python-chess not installed" in out


def test_bench_without_python_chess(capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # the reference process cannot import chess: the bench says so and still succeeds
    monkeypatch.setattr(bench, "REFERENCE_CODE", "import sys; sys.modules['chess'] = None\n"
                        + bench.REFERENCE_CODE)
    code, out, _ = run(capsys, "bench", "rules", "--games", "chess", "--seconds", "0.01")
    assert code == 0
    assert "python-chess not installed" in out


def test_package_never_imports_python_chess() -> None:
    """python-chess is GPL: loading every game and the CLI must not import it."""
    code = ("import sys, myriad, myriad.cli, myriad.bench\n"
            "from myriad.games import all_games\n"
            "all_games()\n"
            "assert 'chess' not in sys.modules, 'python-chess was imported'\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


# -- entry points -------------------------------------------------------------------------------

def test_python_dash_m() -> None:
    proc = subprocess.run([sys.executable, "-m", "myriad", "perft", "tictactoe", "2", "--json"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line)["nodes"] for line in proc.stdout.splitlines()] == [9, 72]
    proc = subprocess.run([sys.executable, "-m", "myriad", "show", "nope"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1


def test_console_script() -> None:
    exe = shutil.which("myriad")
    if exe is None:
        pytest.skip("the console script is not installed (pip install -e .)")
    proc = subprocess.run([exe, "games", "--json"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert [g["id"] for g in json.loads(proc.stdout)] == game_ids()


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("games", "show", "perft", "bench"):
        assert command in out


# -- errors -------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["show", "nope"],
    ["perft", "nope", "1"],
    ["show", "tictactoe", "--position", "garbage"],
    ["show", "chess", "--position", "rnbqkbnr/8 w"],
    ["perft", "chess", "2", "--position", "not a fen"],
    ["show", "tictactoe", "--setup", "nope"],
    ["show", "tictactoe", "--position", "x", "--setup", "y"],
    ["perft", "tictactoe", "0"],
    ["perft", "tictactoe", "-1"],
    ["perft", "tictactoe", "x"],
    ["perft", "tictactoe"],
    [],
    ["bogus"],
    ["show"],
    ["games", "--bogus"],
    ["bench"],
    ["bench", "rules", "--seconds", "0"],
    ["bench", "rules", "--seconds", "soon"],
    ["bench", "rules", "--games", "nope"],
    ["bench", "rules", "--seconds", "inf"],
    ["bench", "search", "--seconds", "nan"],
    ["perft", "tictactoe", "101"],                  # deeper than any perft can count
    ["perft", "tictactoe", "٣"],                    # a digit of another script
    ["perft", "tictactoe", "9" * 5000],             # beyond int()'s 4,300 digits
    ["perft", "tictactoe", "1_0"],
    ["match", "tictactoe", "random", "random", "--games", "1000000"],
    ["match", "tictactoe", "random", "random", "--jobs", "10000"],
    ["match", "tictactoe", "random", "random", "--movetime", "-1"],
    ["match", "tictactoe", "random", "random", "--movetime", "1e309"],
    ["think", "tictactoe", "--time", "nan"],
    ["think", "tictactoe", "--bot", "book", "--time", "0.1"],   # a lone book out of its book
    ["play", "tictactoe", "--movetime", "inf"],
    ["replay", "tictactoe", "/dev/null", "--index", "0"],
    ["show", "x\n[31m\x1b[2J"],                   # control characters are escaped, one line
], ids=lambda argv: " ".join(a[:20] for a in argv) or "no-arguments")
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1 and err.endswith("\n"), err
    assert err.startswith("myriad: error: ")
    assert "Traceback" not in err


def test_perft_stops_after_the_first_depth_with_no_sequences(capsys: pytest.CaptureFixture[str]) -> None:
    # X to move with three cells left: one of X's moves wins at once (a sequence ends at
    # ply 1), the others fill the board by ply 3, so ply 4 has no sequence and none is tried
    code, out, _ = run(capsys, "perft", "tictactoe", "100", "--position", "XOX/OX1/O2 x", "--json")
    assert code == 0
    assert [json.loads(line)["nodes"] for line in out.splitlines()] == [3, 4, 4, 0]


# -- chance and more than two players -------------------------------------------------------------

def test_show_at_a_chance_node_names_chance_and_the_probabilities(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", "pig", "--position", "10,20 6 6 1?", "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["to_move"] == "chance"
    assert [m["notation"] for m in shown["moves"]] == ["1", "2", "3", "4", "5", "6"]
    assert sum(m["probability"] for m in shown["moves"]) == pytest.approx(1.0)
    code, out, _ = run(capsys, "show", "pig", "--position", "10,20 6 6 1?")
    assert "to move: chance" in out and "chance outcomes (6): 1 (0.167)" in out


def test_show_names_every_player_of_a_four_player_game(capsys: pytest.CaptureFixture[str]) -> None:
    game = get_game("rolit")
    state = game.initial_state()
    for player in game.player_names:
        code, out, _ = run(capsys, "show", "rolit", "--position", game.format_position(state), "--json")
        assert code == 0 and json.loads(out)["to_move"] == player
        state = game.play(state, game.legal_moves(state)[0])


def test_perft_counts_chance_outcomes_as_plies(capsys: pytest.CaptureFixture[str]) -> None:
    # Pig: roll (1), the six faces (6), then a second roll after a 1 and roll or hold after
    # 2-6 (1 + 5 * 2 = 11).
    code, out, err = run(capsys, "perft", "pig", "3", "--json")
    assert code == 0, err
    assert [json.loads(line)["nodes"] for line in out.splitlines()] == [1, 6, 11]
