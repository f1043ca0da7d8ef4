"""Factors: dense tables over named discrete variables, the currency of exact inference.

A :class:`Factor` is a numpy array with one named axis per variable and the variables' state
names; ``values * exp(log_scale)`` are the numbers it stands for, so a long product of small
probabilities (many evidence nodes, large networks) is kept rescaled instead of underflowing:
:meth:`Factor.rescaled` divides the table by its largest entry and adds that entry's log to
``log_scale``. Product, marginalisation (sum), maximisation and reduction by evidence each give a
new factor; nothing is changed in place.

Products and sums go through ``np.einsum`` (its integer "sublist" form, so variables are not
limited to letters); a product of more than 52 distinct variables, beyond einsum's index range,
falls back to broadcasting.

Sizes are counted in Python integers (:func:`table_cells`), never in numpy's int64, whose
products wrap around past ``2**63`` (32 four-state variables make 0 cells): a product, a query
or a junction tree whose tables would exceed its ``max_cells`` (by default ``2**27``, 1 GiB of
float64) raises :class:`InferenceTooLarge`, before anything is allocated, naming what asked
for it and the limit.

Factors, a node's labelled CPT (:class:`CPD`) and the dict of one-variable posteriors
(:class:`Marginals`) print as tables with the states named, in text and in HTML (Jupyter), and
turn into pandas objects labelled by state names (``to_pandas``, ``to_frame``). Long tables show
their first and last rows, as pandas does (its ``display.max_rows``, ``display.min_rows`` and
``display.precision`` options apply).
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from bayeskit._text import shown
from bayeskit.networks.states import state_index, state_names

__all__ = ["CPD", "DEFAULT_MAX_CELLS", "Factor", "InferenceTooLarge", "Marginals", "product",
           "table_cells"]  # fmt: skip

_EINSUM_INDICES = 52
#: The most cells a table of exact inference may have unless told otherwise: 1 GiB of float64.
DEFAULT_MAX_CELLS = 1 << 27
#: The most axes a numpy array may have (32 before numpy 2).
MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32


class InferenceTooLarge(MemoryError):
    """A query whose tables would exceed the memory limit (raised before computing anything)."""


def table_cells(cardinalities: Iterable[Any]) -> int:
    """The cells of a table over variables of these numbers of states, a Python int, exact
    however large (numpy's int64 product wraps around: ``np.prod([4] * 32)`` is 0).

    Examples
    --------
    >>> table_cells([4] * 32) == 4**32, table_cells([])
    (True, 1)
    """
    return math.prod(int(k) for k in cardinalities)


def listed(names: Sequence[Any], most: int = 8) -> str:
    """Names for a message: the list, or its first ``most`` and how many there are."""
    names = list(names)
    if len(names) <= most:
        return shown(names)
    return f"{shown(names[:most])[:-1]}, ...] ({len(names):,} in all)"


def too_large(
    what: str, cells: int, max_cells: int, way_out: str, tables: str = "a table of"
) -> InferenceTooLarge:
    """The error for ``what`` needing ``tables`` ``cells`` cells, above ``max_cells``."""
    if cells < 10**15:
        size = f"{cells:,} cells ({cells * 8 / 2**30:.1f} GiB)"
    else:  # beyond what a float's GiB or a row of digits shows well
        size = f"about 10^{math.log10(cells):.1f} cells"
    msg = f"{what} needs {tables} {size}, above max_cells={max_cells:,}; {way_out}"
    return InferenceTooLarge(msg)


def too_many_axes(what: str, axes: int, way_out: str) -> InferenceTooLarge:
    """The error for ``what`` needing a table of ``axes`` axes, more than numpy's arrays have."""
    msg = f"{what} needs a table of {axes} axes, more than numpy's {MAX_AXES}; {way_out}"
    return InferenceTooLarge(msg)


class Factor:
    """A table over named discrete variables.

    Parameters
    ----------
    variables : sequence of hashable
        One per axis of ``values``, distinct.
    values : array-like
        Non-negative numbers, shape the variables' numbers of states.
    states : mapping variable -> sequence of str
        Each variable's state names, as many as its axis is long.
    log_scale : float, default=0.0
        The table stands for ``values * exp(log_scale)``.

    Examples
    --------
    >>> f = Factor(["rain"], [0.2, 0.8], {"rain": ["yes", "no"]})
    >>> g = Factor(["rain", "wet"], [[0.9, 0.1], [0.2, 0.8]],
    ...            {"rain": ["yes", "no"], "wet": ["yes", "no"]})
    >>> joint = f * g
    >>> joint.marginalize(["rain"]).values.round(2).tolist()
    [0.34, 0.66]
    >>> joint.reduce({"wet": "yes"}).normalize().values.round(4).tolist()
    [0.5294, 0.4706]
    """

    __slots__ = ("log_scale", "states", "values", "variables")

    def __init__(
        self,
        variables: Sequence[Any],
        values: Any,
        states: Mapping[Any, Sequence[Any]],
        log_scale: float = 0.0,
    ):
        variables = tuple(variables)
        if len(set(variables)) != len(variables):
            msg = f"a factor's variables must be distinct, got {list(variables)}"
            raise ValueError(msg)
        arr = np.asarray(values, dtype=np.float64)
        if arr.ndim != len(variables):
            msg = f"values have {arr.ndim} axes for {len(variables)} variables {list(variables)}"
            raise ValueError(msg)
        names = {}
        for axis, var in enumerate(variables):
            if var not in states:
                msg = f"no states given for variable {var!r}"
                raise ValueError(msg)
            names[var] = state_names(f"variable {var!r}", states[var])  # networks.states
            if len(names[var]) != arr.shape[axis]:
                msg = (
                    f"variable {var!r} has {len(names[var])} states but its axis is "
                    f"{arr.shape[axis]} long"
                )
                raise ValueError(msg)
        if arr.size and not (np.isfinite(arr).all() and (arr >= 0).all()):
            msg = "a factor's values must be finite and non-negative"
            raise ValueError(msg)
        if not np.isfinite(log_scale):
            msg = f"log_scale must be finite, got {log_scale!r}"
            raise ValueError(msg)
        self.variables = variables
        self.values = arr
        self.states = names
        self.log_scale = float(log_scale)

    @classmethod
    def _trusted(cls, variables, values, states, log_scale=0.0) -> Factor:
        """A factor made by an operation on valid factors (no checks)."""
        f = cls.__new__(cls)
        f.variables, f.values, f.states, f.log_scale = tuple(variables), values, states, log_scale
        return f

    # ----------------------------------------------------------------------- reading
    @property
    def cardinality(self) -> dict[Any, int]:
        return {v: len(self.states[v]) for v in self.variables}

    def __repr__(self) -> str:
        """A table: a column per variable (its states), then the values (``probability`` for
        a factor that sums to 1, else ``value``), one row per joint state in C order.

        Examples
        --------
        >>> print(Factor(["rain"], [0.2, 0.8], {"rain": ["yes", "no"]}))
        rain  probability
        yes           0.2
        no            0.8
        """
        return self._grid().text()

    def _repr_html_(self) -> str:
        return self._grid().html()

    def _value_name(self) -> str:
        total = float(self.values.sum()) * np.exp(self.log_scale)
        return "probability" if abs(total - 1.0) <= 1e-9 else "value"

    def _grid(self) -> _Grid:
        n = int(self.values.size)
        at, gap = _shown(n)
        numbers = _numbers(self.values.reshape(-1)[at] * np.exp(self.log_scale))
        if self.variables:
            index = np.unravel_index(at, self.values.shape)
            names = [np.asarray(self.states[v], dtype=object)[i]
                     for v, i in zip(self.variables, index, strict=True)]  # fmt: skip
        else:
            names = []
        rows: list[Any] = []
        for r, number in enumerate(numbers):
            if r == gap:
                rows.append(None)
            rows.append(([str(col[r]) for col in names], [number]))
        note = None if gap is None else f"[{n:,} joint states, {len(at)} shown]"
        return _Grid([str(v) for v in self.variables], [self._value_name()], rows, note=note)

    def to_pandas(self, name: str | None = None) -> pd.Series:
        """The values (scale included) as a Series indexed by the states: an Index named by
        the variable, a MultiIndex of the joint states (C order) for several. ``name``:
        the Series' name, by default ``"probability"`` for a factor that sums to 1, else
        ``"value"``.

        Examples
        --------
        >>> g = Factor(["rain", "wet"], [[0.18, 0.02], [0.16, 0.64]],
        ...            {"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> g.to_pandas()
        rain  wet
        yes   yes    0.18
              no     0.02
        no    yes    0.16
              no     0.64
        Name: probability, dtype: float64
        >>> g.to_pandas().unstack()
        wet    yes    no
        rain
        yes   0.18  0.02
        no    0.16  0.64
        """
        values = (self.values * np.exp(self.log_scale)).reshape(-1)
        if not self.variables:
            index: Any = pd.RangeIndex(1)
        elif len(self.variables) == 1:
            v = self.variables[0]
            index = pd.Index(list(self.states[v]), dtype=object, name=v)
        else:
            index = _joint_index(self.variables, self.states)
        return pd.Series(values, index=index, name=self._value_name() if name is None else name)

    def to_frame(self, name: str = "probability") -> pd.DataFrame:
        """One row per joint state: a column per variable (its state) and ``name`` (the value,
        scale included); the long form of :meth:`to_pandas`.

        Examples
        --------
        >>> Factor(["a"], [0.25, 0.75], {"a": ["x", "y"]}).to_frame()
           a  probability
        0  x         0.25
        1  y         0.75
        """
        grids = np.meshgrid(*(np.arange(len(self.states[v])) for v in self.variables),
                            indexing="ij")  # fmt: skip
        columns = {
            v: np.asarray(self.states[v], dtype=object)[g.ravel()]
            for v, g in zip(self.variables, grids, strict=True)
        }
        columns[name] = (self.values * np.exp(self.log_scale)).ravel()
        return pd.DataFrame(columns)

    def value(self, assignment: Mapping[Any, Any]) -> float:
        """The number at one joint state (scale included), states named."""
        missing = [v for v in self.variables if v not in assignment]
        if missing:
            msg = f"the assignment gives no state of {missing}"
            raise ValueError(msg)
        index = tuple(self._state(v, assignment[v]) for v in self.variables)
        return float(self.values[index] * np.exp(self.log_scale))

    def _state(self, var: Any, state: Any) -> int:
        names = self.states[var]
        at = state_index(names, state)  # by name, else by canonical key (networks.states)
        if at < 0:
            msg = f"{state!r} is no state of {var!r} (states: {list(names)})"
            raise ValueError(msg)
        return at

    def argmax(self) -> dict[Any, str]:
        """The joint state of the largest value (the first in C order among equal ones)."""
        at = np.unravel_index(int(np.argmax(self.values)), self.values.shape)
        return {v: self.states[v][int(i)] for v, i in zip(self.variables, at, strict=True)}

    # ----------------------------------------------------------------------- operations
    def __mul__(self, other: Factor) -> Factor:
        return product([self, other])

    def marginalize(self, variables: Iterable[Any]) -> Factor:
        """Sum out ``variables``."""
        return self._reduce_axes(variables, np.sum)

    def maximize(self, variables: Iterable[Any]) -> Factor:
        """Max out ``variables`` (max-product)."""
        return self._reduce_axes(variables, np.max)

    def _reduce_axes(self, variables: Iterable[Any], how) -> Factor:
        gone = set(variables)
        unknown = gone - set(self.variables)
        if unknown:
            names = sorted(map(str, unknown))
            msg = f"variables {names} are not in the factor {list(self.variables)}"
            raise ValueError(msg)
        axes = tuple(i for i, v in enumerate(self.variables) if v in gone)
        keep = [v for v in self.variables if v not in gone]
        return Factor._trusted(keep, how(self.values, axis=axes), self.states, self.log_scale)

    def reduce(self, evidence: Mapping[Any, Any]) -> Factor:
        """Fix the variables of ``evidence`` (state names) that the factor has; others are
        ignored."""
        index, keep = [], []
        for v in self.variables:
            if v in evidence:
                index.append(self._state(v, evidence[v]))
            else:
                index.append(slice(None))
                keep.append(v)
        return Factor._trusted(keep, self.values[tuple(index)], self.states, self.log_scale)

    def normalize(self) -> Factor:
        """Scaled to sum to 1 (``log_scale`` 0); a factor of sum 0 cannot be."""
        total = self.values.sum()
        if not total > 0:
            msg = "the factor sums to 0 and cannot be normalised (evidence of probability zero?)"
            raise ValueError(msg)
        return Factor._trusted(self.variables, self.values / total, self.states)

    def rescaled(self) -> Factor:
        """The same numbers, the table divided by its largest entry (kept in ``log_scale``)."""
        top = float(self.values.max()) if self.values.size else 0.0
        if not top > 0:
            return self
        return Factor._trusted(
            self.variables, self.values / top, self.states, self.log_scale + np.log(top)
        )

    @property
    def log_total(self) -> float:
        """The log of the sum of the numbers (``-inf`` for 0)."""
        total = float(self.values.sum())
        return np.log(total) + self.log_scale if total > 0 else -np.inf


def product(
    factors: Sequence[Factor],
    keep: Iterable[Any] | None = None,
    *,
    max_cells: int = DEFAULT_MAX_CELLS,
) -> Factor:
    """The product of ``factors``, summed over every variable not in ``keep`` (default: keep
    all), in one ``einsum`` call.

    The product runs over every joint state of the factors' variables: more than
    ``max_cells`` of them raise :class:`InferenceTooLarge` before anything is computed.

    Examples
    --------
    >>> s = {"a": ["0", "1"], "b": ["0", "1"]}
    >>> f, g = Factor(["a"], [0.5, 0.5], s), Factor(["a", "b"], [[1.0, 0.0], [0.3, 0.7]], s)
    >>> product([f, g], keep=["b"]).values.tolist()
    [0.65, 0.35]
    """
    if not factors:
        msg = "product of no factors"
        raise ValueError(msg)
    order: dict[Any, int] = {}
    states: dict[Any, tuple[str, ...]] = {}
    ordered = []
    for f in factors:
        for axis, v in enumerate(f.variables):
            if v in states and states[v] != f.states[v]:  # the same states in another order
                values = in_state_order(f.values, axis, v, f.states[v], states[v])
                f = Factor._trusted(f.variables, values, {**f.states, v: states[v]}, f.log_scale)
            states[v] = f.states[v]
            order.setdefault(v, len(order))
        ordered.append(f)
    factors = ordered
    out_vars = list(order) if keep is None else [v for v in order if v in set(keep)]
    cells = table_cells(len(states[v]) for v in order)
    if cells > max_cells:
        what = f"the product of {len(factors)} factors over {listed(order)}"
        raise too_large(what, cells, max_cells, "raise max_cells, or sum variables out sooner")
    if len(order) > MAX_AXES:
        what = f"the product of {len(factors)} factors over {listed(order)}"
        raise too_many_axes(what, len(order), "sum variables out sooner")
    scale = sum(f.log_scale for f in factors)
    if len(order) <= _EINSUM_INDICES:
        args: list[Any] = []
        for f in factors:
            args += [f.values, [order[v] for v in f.variables]]
        values = np.einsum(*args, [order[v] for v in out_vars], optimize=len(factors) > 2)
    else:  # broadcasting over the union of the variables
        union = list(order)
        values = np.ones((1,) * len(union))
        for f in factors:
            perm = sorted(range(len(f.variables)), key=lambda i: order[f.variables[i]])
            moved = np.transpose(f.values, perm)
            shape = [1] * len(union)
            for i in perm:
                shape[order[f.variables[i]]] = f.values.shape[i]
            values = values * moved.reshape(shape)
        gone = tuple(i for i, v in enumerate(union) if v not in set(out_vars))
        values = values.sum(axis=gone)
    return Factor._trusted(out_vars, np.asarray(values, dtype=np.float64), states, scale)


def in_state_order(
    table: np.ndarray, axis: int, variable: Any, have: Sequence[str], want: Sequence[str] | None
) -> np.ndarray:
    """``table`` with the states of ``axis`` (``variable``'s, named ``have``) in the order
    ``want`` (the same names; None: as they are): how a table is read by state name, never by
    position. ValueError naming the variable and both lists when the names differ."""
    have = tuple(have)
    want = have if want is None else tuple(want)
    if want == have:
        return table
    if len(want) != len(have) or set(want) != set(have):
        msg = (
            f"variable {variable!r} has the states {list(have)} in one table and {list(want)} "
            "in the other: tables are matched by state name, and these names differ"
        )
        raise ValueError(msg)
    return np.take(table, [have.index(s) for s in want], axis=axis)


class CPD:
    """A node's conditional probability table with its states named, ``P(variable |
    parents)``: what :meth:`BayesianNetwork.cpd <bayeskit.networks.BayesianNetwork.cpd>` gives
    (as pgmpy's ``TabularCPD``, pyAgrum's ``bn.cpt``). It prints as a table of one row per
    configuration of the parents (C order) and one column per state of the node, in text and
    in HTML; :meth:`to_frame` is that table as a DataFrame, :meth:`to_factor` the
    :class:`Factor`, and ``np.asarray(cpd)`` (or ``values``) the array of
    :meth:`BayesianNetwork.cpt <bayeskit.networks.BayesianNetwork.cpt>`.

    Attributes
    ----------
    variable : hashable
        The node.
    parents : tuple
        Its parents, in the order of the table's axes.
    values : ndarray
        The table, shape ``(*parents' cardinalities, cardinality)``, read-only.
    states : dict
        The state names of the node and of each parent.

    Examples
    --------
    >>> cpd = CPD("wet", ["rain"], [[0.9, 0.1], [0.2, 0.8]],
    ...           {"rain": ["yes", "no"], "wet": ["yes", "no"]})
    >>> print(cpd)
               wet
    rain  yes   no
    yes   0.9  0.1
    no    0.2  0.8
    >>> cpd.to_frame().loc["no", "yes"]
    np.float64(0.2)
    """

    __slots__ = ("parents", "states", "values", "variable")

    def __init__(
        self,
        variable: Any,
        parents: Sequence[Any],
        values: Any,
        states: Mapping[Any, Sequence[Any]],
    ):
        parents = tuple(parents)
        family = (*parents, variable)
        arr = np.asarray(values, dtype=np.float64)
        shape = tuple(len(states[v]) for v in family)
        if arr.shape != shape:
            msg = f"the CPT of {variable!r} has shape {arr.shape}, expected {shape}"
            raise ValueError(msg)
        if arr.flags.writeable:
            arr = arr.copy()
            arr.setflags(write=False)
        self.variable, self.parents, self.values = variable, parents, arr
        self.states = {v: state_names(f"variable {v!r}", states[v]) for v in family}

    @property
    def cardinality(self) -> int:
        """The node's number of states."""
        return len(self.states[self.variable])

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        out = np.asarray(self.values, dtype=dtype)
        return out.copy() if copy else out

    def to_frame(self) -> pd.DataFrame:
        """The table: a row per configuration of the parents (an Index named by the parent, a
        MultiIndex for several, one unnamed row for none), a column per state of the node
        (the columns named by it).

        Examples
        --------
        >>> CPD("a", [], [0.3, 0.7], {"a": ["x", "y"]}).to_frame()
        a    x    y
        0  0.3  0.7
        """
        k = self.cardinality
        columns = pd.Index(list(self.states[self.variable]), dtype=object, name=self.variable)
        if not self.parents:
            index: Any = pd.RangeIndex(1)
        elif len(self.parents) == 1:
            p = self.parents[0]
            index = pd.Index(list(self.states[p]), dtype=object, name=p)
        else:
            index = _joint_index(self.parents, self.states)
        return pd.DataFrame(self.values.reshape(-1, k), index=index, columns=columns)

    def aligned(self, parents: Sequence[Any], states: Mapping[Any, Sequence[str]]) -> np.ndarray:
        """The table read by name in another order: its axes ``(*parents, variable)`` and
        each axis's states in the order ``states`` gives them (a variable it does not name
        keeps its order). How a CPT of one network is taken into another whose DAG lists the
        parents in another order, or whose nodes list their states in another order: by
        name, never by position. ValueError naming the variable when the parents differ as a
        set, or a variable's state names do.

        Examples
        --------
        >>> cpd = CPD("c", ["a", "b"], [[[1.0, 0.0], [0.5, 0.5]], [[0.2, 0.8], [0.0, 1.0]]],
        ...           {"a": ["a0", "a1"], "b": ["b0", "b1"], "c": ["c0", "c1"]})
        >>> cpd.aligned(["b", "a"], {"c": ["c1", "c0"]})[1, 0].tolist()  # b1, a0: c1, c0
        [0.5, 0.5]
        >>> cpd.aligned(["b", "a"], {"c": ["c1", "c0"]})[0, 1].tolist()  # b0, a1
        [0.8, 0.2]
        """
        parents = tuple(parents)
        if len(parents) != len(self.parents) or set(parents) != set(self.parents):
            msg = (
                f"node {self.variable!r} has parents {list(self.parents)} here and "
                f"{list(parents)} there: the tables are not of one family"
            )
            raise ValueError(msg)
        family = (*parents, self.variable)
        table = np.transpose(self.values, [*(self.parents.index(p) for p in parents), len(parents)])
        for axis, v in enumerate(family):
            table = in_state_order(table, axis, v, self.states[v], states.get(v))
        return table

    def to_factor(self) -> Factor:
        """The table as a :class:`Factor` over the parents and the node."""
        return Factor([*self.parents, self.variable], self.values, self.states)

    def __repr__(self) -> str:
        return self._grid().text()

    def _repr_html_(self) -> str:
        return self._grid().html()

    def _grid(self) -> _Grid:
        k = self.cardinality
        table = self.values.reshape(-1, k)
        n = table.shape[0]
        at, gap = _shown(n)
        cols, col_gap = _shown(k, _column_limits())
        numbers = _numbers(table[np.ix_(at, cols)])
        width = len(cols)
        states = [self.states[self.variable][c] for c in cols]
        if col_gap is not None:
            states.insert(col_gap, "...")
        index = np.unravel_index(at, table.shape[:1] if not self.parents else
                                 self.values.shape[:-1])  # fmt: skip
        names = [np.asarray(self.states[p], dtype=object)[i]
                 for p, i in zip(self.parents, index, strict=False)]  # fmt: skip
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
        return _Grid([str(p) for p in self.parents], states, rows, over=str(self.variable),
                     note=note)  # fmt: skip


class Marginals(dict):
    """One-variable posteriors, node -> :class:`Factor`, as a dict; it prints as their tables
    one after the other (text and HTML), and :meth:`to_frame` gives them as one long frame.
    What ``VariableElimination.query(..., joint=False)``, ``JunctionTree.calibrate``, the
    samplers and ``GibbsResult.marginals`` return."""

    def to_frame(self) -> pd.DataFrame:
        """One row per node and state: the columns ``node``, ``state``, ``probability``.

        Examples
        --------
        >>> m = Marginals(rain=Factor(["rain"], [0.2, 0.8], {"rain": ["yes", "no"]}))
        >>> m.to_frame()
           node state  probability
        0  rain   yes          0.2
        1  rain    no          0.8
        """
        rows = {"node": [], "state": [], "probability": []}
        for node, factor in self.items():
            series = factor.to_pandas()
            rows["node"] += [node] * len(series)
            rows["state"] += [str(s) for s in series.index]
            rows["probability"] += series.tolist()
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        if not self:
            return "Marginals({})"
        return "\n\n".join(repr(f) for f in self.values())

    def _repr_html_(self) -> str:
        blocks = "".join(
            f'<div style="margin-right: 2em">{f._repr_html_()}</div>' for f in self.values()
        )
        return f'<div style="display: flex; flex-wrap: wrap">{blocks}</div>'


# --------------------------------------------------------------------------- display
# Factors, CPDs and the dicts of marginals print as tables with state names, as pandas frames
# do: pandas' display options say how many rows (``display.max_rows``, ``display.min_rows``) and
# digits (``display.precision``) to show, and a longer table shows its first and last rows with
# a note of how many there are. Only the rows shown are labelled, so a factor of millions of
# entries prints at once.


def _row_limits() -> tuple[int, int] | None:
    """(most rows shown whole, rows shown of a longer table); None: no limit (pandas'
    ``display.max_rows`` None)."""
    most = pd.get_option("display.max_rows")
    if most is None:
        return None
    most = int(most) or 60  # 0: pandas' "fit the terminal"; a fixed 60 here
    fewer = pd.get_option("display.min_rows")
    return most, min(most, int(fewer) if fewer else most)


def _shown(n: int, limits: tuple[int, int] | None = None) -> tuple[np.ndarray, int | None]:
    """The rows of ``n`` to show and where the gap goes (None: all shown)."""
    limits = _row_limits() if limits is None else limits
    if limits is None or n <= limits[0]:
        return np.arange(n), None
    head = (limits[1] + 1) // 2
    tail = limits[1] - head
    return np.concatenate([np.arange(head), np.arange(n - tail, n)]), head


def _numbers(values: np.ndarray) -> list[str]:
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
class _Grid:
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
        for row in cells:
            widths = [max(w, len(c)) for w, c in zip(widths, row, strict=True)]
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


def _joint_index(variables: Sequence[Any], states: Mapping[Any, Sequence[str]]) -> pd.MultiIndex:
    """The joint states of ``variables`` in C order, a MultiIndex whose levels keep the states'
    order (so ``unstack`` and sorting follow it, not the alphabet)."""
    shape = tuple(len(states[v]) for v in variables)
    codes = np.indices(shape).reshape(len(shape), -1)
    levels = [pd.Index(list(states[v]), dtype=object) for v in variables]
    return pd.MultiIndex(levels=levels, codes=list(codes), names=list(variables))


def _column_limits() -> tuple[int, int] | None:
    """Columns of states shown whole and shown of more: pandas' ``display.max_columns`` (0,
    "fit the terminal" there, is 10 here)."""
    most = pd.get_option("display.max_columns")
    if most is None:
        return None
    most = int(most) or 10
    return most, most
