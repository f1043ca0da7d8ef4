"""Max-min hill climbing (MMHC: Tsamardinos, Brown and Aliferis 2006, *The max-min
hill-climbing Bayesian network structure learning algorithm*): a skeleton from tests of
independence, then the score-based climb restricted to it.

1. **MMPC** finds each variable ``T``'s candidate parents and children. Forward: every other
   variable ``X`` gets its *minimum association* with ``T`` over the subsets ``S`` of the
   candidates chosen so far (here the largest p-value of the tests ``X _||_ T | S``); the
   variable whose minimum association is largest (smallest largest p-value) joins, while it
   is still dependent at the significance level; a variable found independent given some
   ``S`` is dropped for good. Backward: a candidate independent of ``T`` given some subset of
   the others leaves. The skeleton keeps ``X - T`` when each is in the other's set.
2. The hill climb of :func:`~bayeskit.learning.hill_climb` on the score, with every
   edge outside the skeleton black-listed: far fewer candidate moves.

Every variable's forward phase advances in step with the others, so each round's tests (all
variables, all candidates, every new subset) are counted in one pass over the rows.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from itertools import combinations
from typing import Any

import numpy as np

from bayeskit.graphs.dag import DAG, edge_pairs
from bayeskit.learning.constraint import _check_search, _tests, check_test
from bayeskit.learning.search import check_search_options, hill_climb

__all__ = ["check_mmhc_options", "learn_mmhc", "mmpc_skeleton"]

#: MMPC runs a test only when its table has at least this many rows per cell on average, and
#: takes dependence otherwise (Tsamardinos, Brown and Aliferis 2006, after Spirtes et al.).
MIN_ROWS_PER_CELL = 5.0


def mmpc_skeleton(nodes: Iterable[Any], tests: Any, significance_level: float = 0.05,
                  max_cond_size: int | None = None) -> set[frozenset]:  # fmt: skip
    """The skeleton of MMPC (the module docstring) on any tests of independence.

    Parameters
    ----------
    nodes : sequence
        The variables; a test's indices refer to this order.
    tests : object
        With ``p_values(batch)`` (:class:`~bayeskit.learning.CountTests`, ...).
    significance_level : float, default=0.05
    max_cond_size : int, optional
        The largest conditioning set; None: every subset of the candidates.

    Returns
    -------
    set of frozenset
        The adjacent pairs (node names).

    Raises
    ------
    ValueError
        A significance level outside [0, 1] or a negative ``max_cond_size``.

    Examples
    --------
    >>> from bayeskit.learning.independence_tests import OracleTests
    >>> true = DAG("abcd", [("a", "c"), ("b", "c"), ("c", "d")])
    >>> sorted(sorted(p) for p in mmpc_skeleton(true.nodes, OracleTests(true, true.nodes)))
    [['a', 'c'], ['b', 'c'], ['c', 'd']]
    """
    nodes = tuple(nodes)
    _check_search(significance_level, max_cond_size, "standard")
    n = len(nodes)
    top = n if max_cond_size is None else max_cond_size
    cpc: list[list[int]] = [[] for _ in range(n)]
    open_: list[set[int]] = [set(range(n)) - {t} for t in range(n)]
    worst = np.zeros((n, n))  # the largest p-value of X _||_ T | S over the subsets tested
    fresh: list[list[tuple]] = [[()] for _ in range(n)]  # subsets not yet tested
    while any(open_):
        batch = [(x, t, s) for t in range(n) for x in sorted(open_[t]) for s in fresh[t]]
        p = tests.p_values(batch) if batch else np.empty(0)
        for (x, t, _), value in zip(batch, p, strict=True):
            worst[t, x] = max(worst[t, x], value)
        for t in range(n):
            open_[t] = {x for x in open_[t] if worst[t, x] <= significance_level}
            if not open_[t]:
                continue
            named = sorted(open_[t], key=lambda x: str(nodes[x]))  # ties: the first name
            best = min(named, key=worst[t].__getitem__)
            open_[t].discard(best)
            fresh[t] = [(*s, best) for k in range(min(len(cpc[t]), top - 1) + 1)
                        for s in combinations(cpc[t], k)] if top > 0 else []  # fmt: skip
            cpc[t].append(best)
    backward = [(x, t, s) for t in range(n) for x in cpc[t]
                for k in range(min(len(cpc[t]) - 1, top) + 1)
                for s in combinations([c for c in cpc[t] if c != x], k)]  # fmt: skip
    p = tests.p_values(backward) if backward else np.empty(0)
    dropped = {(t, x) for (x, t, _), value in zip(backward, p, strict=True)
               if value > significance_level}  # fmt: skip
    kept = [{x for x in cpc[t] if (t, x) not in dropped} for t in range(n)]
    return {frozenset((nodes[t], nodes[x])) for t in range(n) for x in kept[t] if t in kept[x]}


def learn_mmhc(data: Any, score: str = "bic", *, test: str = "auto",
               significance_level: float = 0.05, max_cond_size: int | None = None,
               adjusted_df: bool = True, max_parents: int | None = None, start: Any = "auto",
               black_list: Iterable = (), white_list: Iterable = (), tabu_length: int = 10,
               restarts: int = 0, perturb: int = 5, max_iter: int = 10_000, seed: int = 0,
               ess: float = 1.0, states: Any = None, sample_weight: Any = None,
               progress: Any = None) -> DAG:  # fmt: skip
    """Learn a DAG by max-min hill climbing: MMPC's skeleton, then the hill climb on
    ``score`` restricted to it (the module docstring).

    Parameters
    ----------
    data : DataFrame, or data in chunks
        Complete data, a column per node.
    score : str, default="bic"
        As :func:`~bayeskit.learning.hill_climb`.
    test : str, default="auto"
        As :func:`~bayeskit.learning.learn_pc` (G-squared on categories, Fisher's z on
        numbers).
    significance_level : float, default=0.05
    max_cond_size : int, optional
    adjusted_df : bool, default=True
        As :func:`~bayeskit.learning.learn_pc`.
    max_parents, start, tabu_length, restarts, perturb, max_iter, seed, ess, progress :
        The climb's (:func:`~bayeskit.learning.hill_climb`); ``start="tree"`` (and
        ``"auto"``) is the Chow-Liu forest within the skeleton.
    black_list, white_list : iterable of (u, v) pairs
        As the climb takes them; a white-listed edge stays whatever the tests say.
    states, sample_weight :
        As :func:`~bayeskit.networks.fit_parameters`.

    Returns
    -------
    DAG

    Raises
    ------
    TypeError
        An option neither the tests nor the climb take.
    ValueError
        A setting out of its range (as :func:`~bayeskit.learning.learn_pc` and
        :func:`~bayeskit.learning.hill_climb` say).

    Examples
    --------
    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> a, b = rng.integers(0, 2, 3000), rng.integers(0, 2, 3000)
    >>> c = (a | b) ^ (rng.random(3000) < 0.1)
    >>> learn_mmhc(pd.DataFrame({"a": a, "b": b, "c": c})).edges
    (('a', 'c'), ('b', 'c'))
    """
    climb = {"max_parents": max_parents, "start": start, "tabu_length": tabu_length,
             "restarts": restarts, "perturb": perturb, "max_iter": max_iter, "seed": seed,
             "ess": ess, "progress": progress}  # fmt: skip
    check_mmhc_options(score, {"test": test, "significance_level": significance_level,
                               "max_cond_size": max_cond_size, **climb})  # fmt: skip
    nodes, tester = _tests(
        data,
        test,
        adjusted_df,
        1000,
        None,
        states,
        sample_weight,
        min_rows_per_cell=MIN_ROWS_PER_CELL,
    )
    skeleton = mmpc_skeleton(nodes, tester, significance_level, max_cond_size)
    white = edge_pairs(white_list, "white_list")
    allowed = skeleton | {frozenset(e) for e in white}
    outside = [(u, v) for u in nodes for v in nodes
               if u != v and frozenset((u, v)) not in allowed]  # fmt: skip
    rows = getattr(tester, "data", None)
    if rows is not None:  # the rows encoded once, for the tests and the climb
        data, states, sample_weight = rows, None, None
    return hill_climb(data, score, black_list=[*edge_pairs(black_list, "black_list"),
                                                    *outside],
                           white_list=white, states=states, sample_weight=sample_weight,
                           **climb)  # fmt: skip


def check_mmhc_options(score: Any, options: Mapping[str, Any]) -> None:
    """:func:`learn_mmhc`'s option values checked without the data (the learners' registry
    names an option a learner does not take): ValueError naming a setting and its rule.

    Parameters
    ----------
    score : str
    options : mapping str -> object

    Raises
    ------
    ValueError

    Examples
    --------
    >>> check_mmhc_options("bic", {"significance_level": 0.01, "tabu_length": 20})
    >>> check_mmhc_options("bic", {"tabu_length": -1})
    Traceback (most recent call last):
    ...
    ValueError: tabu_length must be a non-negative integer, got -1
    """
    check_test(options.get("test", "auto"))
    _check_search(options.get("significance_level", 0.05), options.get("max_cond_size"),
                  "standard")  # fmt: skip
    climb = set(inspect.signature(hill_climb).parameters) - {"data", "score"}
    check_search_options(score, {k: v for k, v in options.items() if k in climb})
