"""Fog of war for games of moving pieces: how a :class:`~myriad.core.piece_game.PieceGame`
under ``PieceRules.fog`` (dark chess) observes, samples whole states behind an observation
and checks that a position with fog is one player's view.  The mechanic itself (who sees
what, the sampler) is :mod:`myriad.core.mechanics.fog`; this mixin hooks it to the tables.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from myriad.core.errors import PositionError
from myriad.core.mechanics.fog import FOG, FOG_LETTERS, FogOfWar, Shadow
from myriad.core.move import Move
from myriad.core.state import State

if TYPE_CHECKING:
    from myriad.core.piece_game import PieceGame


class PieceFog:
    """The fog-of-war verbs of a :class:`~myriad.core.piece_game.PieceGame` under
    ``PieceRules.fog``: built once with the game, which delegates to it."""

    def __init__(self, game: PieceGame) -> None:
        """Fog of war on ``game``'s tables: the markers (on any square), captures counted in the hands."""
        self.game = game
        pieces = game.pieces
        markers = (pieces.code(FOG, 0), pieces.code(FOG, 1))
        game.fog_codes = markers
        nothing: tuple[tuple[int, ...], ...] = tuple(() for _ in range(game.topology.size))
        sights = [nothing] * pieces.count
        for code in game.pawn_codes:  # a pawn sees ahead and its diagonals, blocked or empty
            sights[code] = tuple(tuple(ray[0] for ray, _mode in rays if ray) for rays in game.tables.rays[code])
        game.fog = FogOfWar(game.topology, game.tables.lame, sights, markers)
        game.hidden_information = True
        everywhere = frozenset(range(game.topology.size))
        game.reachable = tuple(everywhere if c in markers else r for c, r in enumerate(game.reachable))
        for code in range(1, pieces.count):
            if code not in markers:
                game.hand_index[code] = pieces.kind_of[code]
        game.hand_kinds = frozenset(pieces.kind_of[c] for c in range(1, pieces.count) if c not in markers)
        self.shadows: dict[tuple[int, int], Shadow] = {}

    def moves_seen_by(self, state: State, cells: Sequence[int], player: int) -> list[Move]:
        """``player``'s moves on ``cells`` as if it were to move (its castling rights; the
        en-passant square only when it is to move: the one its opponent just passed)."""
        game = self.game
        rights = state.flags[0] if state.flags else 0
        ep = state.flags[1] if state.flags and player == state.to_move else 0
        probe = State(tuple(cells), player, (rights, ep) + tuple(state.flags[2:]), state.counters, state.hands)
        moves = game.tables.pseudo_moves(cells, player, ep - 1)
        if game.castlings and rights:
            moves += game._castling_moves(probe, player)
        return moves

    def observe(self, state: State, player: int) -> State:
        """Under fog of war, what ``player`` sees: the fogged cells hold its fog marker, the
        opponent's castling rights, the en-passant square when the opponent is to move and
        the half-move clock are hidden, and so is the history.  At a finished game, all."""
        game = self.game
        fog = game.fog
        if fog is not None and game.fog_codes[1 - player] in state.cells:
            raise PositionError(f"{game.id}: this is {game.player_names[1 - player]}'s view; "
                                f"{game.player_names[player]} cannot observe it")
        if fog is None or game.outcome(state) is not None:
            return state
        seen = fog.seen(state.cells, player, self.moves_seen_by(state, state.cells, player), game.pieces.owner_of)
        cells = fog.mask(state.cells, seen, player)
        own = sum(c.right for c in game.piece_rules.castlings if c.player == player)
        flags = list(state.flags)
        if flags:
            flags[0] &= own
            if player != state.to_move:
                flags[1] = 0
        counters = (0,) + state.counters[1:]
        return game.make_state(cells, state.to_move, flags, counters, state.hands)

    def determinize(self, observation: State, player: int, rng: random.Random) -> State:
        """A whole state behind ``observation`` (:class:`myriad.core.mechanics.fog.Shadow`):
        the opponent's unseen pieces placed in the fog, its castling rights kept where its
        king and rook stand at home."""
        game = self.game
        fog = game.fog
        if fog is None or fog.fog_codes[player] not in observation.cells:
            return observation
        key = (observation.key, player)
        cache = self.shadows
        shadow = cache.get(key)
        if shadow is None:
            if len(cache) > 64:
                cache.clear()
            shadow = self.shadow(observation, player)
            cache[key] = shadow
        cells = shadow.sample(rng)
        flags = list(observation.flags)
        if flags:
            for c, kf, _kt, rf, _rt, _empty, _path in game.castlings:
                if c.player != player and cells[kf] in game.royal_of[c.player] and cells[rf] and \
                        game.pieces.owner_of[cells[rf]] == c.player and cells[rf] not in game.royal:
                    flags[0] |= c.right
        return game.make_state(cells, observation.to_move, flags, observation.counters, observation.hands)

    def check_observation(self, cells: Sequence[int], to_move: int, flags: Sequence[int],
                           hands: Sequence[Sequence[int]]) -> None:
        """A board with fog is one player's view: its fog marker only, on exactly the
        squares that player does not see."""
        game = self.game
        assert game.fog is not None
        viewers = [p for p in range(2) if game.fog_codes[p] in cells]
        if len(viewers) == 2:
            raise PositionError(f"{game.id}: fog of both views ({FOG_LETTERS[0]} and {FOG_LETTERS[1]}) in one "
                                f"position")
        if not viewers:
            return
        player = viewers[0]
        probe = State(tuple(cells), to_move, tuple(flags), (0, 1), tuple(tuple(h) for h in hands))
        seen = game.fog.seen(cells, player, self.moves_seen_by(probe, cells, player), game.pieces.owner_of)
        names, marker = game.topology.names, game.fog_codes[player]
        for pos, code in enumerate(cells):
            if (code == marker) == (pos in seen):
                what = "fogged, but it sees it" if code == marker else "shown, but it cannot see it"
                raise PositionError(f"{game.id}: not {game.player_names[player]}'s view: {names[pos]} is {what}")

    def shadow(self, observation: State, player: int) -> Shadow:
        """The sampler of whole boards behind ``observation``: the opponent's unseen pieces."""
        game = self.game
        assert game.fog is not None
        pieces, cells, enemy = game.pieces, observation.cells, 1 - player
        left = self.unseen(observation, player)
        pool = [code for code, n in left.items() for _ in range(n)]
        fog = game.fog
        probe = game.royal_of[enemy][0] if game.royal_of[enemy] else next(iter(left))

        def seen_of(board: Sequence[int]) -> set[int]:
            return fog.seen(board, player, self.moves_seen_by(observation, board, player), pieces.owner_of)

        return Shadow(fog, cells, player, pool, game.reachable, seen_of, probe)

    def unseen(self, observation: State, player: int) -> dict[int, int]:
        """The opponent's pieces ``player`` cannot see, code -> count: its start set less
        those captured and those in sight (a promoted piece in sight or taken paid for by a
        pawn)."""
        game = self.game
        pieces, cells, enemy = game.pieces, observation.cells, 1 - player
        taken = observation.hands[player] if observation.hands else ()
        left = {}
        for code in range(1, pieces.count):
            if pieces.owner_of[code] == enemy and code not in game.fog_codes:
                left[code] = game.start_counts[code] - cells.count(code) - (taken[pieces.kind_of[code]] if taken else 0)
        promoting = [c for c in left if game.tables.promotion[c] is not None]
        for code, n in list(left.items()):
            while n < 0 and promoting:  # a promoted piece in sight or taken: a pawn paid for it
                pawn = next((p for p in promoting if left[p] > 0), None)
                if pawn is None:
                    break
                left[pawn] -= 1
                n += 1
            left[code] = max(n, 0)
        return left

    def may_be_seen(self, observation: State, player: int) -> frozenset[int]:
        """The squares the opponent of ``player`` may see, judged from ``player``'s
        observation alone (so it tells nothing ``player`` does not know): what the opponent's
        pieces in sight see, and what any of its unseen pieces (or a piece one of its unseen
        pawns may have promoted to) would see from any fogged square it may stand on, each
        alone among ``player``'s pieces, the fog taken as empty and, for pieces that jump
        over a screen, as full.  A superset of what the opponent sees, but for two cases
        left out: a capture en passant, and a cannon whose screen is one of several fogged
        points between it and its target."""
        game = self.game
        fog = game.fog
        assert fog is not None
        enemy = 1 - player
        marker, blocker = game.fog_codes[player], game.fog_codes[enemy]
        owner = game.pieces.owner_of
        pseudo = game.tables.pseudo_moves
        clear = [0 if c == marker else c for c in observation.cells]
        full = [blocker if c == marker else c for c in observation.cells]
        fogged = [p for p, c in enumerate(observation.cells) if c == marker]
        seen = fog.seen(clear, enemy, pseudo(clear, enemy, -1), owner)
        seen |= fog.seen(full, enemy, pseudo(full, enemy, -1), owner)
        left = {c for c, n in self.unseen(observation, player).items() if n > 0}
        for code in list(left):
            promotion = game.tables.promotion[code]
            if promotion is not None:
                left.update(promotion[1])
        mine = [c if c and owner[c] == player else 0 for c in clear]
        for code in sorted(left):
            for pos in fogged:
                if pos not in game.reachable[code]:
                    continue
                for base in (mine, full):
                    board = list(base)
                    board[pos] = code
                    seen |= fog.seen(board, enemy, pseudo(board, enemy, -1), owner)
        return frozenset(seen)
