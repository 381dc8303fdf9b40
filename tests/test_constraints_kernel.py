"""The compiled variant solver (constraints/solver_model.py + solver_kernel.py) against independent counts.

Property tests: random constraint sets made true by random solved grids on 4x4 and 6x6 boards, counted by the
kernel, by the plain-Python solver (the reference) and by brute force (cells filled in reading order, each
constraint checked once its cells are filled: no propagation); killer-only puzzles cut into cages exercise
the cage sets, the locked cage digits and the innies/outies sums. Corpus puzzles: the kernel finds the file's
solution and proves it unique.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sudokit
from sudokit.constraints import (
    Arrow,
    EqualSums,
    KillerCage,
    LittleKiller,
    Parity,
    Renban,
    Sandwich,
    Skyscraper,
    Thermometer,
    VariantPuzzle,
    XSum,
    solver_model,
)
from sudokit.constraints import solver_kernel as K
from sudokit.constraints.base import NotCompiled, pair_table
from sudokit.constraints.solver import count_plain, count_variant, solve_plain, solve_variant
from sudokit.constraints.solver_model import Model, innies_outies, run
from sudokit.errors import TimeLimitError
from sudokit.formats.fpuzzles import read_fpuzzles
from sudokit.geometry import standard
from sudokit.grid import Grid
from sudokit.result import Status, UncheckedSolutionError
from test_variants import _brute_count, _random_constraints, _solved_grid

CORPUS = Path(__file__).resolve().parents[1] / "data" / "variants" / "iss_fpuzzles.jsonl"
SMALL = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _cages(rng: random.Random, values: list[int], n: int, most: int) -> list[KillerCage]:
    """The whole board cut into connected cages of different digits (1..``most`` cells), each with its sum."""
    free = set(range(n * n))
    out = []
    while free:
        cage = [min(free)]
        free.discard(cage[0])
        want = rng.randint(1, most)
        while len(cage) < want:
            options = [
                t
                for s in cage
                for t in (s - n, s + n, s - 1 if s % n else -1, s + 1 if s % n < n - 1 else -1)
                if t in free and values[t] not in {values[q] for q in cage}
            ]
            if not options:
                break
            t = rng.choice(options)
            cage.append(t)
            free.discard(t)
        out.append(KillerCage(tuple(cage), sum(values[s] for s in cage)))
    return out


def _three_ways(puzzle: VariantPuzzle, limit: int) -> tuple[int, int, int]:
    return count_variant(puzzle, limit), count_plain(puzzle, limit), _brute_count(puzzle, limit)


@SMALL
@given(seed=st.integers(0, 2**32 - 1), six=st.booleans(), keep=st.floats(0.0, 1.0))
def test_random_constraints_kernel_count_is_brute_force_count(seed, six, keep):
    rng = random.Random(seed)
    h, w = (2, 3) if six else (2, 2)
    values = _solved_grid(rng, h, w)
    cons = _random_constraints(rng, values, h, w)
    share = 0.45 + 0.3 * keep if six else 0.35 * keep
    givens = [v if rng.random() < share else 0 for v in values]
    puzzle = VariantPuzzle.build(standard(h, w), givens, cons)
    model = Model.of(puzzle)  # every kind the generator makes has a compiled form
    kernel, plain, brute = _three_ways(puzzle, 30)
    assert kernel == plain == brute >= 1
    assert run(model, 30, probe_after=0, probe_depth=5).count == brute  # probing at every shallow node
    # the bounds only, the probes' fixed points reused from ancestors (and after restarts)
    assert run(model, 30, probe_after=0, probe_depth=5, probe_bounds=True).count == brute
    assert run(model, 30, probe_after=0, probe_depth=99, probe_bounds=True, restart_base=1).count == brute
    assert run(model, 30, wdeg_after=10**9).count == brute  # the fewest candidates only
    assert run(model, 30, restart_base=1).count == brute  # a restart after every failure: nogoods keep it exact
    for places in (K.PLACES_MAX, K.PLACES_SUM):  # also branching on a digit's places in a unit
        assert run(model, 30, places=places).count == brute
    model.unit_weights = not model.unit_weights  # the units' failure weights in dom/wdeg, or not
    assert run(model, 30).count == brute
    assert run(model, 30, restart_base=1).count == brute
    result = solve_variant(puzzle, limit=2)
    assert result.status is (Status.SOLVED if brute == 1 else Status.MULTIPLE)
    if brute == 1:
        assert result.solution.values == tuple(values)


@SMALL
@given(seed=st.integers(0, 2**32 - 1), six=st.booleans(), most=st.integers(2, 5), clues=st.integers(0, 6))
def test_killers_kernel_count_is_brute_force_count(seed, six, most, clues):
    """Cages over the whole board, a few givens: innies/outies and locked cage digits at work."""
    rng = random.Random(seed)
    h, w = (2, 3) if six else (2, 2)
    n = h * w
    values = _solved_grid(rng, h, w)
    cages = _cages(rng, values, n, most)
    givens = [0] * (n * n)
    for s in rng.sample(range(n * n), clues + (8 if six else 0)):
        givens[s] = values[s]
    puzzle = VariantPuzzle.build(standard(h, w), givens, cages)
    kernel, plain, brute = _three_ways(puzzle, 20)
    assert kernel == plain == brute >= 1
    assert run(Model.of(puzzle), 20, probe_after=0, probe_depth=5).count == brute
    assert run(Model.of(puzzle), 20, probe_after=0, probe_depth=99, probe_bounds=True).count == brute


def _unit_rules(rng: random.Random, values: list[int], h: int, w: int) -> list:
    """Rules true on ``values`` that reach the newer propagators: two-cell thermometers between random
    cells (bulbs shared, tips met: the thermometer groups), arrows and equal sums over cells of one row
    (the grouped sums), renban runs of a row (a cage of runs), skyscraper, X-sum and sandwich clues on whole
    rows and columns."""
    n = h * w
    cells = list(range(n * n))
    out: list = []
    for _ in range(rng.randint(2, 2 * n)):
        a, b = rng.sample(cells, 2)
        if values[a] != values[b]:
            out.append(Thermometer((a, b) if values[a] < values[b] else (b, a)))
    for _ in range(rng.randint(0, 3)):
        row = rng.randrange(n)
        line = [row * n + c for c in rng.sample(range(n), rng.randint(3, min(n, 5)))]
        shaft = tuple(line[: rng.randint(2, len(line) - 1)])
        total = sum(values[s] for s in shaft)
        if total <= n:  # a bulb somewhere that holds the shaft's sum
            out.append(Arrow((rng.choice([s for s in cells if values[s] == total]),), shaft))
        left, right = tuple(line[:2]), tuple(line[2:])
        if sum(values[s] for s in left) == sum(values[s] for s in right):
            out.append(EqualSums(left, right))
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
    for line in rng.sample(rows + cols, rng.randint(0, 3)):
        if rng.random() < 0.5:
            line = line[::-1]
        vals = [values[s] for s in line]
        kind = rng.randrange(3)
        if kind == 0:
            seen = sum(vals[i] > max(vals[:i], default=0) for i in range(n))
            out.append(Skyscraper(line, seen))
        elif kind == 1:
            out.append(XSum(line, sum(vals[: vals[0]])))
        else:
            i, j = sorted((vals.index(1), vals.index(n)))
            out.append(Sandwich(line, sum(vals[i + 1 : j])))
    row = rng.choice(rows)
    k = rng.randint(2, n - 1)
    start = rng.randrange(n - k + 1)
    run_cells = tuple(s for s in row if start < values[s] <= start + k)
    out.append(Renban(run_cells))
    return out


@pytest.mark.parametrize("seed", range(60))
def test_unit_aware_propagators_count_like_brute_force(seed):
    """Thermometer groups, grouped sums, run cages, skyscraper states, sandwich and X-sum sets: the kernel's count
    (with and without branching by failure weight) equals the brute-force count."""
    rng = random.Random(1000 + seed)
    h, w = (2, 2) if seed % 3 == 0 else (2, 3)
    values = _solved_grid(rng, h, w)
    cons = _unit_rules(rng, values, h, w)
    keep = rng.uniform(0.0, 0.3)
    givens = [v if rng.random() < keep else 0 for v in values]
    puzzle = VariantPuzzle.build(standard(h, w), givens, cons)
    assert puzzle.is_solution(Grid(puzzle.geometry, tuple(values)))
    model = Model.of(puzzle)
    brute = _brute_count(puzzle, 30)
    assert brute >= 1
    assert run(model, 30, keep=0).count == brute
    assert run(model, 30, keep=0, wdeg_after=10**9).count == brute
    assert run(model, 30, keep=0, places=K.PLACES_MAX).count == brute
    assert run(model, 30, keep=0, places=K.PLACES_SUM).count == brute
    assert run(model, 30, keep=0, restart_base=1).count == brute
    assert run(model, 30, keep=0, restart_base=2, places=K.PLACES_SUM).count == brute
    assert count_variant(puzzle, 30) == brute


@SMALL
@given(seed=st.integers(0, 2**32 - 1), six=st.booleans(), clues=st.integers(1, 12), share=st.floats(0.0, 0.25))
def test_sandwich_puzzles_count_like_brute_force(seed, six, clues, share):
    """Many sandwich clues (rows and columns of a random solved 4x4 or 6x6 grid, either way round), few givens:
    the digit-set sandwich propagator, which its own narrowing does not wake again, counts like brute force
    (4x4) and the plain solver (6x6)."""
    rng = random.Random(seed)
    h, w = (2, 3) if six else (2, 2)
    n = h * w
    values = _solved_grid(rng, h, w)
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
    cons = []
    for line in rng.sample(rows + cols, min(clues, 2 * n)):
        if rng.random() < 0.5:
            line = line[::-1]
        vals = [values[s] for s in line]
        i, j = sorted((vals.index(1), vals.index(n)))
        cons.append(Sandwich(line, sum(vals[i + 1 : j])))
    givens = [v if rng.random() < share + (0.3 if six else 0.0) else 0 for v in values]
    puzzle = VariantPuzzle.build(standard(h, w), givens, cons)
    model = Model.of(puzzle)
    brute = _brute_count(puzzle, 30) if not six else count_plain(puzzle, 30)  # brute force: too slow on 6x6
    assert brute >= 1
    assert run(model, 30, keep=0).count == brute
    assert run(model, 30, keep=0, restart_base=1).count == brute
    assert count_variant(puzzle, 30) == brute


@SMALL
@given(seed=st.integers(0, 2**32 - 1), six=st.booleans(), share=st.floats(0.0, 0.3))
def test_thermometer_puzzles_branch_on_places_and_count_like_brute_force(seed, six, share):
    """Puzzles of thermometers only (random two- to four-cell rising lines the grid keeps, few givens) turn
    branching on a digit's places and the units' Hall intervals on (locked candidates off); the count equals the
    brute-force count, and so it does with the places weighed by their heaviest cell or not branched on."""
    rng = random.Random(seed)
    h, w = (2, 3) if six else (2, 2)
    n = h * w
    values = _solved_grid(rng, h, w)
    cons = []
    for _ in range(rng.randint(1, 2 * n)):
        line = [rng.randrange(n * n)]
        for _ in range(rng.randint(1, 3)):
            s = line[-1]
            steps = [t for t in (s - n, s + n, s - 1 if s % n else -1, s + 1 if s % n < n - 1 else -1)
                     if 0 <= t < n * n and t not in line and values[t] > values[s]]  # fmt: skip
            if not steps:
                break
            line.append(rng.choice(steps))
        if len(line) > 1:
            cons.append(Thermometer(tuple(line)))
    givens = [v if rng.random() < share else 0 for v in values]
    puzzle = VariantPuzzle.build(standard(h, w), givens, cons)
    model = Model.of(puzzle)
    assert model.places == (K.PLACES_SUM if cons else K.PLACES_OFF)
    assert model.probe is None  # no probing (it cost more than it saved with the units' Hall intervals)
    assert (K.T_HALL in model._types) == model.unit_weights == bool(cons)  # Hall intervals, units' weights
    halls = [b for t, b in zip(model._types, model._b) if t == K.T_HALL]
    assert all(b < 0 for b in halls)  # in place of locked candidates (propagate leaves those out)
    brute = _brute_count(puzzle, 30)
    assert brute >= 1
    assert run(model, 30, keep=0, probe_depth=-1).count == brute  # without probing
    saved = solver_model.PAIR_MASKS_MOST
    solver_model.PAIR_MASKS_MOST = 0  # as on boards over 9 digits: whole lines (T_THERMO), not pairs
    try:
        lines = Model.of(puzzle)
    finally:
        solver_model.PAIR_MASKS_MOST = saved
    assert (K.T_THERMO in lines._types) == bool(cons) and K.T_PAIR not in lines._types
    assert run(lines, 30, keep=0).count == brute
    for places in (K.PLACES_OFF, K.PLACES_MAX, K.PLACES_SUM):
        assert run(model, 30, keep=0, places=places).count == brute
        assert run(model, 30, keep=0, places=places, restart_base=1).count == brute
    assert count_variant(puzzle, 30) == brute


def _hall(masks: list[int]) -> tuple[bool, list[int]]:
    """:func:`.solver_kernel._hall` on one unit whose cells hold ``masks``: (ok, the masks after)."""
    k = len(masks)
    cand = np.array(masks, dtype=np.int64)
    qs = np.zeros(4, dtype=np.int64)
    ok = K._hall(cand, np.arange(k, dtype=np.int32), 0, k, np.zeros(k + 1, np.int32), np.zeros(k, np.uint8), qs)
    return bool(ok), [int(m) for m in cand]


def test_hall_intervals_leave_the_other_cells():
    """Two cells within {1,2} take both digits; three cells within {1,2} are one too many."""
    assert _hall([0b0011, 0b0011, 0b1111, 0b1110]) == (True, [0b0011, 0b0011, 0b1100, 0b1100])
    assert _hall([0b0110, 0b0001, 0b0110, 0b1111]) == (True, [0b0110, 0b0001, 0b0110, 0b1001])  # by a fixed 1
    assert _hall([0b1011, 0b0011, 0b1111, 0b1111]) == (True, [0b1011, 0b0011, 0b1111, 0b1111])  # a hole: none
    assert _hall([0b0011, 0b0011, 0b0011, 0b1111])[0] is False


@settings(max_examples=300, deadline=None)
@given(data=st.data(), k=st.integers(2, 7))
def test_hall_intervals_keep_every_assignment(data, k):
    """Random candidates of one unit (k cells, digits 1..k): every way to give the cells k different digits
    within their candidates survives the Hall intervals, and a contradiction comes only when there is none."""
    masks = [data.draw(st.integers(1, (1 << k) - 1)) for _ in range(k)]
    ok, after = _hall(masks)
    ways = [p for p in itertools.permutations(range(k)) if all(masks[i] >> p[i] & 1 for i in range(k))]
    if not ok:
        assert not ways
    for p in ways:
        assert all(after[i] >> p[i] & 1 for i in range(k))
    assert all(a & ~m == 0 for a, m in zip(after, masks))


def test_sum_groups_are_taken_by_units_largest_first():
    """A sum's cells are grouped by the unit holding most of them, then the next: the 4x4 shaft A3 A2 A1 B1
    B2 grouped along the line would be A3 A2 A1 (row A) and B1 B2 (digit sums at least 6 + 3); the box of
    A1 A2 B1 B2 comes first (at least 10), A3 alone (1)."""
    puzzle = VariantPuzzle.build(standard(2, 2), [0] * 16, [])
    model = Model.of(puzzle)
    groups = model._groups([(s, 1) for s in (2, 1, 0, 4, 5)])
    assert sorted(sorted(g) for _, g in groups) == [[0, 1, 4, 5], [2]]
    assert model._groups([(0, 1), (1, -1), (5, 1)]) == [(1, [0, 5]), (-1, [1])]


@pytest.mark.parametrize("seed", range(40))
def test_long_sums_over_many_units_count_like_brute_force(seed):
    """Arrows whose shafts wander over the board (a path of neighbours through several boxes, rows and
    columns: the sum's groups taken by units) and two-cell thermometers: the kernel's count, with restarts
    after every failure too, equals the brute-force count."""
    rng = random.Random(9000 + seed)
    h, w = (2, 2) if seed % 2 else (2, 3)
    n = h * w
    values = _solved_grid(rng, h, w)
    cons: list = []
    for _ in range(rng.randint(1, 3)):
        bulb = rng.randrange(n * n)
        line = [rng.choice([t for t in range(n * n) if t != bulb])]
        while len(line) < rng.randint(2, 6):
            s = line[-1]
            steps = [t for t in (s - n, s + n, s - 1 if s % n else -1, s + 1 if s % n < n - 1 else -1)
                     if 0 <= t < n * n and t not in line and t != bulb]  # fmt: skip
            if not steps:
                break
            line.append(rng.choice(steps))
        total = sum(values[s] for s in line)
        if total <= n and values[bulb] == total:
            cons.append(Arrow((bulb,), tuple(line)))
        elif total <= n:
            bulb = rng.choice([s for s in range(n * n) if values[s] == total and s not in line])
            cons.append(Arrow((bulb,), tuple(line)))
        else:
            cons.append(LittleKiller(tuple(line), total))
    for _ in range(rng.randint(0, n)):
        a, b = rng.sample(range(n * n), 2)
        if values[a] != values[b]:
            cons.append(Thermometer((a, b) if values[a] < values[b] else (b, a)))
    givens = [v if rng.random() < 0.15 else 0 for v in values]
    puzzle = VariantPuzzle.build(standard(h, w), givens, cons)
    assert puzzle.is_solution(Grid(puzzle.geometry, tuple(values)))
    model = Model.of(puzzle)
    brute = _brute_count(puzzle, 30)
    assert brute >= 1
    assert run(model, 30, keep=0).count == brute
    assert run(model, 30, keep=0, restart_base=1).count == brute
    assert count_variant(puzzle, 30) == brute


@pytest.mark.parametrize("seed", range(12))
def test_restarts_count_every_solution_once(seed):
    """Restarts keep the explored tree out with nogoods: counting a 6x6 puzzle of many solutions to the end
    with a restart after every failure (or every third) gives the count without restarts, the restarts
    happen, and the kept solutions are different grids that keep every rule."""
    rng = random.Random(7000 + seed)
    values = _solved_grid(rng, 2, 3)
    cons = [c for c in _unit_rules(rng, values, 2, 3) if not isinstance(c, (Skyscraper, Sandwich, XSum))]
    puzzle = VariantPuzzle.build(standard(2, 3), [v if rng.random() < 0.1 else 0 for v in values], cons)
    model = Model.of(puzzle)
    plain = run(model, 10**6, keep=0, restart_base=0)
    assert plain.status != K.TIMEOUT and plain.stats[3] == 0
    for base in (1, 3):
        out = run(model, 10**6, keep=20, restart_base=base)
        assert out.count == plain.count
        if plain.stats[2] > base:
            assert out.stats[3] > 0
        grids = {tuple(int(x) for x in row) for row in out.solutions}
        assert len(grids) == len(out.solutions) == min(20, out.count)
        assert all(puzzle.is_solution(Grid(puzzle.geometry, g)) for g in grids)


@pytest.mark.parametrize("seed", [6, 86, 188])
def test_probing_after_restarts_counts_every_solution_once(seed):
    """6x6 puzzles where a solution counted before a restart was counted again after it: the last literal of
    its nogood was set by a probe, and the cells the probes fixed did not visit their nogoods (the default
    probing of thermometer and renban models, bounds at depths 0-2, was one of the ways)."""
    rng = random.Random(seed)
    values = _solved_grid(rng, 2, 3)
    cons = _unit_rules(rng, values, 2, 3)
    puzzle = VariantPuzzle.build(standard(2, 3), [v if rng.random() < 0.15 else 0 for v in values], cons)
    model = Model.of(puzzle)
    plain = run(model, 10**5, keep=0, restart_base=0)
    assert plain.status != K.TIMEOUT and plain.count > 30
    for base in (1, 2):
        for depth, bounds in ((2, True), (4, False), (99, False), (99, True)):
            out = run(model, 10**5, keep=0, restart_base=base, probe_after=0, probe_depth=depth, probe_bounds=bounds)
            assert out.count == plain.count, (base, depth, bounds)


def test_innies_outies_hold_on_the_grid():
    """Every derived sum is kept by the grid the cages were cut from (checked on many random killers)."""
    rng = random.Random(5)
    for _ in range(30):
        values = _solved_grid(rng, 3, 3)
        puzzle = VariantPuzzle.build(standard(), [0] * 81, _cages(rng, values, 9, 5))
        derived = innies_outies(puzzle)
        assert derived
        for cells, coefs, total, distinct in derived:
            assert sum(c * values[s] for s, c in zip(cells, coefs)) == total
            if distinct:
                assert len({values[s] for s in cells}) == len(cells)


def test_overlapping_cages_derive_nothing():
    cages = [KillerCage((0, 1, 2), 6), KillerCage((2, 3), 7)]  # cell 2 in both: totals count it twice
    puzzle = VariantPuzzle.build(standard(2, 2), [0] * 16, cages)
    assert innies_outies(puzzle) == []
    assert count_variant(puzzle, 50) == count_plain(puzzle, 50)


def _corpus(indices):
    lines = CORPUS.read_text().splitlines()
    return [json.loads(lines[i]) for i in indices]


@pytest.mark.parametrize("d", _corpus([2, 3, 6, 7, 11, 13, 16, 17, 21, 26, 27, 29, 33, 35, 45, 51, 59, 85, 88, 94]))
def test_corpus_puzzles_solved_unique_and_like_the_plain_solver(d):
    puzzle = read_fpuzzles(d["fpuzzles"])
    result = solve_variant(puzzle, limit=2, time_limit=60)
    assert result.status is Status.SOLVED
    digits = "".join(str(v) if v < 10 else chr(ord("A") + v - 10) for v in result.solution.values)
    assert digits == d["solution"].upper() or puzzle.geometry.size > 9 and puzzle.is_solution(result.solution)
    assert puzzle.is_solution(result.solution)


def test_kernel_equals_plain_on_easy_corpus_puzzles():
    for d in _corpus([2, 6, 7, 11, 16, 33, 35, 45]):
        puzzle = read_fpuzzles(d["fpuzzles"])
        mine, ref = solve_variant(puzzle, limit=2), solve_plain(puzzle, limit=2)
        assert mine.status is ref.status is Status.SOLVED
        assert mine.solution == ref.solution


def test_entry_points_take_variant_puzzles_through_the_kernel():
    d = _corpus([11])[0]
    puzzle = read_fpuzzles(d["fpuzzles"])
    assert sudokit.solve(puzzle).solution.to_line() == d["solution"]
    assert sudokit.count_solutions(puzzle, limit=5) == 1
    assert sudokit.count_solutions(d["fpuzzles"], limit=5) == 1  # the parsed f-puzzles JSON
    assert sudokit.count_solutions(json.dumps(d["fpuzzles"]), limit=5) == 1


def test_counts_past_the_kept_solutions_and_no_solution():
    base = standard(2, 2)
    assert count_variant(VariantPuzzle.build(base, [0] * 16, []), 1000) == 288  # every 4x4 grid
    thermo = Thermometer((0, 1, 2, 3))  # a row rising from its first cell: 1 2 3 4, but the first is even
    empty = VariantPuzzle.build(base, [0] * 16, [thermo, Parity(0, odd=False)])
    assert count_variant(empty, 5) == 0
    assert solve_variant(empty).status is Status.NO_SOLUTION


def test_sum_over_a_cell_twice_and_negative_coefficients():
    """A little killer through one cell twice is 2 x that digit (the model merges the coefficients)."""
    base = standard(2, 2)
    values = _solved_grid(random.Random(3), 2, 2)
    line = (0, 5, 0)
    puzzle = VariantPuzzle.build(base, [0] * 16, [LittleKiller(line, sum(values[s] for s in line))])
    assert count_variant(puzzle, 300) == count_plain(puzzle, 300) == _brute_count(puzzle, 300)


def test_time_limit_stops_a_long_count():
    puzzle = VariantPuzzle.build(standard(4, 4), [0] * 256, [])
    with pytest.raises(TimeLimitError):
        count_variant(puzzle, 10**9, time_limit=0.05)
    assert solve_variant(puzzle, limit=10**9, time_limit=0.05).status is Status.TIMEOUT


def test_a_rule_without_a_compiled_form_goes_to_the_plain_solver():
    """A bulb of two cells on 16x16 reads '1' '2' as 12: not linear, so no kernel propagator."""
    values = _solved_grid(random.Random(1), 4, 4)
    a = next(s for s in range(256) if values[s] == 1 and s % 16 < 15 and values[s + 1] <= 6)
    shaft = next(s for s in range(256) if values[s] == 10 + values[a + 1])
    arrow = Arrow((a, a + 1), (shaft,))
    givens = [v if s not in (a, a + 1, shaft) else 0 for s, v in enumerate(values)]
    puzzle = VariantPuzzle.build(standard(4, 4), givens, [arrow])
    with pytest.raises(NotCompiled):
        Model.of(puzzle)
    result = solve_variant(puzzle)
    assert result.status is Status.SOLVED and result.solution.values == tuple(values)


def test_a_puzzle_is_compiled_once_and_its_model_only_read():
    """``solve_variant`` / ``count_variant`` keep the last puzzle's model: a second call on it compiles
    nothing, and a search leaves every array of the model as it was (so the kept model stays right)."""
    from sudokit.constraints import solver

    d = _corpus([66])[0]  # "Sandwich snipe 18": 2 solutions, a search of thousands of nodes
    puzzle = read_fpuzzles(d["fpuzzles"])
    first = solve_variant(puzzle, limit=1)
    model = solver._compiled(puzzle)
    before = [np.array(a, copy=True) for a in (model.start_array, *model.arrays)]
    assert count_variant(puzzle, 5) == 2 and solver._compiled(puzzle) is model
    for old, now in zip(before, (model.start_array, *model.arrays)):
        assert np.array_equal(old, now)
    again = solve_variant(puzzle, limit=1)
    assert again.solution == first.solution and puzzle.is_solution(again.solution)
    other = read_fpuzzles(d["fpuzzles"])  # another puzzle object: its own model, which replaces the kept one
    assert count_variant(other, 5) == 2 and solver._compiled(other) is not model
    assert solver._compiled(puzzle) is not model


def test_model_run_keeps_only_checked_counts():
    """The kernel's own entry: solutions come back as digits by cell, at most ``keep`` of them."""
    puzzle = VariantPuzzle.build(standard(2, 2), [0] * 16, [])
    out = run(Model.of(puzzle), 10, keep=3)
    assert out.count == 10 and len(out.solutions) == 3
    for row in out.solutions:
        assert puzzle.is_solution(Grid(puzzle.geometry, tuple(int(v) for v in row)))


def test_solve_many_takes_variant_puzzles():
    from sudokit.engine.batch import STATUS_NAMES, solve_all

    ds = _corpus([11, 2, 6])
    items = [d["fpuzzles"] for d in ds[:2]] + [read_fpuzzles(ds[2]["fpuzzles"]), "https://f-puzzles.com/?load=bad"]
    batch = solve_all(items)
    assert [STATUS_NAMES[int(c)] for c in batch.status] == ["solved"] * 3 + ["unreadable"]
    assert batch.counts.tolist() == [1, 1, 1, 0]
    for row, d in zip(batch.solutions, ds):
        assert "".join(map(str, row.tolist())) == d["solution"]
    classic = solve_all(["." * 80 + "1"], limit=2)  # classic lines keep the classic path
    assert STATUS_NAMES[int(classic.status[0])] == "multiple"


def test_clashing_givens_are_invalid_and_count_zero_on_the_kernel_path():
    """The clash is looked for only once the kernel found no solution: still ``invalid``, naming it."""
    givens = [0] * 81
    givens[0] = givens[5] = 7  # two 7s in row 1
    puzzle = VariantPuzzle.build(standard(), givens, [KillerCage((10, 11), 3), Parity(40, True)])
    Model.of(puzzle)  # the kernel takes it
    result = solve_variant(puzzle)
    assert result.status is Status.INVALID and "7" in result.message
    assert count_variant(puzzle, 2) == 0
    assert sudokit.count_solutions(puzzle, limit=2) == 0


def test_a_given_a_unary_rule_refuses_has_no_solution():
    """An even given in an odd circle leaves its cell no candidate before propagation starts; the kernel
    searched on (the empty cell is never chosen and no unit misses a digit) until it refused the start."""
    givens = [0] * 81
    givens[40] = 2
    odd = VariantPuzzle.build(standard(), givens, [Parity(40, True)])
    assert solve_variant(odd).status is Status.NO_SOLUTION
    assert count_variant(odd, 2) == 0


def test_killer_set_build_keeps_the_propagators():
    """The model build's killer path (cages compiled in one go, innies/outies in numba) gives each cage its
    digit sets and the region sums of the 45 rule."""
    values = _solved_grid(random.Random(3), 3, 3)
    rows = [tuple(range(r * 9, r * 9 + 9)) for r in range(9)]
    cages = [KillerCage(row[:4], sum(values[s] for s in row[:4])) for row in rows]
    puzzle = VariantPuzzle.build(standard(), [0] * 81, cages)
    model = Model.of(puzzle)
    sums = innies_outies(puzzle)
    assert len(sums) >= 9  # each row's five free cells hold 45 minus its cage
    for row in rows:
        assert (list(row[4:]), [1] * 5, 45 - sum(values[s] for s in row[:4]), True) in sums
    assert model.n_props == 9 + len(sums)
    assert count_variant(puzzle, 2) == 2  # rows alone do not pin the grid


@pytest.mark.parametrize("line", [19, 27, 46, 47])  # negative X/V, anti-king/knight with dots, strict Kropki, XV
def test_pair_tables_over_masks_are_the_unions_of_the_digit_rows(line):
    """9x9: ``rel[t, side, m]`` is the OR of the rows of ``pair_table`` for the digits of ``m``."""
    d = json.loads(CORPUS.read_text().splitlines()[line - 1])
    model = Model.of(read_fpuzzles(d["fpuzzles"]))
    rel = model.arrays[15]
    n = model.size
    assert rel.shape[0] >= 1 and rel.shape[2] == 1 << n
    for relation, t in model._relations.items():
        rows = pair_table(relation, n)
        for side in (0, 1):
            for m in range(1 << n):
                want = 0
                for x in range(1, n + 1):
                    if m >> (x - 1) & 1:
                        want |= rows[side][x]
                assert int(rel[t, side, m]) == want


@pytest.mark.parametrize("line", [19, 27, 46, 47])
def test_pair_tables_by_digit_skip_only_passes_that_narrow_nothing(line, monkeypatch):
    """Boards above ``PAIR_MASKS_MOST`` digits (forced here on 9x9): ``rel[t, 0, 0]`` / ``rel[t, 1, 0]``: a cell
    with more candidates than that leaves every digit of the other cell a support, so the kernel's pair pass
    reading it may be skipped: checked on every mask of the cell."""
    monkeypatch.setattr(solver_model, "PAIR_MASKS_MOST", 0)
    d = json.loads(CORPUS.read_text().splitlines()[line - 1])
    model = Model.of(read_fpuzzles(d["fpuzzles"]))
    rel = model.arrays[15]
    n = model.size
    full = (1 << n) - 1
    assert rel.shape[0] >= 1 and rel.shape[2] == n + 1 and rel[:, :, 1:].any()

    def union(t: int, side: int, mask: int) -> int:
        out = 0
        for x in range(1, n + 1):
            if mask >> (x - 1) & 1:
                out |= int(rel[t, side, x])
        return out

    for t in range(rel.shape[0]):
        for side in (0, 1):
            most = int(rel[t, side, 0])
            assert all(union(t, side, m) == full for m in range(1, full + 1) if m.bit_count() > most)
            if most:  # and it is the least bound that holds
                assert any(union(t, side, m) != full for m in range(1, full + 1) if m.bit_count() == most)
    assert run(model, 2).count == 1  # the per-digit pair pass proves it too


@SMALL
@given(seed=st.integers(0, 2**32 - 1), six=st.booleans())
def test_pair_tables_by_digit_count_like_brute_force(seed, six):
    """The per-digit pair pass (boards above ``PAIR_MASKS_MOST`` digits) on small boards: counts exact."""
    rng = random.Random(seed)
    h, w = (2, 3) if six else (2, 2)
    values = _solved_grid(rng, h, w)
    cons = _random_constraints(rng, values, h, w)
    givens = [v if rng.random() < (0.5 if six else 0.2) else 0 for v in values]
    puzzle = VariantPuzzle.build(standard(h, w), givens, cons)
    saved = solver_model.PAIR_MASKS_MOST
    solver_model.PAIR_MASKS_MOST = 0
    try:
        model = Model.of(puzzle)
    finally:
        solver_model.PAIR_MASKS_MOST = saved
    assert model.arrays[15].shape[2] == model.size + 1
    assert run(model, 30).count == _brute_count(puzzle, 30)


@SMALL
@given(seed=st.integers(0, 2**32 - 1))
def test_the_compiled_unit_check_agrees_with_is_solution(seed):
    """``Model.keeps_units`` (units, givens and unary rules, compiled) says what ``is_solution`` says of the
    units and givens, on solutions and on grids broken by a swap, a changed digit or a parity."""
    rng = random.Random(seed)
    values = _solved_grid(rng, 2, 3)
    givens = [v if rng.random() < 0.3 else 0 for v in values]
    odd = [s for s in range(36) if values[s] % 2 and not givens[s]][:2]
    puzzle = VariantPuzzle.build(standard(2, 3), givens, [Parity(s, True) for s in odd])
    model = Model.of(puzzle)
    grids = [list(values)]
    a, b = rng.sample(range(36), 2)
    swapped = list(values)
    swapped[a], swapped[b] = swapped[b], swapped[a]
    changed = list(values)
    changed[a] = rng.randint(1, 6)
    grids += [swapped, changed]
    for row in grids:
        want = puzzle.is_solution(Grid(puzzle.geometry, tuple(row)))
        assert model.keeps_units(np.array(row, dtype=np.uint8)) == want
    if odd:  # an even digit in an odd cell: the units hold, the unary rule does not
        s = odd[0]
        t = next(t for t in range(36) if values[t] % 2 == 0 and not givens[t] and t not in odd)
        row = list(values)
        row[s], row[t] = row[t], row[s]
        assert not model.keeps_units(np.array(row, dtype=np.uint8))


def test_a_broken_grid_from_the_kernel_is_refused(monkeypatch):
    """solve_variant checks each grid the kernel returns: a broken one raises (never returned)."""
    puzzle = VariantPuzzle.build(standard(2, 2), [0] * 16, [KillerCage((0, 1), 3)])
    real = solver_model.run

    def broken(*args, **kwargs):
        out = real(*args, **kwargs)
        out.solutions[0, [0, 1]] = out.solutions[0, [1, 0]]  # still 1 and 2 in the cage, a column broken
        out.solutions[0, [2, 3]] = out.solutions[0, [3, 2]]
        return out

    monkeypatch.setattr(solver_model, "run", broken)
    with pytest.raises(UncheckedSolutionError):
        solve_variant(puzzle, limit=1)


def _support(masks, sizes, coefs, total):
    """Brute force: for each cell the digits that take part in some solution of the grouped sum (different
    digits within a group, any repeats across groups); None when there is none."""
    keep = [0] * len(masks)
    found = False

    def walk(i, acc, chosen, group_of):
        nonlocal found
        if i == len(masks):
            if acc == total:
                found = True
                for j, d in enumerate(chosen):
                    keep[j] |= 1 << (d - 1)
            return
        g = group_of[i]
        start = sum(sizes[:g])
        for d in range(1, 10):
            if masks[i] >> (d - 1) & 1 and d not in chosen[start:i]:
                walk(i + 1, acc + coefs[i] * d, [*chosen, d], group_of)

    group_of = [g for g, k in enumerate(sizes) for _ in range(k)]
    walk(0, 0, [], group_of)
    return keep if found else None


@SMALL
@given(seed=st.integers(0, 2**32 - 1))
def test_grouped_sum_keeps_exactly_the_supported_digits(seed):
    """The grouped sum (``GSUM``) on random masks against brute force: with groups of up to 3 cells every
    cell keeps exactly the digits of some solution (a contradiction exactly when there is none); a group of
    4 or more (the union of fitting digit sets) keeps at least those."""
    rng = random.Random(seed)
    sizes = [rng.choice([1, 1, 2, 2, 3, 3, 4]) for _ in range(rng.randint(1, 4))]
    while sum(sizes) > 7:  # the brute force walks every choice
        sizes.pop()
    coefs = []
    for _ in sizes:
        coefs.append(rng.choice([1, 1, 1, 2, -1]))
    n = sum(sizes)
    cell_coefs = [c for c, k in zip(coefs, sizes) for _ in range(k)]
    masks = [0] * n
    while not all(masks):
        masks = [rng.getrandbits(9) & rng.getrandbits(9) for _ in range(n)]
    values = [rng.randint(1, 9) for _ in range(n)]
    total = sum(c * v for c, v in zip(cell_coefs, values)) + rng.choice([0, 0, 1, -2])
    want = _support(masks, sizes, cell_coefs, total)
    cand = np.array(masks, dtype=np.int64)
    cells = np.arange(n, dtype=np.int32)
    aux = np.array(sizes, dtype=np.int64)
    words = 2 * (n + 1) * 4 + len(sizes)
    buf = np.zeros(words, dtype=np.uint64)
    cq = np.zeros(n + 1, dtype=np.int32)
    cflag = np.zeros(n, dtype=np.uint8)
    qs = np.zeros(4, dtype=np.int64)
    ok = K._group_sum(cand, cells, np.array(cell_coefs, dtype=np.int64), 0, aux, 0, len(sizes), total, buf, cq,
                      cflag, qs)  # fmt: skip
    if want is None:
        if max(sizes) <= 3:
            assert not ok
        return
    assert ok
    for i in range(n):
        assert want[i] & ~int(cand[i]) == 0  # nothing supported was removed
        assert int(cand[i]) & ~masks[i] == 0
        if max(sizes) <= 3:
            assert int(cand[i]) == want[i]


@SMALL
@given(masks=st.lists(st.integers(1, 2**9 - 1), min_size=1, max_size=9), combo_seed=st.integers(0, 2**32 - 1))
def test_cage_sets_are_kept_only_when_the_cells_can_take_them_one_each(masks, combo_seed):
    """``_matched`` (a cage's digit set kept only if its cells can take its digits one each) against every
    assignment of the set's digits to the cells; and the case it is there for: cells {1,2}, {1,2}, {1..4}
    meet the set {2,3,4} one by one, but cannot take it."""
    k = len(masks)
    digits = random.Random(combo_seed).sample(range(9), k)
    combo = sum(1 << d for d in digits)
    cand = np.array(masks, dtype=np.int64)
    cells = np.arange(k, dtype=np.int32)
    brute = any(all(cand[i] >> d & 1 for i, d in enumerate(order)) for order in itertools.permutations(digits))
    assert K._matched(cand, cells, 0, k, np.int64(combo)) == brute
    two = np.array([0b11, 0b11, 0b1111], dtype=np.int64)
    assert not K._matched(two, np.arange(3, dtype=np.int32), 0, 3, np.int64(0b1110))
    assert K._matched(two, np.arange(3, dtype=np.int32), 0, 3, np.int64(0b0111))


@SMALL
@given(seed=st.integers(0, 2**32 - 1), sizes=st.tuples(st.integers(1, 3), st.integers(1, 3)), total=st.integers(-9, 9))
def test_two_group_sums_keep_exactly_the_supported_digits(seed, sizes, total):
    """A grouped sum of two groups of opposite unit coefficients (equal sums, arrows: the two-shift pass) on
    random candidates keeps exactly the digits of some choice (different digits within a group) that reaches
    the total, and fails when there is none: brute force over every choice."""
    rng = random.Random(seed)
    n_cells = sizes[0] + sizes[1]
    cand = np.array([rng.randrange(1, 512) for _ in range(n_cells)], dtype=np.int64)
    sign = rng.choice((1, -1))
    coef = np.array([sign] * sizes[0] + [-sign] * sizes[1], dtype=np.int64)
    cells = np.arange(n_cells, dtype=np.int32)
    aux = np.array(sizes, dtype=np.int64)
    keep = [0] * n_cells
    options = [[d for d in range(1, 10) if m >> (d - 1) & 1] for m in cand]
    for choice in itertools.product(*options):
        a, b = choice[: sizes[0]], choice[sizes[0] :]
        if len(set(a)) == len(a) and len(set(b)) == len(b) and sign * (sum(a) - sum(b)) == total:
            for i, d in enumerate(choice):
                keep[i] |= 1 << (d - 1)
    buf = np.zeros(64, dtype=np.uint64)
    cq = np.zeros(n_cells + 1, dtype=np.int32)
    cflag = np.zeros(n_cells, dtype=np.uint8)
    qs = np.zeros(4, dtype=np.int64)
    out = cand.copy()
    ok = K._group_sum(out, cells, coef, 0, aux, 0, 2, total, buf, cq, cflag, qs)
    assert ok == any(keep)
    if ok:
        assert list(out) == keep


def _sandwich_call(masks: list[int], total: int) -> tuple[bool, list[int]]:
    """``_sandwich_exact`` on one 9-cell line with these candidates: (no contradiction, the cells' masks)."""
    n = len(masks)
    sets = [sum(1 << (d - 1) for d in c) for k in range(n - 1) for c in itertools.combinations(range(2, n), k)
            if sum(c) == total]  # fmt: skip
    cand = np.array(masks, dtype=np.int64)
    ok = K._sandwich_exact(cand, np.arange(n, dtype=np.int32), 0, n, total, np.array(sets or [0], dtype=np.int64),
                           0, len(sets), np.zeros(2 * n, dtype=np.uint64), np.zeros(n + 1, dtype=np.int32),
                           np.zeros(n, dtype=np.uint8), np.zeros(4, dtype=np.int64))  # fmt: skip
    return bool(ok), [int(m) for m in cand]


def _sandwich_support(masks: list[int], total: int) -> list[int] | None:
    """Brute force: each cell's digits in some line of different digits within ``masks`` whose digits between
    the 1 and the 9 sum to ``total``; None when there is none."""
    keep = [0] * len(masks)
    found = False
    line: list[int] = []

    def walk(used: int) -> None:
        nonlocal found
        if len(line) == len(masks):
            i, j = sorted((line.index(1), line.index(9)))
            if sum(line[i + 1 : j]) == total:
                found = True
                for o, d in enumerate(line):
                    keep[o] |= 1 << (d - 1)
            return
        for d in range(1, 10):
            if masks[len(line)] >> (d - 1) & 1 and not used >> d & 1:
                line.append(d)
                walk(used | 1 << d)
                line.pop()

    walk(0)
    return keep if found else None


@SMALL
@given(seed=st.integers(0, 2**32 - 1))
def test_sandwich_keeps_every_supported_digit_and_refuses_two_cells_left_one_digit(seed):
    """The exact sandwich on random lines of candidates against every line of different digits: nothing
    supported is removed, a line with no support may fail; and a choice whose cells between (or outside) the
    1 and the 9 leave two cells with the same one digit of its set is refused: 1, {3,5}, {3,5}, {2,4,9}, 9,
    then 5-8 has {2,3,4} between the ends cell by cell, as a whole and within the bounds, but 3 only once."""
    rng = random.Random(seed)
    values = list(range(1, 10))
    rng.shuffle(values)
    i, j = sorted((values.index(1), values.index(9)))
    total = sum(values[i + 1 : j]) + rng.choice([0, 0, 0, 1, -1])
    masks = [(1 << (v - 1)) | (rng.getrandbits(9) & rng.getrandbits(9) & rng.getrandbits(9)) for v in values]
    want = _sandwich_support(masks, total)
    ok, kept = _sandwich_call(masks, total)
    if want is not None:
        assert ok and all(w & ~k == 0 and k & ~m == 0 for w, k, m in zip(want, kept, masks))
    five_to_eight = 0b11110000
    line = [1, 0b10100, 0b10100, 0b100001010, 1 << 8] + [five_to_eight] * 4
    assert _sandwich_support(line, 9) is None
    assert not _sandwich_call(line, 9)[0]


def test_chains_of_equal_sums_imply_the_pairs_they_link():
    """Sides linked through a chain of equal sums have one sum: every pair no constraint names, once."""
    from sudokit.constraints.sums import implied_equal_sums

    chain = [EqualSums((0,), (1, 2)), EqualSums((2, 1), (5,)), EqualSums((5,), (9, 10)), EqualSums((3,), (4,))]
    pairs = {frozenset(p) for p in implied_equal_sums(chain)}
    assert pairs == {frozenset({(0,), (5,)}), frozenset({(0,), (9, 10)}), frozenset({(1, 2), (9, 10)})}
    assert len(implied_equal_sums(chain)) == 3


@SMALL
@given(seed=st.integers(0, 2**32 - 1), six=st.booleans())
def test_equal_sum_chains_count_like_brute_force(seed, six):
    """Region-sum-line-like chains (sides of one or two cells of a random solved grid with one sum, linked
    side to side): with the implied equal digits (one-cell sides linked through others, compiled as pair
    tables) they count like brute force (4x4) and the plain solver (6x6)."""
    rng = random.Random(seed)
    h, w = (2, 3) if six else (2, 2)
    n = h * w
    values = _solved_grid(rng, h, w)
    cons = []
    for _ in range(rng.randint(1, 4)):
        total = rng.randint(1, n)
        sides = [(s,) for s in range(n * n) if values[s] == total]
        sides += [(a, b) for a in range(n * n) for b in range(a + 1, n * n) if values[a] + values[b] == total]
        chain = rng.sample(sides, min(len(sides), rng.randint(2, 5)))
        cons += [EqualSums(a, b, "regionsumline") for a, b in zip(chain, chain[1:])]
    givens = [v if rng.random() < (0.45 if six else 0.15) else 0 for v in values]
    puzzle = VariantPuzzle.build(standard(h, w), givens, cons)
    brute = _brute_count(puzzle, 30) if not six else count_plain(puzzle, 30)
    assert brute >= 1
    assert count_variant(puzzle, 30) == brute
    assert run(Model.of(puzzle), 30, keep=0, restart_base=1).count == brute
