"""Private helpers of :mod:`bayeskit.factors.factor` and :mod:`bayeskit.factors.cpd`: the
printed tables of a factor and of a CPD, and the arithmetic of a product of factors (given as
arrays, so nothing here imports the classes)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.factors.display import Grid, column_limits, joint_index, number_texts, shown_at

#: The most distinct variables ``np.einsum``'s sublist form indexes.
EINSUM_INDICES = 52


def factor_grid(
    variables: Sequence[Any],
    values: np.ndarray,
    states: Mapping[Any, Sequence[str]],
    log_scale: float,
    value_name: str,
) -> Grid:
    """A factor's table: a column per variable (its states), then the values (scale
    included), one row per joint state in C order."""
    n = int(values.size)
    at, gap = shown_at(n)
    numbers = number_texts(values.reshape(-1)[at] * np.exp(log_scale))
    if variables:
        index = np.unravel_index(at, values.shape)
        names = [np.asarray(states[v], dtype=object)[i]
                 for v, i in zip(variables, index, strict=True)]  # fmt: skip
    else:
        names = []
    rows: list[Any] = []
    for r, number in enumerate(numbers):
        if r == gap:
            rows.append(None)
        rows.append(([str(col[r]) for col in names], [number]))
    note = None if gap is None else f"[{n:,} joint states, {len(at)} shown]"
    return Grid([str(v) for v in variables], [value_name], rows, note=note)


def cpd_grid(
    variable: Any, parents: Sequence[Any], values: np.ndarray, states: Mapping[Any, Sequence[str]]
) -> Grid:
    """A CPD's table: a row per parent configuration (C order), a column per state of the
    node."""
    k = values.shape[-1]
    table = values.reshape(-1, k)
    n = table.shape[0]
    at, gap = shown_at(n)
    cols, col_gap = shown_at(k, column_limits())
    numbers = number_texts(table[np.ix_(at, cols)])
    width = len(cols)
    names_of_states = [states[variable][c] for c in cols]
    if col_gap is not None:
        names_of_states.insert(col_gap, "...")
    index = np.unravel_index(at, table.shape[:1] if not parents else values.shape[:-1])
    names = [np.asarray(states[p], dtype=object)[i]
             for p, i in zip(parents, index, strict=False)]  # fmt: skip
    rows: list[Any] = []
    for r in range(len(at)):
        if r == gap:
            rows.append(None)
        row = numbers[r * width : (r + 1) * width]
        if col_gap is not None:
            row.insert(col_gap, "...")
        rows.append(([str(col[r]) for col in names], row))
    notes = []
    if gap is not None:
        notes.append(f"{n:,} parent configurations, {len(at)} shown")
    if col_gap is not None:
        notes.append(f"{k:,} states, {len(cols)} shown")
    note = f"[{'; '.join(notes)}]" if notes else None
    return Grid([str(p) for p in parents], names_of_states, rows, over=str(variable), note=note)


def product_values(
    tables: Sequence[tuple[np.ndarray, Sequence[Any]]],
    order: Mapping[Any, int],
    out_vars: Sequence[Any],
) -> np.ndarray:
    """The product of ``tables`` (each an array and its variables, every variable's states in
    one order), summed over the variables not in ``out_vars``: one ``einsum`` call, or
    broadcasting over the union of the variables when they are more than einsum indexes.
    ``order``: each variable's position in the union."""
    if len(order) <= EINSUM_INDICES:
        args: list[Any] = []
        for values, variables in tables:
            args += [values, [order[v] for v in variables]]
        out = np.einsum(*args, [order[v] for v in out_vars], optimize=len(tables) > 2)
        return np.asarray(out, dtype=np.float64)
    union = list(order)
    out = np.ones((1,) * len(union))
    for values, variables in tables:
        perm = sorted(range(len(variables)), key=lambda i: order[variables[i]])
        moved = np.transpose(values, perm)
        shape = [1] * len(union)
        for i in perm:
            shape[order[variables[i]]] = values.shape[i]
        out = out * moved.reshape(shape)
    gone = tuple(i for i, v in enumerate(union) if v not in set(out_vars))
    return np.asarray(out.sum(axis=gone), dtype=np.float64)


def states_index(variables: Sequence[Any], states: Mapping[Any, Sequence[str]]) -> pd.Index:
    """The joint states of ``variables`` as a pandas index: one unnamed row for no variable,
    an Index of the state names (named by the variable) for one, the MultiIndex of the joint
    states in C order for several."""
    if not variables:
        return pd.RangeIndex(1)
    if len(variables) == 1:
        v = variables[0]
        return pd.Index(list(states[v]), dtype=object, name=v)
    return joint_index(variables, states)


def kept_variables(variables: Sequence[Any], gone: Any) -> tuple[tuple[int, ...], list[Any]]:
    """The axes of ``gone`` among ``variables`` and the variables left; ValueError for a
    variable of ``gone`` that is not among them."""
    gone = set(gone)
    unknown = gone - set(variables)
    if unknown:
        names = sorted(map(str, unknown))
        msg = f"variables {names} are not in the factor {list(variables)}"
        raise ValueError(msg)
    axes = tuple(i for i, v in enumerate(variables) if v in gone)
    return axes, [v for v in variables if v not in gone]
