"""Constraint-based structure learning: the PC-stable algorithm (Spirtes, Glymour and Scheines,
*Causation, Prediction, and Search*, 2000; the order-independent skeleton of Colombo and
Maathuis 2014, *Order-independent constraint-based causal structure learning*).

1. **Skeleton.** Start from the complete graph. At level ``l = 0, 1, ...`` every adjacent pair
   ``x - y`` is tested for ``x _||_ y | S`` over the sets ``S`` of ``l`` nodes adjacent to
   ``x`` (or to ``y``) *at the start of the level*: PC-stable freezes the adjacencies for the
   whole level, so the edges removed do not depend on the order the pairs are visited in. The
   first ``S`` (in the order of the nodes' names) with p-value above the significance level
   removes the
   edge and is kept as the pair's separating set. The level's tests go to the data in batches
   (each batch's count tables counted in one compiled pass over the rows).
2. **V-structures.** Each unshielded triple ``x - z - y`` (``x``, ``y`` not adjacent) becomes
   ``x -> z <- y`` when ``z`` is not in the separating set (``"standard"``); ``"conservative"``
   (Ramsey, Zhang and Spirtes 2006) and ``"majority"`` (Colombo and Maathuis) test ``x`` and
   ``y`` given every subset of their final adjacencies and decide by all the separating sets
   found: ``z`` in none of them (conservative) or in fewer than half (majority) makes a
   v-structure, ``z`` in all (in more than half) does not, and anything between leaves the
   triple ambiguous (not oriented, and Meek's R1 does not orient across it). Two v-structures
   that direct one edge both ways leave it undirected. The conservative rule is the default:
   one separating set is one test's verdict, and a wrong one directs edges that Meek's rules
   carry further. From 5,000 rows of ALARM, insurance and child (G-squared, alpha 0.05) the
   standard rule directs 1, 9 and 10 edges against the true class (SHD 14, 29, 14), the
   conservative none (SHD 9, 14, 2), the majority none, none and 10 (SHD 4, 14, 12).
3. **Meek's rules** (:func:`bayeskit.graphs.pdag.meek_rules`) complete the orientation: the
   result is a :class:`~bayeskit.graphs.PDAG`, the CPDAG when the tests are right.

Background knowledge: a white-listed edge ``(u, v)`` is never tested (it stays) and is
directed ``u -> v``; a black-listed edge ``(u, v)`` forbids that direction (both directions
listed: the pair is never adjacent).

The separating sets are tried in the order of the nodes' names (``str``), so permuting the
data's columns gives the same PDAG. Every test is a function of counts (or of the
correlation matrix), so data in chunks is read once into its distinct rows, as the
score-based search reads it.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, islice
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.data.validation import check_count, check_real
from bayeskit.graphs.dag import DAG, edge_pairs
from bayeskit.graphs.pdag import PDAG, meek_rules
from bayeskit.learning.independence_tests import CountTests, GaussianTests
from bayeskit.learning.parameters import NetworkData, distinct_chunk_rows, encode_data, in_chunks
from bayeskit.stats.independence import TESTS

__all__ = [
    "V_STRUCTURE_RULES",
    "check_pc_options",
    "check_test",
    "learn_pc",
    "pc_dag",
    "pc_stable",
]

#: How the v-structures are decided (see the module docstring).
V_STRUCTURE_RULES = ("standard", "conservative", "majority")


def pc_stable(nodes: Iterable[Any], tests: Any, significance_level: float = 0.05, *,
              max_cond_size: int | None = None, black_list: Iterable = (),
              white_list: Iterable = (), v_structures: str = "conservative") -> PDAG:  # fmt: skip
    """The PC-stable algorithm on any tests of independence (see the module docstring).

    Parameters
    ----------
    nodes : sequence
        The variables; a test's indices refer to this order.
    tests : object
        With ``p_values(batch)`` giving the p-value of each ``(x, y, S)`` of a list (indices):
        :class:`CountTests`, :class:`GaussianTests`, :class:`OracleTests` or one's own.
    significance_level : float, default=0.05
        The tests' level (bnlearn's and causal-learn's ``alpha``; named as pgmpy names it,
        apart from the estimators' ``alpha``): a p-value above it counts as independence.
    max_cond_size : int, optional
        The largest conditioning set tried; None: no limit.
    black_list, white_list : iterable of (u, v) pairs
        Directions forbidden, edges required (see the module docstring).
    v_structures : {"standard", "conservative", "majority"}, default="conservative"

    Returns
    -------
    PDAG
        Over ``nodes``; ``sepsets`` is set on it: ``{frozenset((u, v)): S}``, the separating
        set of each pair found independent (node names).

    Raises
    ------
    ValueError
        Bad options, a list naming an unknown variable, or an edge both white- and
        black-listed.

    Examples
    --------
    With perfect tests PC returns the CPDAG of the true DAG:

    >>> from bayeskit.learning.independence_tests import OracleTests
    >>> true = DAG("abcd", [("a", "c"), ("b", "c"), ("c", "d")])
    >>> g = pc_stable(true.nodes, OracleTests(true, true.nodes))
    >>> g.directed, g.undirected
    ((('a', 'c'), ('b', 'c'), ('c', 'd')), ())
    """
    nodes = tuple(nodes)
    _check_search(significance_level, max_cond_size, v_structures)
    index = {v: i for i, v in enumerate(nodes)}
    rank = {i: r for r, i in enumerate(sorted(range(len(nodes)), key=lambda i: str(nodes[i])))}
    white = [(index[u], index[v]) for u, v in edge_pairs(white_list, "white_list")
             if _known(index, u, v, "white_list")]  # fmt: skip
    black = {(index[u], index[v]) for u, v in edge_pairs(black_list, "black_list")
             if _known(index, u, v, "black_list")}  # fmt: skip
    clash = [e for e in white if e in black]
    if clash:
        u, v = clash[0]
        msg = f"the edge ({nodes[u]!r}, {nodes[v]!r}) is on both the white and the black list"
        raise ValueError(msg)
    absent = {frozenset(e) for e in black if (e[1], e[0]) in black}
    fixed = {frozenset(e) for e in white}
    level = significance_level
    adj, sepset = _skeleton(len(nodes), tests, level, max_cond_size, fixed, absent, rank)
    arcs, lines, ambiguous = _orient(adj, sepset, tests, level, max_cond_size, v_structures,
                                     rank, white, black)  # fmt: skip
    arcs, lines = meek_rules(tuple(range(len(nodes))), arcs, lines, ambiguous)
    arcs, lines = _acyclic(arcs, lines)
    name = nodes.__getitem__
    out = PDAG(nodes, [(name(u), name(v)) for u, v in arcs],
               [tuple(map(name, p)) for p in lines])  # fmt: skip
    out.sepsets = {frozenset((name(u), name(v))): tuple(map(name, s))
                   for (u, v), s in sepset.items()}  # fmt: skip
    return out


def _known(index: dict, u: Any, v: Any, what: str) -> bool:
    for node in (u, v):
        if node not in index:
            msg = f"{what} names {node!r}, which is not a variable"
            raise ValueError(msg)
    return True


def _sets(frozen: list, a: int, b: int, level: int, rank: dict):
    """The conditioning sets of ``level`` nodes for the pair ``a``, ``b``: from ``a``'s
    frozen neighbours, then those from ``b``'s not yet given; each in the names' order."""
    seen = set()
    for x, y in ((a, b), (b, a)):
        pool = [v for v in frozen[x] if v != y]
        for s in combinations(pool, level):
            key = frozenset(s)
            if key not in seen:
                seen.add(key)
                yield s


def _skeleton(n: int, tests: Any, alpha: float, max_cond: int | None, fixed: set,
              absent: set, rank: dict) -> tuple[list[set], dict]:  # fmt: skip
    adj = [set(range(n)) - {i} for i in range(n)]
    for pair in absent:
        u, v = tuple(pair)
        adj[u].discard(v)
        adj[v].discard(u)
    sepset: dict[tuple[int, int], tuple] = {}
    level = 0
    while max_cond is None or level <= max_cond:
        frozen = [sorted(a, key=rank.__getitem__) for a in adj]
        pending = {}
        for i in range(n):
            for j in adj[i]:
                if i < j and frozenset((i, j)) not in fixed:
                    a, b = sorted((i, j), key=rank.__getitem__)
                    if len(frozen[a]) > level or len(frozen[b]) > level:
                        pending[(i, j)] = _sets(frozen, a, b, level, rank)
        if not pending:
            break
        take = 1
        while pending:  # rounds of growing size: few passes, and the first set that passes
            batch = {e: list(islice(gen, take)) for e, gen in pending.items()}
            flat = [(i, j, s) for (i, j), sets in batch.items() for s in sets]
            p = tests.p_values(flat) if flat else np.empty(0)
            at = 0
            for (i, j), sets in batch.items():
                found = next((s for k, s in enumerate(sets) if p[at + k] > alpha), None)
                at += len(sets)
                if found is not None:
                    adj[i].discard(j)
                    adj[j].discard(i)
                    sepset[(i, j)] = found
                if found is not None or len(sets) < take:
                    del pending[(i, j)]
            take *= 2
        level += 1
    return adj, sepset


def _orient(adj: list[set], sepset: dict, tests: Any, alpha: float, max_cond: int | None,
            rule: str, rank: dict, white: list, black: set):  # fmt: skip
    """The v-structures' and the background knowledge's arrows, the undirected rest and the
    ambiguous triples."""
    n = len(adj)
    triples = [(x, z, y) for z in range(n)
               for x, y in combinations(sorted(adj[z], key=rank.__getitem__), 2)
               if y not in adj[x]]  # fmt: skip
    separating = _all_separating(adj, triples, sepset, tests, alpha, max_cond, rule)
    proposed: set[tuple[int, int]] = set()
    ambiguous = set()
    for x, z, y in triples:
        pair = (min(x, y), max(x, y))
        if rule == "standard":
            collider = z not in sepset[pair]
        else:
            sets = separating[pair]
            share = sum(z in s for s in sets) / len(sets)
            if (rule == "conservative" and 0.0 < share < 1.0) or (
                rule == "majority" and share == 0.5
            ):
                ambiguous |= {(x, z, y), (y, z, x)}
                continue
            collider = share < 0.5 if rule == "majority" else share == 0.0
        if collider:
            proposed |= {(x, z), (y, z)}
    known = {(u, v) for u, v in white if v in adj[u]}
    known |= {(v, u) for u, v in black if v in adj[u] and (v, u) not in black}
    arcs = set(known)
    for u, v in proposed:  # an edge two v-structures direct both ways stays undirected
        if (v, u) not in proposed and (v, u) not in known:
            arcs.add((u, v))
    lines = {frozenset((u, v)) for u in range(n) for v in adj[u] if u < v}
    lines -= {frozenset(e) for e in arcs}
    return arcs, lines, ambiguous


def _all_separating(adj: list[set], triples: list, sepset: dict, tests: Any, alpha: float,
                    max_cond: int | None, rule: str) -> dict:  # fmt: skip
    """For the conservative and majority rules: every pair of an unshielded triple -> the
    sets, among the subsets of either's final neighbours, that separate it (the skeleton's
    own separating set among them)."""
    if rule == "standard":
        return {}
    pairs = {(min(x, y), max(x, y)) for x, _, y in triples}
    wanted: dict[tuple, list] = {}
    for x, y in sorted(pairs):
        sets = {frozenset(sepset[(x, y)]): sepset[(x, y)]}
        for a, b in ((x, y), (y, x)):
            pool = sorted(adj[a] - {b})
            top = len(pool) if max_cond is None else min(len(pool), max_cond)
            for size in range(top + 1):
                for s in combinations(pool, size):
                    sets.setdefault(frozenset(s), s)
        wanted[(x, y)] = list(sets.values())
    flat = [(x, y, s) for (x, y), listed in wanted.items() for s in listed]
    p = tests.p_values(flat) if flat else np.empty(0)
    out: dict[tuple, list] = {}
    at = 0
    for (x, y), listed in wanted.items():
        out[(x, y)] = [s for k, s in enumerate(listed)
                       if p[at + k] > alpha or s == sepset[(x, y)]]  # fmt: skip
        at += len(listed)
    return out


def _acyclic(arcs: set, lines: set) -> tuple[set, set]:
    """Arcs on a directed cycle (tests that contradict each other can make one) undirected."""
    import networkx as nx

    graph = nx.DiGraph(list(arcs))
    cyclic = set()
    for part in nx.strongly_connected_components(graph):
        if len(part) > 1:
            cyclic |= {(u, v) for u, v in arcs if u in part and v in part}
    if not cyclic:
        return arcs, lines
    return arcs - cyclic, lines | {frozenset(e) for e in cyclic}


def learn_pc(data: Any, *, test: str = "auto", significance_level: float = 0.05,
             max_cond_size: int | None = None, black_list: Iterable = (),
             white_list: Iterable = (), v_structures: str = "conservative",
             adjusted_df: bool = True, permutations: int = 1000, random_state: Any = None,
             states: Any = None, sample_weight: Any = None) -> PDAG:  # fmt: skip
    """Learn a Bayesian network's equivalence class from data by PC-stable (the module
    docstring), with tests of independence of the data.

    Parameters
    ----------
    data : DataFrame, or data in chunks (:func:`~bayeskit.data.read_chunks`, a list of
        DataFrames)
        Complete rows; every column a variable.
    test : {"auto", "g2", "mi", "x2", "mi-sh", "mc-mi", "fisher-z"}, default="auto"
        The test (:mod:`bayeskit.stats.independence`); ``"auto"``: Fisher's z when every
        column of a DataFrame is a non-integer number, else G-squared on the categories.
    significance_level : float, default=0.05
        A p-value above it counts as independence (bnlearn's ``alpha``).
    max_cond_size : int, optional
    black_list, white_list : iterable of (u, v) pairs
    v_structures : {"standard", "conservative", "majority"}, default="conservative"
    adjusted_df : bool, default=True
        Degrees of freedom from the values seen in each stratum (bnlearn's ``-adf`` tests;
        the reduction for empty cells of Spirtes, Glymour and Scheines and of MMHC). Large
        conditioning sets leave most cells of a table empty, and counting them as free
        parameters makes the tests too slow to reject: on 5,000 ALARM rows the classic degrees
        of freedom keep 35 of the 46 true edges, the adjusted ones 42 (none false).
    permutations : int, default=1000
        ``"mc-mi"``'s tables per test.
    random_state : int, Generator or None
        ``"mc-mi"``'s draws.
    states : dict, optional
        Each column's states (as :func:`~bayeskit.networks.fit_parameters` takes them).
    sample_weight : array-like, optional
        With a DataFrame.

    Returns
    -------
    PDAG
        The learned CPDAG; ``to_dag()`` gives a DAG of its class, ``sepsets`` the separating
        sets.

    Raises
    ------
    ValueError
        Bad options, a test that does not suit the data (Fisher's z on categories), missing
        values for Fisher's z, or a count table too large.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> a, b = rng.integers(0, 2, 2000), rng.integers(0, 2, 2000)
    >>> c = (a | b) ^ (rng.random(2000) < 0.1)  # a collider: a -> c <- b
    >>> g = learn_pc(pd.DataFrame({"a": a, "b": b, "c": c}))
    >>> g.directed
    (('a', 'c'), ('b', 'c'))
    """
    check_test(test)
    check_count("permutations", permutations, low=1)
    nodes, tester = _tests(data, test, adjusted_df, permutations, random_state, states,
                           sample_weight)  # fmt: skip
    return pc_stable(nodes, tester, significance_level, max_cond_size=max_cond_size,
                     black_list=black_list, white_list=white_list,
                     v_structures=v_structures)  # fmt: skip


def _tests(data: Any, test: str, adjusted_df: bool, permutations: int, random_state: Any,
           states: Any, sample_weight: Any,
           min_rows_per_cell: float = 0.0) -> tuple[tuple, Any]:  # fmt: skip
    """The variables and the tests of ``data`` (:class:`CountTests`' options)."""
    if isinstance(data, NetworkData):  # encoded already (the network classifier's rows)
        method = "g2" if test in ("auto", "fisher-z") else test
        return data.nodes, CountTests(
            data, method, adjusted_df, permutations, random_state, min_rows_per_cell
        )
    if not in_chunks(data) and not isinstance(data, pd.DataFrame):
        msg = f"data must be a pandas DataFrame or data in chunks, got {type(data).__name__}"
        raise TypeError(msg)
    gaussian = test == "fisher-z" or (test == "auto" and isinstance(data, pd.DataFrame)
                                      and _all_real(data))  # fmt: skip
    if gaussian:
        if not isinstance(data, pd.DataFrame):
            msg = "Fisher's z test reads a DataFrame (data in chunks are counted as categories)"
            raise ValueError(msg)
        return tuple(data.columns), _gaussian(data, sample_weight)
    method = "g2" if test == "auto" else test
    if in_chunks(data):
        if sample_weight is not None:
            msg = "sample_weight goes with a DataFrame; chunks carry no weights"
            raise ValueError(msg)
        nodes, given, rows = distinct_chunk_rows(data, states)
        encoded = NetworkData(nodes, given, *rows)  # type: ignore[misc]
    else:
        encoded = encode_data(tuple(data.columns), data, states, sample_weight)
    return encoded.nodes, CountTests(
        encoded, method, adjusted_df, permutations, random_state, min_rows_per_cell
    )


def _all_real(frame: pd.DataFrame) -> bool:
    from bayeskit.data.kinds import continuous_columns

    return len(continuous_columns(frame, list(frame.columns))) == frame.shape[1]


def _gaussian(frame: pd.DataFrame, sample_weight: Any) -> GaussianTests:
    from bayeskit.data.validation import check_sample_weight

    try:
        values = frame.to_numpy(dtype=np.float64)
    except (TypeError, ValueError):
        msg = "Fisher's z test needs numeric columns; use a discrete test (test='g2')"
        raise ValueError(msg) from None
    if not np.isfinite(values).all():
        msg = "Fisher's z test needs complete, finite data: drop or impute missing values"
        raise ValueError(msg)
    w = check_sample_weight(sample_weight, len(values))
    w = np.ones(len(values)) if w is None else w
    cov = np.cov(values, rowvar=False, aweights=w, ddof=0)
    sd = np.sqrt(np.diag(cov))
    if (sd <= 0).any():
        column = frame.columns[int(np.argmin(sd))]
        msg = f"column {column!r} is constant: Fisher's z test needs variation"
        raise ValueError(msg)
    return GaussianTests(cov / np.outer(sd, sd), float(w.sum()))


def check_pc_options(score: Any, options: Any) -> None:
    """:func:`pc_dag`'s option values checked without the data (the learners' registry names
    an option a learner does not take): ValueError naming a setting and its rule.

    Parameters
    ----------
    score : str
        Not used (see :func:`pc_dag`).
    options : mapping str -> object

    Raises
    ------
    ValueError

    Examples
    --------
    >>> check_pc_options("bic", {"significance_level": 0.01})
    >>> check_pc_options("bic", {"v_structures": "some"})
    Traceback (most recent call last):
    ...
    ValueError: v_structures must be one of standard, conservative, majority, got 'some'
    """
    check_test(options.get("test", "auto"))
    check_count("permutations", options.get("permutations", 1000), low=1)
    _check_search(options.get("significance_level", 0.05), options.get("max_cond_size"),
                  options.get("v_structures", "conservative"))  # fmt: skip


def check_test(test: Any) -> None:
    """ValueError unless ``test`` names a test of independence or is ``"auto"``."""
    if test not in (*TESTS, "auto"):
        msg = f"test must be 'auto' or one of {', '.join(TESTS)}, got {test!r}"
        raise ValueError(msg)


def _check_search(level: Any, max_cond_size: Any, rule: Any) -> None:
    check_real("significance_level", level, low=0.0)
    if level > 1.0:
        msg = f"significance_level must be at most 1, got {level!r}"
        raise ValueError(msg)
    check_count("max_cond_size", max_cond_size, none_ok=True)
    if rule not in V_STRUCTURE_RULES:
        msg = f"v_structures must be one of {', '.join(V_STRUCTURE_RULES)}, got {rule!r}"
        raise ValueError(msg)


def pc_dag(data: Any, score: str = "bic", **options: Any) -> DAG:
    """A DAG of the equivalence class PC-stable learns (:func:`learn_pc`'s options), for
    the learners' registry: every DAG of a class has the same BIC, AIC, LL and BDeu score,
    so ``score`` is not used. Where the tests contradict each other and the PDAG has no
    consistent extension, the DAG gets the v-structures it must (:meth:`PDAG.to_dag
    <bayeskit.graphs.PDAG.to_dag>` with ``strict=False``).

    Parameters
    ----------
    data : DataFrame or data in chunks
    score : str, default="bic"
        Not used (taken so that every learner is called alike).
    **options
        :func:`learn_pc`'s.

    Returns
    -------
    DAG

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> a, b = rng.integers(0, 2, 2000), rng.integers(0, 2, 2000)
    >>> c = (a | b) ^ (rng.random(2000) < 0.1)
    >>> pc_dag(pd.DataFrame({"a": a, "b": b, "c": c})).edges
    (('a', 'c'), ('b', 'c'))
    """
    return learn_pc(data, **options).to_dag(strict=False)


def forwards_to(wrapper: Any, target: Any) -> None:
    """Give ``wrapper(data, score="bic", **options)`` the signature ``(data, score="bic",
    <target's keyword options>)``, so the learners' registry lists (and checks) the options
    it passes on."""
    import inspect

    params = inspect.signature(wrapper).parameters
    taken = [p for p in inspect.signature(target).parameters.values()
             if p.kind is inspect.Parameter.KEYWORD_ONLY]  # fmt: skip
    head = [params["data"], params["score"]]
    wrapper.__signature__ = inspect.Signature([*head, *taken])


forwards_to(pc_dag, learn_pc)
