"""Bots: specs, every searcher on every game, exact play in small games, chains, deadlines."""

from __future__ import annotations

import re
import time

import pytest

from myriad import get_game
from myriad.ai import BOTS, BotSpecError, Limits, make_bot, parse_spec
from myriad.ai.alphabeta import AlphaBeta
from myriad.ai.book import BookBot
from myriad.ai.heuristic import HeuristicBot
from myriad.ai.mcts import MCTS
from myriad.ai.random_bot import RandomBot
from myriad.ai.solver import Solver
from myriad.games import game_ids

from oracles import load_oracle



def solved_value(game: str, board: str) -> int:
    """The first player's value (1 a win, 0 a draw, -1 a loss) of ``game`` on ``board``, as
    the oracle file ``solved.json`` gives it."""
    results = load_oracle("solved.json")["results"]
    result = next(r["result"] for r in results if r["game"].startswith(game) and r["board"].startswith(board))
    return 0 if result.startswith("draw") else 1 if result.startswith("first player") else -1


def test_spec_strings() -> None:
    assert parse_spec("heuristic:noise=10") == ("heuristic", {"noise": 10})
    assert parse_spec("alphabeta:algo=mtdf,time=1") == ("alphabeta", {"algo": "mtdf", "time": 1})
    assert parse_spec("mcts:playouts=2000,c=0.7") == ("mcts", {"playouts": 2000, "c": 0.7})
    assert parse_spec("chain:book,alphabeta:algo=pvs,time=1,random") == (
        "chain", {"links": ["book", "alphabeta:algo=pvs,time=1", "random"]})


@pytest.mark.parametrize("spec", ["", "nosuchbot", "alphabeta:algo=nosuch", "chain:", "alpha beta",
                                  "alphabeta:ti me=1", "chain:random,nosuch"])
def test_bad_specs_are_refused(spec: str) -> None:
    with pytest.raises(BotSpecError):
        make_bot(spec, get_game("tictactoe"))


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("spec", ["random", "heuristic", "alphabeta:algo=negamax", "alphabeta:algo=pvs",
                                  "alphabeta:algo=mtdf", "mcts:playouts=30,cutoff=10"])
def test_every_bot_plays_a_legal_move_in_every_game(game_id: str, spec: str) -> None:
    game = get_game(game_id)
    if not BOTS[parse_spec(spec)[0]].plays(game):
        pytest.skip(f"{spec} does not play {game_id} (refused: see test_bots_refuse_games_they_cannot_search)")
    state = game.initial_state()
    for _ in range(3):  # a few plies in, to leave the start position
        if game.is_chance(state):  # no bot chooses chance's move: the first outcome, here
            state = game.play(state, game.legal_moves(state)[0])
        decision = make_bot(spec, game).choose(state, Limits.of(0.3, depth=2, nodes=3000))
        assert decision.move in game.legal_moves(state)
        assert decision.info["bot"]
        state = game.play(state, decision.move)
        if game.outcome(state) is not None:
            break


@pytest.mark.parametrize("game_id", game_ids())
def test_bots_refuse_games_they_cannot_search(game_id: str) -> None:
    """Every bot declares the players and chance it can search; made for any other game,
    it refuses at once, naming the game and the bots that can play it."""
    game = get_game(game_id)
    for name, kind in BOTS.items():
        fits = ((kind.max_players is None or game.players <= kind.max_players)
                and (kind.chance or not game.chance) and (kind.hidden or not game.hidden_information))
        assert kind.plays(game) == fits
        if fits:
            make_bot(name, game)
            continue
        with pytest.raises(BotSpecError) as refused:
            make_bot(name, game)
        message = str(refused.value)
        players = f"{game.players} player{'s' if game.players != 1 else ''}"
        assert f"{name} searches" in message and f"{game_id} ({players}" in message
        named = set(re.split(r", | or ", message.split(" use ")[-1])) if " use " in message else set()
        assert named == {other for other, other_kind in BOTS.items()
                         if other != name and other_kind.suggested and other_kind.plays(game)}


def test_declared_turn_structures() -> None:
    assert (RandomBot.max_players, RandomBot.chance) == (None, True)
    assert (HeuristicBot.max_players, HeuristicBot.chance) == (None, True)
    assert (BookBot.max_players, BookBot.chance) == (None, True)
    for searcher in (AlphaBeta, Solver):
        assert (searcher.max_players, searcher.chance) == (2, False)


def test_solver_proves_tictactoe_a_draw_and_4x4_othello_a_second_player_win() -> None:
    ttt = get_game("tictactoe")
    assert Solver(ttt).solve(ttt.initial_state()) == solved_value("tic-tac-toe", "3x3")
    othello4 = get_game("othello4")
    assert Solver(othello4).solve(othello4.initial_state()) == solved_value("othello", "4x4")


def reachable(game_id: str) -> list:
    game = get_game(game_id)
    seen, frontier, out = set(), [game.initial_state()], []
    while frontier:
        state = frontier.pop()
        if state.key in seen:
            continue
        seen.add(state.key)
        if game.outcome(state) is None:
            out.append(state)
            frontier.extend(game.play(state, m) for m in game.legal_moves(state))
    return out


def test_alphabeta_never_spoils_a_tictactoe_position() -> None:
    """From every reachable position, alpha-beta's move keeps the solver's value: it never
    loses a drawn or won position, whatever the opponent did before."""
    game = get_game("tictactoe")
    solver = Solver(game)
    positions = reachable("tictactoe")
    assert len(positions) == 5478 - 958  # counts.json: positions minus terminal ones
    for algo in ("negamax", "pvs", "mtdf"):
        bot = make_bot(f"alphabeta:algo={algo}", game)
        for state in positions:
            value = solver.solve(state)
            move = bot.choose(state, Limits(depth=9)).move
            after = game.play(state, move)
            outcome = game.outcome(after)
            if outcome is not None:
                kept = 1 if outcome.winner == state.to_move else 0
            else:
                kept = -solver.solve(after)
            assert kept == value, (algo, game.format_position(state), game.format_move(state, move))


def test_alphabeta_finds_the_fastest_mate() -> None:
    game = get_game("chess")
    # Mate in one (Qd8#) beside slower wins.
    state = game.parse_position("6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1")
    for algo in ("negamax", "pvs", "mtdf"):
        decision = make_bot(f"alphabeta:algo={algo},depth=3", game).choose(state)
        after = game.play(state, decision.move)
        out = game.outcome(after)
        assert out is not None and out.reason == "checkmate", algo
    # A forced mate is scored as a win a few plies away.
    state = game.parse_position("7k/6pp/8/8/8/8/8/R5RK w - - 0 1")
    decision = make_bot("alphabeta:depth=4", game).choose(state)
    assert decision.info["score"] >= 1_000_000 - 3


def test_alphabeta_answers_before_its_deadline() -> None:
    """Anytime: the best move so far comes back when time runs out mid-iteration (a
    generous bound here; `myriad match` measures the real overrun)."""
    game = get_game("chess")
    state = game.parse_position("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10")
    start = time.monotonic()
    decision = make_bot("alphabeta", game).choose(state, Limits.of(0.3))
    assert time.monotonic() - start < 1.0
    assert not decision.done and decision.move in game.legal_moves(state)


def test_node_limit_stops_the_search() -> None:
    game = get_game("chess")
    bot = make_bot("alphabeta", game)
    bot.choose(game.initial_state(), Limits(nodes=500))
    assert bot.nodes <= 500 + 1


@pytest.mark.parametrize("spec, searched", [("", 48), (",root=5", 5), (",moves=3", 48), (",moves=0,root=0", 48)])
def test_the_move_cap_leaves_the_root_alone(spec: str, searched: int) -> None:
    """Gomoku caps the moves searched per node at seven, but not at the root, where a move
    left out could never be found: a one-ply search visits every candidate unless ``root``
    caps them too."""
    game = get_game("gomoku")
    state = game.parse_position("15/15/15/15/15/6O8/6XO7/5OXX7/6XO7/7X7/15/15/15/15/15 x")
    assert len(game.candidate_moves(state, game.legal_moves(state))) == 48
    bot = make_bot(f"alphabeta:algo=negamax,depth=1,threats=0,quiescence=0{spec}", game)
    bot.choose(state)
    assert bot.nodes == searched


def test_chain_falls_through_the_book_and_records_failures() -> None:
    game = get_game("chess")
    chain = make_bot("chain:book,alphabeta:depth=1,random", game)
    start = game.initial_state()
    assert chain.choose(start).info["bot"] == "book"  # the start is in the chess book
    odd = game.parse_position("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    decision = chain.choose(odd)
    assert decision.info["bot"] == "alphabeta" and decision.move in game.legal_moves(odd)
    assert any("book" in f for f in decision.info["failures"])


def test_chain_replaces_a_failing_link() -> None:
    game = get_game("tictactoe")
    chain = make_bot("chain:book,random", game)  # no tic-tac-toe book: the book always fails
    decision = chain.choose(game.initial_state())
    assert decision.info["bot"] == "random"


def test_heuristic_takes_a_win_and_blocks_a_loss() -> None:
    game = get_game("tictactoe")
    bot = make_bot("heuristic:noise=0", game)
    win = game.parse_position("XX1/OO1/3 x")          # X completes the top row
    assert game.format_move(win, bot.choose(win).move) == "c3"
    block = game.parse_position("XX1/O2/3 o")         # O must block c3
    assert game.format_move(block, bot.choose(block).move) == "c3"


def test_mcts_reuses_its_tree() -> None:
    game = get_game("connect4")
    bot = make_bot("mcts:playouts=200,seed=1,engine=reference", game)
    assert isinstance(bot, MCTS)
    state = game.initial_state()
    first = bot.choose(state)
    after_mine = game.play(state, first.move)
    reply = game.legal_moves(after_mine)[0]
    after_reply = game.play(after_mine, reply)
    kept = bot._reuse(after_reply)
    assert kept.visits > 0  # the subtree searched last move is the new root
