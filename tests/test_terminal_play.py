"""``myriad play`` end to end, as a player meets it: run as a subprocess with its input piped
or on a pseudo-terminal.  ``help``; moves as players type them (``nc3``, ``d2-d4``,
``0-0``); garbage and illegal moves told apart, an illegal move naming its rule; the legal
moves wrapped at the terminal's width; colour on a terminal only (``NO_COLOR``,
``--no-color``, ``--color``); the result in words at the end."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

from myriad import get_game

SRC = str(Path(__file__).resolve().parents[1] / "src")
ESCAPE = "\x1b["
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    env.update(PYTHONPATH=SRC, TERM="xterm-256color", **extra)
    return env


def piped(args: list[str], lines: list[str], **extra: str) -> str:
    """Output of ``myriad ARGS`` fed ``lines`` on a pipe (stdout and stderr together)."""
    done = subprocess.run([sys.executable, "-m", "myriad", *args], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=120, env=environment(**extra))
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def on_terminal(args: list[str], lines: list[str], columns: int = 60, **extra: str) -> str:
    """Output of ``myriad ARGS`` run on a pseudo-terminal ``columns`` wide, typing ``lines``."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "myriad", *args], stdin=slave, stdout=slave,
                               stderr=slave, env=environment(**extra), close_fds=True)
    os.close(slave)
    os.write(master, ("\n".join(lines) + "\n").encode())
    chunks: list[bytes] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        elif process.poll() is not None:
            break
    process.wait(timeout=30)
    os.close(master)
    assert process.returncode == 0
    return b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


def test_a_game_typed_by_two_players_on_a_pipe() -> None:
    out = piped(["play", "chess", "--first", "human", "--second", "human"],
                ["help", "hello", "d7-d5", "f3", "e5", "g4", "qh4#"])
    assert ESCAPE not in out  # piped: no colour
    for command in ("moves", "undo", "redo", "position", "help", "quit"):
        assert re.search(rf"^  {command} ", out, re.MULTILINE), command
    assert "not played: not a move: chess: 'hello'" in out
    assert "not played: illegal: chess: 'd7-d5' is not legal here: the pawn on d7 is not yours" in out
    assert "game over: Black wins by checkmate after 2 moves" in out
    assert "moves: f3 e5 g4 Qh4#" in out


def test_moves_as_players_type_them() -> None:
    out = piped(["play", "chess", "--first", "human", "--second", "human", "--position",
                 "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R w KQkq - 0 1"], ["nb5", "0-0-0", "0-0", "d7-d4", "quit"])
    assert "last: Nb5" in out and "last: O-O-O" in out and "last: O-O\n" in out and "last: Qd4" in out
    assert "not played" not in out


def test_illegal_moves_name_the_rule() -> None:
    pinned = piped(["play", "chess", "--first", "human", "--second", "human", "--position",
                    "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1"], ["Nc3", "quit"])
    assert "'Nc3' is not legal here: your king would be in check" in pinned
    russian = get_game("russian")
    position = "B:W17,18,21,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
    state = russian.parse_position(position)
    quiet = russian.format_move(state, russian.jumps.quiet_moves(state.cells, state.to_move)[0])
    out = piped(["play", "russian", "--first", "human", "--second", "human", "--position", position], [quiet, "quit"])
    assert f"'{quiet}' is not legal here: a capture is compulsory (the pieces that can take: " in out


def test_the_legal_moves_are_wrapped_at_the_terminal_width() -> None:
    game = get_game("go9")
    legal = {game.format_move(game.initial_state(), m) for m in game.legal_moves(game.initial_state())}
    for columns in (40, 72):
        out = piped(["play", "go9", "--first", "human", "--second", "human"], ["moves", "quit"], COLUMNS=str(columns))
        lines = out.split("legal moves (82): ", 1)[1].split("\n")
        listing = [lines[0]] + [line for line in lines[1:] if line.startswith("  ")]
        assert len(listing) > 2
        assert all(len(line) <= columns for line in ["legal moves (82): " + lines[0]] + listing[1:])
        assert sorted(" ".join(listing).split()) == sorted(legal)  # never a move cut in two


def test_colour_on_a_terminal_only() -> None:
    args = ["play", "tictactoe", "--first", "human", "--second", "human"]
    moves = ["a1", "b2", "zz", "b1", "c3", "c1"]
    coloured = on_terminal(args, moves)
    assert ESCAPE in coloured
    assert "\x1b[1m" + "X" in coloured and "\x1b[31m" + "O" in coloured  # each player's marks in a colour
    plain = ANSI.sub("", coloured)
    assert "game over: X wins by three in a row after 3 moves" in plain
    assert ESCAPE not in on_terminal(args, moves, NO_COLOR="1")
    assert ESCAPE not in on_terminal(args + ["--no-color"], moves)
    forced = piped(args + ["--color"], moves)
    assert ESCAPE in forced and "game over: X wins by three in a row" in ANSI.sub("", forced)


def test_the_legal_moves_fit_a_narrow_terminal() -> None:
    out = ANSI.sub("", on_terminal(["play", "go9", "--first", "human", "--second", "human"], ["moves", "quit"],
                                   columns=50))
    listing = out.split("legal moves (82): ", 1)[1].split("\n")
    rows = [listing[0]] + [line for line in listing[1:] if line.startswith("  ")]
    assert len(rows) >= 5 and all(len(row) <= 50 - len("legal moves (82): ") for row in rows[:1])
    assert all(len(row) <= 50 for row in rows[1:])


def test_the_board_colours_pieces_not_coordinates() -> None:
    from myriad.arena.colour import Palette
    chess = get_game("chess")
    drawing = Palette(True).board(chess, chess.render(chess.initial_state()))
    lines = drawing.split("\n")
    assert "\x1b[31mr\x1b[0m" in lines[0] and "\x1b[1mR\x1b[0m" in lines[7]  # black red, white bold
    assert "\x1b[31m" not in lines[-1] and "\x1b[2mb\x1b[0m" in lines[-1]  # the file b is no bishop
    assert lines[0].startswith(" \x1b[2m8\x1b[0m")
    assert ANSI.sub("", drawing) == chess.render(chess.initial_state())
    assert Palette(False).board(chess, chess.render(chess.initial_state())) == chess.render(chess.initial_state())
