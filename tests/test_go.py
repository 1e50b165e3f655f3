"""Go and Atari Go rules by hand: captures, suicide, superko, passing and the end, area
scoring with komi, first capture, positions, SGF records and the bots' knowledge.  (The
games against GNU Go are in test_gnugo.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from myriad.cli import main

from myriad.core.errors import IllegalMoveError, InvalidMoveError, PositionError
from myriad.core.state import State
from myriad.games import get_game
from myriad.games.go import Go, handicap_points

EMPTY9 = "9/9/9/9/9/9/9/9/9"


def go9() -> Go:
    game = get_game("go9")
    assert isinstance(game, Go)
    return game


def play(game: Go, state: State, *moves: str) -> State:
    for text in moves:
        state = game.play_text(state, text)
    return state


def stones(game: Go, state: State) -> dict[str, str]:
    return {game.topology.names[p]: game.pieces.letter_of[v] for p, v in enumerate(state.cells) if v}


def test_names_skip_i_and_moves_parse_in_either_case() -> None:
    game = go9()
    assert game.topology.names[8] == "J1" and "I1" not in game.topology.index
    state = play(game, game.initial_state(), "d4", "E5", "pass")
    assert stones(game, state) == {"D4": "X", "E5": "O"} and state.to_move == 1
    with pytest.raises(InvalidMoveError):
        game.parse_move(state, "I5")
    with pytest.raises(InvalidMoveError):
        game.parse_move(state, "K1")  # no K column on 9x9
    with pytest.raises(IllegalMoveError):
        game.parse_move(state, "D4")  # occupied


def test_capture_counts_prisoners() -> None:
    game = go9()
    state = play(game, game.initial_state(), "A2", "A1", "B2", "pass", "B1")
    assert "A1" not in stones(game, state)
    assert state.counters[2:] == (1, 0)  # Black took one stone
    assert game.format_position(state).split()[2:4] == ["1", "0"]


def test_suicide_is_illegal_but_a_capturing_move_is_not() -> None:
    game = go9()
    state = game.parse_position("9/9/9/9/9/9/9/X8/1X7 w 0 0 0 10")
    with pytest.raises(IllegalMoveError):
        game.parse_move(state, "A1")
    # White A1 with A2 Black in atari: the placement takes A2, so it is legal
    state = game.parse_position("9/9/9/9/9/9/O8/XO7/1X7 w 0 0 0 10")
    after = game.play_text(state, "A1")
    assert "A2" not in stones(game, after) and stones(game, after)["A1"] == "O"


KO = "9/9/9/9/9/9/1XO6/XO1O5/1XO6 b 0 0 0 20"  # Black takes at C2, White may not retake at B2


def test_ko_cannot_be_retaken_at_once_but_can_after_a_threat() -> None:
    game = go9()
    state = game.parse_position(KO)
    state = play(game, state, "C2")  # takes B2
    assert "B2" not in stones(game, state)
    with pytest.raises(IllegalMoveError):
        game.parse_move(state, "B2")  # would recreate the board before C2 (superko)
    state = play(game, state, "H8", "H9")  # a threat and its answer
    assert game.parse_move(state, "B2")  # now the board differs: legal


def test_superko_compares_with_every_earlier_board() -> None:
    game = go9()
    state = play(game, game.parse_position(KO), "C2", "H8", "H9")
    retake = game.parse_move(state, "B2")  # legal: the board it makes is new
    made = game.board_key(game.play(state, retake))
    # the same position, with that board far back in its history: now B2 repeats it
    older = State(state.cells, state.to_move, state.flags, state.counters, state.hands, state.key,
                  (made,) + state.history)
    with pytest.raises(IllegalMoveError):
        game.parse_move(older, "B2")
    assert len(game.legal_moves(older)) == len(game.legal_moves(state)) - 1


def test_two_passes_end_a_game_at_once() -> None:
    game = go9()
    state = play(game, game.parse_position(KO), "C2", "pass", "pass")
    assert game.outcome(state) is not None and game.legal_moves(state) == []


def test_two_passes_end_with_tromp_taylor_area_and_komi() -> None:
    game = go9()
    # a wall of Black stones on column D, of White on E
    rows = "/".join(["3XO4"] * 9)
    state = game.parse_position(f"{rows} b 0 0 0 40")
    state = play(game, state, "pass", "pass")
    outcome = game.outcome(state)
    assert outcome is not None and game.legal_moves(state) == []
    # Black: 27 empty + 9 stones = 36; White: 9 stones + 36 empty = 45; komi 7.5
    assert game.surround.area(state.cells) == [36, 45]
    assert outcome.winner == 1 and "W+16.5" in outcome.reason


def test_integer_komi_may_draw() -> None:
    game = Go(9, komi=9)
    rows = "/".join(["4XO3"] * 9)  # Black 36 empty + 9 stones, White 9 stones + 27 empty
    state = game.parse_position(f"{rows} w 0 0 1 30")
    assert game.surround.area(state.cells) == [45, 36]
    state = game.play_text(state, "pass")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner is None and "jigo" in outcome.reason


def test_move_limit_ends_a_game() -> None:
    game = go9()
    state = game.parse_position(f"{EMPTY9} b 0 0 0 {game.max_plies - 1}")
    state = play(game, state, "E5")
    outcome = game.outcome(state)
    assert outcome is not None and "move limit" in outcome.reason and outcome.winner == 0
    assert game.legal_moves(state) == []


def test_atari_go_first_capture_wins() -> None:
    game = get_game("atarigo")
    assert isinstance(game, Go)
    state = play(game, game.initial_state(), "A2", "A1", "E5", "E6")
    assert game.outcome(state) is None
    state = play(game, state, "B1")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "first capture"
    assert game.legal_moves(state) == []


def test_handicap_setups_put_black_stones_and_white_moves() -> None:
    game = go9()
    state = game.initial_state("handicap2")
    assert stones(game, state) == {"C3": "X", "G7": "X"} and state.to_move == 1
    assert len(handicap_points(19, 9)) == 9 and set(get_game("go19").setups) >= {"handicap9"}


def test_positions_round_trip_and_bad_positions_are_refused() -> None:
    game = go9()
    state = play(game, game.initial_state(), "E5", "C3", "pass")
    text = game.format_position(state)
    assert text == "9/9/9/9/4X4/9/2O6/9/9 w 0 0 1 3"
    assert game.parse_position(text) == state
    for bad in ("9/9/9/9/9/9/9/9/9 b", "9/9/9/9/9/9/9/9/9 x 0 0 0 0", "9/9/9/9/9/9/9/9 b 0 0 0 0",
                "9/9/9/9/9/9/9/9/9 b 0 0 3 0", "9/9/9/9/9/9/9/9/9 b -1 0 0 0",
                "9/9/9/9/9/9/9/O8/XO7 b 0 0 0 0"):  # the last: Black A1 has no liberty
        with pytest.raises(PositionError):
            game.parse_position(bad)


def test_sgf_round_trip() -> None:
    game = go9()
    start = game.initial_state("handicap2")
    texts = ["E5", "D4", "pass", "F6"]
    state, moves = start, []
    for text in texts:
        move = game.parse_move(state, text)
        moves.append(move)
        state = game.play(state, move)
    record = game.to_sgf(start, moves, info={"PB": "alice", "PW": "bob]x"})
    assert record.startswith("(;FF[4]GM[1]") and "AB[cg][gc]" in record and "PL[W]" in record
    assert "PW[bob\\]x]" in record and ";W[ee]" in record and ";W[]" in record
    again, read = game.from_sgf(record)
    assert again == start and read == texts


def test_sgf_reader_takes_the_main_line_and_refuses_other_boards() -> None:
    game = go9()
    start, moves = game.from_sgf("(;GM[1]FF[4]SZ[9]KM[7.5];B[ee](;W[cc];B[tt])(;W[gg]))")
    assert start == game.initial_state() and moves == ["E5", "C7", "pass"]
    with pytest.raises(PositionError):
        game.from_sgf("(;GM[1]SZ[19];B[dd])")
    with pytest.raises(PositionError):
        game.from_sgf("(;GM[1]SZ[9];B[zz])")
    with pytest.raises(PositionError):
        game.from_sgf("(;GM[1]SZ[9];B[ee]")


def test_candidates_never_fill_own_eyes_and_keep_pass_when_nothing_else() -> None:
    game = go9()
    # Black fills the board but for two eyes, A1 and C1; Black to move
    rows = "XXXXXXXXX/" * 8 + "1X1XXXXXX"
    state = game.parse_position(f"{rows} b 0 0 0 0")
    moves = game.legal_moves(state)
    assert {game.format_move(state, m) for m in moves} == {"pass", "A1", "C1"}
    assert game.candidate_moves(state, moves) == [moves[0]]  # pass only


def test_heuristics_prefer_a_capture() -> None:
    game = go9()
    state = game.parse_position("9/9/9/9/9/9/X8/OX7/1X7 b 0 0 0 4")  # White A2's last liberty: A1
    moves = game.legal_moves(state)
    capture = [m for m in moves if len(m) > 1]
    assert capture, "A1 takes the white stone on A2"
    values = game.move_heuristics(state, moves)
    best = max(range(len(moves)), key=values.__getitem__)
    assert moves[best] == capture[0]
    assert capture[0] in game.candidate_moves(state, moves)


def test_replay_reads_an_sgf_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = go9()
    start = game.initial_state()
    state, moves = start, []
    for text in ("A2", "A1", "E5", "C3", "B1"):  # Black's B1 takes White's A1
        move = game.parse_move(state, text)
        moves.append(move)
        state = game.play(state, move)
    path = tmp_path / "game.sgf"
    path.write_text(game.to_sgf(start, moves, game.outcome(state)))
    assert main(["replay", "go9", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\nB1\n" in out and out.count("\n 1 ") == 6  # the start and five positions
    assert "result: unfinished" in out
    assert "X X . . . . . . ." not in out.split("\nB1\n")[1] and " 1 . X" in out.split("\nB1\n")[1]


def test_records_of_go_are_sgf_with_their_tags_and_an_off_board_end() -> None:
    from myriad.core.game import Outcome
    from myriad.notation.records import record_format, write_record

    game = go9()
    assert record_format(game) == "sgf" and record_format(get_game("chess")) == "pgn"
    start = game.initial_state("handicap2")
    texts = ["E5", "D4", "pass"]
    tags = {"Black": "alice", "White": "bob", "Date": "2026.11.24", "TimeControl": "300+3", "Round": "2"}
    record = write_record(game, texts, Outcome.win(0, "resignation"), tags, start=start)
    assert record.startswith("(;FF[4]GM[1]") and record.endswith(")\n")
    for prop in ("PB[alice]", "PW[bob]", "DT[2026-11-24]", "RO[2]", "RE[B+R]", "AB[cg][gc]"):
        assert prop in record, prop
    assert "TimeControl: 300+3" in record and "Termination: resignation" in record
    again, read = game.from_sgf(record)
    assert again == start and read == texts
    on_time = write_record(game, texts, Outcome.win(1, "time forfeit"), {}, start=start)
    assert "RE[W+T]" in on_time
    with pytest.raises(InvalidMoveError):  # a record's moves are the game's own
        write_record(game, ["Z9"], None)


def test_match_out_writes_an_sgf_collection_that_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.sgf"
    assert main(["match", "atarigo", "random:seed=1", "random:seed=2", "--games", "2", "--jobs", "1",
                 "--out", str(out)]) == 0
    text = out.read_text()
    assert text.count("(;FF[4]") == 2 and "PB[random:seed=1]" in text and "PW[random:seed=1]" in text
    capsys.readouterr()
    for index in ("1", "2"):
        assert main(["replay", "atarigo", str(out), "--index", index]) == 0
        assert "result: " in capsys.readouterr().out
