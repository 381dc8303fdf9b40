"""Shared test helpers: the bundled data folder, a CLI runner, and the Hypothesis settings.

numba compiles each kernel once and caches it on disk (see :mod:`sudokit.jit`): a test run on a cold cache
compiles every kernel once, at its first use in the session, and later runs (and subprocesses) load them. CI runs
``sudokit warm-up`` first, which compiles the kernel groups in parallel processes; a session with the web tests
does the same for the solver and the logic before its workers start (``_kernels_compiled_once``).
"""

from __future__ import annotations

import os
import resource
import signal
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

DATA = Path(__file__).resolve().parents[1] / "data"

# No command a test runs compiles kernels in the background after it (sudokit.jit.BACKGROUND_ENV): nothing may
# outlive the tests or write into their caches later; tests/test_first_use.py turns it on where it checks it.
os.environ["SUDOKIT_BACKGROUND_COMPILE"] = "0"


def _kernels_compile_at_once() -> None:
    """In the test process a logic kernel the cache lacks is compiled at once, never run as its Python body
    (``sudokit.jit.COLD_PYTHON_SECONDS``), and the variant solver's kernel is never left for its plain form
    (``sudokit.jit.COLD_SOLVER_SECONDS``): the kernel tests test compiled code whatever the cache holds. The
    Python bodies are tested against the kernels in subprocesses (``test_logic_plain_forms.py``)."""
    from sudokit import jit

    jit.COLD_PYTHON_DEFAULT = 0.0
    jit.COLD_PYTHON_SECONDS.clear()
    jit.COLD_SOLVER_SECONDS.clear()  # the variant tests test the kernel, never its plain form in its place


_kernels_compile_at_once()

# No example may fail for being slow: the first example of a property often includes a kernel's compile (cold
# cache) or a big search, and a busy machine stretches any time. Speed goes into benchmarks/, not into tests.
settings.register_profile("sudokit", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("sudokit")


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def run_cli():
    """Run ``sudokit ARGS`` in-process; returns the click Result (exit_code, stdout, stderr)."""
    from sudokit.cli import main

    def run(*args: str, input: str | bytes | None = None):
        return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)

    return run


@pytest.fixture(autouse=True)
def _ctrl_c_handler_restored():
    """A command run in this process and interrupted ignores any further Ctrl-C, so that its summary is printed
    whole (``signal.SIG_IGN``); put the test process's handler back after each test. Left ignored, Ctrl-C no
    longer stopped the test run, and every later subprocess started with Ctrl-C ignored."""
    before = signal.getsignal(signal.SIGINT)
    yield
    if before is not None and signal.getsignal(signal.SIGINT) is not before:
        signal.signal(signal.SIGINT, before)


# ---- states for the logic kernels' tests (see logic_states.py) ---------------------------------------------


@pytest.fixture(scope="session")
def hard_states():
    from logic_states import hard_states

    return hard_states()


@pytest.fixture(scope="session")
def variant_states():
    from logic_states import variant_states

    return variant_states()


@pytest.fixture(scope="session")
def loop_states(hard_states, variant_states):
    from logic_states import loop_states

    return loop_states(hard_states, variant_states)


@pytest.fixture
def kernels():
    """The test runs the kernels of the searches that also have a plain-Python form (``sudokit.jit.either``
    would choose the plain form in a process without numba); ``test_logic_plain_forms.py`` holds the plain
    forms to the kernels."""
    from sudokit import jit

    with jit.forms("kernel"):
        yield


#: Test modules that start processes (the web server's workers) which load the solver and logic kernels: on a
#: cold cache each of those processes would compile them at once, so the session compiles them first, once.
_SPAWN_KERNELS = ("test_web_api", "test_web_worker", "test_browser_web")


@pytest.fixture(scope="session", autouse=True)
def _kernels_compiled_once(request):
    modules = {getattr(item.module, "__name__", "") for item in request.session.items if hasattr(item, "module")}
    if not any(name.rsplit(".", 1)[-1] in _SPAWN_KERNELS for name in modules):
        return
    from sudokit import jit
    from sudokit.cli.commands.warm_up import _run

    cold = [g.name for g in jit.GROUPS if g.name in ("solver", "logic") and jit.cold(g.modules)[0]]
    if cold:
        _run(cold, os.cpu_count() or 1)


# ---- where the suite's CPU goes (opt-in) ----------------------------------------------------------------------
#: ``SUDOKIT_TEST_CPU=FILE python -m pytest -q`` writes one line per test: its node id, the CPU seconds of this
#: process and of the child processes it waited for during the test (subprocesses, worker pools, a module's
#: cluster or browser when its fixture closes), and its wall seconds. ``python benchmarks/suite_cpu.py FILE``
#: sums them per file (what the README's "What the suite costs" names).
_CPU_FILE = os.environ.get("SUDOKIT_TEST_CPU")


def _cpu_seconds() -> tuple[float, float]:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


if _CPU_FILE:

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        (own, children), start = _cpu_seconds(), time.perf_counter()
        yield
        (own_after, children_after), end = _cpu_seconds(), time.perf_counter()
        with open(_CPU_FILE, "a") as out:
            out.write(f"{item.nodeid}\t{own_after - own:.3f}\t{children_after - children:.3f}\t{end - start:.3f}\n")
