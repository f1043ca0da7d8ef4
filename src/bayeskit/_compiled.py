"""numba in one place: how kernels are compiled, cached, threaded and made fork-safe.

Every compiled kernel of bayeskit is made by :func:`parallel_kernel` or :func:`serial_kernel`.

Serial and parallel builds
    A kernel is written once with ``numba.prange`` and compiled twice: a serial build (``prange``
    acts as ``range``) and a parallel one. Waking worker threads costs more than a small input
    takes to process, so a call runs the parallel build only when its work (a per-kernel estimate,
    about one unit per addition) reaches ``PARALLEL_MIN_WORK`` and more than one thread is
    allowed. Set ``PARALLEL_MIN_WORK = 0`` to force the parallel build (the tests do).
    Kernels whose rows are independent (the junction tree's) need no parallel build: a serial
    kernel releases the GIL, so :func:`run_blocks` runs it on blocks of rows in Python threads.
    That spares the parallel build's compilation (seconds per kernel on the first run after
    install) and numba's threading layer.

On-disk cache
    Both builds are cached by numba (``cache=True``), so a new process loads them instead of
    compiling. numba's cache index is keyed by the function and its argument types but not by the
    ``parallel`` flag, so the parallel build is compiled from a copy of the function under its own
    name (``<name>_parallel``): otherwise the two builds overwrite each other's entry and a process
    may run the serial machine code where it asked for threads, or the reverse. numba writes the
    cache next to the source (``__pycache__``), or in the user's cache directory when that is not
    writable, or in ``NUMBA_CACHE_DIR`` when set; if no location is writable the kernels compile
    in every process, uncached, rather than fail.

Threading layer (fork safety)
    When this module is first imported (with the first model), unless the user chose a layer
    (the ``NUMBA_THREADING_LAYER`` environment variable, or ``numba.config.THREADING_LAYER`` set
    in code beforehand) or numba already started one, bayeskit asks numba for its ``"forksafe"``
    layer: TBB where a loadable TBB is installed, numba's own ``workqueue`` otherwise. numba's
    default on Linux is GNU OpenMP, after which any forked child (a ``multiprocessing`` or joblib
    worker) aborts with "fork() called from a process already using GNU OpenMP". ``workqueue`` is
    not safe for concurrent launches from several threads, so parallel launches are serialised by
    a lock whenever that layer (or an undetermined one) is in use; each launch already uses every
    allowed thread. (The ``tbb`` package from PyPI installs a TBB that numba often cannot load
    from a virtual environment, so bayeskit does not depend on it.)

Thread count
    :func:`get_num_threads` is, in order of precedence: the innermost :func:`num_threads` block of
    the calling thread, the last :func:`set_num_threads`, the ``BAYESKIT_NUM_THREADS`` environment
    variable, and the number of CPUs this process may run on. ``numba.config.NUMBA_NUM_THREADS``
    (the ``NUMBA_NUM_THREADS`` environment variable) caps it, since numba cannot start more
    threads than that. The count applies to the parallel kernels and to the column threads of the
    MDL discretizer; with one thread no worker thread is ever started.

Timings of kernels are in ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import contextlib
import contextvars
import numbers
import os
import threading
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import numba

__all__ = [
    "THREADS_ENV",
    "get_num_threads",
    "num_threads",
    "parallel_kernel",
    "planned_threads",
    "row_blocks",
    "run_blocks",
    "serial_kernel",
    "set_num_threads",
]

THREADS_ENV = "BAYESKIT_NUM_THREADS"
# Below this much work (about one addition per unit, as estimated by each kernel's ``work``) a
# kernel runs serially; where serial and parallel cross over is measured in benchmarks/RESULTS.md.
PARALLEL_MIN_WORK = 500_000
# Below this much work (by default) a kernel given a numpy twin (``parallel_kernel(work,
# small=...)``) runs the twin: numba's set-up in a process (about 0.25 s before the first
# compiled call, even from the cache) costs more than numpy takes on such inputs.
SMALL_WORK = 100_000
T = TypeVar("T")


# --------------------------------------------------------------------------- threading layer
# numba.config sets its options at import, from the environment: unknown to type checkers
_numba_config: Any = numba.config


def _choose_threading_layer() -> None:
    """Ask numba for a fork-safe threading layer unless the user chose one or one runs already."""
    if "NUMBA_THREADING_LAYER" in os.environ:
        return
    if str(_numba_config.THREADING_LAYER).lower() != "default":
        return
    try:
        numba.threading_layer()
    except ValueError:  # not initialised yet: the choice still counts
        _numba_config.THREADING_LAYER = "forksafe"


_choose_threading_layer()

_launch_lock = threading.Lock()


def _reset_launch_lock() -> None:
    # a fork while another thread held the lock would leave it held forever in the child
    global _launch_lock
    _launch_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_launch_lock)


def _launch_guard() -> contextlib.AbstractContextManager:
    """The lock for layers that cannot take concurrent launches; nothing for the others."""
    try:
        layer = numba.threading_layer()
    except ValueError:  # the first launch decides the layer
        return _launch_lock
    return contextlib.nullcontext() if layer in ("tbb", "omp") else _launch_lock


# --------------------------------------------------------------------------- thread count
_process_threads: int | None = None
_context_threads: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "bayeskit_num_threads", default=None
)


def _check_count(n: object, name: str) -> int:
    if isinstance(n, numbers.Integral) and not isinstance(n, bool) and int(n) >= 1:
        return int(n)
    msg = f"{name} must be an integer >= 1, got {n!r}"
    raise ValueError(msg)


def _usable_cpus() -> int:
    """CPUs this process may run on (respects taskset / cpusets where the OS tells)."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _env_threads() -> int | None:
    text = os.environ.get(THREADS_ENV, "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        msg = f"environment variable {THREADS_ENV} must be an integer >= 1, got {text!r}"
        raise ValueError(msg)
    return value


def get_num_threads() -> int:
    """Number of threads bayeskit's parallel code uses in the calling thread now.

    The innermost :func:`num_threads` block, else :func:`set_num_threads`, else the environment
    variable ``BAYESKIT_NUM_THREADS``, else every CPU this process may run on; never more than
    ``numba.config.NUMBA_NUM_THREADS`` (set by the ``NUMBA_NUM_THREADS`` environment variable).

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If ``BAYESKIT_NUM_THREADS`` is set to anything but an integer >= 1.

    Examples
    --------
    >>> with num_threads(1):
    ...     get_num_threads()
    1
    """
    n = _context_threads.get() or _process_threads or _env_threads() or _usable_cpus()
    return max(1, min(n, _numba_config.NUMBA_NUM_THREADS))


def set_num_threads(n: int | None) -> None:
    """Set the number of threads of bayeskit's parallel code for the whole process.

    ``None`` goes back to the default (``BAYESKIT_NUM_THREADS``, else every usable CPU). A
    :func:`num_threads` block takes precedence inside it; ``NUMBA_NUM_THREADS`` still caps.

    Parameters
    ----------
    n : int or None
        The number of threads (>= 1), or None.

    Raises
    ------
    ValueError
        ``n`` is not an integer >= 1 or None.

    Examples
    --------
    >>> set_num_threads(1)
    >>> get_num_threads()
    1
    >>> set_num_threads(None)
    """
    global _process_threads
    _process_threads = None if n is None else _check_count(n, "n")


@contextlib.contextmanager
def num_threads(n: int) -> Iterator[None]:
    """Limit bayeskit's parallel code to ``n`` threads inside a ``with`` block.

    The limit holds for code run in the calling thread (and its context) until the block ends,
    whatever :func:`set_num_threads` or ``BAYESKIT_NUM_THREADS`` say; ``NUMBA_NUM_THREADS`` still
    caps.

    Parameters
    ----------
    n : int
        The number of threads (>= 1).

    Yields
    ------
    None

    Raises
    ------
    ValueError
        ``n`` is not an integer >= 1.

    Examples
    --------
    >>> with num_threads(1):
    ...     get_num_threads()
    1
    """
    token = _context_threads.set(_check_count(n, "n"))
    try:
        yield
    finally:
        _context_threads.reset(token)


# --------------------------------------------------------------------------- compilation
def _renamed(func: Callable, suffix: str) -> Callable:
    """A copy of ``func`` under another qualified name (its own numba cache files)."""
    copy = types.FunctionType(
        func.__code__, func.__globals__, func.__name__, func.__defaults__, func.__closure__
    )
    copy.__qualname__ = f"{func.__qualname__}{suffix}"
    copy.__module__ = func.__module__
    copy.__doc__ = func.__doc__
    return copy


def _jit(func: Callable, **options) -> Callable:
    """``numba.njit(cache=True, nogil=True)``, uncached if numba finds no writable cache place."""
    try:
        return numba.njit(cache=True, nogil=True, **options)(func)
    except RuntimeError as err:
        if "cannot cache" not in str(err):
            raise
        return numba.njit(nogil=True, **options)(func)


def serial_kernel(func: Callable) -> Callable:
    """Compile ``func`` with numba (lazily, on its first call), cached on disk."""
    return _jit(func)


def planned_threads(work: int) -> int:
    """The threads a :func:`parallel_kernel` call of this much work runs on: 1 below
    ``PARALLEL_MIN_WORK``, else :func:`get_num_threads` (kernels that give each thread its own
    table size their tables by it)."""
    return get_num_threads() if work >= PARALLEL_MIN_WORK else 1


def run_blocks(calls: Sequence[Callable[[], T]], threads: int) -> list[T]:
    """Run ``calls`` (each a :func:`serial_kernel` call on its own block of rows; compiled with
    ``nogil``, so they run at once) on up to ``threads`` threads, the calling thread one of
    them; their results in order. Threads of Python's own, not numba's: no parallel build to
    compile (several seconds per kernel on a first run) and nothing that a fork can break."""
    calls = list(calls)
    threads = max(1, min(threads, len(calls)))
    if threads == 1:
        return [call() for call in calls]
    results: list = [None] * len(calls)
    errors: list[BaseException] = []

    def work(first: int) -> None:
        try:
            for k in range(first, len(calls), threads):
                results[k] = calls[k]()
        except BaseException as err:  # noqa: BLE001 - re-raised in the calling thread
            errors.append(err)

    helpers = [threading.Thread(target=work, args=(t,), daemon=True) for t in range(1, threads)]
    for helper in helpers:
        helper.start()
    work(0)
    for helper in helpers:
        helper.join()
    if errors:
        raise errors[0]
    return results


def row_blocks(n_rows: int, n_blocks: int) -> list[slice]:
    """``n_rows`` cut into ``n_blocks`` (at most ``n_rows``) consecutive slices of near-equal
    size."""
    if n_rows <= 0:
        return [slice(0, 0)]
    per = -(-n_rows // max(1, min(n_blocks, n_rows)))
    return [slice(k, min(n_rows, k + per)) for k in range(0, n_rows, per)]


def parallel_kernel(
    work: Callable[..., int], small: Callable | None = None, small_below: int | None = None
) -> Callable[[Callable], Callable]:
    """Decorator: compile a ``prange`` kernel serially and in parallel, pick per call.

    ``work(*args)`` estimates the work of a call, about one unit per addition (for example
    ``codes.size * n_classes`` table entries added); the parallel build runs when it reaches
    ``PARALLEL_MIN_WORK`` and :func:`get_num_threads` is above 1, with that many threads.
    ``small``, a numpy function of the same arguments and result (bit for bit), runs instead
    below ``small_below`` (default ``SMALL_WORK``), so a small problem never waits for numba's
    set-up; it may return ``NotImplemented`` for inputs it does not take.
    """

    def decorate(func: Callable) -> Callable:
        serial = _jit(func)
        parallel = _jit(_renamed(func, "_parallel"), parallel=True)

        def run(*args):
            amount = work(*args)
            if small is not None and amount < (SMALL_WORK if small_below is None else small_below):
                got = small(*args)
                if got is not NotImplemented:
                    return got
            if planned_threads(amount) > 1:
                n = get_num_threads()
                if n > 1:
                    with _launch_guard():
                        before = numba.get_num_threads()
                        numba.set_num_threads(n)
                        try:
                            return parallel(*args)
                        finally:
                            numba.set_num_threads(before)
            return serial(*args)

        run.__name__ = func.__name__.lstrip("_")
        run.__qualname__ = run.__name__
        run.__module__ = func.__module__
        run.__doc__ = func.__doc__
        return run

    return decorate
