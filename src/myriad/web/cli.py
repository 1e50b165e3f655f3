"""``myriad serve``: the browser app on a local port."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from myriad.core.errors import MyriadError
from myriad.games.user_variants import add_variants_option, load_variants_option, loaded_sources


def default_db_path() -> Path:
    """Where games are kept unless ``--db`` says otherwise: a file in the user's data
    directory (``~/.local/share/myriad/games.sqlite3`` on Linux)."""
    from platformdirs import user_data_path

    return user_data_path("myriad", appauthor=False) / "games.sqlite3"


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the web app until interrupted."""
    try:
        import uvicorn
    except ImportError as err:
        raise MyriadError(f"the web app needs its dependencies (pip install myriad): {err}") from None
    from myriad.web.app import create_app

    if not 0 <= args.port <= 65535:
        raise MyriadError(f"--port must be 0 to 65535, not {args.port}")
    if args.workers is not None and args.workers < 1:
        raise MyriadError(f"--workers must be at least 1, not {args.workers}")
    db = Path(args.db) if args.db else default_db_path()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app(db, args.workers, read_only=args.read_only, allowed_hosts=[args.host, *args.allow_host],
                     variants=loaded_sources())
    banner = app.state.api.banner
    print(f"Myriad: http://{args.host}:{args.port}/  (games in {db}){'  ' + banner if banner else ''}",
          flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", proxy_headers=args.proxy,
                forwarded_allow_ips="127.0.0.1" if args.proxy else None)
    return 0


def serve_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``serve``."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--db", metavar="PATH",
                        help="SQLite file of the games (default: in the user data directory)")
    parser.add_argument("--workers", type=int, metavar="N",
                        help="bot worker processes started at once (default 2; more start on demand, up to 4)")
    parser.add_argument("--read-only", action="store_true",
                        help="show the stored games without letting anyone change them")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="a host name the server answers to besides localhost and IP addresses "
                             "(the public name behind a reverse proxy); repeatable")
    parser.add_argument("--proxy", action="store_true",
                        help="trust X-Forwarded-For/-Proto from a reverse proxy on 127.0.0.1")
    add_variants_option(parser)
    parser.set_defaults(run=cmd_serve)


def add_serve_command(commands: Any) -> None:
    """Register ``serve`` on the command-line parser."""
    serve_options(commands.add_parser("serve", help="play in the browser (a local web app)"))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m myriad.web``: the same as ``myriad serve``."""
    parser = argparse.ArgumentParser(prog="python -m myriad.web", description="Myriad in the browser.")
    serve_options(parser)
    args = parser.parse_args(argv)
    try:
        load_variants_option(args)  # loaded once, at start: the network never names a file
        return cmd_serve(args)
    except MyriadError as err:
        print(f"myriad: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
