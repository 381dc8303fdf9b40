"""Sudoku as a CSP of binary ``!=`` constraints: AC-3, then backtracking that keeps arc consistency (MAC).

Following ``seeds/ac3-backtracking-assignment.md``, on any geometry:

- the variables are the cells, each domain the cell's candidates (a bitmask, bit ``d-1`` for digit ``d``);
- every pair of peers is one constraint ``X != Y`` (:func:`constraints`: 810 for 9x9), seen from both ends
  as two directed arcs (:func:`arcs`: 1620);
- :func:`ac3` takes arcs ``(X, Y)`` from a FIFO queue and *revises* ``X``: a digit of ``X`` with no
  supporting digit in ``Y`` goes, which for ``!=`` means ``Y``'s digit when ``Y`` has only one. When ``X``
  shrinks, the arcs ``(Z, X)`` of its other neighbours join the queue. The queue length after each arc
  is recorded, as the seed plots it;
- :func:`search` is backtracking with MAC: after each assignment, AC-3 runs again from the arcs pointing at
  the assigned cell. The next cell is the one with the fewest candidates (MRV), ties broken by the most
  unassigned neighbours (degree), then reading order; its digits are tried least constraining first.

How a solve ended, in the seed's words, is :func:`outcome`: solved by AC-3 alone, needed backtracking,
no solution, or several solutions.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from sudokit.geometry import Geometry
from sudokit.grid import Grid, digits_of
from sudokit.methods.runner import Budget
from sudokit.methods.trace import SILENT, Recorder, Trace
from sudokit.result import Stats, Status

Domains = list[int]
Arc = tuple[int, int]

#: The seed's four outcomes.
SOLVED_BY_AC3 = "solved by AC-3 alone"
NEEDED_BACKTRACKING = "needed backtracking"
NO_SOLUTION = "no solution"
SEVERAL_SOLUTIONS = "several solutions"


def constraints(g: Geometry) -> list[tuple[int, int]]:
    """The distinct binary constraints ``a != b`` (``a < b``, peers): 810 for 9x9, 864 for diagonal 9x9."""
    return [(a, b) for a in g.cells for b in g.peers[a] if a < b]


def arcs(g: Geometry) -> list[Arc]:
    """Every constraint from both ends: the directed arcs ``(X, Y)``, twice the constraints (1620 for 9x9)."""
    return [(x, y) for x in g.cells for y in g.peers[x]]


def initial_domains(puzzle: Grid) -> Domains:
    """A given's domain is its digit; an empty cell's is every digit."""
    full = puzzle.geometry.all_mask
    return [1 << (v - 1) if v else full for v in puzzle.values]


def revise(domains: Domains, x: int, y: int) -> bool:
    """Make arc ``(x, y)`` consistent: drop ``y``'s digit from ``x`` when ``y`` has only one. True if ``x`` shrank."""
    dy = domains[y]
    if dy & (dy - 1) == 0 and domains[x] & dy:
        domains[x] &= ~dy
        return True
    return False


def ac3(
    domains: Domains,
    g: Geometry,
    queue: deque[Arc],
    rec: Recorder = SILENT,
    lengths: list[int] | None = None,
    textbook: bool = False,
) -> bool:
    """Run AC-3 from ``queue`` until it is empty; False when a domain empties (no solution from here).

    Textbook AC-3 queues the arcs ``(Z, X)`` every time ``X`` shrinks. For a ``!=`` constraint such an arc
    can remove something only once ``X`` is down to one digit, so by default they are queued when ``X``
    becomes a single digit: the same result (the same arc-consistent domains), a far shorter queue.
    ``textbook=True`` queues them on every shrink, as the seed does. ``lengths``, when given, receives the
    queue length at the start and after each arc is processed.
    """
    peers = g.peers
    if lengths is not None:
        lengths.append(len(queue))
    while queue:
        x, y = queue.popleft()
        dy = domains[y]
        if dy & (dy - 1) == 0 and domains[x] & dy:  # revise(x, y), inlined: this loop is the hot path
            left = domains[x] = domains[x] & ~dy
            if rec.on:
                rec.note("eliminate", x, dy.bit_length(), "ac3")
            if left == 0:
                rec.note("fail", x, None, "ac3")
                if lengths is not None:
                    lengths.append(len(queue))
                return False
            single = left & (left - 1) == 0
            if single and rec.on:
                rec.note("assign", x, left.bit_length(), "ac3")
            if single or textbook:
                queue.extend([(z, x) for z in peers[x] if z != y])
        if lengths is not None:
            lengths.append(len(queue))
    return True


def _unassigned(domains: Domains) -> list[int]:
    return [s for s, m in enumerate(domains) if m & (m - 1)]


def select_cell(domains: Domains, g: Geometry) -> int:
    """MRV: the unassigned cell with the fewest candidates; ties go to the one with the most unassigned
    neighbours (degree heuristic), then to the first in reading order."""
    open_cells = _unassigned(domains)
    fewest = min(domains[s].bit_count() for s in open_cells)
    tied = [s for s in open_cells if domains[s].bit_count() == fewest]
    if len(tied) == 1:
        return tied[0]

    def degree(s: int) -> int:
        peers = g.peers[s]
        return len(peers) - [domains[p] & (domains[p] - 1) for p in peers].count(0)

    return max(tied, key=lambda s: (degree(s), -s))


def order_digits(domains: Domains, s: int, g: Geometry) -> list[int]:
    """Least constraining value first: the digits of ``s`` ordered by how many unassigned neighbours would
    lose them (fewest first, then smaller digit)."""
    open_peers = [domains[p] for p in g.peers[s] if domains[p] & (domains[p] - 1)]

    def ruled_out(d: int) -> int:
        bit = 1 << (d - 1)
        return len(open_peers) - [m & bit for m in open_peers].count(0)

    return sorted(digits_of(domains[s]), key=lambda d: (ruled_out(d), d))


def search(
    domains: Domains, g: Geometry, budget: Budget, rec: Recorder = SILENT, trace: Trace | None = None
) -> Iterator[Domains]:
    """Backtracking with MAC on arc-consistent ``domains``; yields every solution."""
    budget.node()
    if not _unassigned(domains):
        rec.note("solved")
        yield domains
        return
    s = select_cell(domains, g)
    child = rec.deeper()
    digits = order_digits(domains, s, g)
    for i, d in enumerate(digits):
        budget.branch(i, len(digits))
        rec.note("guess", s, d, "search")
        attempt = list(domains)
        attempt[s] = 1 << (d - 1)
        child.note("assign", s, d, "search")
        lengths = None
        if trace is not None:
            trace.search_starts.append(len(trace.queue_lengths))
            lengths = trace.queue_lengths
        if ac3(attempt, g, deque((z, s) for z in g.peers[s]), child, lengths):
            yield from search(attempt, g, budget, child, trace)
        else:
            budget.backtracks += 1
        rec.note("backtrack", s, d, "search")


def solutions(puzzle: Grid, budget: Budget, trace: Trace | None = None) -> Iterator[tuple[int, ...]]:
    """Every solution of ``puzzle`` by AC-3 then MAC search, as digit tuples (for :func:`runner.run`)."""
    g = puzzle.geometry
    rec = Recorder(trace)
    domains = initial_domains(puzzle)
    lengths = trace.queue_lengths if trace is not None else None
    if not ac3(domains, g, deque(arcs(g)), rec, lengths):
        budget.node()
        budget.backtracks += 1
        return
    for found in search(domains, g, budget, rec, trace):
        yield tuple(m.bit_length() for m in found)


def propagate(puzzle: Grid) -> Domains | None:
    """Domains after the first AC-3 run (no search): the "after propagation" stage; None if one empties."""
    domains = initial_domains(puzzle)
    g = puzzle.geometry
    return domains if ac3(domains, g, deque(arcs(g))) else None


def outcome(status: Status, stats: Stats) -> str:
    """The seed's outcome for a finished solve: AC-3 alone / backtracking / no solution / several solutions.

    AC-3 alone solved the puzzle when the search stopped at its first node (every domain a single digit).
    """
    if status == Status.SOLVED:
        return SOLVED_BY_AC3 if stats.nodes <= 1 else NEEDED_BACKTRACKING
    if status == Status.MULTIPLE:
        return SEVERAL_SOLUTIONS
    if status in (Status.NO_SOLUTION, Status.INVALID):
        return NO_SOLUTION
    return str(status)
