"""The browser app: an ASGI server over the public API, and the page it serves.

``create_app`` (in :mod:`myriad.web.app`) builds the app; ``myriad serve`` runs it.
Modules: ``app`` (routes and errors), ``sessions`` (games in progress), ``storage``
(SQLite), ``bots`` (worker processes), ``layout`` and ``moves`` (what the page draws and
enters), ``static/`` (the page: HTML, CSS and plain JavaScript, no build step).
"""
