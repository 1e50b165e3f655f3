"""The kernel benchmarks run with tiny budgets and print their fields (no speed is asserted:
only that each number is there, measured, and that the counts agree)."""
from __future__ import annotations

import json

import pytest

from myriad import bench_kernel
from myriad.cli import main
from myriad.games import get_game
from myriad.kernel.registry import kernel_for


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict]:  # type: ignore[type-arg]
    assert main(list(argv)) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_bench_rules_adds_kernel_rates_and_ratios(capsys: pytest.CaptureFixture[str]) -> None:
    rows = run(capsys, "bench", "rules", "--games", "connect4", "pig", "--seconds", "0.05", "--json")
    kernel = {r["game"]: r for r in rows if r.get("engine") == "kernel"}
    assert set(kernel) == {"connect4", "pig"}
    assert kernel["pig"]["kernel"] is None  # chance: reference only
    c4 = kernel["connect4"]
    assert c4["agrees"] is True and c4["depth"] >= 1 and c4["nodes"] > 0
    assert c4["nodes_per_second"] > 0 and c4["reference_nodes_per_second"] > 0 and c4["ratio"] > 0
    # the count at the kernel's depth is the oracle's (counts.json: 7, 49, 343, ...)
    assert c4["nodes"] == 7 ** c4["depth"] or c4["depth"] >= 7


def test_bench_rules_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "rules", "--games", "tictactoe", "othello4", "--seconds", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "kernel perft" in out and "kernel/reference" in out
    assert kernel_for(get_game("othello4")) is not None or "othello4       reference only" in out


def test_openspiel_chess_perft_counts_like_the_oracle() -> None:
    from myriad.bench import CHESS_START_FEN
    rate = bench_kernel.openspiel_chess_perft(2, CHESS_START_FEN, timeout=120)
    assert rate.error == "" and rate.count == 400 and rate.seconds > 0 and rate.version


def test_bench_playouts(capsys: pytest.CaptureFixture[str]) -> None:
    rows = run(capsys, "bench", "playouts", "--games", "tictactoe", "--seconds", "0.05", "--json")
    assert len(rows) == 1
    row = rows[0]
    assert row["game"] == "tictactoe" and row["rbg"] == 2_000_000
    assert row["kernel"] > 0 and row["reference"] > 0 and row["openspiel"] > 0, row
    assert row["kernel_vs_reference"] > 0 and row["kernel_vs_openspiel"] > 0


def test_kernel_playouts_play_whole_games() -> None:
    rate = bench_kernel.kernel_playouts(get_game("connect4"), 0.05)
    assert rate is not None and rate.count >= 1 and rate.seconds > 0
    assert bench_kernel.kernel_playouts(get_game("pig"), 0.05) is None


def test_bench_search(capsys: pytest.CaptureFixture[str]) -> None:
    rows = run(capsys, "bench", "search", "--games", "connect4", "othello", "--seconds", "0.2", "--json")
    assert [r["game"] for r in rows] == ["connect4", "othello"]
    for row in rows:
        game = get_game(row["game"])
        ref = row["reference"]
        assert ref["depth"] >= 1 and ref["nodes"] > 0 and ref["nodes_per_second"] > 0
        state = game.parse_position(row["position"])
        assert ref["move"] in {game.format_move(state, m) for m in game.legal_moves(state)}
        if kernel_for(game) is None:
            assert row["kernel"] is None
        elif row["kernel"]["error"]:
            assert row["kernel"]["error"] == "kernel search not available"
        else:
            assert row["kernel"]["depth"] >= 1 and row["nodes_per_second_ratio"] > 0


def test_bench_search_refuses_a_chance_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "search", "--games", "pig", "--seconds", "0.1"]) == 2
    assert "two-player games without chance" in capsys.readouterr().err


def test_bench_startup(capsys: pytest.CaptureFixture[str]) -> None:
    row = run(capsys, "bench", "startup", "--game", "connect4", "--runs", "1", "--json")[0]
    game = get_game("connect4")
    assert row["game"] == "connect4" and row["goal"] == 0.5
    assert row["what"] in {"search", "legal moves"}
    assert row["move"] in {game.format_move(game.initial_state(), m) for m in game.legal_moves(game.initial_state())}
    assert 0 < row["in_process"] < row["wall"] <= row["exit"] and row["interpreter"] > 0
    # numba's own share (import and registries) is part of any kernel process's start
    assert row["interpreter"] < row["numba"] < row["wall"]


def test_bench_startup_refuses_a_reference_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "startup", "--game", "pig"]) == 2
    assert "not on the kernel" in capsys.readouterr().err


class ReferenceAsKernel:
    """Stands in for a chess kernel (the reference's perft), so the chess comparison's code
    runs before the chess family lands."""

    def __init__(self, game) -> None:  # type: ignore[no-untyped-def]
        self.game = game

    def perft(self, state, depth):  # type: ignore[no-untyped-def]
        from myriad.core.game import perft
        return perft(self.game, state, depth)


def test_chess_kernel_is_compared_with_python_chess_and_openspiel(monkeypatch: pytest.MonkeyPatch) -> None:
    from myriad.kernel import registry
    chess = get_game("chess")
    real = registry.kernel_for
    monkeypatch.setattr(registry, "kernel_for",
                        lambda game: ReferenceAsKernel(game) if game is chess else real(game))
    refs = bench_kernel.chess_references(chess, 2, 0.05, repeats=1)
    assert refs is not None
    assert refs.kernel.count == refs.python_chess.count == refs.openspiel.count == 400
    for rate in (refs.kernel, refs.python_chess, refs.openspiel):
        assert rate.error == "" and rate.per_second > 0 and rate.depth == 2
    assert refs.python_chess.version and refs.openspiel.version
    monkeypatch.setattr(registry, "kernel_for", real)
    assert bench_kernel.chess_references(chess, 2, 0.05) is None or real(chess) is not None
