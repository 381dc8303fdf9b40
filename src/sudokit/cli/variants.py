"""Variant puzzles on the command line: ``solve`` (and ``solve --count``), ``check``, ``show``, ``render`` and
``convert`` hand an argument here when it is an f-puzzles / SudokuPad link, f-puzzles or SudokuPad JSON text,
a ``.json`` / ``.jsonl`` file, or a file whose first entry is a link or JSON (one puzzle, or one link / JSON
object per line). Same outputs and exit codes as for classic puzzles: 0 all solved (checked), 1 a puzzle
without a unique solution (a grid that breaks a rule), 2 unreadable input (one line ``sudokit: error: ...``).
The classic batch layer (:mod:`sudokit.jobs`) is not used: variant files are read and solved here, one
puzzle at a time."""

from __future__ import annotations

import os
import sys
import time

import click

from sudokit.cli.report import count_text, describe_result
from sudokit.errors import SudokitError

#: ``convert --to`` layouts that keep the constraints: f-puzzles JSON, an f-puzzles link (``link`` is its short
#: name), a SudokuPad link with the f-puzzles payload (every kind), SudokuPad's JSON and an ``scl`` link (the
#: kinds SudokuPad draws, see docs/variants.md).
VARIANT_FORMATS = ("fpuzzles", "fpuzzles-link", "link", "sudokupad-link", "scl", "scl-link")


def is_variant_arg(arg: str) -> bool:
    """True when the argument names a variant puzzle (see the module doc), or is a file whose first entry
    is one (a text file of links)."""
    from sudokit.formats.fpuzzles import looks_like_variant

    if looks_like_variant(arg):
        return True
    if arg == "-":
        return looks_like_variant(_first_line(_peek_stdin().decode("utf-8", "replace").splitlines()))
    return os.path.isfile(arg) and looks_like_variant(_first_entry(arg))


def _peek_stdin() -> bytes:
    """The start of stdin, left unread for whoever reads it next (the classic reader or :func:`load`)."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:
        return b""
    try:
        if hasattr(buffer, "peek"):
            return buffer.peek(4096)[:4096]
        if buffer.seekable():
            where = buffer.tell()
            head = buffer.read(4096)
            buffer.seek(where)
            return head
    except (OSError, ValueError):
        return b""
    return b""


def _first_line(lines) -> str:
    """The first line that is neither blank nor a ``#`` comment ('' when there is none)."""
    return next((line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")), "")


def _first_entry(path: str) -> str:
    """The first entry of a text file ('' when there is none or the file is not text)."""
    try:
        with open(path, encoding="utf-8") as f:
            return _first_line(line for _, line in zip(range(1000), f))
    except (OSError, UnicodeDecodeError):
        return ""


def load(arg: str) -> tuple[list, bool]:
    """``([(line, puzzle or error), ...], single)``: a puzzle typed as the argument is ``single``."""
    from sudokit.formats.fpuzzles import parse_variant, read_variant_lines

    text_arg = arg.strip()
    if text_arg == "-" or os.path.exists(text_arg) or text_arg.lower().endswith((".json", ".jsonl")):
        if text_arg != "-" and not os.path.isfile(text_arg):
            raise SudokitError(f"{text_arg}: no such file")
        source = "<stdin>" if text_arg == "-" else text_arg
        if text_arg == "-":
            text = sys.stdin.buffer.read().decode("utf-8") if hasattr(sys.stdin, "buffer") else sys.stdin.read()
        else:
            with open(text_arg, encoding="utf-8") as f:
                text = f.read()
        items = list(read_variant_lines(text, source))
        if not items:
            raise SudokitError(f"{source}: no puzzle in it")
        return items, False
    return [(1, parse_variant(text_arg))], True


def solve(
    arg: str,
    limit: int,
    counting: bool,
    stats: bool,
    time_limit: float | None = None,
    out_format: str | None = None,
    method: str = "engine",
) -> int:
    """``sudokit solve`` for variant puzzles; returns the exit status."""
    if method != "engine":
        raise SudokitError(f"--method {method} solves classic puzzles; variant puzzles have their own solver")
    from sudokit.constraints.solver import solve_variant
    from sudokit.formats import format_grid

    items, single = load(arg)
    if single:
        result = solve_variant(items[0][1], limit=limit, time_limit=time_limit)
        _print_result(result, limit, counting, out_format or "pretty")
        if stats:
            s = result.stats
            click.echo(
                f"status {result.status}, guesses {s.guesses}, nodes {s.nodes}, backtracks {s.backtracks}, "
                f"{s.seconds * 1e3:.3f} ms ({result.method})"
            )
        return 0 if result.status == "solved" or (counting and result.status == "multiple") else 1
    solved = failed = bad = 0
    start = time.perf_counter()
    for line, item in items:
        if isinstance(item, SudokitError):
            click.echo(f"sudokit: error: {item}", err=True)
            click.echo(f"# line {line}: unreadable")
            bad += 1
            continue
        result = solve_variant(item, limit=limit, time_limit=time_limit)
        if result.status == "timeout":
            click.echo(f"# line {line}: {describe_result(result, limit, counting)}")
        elif counting:
            click.echo(count_text(result.count, limit))
        elif result.solution is not None:
            click.echo(format_grid(result.solution, "line" if out_format in (None, "pretty") else out_format))
        else:
            click.echo(f"# line {line}: {describe_result(result, limit, False)}")
        if result.status == "solved":
            solved += 1
        else:
            failed += 1
    seconds = time.perf_counter() - start
    done = solved + failed
    avg = seconds / done if done else 0.0
    click.echo(f"Solved {solved} of {done + bad} puzzles (avg {avg * 1e3:.2f} ms)", err=True)
    if bad:  # the batch commands' rule: an unreadable line is status 2, whatever else happened
        return 2
    if counting:
        return 0
    return 1 if failed else 0


def _print_result(result, limit: int, counting: bool, out_format: str) -> None:
    from sudokit.formats import format_grid

    if counting:
        click.echo(describe_result(result, limit, True))
    elif result.solution is not None:
        click.echo(format_grid(result.solution, "grid" if out_format == "pretty" else out_format))
    else:
        click.echo(describe_result(result, limit, False))


def show(arg: str) -> int:
    """``sudokit show`` for variant puzzles: the givens as a grid, then every rule in words."""
    from sudokit.formats import format_grid

    items, _ = load(arg)
    bad = 0
    for i, (_, item) in enumerate(items):
        if isinstance(item, SudokitError):
            click.echo(f"sudokit: error: {item}", err=True)
            bad += 1
            continue
        if i:
            click.echo()
        if item.title:
            click.echo(item.title + (f" by {item.author}" if item.author else ""))
        click.echo(format_grid(item.givens, "grid"))
        for line in item.describe():
            click.echo(f"- {line}")
    return 2 if bad else 0


def convert(
    arg: str,
    to_format: str,
    output: str | None,
    variant: str | None = None,
    input_format: str = "auto",
    strict: bool = False,
) -> int:
    """``sudokit convert`` for variant puzzles (and classic ones, read as ``convert`` reads them, to f-puzzles):
    one puzzle per line."""
    from sudokit.constraints import VariantPuzzle
    from sudokit.formats.fpuzzles import to_json, to_link
    from sudokit.formats.sudokupad import to_sudokupad_json

    if to_format not in VARIANT_FORMATS:
        raise SudokitError(
            f"--to {to_format} would drop the variant's constraints: use --to {' or '.join(VARIANT_FORMATS)}"
        )
    if is_variant_arg(arg):
        items, _ = load(arg)
    else:
        from sudokit.cli.inputs import open_puzzles

        items = []
        for entry in open_puzzles(arg, variant, input_format, strict).entries:
            if entry.grid is None:
                items.append((entry.line, SudokitError(str(entry.error))))
            else:
                items.append((entry.line, VariantPuzzle.from_grid(entry.grid)))
    lines = []
    bad = 0
    for line, item in items:
        if isinstance(item, SudokitError):
            click.echo(f"sudokit: error: {item}", err=True)
            bad += 1
            continue
        try:
            if to_format == "fpuzzles":
                lines.append(to_json(item))
            elif to_format == "scl":
                lines.append(to_sudokupad_json(item))
            else:
                site = {"scl-link": "scl", "sudokupad-link": "sudokupad"}.get(to_format, "f-puzzles")
                lines.append(to_link(item, site))
        except SudokitError as exc:
            click.echo(f"sudokit: error: {f'line {line}: ' if len(items) > 1 else ''}{exc}", err=True)
            bad += 1
    text = "".join(line + "\n" for line in lines)
    if output:
        with open(output, "w", encoding="utf-8") as out:
            out.write(text)
    else:
        click.echo(text, nl=False)
    return 2 if bad else 0


def check(arg: str, quiet: bool = False) -> int:
    """``sudokit check`` for variant puzzles: a complete grid must keep every unit and every constraint; a
    puzzle must have no clash (two equal digits in a unit or in cells a constraint makes differ, or a rule
    whose cells are all given and broken)."""
    items, single = load(arg)
    failed = bad = 0
    for line, item in items:
        if isinstance(item, SudokitError):
            click.echo(f"sudokit: error: {item}", err=True)
            bad += 1
            continue
        ok, sentence = verdict(item)
        failed += not ok
        if not quiet:
            where = "" if single else f"{'<stdin>' if arg == '-' else arg}:{line}: "
            click.echo(f"{where}{'ok' if ok else 'FAIL'}: {sentence}")
    return 2 if bad else (1 if failed else 0)


def verdict(puzzle) -> tuple[bool, str]:
    """(ok, sentence) for a variant puzzle's givens (see :func:`check`)."""
    from sudokit.words import plural

    grid = puzzle.givens
    g = grid.geometry
    values = grid.values
    clash = grid.conflicts()
    if clash:
        what = "not a valid grid" if grid.is_complete else "inconsistent puzzle"
        return False, f"{what}: {clash[0].describe(g)}"
    for s, peers in enumerate(puzzle.peers):
        twin = next((t for t in peers if t > s and values[s] and values[t] == values[s]), None)
        if twin is not None:
            what = "not a valid grid" if grid.is_complete else "inconsistent puzzle"
            return False, f"{what}: {g.label(s)} and {g.label(twin)} must differ, both hold {values[s]}"
    for con in puzzle.constraints:
        cells = con.cells
        if (grid.is_complete or (cells and all(values[s] for s in cells))) and not con.check(values):
            what = "not a valid grid" if grid.is_complete else "inconsistent puzzle"
            return False, f"{what}: breaks {con.describe(g)}"
    if grid.is_complete:
        return True, f"valid complete grid, {plural(len(puzzle.constraints), 'constraint')} kept"
    givens = sum(1 for v in values if v)
    empty = g.n_cells - givens
    return True, (
        f"consistent puzzle ({plural(givens, 'given')}, {plural(empty, 'empty cell')}, "
        f"{plural(len(puzzle.constraints), 'constraint')})"
    )


def render(
    arg: str,
    output: str,
    candidates: bool = False,
    highlight: str | None = None,
    solve_it: bool = False,
    scale: float = 2.0,
    coordinates: bool = True,
) -> int:
    """``sudokit render`` for a variant puzzle: its givens (or its solution, ``--solve``) with every
    constraint drawn, as SVG (``-`` or ``.svg``) or PNG."""
    from sudokit.grid import Candidates
    from sudokit.render.highlight import parse_highlight

    items, _ = load(arg)
    if len(items) != 1:
        raise SudokitError(f"{arg}: render draws one puzzle, this file holds {len(items)}")
    item = items[0][1]
    if isinstance(item, SudokitError):
        raise item
    grid = item.givens
    spec = parse_highlight(highlight, grid.geometry) if highlight else None
    shown, solution_of = grid, None
    if solve_it:
        from sudokit.constraints.solver import solve_variant

        result = solve_variant(item, limit=1)
        if result.solution is None:
            raise SudokitError(f"cannot draw the solution: {result.status}")
        shown, solution_of = result.solution, grid
    options = dict(
        candidates=Candidates.of(grid) if candidates else None,
        highlight=spec,
        solution_of=solution_of,
        coordinates=coordinates,
        puzzle=item,
    )
    if output == "-":
        from sudokit.render.svg import board_svg

        click.echo(board_svg(shown, **options))
        return 0
    from sudokit.render.png import save_board

    path = save_board(output, shown, scale=scale, **options)
    click.echo(f"wrote {path}", err=True)
    return 0


# ---- hint, explain and rate: logic on variant puzzles ------------------------------------------------
#: Seconds the solver may spend proving a variant puzzle has a solution (one) before logic works on it.
PROOF_SECONDS = 20.0


def _one_puzzle(arg: str, command: str):
    """The single variant puzzle ``hint`` / ``explain`` work on (a file must hold exactly one)."""
    items, _ = load(arg)
    if len(items) != 1:
        raise SudokitError(f"{arg}: {command} takes one puzzle, this holds {len(items)}")
    item = items[0][1]
    if isinstance(item, SudokitError):
        raise item
    return item


def _why_not_proper(puzzle) -> str | None:
    """Why logic should not work on ``puzzle`` (no solution, several), or None: proper, or not proved within
    :data:`PROOF_SECONDS` (logic is sound either way; a note says so)."""
    from sudokit.constraints.solver import solve_variant

    result = solve_variant(puzzle, limit=2, time_limit=PROOF_SECONDS)
    if result.status == "no_solution" or result.status == "invalid":
        return "the puzzle has no solution"
    if result.status == "multiple":
        return "the puzzle has more than one solution"
    if result.status == "timeout":
        click.echo(f"sudokit: note: uniqueness not proved within {PROOF_SECONDS:g} s", err=True)
    return None


def _has_solution(puzzle) -> bool | None:
    """Whether logic should go on with ``puzzle``: False (said on stderr) when it has no solution; None, with a
    note, when it has several: the steps stay sound without the techniques that assume a unique solution
    (left out, as for a classic puzzle), but may not lead to one solution."""
    why = _why_not_proper(puzzle)
    if why == "the puzzle has no solution":
        click.echo(f"sudokit: {why}", err=True)
        return False
    if why:
        click.echo(f"sudokit: note: {why}; techniques that assume a unique solution are left out", err=True)
        return None
    return True


def hint(arg: str, level: int, as_json: bool, techniques) -> int:
    """``sudokit hint`` on a variant puzzle; returns the exit status (as for classic puzzles)."""
    import json

    from sudokit.cli.logic_input import COMPLETE, STUCK
    from sudokit.logic import hint as next_hint

    puzzle = _one_puzzle(arg, "hint")
    if puzzle.givens.is_complete:
        click.echo(COMPLETE)
        return 0
    proper = _has_solution(puzzle)
    if proper is False:
        return 1
    several = proper is None
    step = next_hint(puzzle, level=level, uniqueness=not several, techniques=techniques, several_solutions=several)
    if step is None:
        click.echo(STUCK)
        return 1
    click.echo(json.dumps(step.to_dict(), indent=1) if as_json else step.explanation)
    return 0


def explain(arg: str, as_json: bool, hard_only: bool, techniques, singles: set[str]) -> int:
    """``sudokit explain`` on a variant puzzle; returns the exit status (as for classic puzzles)."""
    import json

    from sudokit.cli.logic_input import COMPLETE, STUCK
    from sudokit.formats import format_grid
    from sudokit.logic import explain as solve_by_logic
    from sudokit.logic.rating import hodoku_level, se_parts
    from sudokit.words import plural

    puzzle = _one_puzzle(arg, "explain")
    if puzzle.givens.is_complete and not as_json:
        click.echo(COMPLETE)
        return 0
    proper = _has_solution(puzzle)
    if proper is False:
        return 1
    several = proper is None
    path = solve_by_logic(puzzle, uniqueness=not several, techniques=techniques, several_solutions=several)
    er, ep, ed = se_parts(path)
    score, level = hodoku_level(path)
    if as_json:
        out = {
            "solved": path.solved,
            "rating": er,
            "level": level,
            "score": score,
            "technique_set": techniques.spec,
            "grid": path.grid.to_line() if path.grid else None,
            "steps": [s.to_dict() for s in path.steps],
        }
        click.echo(json.dumps(out, indent=1))
        return 0 if path.solved else 1
    width = len(str(len(path.steps)))
    for i, step in enumerate(path.steps, 1):
        if hard_only and step.technique in singles:
            continue
        click.echo(f"{i:>{width}}. [{step.rating:.1f}] {step.explanation}")
    steps = plural(len(path.steps), "step")
    if path.solved:
        click.echo(f"Solved by logic in {steps}: SE {er:.1f}/{ep:.1f}/{ed:.1f}, {level} ({score})")
        return 0
    click.echo(f"{STUCK} After {steps}, the grid is:")
    assert path.grid is not None  # explain() always records the grid it reached
    click.echo(format_grid(path.grid, "line"))
    return 1


def rate(arg: str, as_json: bool, techniques) -> int:
    """``sudokit rate`` on variant puzzles (one, or a file of them): the rating of each proper one; a puzzle
    without exactly one solution is not rated (exit 1), an unreadable line is exit 2."""
    import json

    from sudokit.logic.rating import rate as rate_one

    items, single = load(arg)
    bad = not_rated = 0
    for line, item in items:
        if isinstance(item, SudokitError):
            click.echo(f"sudokit: error: {item}", err=True)
            bad += 1
            continue
        why = _why_not_proper(item)
        if why is None and not any(item.givens.values) and not item.constraints:
            why = "the grid is empty: there is nothing to reason from"
        if why is not None:
            not_rated += 1
            if as_json:
                click.echo(json.dumps({"line": line, "error": why}))
            elif single:
                click.echo(f"sudokit: not rated: {why}", err=True)
            else:
                click.echo(f"{line}: not rated: {why}")
            continue
        r = rate_one(item, extras=False, techniques=techniques)
        if as_json:
            click.echo(json.dumps({"line": line, **r.to_dict()}))
        elif single:
            click.echo(f"SE rating (ER/EP/ED): {r.se}" + ("" if r.solved else "  (not solved by these techniques)"))
            click.echo(f"HoDoKu level: {r.level} (score {r.score})")
            click.echo(f"hardest step: {r.hardest}")
            click.echo(f"steps: {r.steps}")
            click.echo(f"techniques: {r.technique_set}; sudokit {r.version}")
        else:
            click.echo(f"{line}: {r.se}  {r.level} ({r.score})  {r.hardest}")
    if bad:
        return 2
    return 1 if not_rated else 0
