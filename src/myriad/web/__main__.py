"""``python -m myriad.web [--host H] [--port P] [--db PATH]``: run the browser app."""

from myriad.web.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
