"""Exact inference by whichever of variable elimination and the junction tree is cheaper, query
by query: the default engine of :class:`~bayeskit.networks.BayesianNetwork`'s predictions and
of ``bayeskit network query``.

Neither method is always faster. A compiled junction tree answers a query on a network of small
cliques (alarm, hailfinder) in tens of microseconds, where variable elimination spends a
millisecond planning and calling numpy; on networks of large cliques (water, munin, pigs) a
pass over the tree touches millions of cells that variable elimination never builds, since it
first drops the barren nodes and the evidence d-separated from the query. So
:class:`ExactInference` estimates both costs of each query shape (the query variables and the
observed nodes) before running it:

- the junction tree's: the cells its pass touches, in the sub-tree joining the query's clique
  and the observed nodes' home cliques (see :mod:`bayeskit.inference.junction`), times the rows;
- variable elimination's: the cells of the tables its plan makes, times the rows, plus a fixed
  cost per numpy call of the plan and for its pruning (a look at the network, and at each
  observed node whose CPT has a zero). A row whose dropped evidence might be impossible is
  answered with all its evidence (see :mod:`bayeskit.inference.elimination`): that plan is weighed.

The cheaper bounds are tried first: a tree cheaper than the least any elimination costs, or
than the elimination's work before planning, wins without a plan being made. The figures per
cell and per call were fitted to timings on the standard networks (see
``benchmarks/bench_inference.py``); a wrong guess between two close costs loses little. The
estimates are kept per query shape, so a shape is weighed once. A batch is split by which nodes
its rows observe, each group going to the cheaper method; the junction tree's rows then run in
one compiled pass. Both methods are exact, so the choice changes no answer beyond rounding.

The junction tree is compiled lazily: not before variable elimination has spent
``_BUILD_AFTER`` seconds on queries (a script that asks a few questions never pays for
compiling the tree or loading its kernels), and never when it would exceed ``max_cells``
(variable elimination, which prunes per query, may still answer).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np

from bayeskit.factors.factor import Factor, Marginals
from bayeskit.factors.limits import DEFAULT_MAX_CELLS, InferenceTooLarge
from bayeskit.inference.elimination import VariableElimination
from bayeskit.inference.evidence import observation_patterns
from bayeskit.inference.junction import JunctionTree

if TYPE_CHECKING:
    from bayeskit.networks.network import BayesianNetwork

__all__ = ["ENGINES", "ExactInference"]

ENGINES = ("auto", "variable-elimination", "junction-tree")

# Seconds, fitted to 600 queries on 16 standard networks (by least squares of the relative
# error; benchmarks/bench_inference.py times both engines): a junction tree call and a touched
# cell; a variable elimination query, a numpy call of its plan, a table cell, and a node of the
# network (the pruning looks at the ancestors and the moral graph).
_JT_CALL = 40e-6
_JT_CELL = 1.0e-9
_VE_CALL = 40e-6
_VE_STEP = 25e-6
_VE_CELL = 1.5e-9
_VE_NODE = 0.25e-6
# and per observed node whose CPT has a zero (each is looked at to tell whether dropping it as
# d-separated could hide impossible evidence: VariableElimination._prune)
_VE_GUARD = 10e-6
# and for ordering the n nodes it sums out (each greedy pick looks at the nodes left): n**2 of
# these; once a plan is made and kept, it costs nothing more
_VE_PICK = 0.3e-6
# variable elimination's time on queries after which the junction tree is compiled
_BUILD_AFTER = 0.1


class ExactInference(VariableElimination):
    """Exact queries on a :class:`~bayeskit.networks.BayesianNetwork`, each by variable
    elimination or the junction tree, whichever its estimated cost says is faster (see the
    module docstring).

    It answers as :class:`~bayeskit.networks.VariableElimination` does (``query``,
    ``query_batch``, ``probability_of_evidence``, ``map_query``, with the same checks and
    errors) and adds ``calibrate`` (the junction tree's).

    Parameters
    ----------
    network : BayesianNetwork
    engine : {"auto", "variable-elimination", "junction-tree"}, default="auto"
        ``"auto"`` chooses per query; the others always use that method (the junction tree
        hands joint posteriors of several variables and MAP to variable elimination).
    max_cells : int, default=2**27
        The most cells a table of variable elimination, or the junction tree's potentials
        together, may have.

    Examples
    --------
    >>> from bayeskit.networks import DAG, BayesianNetwork
    >>> yn = ["yes", "no"]
    >>> net = BayesianNetwork(DAG(edges=[("rain", "wet"), ("sprinkler", "wet")]), {
    ...     "rain": [0.2, 0.8], "sprinkler": [0.1, 0.9],
    ...     "wet": [[[0.99, 0.01], [0.9, 0.1]], [[0.8, 0.2], [0.05, 0.95]]]},
    ...     states={"rain": yn, "sprinkler": yn, "wet": yn})
    >>> exact = ExactInference(net)
    >>> exact.query("rain", {"wet": "yes"}).values.round(4).tolist()
    [0.6451, 0.3549]
    """

    def __init__(
        self,
        network: BayesianNetwork,
        engine: str = "auto",
        max_cells: int = DEFAULT_MAX_CELLS,
    ):
        super().__init__(network, max_cells=max_cells)
        if engine not in ENGINES:
            msg = f"engine must be one of {ENGINES}, got {engine!r}"
            raise ValueError(msg)
        self.engine = engine
        self._tree: JunctionTree | None = None
        self._no_tree = engine == "variable-elimination"
        self._spent = 0.0  # seconds variable elimination spent on queries
        self._costs: dict[tuple, list] = {}  # per query shape: tree, floor, elimination
        # the least time variable elimination takes on a query of this network
        self._least = _VE_CALL + 2 * _VE_STEP + _VE_NODE * len(self._nodes)

    @property
    def junction_tree(self) -> JunctionTree:
        """The junction tree, compiled on first use (``InferenceTooLarge`` beyond
        ``max_cells``)."""
        if self._tree is None:
            self._tree = JunctionTree(self.network, max_cells=self.max_cells)
        return self._tree

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
        """The posterior of ``variables`` given ``evidence``: as
        :meth:`VariableElimination.query` (the same checks, errors and answers), by whichever
        engine costs less.

        Parameters
        ----------
        variables : node or sequence of nodes
            The query variables, each named once and none observed in ``evidence``.
        evidence : mapping node -> state, optional
            The observed nodes' states, by name; None or empty for the prior.
        joint : bool, default=True
            One factor over all the variables, or (False) a dict of one marginal each.

        Returns
        -------
        Factor or Marginals
            Normalised: the values sum to 1. Both print as tables with the states named.

        Raises
        ------
        ZeroProbabilityEvidence
            The evidence has probability zero under the network (a ``ValueError``).

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> exact = ExactInference(example_network("cancer"))
        >>> exact.query("Cancer", {"Xray": "positive"}).values.round(3).tolist()
        [0.05, 0.95]
        >>> exact.query(["Cancer", "Smoker"], joint=False)["Smoker"].values.tolist()
        [0.3, 0.7]
        """
        tree = self._tree
        if joint and tree is not None and self.engine != "variable-elimination":
            # a tree whose every pass costs less than any elimination answers at once
            if _JT_CALL + _JT_CELL * tree._cost_all(False) <= self._least:
                return tree.query(variables, evidence)
        return super().query(variables, evidence, joint=joint)

    def calibrate(self, evidence: Mapping[Any, Any] | None = None) -> Marginals:
        """Every unobserved node's posterior: :meth:`JunctionTree.calibrate` (the junction tree
        is compiled on first use).

        Parameters
        ----------
        evidence : mapping node -> state, optional
            The observed nodes' states, by name; None or empty for the priors.

        Returns
        -------
        Marginals
            A dict node -> :class:`Factor`, every unobserved node in network order.

        Raises
        ------
        ZeroProbabilityEvidence
            The evidence has probability zero under the network (a ``ValueError``).

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> exact = ExactInference(example_network("cancer"))
        >>> marginals = exact.calibrate({"Xray": "positive"})
        >>> list(marginals), marginals["Smoker"].values.round(3).tolist()
        (['Pollution', 'Smoker', 'Cancer', 'Dyspnoea'], [0.321, 0.679])
        """
        return self.junction_tree.calibrate(evidence)

    # ------------------------------------------------------------------ choosing
    def _tree_if_worth(self, coming: float = 0.0) -> JunctionTree | None:
        """The junction tree when it is compiled, or worth compiling now (variable
        elimination has spent, or is about to spend ``coming`` more, ``_BUILD_AFTER``
        seconds); else None."""
        if self._tree is None and not self._no_tree:
            if self.engine == "junction-tree":
                return self.junction_tree
            if self._spent + coming < _BUILD_AFTER:
                return None
            try:
                self._tree = JunctionTree(self.network, max_cells=self.max_cells)
            except InferenceTooLarge:
                self._no_tree = True
        return self._tree

    def _use_tree(self, groups, observed: tuple[int, ...], codes: np.ndarray) -> bool:
        """Whether the junction tree answers these groups of targets (each one node; ``[()]``
        for ``P(e)`` alone) given ``observed``, for the rows ``codes`` of their states."""
        tree = self._tree if self._tree is not None else self._tree_if_worth()
        if tree is None or any(len(g) > 1 for g in groups):
            return False
        if self.engine != "auto":
            return self.engine == "junction-tree"
        n_rows = len(codes)
        if _JT_CALL + _JT_CELL * n_rows * tree._cost_all(len(groups) > 1) <= self._least:
            return True  # cheaper than the least a plan costs: no need to weigh it
        key = (tuple(groups), observed)
        costs = self._costs.get(key)
        if costs is None:
            if len(self._costs) > 4096:
                self._costs.clear()
            costs = self._costs[key] = [self._tree_cost(tree, groups, observed), {}, {}]
        jt = _JT_CALL + _JT_CELL * n_rows * costs[0]
        if jt <= self._before_plan(observed):
            return True  # cheaper than elimination's work before any plan
        # elimination drops d-separated evidence, but answers a row whose dropped evidence
        # might be impossible with all of it (see VariableElimination._prune): weigh that plan
        prune = all(bool(g) and self._safe_rows(g, observed, codes).all() for g in groups)
        if prune not in costs[1]:  # the least elimination can cost, from its pruning alone
            costs[1][prune] = self._elimination_floor(groups, observed, prune)
        if jt <= costs[1][prune]:
            return True  # no need to plan the elimination
        if prune not in costs[2]:
            costs[2][prune] = self._elimination_cost(groups, observed, prune)
        ve_fixed, ve_row = costs[2][prune]
        return jt <= ve_fixed + n_rows * ve_row

    def _before_plan(self, observed) -> float:
        """Variable elimination's time on a query before any plan: the call, the pruning's
        look at the network and at the observed nodes whose CPT has a zero."""
        zeros = sum(1 for v in observed if self._has_zero[v])
        return _VE_CALL + _VE_NODE * len(self._nodes) + _VE_GUARD * zeros

    def _tree_cost(self, tree: JunctionTree, groups, observed) -> float:
        """Cells a row's pass over the tree touches (see :meth:`JunctionTree._row_cost`)."""
        targets = [g[0] for g in groups if g] or [observed[0]]
        distribute = len(targets) > 1
        terminals = {int(tree._home[v]) for v in observed}
        if distribute:
            terminals |= {int(tree._home[v]) for v in targets}
        return tree._row_cost(int(tree._home[targets[0]]), terminals) * (1 + distribute)

    def _elimination_floor(self, groups, observed, prune: bool) -> float:
        """The least variable elimination can take on this shape, from its pruning alone (no
        elimination order): a numpy call per CPT sliced by evidence, two per node summed out,
        and ordering those nodes. ``prune``: whether the d-separated evidence is dropped."""
        floor = self._before_plan(observed)
        for g in groups:
            used = self._pruning(g, observed)[0] if prune else frozenset(observed)
            kept = self._ancestral(set(g) | used)
            sliced = sum(1 for v in kept if used.intersection(self._scope[v]))
            summed = len(kept - used - set(g))
            floor += _VE_STEP * (sliced + 2 * summed) + _VE_PICK * summed**2
        return floor

    def _elimination_cost(self, groups, observed, prune: bool) -> tuple[float, float]:
        """Variable elimination's fixed seconds and seconds per row, from its plans."""
        ve_fixed, ve_row = self._before_plan(observed), 0.0
        for g in groups:
            try:
                plan = self._plan(g, observed, prune_separated=prune)
            except InferenceTooLarge:
                return np.inf, 0.0
            steps, cells = _plan_cost(plan, self._card)
            ve_fixed += _VE_STEP * steps
            ve_row += _VE_CELL * cells
        return ve_fixed, ve_row

    # ------------------------------------------------------------------ answering
    def _posteriors(self, groups, observed, codes: np.ndarray):
        single = all(len(g) == 1 for g in groups)  # the tree gives one node's posteriors
        if single and self._use_tree(groups, observed, codes):
            return self._tree_posteriors(groups, observed, codes)
        return self._eliminated(groups, observed, codes)

    def _eliminated(self, groups, observed, codes: np.ndarray):
        """:meth:`_posteriors` by variable elimination, its time counted."""
        start = time.perf_counter()
        try:
            return super()._posteriors(groups, observed, codes)
        finally:
            self._spent += time.perf_counter() - start

    def _batch_posteriors(self, groups, codes: np.ndarray, columns):
        if any(len(g) > 1 for g in groups) or self.engine == "variable-elimination":
            return super()._batch_posteriors(groups, codes, columns)
        patterns = len(np.unique(codes >= 0, axis=0)) if len(codes) else 0
        tree = self._tree_if_worth(coming=self._least * patterns)
        if tree is not None:  # all rows by the tree when that costs less than the plans' calls
            every = _JT_CALL + _JT_CELL * len(codes) * tree._cost_all(len(groups) > 1)
            if self.engine == "junction-tree" or every <= self._least * patterns:
                tables, possible = self._tree_posteriors(groups, columns, codes)
                return dict(zip(groups, tables, strict=True)), possible
        out = {g: np.empty((len(codes), int(self._card[g[0]]))) for g in groups}
        possible = np.ones(len(codes), dtype=bool)
        by_tree = []
        for rows, observed, sub in observation_patterns(codes, columns):
            if self._use_tree(groups, observed, sub):
                by_tree.append(rows)
                continue
            tables, possible[rows] = self._eliminated(groups, observed, sub)
            for group, table in zip(groups, tables, strict=True):
                out[group][rows] = table
        if by_tree:
            rows = np.concatenate(by_tree)
            tables, possible[rows] = self._tree_posteriors(groups, columns, codes[rows])
            for group, table in zip(groups, tables, strict=True):
                out[group][rows] = table
        return out, possible

    def _tree_posteriors(self, groups, columns, codes: np.ndarray):
        """:meth:`_posteriors` by the junction tree (each group one node): one pass per row,
        distributing when there are several."""
        targets = [g[0] for g in groups]
        flat, log_pe = self.junction_tree._run(
            targets, list(columns), codes, distribute=len(targets) > 1
        )
        possible = np.isfinite(log_pe)
        tables, at = [], 0
        for t in targets:
            k = int(self._card[t])
            table = flat[:, at : at + k]
            if not possible.all():
                table[~possible] = np.nan
            tables.append(table)
            at += k
        return tables, possible

    def _log_evidence(self, observed, codes: np.ndarray) -> np.ndarray:
        if self._use_tree([()], observed, codes):
            tree = self.junction_tree
            return tree._run([observed[0]], list(observed), codes, distribute=False)[1]
        start = time.perf_counter()
        try:
            return super()._log_evidence(observed, codes)
        finally:
            self._spent += time.perf_counter() - start


def _plan_cost(plan, card: np.ndarray) -> tuple[int, float]:
    """Numpy calls and table cells per row of a variable elimination plan: each evidence
    slice, and each step's product before summing out."""
    calls, cells = 1, 0.0
    for (_, axes, _), scope in zip(plan.factors, plan.scopes, strict=True):
        if axes:
            calls += 1
            cells += float(np.prod(card[list(scope)], dtype=np.float64))
    for step in plan.steps:
        calls += 2  # the product and the rescaling
        cells += float(np.prod(card[[*step.out, step.var]], dtype=np.float64))
    return calls, cells
