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

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.data.kinds import CATEGORICAL, column_kind
from bayeskit.factors import CPD, LinearGaussianCPD
from bayeskit.factors.states import node_states, state_codes
from bayeskit.graphs import DAG
from bayeskit.learning import learn_structure
from bayeskit.learning.gaussian_scores import continuous_frame
from bayeskit.networks._network_helpers import check_table

__all__ = ["HybridNetwork"]

Distribution = CPD | LinearGaussianCPD


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
        _check_families(dag, self._cpds)
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
                out[node] = _numeric(node, col)
            else:
                out[node] = state_codes(col, self.states(node), f"column {node!r}")
        return out

    def _family(self, node: Any, columns: Mapping[Any, np.ndarray], n: int) -> np.ndarray:
        """The parents' columns as the node's distribution reads them: state codes for a
        table's (all discrete), float64 for a regression's (codes as numbers)."""
        parents = self._cpds[node].parents
        if isinstance(self._cpds[node], CPD):
            if not parents:
                return np.zeros((n, 0), dtype=np.int64)
            return np.column_stack([columns[p] for p in parents]).astype(np.int64)
        if not parents:
            return np.zeros((n, 0))
        return np.column_stack([columns[p].astype(np.float64) for p in parents])

    def log_likelihood(self, data: pd.DataFrame, *, per_row: bool = False) -> float | np.ndarray:
        """``log p(row)`` summed over the rows (or per row): the sum of each node's log
        density (log probability for a discrete node) given its parents.

        Parameters
        ----------
        data : pandas.DataFrame
            A column per node, no missing values.
        per_row : bool, default=False
            Return each row's value instead of the sum.

        Returns
        -------
        float or ndarray of shape (n_rows,)

        Raises
        ------
        ValueError
            On a missing column or value, a value that is no state, or a continuous column
            that is not numbers.

        Examples
        --------
        >>> net = HybridNetwork(DAG(["x"]), [LinearGaussianCPD("x", [], 0.0, [], 1.0)])
        >>> net.log_likelihood(pd.DataFrame({"x": [0.0, 0.0]}), per_row=True).round(4).tolist()
        [-0.9189, -0.9189]
        """
        columns = self._columns(data)
        for node, values in columns.items():
            gone = np.isnan(values) if values.dtype.kind == "f" else values < 0
            if gone.any():
                msg = (
                    f"column {node!r} has a missing value (row {int(np.argmax(gone))}); "
                    "log_likelihood needs complete rows"
                )
                raise ValueError(msg)
        total = np.zeros(len(data))
        for node in self.nodes:
            total += self._cpds[node].log_density(
                columns[node], self._family(node, columns, len(data))
            )
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
            columns[node] = self._cpds[node].sample(self._family(node, columns, n), rng)
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
        """Structure and parameters from continuous data: the DAG of
        :func:`~bayeskit.learning.learn_structure` (linear-Gaussian family scores), then
        :meth:`fit`.

        Parameters
        ----------
        data : pandas.DataFrame
            Complete data, a continuous column per node.
        score : {"bic", "aic", "ll"}, default="bic"
            The structure score.
        **search
            Options of :func:`~bayeskit.learning.learn_structure` (``max_parents``,
            ``black_list``, ``white_list``, ``tabu_length``, ...).

        Returns
        -------
        HybridNetwork

        Raises
        ------
        ValueError
            When a column is not continuous (structure learning over discrete and continuous
            columns together is not available: give the DAG to :meth:`fit`), or as
            :func:`~bayeskit.learning.learn_structure` and :meth:`fit`.

        Examples
        --------
        >>> rng = np.random.default_rng(0)
        >>> x = rng.normal(size=3000)
        >>> noise = rng.normal(size=(2, 3000))
        >>> data = pd.DataFrame({"x": x, "y": x + noise[0], "z": noise[1]})
        >>> HybridNetwork.learn(data).dag.edges
        (('x', 'y'),)
        """
        if not continuous_frame(data, None):
            kinds = {c: column_kind(data[c])[0] for c in getattr(data, "columns", [])}
            odd = next((c for c, k in kinds.items() if k == CATEGORICAL), None)
            msg = (
                f"HybridNetwork.learn needs continuous columns only; column {odd!r} is "
                "discrete. For discrete and continuous columns together give the DAG to "
                "HybridNetwork.fit (BayesianNetwork.learn learns discrete networks)"
            )
            raise ValueError(msg)
        dag = learn_structure(data, score, **search)
        return cls.fit(dag, data)

    @classmethod
    def fit(
        cls,
        dag: DAG,
        data: pd.DataFrame,
        *,
        continuous: Iterable[Any] | None = None,
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
        data : pandas.DataFrame
            A column per node. Rows with a missing value in a family are left out of that
            family's statistic.
        continuous : iterable, optional
            The continuous nodes; by default those whose column the one column rule calls
            numeric (:func:`bayeskit.data.kinds.column_kind`), the others discrete.
        estimator : str, default="mle"
            The tables' estimator (:meth:`bayeskit.factors.CPD.estimate`).
        alpha : float, default=1.0
            Its pseudo-count.
        ridge, min_variance : float, default=0.0
            As :meth:`bayeskit.factors.LinearGaussianCPD.estimate`.

        Returns
        -------
        HybridNetwork

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
        """
        if not isinstance(data, pd.DataFrame):
            msg = f"data must be a pandas DataFrame, got {type(data).__name__}"
            raise TypeError(msg)
        missing = [n for n in dag.nodes if n not in data.columns]
        if missing:
            msg = f"data has no column for node {missing[0]!r}"
            raise ValueError(msg)
        numeric = (
            {n for n in dag.nodes if column_kind(data[n])[0] != CATEGORICAL}
            if continuous is None
            else set(continuous)
        )
        states = {n: _column_states(n, data[n]) for n in dag.nodes if n not in numeric}
        templates = {n: _template(dag, n, numeric, states) for n in dag.nodes}
        shell = cls.__new__(cls)
        shell._dag, shell._cpds = dag, templates
        _check_families(dag, templates)
        columns = shell._columns(data)
        fitted: dict[Any, Distribution] = {}
        for node in dag.nodes:
            template = templates[node]
            family = shell._family(node, columns, len(data))
            if isinstance(template, CPD):
                counts = template.statistic(columns[node], family)
                fitted[node] = template.estimate(counts, estimator=estimator, alpha=alpha)
            else:
                moments = template.statistic(columns[node], family)
                fitted[node] = template.estimate(moments, ridge=ridge, min_variance=min_variance)
        return cls(dag, fitted)


def _numeric(node: Any, col: pd.Series) -> np.ndarray:
    try:
        values = pd.to_numeric(col, errors="raise").to_numpy(dtype=np.float64, na_value=np.nan)
    except (TypeError, ValueError) as err:
        example = next((v for v in col.dropna().tolist() if isinstance(v, str)), None)
        msg = f"column {node!r} of a continuous node must hold numbers, got {example!r}"
        raise ValueError(msg) from err
    if np.isinf(values).any():
        msg = f"column {node!r} has an infinite value (row {int(np.argmax(np.isinf(values)))})"
        raise ValueError(msg)
    return values


def _column_states(node: Any, col: pd.Series) -> tuple[str, ...]:
    if isinstance(col.dtype, pd.CategoricalDtype):
        return tuple(str(c) for c in col.cat.categories)
    return node_states(node, col.dropna().unique())


def _template(dag: DAG, node: Any, numeric: set, states: Mapping) -> Distribution:
    """A distribution of the node's kind and family, to be estimated."""
    parents = dag.parents(node)
    if node not in numeric:
        family = {v: states[v] for v in (*parents, node) if v in states}
        shape = [len(family[v]) if v in family else 1 for v in (*parents, node)]
        if any(p in numeric for p in parents):
            edge = next(p for p in parents if p in numeric)
            msg = (
                f"edge {edge!r} -> {node!r}: a discrete node may not have a continuous parent "
                "(conditional linear Gaussian networks)"
            )
            raise ValueError(msg)
        return CPD(node, parents, np.full(shape, 1.0 / shape[-1]), family)
    discrete = {p: states[p] for p in parents if p not in numeric}
    cards = tuple(len(s) for s in discrete.values())
    k = sum(1 for p in parents if p in numeric)
    return LinearGaussianCPD(
        node, parents, np.zeros(cards), np.zeros((*cards, k)), np.ones(cards), discrete
    )


def _check_families(dag: DAG, cpds: Mapping[Any, Distribution]) -> None:
    """Raise ``ValueError`` unless every distribution fits its node's family and kind."""
    for node, cpd in cpds.items():
        if not isinstance(cpd, CPD | LinearGaussianCPD):
            msg = f"the distribution of {node!r} must be a CPD or LinearGaussianCPD, got {cpd!r}"
            raise TypeError(msg)
        if cpd.variable != node:
            msg = f"the distribution given for {node!r} is that of {cpd.variable!r}"
            raise ValueError(msg)
        if set(cpd.parents) != set(dag.parents(node)) or len(cpd.parents) != len(dag.parents(node)):
            msg = (
                f"the parents of {node!r} are {list(dag.parents(node))} in the DAG but "
                f"{list(cpd.parents)} in its distribution"
            )
            raise ValueError(msg)
        for parent in cpd.parents:
            parent_discrete = isinstance(cpds[parent], CPD)
            if isinstance(cpd, CPD) and not parent_discrete:
                msg = (
                    f"edge {parent!r} -> {node!r}: a discrete node may not have a continuous "
                    "parent (conditional linear Gaussian networks)"
                )
                raise ValueError(msg)
            if isinstance(cpd, LinearGaussianCPD):
                as_discrete = parent in cpd.discrete_parents
                if as_discrete != parent_discrete:
                    kind = "discrete" if parent_discrete else "continuous"
                    msg = (
                        f"{node!r}'s distribution treats its parent {parent!r} as "
                        f"{'discrete' if as_discrete else 'continuous'}, but it is {kind}"
                    )
                    raise ValueError(msg)
            if parent_discrete:
                own = tuple(cpds[parent].states[parent])
                theirs = tuple(cpd.states[parent])
                if own != theirs:
                    msg = (
                        f"{node!r}'s distribution gives its parent {parent!r} the states "
                        f"{list(theirs)}, but {parent!r} has {list(own)}"
                    )
                    raise ValueError(msg)
