"""Bayesian networks with continuous nodes: linear-Gaussian networks, and conditional linear
Gaussian (CLG) networks that mix discrete and continuous nodes.

Each node is a conditional distribution behind one protocol
(:class:`~bayeskit.factors.ConditionalDistribution`): a discrete node a table
(:class:`~bayeskit.factors.CPD`), a continuous node a linear regression on its continuous
parents with normal noise, one per configuration of its discrete parents
(:class:`~bayeskit.factors.LinearGaussianCPD`; Zhou, *Machine Learning*, 7.5's table generalised
to a conditional density). A discrete node may not have a continuous parent (the CLG
restriction, under which the joint is a mixture of Gaussians, one per configuration of the
discrete nodes, and exact inference stays closed-form).

Learning is a pass of statistics per family and an estimate per node, as for discrete
networks: counts for a table, scatter moments for a regression.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.data.kinds import continuous_columns
from bayeskit.factors import CPD, LinearGaussianCPD
from bayeskit.factors.gaussian import parent_columns
from bayeskit.factors.states import state_codes
from bayeskit.graphs import DAG
from bayeskit.learning import hill_climb
from bayeskit.networks._hybrid_rules import (
    Distribution,
    check_families,
    column_states,
    merge_statistics,
    numeric_column,
    observed_log_likelihood,
    template,
)
from bayeskit.networks._network_helpers import check_table

__all__ = ["HybridNetwork", "merge_statistics"]


class HybridNetwork:
    """A Bayesian network whose nodes are discrete (tables) or continuous (linear-Gaussian).

    Parameters
    ----------
    dag : DAG
        The structure.
    cpds : mapping or iterable
        One distribution per node (:class:`~bayeskit.factors.CPD` for a discrete node,
        :class:`~bayeskit.factors.LinearGaussianCPD` for a continuous one), as a mapping from
        node to distribution or an iterable of distributions (each keyed by its ``variable``).

    Raises
    ------
    ValueError
        When a node has no distribution or one for another node, a distribution's parents are
        not the DAG's, a discrete node has a continuous parent (naming the edge), a continuous
        node treats a continuous parent as discrete or the other way round, or the states a
        distribution gives a discrete parent are not that parent's own.

    Examples
    --------
    A linear-Gaussian chain ``x -> y``:

    >>> from bayeskit.factors import LinearGaussianCPD
    >>> net = HybridNetwork(DAG(edges=[("x", "y")]), [
    ...     LinearGaussianCPD("x", [], intercept=0.0, coefficients=[], variance=1.0),
    ...     LinearGaussianCPD("y", ["x"], intercept=1.0, coefficients=[2.0], variance=0.5)])
    >>> net.continuous_nodes, round(net.log_likelihood(pd.DataFrame({"x": [0.0], "y": [1.0]})), 4)
    (('x', 'y'), -1.4913)
    """

    def __init__(self, dag: DAG, cpds: Mapping[Any, Distribution] | Iterable[Distribution]):
        if not isinstance(dag, DAG):
            msg = f"dag must be a bayeskit DAG, got {type(dag).__name__}"
            raise TypeError(msg)
        given = dict(cpds) if isinstance(cpds, Mapping) else {c.variable: c for c in cpds}
        self._dag = dag
        self._cpds: dict[Any, Distribution] = {}
        for node in dag.nodes:
            if node not in given:
                msg = f"node {node!r} has no distribution"
                raise ValueError(msg)
            self._cpds[node] = given[node]
        extra = [n for n in given if n not in self._cpds]
        if extra:
            msg = f"a distribution is given for {extra[0]!r}, which is no node of the DAG"
            raise ValueError(msg)
        check_families(dag, self._cpds)
        for node, cpd in self._cpds.items():  # tables: rows are distributions, as in a network
            if isinstance(cpd, CPD):
                table = check_table(node, np.array(cpd.values), cpd.parents, cpd.states)
                if not np.array_equal(table, cpd.values):
                    self._cpds[node] = CPD(node, cpd.parents, table, dict(cpd.states))

    # ------------------------------------------------------------------ what it is

    @property
    def dag(self) -> DAG:
        """The structure."""
        return self._dag

    @property
    def nodes(self) -> tuple:
        """The nodes, in the DAG's order."""
        return self._dag.nodes

    @property
    def discrete_nodes(self) -> tuple:
        """The nodes with a table."""
        return tuple(n for n in self.nodes if isinstance(self._cpds[n], CPD))

    @property
    def continuous_nodes(self) -> tuple:
        """The nodes with a linear-Gaussian distribution."""
        return tuple(n for n in self.nodes if isinstance(self._cpds[n], LinearGaussianCPD))

    def is_continuous(self, node: Any) -> bool:
        """Whether ``node`` is continuous.

        Parameters
        ----------
        node : hashable
            A node of the network.

        Returns
        -------
        bool

        Raises
        ------
        KeyError
            For an unknown node.

        Examples
        --------
        >>> HybridNetwork(DAG(["x"]), [LinearGaussianCPD("x", [], 0.0, [], 1.0)]).is_continuous("x")
        True
        """
        return isinstance(self.cpd(node), LinearGaussianCPD)

    def cpd(self, node: Any) -> Distribution:
        """The node's distribution.

        Parameters
        ----------
        node : hashable
            A node of the network.

        Returns
        -------
        CPD or LinearGaussianCPD

        Raises
        ------
        KeyError
            For an unknown node.

        Examples
        --------
        >>> HybridNetwork(DAG(["x"]), [LinearGaussianCPD("x", [], 0.0, [], 1.0)]).cpd("x")
        LinearGaussianCPD('x', parents=[], discrete=[])
        """
        if node not in self._cpds:
            msg = f"no node {node!r}; the nodes are {list(self.nodes)}"
            raise KeyError(msg)
        return self._cpds[node]

    def states(self, node: Any) -> tuple[str, ...]:
        """The states of a discrete node.

        Parameters
        ----------
        node : hashable
            A discrete node.

        Returns
        -------
        tuple of str

        Raises
        ------
        KeyError
            For an unknown node.
        ValueError
            For a continuous node.

        Examples
        --------
        >>> from bayeskit.factors import CPD
        >>> HybridNetwork(DAG(["a"]), [CPD("a", [], [0.5, 0.5], {"a": ["x", "y"]})]).states("a")
        ('x', 'y')
        """
        cpd = self.cpd(node)
        if not isinstance(cpd, CPD):
            msg = f"node {node!r} is continuous: it has no states"
            raise ValueError(msg)
        return tuple(cpd.states[node])

    @property
    def n_parameters(self) -> int:
        """Free parameters: ``(r - 1) q`` for a table (``r`` states, ``q`` parent
        configurations), ``(k + 2) q`` for a regression on ``k`` continuous parents (intercept,
        slopes and variance per configuration of its discrete parents)."""
        total = 0
        for cpd in self._cpds.values():
            if isinstance(cpd, CPD):
                total += cpd.values.size // cpd.values.shape[-1] * (cpd.values.shape[-1] - 1)
            else:
                total += cpd.variance.size * (len(cpd.continuous_parents) + 2)
        return total

    def __repr__(self) -> str:
        return (
            f"HybridNetwork({len(self.nodes)} nodes: {len(self.discrete_nodes)} discrete, "
            f"{len(self.continuous_nodes)} continuous; {len(self.dag.edges)} edges)"
        )

    # ------------------------------------------------------------------ data

    def _columns(self, data: pd.DataFrame) -> dict[Any, np.ndarray]:
        """Each node's column as the distributions read it: state codes (-1 missing) for a
        discrete node, float64 (NaN missing) for a continuous one."""
        if not isinstance(data, pd.DataFrame):
            msg = f"data must be a pandas DataFrame, got {type(data).__name__}"
            raise TypeError(msg)
        missing = [n for n in self.nodes if n not in data.columns]
        if missing:
            msg = f"data has no column for node {missing[0]!r}"
            raise ValueError(msg)
        out: dict[Any, np.ndarray] = {}
        for node in self.nodes:
            col = data[node]
            if self.is_continuous(node):
                out[node] = numeric_column(node, col)
            else:
                out[node] = state_codes(col, self.states(node), f"column {node!r}")
        return out

    def log_likelihood(self, data: pd.DataFrame, *, per_row: bool = False) -> float | np.ndarray:
        """``log p(row)`` summed over the rows (or per row): the sum of each node's log
        density (log probability for a discrete node) given its parents. A row with values
        missing scores ``log p(its observed values)``, the missing ones summed and integrated
        out by exact inference (:class:`~bayeskit.inference.HybridInference`).

        Parameters
        ----------
        data : pandas.DataFrame
            A column per node (a missing value: None / NaN).
        per_row : bool, default=False
            Return each row's value instead of the sum.

        Returns
        -------
        float or ndarray of shape (n_rows,)

        Raises
        ------
        ValueError
            On a missing column, a value that is no state, or a continuous column that is not
            numbers.
        InferenceTooLarge
            For a row with missing values, when the discrete parents of continuous nodes have
            more joint configurations than exact hybrid inference enumerates.

        Examples
        --------
        >>> net = HybridNetwork(DAG(["x"]), [LinearGaussianCPD("x", [], 0.0, [], 1.0)])
        >>> net.log_likelihood(pd.DataFrame({"x": [0.0, 0.0]}), per_row=True).round(4).tolist()
        [-0.9189, -0.9189]
        >>> net.log_likelihood(pd.DataFrame({"x": [0.0, None]}), per_row=True).round(4).tolist()
        [-0.9189, 0.0]
        """
        total = observed_log_likelihood(self, self._columns(data))
        return total if per_row else float(total.sum())

    def sample(self, n: int, seed: int | np.random.Generator | None = None) -> pd.DataFrame:
        """``n`` rows drawn from the network by forward sampling (parents first).

        Parameters
        ----------
        n : int
            The number of rows.
        seed : int, numpy.random.Generator or None
            The source of randomness.

        Returns
        -------
        pandas.DataFrame
            A column per node: categorical (the node's states) for a discrete node, float64
            for a continuous one.

        Raises
        ------
        ValueError
            When ``n`` is not a non-negative integer.

        Examples
        --------
        >>> net = HybridNetwork(DAG(["x"]), [LinearGaussianCPD("x", [], 5.0, [], 1e-12)])
        >>> net.sample(2, seed=0)["x"].round(3).tolist()
        [5.0, 5.0]
        """
        if not (isinstance(n, int | np.integer) and n >= 0):
            msg = f"n must be a non-negative integer, got {n!r}"
            raise ValueError(msg)
        rng = np.random.default_rng(seed)
        columns: dict[Any, np.ndarray] = {}
        for node in self.dag.topological_order():
            columns[node] = self._cpds[node].sample(
                parent_columns(self._cpds[node], columns, n), rng
            )
        frame = {}
        for node in self.nodes:
            if self.is_continuous(node):
                frame[node] = columns[node].astype(np.float64)
            else:
                states = list(self.states(node))
                codes = columns[node].astype(np.int64)
                frame[node] = pd.Categorical.from_codes(codes, categories=states)  # type: ignore[call-overload]
        return pd.DataFrame(frame)

    # ------------------------------------------------------------------ learning

    @classmethod
    def learn(cls, data: pd.DataFrame, score: str = "bic", **search: Any) -> HybridNetwork:
        """Structure and parameters: the DAG of :func:`~bayeskit.learning.hill_climb`
        (linear-Gaussian family scores for continuous columns, conditional linear Gaussian
        ones with discrete columns too, no continuous parent for a discrete node), then
        :meth:`fit`.

        Parameters
        ----------
        data : pandas.DataFrame
            Complete data, a column per node.
        score : {"bic", "aic", "ll"}, default="bic"
            The structure score.
        **search
            Options of :func:`~bayeskit.learning.hill_climb` (``max_parents``,
            ``black_list``, ``white_list``, ``tabu_length``, ...).

        Returns
        -------
        HybridNetwork

        Raises
        ------
        ValueError
            As :func:`~bayeskit.learning.hill_climb` and :meth:`fit`.

        Examples
        --------
        >>> rng = np.random.default_rng(0)
        >>> x = rng.normal(size=3000)
        >>> noise = rng.normal(size=(2, 3000))
        >>> data = pd.DataFrame({"x": x, "y": x + noise[0], "z": noise[1]})
        >>> HybridNetwork.learn(data).dag.edges
        (('x', 'y'),)
        """
        dag = hill_climb(data, score, **search)
        return cls.fit(dag, data)

    @classmethod
    def fit(
        cls,
        dag: DAG,
        data: Any,
        *,
        continuous: Iterable[Any] | None = None,
        states: Mapping[Any, Sequence[Any]] | None = None,
        estimator: str = "mle",
        alpha: float = 1.0,
        ridge: float = 0.0,
        min_variance: float = 0.0,
    ) -> HybridNetwork:
        """The network of ``dag`` fitted to ``data``: a table per discrete node (counts and
        ``estimator``), a least-squares regression per continuous node (scatter moments).

        Parameters
        ----------
        dag : DAG
            The structure.
        data : pandas.DataFrame or iterable of DataFrames
            A column per node; or the data in chunks (:func:`~bayeskit.data.read_chunks`,
            any re-iterable of DataFrames), each read once to count and, for the discrete
            nodes whose ``states`` are not given, once before to gather them. Rows with a
            missing value in a family are left out of that family's statistic.
        continuous : iterable, optional
            The continuous nodes; by default those whose column the one column rule calls
            numeric (:func:`bayeskit.data.kinds.column_kind`; in the first chunk for data in
            chunks), the others discrete.
        states : mapping, optional
            Discrete nodes' states (default: their columns' categories or distinct values).
        estimator : str, default="mle"
            The tables' estimator (:meth:`bayeskit.factors.CPD.estimate`).
        alpha : float, default=1.0
            Its pseudo-count.
        ridge, min_variance : float, default=0.0
            As :meth:`bayeskit.factors.LinearGaussianCPD.estimate`.

        Returns
        -------
        HybridNetwork
            The same network however the data is cut into chunks (to the rounding of the
            sums).

        Raises
        ------
        ValueError
            On a missing column, a discrete node with a continuous parent, or a family that
            cannot be estimated (no rows for a configuration, a node its parents determine).

        Examples
        --------
        >>> rng = np.random.default_rng(0)
        >>> x = rng.normal(size=2000)
        >>> data = pd.DataFrame({"x": x, "y": 1 + 2 * x + rng.normal(size=2000) * 0.1})
        >>> net = HybridNetwork.fit(DAG(edges=[("x", "y")]), data)
        >>> net.cpd("y").coefficients.round(2).tolist()
        [2.0]
        >>> halves = [data.iloc[:1000], data.iloc[1000:]]
        >>> bool(np.allclose(HybridNetwork.fit(net.dag, halves).cpd("y").coefficients,
        ...                  net.cpd("y").coefficients))
        True
        """
        pieces = [data] if isinstance(data, pd.DataFrame) else data
        shell = cls.template(dag, pieces, continuous=continuous, states=states)
        total: dict[Any, Any] | None = None
        for piece in pieces:
            part = shell.statistics(piece)
            total = part if total is None else merge_statistics(total, part)
        if total is None:
            msg = "there is no data: every chunk was empty"
            raise ValueError(msg)
        return shell.estimated(
            total, estimator=estimator, alpha=alpha, ridge=ridge, min_variance=min_variance
        )

    @classmethod
    def template(
        cls,
        dag: DAG,
        data: Any,
        *,
        continuous: Iterable[Any] | None = None,
        states: Mapping[Any, Sequence[Any]] | None = None,
    ) -> HybridNetwork:
        """A network of ``dag`` with each node's kind and states from ``data`` and placeholder
        parameters (uniform tables, flat regressions), whose :meth:`statistics` and
        :meth:`estimated` fit it: what :meth:`fit` (and a fit over Dask partitions) does.

        Parameters
        ----------
        dag : DAG
            The structure.
        data : pandas.DataFrame or iterable of DataFrames
            The data, or pieces of it (the kinds are read from the first; the states of
            discrete nodes not in ``states`` gathered from all).
        continuous : iterable, optional
            The continuous nodes (default: by the one column rule).
        states : mapping, optional
            Discrete nodes' states.

        Returns
        -------
        HybridNetwork

        Raises
        ------
        ValueError
            On a missing column, or a discrete node with a continuous parent.

        Examples
        --------
        >>> frame = pd.DataFrame({"a": ["x", "y"], "v": [0.5, 1.5]})
        >>> HybridNetwork.template(DAG(edges=[("a", "v")]), frame).cpd("v").discrete_parents
        ('a',)
        """
        pieces = [data] if isinstance(data, pd.DataFrame) else data
        first = next(iter(pieces), None)
        if first is None:
            msg = "there is no data: no chunk"
            raise ValueError(msg)
        if not isinstance(first, pd.DataFrame):
            msg = f"data must be a DataFrame or pieces of one, got {type(first).__name__}"
            raise TypeError(msg)
        missing = [n for n in dag.nodes if n not in first.columns]
        if missing:
            msg = f"data has no column for node {missing[0]!r}"
            raise ValueError(msg)
        numeric = set(continuous_columns(first, dag.nodes) if continuous is None else continuous)
        given = {n: tuple(str(v) for v in vs) for n, vs in (states or {}).items()}
        wanted = [n for n in dag.nodes if n not in numeric and n not in given]
        if wanted:
            seen = [piece[wanted] for piece in pieces]
            given |= {n: column_states(n, [frame[n] for frame in seen]) for n in wanted}
        return cls(dag, {n: template(dag, n, numeric, given) for n in dag.nodes})

    def statistics(self, data: pd.DataFrame, weights: Any = None) -> dict[Any, Any]:
        """Each node's family statistic from ``data``: counts for a table, scatter moments for
        a regression; those of two pieces of data add up, node by node, to those of both
        (:func:`~bayeskit.networks.merge_statistics`).

        Parameters
        ----------
        data : pandas.DataFrame
            A column per node (rows with a missing value in a family are left out of it).
        weights : array-like of shape (n_rows,), optional
            Non-negative row weights.

        Returns
        -------
        dict
            Node -> statistic.

        Raises
        ------
        ValueError
            On a missing column, a value that is no state, or a continuous column that is not
            numbers.

        Examples
        --------
        >>> net = HybridNetwork(DAG(["v"]), [LinearGaussianCPD("v", [], 0.0, [], 1.0)])
        >>> net.statistics(pd.DataFrame({"v": [1.0, 3.0]}))["v"].mean.tolist()
        [[2.0]]
        """
        columns = self._columns(data)
        out = {}
        for node in self.nodes:
            family = parent_columns(self._cpds[node], columns, len(data))
            out[node] = self._cpds[node].statistic(columns[node], family, weights)
        return out

    def estimated(
        self,
        statistics: Mapping[Any, Any],
        *,
        estimator: str = "mle",
        alpha: float = 1.0,
        ridge: float = 0.0,
        min_variance: float = 0.0,
    ) -> HybridNetwork:
        """A network of the same structure estimated from ``statistics``.

        Parameters
        ----------
        statistics : mapping
            Node -> statistic, from :meth:`statistics` (merged over pieces of data).
        estimator, alpha, ridge, min_variance :
            As :meth:`fit`.

        Returns
        -------
        HybridNetwork

        Raises
        ------
        ValueError
            When a family cannot be estimated.

        Examples
        --------
        >>> net = HybridNetwork(DAG(["v"]), [LinearGaussianCPD("v", [], 0.0, [], 1.0)])
        >>> stats = net.statistics(pd.DataFrame({"v": [1.0, 3.0]}))
        >>> net.estimated(stats).cpd("v").variance.tolist()
        1.0
        """
        fitted: dict[Any, Distribution] = {}
        for node in self.nodes:
            cpd, stat = self._cpds[node], statistics[node]
            if isinstance(cpd, CPD):
                fitted[node] = cpd.estimate(stat, estimator=estimator, alpha=alpha)
            else:
                fitted[node] = cpd.estimate(stat, ridge=ridge, min_variance=min_variance)
        return type(self)(self.dag, fitted)
