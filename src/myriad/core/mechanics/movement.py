"""Piece movement: step, slide, leap, lame leap, ride, hop, pawn moves, castling,
promotion, attacks.

A piece's movement is a tuple of rules declared as data::

    KNIGHT = (leap(*KNIGHT_PATHS),)
    ROOK = (slide("n", "s", "e", "w"),)
    PAWN = (pawn(),)
    HORSE = (lame_leap(("n", "ne"), ("n", "nw"), ...),)    # blocked at the leg (xiangqi)
    CANNON = (slide(*ORTHOGONAL_STEPS, mode=MOVE_ONLY), hop(*ORTHOGONAL_STEPS, mode=CAPTURE_ONLY))
    NIGHTRIDER = (ride(*KNIGHT_PATHS),)                     # knight leaps repeated in a line

:mod:`myriad.core.mechanics.betza` writes these rules from Betza notation (``nN``, ``mRcpR``).

:class:`MoveTables` compiles the rules of every (kind, owner) against a topology into ray
tables: a ray is the tuple of positions a piece may travel through in one line, and a leap
is a ray of length one.  Generation then runs one loop over rays for every kind of piece;
attack detection runs the same rays backwards from the attacked square.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from myriad.core.errors import GameDefinitionError
from myriad.core.move import CAPTURE, MOVE, Move
from myriad.core.pieces import PieceSet
from myriad.core.topology import NO_LINK, Topology, opposite_directions

#: What a ray may be used for: moving to empty cells, capturing, or both.
BOTH, MOVE_ONLY, CAPTURE_ONLY = 0, 1, 2

KNIGHT_PATHS: tuple[tuple[str, ...], ...] = (
    ("n", "n", "e"), ("n", "n", "w"), ("s", "s", "e"), ("s", "s", "w"),
    ("e", "e", "n"), ("e", "e", "s"), ("w", "w", "n"), ("w", "w", "s"))
ALFIL_PATHS: tuple[tuple[str, ...], ...] = (("ne", "ne"), ("nw", "nw"), ("se", "se"), ("sw", "sw"))
ORTHOGONAL_STEPS = ("n", "s", "e", "w")
DIAGONAL_STEPS = ("ne", "nw", "se", "sw")
ALL_DIRECTIONS = ORTHOGONAL_STEPS + DIAGONAL_STEPS


@dataclass(frozen=True)
class Slide:
    """Move along each direction over empty cells, up to ``limit`` steps (None: no limit).

    ``mode`` says whether the piece may move to empty cells, capture the first enemy
    piece met, or both.  ``zone`` restricts the rule to pieces standing in that zone
    (a pawn's double step from its start rank).  ``within`` keeps the whole move on the
    squares of that zone: it starts there and stops at the zone's edge (steps and slides
    along janggi's palace diagonals, a zone of the points on them).
    """

    directions: tuple[str, ...]
    limit: int | None = None
    mode: int = BOTH
    zone: str | None = None
    within: str | None = None


@dataclass(frozen=True)
class Leap:
    """Jump to the end of each path of directions, whatever stands between."""

    paths: tuple[tuple[str, ...], ...]
    mode: int = BOTH


@dataclass(frozen=True)
class EnPassant:
    """Capture, in the given directions, a piece that has just passed the target square
    with a double step (the game keeps the passed square in a flag)."""

    directions: tuple[str, ...]


@dataclass(frozen=True)
class DoubleStep:
    """A two-step move straight ahead from ``zone`` over two empty cells, that leaves
    the square passed over open to :class:`EnPassant`."""

    direction: str
    zone: str


@dataclass(frozen=True)
class LameLeap:
    """Leap to the end of each path of directions, but only when every square passed on
    the way is empty: the xiangqi horse (blocked at its leg) and elephant (at its eye)."""

    paths: tuple[tuple[str, ...], ...]
    mode: int = BOTH


@dataclass(frozen=True)
class Ride:
    """Repeat the leap of each path in a straight line over empty squares, up to ``limit``
    leaps (None: no limit), taking the first enemy piece met: the nightrider."""

    paths: tuple[tuple[str, ...], ...]
    limit: int | None = None
    mode: int = BOTH


@dataclass(frozen=True)
class Hop:
    """Slide along each direction to a piece (the screen), jump over it, then go on over
    empty squares (moves, if ``mode`` allows) to the first piece beyond (a capture, if
    ``mode`` allows and it is an enemy): the xiangqi cannon captures with
    ``hop(..., mode=CAPTURE_ONLY)``, the janggi cannon moves and captures with ``hop(...)``.

    ``not_over``: kinds (of either player) that may not be the screen: no move in that
    direction then; ``not_taking``: kinds it may not capture (the janggi cannon neither
    jumps over nor takes a cannon).  A piece's hops share these: the kinds listed on any of
    its hops count for all.  ``within``: as for :class:`Slide`, the whole hop stays on the
    squares of that zone (the janggi cannon along a palace diagonal)."""

    directions: tuple[str, ...]
    mode: int = BOTH
    not_over: tuple[str, ...] = ()
    not_taking: tuple[str, ...] = ()
    within: str | None = None


Rule = Slide | Leap | EnPassant | DoubleStep | LameLeap | Ride | Hop


def slide(*directions: str, limit: int | None = None, mode: int = BOTH) -> Slide:
    """A rider: rook ``slide("n","s","e","w")``, bishop ``slide("ne","nw","se","sw")``."""
    return Slide(tuple(directions), limit, mode)


def step(*directions: str, mode: int = BOTH) -> Slide:
    """One step: king ``step(*ALL_DIRECTIONS)``, ferz ``step("ne","nw","se","sw")``."""
    return Slide(tuple(directions), 1, mode)


def leap(*paths: Sequence[str], mode: int = BOTH) -> Leap:
    """A leaper: knight ``leap(*KNIGHT_PATHS)``."""
    return Leap(tuple(tuple(p) for p in paths), mode)


def lame_leap(*paths: Sequence[str], mode: int = BOTH) -> LameLeap:
    """A leaper blocked by any piece on the squares it passes: xiangqi horse
    ``lame_leap(("n", "ne"), ...)`` (an orthogonal step, then a diagonal one)."""
    return LameLeap(tuple(tuple(p) for p in paths), mode)


def ride(*paths: Sequence[str], limit: int | None = None, mode: int = BOTH) -> Ride:
    """A rider along leaps: nightrider ``ride(*KNIGHT_PATHS)``."""
    return Ride(tuple(tuple(p) for p in paths), limit, mode)


def hop(*directions: str, mode: int = BOTH) -> Hop:
    """A hopper over one screen: xiangqi cannon capture ``hop(*ORTHOGONAL_STEPS, mode=CAPTURE_ONLY)``."""
    return Hop(tuple(directions), mode)


def pawn(forward: str = "n", captures: Sequence[str] = ("ne", "nw"),
         double_step_zone: str | None = None, en_passant: bool = False) -> tuple[Rule, ...]:
    """A pawn: one step forward to an empty cell, captures diagonally forward, optionally a
    double step from ``double_step_zone`` and the en-passant capture."""
    rules: list[Rule] = [step(forward, mode=MOVE_ONLY), step(*captures, mode=CAPTURE_ONLY)]
    if double_step_zone:
        rules.append(DoubleStep(forward, double_step_zone))
    if en_passant:
        rules.append(EnPassant(tuple(captures)))
    return tuple(rules)


@dataclass(frozen=True)
class Castling:
    """The king moves ``king_from`` -> ``king_to`` and the rook ``rook_from`` -> ``rook_to``.

    Legal while right ``right`` (a bit of flag 0) is held, every square between king and
    rook is empty, and the king is not attacked on ``king_from``, on ``king_to`` or on any
    square between.  The right is lost when anything moves from or to either start square.
    """

    player: int
    king_from: str
    king_to: str
    rook_from: str
    rook_to: str
    right: int


@dataclass(frozen=True)
class Promotion:
    """Pieces of kind ``kind`` moving to a square of ``zone`` become one of ``choices``.

    ``mandatory=False`` also allows the move without promotion, except onto a square
    where the unpromoted piece would have no move left (a shogi pawn or lance on the last
    rank, a knight on the last two).  ``leaving=True`` also promotes a move that starts in
    the zone, wherever it ends (shogi).  ``limits`` caps the kinds a piece may become: a
    choice ``(kind, n)`` is offered only while fewer than ``n`` pieces of that kind and
    owner stand on the board (Grand chess: only to a piece already lost).  When several
    promotions cover a square, the first one counts.

    ``in_place=True`` makes the promotion a move of its own instead (sittuyin): a piece
    standing in the zone (anywhere, with ``last_anywhere``, when it is its side's last
    piece of its kind) becomes one of ``choices`` where it stands or on an empty square the
    new piece could move to; ``may_attack=False`` refuses such a move when the new piece
    attacks an enemy piece (a check among them), as Fairy-Stockfish plays sittuyin.
    """

    kind: str
    zone: str
    choices: tuple[str, ...]
    mandatory: bool = True
    limits: tuple[tuple[str, int], ...] = ()
    leaving: bool = False
    in_place: bool = False
    may_attack: bool = True
    last_anywhere: bool = False


def _clip(ray: tuple[int, ...], inside: frozenset[int] | None) -> tuple[int, ...]:
    """The start of ``ray`` up to its first square outside ``inside`` (all of it for None)."""
    if inside is None:
        return ray
    end = next((i for i, t in enumerate(ray) if t not in inside), len(ray))
    return ray[:end]


class MoveTables:
    """The movement rules of every piece code, compiled against a topology.

    * ``rays[code][pos]``: tuple of ``(ray, mode)`` for slides, steps, leaps and rides;
    * ``lame[code][pos]``: ``(passed, target, mode)`` for lame leaps (``passed`` must be empty);
    * ``hops[code][pos]``: ``(ray, mode)`` for hoppers (a screen, then moves beyond it);
      ``not_over[code]`` and ``not_taking[code]``: the codes its hops may not jump over or take;
    * ``double_steps[code][pos]``: ``(passed, target)`` pairs;
    * ``en_passant[code][pos]``: squares to which an en-passant capture may go;
    * ``promotion[code]``: ``(squares where it must promote, codes it may become)`` or None;
      ``promote_at[code]``: square -> the codes a move there may leave (its own code
      too where promotion is optional) or None; ``promote_from[code]``: squares from which
      every move promotes (``Promotion.leaving``), using ``promote_anywhere[code]``;
      ``limits[code]``: how many of ``code`` a promotion may bring onto the board at most
      (0: no limit);
    * ``dead[code]``: squares where ``code`` has no move at all (no drop there; no
      optional promotion leaves it there unpromoted);
    * ``lines[player][d]`` and ``reach[player][d]``: the attack ray from each square in
      direction ``d`` and, per distance, the codes of ``player`` that attack along it;
    * ``leap_origins[player]``: ``(origins[pos], codes)`` for leaping attackers;
    * ``simple[player]``: whether every attack of ``player`` is a slide, step or leap (then
      a piece shields its king only on a line, which :meth:`pinned` finds); else rides,
      lame leaps and hops are checked too, and move legality is tested move by move.
      Moves kept ``within`` a zone attack square by square (``lame_attacks``, ``hop_at``).
    """

    def __init__(self, topology: Topology, pieces: PieceSet, movement: Mapping[str, Sequence[Rule]],
                 promotions: Sequence[Promotion] = (), confined: Mapping[str, str] | None = None) -> None:
        self.topology = topology
        self.pieces = pieces
        size = topology.size
        players = pieces.players
        for kind in movement:
            pieces.code(kind, 0)  # validates the name
        confined = dict(confined or {})
        for kind in confined:
            pieces.code(kind, 0)
        self.opposite = opposite_directions(topology)
        self.rays: list[tuple[tuple[tuple[tuple[int, ...], int], ...], ...]] = [()] * pieces.count
        self.lame: list[tuple[tuple[tuple[tuple[int, ...], int, int], ...], ...]] = [()] * pieces.count
        self.hops: list[tuple[tuple[tuple[tuple[int, ...], int], ...], ...]] = [()] * pieces.count
        self.double_steps: list[tuple[tuple[tuple[int, int], ...], ...]] = [()] * pieces.count
        self.en_passant: list[tuple[tuple[int, ...], ...]] = [()] * pieces.count
        self._compile_promotions(promotions)
        ndirs = len(topology.directions)
        reach_sets: list[list[list[set[int]]]] = [
            [[set() for _ in range(size)] for _ in range(ndirs)] for _ in range(players)]
        leap_groups: list[dict[tuple[tuple[int, ...], ...], set[int]]] = [{} for _ in range(players)]
        ride_groups: list[dict[tuple[tuple[tuple[int, ...], ...], ...], set[int]]] = [{} for _ in range(players)]
        lame_attacks: list[list[dict[tuple[int, tuple[int, ...]], set[int]]]] = [
            [{} for _ in range(size)] for _ in range(players)]
        hop_groups: list[dict[int, set[int]]] = [{} for _ in range(players)]
        hop_at: list[list[dict[tuple[int, tuple[int, ...]], set[int]]]] = [
            [{} for _ in range(size)] for _ in range(players)]
        not_over: list[set[int]] = [set() for _ in range(pieces.count)]
        not_taking: list[set[int]] = [set() for _ in range(pieces.count)]
        self.extra_codes: set[int] = set()
        for code in range(1, pieces.count):
            kind = pieces.kind(code).name
            owner = pieces.owner_of[code]
            rays: list[list[tuple[tuple[int, ...], int]]] = [[] for _ in range(size)]
            lame: list[list[tuple[tuple[int, ...], int, int]]] = [[] for _ in range(size)]
            hops: list[list[tuple[tuple[int, ...], int]]] = [[] for _ in range(size)]
            doubles: list[list[tuple[int, int]]] = [[] for _ in range(size)]
            eps: list[list[int]] = [[] for _ in range(size)]
            for rule in movement.get(kind, ()):
                if isinstance(rule, Slide):
                    zone = topology.zone(rule.zone, owner) if rule.zone else None
                    inside = topology.zone(rule.within, owner) if rule.within else None
                    if inside is not None:  # starts in the zone too
                        zone = inside if zone is None else zone & inside
                    for dname in rule.directions:
                        d = topology.player_dirs[owner][topology.direction(dname)]
                        for pos in range(size):
                            if zone is not None and pos not in zone:
                                continue
                            ray = _clip(self._ray(pos, d, rule.limit), inside)
                            if ray:
                                rays[pos].append((ray, rule.mode))
                        if rule.mode != MOVE_ONLY and zone is None:
                            back = self._back(d)
                            for k in range((rule.limit or size)):
                                if k < size:
                                    reach_sets[owner][back][k].add(code)
                        elif rule.mode != MOVE_ONLY:  # from some squares only: attacks square by square
                            for pos in zone or ():
                                ray = _clip(self._ray(pos, d, rule.limit), inside)
                                for i, t in enumerate(ray):
                                    lame_attacks[owner][t].setdefault((pos, ray[:i]), set()).add(code)
                elif isinstance(rule, Leap):
                    origins = []
                    for pos in range(size):
                        targets = tuple(t for t in (topology.walk(pos, p, owner) for p in rule.paths)
                                        if t != NO_LINK)
                        rays[pos].extend(((t,), rule.mode) for t in targets)
                        back_paths = [tuple(self._back_name(n, owner) for n in reversed(p)) for p in rule.paths]
                        origins.append(tuple(t for t in (self._walk_abs(pos, bp) for bp in back_paths)
                                             if t != NO_LINK))
                    if rule.mode != MOVE_ONLY:
                        leap_groups[owner].setdefault(tuple(origins), set()).add(code)
                elif isinstance(rule, Ride):
                    back_rays = []
                    for pos in range(size):
                        for path in rule.paths:
                            ray = self._ride(pos, [topology.player_dirs[owner][topology.direction(n)] for n in path],
                                             rule.limit)
                            if ray:
                                rays[pos].append((ray, rule.mode))
                        back_rays.append(tuple(
                            self._ride(pos, [self._back_name(n, owner) for n in reversed(path)], rule.limit)
                            for path in rule.paths))
                    if rule.mode != MOVE_ONLY:
                        ride_groups[owner].setdefault(tuple(back_rays), set()).add(code)
                elif isinstance(rule, LameLeap):
                    self.extra_codes.add(code)
                    for pos in range(size):
                        for path in rule.paths:
                            squares = self._path(pos, [topology.player_dirs[owner][topology.direction(n)]
                                                       for n in path])
                            if squares:
                                passed, target = squares[:-1], squares[-1]
                                lame[pos].append((passed, target, rule.mode))
                                if rule.mode != MOVE_ONLY:
                                    lame_attacks[owner][target].setdefault((pos, passed), set()).add(code)
                elif isinstance(rule, Hop):
                    self.extra_codes.add(code)
                    inside = topology.zone(rule.within, owner) if rule.within else None
                    not_over[code].update(pieces.code(k, p) for k in rule.not_over for p in range(players))
                    not_taking[code].update(pieces.code(k, p) for k in rule.not_taking for p in range(players))
                    for dname in rule.directions:
                        d = topology.player_dirs[owner][topology.direction(dname)]
                        for pos in range(size):
                            if inside is not None and pos not in inside:
                                continue
                            ray = _clip(self._ray(pos, d, None), inside)
                            if len(ray) >= 2:
                                hops[pos].append((ray, rule.mode))
                                if inside is not None and rule.mode != MOVE_ONLY:  # attacks square by square
                                    for i in range(1, len(ray)):
                                        hop_at[owner][ray[i]].setdefault((pos, ray[:i]), set()).add(code)
                        if rule.mode != MOVE_ONLY and inside is None:
                            hop_groups[owner].setdefault(self._back(d), set()).add(code)
                elif isinstance(rule, DoubleStep):
                    d = topology.player_dirs[owner][topology.direction(rule.direction)]
                    for pos in topology.zone(rule.zone, owner):
                        ray = self._ray(pos, d, 2)
                        if len(ray) == 2:
                            doubles[pos].append((ray[0], ray[1]))
                elif isinstance(rule, EnPassant):
                    for dname in rule.directions:
                        d = topology.player_dirs[owner][topology.direction(dname)]
                        for pos in range(size):
                            t = topology.links[d][pos]
                            if t != NO_LINK:
                                eps[pos].append(t)
                else:
                    raise GameDefinitionError(f"{kind}: unknown movement rule {rule!r}")
            if kind in confined:
                self._confine(code, topology.zone(confined[kind], owner), rays, lame, hops, reach_sets[owner],
                              leap_groups[owner], ride_groups[owner], hop_groups[owner], lame_attacks[owner])
            self.rays[code] = tuple(tuple(r) for r in rays)
            self.lame[code] = tuple(tuple(r) for r in lame)
            self.hops[code] = tuple(tuple(r) for r in hops)
            self.double_steps[code] = tuple(tuple(r) for r in doubles)
            self.en_passant[code] = tuple(tuple(r) for r in eps)
        self.dead = [frozenset(pos for pos in range(size) if not (
            self.rays[code][pos] or self.lame[code][pos] or self.hops[code][pos] or self.double_steps[code][pos]
            or self.en_passant[code][pos])) if code else frozenset() for code in range(pieces.count)]
        self._no_dead_promotions()
        # Attack tables: per player, per direction, the ray from each square and which codes
        # attack from each distance along it.
        self.lines: list[list[tuple[tuple[int, ...], ...]]] = []
        self.reach: list[list[tuple[frozenset[int], ...]]] = []
        self.line_dirs: list[tuple[int, ...]] = []
        full_lines = [tuple(self._ray(pos, d, None) for pos in range(size)) for d in range(ndirs)]
        for owner in range(players):
            used = tuple(d for d in range(ndirs) if reach_sets[owner][d][0])
            reach = [tuple(frozenset(s) for s in reach_sets[owner][d]) for d in range(ndirs)]
            lines = list(full_lines)
            for d in used:  # trim rays to the longest reach in that direction
                longest = max(k + 1 for k in range(size) if reach[d][k])
                lines[d] = tuple(r[:longest] for r in lines[d])
            self.lines.append(lines)
            self.reach.append(reach)
            self.line_dirs.append(used)
        self.leap_origins = [tuple((origins, frozenset(codes)) for origins, codes in groups.items())
                             for groups in leap_groups]
        # Attacks that a piece on a line does not simply block: rides, lame leaps, hops.
        self.ride_attacks = [tuple((back, frozenset(codes)) for back, codes in groups.items())
                             for groups in ride_groups]
        self.lame_attacks = [tuple(tuple((origin, passed, frozenset(codes))
                                         for (origin, passed), codes in at[pos].items() if codes)
                                   for pos in range(size))
                             for at in lame_attacks]
        self.hop_attacks = [tuple((full_lines[d], frozenset(codes)) for d, codes in groups.items())
                            for groups in hop_groups]
        #: Hops kept within a zone, attacks listed square by square: ``hop_at[player][pos]``
        #: is a tuple of ``(origin, between, codes)`` (one screen among ``between``).
        self.hop_at = [tuple(tuple((origin, between, frozenset(codes))
                                   for (origin, between), codes in at[pos].items())
                             for pos in range(size))
                       for at in hop_at]
        #: Per code: the codes its hops may not jump over, and those they may not take.
        self.not_over = tuple(frozenset(s) for s in not_over)
        self.not_taking = tuple(frozenset(s) for s in not_taking)
        self.hop_barred = any(self.not_over) or any(self.not_taking)
        self.simple = tuple(not (self.ride_attacks[p] or hop_groups[p] or any(self.lame_attacks[p])
                                 or any(self.hop_at[p]))
                            for p in range(players))

    def _confine(self, code: int, zone: Collection[int], rays: list[list[tuple[tuple[int, ...], int]]],
                 lame: list[list[tuple[tuple[int, ...], int, int]]], hops: list[list[tuple[tuple[int, ...], int]]],
                 reach_sets: list[list[set[int]]], leap_groups: Mapping[Any, set[int]],
                 ride_groups: Mapping[Any, set[int]], hop_groups: Mapping[int, set[int]],
                 lame_attacks: list[dict[tuple[int, tuple[int, ...]], set[int]]]) -> None:
        """Keep the moves of ``code`` inside ``zone`` (a xiangqi palace, one side of the river):
        rays stop at its edge, leaps out of it go; its attacks are listed square by square
        (as lame leaps are), since a line table cannot say where the zone ends."""
        inside = frozenset(zone)
        if any(hops[pos] for pos in range(len(hops))):
            raise GameDefinitionError(f"{self.pieces.kind(code).name}: a hopper cannot be confined to a zone")
        for sets in reach_sets:
            for s in sets:
                s.discard(code)
        for groups in (leap_groups, ride_groups, hop_groups):
            for s in groups.values():
                s.discard(code)
        for at in lame_attacks:
            for s in at.values():
                s.discard(code)
        for pos in range(len(rays)):
            if pos not in inside:  # never stands there: no moves
                rays[pos], lame[pos] = [], []
                continue
            kept = []
            for ray, mode in rays[pos]:
                end = next((i for i, t in enumerate(ray) if t not in inside), len(ray))
                if end:
                    kept.append((ray[:end], mode))
            rays[pos] = kept
            lame[pos] = [(passed, t, mode) for passed, t, mode in lame[pos] if t in inside]
            for ray, mode in rays[pos]:
                if mode != MOVE_ONLY:
                    for i, t in enumerate(ray):
                        lame_attacks[t].setdefault((pos, ray[:i]), set()).add(code)
            for passed, t, mode in lame[pos]:
                if mode != MOVE_ONLY:
                    lame_attacks[t].setdefault((pos, passed), set()).add(code)

    def _compile_promotions(self, promotions: Sequence[Promotion]) -> None:
        pieces, topology = self.pieces, self.topology
        self.promotion: list[tuple[frozenset[int], tuple[int, ...]] | None] = [None] * pieces.count
        self.promote_at: list[dict[int, tuple[int, ...]] | None] = [None] * pieces.count
        self.promote_from: list[frozenset[int]] = [frozenset()] * pieces.count
        self.promote_anywhere: list[dict[int, tuple[int, ...]] | None] = [None] * pieces.count
        self.limits: list[int] = [0] * pieces.count
        #: per code, its in-place promotion: (zone, codes it may become, may check, last anywhere).
        self.in_place: list[tuple[frozenset[int], tuple[int, ...], bool, bool] | None] = [None] * pieces.count
        for promo in promotions:
            for owner in range(pieces.players):
                code = pieces.code(promo.kind, owner)
                choices = tuple(pieces.code(c, owner) for c in promo.choices)
                for limited, most in promo.limits:
                    self.limits[pieces.code(limited, owner)] = most
                if promo.in_place:
                    self.in_place[code] = (frozenset(topology.zone(promo.zone, owner)), choices, promo.may_attack,
                                           promo.last_anywhere)
                    must, kinds = self.promotion[code] or (frozenset(), ())
                    self.promotion[code] = (must, kinds + tuple(c for c in choices if c not in kinds))
                    continue
                at = self.promote_at[code] or {}
                must, kinds = self.promotion[code] or (frozenset(), ())
                zone = topology.zone(promo.zone, owner)
                for sq in zone:
                    if sq not in at:
                        at[sq] = choices if promo.mandatory else choices + (code,)
                        if promo.mandatory:
                            must |= {sq}
                self.promote_at[code] = at
                self.promotion[code] = (must, kinds + tuple(c for c in choices if c not in kinds))
                if promo.leaving:
                    self.promote_from[code] = self.promote_from[code] | frozenset(zone)
                    anywhere = self.promote_anywhere[code] or {}
                    for sq in range(topology.size):
                        anywhere.setdefault(sq, choices if promo.mandatory else choices + (code,))
                    self.promote_anywhere[code] = anywhere
        self.limited = any(self.limits)

    def _no_dead_promotions(self) -> None:
        """Where a promotion is optional, staying unpromoted on a square with no move left
        is not offered (the promotion is forced there)."""
        for code in range(1, self.pieces.count):
            at, anywhere, dead = self.promote_at[code], self.promote_anywhere[code], self.dead[code]
            if at is None or not dead:
                continue
            for table in (at, anywhere):
                for sq, choices in (table or {}).items():
                    if sq in dead and code in choices and len(choices) > 1:
                        table[sq] = tuple(c for c in choices if c != code)  # type: ignore[index]
            must, kinds = self.promotion[code]  # type: ignore[misc]
            self.promotion[code] = (must | frozenset(sq for sq in at if sq in dead), kinds)

    def _ray(self, pos: int, d: int, limit: int | None) -> tuple[int, ...]:
        out: list[int] = []
        links = self.topology.links[d]
        while limit is None or len(out) < limit:
            pos = links[pos]
            if pos == NO_LINK:
                break
            out.append(pos)
        return tuple(out)

    def _path(self, pos: int, dirs: Sequence[int]) -> tuple[int, ...]:
        """The squares met walking ``dirs`` from ``pos`` (empty when a link is missing)."""
        out = []
        for d in dirs:
            pos = self.topology.links[d][pos]
            if pos == NO_LINK:
                return ()
            out.append(pos)
        return tuple(out)

    def _ride(self, pos: int, dirs: Sequence[int], limit: int | None) -> tuple[int, ...]:
        """The end squares of repeated leaps along ``dirs`` from ``pos``."""
        out: list[int] = []
        while limit is None or len(out) < limit:
            pos = self._walk_abs(pos, dirs)
            if pos == NO_LINK:
                break
            out.append(pos)
        return tuple(out)

    def _back(self, d: int) -> int:
        back = self.opposite[d]
        if back < 0:
            raise GameDefinitionError(f"direction {self.topology.directions[d]!r} has no opposite")
        return back

    def _back_name(self, dname: str, owner: int) -> int:
        return self._back(self.topology.player_dirs[owner][self.topology.direction(dname)])

    def _walk_abs(self, pos: int, dirs: Sequence[int]) -> int:
        for d in dirs:
            pos = self.topology.links[d][pos]
            if pos == NO_LINK:
                return NO_LINK
        return pos

    # -- run time ----------------------------------------------------------------------------

    def attacked(self, cells: Sequence[int], pos: int, by: int) -> bool:
        """Whether any piece of player ``by`` attacks ``pos``."""
        lines, reach = self.lines[by], self.reach[by]
        for d in self.line_dirs[by]:
            codes = reach[d]
            for k, t in enumerate(lines[d][pos]):
                c = cells[t]
                if c:
                    if c in codes[k]:
                        return True
                    break
        for origins, leapers in self.leap_origins[by]:
            for t in origins[pos]:
                if cells[t] in leapers:
                    return True
        if self.simple[by]:
            return False
        return self._attacked_otherwise(cells, pos, by)

    def _attacked_otherwise(self, cells: Sequence[int], pos: int, by: int) -> bool:
        """Attacks by rides, lame leaps and hops."""
        for back_rays, codes in self.ride_attacks[by]:
            for ray in back_rays[pos]:
                for t in ray:
                    c = cells[t]
                    if c:
                        if c in codes:
                            return True
                        break
        for origin, passed, codes in self.lame_attacks[by][pos]:
            if cells[origin] in codes and not any(cells[q] for q in passed):
                return True
        if self.hop_barred:
            return self._hop_attacked(cells, pos, by)
        for lines, codes in self.hop_attacks[by]:
            screened = False
            for t in lines[pos]:
                c = cells[t]
                if c:
                    if screened:
                        if c in codes:
                            return True
                        break
                    screened = True
        for origin, between, codes in self.hop_at[by][pos]:
            if cells[origin] in codes and sum(1 for q in between if cells[q]) == 1:
                return True
        return False

    def _hop_attacked(self, cells: Sequence[int], pos: int, by: int) -> bool:
        """Attacks by hops when some kinds may not be jumped over or taken."""
        target = cells[pos]
        not_over, not_taking = self.not_over, self.not_taking
        for lines, codes in self.hop_attacks[by]:
            screen = 0
            for t in lines[pos]:
                c = cells[t]
                if c:
                    if screen:
                        if c in codes and screen not in not_over[c] and target not in not_taking[c]:
                            return True
                        break
                    screen = c
        for origin, between, codes in self.hop_at[by][pos]:
            c = cells[origin]
            if c in codes and target not in not_taking[c]:
                screens = [cells[q] for q in between if cells[q]]
                if len(screens) == 1 and screens[0] not in not_over[c]:
                    return True
        return False

    def attacked_by(self, cells: Sequence[int], target: int, frm: int) -> bool:
        """Whether the piece on ``frm`` attacks ``target``."""
        code = cells[frm]
        for ray, mode in self.rays[code][frm]:
            if mode != MOVE_ONLY:
                for t in ray:
                    if t == target:
                        return True
                    if cells[t]:
                        break
        for passed, t, mode in self.lame[code][frm]:
            if t == target and mode != MOVE_ONLY and not any(cells[q] for q in passed):
                return True
        for ray, mode in self.hops[code][frm]:
            if mode != MOVE_ONLY:
                screened = False
                for t in ray:
                    if screened and t == target:
                        return True
                    if cells[t]:
                        if screened:
                            break
                        screened = True
        return False

    def pinned(self, cells: Sequence[int], king: int, by: int) -> set[int]:
        """Squares of pieces that shield ``king`` from a line attack by player ``by``
        (complete only when ``simple[by]``)."""
        owner_of = self.pieces.owner_of
        lines, reach = self.lines[by], self.reach[by]
        out = set()
        for d in self.line_dirs[by]:
            codes = reach[d]
            shield = -1
            for k, t in enumerate(lines[d][king]):
                c = cells[t]
                if c:
                    if shield < 0:
                        if owner_of[c] == by:
                            break
                        shield = t
                    else:
                        if c in codes[k]:
                            out.add(shield)
                        break
        return out

    def pseudo_moves(self, cells: Sequence[int], player: int, ep_square: int = -1,
                     noisy_only: bool = False) -> list[Move]:
        """Every move of ``player`` by the compiled rules, ignoring royal safety
        (``noisy_only``: captures and promotions only)."""
        owner_of = self.pieces.owner_of
        rays_of, promote_at, promote_from = self.rays, self.promote_at, self.promote_from
        out: list[Move] = []
        for pos, code in enumerate(cells):
            if not code or owner_of[code] != player:
                continue
            promo = self.promote_anywhere[code] if pos in promote_from[code] else promote_at[code]
            for ray, mode in rays_of[code][pos]:
                for t in ray:
                    c = cells[t]
                    if c == 0:
                        if mode != CAPTURE_ONLY:
                            if promo is not None and t in promo:
                                out.extend(Move(((MOVE, pos, t, p, 0),))
                                           for p in self._choices(cells, promo[t], code, noisy_only))
                            elif not noisy_only:
                                out.append(Move(((MOVE, pos, t, code, 0),)))
                        continue
                    if mode != MOVE_ONLY and owner_of[c] != player:
                        if promo is not None and t in promo:
                            out.extend(Move(((CAPTURE, t, t, c, 0), (MOVE, pos, t, p, 0)))
                                       for p in self._choices(cells, promo[t], code, False))
                        else:
                            out.append(Move(((CAPTURE, t, t, c, 0), (MOVE, pos, t, code, 0))))
                    break
            for passed, t in () if noisy_only else self.double_steps[code][pos]:
                if cells[passed] == 0 and cells[t] == 0:
                    out.append(Move(((MOVE, pos, t, code, 0),)))
            if ep_square >= 0:
                for t in self.en_passant[code][pos]:
                    if t == ep_square and cells[t] == 0:
                        victim = self._ep_victim(pos, t)
                        c = cells[victim] if victim >= 0 else 0
                        if c and owner_of[c] != player:
                            out.append(Move(((CAPTURE, victim, victim, c, 0), (MOVE, pos, t, code, 0))))
        if self.extra_codes:
            self._other_moves(cells, player, noisy_only, out)
        return out

    def _choices(self, cells: Sequence[int], choices: tuple[int, ...], code: int,
                 noisy_only: bool) -> tuple[int, ...]:
        """The codes a move into a promotion square may leave: within the limits, and
        without the unpromoted piece when only noisy moves are wanted."""
        if self.limited:
            limits = self.limits
            choices = tuple(p for p in choices if not limits[p] or cells.count(p) < limits[p])
        if noisy_only:
            choices = tuple(p for p in choices if p != code)
        return choices

    def _other_moves(self, cells: Sequence[int], player: int, noisy_only: bool, out: list[Move]) -> None:
        """Moves of lame leaps and hops."""
        owner_of, promote_at = self.pieces.owner_of, self.promote_at
        for pos, code in enumerate(cells):
            if code not in self.extra_codes or owner_of[code] != player:
                continue
            promo = self.promote_anywhere[code] if pos in self.promote_from[code] else promote_at[code]
            targets: list[tuple[int, int]] = []  # (target, mode)
            for passed, t, mode in self.lame[code][pos]:
                if not any(cells[q] for q in passed):
                    targets.append((t, mode))
            not_over, not_taking = self.not_over[code], self.not_taking[code]
            for ray, mode in self.hops[code][pos]:
                screened = False
                for t in ray:
                    c = cells[t]
                    if not screened:
                        if c in not_over:
                            break  # a screen it may not jump over
                        screened = c != 0
                        continue
                    if c in not_taking:
                        break
                    targets.append((t, mode))
                    if c:
                        break
            for t, mode in targets:
                c = cells[t]
                if c == 0:
                    if mode == CAPTURE_ONLY:
                        continue
                    if promo is not None and t in promo:
                        out.extend(Move(((MOVE, pos, t, p, 0),))
                                   for p in self._choices(cells, promo[t], code, noisy_only))
                    elif not noisy_only:
                        out.append(Move(((MOVE, pos, t, code, 0),)))
                elif mode != MOVE_ONLY and owner_of[c] != player:
                    for p in (self._choices(cells, promo[t], code, False)
                              if promo is not None and t in promo else (code,)):
                        out.append(Move(((CAPTURE, t, t, c, 0), (MOVE, pos, t, p, 0))))

    def _ep_victim(self, frm: int, to: int) -> int:
        """The square of the pawn taken en passant: beside ``frm``, behind ``to``."""
        coords = self.topology.coords
        target = (coords[to][0], coords[frm][1])
        for d in range(len(self.topology.directions)):
            q = self.topology.links[d][frm]
            if q != NO_LINK and coords[q] == target:
                return q
        return NO_LINK

    def double_step_passed(self, move: Move, code: int) -> int:
        """The square passed over when ``move`` is a double step of ``code``, else -1."""
        frm, to = move[-1][1], move[-1][2]
        for passed, t in self.double_steps[code][frm]:
            if t == to:
                return passed
        return -1
