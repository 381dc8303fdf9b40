"""The pure-Python port used for single puzzles agrees with the compiled kernel, and never loads numba."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sudokit.engine import solve
from sudokit.engine.api import solve_compiled
from sudokit.engine.pure import BudgetExceeded, solve_small
from sudokit.formats import parse_grid
from sudokit.geometry import diagonal
from sudokit.grid import is_solution
from sudokit.result import Status

DATA = Path(__file__).resolve().parents[1] / "data"
HARD1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."
#: A subset of a 16x16 solution (54 givens) that ``benchmarks/fuzz.py`` drew: branching on cells alone ran
#: for more than ten minutes; with a digit's places in a unit as a choice too, 114 nodes.
SPARSE16 = (
    "2.......EF...4.....BF...D.1........F...D..5.............G...1..........7C....1.............5........1..4..."
    ".....3.8........15D..4..7B.5.....A..DF..C..76A.9.............3..........2.8...5......9..57......4C....4.."
    "........D5.1..........2.974.........9......."
)

#: A subset of a 16x16 solution (66 givens, of ``sudoku16_janko.solutions.txt``'s sixth line) that the fuzz
#: campaign (``benchmarks/fuzz.py --seed 7``, its 10,109th solve input) asked for with ``limit=146``: the
#: first run of the search went down a branch with no solution and was still there after 20 s (about 2.4
#: million nodes, counting to 1 or 2 alike). With restarts (Luby, each run after the first in a pseudo-random
#: option order) and ties going to the cells that failed most: 185 nodes to the first solution, 495 to 146.
SPARSE16_66 = (
    "2..B...G.......C5..1...E.6..........391..2..B..EG........B.F.........1A.....F6......D4.315...7........79."
    "GCB1..2..1..........4..........GC.EA.....C........28..G........A..D....1...5.CD...83..7..7C..4.F.........."
    "81.......9..59..............F..EF......6....."
)

#: A random subset of a 25x25 solution (257 givens, drawn while working on issue #16): the search before the
#: restarts and conflict weights took 95,705 nodes to its first solution, now 115.
SUBSET25 = (
    "...K.84.16....MH...D...I.7..I....F..G4.C5LEK....HA.3.N..7.D.O..H..6....F..5.CH...5...1..DKB...N.....4BE."
    ".H...P..J5.1.....DC.....7E.G.6..C5...3.PJ..8.......3CFN.PK...L4..I5...B6.5DI..2.M......O....7..K..C..BEP"
    ".......78....G.A..LG.KD...4.MA.8......P.....41MG.C.D6..L....7KA8.PEI..AC5..97F....G.......1...L..N....5."
    "1A2.P43H.C.D.N.P.7.A..8...........2G4.E2K3D.O....7...AN18...F...EIB...D7.8.NM......F...C...4..I.M....C.D"
    "G3N7...9.D..MGO.....23459..F....K1L.JH.KN.4.AE...8.B.5.6.7MCN.85.2...I....4....PO.J..9..H..A.3....1E.74."
    "O......7..I.6..NL2..M.H.8E....J62...F.8..9.....O1P.3..H.D.L84J..1C.....5..6.AP2.......M.OC.5....KJ9L..6."
    "."
)
#: A subset of a 16x16 solution with one stray given: no solution, which propagation alone does not see, so the
#: proof takes 80 backtracks, past the first runs' allowances (32, 32, ...): a restart must not lose it.
STRAY16 = (
    "73.C94......215..16...5.4..GE..9....26.E..1.......E...F.7..C3D.66D....E83.91.C.B..1..7.98.C.D34..F...D.B"
    ".6..8.....C...G4..E........1..B..9..4EA.A.4.E.6....59GFC.E5F79.2G.4.B...B.9.4F3A....5.......B....38.CF.2"
    "E.......CA6F1....8265E...G.9A.3D.5...A......7B.8"
)


@pytest.mark.parametrize(
    "name", ["norvig_top95", "tdoku_test_puzzles", "serg_benchmark", "sudoku4_vu", "sudoku16_janko"]
)
def test_pure_port_matches_the_kernel_status_solution_and_statistics(name):
    lines = [line.split(":")[0] for line in (DATA / f"{name}.txt").read_text().split()[:12]]
    for line in lines:
        grid = parse_grid(line)
        fast, slow = solve_compiled(grid), solve_small(grid, node_budget=100_000)
        assert slow.status is fast.status
        assert slow.count == fast.count
        assert (slow.stats.guesses, slow.stats.nodes, slow.stats.backtracks) == (
            fast.stats.guesses,
            fast.stats.nodes,
            fast.stats.backtracks,
        )
        if slow.solution is not None:
            assert slow.solution == fast.solution and is_solution(slow.solution, grid)


def test_pure_port_handles_variants_and_clashes():
    puzzle = parse_grid((DATA / "xsudoku9.txt").read_text().split()[0], diagonal())
    assert solve_small(puzzle).solution == solve_compiled(puzzle).solution
    assert solve_small(parse_grid("11" + "." * 79)).status is Status.INVALID
    assert solve_small(parse_grid("12345678." + "........9" + "." * 63)).status is Status.NO_SOLUTION


def test_pure_port_gives_up_past_its_node_budget():
    with pytest.raises(BudgetExceeded):
        solve_small(parse_grid(HARD1), node_budget=10)


@pytest.mark.parametrize("line", [HARD1, SPARSE16])
def test_branching_on_a_digits_places_keeps_sparse_boards_out_of_the_long_tail(line):
    # Norvig's hard1 (many solutions) and the fuzz campaign's 16x16: cell-only branching needed more than
    # 100,000 nodes to count to 2 on hard1 and minutes on the 16x16; both forms now agree in a few dozen nodes.
    grid = parse_grid(line)
    slow = solve_small(grid, limit=1, node_budget=1_000)
    fast = solve_compiled(grid, limit=1)
    assert slow.status is fast.status is Status.SOLVED
    assert slow.solution == fast.solution and is_solution(slow.solution, grid)
    assert (slow.stats.guesses, slow.stats.nodes, slow.stats.backtracks) == (
        fast.stats.guesses,
        fast.stats.nodes,
        fast.stats.backtracks,
    )


def _same_search(slow, fast) -> None:
    """The plain port and the kernel found the same solution by the same search."""
    assert slow.solution == fast.solution
    assert (slow.stats.guesses, slow.stats.nodes, slow.stats.backtracks) == (
        fast.stats.guesses,
        fast.stats.nodes,
        fast.stats.backtracks,
    )


def test_restarts_keep_a_sparse_16x16_out_of_the_heavy_tail():
    # Before the restarts, the kernel ran out of this time limit with no solution found, whatever the limit.
    grid = parse_grid(SPARSE16_66)
    many = solve_compiled(grid, limit=146, time_limit=10.0)
    assert many.status is Status.MULTIPLE and many.count == 146
    for limit in (1, 2):
        fast = solve_compiled(grid, limit=limit, time_limit=10.0)
        slow = solve_small(grid, limit=limit, node_budget=1_000)
        assert fast.status is slow.status is (Status.SOLVED if limit == 1 else Status.MULTIPLE)
        _same_search(slow, fast)
    assert is_solution(solve_small(grid, limit=1, node_budget=1_000).solution, grid)


def test_restarts_and_conflict_weights_agree_in_both_ports_on_25x25_and_on_a_proof_of_no_solution():
    from sudokit.geometry import from_name

    grid = parse_grid(SUBSET25, from_name("standard", 625))
    for limit in (1, 2):
        fast = solve_compiled(grid, limit=limit, time_limit=10.0)
        slow = solve_small(grid, limit=limit, node_budget=1_000)
        assert fast.status is slow.status is (Status.SOLVED if limit == 1 else Status.MULTIPLE)
        _same_search(slow, fast)
        assert fast.stats.nodes < 1_000  # 95,705 to the first solution before
    grid = parse_grid(STRAY16)
    fast = solve_compiled(grid, limit=2, time_limit=10.0)
    slow = solve_small(grid, limit=2, node_budget=10_000)
    assert fast.status is slow.status is Status.NO_SOLUTION
    assert fast.stats.backtracks > 32  # the first run's allowance: the proof went through restarts
    assert (slow.stats.guesses, slow.stats.nodes, slow.stats.backtracks) == (
        fast.stats.guesses,
        fast.stats.nodes,
        fast.stats.backtracks,
    )


def test_luby_sequence_is_the_same_in_both_ports():
    from sudokit.engine.kernel import luby as compiled_luby
    from sudokit.engine.pure import luby

    expected = [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1]
    assert [luby(r) for r in range(16)] == expected
    assert [compiled_luby(r) for r in range(200)] == [luby(r) for r in range(200)]


def test_pure_port_does_not_import_numba():
    code = "import sys; import sudokit.engine.pure; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_solve_and_count_of_one_puzzle_do_not_load_numba():
    # sudokit.solve on one puzzle: the plain port answers (numba would cost more than the whole search)
    code = (
        "import sys, sudokit; r = sudokit.solve(sys.argv[1]); n = sudokit.count_solutions(sys.argv[1]);"
        "print(r.status, n, 'numba' in sys.modules)"
    )
    line = (DATA / "norvig_top95.txt").read_text().split()[0]
    out = subprocess.run([sys.executable, "-c", code, line], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["solved", "1", "False"]


def test_solve_falls_back_to_the_kernel_past_the_budget_with_the_same_answer():
    grid = parse_grid(HARD1)
    assert solve(grid).solution == solve_compiled(grid).solution
    empty = parse_grid("." * 81)
    assert solve(empty, limit=5000).count == solve_compiled(empty, limit=5000).count == 5000


def test_one_puzzle_past_the_budget_runs_the_plain_port_once_then_the_kernel():
    # `sudokit solve PUZZLE` used to run the port itself, then engine.solve ran it again before the kernel.
    code = (
        "import sys\n"
        "import sudokit.engine.pure as pure\n"
        "calls = []\n"
        "original = pure.solve_small\n"
        "def counted(*args, **kwargs):\n"
        "    calls.append(1)\n"
        "    return original(*args, **kwargs)\n"
        "pure.solve_small = counted\n"
        "from sudokit.cli import main\n"
        "try:\n"
        "    main(prog_name='sudokit', args=['solve', '--count', '3', sys.argv[1]])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('calls', len(calls))\n"
    )
    done = subprocess.run([sys.executable, "-c", code, HARD1], capture_output=True, text=True, check=True)
    assert done.stdout.split()[-2:] == ["calls", "1"]
    assert "3+ solutions" in done.stdout
