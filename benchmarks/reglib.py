"""Our technique rows against HoDoKu's regression library of human techniques (``reglib-1.3.txt``).

    python benchmarks/reglib.py /tmp/reglib-1.3.txt                # every case
    python benchmarks/reglib.py /tmp/reglib-1.3.txt --only 0100,0610 --variants --show missed,partial,unsound

The library is part of HoDoKu (GPL, not in this repository): take ``reglib-1.3.txt`` from the root of a HoDoKu
source tree (e.g. ``git show f2fc11f^:reglib-1.3.txt`` in a clone of github.com/zh3305/HoDoKu; later trees have
``reglib-1.4.txt``, which differs only in chain lengths) and keep it outside the repository.

One case a line: ``:<code>[-variant]:<candidates>:<givens, + before a placed digit>:<deleted candidates>:
<eliminations>:<placements>:<extra>`` (a variant ``x`` is a fail case: no instance must be found). Each case's
logic state is built from its givens, placed digits and deleted candidates; the code's rows (:data:`ROWS`) are
run on it, each row again and again on a copy, every step applied, until it finds nothing or the expected
eliminations / placements come up (at most :data:`MOST` steps a row): our finders return one instance, and
an instance they take later is found by their search order. The steps that touch the expected candidates are
compared with them: **exact** (one step makes exactly them), **superset** (one makes more), **split** (all of
them, over several steps), **partial** (only some of them), **others only** (the row took other instances, none
touching them: an earlier instance may have taken the expected one away), **missed** (the row found nothing). A
placement is also read as the removal of its cell's other candidates (HoDoKu writes BUG+1 that way).
A fail case passes when no step uses the case's digits.

Soundness: the givens and placed digits are solved by the engine; when that grid has one solution and the
case's candidates keep it, every step (touching the case or not) must keep it: an elimination of a solution
digit or a wrong placement is **unsound**; **checked** counts the cases where soundness could be checked.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from sudokit.engine import solve
from sudokit.errors import SudokitError
from sudokit.geometry import standard
from sudokit.grid import Grid
from sudokit.logic import loops, registry
from sudokit.logic.state import State
from sudokit.logic.step import Candidate, Step

#: HoDoKu's technique codes -> (its name, our rows). A code with no rows is counted "no row".
ROWS: dict[str, tuple[str, tuple[str, ...]]] = {
    "0000": ("Full House", ("Full House",)),
    "0001": ("Last Digit", ("Hidden Single (box)", "Hidden Single (line)")),
    "0002": ("Hidden Single", ("Hidden Single (box)", "Hidden Single (line)")),
    "0003": ("Naked Single", ("Naked Single",)),
    "0100": ("Locked Candidates Type 1", ("Pointing",)),
    "0101": ("Locked Candidates Type 2", ("Claiming",)),
    "0110": ("Locked Pair", ("Naked Pair",)),
    "0111": ("Locked Triple", ("Naked Triple",)),
    "0200": ("Naked Pair", ("Naked Pair",)),
    "0201": ("Naked Triple", ("Naked Triple",)),
    "0202": ("Naked Quadruple", ("Naked Quad",)),
    "0210": ("Hidden Pair", ("Hidden Pair",)),
    "0211": ("Hidden Triple", ("Hidden Triple",)),
    "0212": ("Hidden Quadruple", ("Hidden Quad",)),
    "0300": ("X-Wing", ("X-Wing",)),
    "0301": ("Swordfish", ("Swordfish",)),
    "0302": ("Jellyfish", ("Jellyfish",)),
    "0310": ("Finned X-Wing", ("Finned X-Wing",)),
    "0311": ("Finned Swordfish", ("Finned Swordfish",)),
    "03111": ("Siamese Finned Swordfish", ("Finned Swordfish",)),
    "0312": ("Finned Jellyfish", ("Finned Jellyfish",)),
    "03121": ("Siamese Finned Jellyfish", ("Finned Jellyfish",)),
    "0320": ("Sashimi X-Wing", ("Sashimi X-Wing",)),
    "0321": ("Sashimi Swordfish", ("Sashimi Swordfish",)),
    "03211": ("Siamese Sashimi Swordfish", ("Sashimi Swordfish",)),
    "0322": ("Sashimi Jellyfish", ("Sashimi Jellyfish",)),
    "03221": ("Siamese Sashimi Jellyfish", ("Sashimi Jellyfish",)),
    "0330": ("Franken X-Wing", ("Franken X-Wing",)),
    "0331": ("Franken Swordfish", ("Franken Swordfish",)),
    "0332": ("Franken Jellyfish", ("Franken Jellyfish",)),
    "0340": ("Finned Franken X-Wing", ("Finned Franken X-Wing",)),
    "0341": ("Finned Franken Swordfish", ("Finned Franken Swordfish",)),
    "03411": ("Siamese Finned Franken Swordfish", ("Finned Franken Swordfish",)),
    "0342": ("Finned Franken Jellyfish", ("Finned Franken Jellyfish",)),
    "03421": ("Siamese Finned Franken Jellyfish", ("Finned Franken Jellyfish",)),
    "0350": ("Mutant X-Wing", ("Mutant X-Wing",)),
    "0351": ("Mutant Swordfish", ("Mutant Swordfish",)),
    "0352": ("Mutant Jellyfish", ("Mutant Jellyfish",)),
    "0360": ("Finned Mutant X-Wing", ("Finned Mutant X-Wing",)),
    "0361": ("Finned Mutant Swordfish", ("Finned Mutant Swordfish",)),
    "0362": ("Finned Mutant Jellyfish", ("Finned Mutant Jellyfish",)),
    "03621": ("Siamese Finned Mutant Jellyfish", ("Finned Mutant Jellyfish",)),
    "0363": ("Finned Mutant Squirmbag", ()),
    "0364": ("Finned Mutant Whale", ()),
    "0371": ("Kraken Fish Type 1", ("Kraken Fish",)),
    "0372": ("Kraken Fish Type 2", ("Kraken Fish",)),
    "0400": ("Skyscraper", ("Skyscraper",)),
    "0401": ("2-String Kite", ("2-String Kite",)),
    "0402": ("Empty Rectangle", ("Empty Rectangle",)),
    "0403": ("Turbot Fish", ("Turbot Fish",)),
    "0404": ("Dual 2-String Kite", ("2-String Kite",)),
    "0405": ("Dual Empty Rectangle", ("Empty Rectangle",)),
    "0500": ("Simple Colors Trap", ("Simple Colouring",)),
    "0501": ("Simple Colors Wrap", ("Simple Colouring",)),
    "0502": ("Multi-Colors 1", ("Multi-Colouring",)),
    "0503": ("Multi-Colors 2", ("Multi-Colouring",)),
    "0600": ("Uniqueness Test 1", ("Unique Rectangle",)),
    "0601": ("Uniqueness Test 2", ("Unique Rectangle",)),
    "0602": ("Uniqueness Test 3", ("Unique Rectangle Type 3",)),
    "0603": ("Uniqueness Test 4", ("Unique Rectangle",)),
    "0604": ("Uniqueness Test 5", ("Unique Rectangle Type 5",)),
    "0605": ("Uniqueness Test 6", ("Unique Rectangle Type 6",)),
    "0606": ("Hidden Rectangle", ("Hidden Rectangle",)),
    "0607": ("Avoidable Rectangle 1", ("Avoidable Rectangle Type 1",)),
    "0608": ("Avoidable Rectangle 2", ("Avoidable Rectangle Type 2",)),
    "0610": ("BUG+1", ("BUG+1",)),
    "0620": ("BUG Lite", ()),
    "0701": ("X-Chain", ("X-Chain",)),
    "0702": ("XY-Chain", ("XY-Chain",)),
    "0703": ("Remote Pair", ("XY-Chain",)),
    "0706": ("Continuous Nice Loop", ("Continuous Nice Loop search",)),
    "0707": ("Discontinuous Nice Loop", ("Discontinuous Nice Loop search", "AIC")),
    "0708": ("AIC", ("AIC",)),
    "0709": ("Grouped Continuous Nice Loop", ("Grouped Continuous Nice Loop search",)),
    "0710": ("Grouped Discontinuous Nice Loop", ("Grouped AIC",)),
    "0711": ("Grouped AIC", ("Grouped AIC",)),
    "0800": ("XY-Wing", ("XY-Wing",)),
    "0801": ("XYZ-Wing", ("XYZ-Wing",)),
    "0802": ("WXYZ-Wing", ("WXYZ-Wing",)),
    "0803": ("W-Wing", ("W-Wing",)),
    "0901": ("ALS-XZ", ("ALS-XZ",)),
    "0902": ("ALS-XY-Wing", ("ALS-XY-Wing",)),
    "0903": ("ALS-XY-Chain", ("ALS-Chain",)),
    "0904": ("Death Blossom", ("Death Blossom",)),
    "1000": ("Aligned Pair Exclusion", ("Aligned Pair Exclusion",)),
    "1001": ("Aligned Triple Exclusion", ("Aligned Triple Exclusion",)),
    "1101": ("Sue de Coq", ("Sue de Coq",)),
    "1201": ("Template Set", ("Template Set/Delete",)),
    "1202": ("Template Delete", ("Template Set/Delete",)),
    "1301": ("Forcing Chain Contradiction", ("Contradiction Forcing Chain",)),
    "1302": ("Forcing Chain Verity", ("Cell Forcing Chain",)),
    "1303": ("Forcing Net Contradiction", ("Forcing Net Contradiction",)),
    "1304": ("Forcing Net Verity", ("Forcing Net Verity",)),
}


def _every_loop(state: State, grouped: bool = False) -> Step | None:
    """The continuous-loop search without its row's gate (the row leaves a loop to the AIC row when an AIC is
    shorter: an order of search, which would hide every loop of the library's cases)."""
    loop = loops.find_continuous(state, grouped=grouped)
    return None if loop is None else loops._step(state, loop, grouped)


#: our rows by name, and the searches the runner uses in place of a row
FINDERS: dict[str, Callable[[State], Step | None]] = {t.name: t.find for t in registry.TECHNIQUES}
FINDERS["Continuous Nice Loop search"] = _every_loop
FINDERS["Grouped Continuous Nice Loop search"] = partial(_every_loop, grouped=True)
# the row looks only for the three-candidate placements, the AIC row before it taking every other loop's removal
FINDERS["Discontinuous Nice Loop search"] = partial(loops.discontinuous_nice_loop, after_aic=False)

#: steps a row may take on one case before it is stopped
MOST = 40
G = standard()
COLUMNS = (
    "cases",
    "exact",
    "superset",
    "split",
    "partial",
    "others only",
    "missed",
    "no row",
    "fail ok",
    "fail bad",
    "checked",
    "unsound",
)


@dataclass
class Case:
    line_no: int
    code: str
    variant: str
    digits: frozenset[int]
    values: list[int]
    givens: frozenset[int]
    deleted: list[Candidate]
    eliminations: frozenset[Candidate]
    placements: frozenset[Candidate]

    @property
    def fail(self) -> bool:
        return self.variant == "x"

    @property
    def expected(self) -> frozenset[Candidate]:
        return self.placements or self.eliminations


@dataclass
class Outcome:
    verdict: str
    steps: list[tuple[str, Step]] = field(default_factory=list)
    unsound: list[tuple[str, Step]] = field(default_factory=list)
    checked: bool = False


def _candidates(text: str) -> list[Candidate]:
    """``<digit><row><col>`` entries separated by blanks, as (cell, digit)."""
    return [((int(e[1]) - 1) * 9 + int(e[2]) - 1, int(e[0])) for e in text.split()]


def parse(line: str, line_no: int) -> Case:
    fields = line.rstrip("\n").split(":")
    if len(fields) < 4:
        raise SudokitError(f"line {line_no}: not a test case (needs a code, candidates and givens): {line[:40]!r}")
    fields += [""] * (8 - len(fields))  # the trailing fields may be left off
    code, _, variant = fields[1].partition("-")
    values = [0] * 81
    givens = set()
    s, placed, text = 0, False, fields[3]
    for ch in text:
        if ch == "+":
            placed = True
            continue
        if ch.isdigit() and ch != "0":
            values[s] = int(ch)
            if not placed:
                givens.add(s)
        s += 1
        placed = False
    if s != 81:
        raise SudokitError(f"line {line_no}: the givens have {s} cells, not 81")
    return Case(
        line_no,
        code,
        variant,
        frozenset(int(ch) for ch in fields[2] if ch.isdigit()),
        values,
        frozenset(givens),
        _candidates(fields[4]),
        frozenset(_candidates(fields[5])),
        frozenset(_candidates(fields[6])),
    )


def build_state(case: Case) -> State:
    state = State.from_grid(Grid(G, tuple(case.values)))
    state.givens = case.givens
    for cell, d in case.deleted:
        if not state.values[cell]:
            state.cands[cell] &= ~(1 << (d - 1))
    return State.from_candidates(G, state.values, state.cands, givens=case.givens)


def solution_of(case: Case, state: State) -> list[int] | None:
    """The one solution of the case's digits, when there is one and the case's candidates keep it."""
    result = solve(Grid(G, tuple(case.values)))
    if result.solution is None:
        return None
    sol = list(result.solution.values)
    if any(not state.values[s] and not state.cands[s] >> (sol[s] - 1) & 1 for s in range(81)):
        return None
    return sol


def effect(step: Step) -> frozenset[Candidate]:
    return frozenset(step.placements) | frozenset(step.eliminations)


def is_sound(step: Step, sol: list[int]) -> bool:
    return all(sol[c] == d for c, d in step.placements) and all(sol[c] != d for c, d in step.eliminations)


def run_rows(case: Case, state: State, rows: tuple[str, ...]) -> list[tuple[str, Step]]:
    """Each row's steps on a copy of ``state``, applied one after another, until it finds nothing, the expected
    candidates come up, or :data:`MOST` steps."""
    out = []
    for name in rows:
        find = FINDERS[name]
        work = state.copy()
        for _ in range(MOST):
            step = find(work)
            if step is None or not effect(step):
                break
            out.append((name, step))
            if effect(step) == case.expected or as_eliminations(step, work) == case.expected:
                return out
            work.apply(step)
            if work.is_solved() or work.is_broken():
                break
    return out


def as_eliminations(step: Step, state: State) -> frozenset[Candidate]:
    """A step's effect with each placement written as the removal of the cell's other candidates (HoDoKu writes
    BUG+1 that way)."""
    out = set(step.eliminations)
    for c, d in step.placements:
        out |= {(c, e) for e in range(1, 10) if e != d and state.cands[c] >> (e - 1) & 1}
    return frozenset(out)


def judge(case: Case, state: State, steps: list[tuple[str, Step]]) -> str:
    if case.fail:
        used = [s for _, s in steps if not case.digits or {d for _, d in effect(s)} & case.digits]
        return "fail bad" if used else "fail ok"
    want = case.expected
    effects = [effect(s) if case.placements else as_eliminations(s, state) for _, s in steps]
    touching = [e for e in effects if e & want]
    if not touching:
        return "others only" if steps else "missed"
    if any(e == want for e in touching):
        return "exact"
    if any(e > want for e in touching):
        return "superset"
    if want <= frozenset().union(*touching):
        return "split"
    return "partial"


def check(case: Case) -> Outcome:
    rows = ROWS.get(case.code, ("?", ()))[1]
    if not rows:
        return Outcome("no row")
    state = build_state(case)
    steps = run_rows(case, state, rows)
    out = Outcome(judge(case, state, steps), steps)
    sol = solution_of(case, state)
    out.checked = sol is not None
    if sol is not None:
        out.unsound = [(n, s) for n, s in steps if not is_sound(s, sol)]
    return out


def _label(cands) -> str:
    return " ".join(f"r{c // 9 + 1}c{c % 9 + 1}{'=' if p else '<>'}{d}" for c, d, p in cands)


def describe(case: Case, out: Outcome) -> str:
    want = sorted((c, d, bool(case.placements)) for c, d in case.expected)
    lines = [f"  line {case.line_no} :{case.code}{'-' + case.variant if case.variant else ''}: {out.verdict}"]
    lines.append(f"    expected: {_label(want)}")
    for name, step in out.steps[:6]:
        got = sorted([(c, d, True) for c, d in step.placements] + [(c, d, False) for c, d in step.eliminations])
        bad = " UNSOUND" if any(step is s for _, s in out.unsound) else ""
        lines.append(f"    {name}{bad}: {_label(got)} | {step.explanation[:150]}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="HoDoKu's reglib-1.3.txt")
    parser.add_argument("--only", default="", help="comma list of technique codes to run (default: all)")
    parser.add_argument("--variants", action="store_true", help="a line per code and variant (e.g. 0709-2)")
    parser.add_argument("--show", default="", help="comma list of verdicts whose cases are printed (or 'unsound')")
    args = parser.parse_args()
    try:
        text = args.file.read_text()
    except OSError as e:
        parser.exit(2, f"reglib: cannot read {args.file}: {e.strerror}\n")
    only = {c for c in args.only.split(",") if c}
    show = {c for c in args.show.split(",") if c}
    try:
        cases = [parse(line, i) for i, line in enumerate(text.splitlines(), 1) if line.startswith(":")]
    except SudokitError as e:
        parser.exit(2, f"reglib: {e}\n")
    cases = [c for c in cases if not only or c.code in only]
    table: dict[str, Counter[str]] = defaultdict(Counter)
    cpu: dict[str, float] = defaultdict(float)
    start = time.process_time()
    for case in cases:
        t0 = time.process_time()
        out = check(case)
        key = f"{case.code}-{case.variant}" if args.variants and case.variant else case.code
        cpu[key] += time.process_time() - t0
        row = table[key]
        row["cases"] += 1
        row[out.verdict] += 1
        row["unsound"] += bool(out.unsound)
        row["checked"] += out.checked
        if out.verdict in show or ("unsound" in show and out.unsound):
            print(describe(case, out))
    total_cpu = time.process_time() - start
    print(f"# {len(cases)} cases, {total_cpu:.1f} s CPU, load average {os.getloadavg()[0]:.2f} (1 min)")
    print(f"| code | HoDoKu technique | our rows | {' | '.join(COLUMNS)} | CPU s |")
    print("|" + "---|" * (len(COLUMNS) + 4))
    total: Counter[str] = Counter()
    for code in sorted(table, key=lambda c: (c[:4], c)):
        name, rows = ROWS.get(code.partition("-")[0], ("?", ()))
        row = table[code]
        total.update(row)
        cells = " | ".join(str(row[c]) if row[c] else "" for c in COLUMNS)
        print(f"| {code} | {name} | {', '.join(rows) or '-'} | {cells} | {cpu[code]:.1f} |")
    cells = " | ".join(str(total[c]) for c in COLUMNS)
    print(f"| | all | | {cells} | {total_cpu:.1f} |")


if __name__ == "__main__":
    main()
