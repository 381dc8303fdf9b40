"""First use: the "compiling once" notice (cold cache only), read-only installs, NUMBA_DISABLE_JIT, warm-up.

Each test runs ``sudokit`` in a subprocess with its own ``NUMBA_CACHE_DIR`` (or none at all), so that it compiles
from scratch. They solve 4x4 puzzles: the general kernel is the quickest to compile (~4 s of CPU).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PUZZLES4 = "...3..4114..3...\n1..4..1..3..4..3\n"
NOTICE = "compiling the solver once"


def _run(args: list[str], env: dict[str, str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sudokit", *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=600
    )


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env["PYTHONPATH"] = str(ROOT / "src")
    env.update(extra)
    return env


@pytest.fixture
def puzzles4(tmp_path: Path) -> Path:
    path = tmp_path / "four.txt"
    path.write_text(PUZZLES4)
    return path


def test_the_compiling_notice_appears_on_a_cold_cache_and_not_on_a_warm_one(tmp_path, puzzles4):
    env = _env(NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    cold = _run(["solve", str(puzzles4)], env)
    assert cold.returncode == 0, cold.stderr
    notices = [line for line in cold.stderr.splitlines() if NOTICE in line]
    assert len(notices) == 1 and notices[0].startswith("sudokit: compiling the solver once (~")
    assert NOTICE not in cold.stdout  # results only on stdout
    warm = _run(["solve", str(puzzles4)], env)
    assert warm.returncode == 0 and warm.stdout == cold.stdout
    assert "compiling" not in warm.stderr
    # and jit.cold reads the same index files numba does: the kernels this run used are cached now
    code = "from sudokit import jit; print(*jit.cold(jit.GROUPS[0].modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    n_cold, total = map(int, out.stdout.split())
    assert 0 < n_cold < total  # the 9x9 kernels were not needed for 4x4 puzzles


def test_a_single_puzzle_neither_compiles_nor_says_so(tmp_path):
    env = _env(NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    line = (ROOT / "data" / "norvig_top95.txt").read_text().split()[0]
    done = _run(["solve", "--count", "2", line], env)
    assert done.returncode == 0 and done.stdout.strip() == "1 solution"
    assert done.stderr == "" and not (tmp_path / "cache").exists()


def test_a_variant_puzzle_on_a_cold_cache_is_answered_by_the_plain_solver_without_compiling(tmp_path):
    # the corpus' "Killer" link: the plain-Python variant solver answers well within jit.COLD_SOLVER_SECONDS, so
    # the first command after an install does not wait for the variant kernels' ~24-second compile
    from sudokit.formats.fpuzzles import read_fpuzzles, to_link
    from variant_corpus import BY_NAME

    env = _env(NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    d = BY_NAME["Killer"]
    done = _run(["solve", "-f", "line", to_link(read_fpuzzles(d["fpuzzles"]))], env)
    assert done.returncode == 0 and done.stdout.strip() == d["solution"], done.stderr
    assert done.stderr == "" and not list((tmp_path / "cache").rglob("*.nbi"))


def test_the_variant_kernels_answer_once_the_plain_budget_is_spent(monkeypatch):
    # in-process, the kernels warm (the conftest leaves no plain budget; here it is set again, with the kernels
    # taken for cold): the plain form answers within its budget, a puzzle it cannot finish in what is left goes to
    # the kernels, and a spent budget sends every puzzle there
    from sudokit import jit
    from sudokit.constraints import solver
    from sudokit.formats.fpuzzles import read_fpuzzles
    from variant_corpus import BY_NAME

    monkeypatch.setattr(jit, "COLD_SOLVER_SECONDS", {"variants": 0.5})
    monkeypatch.setattr(jit, "_solver_spent", {})
    monkeypatch.setattr(jit, "_groups_later", set())
    monkeypatch.setattr(jit, "ready", lambda module: False)
    plain_runs: list[str] = []
    real = solver.solve_plain
    monkeypatch.setattr(solver, "solve_plain", lambda p, *a: plain_runs.append(str(real(p, *a).status)) or real(p, *a))
    killer = read_fpuzzles(BY_NAME["Killer"]["fpuzzles"])
    assert solver.count_variant(killer, 2) == 1 and plain_runs == ["solved"]
    assert jit._groups_later == {"variants"}  # answered while cold: compiled in the background at exit
    hard = read_fpuzzles(BY_NAME["Wecoc #1"]["fpuzzles"])  # the plain form needs far more than 0.5 s
    result = solver.solve_variant(hard)
    assert plain_runs[-1] == "timeout" and result.status == "solved"
    assert "".join(map(str, result.solution.values)) == BY_NAME["Wecoc #1"]["solution"]
    assert jit.plain_budget("variants") == 0.0  # spent: the kernels from now on
    assert solver.count_variant(killer, 2) == 1 and len(plain_runs) == 2


def test_warming_the_variant_group_runs_its_kernels_not_the_plain_solver(monkeypatch):
    # `warm-up` and the background compile both call jit.warm("variants"): with the plain solver answering in
    # the kernels' place on a cold cache, nothing would be compiled
    from sudokit import jit
    from sudokit.constraints import solver

    modes: list[str] = []
    monkeypatch.setattr(jit, "COLD_SOLVER_SECONDS", {"variants": 2.0})
    monkeypatch.setattr(jit, "ready", lambda module: False)
    monkeypatch.setattr(solver, "count_variant", lambda *a: modes.append(jit._mode[0]) or 1)
    jit.warm("variants")
    assert modes == ["kernel"]


def test_a_plain_variant_answer_on_a_cold_cache_compiles_the_kernels_in_the_background(monkeypatch, tmp_path):
    # the exit hook lists the whole group for jit.compile_listed (which warms it as `warm-up` does); the
    # detached process itself is not started here
    import pickle

    from sudokit import jit

    started: list[list[str]] = []
    monkeypatch.setenv(jit.BACKGROUND_ENV, "1")
    monkeypatch.setattr(jit, "_groups_later", {"variants"})
    monkeypatch.setattr(jit, "_later", {})
    monkeypatch.setattr(jit, "ready", lambda module: False)
    monkeypatch.setattr(jit, "background_lock", lambda: str(tmp_path / "lock"))
    monkeypatch.setattr(subprocess, "Popen", lambda argv, **kw: started.append(argv))
    said: list[str] = []
    monkeypatch.setattr(jit, "say", said.append)
    jit._compile_in_background()
    assert len(started) == 1 and said == [
        "compiling the variant solver in the background for the next commands "
        "(SUDOKIT_BACKGROUND_COMPILE=0 turns this off; `sudokit warm-up` compiles everything)"
    ]
    with open(started[0][-1], "rb") as f:
        assert pickle.load(f) == [("", "variants", None)]
    os.remove(started[0][-1])


@pytest.mark.parametrize("command", ["hint", "rate", "explain"])
def test_logic_on_one_everyday_puzzle_neither_compiles_nor_says_so(tmp_path, command):
    # norvig_top95 #1 is hard for search but needs only locked candidates and subsets: their plain forms run
    env = _env(NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    line = (ROOT / "data" / "norvig_top95.txt").read_text().split()[0]
    done = _run([command, line], env)
    assert done.returncode == 0 and done.stdout, done.stderr
    assert done.stderr == "" and not (tmp_path / "cache").exists()


@pytest.mark.parametrize("command", ["hint", "rate", "explain"])
def test_logic_on_a_puzzle_that_needs_chains_runs_the_kernels_python_bodies(tmp_path, command):
    # a top1465 puzzle whose path needs strong-link X-chains and forcing chains (benchmarks/first_use.py's
    # "chains"): on a cold cache the kernels' Python bodies take less time than compiling them, so none is
    # compiled (numba makes the cache's folders when it loads the kernel modules, but writes nothing in them)
    env = _env(NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    line = "38....1...6..9......2....9.41....9....8.....29.......8.....3.57....86......1.4.2."
    done = _run([command, line], env)
    assert done.returncode == 0 and done.stdout, done.stderr
    assert done.stderr == "" and not list((tmp_path / "cache").rglob("*.nbi"))


def test_a_cold_command_that_ran_python_bodies_compiles_them_in_the_background_for_the_next(tmp_path):
    # a process that ran a kernel's Python body on a cold cache (here the XY-Wing search, with the threshold
    # lowered from jit.BACKGROUND_SECONDS to 0) compiles that kernel after it exits, in a detached process, so
    # that the next process loads it
    from sudokit import jit

    env = _env(NUMBA_CACHE_DIR=str(tmp_path / "cache"), SUDOKIT_BACKGROUND_COMPILE="1")
    lock = Path(jit.background_lock())
    if lock.exists():
        pytest.skip(f"another background compile is running ({lock})")
    code = (
        "from sudokit import jit\n"
        "from sudokit.logic import wings\n"
        "from sudokit.logic.explain import start_state\n"
        "jit.BACKGROUND_SECONDS = 0.0\n"
        "wings.xy_wing(start_state('...23....1.....7.....8..........561..82.........4.....5....14...3..6............2'))\n"
        "print(list(jit._python_spent))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert "wings_kernel" in done.stdout
    assert done.stderr.startswith("sudokit: compiling 1 logic kernel in the background")  # one line, said
    assert done.stderr.count("\n") == 1
    for _ in range(1200):  # the compiling process deletes the lock when it is done (up to 10 minutes, loaded)
        if not lock.exists():
            break
        time.sleep(0.5)
    check = "from sudokit import jit; from sudokit.logic import wings_kernel; print(jit.is_cached(wings_kernel.xy_hit))"
    again = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, env=env, check=True)
    assert again.stdout.strip() == "True"


def _readonly_runner():
    """A way to run a command with some directories read-only even for root: a private mount namespace with
    read-only bind mounts (``unshare -rm``), or, for an ordinary user, plain file permissions."""
    if shutil.which("unshare") and subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode == 0:
        return "mount"
    if os.getuid() != 0:
        return "chmod"
    return None


def _run_readonly(args: list[str], env: dict[str, str], readonly: list[Path], cwd: Path) -> subprocess.CompletedProcess:
    """``python ARGS`` with the ``readonly`` directories read-only."""
    how = _readonly_runner()
    if how is None:
        pytest.skip("running as root without mount namespaces: nothing here is read-only")
    if how == "chmod":
        for path in readonly:
            subprocess.run(["chmod", "-R", "a-w", str(path)], check=True)
        try:
            argv = [sys.executable, *args]
            return subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=600)
        finally:
            for path in readonly:
                subprocess.run(["chmod", "-R", "u+w", str(path)], check=True)
    mounts = " && ".join(f"mount --bind -o ro '{p}' '{p}'" for p in readonly)
    script = f'{mounts} && exec "$@"'
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", script, "sh", sys.executable, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=600,
    )


@pytest.fixture
def readonly_install(tmp_path: Path):
    """A copy of the package (no caches) in a world-readable directory, and a home with nothing writable."""
    base = Path(tempfile.mkdtemp(prefix="sudokit-ro-"))
    os.chmod(base, 0o755)
    shutil.copytree(ROOT / "src" / "sudokit", base / "pkg" / "sudokit", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "src" / "_sudokit_command.py", base / "pkg")  # the console script's launcher
    home = base / "home"
    (home / ".cache").mkdir(parents=True)
    yield base, home
    subprocess.run(["chmod", "-R", "u+w", str(base)], check=False)
    shutil.rmtree(base, ignore_errors=True)


def test_a_read_only_install_caches_in_a_temporary_directory(readonly_install, puzzles4):
    base, home = readonly_install
    tmp = base / "tmp"
    tmp.mkdir()
    env = _env(PYTHONPATH=str(base / "pkg"), HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), TMPDIR=str(tmp))
    done = _run_readonly(["-m", "sudokit", "solve", str(puzzles4)], env, [base / "pkg", home], cwd=base / "pkg")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "no locator" not in done.stderr
    assert "note: no writable numba cache here; caching compiled kernels in" in done.stderr
    assert done.stdout.count("\n") == 2 and "Solved 2 of 2" in done.stderr
    assert list(tmp.glob("sudokit-numba-*/*/*.nbi"))  # and the next run loads from there
    again = _run_readonly(["-m", "sudokit", "solve", str(puzzles4)], env, [base / "pkg", home], cwd=base / "pkg")
    assert again.returncode == 0 and "compiling" not in again.stderr


def test_with_nothing_writable_the_kernels_compile_for_this_run_only(readonly_install):
    if _readonly_runner() != "mount":
        pytest.skip("needs a mount namespace to make every temporary directory read-only")
    base, home = readonly_install
    env = _env(PYTHONPATH=str(base / "pkg"), HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), TMPDIR=str(home))
    readonly = [base / "pkg", home, Path(tempfile.gettempdir()), Path("/var/tmp"), Path("/tmp")]
    # every kernel module is decorated (that is where numba failed) and the smallest kernel compiles and runs
    code = (
        "import importlib; from sudokit import jit; from sudokit.engine import clock\n"
        "for g in jit.GROUPS:\n    for m in g.modules: importlib.import_module(m)\n"
        "print(clock._now() >= 0)"
    )
    done = _run_readonly(["-c", code], env, [p for p in dict.fromkeys(readonly) if p.exists()], base)
    assert done.returncode == 0, done.stderr
    assert "note: nowhere to cache compiled kernels: compiling them for this run only" in done.stderr
    assert done.stdout.strip() == "True"


def test_numba_disable_jit_runs_the_kernels_as_python(puzzles4):
    line = (ROOT / "data" / "norvig_top95.txt").read_text().split()[0]
    env = _env(NUMBA_DISABLE_JIT="1")
    runs = (["solve", str(puzzles4)], ["solve", "--count", "5", "." * 81], ["solve", "-V4x4", "--count", "3", "." * 16])
    for args in runs:
        done = _run(args, env)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    code = (
        "import sys, numpy as np; from sudokit.engine import api; from sudokit.formats import parse_grid;"
        "g = parse_grid(sys.argv[1]); v = np.array(g.values, np.uint8);"
        "print(api.count_array(v, g.geometry), api.solve_compiled(g).status)"
    )
    out = subprocess.run([sys.executable, "-c", code, line], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.split() == ["1", "solved"]


def test_warm_up_check_names_the_cold_groups_without_compiling(tmp_path):
    env = _env(NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    done = _run(["warm-up", "--check"], env)
    assert done.returncode == 1, done.stderr
    rows = dict(line.split(None, 2)[:2] for line in done.stdout.splitlines())
    assert rows == {"solver": "cold", "threads": "cold", "logic": "cold", "canon": "cold", "variants": "cold"}
    assert "compiling" not in done.stderr and not list((tmp_path / "cache").rglob("*.nbc"))


#: Run by the Ctrl-C test: ``sudokit ARGS`` in this process, where the first compile of a logic kernel gets a
#: Ctrl-C the way LLVM's C code can deliver one: handled inside a ``ctypes`` callback (llvmlite's object cache
#: calls back into Python while machine code is emitted), where a ``KeyboardInterrupt`` is dropped.
CTRL_C_IN_A_CALLBACK = """
import ctypes, signal, sys
from numba.core import event

def press_ctrl_c():
    signal.raise_signal(signal.SIGINT)  # Python's handler runs here, inside the callback

callback = ctypes.CFUNCTYPE(None)(press_ctrl_c)
pressed = []

class Listener(event.Listener):
    def on_start(self, ev):
        if not pressed and ev.data["dispatcher"].py_func.__module__.startswith("sudokit.logic."):
            pressed.append(True)
            callback()

    def on_end(self, ev):
        pass

event.register("numba:compile", Listener())
sys.argv = ["sudokit", *sys.argv[1:]]
from _sudokit_command import main
main()
"""


def test_ctrl_c_while_a_kernel_compiles_stops_the_command(tmp_path):
    # CI once saw `sudokit rate FILE --jobs 1` take a Ctrl-C while numba compiled a logic kernel, drop it and rate
    # the whole file (exit 0): sudokit.jit holds Ctrl-C while numba compiles and acts on it right after
    path = tmp_path / "easy.txt"
    path.write_text("".join((ROOT / "data" / "norvig_easy50.txt").read_text().splitlines(keepends=True)[:3]))
    env = _env(NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    argv = [sys.executable, "-c", CTRL_C_IN_A_CALLBACK, "rate", str(path), "--fast", "--jobs", "1"]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)
    assert "compiling the logic techniques once" in done.stderr  # the Ctrl-C came during a compile
    assert done.returncode == 130, done.stderr
    assert "sudokit: interrupted" in done.stderr and "Traceback" not in done.stderr


def test_each_chain_module_spends_its_own_budget_before_it_compiles(monkeypatch):
    from sudokit import jit
    from sudokit.logic import implication_kernel, se_chains_kernel, wings_kernel

    wings = wings_kernel.w_hit  # a logic kernel of a module that is not a chain module
    kernels = (se_chains_kernel.links, implication_kernel.best, wings)
    budgets = {"sudokit.logic.se_chains_kernel": 0.5, "sudokit.logic.implication_kernel": 0.5}
    monkeypatch.setattr(jit, "COLD_PYTHON_SECONDS", budgets)
    monkeypatch.setattr(jit, "COLD_PYTHON_DEFAULT", 1.0)
    monkeypatch.setattr(jit, "_python_spent", {"sudokit.logic.implication_kernel": 0.2})
    monkeypatch.setattr(jit, "_cached_kernel", dict.fromkeys(kernels, False))  # as on a cold cache
    with jit.forms("auto"):
        assert all(jit.python_now(k) for k in kernels)
        jit._python_spent["sudokit.logic.implication_kernel"] = 0.6  # its budget spent: it compiles
        assert not jit.python_now(implication_kernel.best)
        assert jit.python_now(se_chains_kernel.links)  # 0 s of its own budget spent
        assert jit.python_now(wings)
        jit._python_spent["sudokit.logic.se_chains_kernel"] = 0.5
        assert not jit.python_now(se_chains_kernel.links)
