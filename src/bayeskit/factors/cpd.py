"""A node's conditional distribution, ``P(variable | parents)``: the protocol every kind of node
follows, and the tabular CPD of discrete nodes.

A Bayesian network is one conditional distribution per node (Zhou, *Machine Learning*, 7.5,
Eq. 7.26). What a node's distribution is made of differs by kind (a table of probabilities for a
discrete node; regression coefficients and a variance for a linear-Gaussian one), but what
learning, inference and sampling ask of it does not. :class:`ConditionalDistribution` names
those questions, so code that does not care about the node's kind asks only them: the node and
its ``parents`` (in the order every array lists the parents); the family's sufficient statistic
from rows of data, ``statistic(child, parents, weights=None)``, mergeable (the statistic of two
pieces of data is the sum of theirs, so chunks, partitions and EM's expected counts all fill the
same object); ``estimate(statistic, **options)``, a new distribution of the same kind and
family; ``log_density(child, parents)``, each row's log density, summed over the nodes a row's
log-likelihood; ``sample(parents, rng)``, one draw per row of parent values, as forward sampling
asks; and ``to_factor()``, the factor over ``(*parents, variable)`` that exact inference
multiplies and sums. Each method of the protocol says more.

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
from bayeskit.factors._tables import (
    check_family,
    checked_table,
    configurations,
    cpd_grid,
    states_index,
)
from bayeskit.factors.display import Grid
from bayeskit.factors.factor import Factor, in_state_order
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
        """The family's sufficient statistic from rows of data (mergeable with ``+``).

        Parameters
        ----------
        child : ndarray of shape (n_rows,)
            The node's values: state codes for a discrete node (-1: missing), numbers for a
            continuous one (NaN: missing).
        parents : ndarray of shape (n_rows, len(parents))
            The parents' values, coded the same way, the columns in the order of ``parents``.
        weights : array-like of shape (n_rows,), optional
            Each row's weight (EM's expected counts); by default each row counts once.

        Returns
        -------
        object
            The statistic, of the kind's own type (a count table for a :class:`CPD`), rows with
            a missing value left out; two pieces of data's statistics add up to that of both.

        Examples
        --------
        >>> cpd = CPD("a", [], [0.5, 0.5], {"a": ["x", "y"]})
        >>> cpd.statistic(np.array([0, 1, 1]), np.zeros((3, 0))).tolist()
        [1.0, 2.0]
        """
        ...

    def estimate(self, statistic: Any, **options: Any) -> ConditionalDistribution:
        """A distribution of the same kind and family estimated from ``statistic``.

        Parameters
        ----------
        statistic : object
            What :meth:`statistic` returns (summed over pieces of data, or expected).
        **options
            The estimator and its prior (for a :class:`CPD`: ``estimator`` and ``alpha``).

        Returns
        -------
        ConditionalDistribution
            A new distribution; this one is left as it is.

        Examples
        --------
        >>> cpd = CPD("a", [], [0.5, 0.5], {"a": ["x", "y"]})
        >>> cpd.estimate(np.array([1.0, 3.0])).values.tolist()
        [0.25, 0.75]
        """
        ...

    def log_density(self, child: np.ndarray, parents: np.ndarray) -> np.ndarray:
        """``log P(child | parents)`` of each row: summed over the nodes, a row's log-likelihood.

        Parameters
        ----------
        child : ndarray of shape (n_rows,)
            The node's values, as :meth:`statistic` takes them (complete rows).
        parents : ndarray of shape (n_rows, len(parents))
            The parents' values, likewise.

        Returns
        -------
        ndarray of shape (n_rows,)
            The log density (log probability for a discrete node) of each row.

        Examples
        --------
        >>> cpd = CPD("a", [], [0.25, 0.75], {"a": ["x", "y"]})
        >>> np.exp(cpd.log_density(np.array([1, 0]), np.zeros((2, 0)))).tolist()
        [0.75, 0.25]
        """
        ...

    def sample(self, parents: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One draw of the variable for each row of parent values (forward sampling).

        Parameters
        ----------
        parents : ndarray of shape (n_rows, len(parents))
            The parents' values (their draws), as :meth:`statistic` takes them.
        rng : numpy.random.Generator
            The source of randomness.

        Returns
        -------
        ndarray of shape (n_rows,)
            The draws: state codes for a discrete node, values for a continuous one.

        Examples
        --------
        >>> cpd = CPD("a", [], [0.0, 1.0], {"a": ["x", "y"]})
        >>> cpd.sample(np.zeros((3, 0)), np.random.default_rng(0)).tolist()
        [1, 1, 1]
        """
        ...

    def to_factor(self) -> Any:
        """The distribution as a factor over ``(*parents, variable)``, for exact inference.

        Returns
        -------
        object
            A :class:`~bayeskit.factors.Factor` for a discrete node.

        Examples
        --------
        >>> CPD("a", [], [0.25, 0.75], {"a": ["x", "y"]}).to_factor().variables
        ('a',)
        """
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
        arr, names = checked_table(variable, parents, values, states)
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
        """The table as a DataFrame, one row per configuration of the parents.

        Returns
        -------
        pandas.DataFrame
            Shape ``(q, cardinality)``: indexed by the parent's states (an Index named by it),
            the parents' joint states in C order (a MultiIndex), or ``[0]`` for no parent; its
            columns the node's states, in order (named by the node).

        Examples
        --------
        >>> CPD("a", [], [0.3, 0.7], {"a": ["x", "y"]}).to_frame()
        a    x    y
        0  0.3  0.7
        """
        columns = pd.Index(list(self.states[self.variable]), dtype=object, name=self.variable)
        index = states_index(self.parents, self.states)
        return pd.DataFrame(self.values.reshape(-1, len(columns)), index=index, columns=columns)

    def aligned(self, parents: Sequence[Any], states: Mapping[Any, Sequence[str]]) -> np.ndarray:
        """The table read by name in another order of the parents and of the states.

        How a CPT of one network is taken into another whose DAG or states list them in another
        order: by name, never by position.

        Parameters
        ----------
        parents : sequence
            The CPD's parents (the same set) in the order wanted.
        states : mapping variable -> sequence of str
            State names in the order wanted, for any of the family's variables (the same names
            as the CPD's); a variable it does not name keeps its order.

        Returns
        -------
        ndarray
            The table with axes ``(*parents, variable)``, each axis's states in the order
            ``states`` gives: possibly a read-only view of the CPD's table (copy before writing).

        Raises
        ------
        ValueError
            ``parents`` is another set than the CPD's, or ``states`` names a variable's states
            otherwise than the CPD does (the message names the variable).

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
    def statistic(self, child: np.ndarray, parents: np.ndarray, weights: Any = None) -> np.ndarray:
        """The family's counts (weighted when ``weights`` are given), shaped as the table.

        Parameters
        ----------
        child : array-like of shape (n_rows,)
            The node's state codes (indices into its states; -1: missing).
        parents : array-like of shape (n_rows, len(parents))
            The parents' state codes, the columns in the order of ``parents``.
        weights : array-like of shape (n_rows,), optional
            Each row's weight; by default each row counts 1.

        Returns
        -------
        ndarray of float64
            Shape ``(*parents' cardinalities, cardinality)``: the (weighted) number of rows of
            each parent configuration and state. A row with a missing code is not counted.

        Examples
        --------
        >>> cpd = CPD("wet", ["rain"], [[0.9, 0.1], [0.2, 0.8]],
        ...           {"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> cpd.statistic(np.array([0, 0, 1, -1]), np.array([[0], [1], [1], [0]])).tolist()
        [[1.0, 0.0], [1.0, 1.0]]
        """
        child = np.asarray(child, dtype=np.int64).reshape(-1)
        n = len(child)
        config = configurations(parents, n, self.values.shape[:-1])
        q = int(np.prod(self.values.shape[:-1], dtype=np.int64))
        w = None if weights is None else np.asarray(weights, dtype=np.float64)
        counts = count_table(np.zeros(n, dtype=np.int64), config, child, 1, q, self.cardinality, w)
        return counts.reshape(self.values.shape)

    def estimate(self, statistic: Any, *, estimator: str = "mle", alpha: float = 1.0) -> CPD:
        """A CPD of this family and these states estimated from counts shaped as the table.

        Each parent configuration's row is :math:`(n_{jk} + a) / (n_j + r a)` (Zhou, *Machine
        Learning*, Eqs. 7.19-7.20 for Laplace's), with :math:`a` the Lidstone pseudo-count per
        cell that the estimator amounts to (:func:`~bayeskit.estimate.lidstone_equivalent`):
        exact for ``"mle"``, ``"lidstone"``, ``"laplace"``, ``"m-estimate"``,
        ``"dirichlet-map"``, ``"bdeu"`` and ``"k2"``; ``alpha`` for the others. A row with no
        count and no pseudo-count is uniform.

        Parameters
        ----------
        statistic : array-like
            Counts shaped as the table (:meth:`statistic`'s, summed, or EM's expected counts).
        estimator : str, default="mle"
            A name of :data:`~bayeskit.estimate.ESTIMATORS`.
        alpha : float, default=1.0
            The estimator's ``alpha`` (ignored by those that use none).

        Returns
        -------
        CPD
            A new CPD of the same variable, parents and states.

        Raises
        ------
        ValueError
            ``statistic`` is not of the table's shape, or ``estimator`` is no estimator's name.

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
        """``log P(child | parents)`` of each row, read from the table.

        Parameters
        ----------
        child : array-like of shape (n_rows,)
            The node's state codes, as :meth:`statistic` takes them (no missing code).
        parents : array-like of shape (n_rows, len(parents))
            The parents' state codes (no missing code).

        Returns
        -------
        ndarray of float64, shape (n_rows,)
            The log of the table's entry of each row; ``-inf`` where it holds 0.

        Examples
        --------
        >>> cpd = CPD("wet", ["rain"], [[0.9, 0.1], [0.2, 0.8]],
        ...           {"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> np.exp(cpd.log_density(np.array([0, 1]), np.array([[0], [1]]))).round(2).tolist()
        [0.9, 0.8]
        """
        child = np.asarray(child, dtype=np.int64).reshape(-1)
        config = configurations(parents, len(child), self.values.shape[:-1])
        with np.errstate(divide="ignore"):
            return np.log(self.values.reshape(-1, self.cardinality)[config, child])

    def sample(self, parents: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One state code of the node per row of parent codes, drawn from that configuration's row.

        Parameters
        ----------
        parents : array-like of shape (n_rows, len(parents))
            The parents' state codes (no missing code).
        rng : numpy.random.Generator
            The source of the ``n_rows`` uniforms drawn.

        Returns
        -------
        ndarray of int64, shape (n_rows,)
            The node's drawn state codes (inverse transform of one uniform per row).

        Examples
        --------
        >>> cpd = CPD("wet", ["rain"], [[1.0, 0.0], [0.0, 1.0]],
        ...           {"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> cpd.sample(np.array([[0], [1], [1]]), np.random.default_rng(0)).tolist()
        [0, 1, 1]
        """
        parents = np.asarray(parents, dtype=np.int64)
        n = parents.shape[0] if parents.ndim else 0
        config = configurations(parents, n, self.values.shape[:-1])
        cumulative = np.cumsum(self.values.reshape(-1, self.cardinality)[config], axis=1)
        u = rng.random(n) * cumulative[:, -1]
        return np.minimum((cumulative <= u[:, None]).sum(axis=1), self.cardinality - 1)

    def to_factor(self) -> Factor:
        """The table as a :class:`Factor` over the parents and the node (for exact inference).

        Returns
        -------
        Factor
            Over ``(*parents, variable)``, its values the table, its states the CPD's.

        Examples
        --------
        >>> cpd = CPD("wet", ["rain"], [[0.9, 0.1], [0.2, 0.8]],
        ...           {"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> f = cpd.to_factor()
        >>> f.variables, f.value({"rain": "no", "wet": "yes"})
        (('rain', 'wet'), 0.2)
        """
        return Factor([*self.parents, self.variable], self.values, self.states)

    def __repr__(self) -> str:
        return self._grid().text()

    def _repr_html_(self) -> str:
        return self._grid().html()

    def _grid(self) -> Grid:
        return cpd_grid(self.variable, self.parents, self.values, self.states)


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
    parents = tuple(parents)
    check_family(cpd.variable, cpd.parents, cpd.states, parents, states)
    return np.array(cpd.aligned(parents, states), dtype=np.float64)
