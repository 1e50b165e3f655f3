"""Janggi as data (myriad/games/variants/janggi.toml): the generic mechanics it needs, each on
its own (moves kept within a zone, hops barred over and onto kinds, passing, kings that must
part, counting with komi), then perft against the oracle and the rules that make the game."""

from __future__ import annotations

import random

import pytest

from myriad import PositionError, get_game
from myriad.core.errors import GameDefinitionError, IllegalMoveError, InvalidMoveError
from myriad.core.game import perft
from myriad.core.mechanics.betza import parse_betza
from myriad.core.mechanics.movement import CAPTURE, Hop, MoveTables, Rule
from myriad.core.move import PASS
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.piece_game import PieceGame
from myriad.core.state import State
from myriad.core.topology import square_board
from myriad.games.variant_file import load_variants

from oracles import load_oracle, require

FAST_NODES = 1_100_000    # default suite: every depth whose count is below this (depth 4, ~10 s)
SLOW_NODES = 40_000_000   # -m slow: deeper (depth 5, minutes in pure Python)

START = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"

# -- the mechanics on a bare 9x10 board ------------------------------------------------------------

PALACE = ["d1", "e1", "f1", "d2", "e2", "f2", "d3", "e3", "f3"]
LINES = ["d1", "f1", "e2", "d3", "f3", "d8", "f8", "e9", "d10", "f10"]


def bare(rules: dict[str, tuple[Rule, ...]], confined: dict[str, str] | None = None) -> MoveTables:
    board = square_board(9, 10)
    mirror = {p: board.pos(board.names[p][0] + str(11 - int(board.names[p][1:]))) for p in range(board.size)}
    palace = frozenset(board.pos(s) for s in PALACE)
    lines = frozenset(board.pos(s) for s in LINES)
    board = board.with_zones(palace=[palace, frozenset(mirror[p] for p in palace)], lines=[lines, lines])
    kinds = [PieceKind(name, name[0].upper()) for name in rules]
    return MoveTables(board, PieceSet(kinds), rules, confined=confined)


def within(betza: str, zone: str = "lines", **barred: tuple[str, ...]) -> tuple[Rule, ...]:
    from dataclasses import replace
    return tuple(replace(r, within=zone, **(barred if isinstance(r, Hop) else {})) for r in parse_betza(betza))


def barred_hops(betza: str) -> tuple[Rule, ...]:
    from dataclasses import replace
    return tuple(replace(r, not_over=("cannon",), not_taking=("cannon",)) if isinstance(r, Hop) else r
                 for r in parse_betza(betza))


CANNON = barred_hops("pR") + within("pB", not_over=("cannon",), not_taking=("cannon",))
KINDS = {"xpiece": parse_betza("R") + within("B"), "cannon": CANNON, "ordinary": (),
         "general": parse_betza("W") + within("F"), "soldier": parse_betza("fsW") + within("fF")}


def moves_of(tables: MoveTables, at: str, kind: str, others: dict[str, tuple[str, int]] | None = None,
             player: int = 0) -> set[str]:
    board = tables.topology
    cells = [0] * board.size
    cells[board.pos(at)] = tables.pieces.code(kind, player)
    for square, (other, owner) in (others or {}).items():
        cells[board.pos(square)] = tables.pieces.code(other, owner)
    return {("x" if m[0][0] == CAPTURE else "") + board.names[m[-1][2]] for m in tables.pseudo_moves(cells, player)
            if board.names[m[-1][1]] == at}


def test_moves_within_a_zone_start_and_end_there() -> None:
    t = bare(KINDS)
    rook = {f"d{r}" for r in range(2, 11)} | {f"{f}1" for f in "abcefghi"}
    assert moves_of(t, "d1", "xpiece") == rook | {"e2", "f3"}          # the diagonal stops at the edge
    assert moves_of(t, "d2", "xpiece") == {f"d{r}" for r in (1, *range(3, 11))} | {f"{f}2" for f in "abcefghi"}
    assert moves_of(t, "d1", "xpiece", {"e2": ("ordinary", 1)}) >= {"xe2"}
    assert "f3" not in moves_of(t, "d1", "xpiece", {"e2": ("ordinary", 1)})
    assert moves_of(t, "e2", "general") == {"e1", "e3", "d2", "f2", "d1", "f1", "d3", "f3"}
    assert moves_of(t, "d2", "general") == {"d1", "d3", "c2", "e2"}     # no diagonal off the lines
    assert moves_of(t, "d8", "soldier") == {"d9", "c8", "e8", "e9"}     # forward along the diagonal
    assert moves_of(t, "e9", "soldier") == {"e10", "d9", "f9", "d10", "f10"}
    assert moves_of(t, "f3", "soldier", player=1) == {"f2", "e3", "g3", "e2"}  # Black's forward is down


def test_a_hop_may_be_barred_over_and_onto_kinds() -> None:
    t = bare(KINDS)
    assert moves_of(t, "e1", "cannon") == set()                          # no screen, no move
    over_piece = moves_of(t, "e1", "cannon", {"e3": ("ordinary", 0), "e7": ("ordinary", 1)})
    assert over_piece == {"e4", "e5", "e6", "xe7"}
    assert moves_of(t, "e1", "cannon", {"e3": ("cannon", 1), "e7": ("ordinary", 1)}) == set()  # never over one
    assert moves_of(t, "e1", "cannon", {"e3": ("ordinary", 0), "e7": ("cannon", 1)}) == {"e4", "e5", "e6"}
    assert moves_of(t, "d1", "cannon", {"e2": ("ordinary", 0), "f3": ("ordinary", 1)}) >= {"xf3"}  # a palace line
    assert moves_of(t, "d1", "cannon", {"e2": ("cannon", 0), "f3": ("ordinary", 1)}) == set()


@pytest.mark.parametrize("kind", ["xpiece", "cannon", "general", "soldier"])
def test_attacks_agree_with_captures(kind: str) -> None:
    """A square is attacked exactly when a capture goes there, for moves within a zone and
    hops barred over and onto cannons (either side's), on random boards."""
    t = bare(KINDS, confined={"general": "palace"})
    pieces, board = t.pieces, t.topology
    rng = random.Random(5)
    placed = [pieces.code(kind, 0), pieces.code("cannon", 0), pieces.code("cannon", 1),
              pieces.code("ordinary", 0), pieces.code("ordinary", 1)]
    for _ in range(300):
        cells = [0] * board.size
        for pos in rng.sample(range(board.size), rng.randint(4, 24)):
            cells[pos] = rng.choice(placed)
        for pos in rng.sample(range(board.size), 3):  # more attackers on palace points
            cells[pos] = pieces.code(kind, 0)
        for pos in rng.sample(sorted(board.zone("lines", 0)), 4):
            cells[pos] = rng.choice(placed)
        taken = {m[0][1] for m in t.pseudo_moves(cells, 0) if m[0][0] == CAPTURE}
        for pos in range(board.size):
            if cells[pos] and pieces.owner_of[cells[pos]] == 1:
                assert t.attacked(cells, pos, 0) == (pos in taken), (kind, board.names[pos], cells)


# -- perft -----------------------------------------------------------------------------------------


def perft_cases(limit: int, floor: int = 0) -> list[object]:
    data = load_oracle("janggi_perft.json")
    return require([pytest.param(p["fen"], int(d), n, id=f"d{d}")
                    for p in data["positions"] for d, n in p["perft"].items() if floor < n <= limit],
                   f"janggi perft counts from {floor + 1} to {limit} nodes")


@pytest.mark.parametrize("fen,depth,expected", perft_cases(FAST_NODES))
def test_perft(fen: str, depth: int, expected: int) -> None:
    game = get_game("janggi")
    assert perft(game, game.parse_position(fen), depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize("fen,depth,expected", perft_cases(SLOW_NODES, FAST_NODES))
def test_perft_deep(fen: str, depth: int, expected: int) -> None:
    game = get_game("janggi")
    assert perft(game, game.parse_position(fen), depth) == expected


# -- the game --------------------------------------------------------------------------------------


def janggi() -> PieceGame:
    game = get_game("janggi")
    assert isinstance(game, PieceGame)
    return game


def ucis(game: PieceGame, state: State) -> set[str]:
    return {game.uci(state, m) for m in game.legal_moves(state)}


def test_the_start_position_and_the_pass() -> None:
    game = janggi()
    state = game.initial_state()
    assert game.format_position(state) == START
    moves = game.legal_moves(state)
    assert len(moves) == 32 and PASS in moves
    assert game.format_move(state, PASS) == "pass" and game.uci(state, PASS) == "e2e2"
    for text in ("pass", "0000", "e2e2"):
        assert game.parse_move(state, text) == PASS
    after = game.play(state, PASS)
    assert game.format_position(after) == START.replace(" w - - 0 1", " b - - 1 1 1")  # a pass in a row
    assert game.parse_position(game.format_position(after)) == after
    assert game.uci(after, PASS) == "e9e9" and game.outcome(after) is None


def test_no_pass_in_check() -> None:
    game = janggi()
    state = game.parse_position("4k4/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1")  # the chariot on e2 checks along the diagonal
    assert game.in_check(state)
    assert PASS not in game.legal_moves(state)
    with pytest.raises(IllegalMoveError, match="not legal"):
        game.parse_move(state, "pass")
    assert ucis(game, state) == {"d1e2"}   # d2 and e1 are the chariot's too


def test_two_passes_end_the_game_by_counting_with_komi() -> None:
    game = janggi()
    state = game.play(game.play(game.initial_state(), PASS), PASS)
    assert game.legal_moves(state) == []
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == 1           # 72 to 72 + 1.5: Han wins
    assert outcome.reason == "two passes in a row; counted 72 to 73.5 (komi 1.5)"
    assert game.format_position(state).endswith(" 2 2 2")
    assert game.parse_position(game.format_position(state)) == state
    assert game.legal_moves(game.parse_position(game.format_position(state))) == []


@pytest.mark.parametrize("changes,winner,count", [
    ((), 1, "72 to 73.5"),                                           # equal material: komi decides for Han
    ((("p1p1p1p1p", "p1p1p3p"),), 0, "72 to 71.5"),                  # Han a soldier down: Cho by half a point
    ((("rnba1abnr", "rn1a1abnr"), ("P1P1P1P1P", "P1P1P1P2")), 1, "70 to 70.5"),  # Cho a point up, Han by komi
])
def test_counting_points(changes: tuple[tuple[str, str], ...], winner: int, count: str) -> None:
    game = janggi()
    fen = START
    for old, new in changes:
        fen = fen.replace(old, new)
    state = game.parse_position(fen)
    first, second = (float(x) for x in count.split(" to "))
    assert game.count_points(state.cells) == (first, second)
    ended = game.play(game.play(state, PASS), PASS)
    outcome = game.outcome(ended)
    assert outcome is not None and outcome.winner == winner and count in outcome.reason


def test_bikjang_the_facing_generals_must_part() -> None:
    game = janggi()
    facing = game.parse_position("4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1")  # e2 faces e10
    moves = ucis(game, facing)
    assert moves == {"e2d2", "e2f2", "e2d1", "e2f1", "e2d3", "e2f3", "e2e2"}  # off the file, or pass
    passed = game.play(facing, PASS)
    assert game.legal_moves(passed) == []                               # a pass ends the game
    outcome = game.outcome(passed)
    assert outcome is not None and outcome.reason.startswith("bikjang") and outcome.winner == 1
    # moving onto the file is legal: the facing is a position of the game
    state = game.parse_position("4k4/9/9/9/9/9/9/9/3K5/9 w - - 0 1")
    after = game.play_text(state, "d2e2")
    assert game.outcome(after) is None and PASS in game.legal_moves(after)


def test_bikjang_allows_a_pass_in_check() -> None:
    game = janggi()
    state = game.parse_position("4k4/9/9/9/9/9/9/5n3/9/4K4 w - - 0 1")  # the horse checks e1, the generals face
    assert game.in_check(state)
    assert PASS in game.legal_moves(state)
    assert all(m == PASS or game.play(state, m).cells[game.topology.pos("e1")] == 0 for m in game.legal_moves(state))
    passed = game.play(state, PASS)          # the game ends with Cho's general in check
    text = game.format_position(passed)
    assert text == "4k4/9/9/9/9/9/9/5n3/9/4K4 b - - 1 1 1"
    assert game.parse_position(text) == passed and game.legal_moves(passed) == []
    with pytest.raises(PositionError, match="side not to move is in check"):
        game.parse_position("4k4/9/9/9/9/9/9/5n3/9/4K4 b - - 1 1")   # without the pass it cannot be


def test_cannons_never_jump_or_take_a_cannon() -> None:
    game = janggi()
    state = game.parse_position("4k4/9/9/4c4/9/4p4/9/4C4/9/3K5 w - - 0 1")
    cannon = {u for u in ucis(game, state) if u.startswith("e3")}
    assert cannon == {"e3e6"}                  # over the soldier, not onto the cannon
    over = game.parse_position("4k4/9/9/9/4c4/9/9/4C4/9/3K5 w - - 0 1")
    assert not {u for u in ucis(game, over) if u.startswith("e3")}   # no screen but a cannon
    with pytest.raises(IllegalMoveError):
        game.parse_move(over, "e3e6")


def test_the_elephant_is_blocked_on_its_way() -> None:
    game = janggi()
    free = game.parse_position("3k5/9/9/9/9/9/9/9/9/2B1K4 w - - 0 1")
    assert {u for u in ucis(game, free) if u.startswith("c1")} == {"c1a4", "c1e4", "c1f3"}
    first = game.parse_position("3k5/9/9/9/9/9/9/9/2p6/2B1K4 w - - 0 1")   # c2: the first step
    assert {u for u in ucis(game, first) if u.startswith("c1")} == {"c1f3"}
    second = game.parse_position("3k5/9/9/9/9/9/9/3p5/9/2B1K4 w - - 0 1")  # d3: the first diagonal step
    assert {u for u in ucis(game, second) if u.startswith("c1")} == {"c1a4", "c1f3"}


def test_palace_lines_for_each_piece() -> None:
    game = janggi()
    state = game.parse_position("4k4/9/5R3/9/9/9/9/9/9/3K5 w - - 0 1")
    assert {"f8e9", "f8d10"} <= ucis(game, state)                       # a chariot along the enemy's
    soldier = game.parse_position("5k3/9/3P5/9/9/9/9/9/9/4K4 w - - 0 1")
    assert {u for u in ucis(game, soldier) if u.startswith("d8")} == {"d8d9", "d8c8", "d8e8", "d8e9"}
    advisor = game.parse_position("4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1")
    assert {u for u in ucis(game, advisor) if u.startswith("e2")} == {"e2e1", "e2e3", "e2d2", "e2f2", "e2f1",
                                                                        "e2d3", "e2f3"}
    cannon = game.parse_position("4k4/9/9/9/9/9/9/5p3/4A4/3C1K3 w - - 0 1")
    assert "d1f3" in ucis(game, cannon)


def test_setups_are_the_four_arrangements_of_each_side() -> None:
    game = janggi()
    names = {f"{a}-{b}" for a in ("inner", "outer", "left", "right") for b in ("inner", "outer", "left", "right")}
    assert set(game.setups) == names | {"start"}
    assert game.setups["start"] == game.setups["inner-inner"]
    rows = {name: (fen.split("/")[0], fen.split("/")[9].split()[0]) for name, fen in game.setups.items()}
    assert rows["outer-left"] == ("rnba1anbr", "RBNA1ANBR")             # Han's left is file i
    assert rows["right-inner"] == ("rnba1abnr", "RNBA1ANBR")
    for name in names:
        state = game.initial_state(name)
        assert game.count_points(state.cells) == (72, 73.5)
        assert len(game.legal_moves(state)) >= 30


def test_positions_after_passes_are_checked() -> None:
    game = janggi()
    with pytest.raises(PositionError, match="passes in a row"):
        game.parse_position(START + " 3")
    with pytest.raises(PositionError, match="in check after a pass"):
        game.parse_position("4k4/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1 1")
    with pytest.raises(PositionError, match="expected 6 fields"):
        get_game("chess").parse_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1")
    with pytest.raises(InvalidMoveError):
        get_game("chess").parse_move(get_game("chess").initial_state(), "pass")


def test_repetition_and_the_move_rule_are_decided_by_counting() -> None:
    game = janggi()
    state = game.initial_state()
    for _ in range(2):
        for text in ("a1a2", "a10a9", "a2a1", "a9a10"):
            state = game.play_text(state, text)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.reason.startswith("repetition; counted") and outcome.winner == 1
    ruled = game.parse_position(START.replace(" 0 1", " 100 60"))
    outcome = game.outcome(ruled)
    assert outcome is not None and outcome.reason.startswith("50-move rule; counted")


LIMITED = '''
[short]
inherits = "janggi"
name = "Short janggi"

[short.options]
max_moves = 2
counting = false
'''


def test_max_moves_and_a_draw_without_counting() -> None:
    game = load_variants(LIMITED, name="short.toml")[0]
    state = game.initial_state()
    for text in ("b1c3", "b10c8", "c3b1"):
        state = game.play_text(state, text)
        assert game.outcome(state) is None
    state = game.play_text(state, "c8b10")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.scores == (0.5, 0.5) and outcome.reason == "2 moves played"


@pytest.mark.parametrize("piece,extra,expected", [
    ("horse", 'hop_not_over = ["cannon"]', "has no hop"),
    ("cannon", 'hop_not_taking = ["dragon"]', "no piece kind 'dragon'"),
    ("horse", 'inside_moves = { river = "F" }', "no zone 'river'"),
    ("horse", 'inside_moves = { palace = "N" }', "steps, slides and hops only"),
    ("horse", 'points = "five"', "expected a number"),
])
def test_broken_piece_fields(piece: str, extra: str, expected: str) -> None:
    text = f'[bad]\ninherits = "janggi"\nname = "Bad"\n\n[bad.pieces.{piece}]\n{extra}\n'
    with pytest.raises(GameDefinitionError) as err:
        load_variants(text, name="bad.toml")
    assert str(err.value).startswith(f"bad.toml:6: bad.pieces.{piece}.") and expected in str(err.value)


@pytest.mark.parametrize("options,field,expected", [
    ("pass = false", "facing_kings_end", "needs pass"),
    ("no_facing_kings = true", "facing_kings_end", "contradicts no_facing_kings"),
    ("counting = false\nkomi = 2", "komi", "only under counting"),
    ("komi = true", "komi", "expected a number"),
    ("max_moves = -1", "max_moves", "expected 0 or more"),
])
def test_broken_options(options: str, field: str, expected: str) -> None:
    text = f'[bad]\ninherits = "janggi"\nname = "Bad"\n\n[bad.options]\n{options}\n'
    with pytest.raises(GameDefinitionError) as err:
        load_variants(text, name="bad.toml")
    assert f"bad.options.{field}: " in str(err.value) and expected in str(err.value), str(err.value)


def test_counting_needs_points() -> None:
    text = '[bad]\ninherits = "xiangqi"\nname = "Bad"\n\n[bad.options]\ncounting = true\n'
    with pytest.raises(GameDefinitionError, match="counting needs points"):
        load_variants(text, name="bad.toml")


def test_a_bot_passes_to_win_on_points() -> None:
    """After Han's pass, Cho, a chariot up, wins at once by passing too (the count)."""
    from myriad.ai import make_bot
    game = janggi()
    state = game.play(game.parse_position(START.replace("rnba1abnr", "rnba1abn1").replace(" w ", " b ")), PASS)
    decision = make_bot("alphabeta:depth=2", game).choose(state)
    assert decision.move == PASS
    outcome = game.outcome(game.play(state, PASS))
    assert outcome is not None and outcome.winner == 0


def test_the_web_page_gets_the_pass_as_a_button() -> None:
    """The page makes moves with no squares to click with a button: the pass has no path."""
    from myriad.web.moves import last_move_json, moves_json
    game = janggi()
    state = game.initial_state()
    entries = moves_json(game, state, game.legal_moves(state))
    assert {"notation": "pass", "path": [], "captures": []} in entries
    assert sum(1 for e in entries if not e["path"]) == 1
    assert last_move_json(game, state, PASS) == {"notation": "pass", "path": [], "captures": []}


def test_the_players_are_blue_and_red() -> None:
    game = janggi()
    assert game.player_names == ("blue", "red") and game.side_letters == ("w", "b")
    assert get_game("chess").player_names == ("white", "black")            # the default
    for bad in ('["blue"]', '["red", "red"]', '["Blue", "red"]'):
        with pytest.raises(GameDefinitionError, match="bad.toml:4: bad.players: expected two different names"):
            load_variants(f'[bad]\ninherits = "janggi"\nname = "Bad"\nplayers = {bad}\n', name="bad.toml")
