"""Which parts of the library the workbench offers, and the API routes of the optional ones.

The engine (solve, count) is always there. Logic (hint, explain), the generator, the rating and SVG
pictures are offered when their modules import; ``GET /api/info`` lists what is on, and the page shows a button only
for what is on.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sudokit.web import inputs, tasks
from sudokit.web.inputs import ApiError, bad

#: Boards the page offers in its variant menu (the API takes any name :func:`sudokit.geometry.from_name` knows).
MENU = [
    {"variant": "standard", "size": 9, "label": "Sudoku 9x9"},
    {"variant": "diagonal", "size": 9, "label": "Diagonal (X) 9x9"},
    {"variant": "windoku", "size": 9, "label": "Windoku 9x9"},
    {"variant": "4x4", "size": 4, "label": "Sudoku 4x4"},
    {"variant": "6x6", "size": 6, "label": "Sudoku 6x6"},
    {"variant": "16x16", "size": 16, "label": "Sudoku 16x16"},
]


def _has(module: str, *names: str) -> bool:
    try:
        mod = importlib.import_module(module)
    except Exception:  # a module being written may fail to import in any way: then it is off
        return False
    return all(callable(getattr(mod, n, None)) for n in names)


def available() -> dict[str, bool]:
    """Feature name -> whether the library part behind it imports."""
    logic = _has("sudokit.logic", "explain", "next_step", "State")
    return {
        "solve": True,
        "count": True,
        "candidates": True,
        "hint": logic,
        "explain": logic,
        "generate": _has("sudokit.generate", "Generator"),
        "rate": _has("sudokit.logic.rating", "rate"),
        "svg": _has("sudokit.render.svg", "board_svg"),
    }


def difficulties(on: dict[str, bool]) -> list[str]:
    """The generator's difficulty names, after ``any``."""
    if not on["generate"]:
        return []
    from sudokit.generate import DIFFICULTIES

    return ["any", *DIFFICULTIES]


def info(on: dict[str, bool]) -> dict[str, Any]:
    """What ``GET /api/info`` answers: version, features, the variant menu and the limits."""
    from sudokit import __version__

    return {
        "version": __version__,
        "features": on,
        "variants": MENU,
        "difficulties": difficulties(on),
        "limits": {
            "max_body": inputs.MAX_BODY,
            "max_size": inputs.MAX_SIZE,
            "max_count_limit": inputs.MAX_COUNT_LIMIT,
        },
    }


#: A clause of a library message that names a command-line option (``--time-limit``).
_OPTION_CLAUSE = re.compile(r"[;,]?\s*[^;,:()]*\s--[a-z][a-z-]*[^;,]*")


def for_page(message: str, advice: str) -> str:
    """A library message as a page user reads it: advice for the command line (a clause naming an option
    such as ``--time-limit``) gives way to ``advice``, what the user can do on the page."""
    if not _OPTION_CLAUSE.search(message):
        return message
    return f"{_OPTION_CLAUSE.sub('', message).rstrip(' ;,.')}; {advice}"


def picture(grid, masks: list[int] | None, highlight: dict | None) -> str:
    """The SVG of a board, with the page's candidates (bitmasks) and a step's highlight when given."""
    from sudokit.grid import Candidates
    from sudokit.render.svg import board_svg

    candidates = None
    if masks is not None:
        own = [1 << (v - 1) if v else m for v, m in zip(grid.values, masks)]
        candidates = Candidates(grid.geometry, tuple(own))
    return board_svg(grid, candidates, highlight)


def _masks_field(body: dict[str, Any], n_cells: int, all_mask: int) -> list[int] | None:
    """Optional ``candidates``: one bitmask per cell (bit d-1 = digit d), as the page keeps them."""
    masks = body.get("candidates")
    if masks is None:
        return None
    if not isinstance(masks, list) or len(masks) != n_cells:
        raise bad(f"field 'candidates' must be a list of {n_cells} bitmasks")
    for m in masks:
        if isinstance(m, bool) or not isinstance(m, int) or not 0 <= m <= all_mask:
            raise bad(f"field 'candidates' holds {m!r}: each bitmask must be an integer 0..{all_mask}")
    return masks


def optional_routes(on: dict[str, bool], quick, slow, run: Callable, json_body: Callable) -> list[Route]:
    """The routes of the optional features that are on."""
    routes = []

    async def hint(request: Request) -> Response:
        body = await json_body(request)
        grid = inputs.puzzle_field(body)
        masks = _masks_field(body, grid.geometry.n_cells, grid.geometry.all_mask)
        variant = inputs.variant_name(body)
        return JSONResponse(await run(quick, tasks.hint_task, grid.to_line(), variant, masks))

    async def explain(request: Request) -> Response:
        body = await json_body(request)
        grid = inputs.puzzle_field(body)
        masks = _masks_field(body, grid.geometry.n_cells, grid.geometry.all_mask)
        variant = inputs.variant_name(body)
        return JSONResponse(await run(quick, tasks.explain_task, grid.to_line(), variant, masks))

    async def generate(request: Request) -> Response:
        body = await json_body(request)
        variant = inputs.variant_name(body)
        size = inputs.int_field(body, "size", 9, 1, inputs.MAX_SIZE)
        inputs.board_geometry(variant, size)  # validates the pair
        difficulty = inputs.text_field(body, "difficulty", 40, "any").strip().lower() or "any"
        if difficulty not in difficulties(on):
            raise bad(f"unknown difficulty {difficulty!r}; known: {', '.join(difficulties(on))}")
        time_limit = max(0.5, slow.timeout * 0.6)
        result = await run(
            slow, tasks.generate_task, variant, size, None if difficulty == "any" else difficulty, time_limit
        )
        if "error" in result:
            raise ApiError(422, for_page(result["error"], "try again, or choose another difficulty"))
        return JSONResponse(result)

    async def rate(request: Request) -> Response:
        body = await json_body(request)
        grid = inputs.puzzle_field(body)
        masks = _masks_field(body, grid.geometry.n_cells, grid.geometry.all_mask)
        result = await run(quick, tasks.rate_task, grid.to_line(), inputs.variant_name(body), masks)
        if "error" in result:
            raise ApiError(422, result["error"])
        return JSONResponse(result)

    async def svg(request: Request) -> Response:
        body = await json_body(request)
        grid = inputs.puzzle_field(body)
        masks = _masks_field(body, grid.geometry.n_cells, grid.geometry.all_mask)
        highlight = inputs.highlight_field(body, grid.geometry)
        text = await run_in_threadpool(picture, grid, masks, highlight)
        headers = {"content-disposition": 'inline; filename="sudoku.svg"'}
        return Response(text, media_type="image/svg+xml", headers=headers)

    if on["svg"]:
        routes.append(Route("/api/svg", svg, methods=["POST"]))
    if on["generate"]:
        routes.append(Route("/api/generate", generate, methods=["POST"]))
    if on["rate"]:
        routes.append(Route("/api/rate", rate, methods=["POST"]))
    if on["hint"]:
        routes.append(Route("/api/hint", hint, methods=["POST"]))
    if on["explain"]:
        routes.append(Route("/api/explain", explain, methods=["POST"]))
    return routes
