"""Generals: the Game of the Generals (Salpakan, Sofronio H. Pasola Jr., 1970), hidden ranks
judged by an arbiter.

Rules as published (Wikipedia, "Game of the Generals"; the rules sheet of the Game of the
Generals Association): a 9 x 8 board; each side has 21 pieces: the 5-, 4-, 3-, 2- and
1-star generals, a colonel, a lieutenant colonel, a major, a captain, a 1st and a 2nd
lieutenant, a sergeant, 6 privates, 2 spies and a flag.

Set-up: white, then black, places all 21 pieces, one at a time, on the 27 squares of its
own three home rows; the opponent sees only which squares are taken.
Play: a piece moves one square forward, back or sideways.  A move onto an enemy piece is a
challenge, judged by the arbiter, who removes the loser and says nothing else: the higher
rank removes the lower; the spy removes every officer (sergeant up) and the flag but is
removed by a private; equal ranks remove each other; any piece removes the flag, and a flag
that challenges the enemy flag wins.
End: capturing the enemy flag wins; a flag that reaches the far row wins at once when no
enemy piece stands beside it, else when it is still there at its owner's next turn; a side
with no legal move loses; 100 plies without a challenge draw (a house rule: the published
rules leave an endless game to the players).

Notation: set-up ``pvt@c2`` (insignia ``5*``, ``4*``, ``3*``, ``2*``, ``1*``, ``col``,
``ltc``, ``maj``, ``cpt``, ``1lt``, ``2lt``, ``sgt``, ``pvt``, ``spy``, ``flag``);
moves ``e3-e4``, challenges ``e4xe5``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from myriad.core.errors import InvalidMoveError, PositionError
from myriad.core.game import Game, Outcome
from myriad.core.mechanics.rank_sampling import sample_ranks
from myriad.core.move import DROP, MOVE, Move
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.state import State
from myriad.core.topology import square_board

WIDTH, HEIGHT, HOME_ROWS = 9, 8, 3
#: The ranks, weakest first (the spy apart): (name, insignia, letter, count, value).
RANKS: tuple[tuple[str, str, str, int, int], ...] = (
    ("flag", "flag", "F", 1, 0), ("private", "pvt", "P", 6, 8), ("sergeant", "sgt", "S", 1, 12),
    ("2nd lieutenant", "2lt", "U", 1, 16), ("1st lieutenant", "1lt", "L", 1, 20),
    ("captain", "cpt", "C", 1, 25), ("major", "maj", "M", 1, 30), ("lt colonel", "ltc", "T", 1, 36),
    ("colonel", "col", "O", 1, 42), ("1-star general", "1*", "A", 1, 50),
    ("2-star general", "2*", "B", 1, 58), ("3-star general", "3*", "D", 1, 66),
    ("4-star general", "4*", "E", 1, 76), ("5-star general", "5*", "G", 1, 90),
    ("spy", "spy", "Y", 2, 55))
FLAG, PRIVATE, SPY = 0, 1, 14
RANK_COUNT = len(RANKS)
UNKNOWN = RANK_COUNT  #: the kind of an enemy piece whose rank is hidden (the fog marker)
ALL = (1 << RANK_COUNT) - 1  #: knowledge mask: every rank possible
ARMY = tuple(r[3] for r in RANKS)
ARMY_SIZE = sum(ARMY)  # 21
INSIGNIA = {r[1]: k for k, r in enumerate(RANKS)}
GLYPHS = ("⚑", "Pvt", "Sgt", "2Lt", "1Lt", "Cpt", "Maj", "LtC", "Col", "1★", "2★", "3★", "4★", "5★", "Spy")
QUIET_LIMIT = 100
#: Evaluation: the worth of a row's advance for a piece other than the flag.
ADVANCE = 1.0
#: Evaluation: the worth of the flag's advance, row by row (sharply so near the far row).
FLAG_RUN = (0, 2, 4, 7, 11, 18, 30, 60)
#: The rules panel's text: the module's rules paragraphs.
RULES = " ".join(__doc__.split("\n\n")[2:6]).replace("\n", " ").replace("``", "")
SIDES = "wb"
DIGITS = "0123456789"
#: counters: (quiet plies, a knowledge mask per cell, the removed pieces of each side).
CELL_MASKS = 1
GRAVES = CELL_MASKS + WIDTH * HEIGHT


def code(kind: int, owner: int) -> int:
    """The cell value of a piece of ``kind`` owned by ``owner``."""
    return 1 + kind * 2 + owner


def kind_of(c: int) -> int:
    return (c - 1) >> 1


def owner_of(c: int) -> int:
    return (c - 1) & 1


def challenge(attacker: int, defender: int) -> int:
    """The arbiter: 1 when the attacking rank removes the defending one, -1 when it is
    removed, 0 when both are."""
    if attacker == defender:
        return 1 if attacker == FLAG else 0
    if attacker == SPY:
        return -1 if defender == PRIVATE else 1
    if defender == SPY:
        return 1 if attacker == PRIVATE else -1
    return 1 if attacker > defender else -1


def bits(mask: int) -> list[int]:
    return [k for k in range(RANK_COUNT) if mask >> k & 1]


class Generals(Game):
    """The Game of the Generals: hidden ranks, a set-up phase, an arbiter."""

    id = "generals"
    name = "Game of the Generals"
    family = "generals"
    player_names = ("white", "black")
    rules = RULES
    hidden_information = True
    quiescence = False

    def __init__(self) -> None:
        board = square_board(WIDTH, HEIGHT, diagonals=False)
        kinds = [PieceKind(name, letter, value, glyphs=(GLYPHS[k], GLYPHS[k]))
                 for k, (name, _i, letter, _n, value) in enumerate(RANKS)]
        kinds.append(PieceKind("hidden", "X", 30, glyphs=("?", "?")))
        start = "".join(RANKS[k][2] * ARMY[k] for k in range(RANK_COUNT))
        super().__init__(board, PieceSet(kinds), {"start": f"9/9/9/9/9/9/9/9 w s {start}/{start.lower()} 0 - - -"})
        size = board.size
        self.home = tuple(frozenset(p for p in range(size) if (p // WIDTH < HOME_ROWS if side == 0
                                                              else p // WIDTH >= HEIGHT - HOME_ROWS))
                          for side in range(2))
        self.far_row = (HEIGHT - 1, 0)
        self.neighbours = tuple(tuple(row[p] for row in board.links if row[p] >= 0) for p in range(size))
        self.ring2 = tuple(frozenset(r for q in self.neighbours[p] for r in self.neighbours[q]) - {p}
                           - frozenset(self.neighbours[p]) for p in range(size))
        self.fog_codes = (code(UNKNOWN, 1), code(UNKNOWN, 0))  # what each player sees of the other's pieces
        # the ranks a rank-``r`` piece's opponent may have after each result
        #: result_masks[r][result + 1]: the ranks a piece may have that challenged a rank-r
        #: piece with that result; defence_masks: the ranks of a piece a rank-r piece challenged
        self.result_masks = tuple(tuple(sum(1 << k for k in range(RANK_COUNT) if challenge(k, r) == res)
                                        for res in (-1, 0, 1)) for r in range(RANK_COUNT))
        self.defence_masks = tuple(tuple(sum(1 << k for k in range(RANK_COUNT) if challenge(r, k) == res)
                                         for res in (-1, 0, 1)) for r in range(RANK_COUNT))

    # -- the loop ----------------------------------------------------------------------------

    def setting_up(self, state: State) -> bool:
        return state.flags[0] == 0

    def legal_moves(self, state: State) -> list[Move]:
        me = state.to_move
        cells = state.cells
        if self.setting_up(state):
            left = state.hands[me]
            empty = [p for p in sorted(self.home[me]) if not cells[p]]
            return [Move(((DROP, p, p, code(k, me), 0),)) for k in range(RANK_COUNT) if left[k] for p in empty]
        if self.outcome(state) is not None:
            return []
        return self._moves(cells, me)

    def _moves(self, cells: Sequence[int], me: int) -> list[Move]:
        out = []
        for p, c in enumerate(cells):
            if c and owner_of(c) == me:
                for q in self.neighbours[p]:
                    t = cells[q]
                    if not t or owner_of(t) != me:
                        out.append(Move(((MOVE, p, q, c, 0),)))
        return out

    def left_to_place(self, cells: Sequence[int], player: int) -> list[int]:
        """How many of each rank of ``player``'s army are not on the board."""
        left = list(ARMY)
        for c in cells:
            if c and owner_of(c) == player and kind_of(c) < RANK_COUNT:
                left[kind_of(c)] -= 1
        return left

    def play(self, state: State, move: Move) -> State:
        me = state.to_move
        cells = list(state.cells)
        masks = list(state.counters)
        flags = state.flags
        action = move[0]
        _kind, frm, to, piece, _ = action
        if action[0] == DROP:  # a set-up placement from the hand
            cells[to] = piece
            masks[CELL_MASKS + to] = ALL
            hands = [list(h) for h in state.hands]
            hands[me][kind_of(piece)] -= 1
            nxt = me
            if not any(hands[me]):
                nxt = 1 - me
                if me == 1:
                    flags, nxt = (1,), 0
            return self.make_state(cells, nxt, flags, masks, hands)
        defender = cells[to]
        mask = masks[CELL_MASKS + frm]
        masks[CELL_MASKS + frm] = 0
        cells[frm] = 0
        if not defender:
            cells[to] = piece
            masks[CELL_MASKS + to] = mask
            masks[0] += 1
            return self.make_state(cells, 1 - me, flags, masks, state.hands)
        masks[0] = 0
        a, d = kind_of(piece), kind_of(defender)
        dmask = masks[CELL_MASKS + to]
        result = self.judge(a, d, mask, dmask)
        if d < RANK_COUNT:  # what the defender's side learns of the attacker
            mask = (mask & self.result_masks[d][result + 1]) or mask
        if a < RANK_COUNT:  # and the attacker's of the defender
            dmask = (dmask & self.defence_masks[a][result + 1]) or dmask
        if result >= 0:
            self.bury(masks, 1 - me, dmask)
        if result <= 0:
            self.bury(masks, me, mask)
        if result == 1:
            cells[to], masks[CELL_MASKS + to] = piece, mask
        elif result == 0:
            cells[to], masks[CELL_MASKS + to] = 0, 0
        return self.make_state(cells, 1 - me, flags, masks, state.hands)

    def judge(self, a: int, d: int, amask: int, dmask: int) -> int:
        """The arbiter's result; an unknown rank (a bot's guess in an observation) is judged
        by what is known of it: a sure result when every possible rank gives it, else a trade."""
        if a < RANK_COUNT and d < RANK_COUNT:
            return challenge(a, d)
        results = {challenge(x, y) for x in (bits(amask) if a == UNKNOWN else [a])
                   for y in (bits(dmask) if d == UNKNOWN else [d])}
        return results.pop() if len(results) == 1 else 0

    def bury(self, masks: list[int], owner: int, mask: int) -> None:
        base = GRAVES + owner * ARMY_SIZE
        for i in range(base, base + ARMY_SIZE):
            if not masks[i]:
                masks[i] = mask or ALL
                return
        raise PositionError("generals: more than 21 pieces removed")

    def outcome(self, state: State) -> Outcome | None:
        if self.setting_up(state):
            return None
        cells = state.cells
        flags = [-1, -1]
        unknown = [False, False]
        for p, c in enumerate(cells):
            if c:
                k = kind_of(c)
                if k == FLAG:
                    flags[owner_of(c)] = p
                elif k == UNKNOWN:
                    unknown[owner_of(c)] = True
        for side in (0, 1):
            if flags[side] < 0 and not unknown[side]:
                return Outcome.win(1 - side, "captured the flag")
        mover = 1 - state.to_move
        for side in (mover, state.to_move):
            p = flags[side]
            if p >= 0 and p // WIDTH == self.far_row[side]:
                guarded = any(cells[q] and owner_of(cells[q]) != side for q in self.neighbours[p])
                if not guarded or side == state.to_move:
                    return Outcome.win(side, "flag reached the far row")
        if state.counters[0] >= QUIET_LIMIT:
            return Outcome.draw(f"{QUIET_LIMIT} plies without a challenge")
        me = state.to_move
        if not any(c and owner_of(c) == me and any(not cells[q] or owner_of(cells[q]) != me
                                                   for q in self.neighbours[p])
                   for p, c in enumerate(cells)):
            return Outcome.win(1 - me, "no legal move")
        return None

    # -- hidden information ----------------------------------------------------------------------

    def observe(self, state: State, player: int) -> State:
        """``player``'s own ranks, the squares the enemy holds (``X``), what the arbiter's
        results taught ``player`` of each enemy piece (its knowledge mask, moving with it)
        and of each removed enemy piece; what the enemy knows of ``player``'s pieces is
        the enemy's secret (shown as "anything")."""
        if self.outcome(state) is not None:
            return state
        enemy = 1 - player
        marker = self.fog_codes[player]
        cells = list(state.cells)
        masks = list(state.counters)
        for p, c in enumerate(cells):
            if c and owner_of(c) == enemy:
                cells[p] = marker
            elif c:
                masks[CELL_MASKS + p] = ALL
        base = GRAVES + player * ARMY_SIZE
        for i in range(base, base + ARMY_SIZE):
            if masks[i]:
                masks[i] = ALL
        hands = [list(h) for h in state.hands]
        hands[enemy] = [0] * RANK_COUNT + [sum(hands[enemy])]  # so many pieces still to place
        return self.make_state(cells, state.to_move, state.flags, masks, hands)

    def determinize(self, observation: State, player: int, rng: random.Random) -> State:
        """Ranks for the enemy's hidden pieces, those in its hand and its removed ones, each
        within its knowledge mask, all together exactly the enemy's army
        (:func:`~myriad.core.mechanics.rank_sampling.sample_ranks`)."""
        enemy = 1 - player
        marker = self.fog_codes[player]
        cells = list(observation.cells)
        hidden = [p for p, c in enumerate(cells) if c == marker]
        if not hidden and not observation.hands[enemy][UNKNOWN]:
            return observation
        masks = observation.counters
        known = [0] * RANK_COUNT
        for c in cells:
            if c and owner_of(c) == enemy and kind_of(c) < RANK_COUNT:
                known[kind_of(c)] += 1
        left = [ARMY[k] - known[k] for k in range(RANK_COUNT)]
        base = GRAVES + enemy * ARMY_SIZE
        graves = [m & ~1 for m in masks[base:base + ARMY_SIZE] if m]  # the game goes on: not the flag
        items = [masks[CELL_MASKS + p] & ~(1 if self.flag_would_have_won(cells, p, enemy, observation.to_move) else 0)
                 for p in hidden]
        in_hand = observation.hands[enemy][UNKNOWN]  # pieces still to place: any rank
        every = items + [ALL] * in_hand + graves
        chosen = sample_ranks(every, left, rng)
        for n, p in enumerate(hidden):
            cells[p] = code(chosen[n], enemy)
        hands = [list(h) for h in observation.hands]
        hands[enemy] = [0] * (RANK_COUNT + 1)
        for n in range(len(hidden), len(hidden) + in_hand):
            hands[enemy][chosen[n]] += 1
        return self.make_state(cells, observation.to_move, observation.flags, masks, hands)

    def flag_would_have_won(self, cells: Sequence[int], p: int, side: int, to_move: int) -> bool:
        """Whether ``side``'s flag on ``p`` would have ended the game (far row reached)."""
        if p // WIDTH != self.far_row[side]:
            return False
        return to_move == side or not any(cells[q] and owner_of(cells[q]) != side for q in self.neighbours[p])

    def check_reachable(self, cells: Sequence[int], to_move: int, flags: Sequence[int] = (),
                        hands: Sequence[Sequence[int]] = ()) -> None:
        """Raise ``PositionError`` for an army no game has: more of a rank than 21 pieces hold."""
        for side in (0, 1):
            left = self.left_to_place(cells, side)
            if side < len(hands):
                left = [n - h for n, h in zip(left, hands[side])]
            if min(left) < 0:
                raise PositionError(f"generals: {self.player_names[side]} has too many of a rank")

    def move_seen(self, state: State, move: Move, player: int) -> str:
        """A set-up placement of the enemy is seen as ``?@square``; its moves in full (the
        squares are public, the rank is not written in them)."""
        if state.to_move == player or self.outcome(state) is not None:
            return self.format_move(state, move)
        if move[0][0] == DROP:
            return "?"
        return self.format_move(state, move)

    # -- knowledge for bots --------------------------------------------------------------------

    def piece_value(self, c: int, mask: int) -> float:
        k = kind_of(c)
        if k < RANK_COUNT:
            return RANKS[k][4]
        ranks = bits(mask) or [PRIVATE]
        return sum(RANKS[r][4] for r in ranks) / len(ranks)

    def evaluate(self, state: State) -> float:
        """Material (an unknown piece at the mean value of its possible ranks), each piece's
        advance, the flag's advance, its guards and its danger: enemy pieces next to it."""
        me = state.to_move
        score = 0.0
        cells, masks = state.cells, state.counters
        for p, c in enumerate(cells):
            if not c:
                continue
            side = owner_of(c)
            value = self.piece_value(c, masks[CELL_MASKS + p])
            row = p // WIDTH if side == 0 else HEIGHT - 1 - p // WIDTH
            if kind_of(c) == FLAG:
                near = [cells[q] for q in self.neighbours[p] if cells[q]]
                threats = sum(1 for n in near if owner_of(n) != side)
                close = sum(1 for q in self.ring2[p] if cells[q] and owner_of(cells[q]) != side)
                value = FLAG_RUN[row] - 40 * threats - 8 * close + 2 * (len(near) - threats)
            else:
                value += ADVANCE * row
            score += value if side == me else -value
        return score

    def is_noisy(self, state: State, move: Move) -> bool:
        return bool(state.cells[move[0][2]]) and move[0][0] == MOVE

    def move_heuristic(self, state: State, move: Move) -> float:
        """Set-up: the flag on the back row among guards, privates near it and in front,
        spies and generals forward.  Play: challenges by strong pieces, advancing."""
        kind, frm, to, piece, _ = move[0]
        me = owner_of(piece)
        k = kind_of(piece)
        row = to // WIDTH if me == 0 else HEIGHT - 1 - to // WIDTH
        col = to % WIDTH
        if kind == DROP:
            prefer = {FLAG: 0, PRIVATE: 1, SPY: 2}.get(k, 2 if k >= 9 else 1)
            score = -3.0 * abs(row - prefer) - 0.3 * abs(col - 4) * (k >= 9)
            if k == PRIVATE:
                score += 2.0 * sum(1 for q in self.neighbours[to] if state.cells[q] == code(FLAG, me))
            return score
        target = state.cells[to]
        if target:
            return RANKS[k][4] / 10 if k < RANK_COUNT and k != FLAG else -20.0
        return 0.5 * (row - (frm // WIDTH if me == 0 else HEIGHT - 1 - frm // WIDTH)) * (k != FLAG)

    def candidate_moves(self, state: State, moves: list[Move]) -> list[Move]:
        """Set-up: one placement, the next rank in order (flag, privates, spies, then the
        rest by rank) on its best square by :meth:`move_heuristic`, ties broken by a hash
        of the position seen (so the bot's set-ups vary, from its observation alone)."""
        if not self.setting_up(state) or not moves:
            return moves
        order = [FLAG, PRIVATE, SPY] + list(range(13, 1, -1))
        left = state.hands[state.to_move]
        kind = next(k for k in order if left[k])
        mine = [m for m in moves if kind_of(m[0][3]) == kind]
        salt = state.key & 0xFFFF
        return [max(mine, key=lambda m: (self.move_heuristic(state, m), (m[0][2] * 7919 + salt) % 101))]

    # -- notation ----------------------------------------------------------------------------

    def format_move(self, state: State, move: Move) -> str:
        kind, frm, to, piece, _ = move[0]
        names = self.topology.names
        if kind == DROP:
            return f"{RANKS[kind_of(piece)][1]}@{names[to]}"
        return f"{names[frm]}{'x' if state.cells[to] else '-'}{names[to]}"

    def check_move_syntax(self, text: str) -> None:
        """A move is ``insignia@square``, ``square-square`` or ``squarexsquare``."""
        names = self.topology.index
        if "@" in text:
            rank, _, square = text.partition("@")
            if rank in INSIGNIA and square in names:
                return
        else:
            for sep in "-x":
                a, _, b = text.partition(sep)
                if a in names and b in names:
                    return
        raise InvalidMoveError(f"generals: {text[:40]!r} is not a move (write pvt@c2, e3-e4 or e4xe5)")

    def format_position(self, state: State) -> str:
        """``<rows, top first> <side> <s|p> <quiet plies> <masks> <removed white> <removed
        black>``: masks (hex, ``*`` = anything) of the occupied squares in square order,
        then of each side's removed pieces; ``-`` for none."""
        rows = []
        letters = self.pieces.letter_of
        for r in range(HEIGHT - 1, -1, -1):
            text, run = "", 0
            for c in range(WIDTH):
                v = state.cells[r * WIDTH + c]
                if not v:
                    run += 1
                    continue
                if run:
                    text, run = text + str(run), 0
                text += letters[v]
            rows.append(text + (str(run) if run else ""))
        masks = state.counters
        occupied = [masks[CELL_MASKS + p] for p, v in enumerate(state.cells) if v]
        graves = [[m for m in masks[GRAVES + s * ARMY_SIZE:GRAVES + (s + 1) * ARMY_SIZE] if m] for s in (0, 1)]
        hands = "/".join("".join(letters[code(k, side)] * n for k, n in enumerate(hand)) or "-"
                         for side, hand in enumerate(state.hands))
        return " ".join(["/".join(rows), SIDES[state.to_move], "sp"[state.flags[0]], hands, str(masks[0]),
                         mask_list(occupied), mask_list(graves[0]), mask_list(graves[1])])

    def parse_position(self, text: str) -> State:
        parts = text.split()
        if len(parts) != 8:
            raise PositionError(f"generals: a position has 8 fields (board side phase hands quiet masks "
                                f"removed removed), not {len(parts)}: {text[:80]!r}")
        board, side, phase, hands_text, quiet, occupied_text, grave0, grave1 = parts
        rows = board.split("/")
        if len(rows) != HEIGHT:
            raise PositionError(f"generals: the board has {HEIGHT} rows, not {len(rows)}")
        cells = [0] * (WIDTH * HEIGHT)
        for i, row in enumerate(rows):
            r, c = HEIGHT - 1 - i, 0
            for ch in row:
                if ch in DIGITS:
                    c += int(ch)
                elif ch in self.pieces.code_of_letter:
                    if c < WIDTH:
                        cells[r * WIDTH + c] = self.pieces.code_of_letter[ch]
                    c += 1
                else:
                    raise PositionError(f"generals: unknown piece letter {ch!r}")
            if c != WIDTH:
                raise PositionError(f"generals: row {r + 1} has {c} squares, not {WIDTH}")
        if side not in SIDES or phase not in ("s", "p"):
            raise PositionError(f"generals: side must be w or b and phase s or p, not {side!r} {phase!r}")
        if not quiet or any(ch not in DIGITS for ch in quiet) or len(quiet) > 3 or int(quiet) > QUIET_LIMIT:
            raise PositionError(f"generals: plies without a challenge must be 0 to {QUIET_LIMIT}, not {quiet!r}")
        to_move = SIDES.index(side)
        occupied = read_masks(occupied_text)
        graves = [read_masks(grave0), read_masks(grave1)]
        if len(occupied) != sum(1 for v in cells if v):
            raise PositionError("generals: one knowledge mask per occupied square is needed")
        hands = self.read_hands(hands_text)
        self.check_reachable(cells, to_move, (), hands)
        counts = [sum(1 for v in cells if v and owner_of(v) == s) + sum(hands[s]) for s in (0, 1)]
        for s in (0, 1):
            if phase == "p" and any(hands[s]):
                raise PositionError("generals: no piece is in hand after the set-up")
            if phase == "s" and counts[s] != ARMY_SIZE:
                raise PositionError(f"generals: {self.player_names[s]} must have 21 pieces on the board "
                                    f"or in hand during the set-up, not {counts[s]}")
            if phase == "p" and counts[s] + len(graves[s]) != ARMY_SIZE:
                raise PositionError(f"generals: {self.player_names[s]} must have 21 pieces on the board "
                                    f"or removed, not {counts[s] + len(graves[s])}")
            if phase == "s" and (graves[s] or any(v and owner_of(v) == s and p not in self.home[s]
                                                  for p, v in enumerate(cells))):
                raise PositionError("generals: during the set-up pieces stand on their home rows only")
        if phase == "s" and (to_move == 1 and any(hands[0]) or to_move == 0 and not any(hands[0])
                             or to_move == 0 and sum(hands[1]) != ARMY_SIZE):
            raise PositionError("generals: white sets up first, then black")
        masks = [int(quiet)] + [0] * (WIDTH * HEIGHT) + [0] * (2 * ARMY_SIZE)
        for p, m in zip([p for p, v in enumerate(cells) if v], occupied):
            masks[CELL_MASKS + p] = m
        for s in (0, 1):
            for i, m in enumerate(graves[s]):
                masks[GRAVES + s * ARMY_SIZE + i] = m
        return self.make_state(cells, to_move, (0 if phase == "s" else 1,), masks, hands)

    def read_hands(self, text: str) -> list[list[int]]:
        """``<white's hand>/<black's hand>``: piece letters (``X``: a hidden piece), ``-``."""
        halves = text.split("/")
        if len(halves) != 2:
            raise PositionError(f"generals: the hands are written white/black, not {text[:60]!r}")
        hands = [[0] * (RANK_COUNT + 1) for _ in range(2)]
        for side, half in enumerate(halves):
            for ch in "" if half == "-" else half:
                c = self.pieces.code_of_letter.get(ch, 0)
                if not c or owner_of(c) != side:
                    raise PositionError(f"generals: {ch!r} is not a piece of {self.player_names[side]}'s hand")
                hands[side][kind_of(c)] += 1
        return hands

    def cell_text(self, value: int) -> str:
        return self.pieces.letter_of[value] if value else "."


def mask_list(masks: Sequence[int]) -> str:
    return ",".join("*" if m == ALL else f"{m:x}" for m in masks) or "-"


def read_masks(text: str) -> list[int]:
    if text == "-":
        return []
    out = []
    for item in text.split(","):
        try:
            m = ALL if item == "*" else int(item, 16)
        except ValueError:
            raise PositionError(f"generals: {item[:20]!r} is not a knowledge mask (hex or *)") from None
        if not 0 < m <= ALL:
            raise PositionError(f"generals: knowledge mask {item!r} is out of range")
        out.append(m)
    if len(out) > WIDTH * HEIGHT:
        raise PositionError("generals: too many knowledge masks")
    return out


def generals() -> Generals:
    """The Game of the Generals."""
    return Generals()
