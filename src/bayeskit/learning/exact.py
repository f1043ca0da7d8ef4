"""Exact structure learning: the DAG of highest decomposable score, by dynamic programming
over subsets of the variables (Silander and Myllymaki 2006, *A simple approach for finding
the globally optimal Bayesian network structure*), with the candidate parent sets pruned
(de Campos and Ji 2011, *Efficient structure learning of Bayesian networks using
constraints*).

1. **Candidate parent sets.** For each variable ``v``, parent sets grow one variable at a time
   from the empty set (each level scored in one pass per set: the scorer's ``extensions``). A
   set is kept as a candidate only when it scores better than each of its subsets one smaller
   and every subset those are kept against (its best subset): a set no better than a subset
   is never an optimal family, since the subset leaves the order freer. For the discrete
   scores with a penalty, the log-likelihood bounds every score: it is at most ``L``, ``v``'s
   log-likelihood given every other variable (at most 0), so BIC's family ``S`` scores at
   most ``L - pen(S)``, and a superset's penalty is larger; once the best subset of ``S``
   scores at least that, neither ``S`` nor any superset can be optimal, and the growth stops
   there (de Campos and Ji's Theorem 4, with ``L`` in place of 0). Other scores grow up to
   ``max_parents``.
2. **Best parent sets within each subset.** ``bps(v, C)``, the best candidate of ``v`` inside
   ``C``, for every subset ``C`` of the other variables: a max-transform over the subset
   lattice, one pass per variable bit.
3. **Best sinks.** ``best(W) = max_{s in W} best(W - s) + bps(s, W - s)``: the best network
   over ``W`` has a sink ``s`` whose parents lie in ``W - s``. Subsets are taken by size, all
   of a size at once.
4. The optimum is read back from ``W = V``: its sink, that sink's parents, then ``V - s``.

Memory is ``n 2^(n-1)`` best parent sets (a float and an index each) and ``2^n`` sinks with
the subsets to visit: 142 MiB at 20 variables, 5.4 GiB at 25. The search refuses a problem
larger than ``max_bytes`` before it allocates anything, naming the memory it would need.

Equivalent DAGs score the same under BIC, AIC, LL and BDeu; among sinks whose networks score
the same to 1e-9 (relative) the later node is taken, so edges point from earlier to later
columns where the class allows it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from bayeskit.data.validation import check_count
from bayeskit.graphs.dag import DAG, edge_pairs
from bayeskit.learning.constraint import forwards_to
from bayeskit.learning.scores import SCORES, CountScorer, family_scores
from bayeskit.stats.extensions import family_table

__all__ = ["ExactResult", "check_exact_options", "exact_dag", "exact_memory", "learn_exact"]

#: The most variables the exact search takes (its memory doubles with each one).
MAX_VARIABLES = 30


@dataclass(frozen=True)
class ExactResult:
    """The optimum of an exact structure search.

    Attributes
    ----------
    dag : DAG
        A DAG of highest score.
    score : float
        Its score, the sum of its families' scores.
    parent_sets : dict
        The certificate: each node -> its candidate parent sets and their scores (a list of
        ``(parents, score)``, best first). Every other parent set scores no better than one
        of its subsets (or is bounded below one), so the optimum uses one of these per node;
        a DAG's score can be checked against them.
    order : tuple
        The nodes in the order the search removed them as sinks, reversed: a topological
        order of ``dag``.

    Examples
    --------
    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> a = rng.integers(0, 2, 500)
    >>> data = pd.DataFrame({"a": a, "b": a ^ (rng.random(500) < 0.1)})
    >>> result = learn_exact(data)
    >>> result.dag.edges, round(result.score, 2)
    ((('a', 'b'),), -487.79)
    """

    dag: DAG
    score: float
    parent_sets: dict
    order: tuple


def exact_memory(n_variables: int) -> int:
    """The bytes the exact search's tables take for ``n_variables`` variables.

    Parameters
    ----------
    n_variables : int

    Returns
    -------
    int

    Examples
    --------
    >>> f"{exact_memory(20) / 2**20:.0f} MiB, {exact_memory(25) / 2**30:.1f} GiB"
    '142 MiB, 5.4 GiB'
    """
    n = int(n_variables)
    if n <= 0:
        return 0
    best_parents = n * (1 << (n - 1)) * (8 + 4)  # scores and candidate indices
    sinks = (1 << n) * (8 + 1 + 4 + 1 + 8)  # best scores, sinks; subsets by size to visit
    return best_parents + sinks


def learn_exact(data: Any, score: str = "bic", *, max_parents: int | None = None,
                black_list: Iterable = (), ess: float = 1.0, states: Any = None,
                sample_weight: Any = None,
                max_bytes: int | None = None) -> ExactResult:  # fmt: skip
    """The DAG of highest score over ``data``'s columns, exactly (the module docstring).

    Parameters
    ----------
    data : DataFrame, or data in chunks
        Complete data, a column per node (as :func:`~bayeskit.learning.hill_climb` takes
        it: categories, or continuous columns scored by linear-Gaussian or CLG families).
    score : {"bic", "aic", "k2", "bdeu", "ll", "bge"}, default="bic"
        Any decomposable score; the discrete BIC and AIC prune by their bound, the others
        grow parent sets up to ``max_parents`` (give it: with none, every parent set of every
        node is scored).
    max_parents : int, optional
        The most parents a node may have.
    black_list : iterable of (parent, child) pairs
        Edges no DAG may have.
    ess : float, default=1.0
        BDeu's equivalent sample size.
    states, sample_weight :
        As :func:`~bayeskit.networks.fit_parameters`.
    max_bytes : int, optional
        The most memory the search's tables may take (:func:`exact_memory`); None: three
        quarters of this machine's memory.

    Returns
    -------
    ExactResult
        The DAG, its score and the certificate (every node's candidate parent sets).

    Raises
    ------
    ValueError
        More than 30 variables, tables beyond ``max_bytes`` (the message names the memory
        needed), an unknown score or bad options, or data the scorer refuses.

    Examples
    --------
    >>> import pandas as pd
    >>> rng = np.random.default_rng(1)
    >>> a, b = rng.integers(0, 2, 2000), rng.integers(0, 2, 2000)
    >>> c = (a | b) ^ (rng.random(2000) < 0.1)
    >>> learn_exact(pd.DataFrame({"a": a, "b": b, "c": c})).dag.edges
    (('a', 'c'), ('b', 'c'))
    """
    from bayeskit.learning.data_scorers import family_scorer

    if score not in SCORES:
        msg = f"score must be one of {SCORES}, got {score!r}"
        raise ValueError(msg)
    check_count("max_parents", max_parents, none_ok=True)
    n = len(data.columns) if hasattr(data, "columns") else None
    if n is not None:
        _check_size(n, max_bytes)
    scorer, nodes = family_scorer(data, score, ess, states, sample_weight)
    n = len(nodes)
    _check_size(n, max_bytes)
    index = {v: i for i, v in enumerate(nodes)}
    banned = {(index[u], index[v]) for u, v in edge_pairs(black_list, "black_list")
              if u in index and v in index}  # fmt: skip
    limit = n - 1 if max_parents is None else min(max_parents, n - 1)
    candidates = [_candidates(scorer, v, n, limit, banned) for v in range(n)]
    best_sets, best_index = _best_parent_sets(candidates, n)
    total, order, chosen = _sinks(best_sets, best_index, candidates, n)
    edges = [(nodes[u], nodes[v]) for v in range(n) for u in sorted(chosen[v])]
    certificate = {nodes[v]: [(tuple(nodes[u] for u in sorted(s)), float(x))
                              for s, x in sorted(candidates[v], key=lambda c: -c[1])]
                   for v in range(n)}  # fmt: skip
    return ExactResult(DAG(nodes, edges), float(total), certificate,
                       tuple(nodes[v] for v in order))  # fmt: skip


def _check_size(n: int, max_bytes: int | None) -> None:
    if n > MAX_VARIABLES:
        msg = (f"exact search over {n} variables would need {exact_memory(n) / 2**30:,.0f} GiB; "
               f"it takes at most {MAX_VARIABLES} (use the hill climb, GES or MMHC)")  # fmt: skip
        raise ValueError(msg)
    need = exact_memory(n)
    limit = _default_bytes() if max_bytes is None else int(max_bytes)
    if need > limit:
        msg = (f"exact search over {n} variables needs {need / 2**30:.1f} GiB for its tables, "
               f"more than max_bytes={limit:,} ({limit / 2**30:.1f} GiB): raise max_bytes, "
               "or drop variables")  # fmt: skip
        raise ValueError(msg)


def _default_bytes() -> int:
    import os

    try:
        return int(0.75 * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not a POSIX system
        return 8 << 30


def _penalty(scorer: Any, v: int, parents: frozenset) -> float | None:
    """``pen(S)`` where the score is ``LL - pen`` with ``LL <= 0`` (discrete BIC and AIC;
    None for scores without that bound)."""
    if not isinstance(scorer, CountScorer) or scorer.kind not in ("bic", "aic"):
        return None
    q = float(np.prod(scorer.r[list(parents)])) if parents else 1.0
    r = int(scorer.r[v])
    empty = np.zeros(r)  # a table of no rows: log-likelihood 0, the score is -pen
    return -float(scorer._scores(empty, r, np.array([1]), np.array([q]))[0])


def _candidates(scorer: Any, v: int, n: int, limit: int, banned: set) -> list:
    """``v``'s candidate parent sets and their scores (the module docstring, step 1). Each
    set is grown from its prefix (itself without its largest member), so each is scored once,
    and only when every subset one smaller may still grow (is "alive") and their best score
    is below the set's bound: otherwise neither it nor a superset can be optimal."""
    empty: frozenset[int] = frozenset()
    base = scorer(v, empty)
    top_ll = _top_log_likelihood(scorer, v, n)
    kept = [(empty, base)]
    best_sub = {empty: base}  # the best score among a set's subsets (itself included)
    level = [empty]
    alive = {empty}  # the sets whose supersets may still be optimal
    allowed = [u for u in range(n) if u != v and (u, v) not in banned]
    for _ in range(limit):
        grown: dict[frozenset, float] = {}
        for parents in level:
            top = max(parents, default=-1)
            wanted = []
            for u in allowed:
                bigger = parents | {u}
                if u <= top or not all(bigger - {w} in alive for w in parents):
                    continue
                best = max(best_sub[bigger - {w}] for w in bigger)
                if not _bounded(scorer, v, bigger, best, top_ll):
                    wanted.append((u, bigger, best))
            if wanted:  # only the candidates wanted, one pass over the rows for them all
                cands = np.array([u for u, _, _ in wanted], dtype=np.int64)
                ext = dict(zip(cands.tolist(), scorer._extend(v, parents, cands), strict=True))
                for u, bigger, best in wanted:
                    value = float(ext[u])
                    grown[bigger] = value
                    best_sub[bigger] = max(best, value)
                    if value > best:
                        kept.append((bigger, value))
        level = list(grown)
        alive.update(level)
        if not level:
            break
    return kept


def _bounded(scorer: Any, v: int, parents: frozenset, best: float, top: float) -> bool:
    """Whether no superset of ``parents`` can be an optimal family: its best subset scores at
    least the bound ``top - pen(parents)`` on every superset's score (``top``: the largest
    log-likelihood any family of ``v`` reaches)."""
    pen = _penalty(scorer, v, parents)
    return pen is not None and best >= top - pen


def _top_log_likelihood(scorer: Any, v: int, n: int) -> float:
    """The log-likelihood of ``v`` given every other variable, which no parent set exceeds:
    rows that agree on every other variable but not on ``v`` keep it below 0. Counted from
    the scorer's rows where it holds them; 0 (the loose bound) otherwise, or for the scores
    without the bound."""
    rows = getattr(scorer, "codes", None)
    if _penalty(scorer, v, frozenset()) is None or rows is None:
        return 0.0
    ids, k, _ = scorer._configurations(frozenset(u for u in range(n) if u != v))
    r = int(scorer.r[v])
    flat = family_table(ids, k, rows[v], r, scorer.weights)
    ll = family_scores(flat, r, np.array([k]), np.array([1.0]), "ll", scorer.n_rows, 1.0)[0]
    return min(0.0, float(ll))


def _best_parent_sets(candidates: list, n: int) -> tuple[list, list]:
    """``bps(v, C)`` and the index of the candidate giving it, for every subset ``C`` of the
    other variables (bit ``j`` of ``C``: the ``j``-th of them): the candidates put at their
    own subsets, then, for each bit, every set with it takes the better of itself and the set
    without it (step 2)."""
    size = 1 << (n - 1)
    scores, index = [], []
    for v in range(n):
        best = np.full(size, -np.inf)
        which = np.full(size, -1, dtype=np.int32)
        for k, (parents, value) in enumerate(candidates[v]):
            at = sum(1 << (u if u < v else u - 1) for u in parents)
            if value > best[at]:
                best[at], which[at] = value, k
        for bit in range(n - 1):
            b = best.reshape(-1, 2, 1 << bit)
            w = which.reshape(-1, 2, 1 << bit)
            better = b[:, 0] > b[:, 1]
            b[:, 1] = np.where(better, b[:, 0], b[:, 1])
            w[:, 1] = np.where(better, w[:, 0], w[:, 1])
        scores.append(best)
        index.append(which)
    return scores, index


def _sinks(scores: list, index: list, candidates: list, n: int):
    """The best network's score, a topological order and each node's parents (steps 3, 4)."""
    full = (1 << n) - 1
    best = np.full(1 << n, -np.inf)
    best[0] = 0.0
    sink = np.full(1 << n, -1, dtype=np.int8)
    subsets = np.arange(1 << n, dtype=np.uint32)
    by_size = np.argsort(np.bitwise_count(subsets), kind="stable").astype(np.uint32)
    counts = np.bincount(np.bitwise_count(subsets), minlength=n + 1)
    del subsets
    start = 1
    for k in range(1, n + 1):
        layer = by_size[start : start + counts[k]].astype(np.int64)
        start += counts[k]
        top = np.full(len(layer), -np.inf)
        arg = np.full(len(layer), -1, dtype=np.int8)
        for s in range(n):
            has = (layer >> s) & 1 == 1
            rest = layer[has] ^ (1 << s)
            low = rest & ((1 << s) - 1)
            packed = low | ((rest >> (s + 1)) << s)  # ``rest`` in ``s``'s bits (s removed)
            value = best[rest] + scores[s][packed]
            where = np.flatnonzero(has)
            current = top[where]
            better = value >= current - 1e-9 * np.abs(current)  # ties: the later sink
            top[where[better]] = value[better]
            arg[where[better]] = s
        best[layer] = top
        sink[layer] = arg
    order: list[int] = []
    chosen: list[frozenset[int]] = [frozenset()] * n
    w = full
    while w:
        s = int(sink[w])
        rest = w ^ (1 << s)
        packed = (rest & ((1 << s) - 1)) | ((rest >> (s + 1)) << s)
        chosen[s] = candidates[s][int(index[s][packed])][0]
        order.append(s)
        w = rest
    return best[full], tuple(reversed(order)), chosen


def exact_dag(data: Any, score: str = "bic", **options: Any) -> DAG:
    """The DAG of :func:`learn_exact` (its options), for the learners' registry.

    Parameters
    ----------
    data : DataFrame or data in chunks
    score : str, default="bic"
    **options
        :func:`learn_exact`'s.

    Returns
    -------
    DAG

    Examples
    --------
    >>> import pandas as pd
    >>> rng = np.random.default_rng(1)
    >>> a = rng.integers(0, 2, 1000)
    >>> exact_dag(pd.DataFrame({"a": a, "b": a ^ (rng.random(1000) < 0.2)})).edges
    (('a', 'b'),)
    """
    return learn_exact(data, score, **options).dag


forwards_to(exact_dag, learn_exact)


def check_exact_options(score: Any, options: Any) -> None:
    """:func:`exact_dag`'s option values checked without the data (the learners' registry
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
    >>> check_exact_options("bic", {"max_parents": 3})
    >>> check_exact_options("mdl", {})
    Traceback (most recent call last):
    ...
    ValueError: score must be one of ('ll', 'aic', 'bic', 'k2', 'bdeu', 'bge'), got 'mdl'
    """
    if score not in SCORES:
        msg = f"score must be one of {SCORES}, got {score!r}"
        raise ValueError(msg)
    check_count("max_parents", options.get("max_parents"), none_ok=True)
