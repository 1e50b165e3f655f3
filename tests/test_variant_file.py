"""Variant files: the Betza notation against hand-worked move sets, the rules it compiles to
(attacks agree with captures), inheritance, and broken files refused with file, line and field."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from myriad.core.errors import GameDefinitionError
from myriad.core.mechanics.betza import BetzaError, keeps_colour, parse_betza
from myriad.core.mechanics.movement import CAPTURE, MoveTables
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.topology import square_board
from myriad.games import REGISTERED, game_ids, get_game, register
from myriad.games.variant_file import SHIPPED, load_variants, shipped_declarations

# -- Betza, piece by piece, on an empty 9x9 board (the piece on e5 unless said) --------------


def targets(betza: str, at: str = "e5", friends: tuple[str, ...] = (), enemies: tuple[str, ...] = (),
            player: int = 0, ep: str | None = None, start: tuple[str, ...] = ()) -> set[str]:
    """Where a piece moving by ``betza`` goes: square names, captures written ``xd7``."""
    board = square_board(9, 9)
    board = board.with_zones(start=[start, start])
    pieces = PieceSet([PieceKind("x", "X"), PieceKind("o", "O")])
    tables = MoveTables(board, pieces, {"x": parse_betza(betza, initial_zone="start"), "o": ()})
    cells = [0] * board.size
    cells[board.pos(at)] = pieces.code("x", player)
    for names, owner in ((friends, player), (enemies, 1 - player)):
        for name in names:
            cells[board.pos(name)] = pieces.code("o", owner)
    moves = tables.pseudo_moves(cells, player, board.pos(ep) if ep else -1)
    return {("x" if m[0][0] == CAPTURE else "") + board.names[m[-1][2]] for m in moves}


def test_leaper_atoms() -> None:
    assert targets("W") == {"e6", "e4", "d5", "f5"}
    assert targets("F") == {"d6", "f6", "d4", "f4"}
    assert targets("D") == {"e7", "e3", "c5", "g5"}
    assert targets("N") == {"d7", "f7", "d3", "f3", "c6", "c4", "g6", "g4"}
    assert targets("A") == {"c7", "g7", "c3", "g3"}
    assert targets("H") == {"e8", "e2", "b5", "h5"}
    assert targets("C") == {"d8", "f8", "d2", "f2", "b6", "b4", "h6", "h4"}
    assert targets("Z") == {"c8", "g8", "c2", "g2", "b7", "b3", "h7", "h3"}
    assert targets("G") == {"b8", "h8", "b2", "h2"}
    assert targets("K") == targets("W") | targets("F")
    assert targets("N", at="a1") == {"b3", "c2"}  # the board's edge


def test_riders() -> None:
    assert targets("R", at="a1") == {f"a{r}" for r in range(2, 10)} | {f"{f}1" for f in "bcdefghi"}
    assert targets("B", at="a1") == {"b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9"}
    assert targets("Q") == targets("R") | targets("B")
    assert targets("WW") == targets("R") and targets("FF") == targets("B")
    assert targets("R2") == {"e6", "e7", "e4", "e3", "d5", "c5", "f5", "g5"}
    assert targets("NN", at="a1") == {"b3", "c5", "d7", "e9", "c2", "e3", "g4", "i5"}
    assert targets("N2", at="a1") == {"b3", "c5", "c2", "e3"}
    # blocked by the first piece; an enemy is taken, a friend stops the ray
    assert targets("R", at="a1", friends=("a3",), enemies=("c1",)) == {"a2", "b1", "xc1"}
    assert targets("NN", at="a1", enemies=("c5",)) == {"b3", "xc5", "c2", "e3", "g4", "i5"}


def test_direction_modifiers() -> None:
    assert targets("fW") == {"e6"} and targets("bW") == {"e4"}
    assert targets("lW") == {"d5"} and targets("rW") == {"f5"}
    assert targets("vW") == {"e6", "e4"} and targets("sW") == {"d5", "f5"}
    assert targets("fsW") == {"e6", "d5", "f5"}                    # xiangqi soldier over the river
    assert targets("fF") == {"d6", "f6"} and targets("bF") == {"d4", "f4"}
    assert targets("rF") == {"f6", "f4"} and targets("frF") == {"f6"}
    assert targets("fN") == {"d7", "f7"}                           # shogi knight
    assert targets("bN") == {"d3", "f3"}
    assert targets("sN") == {"c6", "c4", "g6", "g4"}
    assert targets("fsN") == {"c6", "g6"}
    assert targets("frN") == {"g6"} and targets("rfN") == {"f7"}
    assert targets("fhN") == {"d7", "f7", "c6", "g6"}
    assert targets("fR", at="e7") == {"e8", "e9"}
    assert targets("FfW") == {"d6", "f6", "d4", "f4", "e6"}        # makruk khon
    # forward is the player's: the second player's forward is down the board
    assert targets("fW", player=1) == {"e4"}
    assert targets("fN", player=1) == {"d3", "f3"}


def test_move_and_capture_modes() -> None:
    assert targets("mF", enemies=("d6",)) == {"f6", "d4", "f4"}
    assert targets("cF", enemies=("d6",)) == {"xd6"}
    assert targets("mWcF", enemies=("e6", "f6")) == {"e4", "d5", "f5", "xf6"}


def test_initial_double_step_and_en_passant() -> None:
    assert targets("fmWifmnD", at="e2", start=("e2",)) == {"e3", "e4"}
    assert targets("fmWifmnD", at="e3", start=("e2",)) == {"e4"}            # not from its start
    assert targets("fmWifmnD", at="e2", start=("e2",), enemies=("e3",)) == set()  # passes an empty square
    assert targets("fmWifmnD", at="e2", start=("e2",), enemies=("e4",)) == {"e3"}
    assert targets("fcF", at="e5", enemies=("d5",), ep="d6") == set()
    assert targets("fceF", at="e5", enemies=("d5",), ep="d6") == {"xd6"}
    assert targets("fceF", at="e5", enemies=("d5", "f6"), ep="d6") == {"xd6", "xf6"}


def test_lame_leapers() -> None:
    assert targets("nN") == targets("N")
    assert targets("nN", friends=("e6",)) == {"d3", "f3", "c6", "c4", "g6", "g4"}  # leg blocked
    assert targets("nN", enemies=("d5",)) == {"d7", "f7", "d3", "f3", "g6", "g4"}
    assert targets("nA", friends=("d6",)) == {"g7", "c3", "g3"}                  # eye blocked
    assert targets("nD", enemies=("e6",)) == {"e3", "c5", "g5"}
    assert targets("nZ", friends=("e6",)) == targets("Z") - {"g8", "c8"}         # e6, then f7 or d7
    assert targets("nZ", friends=("f7",)) == targets("Z") - {"g8"}


def test_hoppers() -> None:
    assert targets("pR", at="a1") == set()                                     # nothing to jump
    assert targets("pR", at="a1", friends=("a3",)) == {f"a{r}" for r in range(4, 10)}
    assert targets("pR", at="a1", friends=("a3",), enemies=("a6", "a8")) == {"a4", "a5", "xa6"}
    cannon = targets("mRcpR", at="a1", enemies=("a3", "a6", "c1"))
    assert cannon == {"a2", "xa6", "b1"}                                       # a3 screens a6, c1 has no screen
    assert targets("cpB", at="a1", friends=("c3",), enemies=("e5",)) == {"xe5"}


def test_attacks_agree_with_captures() -> None:
    """For every rule kind, a square is attacked exactly when a capture move goes there."""
    board = square_board(8, 8)
    rng = random.Random(7)
    for betza in ("K", "N", "NN", "R3", "nN", "nA", "nZ", "mRcpR", "pB", "fN", "fmWfcF", "C", "Z", "G", "BN"):
        pieces = PieceSet([PieceKind("x", "X"), PieceKind("o", "O")])
        tables = MoveTables(board, pieces, {"x": parse_betza(betza), "o": ()})
        for _ in range(40):
            cells = [0] * board.size
            for pos in rng.sample(range(board.size), 14):
                cells[pos] = rng.choice([pieces.code("x", 0), pieces.code("o", 0), pieces.code("o", 1)])
            taken = {m[0][1] for m in tables.pseudo_moves(cells, 0) if m[0][0] == CAPTURE}
            for pos in range(board.size):
                if cells[pos] and pieces.owner_of[cells[pos]] == 1:
                    assert tables.attacked(cells, pos, 0) == (pos in taken), (betza, pos, cells)
        assert tables.simple[0] == (betza not in ("NN", "nN", "nA", "nZ", "mRcpR", "pB"))


def test_colour_bound_pieces() -> None:
    assert keeps_colour(parse_betza("B")) and keeps_colour(parse_betza("A")) and keeps_colour(parse_betza("FA"))
    assert not keeps_colour(parse_betza("N")) and not keeps_colour(parse_betza("BW"))


@pytest.mark.parametrize("text,where", [
    ("X", "'X' at character 1 is not an atom"),
    ("fm", "have no atom after them"),
    ("jN", "not supported"),
    ("gR", "grasshoppers"),
    ("pN", "p (hopper)"),
    ("nW", "n (lame)"),
    ("iR", "ifmnD"),
    ("eN", "en passant"),
    ("hlN", "direction"),
    ("R0", "at least 1"),
])
def test_bad_betza_is_refused(text: str, where: str) -> None:
    with pytest.raises(BetzaError, match=re.escape(where)):
        parse_betza(text)


# -- files: inheritance and errors ---------------------------------------------------------------

SMALL = '''
[mini]
name = "Mini chess"
files = 5
ranks = 5
start = "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1"

[mini.zones]
promotion = ["*5"]

[mini.pieces.king]
letter = "K"
betza = "K"
royal = true
value = 0

[mini.pieces.queen]
letter = "Q"
betza = "Q"
value = 900

[mini.pieces.rook]
letter = "R"
betza = "R"
value = 500

[mini.pieces.bishop]
letter = "B"
betza = "B"
value = 330

[mini.pieces.knight]
letter = "N"
betza = "N"
value = 320

[mini.pieces.pawn]
letter = "P"
betza = "fmWfcF"
pawn = true

[[mini.promotions]]
piece = "pawn"
zone = "promotion"
to = ["queen", "knight"]

[mini.options]
stalemate = "loss"
move_rule = 25
'''


def test_a_small_variant_loads_and_plays() -> None:
    (game,) = load_variants(SMALL, name="mini.toml")
    assert game.id == "mini" and game.name == "Mini chess" and game.family == "chess"
    state = game.initial_state()
    assert {game.format_move(state, m) for m in game.legal_moves(state)} == {
        "a3", "b3", "c3", "d3", "e3", "Na3", "Nc3"}
    promo = game.parse_position("4k/P4/5/5/K4 w - - 0 1")
    assert {game.uci(promo, m) for m in game.legal_moves(promo)} >= {"a4a5q", "a4a5n"}
    assert game.piece_rules.stalemated == 0.0 and game.piece_rules.move_limit == 50


def test_inheritance_is_a_diff() -> None:
    text = SMALL + '''
[mini-camel]
inherits = "mini"
name = "Mini with a camel"
remove = ["bishop"]
start = "rnlqk/ppppp/5/PPPPP/RNLQK w - - 0 1"

[mini-camel.pieces.camel]
letter = "L"
betza = "C"
value = 250

[mini-camel.pieces.queen]
value = 950

[mini-camel.options]
stalemate = "draw"
'''
    mini, camel = load_variants(text, name="two.toml")
    assert [k.name for k in camel.pieces.kinds] == ["king", "queen", "rook", "knight", "pawn", "camel"]
    queen = camel.pieces.kinds[1]
    assert queen.value == 950 and queen.letter == "Q" and camel.tables.rays  # the rest inherited
    assert camel.piece_rules.stalemated == 0.5 and camel.piece_rules.move_limit == 50
    assert [k.name for k in mini.pieces.kinds][:4] == ["king", "queen", "rook", "bishop"]


def test_a_variant_may_inherit_from_a_shipped_one() -> None:
    (game,) = load_variants('[nocastle]\ninherits = "chess"\nname = "No castling"\ncastling = []\n'
                            'start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"\n')
    state = game.parse_position("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1")
    assert state.flags[0] == 0 and not any(len(m) == 2 and m[0][0] != CAPTURE for m in game.legal_moves(state))
    assert game.piece_rules.repetitions == 3  # chess's options, inherited


def test_every_chess_family_game_is_a_shipped_data_file() -> None:
    declared = {d.id for d in shipped_declarations()}
    chess_family = {g for g in game_ids() if get_game(g).family == "chess"}
    assert {"chess", "shatranj", "makruk"} <= chess_family <= declared | set(REGISTERED)
    folder = Path(__file__).resolve().parents[1] / "src" / "myriad" / "games" / "variants"
    assert sorted(p.name for p in folder.glob("*.toml")) == sorted(SHIPPED)


def broken(text: str, name: str = "bad.toml") -> str:
    with pytest.raises(GameDefinitionError) as err:
        load_variants(text, name=name)
    return str(err.value)


def line_of(text: str, needle: str) -> int:
    """The last line holding ``needle``."""
    return max(i for i, line in enumerate(text.splitlines(), start=1) if needle in line)


def test_a_syntax_error_names_file_and_line() -> None:
    text = SMALL.replace('value = 900', 'value = = 900')
    assert broken(text).startswith(f"bad.toml:{line_of(text, 'value = = 900')}: TOML syntax")


@pytest.mark.parametrize("old,new,needle,field,expected", [
    ('betza = "N"', 'betsa = "N"', "betsa", "mini.pieces.knight.betsa", "unknown key 'betsa'"),
    ('stalemate = "loss"', 'stalemates = "loss"', "stalemates", "mini.options.stalemates", "unknown key"),
    ('betza = "N"', 'betza = "Nx"', 'betza = "Nx"', "mini.pieces.knight.betza", "x at character 2"),
    ('betza = "N"', 'betza = "jN"', 'betza = "jN"', "mini.pieces.knight.betza", "not supported"),
    ('value = 900', 'value = "high"', 'value = "high"', "mini.pieces.queen.value", "expected an integer"),
    ('start = "rnbqk/', 'start = "rnbqx/', "start =", "mini.start", "unknown piece letter 'x'"),
    ('to = ["queen", "knight"]', 'to = ["queen", "amazon"]', "to = ", "mini.promotions[0].to[1]",
     "promotion to 'amazon', which is no piece kind"),
    ('promotion = ["*5"]', 'promotion = ["*6"]', "promotion = ", "mini.zones.promotion[0]", "off the board"),
    ('promotion = ["*5"]', 'promotion = ["f5"]', "promotion = ", "mini.zones.promotion[0]", "off the board"),
    ('zone = "promotion"', 'zone = "promo"', 'zone = "promo"', "mini.promotions[0].zone", "no zone 'promo'"),
    ('letter = "N"', 'letter = "Q"', 'letter = "Q"', "mini.pieces.knight.letter", "already the queen's"),
    ('move_rule = 25', 'move_rule = -1', "move_rule", "mini.options.move_rule", "expected 0 or more"),
    ('stalemate = "loss"', 'stalemate = "lose"', "stalemate", "mini.options.stalemate", "expected loss, draw or win"),
    ('betza = "N"', 'betza = "N"\nconfined = "palace"', "confined", "mini.pieces.knight.confined",
     "no zone 'palace'"),
    ('betza = "N"', 'betza = "N"\nzone_moves = { river = "sW" }', "zone_moves",
     "mini.pieces.knight.zone_moves.river", "no zone 'river'"),
    ('betza = "N"', 'betza = "N"\nzone_moves = { promotion = "N" }', "zone_moves",
     "mini.pieces.knight.zone_moves.promotion", "steps and slides only"),
    ('betza = "N"', 'betza = "N"\naliases = ["Q"]', "aliases", "mini.pieces.knight.aliases[0]", "already taken"),
    ('stalemate = "loss"', 'no_facing_kings = 1', "no_facing_kings", "mini.options.no_facing_kings",
     "expected true or false"),
])
def test_broken_files_name_file_line_and_field(old: str, new: str, needle: str, field: str, expected: str) -> None:
    assert old in SMALL
    text = SMALL.replace(old, new, 1)
    message = broken(text)
    line = line_of(text, needle)
    assert message.startswith(f"bad.toml:{line}: {field}: "), message
    assert expected in message, message


def test_inheritance_errors() -> None:
    assert "unknown parent variant 'nope'" in broken('[x]\ninherits = "nope"\n')
    assert "inheritance loops" in broken('[a]\ninherits = "b"\n[b]\ninherits = "a"\n')
    message = broken('[x]\ninherits = "chess"\nremove = ["amazon"]\n')
    assert message.startswith("bad.toml:3: x.remove[0]: the parent has no piece 'amazon'"), message
    assert "missing 'files'" in broken('[x]\nname = "X"\n')


def test_a_file_on_disk_is_named_in_errors(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(SMALL.replace('betza = "B"', 'betza = "B?"'), encoding="utf-8")
    with pytest.raises(GameDefinitionError, match=rf"^{path}:\d+: mini.pieces.bishop.betza: "):
        load_variants(path)
    with pytest.raises(GameDefinitionError, match="cannot read"):
        load_variants(tmp_path / "missing.toml")


def test_a_broken_file_registers_nothing() -> None:
    before = list(game_ids())
    text = SMALL + '[second]\ninherits = "mini"\nname = "Second"\nstart = "rnbqk/ppppp/5/PPPPP/RNBQX w - - 0 1"\n'
    with pytest.raises(GameDefinitionError, match="second.start"):
        register(*load_variants(text))
    assert game_ids() == before


def test_register_refuses_a_taken_id_and_registers_all_or_none() -> None:
    (game,) = load_variants(SMALL.replace("[mini", "[mini-registered"))
    (chess_again,) = load_variants('[chess]\ninherits = "makruk"\n')
    before = list(game_ids())
    with pytest.raises(GameDefinitionError, match="'chess' is already registered"):
        register(game, chess_again)
    assert game_ids() == before
    try:
        register(game)
        assert get_game("mini-registered") is game and "mini-registered" in game_ids()
        with pytest.raises(GameDefinitionError, match="already registered"):
            register(game)
    finally:
        REGISTERED.pop("mini-registered", None)


def test_the_readme_example_loads() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    example = readme.split("### Variants as data", 1)[1].split("```toml", 1)[1].split("```", 1)[0]
    mini, camel = load_variants(example, name="README.md")
    assert (mini.id, camel.id) == ("mini", "mini-camel")
    assert len(camel.legal_moves(camel.initial_state())) == 9  # five pawn steps, two knight and two camel leaps
