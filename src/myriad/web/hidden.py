"""What the page draws of hidden information and chance, beyond the cells of a view.

Every field is built from what the view's receiver may know: its own observation (the
public view for a watcher), the public facts of the game, and nothing else.

* ``fog``: the squares of the receiver's view under fog (dark chess): drawn as clouds.
* ``unseen``: the receiver's own pieces the opponent cannot see, drawn translucent.  Under
  fog of war: the own pieces on squares no enemy piece may see, judged from the receiver's
  observation alone (:meth:`~myriad.core.piece_fog.PieceFog.may_be_seen`: the enemy in
  sight, and any unseen enemy piece on any fogged square it may stand on), so a piece drawn
  translucent is one the opponent surely cannot see, not a guess from the enemy's true
  position (which would leak it).  Where the opponent never sees what a piece is (the ranks
  of the Game of the Generals, until the end) it is every own piece whose identity the
  opponent's view masks: found from one whole state drawn behind the receiver's
  observation (the masking depends on the rules, not on the draw).
* ``revealed``: once the game is over, the squares of the other players' pieces the
  receiver's view hid until the end (the fog lifted, the enemy's ranks shown): the page marks them.
* ``sides``: in a game whose players get their colours in play (BanQi's first flip), the
  colour of the pieces each player plays, or None while undecided.
* ``face_down``: in a game with face-down pieces (BanQi), the pieces not yet turned up,
  by kind and count: public (the start set less what is in sight and captured).
* ``placing``: the viewer is setting up (every move of its places a piece from its hand, in
  a run of its own placements: the Game of the Generals' set-up), for the random set-up
  button.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from myriad.core.game import Game
from myriad.core.mechanics.fog import FOG
from myriad.core.move import DROP, Move
from myriad.core.state import State
from myriad.web.layout import colour_name, piece_picture, player_colours


def hidden_json(game: Game, state: State, seen: State, viewer: int | None,
                before: State | None = None, legal: Sequence[Move] = ()) -> dict[str, Any]:
    """The hidden-information fields of the view of ``state`` for ``viewer`` (None: a
    watcher), whose view is ``seen``; ``before``: the position before the last move, for
    what the end revealed; ``legal``: the viewer's moves in the view, for ``placing``."""
    out: dict[str, Any] = {}
    if legal and all(a[0] == DROP for move in legal for a in move):
        # a set-up phase: every move places a piece from the hand, and the placer places
        # again after this one or placed the one before
        out["placing"] = game.play(seen, legal[0]).to_move == seen.to_move or (
            before is not None and before.to_move == seen.to_move)
    sides = getattr(game, "colour_of_player", None)
    if sides is not None:
        inks = player_colours(game)
        colours = [sides(state, p) for p in range(game.players)]
        out["sides"] = [None if c < 0 else {"colour": c, "ink": inks[c], "name": colour_name(inks[c])}
                        for c in colours]
    if getattr(game, "face_down_codes", ()) and hasattr(game, "pool"):
        pool: dict[int, int] = game.pool(state)
        out["face_down"] = [{"piece": piece_picture(game, code), "count": n} for code, n in sorted(pool.items())]
    if not game.hidden_information:
        return out
    names = game.topology.names
    out["fog"] = fogged(game, seen)
    over = game.outcome(state) is not None
    out["unseen"] = [] if over or viewer is None else [names[p] for p in sorted(unseen(game, seen, viewer))]
    out["revealed"] = []
    if over and before is not None:
        earlier = game.public_view(before) if viewer is None else game.observe(before, viewer)
        masks = set(getattr(game, "fog_codes", ()))
        owner = game.pieces.owner_of
        out["revealed"] = [names[p] for p, c in enumerate(state.cells)
                           if c and c not in masks and owner[c] != viewer and earlier.cells[p] in masks]
    return out


def fogged(game: Game, seen: State) -> list[str]:
    """The squares of a view that hold a fog marker (the piece kind :data:`FOG`)."""
    kinds = game.pieces.kinds
    kind_of = game.pieces.kind_of
    names = game.topology.names
    return [names[p] for p, c in enumerate(seen.cells) if c and kinds[kind_of[c]].name == FOG]


#: :func:`unseen`'s answers by game, observation and viewer (each view of a change asks it
#: again: every socket, every request), the oldest forgotten first.
_UNSEEN: OrderedDict[tuple[str, State, int], frozenset[int]] = OrderedDict()
UNSEEN_KEPT = 256


def unseen(game: Game, seen: State, viewer: int) -> frozenset[int]:
    """The squares of ``viewer``'s own pieces that its opponent cannot see, from ``seen``
    (``viewer``'s observation) alone; empty when the game has no single opponent."""
    key = (game.id, seen, viewer)
    found = _UNSEEN.get(key)
    if found is None:
        found = _UNSEEN[key] = frozenset(_unseen(game, seen, viewer))
        while len(_UNSEEN) > UNSEEN_KEPT:
            _UNSEEN.popitem(last=False)
    return found


def _unseen(game: Game, seen: State, viewer: int) -> set[int]:
    if game.players != 2:
        return set()
    owner = game.pieces.owner_of
    masks = set(getattr(game, "fog_codes", ()))
    own = {p for p, c in enumerate(seen.cells) if c and c not in masks and owner[c] == viewer}
    fog_view = getattr(game, "fog_view", None)
    if fog_view is not None:  # fog of war: squares no enemy piece may see
        return own - fog_view.may_be_seen(seen, viewer)
    # Identities the opponent's view masks whatever the hidden part is (ranks): one draw.
    whole = game.determinize(seen, viewer, random.Random(seen.key))
    theirs = game.observe(whole, 1 - viewer)
    return {p for p in own if theirs.cells[p] != whole.cells[p]}
