"""Generated puzzles are unique (by an independent counter), minimal, symmetric and reproducible."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.cli import main
from sudokit.errors import SudokitError
from sudokit.formats import parse_grid
from sudokit.generate import (
    DIFFICULTIES,
    Generator,
    generate,
    generate_many,
    measure_difficulty,
    orbits,
    random_solution,
)
from sudokit.geometry import Geometry, diagonal, for_size, standard
from sudokit.grid import Grid, is_solution


# ---- an independent solution counter (plain backtracking, not the engine) ------------------------
def count_plain(puzzle: Grid, limit: int = 2) -> int:
    """Solutions of ``puzzle`` up to ``limit``: fill the empty cell with fewest options, backtrack."""
    g = puzzle.geometry
    values = list(puzzle.values)
    if puzzle.conflicts():
        return 0
    peers = g.peers
    full = set(g.digits)

    def options(s: int) -> set[int]:
        return full - {values[p] for p in peers[s]}

    def search() -> int:
        best, best_opts = -1, None
        for s, v in enumerate(values):
            if not v:
                opts = options(s)
                if best_opts is None or len(opts) < len(best_opts):
                    best, best_opts = s, opts
                    if len(opts) <= 1:
                        break
        if best < 0:
            return 1
        found = 0
        for d in sorted(best_opts):
            values[best] = d
            found += search()
            if found >= limit:
                break
        values[best] = 0
        return min(found, limit)

    return search()


class SatCheck:
    """A second independent check with a SAT solver (pysat): one boolean per (cell, digit), exactly one
    digit per cell and one place per digit in each unit, and a clause forbidding the known solution.
    With the givens as assumptions, UNSAT means no *other* solution exists."""

    def __init__(self, solution: Grid) -> None:
        from pysat.solvers import Minisat22

        g = solution.geometry
        self.n = g.size
        self.solver = Minisat22()
        add = self.solver.add_clause
        for s in g.cells:
            add([self.var(s, d) for d in g.digits])
            for a, b in itertools.combinations(g.digits, 2):
                add([-self.var(s, a), -self.var(s, b)])
        for unit in g.units:
            for d in g.digits:
                add([self.var(s, d) for s in unit])
                for a, b in itertools.combinations(unit, 2):
                    add([-self.var(a, d), -self.var(b, d)])
        add([-self.var(s, d) for s, d in enumerate(solution.values)])

    def var(self, s: int, d: int) -> int:
        return s * self.n + d

    def other_solution(self, puzzle: Grid, without: int | None = None) -> bool:
        """True when the givens (minus cell ``without``) allow a solution other than the known one."""
        return self.solver.solve(
            assumptions=[self.var(s, v) for s, v in enumerate(puzzle.values) if v and s != without]
        )


def assert_unique(found, geometry: Geometry) -> None:
    assert found.puzzle.geometry == geometry
    assert is_solution(found.solution, found.puzzle)
    assert not SatCheck(found.solution).other_solution(found.puzzle)
    if geometry.size <= 9:
        assert count_plain(found.puzzle) == 1


def assert_minimal(found) -> None:
    check = SatCheck(found.solution)
    for s, v in enumerate(found.puzzle.values):
        if v:
            assert check.other_solution(found.puzzle, without=s), f"given at cell {s} is not needed"


# ---- uniqueness and minimality on every board ----------------------------------------------------
@pytest.mark.parametrize(
    ("geometry", "how_many"),
    [(standard(), 4), (diagonal(), 2), (for_size(4), 5), (for_size(6), 4), (for_size(16), 1)],
)
def test_generated_puzzles_are_unique_and_minimal(geometry, how_many):
    for found in generate_many(how_many, geometry, seed=11):
        assert_unique(found, geometry)
        assert_minimal(found)


def test_minimality_check_can_fail():
    found = generate(standard(), seed=5, clues=40)  # digging stopped early: not minimal
    with pytest.raises(AssertionError, match="not needed"):
        assert_minimal(found)


def test_random_solution_is_a_complete_valid_grid():
    rng = np.random.default_rng(1)
    for geometry in (standard(), diagonal(), for_size(6), for_size(16)):
        grid = Grid(geometry, tuple(int(v) for v in random_solution(geometry, rng)))
        assert is_solution(grid)


# ---- settings --------------------------------------------------------------------------------------
@pytest.mark.parametrize("symmetry", ["rot180", "rot90", "mirror", "flip", "diagonal"])
def test_clue_pattern_has_the_asked_symmetry(symmetry):
    found = generate(standard(), seed=3, symmetry=symmetry)
    assert_unique(found, standard())
    pattern = [v != 0 for v in found.puzzle.values]
    for orbit in orbits(standard(), symmetry):
        assert len({pattern[s] for s in orbit}) == 1


def test_orbits_partition_the_cells():
    for symmetry in ("none", "rot180", "rot90", "mirror", "flip", "diagonal"):
        groups = orbits(standard(), symmetry)
        assert sorted(s for o in groups for s in o) == list(range(81))
    assert len(orbits(standard(), "rot180")) == 41
    assert len(orbits(standard(), "rot90")) == 21


def test_clue_range_is_respected():
    for found in generate_many(4, standard(), seed=2, clues="28-30"):
        assert 28 <= found.clues <= 30
        assert_unique(found, standard())


@pytest.mark.parametrize("fast", [True, False])
def test_pattern_fill_uses_exactly_the_pattern_cells(fast):
    # a 34-clue pattern: random grids fill it uniquely often enough (sparser patterns take longer)
    source = generate(standard(), seed=8, clues=34).puzzle
    pattern = "".join("x" if v else "." for v in source.values)
    found = generate(standard(), seed=9, pattern=pattern, time_limit=30, fast=fast)
    assert found.symmetry == "pattern"
    assert [v != 0 for v in found.puzzle.values] == [v != 0 for v in source.values]
    assert_unique(found, standard())


def test_bad_pattern_is_a_user_error():
    with pytest.raises(SudokitError, match="81 cells"):
        Generator(standard(), pattern="x..")
    with pytest.raises(SudokitError, match="'x' for a given"):
        Generator(standard(), pattern="y" * 81)


def test_same_seed_gives_the_same_puzzles_and_another_seed_does_not():
    a = [f.puzzle.to_line() for f in generate_many(3, standard(), seed=42, symmetry="random")]
    b = [f.puzzle.to_line() for f in generate_many(3, standard(), seed=42, symmetry="random")]
    c = [f.puzzle.to_line() for f in generate_many(3, standard(), seed=43, symmetry="random")]
    assert a == b
    assert a != c


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_asked_difficulty_is_the_measured_difficulty(level):
    found = generate_many(3, standard(), seed=4, difficulty=level, time_limit=60)
    for f in found:
        assert measure_difficulty(f.puzzle).level == level
        assert_unique(f, standard())


def test_rare_request_stops_at_the_time_limit_with_a_clear_message():
    with pytest.raises(SudokitError, match="too rare"):
        generate(standard(), seed=1, clues=17, time_limit=0.3)


def test_unknown_settings_are_user_errors():
    with pytest.raises(SudokitError):
        Generator(standard(), symmetry="spiral")
    with pytest.raises(SudokitError):
        Generator(standard(), difficulty="fiendish")
    with pytest.raises(SudokitError):
        Generator(standard(), clues="30-20")


def test_difficulties_are_the_ratings_levels():
    from sudokit.logic.rating import rate
    from sudokit.logic.registry import LEVELS

    assert DIFFICULTIES == ("easy", "medium", "hard", "unfair", "extreme")
    assert tuple(level.lower() for level in LEVELS) == DIFFICULTIES
    assert Generator(standard(), difficulty="Expert").difficulty == "unfair"  # the old name still reads
    found = generate(standard(), seed=5)
    assert measure_difficulty(found.puzzle).level == rate(found.puzzle).level.lower()


def test_norvig_random_puzzle_is_consistent_and_flags_ambiguity_honestly():
    gen = Generator(standard(), seed=6, method="norvig")
    for found in gen.puzzles(5):
        assert found.puzzle.givens >= 17
        assert found.puzzle.is_consistent()
        assert found.unique == (count_plain(found.puzzle) == 1)


# ---- command line --------------------------------------------------------------------------------
def test_cli_output_is_byte_identical_for_a_seed():
    runner = CliRunner()
    args = ["generate", "-n", "3", "--seed", "7", "--symmetry", "rot180", "--with-solution", "--with-rating"]
    first = runner.invoke(main, args)
    second = runner.invoke(main, args)
    assert first.exit_code == 0, first.output
    assert first.stdout_bytes == second.stdout_bytes
    for line in first.stdout.splitlines():
        puzzle, count, solution = line.split("  #")[0].split(":")
        assert count == "1"
        assert is_solution(parse_grid(solution), parse_grid(puzzle))


def test_cli_csv_has_a_header_and_one_row_per_puzzle():
    out = CliRunner().invoke(main, ["generate", "-n", "2", "--seed", "1", "-f", "csv", "--with-solution"])
    rows = out.stdout.splitlines()
    assert rows[0].startswith("Puzzle,Solution,Givens")
    assert len(rows) == 3


def test_cli_sizes_and_variants():
    runner = CliRunner()
    four = runner.invoke(main, ["generate", "--size", "4", "--seed", "1"])
    assert len(four.stdout.strip()) == 16
    six = runner.invoke(main, ["generate", "-V", "6x6", "--seed", "1"])
    assert count_plain(parse_grid(six.stdout.strip())) == 1
    x = runner.invoke(main, ["generate", "-V", "diagonal", "--seed", "1"])
    assert count_plain(parse_grid(x.stdout.strip(), geometry=diagonal())) == 1


def test_cli_norvig_method_says_when_a_puzzle_is_not_unique():
    out = CliRunner().invoke(main, ["generate", "--method", "norvig", "-n", "3", "--seed", "4"])
    assert out.exit_code == 0
    for line in out.stdout.splitlines():
        puzzle = parse_grid(line.split("#")[0].strip())
        assert ("NOT UNIQUE" in line) == (count_plain(puzzle) != 1)


def test_cli_too_rare_request_is_a_one_line_error():
    out = CliRunner().invoke(main, ["generate", "--clues", "17", "--time-limit", "0.3", "--seed", "1"])
    assert out.exit_code == 2
    assert out.stderr.startswith("sudokit: error: no puzzle with 17 clues")


def test_cli_pattern_file_is_filled(tmp_path):
    source = generate(standard(), seed=8, clues=34).puzzle
    rows = ["".join("x" if source.values[r * 9 + c] else "." for c in range(9)) for r in range(9)]
    path = tmp_path / "pattern.txt"
    path.write_text("# a 34-clue pattern\n" + "\n".join(rows) + "\n")
    out = CliRunner().invoke(main, ["generate", "--pattern", str(path), "--seed", "2"])
    assert out.exit_code == 0, out.output
    puzzle = parse_grid(out.stdout.strip())
    assert [v != 0 for v in puzzle.values] == [v != 0 for v in source.values]
    assert count_plain(puzzle) == 1


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["none", "rot180", "mirror"]))
def test_any_seed_gives_a_unique_puzzle_with_no_removable_orbit(seed, symmetry):
    found = generate(for_size(4), seed=seed, symmetry=symmetry)
    assert_unique(found, for_size(4))
    check = SatCheck(found.solution)
    for orbit in orbits(for_size(4), symmetry):
        if found.puzzle.values[orbit[0]]:
            removed = found.puzzle
            for s in orbit:
                removed = removed.with_value(s, 0)
            assert check.other_solution(removed)


def test_asked_rating_range_holds_for_every_puzzle_and_a_rare_one_times_out():
    for found in generate_many(3, standard(), seed=12, rating="1.0-2.5", time_limit=60):
        assert 1.0 <= found.rating.value <= 2.5
        assert measure_difficulty(found.puzzle).value == found.rating.value
    with pytest.raises(SudokitError, match="SE rating of 11-12"):
        generate(standard(), seed=1, rating="11-12", time_limit=0.3)


# ---- the 9x9 kernel (generate/fast9) and the Python path ------------------------------------------
def test_the_classic_board_takes_the_kernel_and_the_rest_the_python_path():
    assert Generator(standard(), seed=1).fast is True
    assert Generator(standard(), seed=1, symmetry="random", clues="24-26", difficulty="easy").fast is True
    assert Generator(standard(), seed=1, pattern="x" * 81).fast is True
    assert Generator(standard(), seed=1, fast=False).fast is False
    assert Generator(standard(), seed=1, method="norvig").fast is False
    with pytest.raises(SudokitError, match="9x9 generator kernel"):
        Generator(standard(), seed=1, fast=True, method="norvig")
    for geometry in (diagonal(), for_size(4), for_size(6)):
        assert Generator(geometry, seed=1).fast is False


def test_a_sample_of_kernel_puzzles_is_unique_and_minimal_by_independent_counters():
    made = generate_many(40, standard(), seed=2026)
    assert len({f.puzzle.to_line() for f in made}) == 40
    for found in made:
        assert found.symmetry == "none"
        assert is_solution(found.solution, found.puzzle)
        assert not SatCheck(found.solution).other_solution(found.puzzle)
        assert_minimal(found)
    for found in made[:3]:  # the plain backtracking counter too (slower)
        assert count_plain(found.puzzle) == 1


def test_a_seed_gives_the_same_puzzles_whatever_the_batch_the_start_or_the_call(monkeypatch):
    from sudokit.generate import generator

    whole = [f.puzzle.to_line() for f in Generator(standard(), seed=77).puzzles(12)]
    assert whole == [f.puzzle.to_line() for f in Generator(standard(), seed=77).puzzles(12)]
    assert whole != [f.puzzle.to_line() for f in Generator(standard(), seed=78).puzzles(12)]
    # any slice made alone (a chunk of a job on another worker) is the same slice of the run
    assert whole[5:9] == [f.puzzle.to_line() for f in Generator(standard(), seed=77, start=5).puzzles(4)]
    one_by_one = Generator(standard(), seed=77)
    assert whole[:3] == [one_by_one.one().puzzle.to_line() for _ in range(3)]
    monkeypatch.setattr(generator, "FAST_BATCH", 5)
    assert whole == [f.puzzle.to_line() for f in Generator(standard(), seed=77).puzzles(12)]


def test_the_python_path_is_per_puzzle_too():
    whole = [f.puzzle.to_line() for f in Generator(for_size(4), seed=9).puzzles(6)]
    assert whole[2:] == [f.puzzle.to_line() for f in Generator(for_size(4), seed=9, start=2).puzzles(4)]
    without_seed = Generator(for_size(4))
    again = Generator(for_size(4), seed=without_seed.entropy)
    assert without_seed.one().puzzle == again.one().puzzle


@pytest.mark.parametrize(
    "settings_",
    [{"symmetry": "rot180"}, {"symmetry": "rot90"}, {"symmetry": "random"}, {"clues": "27-29"}, {"clues": 30}],
)
def test_the_kernel_and_the_python_path_keep_the_same_contract(settings_):
    for fast in (True, False):
        made = generate_many(3, standard(), seed=5, fast=fast, **settings_)
        for found in made:
            assert not SatCheck(found.solution).other_solution(found.puzzle)
            assert is_solution(found.solution, found.puzzle)
            if "clues" in settings_:
                lo, _, hi = str(settings_["clues"]).partition("-")
                assert int(lo) <= found.clues <= int(hi or lo)
            else:  # no orbit of the puzzle's symmetry can be removed
                assert found.symmetry in ("none", "rot180", "rot90", "mirror", "flip", "diagonal")
                pattern = [v != 0 for v in found.puzzle.values]
                check = SatCheck(found.solution)
                for orbit in orbits(standard(), found.symmetry):
                    assert len({pattern[s] for s in orbit}) == 1
                    if pattern[orbit[0]]:
                        removed = found.puzzle
                        for s in orbit:
                            removed = removed.with_value(s, 0)
                        assert check.other_solution(removed)


def test_the_kernel_refuses_a_grid_its_answer_check_rejects(monkeypatch):
    from sudokit.generate import fast9

    cells, starts, n_orbits, peers, units, tabs = fast9.table_args()
    broken = units.copy()
    broken[5] = broken[0]  # unit 5 read as unit 0 twice over: the check sees a unit without all nine digits
    broken[0, 0] = broken[0, 1]
    puzzles = np.zeros((2, 81), dtype=np.uint8)
    info = np.zeros((2, 4), dtype=np.int64)
    args = (cells, starts, n_orbits, peers, broken, tabs)
    none = np.zeros(0, dtype=np.uint8)
    fast9.generate_rows(np.uint64(1), 0, 0, 0, -1, 81, 1, True, none, puzzles, puzzles.copy(), info, *args)
    assert list(info[:, 0]) == [fast9.CHECK_FAILED] * 2
    monkeypatch.setattr(fast9, "table_args", lambda: args)
    with pytest.raises(SudokitError, match="internal error: the 9x9 generator's check refused puzzle 0"):
        generate(standard(), seed=1)


def test_the_kernel_run_as_python_makes_the_same_puzzle():
    import os
    import subprocess
    import sys

    code = "from sudokit.generate import generate; print(generate(seed=31, symmetry='random').puzzle.to_line())"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == generate(standard(), seed=31, symmetry="random").puzzle.to_line()


def test_bad_seed_or_start_is_a_user_error():
    with pytest.raises(SudokitError, match="seed"):
        Generator(standard(), seed=-1)
    with pytest.raises(SudokitError, match="start"):
        Generator(standard(), seed=1, start=-3)
    with pytest.raises(SudokitError, match="start"):
        Generator(standard(), seed=1, start=2**63)  # past the kernel's 64-bit index


def test_a_rare_clue_count_is_retried_try_after_try_and_stays_reproducible(monkeypatch):
    from sudokit.generate import generator

    monkeypatch.setattr(generator, "FAST_TRIES", 1)  # one grid per try: most rows need several tries
    made = generate_many(4, standard(), seed=21, clues=23)
    assert [f.puzzle for f in made] == [f.puzzle for f in generate_many(4, standard(), seed=21, clues=23)]
    assert max(f.attempts for f in made) > 1
    assert made[2].puzzle == Generator(standard(), seed=21, clues=23, start=2).one().puzzle
    for found in made:
        assert found.clues == 23
        assert not SatCheck(found.solution).other_solution(found.puzzle)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 10**6), st.sampled_from(["none", "rot180", "random"]))
def test_any_seed_and_index_give_a_kernel_puzzle_with_no_removable_orbit(seed, start, symmetry):
    found = Generator(standard(), seed=seed, start=start, symmetry=symmetry).one()
    assert is_solution(found.solution, found.puzzle)
    check = SatCheck(found.solution)
    assert not check.other_solution(found.puzzle)
    for orbit in orbits(standard(), found.symmetry):
        if found.puzzle.values[orbit[0]]:
            removed = found.puzzle
            for s in orbit:
                removed = removed.with_value(s, 0)
            assert check.other_solution(removed)


def test_a_count_the_engine_refuses_is_no_count_for_the_kernel():
    from sudokit.engine import kernel9
    from sudokit.generate import fast9

    scratch = (np.zeros(81, np.uint8), np.zeros(3, np.int64), np.zeros((83, kernel9.STATE_WORDS), np.int64))
    stacks = tuple(np.zeros(82, np.int64) for _ in range(3))
    tabs = tuple(kernel9.table_args())
    values = np.zeros(81, dtype=np.uint8)
    assert fast9._count2(values, *scratch, *stacks, tabs) == 2
    values[0] = 10  # INVALID for the engine: neither one solution nor several
    assert fast9._count2(values, *scratch, *stacks, tabs) == -1
