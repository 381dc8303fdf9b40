"""Puzzle generation: unique, minimal, symmetric puzzles by clue count, pattern or difficulty.

The method is the field's standard one (QQWing, HoDoKu)::

    random solution grid ──► visit the clue orbits in random order ──► remove an orbit,
                             put it back if the puzzle no longer has exactly one solution

An *orbit* is a cell together with its images under the chosen clue symmetry (``rot180`` pairs, ``rot90``
quadruples, ...). One pass over every orbit gives a puzzle from which no orbit can be removed: with
``symmetry="none"`` that is a *minimal* puzzle (removing any given makes it ambiguous), because a given
that was needed in a larger puzzle is still needed in every smaller one. Uniqueness is decided by the
fast engine's counter (``count_array(..., limit=2)``).

Difficulty is the rating's level (:func:`sudokit.logic.rating.rate`: the SE-style path with HoDoKu's level
caps), named as the rating names it, in lower case (:data:`DIFFICULTIES`). Generation by difficulty is
generate-and-test with a time limit.

The classic 9x9 board runs in one compiled call per batch of puzzles (:mod:`sudokit.generate.fast9`: the
random grid, the digging and a minimality check in numba, ~4x the Python path) for every setting but
``method="norvig"``; other boards and those settings take the Python path below
(:attr:`Generator.fast` says which one a generator takes).

Randomness is per puzzle: puzzle ``i`` of a seed draws only from its own stream (the Python path from
``numpy.random.SeedSequence(seed, spawn_key=(i,))``, the 9x9 kernel from a splitmix64 stream keyed by the
seed and ``i``, see :mod:`~sudokit.generate.fast9`), so a seed gives the same puzzles on every run, and puzzles
``k..`` of a seed can be made alone (``Generator(seed=s, start=k)``), which is how a batch split over workers
gives the same output for any number of them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from sudokit.errors import SudokitError
from sudokit.geometry import Geometry, standard
from sudokit.grid import Grid
from sudokit.logic.registry import LEVELS

if TYPE_CHECKING:
    from sudokit.generate.needs import PathWants

#: Clue symmetries (QQWing's and HoDoKu's choices); ``random`` picks one of the others per puzzle.
SYMMETRIES = ("none", "rot180", "rot90", "mirror", "flip", "diagonal", "random")

#: Difficulty names, easiest first: the rating's levels (:data:`sudokit.logic.registry.LEVELS`) in lower case.
DIFFICULTIES = tuple(level.lower() for level in LEVELS)

#: Names that earlier versions accepted for a level, still read on input.
OLD_DIFFICULTY_NAMES = {"expert": "unfair"}

#: Generators: ``dig`` (random grid, remove orbits while unique) and ``norvig`` (the seed's random_puzzle).
METHODS = ("dig", "norvig")

#: The fewest clues a puzzle of a standard board can have and still be unique, where it is proven: 4x4 and
#: 6x6 by exhaustive search, 9x9 by McGuire, Tugemann & Civario (2012, no 16-clue puzzle exists). Asking
#: for fewer fails at once instead of at the time limit.
MIN_CLUES: dict[int, int] = {4: 4, 6: 8, 9: 17}


class TimeLimitReached(SudokitError):
    """The deadline passed inside an attempt; ``partial`` is the unique puzzle dug so far, if any."""

    def __init__(self, partial: np.ndarray | None = None) -> None:
        super().__init__("the time limit was reached")
        self.partial = partial


def _check_deadline(deadline: float | None, partial: np.ndarray | None = None) -> None:
    if deadline is not None and time.perf_counter() > deadline:
        raise TimeLimitReached(partial)


@dataclass
class Generated:
    """One generated puzzle with its solution and how it was made."""

    puzzle: Grid
    solution: Grid | None
    symmetry: str = "none"
    method: str = "dig"
    attempts: int = 1  #: solution grids tried before this puzzle was accepted
    unique: bool | None = True  #: verified to have exactly one solution (None: not checked)
    rating: Difficulty | None = None  #: the difficulty measure, when one was asked for or computed
    extra: dict = field(default_factory=dict)

    @property
    def clues(self) -> int:
        """How many givens the puzzle has."""
        return self.puzzle.givens


# ---- symmetry orbits -----------------------------------------------------------------------------
def _image(symmetry: str, n: int, r: int, c: int) -> tuple[int, int]:
    if symmetry == "rot180":
        return n - 1 - r, n - 1 - c
    if symmetry == "rot90":
        return c, n - 1 - r
    if symmetry == "mirror":
        return r, n - 1 - c
    if symmetry == "flip":
        return n - 1 - r, c
    if symmetry == "diagonal":
        return c, r
    return r, c


def orbits(geometry: Geometry, symmetry: str = "none") -> list[tuple[int, ...]]:
    """The cells grouped into orbits of the clue symmetry, each orbit sorted, in cell order."""
    if symmetry not in SYMMETRIES or symmetry == "random":
        raise SudokitError(f"unknown symmetry {symmetry!r}; known: {', '.join(SYMMETRIES)}")
    n = geometry.size
    seen: set[int] = set()
    out = []
    for s in geometry.cells:
        if s in seen:
            continue
        orbit = {s}
        r, c = divmod(s, n)
        while True:
            r, c = _image(symmetry, n, r, c)
            if r * n + c in orbit:
                break
            orbit.add(r * n + c)
        seen |= orbit
        out.append(tuple(sorted(orbit)))
    return out


def _pick_symmetry(symmetry: str, rng: np.random.Generator) -> str:
    if symmetry == "random":
        choices = [s for s in SYMMETRIES if s != "random"]
        return choices[int(rng.integers(len(choices)))]
    if symmetry not in SYMMETRIES:
        raise SudokitError(f"unknown symmetry {symmetry!r}; known: {', '.join(SYMMETRIES)}")
    return symmetry


# ---- solution grids ------------------------------------------------------------------------------
def random_solution(geometry: Geometry, rng: np.random.Generator, deadline: float | None = None) -> np.ndarray:
    """A random complete grid of ``geometry`` as a uint8 array (:class:`TimeLimitReached` past ``deadline``, a
    :func:`time.perf_counter` time, between tries).

    A few random digits are placed (each consistent with its peers), the engine completes them, and a
    random symmetry of the geometry (relabelling, band/row/stack/column shuffles, ...) spreads the
    engine's deterministic choices over the whole space of grids.
    """
    from sudokit.engine import solve_array
    from sudokit.generate.transforms import random_transform

    g = geometry
    peers = g.peers
    while True:
        _check_deadline(deadline)
        values = np.zeros(g.n_cells, dtype=np.uint8)
        for s in rng.permutation(g.n_cells)[: g.size]:
            used = {int(values[p]) for p in peers[s]}
            free = [d for d in g.digits if d not in used]
            if free:
                values[s] = free[int(rng.integers(len(free)))]
        solved = solve_array(values, g)
        if solved is not None:
            break
    t = random_transform(g, rng)
    return np.array([t.digits[solved[c]] for c in t.cells], dtype=np.uint8)


# ---- digging -------------------------------------------------------------------------------------
def dig(
    solution: np.ndarray,
    geometry: Geometry,
    rng: np.random.Generator,
    symmetry: str = "none",
    stop_at: int | None = None,
    deadline: float | None = None,
) -> np.ndarray:
    """Remove clue orbits of ``solution`` in random order while the puzzle stays unique.

    Stops early once at most ``stop_at`` givens are left; otherwise no orbit can be removed at the end
    (a minimal puzzle when ``symmetry`` is ``none``). Past ``deadline`` (a :func:`time.perf_counter` time,
    checked before each uniqueness count) it raises :class:`TimeLimitReached` with the unique puzzle so far.
    """
    from sudokit.engine import count_array

    values = solution.copy()
    groups = orbits(geometry, symmetry)
    clues = geometry.n_cells
    for k in rng.permutation(len(groups)):
        if stop_at is not None and clues <= stop_at:
            break
        _check_deadline(deadline, values)
        orbit = groups[k]
        saved = [values[s] for s in orbit]
        for s in orbit:
            values[s] = 0
        if count_array(values, geometry, 2) == 1:
            clues -= len(orbit)
        else:
            for s, v in zip(orbit, saved):
                values[s] = v
    return values


def is_minimal(puzzle: Grid) -> bool:
    """True when removing any single given leaves more than one solution."""
    from sudokit.engine import count_array

    values = puzzle.to_array()
    for s in np.flatnonzero(values):
        v = values[s]
        values[s] = 0
        if count_array(values, puzzle.geometry, 2) == 1:
            return False
        values[s] = v
    return True


def parse_pattern(pattern: str, geometry: Geometry) -> np.ndarray:
    """A clue pattern (``x`` = a given, ``.`` or ``0`` = empty; whitespace ignored) as a bool mask."""
    marks = [ch for ch in pattern if not ch.isspace()]
    if len(marks) != geometry.n_cells:
        raise SudokitError(
            f"a pattern for a {geometry.size}x{geometry.size} board needs {geometry.n_cells} cells, got {len(marks)}"
        )
    bad = sorted({ch for ch in marks if ch not in "xX.0"})
    if bad:
        raise SudokitError(f"a pattern uses 'x' for a given and '.' for an empty cell, not {''.join(bad)!r}")
    return np.array([ch in "xX" for ch in marks], dtype=bool)


# ---- difficulty ----------------------------------------------------------------------------------
#: What difficulty levels are measured with, for messages.
MEASURE = "the SE-style rating with HoDoKu's level caps"


@dataclass(frozen=True)
class Difficulty:
    """A measured difficulty: the rating's level (one of :data:`DIFFICULTIES`) and its SE-style number (ER)."""

    level: str
    value: float
    measure: str = "rating"  #: what ``value`` is: the SE-style rating (ER)

    def __str__(self) -> str:
        return f"{self.level} (SE {self.value:.1f})"


def difficulty_name(name: str) -> str:
    """A difficulty as :data:`DIFFICULTIES` spells it (any case; ``expert`` is read as ``unfair``)."""
    low = name.strip().lower()
    low = OLD_DIFFICULTY_NAMES.get(low, low)
    if low not in DIFFICULTIES:
        raise SudokitError(f"unknown difficulty {name!r}; known: {', '.join(DIFFICULTIES)}")
    return low


def measure_difficulty(puzzle: Grid) -> Difficulty:
    """The puzzle's difficulty by :func:`sudokit.logic.rating.rate`: its level and its ER."""
    from sudokit.logic.rating import rate

    r = rate(puzzle, extras=False)
    return Difficulty(r.level.lower(), float(r.er))


def parse_range(text: str | int | tuple | None, what: str, cast=int) -> tuple | None:
    """``"22"`` -> (22, 22); ``"20-24"`` -> (20, 24); None stays None."""
    if text is None:
        return None
    if isinstance(text, tuple):
        lo, hi = text
    elif isinstance(text, (int, float)):
        lo = hi = text
    else:
        lo_s, sep, hi_s = str(text).strip().partition("-")
        try:
            lo = cast(lo_s)
            hi = cast(hi_s) if sep else lo
        except ValueError:
            raise SudokitError(f"{what} must be a number or a range such as 20-24, got {text!r}") from None
    if lo > hi:
        raise SudokitError(f"{what} range {lo}-{hi} is empty")
    return lo, hi


# ---- the generator -------------------------------------------------------------------------------
#: Puzzles per call of the 9x9 kernel when a stream of them is asked for.
FAST_BATCH = 256
#: Grids one try of the 9x9 kernel digs for a clue range before the time limit is looked at again.
FAST_TRIES = 16


@dataclass
class Generator:
    """Settings for a stream of generated puzzles; iterate :meth:`puzzles` or call :meth:`one`.

    ``clues`` is a number or ``(lo, hi)``: digging stops at a random target in the range, and grids
    whose minimal puzzle still has more than ``hi`` givens are tried again. ``pattern`` fills a given
    clue pattern instead of digging (HoDoKu's "pattern" mode): random solutions are tried until the
    pattern's cells make a unique puzzle. ``difficulty`` keeps only puzzles of that level.
    ``time_limit`` (seconds, per puzzle) holds inside an attempt too (checked before each uniqueness count;
    on the 9x9 kernel between tries of :data:`FAST_TRIES` grids): a hopeless request becomes a clear
    :class:`SudokitError`; when only a minimal puzzle was asked for, the unique puzzle dug so far is returned
    with ``extra["minimal"] = False`` (large boards dig for minutes; a 9x9 dig always finishes).

    Puzzle ``i`` depends only on the seed and ``i`` (see the module's docstring); ``start`` is the index of
    the first puzzle, so ``Generator(seed=s, start=k).puzzles(n)`` gives puzzles ``k..k+n-1`` of seed ``s``
    exactly as one run from 0 does. Without a seed one is drawn from the OS (:attr:`entropy` keeps it).
    ``fast``: None takes the compiled 9x9 kernel (:mod:`~sudokit.generate.fast9`) wherever it covers the
    settings (the classic 9x9 board with ``method="dig"``), False the Python path, True demands
    the kernel (an error when the settings need the Python path); afterwards it says which path is taken.
    """

    geometry: Geometry = field(default_factory=standard)
    seed: int | None = None
    symmetry: str = "none"
    clues: tuple[int, int] | None = None
    pattern: str | None = None
    difficulty: str | None = None
    rating: tuple[float, float] | None = None
    method: str = "dig"
    time_limit: float = 60.0
    #: what the logical path must use and may use (generation by technique, :mod:`sudokit.generate.needs`)
    wants: PathWants | None = None
    start: int = 0
    fast: bool | None = None
    rng: np.random.Generator = field(init=False, repr=False)
    entropy: int = field(init=False)  #: the seed in use (drawn from the OS when ``seed`` is None)

    def __post_init__(self) -> None:
        if self.seed is not None and (isinstance(self.seed, bool) or not isinstance(self.seed, (int, np.integer))):
            raise SudokitError(f"a seed is a whole number, not {self.seed!r}")
        if self.seed is not None and self.seed < 0:
            raise SudokitError(f"a seed is 0 or more, not {self.seed}")
        if isinstance(self.start, bool) or not isinstance(self.start, (int, np.integer)) or not 0 <= self.start < 2**62:
            raise SudokitError(f"the first puzzle's index (start) is a whole number in 0..2**62, not {self.start!r}")
        self.entropy = int(self.seed) if self.seed is not None else int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
        self._index = int(self.start)
        self.rng = self._rng_of(self._index)
        self.clues = parse_range(self.clues, "clues")
        self.rating = parse_range(self.rating, "rating", float)
        if self.method not in METHODS:
            raise SudokitError(f"unknown method {self.method!r}; known: {', '.join(METHODS)}")
        if self.difficulty is not None:
            self.difficulty = difficulty_name(self.difficulty)
        if self.wants is not None and self.method != "dig":
            raise SudokitError(f"a wanted logical path needs the dig method, not {self.method!r}")
        if self.symmetry not in SYMMETRIES:
            raise SudokitError(f"unknown symmetry {self.symmetry!r}; known: {', '.join(SYMMETRIES)}")
        self._mask = parse_pattern(self.pattern, self.geometry) if self.pattern else None
        if self.clues and not 0 <= self.clues[0] <= self.geometry.n_cells:
            raise SudokitError(f"a {self.geometry.size}x{self.geometry.size} board has {self.geometry.n_cells} cells")
        fewest = MIN_CLUES.get(self.geometry.size) if self.geometry.is_standard else None
        if self.clues and self.method == "dig" and fewest is not None and self.clues[1] < fewest:
            n = self.geometry.size
            raise SudokitError(
                f"a {n}x{n} puzzle with one solution has at least {fewest} clues (proven); "
                f"{self.clues[1]} cannot be reached"
            )
        covered = self.geometry == standard() and self.method == "dig"
        if self.fast and not covered:
            raise SudokitError("the 9x9 generator kernel covers the classic 9x9 board with method dig only")
        self.fast = covered if self.fast is None else bool(self.fast)

    def _rng_of(self, index: int) -> np.random.Generator:
        """The Python path's random stream of puzzle ``index``."""
        return np.random.default_rng(np.random.SeedSequence(self.entropy, spawn_key=(index,)))

    @property
    def batched(self) -> bool:
        """True when :meth:`puzzles` makes them :data:`FAST_BATCH` per kernel call (the 9x9 kernel, no
        difficulty, rating or path to meet): a fraction of a millisecond each."""
        return bool(self.fast) and self.difficulty is None and self.rating is None and self.wants is None

    def puzzles(self, count: int | None = None) -> Iterator[Generated]:
        """``count`` puzzles (endless when None); on the 9x9 kernel made :data:`FAST_BATCH` per call."""
        made = 0
        batched = self.batched
        while count is None or made < count:
            if batched:
                n = FAST_BATCH if count is None else min(FAST_BATCH, count - made)
                yield from self._fast_batch(n)
                made += n
            else:
                yield self.one()
                made += 1

    def one(self) -> Generated:
        """The next puzzle that meets every setting; :class:`SudokitError` past the time limit."""
        index = self._index
        self._index += 1
        if self.fast:
            return self._fast_one(index)
        self.rng = self._rng_of(index)
        if self.method == "norvig":
            return self._norvig()
        deadline = time.perf_counter() + self.time_limit
        attempts = 0
        while True:
            attempts += 1
            try:
                found = self._attempt(deadline)
            except TimeLimitReached as stop:
                found = self._cut_short(stop.partial)
                if found is None:
                    raise SudokitError(self._give_up_message(attempts)) from None
                found.attempts = attempts
                return found
            if found is not None and self._difficulty_ok(found):
                found.attempts = attempts
                return found
            if time.perf_counter() > deadline:
                raise SudokitError(self._give_up_message(attempts))

    # -- the 9x9 kernel ----------------------------------------------------------------------------
    def _kernel(self, first: int, n: int, try_index: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows ``first..first+n-1`` of the 9x9 kernel, try ``try_index``: puzzles, solutions, info rows."""
        from sudokit.generate import fast9

        if not hasattr(self, "_key"):
            self._key = np.uint64(fast9.key_of(self.entropy))
        sym = -1 if self.symmetry == "random" else fast9.KERNEL_SYMMETRIES.index(self.symmetry)
        pattern = np.zeros(0, dtype=np.uint8)
        if self._mask is not None:
            pattern = self._mask.astype(np.uint8)
            sym = 0
        lo, hi = self.clues if self.clues else (-1, 81)
        puzzles = np.zeros((n, 81), dtype=np.uint8)
        solutions = np.zeros((n, 81), dtype=np.uint8)
        info = np.zeros((n, 4), dtype=np.int64)
        tries = FAST_TRIES if self.clues or self._mask is not None else 1
        call = (self._key, first, try_index, sym, lo, hi, tries, True, pattern, puzzles, solutions, info)
        with np.errstate(over="ignore"):  # uint64 wrap-around is the point; numpy warns only without the JIT
            fast9.generate_rows(*call, *fast9.table_args())
        if np.any(info[:, 0] == fast9.CHECK_FAILED):
            bad = first + int(np.flatnonzero(info[:, 0] == fast9.CHECK_FAILED)[0])
            raise SudokitError(
                f"internal error: the 9x9 generator's check refused puzzle {bad} of seed {self.entropy}; "
                "please report it with the command"
            )
        return puzzles, solutions, info

    def _made(self, puzzle: np.ndarray, solution: np.ndarray, info: np.ndarray) -> Generated:
        from sudokit.generate.fast9 import KERNEL_SYMMETRIES

        g = self.geometry
        symmetry = "pattern" if self._mask is not None else KERNEL_SYMMETRIES[info[2]]
        return Generated(Grid(g, tuple(puzzle.tolist())), Grid(g, tuple(solution.tolist())), symmetry=symmetry)

    def _fast_batch(self, n: int) -> Iterator[Generated]:
        """The next ``n`` puzzles from one kernel call (a row whose tries found no puzzle is asked again)."""
        from sudokit.generate.fast9 import OK

        first = self._index
        puzzles, solutions, info = self._kernel(first, n, 0)
        for r in range(n):
            self._index = first + r + 1
            if info[r, 0] == OK:
                found = self._made(puzzles[r], solutions[r], info[r])
                found.attempts = int(info[r, 1])
                yield found
            else:
                yield self._fast_one(first + r, tried=int(info[r, 1]), first_try=1)

    def _fast_one(self, index: int, tried: int = 0, first_try: int = 0) -> Generated:
        """Puzzle ``index`` from the kernel, try after try, until one meets every setting or time runs out."""
        from sudokit.generate.fast9 import OK, load

        load()  # compiling is not the puzzle's time
        deadline = time.perf_counter() + self.time_limit
        attempts = tried
        try_index = first_try
        while True:
            puzzles, solutions, info = self._kernel(index, 1, try_index)
            try_index += 1
            attempts += int(info[0, 1])
            if info[0, 0] == OK:
                found = self._made(puzzles[0], solutions[0], info[0])
                if self._difficulty_ok(found):
                    found.attempts = attempts
                    return found
            if time.perf_counter() > deadline:
                raise SudokitError(self._give_up_message(attempts))

    def _cut_short(self, partial: np.ndarray | None) -> Generated | None:
        """The puzzle dug when the time limit struck, when nothing but a minimal puzzle was asked for: it is
        unique (digging only removes clues while the puzzle stays unique) but not minimal, which
        ``extra["minimal"]`` says. With a clue count, pattern or difficulty asked for: None."""
        if partial is None or self.clues or self._mask is not None or self.difficulty or self.rating or self.wants:
            return None
        if np.all(partial):  # not one clue removed yet: no puzzle at all
            return None
        g = self.geometry
        solution = self._solution
        found = Generated(Grid(g, tuple(int(v) for v in partial)), Grid(g, tuple(int(v) for v in solution)))
        found.symmetry = self._symmetry
        found.extra["minimal"] = False
        return found

    # -- one try ---------------------------------------------------------------------------------
    def _attempt(self, deadline: float | None = None) -> Generated | None:
        g = self.geometry
        rng = self.rng
        symmetry = self._symmetry = _pick_symmetry(self.symmetry, rng)
        solution = self._solution = random_solution(g, rng, deadline)
        if self._mask is not None:
            from sudokit.engine import count_array

            values = np.where(self._mask, solution, 0).astype(np.uint8)
            if count_array(values, g, 2) != 1:
                return None
            symmetry = "pattern"
        else:
            stop_at = None
            if self.clues is not None:
                lo, hi = self.clues
                stop_at = int(rng.integers(lo, hi + 1))
            values = dig(solution, g, rng, symmetry, stop_at, deadline)
            clues = int(np.count_nonzero(values))
            if self.clues is not None and not self.clues[0] <= clues <= self.clues[1]:
                return None
        return Generated(
            Grid(g, tuple(int(v) for v in values)), Grid(g, tuple(int(v) for v in solution)), symmetry=symmetry
        )

    def _difficulty_ok(self, found: Generated) -> bool:
        if self.wants is not None:
            path = self.wants.path(found.puzzle)
            if path is None:
                return False
            found.extra["path"] = path
        if self.difficulty is None and self.rating is None:
            return True
        found.rating = measure_difficulty(found.puzzle)
        if self.rating is not None:
            lo, hi = self.rating
            if not lo <= found.rating.value <= hi:
                return False
        return self.difficulty is None or found.rating.level == self.difficulty

    def _give_up_message(self, attempts: int) -> str:
        wants = []
        if self.difficulty:
            wants.append(f"difficulty {self.difficulty} (by {MEASURE})")
        if self.rating:
            wants.append(f"an SE rating of {self.rating[0]:g}-{self.rating[1]:g}")
        if self.clues:
            lo, hi = self.clues
            wants.append(f"{lo} clues" if lo == hi else f"{lo}-{hi} clues")
        if self.pattern:
            wants.append("the given clue pattern")
        if self.wants is not None:
            wants.append(f"a logical path that {self.wants.spec}")
        if self.symmetry != "none":
            wants.append(f"{self.symmetry} symmetry")
        return (
            f"no puzzle with {' and '.join(wants) or 'these settings'} found in {self.time_limit:g} s "
            f"({attempts} grids tried): this combination is too rare; relax it or raise --time-limit"
        )

    def _norvig(self) -> Generated:
        from sudokit.engine import count_array
        from sudokit.generate.norvig import random_puzzle

        n_givens = self.clues[0] if self.clues else 17
        puzzle = random_puzzle(self.geometry, self.rng, n_givens)
        count = count_array(puzzle.to_array(), self.geometry, 2)
        found = Generated(puzzle, None, symmetry="none", method="norvig", unique=count == 1)
        found.extra["solutions"] = "none" if count == 0 else "one" if count == 1 else "several"
        if count == 1:
            from sudokit.engine import solve_array

            solved = solve_array(puzzle.to_array(), self.geometry)
            if solved is not None:  # it has one solution: just counted
                found.solution = Grid(self.geometry, tuple(int(v) for v in solved))
        return found


def generate(geometry: Geometry | None = None, **settings) -> Generated:
    """One generated puzzle; ``settings`` are :class:`Generator`'s (seed, symmetry, clues, ...)."""
    return Generator(geometry or standard(), **settings).one()


def generate_many(count: int, geometry: Geometry | None = None, **settings) -> list[Generated]:
    """``count`` generated puzzles from one seeded stream."""
    return list(Generator(geometry or standard(), **settings).puzzles(count))
