"""The Starlette application: the workbench page and the JSON API it uses.

Every API route takes a JSON object in a POST body (``GET /api/info`` excepted) and answers JSON.
Refusals are 4xx with ``{"error": message}``: malformed JSON, a missing or mistyped field, a puzzle
that does not parse (with the parser's line and column), an unknown variant, a body over 1 MB, a POST
from another site or without the JSON content type. Calls that search (solve, count, hint, explain,
generate, rate) run in worker processes with a time limit and answer 503 when they overrun or no worker
is free. Requests never touch the file system; uploads are read by the page and sent as text.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from sudokit.errors import SudokitError
from sudokit.web import features, inputs, tasks, variants, views
from sudokit.web.inputs import MAX_BODY, ApiError, bad
from sudokit.web.worker import WorkerPool, WorkRefused

log = logging.getLogger("sudokit.web")

STATIC = Path(__file__).resolve().parent / "static"

#: Headers on every answer: the page loads only its own files and cannot be framed.
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}

Handler = Callable[[Request], Awaitable[Response]]


def create_app(
    workers: int | None = None,
    timeout: float = 10.0,
    generate_timeout: float = 30.0,
    allowed_hosts: list[str] | None = None,
) -> Starlette:
    """The workbench application.

    ``workers`` processes serve the quick searching calls (default: up to 2, one per CPU) and one more
    serves the generator; ``timeout`` and ``generate_timeout`` bound each call in seconds.
    ``allowed_hosts`` restricts the ``Host`` header (``sudokit serve`` passes the loopback names when it
    binds to loopback, which stops DNS-rebinding pages from reaching the API).
    """
    quick_workers = workers if workers is not None else max(1, min(2, os.cpu_count() or 1))
    quick = WorkerPool(quick_workers, timeout, initializer=tasks.warm_up)
    slow = WorkerPool(1, generate_timeout, initializer=tasks.warm_up)
    available = features.available()

    @asynccontextmanager
    async def lifespan(app: Starlette):
        quick.start()
        try:
            yield
        finally:
            quick.close()
            slow.close()

    async def run(pool: WorkerPool, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker of ``pool``; a refusal (busy, over time, worker lost) is a 503."""
        try:
            return await pool.run(fn, *args)
        except WorkRefused as exc:
            what = fn.__name__.removesuffix("_task")
            raise ApiError(503, f"{what}: {exc}", {"retry-after": "1"}) from None

    # ---- routes ------------------------------------------------------------------------------
    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def info(request: Request) -> Response:
        return JSONResponse(features.info(available))

    async def geometry(request: Request) -> Response:
        body = await json_body(request)
        variant = inputs.variant_name(body)
        size = inputs.int_field(body, "size", 9, 1, inputs.MAX_SIZE)
        g = inputs.board_geometry(variant, size)
        return JSONResponse({"variant": variant, "geometry": views.geometry_json(g)})

    async def parse(request: Request) -> Response:
        body = await json_body(request)
        text = inputs.text_field(body, "text", MAX_BODY)
        name = inputs.text_field(body, "name", 200, "")
        variant = inputs.variant_name(body)
        index = inputs.int_field(body, "index", 0, 0, 1_000_000)
        grid, found = await run_in_threadpool(inputs.parse_text, text, variant, name, index)
        return JSONResponse({**views.puzzle_json(grid, variant), "found": found})

    async def check(request: Request) -> Response:
        body = await json_body(request)
        grid = inputs.puzzle_field(body)
        return JSONResponse(views.check_json(grid))

    async def candidates(request: Request) -> Response:
        from sudokit.grid import Candidates

        body = await json_body(request)
        grid = inputs.puzzle_field(body)
        cands = Candidates.of(grid)
        return JSONResponse({"candidates": [list(cands[s]) for s in grid.geometry.cells]})

    async def solve(request: Request) -> Response:
        body = await json_body(request)
        grid = inputs.puzzle_field(body)
        variant = inputs.variant_name(body)
        return JSONResponse(await run(quick, tasks.solve_task, grid.to_line(), variant))

    async def count(request: Request) -> Response:
        body = await json_body(request)
        grid = inputs.puzzle_field(body)
        limit = inputs.int_field(body, "limit", 1000, 1, inputs.MAX_COUNT_LIMIT)
        variant = inputs.variant_name(body)
        return JSONResponse(await run(quick, tasks.count_task, grid.to_line(), variant, limit))

    routes: list[BaseRoute] = [
        Route("/", index),
        Route("/api/info", info),
        Route("/api/geometry", geometry, methods=["POST"]),
        Route("/api/parse", parse, methods=["POST"]),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/candidates", candidates, methods=["POST"]),
        Route("/api/solve", solve, methods=["POST"]),
        Route("/api/count", count, methods=["POST"]),
    ]
    routes += features.optional_routes(available, quick, slow, run, json_body)
    routes += variants.routes(quick, run, json_body, slow)
    routes.append(Mount("/static", app=StaticFiles(directory=STATIC), name="static"))

    middleware = [Middleware(HeadersMiddleware)]
    if allowed_hosts:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    middleware.append(Middleware(SameOriginMiddleware))
    return Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={
            ApiError: api_error,
            SudokitError: library_error,
            HTTPException: http_error,
            Exception: server_error,
        },
    )


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read at most :data:`MAX_BODY` bytes far."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not (declared.isascii() and declared.isdigit()):
            raise bad("bad Content-Length header")
        if len(declared) > 9 or int(declared) > MAX_BODY:
            raise ApiError(413, f"request body too large: at most {MAX_BODY} bytes")
    chunks = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise ApiError(413, f"request body too large: at most {MAX_BODY} bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        # nobody reads the answer; one line in the log says what happened
        log.warning(
            "sudokit: %s %s: the client closed the connection after %d bytes of the body",
            request.method,
            request.url.path,
            size,
        )
        raise bad("the request body was cut off") from None
    return inputs.decode_body(b"".join(chunks))


async def api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.message}, status_code=exc.status, headers=exc.headers)


async def library_error(request: Request, exc: Exception) -> Response:
    """The library refused what a request asked (its errors are about the input): 400 with its message."""
    return JSONResponse({"error": str(exc)}, status_code=400)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    messages = {404: "no such page or API route", 405: "method not allowed here"}
    return JSONResponse(
        {"error": messages.get(exc.status_code, str(exc.detail))}, status_code=exc.status_code, headers=exc.headers
    )


async def server_error(request: Request, exc: Exception) -> Response:  # pragma: no cover - a bug if reached
    return JSONResponse({"error": f"internal error: {type(exc).__name__}"}, status_code=500)


#: Values of ``Sec-Fetch-Site`` a POST may carry: the page itself, or no page at all (a script).
SAME_ORIGIN_FETCH = ("same-origin", "none")


def cross_site(headers: Headers) -> str | None:
    """Why a state-changing request comes from another site (a page elsewhere posting to the API), or None.

    Browsers say where a request comes from in ``Sec-Fetch-Site`` and ``Origin``; scripts and curl send
    neither, and are let through."""
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site.lower() not in SAME_ORIGIN_FETCH:
        return f"cross-site request refused (Sec-Fetch-Site: {fetch_site[:40]})"
    origin = headers.get("origin")
    if origin is not None:
        _, _, netloc = origin.partition("://")
        if netloc.lower() != headers.get("host", "").lower():
            return f"cross-site request refused (Origin {origin[:100]!r} is not this server)"
    return None


def not_json(headers: Headers) -> str | None:
    """Why a POST's declared body type is not JSON, or None."""
    media = headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        shown = f"Content-Type {media[:60]!r}" if media else "no Content-Type"
        return f"POST bodies must be JSON with Content-Type: application/json ({shown} sent)"
    return None


class SameOriginMiddleware:
    """Refuse a POST (any method but GET, HEAD and OPTIONS) from another site (403) or whose body is not
    declared JSON (415): a page on another site can send a form or a ``text/plain`` body without asking."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            headers = Headers(scope=scope)
            status, why = 403, cross_site(headers)
            if why is None:
                status, why = 415, not_json(headers)
            if why is not None:
                await JSONResponse({"error": why}, status_code=status)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class HeadersMiddleware:
    """Add :data:`SECURITY_HEADERS` to every answer, and ``no-store`` to API answers."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = scope["path"].startswith("/api/")

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                if api:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
