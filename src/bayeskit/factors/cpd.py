"""A node's conditional distribution, ``P(variable | parents)``: the protocol every kind of node
follows, and the tabular CPD of discrete nodes.

A Bayesian network is one conditional distribution per node (Zhou, *Machine Learning*, 7.5,
Eq. 7.26). What a node's distribution is made of differs by kind (a table of probabilities for
a discrete node; regression coefficients and a variance for a linear-Gaussian one), but what
learning, inference and sampling ask of it does not. :class:`ConditionalDistribution` names
those questions, so code that does not care about the node's kind asks only them:

``variable``, ``parents``
    The node and its parents, in the order every array below lists the parents.
``statistic(child, parents, weights=None)``
    The sufficient statistic of the family from rows of data: ``child`` of shape ``(n_rows,)``
    and ``parents`` of shape ``(n_rows, len(parents))``, state codes for discrete variables
    (-1: missing) and values for continuous ones (NaN: missing); rows with a missing entry are
    left out. Statistics are mergeable: the statistic of two pieces of data is the sum of
    theirs, so chunks, partitions and EM's expected counts all fill the same object.
``estimate(statistic, **options)``
    A new distribution of the same kind, over the same family, estimated from a statistic
    (the options name the estimator and its prior).
``log_density(child, parents)``
    ``log P(child | parents)`` of each row, shape ``(n_rows,)``, vectorised over the rows
    (complete rows; the arrays as ``statistic`` takes them): summed over the nodes, a row's
    log-likelihood.
``sample(parents, rng)``
    One draw of the node for each row of parent values, shape ``(n_rows,)``: forward
    sampling in topological order draws each node given its parents' draws.
``to_factor()``
    The distribution as a factor over ``(*parents, variable)``, what exact inference
    multiplies and sums.

:class:`CPD`, the tabular distribution of a discrete node, answers them with counts: its
statistic is the family's count table (:func:`bayeskit.stats.count_table`), its estimate an
estimator of :mod:`bayeskit.estimate` over those counts (Eqs. 7.19-7.20 and their relatives),
its log density and sampler read the table's row of each parent configuration, and its factor
form is a :class:`~bayeskit.factors.Factor`. A linear-Gaussian distribution would answer with
moments: its statistic the scatter moments of the family (:class:`bayeskit.stats.ScatterMoments`
over the parents and the child), its estimate the least-squares regression of the child on the
parents and the residual variance, its log density the normal density around that regression's
mean, its sampler that mean plus normal noise, and its factor form a canonical (Gaussian)
factor instead of a table. Inference and learning code that only asks these questions does not
change when such a node is added.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Protocol, runtime_checkable

import numpy as np
import pandas as pd

from bayeskit.estimate import lidstone, lidstone_equivalent
from bayeskit.factors.display import Grid, column_limits, joint_index, number_texts, shown_at
from bayeskit.factors.factor import Factor, in_state_order
from bayeskit.factors.states import state_names
from bayeskit.stats import count_table

__all__ = ["CPD", "ConditionalDistribution", "aligned_cpts", "family_table"]


@runtime_checkable
class ConditionalDistribution(Protocol):
    """What a node's conditional distribution ``P(variable | parents)`` provides, whatever its
    kind (the module's text says what each member means).

    Examples
    --------
    Code written against the protocol refits any kind of node from its family's data; here a
    :class:`CPD`, the tabular kind:

    >>> def refit(node: ConditionalDistribution, child, parents) -> ConditionalDistribution:
    ...     return node.estimate(node.statistic(child, parents))
    >>> cpd = CPD("wet", ["rain"], [[0.5, 0.5], [0.5, 0.5]],
    ...           {"rain": ["yes", "no"], "wet": ["yes", "no"]})
    >>> refit(cpd, np.array([0, 0, 1, 1]), np.array([[0], [0], [0], [1]])).values.round(3).tolist()
    [[0.667, 0.333], [0.0, 1.0]]
    """

    variable: Any
    parents: tuple

    def statistic(self, child: np.ndarray, parents: np.ndarray, weights: Any = None) -> Any:
        """The family's sufficient statistic from rows of data (mergeable with ``+``)."""
        ...

    def estimate(self, statistic: Any, **options: Any) -> ConditionalDistribution:
        """A distribution of the same kind and family estimated from ``statistic``."""
        ...

    def log_density(self, child: np.ndarray, parents: np.ndarray) -> np.ndarray:
        """``log P(child | parents)`` of each row."""
        ...

    def sample(self, parents: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One draw of the variable for each row of parent values."""
        ...

    def to_factor(self) -> Any:
        """The distribution as a factor over ``(*parents, variable)``."""
        ...


class CPD:
    """A node's conditional probability table with its states named, ``P(variable |
    parents)``: what :meth:`BayesianNetwork.cpd <bayeskit.networks.BayesianNetwork.cpd>` gives
    (as pgmpy's ``TabularCPD``, pyAgrum's ``bn.cpt``). It prints as a table of one row per
    configuration of the parents (C order) and one column per state of the node, in text and
    in HTML; :meth:`to_frame` is that table as a DataFrame, :meth:`to_factor` the
    :class:`Factor`, and ``np.asarray(cpd)`` (or ``values``) the array of
    :meth:`BayesianNetwork.cpt <bayeskit.networks.BayesianNetwork.cpt>`. It is the tabular
    :class:`ConditionalDistribution`: :meth:`statistic` counts a family, :meth:`estimate`
    turns counts into a CPD, :meth:`log_density` and :meth:`sample` read the table.

    Parameters
    ----------
    variable : hashable
        The node.
    parents : sequence
        Its parents, in the order of the table's axes.
    values : array-like
        The table, shape ``(*parents' cardinalities, cardinality)`` (copied unless it is a
        read-only array already); ValueError for another shape.
    states : mapping
        The state names of the node and of each parent.

    Attributes
    ----------
    variable : hashable
        The node.
    parents : tuple
        Its parents, in the order of the table's axes.
    values : ndarray
        The table, shape ``(*parents' cardinalities, cardinality)``, read-only.
    states : mapping
        The state names of the node and of each parent (read-only).

    A CPD does not change once made (its attributes cannot be set, as its table cannot be
    written), so a network hands out the CPD it holds for a node, not a copy.

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
    variable: Any
    parents: tuple
    values: np.ndarray
    states: Mapping[Any, tuple[str, ...]]

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
        names = {v: state_names(f"variable {v!r}", states[v]) for v in family}
        self._set(variable, parents, arr, names)

    @classmethod
    def _trusted(
        cls, variable: Any, parents: tuple, values: np.ndarray, states: dict[Any, tuple[str, ...]]
    ) -> CPD:
        """A CPD of a table already checked (float64, read-only, of the family's shape) and
        state names already made by :func:`~bayeskit.factors.states.state_names`: no checks,
        no copies (what a network makes of the tables its constructor checked)."""
        cpd = cls.__new__(cls)
        cpd._set(variable, parents, values, states)
        return cpd

    def _set(self, variable: Any, parents: tuple, values: np.ndarray, states: dict) -> None:
        set_slot = object.__setattr__
        set_slot(self, "variable", variable)
        set_slot(self, "parents", parents)
        set_slot(self, "values", values)
        set_slot(self, "states", MappingProxyType(states))

    def __setattr__(self, name: str, value: Any) -> None:
        msg = f"a CPD cannot be changed: its {name!r} is read-only; make a new CPD"
        raise AttributeError(msg)

    def __delattr__(self, name: str) -> None:
        self.__setattr__(name, None)

    def __reduce__(self) -> tuple:
        return (CPD, (self.variable, self.parents, self.values, dict(self.states)))

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
            index = joint_index(self.parents, self.states)
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

    # ------------------------------------------------------------ the distribution protocol
    def _configurations(self, parents: np.ndarray, n_rows: int) -> np.ndarray:
        """Each row's parent configuration (C order of the parents' states), -1 where a parent
        is missing."""
        parents = np.asarray(parents, dtype=np.int64).reshape(n_rows, len(self.parents))
        shape = self.values.shape[:-1]
        if not self.parents:
            return np.zeros(n_rows, dtype=np.int64)
        ok = (parents >= 0).all(axis=1)
        config = np.full(n_rows, -1, dtype=np.int64)
        config[ok] = np.ravel_multi_index(tuple(parents[ok].T), shape)
        return config

    def statistic(self, child: np.ndarray, parents: np.ndarray, weights: Any = None) -> np.ndarray:
        """The family's counts (weighted when ``weights`` are given), shaped as the table:
        ``(*parents' cardinalities, cardinality)``. ``child``: the node's state codes, shape
        ``(n_rows,)``; ``parents``: the parents' codes, ``(n_rows, len(parents))``; a row
        with a missing code (-1) is not counted.

        Examples
        --------
        >>> cpd = CPD("wet", ["rain"], [[0.9, 0.1], [0.2, 0.8]],
        ...           {"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> cpd.statistic(np.array([0, 0, 1, -1]), np.array([[0], [1], [1], [0]])).tolist()
        [[1.0, 0.0], [1.0, 1.0]]
        """
        child = np.asarray(child, dtype=np.int64).reshape(-1)
        n = len(child)
        config = self._configurations(parents, n)
        q = int(np.prod(self.values.shape[:-1], dtype=np.int64))
        w = None if weights is None else np.asarray(weights, dtype=np.float64)
        counts = count_table(np.zeros(n, dtype=np.int64), config, child, 1, q, self.cardinality, w)
        return counts.reshape(self.values.shape)

    def estimate(self, statistic: Any, *, estimator: str = "mle", alpha: float = 1.0) -> CPD:
        """A CPD of this family and these states from counts shaped as the table: the
        estimator of :mod:`bayeskit.estimate` called ``estimator`` (``"mle"``, ``"lidstone"``,
        ``"bdeu"``, ...) with its ``alpha``, each parent configuration's row normalised
        (Zhou, *Machine Learning*, Eqs. 7.19-7.20 for Laplace's), uniform where a
        configuration has nothing.

        Examples
        --------
        >>> cpd = CPD("a", [], [0.5, 0.5], {"a": ["x", "y"]})
        >>> cpd.estimate(np.array([3.0, 1.0])).values.tolist()
        [0.75, 0.25]
        >>> cpd.estimate(np.array([3.0, 1.0]), estimator="lidstone").values.round(3).tolist()
        [0.667, 0.333]
        """
        counts = np.asarray(statistic, dtype=np.float64)
        if counts.shape != self.values.shape:
            shape = self.values.shape
            msg = f"the counts of {self.variable!r} have shape {counts.shape}, expected {shape}"
            raise ValueError(msg)
        q = int(np.prod(counts.shape[:-1], dtype=np.int64))
        pseudo = lidstone_equivalent(estimator, alpha, self.cardinality, q)
        return CPD(self.variable, self.parents, np.exp(lidstone(counts, pseudo)), self.states)

    def log_density(self, child: np.ndarray, parents: np.ndarray) -> np.ndarray:
        """``log P(child | parents)`` of each row (complete rows of state codes, as
        :meth:`statistic` takes them); ``-inf`` where the table holds 0.

        Examples
        --------
        >>> cpd = CPD("wet", ["rain"], [[0.9, 0.1], [0.2, 0.8]],
        ...           {"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> np.exp(cpd.log_density(np.array([0, 1]), np.array([[0], [1]]))).round(2).tolist()
        [0.9, 0.8]
        """
        child = np.asarray(child, dtype=np.int64).reshape(-1)
        config = self._configurations(parents, len(child))
        with np.errstate(divide="ignore"):
            return np.log(self.values.reshape(-1, self.cardinality)[config, child])

    def sample(self, parents: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One state code of the node for each row of parent codes, drawn from the table's
        row of that parent configuration (inverse transform of one uniform per row).

        Examples
        --------
        >>> cpd = CPD("wet", ["rain"], [[1.0, 0.0], [0.0, 1.0]],
        ...           {"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> cpd.sample(np.array([[0], [1], [1]]), np.random.default_rng(0)).tolist()
        [0, 1, 1]
        """
        parents = np.asarray(parents, dtype=np.int64)
        n = parents.shape[0] if parents.ndim else 0
        config = self._configurations(parents, n)
        cumulative = np.cumsum(self.values.reshape(-1, self.cardinality)[config], axis=1)
        u = rng.random(n) * cumulative[:, -1]
        return np.minimum((cumulative <= u[:, None]).sum(axis=1), self.cardinality - 1)

    def to_factor(self) -> Factor:
        """The table as a :class:`Factor` over the parents and the node."""
        return Factor([*self.parents, self.variable], self.values, self.states)

    def __repr__(self) -> str:
        return self._grid().text()

    def _repr_html_(self) -> str:
        return self._grid().html()

    def _grid(self) -> Grid:
        k = self.cardinality
        table = self.values.reshape(-1, k)
        n = table.shape[0]
        at, gap = shown_at(n)
        cols, col_gap = shown_at(k, column_limits())
        numbers = number_texts(table[np.ix_(at, cols)])
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
        return Grid([str(p) for p in self.parents], states, rows, over=str(self.variable),
                     note=note)  # fmt: skip


def aligned_cpts(network: Any, dag: Any, states: Mapping, what: str) -> list[np.ndarray]:
    """``network``'s CPTs read by name into ``dag``'s parent order and ``states``' state order
    (:meth:`CPD.aligned`), one per node of ``dag`` in its order: how a table of one network is
    taken into another (a start, the other of a comparison), never by position. ``network``
    must have ``dag``'s nodes and edges (in any order) and each node's states (in any order);
    TypeError naming ``what`` for anything but a network (an object with a ``dag`` and a
    ``cpd`` per node), ValueError naming ``what`` and the node otherwise.

    Parameters
    ----------
    network : BayesianNetwork
        Where the tables come from.
    dag : DAG
        The structure they are read into.
    states : mapping node -> state names
        The state order wanted.
    what : str
        The argument's name, for a message.

    Returns
    -------
    list of ndarray
        One CPT per node of ``dag``, in its node order.

    Raises
    ------
    TypeError
        ``network`` is no network.
    ValueError
        Its DAG is another, or a node's states are other names.

    Examples
    --------
    >>> from bayeskit.networks import DAG, BayesianNetwork
    >>> net = BayesianNetwork(DAG(edges=[("rain", "wet")]),
    ...     {"rain": [0.2, 0.8], "wet": [[0.9, 0.1], [0.2, 0.8]]},
    ...     states={"rain": ["yes", "no"], "wet": ["yes", "no"]})
    >>> names = {"rain": ("no", "yes"), "wet": ("yes", "no")}
    >>> [t.tolist() for t in aligned_cpts(net, net.dag, names, "start")]
    [[0.8, 0.2], [[0.2, 0.8], [0.9, 0.1]]]
    """
    if not (hasattr(network, "dag") and callable(getattr(network, "cpd", None))):
        msg = f"{what} must be a BayesianNetwork, got {type(network).__name__}"
        raise TypeError(msg)
    if network.dag != dag:
        msg = f"{what} must be a network over the same DAG (the same nodes and edges)"
        raise ValueError(msg)
    try:
        return [network.cpd(n).aligned(dag.parents(n), states) for n in dag.nodes]
    except ValueError as exc:
        msg = f"{what}: {exc}"
        raise ValueError(msg) from None


def family_table(cpd: CPD, parents: Sequence[Any], states: Mapping) -> np.ndarray:
    """The table of ``cpd`` as its node's CPT in a network whose DAG gives the node ``parents``
    and whose variables have the state names ``states``: read by name (:meth:`CPD.aligned`),
    its axes in the order of ``parents`` and each axis's states in the order ``states`` gives
    them, in a new array. ValueError naming the node when the CPD's parents are others (as a
    set), or it names a variable's states otherwise than ``states`` does (in another order is
    fine).

    Examples
    --------
    >>> cpd = CPD("c", ["a", "b"], [[[1.0, 0.0], [0.5, 0.5]], [[0.2, 0.8], [0.0, 1.0]]],
    ...           {"a": ["a0", "a1"], "b": ["b0", "b1"], "c": ["c0", "c1"]})
    >>> names = {"a": ("a0", "a1"), "b": ("b0", "b1"), "c": ("c0", "c1")}
    >>> family_table(cpd, ["b", "a"], names)[0, 1].tolist()  # b0, a1
    [0.2, 0.8]
    >>> family_table(cpd, ["a"], names)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: node 'c': its CPD has the parents ['a', 'b'], the DAG gives it ['a']; ...
    """
    node, parents = cpd.variable, tuple(parents)
    if len(cpd.parents) != len(parents) or set(cpd.parents) != set(parents):
        msg = (
            f"node {node!r}: its CPD has the parents {list(cpd.parents)}, the DAG gives it "
            f"{list(parents)}; give the CPD of the DAG's family (its parents in any order)"
        )
        raise ValueError(msg)
    for v in (*parents, node):
        have, want = cpd.states[v], tuple(states[v])
        if len(have) != len(want) or set(have) != set(want):
            of = "the node" if v == node else f"its parent {v!r}"
            msg = (
                f"node {node!r}: its CPD names the states of {of} {list(have)}, and the network "
                f"{list(want)} (as states= names them, else as {v!r}'s own CPD does, else "
                "'0', '1', ...); a CPD is read by state name: give the same names (in any order)"
            )
            raise ValueError(msg)
    return np.array(cpd.aligned(parents, states), dtype=np.float64)
