"""BanQi: rules on hand-built positions, chance at the flips, notation, positions, replay.

The moves are compared with an independent referee (the TCGA computer dark chess kit's,
last test) along random games, and the rules are checked on positions built by hand
against the rule statements of Wikipedia's "Banqi" article and of the Computer Olympiad's
Chinese Dark Chess (CDC) rules (the Taiwanese default): ranks
general > advisor > elephant > chariot > horse > cannon > soldier, equal or lower rank
taken, the soldier takes the general and not the other way round, the cannon takes any
rank by jumping exactly one piece, face-down pieces are neither taken nor moved.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from myriad.arena.match import play_game
from myriad.core.errors import GameDefinitionError, IllegalMoveError, InvalidMoveError, PositionError
from myriad.core.move import SET
from myriad.games import get_game
from myriad.games.banqi import HONG_KONG_RANKS, Banqi, BanqiRules

KINDS = ("general", "advisor", "elephant", "chariot", "horse", "cannon", "soldier")
GAME = get_game("banqi")


def moves_of(game: Banqi, position: str) -> set[str]:
    state = game.parse_position(position)
    return {game.format_move(state, m) for m in game.legal_moves(state)}


def pos(board: str, captured: str, side: str = "1", colours: str = "r", quiet: int = 0) -> str:
    return f"{board} {side} {colours} {captured} {quiet}"


# A position with red (the first player) to move: the board from rank 8 down, every other
# piece of the set captured.  FULL lists the whole set, from which `rest` takes the board's.
# (in the order positions write them: red then black of each kind, general first).
FULL = "Kk" + "GGgg" + "MMmm" + "RRrr" + "NNnn" + "CCcc" + "PPPPPppppp"


def rest(*on_board: str) -> str:
    """The captured pieces: the whole set less the face-up pieces ``on_board``."""
    left = list(FULL)
    for letter in "".join(on_board):
        left.remove(letter)
    return "".join(left)


def test_start_is_all_flips_and_the_first_flip_draws_by_counts() -> None:
    state = GAME.initial_state()
    moves = [GAME.format_move(state, m) for m in GAME.legal_moves(state)]
    assert len(moves) == 32 and moves[0] == "a1" and moves[-1] == "d8"
    flipped = GAME.play_text(state, "b3")
    assert GAME.is_chance(flipped) and GAME.format_position(flipped).startswith("XXXX/XXXX/XXXX/XXXX/XXXX/X?XX/")
    outcomes = {GAME.format_move(flipped, m): p for m, p in GAME.chance_outcomes(flipped)}
    assert len(outcomes) == 14
    assert outcomes["K"] == pytest.approx(1 / 32) and outcomes["p"] == pytest.approx(5 / 32)
    assert outcomes["R"] == pytest.approx(2 / 32)
    assert sum(outcomes.values()) == pytest.approx(1)


def test_the_first_flip_gives_the_flipper_its_colour() -> None:
    state = GAME.play_text(GAME.play_text(GAME.initial_state(), "b3"), "n")  # a black horse
    assert GAME.format_position(state) == "XXXX/XXXX/XXXX/XXXX/XXXX/XnXX/XXXX/XXXX 2 b - 0"
    assert GAME.colour_of_player(state, 0) == 1 and GAME.colour_of_player(state, 1) == 0
    # the second player (red) cannot move the black horse: only flips
    assert all(GAME.format_move(state, m) != "b3-b4" for m in GAME.legal_moves(state))
    assert len(GAME.legal_moves(state)) == 31
    after = GAME.play_text(GAME.play_text(state, "a1"), "P")
    assert "b3-b4" not in moves_of(GAME, GAME.format_position(after))  # b4 is face down: no step there
    assert GAME.format_position(after).endswith(" 1 b - 0")


def test_pool_leaves_out_face_up_and_captured_pieces() -> None:
    # red general and black advisor face up, a black soldier and a red cannon captured,
    # 28 face down; chance turns b3 for the second player.
    board = "XXXX/XXXX/XXXX/XXXX/XXXX/X?XX/XXKg/XX2"
    state = GAME.parse_position(f"{board} 2? r pC 0")
    outcomes = {GAME.format_move(state, m): p for m, p in GAME.chance_outcomes(state)}
    assert "K" not in outcomes                           # the one red general is face up
    assert outcomes["g"] == pytest.approx(1 / 28)        # one black advisor of two left
    assert outcomes["p"] == pytest.approx(4 / 28) and outcomes["C"] == pytest.approx(1 / 28)


@pytest.mark.parametrize(("attacker", "victim", "taken"), [
    ("K", "g", True), ("K", "p", False), ("P", "k", True), ("G", "k", False), ("G", "m", True),
    ("R", "r", True), ("N", "r", False), ("R", "n", True), ("P", "p", True), ("P", "c", False),
    ("N", "c", True), ("M", "g", False)])
def test_rank_captures_taiwan(attacker: str, victim: str, taken: bool) -> None:
    # attacker on b2, victim on b3; red to move.
    board = f"4/4/4/4/4/1{victim}2/1{attacker}2/4"
    moves = moves_of(GAME, pos(board, rest(attacker, victim)))
    assert ("b2xb3" in moves) == taken
    assert {"b2-a2", "b2-c2", "b2-b1"} <= moves  # steps onto the empty squares


def test_face_down_pieces_are_never_taken_and_block_steps() -> None:
    board = "4/4/4/4/4/1X2/1K2/4"
    moves = moves_of(GAME, pos(board, rest("K")[:-1]))  # one black soldier face down on b3
    assert "b2xb3" not in moves and "b2-b3" not in moves
    assert moves == {"b3", "b2-a2", "b2-c2", "b2-b1"}


def test_cannon_jumps_one_screen_to_any_rank() -> None:
    # red cannon a1; a2 a face-down screen, a4 the black general: taken over the screen;
    # b1 a black soldier next to the cannon is not taken by a step; c1 empty, d1 black horse
    # behind the soldier screen: taken.
    board = "4/4/4/4/k3/4/X3/Cp1n"
    moves = moves_of(GAME, pos(board, rest("C", "k", "p", "n")[:-1]))
    assert "a1xa4" in moves and "a1xd1" in moves
    assert "a1xb1" not in moves and "a1xa2" not in moves
    assert {m for m in moves if m.startswith("a1-")} == set()   # every neighbour is occupied


def test_cannon_needs_exactly_one_screen() -> None:
    # two screens (a2, a3) before the target a4: no capture; no screen before b1... c1: none.
    board = "4/4/4/4/k3/X3/X3/C1n1"
    moves = moves_of(GAME, pos(board, rest("C", "k", "n")[:-2]))
    assert "a1xa4" not in moves and "a1xc1" not in moves
    assert "a1-b1" in moves


def test_cannon_does_not_take_its_own_colour_and_is_taken_by_rank() -> None:
    board = "4/4/4/4/4/R3/X3/Cn2"
    moves = moves_of(GAME, pos(board, rest("C", "R", "n")[:-1]))
    assert "a1xa3" not in moves
    black = moves_of(GAME, pos(board, rest("C", "R", "n")[:-1], side="2"))
    assert "b1xa1" in black  # the black horse outranks the cannon


def test_hong_kong_ranks() -> None:
    hk = get_game("banqi_hk")
    board = "4/4/4/4/4/1g2/1R2/4"
    assert "b2xb3" in moves_of(hk, pos(board, rest("R", "g")))     # chariot ranks second
    assert "b2xb3" not in moves_of(GAME, pos(board, rest("R", "g")))  # Taiwan: advisor ranks above
    table = hk.capture.takes  # (the rank-capture mechanic, shared with Jungle)
    assert table[KINDS.index("horse")][KINDS.index("advisor")]
    assert not table[KINDS.index("elephant")][KINDS.index("cannon")]


def test_capture_table_exceptions_and_bad_orders() -> None:
    table = GAME.capture.takes
    assert table[6][0] and not table[0][6] and table[0][1]  # soldier takes general, not back
    assert not any(row[7] for row in table) and not any(table[7])  # the face-down marker has no rank
    with pytest.raises(GameDefinitionError, match="rank order"):
        Banqi(BanqiRules(ranks=("general",) * 7))
    with pytest.raises(GameDefinitionError, match="rank order"):
        Banqi(BanqiRules(ranks=HONG_KONG_RANKS[:-1]))


def test_chained_captures_may_stop_or_go_on() -> None:
    game = Banqi(BanqiRules(chained=True))
    board = "4/4/4/4/p3/p3/R3/4"
    moves = moves_of(game, pos(board, rest("R", "p", "p")))
    assert {"a2xa3", "a2xa3xa4"} <= moves
    state = game.parse_position(pos(board, rest("R", "p", "p")))
    after = game.play_text(state, "a2xa3xa4")
    assert game.format_position(after).startswith("4/4/4/4/R3/4/4/4 2 r ")
    assert "a2xa3xa4" not in moves_of(GAME, pos(board, rest("R", "p", "p")))


def test_sliding_chariot() -> None:
    game = Banqi(BanqiRules(sliders=frozenset({"chariot"})))
    board = "4/p3/4/4/4/4/R3/4"
    moves = moves_of(game, pos(board, rest("R", "p")))
    assert {"a2-a3", "a2-a6", "a2xa7", "a2-d2", "a2-a1"} <= moves
    assert "a2xa7" not in moves_of(GAME, pos(board, rest("R", "p")))


def test_endings() -> None:
    # black's last piece taken: red (the first player) wins, and nothing more is legal
    state = GAME.parse_position(pos("4/4/4/4/4/1p2/1R2/4", rest("R", "p")))
    over = GAME.play_text(state, "b2xb3")
    outcome = GAME.outcome(over)
    assert outcome is not None and outcome.winner == 0 and "black" in outcome.reason
    assert GAME.legal_moves(over) == []
    # a player with no legal move loses: red soldier on a1 hemmed in by black pieces it
    # cannot take (black to have moved last; red to move)
    stuck = GAME.parse_position(pos("4/4/4/4/4/4/r3/Pn2", rest("P", "r", "n")))
    assert GAME.legal_moves(stuck) == [] and GAME.outcome(stuck).winner == 1
    # the quiet-ply limit draws
    quiet = GAME.parse_position(pos("4/4/4/k3/4/4/4/3K", rest("K", "k"), quiet=59))
    assert GAME.outcome(quiet) is None
    drawn = GAME.play_text(quiet, "d1-d2")
    assert GAME.outcome(drawn).winner is None and GAME.legal_moves(drawn) == []


def test_threefold_repetition_draws_and_a_flip_or_capture_starts_the_count_again() -> None:
    """TCGA: a position occurring a third time draws.  The kings shuffle d1-d2, a8-a7,
    d2-d1, a7-a8 twice: the start comes back after 4 and after 8 plies, the 8th ply draws
    (far before the 60-ply limit).  With ``repetitions=0`` the same plies play on; and a
    flip in between is irreversible, so the shuffle after it counts from zero."""
    start = GAME.parse_position(pos("k3/4/4/4/4/4/4/3K", rest("K", "k")))
    shuffle = ["d1-d2", "a8-a7", "d2-d1", "a7-a8"] * 2
    state = start
    for i, text in enumerate(shuffle):
        assert GAME.outcome(state) is None, i
        state = GAME.play_text(state, text)
    assert state.cells == start.cells and state.key == start.key and state.counters[0] == 8
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner is None and "3 times" in outcome.reason
    assert GAME.legal_moves(state) == []
    # only twice: not yet a draw
    twice = start
    for text in shuffle[:4]:
        twice = GAME.play_text(twice, text)
    assert twice.key == start.key and GAME.outcome(twice) is None and GAME.legal_moves(twice)
    # the option off: the shuffle goes on
    free = Banqi(BanqiRules(repetitions=0))
    state = free.parse_position(pos("k3/4/4/4/4/4/4/3K", rest("K", "k")))
    for text in shuffle:
        state = free.play_text(state, text)
    assert free.outcome(state) is None and free.legal_moves(state)
    # a flip resets the count: a face-down piece on b4, flipped after one shuffle
    flipping = GAME.parse_position(pos("k3/4/4/4/1X2/4/4/3K", rest("K", "k")[:-1]))
    state = flipping
    for text in shuffle[:4]:
        state = GAME.play_text(state, text)
    state = GAME.play_text(GAME.play_text(state, "b4"), "p")  # red flips a black soldier
    after = state
    for text in ["a8-b8", "d1-d2", "b8-a8", "d2-d1"] * 2:
        assert GAME.outcome(state) is None
        state = GAME.play_text(state, text)
    assert state.key == after.key and GAME.outcome(state) is not None  # the 3rd time since the flip
    with pytest.raises(GameDefinitionError, match="repetitions"):
        Banqi(BanqiRules(repetitions=1))


def test_notation_aliases_and_refusals() -> None:
    state = GAME.parse_position(pos("4/4/4/4/X3/1p2/1R2/4", rest("R", "p")[:-1]))
    assert GAME.parse_move(state, "a4-a4") == GAME.parse_move(state, "a4")   # CDC's flip
    assert GAME.parse_move(state, "b2-b3") == GAME.parse_move(state, "b2xb3")  # CDC's capture
    with pytest.raises(IllegalMoveError):
        GAME.parse_move(state, "b2-b4")
    with pytest.raises(InvalidMoveError):
        GAME.parse_move(state, "b2-e9")
    with pytest.raises(IllegalMoveError):
        GAME.parse_move(state, "K")  # a piece letter is chance's move, not the player's


@pytest.mark.parametrize("text", [
    "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX 1 - - 0 0",          # five fields expected
    "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX 3 - - 0",            # player
    "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXX1 1 r - 0",            # 31 face down, 32 unseen
    "KKXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX 1 r - 0",            # two red generals
    "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXX? 1 - - 0",            # '?' without chance to move
    "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX 1? - - 0",           # chance without '?'
    "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXK 1 - - 0",            # face up, colours undecided
    "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX 1 r - 0",            # colours without a flip
    "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXX1 1 r Z 0",            # unknown captured letter
    "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXX1 1 r p 61",           # past the quiet limit
    "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXQ 1 r - 0",            # unknown piece
])
def test_bad_positions_are_refused(text: str) -> None:
    with pytest.raises(PositionError):
        GAME.parse_position(text)


def test_positions_round_trip() -> None:
    for text in ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXX1 2 b p 3",
                 "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XX?1 1? b p 0",
                 "4/4/4/k3/4/4/4/3K 2 r " + rest("K", "k") + " 17"):
        assert GAME.format_position(GAME.parse_position(text)) == text


def test_a_record_with_its_seed_replays_exactly() -> None:
    """The referee draws the flips from its seeded generator: the same bots (seeded) and
    seed give the same record, and the record's moves (chance's draws included) replay to
    the same end."""
    first = play_game("banqi", ["random:seed=3", "random:seed=4"], 5.0, chance_seed="7:1")
    again = play_game("banqi", ["random:seed=3", "random:seed=4"], 5.0, chance_seed="7:1")
    assert first.moves == again.moves and first.reason == again.reason
    other = play_game("banqi", ["random:seed=3", "random:seed=4"], 5.0, chance_seed="8:1")
    assert other.moves != first.moves
    state = GAME.initial_state()
    for text in first.moves:
        state = GAME.play_text(state, text)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == first.reason
    assert sum(1 for m in first.moves if m in FULL) >= 10  # the draws are in the record


# -- an independent referee ---------------------------------------------------------------------

REFEREE_DATA = Path(__file__).parent / "data" / "banqi_cdc_referee.txt.gz"


def test_moves_agree_with_the_tcga_referee() -> None:
    """Along 15 random games, at every position with the colours decided, our steps and
    captures are exactly those the TCGA dark chess kit's Referee allows (see
    tests/data/make_banqi_cdc.py); flips are the face-down squares in both."""
    lines = gzip.open(REFEREE_DATA, "rt").read().splitlines()
    assert len(lines) > 2500
    captures = cannon_captures = 0
    for line in lines:
        position, _, expected = line.partition("\t")
        state = GAME.parse_position(position)
        ours = set()
        for move in GAME.legal_moves(state):
            if move[0][0] != SET:
                ours.add(f"{GAME.square_name(move.frm)}-{GAME.square_name(move.to)}")
                captures += bool(move.captures)
                cannon_captures += bool(move.captures) and "C" in GAME.pieces.letter_of[move[1][3]].upper()
        assert ours == set(expected.split()), f"{position}: ours {sorted(ours)}, referee {expected}"
    assert captures > 1000 and cannon_captures > 100  # the data exercises captures, cannons' too


def test_flip_scores_fear_a_flip_next_to_an_enemy_that_takes_it() -> None:
    """Bot knowledge: a flip beside the black general (red to move) may turn up a red piece
    the general takes at once, or a black piece that takes the red chariot beside it; a flip
    far from every face-up piece risks nothing; flips are searched best first."""
    # black general b5, red chariot c4; face down: b4 (beside both), d1 (far), and a1
    board = "4/4/4/1k2/1XR1/4/4/X2X"
    # (face down: two red advisors, which the general takes, and a black one, which takes
    # the chariot; soldiers would be harmless: the general never takes one)
    state = GAME.parse_position(pos(board, rest("k", "R", "G", "g", "G")))
    near, far = GAME.flip_scores(state, [GAME.topology.pos("b4"), GAME.topology.pos("d1")])
    assert far == 0 and near < 0
    flips = [m for m in GAME.legal_moves(state) if m[0][0] == SET]
    assert len(flips) == 3
    scores = dict(zip((GAME.format_move(state, m) for m in flips), GAME.move_heuristics(state, flips)))
    assert scores["b4"] < scores["d1"] == scores["a1"]
