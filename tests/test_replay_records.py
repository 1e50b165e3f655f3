"""``myriad replay`` reads records as they are found in the wild, end to end (subprocess):
PGN and PDN with tags, comments (``{...}`` over lines, ``;`` to the end of a line),
variations (nested, skipped), annotations (``!?``, ``$1``) and several games per file;
SGF collections with comments, variations (the main line is played) and several games."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from myriad import get_game

SRC = str(Path(__file__).resolve().parents[1] / "src")


def replay(game_id: str, path: Path, index: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "myriad", "replay", game_id, str(path), "--index", str(index)],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": SRC})


def random_game(game_id: str, seed: int, plies: int) -> list[str]:
    """The moves of a seeded random game, in the game's notation."""
    game = get_game(game_id)
    state, rng, moves = game.initial_state(), random.Random(seed), []
    for _ in range(plies):
        legal = game.legal_moves(state)
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(game.format_move(state, move))
        state = game.play(state, move)
    return moves


def annotated(moves: list[str], tags: str, result: str) -> str:
    """``moves`` as a PGN/PDN movetext the way people and programs write it: numbered,
    with comments, a nested variation, annotations and a NAG."""
    parts = []
    for i, text in enumerate(moves):
        if i % 2 == 0:
            parts.append(f"{i // 2 + 1}.")
        parts.append(text + ("!?" if i == 1 else ""))
        if i == 0:
            parts.append("{a comment\nover two lines}")
        if i == 2:
            parts.append("$1 (3. 99-88 {never played} (3... zz-yy) 4. qq)")
        if i == 3:
            parts.append("; to the end of the line\n")
    return f"{tags}\n\n{' '.join(parts)} {result}\n"


def played(out: str, moves: list[str]) -> list[str]:
    """The move lines of a replay's output, in order (each move is printed on a line of its own)."""
    lines = out.splitlines()
    wanted = set(moves)
    return [line for line in lines if line in wanted]


@pytest.mark.parametrize("game_id", ["international", "russian"])
def test_pdn_with_comments_variations_and_two_games(game_id: str, tmp_path: Path) -> None:
    first, second = random_game(game_id, 1, 14), random_game(game_id, 2, 20)
    text = (annotated(first, '[Event "one"]\n[GameType "20"]\n[Result "2-0"]', "2-0") + "\n"
            + annotated(second, '[Event "two"]\n[White "A"]\n[Black "B"]\n[Result "1-1"]', "1-1"))
    path = tmp_path / "games.pdn"
    path.write_text(text)
    for index, moves in ((1, first), (2, second)):
        done = replay(game_id, path, index)
        assert done.returncode == 0, done.stderr
        assert played(done.stdout, moves) == moves
        assert done.stdout.splitlines()[-1].startswith("result: ")
    if game_id == "international":  # numbered squares, as PDN writes them
        assert all(part.replace("x", "-").replace("-", "").isdigit() for part in first)
    missing = replay(game_id, path, 3)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "--index must be 1..2" in missing.stderr


def test_pgn_with_annotations_and_several_games(tmp_path: Path) -> None:
    first, second = random_game("chess", 3, 12), ["f3", "e5", "g4", "Qh4#"]
    text = (annotated(first, '[White "A"]\n[Black "B"]\n[Result "*"]', "*") + "\n"
            + annotated(second, '[White "C"]\n[Black "D"]\n[Result "0-1"]', "0-1"))
    path = tmp_path / "games.pgn"
    path.write_text(text)
    assert played(replay("chess", path, 1).stdout, first) == first
    done = replay("chess", path, 2)
    assert played(done.stdout, second) == second
    assert done.stdout.splitlines()[-1] == "result: Black wins by checkmate (0-1)"


SGF = r"""(;FF[4]GM[1]SZ[9]KM[7]PB[Alice]PW[Bob]RE[W+R]C[a comment with \] inside]
;B[ee]C[centre];W[gc]
(;B[cg];W[eg]C[the main line])
(;B[gg]C[a variation];W[cc]))
(;FF[4]GM[1]SZ[9]PB[Carol]PW[Dan]RE[B+3.5]
;B[cc];W[gg];B[cg];W[])
"""


def test_sgf_collection_main_line_and_second_game(tmp_path: Path) -> None:
    path = tmp_path / "games.sgf"
    path.write_text(SGF)
    done = replay("go9", path, 1)
    assert done.returncode == 0, done.stderr
    assert 'Black="Alice" White="Bob" Result="W+R"' in done.stdout
    assert played(done.stdout, ["E5", "G7", "C3", "E3", "G3", "C7"]) == ["E5", "G7", "C3", "E3"]
    second = replay("go9", path, 2)
    assert second.returncode == 0, second.stderr
    assert 'Black="Carol"' in second.stdout
    assert played(second.stdout, ["C7", "G3", "C3", "pass"]) == ["C7", "G3", "C3", "pass"]
    missing = replay("go9", path, 3)
    assert missing.returncode == 2 and "--index must be 1..2" in missing.stderr
