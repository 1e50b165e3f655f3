"""Analysis on demand: a bot's evaluation and best line in a position, never played.

``POST /api/games/{id}/analysis`` analyses the game's position in force, or the position
text the page shows (``{"position": ...}``, e.g. an earlier one under review); ``POST
/api/analysis`` a position text of any game (``{"game", "position"}``).  Both take an
optional bot ``spec`` (checked as a seat's is: :func:`myriad.web.bots.check_seat`) and
``seconds`` (at most :data:`MAX_SECONDS`).  The search runs in the server's bot worker
pool, one analysis at a time per game (or per position for ``/api/analysis``), and
answers the move and its line in the game's notation, the score and the side to move's
expected share (:mod:`myriad.ai.analysis`).

Hidden information: the analysis is made from one seat's observation only (the caller's
seat, or for a finished game the side to move's, where everything is public anyway), by a
bot that plays such games; a watcher of a hidden game still in progress is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from myriad.ai import BOTS, make_bot, parse_spec
from myriad.ai.analysis import Analysis, analyse, piece_unit
from myriad.ai.bot import Limits
from myriad.core.errors import MyriadError
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State
from myriad.games import get_game
from myriad.web.bots import HUMAN, BotPool, Ticket, WorkerFailed, check_seat, seat_spec, state_fields
from myriad.web.sessions import Forbidden

#: Seconds an analysis searches unless the request says otherwise, and the most it may ask.
DEFAULT_SECONDS = 3.0
MAX_SECONDS = 10.0
#: The searchers an analysis uses by default: the first that plays the game.
DEFAULT_BOTS = ("alphabeta", "expectimax", "mcts", "ismcts", "determinize", "infogain", "heuristic")
#: Seconds a worker may overrun an analysis before it is stopped.
GRACE = 5.0


class AnalysisBusy(MyriadError):
    """An analysis of the same game is already running."""


class AnalysisFailed(MyriadError):
    """The bot crashed, overran its time or answered a move that is not legal."""


class AnalysisRefused(MyriadError):
    """The position cannot be analysed (over, chance to move, hidden from the caller)."""


def default_spec(game: Game) -> str:
    """The strongest generic searcher that plays ``game`` (see :data:`DEFAULT_BOTS`)."""
    return next(name for name in DEFAULT_BOTS if BOTS[name].plays(game))


def check_request(game: Game, spec: Any, seconds: Any) -> tuple[str, float]:
    """The bot spec and seconds of a request, checked: a spec a seat could have (a level
    or an offered bot with allowed options; not ``human``), default :func:`default_spec`;
    seconds a number from 0.1 to :data:`MAX_SECONDS`, default :data:`DEFAULT_SECONDS`."""
    if spec is None:
        spec = default_spec(game)
    elif not isinstance(spec, str) or not spec.strip() or len(spec) > 400:
        raise MyriadError(f"'spec' must be a bot spec such as {default_spec(game)!r}, not {str(spec)[:40]!r}")
    if seconds is None:
        seconds = DEFAULT_SECONDS
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0.1 <= seconds <= MAX_SECONDS:
        raise MyriadError(f"'seconds' must be a number from 0.1 to {MAX_SECONDS:g}, not {str(seconds)[:40]!r}")
    checked = check_seat(spec, game)
    if checked == HUMAN:
        raise MyriadError("'spec' must name a bot, not 'human'")
    full = seat_spec(checked, game)
    assert full is not None
    name, options = parse_spec(full)
    for link in options["links"] if name == "chain" else [full]:
        time_option = parse_spec(link)[1].get("time")
        if isinstance(time_option, (int, float)) and time_option > MAX_SECONDS:
            raise MyriadError(f"an analysis may search at most {MAX_SECONDS:g} s, not time={time_option:g}")
    return full, float(seconds)


def analysis_job(game_id: str, spec: str, fields: tuple[Any, ...], seconds: float) -> dict[str, Any]:
    """Run in a worker process: bot ``spec``'s analysis of the state given by its fields
    within ``seconds``, as plain data (moves as their actions)."""
    game = get_game(game_id)  # the bot is built afresh: an analysis keeps no tree between requests
    result = analyse(make_bot(spec, game), State(*fields), Limits.of(seconds))
    return {"move": [tuple(a) for a in result.move], "line": [[tuple(a) for a in m] for m in result.line],
            "bot": result.bot, "score": result.score, "kind": result.kind, "win_in": result.win_in,
            "share": result.share, "depth": result.depth, "nodes": result.nodes}


def line_notation(game: Game, state: State, line: Sequence[Move]) -> list[str]:
    """The moves of ``line`` in the game's notation, played from ``state`` while legal."""
    out = []
    for move in line:
        if game.outcome(state) is not None or game.is_chance(state) or move not in game.legal_moves(state):
            break
        out.append(game.describe(state, move))
        state = game.play(state, move)
    return out


def analysis_json(game: Game, state: State, spec: str, seconds: float, answer: Analysis) -> dict[str, Any]:
    """What the page shows: ``move`` and ``line`` in the game's notation, the ``score`` and
    its ``kind`` from the side to move's view, ``win_in`` plies, ``share`` (the side to
    move's), ``bar`` (the first player's share, for an evaluation bar: two players only),
    ``text`` (a short reading from the first player's view: ``+1.25``, ``#3``, ``62%``)."""
    mover = state.to_move
    share = answer.share
    bar = None
    if share is not None and game.players == 2:
        bar = share if mover == 0 else 1.0 - share
    return {"spec": spec, "seconds": seconds, "bot": answer.bot, "player": game.player_names[mover],
            "position": game.format_position(state),
            "move": game.describe(state, answer.move), "line": line_notation(game, state, answer.line),
            "score": answer.score, "kind": answer.kind, "win_in": answer.win_in, "share": share, "bar": bar,
            "text": score_text(game, mover, answer), "depth": answer.depth, "nodes": answer.nodes}


def score_text(game: Game, mover: int, answer: Analysis) -> str:
    """The score as a player reads it, from the first player's view in a two-player game
    (else the side to move's): ``+1.25`` (evaluation in the least valuable piece's units),
    ``#3``/``#-3`` (a forced win in moves: positive for the first player), ``62%``
    (a share); ``?`` when the bot gives no score."""
    sign = -1.0 if game.players == 2 and mover != 0 else 1.0
    if answer.win_in is not None:
        moves = (abs(answer.win_in) + 1) // 2
        return f"#{'' if answer.win_in * sign > 0 else '-'}{moves}"
    if answer.score is None:
        return "?"
    if answer.kind == "evaluation":
        unit = piece_unit(game)
        value = sign * answer.score / unit
        return f"{value:+.2f}" if unit >= 10 else f"{value:+g}"
    share = answer.share if answer.share is not None else 0.5
    return f"{round(100 * (share if sign > 0 else 1 - share))}%"


def answer_analysis(game: Game, state: State, raw: dict[str, Any]) -> Analysis:
    """The worker's answer read back, its move checked against the legal moves."""
    move = Move(tuple(tuple(a) for a in raw["move"]))  # type: ignore[misc]
    if move not in game.legal_moves(state):
        raise AnalysisFailed(f"{raw.get('bot', 'the bot')} answered a move that is not legal here")
    line = [Move(tuple(tuple(a) for a in m)) for m in raw["line"]]  # type: ignore[misc]
    return Analysis(move, line, str(raw["bot"]), raw["score"], str(raw["kind"]), raw["win_in"], raw["share"],
                    raw["depth"], raw["nodes"])


def seen_state(game: Game, state: State, over: bool, seat: int | None, position: Any) -> State:
    """The state to analyse: ``position`` (a text in the game's notation) or ``state``, the
    game's position in force; in a game with hidden information, as the side to move sees
    it (``observe``), and while the game goes on (``over`` False) only for the caller's
    ``seat`` when it is to move, never from a position text."""
    if position is not None:
        if not isinstance(position, str) or len(position) > 10_000:
            raise MyriadError("'position' must be a position in the game's notation")
        if game.hidden_information and not over:
            raise AnalysisRefused(f"{game.id} hides information: while the game goes on, send no position; "
                                  "the position in force is analysed from your seat's view")
        state = game.parse_position(position.strip())
    if game.is_chance(state):
        raise AnalysisRefused("chance moves next in this position (a roll, a draw): no player chooses")
    if not game.hidden_information:
        return state
    if not over:
        if seat is None:
            raise Forbidden(f"{game.id} hides information: only a player may analyse it while it goes on, "
                            "from its own view")
        if seat != state.to_move:
            raise AnalysisRefused("a hidden game is analysed from the view of the side to move: "
                                  "wait for your turn")
    return game.observe(state, state.to_move)


class Analyst:
    """Runs analyses in the bot pool, one at a time per key (a game, or a position)."""

    def __init__(self, pool: BotPool) -> None:
        self.pool = pool
        self.running: set[str] = set()

    async def analyse(self, key: str, owner: str, game: Game, state: State, spec: Any = None,
                      seconds: Any = None) -> dict[str, Any]:
        """The analysis of ``state`` (already what the caller may see) as JSON; raises
        ``MyriadError``s: a bad spec or seconds, a position with nothing to analyse, an
        analysis of ``key`` already running (:class:`AnalysisBusy`), a failed bot."""
        full, secs = check_request(game, spec, seconds)
        if game.outcome(state) is not None or not game.legal_moves(state):
            raise AnalysisRefused("the game is over in this position: there is no move to analyse")
        if game.is_chance(state):
            raise AnalysisRefused("chance moves next in this position (a roll, a draw): no player chooses")
        if key in self.running:
            raise AnalysisBusy("an analysis of this game is already running; wait for its answer")
        self.running.add(key)
        try:
            raw = await self.pool.run((analysis_job, game.id, full, state_fields(state), secs), secs + GRACE,
                                      Ticket(owner))
        except WorkerFailed as err:
            raise AnalysisFailed(f"the analysis failed: {err}") from None
        finally:
            self.running.discard(key)
        return analysis_json(game, state, full, secs, answer_analysis(game, state, raw))
