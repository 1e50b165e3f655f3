"""The arena: Elo arithmetic, forfeits, paired matches, records, and the bot commands."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

from myriad import get_game
from myriad.ai import BOTS, Bot, Decision, Limits, make_bot
from myriad.ai.solver import Solver
from myriad.arena.elo import (conclusive, describe_elo, elo_from_score, elo_interval, elo_with_error, fit_ratings,
                              score_interval, wilson_interval)
from myriad.arena.commands import match_summary
from myriad.arena.match import MatchResult
from myriad.arena.match import is_pass, play_game, random_opening, run_match
from myriad.cli import main
from myriad.core.errors import MyriadError
from myriad.core.move import PASS, Move
from myriad.core.state import State
from myriad.games import game_ids
from myriad.games.go import Go
from myriad.notation.records import read_records, replay, write_record


def test_elo_arithmetic() -> None:
    assert elo_from_score(0.5) == 0
    assert math.isclose(elo_from_score(0.75), 400 * math.log10(3))   # 190.85
    assert math.isclose(elo_from_score(0.25), -400 * math.log10(3))
    mean, half = score_interval(10, 0, 10)
    assert mean == 0.5 and math.isclose(half, 1.96 * 0.5 / math.sqrt(20))
    elo, err = elo_with_error(30, 40, 30)
    assert elo == 0 and 0 < err < 100


def test_a_sweep_of_few_games_gives_an_unbounded_interval_never_1000_plus_minus_0() -> None:
    """10-0 is "Elo > +166": the Wilson lower bound n / (n + z^2) = 10 / 13.84 of the score."""
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    lo, hi = wilson_interval(10, 0, 0)
    assert math.isclose(lo, 10 / (10 + 1.96 ** 2)) and hi == 1.0
    elo_lo, elo_hi = elo_interval(10, 0, 0)
    assert elo_hi == math.inf and 160 < elo_lo < 170
    assert describe_elo(10, 0, 0) == f"Elo > +{elo_lo:.0f} (95%)"
    assert describe_elo(0, 0, 10).startswith("Elo < -")
    assert elo_with_error(10, 0, 0)[1] == math.inf
    # one game tells nothing: the interval covers an even match, and the text says so
    assert not conclusive(1, 0, 0) and "too few to conclude" in describe_elo(1, 0, 0)
    assert conclusive(10, 0, 0) and "conclude" not in describe_elo(10, 0, 0)
    # a few games give a wide interval; many games a narrow one around the same score
    few, many = elo_interval(7, 2, 1), elo_interval(700, 200, 100)
    assert few[1] - few[0] > 400 and many[1] - many[0] < 60 and few[0] < many[0] < many[1] < few[1]
    assert "95%: " in describe_elo(700, 200, 100) and "conclude" not in describe_elo(700, 200, 100)


def test_match_summary_gives_null_bounds_for_a_sweep(capsys: pytest.CaptureFixture[str]) -> None:
    result = MatchResult()
    result.wins, result.games = 10, 10
    summary = match_summary(result)
    assert summary["elo"] is None and summary["elo_error"] is None and summary["elo_high"] is None
    assert 160 < summary["elo_low"] < 170 and json.loads(json.dumps(summary)) == summary


def test_ratings_fit_recovers_an_even_pair_and_orders_players() -> None:
    even = fit_ratings(["a", "b"], {("a", "b"): (5.0, 10)}, anchor="a")
    assert even == {"a": 0.0, "b": pytest.approx(0.0, abs=1e-6)}
    ratings = fit_ratings(["random", "weak", "strong"],
                          {("weak", "random"): (8, 10), ("strong", "random"): (10, 10),
                           ("strong", "weak"): (8, 10)}, anchor="random")
    assert ratings["random"] == 0 and 0 < ratings["weak"] < ratings["strong"]


class CrashingBot(Bot):
    name = "crash"

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        raise RuntimeError("boom")


class IllegalBot(Bot):
    name = "illegal"

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        return Decision(Move(((0, 0, 0, 1, 0),)))


class SlowBot(Bot):
    name = "slow"

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        import time
        time.sleep(0.5)
        return Decision(self.game.legal_moves(state)[0])


@pytest.fixture
def faulty_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "crash", CrashingBot)
    monkeypatch.setitem(BOTS, "illegal", IllegalBot)
    monkeypatch.setitem(BOTS, "slow", SlowBot)


@pytest.mark.parametrize("bad,reason", [("crash", "crashed"), ("illegal", "illegal move"),
                                        ("slow", "overran its time")])
def test_a_faulty_bot_forfeits_and_the_match_goes_on(faulty_bots: None, bad: str, reason: str) -> None:
    result = play_game("tictactoe", ("random", bad), movetime=0.1)
    assert result.scores == (1.0, 0.0) and reason in result.reason and result.failures
    assert result.forfeited == 1
    match = run_match("tictactoe", "random", bad, games=2, movetime=0.1)
    assert match.games == 2 and match.wins == 2 and match.forfeits == [0, 2]


def test_matches_alternate_colours_from_the_same_opening() -> None:
    match = run_match("tictactoe", "alphabeta", "random", games=6, movetime=1, seed=3)
    assert [r.specs for r in match.results] == [("alphabeta", "random"), ("random", "alphabeta")] * 3
    for first, second in zip(match.results[::2], match.results[1::2]):
        assert first.moves[:2] == second.moves[:2]  # the pair's random opening
    # Alpha-beta never does worse than the value of the position the random opening left it
    # (an opening can hand it a lost game: X in a corner and O on the opposite one).
    game = get_game("tictactoe")
    solver = Solver(game)
    for result, seat in zip(match.results, [0, 1] * 3):
        state = game.initial_state()
        for text in result.moves[:2]:
            state = game.play_text(state, text)
        value = solver.solve(state) * (1 if state.to_move == seat else -1)
        mine, theirs = result.scores[seat], result.scores[1 - seat]
        assert (mine > theirs) - (mine < theirs) >= value, result.moves


@pytest.mark.parametrize("game_id", game_ids())
def test_random_openings_pass_only_when_nothing_else_is_legal(game_id: str) -> None:
    """A random opening plays the board: it draws a pass only where it is the only legal
    move (in Go a random pass let the other side end the game at once, by area); Pig's
    roll, an empty move before the die, is no pass."""
    game = get_game(game_id)
    for seed in range(3):
        state = game.initial_state()
        for text in random_opening(game, 4, seed):
            move = game.parse_move(state, text)
            assert not is_pass(game, state, move) or game.legal_moves(state) == [PASS], (game_id, seed, text)
            state = game.play(state, move)


def test_a_random_opening_on_a_small_go_board_never_passes() -> None:
    """On a 5x5 Go board one move in 26 is the pass: four hundred one-ply openings would
    draw it about fifteen times."""
    game = Go(5)
    start = game.initial_state()
    assert PASS in game.legal_moves(start)
    firsts = [random_opening(game, 1, seed) for seed in range(400)]
    assert all(game.parse_move(start, text) != PASS for (text,) in firsts)
    assert len({text for (text,) in firsts}) == 25


def test_records_round_trip_and_replay(tmp_path: Path) -> None:
    game = get_game("chess")
    result = play_game("chess", ("random", "random"), movetime=1, max_plies=40)
    from myriad.core.game import Outcome
    text = write_record(game, result.moves, Outcome(result.scores, result.reason),
                        {"White": "random", "Black": "random"})
    assert text.startswith('[Game "chess"]') and '[White "random"]' in text
    [record] = read_records(text + text)[:1]
    assert record.moves == result.moves
    states = replay(game, record)
    assert len(states) == len(result.moves) + 1
    draughts = get_game("checkers")
    game_result = play_game("checkers", ("random", "random"), movetime=1, max_plies=30)
    pdn = write_record(draughts, game_result.moves, None)
    assert read_records(pdn)[0].moves == game_result.moves


def test_think_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["think", "tictactoe", "--position", "XX1/OO1/3 x", "--bot", "alphabeta", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["move"] == "c3" and out["score"] > 0 and out["pv"][0] == "c3"
    assert set(out) >= {"move", "score", "depth", "nodes", "seconds", "pv"}


def test_match_command_json_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "games.txt"
    # (2 s a move: alphabeta solves tic-tac-toe in about 0.25 s, and a stall of the machine
    # must not cut its search short: the test is about the command, not the clock)
    code = main(["match", "tictactoe", "alphabeta", "random", "--games", "4", "--movetime", "2",
                 "--json", "--out", str(out_file)])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert set(summary) >= {"games", "wins", "draws", "losses", "score", "elo", "elo_error"}
    assert summary["forfeits"] == [0, 0] and len(summary["longest_move"]) == 2
    # (a two-ply random opening can leave alphabeta a lost position: the score, not a clean sheet)
    assert summary["games"] == 4 and summary["wins"] + summary["draws"] + summary["losses"] == 4
    assert summary["score"] >= 0.5
    assert len(read_records(out_file.read_text())) == 4
    assert main(["replay", "tictactoe", str(out_file), "--index", "2"]) == 0
    assert "result:" in capsys.readouterr().out


def test_match_random_plies(tmp_path: Path) -> None:
    """``--random-plies 0``: every game from the start (tic-tac-toe's alpha-beta, seated
    first, opens with the move it always chooses); 5: each pair shares five random plies."""
    start, five = tmp_path / "start.txt", tmp_path / "five.txt"
    assert main(["match", "tictactoe", "alphabeta", "random", "--games", "4", "--movetime", "2",
                 "--random-plies", "0", "--out", str(start)]) == 0
    records = read_records(start.read_text())
    firsts = [r.moves[0] for r in records]
    assert firsts[0] == firsts[2] and len(records) == 4
    assert main(["match", "tictactoe", "random", "random", "--games", "4", "--random-plies", "5",
                 "--out", str(five)]) == 0
    pairs = [r.moves[:5] for r in read_records(five.read_text())]
    assert pairs[0] == pairs[1] and pairs[2] == pairs[3] and pairs[0] != pairs[2]
    assert main(["match", "tictactoe", "random", "random", "--random-plies", "-1"]) == 2


def test_match_progress_is_logged_where_no_bar_can_be_drawn(capsys: pytest.CaptureFixture[str]) -> None:
    """Captured stderr is no terminal: a line per game here (a twentieth of 4 games)."""
    assert main(["match", "tictactoe", "random", "random", "--games", "4", "--movetime", "0.2"]) == 0
    err = capsys.readouterr().err
    assert [f"{n}/4" in err for n in range(1, 5)] == [True] * 4


def test_tournament_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "tictactoe", "random", "heuristic", "alphabeta", "--games", "2",
                 "--movetime", "0.5", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["anchor"] == "random" and table["ratings"]["random"] == 0
    assert len(table["results"]) == 3


@pytest.mark.parametrize("argv", [
    ["think", "chess", "--bot", "nosuch"],
    ["think", "chess", "--position", "not a fen"],
    ["match", "chess", "random", "alphabeta:algo=bad"],
    ["match", "chess", "random", "random", "--games", "0"],
    ["tournament", "chess", "random"],
    ["think", "tictactoe", "--position", "XXX/OO1/3 o"],   # game over
])
def test_bot_commands_refuse_bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("myriad: error:") and len(err.strip().splitlines()) == 1


def test_terminal_play_undo_redo_and_bad_input() -> None:
    from myriad.ai import make_bot
    from myriad.arena.terminal import TerminalGame

    game = get_game("tictactoe")
    lines = iter(["b2", "zz9", "moves", "undo", "undo", "redo", "undo", "c3", "quit"])
    shown: list[str] = []
    seats = [None, make_bot("alphabeta", game)]  # a human against alpha-beta
    session = TerminalGame(game, seats, game.initial_state(), 0.2, read=lambda prompt: next(lines),
                           write=shown.append)
    assert session.run() == 0
    text = "\n".join(shown)
    assert "not played" in text and "zz9" in text          # refused, with the reason
    assert "legal moves (" in text
    # b2 and the bot's answer are undone (to the human's turn), a second undo has nothing
    # to take back, redo restores both, undo again, then c3 and the bot's answer
    assert "nothing to undo" in text
    assert session.notation[0] == "c3" and len(session.notation) == 2
    assert len(session.states) == 3


# -- files named on the command line ------------------------------------------------------------


def bad_files(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """Paths that cannot be read as text, each with (a part of) the reason given."""
    (tmp_path / "binary").write_bytes(bytes(range(256)))
    (tmp_path / "latin1").write_bytes("1. e4 é5".encode("latin-1"))
    with open(tmp_path / "huge", "wb") as f:
        f.truncate(64 * 1024 * 1024 + 1)  # sparse: costs no disk
    os.mkfifo(tmp_path / "pipe")
    return {"missing": (str(tmp_path / "nothing.pgn"), "no such file"),
            "directory": (str(tmp_path), "is a directory"),
            "pipe": (str(tmp_path / "pipe"), "named pipe"),
            "device": ("/dev/zero", "is a device"),
            "binary": (str(tmp_path / "binary"), "binary file"),
            "undecodable": (str(tmp_path / "latin1"), "not UTF-8"),
            "huge": (str(tmp_path / "huge"), "larger than"),
            "empty name": ("", "empty")}


@pytest.mark.parametrize("kind", ["missing", "directory", "pipe", "device", "binary", "undecodable",
                                  "huge", "empty name"])
@pytest.mark.parametrize("command", [
    ["replay", "chess", "{}"],
    ["match", "tictactoe", "random", "random", "--games", "2", "--openings", "{}"],
    ["think", "chess", "--bot", "book:file={}"],
    ["match", "chess", "book:file={}", "random", "--games", "2"],
    ["play", "chess", "--first", "human", "--second", "book:file={}"],
])
def test_file_arguments_that_cannot_be_read_give_one_line(
        kind: str, command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, reason = bad_files(tmp_path)[kind]
    argv = [a.replace("{}", path) for a in command]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("myriad: error:"), err
    if path:
        assert reason in err and path in err, err
    else:  # 'book:file=' with nothing after it is refused by the spec parser, in its words
        assert "empty" in err or "file" in err, err


def test_an_unwritable_out_file_fails_before_any_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import myriad.arena.commands as commands

    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played before the output file was checked")
    monkeypatch.setattr(commands, "run_match", no_games)
    os.mkfifo(tmp_path / "pipe")
    for out, reason in [(tmp_path / "no" / "dir" / "games.pgn", "directory does not exist"),
                        (tmp_path, "is a directory"), (tmp_path / "pipe", "named pipe"),
                        (Path("/dev/null"), "is a device")]:
        assert main(["match", "chess", "random", "random", "--games", "2", "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and reason in err and str(out) in err, err


class InterruptingBot(Bot):
    """Random moves; its fourth construction (the third game of a match: one is built to check
    the spec, one per game) is a Ctrl-C."""

    name = "interrupting"
    built = 0

    def __init__(self, game: object, **options: object) -> None:
        super().__init__(game, **options)  # type: ignore[arg-type]
        type(self).built += 1
        if type(self).built == 4:
            raise KeyboardInterrupt

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        return Decision(self.game.legal_moves(state)[0])


def test_match_writes_each_game_as_it_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A match interrupted during its third game keeps the two games already played."""
    monkeypatch.setitem(BOTS, "interrupting", InterruptingBot)
    monkeypatch.setattr(InterruptingBot, "built", 0)
    out = tmp_path / "games.txt"
    out.write_text("old content, replaced\n")
    assert main(["match", "tictactoe", "interrupting", "random", "--games", "6", "--movetime", "1",
                 "--out", str(out)]) == 130
    records = read_records(out.read_text())
    assert [r.tags["Round"] for r in records] == ["1", "2"]
    game = get_game("tictactoe")
    for record in records:
        assert game.outcome(replay(game, record)[-1]) is not None


def test_match_records_from_a_pool_keep_their_rounds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.txt"
    assert main(["match", "tictactoe", "random", "heuristic", "--games", "4", "--movetime", "1",
                 "--jobs", "2", "--out", str(out), "--json"]) == 0
    records = read_records(out.read_text())
    assert sorted(r.tags["Round"] for r in records) == ["1", "2", "3", "4"]
    for r in records:  # the first bot is white in odd rounds
        assert (r.tags["White"] == "random") == (int(r.tags["Round"]) % 2 == 1)


# -- records quote what they hold ----------------------------------------------------------------


HOSTILE = 'x"]\n[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n[Result "1-0'


@pytest.mark.parametrize("game_id", ["chess", "checkers", "tictactoe"])
def test_a_hostile_seat_name_cannot_write_tags(game_id: str) -> None:
    from myriad.core.game import Outcome

    game = get_game(game_id)
    result = play_game(game_id, ("random", "random"), movetime=1, max_plies=12)
    names = {"White": HOSTILE, "Black": "back\\slash {comment} ; semicolon \x1b[31m"}
    text = write_record(game, result.moves, Outcome(result.scores, result.reason), names)
    assert "\n[FEN" not in text
    [record] = read_records(text)
    assert "FEN" not in record.tags
    assert record.tags["White"] == HOSTILE.replace("\n", " ")
    assert record.tags["Black"] == names["Black"].replace("\x1b", " ")
    assert record.moves == result.moves
    states = replay(game, record)
    assert game.format_position(states[-1]) == game.format_position(
        replay(game, read_records(write_record(game, result.moves, None))[0])[-1])


def test_record_tags_unescape_and_malformed_tags_are_named() -> None:
    [record] = read_records('[White "a \\"quoted\\" name \\\\ and ] bracket"]\n\n1. e4 *\n')
    assert record.tags["White"] == 'a "quoted" name \\ and ] bracket'
    with pytest.raises(MyriadError, match=r"games.pgn:2: malformed tag"):
        read_records('[White "a"]\n[Black "unterminated]\n1. e4 *\n', "games.pgn")


# -- chance and more than two players -----------------------------------------------------------

def test_the_referee_draws_chance_moves_into_the_record_and_it_replays() -> None:
    game = get_game("pig20")
    first = play_game("pig20", ("random:seed=1", "random:seed=2"), movetime=1, chance_seed="7")
    again = play_game("pig20", ("random:seed=1", "random:seed=2"), movetime=1, chance_seed="7")
    other = play_game("pig20", ("random:seed=1", "random:seed=2"), movetime=1, chance_seed="8")
    assert first.moves == again.moves != other.moves     # the draws come from the seed
    faces = [m for m in first.moves if m.isdigit()]
    assert faces and set(faces) <= set("123456")
    from myriad.core.game import Outcome
    [record] = read_records(write_record(game, first.moves, Outcome(first.scores, first.reason)))
    final = replay(game, record)[-1]
    outcome = game.outcome(final)
    assert outcome is not None and outcome.scores == first.scores


def test_the_referee_draws_chance_by_its_probabilities() -> None:
    """Six thousand draws of a die: each face within five standard deviations of 1,000."""
    import random
    from myriad.arena.match import draw_chance
    game = get_game("pig")
    state = game.play_text(game.initial_state(), "roll")
    rng = random.Random(3)
    counts: dict[str, int] = {}
    for _ in range(6000):
        face = game.format_move(state, draw_chance(game, state, rng))
        counts[face] = counts.get(face, 0) + 1
    assert sorted(counts) == list("123456")
    assert all(abs(n - 1000) <= 5 * math.sqrt(6000 * (1 / 6) * (5 / 6)) for n in counts.values()), counts


def test_arrangements_seat_each_bot_at_each_seat_equally() -> None:
    from myriad.arena.match import arrangements
    assert arrangements(2) == [(0, 1), (1, 0)]
    for players in (3, 4):
        seatings = arrangements(players)
        assert len(seatings) == 2 ** players - 2 and all(len(set(s)) == 2 for s in seatings)
        for seat in range(players):
            assert sum(s[seat] == 0 for s in seatings) == sum(s[seat] == 1 for s in seatings)


def test_a_three_player_match_rotates_the_bots_through_every_seat() -> None:
    match = run_match("rolit3", "random:seed=1", "random:seed=2", games=6, movetime=1, seed=2)
    a, b = "random:seed=1", "random:seed=2"
    assert [r.specs for r in match.results] == [(a, a, b), (a, b, a), (a, b, b), (b, a, a), (b, a, b), (b, b, a)]
    assert len({tuple(r.moves[:2]) for r in match.results}) == 1     # one opening per cycle
    assert match.wins + match.draws + match.losses == 6
    for result in match.results:
        assert len(result.scores) == 3 and sum(result.scores) == pytest.approx(1.0)
    assert sum(match.average_scores) == pytest.approx(
        sum(sum(s for s, spec in zip(r.scores, r.specs) if spec == bot) / r.specs.count(bot)
            for r in match.results for bot in (a, b)) / 6)


class CrashingAnyBot(CrashingBot):
    """Crashes in games of any number of players."""

    name = "crash-any"
    max_players = None


def test_a_forfeit_with_more_players_gives_the_game_to_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "crash", CrashingAnyBot)
    result = play_game("rolit3", ("random", "crash", "random"), movetime=0.5)
    assert result.forfeited == 1 and result.scores == (1.0, 0.0, 1.0)
    match = run_match("rolit3", "random", "crash", games=6, movetime=0.5)
    assert match.forfeits == [0, 6] and match.wins == 6


def test_match_command_plays_many_players_and_chance(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "rolit.txt"
    assert main(["match", "rolit", "random", "random:seed=5", "--games", "3", "--movetime", "1",
                 "--json", "--out", str(out_file)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 3 and len(summary["average_scores"]) == 2
    records = read_records(out_file.read_text())
    assert len(records) == 3 and set(records[0].tags) >= {"Red", "Yellow", "Green", "Blue"}
    assert records[0].tags["Result"] == "*" and "balls" in records[0].tags["Termination"]
    assert main(["replay", "rolit", str(out_file), "--index", "3"]) == 0
    capsys.readouterr()
    assert main(["match", "pig20", "random", "random:seed=5", "--games", "2", "--movetime", "1"]) == 0
    assert "+" in capsys.readouterr().out


def test_tournament_command_with_more_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "rolit3", "random", "random:seed=4", "--games", "6", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["results"][0]["games"] == 6


def test_think_refuses_a_chance_node(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["think", "pig", "--position", "0,0 0 - 1?", "--bot", "random"]) == 2
    err = capsys.readouterr().err
    assert "chance moves next" in err and "no bot chooses it" in err
    assert main(["think", "pig", "--position", "0,0 8 4 1", "--bot", "random", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["move"] in ("roll", "hold")


def test_terminal_play_draws_chance_and_undo_goes_back_past_it() -> None:
    from myriad.ai import make_bot
    from myriad.arena.terminal import TerminalGame

    game = get_game("pig20")
    lines = iter(["roll", "undo", "quit"])
    shown: list[str] = []
    seats = [None, make_bot("random", game)]
    session = TerminalGame(game, seats, game.initial_state(), 0.2, read=lambda prompt: next(lines),
                           write=shown.append, seed=5)
    assert session.run() == 0
    text = "\n".join(shown)
    assert "chance: " in text and "die: " in text
    # the roll, its face (and, after a 1, the bot's turn and its dice) are all taken back
    assert session.states == [game.initial_state()] and session.notation == []
    undone = [text for _, text in reversed(session.redo_stack)]
    assert undone[0] == "roll" and undone[1] in "123456"


def test_play_command_seats_every_player(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt: "quit")
    assert main(["play", "rolit3", "--seats", "random", "random:seed=2", "random:seed=3", "--movetime", "0.2"]) == 0
    out = capsys.readouterr().out
    assert "game over" in out and "balls" in out
    assert main(["play", "rolit", "--seats", "human", "random"]) == 2
    assert "4 players" in capsys.readouterr().err


def test_match_text_says_when_a_few_games_cannot_conclude(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "tictactoe", "random", "random", "--games", "2", "--movetime", "0.1"]) == 0
    out = capsys.readouterr().out
    assert "too few to conclude" in out and "95%" in out and "± 0" not in out


def test_think_with_options_but_no_limit_uses_the_default_time(capsys: pytest.CaptureFixture[str]) -> None:
    """``alphabeta:algo=pvs`` sets no limit: think gives it 1 s, says so, and stops."""
    from myriad.arena.commands import DEFAULT_THINK_SECONDS
    assert main(["think", "chess", "--bot", "alphabeta:algo=pvs", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["default_time"] == DEFAULT_THINK_SECONDS == 1.0
    assert 0.5 < out["seconds"] < 1.0 + 1.5   # chess is never solved in a second: the clock stopped it
    assert main(["think", "chess", "--bot", "alphabeta:algo=pvs"]) == 0
    assert "thinking 1 s (the default)" in capsys.readouterr().out
    # a limit in the spec, or --time, is kept and nothing is added
    assert main(["think", "chess", "--bot", "alphabeta:depth=2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["default_time"] is None
    assert main(["think", "chess", "--bot", "chain:alphabeta:depth=2,random", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["default_time"] is None
    assert main(["think", "chess", "--bot", "chain:alphabeta:depth=2,alphabeta", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["default_time"] == 1.0


@pytest.mark.parametrize("spec", ["alphabeta:time=abc", "alphabeta:time=-1", "alphabeta:algo=foo",
                                  "alphabeta:depth=1.5", "mcts:c=x", "nosuchbot"])
def test_think_with_a_bad_bot_value_is_one_line_and_exit_2(spec: str) -> None:
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "myriad", "think", "tictactoe", "--bot", spec],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and spec.split(":")[0] in done.stderr


def test_terminal_play_help_lenient_moves_and_garbage_told_from_illegal() -> None:
    """A chess player types ``help``, garbage, an illegal move, ``nc3`` and ``d7-d5``-style
    long algebraic; each answer says which case it is."""
    from myriad.arena.terminal import COMMANDS, TerminalGame

    game = get_game("chess")
    lines = iter(["help", "xyz", "e5", "nc3", "moves", "e2-e4", "quit"])
    shown: list[str] = []
    session = TerminalGame(game, [None, make_bot("random:seed=1", game)], game.initial_state(), 0.2,
                           read=lambda prompt: next(lines), write=shown.append)
    assert session.run() == 0
    text = "\n".join(shown)
    assert all(name in text for name, _ in COMMANDS)
    assert "not played: not a move: chess: 'xyz'" in text
    assert "not played: illegal: chess: 'e5' is not legal here" in text
    assert session.notation[0] == "Nc3" and session.notation[2] == "e4" and len(session.notation) == 4
    listing = next(line for line in shown if line.startswith("legal moves ("))
    assert all(len(row) <= 100 for row in listing.splitlines())
    # the list is wrapped between moves, never inside one: every word is a legal move
    words = listing.split(":", 1)[1].split()
    state = session.states[2]
    assert sorted(words) == sorted(game.format_move(state, m) for m in game.legal_moves(state))


def test_terminal_play_says_the_result_in_words() -> None:
    from myriad.arena.terminal import TerminalGame

    game = get_game("tictactoe")
    lines = iter(["a1", "b1", "a2", "b2", "a3"])
    shown: list[str] = []
    session = TerminalGame(game, [None, None], game.initial_state(), 0.2, read=lambda prompt: next(lines),
                           write=shown.append)
    assert session.run() == 0
    assert "game over: X wins by three in a row after 3 moves" in "\n".join(shown)


@pytest.mark.parametrize(("text", "played"), [("nc3", "Nc3"), ("Ng1-f3", "Nf3"), ("d2-d4", "d4"),
                                              ("e2xe4", "e4"), ("e4!?", "e4"), ("Nf3 $1", "Nf3"),
                                              ("g1f3", "Nf3"), ("Nf3+", "Nf3")])
def test_chess_reads_moves_as_players_type_them(text: str, played: str) -> None:
    game = get_game("chess")
    state = game.initial_state()
    assert game.format_move(state, game.parse_move(state, text)) == played


def test_chess_castles_written_with_zeros_or_lower_case_and_refuses_garbage_and_illegal_apart() -> None:
    from myriad.core.errors import IllegalMoveError, InvalidMoveError

    game = get_game("chess")
    state = game.parse_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    for text in ("0-0", "O-O", "o-o", "e1g1", "Ke1-g1"):
        assert game.format_move(state, game.parse_move(state, text)) == "O-O"
    assert game.format_move(state, game.parse_move(state, "0-0-0")) == "O-O-O"
    start = game.initial_state()
    for garbage in ("xyz", "e9", "a1a9", "N-c3", "!!"):
        with pytest.raises(InvalidMoveError):
            game.parse_move(start, garbage)
    for illegal in ("e5", "Ke2", "bxc3", "qd1"):
        with pytest.raises(IllegalMoveError):
            game.parse_move(start, illegal)
    checked = game.parse_position("4k3/8/8/8/8/8/4r3/R3K3 w Q - 0 1")
    with pytest.raises(IllegalMoveError, match="your king is in check"):
        game.parse_move(checked, "Ra8")


def test_play_command_end_to_end_with_a_piped_stdin() -> None:
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "myriad", "play", "chess", "--second", "random", "--movetime", "0.2"],
                          input="help\nxyz\ne5\nnc3\nquit\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "print this list" in done.stdout and "not a move" in done.stdout and "illegal" in done.stdout
    assert "last: Nc3" in done.stdout


def test_match_records_name_each_seat_by_its_player(tmp_path: Path) -> None:
    """Go's first player is Black: the SGF of a match names bot A as Black when it moved
    first (``PB``), and as White in the next round, where the seats swap."""
    out = tmp_path / "games.sgf"
    assert main(["match", "atarigo", "heuristic", "random", "--games", "2", "--out", str(out)]) == 0
    first, second = [r for r in out.read_text().split("(;") if r.strip()]
    assert "PB[heuristic]" in first and "PW[random]" in first
    assert "PB[random]" in second and "PW[heuristic]" in second


def test_pigs_roll_is_no_pass_and_random_openings_roll() -> None:
    """Pig's roll is the empty move, yet the die follows it: openings still draw it."""
    game = get_game("pig")
    state = game.initial_state()
    roll = next(m for m in game.legal_moves(state) if m == PASS)
    assert not is_pass(game, state, roll)
    texts = {t for seed in range(40) for t in random_opening(game, 1, seed)}
    assert game.format_move(state, roll) in texts
