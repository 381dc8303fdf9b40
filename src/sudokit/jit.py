"""Compiling the numba kernels: one notice on a cold cache, a cache wherever one can be written, ``warm-up``.

numba compiles a kernel the first time it runs and keeps the machine code in a disk cache (``cache=True``), so
only the first command after an install (or after a kernel's source changed) compiles. This module is the one
place that deals with that first time, for every kernel (engine, logic, canonical form):

* **The notice.** When numba is about to compile a sudokit kernel -- and only then, never when it loads one from
  the cache -- one line goes to stderr, once per process and group::

      sudokit: compiling the solver once (~5 s; later runs load it from the cache)...

  It comes from numba's own ``numba:compile`` event, which fires only after the disk cache missed. The figure
  is the measured cold compile time (``benchmarks/first_use.py``) of the kernel being compiled
  (:data:`ENTRY_SECONDS`) or else of its group (:data:`GROUPS`) scaled by the share of the group's kernels the
  disk cache does not hold (:func:`cold`); for the logic, whose kernels compile one by one as techniques are
  first tried, it is an upper bound and says so.
* **A cache that can be written.** numba looks for a cache directory in a fixed order (``NUMBA_CACHE_DIR``, the
  package's ``__pycache__``, the user-wide cache, ...) and fails with ``cannot cache function ...: no locator
  available`` when none is writable (a read-only install run by a user without a writable home). Then the
  kernels are cached in ``$TMPDIR/sudokit-numba-UID`` instead, and when not even that can be written, compiled
  for this run only; either way with a one-line note.
* **Cold or warm.** :func:`cold` asks numba's cache of each kernel (the same index files numba reads, found by
  numba's own locators) whether it holds machine code for this machine and this source.
* **Warm-up.** :func:`warm` compiles (or loads) one group; ``sudokit warm-up`` compiles every group, each in its
  own process, for images and CI.
* **Plain form or kernel.** Searches that also have a plain-Python form (the basic logic techniques) ask
  :func:`either` which to run: one puzzle's work in plain Python costs less than loading numba, a loop's does not
  (:func:`plain_now`); :func:`forms` forces one (tests, warm-ups).
* **A cold kernel's own Python body.** Every other logic kernel, called from Python while it has no machine code
  in this process and the disk cache lacks it, runs its own Python body (:func:`python_form`: the same code,
  interpreted) until its module has spent its budget (:data:`COLD_PYTHON_SECONDS`), and is compiled after
  that: a command on one puzzle compiles only the kernels that are slower in Python than compiling them. A
  process that ran Python bodies for :data:`BACKGROUND_SECONDS` or more compiles those kernels when it exits, in
  a detached process, for the next command to load (``SUDOKIT_BACKGROUND_COMPILE=0`` turns that off).
* **A plain solver on a cold cache.** The variant solver keeps a plain-Python form (the reference its kernel is
  tested against); while its kernels are neither loaded nor cached, a puzzle goes to that form first, within
  :data:`COLD_SOLVER_SECONDS` per process (:func:`plain_budget`), and the kernels are compiled only when it runs
  out (a hard puzzle, a long batch); a process whose plain solver answered compiles them in the background at
  exit.
* **Ctrl-C while compiling.** Every compile (and load from the cache) holds Ctrl-C until it is done and then
  acts on it (:func:`held_ctrl_c`): LLVM calls back into Python while it emits machine code, and a
  ``KeyboardInterrupt`` raised inside such a ``ctypes`` callback was dropped.

All of this is set up the moment numba is imported for sudokit (:func:`install`, called by ``import sudokit``):
commands that never load a kernel never import numba.
"""

from __future__ import annotations

import atexit
import importlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

#: Prefix of every line this module writes to stderr.
PREFIX = "sudokit:"


@dataclass(frozen=True)
class Group:
    """Kernels that are compiled together: what the notice calls them, their modules, their cold compile time.

    ``seconds`` is CPU time measured with ``benchmarks/first_use.py`` on the development machine (one process,
    cold cache); a slower or busier machine takes longer."""

    name: str
    what: str
    listed: tuple[str, ...]
    seconds: float
    lazy: bool = False  #: compiled piece by piece as the work needs them (the logic: technique by technique)
    package: str = ""  #: also every module of this package whose source has an ``@njit`` kernel

    @property
    def modules(self) -> tuple[str, ...]:
        """The group's kernel modules: the listed ones and those found in :attr:`package`."""
        return tuple(dict.fromkeys(self.listed + (_kernel_modules(self.package) if self.package else ())))


def _kernel_modules(package: str) -> tuple[str, ...]:
    """Modules of ``package`` (not imported: their source is read) that define numba kernels."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return ()
    found = []
    for folder in spec.submodule_search_locations:
        for path in sorted(Path(folder).rglob("*.py")):
            try:
                text = path.read_text(encoding="utf-8")
            except OSError:
                continue
            if "@njit" in text:
                parts = path.relative_to(folder).with_suffix("").parts
                found.append(".".join((package, *(p for p in parts if p != "__init__"))))
    return tuple(found)


#: Every module with numba kernels, by group (``warm-up`` compiles a group per process).
GROUPS: tuple[Group, ...] = (
    Group(
        "solver",
        "the solver",
        ("sudokit.engine.kernel", "sudokit.engine.kernel9", "sudokit.engine.clock", "sudokit.generate.fast9"),
        10.0,
    ),
    Group("threads", "the multi-threaded solver", ("sudokit.engine.parallel",), 7.0),
    Group("logic", "the logic techniques", (), 20.0, lazy=True, package="sudokit.logic"),
    Group("canon", "the canonical form", ("sudokit.generate.minlex",), 10.0),
    Group("variants", "the variant solver", ("sudokit.constraints.solver_kernel",), 24.0),
)

#: Cold compile CPU seconds of the kernels that Python calls directly (their callees included), where one of them
#: is all a command compiles (``benchmarks/first_use.py``; the notice falls back on the group's figure).
ENTRY_SECONDS = {
    "sudokit.engine.kernel9.search9_rows": 5.0,
    "sudokit.engine.kernel9.search9": 3.0,
    "sudokit.engine.kernel.search": 4.0,
    "sudokit.engine.kernel.search_rows": 4.5,
    "sudokit.engine.kernel.check_rows": 0.5,
    "sudokit.engine.clock._now": 0.3,
    "sudokit.generate.fast9.generate_rows": 13.0,
}

_lock = threading.Lock()
_said: set[str] = set()
_ready = False


def _group_of(module: str) -> Group | None:
    for group in GROUPS:
        if module in group.listed or (group.package and module.startswith(group.package + ".")):
            return group
    return None


def say(message: str) -> None:
    """One line on stderr, prefixed ``sudokit:`` (never on stdout: that carries the results)."""
    try:
        sys.stderr.write(f"{PREFIX} {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr closed: the notice is only a courtesy
        pass


# -- cold or warm -----------------------------------------------------------------------------------------------


_kernel_lists: dict[str, list] = {}


def _kernels(module) -> list:
    """The module's own compiled functions that numba caches on their own (those inlined into their callers at
    numba's level, ``inline="always"``, are never compiled alone); listed once per module (a module's kernels
    are all defined when it is imported, and :func:`either` asks on every call until they are loaded)."""
    known = _kernel_lists.get(module.__name__)
    if known is not None:
        return known
    from numba.core.registry import CPUDispatcher

    out = []
    for value in vars(module).values():
        if (
            isinstance(value, CPUDispatcher)
            and value.py_func.__module__ == module.__name__
            and value.targetoptions.get("inline", "never") != "always"
        ):
            out.append(value)
    if not getattr(getattr(module, "__spec__", None), "_initializing", False):  # not while it is imported
        _kernel_lists[module.__name__] = out
    return out


def is_cached(dispatcher) -> bool:
    """True when numba's disk cache holds machine code of ``dispatcher`` for this machine and its current source.

    Reads the cache the way numba does: the index file its locator chose (``<function>-<line>.pyXY.nbi``) maps
    (signature, target, bytecode hash) to a data file; an index written by another numba version or for another
    source is stale (numba's ``_load_index`` returns nothing for it)."""
    import hashlib

    from numba.core.caching import NullCache

    cache = getattr(dispatcher, "_cache", None)
    if cache is None or isinstance(cache, NullCache):
        return False
    try:
        overloads = cache._cache_file._load_index()
    except Exception:  # unreadable or foreign index: numba would compile
        return False
    magic = dispatcher.targetctx.codegen().magic_tuple()
    code = hashlib.sha256(dispatcher.py_func.__code__.co_code).hexdigest()
    return any(key[1] == magic and key[2][0] == code for key in overloads)


def cold(modules: tuple[str, ...] | list[str]) -> tuple[int, int]:
    """``(cold, total)``: how many of the modules' cached kernels numba would compile rather than load."""
    n_cold = total = 0
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ImportError:  # a module that moved: the table lags behind, the estimate is only rough
            continue
        for dispatcher in _kernels(module):
            total += 1
            n_cold += not is_cached(dispatcher)
    return n_cold, total


def estimate(group: Group) -> float:
    """Seconds the group's compile should take from here: its measured time times the share still cold."""
    n_cold, total = cold(group.modules)
    return group.seconds * n_cold / total if total else group.seconds


# -- the notice -------------------------------------------------------------------------------------------------


def _on_compile(dispatcher) -> None:
    module = getattr(dispatcher.py_func, "__module__", "") or ""
    group = _group_of(module)
    if group is None:
        return
    with _lock:
        if group.name in _said:
            return
        _said.add(group.name)
    entry = f"{module}.{getattr(dispatcher.py_func, '__name__', '')}"
    try:
        seconds = ENTRY_SECONDS.get(entry) or estimate(group)
    except Exception:  # the estimate is a courtesy too
        seconds = group.seconds
    about = max(1, round(seconds))
    if group.lazy:
        say(f"compiling {group.what} once, each as it is first needed (up to ~{about} s in all; cached)...")
    else:
        say(f"compiling {group.what} once (~{about} s; later runs load it from the cache)...")


def quiet() -> None:
    """No compile notice from here on in this process (``warm-up`` reports for itself)."""
    with _lock:
        _said.update(g.name for g in GROUPS)


def _listen() -> None:
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, ev) -> None:
            data = ev.data if isinstance(ev.data, dict) else {}
            dispatcher = data.get("dispatcher")
            if dispatcher is not None:
                _on_compile(dispatcher)

        def on_end(self, ev) -> None:
            pass

    event.register("numba:compile", Listener())


# -- Ctrl-C while numba compiles -------------------------------------------------------------------------------

_holding = [False]


@contextmanager
def held_ctrl_c() -> Iterator[None]:
    """Ctrl-C waits until the block is done, then acts as it would have (``KeyboardInterrupt`` under Python's
    handler, whatever a command installed otherwise). Around numba's compiling: LLVM calls back into Python
    (llvmlite's ``ctypes`` callbacks, e.g. its object cache's) while it emits machine code, a Ctrl-C that arrived
    in the C code is handled inside such a callback, and ``ctypes`` drops the ``KeyboardInterrupt`` raised there
    (it only prints "Exception ignored"): the command went on as if no key had been pressed. Only the main
    thread takes signals; a handler that ignores them (a worker's) is left alone."""
    import signal

    if _holding[0] or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN or previous is None:
        yield
        return
    caught: list[int] = []
    _holding[0] = True
    try:
        signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        _holding[0] = False
        if caught:
            if callable(previous):
                previous(signal.SIGINT, None)
            else:  # SIG_DFL: the process ends as it would have
                signal.raise_signal(signal.SIGINT)


def _hold_ctrl_c_while_compiling() -> None:
    """Make every numba compile (or load from the cache) hold Ctrl-C until it is done (:func:`held_ctrl_c`)."""
    from numba.core.dispatcher import Dispatcher

    real = Dispatcher.compile
    if getattr(real, "__name__", "") == "compile_holding_ctrl_c":
        return

    def compile_holding_ctrl_c(self, sig):
        with held_ctrl_c():
            return real(self, sig)

    Dispatcher.compile = compile_holding_ctrl_c  # type: ignore[method-assign]


# -- a cache that can be written --------------------------------------------------------------------------------


def temporary_cache_dir() -> str:
    """``$TMPDIR/sudokit-numba-UID``: where kernels are cached when numba finds no writable place of its own."""
    import tempfile

    uid = os.getuid() if hasattr(os, "getuid") else os.getpid()
    return os.path.join(tempfile.gettempdir(), f"sudokit-numba-{uid}")


def _cache_fallbacks() -> None:
    """After numba's own cache locators: a temporary directory, and at last no cache at all (each with a note)."""
    from numba.core import caching, dispatcher

    impl = caching.FunctionCache._impl_class
    # a class found at run time (Any: the checker can subclass only what it knows statically)
    base: Any = next((c for c in impl._locator_classes if "UserProvided" in c.__name__), None)
    if base is None:  # pragma: no cover - a numba without a user-provided locator
        return

    class TemporaryCacheLocator(base):
        """numba's user-provided locator pointed at :func:`temporary_cache_dir` (last in numba's list)."""

        def __init__(self, py_func, py_file):
            super().__init__(py_func, py_file)
            self._cache_path = os.path.join(temporary_cache_dir(), self.get_suitable_cache_subpath(py_file))

        @classmethod
        def from_function(cls, py_func, py_file):
            if not os.path.exists(py_file):
                return None
            try:  # gettempdir() raises when no temporary directory at all can be written
                self = cls(py_func, py_file)
                os.makedirs(temporary_cache_dir(), mode=0o700, exist_ok=True)
                self.ensure_cache_path()
            except (OSError, RuntimeError):
                return None
            _note_once("temp", f"no writable numba cache here; caching compiled kernels in {temporary_cache_dir()}")
            return self

    if not any(getattr(c, "__name__", "") == "TemporaryCacheLocator" for c in impl._locator_classes):
        impl._locator_classes = [*impl._locator_classes, TemporaryCacheLocator]

    real = dispatcher.FunctionCache  # type: ignore[attr-defined]  # numba's dispatcher.pyi omits it

    def function_cache(py_func):
        try:
            return real(py_func)
        except RuntimeError as exc:  # "cannot cache function ...: no locator available"
            if "no locator" not in str(exc):
                raise
            _note_once("none", "nowhere to cache compiled kernels: compiling them for this run only")
            return caching.NullCache()

    if getattr(dispatcher.FunctionCache, "__name__", "") != "function_cache":  # type: ignore[attr-defined]
        dispatcher.FunctionCache = function_cache  # type: ignore[attr-defined]


_notes: set[str] = set()


def _note_once(key: str, message: str) -> None:
    with _lock:
        if key in _notes:
            return
        _notes.add(key)
    say(f"note: {message}")


# -- set-up when numba is imported ------------------------------------------------------------------------------


def prepare() -> None:
    """Set numba up for sudokit's kernels (once per process; imports numba): cache fallbacks and the notice."""
    global _ready
    with _lock:
        if _ready:
            return
        _ready = True
    _cache_fallbacks()
    _listen()
    _run_python_when_cold()
    _hold_ctrl_c_while_compiling()


class _AfterNumba:
    """An import finder that runs :func:`prepare` right after ``numba`` is imported, before any kernel is
    decorated (it only wraps the loader the standard path finder returns; the module itself is untouched)."""

    def find_spec(self, name, path=None, target=None):
        if name != "numba":
            return None
        spec = None
        for finder in sys.meta_path:  # whichever finder would have found numba (site-packages, a zip, ...)
            if finder is not self and hasattr(finder, "find_spec"):
                spec = finder.find_spec(name, path, target)
                if spec is not None:
                    break
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader = spec.loader
        exec_module = loader.exec_module

        def exec_then_prepare(module):
            exec_module(module)
            _remove_hook()
            prepare()

        loader.exec_module = exec_then_prepare
        return spec


_hook = _AfterNumba()


def _remove_hook() -> None:
    if _hook in sys.meta_path:
        sys.meta_path.remove(_hook)


def install() -> None:
    """Arrange for :func:`prepare` to run when numba is imported (now if it already is). Cheap: no numba import."""
    if "numba" in sys.modules:
        prepare()
    elif _hook not in sys.meta_path:
        sys.meta_path.insert(0, _hook)


# -- a plain-Python form or the kernel -------------------------------------------------------------------------

#: CPU seconds of plain-Python work per process after which code with a plain form and a kernel runs the kernel when
#: the cache holds it (about what importing numba and loading the kernels cost: ~0.8 s of CPU; a caller working
#: in a loop is then faster with them).
PLAIN_SECONDS = 1.0
#: CPU seconds of plain-Python work after which a kernel is compiled rather than its plain form run on (about what
#: compiling the kernels of the techniques with both forms costs on a cold cache).
COLD_PLAIN_SECONDS = 5.0
#: ``"auto"`` (see :func:`plain_now`), or ``"plain"`` / ``"kernel"`` for every call (tests, ``warm-up``)
_mode = ["auto"]
_plain_spent = [0.0]
_loaded: set[str] = set()
_cached: dict[str, bool] = {}


def plain_now(kernel_module: str) -> bool:
    """Whether code with a plain-Python form beside its kernel in ``kernel_module`` (a logic technique's
    search) should run the plain form now. In the ``"auto"`` mode: the kernel once this process has loaded
    it; otherwise the plain form until the plain forms have spent :data:`PLAIN_SECONDS` in this process
    (loading numba and a kernel costs far more than the plain forms need for one puzzle), and then the kernel
    when the cache holds it, else the plain form until they have spent :data:`COLD_PLAIN_SECONDS` (a cold
    kernel costs seconds to compile). Both forms give the same answers (tested against each other)."""
    mode = _mode[0]
    if mode != "auto":
        return mode == "plain"
    if _loaded_now(kernel_module):
        return False
    spent = _plain_spent[0]
    if spent < PLAIN_SECONDS:
        return True
    if spent >= COLD_PLAIN_SECONDS:
        return False
    return not _module_cached(kernel_module)


def _module_cached(kernel_module: str) -> bool:
    """Whether the disk cache holds every kernel of ``kernel_module`` (asked once per process)."""
    cached = _cached.get(kernel_module)
    if cached is None:
        try:
            cached = _cached[kernel_module] = all(
                is_cached(d) for d in _kernels(importlib.import_module(kernel_module))
            )
        except Exception:  # the choice is only about speed: when unsure, the kernel
            cached = _cached[kernel_module] = True
    return cached


def ready(kernel_module: str) -> bool:
    """Whether the kernels of ``kernel_module`` cost nothing to compile now: loaded in this process, or held
    by the disk cache."""
    return _loaded_now(kernel_module) or _module_cached(kernel_module)


def _loaded_now(kernel_module: str) -> bool:
    """Whether this process has loaded the kernels of ``kernel_module`` (remembered once seen)."""
    if kernel_module in _loaded:
        return True
    module = sys.modules.get(kernel_module)
    if module is not None and _kernels_loaded(module):
        _loaded.add(kernel_module)
        return True
    return False


def _kernels_loaded(module) -> bool:
    """Whether every kernel of ``module`` has machine code in this process (compiled or loaded from the cache)."""
    try:
        return all(d.overloads for d in _kernels(module))
    except Exception:  # NUMBA_DISABLE_JIT and the like: nothing to load
        return True


def charge(seconds: float) -> None:
    """Count ``seconds`` of plain-form work against :data:`PLAIN_SECONDS`."""
    _plain_spent[0] += seconds


def either(kernel_module: str, plain: Callable[..., T], kernel: Callable[..., T], *args: Any) -> T:
    """``plain(*args)`` when :func:`plain_now` says so (its time charged), else ``kernel(*args)``: the one
    place where code with both forms chooses (the two must give the same answer)."""
    if not plain_now(kernel_module):
        return kernel(*args)
    start = time.process_time()  # CPU time, as the compiling it weighs against (a busy machine stretches wall)
    try:
        return plain(*args)
    finally:
        _plain_spent[0] += time.process_time() - start


@contextmanager
def forms(mode: str) -> Iterator[None]:
    """Within the block, code with both forms runs its ``"plain"`` form, its ``"kernel"``, or chooses
    (``"auto"``, the default: :func:`plain_now`); a logic kernel without machine code in this process runs its
    Python body in ``"plain"``, is compiled (or loaded) in ``"kernel"``, and in ``"auto"`` as
    :func:`python_now` says."""
    if mode not in ("auto", "plain", "kernel"):
        raise ValueError(f"forms: {mode!r} is not 'auto', 'plain' or 'kernel'")
    before = _mode[0]
    _mode[0] = mode
    try:
        yield
    finally:
        _mode[0] = before


# -- a kernel's Python body on a cold cache --------------------------------------------------------------------

#: CPU seconds a logic kernel module's Python bodies may spend in one process while the disk cache lacks its kernels,
#: before they are compiled instead; modules not listed get :data:`COLD_PYTHON_DEFAULT`. A cold command on one puzzle
#: then compiles only the kernels whose Python bodies cost more than compiling them, and loses at most the budget on
#: each. Measured on Arto Inkala's puzzle, a whole ``explain`` (``benchmarks/first_use.py --kernels``): most modules'
#: Python bodies take under 0.7 s where compiling the module takes 0.4-4 s; SE's static chains 2.6 s against 1.4 s, the
#: implication kernel (Nishio, multiple and dynamic chains) 18 s against 2.9 s: one step's worth of Python (what
#: ``hint`` needs), then their kernels. Aligned triple exclusion had 0.3 s until its search became incremental (27
#: November); with the default since, a cold ``rate``/``explain`` of Inkala's puzzle takes 0.4-0.8 s less CPU (it no
#: longer compiles). The nested forcing chain's first call alone takes longer than compiling it (21 s in 5 calls against
#: 1.1 s): it compiles at once. The implication kernel's budget is half the others' (0.25 s): a cold ``rate`` of
#: Inkala's puzzle spent 0.67 s of its Python bodies with 0.5 s (the first call past the budget runs whole) and 0.34 s
#: with 0.25 s, and compiles it either way; the "chains" puzzle of ``benchmarks/first_use.py`` spends 0.02 s there and
#: compiles nothing either way.
COLD_PYTHON_SECONDS: dict[str, float] = {
    "sudokit.logic.se_chains_kernel": 0.5,
    "sudokit.logic.implication_kernel": 0.25,
    "sudokit.logic.nested_kernel": 0.0,
}
COLD_PYTHON_DEFAULT = 1.0
_python_spent: dict[str, float] = {}
_python_forms: dict[Any, Callable[..., Any]] = {}
_namespaces: dict[str, dict[str, Any]] = {}
_cached_kernel: dict[Any, bool] = {}


def python_form(dispatcher: Any) -> Callable[..., Any]:
    """The Python body of a numba kernel (``dispatcher.py_func``) calling the Python bodies of the kernels it
    calls, and the plain forms of the bit intrinsics (:data:`sudokit.bits.PLAIN_FORMS`) in their place: the
    same code, run by the interpreter, compiling nothing. Each module's copy of its globals is shared by its
    kernels' Python bodies."""
    from numba.core.dispatcher import Dispatcher

    from sudokit.bits import PLAIN_FORMS

    found = _python_forms.get(dispatcher)
    if found is not None:
        return found
    func = dispatcher.py_func
    module = func.__module__
    namespace = _namespaces.get(module)
    fresh = namespace is None
    if namespace is None:
        namespace = _namespaces[module] = dict(func.__globals__)
    form = type(func)(func.__code__, namespace, func.__name__, func.__defaults__, func.__closure__)
    _python_forms[dispatcher] = form
    if fresh:
        plain = {id(k): v for k, v in PLAIN_FORMS.items()}
        for name, value in list(namespace.items()):
            if isinstance(value, Dispatcher):
                namespace[name] = python_form(value)
            elif id(value) in plain:
                namespace[name] = plain[id(value)]
    return form


def python_now(dispatcher: Any) -> bool:
    """Whether a logic kernel that has no machine code in this process for the arguments it was just called
    with should run its Python body (:func:`python_form`) rather than be compiled or loaded: in the ``"plain"``
    mode always, in ``"kernel"`` never, in ``"auto"`` when the disk cache lacks it and its module's Python
    bodies have spent less than their :data:`COLD_PYTHON_SECONDS` in this process. Each module keeps its own
    budget: when a chain module compiled, the others compiling at once as well cost a cold ``rate``/``explain``
    of Arto Inkala's puzzle 0.4-0.9 s more CPU than letting them spend their own budgets first (27 November)."""
    module = getattr(dispatcher.py_func, "__module__", "") or ""
    group = _group_of(module)
    if group is None or group.name != "logic":
        return False
    mode = _mode[0]
    if mode != "auto":
        return mode == "plain"
    if _python_spent.get(module, 0.0) >= COLD_PYTHON_SECONDS.get(module, COLD_PYTHON_DEFAULT):
        return False
    cached = _cached_kernel.get(dispatcher)
    if cached is None:
        try:
            cached = _cached_kernel[dispatcher] = is_cached(dispatcher)
        except Exception:  # the choice is only about speed: when unsure, the kernel
            cached = _cached_kernel[dispatcher] = True
    return not cached


# -- a plain-Python solver beside a cold kernel group ---------------------------------------------------------------

#: CPU seconds the plain-Python variant solver may spend in one process while the variant kernels are neither loaded
#: nor in the disk cache, before they are compiled instead (about 24 s of CPU): most single variant puzzles are
#: answered within it (the plain solver finished 50 of the 96 corpus puzzles within 0.3 s and 63 within 1 s, on a
#: loaded machine, 27 November), and a harder one loses at most this much before the compile it needed anyway.
COLD_SOLVER_SECONDS = {"variants": 2.0}
_solver_spent: dict[str, float] = {}
#: groups whose plain solver answered in this process while their kernels were cold: compiled in the background
#: when the process exits (:func:`_compile_in_background`)
_groups_later: set[str] = set()


def plain_budget(group_name: str) -> float:
    """Seconds of CPU a group's plain-Python solver may run now instead of its kernels (0: run the kernels). In
    the ``"plain"`` mode without limit, in ``"kernel"`` none; in ``"auto"`` what is left of the group's
    :data:`COLD_SOLVER_SECONDS` in this process when its kernels are neither loaded nor in the disk cache."""
    mode = _mode[0]
    if mode != "auto":
        return float("inf") if mode == "plain" else 0.0
    left = COLD_SOLVER_SECONDS.get(group_name, 0.0) - _solver_spent.get(group_name, 0.0)
    if left <= 0.0:
        return 0.0
    group = next(g for g in GROUPS if g.name == group_name)
    if all(ready(module) for module in group.modules):
        return 0.0
    return left


def spent_plain(group_name: str, seconds: float, answered: bool) -> None:
    """Charge ``seconds`` of a group's plain solver against its budget: all of it when the solver did not answer
    (the kernels are compiled now); when it ``answered`` with the group's kernels cold (the ``"auto"`` mode), they
    are compiled in the background at exit, for the next command to load."""
    spent = _solver_spent.get(group_name, 0.0) + seconds
    _solver_spent[group_name] = spent if answered else max(spent, COLD_SOLVER_SECONDS.get(group_name, 0.0))
    if answered and _mode[0] == "auto" and group_name not in _groups_later:
        if not _groups_later and not _later:
            atexit.register(_compile_in_background)
        _groups_later.add(group_name)


#: Set to ``0`` to keep a command that ran kernels' Python bodies from compiling them afterwards in the background
#: (the tests set it: nothing should outlive them).
BACKGROUND_ENV = "SUDOKIT_BACKGROUND_COMPILE"
#: CPU seconds of Python bodies in a process from which the kernels it ran that way are compiled in the
#: background when it exits, for the next command to load (below it, they cost less than loading numba's
#: machinery for them would save).
BACKGROUND_SECONDS = 1.0
#: kernel -> the argument types of its first Python-body call (the signature to compile it for)
_later: dict[Any, tuple[Any, ...]] = {}


def background_lock() -> str:
    """The file that exists while a background compile (:func:`compile_listed`) runs: one at a time per user."""
    import tempfile

    uid = os.getuid() if hasattr(os, "getuid") else 0
    return os.path.join(tempfile.gettempdir(), f"sudokit-compiling-{uid}.lock")


def _compile_in_background() -> None:
    """At exit: when this process ran logic kernels' Python bodies for :data:`BACKGROUND_SECONDS` or more in the
    ``"auto"`` mode, or a plain solver answered for a cold kernel group (:func:`spent_plain`), compile those
    kernels in a detached process (nothing on this command's terminal, and this command does not wait), so that
    the next command loads them from the cache instead of running Python."""
    import pickle
    import subprocess
    import tempfile

    if os.environ.get(BACKGROUND_ENV, "1") == "0":
        return
    listed: list[tuple[str, str, Any]] = []
    if sum(_python_spent.values()) >= BACKGROUND_SECONDS:
        listed = [(d.py_func.__module__, d.py_func.__name__, sig) for d, sig in _later.items() if not d.overloads]
    groups = [g for g in GROUPS if g.name in _groups_later and not all(ready(m) for m in g.modules)]
    listed += [("", g.name, None) for g in groups]  # a whole group: warmed as `warm-up` does
    if not listed:
        return
    with suppress(OSError):  # a lock left behind by a compile that was killed: stale after 15 minutes
        if time.time() - os.path.getmtime(background_lock()) > 900:
            os.remove(background_lock())
    try:
        lock = os.open(background_lock(), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except OSError:  # another one is compiling
        return
    try:
        os.close(lock)
        with tempfile.NamedTemporaryFile("wb", prefix="sudokit-compile-", suffix=".pickle", delete=False) as out:
            pickle.dump(listed, out)
        from sudokit.words import plural

        code = "import sys; from sudokit import jit; jit.compile_listed(sys.argv[1])"
        what = [plural(len(listed) - len(groups), "logic kernel")] if len(listed) > len(groups) else []
        what += [g.what for g in groups]
        say(
            f"compiling {' and '.join(what)} in the background for the next commands "
            f"({BACKGROUND_ENV}=0 turns this off; `sudokit warm-up` compiles everything)"
        )
        subprocess.Popen(
            [sys.executable, "-c", code, out.name],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except Exception:  # only a chance to warm the cache
        with suppress(OSError):
            os.remove(background_lock())


def compile_listed(path: str) -> None:
    """Compile (into the disk cache) the kernels listed in ``path`` (a pickle of ``(module, name, argument
    types)``, or ``("", group, None)`` for a whole group, written by :func:`_compile_in_background`), then
    delete it and the lock."""
    import pickle

    quiet()
    with suppress(OSError, AttributeError):  # a background job: the user's commands come first
        os.nice(10)
    try:
        with open(path, "rb") as f:
            listed = pickle.load(f)
        for module, name, sig in listed:
            try:
                if not module:  # a whole group
                    warm(name)
                    continue
                getattr(importlib.import_module(module), name).compile(sig)
            except Exception:  # a kernel that cannot be compiled here is compiled when a command needs it
                continue
    finally:
        with suppress(OSError):
            os.remove(path)
        with suppress(OSError):
            os.remove(background_lock())


def _boxed(value: Any) -> Any:
    """A Python body's result as the compiled kernel returns it: numpy scalars as Python numbers (numba boxes an
    int64 as an ``int``), tuples element by element; arrays as they are."""
    if isinstance(value, tuple):
        return tuple(_boxed(v) for v in value)
    item = getattr(value, "item", None)
    if item is not None and getattr(value, "ndim", None) == 0:
        return item()
    return value


def _run_python_when_cold() -> None:
    """Make a logic kernel called from Python, with no machine code for its arguments in this process, run its
    Python body when :func:`python_now` says so, and be compiled (or loaded from the cache) otherwise.

    numba's dispatcher calls ``_compile_for_args`` on exactly that miss and then calls what it returns; this
    wraps it (for every dispatcher: the test is on the kernel's module). Kernels called from other kernels
    are compiled with their callers as before."""
    from numba.core.dispatcher import Dispatcher

    real = getattr(Dispatcher, "_compile_for_args", None)  # numba's private hook: without it, kernels compile
    if real is None or getattr(real, "__name__", "") == "compile_or_python":
        return

    def compile_or_python(self, *args, **kws):
        if kws or not python_now(self):
            return real(self, *args, **kws)
        form = python_form(self)
        module = self.py_func.__module__
        if _mode[0] == "auto" and self not in _later:
            with suppress(Exception):  # only a chance to warm the cache: never in the way
                _later[self] = tuple(self.typeof_pyval(a) for a in args)
            if len(_later) == 1:
                atexit.register(_compile_in_background)

        def timed(*args: Any) -> Any:
            start = time.process_time()
            try:
                return _boxed(form(*args))
            finally:
                _python_spent[module] = _python_spent.get(module, 0.0) + time.process_time() - start

        return timed

    Dispatcher._compile_for_args = compile_or_python  # type: ignore[attr-defined]


# -- warm-up ----------------------------------------------------------------------------------------------------

#: Puzzles whose explanations try every logic technique (the first two end with forcing chains, the third
#: spells an X-Chain).
_HARD = (
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
    ".........56.....3223..4..79....6.....7.5.1.9....7.8....53...92...98.65..7.......4",
)


def _warm_solver() -> None:
    import numpy as np

    from sudokit.engine import api, batch
    from sudokit.generate import fast9
    from sudokit.geometry import from_name, standard

    empty = np.zeros(81, dtype=np.uint8)
    api.workspace(standard()).run(empty, 1)  # the general kernel (solve, other geometries)
    api._count9(empty, 1)  # the 9x9 kernel (count_solutions)
    batch.warm_up(standard())  # the batch kernels (files)
    batch.warm_up(from_name("4x4"))
    batch.Batch.concat([]).seconds()
    fast9.load()  # the 9x9 generator


def _warm_threads() -> None:
    from sudokit.engine import batch
    from sudokit.geometry import from_name, standard

    batch.warm_up(standard(), workers=2)
    batch.warm_up(from_name("4x4"), workers=2)


def _warm_logic() -> None:
    from sudokit.formats import parse_grid
    from sudokit.logic import explain

    with forms("kernel"):  # the techniques that also have a plain form would not compile their kernels
        for puzzle in _HARD:
            explain(parse_grid(puzzle))
            # HoDoKu's set: its chain and ALS rows, which Sudoku Explainer's chains come before in the full table
            explain(parse_grid(puzzle), techniques="hodoku")


def _warm_canon() -> None:
    import numpy as np

    from sudokit.formats import parse_grid
    from sudokit.generate.transforms import canonical, canonical_many

    grid = parse_grid(_HARD[0])
    canonical(grid)
    canonical_many(np.array([grid.values], dtype=np.uint8), grid.geometry)


def _warm_variants() -> None:
    from sudokit.constraints import KillerCage, VariantPuzzle
    from sudokit.constraints.solver import count_variant
    from sudokit.geometry import standard

    with forms("kernel"):  # the plain solver would answer this one in its place (plain_budget)
        count_variant(VariantPuzzle.build(standard(2, 2), [0] * 16, [KillerCage((0, 1), 3)]), 1)


_WARM = {
    "solver": _warm_solver,
    "threads": _warm_threads,
    "logic": _warm_logic,
    "canon": _warm_canon,
    "variants": _warm_variants,
}


def warm(name: str) -> tuple[str, float, float]:
    """Compile (or load) the kernels of group ``name``; returns ``(name, wall seconds, CPU seconds)``."""
    start, cpu = time.perf_counter(), time.process_time()
    _WARM[name]()
    return name, time.perf_counter() - start, time.process_time() - cpu
