"""Jungle (Dou Shou Qi): the rank-capture and terrain mechanics, the rules, and the
comparison with an independent engine.

Independent data: ``tests/data/jungle_netcan_playouts.txt.gz``, 80 random games played by
the rules engine of https://github.com/netcan/AnimalChess (MIT, commit 3db39ce,
``core/src/board.rs``), built unchanged as a separate program
(``tests/data/jungle_playouts.rs``); at every ply its position, its legal moves and the
winner it reports must agree with ours under its options (``NETCAN``: a rat captures
across the bank except the elephant out of the water, the elephant never takes even a
trapped rat, a third occurrence of a position loses for the side to move, no move limit).
``tests/data/jungle_netcan_perft.txt``: its move counts from ten positions of those games
and eight written where its options differ from the default.
The default rules (the common modern ones, as Wikipedia gives them) are checked against a
second engine, jungle-chess (PyPI, MIT, by Sergei Kasaurov): ``tests/data/
jungle_kasaurov_moves.txt``, the legal moves of each piece in 400 positions of those games,
100 more with a rat in the water beside an enemy and 8 written where the options differ
(``tests/data/jungle_kasaurov_moves.py``; it leaves out the few lions and tigers whose leap
that engine cannot compute).
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from myriad.core.errors import GameDefinitionError, IllegalMoveError, InvalidMoveError, PositionError
from myriad.core.game import perft
from myriad.core.mechanics.rank_capture import RankCapture
from myriad.core.mechanics.terrain import TerrainMoves
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.topology import square_board
from myriad.games import get_game
from myriad.games.jungle import Jungle, JungleRules, jungle

DATA = Path(__file__).parent / "data"
NETCAN = JungleRules(across_bank=True, trapped_rat_safe=True, repetition="mover_loses", move_limit=None)


# -- the mechanics ---------------------------------------------------------------------------------

BANQI = PieceSet([PieceKind(n, n[0]) for n in
                  ("general", "advisor", "elephant", "chariot", "horse", "soldier")])
BANQI_RANKS = {"general": 7, "advisor": 6, "elephant": 5, "chariot": 4, "horse": 3, "soldier": 1}


def test_rank_capture_by_rank_with_exceptions_both_ways() -> None:
    rc = RankCapture(BANQI, BANQI_RANKS, allowed=[("soldier", "general")], forbidden=[("general", "soldier")])
    code = BANQI.code
    assert rc.may_take(code("general", 0), 0, code("advisor", 1), 1)
    assert rc.may_take(code("horse", 0), 0, code("horse", 1), 1)  # equal rank takes
    assert not rc.may_take(code("horse", 0), 0, code("chariot", 1), 1)
    assert rc.may_take(code("soldier", 0), 0, code("general", 1), 1)  # the exception allows
    assert not rc.may_take(code("general", 1), 0, code("soldier", 0), 1)  # the exception forbids
    strict = RankCapture(BANQI, BANQI_RANKS, equal_takes=False)
    assert not strict.may_take(code("horse", 0), 0, code("horse", 1), 1)


def test_rank_capture_weak_squares_and_a_surface() -> None:
    code = BANQI.code
    rc = RankCapture(BANQI, BANQI_RANKS, forbidden=[("general", "soldier")], weak=({5}, {9}),
                     surface={20, 21}, across=True, not_from_surface=[("soldier", "general")],
                     allowed=[("soldier", "general")])
    # second player's pieces are weak on 9: anything takes them there
    assert rc.may_take(code("soldier", 0), 8, code("general", 1), 9)
    assert rc.may_take(code("general", 0), 8, code("soldier", 1), 9)  # forbidden pair lifted on a weak square
    assert not rc.may_take(code("soldier", 0), 8, code("chariot", 1), 5)  # 5 is weak for player 0 only
    assert rc.may_take(code("soldier", 0), 20, code("soldier", 1), 3)  # across the surface, by rank
    assert not rc.may_take(code("soldier", 0), 20, code("general", 1), 3)  # not this pair out of it
    kept = RankCapture(BANQI, BANQI_RANKS, forbidden=[("general", "soldier")], weak=({5}, {9}),
                       forbidden_on_weak=True, surface={20, 21}, across=False)
    assert not kept.may_take(code("general", 0), 8, code("soldier", 1), 9)
    assert not kept.may_take(code("soldier", 0), 20, code("soldier", 1), 3)  # the surface is closed
    assert kept.may_take(code("chariot", 0), 20, code("soldier", 1), 21)


def test_rank_capture_refuses_a_bad_declaration() -> None:
    with pytest.raises(GameDefinitionError, match="no piece kind named 'king'"):
        RankCapture(BANQI, {"king": 1})
    with pytest.raises(GameDefinitionError, match="both allowed and forbidden"):
        RankCapture(BANQI, BANQI_RANKS, allowed=[("horse", "general")], forbidden=[("horse", "general")])
    with pytest.raises(GameDefinitionError, match="has no rank"):
        RankCapture(BANQI, {"horse": 1}, allowed=[("horse", "general")])


def test_terrain_steps_closed_squares_and_leaps_across_a_zone() -> None:
    topo = square_board(5, 3, diagonals=False)
    pieces = PieceSet([PieceKind("frog", "f"), PieceKind("deer", "d")], players=1)
    frog, deer = pieces.code("frog", 0), pieces.code("deer", 0)
    pond = {topo.pos("b2"), topo.pos("c2")}
    tm = TerrainMoves(topo, pieces.count, closed={deer: pond}, leapers={deer}, leap_zone=pond)
    names = topo.names
    cells = [0] * topo.size
    cells[topo.pos("a2")] = deer
    assert sorted(names[t] for t in tm.targets(cells, topo.pos("a2"))) == ["a1", "a3", "d2"]
    cells[topo.pos("c2")] = frog  # a swimmer in the way blocks the leap
    assert sorted(names[t] for t in tm.targets(cells, topo.pos("a2"))) == ["a1", "a3"]
    assert tm.leap_blocked(cells, topo.pos("a2"), topo.pos("d2"))
    assert sorted(names[t] for t in tm.targets(cells, topo.pos("c2"))) == ["b2", "c1", "c3", "d2"]


# -- the rules -------------------------------------------------------------------------------------

def after(game: Jungle, position: str, *moves: str):
    state = game.parse_position(position)
    for m in moves:
        state = game.play_text(state, m)
    return state


def targets(game: Jungle, position: str, square: str) -> list[str]:
    state = game.parse_position(position)
    names = game.topology.names
    return sorted(names[m[-1][2]] for m in game.legal_moves(state) if names[m[-1][1]] == square)


def test_start_position_and_perft_as_netcan_counts() -> None:
    game = get_game("jungle")
    start = game.initial_state()
    assert game.format_position(start) == "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w - - 0 1"
    counts = [perft(game, start, d) for d in (1, 2, 3)]
    assert counts == [24, 576, 12240]  # ./jungle_playouts perft 3 (netcan/AnimalChess)


def test_lion_leaps_the_river_unless_a_rat_swims_in_the_way() -> None:
    game = get_game("jungle")
    pos = "6t/7/7/7/7/7/L6/7/6T w"  # red lion a3: beside the river? no: a-file is land
    assert targets(game, pos, "a3") == ["a2", "a4", "b3"]
    pos = "6t/7/7/7/7/7/1L5/7/6T w"  # lion b3 leaps b4-b6 to b7
    assert targets(game, pos, "b3") == ["a3", "b2", "b7", "c3"]
    blocked = "6t/7/7/1r5/7/7/1L5/7/6T w"  # a black rat on b6 blocks
    assert targets(game, blocked, "b3") == ["a3", "b2", "c3"]
    sideways = "6t/7/7/7/L6/7/7/7/6T w"  # lion a5 leaps b5-c5 to d5
    assert targets(game, sideways, "a5") == ["a4", "a6", "d5"]
    mine = "6t/7/7/7/L1R4/7/7/7/6T w"  # its own rat on c5 blocks too
    assert "d5" not in targets(game, mine, "a5")
    over = "6t/7/7/7/3L3/7/7/7/6T w"  # from d5 both ways
    assert targets(game, over, "d5") == ["a5", "d4", "d6", "g5"]


def test_captures_by_rank_rat_and_elephant_traps_and_dens() -> None:
    game = get_game("jungle")
    # the rat takes the elephant; the elephant does not take the rat
    assert "b3" in targets(game, "6t/7/7/7/7/7/Re5/7/6T w", "a3")
    assert "a3" not in targets(game, "6t/7/7/7/7/7/rE5/7/6T w", "b3")
    # the cat does not take the dog, the dog takes the cat and the dog
    assert "b3" not in targets(game, "6t/7/7/7/7/7/Cd5/7/6T w", "a3")
    assert "b3" in targets(game, "6t/7/7/7/7/7/Dc5/7/6T w", "a3")
    # a black elephant on red's trap c1 is taken by the red cat
    assert "c1" in targets(game, "6t/7/7/7/7/7/7/7/1Ce3T w", "b1")
    # ... and by default the trapped rat by the elephant
    assert "c1" in targets(game, "6t/7/7/7/7/7/7/7/1Er3T w", "b1")
    assert "c1" not in targets(Jungle(NETCAN), "6t/7/7/7/7/7/7/7/1Er3T w", "b1")
    # never into one's own den; into the enemy's: a win
    assert "d1" not in targets(game, "6t/7/7/7/7/7/7/7/2T3L w", "c1")
    end = after(game, "4t2/2T4/7/7/7/7/7/7/6L w", "Tc8-c9")
    assert game.format_position(end) == "2T1t2/7/7/7/7/7/7/7/6L b - - 1 1"
    end = after(game, "4t2/7/2T4/7/7/7/7/7/6L w", "Tc7-c8", "Te9-f9", "Tc8-d8", "Tf9-g9", "Td8-d9")
    out = game.outcome(end)
    assert out.winner == 0 and out.reason == "red enters the den"
    assert game.legal_moves(end) == []


def test_rats_in_the_water_and_on_the_bank() -> None:
    game = get_game("jungle")
    # red rat in b4 water, black rat on land a4: no capture across the bank by default
    wet = "6t/7/7/7/7/rR5/7/7/6T w"
    assert "a4" not in targets(game, wet, "b4")
    assert "a4" in targets(Jungle(NETCAN), wet, "b4")
    # but never the elephant out of the water
    assert "a4" not in targets(Jungle(NETCAN), "6t/7/7/7/7/eR5/7/7/6T w", "b4")
    # rats meet in the water
    assert "c4" in targets(game, "6t/7/7/7/7/1Rr4/7/7/6T w", "b4")
    # the rat enters the water, nobody else
    assert "b4" in targets(game, "6t/7/7/7/7/7/1R5/7/6T w", "b3")
    assert "b4" not in targets(game, "6t/7/7/7/7/7/1C5/7/6T w", "b3")


def test_ends_no_pieces_no_moves_repetition_and_limit() -> None:
    game = get_game("jungle")
    out = game.outcome(after(game, "7/7/7/7/7/7/7/6t/6L w", "Lg1xg2"))
    assert out.winner == 0 and out.reason == "black has no piece left"
    assert game.outcome(game.parse_position("7/7/7/7/7/7/7/7/Rd5 w")) is None  # the rat steps to a2
    stuck = game.parse_position("7/7/7/7/7/7/7/c6/Rd5 w")  # the rat takes neither cat nor dog
    out = game.outcome(stuck)
    assert out.winner == 1 and out.reason == "no legal move"
    assert game.legal_moves(stuck) == []
    loop = ["Ta1-a2", "Tg9-g8", "Ta2-a1", "Tg8-g9"]
    state = after(game, "6t/7/7/7/7/7/7/7/T6 w", *loop, *loop)
    out = game.outcome(state)
    assert out.winner is None and out.reason == "threefold repetition"
    assert game.legal_moves(state) == []
    harsh = Jungle(NETCAN)
    out = harsh.outcome(after(harsh, "6t/7/7/7/7/7/7/7/T6 w", *loop, *loop))
    assert out.winner == 1
    limit = game.outcome(game.parse_position("6t/7/7/7/7/7/7/7/T6 w - - 200 120"))
    assert limit.reason == "200 plies without a capture"


def test_positions_round_trip_and_bad_input_is_refused() -> None:
    game = get_game("jungle")
    text = "ld4w/6t/5c1/L2p3/2r2R1/7/1P5/2C1WD1/T6 w - - 17 40"
    assert game.format_position(game.parse_position(text)) == text
    assert game.format_position(game.parse_position("ld4w/6t/5c1/L2p3/2r2R1/7/1P5/2C1WD1/T6 b")).endswith(" b - - 0 1")
    for bad, why in [("l5t/1d3c1 w", "rows"), ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L x", "side to move"),
                     ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L", "expected the board"),
                     ("6t/7/7/7/7/1L5/7/7/6T w", "in the water"), ("6t/7/7/7/7/7/7/7/3T3 w", "own den"),
                     ("6t/7/7/7/7/7/7/7/TT5 w", "2 red tigers"), ("3Tt2/7/7/7/7/7/7/7/6L w", "moved last"),
                     ("6t/7/7/7/7/7/7/7/6T w x y 0 1", "- -"), ("6t/7/7/7/7/7/7/7/6T w - - -1 1", "capture"),
                     ("6t/7/7/7/7/7/7/7/6Q w", "unknown piece")]:
        with pytest.raises(PositionError, match=why):
            game.parse_position(bad)
    start = game.initial_state()
    assert game.parse_move(start, "a3a4") == game.parse_move(start, "Ea3-a4") == game.parse_move(start, "a3-a4")
    with pytest.raises(IllegalMoveError):
        game.parse_move(start, "a3a5")
    with pytest.raises(InvalidMoveError):
        game.parse_move(start, "hello world")
    with pytest.raises(GameDefinitionError, match="repetition"):
        Jungle(JungleRules(repetition="sometimes"))
    with pytest.raises(GameDefinitionError, match="move limit"):
        Jungle(JungleRules(move_limit=0))
    with pytest.raises(GameDefinitionError, match="unexpected keyword"):
        jungle(rivers=3)


# -- the independent engine ------------------------------------------------------------------------

def netcan_games() -> list[list[tuple[str, str, list[str], str]]]:
    """Each game: per ply (netcan's FEN, its winner w/b/-, its legal moves, the move played)."""
    games, plies = [], []
    with gzip.open(DATA / "jungle_netcan_playouts.txt.gz", "rt") as f:
        pending = None
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("game"):
                plies = []
            elif line == "end":
                if pending:
                    plies.append((*pending, ""))
                games.append(plies)
                pending = None
            elif line.startswith("play "):
                plies.append((*pending, line[5:]))
                pending = None
            else:
                fen, winner, moves = line.split(" | ")
                pending = (fen, winner, moves.split())
    return games


def replay_netcan(plies: list[tuple[str, str, list[str], str]]) -> int:
    game = Jungle(NETCAN)
    names = game.topology.names
    state = game.initial_state()
    for ply, (fen, winner, moves, played) in enumerate(plies):
        assert game.format_position(state).split(" - ")[0] == fen, ply
        out = game.outcome(state)
        expected = {"w": 0, "b": 1, "-": None}[winner]
        if expected is None:
            assert out is None, (ply, out)
        else:
            assert out is not None and out.winner == expected, (ply, out)
        ours = sorted(names[m[-1][1]] + names[m[-1][2]] for m in game.legal_moves(state))
        assert ours == moves, f"ply {ply} of {fen}: ours {ours}, netcan {moves}"
        if played:
            state = game.play_text(state, played)
    return len(plies)


def test_random_games_agree_with_netcan_animalchess() -> None:
    games = netcan_games()
    assert len(games) == 80
    plies = sum(replay_netcan(g) for g in games[:12])
    assert plies > 2000


@pytest.mark.slow
def test_every_netcan_game_and_deeper_perft() -> None:
    games = netcan_games()
    ends = [g[-1][1] for g in games]
    assert ends.count("w") + ends.count("b") >= 20  # games decided within 300 plies
    assert sum(replay_netcan(g) for g in games) > 15000
    game = get_game("jungle")
    assert perft(game, game.initial_state(), 4) == 260099  # netcan: 260099
    for line in (DATA / "jungle_netcan_perft.txt").read_text().splitlines():
        if line.startswith("#"):
            continue
        fen, counts = line.split(" ; ")
        state = Jungle(NETCAN).parse_position(fen)
        assert [perft(Jungle(NETCAN), state, d) for d in (1, 2, 3)] == [int(c) for c in counts.split()], fen


def test_positions_of_netcan_games_count_as_netcan_counts() -> None:
    lines = [ln for ln in (DATA / "jungle_netcan_perft.txt").read_text().splitlines() if not ln.startswith("#")]
    assert len(lines) == 18
    game = Jungle(NETCAN)
    for line in lines:
        fen, counts = line.split(" ; ")
        state = game.parse_position(fen)
        assert [perft(game, state, d) for d in (1, 2)] == [int(c) for c in counts.split()[:2]], fen


def test_default_rules_agree_with_jungle_chess_kasaurov() -> None:
    game = get_game("jungle")
    names = game.topology.names
    lines = [ln for ln in (DATA / "jungle_kasaurov_moves.txt").read_text().splitlines() if not ln.startswith("#")]
    assert len(lines) == 508
    compared = differ = 0
    netcan = Jungle(NETCAN)
    for line in lines:
        fen, moves, skipped = line.split(" | ")
        theirs = {entry.split(":")[0]: sorted(t for t in entry.split(":")[1].split(",") if t)
                  for entry in moves.split()}
        ours: dict[str, list[str]] = {}
        state = game.parse_position(fen)
        differ += set(game.legal_moves(state)) != set(netcan.legal_moves(state))
        for m in game.legal_moves(state):
            ours.setdefault(names[m[-1][1]], []).append(names[m[-1][2]])
        skip = set(skipped.split()) - {"-"}
        for square, targets in theirs.items():
            assert sorted(ours.get(square, [])) == targets, f"{fen}: {square}"
            compared += 1
        assert set(ours) - set(theirs) <= skip, fen
    assert compared > 3000
    assert differ >= 10  # positions where the two engines' rules differ, each agreeing with its own


def test_the_web_draws_water_traps_and_dens_and_animals_on_discs() -> None:
    from myriad.web.layout import board_style, cells_json, layout_json

    game = get_game("jungle")
    layout = layout_json(game)
    assert board_style(game) == layout["style"] == "terrain"
    kinds = {p["name"]: p.get("terrain") for p in layout["positions"]}
    assert sorted(n for n, k in kinds.items() if k == "water") == sorted(
        f"{f}{r}" for f in "bcef" for r in (4, 5, 6))
    assert sorted(n for n, k in kinds.items() if k == "trap") == ["c1", "c9", "d2", "d8", "e1", "e9"]
    assert sorted(n for n, k in kinds.items() if k == "den") == ["d1", "d9"]
    cells = cells_json(game, game.initial_state())
    rat = cells[game.topology.pos("g3")]
    assert rat["shape"] == "round" and rat["text"] == "鼠" and rat["owner"] == 0
    assert "leap the river" in layout["rules"] or "leap a river" in layout["rules"]


def test_alphabeta_enters_the_den_and_takes_the_free_elephant() -> None:
    from myriad.ai import Limits, make_bot

    game = get_game("jungle")
    bot = make_bot("alphabeta:depth=3", game)
    state = game.parse_position("4t2/3L3/7/7/7/7/7/7/6T w")
    assert game.describe(state, bot.choose(state, Limits.of(None)).move) == "Ld8-d9"
    state = game.parse_position("6t/7/7/7/7/7/Re5/7/6T w")  # the rat takes the elephant
    assert game.describe(state, bot.choose(state, Limits.of(None)).move) == "Ra3xb3"
