"""Time each puzzle of a batch from inside the kernels, where Python's clocks cannot be read.

The batch kernels read the processor's cycle counter (LLVM's ``readcyclecounter``: ``rdtsc`` on x86-64, a
few nanoseconds and no system call) before and after each puzzle and store the difference. Python turns
ticks into seconds with :func:`seconds_per_tick`, measured once per process against ``time.perf_counter``.
The time-stamp counter of current x86-64 processors runs at a constant rate whatever the core's clock, so
one factor serves every puzzle and thread.

On other processors the counter may not be readable from user space (on ARM it can trap), so there
:func:`ticks` is 0 and callers fall back to the average time of a batch.
"""

from __future__ import annotations

import platform
import time

from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

#: True where the kernels read a real cycle counter (not with ``NUMBA_DISABLE_JIT=1``: an intrinsic cannot run
#: as Python).
AVAILABLE = platform.machine().lower() in ("x86_64", "amd64") and not config.DISABLE_JIT

if AVAILABLE:

    @intrinsic
    def _read_counter(typingctx):
        """The processor's cycle counter (``llvm.readcyclecounter``)."""

        def codegen(context, builder, signature, args):
            fnty = cgutils.ir.FunctionType(cgutils.ir.IntType(64), [])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.readcyclecounter")
            return builder.call(fn, [])

        return types.int64(), codegen

    @njit(cache=True, inline="always")
    def ticks():
        """The cycle counter now (only differences mean anything)."""
        return _read_counter()

else:  # pragma: no cover - exercised only on other processors

    @njit(cache=True, inline="always")
    def ticks():
        """No readable counter here: always 0."""
        return 0


@njit(cache=True)
def now():
    """:func:`ticks` called from Python (about a microsecond through numba's dispatcher): a batch's start and end."""
    return ticks()


_now = now


_SECONDS_PER_TICK: list[float] = []


def seconds_per_tick(sample: float = 0.02) -> float:
    """Seconds per tick of :func:`ticks`, measured once per process over ``sample`` seconds (0.0 where no
    counter is readable)."""
    if not _SECONDS_PER_TICK:
        if not AVAILABLE:
            _SECONDS_PER_TICK.append(0.0)
        else:
            _now()  # compile (or load) outside the measurement
            t0, c0 = _paired_reading()
            while time.perf_counter() - t0 < sample:
                pass
            t1, c1 = _paired_reading()
            _SECONDS_PER_TICK.append((t1 - t0) / (c1 - c0) if c1 > c0 else 0.0)
    return _SECONDS_PER_TICK[0]


def _paired_reading(tries: int = 5) -> tuple[float, int]:
    """``perf_counter()`` and the tick counter read at the same moment: the counter is read just before and
    just after the clock, and the tightest of a few tries is kept (a thread switch in between would skew it)."""
    best = None
    for _ in range(tries):
        before = _now()
        now = time.perf_counter()
        after = _now()
        if best is None or after - before < best[0]:
            best = (after - before, now, (before + after) // 2)
    assert best is not None  # tries >= 1
    return best[1], best[2]
