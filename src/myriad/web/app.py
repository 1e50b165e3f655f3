"""The ASGI app: routes as a table, JSON errors, one WebSocket per game, the static page.

``create_app(db_path)`` builds the app; its lifespan opens the store and starts the bot
workers.  Every error a request can cause is answered as ``{"error": "..."}`` with a 4xx
status; anything unexpected is logged and answered 500 without details.

API (all JSON):

* ``GET  /api/catalog``                     every game's layout, the bot levels, the families,
                                             ``read_only`` and a ``banner`` line
* ``GET  /api/catalog/{game}``              one game's layout
* ``GET  /api/games?family=&limit=``        the client's games and public ones, newest first
* ``POST /api/games``                       start one: ``{game, seats, position|setup, movetime,
                                             delay, public, clock}``; the answer's ``keys`` are
                                             the human seats' keys, given out only here; ``clock``
                                             a time control (``myriad.web.clocks``)
* ``GET  /api/games/{id}``                  the game as the page sees it
* ``PATCH /api/games/{id}``                 ``{delay, paused, movetime, public}`` (owner)
* ``DELETE /api/games/{id}``                (owner)
* ``POST /api/games/{id}/moves``            ``{move: "e4", ply?: n}`` (the seat to move)
* ``POST /api/games/{id}/undo`` and ``/redo`` (a human seat; the owner when only bots play)
* ``POST /api/games/{id}/resign``          (a human seat) the other player wins
* ``POST /api/games/{id}/draw``            ``{action: "offer"|"accept"|"decline"}`` (a human seat)
* ``POST /api/games/{id}/rematch``         (a human seat, game over) the rematch's view, made once;
                                             each seat's key now opens the seat its holder plays
* ``GET  /api/games/{id}/record``           the game record as text (PGN, PDN or moves)
* ``GET  /api/games/{id}/position?ply=n``   the position after n moves, as the page may see it
* ``POST /api/records``                     ``{text, game?, index?}``: a record (PGN, PDN, SGF,
                                             moves) opened as a new game of two humans
* ``POST /api/games/{id}/analysis``         ``{position?, spec?, seconds?}``: a bot's score and best
                                             line in the game's (or the shown) position, never
                                             played (see :mod:`myriad.web.analysis`)
* ``POST /api/analysis``                    ``{game, position, spec?, seconds?}``: the same for any
                                             position text
* ``WS   /api/games/{id}/ws``               ``{"type": "state", "game": ...}`` on every change,
                                             the view of the seat whose key the page sends
                                             (``{"type": "seat", "key": "..."}``)

Who is asking: ``X-Myriad-Client`` carries the browser's own secret (creating a game needs
one; its creator owns the game) and ``X-Myriad-Seat`` the key of a seat.  Requests whose
``Host`` is not this server's (DNS rebinding) or whose ``Origin`` is another site are
refused before any handler runs.  POST and PATCH requests must be sent as JSON
(``Content-Type: application/json``, even with an empty body).  A change the store cannot
save right now is refused with 503 and ``Retry-After``, and nothing changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from myriad.core.errors import MyriadError, UnknownGameError
from myriad.core.game import Game
from myriad.core.numbers import read_int
from myriad.games import game_ids, get_game
from myriad.games.user_variants import VariantSource, loaded_sources
from myriad.notation.records import record_format
from myriad.web.analysis import AnalysisBusy, AnalysisFailed, AnalysisRefused, Analyst, seen_state
from myriad.web.bots import LEVELS, BotPool, levels
from myriad.web.layout import layout_json
from myriad.web.review import MAX_RECORD_BYTES, open_record, position_json
from myriad.web.sessions import Caller, Conflict, Forbidden, NotFound, Session, Sessions
from myriad.web.storage import Damaged, Store, StoreBroken, StoreBusy, StoreError, StoreReadOnly

log = logging.getLogger("myriad.web")

MAX_BODY = 64 * 1024
#: A client secret or a seat key: URL-safe text of sane length.
SECRET = re.compile(r"[A-Za-z0-9_-]{16,128}")
#: Host names a local server answers to without ``--allow-host`` (IP addresses always).
LOCAL_HOSTS = frozenset({"localhost"})


def error(status: int, message: str) -> JSONResponse:
    """A JSON error answer."""
    return JSONResponse({"error": message}, status_code=status)


class NotJson(MyriadError):
    """A request that changes something was not sent as JSON."""


def require_json(request: Request) -> None:
    """Refuse a POST that is not ``Content-Type: application/json``: a web page of another
    site can send forms and plain text to this local server, but not JSON without asking."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise NotJson(f"send JSON (Content-Type: application/json), not {kind or 'no content type'!r}")


async def read_json(request: Request, limit: int = MAX_BODY) -> dict[str, Any]:
    """The request body as a JSON object of at most ``limit`` bytes; a ``MyriadError`` when
    it is not one (a body over the limit is not read to its end)."""
    require_json(request)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise MyriadError(f"request body too large (over {limit} bytes)")
        chunks.append(chunk)
    body = b"".join(chunks)
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise MyriadError(f"request body is not JSON: {err}") from None
    if not isinstance(data, dict):
        raise MyriadError("request body must be a JSON object")
    return data


def only_keys(data: dict[str, Any], allowed: set[str]) -> None:
    """Refuse unknown fields, so a misspelt option is not silently ignored."""
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise MyriadError(f"unknown field(s) {', '.join(map(repr, unknown))}; "
                          f"expected {', '.join(sorted(allowed))}")


def caller(request: Request | WebSocket) -> Caller:
    """Who sends the request: its client secret and seat key headers, checked for shape."""
    found = []
    for header in ("x-myriad-client", "x-myriad-seat"):
        value = request.headers.get(header)
        if value is not None and not SECRET.fullmatch(value):
            raise MyriadError(f"{header} must be 16 to 128 letters, digits, '-' or '_'")
        found.append(value)
    return Caller(*found)


def open_store(db_path: str | Path, read_only: bool = False) -> tuple[Store, str]:
    """The games database and a banner line: read-only when asked, or when the file or its
    directory cannot be written (then the banner says so).  Raises ``StoreBroken`` naming
    the file when it cannot be used at all."""
    if read_only:
        return Store(db_path, read_only=True), "This server shows its games read-only."
    try:
        store = Store(db_path)
    except StoreBroken:
        if not Path(db_path).is_file():
            raise
        store = Store(db_path, read_only=True)  # a read-only file or directory can still be read
    if store.read_only or not store.writable():
        store.close()
        store = Store(db_path, read_only=True)
        log.warning("%s cannot be written: serving it read-only", db_path)
        return store, f"The games database cannot be written ({db_path}): games are shown read-only."
    return store, ""


def game_json(game: Game) -> dict[str, Any]:
    """A game's layout for the page, with the bot spec of each level in this game."""
    return {**layout_json(game), "levels": levels(game)}


class Api:
    """The handlers, over one store and one pool of bot workers."""

    def __init__(self, store: Store, banner: str = "", workers: int | None = None,
                 variants: Sequence[VariantSource] = (), timer: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.store = store
        self.timer, self.wall = timer, wall
        self.banner = banner
        self.workers = workers
        self.variants = tuple(variants)
        self.sessions: Sessions | None = None
        self.analyst: Analyst | None = None
        self.catalog_cache: dict[str, Any] | None = None

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        """Start the bot workers; stop them and close the store at shutdown."""
        pool = BotPool(self.workers, variants=self.variants)
        pool.start()
        self.analyst = Analyst(pool)
        self.sessions = Sessions(self.store, pool, self.timer, self.wall)
        resumed = await self.sessions.resume_clocks()
        if resumed:
            log.info("%d game(s) on the clock resumed", resumed)
        log.info("games stored in %s%s", self.store.path, " (read-only)" if self.store.read_only else "")
        try:
            yield
        finally:
            await self.sessions.close()
            pool.close()
            self.store.close()

    @property
    def games(self) -> Sessions:
        """The sessions (available while the app runs)."""
        assert self.sessions is not None, "the app is not running"
        return self.sessions

    async def session(self, request: Request) -> Session:
        """The game named in the path."""
        return await self.games.get(request.path_params["game_id"])

    # -- catalog ---------------------------------------------------------------------------

    async def catalog(self, request: Request) -> Response:
        if self.catalog_cache is None:
            layouts = [game_json(get_game(g)) for g in game_ids()]
            self.catalog_cache = {"games": layouts, "levels": LEVELS,
                                  "families": list(dict.fromkeys(g["family"] for g in layouts)),
                                  "read_only": self.store.read_only, "banner": self.banner}
        return JSONResponse(self.catalog_cache)

    async def catalog_game(self, request: Request) -> Response:
        return JSONResponse(game_json(get_game(request.path_params["game"])))

    # -- games -----------------------------------------------------------------------------

    async def list_games(self, request: Request) -> Response:
        family = request.query_params.get("family") or None
        families = {get_game(g).family for g in game_ids()}
        if family is not None and family not in families:
            raise MyriadError(f"unknown family {family[:40]!r}; known: {', '.join(sorted(families))}")
        limit = read_int(request.query_params.get("limit", "100"), "limit", low=1, high=1000, max_digits=4)
        return JSONResponse({"games": await self.games.summaries(caller(request), family, limit)})

    async def create_game(self, request: Request) -> Response:
        who = caller(request)
        data = await read_json(request)
        only_keys(data, {"game", "seats", "position", "setup", "movetime", "delay", "public", "clock"})
        session, keys = await self.games.create(who, data.get("game"), data.get("seats"), data.get("position"),
                                                data.get("setup"), data.get("movetime"), data.get("delay"),
                                                data.get("public"), data.get("clock"))
        # the creator holds every human seat: the view of the one to move, else of the first
        held = [k for k in keys if k]
        mover = keys[session.state.to_move] if session.state.to_move < len(keys) else None
        seated = Caller(who.client, mover or held[0]) if held else who
        return JSONResponse({**session.view(seated), "keys": keys}, status_code=201)

    async def get_game(self, request: Request) -> Response:
        session = await self.session(request)
        session.note_claim(caller(request))
        if session.clocks is not None:
            await session.check_flag()  # (the timer does it too; a request never sees a late clock)
        return JSONResponse(session.view(caller(request)))

    async def patch_game(self, request: Request) -> Response:
        who = caller(request)
        session = await self.session(request)
        data = await read_json(request)
        only_keys(data, {"delay", "paused", "movetime", "public"})
        await session.configure(who, **data)
        return JSONResponse(session.view(who))

    async def delete_game(self, request: Request) -> Response:
        await self.games.delete(request.path_params["game_id"], caller(request))
        return Response(status_code=204)

    async def move(self, request: Request) -> Response:
        who = caller(request)
        session = await self.session(request)
        data = await read_json(request)
        only_keys(data, {"move", "ply"})
        text, ply = data.get("move"), data.get("ply")
        if not isinstance(text, str):
            raise MyriadError("'move' must be the move in the game's notation, e.g. {\"move\": \"e4\"}")
        if ply is not None and (isinstance(ply, bool) or not isinstance(ply, int)):
            raise MyriadError(f"'ply' must be a whole number, not {ply!r}")
        await session.play(text, ply, who)
        return JSONResponse(session.view(who))

    async def undo(self, request: Request) -> Response:
        who = caller(request)
        session = await self.session(request)
        require_json(request)
        await session.undo(who)
        return JSONResponse(session.view(who))

    async def redo(self, request: Request) -> Response:
        who = caller(request)
        session = await self.session(request)
        require_json(request)
        await session.redo(who)
        return JSONResponse(session.view(who))

    async def position(self, request: Request) -> Response:
        session = await self.session(request)
        ply = read_int(request.query_params.get("ply", ""), "ply", low=0, max_digits=6)
        return JSONResponse(position_json(session, caller(request), ply))

    async def open_record(self, request: Request) -> Response:
        who = caller(request)
        data = await read_json(request, MAX_RECORD_BYTES)
        only_keys(data, {"game", "text", "index"})
        session, keys = await open_record(self.games, who, data.get("game"), data.get("text"), data.get("index"))
        mover = session.state.to_move
        seated = Caller(who.client, keys[mover] if mover < len(keys) else keys[0])
        return JSONResponse({**session.view(seated), "keys": keys}, status_code=201)
    async def resign(self, request: Request) -> Response:
        who = caller(request)
        session = await self.session(request)
        data = await read_json(request)
        only_keys(data, set())
        await session.resign(who)
        return JSONResponse(session.view(who))

    async def draw(self, request: Request) -> Response:
        who = caller(request)
        session = await self.session(request)
        data = await read_json(request)
        only_keys(data, {"action"})
        await session.draw(who, data.get("action"))
        return JSONResponse(session.view(who))

    async def rematch(self, request: Request) -> Response:
        who = caller(request)
        session = await self.session(request)
        data = await read_json(request)
        only_keys(data, set())
        new = await self.games.rematch(session, who)
        return JSONResponse(new.view(who))

    async def record(self, request: Request) -> Response:
        session = await self.session(request)
        name = f"{session.game.id}-{session.id}.{record_format(session.game)}"
        return PlainTextResponse(session.record(),
                                 headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def analysis(self, request: Request) -> Response:
        """A bot's analysis of the game's position in force or of the one the page shows."""
        who = caller(request)
        session = await self.session(request)
        data = await read_json(request)
        only_keys(data, {"position", "spec", "seconds"})
        state = seen_state(session.game, session.state, session.over(), session.seat_of(who), data.get("position"))
        assert self.analyst is not None, "the app is not running"
        return JSONResponse(await self.analyst.analyse(f"game {session.id}", who.owner or session.id, session.game,
                                                       state, data.get("spec"), data.get("seconds")))

    async def analysis_of_position(self, request: Request) -> Response:
        """A bot's analysis of any position text of a game (one at a time per client)."""
        who = caller(request)
        data = await read_json(request)
        only_keys(data, {"game", "position", "spec", "seconds"})
        if not who.client:
            raise Forbidden("an analysis needs a client secret (X-Myriad-Client)")
        game_id, position = data.get("game"), data.get("position")
        if not isinstance(game_id, str) or not isinstance(position, str):
            raise MyriadError("send the 'game' id and the 'position' text to analyse")
        try:
            game = get_game(game_id)
        except UnknownGameError as err:  # a bad field of the request, not a missing page
            raise MyriadError(str(err)) from None
        state = seen_state(game, game.parse_position(position.strip()), True, None, None)
        assert self.analyst is not None, "the app is not running"
        return JSONResponse(await self.analyst.analyse(f"client {who.owner}", who.owner, game, state,
                                                       data.get("spec"), data.get("seconds")))

    async def live(self, websocket: WebSocket) -> None:
        """Send the game's view now and after every change, until the page goes away; each
        connection gets its own receiver's view.  Who receives it: the seat key sent in a
        message ``{"type": "seat", "key": "..."}`` (a browser cannot set headers on a
        WebSocket, and a key in the URL would reach logs), else the ``X-Myriad-Seat``
        header of the handshake, else nobody (a watcher: the public view of a hidden game).
        A seat message may come at any time; the view is sent again at once, marked
        ``"seated": true`` (the page may ignore views sent before its key was read)."""
        try:
            session = await self.games.get(websocket.path_params["game_id"])
            who = caller(websocket)
        except MyriadError:
            await websocket.close(code=4404)
            return
        await websocket.accept()
        queue = session.subscribe()
        receiving: asyncio.Future[dict[str, Any] | None] | None = None
        try:
            await websocket.send_json({"type": "state", "game": session.view(who)})
            receiving = asyncio.ensure_future(self._receive(websocket))
            while True:
                sending = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({sending, receiving}, return_when=asyncio.FIRST_COMPLETED)
                if sending not in done:
                    sending.cancel()
                if receiving in done:
                    message = receiving.result()
                    if message is None:
                        return
                    key = message.get("key") if message.get("type") == "seat" else False
                    if key is not False:
                        if key is not None and (not isinstance(key, str) or not SECRET.fullmatch(key)):
                            key = None  # a key of the wrong shape is no key: the public view
                        who = Caller(who.client, key)
                        await websocket.send_json({"type": "state", "game": session.view(who), "seated": True})
                    receiving = asyncio.ensure_future(self._receive(websocket))
                if sending in done:
                    await websocket.send_json({"type": "state", "game": session.view(who)})
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            session.unsubscribe(queue)
            if receiving is not None:
                receiving.cancel()

    @staticmethod
    async def _receive(websocket: WebSocket) -> dict[str, Any] | None:
        """The next JSON object the page sends (anything else reads as ``{}``), or None when
        it disconnects."""
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return None
            try:
                data = json.loads(message.get("text") or message.get("bytes") or b"")
            except (json.JSONDecodeError, UnicodeDecodeError):
                return {}
            return data if isinstance(data, dict) else {}
        return None

    # -- the page --------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        page = resources.files("myriad.web").joinpath("static", "index.html").read_text(encoding="utf-8")
        return Response(page, media_type="text/html", headers={"Cache-Control": "no-cache"})


class HostCheck:
    """ASGI middleware: refuse a request (HTTP or WebSocket) whose ``Host`` is not this
    server's, so that a web page whose name was rebound to this machine's address cannot
    drive it, or whose ``Origin`` is another site's.  A host is this server's when it is an
    IP address, ``localhost`` or a name given with ``allowed_hosts`` (``--allow-host``)."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = LOCAL_HOSTS | {h.lower() for h in allowed_hosts}

    def host_allowed(self, host: str) -> bool:
        """Whether ``host`` (a Host header: name or address, with or without a port) is ours."""
        name = host.lower()
        if name.startswith("["):  # [::1]:8000
            name = name[1:name.find("]")] if "]" in name else ""
        elif name.count(":") == 1:
            name = name.partition(":")[0]
        try:
            ipaddress.ip_address(name)
            return True
        except ValueError:
            return name in self.allowed or name.endswith(".localhost")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]
                       if k in (b"host", b"origin")}
            host = headers.get("host", "")
            origin = headers.get("origin")
            problem = ""
            if not self.host_allowed(host):
                problem = f"this server does not answer to host {host[:80]!r} (see --allow-host)"
            elif origin is not None and origin.partition("://")[2].lower() != host.lower():
                problem = f"requests from another site ({origin[:80]}) are refused"
            if problem:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 4403})
                else:
                    await error(403, problem)(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return error(exc.status_code, str(exc.detail))


#: Status of each kind of refusal (the first that matches); any other MyriadError is a 400.
STATUS = ((NotFound, 404), (UnknownGameError, 404), (Forbidden, 403), (Conflict, 409), (Damaged, 409),
          (AnalysisBusy, 429), (AnalysisRefused, 409), (AnalysisFailed, 503), (NotJson, 415), (StoreBusy, 503), (StoreReadOnly, 503), (StoreError, 503))


async def _myriad_error(request: Request, exc: Exception) -> Response:
    status = next((code for kind, code in STATUS if isinstance(exc, kind)), 400)
    response = error(status, str(exc))
    if isinstance(exc, StoreBusy):
        response.headers["Retry-After"] = "1"
    return response


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("%s %s failed", request.method, request.url.path, exc_info=exc)
    return error(500, "internal server error (logged on the server)")


def create_app(db_path: str | Path, workers: int | None = None, *, read_only: bool = False,
               allowed_hosts: Iterable[str] = (), variants: Sequence[VariantSource] | None = None,
               timer: Callable[[], float] = time.monotonic, wall: Callable[[], float] = time.time) -> Starlette:
    """The Myriad web app storing games in the SQLite file ``db_path`` (opened now: raises
    ``StoreBroken`` naming it when it cannot be used; served read-only when it cannot be
    written or ``read_only``), with ``workers`` bot processes started at once (default 2;
    more start on demand, up to 4), answering to local addresses and ``allowed_hosts``.
    ``variants``: the variant files whose games the bot workers must know (default: those
    this process has loaded; they must be registered here already).  ``timer``: the clocks'
    monotonic time source, ``wall`` the wall clock the store's clocks are written in (fakes
    in tests)."""
    store, banner = open_store(db_path, read_only)
    api = Api(store, banner, workers, loaded_sources() if variants is None else variants, timer, wall)
    game = "/api/games/{game_id:str}"
    routes = [
        Route("/", api.index),
        Route("/api/catalog", api.catalog),
        Route("/api/catalog/{game:str}", api.catalog_game),
        Route("/api/games", api.list_games, methods=["GET"]),
        Route("/api/games", api.create_game, methods=["POST"]),
        Route(game, api.get_game, methods=["GET"]),
        Route(game, api.patch_game, methods=["PATCH"]),
        Route(game, api.delete_game, methods=["DELETE"]),
        Route(f"{game}/moves", api.move, methods=["POST"]),
        Route(f"{game}/undo", api.undo, methods=["POST"]),
        Route(f"{game}/redo", api.redo, methods=["POST"]),
        Route(f"{game}/resign", api.resign, methods=["POST"]),
        Route(f"{game}/draw", api.draw, methods=["POST"]),
        Route(f"{game}/rematch", api.rematch, methods=["POST"]),
        Route(f"{game}/record", api.record, methods=["GET"]),
        Route(f"{game}/position", api.position, methods=["GET"]),
        Route("/api/records", api.open_record, methods=["POST"]),
        Route(f"{game}/analysis", api.analysis, methods=["POST"]),
        Route("/api/analysis", api.analysis_of_position, methods=["POST"]),
        WebSocketRoute(f"{game}/ws", api.live),
        Mount("/static", StaticFiles(packages=[("myriad.web", "static")]), name="static"),
    ]
    handlers = {HTTPException: _http_error, MyriadError: _myriad_error, Exception: _server_error}
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=api.lifespan)
    app.state.api = api
    app.add_middleware(HostCheck, allowed_hosts=allowed_hosts)
    return app
