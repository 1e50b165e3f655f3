"""Jump captures: draughts-style moves where pieces capture by jumping, chained into one move.

A :class:`JumpCaptures` is compiled once against a topology and then enumerates the legal
moves of one side from the cells of a state.  Every rule of the draughts family is a
parameter:

* ``forward``                which directions men step (and capture, unless backward
  captures are allowed) in, as each player sees them;
* ``men_capture_backwards``  men also jump in the other ``directions``;
* ``flying_kings``           kings slide any distance, and jump a piece any distance away
  landing on any empty square behind it; otherwise a king steps and jumps like a man in
  every direction;
* ``compulsory``             when a capture exists, only captures may be played;
* ``maximum_capture``        only the sequences taking the most pieces may be played;
* ``capture_promotion``      what a man reaching its promotion zone in the middle of a
  capture does: ``"end"`` it stays a man and promotes only if the move ends there (FMJD),
  ``"stop"`` it promotes and the move ends, ``"continue"`` it promotes and keeps capturing
  as a king;
* ``merge_duplicate_routes`` capture routes with the same start, end, captured set and
  result are one move (FMJD), or every route is a move of its own;
* ``continue_capture``       ``"must"`` (draughts, the default: see below), ``"may"``
  (the piece may stop after any jump: the fox of fox and geese) or ``"no"`` (one jump per
  move: the tigers of bagh-chal);
* ``man_capture_directions``, ``king_directions``, ``king_capture_directions``  override
  the directions men capture in, kings move in and kings capture in (Frisian men and
  kings also capture orthogonally, Turkish kings move and capture orthogonally);
* ``remove_at_once``         a captured piece leaves the board as it is jumped (Turkish
  dama): its square frees at once and it cannot block the rest of the capture;
* ``turn_back``              False forbids a jump in the direction opposite to the one
  before (the Turkish "no 180-degree turn");
* ``capture_values``         (man, king) weights: maximum capture counts the value taken,
  not the number of pieces (Frisian: a king worth more than a man, less than two);
* ``prefer_king_captures``   among the captures of the highest value, one made by a king
  must be played when there is one (Frisian).

Under ``"must"``: a capture sequence goes on as long as a further jump exists (a piece may not stop
half way; a flying king that can go on capturing from some landing squares must land on
one of those), the moving piece leaves its start square at once (it may pass it again),
and captured pieces stay on the board until the move ends: they cannot be jumped twice
and block the way (the "Turkish strike").

A move is one :class:`~myriad.core.move.Move`: a ``MOVE`` action per hop (parts 0, 1, ...,
``piece`` being the piece standing on the landing square, so the last hop shows a
promotion), then a ``CAPTURE`` action per captured piece (part = the hop that took it).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Literal

from myriad.core.errors import GameDefinitionError
from myriad.core.move import CAPTURE, MOVE, Action, Move
from myriad.core.topology import Topology, opposite_directions

CapturePromotion = Literal["end", "stop", "continue"]
_END, _STOP, _CONTINUE = 0, 1, 2
_MODES = {"end": _END, "stop": _STOP, "continue": _CONTINUE}

# A ray is a tuple of positions walking away from a square in one direction.
Ray = tuple[int, ...]


class JumpCaptures:
    """Men and kings that step and capture by jumping, compiled into per-square tables.

    ``men[p]`` / ``kings[p]`` are the piece codes of player ``p``; ``promotion[p]`` the
    positions where ``p``'s men become kings.  ``piece_codes`` is the number of cell values
    (piece codes plus one for empty).
    """

    def __init__(self, topology: Topology, *, men: Sequence[int], kings: Sequence[int],
                 promotion: Sequence[Collection[int]], piece_codes: int,
                 forward: Sequence[str] = ("nw", "ne"),
                 directions: Sequence[str] = ("nw", "ne", "sw", "se"),
                 men_capture_backwards: bool = False, flying_kings: bool = False,
                 compulsory: bool = True, maximum_capture: bool = False,
                 capture_promotion: CapturePromotion = "end",
                 merge_duplicate_routes: bool = True, continue_capture: str = "must",
                 man_capture_directions: Sequence[str] | None = None,
                 king_directions: Sequence[str] | None = None,
                 king_capture_directions: Sequence[str] | None = None,
                 remove_at_once: bool = False, turn_back: bool = True,
                 capture_values: tuple[int, int] | None = None,
                 prefer_king_captures: bool = False) -> None:
        players = len(men)
        if continue_capture not in ("must", "may", "no"):
            raise GameDefinitionError(
                f"jump captures: continue_capture must be must, may or no, not {continue_capture!r}")
        self.continue_capture = continue_capture
        if len(kings) != players or len(promotion) != players:
            raise GameDefinitionError("jump captures: one man, one king and one promotion zone per player")
        if capture_promotion not in _MODES:
            raise GameDefinitionError(
                f"jump captures: capture_promotion must be one of {', '.join(_MODES)}, not {capture_promotion!r}")
        king_dirs = tuple(king_directions or directions)
        king_capture_dirs = tuple(king_capture_directions or directions)
        for d in (*forward, *directions, *king_dirs, *king_capture_dirs, *(man_capture_directions or ())):
            topology.direction(d)
        self.remove_at_once = remove_at_once
        self.turn_back = turn_back
        self.capture_values = capture_values
        self.prefer_king_captures = prefer_king_captures
        back = opposite_directions(topology)
        if not turn_back and any(back[topology.direction(d)] < 0 for d in (*king_capture_dirs, *directions)):
            raise GameDefinitionError("jump captures: turn_back=False needs every capture direction to have an opposite")
        self._back = back
        self.topology = topology
        self.men = tuple(men)
        self.kings = tuple(kings)
        self.flying_kings = flying_kings
        self.compulsory = compulsory
        self.maximum_capture = maximum_capture
        self.capture_promotion = capture_promotion
        self.merge_duplicate_routes = merge_duplicate_routes
        self.men_capture_backwards = men_capture_backwards
        self._mode = _MODES[capture_promotion]
        size = topology.size
        # The value marking a captured piece during the search: one past every piece code.
        self._dead = piece_codes
        owner_of = [-1] * (piece_codes + 1)
        for p in range(players):
            owner_of[men[p]] = owner_of[kings[p]] = p
        self._enemy = tuple(tuple(o not in (-1, p) for o in owner_of) for p in range(players))
        self._promo = tuple(tuple(pos in zone for pos in range(size)) for zone in promotion)

        def rays(player: int, dirs: Sequence[str], limit: int | None) -> tuple[tuple[Ray, ...], ...]:
            return tuple(tuple(r for r in (topology.ray(pos, d, player, limit) for d in dirs) if r)
                         for pos in range(size))

        def jump_rays(player: int, dirs: Sequence[str], limit: int | None) -> tuple[tuple[tuple[int, Ray], ...], ...]:
            # (direction as seen on the board, ray) pairs; rays shorter than two squares
            # leave no room to jump.
            seen = [topology.player_dirs[player][topology.direction(d)] for d in dirs]
            return tuple(tuple((seen[k], r) for k, r in ((k, topology.ray(pos, d, player, limit))
                                                        for k, d in enumerate(dirs)) if len(r) >= 2)
                         for pos in range(size))

        king_reach = None if flying_kings else 2
        men_jump_dirs = tuple(man_capture_directions) if man_capture_directions else (
            tuple(directions) if men_capture_backwards else tuple(forward))
        # Capture rays: a man (or short king) jumps the neighbour to the square behind it
        # (rays cut to two squares: (over, land) pairs); a flying king scans the whole ray.
        self._man_jumps = tuple(jump_rays(p, men_jump_dirs, 2) for p in range(players))
        self._king_hops = tuple(jump_rays(p, king_capture_dirs, king_reach) for p in range(players))
        # The same rays without their directions (read by the hunt games' evaluation).
        self._king_jumps = tuple(tuple(tuple(r for _d, r in per_pos) for per_pos in per_player)
                                 for per_player in self._king_hops)
        # Quiet moves, built once: per square, per direction, (target, move) pairs in order.
        self._man_steps = tuple(
            tuple(tuple((r[0], self._step_move(pos, r[0], men[p], kings[p], self._promo[p])) for r in pos_rays)
                  for pos, pos_rays in enumerate(rays(p, forward, 1)))
            for p in range(players))
        self._king_slides = tuple(
            tuple(tuple(tuple((t, Move((Action(MOVE, pos, t, kings[p], 0),))) for t in r) for r in pos_rays)
                  for pos, pos_rays in enumerate(rays(p, king_dirs, None if flying_kings else 1)))
            for p in range(players))

    @staticmethod
    def _step_move(frm: int, to: int, man: int, king: int, promo: Sequence[bool]) -> Move:
        return Move((Action(MOVE, frm, to, king if promo[to] else man, 0),))

    # -- enumeration ---------------------------------------------------------------------------

    def moves(self, cells: Sequence[int], player: int) -> list[Move]:
        """Every legal move of ``player`` on ``cells``."""
        man, king = self.men[player], self.kings[player]
        men = [pos for pos, v in enumerate(cells) if v == man]
        kings = [pos for pos, v in enumerate(cells) if v == king] if king in cells else []
        captures = self._captures(cells, player, men, kings)
        if captures and self.compulsory:
            return captures
        return captures + self._quiet(cells, player, men, kings)

    def captures(self, cells: Sequence[int], player: int, maximum: bool = True) -> list[Move]:
        """Every capture of ``player`` (after the maximum-capture rule, unless ``maximum`` is
        False, and the merging of duplicate routes)."""
        man, king = self.men[player], self.kings[player]
        return self._captures(cells, player, [pos for pos, v in enumerate(cells) if v == man],
                              [pos for pos, v in enumerate(cells) if v == king], maximum)

    def breaches(self, cells: Sequence[int], player: int) -> list[tuple[Move, str]]:
        """The moves that only the capture rules forbid ``player`` here, each with the rule
        in words: every quiet move while a capture is compulsory, and (under the majority
        rule) every capture that takes less than the most."""
        captures = self.captures(cells, player)
        if not captures:
            return []
        names = self.topology.names
        out: list[tuple[Move, str]] = []
        if self.compulsory:
            takers = ", ".join(names[p] for p in sorted({m.frm for m in captures}))
            why = f"a capture is compulsory (the pieces that can take: {takers})"
            out.extend((m, why) for m in self.quiet_moves(cells, player))
        if self.maximum_capture:
            allowed = set(captures)
            most = max(len(m.captures) for m in captures)
            why = (f"the majority rule: a capture must take the most pieces ({most})" if self.capture_values is None
                   else "the majority rule: a capture must take the most (kings count more than men)")
            out.extend((m, why) for m in self.captures(cells, player, maximum=False) if m not in allowed)
        return out

    def quiet_moves(self, cells: Sequence[int], player: int) -> list[Move]:
        """Non-capturing moves: men step forward, kings step (or slide, when flying)."""
        man, king = self.men[player], self.kings[player]
        return self._quiet(cells, player, [pos for pos, v in enumerate(cells) if v == man],
                           [pos for pos, v in enumerate(cells) if v == king])

    def _quiet(self, cells: Sequence[int], player: int, men: list[int], kings: list[int]) -> list[Move]:
        man_steps, king_slides = self._man_steps[player], self._king_slides[player]
        out: list[Move] = []
        for pos in men:
            for to, move in man_steps[pos]:
                if not cells[to]:
                    out.append(move)
        for pos in kings:
            for ray in king_slides[pos]:
                for to, move in ray:
                    if cells[to]:
                        break
                    out.append(move)
        return out

    def _captures(self, cells: Sequence[int], player: int, men: list[int], kings: list[int],
                  maximum: bool = True) -> list[Move]:
        enemy = self._enemy[player]
        routes: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        board: list[int] | None = None
        man_jumps = self._man_jumps[player]
        for pos in men:
            for _d, (over, land) in man_jumps[pos]:
                if enemy[cells[over]] and not cells[land]:
                    break
            else:
                continue
            if board is None:
                board = list(cells)
            board[pos] = 0
            self._search(board, player, pos, True, routes)
            board[pos] = cells[pos]
        king_jumps = self._king_hops[player]
        far = self.flying_kings
        for pos in kings:
            if not self._may_jump(cells, king_jumps[pos], enemy, far):
                continue
            if board is None:
                board = list(cells)
            board[pos] = 0
            self._search(board, player, pos, False, routes)
            board[pos] = cells[pos]
        if not routes:
            return []
        if self.maximum_capture and maximum:
            if self.capture_values is None:
                most = max(len(caps) for _, caps in routes)
                routes = [r for r in routes if len(r[1]) == most]
            else:
                man_value, king_value = self.capture_values
                kings_all = set(self.kings)
                values = [sum(king_value if cells[c] in kings_all else man_value for c in caps)
                          for _, caps in routes]
                best = max(values)
                routes = [r for r, v in zip(routes, values) if v == best]
        if self.prefer_king_captures:
            by_king = [r for r in routes if cells[r[0][0]] == self.kings[player]]
            if by_king:
                routes = by_king
        return self._build(cells, player, routes)

    @staticmethod
    def _may_jump(cells: Sequence[int], jumps: tuple[tuple[int, Ray], ...], enemy: Sequence[bool], far: bool) -> bool:
        """Whether any first jump exists from the square whose capture rays are ``jumps``."""
        for _d, ray in jumps:
            n = len(ray)
            i = 0
            if far:
                while i < n and not cells[ray[i]]:
                    i += 1
            if i + 1 < n and enemy[cells[ray[i]]] and not cells[ray[i + 1]]:
                return True
        return False

    def _search(self, board: list[int], player: int, start: int, is_man: bool,
                routes: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> None:
        """Add every complete capture route of the piece lifted from ``start`` to ``routes``."""
        enemy = self._enemy[player]
        promo = self._promo[player]
        dead = self._dead
        mode = self._mode
        man_jumps, king_jumps = self._man_jumps[player], self._king_hops[player]
        flying = self.flying_kings
        chain, may_stop = self.continue_capture != "no", self.continue_capture == "may"
        path = [start]
        caps: list[int] = []
        back = self._back
        no_turn_back = not self.turn_back
        gone = 0 if self.remove_at_once else dead

        def extend(sq: int, jumps: tuple[tuple[tuple[int, Ray], ...], ...], far: bool, man: bool,
                   came: int) -> bool:
            # Try every jump from ``sq``; record the routes that cannot go on; report whether
            # any jump existed.  ``came``: the direction of the jump that led here (-1: none).
            found = False
            for d, ray in jumps[sq]:
                if no_turn_back and came >= 0 and d == back[came]:
                    continue
                n = len(ray)
                i = 0
                if far:
                    while i < n and not board[ray[i]]:
                        i += 1
                if i + 1 >= n:
                    continue
                over = ray[i]
                victim = board[over]
                if not enemy[victim] or board[ray[i + 1]]:
                    continue
                found = True
                board[over] = gone
                caps.append(over)
                went_on = False
                j = i + 1
                while j < n and not board[ray[j]]:
                    land = ray[j]
                    path.append(land)
                    if may_stop:
                        routes.append((tuple(path), tuple(caps)))
                    if not chain:
                        pass
                    elif man and promo[land] and mode != _END:
                        if mode == _CONTINUE and extend(land, king_jumps, flying, False, d):
                            went_on = True
                    elif extend(land, jumps, far, man, d):
                        went_on = True
                    path.pop()
                    j += 1
                if not went_on and not may_stop:
                    # No landing square leads on: each one ends a route.
                    caps_t = tuple(caps)
                    for k in range(i + 1, j):
                        path.append(ray[k])
                        routes.append((tuple(path), caps_t))
                        path.pop()
                caps.pop()
                board[over] = victim
            return found

        if is_man:
            extend(start, man_jumps, False, True, -1)
        else:
            extend(start, king_jumps, flying, False, -1)
        del extend  # the recursive closure refers to itself: a cycle left for the collector

    def _build(self, cells: Sequence[int], player: int,
               routes: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> list[Move]:
        """Turn capture routes into moves, merging duplicates when the rules say so."""
        man, king = self.men[player], self.kings[player]
        promo = self._promo[player]
        promote_at_end = self._mode == _END
        merge = self.merge_duplicate_routes and len(routes) > 1
        seen: set[tuple[int, int, int, frozenset[int]]] = set()
        out: list[Move] = []
        new = tuple.__new__
        for path, caps in routes:
            mover = cells[path[0]]
            hops = len(path) - 1
            pieces = [mover] * hops
            if mover == man:
                if promote_at_end:
                    if promo[path[-1]]:
                        pieces[-1] = king
                else:
                    for h in range(hops):
                        if promo[path[h + 1]]:
                            pieces[h:] = [king] * (hops - h)
                            break
            if merge and hops > 1:
                key = (path[0], path[-1], pieces[-1], frozenset(caps))
                if key in seen:
                    continue
                seen.add(key)
            # tuple.__new__ builds the same Action as Action(...), several times faster.
            actions = [new(Action, (MOVE, path[h], path[h + 1], pieces[h], h)) for h in range(hops)]
            actions.extend(new(Action, (CAPTURE, c, c, cells[c], h)) for h, c in enumerate(caps))
            out.append(Move(actions))
        return out
