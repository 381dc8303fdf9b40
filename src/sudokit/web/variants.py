"""Variant puzzles in the workbench: a pasted f-puzzles / SudokuPad link (or JSON) is read, drawn with its
constraints (the same SVG as ``sudokit render``), solved and counted.

Routes (JSON in, JSON out, like the rest of the API):

- ``POST /api/variant/load`` ``{"text": link}`` -> title, author, size, the rules in words, the SVG;
- ``POST /api/variant/solve`` ``{"text": link}`` -> status, the solution (checked against every rule), its SVG;
- ``POST /api/variant/count`` ``{"text": link, "limit": n}`` -> the count up to ``limit``.

A link that does not read is a 400 with the reader's one-line message. Solving and counting run in the quick
worker pool with its time limit (the variant solver is plain Python: hard puzzles answer ``timeout``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sudokit.web import inputs
from sudokit.web.inputs import MAX_BODY

#: Largest count limit a page may ask for (the variant counter is plain Python).
MAX_VARIANT_COUNT = 1000


def _puzzle(text: str):
    from sudokit.formats.fpuzzles import parse_variant

    return parse_variant(text)


def _svg(puzzle, solution=None) -> str:
    from sudokit.render.svg import variant_svg

    return variant_svg(puzzle, solution, cell_size=44 if puzzle.geometry.size > 9 else None)


def load_view(text: str) -> dict[str, Any]:
    """What the page shows for a variant puzzle: its text, rules in words and picture."""
    puzzle = _puzzle(text)
    g = puzzle.geometry
    return {
        "title": puzzle.title,
        "author": puzzle.author,
        "rules_text": puzzle.rules,
        "size": g.size,
        "givens": list(puzzle.givens.values),
        "rules": puzzle.describe(),
        "svg": _svg(puzzle),
    }


def solve_task(text: str, time_limit: float) -> dict[str, Any]:
    """Solve and prove uniqueness (limit 2); the solution is drawn when there is exactly one."""
    from sudokit.constraints.solver import solve_variant

    puzzle = _puzzle(text)
    result = solve_variant(puzzle, limit=2, time_limit=time_limit)
    solution = result.solution
    return {
        "status": str(result.status),
        "solution": list(solution.values) if solution is not None else None,
        "count": result.count,
        "seconds": round(result.stats.seconds, 6),
        "svg": _svg(puzzle, solution) if solution is not None else None,
    }


def count_task(text: str, limit: int, time_limit: float) -> dict[str, Any]:
    """How many solutions, up to ``limit`` (``exact`` false when the limit was reached or time ran out)."""
    from sudokit.constraints.solver import solve_variant

    result = solve_variant(_puzzle(text), limit=limit, time_limit=time_limit)
    count = result.count or 0
    timed_out = str(result.status) == "timeout"
    return {"count": count, "limit": limit, "exact": count < limit and not timed_out, "status": str(result.status)}


def routes(quick, run: Callable, json_body: Callable) -> list[Route]:
    """The variant routes; ``run(pool, fn, *args)`` runs a task in a worker (a 503 when it overruns)."""
    time_limit = max(0.5, quick.timeout * 0.8)  # answer "timeout" before the worker is stopped

    async def load(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        body = await json_body(request)
        text = inputs.text_field(body, "text", MAX_BODY)
        return JSONResponse(await run_in_threadpool(load_view, text))

    async def solve(request: Request) -> Response:
        body = await json_body(request)
        text = inputs.text_field(body, "text", MAX_BODY)
        _puzzle(text)  # a bad link is a 400 here, not a worker's failure
        return JSONResponse(await run(quick, solve_task, text, time_limit))

    async def count(request: Request) -> Response:
        body = await json_body(request)
        text = inputs.text_field(body, "text", MAX_BODY)
        limit = inputs.int_field(body, "limit", 100, 1, MAX_VARIANT_COUNT)
        _puzzle(text)
        return JSONResponse(await run(quick, count_task, text, limit, time_limit))

    return [
        Route("/api/variant/load", load, methods=["POST"]),
        Route("/api/variant/solve", solve, methods=["POST"]),
        Route("/api/variant/count", count, methods=["POST"]),
    ]
