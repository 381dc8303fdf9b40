"""The searches with a plain-Python form beside their kernel (singles, locked candidates, subsets, basic fish,
Skyscraper / 2-String Kite / Turbot Fish): both forms return the same finding on every state of the bundled
solving paths, and which one runs is chosen in one place (``sudokit.jit.either``). Every other logic kernel runs
its own Python body on a cold cache (``sudokit.jit.python_form``): whole solving paths are the same both ways."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import sudokit
from logic_states import fresh
from sudokit import jit
from sudokit.logic import fish, intersections, misses, single_digit, singles, subsets

ROOT = Path(__file__).resolve().parents[1]


def _searches(state):
    """(name, call) of every search with two forms, each call giving its raw finding on ``state``."""
    out = [
        ("full house", lambda s: singles.full_house_hit(s)),
        ("naked single", lambda s: singles.naked_single_hit(s)),
    ]
    for lines in (False, True):
        out.append((f"hidden single lines={lines}", lambda s, lines=lines: singles.hidden_single_hit(s, lines)))
        for single in (None, "box", "line", "any", "row", "column"):
            out.append(
                (
                    f"locked lines={lines} single={single}",
                    lambda s, lines=lines, single=single: jit.either(
                        intersections.KERNELS,
                        intersections.locked_plain,
                        intersections._locked_kernel,
                        s,
                        lines,
                        single,
                    ),
                )
            )
    for k in (2, 3, 4):
        out.append(
            (f"naked {k}", lambda s, k=k: jit.either(subsets.KERNELS, subsets.naked_plain, subsets._naked_kernel, s, k))
        )
        for single in (None, "box", "same"):
            out.append(
                (
                    f"hidden {k} single={single}",
                    lambda s, k=k, single=single: jit.either(
                        subsets.KERNELS, subsets.hidden_plain, subsets._hidden_kernel, s, k, single
                    ),
                )
            )
        out.append((f"fish {k}", lambda s, k=k: jit.either(fish.KERNELS, fish.fish_plain, fish._fish_kernel, s, k)))
    for wanted in range(3):
        out.append(
            (
                f"turbot {wanted}",
                lambda s, w=wanted: jit.either(
                    single_digit.KERNELS, single_digit.turbot_plain, single_digit._turbot_kernel, s, w
                ),
            )
        )
    return out


def test_plain_forms_find_what_the_kernels_find(loop_states):
    found = 0
    for state in loop_states:
        for name, call in _searches(state):
            with jit.forms("plain"):
                plain = call(fresh(state))
            with jit.forms("kernel"):
                kernel = call(fresh(state))
            assert plain == kernel, (name, state.to_grid().to_line())
            found += plain not in (None, (-1, -1), (-1, 0), (-1, -1, -1))
    assert found >= 1000


def test_the_digits_cells_are_the_same_in_plain_python_and_from_the_kernel(loop_states):
    for state in loop_states:
        plain = misses._digit_bits_plain(fresh(state))
        assert plain == misses._digit_bits_kernel(fresh(state)), state.to_grid().to_line()
        assert all(
            bits.bit_count() == sum(state.cands[s] >> (d - 1) & 1 for s in range(len(state.cands)))
            for d, bits in enumerate(plain)
            if d
        )


def test_a_single_puzzle_explained_by_the_basic_techniques_never_imports_numba():
    # norvig_easy50 #1 needs singles only, norvig_top95 #1 locked candidates and subsets too
    puzzles = [(ROOT / "data" / name).read_text().split()[0] for name in ("norvig_easy50.txt", "norvig_top95.txt")]
    code = (
        "import sys; from sudokit.logic import explain\n"
        f"for p in {puzzles!r}: assert explain(p).solved\n"
        "print('numba' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_forms_decides_which_form_runs_and_refuses_other_modes():
    calls = []
    plain, kernel = (lambda: calls.append("plain") or 1), (lambda: calls.append("kernel") or 1)
    with jit.forms("plain"):
        jit.either(singles.KERNELS, plain, kernel)
    with jit.forms("kernel"):
        jit.either(singles.KERNELS, plain, kernel)
    assert calls == ["plain", "kernel"]
    try:
        with jit.forms("fast"):
            pass
    except ValueError as exc:
        assert "fast" in str(exc)
    else:
        raise AssertionError("forms('fast') was taken")


def test_auto_runs_the_plain_form_until_the_kernel_is_loaded_or_the_plain_budget_is_spent():
    code = (
        "from sudokit import jit\n"
        "from sudokit.logic import fish, singles\n"
        "from sudokit.logic.explain import start_state\n"
        "state = start_state('..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..')\n"
        "print(jit.plain_now(singles.KERNELS), end=' ')\n"
        "with jit.forms('kernel'):\n"
        "    singles.naked_single(state), singles.full_house(state), singles.hidden_single_box(state)\n"
        "print(jit.plain_now(singles.KERNELS), jit.plain_now(fish.KERNELS), end=' ')\n"
        "jit.charge(jit.COLD_PLAIN_SECONDS)\n"
        "print(jit.plain_now(fish.KERNELS))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "False", "True", "False"]


#: top1465 puzzles whose paths need strong-link X-chains and SE's forcing chains (B, ER 7.8, a Nishio chain since
#: #20's SE rules, a static chain before: what benchmarks/first_use.py calls "chains"), Sue de Coq (S) and, in
#: HoDoKu's set, AICs and ALS-XZ; and the first diagonal puzzle.
_BODIES = {
    "A": ("...23....1.....7.....8..........561..82.........4.....5....14...3..6............2", "standard"),
    "B": ("38....1...6..9......2....9.41....9....8.....29.......8.....3.57....86......1.4.2.", "standard"),
    "S": ("......5...4.......5...37..2.8...64....9..2..8.6...17....36..8.9..78........1.....", "standard"),
    "X": ("2.............62....1....7...6..8...3...9...7...6..4...4....8....52.............3", "diagonal"),
}


def _paths_code(mode: str) -> str:
    """Code that prints, per puzzle and technique set, the steps ``explain`` takes in ``jit.forms(mode)``."""
    return (
        "import json, sys\n"
        "from sudokit import jit\n"
        "from sudokit.formats import parse_grid\n"
        "from sudokit.geometry import from_name\n"
        "from sudokit.logic import explain\n"
        f"with jit.forms({mode!r}):\n"
        f"    for key, (line, name) in sorted({_BODIES!r}.items()):\n"
        "        for techniques in (None, 'hodoku'):\n"
        "            path = explain(parse_grid(line, geometry=from_name(name)), techniques=techniques)\n"
        "            print(json.dumps([key, techniques, [s.to_dict() for s in path.steps]]))\n"
    )


def test_the_kernels_python_bodies_take_the_kernels_steps(tmp_path):
    # a fresh process in the "plain" mode runs every logic kernel's Python body (jit.python_form) and compiles
    # nothing; its steps are the kernels' steps, step by step (chains, forcing chains, ALS, Sue de Coq, wings,
    # uniqueness, on a standard and a diagonal grid)
    # The kernels run from the session's cache (what `sudokit warm-up` compiled, in the sudokit this session
    # imports): compiling them all again on a fresh cache cost this test 30 s of CPU and proved nothing more.
    src = str(Path(sudokit.__file__).resolve().parents[1])
    plain_env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    plain_env.update(NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=src)
    envs = {"plain": plain_env, "kernel": {**os.environ, "PYTHONPATH": src}}
    runs = {}
    for mode in ("plain", "kernel"):
        done = subprocess.run(
            [sys.executable, "-c", _paths_code(mode)], capture_output=True, text=True, env=envs[mode], check=True
        )
        runs[mode] = done.stdout.splitlines()
        if mode == "plain":
            assert "compiling" not in done.stderr and not list((tmp_path / "cache").rglob("*.nbi"))
    assert len(runs["plain"]) == 2 * len(_BODIES)
    for plain, kernel in zip(runs["plain"], runs["kernel"]):
        assert json.loads(plain) == json.loads(kernel)
    used = {s["technique"] for line in runs["kernel"] for s in json.loads(line)[2]}
    assert {"3-Link X-Chain", "Sue de Coq", "AIC", "ALS-XZ", "Nishio Forcing Chain", "Grouped AIC", "ALS-Chain"} <= used


def test_a_kernels_python_body_calls_the_python_bodies_of_its_callees():
    from sudokit import bits
    from sudokit.logic import als_kernel, strong_links_kernel

    form = jit.python_form(strong_links_kernel.best_chains)
    assert form.__code__ is strong_links_kernel.best_chains.py_func.__code__
    callee = form.__globals__["chain_search"]
    assert callee is jit.python_form(strong_links_kernel.chain_search)
    assert callee.__globals__["_node"] is jit.python_form(strong_links_kernel._node)
    # the bit intrinsics become their plain forms; the kernel module itself is untouched
    assert jit.python_form(als_kernel.als_sets).__globals__["popcount"] is bits.popcount_plain
    assert als_kernel.popcount is bits.popcount
