"""Tables to print: factors, CPDs and the dicts of marginals print as tables with state names,
as pandas frames do. pandas' display options say how many rows (``display.max_rows``,
``display.min_rows``) and digits (``display.precision``) to show, and a longer table shows its
first and last rows with a note of how many there are. Only the rows shown are labelled, so a
factor of millions of entries prints at once."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["Grid", "column_limits", "joint_index", "number_texts", "row_limits", "shown_at"]


def row_limits() -> tuple[int, int] | None:
    """(most rows shown whole, rows shown of a longer table); None: no limit (pandas'
    ``display.max_rows`` None)."""
    most = pd.get_option("display.max_rows")
    if most is None:
        return None
    most = int(most) or 60  # 0: pandas' "fit the terminal"; a fixed 60 here
    fewer = pd.get_option("display.min_rows")
    return most, min(most, int(fewer) if fewer else most)


def shown_at(n: int, limits: tuple[int, int] | None = None) -> tuple[np.ndarray, int | None]:
    """The rows of ``n`` to show and where the gap goes (None: all shown)."""
    limits = row_limits() if limits is None else limits
    if limits is None or n <= limits[0]:
        return np.arange(n), None
    head = (limits[1] + 1) // 2
    tail = limits[1] - head
    return np.concatenate([np.arange(head), np.arange(n - tail, n)]), head


def number_texts(values: np.ndarray) -> list[str]:
    """Numbers as pandas prints a float column: ``display.precision`` decimals, the trailing
    zeros every number has dropped; scientific for all when one is too small or large."""
    digits = int(pd.get_option("display.precision"))
    values = np.asarray(values, dtype=np.float64).ravel()
    size = np.abs(values[(values != 0) & np.isfinite(values)])
    if size.size and (size.min() < 10.0**-digits or size.max() >= 1e15):
        return [f"{v:.{digits}e}" for v in values]
    text = [f"{v:.{digits}f}" for v in values]
    if digits and all("." in t for t in text):
        spare = min(len(t) - len(t.rstrip("0")) for t in text)
        cut = min(spare, digits - 1)
        if cut:
            text = [t[:-cut] for t in text]
    return text


@dataclass
class Grid:
    """A table to print: label columns (left-aligned) then number columns (right-aligned),
    an optional header over the number columns, rows (None: the gap of a long table), a note
    under it and a title line over it."""

    labels: list[str]
    columns: list[str]
    rows: list[tuple[list[str], list[str]] | None]
    over: str | None = None
    note: str | None = None
    title: str | None = None

    def text(self) -> str:
        n_lab = len(self.labels)
        cells = [[*lab, *num] for lab, num in (r for r in self.rows if r is not None)]
        widths = [len(h) for h in (*self.labels, *self.columns)]
        for cell_row in cells:
            widths = [max(w, len(c)) for w, c in zip(widths, cell_row, strict=True)]
        widths = [max(w, 3) for w in widths]  # room for "..."
        if self.over is not None and self.columns:
            span = sum(widths[n_lab:]) + 2 * (len(self.columns) - 1)
            if len(self.over) > span:
                widths[-1] += len(self.over) - span

        def line(row: list[str]) -> str:
            parts = [c.ljust(w) if k < n_lab else c.rjust(w)
                     for k, (c, w) in enumerate(zip(row, widths, strict=True))]  # fmt: skip
            return "  ".join(parts).rstrip()

        lines = [] if self.title is None else [self.title]
        if self.over is not None:
            lead = sum(widths[:n_lab]) + 2 * n_lab
            lines.append(" " * lead + self.over)
        lines.append(line([*self.labels, *self.columns]))
        for row in self.rows:
            if row is None:
                lines.append(line(["..."] * len(widths)))
            else:
                lines.append(line([*row[0], *row[1]]))
        if self.note:
            lines.append(self.note)
        return "\n".join(lines)

    def html(self) -> str:
        e = html.escape
        n_lab = len(self.labels)
        head = []
        if self.over is not None:
            blank = f'<th colspan="{n_lab}"></th>' if n_lab else ""
            head.append(f'<tr>{blank}<th colspan="{len(self.columns)}" '
                        f'style="text-align: left">{e(self.over)}</th></tr>')  # fmt: skip
        head.append("<tr>" + "".join(f"<th>{e(h)}</th>" for h in (*self.labels, *self.columns))
                    + "</tr>")  # fmt: skip
        body = []
        for row in self.rows:
            lab, num = (["..."] * n_lab, ["..."] * len(self.columns)) if row is None else row
            body.append("<tr>" + "".join(f"<th>{e(c)}</th>" for c in lab)
                        + "".join(f"<td>{e(c)}</td>" for c in num) + "</tr>")  # fmt: skip
        note = f"<p>{e(self.note)}</p>" if self.note else ""
        title = f"<p>{e(self.title)}</p>" if self.title else ""
        return (
            f'<div>{title}<table border="1" class="dataframe">'
            f"<thead>{''.join(head)}</thead><tbody>{''.join(body)}</tbody></table>{note}</div>"
        )


def joint_index(variables: Sequence[Any], states: Mapping[Any, Sequence[str]]) -> pd.MultiIndex:
    """The joint states of ``variables`` in C order, a MultiIndex whose levels keep the states'
    order (so ``unstack`` and sorting follow it, not the alphabet)."""
    shape = tuple(len(states[v]) for v in variables)
    codes = np.indices(shape).reshape(len(shape), -1)
    levels = [pd.Index(list(states[v]), dtype=object) for v in variables]
    return pd.MultiIndex(levels=levels, codes=list(codes), names=list(variables))


def column_limits() -> tuple[int, int] | None:
    """Columns of states shown whole and shown of more: pandas' ``display.max_columns`` (0,
    "fit the terminal" there, is 10 here)."""
    most = pd.get_option("display.max_columns")
    if most is None:
        return None
    most = int(most) or 10
    return most, most
