"""Oware abapa: OpenSpiel's games replayed move by move, MancalaGames' games for the
grand-slam variants, rule-book examples, feeding, the ends of the game, notation and errors.

Proof data: tests/data/oware_openspiel.json.gz holds 300 random games played by DeepMind's
OpenSpiel (``pip install open_spiel==2.0.2``, game ``oware``, Apache-2.0), written by
tests/data/make_oware_openspiel.py run as a separate process: OpenSpiel's observation before
every ply (side to move, both scores, the twelve houses), its legal actions, the action played,
the final observation and the returns.  The default run replays 40 of them, ``-m slow`` all.

Published value not checked here: Romein & Bal (2002) solved awari as a draw (24-24) with a
retrograde database of 889 billion positions and rules that differ in the grand slam and the
end of the game; that is far beyond a test (../shared/oracles/solved.json records it).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from myriad.core.errors import GameDefinitionError, IllegalMoveError, InvalidMoveError, PositionError
from myriad.core.game import perft
from myriad.games import get_game
from myriad.games.oware import oware

DATA = Path(__file__).parent / "data" / "oware_openspiel.json.gz"
START = "4,4,4,4,4,4,0/4,4,4,4,4,4,0 s"


@pytest.fixture(scope="module")
def game():
    return get_game("oware")


def after(game, position: str, *moves: str) -> str:
    state = game.parse_position(position)
    for text in moves:
        state = game.play_text(state, text)
    return game.format_position(state)


# -- OpenSpiel's games -------------------------------------------------------------------------

def openspiel_games() -> list[dict]:
    if not DATA.exists():
        pytest.fail(f"{DATA} is missing: regenerate it with tests/data/make_oware_openspiel.py")
    with gzip.open(DATA, "rt") as f:
        data = json.load(f)
    assert len(data["games"]) == 300
    return data["games"]


def observation(game, state) -> str:
    """A state written as OpenSpiel's observation string."""
    cells = state.cells
    houses = " ".join(str(cells[h]) for h in game.houses[0] + game.houses[1])
    return f"{state.to_move} | {cells[game.stores[0]]} {cells[game.stores[1]]} | {houses}"


def replay(game, record: dict) -> None:
    """Every ply: the same position, the same legal moves; the same end and final scores."""
    state = game.initial_state()
    for ply, step in enumerate(record["plies"]):
        where = f"ply {ply}"
        assert observation(game, state) == step["obs"], where
        letters = "abcdef" if state.to_move == 0 else "ABCDEF"  # OpenSpiel's actions 0-5
        assert game.outcome(state) is None, where
        assert sorted(game.format_move(state, m) for m in game.legal_moves(state)) == \
            sorted(letters[a] for a in step["legal"]), where
        state = game.play_text(state, letters[step["action"]])
    outcome = game.outcome(state)
    assert outcome is not None, "OpenSpiel's game is over here"
    final = [int(x) for x in record["final"].split("|")[1].split()]
    assert list(game.sowing.final_scores(state.cells)) == final
    returns = record["returns"]
    assert outcome.winner == (None if returns[0] == returns[1] else 0 if returns[0] > returns[1] else 1)


def test_openspiel_games_move_by_move(game):
    games = openspiel_games()
    for record in games[:40]:
        replay(game, record)
    # the sample covers the three ends of the game
    reasons = {game.outcome(play_all(game, r)).reason.split()[0] for r in games[:40]}
    assert {"captured", "no", "position"} <= reasons


def play_all(game, record):
    state = game.initial_state()
    for step in record["plies"]:
        state = game.play_text(state, ("abcdef" if state.to_move == 0 else "ABCDEF")[step["action"]])
    return state


def test_openspiel_golden_playthrough(game):
    """OpenSpiel's own playthrough file (tests/data/oware_openspiel_playthrough.json, its
    source in the file): the 110 actions replayed, the positions it shows, its end and returns."""
    path = DATA.parent / "oware_openspiel_playthrough.json"
    if not path.exists():
        pytest.fail(f"{path} is missing")
    data = json.loads(path.read_text())
    assert len(data["history"]) == 110 and len(data["observations"]) == 24
    state = game.initial_state()
    for ply, action in enumerate([*data["history"], None]):
        if str(ply) in data["observations"] and ply < len(data["history"]):
            assert observation(game, state) == data["observations"][str(ply)], f"state {ply}"
        if action is None:
            break
        assert game.outcome(state) is None, f"state {ply}"
        state = game.play_text(state, ("abcdef" if state.to_move == 0 else "ABCDEF")[action])
    outcome = game.outcome(state)
    final = data["observations"]["110"].split("|")[1].split()
    assert outcome is not None and outcome.winner == 1 and data["returns"] == [-1.0, 1.0]
    assert list(game.sowing.final_scores(state.cells)) == [int(x) for x in final]


@pytest.mark.slow
def test_all_openspiel_games_move_by_move(game):
    for record in openspiel_games():
        replay(game, record)


# -- MancalaGames' games for the grand-slam variants ---------------------------------------------

#: tests/data/oware_grandslam<rule>_mancalagames.json.gz: 200 random games each, played by
#: StoneShark's MancalaGames (https://github.com/StoneShark/MancalaGames, commit 2b1c596,
#: GameProps/Oware.txt with its ``grandslam`` set to 0 = LEGAL or 1 = NOT_LEGAL, GPL-3), written
#: by tests/data/make_oware_mancalagames.py run as a separate process.  MancalaGames has no
#: repetition rule: a game Myriad ends by repetition is compared up to there.  (Its abapa,
#: NO_CAPT, refuses a feeding sowing that would be a grand slam, where OpenSpiel and Myriad
#: play it capturing nothing: OpenSpiel's games above are the abapa data.)
GRAND_SLAM_DATA = {"allowed": 0, "forbidden": 1}


def mancalagames_games(rule: str) -> list[list[dict]]:
    path = DATA.parent / f"oware_grandslam{GRAND_SLAM_DATA[rule]}_mancalagames.json.gz"
    if not path.exists():
        pytest.fail(f"{path} is missing: regenerate it with tests/data/make_oware_mancalagames.py")
    with gzip.open(path, "rt") as f:
        data = json.load(f)
    assert len(data["games"]) == 200
    return data["games"]


def replay_mancalagames(game, plies: list[dict]) -> str:
    """Legal moves, board and stores after every ply; the same end (the reason of ours)."""
    state = game.initial_state()
    order = game.houses[0] + game.houses[1]  # MancalaGames' holes 0..11
    for ply, step in enumerate(plies):
        where = f"ply {ply}"
        outcome = game.outcome(state)
        if outcome is not None:
            assert outcome.reason.startswith("position repeated"), where
            return outcome.reason
        mover = step["mover"]
        # MancalaGames' move index: the first player's hole i is house a+i; the second
        # player's index i is hole 11 - i, their house F-i
        letters = "abcdef" if mover == 0 else "FEDCBA"
        assert sorted(game.format_move(state, m) for m in game.legal_moves(state)) == \
            sorted(letters[i] for i in step["legal"]), where
        state = game.play_text(state, letters[step["move"]])
        cells = state.cells
        if step["end"] is not None:  # the board was swept into the stores
            totals = step["stores"]
            outcome = game.outcome(state)
            assert outcome is not None, where
            assert outcome.winner == (None if step["end"] == "TIE" else 0 if totals[0] > totals[1] else 1), where
            if not outcome.reason.startswith("captured"):
                assert list(game.sowing.final_scores(cells)) == totals, where
            return outcome.reason
        assert [cells[h] for h in order] == step["board"], where
        assert [cells[game.stores[0]], cells[game.stores[1]]] == step["stores"], where
    return "MancalaGames played on"


@pytest.mark.parametrize("rule", ["allowed", "forbidden"])
def test_mancalagames_grand_slam_games_move_by_move(rule):
    game = get_game("oware_grandslam") if rule == "allowed" else oware(grand_slam=rule)
    reasons = {replay_mancalagames(game, plies).split()[0] for plies in mancalagames_games(rule)[:30]}
    assert "captured" in reasons and "no" in reasons


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["allowed", "forbidden"])
def test_all_mancalagames_grand_slam_games_move_by_move(rule):
    game = get_game("oware_grandslam") if rule == "allowed" else oware(grand_slam=rule)
    for plies in mancalagames_games(rule):
        replay_mancalagames(game, plies)


# -- the rule book ---------------------------------------------------------------------------

def test_start(game):
    state = game.initial_state()
    assert game.format_position(state) == START
    assert [game.format_move(state, m) for m in game.legal_moves(state)] == list("abcdef")
    # every first move sows four seeds and captures nothing: 6 moves, then 6 replies each
    assert perft(game, state, 1) == 6 and perft(game, state, 2) == 36


def test_sowing_is_counter_clockwise(game):
    assert after(game, START, "f") == "4,4,4,4,4,0,0/5,5,5,5,4,4,0 n"
    # OpenSpiel's golden playthrough (integration_tests/playthroughs/oware.txt) opens C, f:
    # its state 2 reads "5 5 1 6 5 5 5 4 4 4 4 0"
    assert after(game, START, "c", "F") == "5,5,1,6,5,5,0/5,4,4,4,4,0,0 s"


def test_twelve_seeds_skip_the_emptied_house(game):
    # south a holds 12: b..f, A..F, then (a skipped) b: the 12th seed lands in b
    assert after(game, "12,0,0,0,0,0,0/3,3,3,3,3,3,18 s", "a") == "0,2,1,1,1,1,0/4,4,4,4,4,4,18 n"


def test_capture_of_twos_and_threes_backwards(game):
    # south f (3): A B C -> A2 B3 C2 (D holds 1): C, B and A are taken, 7 seeds
    assert after(game, "1,0,0,0,0,3,17/1,2,1,1,0,0,22 s", "f") == "1,0,0,0,0,0,24/0,0,0,1,0,0,22 n"
    # a house of 4 breaks the chain: C2 is taken, B4 stops it
    assert after(game, "1,0,0,0,0,3,17/1,3,1,1,0,0,21 s", "f") == "1,0,0,0,0,0,19/2,4,0,1,0,0,21 n"


def test_grand_slam_captures_nothing_in_abapa(game):
    position = "1,0,0,0,0,2,19/1,2,0,0,0,0,23 s"  # f: A2 B3 would take every north seed
    assert after(game, position, "f") == "1,0,0,0,0,0,19/2,3,0,0,0,0,23 n"
    allowed = get_game("oware_grandslam")
    assert after(allowed, position, "f") == "1,0,0,0,0,0,24/0,0,0,0,0,0,23 n"
    forbidden = oware(grand_slam="forbidden")
    state = forbidden.parse_position(position)
    assert [forbidden.format_move(state, m) for m in forbidden.legal_moves(state)] == ["a"]
    with pytest.raises(IllegalMoveError):
        forbidden.play_text(state, "f")


def test_a_player_must_feed_an_empty_opponent(game):
    state = game.parse_position("1,0,0,0,2,0,20/0,0,0,0,0,0,25 s")
    assert game.outcome(state) is not None  # 25 captured already ends it
    state = game.parse_position("1,0,0,0,2,0,22/0,0,0,0,0,0,23 s")
    assert [game.format_move(state, m) for m in game.legal_moves(state)] == ["e"]  # e reaches A


def test_no_way_to_feed_ends_the_game_and_the_mover_keeps_their_seeds(game):
    state = game.parse_position("1,1,0,0,0,0,22/0,0,0,0,0,0,24 s")
    assert game.legal_moves(state) == []
    outcome = game.outcome(state)
    assert outcome.winner is None and outcome.reason == "no legal move 24-24"
    state = game.parse_position("2,1,0,0,0,0,22/0,0,0,0,0,0,23 s")
    assert game.outcome(state).winner == 0


def test_more_than_half_wins_and_half_each_draws(game):
    assert game.outcome(game.parse_position("1,0,0,0,0,0,25/0,0,0,0,0,1,21 n")).winner == 0
    draw = game.outcome(game.parse_position("0,0,0,0,0,0,24/0,0,0,0,0,0,24 n"))
    assert draw.winner is None and draw.reason.startswith("captured")


def test_a_repeated_position_ends_the_game(game):
    # two lone seeds chase each other round the board without a capture: after 12 plies
    # the first position is back; each player then takes the seeds on their side.
    state = game.parse_position("1,0,0,0,0,0,23/1,0,0,0,0,0,23 s")
    seen = [state.key]
    while game.outcome(state) is None:
        state = game.play(state, game.legal_moves(state)[0])
        seen.append(state.key)
    assert seen[-1] in seen[:-1]
    outcome = game.outcome(state)
    assert outcome.reason.startswith("position repeated") and outcome.winner is None


# -- notation, positions, drawing ---------------------------------------------------------------

def test_move_notation_errors(game):
    state = game.initial_state()
    with pytest.raises(InvalidMoveError, match="not a house"):
        game.parse_move(state, "g")
    with pytest.raises(IllegalMoveError, match="legal moves: a, b"):
        game.parse_move(state, "A")  # north's house, south to move


@pytest.mark.parametrize(("text", "where"), [
    ("4,4,4,4,4,4,0/4,4,4,4,4,4,0", "two fields"),
    ("4,4,4,4,4,4,0/4,4,4,4,4,4,0 w", "side to move"),
    ("4,4,4,4,4,4,0 s", "two rows"),
    ("4,4,4,4,4,0/4,4,4,4,4,4,0 s", "south row"),
    ("4,4,4,4,4,4,0/4,4,4,x,4,4,0 s", "north house D"),
    ("4,4,4,4,4,4,1/4,4,4,4,4,4,0 s", "49 seeds"),
    ("4,4,4,4,4,X,0/4,4,4,4,4,4,0 s", "no claimed houses"),
])
def test_position_errors_name_the_field(game, text, where):
    with pytest.raises(PositionError, match=where):
        game.parse_position(text)


def test_position_round_trip_and_render(game):
    text = "0,2,1,1,1,1,0/4,4,4,4,4,4,18 n"
    assert game.format_position(game.parse_position(text)) == text
    drawing = game.render(game.parse_position(text))
    lines = drawing.splitlines()
    assert lines[0].split() == list("FEDCBA") and lines[1].split() == ["4"] * 6
    assert lines[2].split() == ["18", "0"] and lines[3].split() == "0 2 1 1 1 1".split()
    assert lines[-1] == "north to move"


def test_bad_declarations():
    with pytest.raises(GameDefinitionError, match="grand_slam"):
        oware(grand_slam="maybe")
    with pytest.raises(GameDefinitionError, match="pits"):
        oware(pits=0)
