"""Dynamic Bayesian networks: a two-slice temporal network over discrete nodes.

A dynamic Bayesian network (DBN) describes a process ``X_1, X_2, ...`` of sets of discrete
variables by two pieces (Murphy 2002, *Dynamic Bayesian Networks*, 2.2): a network for the
first slice, ``P(X_1)``, and a *two-slice* network for one step, ``P(X_t | X_{t-1})``, whose
nodes have parents in the same slice or in the previous one. Written as one network (a
"2TBN", as pyAgrum writes it), the first-slice nodes carry one suffix (``"0"``) and the
step's nodes another (``"t"``): ``rain0 -> raint`` is the rain's persistence, ``raint ->
umbrellat`` the umbrella it causes. A hidden Markov model is the special case of one hidden
node with one observed child.

Inference answers smoothing (each unobserved node's posterior given the whole sequence),
filtering (given the steps so far), the most probable joint assignment (the Viterbi path of an
HMM) and the log-likelihood. While a slice's joint state is small enough to enumerate, the
network is a hidden Markov model over that joint state and the compiled
forward-backward and Viterbi passes answer in time linear in the number of steps; otherwise
the network is unrolled over the steps (``X@0, X@1, ...``) and bayeskit's exact engines run
on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.graphs import DAG
from bayeskit.inference import ExactInference, JunctionTree
from bayeskit.inference.evidence import discrete_code
from bayeskit.networks import BayesianNetwork
from bayeskit.sequences._slices import SliceChain

__all__ = ["FORWARD_MAX_CELLS", "DynamicBayesianNetwork", "example_dbn"]

#: Inference runs on a slice's joint state as a Markov chain (linear in the number of steps)
#: while the joint of two slices has at most this many cells; else on the unrolled network
#: (for filtering, one junction-tree calibration per step: quadratic).
FORWARD_MAX_CELLS = 1 << 20


class DynamicBayesianNetwork:
    """A two-slice temporal Bayesian network (2TBN) over discrete nodes.

    Parameters
    ----------
    network : BayesianNetwork
        The 2TBN: each node named ``<name><first>`` (the first slice, parents among the first
        slice only; its CPTs give ``P(X_1)``) or ``<name><step>`` (a step, parents among the
        step's nodes and the first-slice nodes, which then stand for the previous slice).
        Every name appears in both slices, with the same states.
    suffixes : pair of str, default=("0", "t")
        The first slice's suffix and the step's (pyAgrum's convention).

    Attributes
    ----------
    nodes : tuple of str
        The process's variables, without suffixes, in the network's order.
    network : BayesianNetwork
        The 2TBN as given.
    history_, n_iter_, converged_ : list of float, int, bool, or None
        For a network learned by EM (:func:`~bayeskit.sequences.fit_dbn`): the
        log-likelihood per iteration, the iterations made and whether EM converged.

    Raises
    ------
    ValueError
        When a node carries neither suffix, a variable is missing from a slice, its states
        differ between slices, or a first-slice node has a parent in the step.

    Examples
    --------
    Russell and Norvig's umbrella world (*AI: A Modern Approach*, 15.2): rain persists with
    probability 0.7, and the director carries an umbrella on 90% of rainy days, 20% of others.

    >>> from bayeskit.networks import BayesianNetwork
    >>> from bayeskit.graphs import DAG
    >>> yn = ["yes", "no"]
    >>> dag = DAG(edges=[("rain0", "umbrella0"), ("rain0", "raint"), ("raint", "umbrellat")])
    >>> umbrella = [[0.9, 0.1], [0.2, 0.8]]
    >>> net = BayesianNetwork(dag, {"rain0": [0.5, 0.5], "umbrella0": umbrella,
    ...     "raint": [[0.7, 0.3], [0.3, 0.7]], "umbrellat": umbrella},
    ...     states=dict.fromkeys(["rain0", "umbrella0", "raint", "umbrellat"], yn))
    >>> dbn = DynamicBayesianNetwork(net)
    >>> days = pd.DataFrame({"umbrella": ["yes", "yes"]})
    >>> dbn.smooth(days)["rain"].round(3)  # the book's 0.883 for day 1, 0.883 for day 2
    state    yes     no
    step
    0      0.883  0.117
    1      0.883  0.117
    >>> dbn.filter(days)["rain"].round(3)  # the book's 0.818, then 0.883
    state    yes     no
    step
    0      0.818  0.182
    1      0.883  0.117
    """

    def __init__(self, network: BayesianNetwork, *, suffixes: tuple[str, str] = ("0", "t")):
        if not isinstance(network, BayesianNetwork):
            msg = f"network must be a BayesianNetwork (the 2TBN), got {type(network).__name__}"
            raise TypeError(msg)
        first, step = suffixes
        if not first or not step or first == step:
            msg = f"suffixes must be two different non-empty strings, got {suffixes!r}"
            raise ValueError(msg)
        self.network, self.suffixes = network, (first, step)
        self._base: dict[Any, tuple[str, int]] = {}
        for node in network.nodes:
            name = str(node)
            if name.endswith(first):
                self._base[node] = (name[: -len(first)], 0)
            elif name.endswith(step):
                self._base[node] = (name[: -len(step)], 1)
            else:
                msg = f"node {node!r} ends with neither slice suffix {first!r} nor {step!r}"
                raise ValueError(msg)
        slices = [[b for b, k in self._base.values() if k == s] for s in (0, 1)]
        if set(slices[0]) != set(slices[1]):
            odd = sorted(set(slices[0]) ^ set(slices[1]))[0]
            msg = f"variable {odd!r} must have a node in both slices ({odd}{first}, {odd}{step})"
            raise ValueError(msg)
        self.nodes = tuple(slices[0])
        self._node = {(b, k): n for n, (b, k) in self._base.items()}
        self._step = {n for n, (_, k) in self._base.items() if k == 1}
        for b in self.nodes:
            s0, s1 = network.states(self._node[b, 0]), network.states(self._node[b, 1])
            if tuple(s0) != tuple(s1):
                msg = f"variable {b!r} has states {list(s0)} in the first slice, {list(s1)} later"
                raise ValueError(msg)
            for parent in network.dag.parents(self._node[b, 0]):
                if self._base[parent][1] == 1:
                    msg = (
                        f"first-slice node {self._node[b, 0]!r} has a parent {parent!r} in the step"
                    )
                    raise ValueError(msg)
        self._unrolled: dict[int, BayesianNetwork] = {}
        self._slice_chain: SliceChain | None = None
        self.history_: list[float] | None = None
        self.n_iter_: int | None = None
        self.converged_: bool | None = None

    @classmethod
    def from_hmm(cls, model: Any, *, hidden: str = "state", observed: str = "symbol") -> Any:
        """The dynamic network of a categorical hidden Markov model: ``hidden0 -> hiddent``,
        each hidden node with one observed child.

        Parameters
        ----------
        model : HiddenMarkovModel
            Fitted (or set by hand), with ``emission="categorical"``.
        hidden, observed : str, default "state" and "symbol"
            The variables' names; their states are ``"0"``, ``"1"``, ... (the codes).

        Returns
        -------
        DynamicBayesianNetwork

        Raises
        ------
        ValueError
            When the model's emission is not categorical.

        Examples
        --------
        >>> from bayeskit.sequences import example_hmm
        >>> dbn = DynamicBayesianNetwork.from_hmm(example_hmm("rainy-sunny"))
        >>> path, _ = dbn.most_probable_sequence(pd.DataFrame({"symbol": ["0", "1", "2"]}))
        >>> path["state"].tolist()  # the HMM's Viterbi path
        ['1', '0', '0']
        """
        if getattr(model, "emission", None) != "categorical":
            msg = "from_hmm takes a hidden Markov model with emission='categorical'"
            raise ValueError(msg)
        _, params = model._fitted()
        first, step = "0", "t"
        h0, ht, o0, ot = (hidden + first, hidden + step, observed + first, observed + step)
        dag = DAG(edges=[(h0, o0), (h0, ht), (ht, ot)])
        emit = np.asarray(params["emissionprob_"], dtype=float)
        cpts: dict[Any, Any] = {h0: params["startprob_"], ht: params["transmat_"], o0: emit,
                                ot: emit}  # fmt: skip
        names = {h0: range(model.n_states), ht: range(model.n_states), o0: range(emit.shape[1]),
                 ot: range(emit.shape[1])}  # fmt: skip
        states: dict[Any, Any] = {k: [str(v) for v in r] for k, r in names.items()}
        return cls(BayesianNetwork(dag, cpts, states=states))

    def states(self, node: str) -> tuple[str, ...]:
        """The state names of the variable ``node`` (without suffix).

        Parameters
        ----------
        node : str
            A variable of the process.

        Returns
        -------
        tuple of str

        Raises
        ------
        KeyError
            For an unknown variable.

        Examples
        --------
        >>> from bayeskit.sequences import example_dbn
        >>> example_dbn("umbrella").states("rain")
        ('yes', 'no')
        """
        if (node, 0) not in self._node:
            msg = f"no variable {node!r}; the variables are {list(self.nodes)}"
            raise KeyError(msg)
        return tuple(self.network.states(self._node[node, 0]))

    # ---------------------------------------------------------------- unrolling

    def unroll(self, n_steps: int) -> BayesianNetwork:
        """The network of ``n_steps`` slices, its nodes named ``"<variable>@<step>"``.

        Parameters
        ----------
        n_steps : int
            The number of slices (at least 1).

        Returns
        -------
        BayesianNetwork
            Slice 0 has the first slice's CPTs, every later slice the step's, its parents in
            the previous slice taken from the slice before.

        Raises
        ------
        ValueError
            When ``n_steps`` is not a positive integer.

        Examples
        --------
        >>> from bayeskit.sequences import example_dbn
        >>> net = example_dbn("umbrella").unroll(3)
        >>> net.dag.parents("rain@2"), net.cpt("rain@2").tolist()
        (('rain@1',), [[0.7, 0.3], [0.3, 0.7]])
        """
        if not (isinstance(n_steps, int | np.integer) and n_steps >= 1):
            msg = f"n_steps must be a positive integer, got {n_steps!r}"
            raise ValueError(msg)
        if n_steps in self._unrolled:
            return self._unrolled[n_steps]
        edges: list = []
        order: list = []
        cpts: dict[Any, Any] = {}
        states: dict[Any, Any] = {}
        for k in range(n_steps):
            for b in self.nodes:
                source = self._node[b, min(k, 1)]
                name = f"{b}@{k}"
                order.append(name)
                for parent in self.network.dag.parents(source):
                    pb, ps = self._base[parent]
                    at = k if (k == 0 or ps == 1) else k - 1
                    edges.append((f"{pb}@{at}", name))
                cpts[name] = self.network.cpt(source)
                states[name] = list(self.network.states(source))
        unrolled = BayesianNetwork(DAG(order, edges), cpts, states=states)
        self._unrolled = {n_steps: unrolled}  # keep the last one: sequences often share length
        return unrolled

    def _evidence(self, frame: pd.DataFrame, upto: int | None = None) -> dict:
        """``{"node@step": state}`` of a frame's observed cells (NaN/None: unobserved)."""
        if not isinstance(frame, pd.DataFrame):
            msg = f"the observations must be a pandas DataFrame, got {type(frame).__name__}"
            raise TypeError(msg)
        unknown = [c for c in frame.columns if (str(c), 0) not in self._node]
        if unknown:
            msg = f"column {unknown[0]!r} is no variable of the network ({list(self.nodes)})"
            raise ValueError(msg)
        evidence = {}
        for column in frame.columns:
            values = frame[column].to_numpy()
            for k, value in enumerate(values[: None if upto is None else upto + 1]):
                if not pd.isna(value):
                    evidence[f"{column}@{k}"] = value if isinstance(value, str) else str(value)
        return evidence

    def _steps(self, frame: pd.DataFrame) -> int:
        if len(frame) < 1:
            msg = "the observations hold no step"
            raise ValueError(msg)
        return len(frame)

    def _small(self) -> bool:
        """Whether two slices' joint state is small enough for the frontier passes."""
        cells = np.prod([len(self.states(b)) for b in self.nodes], dtype=float)
        return bool(cells**2 <= FORWARD_MAX_CELLS)

    def _tables(self, rows: dict[str, dict[int, np.ndarray]]) -> dict[str, pd.DataFrame]:
        """Per variable, its rows (step -> marginal) as a table: a row per step, a column per
        state."""
        out = {}
        for b, by_step in rows.items():
            table = pd.DataFrame.from_dict(
                dict(sorted(by_step.items())), orient="index", columns=list(self.states(b))
            )
            table.index.name, table.columns.name = "step", "state"
            out[b] = table
        return out

    def _frames(self, marginals: Mapping, n_steps: int) -> dict[str, pd.DataFrame]:
        """The unrolled network's marginals (``"rain@3"`` -> factor) as :meth:`_tables`."""
        rows: dict[str, dict[int, np.ndarray]] = {}
        for b in self.nodes:
            for k in range(n_steps):
                if f"{b}@{k}" in marginals:
                    rows.setdefault(b, {})[k] = marginals[f"{b}@{k}"].values
        return self._tables(rows)

    # ---------------------------------------------------------------- inference

    def smooth(self, observations: pd.DataFrame) -> dict[str, pd.DataFrame]:
        """Each unobserved variable's posterior at each step given the whole sequence.

        Parameters
        ----------
        observations : pandas.DataFrame
            One row per step, a column per observed variable (others absent); NaN where a
            value was not observed.

        Returns
        -------
        dict of str to pandas.DataFrame
            Per variable unobserved somewhere: a row per step where it is unobserved
            (``step`` index), a column per state.

        Raises
        ------
        ValueError
            On an unknown column or state, no rows, or observations of probability 0.

        Examples
        --------
        >>> from bayeskit.sequences import example_dbn
        >>> days = pd.DataFrame({"umbrella": ["yes", "yes", "no"]})
        >>> example_dbn("umbrella").smooth(days)["rain"].round(3)["yes"].tolist()
        [0.862, 0.799, 0.191]
        """
        n = self._steps(observations)
        if self._small():
            codes = self._codes(observations)
            joint, _ = self._chain().smoothed(codes)
            return self._tables(self._chain().marginals(joint, codes))
        tree = JunctionTree(self.unroll(n))
        return self._frames(tree.calibrate(self._evidence(observations)), n)

    def filter(self, observations: pd.DataFrame) -> dict[str, pd.DataFrame]:
        """Each unobserved variable's posterior at each step given the steps up to it.

        Parameters
        ----------
        observations : pandas.DataFrame
            One row per step, a column per observed variable; NaN where not observed.

        Returns
        -------
        dict of str to pandas.DataFrame
            Per variable: a row per step where it is unobserved, a column per state.

        Raises
        ------
        ValueError
            On an unknown column or state, no rows, or observations of probability 0.

        Examples
        --------
        >>> from bayeskit.sequences import example_dbn
        >>> days = pd.DataFrame({"umbrella": ["yes", "yes", "no"]})
        >>> example_dbn("umbrella").filter(days)["rain"].round(3)["yes"].tolist()
        [0.818, 0.883, 0.19]
        """
        n = self._steps(observations)
        if self._small():
            codes = self._codes(observations)
            rows = self._chain().marginals(self._chain().filtered(codes), codes)
        else:  # a slice too large to hold jointly: one calibration per step (quadratic in n)
            self._evidence(observations)
            tree = JunctionTree(self.unroll(n))
            rows = {}
            for k in range(n):
                marginals = tree.calibrate(self._evidence(observations, upto=k))
                for b in self.nodes:
                    if f"{b}@{k}" in marginals:
                        rows.setdefault(b, {})[k] = marginals[f"{b}@{k}"].values
        return self._tables(rows)

    def _chain(self) -> SliceChain:
        """The network as a chain over a slice's joint state (made once)."""
        if self._slice_chain is None:
            self._slice_chain = SliceChain(self)
        return self._slice_chain

    def _codes(self, frame: pd.DataFrame) -> np.ndarray:
        """Each step's state code of each variable ``(n_steps, n_variables)``, -1 where not
        observed (NaN or an absent column)."""
        self._evidence(frame.iloc[:0])  # the columns' names checked
        codes = np.full((len(frame), len(self.nodes)), -1, dtype=np.intp)
        for i, b in enumerate(self.nodes):
            if b not in frame.columns:
                continue
            ids, values = pd.factorize(frame[b], use_na_sentinel=True)  # each value once
            lookup = np.array([discrete_code(b, v, self.states(b)) for v in values], np.intp)
            codes[:, i] = np.where(ids >= 0, lookup[np.maximum(ids, 0)] if len(lookup) else -1, -1)
        return codes

    def most_probable_sequence(self, observations: pd.DataFrame) -> tuple[pd.DataFrame, float]:
        """The most probable joint assignment of every unobserved value (for an HMM, the
        Viterbi path) and its log-probability jointly with the observations.

        Parameters
        ----------
        observations : pandas.DataFrame
            One row per step, a column per observed variable; NaN where not observed.

        Returns
        -------
        states : pandas.DataFrame
            A row per step, a column per variable unobserved somewhere (``None`` where it was
            observed).
        log_probability : float
            ``log P(assignment, observations)``.

        Raises
        ------
        ValueError
            On an unknown column or state, no rows, or observations of probability 0.

        Examples
        --------
        >>> from bayeskit.sequences import example_dbn
        >>> days = pd.DataFrame({"umbrella": ["yes", "yes", "no", "yes", "yes"]})
        >>> path, log_p = example_dbn("umbrella").most_probable_sequence(days)
        >>> path["rain"].tolist()  # the book's Fig. 15.5
        ['yes', 'yes', 'no', 'yes', 'yes']
        """
        n = self._steps(observations)
        if self._small():
            codes = self._codes(observations)
            path, log_p = self._chain().most_probable(codes)
            table = pd.DataFrame(index=pd.RangeIndex(n, name="step"))
            for i, b in enumerate(self.nodes):
                if (codes[:, i] < 0).any():
                    names = self.states(b)
                    table[b] = [names[c] if s < 0 else None
                                for c, s in zip(path[:, i], codes[:, i], strict=True)]  # fmt: skip
            return table, log_p
        evidence = self._evidence(observations)
        exact = ExactInference(self.unroll(n))
        result = exact.map_query(None, evidence)
        table = pd.DataFrame(index=pd.RangeIndex(n, name="step"))
        for b in self.nodes:
            column = [result.assignment.get(f"{b}@{k}") for k in range(n)]
            if any(v is not None for v in column):
                table[b] = column
        log_evidence = exact.probability_of_evidence(evidence, log=True)
        return table, float(result.log_probability + log_evidence)

    def log_likelihood(self, observations: pd.DataFrame) -> float:
        """``log P(observations)``, the unobserved values summed out.

        Parameters
        ----------
        observations : pandas.DataFrame
            One row per step, a column per observed variable; NaN where not observed.

        Returns
        -------
        float

        Raises
        ------
        ValueError
            On an unknown column or state, or no rows.

        Examples
        --------
        >>> from bayeskit.sequences import example_dbn
        >>> days = pd.DataFrame({"umbrella": ["yes", "yes"]})
        >>> round(float(np.exp(example_dbn("umbrella").log_likelihood(days))), 4)
        0.3515
        """
        n = self._steps(observations)
        if self._small():
            return self._chain().log_likelihood(self._codes(observations))
        return float(ExactInference(self.unroll(n)).probability_of_evidence(
            self._evidence(observations), log=True))  # fmt: skip


def example_dbn(name: str) -> DynamicBayesianNetwork:
    """A dynamic Bayesian network from a textbook example.

    Parameters
    ----------
    name : {"umbrella"}
        Russell and Norvig's umbrella world (*Artificial Intelligence: A Modern Approach*,
        15.1-15.2): ``rain`` (hidden, persisting with probability 0.7) and ``umbrella`` (seen
        on 90% of rainy days and 20% of dry ones); a uniform first day.

    Returns
    -------
    DynamicBayesianNetwork

    Raises
    ------
    ValueError
        On an unknown name.

    Examples
    --------
    >>> example_dbn("umbrella").nodes
    ('rain', 'umbrella')
    """
    if name != "umbrella":
        msg = f"unknown example {name!r}; the examples are ['umbrella']"
        raise ValueError(msg)
    yn = ["yes", "no"]
    dag = DAG(edges=[("rain0", "umbrella0"), ("rain0", "raint"), ("raint", "umbrellat")])
    umbrella = [[0.9, 0.1], [0.2, 0.8]]
    cpts: dict[Any, Any] = {"rain0": [0.5, 0.5], "umbrella0": umbrella,
                            "raint": [[0.7, 0.3], [0.3, 0.7]], "umbrellat": umbrella}  # fmt: skip
    states: dict[Any, Any] = dict.fromkeys(cpts, yn)
    return DynamicBayesianNetwork(BayesianNetwork(dag, cpts, states=states))
