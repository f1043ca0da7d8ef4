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

A product whose table would exceed its ``max_cells`` (by default ``2**27``, 1 GiB of float64)
raises :class:`~bayeskit.factors.limits.InferenceTooLarge` before anything is allocated.

Factors, a node's labelled CPT (:class:`~bayeskit.factors.cpd.CPD`) and the dict of
one-variable posteriors (:class:`Marginals`) print as tables with the states named, in text and
in HTML (Jupyter), and turn into pandas objects labelled by state names (``to_pandas``,
``to_frame``). Long tables show their first and last rows, as pandas does (its
``display.max_rows``, ``display.min_rows`` and ``display.precision`` options apply:
:mod:`bayeskit.factors.display`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.factors._tables import factor_grid, kept_variables, product_values, states_index
from bayeskit.factors.display import Grid
from bayeskit.factors.limits import (
    DEFAULT_MAX_CELLS,
    MAX_AXES,
    listed,
    table_cells,
    too_large,
    too_many_axes,
)
from bayeskit.factors.states import state_index, state_names

__all__ = ["Factor", "Marginals", "in_state_order", "product"]


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
            names[var] = state_names(f"variable {var!r}", states[var])  # factors.states
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

    def _grid(self) -> Grid:
        return factor_grid(
            self.variables, self.values, self.states, self.log_scale, self._value_name()
        )

    def to_pandas(self, name: str | None = None) -> pd.Series:
        """The values (scale included) as a Series indexed by the states.

        Parameters
        ----------
        name : str, optional
            The Series' name; by default ``"probability"`` for a factor that sums to 1, else
            ``"value"``.

        Returns
        -------
        pandas.Series
            ``values * exp(log_scale)`` by joint state: indexed by the state names (an Index
            named by the variable) for one variable, by a MultiIndex of the joint states in C
            order (the last variable varying fastest) for several, by ``[0]`` for none.

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
        index = states_index(self.variables, self.states)
        return pd.Series(values, index=index, name=self._value_name() if name is None else name)

    def to_frame(self, name: str = "probability") -> pd.DataFrame:
        """One row per joint state: the long form of :meth:`to_pandas`.

        Parameters
        ----------
        name : str, default="probability"
            The name of the values' column.

        Returns
        -------
        pandas.DataFrame
            ``prod(cardinalities)`` rows, the joint states in C order (the last variable varying
            fastest), on a RangeIndex; a column per variable (its state names), then ``name``
            (the value, ``values * exp(log_scale)``).

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
        """The number at one joint state (scale included), the states named.

        Parameters
        ----------
        assignment : mapping variable -> state
            A state of every variable of the factor (others are ignored), by name; a value whose
            name matches a state name (``1`` for ``"1"``) is that state.

        Returns
        -------
        float
            ``values[index] * exp(log_scale)``.

        Raises
        ------
        ValueError
            ``assignment`` leaves out a variable of the factor, or names no state of it.

        Examples
        --------
        >>> g = Factor(["rain", "wet"], [[0.18, 0.02], [0.16, 0.64]],
        ...            {"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> g.value({"rain": "no", "wet": "yes"})
        0.16
        """
        missing = [v for v in self.variables if v not in assignment]
        if missing:
            msg = f"the assignment gives no state of {missing}"
            raise ValueError(msg)
        index = tuple(self._state(v, assignment[v]) for v in self.variables)
        return float(self.values[index] * np.exp(self.log_scale))

    def _state(self, var: Any, state: Any) -> int:
        names = self.states[var]
        at = state_index(names, state)  # by name, else by canonical key (factors.states)
        if at < 0:
            msg = f"{state!r} is no state of {var!r} (states: {list(names)})"
            raise ValueError(msg)
        return at

    def argmax(self) -> dict[Any, str]:
        """The joint state of the largest value (the first in C order among equal ones).

        Returns
        -------
        dict
            Variable -> state name, in the factor's variable order (empty for a factor of no
            variable).

        Examples
        --------
        >>> g = Factor(["rain", "wet"], [[0.18, 0.02], [0.16, 0.64]],
        ...            {"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> g.argmax()
        {'rain': 'no', 'wet': 'no'}
        """
        at = np.unravel_index(int(np.argmax(self.values)), self.values.shape)
        return {v: self.states[v][int(i)] for v, i in zip(self.variables, at, strict=True)}

    # ----------------------------------------------------------------------- operations
    def __mul__(self, other: Factor) -> Factor:
        return product([self, other])

    def marginalize(self, variables: Iterable[Any]) -> Factor:
        """Sum out ``variables``: the factor over the others.

        Parameters
        ----------
        variables : iterable of variables
            The variables to sum over, each a variable of the factor.

        Returns
        -------
        Factor
            Over the remaining variables, in their order here, with the same ``log_scale``.

        Raises
        ------
        ValueError
            A variable of ``variables`` is not in the factor.

        Examples
        --------
        >>> g = Factor(["rain", "wet"], [[0.18, 0.02], [0.16, 0.64]],
        ...            {"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> g.marginalize(["rain"]).values.tolist()  # P(wet)
        [0.34, 0.66]
        """
        return self._reduce_axes(variables, np.sum)

    def maximize(self, variables: Iterable[Any]) -> Factor:
        """Max out ``variables`` (max-product): each entry the largest over their states.

        Parameters
        ----------
        variables : iterable of variables
            The variables to maximise over, each a variable of the factor.

        Returns
        -------
        Factor
            Over the remaining variables, in their order here, with the same ``log_scale``.

        Raises
        ------
        ValueError
            A variable of ``variables`` is not in the factor.

        Examples
        --------
        >>> g = Factor(["rain", "wet"], [[0.18, 0.02], [0.16, 0.64]],
        ...            {"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> g.maximize(["wet"]).values.tolist()  # per rain state, the likeliest wet state's
        [0.18, 0.64]
        """
        return self._reduce_axes(variables, np.max)

    def _reduce_axes(self, variables: Iterable[Any], how) -> Factor:
        axes, keep = kept_variables(self.variables, variables)
        return Factor._trusted(keep, how(self.values, axis=axes), self.states, self.log_scale)

    def reduce(self, evidence: Mapping[Any, Any]) -> Factor:
        """Fix the variables of ``evidence`` that the factor has (conditioning by slicing).

        Parameters
        ----------
        evidence : mapping variable -> state
            Observed states, by name; variables the factor does not have are ignored.

        Returns
        -------
        Factor
            Over the factor's other variables (their order kept): the slice of the observed
            states, not renormalised, with the same ``log_scale``.

        Raises
        ------
        ValueError
            A state of ``evidence`` is not a state of its variable.

        Examples
        --------
        >>> g = Factor(["rain", "wet"], [[0.18, 0.02], [0.16, 0.64]],
        ...            {"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> w = g.reduce({"rain": "no", "season": "summer"})
        >>> w.variables, w.values.tolist()
        (('wet',), [0.16, 0.64])
        """
        index: list[int | slice]
        index, keep = [], []
        for v in self.variables:
            if v in evidence:
                index.append(self._state(v, evidence[v]))
            else:
                index.append(slice(None))
                keep.append(v)
        return Factor._trusted(keep, self.values[tuple(index)], self.states, self.log_scale)

    def normalize(self) -> Factor:
        """Scaled to sum to 1 (a distribution over the factor's variables).

        Returns
        -------
        Factor
            ``values / values.sum()``, over the same variables, with ``log_scale`` 0.

        Raises
        ------
        ValueError
            The factor sums to 0 (such as after evidence of probability zero).

        Examples
        --------
        >>> Factor(["rain"], [2.0, 6.0], {"rain": ["yes", "no"]}).normalize().values.tolist()
        [0.25, 0.75]
        """
        total = self.values.sum()
        if not total > 0:
            msg = "the factor sums to 0 and cannot be normalised (evidence of probability zero?)"
            raise ValueError(msg)
        return Factor._trusted(self.variables, self.values / total, self.states)

    def rescaled(self) -> Factor:
        """The same numbers, the table divided by its largest entry (kept in ``log_scale``).

        Returns
        -------
        Factor
            ``values / m`` with ``log_scale + log(m)``, ``m`` the largest entry (so its largest
            entry is 1); the factor itself when it is empty or all 0.

        Examples
        --------
        >>> f = Factor(["rain"], [0.002, 0.008], {"rain": ["yes", "no"]}).rescaled()
        >>> f.values.tolist(), round(f.value({"rain": "no"}), 6)
        ([0.25, 1.0], 0.008)
        """
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

    Parameters
    ----------
    factors : sequence of Factor
    keep : iterable of variables, optional
        The variables of the result (in the order the factors first name them); the others
        are summed out.
    max_cells : int, default=DEFAULT_MAX_CELLS
        The most joint states the product may run over.

    Returns
    -------
    Factor
        Over the variables kept; a variable's states in its first factor's order.

    Raises
    ------
    InferenceTooLarge
        The product would run over more than ``max_cells`` joint states, or more axes than
        numpy's arrays have.
    ValueError
        No factors, or a variable whose state names differ between factors.

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
    values = product_values([(f.values, f.variables) for f in factors], order, out_vars)
    return Factor._trusted(out_vars, values, states, scale)


def in_state_order(
    table: np.ndarray, axis: int, variable: Any, have: Sequence[str], want: Sequence[str] | None
) -> np.ndarray:
    """``table`` with the states of ``axis`` (``variable``'s, named ``have``) in the order
    ``want`` (the same names; None: as they are): how a table is read by state name, never by
    position. ValueError naming the variable and both lists when the names differ.

    Parameters
    ----------
    table : ndarray
    axis : int
        The axis of ``variable``'s states.
    variable : node
        Its name, for the message.
    have, want : sequence of str
        The states' names along ``axis``, and in the order wanted (None: ``have``).

    Returns
    -------
    ndarray
        ``table`` with that axis reordered (``table`` itself when the orders agree).

    Raises
    ------
    ValueError
        ``have`` and ``want`` are not the same names.

    Examples
    --------
    >>> table = np.array([[0.9, 0.1], [0.2, 0.8]])  # P(wet | rain), wet: yes, no
    >>> in_state_order(table, 1, "wet", ["yes", "no"], ["no", "yes"]).tolist()
    [[0.1, 0.9], [0.8, 0.2]]
    """
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


class Marginals(dict):
    """One-variable posteriors, node -> :class:`Factor`, as a dict; it prints as their tables
    one after the other (text and HTML), and :meth:`to_frame` gives them as one long frame.
    What ``VariableElimination.query(..., joint=False)``, ``JunctionTree.calibrate``, the
    samplers and ``GibbsResult.marginals`` return.

    Examples
    --------
    >>> from bayeskit.networks import DAG, BayesianNetwork, VariableElimination
    >>> yn = ["yes", "no"]
    >>> net = BayesianNetwork(DAG(edges=[("rain", "wet")]),
    ...     {"rain": [0.2, 0.8], "wet": [[0.9, 0.1], [0.2, 0.8]]},
    ...     states={"rain": yn, "wet": yn})
    >>> posteriors = VariableElimination(net).query(["rain"], {"wet": "yes"}, joint=False)
    >>> posteriors.to_frame().round(4)
       node state  probability
    0  rain   yes       0.5294
    1  rain    no       0.4706
    """

    def to_frame(self) -> pd.DataFrame:
        """One row per node and state: the columns ``node``, ``state``, ``probability``.

        Returns
        -------
        pandas.DataFrame
            The nodes in the dict's order, each node's states in its factor's order, on a
            RangeIndex; ``state`` holds the state names as strings.

        Examples
        --------
        >>> m = Marginals(rain=Factor(["rain"], [0.2, 0.8], {"rain": ["yes", "no"]}))
        >>> m.to_frame()
           node state  probability
        0  rain   yes          0.2
        1  rain    no          0.8
        """
        rows: dict[str, list[Any]] = {"node": [], "state": [], "probability": []}
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
