"""The ASGI app: routes as a table, JSON errors, one WebSocket per game, the static page.

``create_app(db_path)`` builds the app; its lifespan opens the store and starts the bot
workers.  Every error a request can cause is answered as ``{"error": "..."}`` with a 4xx
status; anything unexpected is logged and answered 500 without details.

API (all JSON):

* ``GET  /api/catalog``                     every game's layout, the bot levels, the families
* ``GET  /api/catalog/{game}``              one game's layout
* ``GET  /api/games?family=&limit=``        recent games, newest first
* ``POST /api/games``                       start one: ``{game, seats, position|setup, movetime, delay}``
* ``GET  /api/games/{id}``                  the game as the page sees it
* ``PATCH /api/games/{id}``                 ``{delay, paused, movetime}``
* ``DELETE /api/games/{id}``
* ``POST /api/games/{id}/moves``            ``{move: "e4", ply?: n}``
* ``POST /api/games/{id}/undo`` and ``/redo``
* ``GET  /api/games/{id}/record``           the game record as text (PGN, PDN or moves)
* ``WS   /api/games/{id}/ws``               ``{"type": "state", "game": ...}`` on every change

POST and PATCH requests must be sent as JSON (``Content-Type: application/json``, even with
an empty body), so that another web site cannot drive a local server with a plain form.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from myriad.core.errors import MyriadError, UnknownGameError
from myriad.games import game_ids, get_game
from myriad.notation.records import record_format
from myriad.web.bots import LEVELS, BotPool
from myriad.web.layout import layout_json
from myriad.web.sessions import Conflict, NotFound, Session, Sessions
from myriad.web.storage import Store

log = logging.getLogger("myriad.web")

MAX_BODY = 64 * 1024


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


async def read_json(request: Request) -> dict[str, Any]:
    """The request body as a JSON object; a ``MyriadError`` when it is not one."""
    require_json(request)
    body = await request.body()
    if len(body) > MAX_BODY:
        raise MyriadError(f"request body too large (over {MAX_BODY} bytes)")
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


class Api:
    """The handlers, over one store and one pool of bot workers."""

    def __init__(self, db_path: str | Path, workers: int | None = None) -> None:
        self.db_path = db_path
        self.workers = workers
        self.sessions: Sessions | None = None
        self.catalog_cache: dict[str, Any] | None = None

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        """Open the store and start the bot workers; close both at shutdown."""
        store = Store(self.db_path)
        pool = BotPool(self.workers)
        pool.start()
        self.sessions = Sessions(store, pool)
        log.info("games stored in %s", self.db_path)
        try:
            yield
        finally:
            await self.sessions.close()
            pool.close()
            store.close()

    @property
    def games(self) -> Sessions:
        """The sessions (available while the app runs)."""
        assert self.sessions is not None, "the app is not running"
        return self.sessions

    def session(self, request: Request) -> Session:
        """The game named in the path."""
        return self.games.get(request.path_params["game_id"])

    # -- catalog ---------------------------------------------------------------------------

    async def catalog(self, request: Request) -> Response:
        if self.catalog_cache is None:
            layouts = [layout_json(get_game(g)) for g in game_ids()]
            self.catalog_cache = {"games": layouts, "levels": LEVELS,
                                  "families": list(dict.fromkeys(g["family"] for g in layouts))}
        return JSONResponse(self.catalog_cache)

    async def catalog_game(self, request: Request) -> Response:
        return JSONResponse(layout_json(get_game(request.path_params["game"])))

    # -- games -----------------------------------------------------------------------------

    async def list_games(self, request: Request) -> Response:
        family = request.query_params.get("family") or None
        families = {get_game(g).family for g in game_ids()}
        if family is not None and family not in families:
            raise MyriadError(f"unknown family {family!r}; known: {', '.join(sorted(families))}")
        limit_text = request.query_params.get("limit", "100")
        if not limit_text.isdigit() or not 1 <= int(limit_text) <= 1000:
            raise MyriadError(f"limit must be a whole number from 1 to 1000, not {limit_text!r}")
        return JSONResponse({"games": self.games.summaries(family, int(limit_text))})

    async def create_game(self, request: Request) -> Response:
        data = await read_json(request)
        only_keys(data, {"game", "seats", "position", "setup", "movetime", "delay"})
        session = await self.games.create(data.get("game"), data.get("seats"), data.get("position"),
                                          data.get("setup"), data.get("movetime"), data.get("delay"))
        return JSONResponse(session.view(), status_code=201)

    async def get_game(self, request: Request) -> Response:
        return JSONResponse(self.session(request).view())

    async def patch_game(self, request: Request) -> Response:
        session = self.session(request)
        data = await read_json(request)
        only_keys(data, {"delay", "paused", "movetime"})
        await session.configure(**data)
        return JSONResponse(session.view())

    async def delete_game(self, request: Request) -> Response:
        await self.games.delete(request.path_params["game_id"])
        return Response(status_code=204)

    async def move(self, request: Request) -> Response:
        session = self.session(request)
        data = await read_json(request)
        only_keys(data, {"move", "ply"})
        text, ply = data.get("move"), data.get("ply")
        if not isinstance(text, str):
            raise MyriadError("'move' must be the move in the game's notation, e.g. {\"move\": \"e4\"}")
        if ply is not None and (isinstance(ply, bool) or not isinstance(ply, int)):
            raise MyriadError(f"'ply' must be a whole number, not {ply!r}")
        await session.play(text, ply)
        return JSONResponse(session.view())

    async def undo(self, request: Request) -> Response:
        session = self.session(request)
        require_json(request)
        await session.undo()
        return JSONResponse(session.view())

    async def redo(self, request: Request) -> Response:
        session = self.session(request)
        require_json(request)
        await session.redo()
        return JSONResponse(session.view())

    async def record(self, request: Request) -> Response:
        session = self.session(request)
        name = f"{session.game.id}-{session.id}.{record_format(session.game)}"
        return PlainTextResponse(session.record(),
                                 headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def live(self, websocket: WebSocket) -> None:
        """Send the game's view now and after every change, until the page goes away."""
        try:
            session = self.games.get(websocket.path_params["game_id"])
        except MyriadError:
            await websocket.close(code=4404)
            return
        await websocket.accept()
        queue = session.subscribe()
        try:
            await websocket.send_json({"type": "state", "game": session.view()})
            receiving = asyncio.ensure_future(self._drain(websocket))
            while not receiving.done():
                sending = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({sending, receiving}, return_when=asyncio.FIRST_COMPLETED)
                if sending in done:
                    await websocket.send_json(sending.result())
                else:
                    sending.cancel()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            session.unsubscribe(queue)

    @staticmethod
    async def _drain(websocket: WebSocket) -> None:
        """Read (and ignore) what the page sends, until it disconnects."""
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return

    # -- the page --------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        page = resources.files("myriad.web").joinpath("static", "index.html").read_text(encoding="utf-8")
        return Response(page, media_type="text/html", headers={"Cache-Control": "no-cache"})


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return error(exc.status_code, str(exc.detail))


async def _myriad_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, (NotFound, UnknownGameError)):
        return error(404, str(exc))
    if isinstance(exc, Conflict):
        return error(409, str(exc))
    if isinstance(exc, NotJson):
        return error(415, str(exc))
    return error(400, str(exc))


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("%s %s failed", request.method, request.url.path, exc_info=exc)
    return error(500, "internal server error (logged on the server)")


def create_app(db_path: str | Path, workers: int | None = None) -> Starlette:
    """The Myriad web app storing games in the SQLite file ``db_path``, with ``workers``
    bot processes started at once (default 2; more start on demand, up to 4)."""
    api = Api(db_path, workers)
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
        Route(f"{game}/record", api.record, methods=["GET"]),
        WebSocketRoute(f"{game}/ws", api.live),
        Mount("/static", StaticFiles(packages=[("myriad.web", "static")]), name="static"),
    ]
    handlers = {HTTPException: _http_error, MyriadError: _myriad_error, Exception: _server_error}
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=api.lifespan)
    app.state.api = api
    return app
