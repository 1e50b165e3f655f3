"""Hex: the rules, the swap, notation, and the proofs that a full board always has
exactly one winner, the one a flood fill written here finds, and that games never draw."""

from __future__ import annotations

import random

import pytest

from myriad import get_game
from myriad.core.errors import IllegalMoveError, InvalidMoveError, PositionError
from myriad.core.state import State
from myriad.games.hex import Hex


def row(size: int, stones: dict[int, str]) -> str:
    """One row of a position: ``stones`` by column, digits for the empty runs."""
    text, empty = "", 0
    for c in range(size):
        if c in stones:
            text += (str(empty) if empty else "") + stones[c]
            empty = 0
        else:
            empty += 1
    return text + (str(empty) if empty else "")


def flood_winner(size: int, colour: dict[tuple[int, int], int]) -> list[int]:
    """The players (0 Black: rows 1 to ``size``, 1 White: columns a to the last) whose
    stones join their two sides, by a breadth-first flood over (column, row) cells with
    the six neighbours of the Hex rhombus written out here (independent of the engine)."""
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
    winners = []
    for player in (0, 1):
        start = [(c, 0) for c in range(size)] if player == 0 else [(0, r) for r in range(size)]
        frontier = [cell for cell in start if colour.get(cell) == player]
        seen = set(frontier)
        while frontier:
            c, r = frontier.pop()
            for dc, dr in steps:
                nxt = (c + dc, r + dr)
                if nxt not in seen and colour.get(nxt) == player:
                    seen.add(nxt)
                    frontier.append(nxt)
        far = (lambda cell: cell[1] == size - 1) if player == 0 else (lambda cell: cell[0] == size - 1)
        if any(far(cell) for cell in seen):
            winners.append(player)
    return winners


def random_full_boards(count: int, seed: int) -> list[tuple[int, dict[tuple[int, int], int]]]:
    """``count`` boards of sizes 1 to 13 (11 for half of them), each cell black or white at
    random (stone counts as random as the colours: the no-draw theorem needs no game)."""
    rng = random.Random(seed)
    boards = []
    for i in range(count):
        size = 11 if i % 2 == 0 else rng.randint(2, 13)
        fill = rng.random() * 0.6 + 0.2  # how black the board is: 20% to 80%
        boards.append((size, {(c, r): int(rng.random() >= fill) for c in range(size) for r in range(size)}))
    return boards


def check_full_boards(count: int, seed: int) -> None:
    games: dict[int, Hex] = {}
    wins = [0, 0]
    for size, colour in random_full_boards(count, seed):
        game = games.setdefault(size, Hex(size))
        cells = [0] * (size * size)
        for (c, r), player in colour.items():
            cells[r * size + c] = game.stones[player]
        expected = flood_winner(size, colour)
        assert len(expected) == 1, f"the flood fill finds {expected} winners"  # no draw, no two winners
        winner = expected[0]
        after_winner = game.make_state(cells, 1 - winner)   # the winner has just moved
        after_loser = game.make_state(cells, winner)
        outcome = game.outcome(after_winner)
        assert outcome is not None and outcome.winner == winner, (size, game.format_position(after_winner))
        assert game.outcome(after_loser) is None  # the loser has no chain either
        assert game.legal_moves(after_winner) == []
        black, white = game.own_stones(after_winner)
        assert game.goal.winner((black, white)) == winner
        wins[winner] += 1
    assert min(wins) > count // 10  # both colours win often: the boards test both goals


def test_every_full_board_has_one_winner_the_flood_fill_one() -> None:
    check_full_boards(1000, seed=11)


@pytest.mark.slow
def test_every_full_board_has_one_winner_the_flood_fill_one_deep() -> None:
    check_full_boards(30_000, seed=1948)


def play_random_games(game: Hex, count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    winners = []
    for _ in range(count):
        state = game.initial_state()
        plies = 0
        while (outcome := game.outcome(state)) is None:
            moves = game.legal_moves(state)
            assert moves, game.format_position(state)  # a board with no winner is never full
            state = game.play(state, rng.choice(moves))
            plies += 1
        assert outcome.winner is not None and outcome.scores in ((1.0, 0.0), (0.0, 1.0))
        assert plies <= game.size * game.size + 1  # one ply more than cells only after a swap
        # the chain is there: the flood fill agrees with the engine
        colour = {(p % game.size, p // game.size): game.pieces.owner_of[v] for p, v in enumerate(state.cells) if v}
        assert flood_winner(game.size, colour) == [outcome.winner]
        winners.append(outcome.winner)
    return winners


@pytest.mark.parametrize("game_id", ["hex", "hex7", "hex_noswap"])
def test_random_games_end_with_a_winner(game_id: str) -> None:
    winners = play_random_games(get_game(game_id), 60, seed=7)
    assert set(winners) == {0, 1}


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["hex", "hex7", "hex9", "hex13", "hex_noswap"])
def test_random_games_end_with_a_winner_deep(game_id: str) -> None:
    play_random_games(get_game(game_id), 1000, seed=19)


def test_a_chain_wins_and_a_broken_one_does_not() -> None:
    game = get_game("hex7")
    # Black down column d (d1..d7), White scattered: Black joins top and bottom
    rows = ["3B3", "3B3", "W2B3", "1W1B3", "2WB3", "3B1W1", "3BWW1"]
    state = game.parse_position(f"{'/'.join(rows)} w")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == 0 and "black" in outcome.reason
    assert game.legal_moves(state) == []
    broken = ["3B3", "3B3", "W2B3", "1W1W3", "2WB3", "3B1W1", "3BW2"]  # d4 is White's
    state = game.parse_position(f"{'/'.join(broken)} b")
    assert game.outcome(state) is None
    # White along row 4, a4 to g4, wins left to right; the rows shift, the cells touch
    state = game.parse_position("B6/1B5/2B4/WWWWWWW/B6/1B5/B1B4 b")
    assert game.outcome(state).winner == 1  # type: ignore[union-attr]


def test_hex_neighbours_are_not_square_ones() -> None:
    """a1 and b2 are not neighbours (on the rhombus a1 touches b1 and a2 only); b1 and
    a2 are."""
    game = get_game("hex")
    def board(cells: list[int]) -> State:  # Black's stones on ``cells``, White to move
        return game.make_state([game.stones[0] if p in cells else 0 for p in range(121)], 1)

    assert game.outcome(board([12 * k for k in range(11)])) is None  # the long diagonal a1..k11
    state = board([10 * k + 10 for k in range(11)])  # k1, j2, ..., a11: the short diagonal
    assert game.outcome(state) is not None and game.outcome(state).winner == 0  # type: ignore[union-attr]


def test_the_swap_mirrors_blacks_stone_into_white() -> None:
    game = get_game("hex")
    state = game.play_text(game.initial_state(), "e2")
    assert "swap" in [game.format_move(state, m) for m in game.legal_moves(state)]
    swapped = game.play_text(state, "swap")
    assert game.format_position(swapped) == "11/11/11/11/1W9/11/11/11/11/11/11 b"
    assert swapped.cells[4 * 11 + 1] == game.stones[1]  # White's b5
    assert swapped.to_move == 0 and game.outcome(swapped) is None
    # no second swap, and none once Black's second stone is down or in the no-swap game
    assert "swap" not in [game.format_move(swapped, m) for m in game.legal_moves(swapped)]
    after = game.play_text(game.play_text(state, "f6"), "c3")
    assert all(len(m) == 1 for m in game.legal_moves(after))
    noswap = get_game("hex_noswap")
    first = noswap.play_text(noswap.initial_state(), "e2")
    with pytest.raises(IllegalMoveError):
        noswap.parse_move(first, "swap")
    # a stone on the diagonal from a1 stays where it is, White's now
    on_diagonal = game.play_text(game.play_text(game.initial_state(), "c3"), "swap-pieces")
    assert on_diagonal.cells[2 * 11 + 2] == game.stones[1] and sum(map(bool, on_diagonal.cells)) == 1
    assert game.parse_position(game.format_position(on_diagonal)) == on_diagonal


def test_positions_round_trip_and_bad_ones_are_refused() -> None:
    game = get_game("hex7")
    rng = random.Random(3)
    state = game.initial_state()
    while game.outcome(state) is None:
        text = game.format_position(state)
        assert game.parse_position(text) == state
        for move in game.legal_moves(state):
            assert game.parse_move(state, game.format_move(state, move)) == move
        state = game.play(state, rng.choice(game.legal_moves(state)))
    assert game.format_position(game.parse_position(game.format_position(state))) == game.format_position(state)
    for bad, says in [("7/7/7/7/7/7/7", "expected"), ("7/7/7/7/7/7/7 x", "side to move"),
                      ("7/7/7/7/7/7/6 b", "row"), ("B6/7/7/7/7/7/7 b", "no game reaches"),
                      ("BB5/7/7/7/7/7/7 w", "no game reaches"), ("W6/7/7/7/7/7/7 w", "no game reaches"),
                      ("X6/7/7/7/7/7/7 b", "unknown piece"),
                      # Black has joined top and bottom, yet it is Black's move
                      ("BW5/BW5/BW5/BW5/BW5/BW5/BW5 b", "already joined")]:
        with pytest.raises(PositionError, match=says):
            game.parse_position(bad)
    noswap = get_game("hex_noswap")
    with pytest.raises(PositionError, match="no game reaches"):
        noswap.parse_position("11/11/11/11/1W9/11/11/11/11/11/11 b")


def test_bad_moves_are_refused() -> None:
    game = get_game("hex")
    state = game.play_text(game.initial_state(), "f6")
    for text, error in [("z9", InvalidMoveError), ("a12", InvalidMoveError), ("hello", InvalidMoveError),
                        ("f6", IllegalMoveError), ("", InvalidMoveError)]:
        with pytest.raises(error):
            game.parse_move(state, text)
    assert game.parse_move(state, "F7") == game.parse_move(state, "f7")


def test_render_draws_the_rhombus() -> None:
    game = get_game("hex7")
    text = game.render(game.parse_position("7/7/7/3B3/7/7/6W w"))
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefg")
    assert lines[5] == "    4 |. . . B . . .| 4"
    assert lines[8].endswith("|. . . . . . W| 7")
    with pytest.raises(Exception):
        Hex(1)


def test_sizes_and_ids() -> None:
    assert [get_game(g).size for g in ("hex", "hex7", "hex9", "hex13")] == [11, 7, 9, 13]  # type: ignore[attr-defined]
    assert get_game("hex").topology.size == 121 and get_game("hex13").topology.size == 169
    assert isinstance(get_game("hex").initial_state(), State)


@pytest.mark.parametrize("size", [2, 3])
def test_solved_small_boards_agree_with_the_theorems(size: int) -> None:
    """Exhaustive search agrees with two theorems: without the swap the first player wins
    (Nash's strategy-stealing argument: Hex has no draws, and an extra stone never hurts),
    and with it the second player wins (a winning first move would be swapped, a losing
    one kept).  The 3x3 centre wins for Black."""
    from myriad.ai.solver import Solver

    assert Solver(Hex(size, swap=False)).solve(Hex(size, swap=False).initial_state()) == 1
    game = Hex(size)
    assert Solver(game).solve(game.initial_state()) == -1
    if size == 3:
        plain = Hex(3, swap=False)
        assert Solver(plain).solve(plain.play_text(plain.initial_state(), "b2")) == -1  # White to move loses


def test_the_web_draws_a_rhombus_and_offers_the_swap_as_a_button() -> None:
    from myriad.web.layout import layout_json
    from myriad.web.moves import moves_json

    game = get_game("hex")
    layout = layout_json(game)
    assert layout["style"] == "hex" and not layout["cell_labels"]
    assert layout["sides"] == {"corners": ["a1", "k1", "k11", "a11"], "owners": [0, 1, 0, 1]}
    assert layout["width"] == 16 and abs(layout["height"] - (1 + 10 * 3 ** 0.5 / 2)) < 1e-9
    state = game.play_text(game.initial_state(), "e2")
    entries = {m["notation"]: m for m in moves_json(game, state, game.legal_moves(state))}
    assert entries["swap"]["path"] == [] and entries["f6"]["path"] == ["f6"]


def test_move_ordering_answers_an_intrusion_into_a_bridge_or_edge_template() -> None:
    game = get_game("hex7")
    # Black's d2 is joined to the top by d1 and e1; White takes d1: e1 comes first
    state = game.play_text(game.parse_position("7/3B3/7/7/7/7/7 w"), "d1")
    scores = dict(zip((game.format_move(state, m) for m in game.legal_moves(state)),
                      game.move_heuristics(state, game.legal_moves(state))))
    assert max(scores, key=scores.__getitem__) == "e1"
    # Black's c3 and d4 are a bridge (carriers d3 and c4); White takes d3: c4 comes first
    state = game.play_text(game.parse_position("7/7/2B4/3B3/7/7/W6 w"), "d3")
    scores = dict(zip((game.format_move(state, m) for m in game.legal_moves(state)),
                      game.move_heuristics(state, game.legal_moves(state))))
    assert max(scores, key=scores.__getitem__) == "c4"
