"""Exact inference in discrete Bayesian networks by variable elimination (Zhou, *Machine
Learning*, 7.5.3).

A query asks for ``P(Q | E = e)``: the posterior of query variables ``Q`` given evidence. The
joint ``P(Q, e)`` is the product of the CPTs (Eq. 7.26), reduced to the evidence, with every
other variable summed out one at a time; normalising over ``Q`` divides by ``P(e)``.

Before eliminating, the network is cut to what the query depends on:

- **barren nodes**: a node that is neither queried nor observed and has no such descendant sums
  out to 1, so only the ancestors of ``Q`` and ``E`` are kept;
- **d-separated evidence**: in the moral graph of those ancestors with the evidence nodes
  removed (Zhou's test of d-separation, Fig. 7.4), an evidence node that no CPT of the
  query's connected component involves is d-separated from ``Q`` given the rest, so it changes
  no posterior; it is dropped and the ancestral set recomputed without it, until none is left
  to drop. The query then computes ``P(Q, e')`` of the evidence ``e'`` it kept.

**Evidence of probability zero** has no posterior, and every query says so: it raises
:class:`ZeroProbabilityEvidence` (a ``ValueError``) naming the evidence, for all of it, dropped
or not, as pyAgrum and pgmpy do. ``P(Q, e')`` sums to ``P(e')``, which sees the evidence kept;
the dropped evidence ``e''`` can only make ``P(e) = P(e') P(e'' | e')`` zero through an entry of
0 in the CPT of a dropped node or of a kept child of one, at the row's observed states (where
those entries are positive, a joint state of positive probability given ``e'`` stays positive
with ``e''`` set, and the nodes ``e''`` adds can always take a state of positive probability).
So a plan keeps, per CPT that could show it, where it is positive; a row whose evidence meets
a zero there is answered with all its evidence, the others with the pruned plan. Networks
without deterministic entries keep the whole saving, and ``P(e) = 0`` is always seen.
:meth:`VariableElimination.probability_of_evidence` answers 0 for such evidence rather than
raising.

The elimination order is greedy: ``"min-fill"`` takes the variable whose elimination adds the
fewest edges between its neighbours, ``"weighted-min-fill"`` the one whose added edges weigh
least (an edge weighs the product of its ends' numbers of states); ties go to the smaller
resulting table, then to the earlier node. The sizes of all the tables the order will make are
known before anything is computed, so a query beyond ``max_cells`` fails at once, saying how
large it would be.

Everything a query of one shape needs (which CPTs, which evidence axes, the order, the einsum
index lists) is a *plan*, compiled once and kept: queries with the same query variables and the
same observed nodes reuse it, whatever the observed states. A plan runs on a batch of evidence
rows at once (:meth:`VariableElimination.query_batch`): each observed CPT is indexed by every
row's states, which gives it a leading batch axis that each einsum carries along. Each table an
elimination makes is divided by its largest entry per row and the logs of those factors summed,
so ``P(e)`` of many evidence nodes does not underflow.

MAP and MPE use max-product: the variables to maximise are eliminated last, with ``max`` in place
of the sum, and the maximising states are read back in reverse order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np
import pandas as pd

from bayeskit._text import shown
from bayeskit.factors.factor import Factor, Marginals
from bayeskit.factors.limits import (
    DEFAULT_MAX_CELLS,
    MAX_AXES,
    InferenceTooLarge,
    listed,
    table_cells,
    too_large,
    too_many_axes,
)
from bayeskit.graphs.elimination import ELIMINATION_ORDERS, eliminate_node, next_to_eliminate
from bayeskit.inference._plans import _max_traceback, _Plan, _prune_evidence, _run_plan, _Step
from bayeskit.inference.evidence import (
    EvidenceChecker,
    ZeroProbabilityEvidence,
    observation_patterns,
    zero_evidence,
)
from bayeskit.inference.results import MAPResult

if TYPE_CHECKING:
    from bayeskit.networks.network import BayesianNetwork

__all__ = [
    "ORDERS",
    "InferenceTooLarge",
    "MAPResult",
    "VariableElimination",
    "ZeroProbabilityEvidence",
]

ORDERS = ELIMINATION_ORDERS
_MOST_CELLS = 1 << 60  # the largest max_cells: more float64 cells overflow numpy's byte counts


class VariableElimination:
    """Exact queries on a :class:`~bayeskit.networks.BayesianNetwork` by variable elimination.

    Parameters
    ----------
    network : BayesianNetwork
    order : {"min-fill", "weighted-min-fill"} or sequence of nodes, default="min-fill"
        The elimination order heuristic, or a fixed order (nodes not needed are skipped).
    max_cells : int, default=2**27
        The most cells a table may have (times the rows of a batch), at most ``2**60``; a
        larger query raises :class:`InferenceTooLarge` naming it, before computing anything.

    Examples
    --------
    >>> from bayeskit.networks import DAG, BayesianNetwork
    >>> dag = DAG(edges=[("rain", "wet"), ("sprinkler", "wet")])
    >>> yn = ["yes", "no"]
    >>> net = BayesianNetwork(dag, {
    ...     "rain": [0.2, 0.8], "sprinkler": [0.1, 0.9],
    ...     "wet": [[[0.99, 0.01], [0.9, 0.1]], [[0.8, 0.2], [0.05, 0.95]]]},
    ...     states={"rain": yn, "sprinkler": yn, "wet": yn})
    >>> ve = VariableElimination(net)
    >>> ve.query("rain", {"wet": "yes"}).values.round(4).tolist()
    [0.6451, 0.3549]
    >>> round(ve.probability_of_evidence({"wet": "yes"}), 4)
    0.2818
    """

    def __init__(
        self,
        network: BayesianNetwork,
        order: str | Sequence[Any] = "min-fill",
        max_cells: int = DEFAULT_MAX_CELLS,
    ):
        self._checks = EvidenceChecker(network)  # TypeError for anything but a network
        self.network = network
        self._nodes = network.nodes
        self._pos = self._checks.positions
        if isinstance(order, str):
            if order not in ORDERS:
                msg = f"order must be one of {ORDERS} or a sequence of nodes, got {order!r}"
                raise ValueError(msg)
            self._fixed = None
            self._heuristic = order
        else:
            order = list(order)
            unknown = [n for n in order if n not in self._pos]
            if unknown:
                msg = f"order names nodes not in the network: {unknown}"
                raise ValueError(msg)
            self._fixed = {self._pos[n]: k for k, n in enumerate(order)}
            self._heuristic = "min-fill"  # unused: the fixed order decides
        self.order = order
        if (
            isinstance(max_cells, bool)
            or not isinstance(max_cells, int | np.integer)
            or not 1 <= max_cells <= _MOST_CELLS
        ):  # beyond 2**60 float64 cells, a table's bytes overflow numpy's sizes
            msg = f"max_cells must be an integer from 1 to 2**60, got {shown(max_cells)}"
            raise ValueError(msg)
        self.max_cells = int(max_cells)
        dag = network.dag
        self._card = np.array([network.cardinality(n) for n in self._nodes], dtype=np.int64)
        self._parents = [tuple(self._pos[p] for p in dag.parents(n)) for n in self._nodes]
        self._children = [tuple(self._pos[c] for c in dag.children(n)) for n in self._nodes]
        self._cpts = [np.asarray(network.cpt(n)) for n in self._nodes]
        # CPTs with an entry of 0: only those can make dropped evidence impossible
        self._has_zero = [bool((t == 0).any()) for t in self._cpts]
        self._scope = [(*self._parents[i], i) for i in range(len(self._nodes))]
        self._states = {n: network.states(n) for n in self._nodes}
        self._plans: dict[tuple, _Plan] = {}
        self._prunings: dict[tuple, tuple[frozenset[int], tuple]] = {}

    # ------------------------------------------------------------------ public queries
    @overload
    def query(
        self,
        variables: Any,
        evidence: Mapping[Any, Any] | None = ...,
        *,
        joint: Literal[True] = ...,
    ) -> Factor: ...

    @overload
    def query(
        self, variables: Any, evidence: Mapping[Any, Any] | None = ..., *, joint: Literal[False]
    ) -> Marginals: ...

    @overload
    def query(
        self, variables: Any, evidence: Mapping[Any, Any] | None = ..., *, joint: bool
    ) -> Factor | Marginals: ...

    def query(
        self,
        variables: Any,
        evidence: Mapping[Any, Any] | None = None,
        *,
        joint: bool = True,
    ) -> Factor | Marginals:
        """The posterior of ``variables`` given ``evidence`` (node -> state name).

        Parameters
        ----------
        variables : node or sequence of nodes
            The query variables, each named once and none observed in ``evidence``.
        evidence : mapping node -> state, optional
            The observed nodes' states, by name (or a value whose text names the state:
            ``1`` finds ``"1"``); None or empty for the prior.
        joint : bool, default=True
            One factor over all the variables, or (False) a dict of one marginal each.

        Returns
        -------
        Factor or Marginals
            Normalised: the values sum to 1. Both print as tables with the states named;
            ``to_pandas()`` gives a labelled Series.

        Raises
        ------
        ZeroProbabilityEvidence
            The evidence has probability zero under the network (all of it is checked, also
            the part d-separated from the query); a ``ValueError``.

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> ve = VariableElimination(example_network("cancer"))
        >>> ve.query(["Cancer", "Smoker"], {"Xray": "positive"}).values.round(3).tolist()
        [[0.042, 0.009], [0.279, 0.671]]
        >>> ve.query(["Cancer", "Smoker"], {"Xray": "positive"}, joint=False)["Cancer"]
        Cancer  probability
        True       0.050288
        False      0.949712
        """
        targets = self._checks.nodes_of(variables, "variables")
        observed, codes = self._checks.evidence(evidence)
        self._checks.apart(targets, observed)
        groups = [tuple(targets)] if joint else [(t,) for t in targets]
        tables, possible = self._posteriors(groups, observed, codes[None, :])
        if not possible[0]:
            raise zero_evidence(self._checks.evidence_dict(observed, codes))
        factors = {}
        for group, table in zip(groups, tables, strict=True):
            names = [self._nodes[t] for t in group]
            factors[group] = Factor._trusted(names, table[0], {n: self._states[n] for n in names})
        if joint:
            return factors[groups[0]]
        return Marginals((self._nodes[g[0]], f) for g, f in factors.items())

    def probability_of_evidence(self, evidence: Mapping[Any, Any], *, log: bool = False) -> float:
        """``P(e)``, the probability of the evidence (its log with ``log=True``).

        Parameters
        ----------
        evidence : mapping node -> state
            The observed nodes' states, by name; empty for ``P() = 1``.
        log : bool, default=False
            Return the natural log of ``P(e)``, exact also where ``P(e)`` underflows.

        Returns
        -------
        float
            ``P(e)`` (or its log); 0 (``-inf``) for impossible evidence, which this, unlike the
            queries, does not refuse.

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> ve = VariableElimination(example_network("cancer"))
        >>> round(ve.probability_of_evidence({"Xray": "positive"}), 4)
        0.2081
        >>> round(ve.probability_of_evidence({"Xray": "positive", "Dyspnoea": "True"}, log=True), 3)
        -2.716
        """
        observed, codes = self._checks.evidence(evidence)
        if not observed:
            return 0.0 if log else 1.0
        value = float(self._log_evidence(observed, codes[None, :])[0])
        return value if log else float(np.exp(value))

    def map_query(
        self, variables: Any = None, evidence: Mapping[Any, Any] | None = None
    ) -> MAPResult:
        """The most probable joint state of ``variables`` given ``evidence`` and its posterior
        probability ``P(x | e)``; every unobserved node when ``variables`` is None (MPE).

        The other unobserved nodes are summed out first (MAP), then ``variables`` maximised.
        Among equally probable states the first in state order wins, node by node in the
        reverse of the elimination order.

        Parameters
        ----------
        variables : node or sequence of nodes, optional
            The nodes to maximise, none observed; None for every unobserved node (MPE).
        evidence : mapping node -> state, optional
            The observed nodes' states, by name.

        Returns
        -------
        MAPResult
            ``assignment`` (node -> state), ``probability``, ``log_probability`` and the
            ``evidence``; it prints as a table, and unpacks as ``assignment, probability``.

        Raises
        ------
        ZeroProbabilityEvidence
            The evidence has probability zero under the network; a ``ValueError``.

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> ve = VariableElimination(example_network("cancer"))
        >>> assignment, probability = ve.map_query("Cancer", {"Xray": "positive"})
        >>> assignment, round(probability, 4)
        ({'Cancer': 'False'}, 0.9497)
        """
        observed, codes = self._checks.evidence(evidence)
        if variables is None:
            targets = [i for i in range(len(self._nodes)) if i not in set(observed)]
        else:
            targets = self._checks.nodes_of(variables, "variables")
        self._checks.apart(targets, observed, "maximised")
        given = self._checks.evidence_dict(observed, codes)
        log_e = float(self._log_evidence(observed, codes[None, :])[0]) if observed else 0.0
        if not np.isfinite(log_e):
            raise zero_evidence(given)
        # no pruning of d-separated evidence: the table is then P(x, e) itself, over P(e)
        plan = self._plan(tuple(targets), observed, maximise=True, prune_separated=False)
        table, log_scale, choices = self._run(plan, codes[None, :], keep_choices=True)
        best = _max_traceback(plan, table, choices)
        log_joint = float(np.log(table.max())) + float(log_scale[0])
        names = {self._nodes[v]: self._states[self._nodes[v]][best[v]] for v in targets}
        log_p = min(log_joint - log_e, 0.0)
        return MAPResult(names, float(np.exp(log_p)), log_p, given)

    def query_batch(
        self, variables: Any, evidence: pd.DataFrame, *, joint: bool = False
    ) -> pd.DataFrame | dict[Any, pd.DataFrame]:
        """Posteriors for many evidence sets at once, one per row of ``evidence``.

        ``evidence`` has a column per observed node (state names; a missing value leaves the
        node unobserved in that row). Rows that observe the same nodes share one plan and run
        together, vectorised over the rows.

        Parameters
        ----------
        variables : node or sequence of nodes
            The query variables, each named once, none a column of ``evidence``.
        evidence : DataFrame
            A row per evidence set, a column per observed node, values state names; a missing
            value leaves that node unobserved in that row.
        joint : bool, default=False
            One frame over the joint states of all the variables, or (False) one per variable.

        Returns
        -------
        DataFrame or dict of DataFrame
            For one variable (or ``joint=True``), a frame of one column per state (per joint
            state, a MultiIndex, for ``joint=True``), rows in ``evidence``'s order and index; for
            several variables and ``joint=False``, a dict of such frames.

        Raises
        ------
        ZeroProbabilityEvidence
            Some rows' evidence has probability zero under the network: the message names the
            first rows, the error's ``rows`` holds the index labels of all of them (nothing is
            returned for the others; drop those rows and ask again).

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> ve = VariableElimination(example_network("cancer"))
        >>> rows = pd.DataFrame({"Xray": ["positive", "negative", None]})  # None: not observed
        >>> ve.query_batch("Cancer", rows).round(3)
        Cancer   True  False
        0       0.050  0.950
        1       0.001  0.999
        2       0.012  0.988
        """
        targets = self._checks.nodes_of(variables, "variables")
        codes, columns = self._checks.evidence_frame(evidence)
        self._checks.apart(targets, columns)
        groups = [tuple(targets)] if joint else [(t,) for t in targets]
        out, possible = self._batch_posteriors(groups, codes, columns)
        if not possible.all():
            bad = np.flatnonzero(~possible)
            row = codes[bad[0]]
            seen = np.flatnonzero(row >= 0)
            first = self._checks.evidence_dict(tuple(columns[j] for j in seen), row[seen])
            raise zero_evidence(first, evidence.index[bad].tolist(), len(codes))
        frames = {g: self._frame(g, table, evidence.index) for g, table in out.items()}
        if joint or len(targets) == 1:
            return frames[groups[0]]
        return {self._nodes[g[0]]: frame for g, frame in frames.items()}

    # ------------------------------------------------------------------ answering
    def _posteriors(self, groups, observed, codes: np.ndarray) -> tuple[list[np.ndarray], Any]:
        """``P(group | row's evidence)`` for each group of targets and each row of ``codes``
        (columns: ``observed``), and which rows' evidence is possible (the others' tables are
        NaN). A plan drops d-separated evidence only where that cannot hide ``P(e) = 0`` (see
        the module docstring), so each table's total is zero exactly when ``P(e)`` is."""
        n = len(codes)
        possible = np.ones(n, dtype=bool)
        out = []
        for targets in groups:
            safe = self._safe_rows(targets, observed, codes)
            self._check_size(targets, observed, n)
            table = np.empty((n, *(int(self._card[t]) for t in targets)))
            for ok, prune in ((safe, True), (~safe, False)):
                if not ok.any():
                    continue
                # rows whose dropped evidence might be impossible are answered with all of it
                plan = self._plan(targets, observed, prune_separated=prune)
                keep = [observed.index(v) for v in plan.observed]
                rows = slice(None) if ok.all() else np.flatnonzero(ok)
                table[rows] = self._run(plan, codes[rows][:, keep])[0]
            totals = table.reshape(n, -1).sum(axis=1)
            possible &= totals > 0
            totals = np.where(totals > 0, totals, np.nan)
            out.append(table / totals.reshape((-1,) + (1,) * len(targets)))
        return out, possible

    def _safe_rows(self, targets, observed, codes: np.ndarray) -> np.ndarray:
        """Which rows of ``codes`` (columns: ``observed``) the plan without the d-separated
        evidence may answer: those whose dropped evidence cannot be impossible (see
        :meth:`_prune`)."""
        safe = np.ones(len(codes), dtype=bool)
        for cols, positive in self._pruning(targets, observed)[1] if targets else ():
            safe &= positive[tuple(codes[:, c] for c in cols)]
        return safe

    def _batch_posteriors(self, groups, codes: np.ndarray, columns) -> tuple[dict, np.ndarray]:
        """:meth:`_posteriors` of the rows of ``codes`` (columns: the nodes ``columns``, -1 =
        not observed), as a table per group, a row per row; the rows that observe the same nodes
        are answered together."""
        for g in groups:  # the answer's tables, before anything is allocated
            self._check_size(g, tuple(columns), len(codes))
        out = {g: np.empty((len(codes), *(int(self._card[t]) for t in g))) for g in groups}
        possible = np.ones(len(codes), dtype=bool)
        for rows, observed, sub in observation_patterns(codes, columns):
            tables, possible[rows] = self._posteriors(groups, observed, sub)
            for group, table in zip(groups, tables, strict=True):
                out[group][rows] = table
        return out, possible

    def _log_evidence(self, observed, codes: np.ndarray) -> np.ndarray:
        """Each row's ``log P(e)`` (``-inf`` for 0), all the evidence used."""
        plan = self._plan((), observed, prune_separated=False)
        table, log_scale = self._run(plan, codes)
        totals = table.reshape(len(codes), -1).sum(axis=1)
        with np.errstate(divide="ignore"):
            return np.where(totals > 0, np.log(totals) + log_scale, -np.inf)

    def _frame(self, group, result: np.ndarray, index) -> pd.DataFrame:
        names = [self._nodes[t] for t in group]
        flat = result.reshape(len(result), int(np.prod(result.shape[1:])))
        if len(group) == 1:
            columns: Any = pd.Index(self._states[names[0]], name=names[0])
        else:
            columns = pd.MultiIndex.from_product([self._states[n] for n in names], names=names)
        return pd.DataFrame(flat, index=index, columns=columns)

    # ------------------------------------------------------------------ plans
    def _plan(
        self,
        targets: tuple[int, ...],
        observed: tuple[int, ...],
        *,
        maximise: bool = False,
        prune_separated: bool = True,
    ) -> _Plan:
        key = (targets, observed, maximise, prune_separated)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._compile(targets, observed, maximise, prune_separated)
            if len(self._plans) > 4096:
                self._plans.clear()
            self._plans[key] = plan
        return plan

    def _ancestral(self, nodes: Iterable[int]) -> set[int]:
        seen, todo = set(nodes), list(nodes)
        while todo:
            for p in self._parents[todo.pop()]:
                if p not in seen:
                    seen.add(p)
                    todo.append(p)
        return seen

    def _pruning(self, targets: tuple[int, ...], observed: tuple[int, ...]):
        """The evidence a query keeps once d-separated evidence is dropped, and the guard of
        the rows whose dropped evidence might be impossible (kept per query shape)."""
        key = (targets, observed)
        got = self._prunings.get(key)
        if got is None:
            got = self._prune(targets, observed)
            if len(self._prunings) > 4096:
                self._prunings.clear()
            self._prunings[key] = got
        return got

    def _prune(self, targets, observed) -> tuple[frozenset[int], tuple]:
        """The evidence kept once d-separated evidence is dropped, and the guard of the rows
        whose dropped evidence might be impossible (see :func:`_prune_evidence`)."""
        return _prune_evidence(self, targets, observed)

    def _compile(self, targets, observed, maximise: bool, prune_separated: bool) -> _Plan:
        if prune_separated and targets:
            used_obs = set(self._pruning(targets, observed)[0])
        else:
            used_obs = set(observed)
        # every CPT of the ancestral set stays: those off the query's component only scale
        # P(Q, e'), but they make it P(Q, e') itself, so P(e') = 0 is seen
        cpts = sorted(self._ancestral(set(targets) | used_obs))
        order_obs = tuple(v for v in observed if v in used_obs)
        factors, scopes = [], []
        for v in cpts:
            scope = self._scope[v]
            axes = tuple(k for k, u in enumerate(scope) if u in used_obs)
            factors.append((v, axes, tuple(order_obs.index(scope[k]) for k in axes)))
            scopes.append(tuple(u for u in scope if u not in used_obs))
        eliminate = {u for s in scopes for u in s} - set(targets)
        steps, largest = self._order(scopes, eliminate, targets, maximise, observed)
        if not maximise:  # the last table: over the targets
            largest = max(largest, self._check_size(targets, observed))
        return _Plan(tuple(targets), order_obs, tuple(factors), tuple(scopes), steps, largest)

    def _order(self, scopes, eliminate: set[int], targets, maximise: bool, observed=()):
        """The elimination steps (greedy order; the variables to maximise last) and the cells
        of the largest table they make."""
        card = self._card
        slots: dict[int, tuple[int, ...]] = dict(enumerate(scopes))
        adj: dict[int, set[int]] = {}
        for s in scopes:
            for a in s:
                adj.setdefault(a, set()).update(b for b in s if b != a)
        largest = max((table_cells(card[list(s)]) for s in scopes), default=1)
        steps = []
        later = set(targets) if maximise else set()
        remaining = set(eliminate)
        next_slot = len(scopes)
        while remaining or (maximise and later):
            pool = remaining if remaining else later
            var = self._pick(pool, adj)
            pool.discard(var)
            used = tuple(k for k, s in slots.items() if var in s)
            union = sorted({u for k in used for u in slots[k]}, key=lambda u: u)
            out = tuple(u for u in union if u != var)
            cells = self._check_size(union, observed, targets=targets)
            largest = max(largest, cells)
            for k in used:
                del slots[k]
            slots[next_slot] = out
            next_slot += 1
            steps.append(_Step(var, used, out, maximise and pool is later))
            eliminate_node(var, adj)
        return tuple(steps), largest

    def _pick(self, pool: set[int], adj: dict[int, set[int]]) -> int:
        return next_to_eliminate(pool, adj, self._card, self._heuristic, self._fixed)

    def _check_size(self, nodes, observed, rows: int = 1, targets=None) -> int:
        """The cells of a table over ``nodes`` (one row; Python ints, exact however large);
        InferenceTooLarge naming the query (``targets``, by default ``nodes``, given
        ``observed``) when ``rows`` of it exceed ``max_cells`` or numpy's axes."""
        cells = table_cells(self._card[list(nodes)])
        if cells * rows > self.max_cells:
            raise self._too_large(cells, rows, nodes if targets is None else targets, observed)
        if len(nodes) + 1 > MAX_AXES:  # and the batch axis
            what = self._query_text(nodes if targets is None else targets, observed, rows)
            raise too_many_axes(what, len(nodes) + 1, "observe or query fewer nodes")
        return cells

    def _too_large(self, cells: int, rows: int, targets, observed) -> InferenceTooLarge:
        what = self._query_text(targets, observed, rows)
        way_out = "raise max_cells, or observe or query fewer nodes"
        return too_large(what, cells * rows, self.max_cells, way_out)

    def _query_text(self, targets, observed, rows: int = 1) -> str:
        """The query, for a message: its nodes, its evidence's and its rows."""
        given = f" given {listed([self._nodes[v] for v in observed])}" if observed else ""
        what = (
            f"the query of {listed([self._nodes[v] for v in targets])}{given}"
            if len(targets)
            else f"P(e) of the evidence on {listed([self._nodes[v] for v in observed])}"
        )
        return what + (f" for {rows:,} rows" if rows > 1 else "")

    # ------------------------------------------------------------------ running a plan
    def _run(self, plan: _Plan, codes: np.ndarray, *, keep_choices: bool = False):
        """Run ``plan`` on evidence rows ``codes`` (columns: ``plan.observed``): the table over
        the targets (leading batch axis) and each row's log scale."""
        n = codes.shape[0]
        if plan.largest * n > self.max_cells:
            raise self._too_large(plan.largest, n, plan.targets, plan.observed)
        return _run_plan(plan, self._cpts, codes, keep_choices)
