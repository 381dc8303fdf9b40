"""``sudokit serve``: a local workbench page over a small JSON API that uses the library.

- :mod:`.app` builds the Starlette application (:func:`create_app`): routes, limits, static page.
- :mod:`.inputs` validates request bodies into puzzles, variants and numbers (4xx on anything odd).
- :mod:`.tasks` holds the library calls that may take long (solve, count, hint, generate, rate); they
  take and return plain data so they can run in a worker process.
- :mod:`.worker` runs those tasks in killable worker processes with a time limit, so no request can
  hang the server.
- ``static/`` is the page: plain HTML, CSS and JavaScript, no build step.

Starlette and uvicorn are the ``web`` extra (``pip install sudokit[web]``).
"""

from __future__ import annotations

__all__ = ["create_app"]


def create_app(*args, **kwargs):
    """Build the ASGI application (see :func:`sudokit.web.app.create_app`)."""
    from sudokit.web.app import create_app as _create_app

    return _create_app(*args, **kwargs)
