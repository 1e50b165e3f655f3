"""The hidden-information fields of the web's views (``myriad.web.hidden``), for every game
with hidden information in the registry and for BanQi's colours and face-down pieces.

* ``fog`` names exactly the fogged squares of the receiver's observation, drawn as clouds
  (``shape: fog``);
* ``unseen`` (own pieces drawn translucent) is never wrong: the opponent's observation of
  the whole state masks every piece it names (under fog of war it is "no enemy piece may
  see it", judged from the receiver's observation alone);
* the fields leak nothing: other whole states behind the same observation (drawn by
  ``determinize``) give the same fields;
* at the end, ``revealed`` names the squares whose pieces the receiver's view hid just
  before;
* BanQi: the colours are undecided until the first flip and then each player's colour;
  the face-down pieces left are the pieces not yet seen, as many as there are backs.
"""

from __future__ import annotations

import random

import pytest

from myriad.core.game import Game
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.web.hidden import fogged, hidden_json, unseen
from myriad.web.layout import cells_json

HIDDEN = [gid for gid in game_ids() if get_game(gid).hidden_information]


def playout(game: Game, seed: int, limit: int = 400) -> list[State]:
    """The positions of a random game (chance drawn by its probabilities)."""
    rng = random.Random(seed)
    states = [game.initial_state()]
    while game.outcome(states[-1]) is None and len(states) < limit:
        state = states[-1]
        if game.is_chance(state):
            outcomes = game.chance_outcomes(state)
            move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            moves = game.legal_moves(state)
            if not moves:
                break
            captures = [m for m in moves if len(m) > 1 or state.cells[m[0][2]]]
            move = rng.choice(captures if captures and rng.random() < 0.5 else moves)
        states.append(game.play(state, move))
    return states


def test_every_hidden_game_is_covered() -> None:
    assert {"darkchess", "darkxiangqi", "darkshatranj", "generals"} <= set(HIDDEN)


@pytest.mark.parametrize("gid", HIDDEN)
def test_fog_and_translucent_pieces_from_the_observation_alone(gid: str) -> None:
    game = get_game(gid)
    names = game.topology.names
    owner = game.pieces.owner_of
    masks = set(getattr(game, "fog_codes", ()))
    some_unseen = some_seen = fog_shown = 0
    for seed in (1, 2):
        states = playout(game, seed)
        for ply in range(0, len(states) - 1, 3):
            state = states[ply]
            for viewer in range(game.players):
                seen = game.observe(state, viewer)
                fields = hidden_json(game, state, seen, viewer)
                fog = [names[p] for p, cell in enumerate(cells_json(game, seen))
                       if isinstance(cell, dict) and cell.get("shape") == "fog"]
                assert fields["fog"] == fog == fogged(game, seen)
                fog_shown += bool(fog)
                if game.players != 2:
                    assert fields["unseen"] == []
                    continue
                theirs = game.observe(state, 1 - viewer)
                own = [p for p, c in enumerate(state.cells) if c and c not in masks and owner[c] == viewer]
                for name in fields["unseen"]:  # never wrong: the opponent's view masks it
                    pos = names.index(name)
                    assert pos in own and theirs.cells[pos] != state.cells[pos], (gid, ply, viewer, name)
                some_unseen += bool(fields["unseen"])
                some_seen += len(fields["unseen"]) < len(own)
                # nothing beyond the observation: whole states behind it give the same fields
                rng = random.Random(ply)
                for _ in range(2):
                    other = game.determinize(seen, viewer, rng)
                    again = hidden_json(game, other, game.observe(other, viewer), viewer)
                    assert (again["fog"], again["unseen"]) == (fields["fog"], fields["unseen"])
    if game.players == 2:
        assert some_unseen > 3, gid
    if getattr(game, "fog", None) is not None:
        assert fog_shown > 3 and some_seen > 3, gid  # the fog is drawn; some own pieces are in sight


def test_generals_every_own_rank_is_hidden_from_the_opponent() -> None:
    game = get_game("generals")
    states = playout(game, 3)
    state = next(s for s in states if not game.setting_up(s) and game.outcome(s) is None)  # type: ignore[attr-defined]
    for viewer in (0, 1):
        own = {p for p, c in enumerate(state.cells) if c and game.pieces.owner_of[c] == viewer
               and c not in game.fog_codes}
        assert len(own) == 21
        assert unseen(game, game.observe(state, viewer), viewer) == own


def test_a_piece_an_enemy_in_sight_attacks_is_not_translucent() -> None:
    game = get_game("darkchess")
    state = game.parse_position("7k/8/8/3q4/8/8/7P/K2R4 w - - 0 1")
    names = game.topology.names
    seen = game.observe(state, 0)
    assert seen.cells[names.index("d5")] == state.cells[names.index("d5")]  # the rook sees the queen
    fields = hidden_json(game, state, seen, 0)
    assert "d1" not in fields["unseen"]  # and the queen sees the rook


@pytest.mark.parametrize("gid", [g for g in HIDDEN if get_game(g).players == 2])
def test_the_end_reveals_what_was_hidden(gid: str) -> None:
    game = get_game(gid)
    for seed in range(1, 8):
        states = playout(game, seed, limit=2000)
        if game.outcome(states[-1]) is not None:
            break
    final, before = states[-1], states[-2]
    assert game.outcome(final) is not None
    names = game.topology.names
    for viewer in (0, 1):
        fields = hidden_json(game, final, game.observe(final, viewer), viewer, before)
        earlier = game.observe(before, viewer)
        expected = [names[p] for p, c in enumerate(final.cells)
                    if c and c not in game.fog_codes and game.pieces.owner_of[c] != viewer
                    and earlier.cells[p] in game.fog_codes]
        assert fields["revealed"] == expected and expected, (gid, viewer)
        assert fields["fog"] == [] and fields["unseen"] == []
    public = hidden_json(game, final, game.public_view(final), None, before)
    assert len(public["revealed"]) >= max(len(hidden_json(game, final, final, v, before)["revealed"]) for v in (0, 1))


def test_banqi_colours_follow_the_first_flip_and_the_face_down_pieces_are_counted() -> None:
    game = get_game("banqi")
    states = playout(game, 4, limit=60)
    start = hidden_json(game, states[0], states[0], 0)
    assert start["sides"] == [None, None]
    assert sum(e["count"] for e in start["face_down"]) == 32
    decided = 0
    for state in states:
        fields = hidden_json(game, state, state, 0)
        colours = [game.colour_of_player(state, p) for p in (0, 1)]  # type: ignore[attr-defined]
        if colours[0] < 0:
            assert fields["sides"] == [None, None]
        else:
            decided += 1
            assert [s["colour"] for s in fields["sides"]] == colours and {s["name"] for s in fields["sides"]} == {"red", "black"}
        backs = sum(1 for c in state.cells if c in game.face_down_codes)  # type: ignore[attr-defined]
        assert sum(e["count"] for e in fields["face_down"]) == backs
        assert all(e["piece"]["shape"] == "round" for e in fields["face_down"])
    assert decided > 10


def test_placing_marks_a_set_up_phase_only() -> None:
    """``placing`` (the random set-up button): every one of the generals' 42 set-up
    placements, from the first to each side's last, and no move of play; not a game whose
    placements alternate with other moves (bagh chal's goats), in any game of the registry
    at its start but the generals'."""
    game = get_game("generals")
    state, before = game.initial_state(), None
    for _ in range(42):
        legal = game.legal_moves(state)
        assert hidden_json(game, state, game.observe(state, state.to_move), state.to_move, before, legal)["placing"]
        before, state = state, game.play(state, legal[-1])
    assert not game.setting_up(state)  # type: ignore[attr-defined]
    legal = game.legal_moves(state)
    assert "placing" not in hidden_json(game, state, game.observe(state, 0), 0, before, legal)
    for gid in game_ids():
        other = get_game(gid)
        start = other.initial_state()
        if other.is_chance(start):
            continue
        fields = hidden_json(other, start, other.observe(start, start.to_move), start.to_move, None,
                             other.legal_moves(start))
        assert fields.get("placing", False) == (gid == "generals"), gid
