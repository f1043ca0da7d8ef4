"""Learning a dynamic Bayesian network's tables from sequences, by counting.

The first slice's CPTs are counted from the first step of every sequence, the step's CPTs
from every pair of consecutive steps (the previous step's values standing for the first-slice
nodes): the same counts and estimators as a static network's, tied across time because every
step shares one table (Murphy 2002, 6.2.1).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from bayeskit.factors.states import node_states, state_codes
from bayeskit.graphs import DAG, as_dag
from bayeskit.networks import BayesianNetwork, fit_parameters
from bayeskit.sequences.dynamic import DynamicBayesianNetwork
from bayeskit.sequences.frames import long_frame

__all__ = ["fit_dbn"]


def _variables(dag: DAG, suffixes: tuple[str, str]) -> list[str]:
    first, step = suffixes
    names = []
    for node in dag.nodes:
        name = str(node)
        if name.endswith(first):
            names.append(name[: -len(first)])
        elif not name.endswith(step):
            msg = f"node {node!r} ends with neither slice suffix {first!r} nor {step!r}"
            raise ValueError(msg)
    return names


def fit_dbn(
    structure: Any,
    data: pd.DataFrame,
    *,
    sequence_column: str,
    estimator: str = "mle",
    alpha: float | None = None,
    states: dict | None = None,
    suffixes: tuple[str, str] = ("0", "t"),
    latent: dict | None = None,
    max_iter: int = 100,
    tol: float = 1e-6,
    random_state: Any = None,
    start: DynamicBayesianNetwork | None = None,
) -> DynamicBayesianNetwork:
    """Fit a dynamic Bayesian network's CPTs to sequences: by counting when they are complete,
    by EM when values are missing or variables hidden.

    Parameters
    ----------
    structure : DAG or list of (parent, child) pairs
        The 2TBN's structure: nodes ``<variable><first>`` and ``<variable><step>``
        (:class:`DynamicBayesianNetwork`).
    data : pandas.DataFrame
        A long frame: one row per step, a column per variable (without suffix) and
        ``sequence_column``; each sequence's rows consecutive and in time order, no value
        missing.
    sequence_column : str
        The column naming each row's sequence.
    estimator : str, default="mle"
        A name of :data:`bayeskit.estimate.ESTIMATORS` ("laplace", "bdeu", ... smooth).
    alpha : float, optional
        The estimator's ``alpha``.
    states : dict of variable to list of str, optional
        Each variable's states (default: its column's values, as networks name them).
    suffixes : pair of str, default=("0", "t")
        The first slice's suffix and the step's.
    latent : dict of variable to int or list of str, optional
        Hidden variables (no column in ``data``) and their number of states (named "0",
        "1", ...) or state names. With these, or with missing values (NaN), the CPTs are
        learned by EM: the E-step's expected counts come from the junction tree of each
        sequence's unrolled network, summed over the steps that share a table, and the
        M-step is ``estimator`` (one that is the mode of a fixed Dirichlet prior).
    max_iter : int, default=100
        EM's most iterations.
    tol : float, default=1e-6
        EM stops when the log-likelihood's relative change is at most this.
    random_state : int, numpy Generator or None, optional
        EM's random starting CPTs.
    start : DynamicBayesianNetwork, optional
        EM's starting CPTs instead (a network of the same structure and states).

    Returns
    -------
    DynamicBayesianNetwork
        With ``history_`` (EM's log-likelihood per iteration), ``n_iter_`` and
        ``converged_`` when learned by EM.

    Raises
    ------
    ValueError
        On a node without a slice suffix, a variable without a column, missing values, or
        sequences whose rows are not consecutive.

    Examples
    --------
    >>> from bayeskit.sequences import example_dbn
    >>> truth = example_dbn("umbrella")
    >>> days = pd.concat([truth.unroll(50).sample(1, seed=k).assign(seq=k) for k in range(40)])
    >>> long = pd.DataFrame({"seq": np.repeat(np.arange(40), 50),
    ...     "rain": days.filter(like="rain@").to_numpy().ravel(),
    ...     "umbrella": days.filter(like="umbrella@").to_numpy().ravel()})
    >>> learned = fit_dbn(truth.network.dag, long, sequence_column="seq")
    >>> learned.network.cpt("raint").round(1).tolist()  # rain persists with 0.7
    [[0.7, 0.3], [0.3, 0.7]]
    """
    first, step = suffixes
    dag = as_dag(structure, what="structure")
    variables = _variables(dag, suffixes)
    X, lengths = long_frame(data, sequence_column)
    hidden = dict(latent or {})
    absent = [v for v in variables if v not in X.columns and v not in hidden]
    if absent:
        msg = f"variable {absent[0]!r} of the structure has no column in the data"
        raise ValueError(msg)
    if hidden or X[[v for v in variables if v in X.columns]].isna().to_numpy().any():
        return _fit_em(dag, X, lengths, variables, hidden, suffixes, estimator, alpha, states,
                       max_iter, tol, random_state, start)  # fmt: skip
    return _fit_counts(dag, X[variables], lengths, variables, suffixes, estimator, alpha, states)


def _fit_counts(dag, X, lengths, variables, suffixes, estimator, alpha, states):
    """Complete sequences: first steps and consecutive pairs counted, tables estimated."""
    first, step = suffixes
    given = dict(states or {})
    named = {v: [str(s) for s in given[v]] if v in given else list(node_states(v, X[v].to_numpy()))
             for v in variables}  # fmt: skip
    offsets = np.r_[0, np.cumsum(lengths)].astype(int)
    starts = offsets[:-1][lengths > 0]
    later = np.ones(len(X), dtype=bool)
    later[starts] = False  # a row with a row before it in its sequence
    text = X.astype(str)
    previous = text.iloc[np.flatnonzero(later) - 1].reset_index(drop=True)
    current = text.iloc[np.flatnonzero(later)].reset_index(drop=True)
    pairs = pd.concat(
        [previous.add_suffix(first), current.add_suffix(step)], axis=1
    )  # fmt: skip
    all_states: dict[Any, Any] = {v + s: named[v] for v in variables for s in suffixes}
    firsts = [n for n in dag.nodes if str(n).endswith(first)]
    dag0 = DAG(firsts, [(p, n) for n in firsts for p in dag.parents(n)])
    fit0 = fit_parameters(
        dag0, text.iloc[starts].add_suffix(first).reset_index(drop=True),
        estimator=estimator, alpha=alpha, states={n: all_states[n] for n in firsts},
    )  # fmt: skip
    if len(pairs):
        fit1 = fit_parameters(dag, pairs, estimator=estimator, alpha=alpha, states=all_states)
    else:
        msg = "every sequence has a single step: there is no transition to count"
        raise ValueError(msg)
    cpts = {n: (fit0 if n in dag0 else fit1).network.cpt(n) for n in dag.nodes}
    return DynamicBayesianNetwork(BayesianNetwork(dag, cpts, states=all_states), suffixes=suffixes)


def _em_setup(dag, X, variables, hidden, suffixes, states):
    """Each variable's states and the data as state codes (-1: missing or hidden)."""
    given = dict(states or {})
    named: dict[str, list[str]] = {}
    for v in variables:
        if v in hidden:
            spec = hidden[v]
            named[v] = [str(k) for k in range(spec)] if isinstance(spec, int) else list(spec)
            if v in X.columns:
                msg = f"latent variable {v!r} has a column in the data"
                raise ValueError(msg)
        elif v in given:
            named[v] = [str(s) for s in given[v]]
        else:
            named[v] = list(node_states(v, X[v].dropna().to_numpy()))
    codes = np.full((len(X), len(variables)), -1, dtype=np.intp)
    for j, v in enumerate(variables):
        if v in hidden:
            continue
        codes[:, j] = state_codes(X[v], named[v], f"column {v!r}")
    return named, codes


def _fit_em(dag, X, lengths, variables, hidden, suffixes, estimator, alpha, states, max_iter,
            tol, random_state, start):  # fmt: skip
    """EM over the unrolled networks, the counts of the steps that share a table tied."""
    from bayeskit.estimate.em import EStep, run_em, settled
    from bayeskit.estimate.registry import get_estimator
    from bayeskit.inference import JunctionTree

    first, step = suffixes
    named, codes = _em_setup(dag, X, variables, hidden, suffixes, states)
    all_states: dict[Any, Any] = {v + s: named[v] for v in variables for s in suffixes}
    rng = np.random.default_rng(random_state)
    shapes = {n: tuple(len(all_states[p]) for p in dag.parents(n)) + (len(all_states[n]),)
              for n in dag.nodes}  # fmt: skip
    cpts = {n: rng.dirichlet(np.ones(shape[-1]), size=shape[:-1]) for n, shape in shapes.items()}
    if start is not None:
        given = {n: np.asarray(start.network.cpt(n), dtype=float) for n in dag.nodes
                 if n in start.network.dag}  # fmt: skip
        wrong = [n for n in dag.nodes if n not in given or given[n].shape != shapes[n]]
        if wrong:
            msg = f"start has no CPT of node {wrong[0]!r} of shape {shapes[wrong[0]]}"
            raise ValueError(msg)
        cpts = given
    dbn = DynamicBayesianNetwork(BayesianNetwork(dag, cpts, states=all_states), suffixes=suffixes)
    rule = get_estimator(estimator, "estimator", fixed_prior=True)
    weight = 1.0 if alpha is None else alpha
    offsets = np.r_[0, np.cumsum(lengths)].astype(int)
    by_length: dict[int, list[int]] = {}
    for s, n in enumerate(lengths):
        if n:
            by_length.setdefault(int(n), []).append(s)
    template = list(dbn.nodes)
    trees: dict[int, JunctionTree] = {}
    rows = {n: np.stack([codes[offsets[s] : offsets[s + 1]].ravel() for s in seqs])
            for n, seqs in by_length.items()}  # fmt: skip

    def e_step(tables, iteration):
        counts = {n: np.zeros(shape) for n, shape in shapes.items()}
        total = 0.0
        for n, batch in rows.items():
            if n not in trees:
                trees[n] = JunctionTree(dbn.unroll(n))
            unrolled = [
                tables[f"{v}{first if k == 0 else step}"] for k in range(n) for v in template
            ]
            family, log_e = trees[n].expected_family_counts(batch, tables=unrolled)
            for i, c in enumerate(family):
                k, v = divmod(i, len(template))
                counts[f"{template[v]}{first if k == 0 else step}"] += c
            total += float(log_e.sum())
        return EStep(counts, total)

    def m_step(counts):
        return {n: rule.probabilities(c, weight) for n, c in counts.items()}

    run = run_em(e_step, m_step, cpts, max_iter=max_iter, tol=tol, stop=settled,
                 m_step_last=True, description="EM")  # fmt: skip
    net = BayesianNetwork(dag, run.parameters, states=all_states)
    out = DynamicBayesianNetwork(net, suffixes=suffixes)
    out.history_, out.n_iter_, out.converged_ = run.objective, run.n_iter, run.converged
    return out
