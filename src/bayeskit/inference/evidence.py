"""Checking what a query names: its nodes, its evidence (a mapping node -> state, or a frame of a
column per observed node) and the network it asks, with the error for evidence of probability
zero. Every engine of :mod:`bayeskit.inference` (variable elimination, the junction tree, the
samplers) checks its input here, so each refuses the same input with the same message.

The network is any object with the attributes the engines read (``dag``, ``nodes``,
``states(node)``, ``cardinality(node)``, ``cpt(node)``): a
:class:`~bayeskit.networks.BayesianNetwork`, or anything that answers as one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from bayeskit._text import shown
from bayeskit.factors.states import state_codes, state_index

__all__ = [
    "NETWORK_ATTRIBUTES",
    "EvidenceChecker",
    "ZeroProbabilityEvidence",
    "check_network",
    "observation_patterns",
    "zero_evidence",
]

#: What inference reads of a network.
NETWORK_ATTRIBUTES = ("dag", "nodes", "states", "cardinality", "cpt")


def check_network(network: Any, what: str = "network") -> None:
    """TypeError naming ``what`` unless ``network`` has what inference reads of a network
    (:data:`NETWORK_ATTRIBUTES`).

    Parameters
    ----------
    network : object
        The network an engine is given.
    what : str, default="network"
        The argument's name, for the message.

    Raises
    ------
    TypeError
        ``network`` lacks one of :data:`NETWORK_ATTRIBUTES`.

    Examples
    --------
    >>> check_network({"dag": None}, "model")
    Traceback (most recent call last):
    ...
    TypeError: model must be a BayesianNetwork, got dict
    """
    if not all(hasattr(network, name) for name in NETWORK_ATTRIBUTES):
        msg = f"{what} must be a BayesianNetwork, got {type(network).__name__}"
        raise TypeError(msg)


class ZeroProbabilityEvidence(ValueError):
    """Evidence that has probability zero under the network: no posterior exists given it.

    Every query of exact inference (variable elimination, the junction tree, MAP), the
    samplers and ``bayeskit network query`` raise it, for a single evidence set and for any
    row of a batch; ``probability_of_evidence`` answers 0 instead.

    Parameters
    ----------
    message : str
    evidence : mapping node -> state, optional
        The impossible evidence (stored as a dict).
    rows : list, optional
        In a batch, the index labels of the impossible rows.

    Attributes
    ----------
    evidence : dict
        The impossible evidence, node -> state (a batch's first impossible row).
    rows : list or None
        In a batch, the index labels of every impossible row, in order (drop them and ask
        again); None for a single query.
    """

    def __init__(self, message: str, evidence: Mapping[Any, Any] | None = None,
                 rows: list[Any] | None = None):  # fmt: skip
        super().__init__(message)
        self.evidence = dict(evidence or {})
        self.rows = rows

    def __reduce__(self):
        return type(self), (str(self), self.evidence, self.rows)


def zero_evidence(evidence: Mapping[Any, Any], rows: Sequence[Any] | None = None,
                  n_rows: int | None = None) -> ZeroProbabilityEvidence:  # fmt: skip
    """The error for evidence of probability zero; for a batch, ``rows`` are the index labels
    of the impossible rows (the first one's evidence is ``evidence``) of ``n_rows``.

    Parameters
    ----------
    evidence : mapping node -> state
        The impossible evidence (a batch's first impossible row).
    rows : sequence, optional
        A batch's impossible rows (index labels); None for a single query.
    n_rows : int, optional
        The batch's number of rows (with ``rows``).

    Returns
    -------
    ZeroProbabilityEvidence
        The error, its message naming the evidence (and the rows), to be raised.

    Examples
    --------
    >>> error = zero_evidence({"wet": "yes"}, rows=[3, 7], n_rows=10)
    >>> error.evidence, error.rows
    ({'wet': 'yes'}, [3, 7])
    >>> str(error).split(";")[1].split(":")[0]
    ' 2 of 10 rows are impossible (rows 3, 7)'
    """
    if rows is None:
        msg = (
            f"the evidence {dict(evidence)} has probability zero under the network (no joint "
            "state of its nodes agrees with all of it), so no posterior exists given it; check "
            "the evidence"
        )
        return ZeroProbabilityEvidence(msg, evidence)
    rows = list(rows)
    listed = ", ".join(shown(r) for r in rows[:5]) + (", ..." if len(rows) > 5 else "")
    msg = (
        f"the evidence {dict(evidence)} (row {shown(rows[0])}) has probability zero under the "
        f"network, so no posterior exists given it; {len(rows):,} of {n_rows:,} rows are "
        f"impossible (rows {listed}): drop them (this error's .rows lists them all) and ask again"
    )
    return ZeroProbabilityEvidence(msg, evidence, rows)


class EvidenceChecker:
    """The checks of a query's input against one network: its nodes named (:meth:`nodes_of`),
    not both asked for and observed (:meth:`apart`), and its evidence read into the nodes'
    positions and state codes (:meth:`evidence`, :meth:`evidence_frame`). Nodes are referred to
    by their position in ``network.nodes``; states by their index in ``network.states(node)``.

    Parameters
    ----------
    network : BayesianNetwork
        Or any object with what inference reads of a network (:data:`NETWORK_ATTRIBUTES`).

    Examples
    --------
    >>> from bayeskit.networks import DAG, BayesianNetwork
    >>> net = BayesianNetwork(DAG(edges=[("rain", "wet")]),
    ...     {"rain": [0.2, 0.8], "wet": [[0.9, 0.1], [0.1, 0.9]]},
    ...     states={"rain": ["yes", "no"], "wet": ["yes", "no"]})
    >>> checks = EvidenceChecker(net)
    >>> checks.nodes_of("wet", "variables"), checks.evidence({"wet": "no"})
    ([1], ((1,), array([1])))
    """

    def __init__(self, network: Any):
        check_network(network)
        self.nodes = tuple(network.nodes)
        self.positions = {n: i for i, n in enumerate(self.nodes)}
        self.states = {n: tuple(network.states(n)) for n in self.nodes}

    def nodes_of(self, variables: Any, what: str) -> list[int]:
        """The positions of the nodes ``variables`` names (one node, or several, each once).

        Parameters
        ----------
        variables : node or iterable of nodes
            One node (a string is one node), or several; a numpy array is read as a list.
        what : str
            The argument's name, for the messages (``"variables"``).

        Returns
        -------
        list of int
            Each node's position in ``network.nodes``, in the order named.

        Raises
        ------
        ValueError
            No node named, a name that is no node of the network, or a node named twice.

        Examples
        --------
        >>> from bayeskit.networks import DAG, BayesianNetwork
        >>> net = BayesianNetwork(DAG(edges=[("rain", "wet")]),
        ...     {"rain": [0.2, 0.8], "wet": [[0.9, 0.1], [0.1, 0.9]]},
        ...     states={"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> EvidenceChecker(net).nodes_of(["wet", "rain"], "variables")
        [1, 0]
        """
        single = isinstance(variables, str) or not isinstance(variables, Iterable)
        if isinstance(variables, np.ndarray):
            variables = variables.tolist()
        items = [variables] if single else list(variables)
        if not items:
            msg = f"{what} must name at least one node"
            raise ValueError(msg)
        out = []
        for v in items:
            if v not in self.positions:
                msg = f"{shown(v)} is no node of the network"
                raise ValueError(msg)
            if self.positions[v] in out:
                msg = f"{shown(v)} is named twice in {what}"
                raise ValueError(msg)
            out.append(self.positions[v])
        return out

    def apart(self, targets: Iterable[int], observed: Iterable[int], verb: str = "queried") -> None:
        """ValueError naming the nodes both asked for and observed: every query refuses them
        (a batch's too, for a column of the node even where it is missing), rather than give
        the observed state probability 1.

        Parameters
        ----------
        targets : iterable of int
            The positions of the nodes asked for.
        observed : iterable of int
            The positions of the observed nodes.
        verb : str, default="queried"
            What is done to the targets, for the message (``"maximised"`` for MAP).

        Raises
        ------
        ValueError
            A node is among both ``targets`` and ``observed``; the message names them.

        Examples
        --------
        >>> from bayeskit.networks import DAG, BayesianNetwork
        >>> net = BayesianNetwork(DAG(edges=[("rain", "wet")]),
        ...     {"rain": [0.2, 0.8], "wet": [[0.9, 0.1], [0.1, 0.9]]},
        ...     states={"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> EvidenceChecker(net).apart([1], [1])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: ['wet'] are both queried and observed: ...
        """
        clash = set(targets) & set(observed)
        if clash:
            names = [self.nodes[i] for i in sorted(clash)]
            msg = (
                f"{shown(names)} are both {verb} and observed: a node's posterior given its own "
                "state is that state; leave it out of the evidence or of the nodes asked for"
            )
            raise ValueError(msg)

    def evidence(self, evidence: Mapping[Any, Any] | None) -> tuple[tuple[int, ...], np.ndarray]:
        """The observed nodes' positions and their states' codes, from a mapping node -> state.

        Parameters
        ----------
        evidence : mapping node -> state, or None
            A state by name, else by canonical key (``1`` finds ``"1"``:
            :func:`~bayeskit.factors.states.state_index`); None observes nothing.

        Returns
        -------
        observed : tuple of int
            The observed nodes' positions, in the mapping's order.
        codes : ndarray of int64 of shape (n_observed,)
            Each observed state's index in ``network.states(node)``.

        Raises
        ------
        TypeError
            ``evidence`` is not a mapping (or None).
        ValueError
            A key that is no node, a value that is no state of its node, or one node named
            by two keys.

        Examples
        --------
        >>> from bayeskit.networks import DAG, BayesianNetwork
        >>> net = BayesianNetwork(DAG(edges=[("rain", "wet")]),
        ...     {"rain": [0.2, 0.8], "wet": [[0.9, 0.1], [0.1, 0.9]]},
        ...     states={"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> EvidenceChecker(net).evidence({"wet": "no", "rain": "yes"})
        ((1, 0), array([1, 0]))
        """
        if evidence is None:
            return (), np.zeros(0, dtype=np.int64)
        if not isinstance(evidence, Mapping):
            msg = f"evidence must be a mapping node -> state, got {type(evidence).__name__}"
            raise TypeError(msg)
        observed, codes = [], []
        for node, state in evidence.items():
            if node not in self.positions:
                msg = f"evidence names {node!r}, which is no node of the network"
                raise ValueError(msg)
            names = self.states[node]
            at = state_index(names, state)  # by name, else by canonical key (factors.states)
            if at < 0:
                msg = f"evidence {node!r}={state!r}: no such state (states: {list(names)})"
                raise ValueError(msg)
            if self.positions[node] in observed:  # two keys equal to one node (a custom mapping)
                msg = f"evidence names node {shown(node)} twice; give each node one state"
                raise ValueError(msg)
            observed.append(self.positions[node])
            codes.append(at)
        return tuple(observed), np.asarray(codes, dtype=np.int64)

    def evidence_dict(self, observed, codes) -> dict[Any, str]:
        """Positions and codes back to a mapping node -> state name.

        Parameters
        ----------
        observed : sequence of int
            The observed nodes' positions, as :meth:`evidence` gives them.
        codes : sequence of int
            Their states' codes, one per position.

        Returns
        -------
        dict
            Node -> state name, in ``observed``'s order.

        Examples
        --------
        >>> from bayeskit.networks import DAG, BayesianNetwork
        >>> net = BayesianNetwork(DAG(edges=[("rain", "wet")]),
        ...     {"rain": [0.2, 0.8], "wet": [[0.9, 0.1], [0.1, 0.9]]},
        ...     states={"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> EvidenceChecker(net).evidence_dict((1, 0), [1, 0])
        {'wet': 'no', 'rain': 'yes'}
        """
        return {self.nodes[v]: self.states[self.nodes[v]][int(c)]
                for v, c in zip(observed, codes, strict=True)}  # fmt: skip

    def evidence_frame(self, evidence: pd.DataFrame) -> tuple[np.ndarray, list[int]]:
        """A frame of evidence rows (a column per observed node) as state codes.

        Parameters
        ----------
        evidence : DataFrame
            A row per evidence set, a column per observed node (each node once), values state
            names; a missing value leaves the node unobserved in that row.

        Returns
        -------
        codes : ndarray of int64 of shape (n_rows, n_columns)
            Each value's state index, -1 where a value is missing; columns in ``evidence``'s
            order.
        columns : list of int
            The columns' nodes' positions.

        Raises
        ------
        TypeError
            ``evidence`` is not a DataFrame.
        ValueError
            A column that is no node, two columns of one node, or a value that is no state of
            its column's node.

        Examples
        --------
        >>> from bayeskit.networks import DAG, BayesianNetwork
        >>> net = BayesianNetwork(DAG(edges=[("rain", "wet")]),
        ...     {"rain": [0.2, 0.8], "wet": [[0.9, 0.1], [0.1, 0.9]]},
        ...     states={"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> codes, columns = EvidenceChecker(net).evidence_frame(
        ...     pd.DataFrame({"wet": ["no", None, "yes"]}))
        >>> codes.ravel().tolist(), columns
        ([1, -1, 0], [1])
        """
        if not isinstance(evidence, pd.DataFrame):
            kind = type(evidence).__name__
            msg = f"evidence must be a DataFrame (a column per observed node), got {kind}"
            raise TypeError(msg)
        columns = []
        codes = np.full((len(evidence), evidence.shape[1]), -1, dtype=np.int64)
        for j, node in enumerate(evidence.columns):
            if node not in self.positions:
                msg = f"evidence column {node!r} is no node of the network"
                raise ValueError(msg)
            if self.positions[node] in columns:
                msg = f"evidence has two columns for node {shown(node)}; give each node one column"
                raise ValueError(msg)
            columns.append(self.positions[node])
            codes[:, j] = state_codes(
                evidence.iloc[:, j], self.states[node], f"evidence column {node!r}"
            )
        return codes, columns


def observation_patterns(codes: np.ndarray, columns):
    """The rows of ``codes`` (columns: the nodes ``columns``, -1 = not observed) grouped by
    which nodes they observe: per group, its row numbers, the nodes observed and their codes."""
    patterns, which = np.unique(codes >= 0, axis=0, return_inverse=True)
    which = np.asarray(which).reshape(-1)
    for k, pattern in enumerate(patterns):
        rows = np.flatnonzero(which == k)
        seen = np.flatnonzero(pattern)
        yield rows, tuple(int(columns[j]) for j in seen), codes[np.ix_(rows, seen)]


def continuous_value(node: Any, value: Any) -> float:
    """Evidence ``value`` for the continuous ``node`` as a float; ``ValueError`` naming the
    node for a string, a boolean, a non-scalar or a value that is not finite."""
    if isinstance(value, str | bytes | bool | np.bool_) or not np.isscalar(value):
        msg = f"evidence for the continuous node {node!r} must be a number, got {value!r}"
        raise ValueError(msg)
    number = float(value)  # type: ignore[arg-type]  # a number, checked above
    if not math.isfinite(number):
        msg = f"evidence for {node!r} must be finite, got {value!r}"
        raise ValueError(msg)
    return number


def discrete_code(node: Any, value: Any, states: Sequence[str]) -> int:
    """Evidence ``value`` (its text, as a state is named) for the discrete ``node`` as the
    index of its state; ``ValueError`` naming the node and its states for another value."""
    name = value if isinstance(value, str) else str(value)
    if name not in states:
        msg = f"{value!r} is no state of {node!r} (its states: {list(states)})"
        raise ValueError(msg)
    return list(states).index(name)
