"""Progress of long work (fitting from chunks, EM, structure search, cross-validation).

Every long-running function takes ``progress``: ``None`` or ``False`` (quiet, the default), a
callable (called with that function's own arguments, as its docstring says), or ``True``: a
live display on standard error, the one the command line shows. :func:`reporting` turns any
of these into the callable the function calls, so each function states only what its
progress means (an :class:`Adapter`), not how it is shown. rich is imported only when a
display is asked for.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["reporting", "reports_progress"]

#: Turns a callback's arguments into what the display shows: (completed, total or None, note).
Adapter = Callable[..., tuple[float, float | None, str]]


def check_progress(progress: Any) -> None:
    """``progress`` must be None, a bool or a callable."""
    if progress is None or isinstance(progress, bool) or callable(progress):
        return
    msg = (
        f"progress must be True (show a progress display), False or None (quiet), or a "
        f"callable, got {progress!r}"
    )
    raise TypeError(msg)


@contextmanager
def reporting(progress: Any, description: str, adapt: Adapter) -> Iterator[Callable | None]:
    """The callable to report progress to, for the duration of the work.

    Parameters
    ----------
    progress : None, bool or callable
        What the user passed: a callable is returned as it is; True opens a display on
        standard error, closed when the block ends; None and False give None (nothing to call).
    description : str
        What the display calls the work (``"fit_chunks"``, ``"EM"``).
    adapt : callable
        Maps the callback's arguments to ``(completed, total, note)``: how far the work is,
        out of how much (None when unknown) and a short note (a score, a pass).

    Examples
    --------
    >>> seen = []
    >>> with reporting(seen.append, "work", lambda n: (n, None, "")) as tick:
    ...     tick(3)
    >>> seen
    [3]
    >>> with reporting(None, "work", lambda n: (n, None, "")) as tick:
    ...     tick is None
    True
    """
    check_progress(progress)
    if progress is None or progress is False:
        yield None
        return
    if progress is not True:
        yield progress
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    display = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[note]}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
    )
    with display:
        task = display.add_task(description, total=None, note="")

        def tick(*args: Any) -> None:
            completed, total, note = adapt(*args)
            display.update(task, completed=completed, total=total, note=note)

        yield tick


def rows_adapter() -> Adapter:
    """For ``progress(rows_so_far)`` over one or more passes: the note names the pass (the
    count starts again from 0 at each)."""
    state = {"pass": 1, "last": 0}

    def adapt(rows: int) -> tuple[float, float | None, str]:
        if rows < state["last"]:
            state["pass"] += 1
        state["last"] = rows
        return rows, None, f"rows, pass {state['pass']}"

    return adapt


def iterations_adapter(total: int | None, name: str) -> Adapter:
    """For ``progress(iteration, value)``: the value shown as ``name``."""

    def adapt(iteration: int, value: float) -> tuple[float, float | None, str]:
        return iteration, total, f"{name} {value:,.4f}"

    return adapt


def reports_progress(
    description: str | Callable[[dict], str], adapter: Callable[[dict], Adapter]
) -> Callable:
    """Decorate a function whose ``progress`` argument takes a callable so that it also takes
    ``True`` (a display on standard error) and ``False``.

    ``description`` (text, or a function of the call's arguments) names the work on the
    display; ``adapter`` gets the call's arguments (defaults filled in) and returns the
    :data:`Adapter` of its callback.
    """

    def decorate(fn: Callable) -> Callable:
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)
            progress = bound.arguments.get("progress")
            if progress is None or (callable(progress) and not isinstance(progress, bool)):
                return fn(*args, **kwargs)
            check_progress(progress)
            bound.apply_defaults()
            arguments = dict(bound.arguments)
            name = description(arguments) if callable(description) else description
            with reporting(progress, name, adapter(arguments)) as tick:
                bound.arguments["progress"] = tick
                return fn(*bound.args, **bound.kwargs)

        return wrapper

    return decorate
