"""Fuzzing the command line: every command's arguments, run in-process through ``cli.main``.

Values are drawn from cheap valid ones (small games, quick bots, hundredths of a second) and
from bad ones: oversized numbers, digits of other scripts, ``nan``/``inf``, nested and
overlong bot specs, paths that are missing, directories, pipes, devices, binary or huge files,
and plain garbage.  Whatever the mix, a command ends with exit code 0 or 2 (``--help``: 0),
and on 2 with exactly one line on stderr, never a traceback and never a hang (pipes and
devices are refused before they are read).  The default run keeps each property to a few
dozen examples; ``-m slow`` runs many more.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from myriad.cli import main
from myriad.games import game_ids, get_game

# -- running the command line -------------------------------------------------------------------


def run_cli(argv: list[str], stdin: str = "quit\n") -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``myriad ARGV`` run in this process."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


def check(argv: list[str], stdin: str = "quit\n") -> int:
    """Run ``argv`` and assert the command-line contract; returns the exit code."""
    code, _out, err = run_cli(argv, stdin)
    assert code in (0, 2), (argv, code, err[-2000:])
    assert "Traceback" not in err, (argv, err[-2000:])
    if code == 2:
        lines = err.strip("\n").splitlines()
        assert len(lines) == 1 and lines[0].startswith("myriad: error: "), (argv, err[-2000:])
    return code


# -- files ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Paths of every kind a user might name, bad ones and good ones."""
    root = tmp_path_factory.mktemp("fuzz_files")
    (root / "binary").write_bytes(bytes(range(256)) * 4)
    (root / "latin1").write_bytes("1. e4 é5 *".encode("latin-1"))
    (root / "empty").write_text("")
    (root / "garbage").write_text("[Event \"x\"\n{ unclosed\n1. zz9 *\n")
    with open(root / "huge", "wb") as f:
        f.truncate(64 * 1024 * 1024 + 1)  # sparse
    os.mkfifo(root / "pipe")
    (root / "ttt.txt").write_text('[Game "tictactoe"]\n[White "a\\"]"]\n\n1. b2 a1 2. c3 *\n')
    (root / "chess.pgn").write_text('[White "x"]\n\n1. e4 e5 2. Nf3 Nc6 *\n')
    (root / "openings.txt").write_text("b2 a1\nc3\n")
    (root / "out").mkdir()
    return {"missing": str(root / "nothing"), "directory": str(root), "pipe": str(root / "pipe"),
            "zero": "/dev/zero", "null": "/dev/null", "binary": str(root / "binary"),
            "latin1": str(root / "latin1"), "empty": str(root / "empty"), "garbage": str(root / "garbage"),
            "huge": str(root / "huge"), "ttt": str(root / "ttt.txt"), "chess": str(root / "chess.pgn"),
            "openings": str(root / "openings.txt"), "in missing dir": str(root / "no" / "such" / "f"),
            "out": str(root / "out" / "games.txt"), "nul": "a\x00b", "blank": ""}


# -- values ---------------------------------------------------------------------------------------

T = TypeVar("T")
#: The threshold of Hypothesis's (not uniform) random draw below which a value is valid.
VALID_SHARE = 0.9
GAMES = game_ids()
#: Games in which a whole game between quick bots takes well under a second.
SMALL_GAMES = ["tictactoe", "othello4", "connect4", "kalah"]
GARBAGE = st.text(max_size=30)
BAD_NUMBERS = st.sampled_from(["9" * 5000, "9" * 30, "٣", "²", "１", "1_0", "-1", " 3", "0", "+2", "nan",
                               "inf", "-inf", "1e309", "0x10", "", "3.5", "1e3", "٣.٥", "0.000", "99999999"])


def mostly(valid: st.SearchStrategy[T], *bad: st.SearchStrategy[T]) -> st.SearchStrategy[T]:
    """Mostly a valid value, else a bad one: with several arguments drawn this way, many
    command lines have one bad value or none, and so reach the checks that come after the
    argument parser.  (A plain ``one_of`` would not do: Hypothesis seeks new values, and a
    few cheap valid ones are soon all seen, so nearly every line would fail at its first
    bad argument.)"""
    return st.tuples(st.randoms(use_true_random=False), valid, st.one_of(*bad)).map(
        lambda choice: choice[1] if choice[0].random() < VALID_SHARE else choice[2])


def numbers(*valid: str) -> st.SearchStrategy[str]:
    """A count: one of ``valid`` (cheap) or a bad one."""
    return mostly(st.sampled_from(valid), BAD_NUMBERS, GARBAGE)


def times() -> st.SearchStrategy[str]:
    """A time in seconds: a few hundredths, or a bad one."""
    return numbers("0.01", "0.02", ".05")


def game_names(valid: list[str]) -> st.SearchStrategy[str]:
    return mostly(st.sampled_from(valid), st.sampled_from(["Chess", "chess ", "chess\x00", "x" * 5000, "٣"]),
                  GARBAGE)


def positions() -> st.SearchStrategy[str]:
    """Position texts: real ones of some game, mangled ones, oversized numbers, garbage."""
    real = [get_game(g).format_position(get_game(g).initial_state()) for g in GAMES]
    mangled = [p.replace("1", d, 1) for p in real for d in ("٣", "²", "9" * 5000, "1_0")]
    return st.one_of(st.sampled_from(real), st.sampled_from(mangled), GARBAGE,
                     st.text(alphabet="0123456789/:,.-wbWBxoKk ", max_size=60))


def seat_specs(quick: list[str], files: dict[str, str]) -> st.SearchStrategy[str]:
    """A bot spec, quick and valid about three times in four."""
    return mostly(st.sampled_from(quick), specs(quick, files))


def specs(quick: list[str], files: dict[str, str]) -> st.SearchStrategy[str]:
    """Bot specs: quick valid ones, books from every kind of path, nested and overlong ones."""
    books = [f"book:file={p}" for p in files.values()]
    nested = st.integers(1, 3000).map(lambda n: "chain:" * n + "random")
    return st.one_of(st.sampled_from(quick), st.sampled_from(books),
                     st.sampled_from(["chain:book,random", f"chain:book:file={files['zero']},random",
                                      "alphabeta:depth=٣", "alphabeta:time=nan", "alphabeta:depth=" + "9" * 5000,
                                      "mcts:playouts=-1", "random:seed=1_0", "heuristic:noise=²", "nosuch",
                                      "chain:" + ",".join(["random"] * 500), "random:" + "x=1," * 2000,
                                      "", ":", "chain:", "book:file", "human"]),
                     nested, GARBAGE)


QUICK_BOTS = ["random", "random:seed=3", "heuristic", "chain:book,random", "book"]
THINKERS = QUICK_BOTS + ["alphabeta:depth=1", "mcts:playouts=20"]


def maybe(flag: str, values: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    """``[flag, value]`` or nothing."""
    return st.one_of(st.just([]), values.map(lambda v: [flag, v]))


def command_lines(files: dict[str, str]) -> dict[str, st.SearchStrategy[list[str]]]:
    """A strategy of argument lists per command."""
    paths = st.sampled_from(sorted(files.values()))

    def cat(*parts: st.SearchStrategy[list[str]]) -> st.SearchStrategy[list[str]]:
        return st.tuples(*parts).map(lambda lists: [a for part in lists for a in part])

    def one(values: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
        return values.map(lambda v: [v])

    flags = mostly(st.sampled_from([[], ["--json"]]),
                   st.lists(st.sampled_from(["--json", "--nosuch", "-x", "--", "extra"]), max_size=2))
    return {
        "games": cat(st.just(["games"]), flags),
        "show": cat(st.just(["show"]), one(game_names(GAMES)),
                    st.one_of(maybe("--position", positions()), maybe("--setup", GARBAGE)), flags),
        "perft": cat(st.just(["perft"]), one(game_names(GAMES)), one(numbers("1", "2")),
                     maybe("--position", positions()), flags),
        "think": cat(st.just(["think"]), one(game_names(GAMES)), st.just(["--bot"]),
                     one(seat_specs(THINKERS, files)), st.just(["--time"]), one(times()),
                     maybe("--position", positions())),
        "match": cat(st.just(["match"]), one(game_names(SMALL_GAMES)), one(seat_specs(QUICK_BOTS, files)),
                     one(seat_specs(QUICK_BOTS, files)), st.just(["--games"]), one(numbers("1", "2")),
                     st.just(["--movetime"]), one(times()), maybe("--jobs", numbers("1")),
                     maybe("--seed", numbers("0", "7")), maybe("--openings", mostly(st.just(files["openings"]), paths)),
                     maybe("--out", mostly(st.just(files["out"]), paths)),
                     st.just(["--json"])),
        "tournament": cat(st.just(["tournament"]), one(game_names(SMALL_GAMES)),
                          mostly(st.permutations(QUICK_BOTS[:3]).map(lambda bots: list(bots[:2])),
                                 st.lists(specs(QUICK_BOTS[:3], files), min_size=1, max_size=3)),
                          st.just(["--games"]), one(numbers("1", "2")), st.just(["--movetime"]), one(times()),
                          maybe("--jobs", numbers("1")), st.just(["--json"])),
        "replay": cat(st.just(["replay"]), one(game_names(["tictactoe", "chess"])),
                      one(mostly(st.sampled_from([files["ttt"], files["chess"]]), paths)),
                      maybe("--index", numbers("1", "2"))),
        "play": cat(st.just(["play"]), one(game_names(GAMES)), st.just(["--first", "human", "--second"]),
                    one(seat_specs(QUICK_BOTS, files)), st.just(["--movetime"]), one(times()),
                    maybe("--position", positions())),
        "bench": cat(st.just(["bench"]), one(mostly(st.sampled_from(["rules", "search"]), st.just("nosuch"))),
                     st.just(["--games"]), one(game_names(["tictactoe", "kalah", "othello4", "gomoku"])),
                     st.just(["--seconds"]), one(times()), st.just(["--json"])),
    }


STDIN_LINES = st.lists(st.one_of(GARBAGE, st.sampled_from(["moves", "undo", "redo", "position", "9" * 5000,
                                                          "b2", "e4", "١", "\x1b[2J", ""])), max_size=8)


def fuzz_command(command: str, examples: int) -> Callable[[dict[str, str]], None]:
    """A test of ``command`` with ``examples`` drawn argument lists."""

    def test(files: dict[str, str]) -> None:
        @settings(max_examples=examples, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
        @given(argv=command_lines(files)[command], lines=STDIN_LINES)
        def run(argv: list[str], lines: list[str]) -> None:
            check(argv, "\n".join(lines + ["quit"]) + "\n")
        run()
    return test


COMMANDS = ["games", "show", "perft", "think", "match", "tournament", "replay", "play", "bench"]
#: Examples per command in the default run (about 30 s together on a loaded two-core machine).
FAST_EXAMPLES = {"games": 20, "show": 80, "perft": 60, "think": 60, "match": 50, "tournament": 30,
                 "replay": 60, "play": 60, "bench": 25}


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_exits_0_or_2_with_one_line(command: str, files: dict[str, str]) -> None:
    fuzz_command(command, FAST_EXAMPLES[command])(files)


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_exits_0_or_2_with_one_line_long(command: str, files: dict[str, str]) -> None:
    fuzz_command(command, 20 * FAST_EXAMPLES[command])(files)


@settings(max_examples=40, deadline=None)
@given(argv=st.lists(st.one_of(GARBAGE, st.sampled_from(COMMANDS + ["--json", "--help", "-h", "--"])),
                     max_size=6).filter(lambda a: not a or a[0] not in ("serve", "play")))
def test_garbage_command_lines(argv: list[str]) -> None:
    check(argv)


# -- paths that must never be read -----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["missing", "directory", "pipe", "zero", "null", "binary", "latin1", "huge",
                                  "in missing dir", "nul", "blank"])
@pytest.mark.parametrize("command", [["replay", "chess", "{}"],
                                     ["think", "chess", "--bot", "book:file={}", "--time", "0.01"],
                                     ["match", "tictactoe", "random", "random", "--openings", "{}"],
                                     ["show", "chess", "--position", "{}"]])
def test_bad_paths_exit_2_at_once(command: list[str], kind: str, files: dict[str, str]) -> None:
    argv = [a.replace("{}", files[kind]) for a in command]
    assert check(argv) == 2


@pytest.mark.parametrize("kind", ["directory", "pipe", "zero", "null", "in missing dir", "nul", "blank"])
def test_bad_out_paths_exit_2_before_playing(kind: str, files: dict[str, str]) -> None:
    code, out, err = run_cli(["match", "tictactoe", "random", "random", "--games", "2", "--movetime", "0.05",
                              "--out", files[kind]])
    assert code == 2 and len(err.strip().splitlines()) == 1 and out == "", err
    assert "/2" not in err  # no game's progress line came before the refusal


# -- play reads stdin -----------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(lines=st.lists(st.one_of(GARBAGE, st.sampled_from(["9" * 5000, "٣٣", "zz9", "\x00", "a1 b2"])),
                      min_size=1, max_size=6).filter(lambda ls: all(
                          ln.strip() not in ("quit", "exit", "q", "moves", "undo", "redo", "position", "")
                          and "\n" not in ln and "\r" not in ln for ln in ls)))
def test_play_answers_every_bad_line_and_quits(lines: list[str]) -> None:
    """Each garbage line is answered with what is wrong and the game carries on; ``quit``
    ends it with exit code 0."""
    game = get_game("chess")
    legal = {game.format_move(game.initial_state(), m) for m in game.legal_moves(game.initial_state())}
    lines = [ln for ln in lines if ln.strip() not in legal] or ["zz9"]
    code, out, err = run_cli(["play", "chess", "--first", "human", "--second", "random"],
                             "\n".join(lines + ["quit"]) + "\n")
    assert code == 0 and "Traceback" not in err, err
    assert out.count("not played:") + out.count("not understood:") == len(lines), out[-3000:]


def test_play_ends_at_end_of_input() -> None:
    code, out, _ = run_cli(["play", "tictactoe", "--second", "random"], "zz\n")
    assert code == 0 and out.count("not played:") == 1
