"""Variant puzzles in the workbench: a pasted f-puzzles / SudokuPad link (or JSON) is read, drawn with its
constraints (the same SVG as ``sudokit render``), solved, counted, hinted, explained and rated; killers are
generated.

Routes (JSON in, JSON out, like the rest of the API):

- ``POST /api/variant/load`` ``{"text": link}`` -> title, author, size, the rules in words, the SVG;
- ``POST /api/variant/solve`` ``{"text": link}`` -> status, the solution (checked against every rule), its SVG;
- ``POST /api/variant/count`` ``{"text": link, "limit": n}`` -> the count up to ``limit``;
- ``POST /api/variant/hint`` ``{"text": link}`` -> the next logical step (``step``: technique, explanation,
  highlights, and the board it applies to as ``values`` and candidate ``masks``), or a ``message`` why none;
- ``POST /api/variant/explain`` ``{"text": link}`` -> every step of the logical path, each with the board
  before it, whether it reached the solution, and the rating;
- ``POST /api/variant/rate`` ``{"text": link}`` -> the rating (SE ER/EP/ED, HoDoKu level and score, the
  hardest step) and ``lines``, the lines ``sudokit rate LINK`` prints;
- ``POST /api/variant/picture`` ``{"text": link, "values": [...], "candidates": [...], "highlight": {...}}`` -> the
  SVG of a step's board (its digits, candidates and highlights) with every constraint drawn;
- ``POST /api/variant/generate`` ``{"kind": "killer", "seed": n}`` -> a new killer (cages only, one solution)
  as links (f-puzzles and SudokuPad) and what ``load`` answers for it.

A link that does not read is a 400 with the reader's one-line message. The searching calls run in a worker
pool with its time limit (solve, count, hint, explain, rate in the quick pool; generate in the generator's),
each told a time limit of its own a little inside the pool's, so it answers ``timeout`` (or a message)
before its worker would be stopped. Logic first proves the puzzle has one solution with the variant solver,
as ``sudokit hint LINK`` does; when it has several or the proof runs out of time, the techniques that
assume a unique solution are left out (the steps stay sound either way) and a ``note`` says so.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sudokit.web import inputs
from sudokit.web.inputs import MAX_BODY, ApiError
from sudokit.web.tasks import path_json, step_json

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


# ---- logic: hint, explain, rate -----------------------------------------------------------------------
def _proof(puzzle, seconds: float) -> tuple[str, bool, str]:
    """Whether logic may work on ``puzzle``: ``(stop, uniqueness, note)``. ``stop`` says why not (no solution),
    else ''; ``uniqueness`` is True only when the solver proved exactly one solution within ``seconds``."""
    from sudokit.constraints.solver import solve_variant

    status = str(solve_variant(puzzle, limit=2, time_limit=seconds).status)
    if status in ("no_solution", "invalid"):
        return "the puzzle has no solution", False, ""
    if status == "multiple":
        return "", False, "the puzzle has more than one solution: the steps leave out the techniques that assume one"
    if status == "timeout":
        note = f"one solution was not proved within {seconds:g} s: the steps leave out the techniques that assume one"
        return "", False, note
    return "", True, ""


def hint_task(text: str, time_limit: float) -> dict[str, Any]:
    """The next logical step on the puzzle's givens, or a ``message`` why there is none."""
    from sudokit.logic import next_step
    from sudokit.logic.explain import start_state
    from sudokit.logic.registry import applicable

    puzzle = _puzzle(text)
    if puzzle.givens.is_complete:
        return {"step": None, "message": "the grid is complete", "note": ""}
    stop, uniqueness, note = _proof(puzzle, time_limit / 2)
    if stop:
        return {"step": None, "message": stop, "note": ""}
    state = start_state(puzzle)
    values, masks = state.values[:], state.cands[:]
    step = next_step(state, applicable(state, uniqueness))
    if step is None:
        return {"step": None, "message": "no technique applies here: logic is stuck (try Solve)", "note": note}
    return {"step": step_json(step, values, masks), "message": "", "note": note}


def explain_task(text: str, time_limit: float) -> dict[str, Any]:
    """The whole logical path, each step with the board before it (so the page can step back and forth)."""
    from sudokit.logic import explain

    puzzle = _puzzle(text)
    stop, uniqueness, note = _proof(puzzle, time_limit / 2)
    if stop:
        return {"steps": [], "solved": False, "stuck": False, "rating": None, "message": stop, "note": ""}
    return {**path_json(puzzle, explain(puzzle, uniqueness=uniqueness), " (try Solve)"), "note": note}


def rate_task(text: str, time_limit: float) -> dict[str, Any]:
    """The rating of a proper puzzle, with the lines ``sudokit rate LINK`` prints; ``error`` when the puzzle
    is not rated (no solution, several, or one not proved in time)."""
    from sudokit.logic.rating import rate

    puzzle = _puzzle(text)
    seconds = time_limit / 2
    stop, uniqueness, note = _proof(puzzle, seconds)
    if stop or not uniqueness:
        why = stop or note.split(":")[0]
        return {"error": f"not rated: {why}"}
    if not any(puzzle.givens.values) and not puzzle.constraints:
        return {"error": "not rated: the grid is empty: there is nothing to reason from"}
    r = rate(puzzle, extras=False)
    lines = [
        f"SE rating (ER/EP/ED): {r.se}" + ("" if r.solved else "  (not solved by these techniques)"),
        f"HoDoKu level: {r.level} (score {r.score})",
        f"hardest step: {r.hardest}",
        f"steps: {r.steps}",
        f"techniques: {r.technique_set}; sudokit {r.version}",
    ]
    return {**r.to_dict(), "lines": lines}


def picture(text: str, values: list[int], masks: list[int] | None, highlight: dict | None) -> str:
    """The SVG of a board of the puzzle (a step's digits, candidates and highlights), constraints drawn; the
    givens are drawn as givens, the other digits as placed."""
    from sudokit.grid import Candidates, Grid
    from sudokit.render.svg import board_svg

    puzzle = _puzzle(text)
    g = puzzle.geometry
    candidates = None
    if masks is not None:
        candidates = Candidates(g, tuple(1 << (v - 1) if v else m for v, m in zip(values, masks)))
    return board_svg(
        Grid(g, tuple(values)),
        candidates,
        highlight,
        solution_of=puzzle.givens,
        cell_size=44 if g.size > 9 else None,
        puzzle=puzzle,
    )


def _values_field(body: dict[str, Any], g) -> list[int]:
    """``values``: one digit (0 for empty) per cell; a given must keep its digit."""
    values = body.get("values")
    if not isinstance(values, list) or len(values) != g.n_cells:
        raise inputs.bad(f"field 'values' must be a list of {g.n_cells} digits (0 for an empty cell)")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= g.size:
            raise inputs.bad(f"field 'values' holds {v!r}: each digit must be an integer 0..{g.size}")
    return values


# ---- generate ---------------------------------------------------------------------------------------------
#: The kinds the page generates (the generator makes more; the page offers what it was built for).
PAGE_KINDS = ("killer",)
#: Largest seed a page may give (numpy takes any non-negative integer; this keeps it a JSON-safe number).
MAX_SEED = 2**53 - 1


def generate_task(kind: str, seed: int, time_limit: float) -> dict[str, Any]:
    """A new puzzle of ``kind`` from ``seed``: its links and what :func:`load_view` shows; ``error`` when none
    was found within ``time_limit``."""
    from sudokit.errors import SudokitError
    from sudokit.formats.fpuzzles import to_link
    from sudokit.generate.variants import generate_variant

    try:
        made = generate_variant(kind, seed=seed, time_limit=time_limit)
    except SudokitError as exc:
        return {"error": str(exc)}
    puzzle = dataclasses.replace(made.puzzle, title=made.puzzle.title or f"{kind.capitalize()}, seed {seed}")
    link = to_link(puzzle, "f-puzzles")
    return {
        **load_view(link),
        "kind": kind,
        "seed": seed,
        "link": link,
        "sudokupad_link": to_link(puzzle, "sudokupad"),
    }


def routes(quick, run: Callable, json_body: Callable, slow=None) -> list[Route]:
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

    async def hint(request: Request) -> Response:
        body = await json_body(request)
        text = inputs.text_field(body, "text", MAX_BODY)
        _puzzle(text)
        return JSONResponse(await run(quick, hint_task, text, time_limit))

    async def explain(request: Request) -> Response:
        body = await json_body(request)
        text = inputs.text_field(body, "text", MAX_BODY)
        _puzzle(text)
        return JSONResponse(await run(quick, explain_task, text, time_limit))

    async def rate(request: Request) -> Response:
        body = await json_body(request)
        text = inputs.text_field(body, "text", MAX_BODY)
        _puzzle(text)
        result = await run(quick, rate_task, text, time_limit)
        if "error" in result:
            raise ApiError(422, result["error"])
        return JSONResponse(result)

    async def draw(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        from sudokit.web.features import _masks_field

        body = await json_body(request)
        text = inputs.text_field(body, "text", MAX_BODY)
        puzzle = _puzzle(text)
        g = puzzle.geometry
        values = _values_field(body, g)
        masks = _masks_field(body, g.n_cells, g.all_mask)
        highlight = inputs.highlight_field(body, g)
        svg = await run_in_threadpool(picture, text, values, masks, highlight)
        return JSONResponse({"svg": svg})

    async def generate(request: Request) -> Response:
        body = await json_body(request)
        kind = inputs.text_field(body, "kind", 40, "killer").strip().lower()
        if kind not in PAGE_KINDS:
            raise inputs.bad(f"unknown kind {kind!r}; the page generates: {', '.join(PAGE_KINDS)}")
        seed = inputs.int_field(body, "seed", 1, 0, MAX_SEED)
        pool = slow if slow is not None else quick
        result = await run(pool, generate_task, kind, seed, max(0.5, pool.timeout * 0.6))
        if "error" in result:
            raise ApiError(422, result["error"] + "; try another seed")
        return JSONResponse(result)

    return [
        Route("/api/variant/load", load, methods=["POST"]),
        Route("/api/variant/solve", solve, methods=["POST"]),
        Route("/api/variant/count", count, methods=["POST"]),
        Route("/api/variant/hint", hint, methods=["POST"]),
        Route("/api/variant/explain", explain, methods=["POST"]),
        Route("/api/variant/rate", rate, methods=["POST"]),
        Route("/api/variant/picture", draw, methods=["POST"]),
        Route("/api/variant/generate", generate, methods=["POST"]),
    ]
