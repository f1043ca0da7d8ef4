"""Private helpers of :mod:`bayeskit.factors.factor` and :mod:`bayeskit.factors.cpd`: the
printed tables of a factor and of a CPD, the arithmetic of a product of factors, and the checks
of a CPD's table and family (given as arrays and names, so nothing here imports the classes)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.factors.display import Grid, column_limits, joint_index, number_texts, shown_at
from bayeskit.factors.states import state_names

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


def configurations(parents: Any, n_rows: int, shape: tuple[int, ...]) -> np.ndarray:
    """Each row's parent configuration (C order of the parents' states, ``shape`` their
    numbers of states), -1 where a parent is missing (a code -1)."""
    parents = np.asarray(parents, dtype=np.int64).reshape(n_rows, len(shape))
    if not shape:
        return np.zeros(n_rows, dtype=np.int64)
    ok = (parents >= 0).all(axis=1)
    config = np.full(n_rows, -1, dtype=np.int64)
    config[ok] = np.ravel_multi_index(tuple(parents[ok].T), shape)
    return config


def checked_table(
    variable: Any, parents: tuple, values: Any, states: Mapping[Any, Sequence[Any]]
) -> tuple[np.ndarray, dict[Any, tuple[str, ...]]]:
    """A CPT made read-only float64 (copied unless it was read-only already) and the family's
    state names (:func:`~bayeskit.factors.states.state_names`); ValueError for a table not of
    the family's shape."""
    family = (*parents, variable)
    arr = np.asarray(values, dtype=np.float64)
    shape = tuple(len(states[v]) for v in family)
    if arr.shape != shape:
        msg = f"the CPT of {variable!r} has shape {arr.shape}, expected {shape}"
        raise ValueError(msg)
    if arr.flags.writeable:
        arr = arr.copy()
        arr.setflags(write=False)
    return arr, {v: state_names(f"variable {v!r}", states[v]) for v in family}


def check_family(
    node: Any,
    have_parents: tuple,
    have_states: Mapping[Any, Sequence[str]],
    parents: tuple,
    states: Mapping[Any, Sequence[str]],
) -> None:
    """ValueError naming ``node`` when a CPD's parents (``have_parents``) are others than
    ``parents`` as a set, or it names a variable's states (``have_states``) otherwise than
    ``states`` does (another order is fine)."""
    if len(have_parents) != len(parents) or set(have_parents) != set(parents):
        msg = (
            f"node {node!r}: its CPD has the parents {list(have_parents)}, the DAG gives it "
            f"{list(parents)}; give the CPD of the DAG's family (its parents in any order)"
        )
        raise ValueError(msg)
    for v in (*parents, node):
        have, want = have_states[v], tuple(states[v])
        if len(have) != len(want) or set(have) != set(want):
            of = "the node" if v == node else f"its parent {v!r}"
            msg = (
                f"node {node!r}: its CPD names the states of {of} {list(have)}, and the network "
                f"{list(want)} (as states= names them, else as {v!r}'s own CPD does, else "
                "'0', '1', ...); a CPD is read by state name: give the same names (in any order)"
            )
            raise ValueError(msg)
