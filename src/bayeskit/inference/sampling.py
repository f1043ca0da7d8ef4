"""Approximate inference by sampling (Zhou, *Machine Learning*, 7.5.3): Gibbs sampling
(Algorithm 7.1), likelihood weighting and rejection sampling.

**Gibbs sampling.** The evidence is clamped; every other node starts from a forward sample (its
CPT given its parents, the evidence nodes held at their states) and is then resampled, one node
at a time, from its distribution given its Markov blanket,
``P(x_i | mb_i) ∝ P(x_i | pa_i) prod_{c child of i} P(x_c | pa_c)``. A sweep visits every
unobserved node once, in topological order. Several chains run side by side in one compiled
kernel (threads split the chains); their uniforms are drawn beforehand from one seeded numpy
generator, so the draws are the same whatever the number of threads. The first ``burn_in``
sweeps are dropped, then every ``thin``-th sweep is kept. The posterior of a queried node is
the share of kept draws in each state, over all chains.

Convergence is checked by the split R-hat of Gelman et al. (Bayesian Data Analysis, 3rd ed.,
Eq. 11.4) on the indicator of each state of each queried node: every chain is cut in two halves,
and ``sqrt(var+ / W)`` compares the variance between the halves with the variance within; values
near 1 mean the chains agree. As Zhou warns, CPT entries of exactly 0 or 1 can keep a chain
from ever reaching part of the space (the state of one node fixes another's, so single-node
moves cannot leave): the sampler says so with a :class:`DeterministicCPTWarning` when a node it
resamples, or a child of one, has such an entry.

**Likelihood weighting.** Forward samples with the evidence nodes clamped, each weighted by the
probability of its evidence given its sampled parents (log weights, so many evidence nodes do not
underflow). **Rejection sampling.** Forward samples of the whole network; those that disagree
with the evidence are dropped. Both loop over the nodes once, vectorised over the samples.

**Evidence of probability zero** is refused as exact inference refuses it, with
:class:`~bayeskit.networks.ZeroProbabilityEvidence`. A sampler cannot see it from its samples
alone: a sample of positive weight (a kept sample, a Gibbs start) proves the evidence possible,
but none may only mean too few samples. So when none comes, ``P(e)`` is computed exactly (by
variable elimination, up to ``2**22`` cells per table): zero raises ``ZeroProbabilityEvidence``;
positive raises a plain ``ValueError`` giving ``P(e)`` and asking for more samples.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from bayeskit._warnings import warn
from bayeskit.data.validation import check_count, check_seed
from bayeskit.factors.factor import Factor, Marginals
from bayeskit.factors.limits import InferenceTooLarge
from bayeskit.inference._sampler_helpers import (
    chain_starts,
    compile_arrays,
    forward_samples,
    run_sweeps,
    shares,
)
from bayeskit.inference.elimination import VariableElimination
from bayeskit.inference.evidence import check_network, zero_evidence

if TYPE_CHECKING:
    from bayeskit.networks.network import BayesianNetwork

__all__ = [
    "CompiledNetwork",
    "DeterministicCPTWarning",
    "GibbsResult",
    "GibbsSampler",
    "likelihood_weighting",
    "rejection_sampling",
    "split_r_hat",
]

_CHECK_CELLS = 1 << 22  # the exact P(e) check when no sample meets the evidence


class DeterministicCPTWarning(UserWarning):
    """CPT entries of 0 or 1 that can stop a Gibbs chain from mixing (Zhou, *Machine Learning*,
    7.5.3)."""


@dataclass
class GibbsResult:
    """What a Gibbs run gives.

    Attributes
    ----------
    marginals : Marginals
        Each queried node's estimated posterior (the kept draws' shares of its states), a dict
        node -> Factor that prints as tables.
    r_hat : dict of node -> float
        Each queried node's split R-hat (the largest over its states' indicators).
    draws : DataFrame
        The kept draws of the queried nodes (state names), with the columns ``chain`` and
        ``draw``.
    n_draws : int
        Kept draws per chain.

    Examples
    --------
    What :meth:`GibbsSampler.query` returns; its draws are a table of one row per kept draw:

    >>> from bayeskit.networks import example_network
    >>> result = GibbsSampler(example_network("cancer")).query(
    ...     "Cancer", {"Smoker": "True"}, n_draws=200, n_chains=2, seed=0)
    >>> result.n_draws, result.draws.shape, list(result.draws.columns)
    (200, (400, 3), ['Cancer', 'chain', 'draw'])
    """

    marginals: Marginals
    r_hat: dict[Any, float]
    draws: pd.DataFrame
    n_draws: int


class CompiledNetwork:
    """A network in the flat arrays the kernels read: log CPTs, families and children.

    Parameters
    ----------
    net : BayesianNetwork
        Checked as every inference engine checks it.

    Examples
    --------
    >>> from bayeskit.networks import example_network
    >>> compiled = CompiledNetwork(example_network("cancer"))
    >>> compiled.nodes[:2], compiled.card.tolist()  # each node's number of states
    (('Pollution', 'Smoker'), [2, 2, 2, 2, 2])
    """

    def __init__(self, net: BayesianNetwork):
        (self.net, self.nodes, self.pos, self.checks, self.card, self.cumulative, self.cpt_off,
         self.log_cpt, self.fam_nodes, self.fam_strides, self.fam_ptr, self.children, self.ch_ptr,
         self.topological, self.deterministic) = compile_arrays(net)  # fmt: skip

    def evidence(self, evidence: Mapping[Any, Any] | None) -> dict[int, int]:
        """Observed node -> state index (the checks of exact inference: unknown nodes and
        states named).

        Parameters
        ----------
        evidence : mapping node -> state, or None
            The observed nodes' states, by name; None observes nothing.

        Returns
        -------
        dict of int -> int
            Each observed node's position in :attr:`nodes` -> its state's index.

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> compiled = CompiledNetwork(example_network("cancer"))
        >>> compiled.evidence({"Xray": "positive", "Smoker": "False"})
        {3: 0, 1: 1}
        """
        observed, codes = self.checks.evidence(evidence)
        return dict(zip(observed, codes.tolist(), strict=True))

    def log_evidence(self, observed: dict[int, int]) -> float | None:
        """The exact ``log P(e)``, by variable elimination.

        Parameters
        ----------
        observed : dict of int -> int
            The evidence as :meth:`evidence` gives it.

        Returns
        -------
        float or None
            The natural log of ``P(e)``, ``-inf`` for impossible evidence; None when its
            tables would exceed ``2**22`` cells.

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> compiled = CompiledNetwork(example_network("cancer"))
        >>> round(compiled.log_evidence(compiled.evidence({"Xray": "positive"})), 3)
        -1.57
        """
        try:
            exact = VariableElimination(self.net, max_cells=_CHECK_CELLS)
            return exact.probability_of_evidence(self.named(observed), log=True)
        except InferenceTooLarge:
            return None

    def named(self, observed: dict[int, int]) -> dict[Any, str]:
        """The evidence as :meth:`evidence` gives it, back to node -> state name.

        Parameters
        ----------
        observed : dict of int -> int
            Node position -> state index.

        Returns
        -------
        dict
            Node -> state name, in ``observed``'s order.

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> compiled = CompiledNetwork(example_network("cancer"))
        >>> compiled.named({3: 0, 1: 1})
        {'Xray': 'positive', 'Smoker': 'False'}
        """
        return {self.nodes[i]: self.net.states(self.nodes[i])[s] for i, s in observed.items()}

    def unmet(self, observed: dict[int, int], what: str, log_pe: Any = False) -> ValueError:
        """The error when no sample meets the evidence: ZeroProbabilityEvidence when its exact
        probability is zero, else a ValueError giving it.

        Parameters
        ----------
        observed : dict of int -> int
            The evidence as :meth:`evidence` gives it.
        what : str
            What went wrong, the start of the message (``"no sample of 10 agrees with"``).
        log_pe : float, None or False, default=False
            The exact ``log P(e)`` when known already (None: too large to compute); False:
            not known, computed here (:meth:`log_evidence`).

        Returns
        -------
        ValueError
            To be raised: a :class:`~bayeskit.networks.ZeroProbabilityEvidence` for evidence
            of probability zero, else a plain ValueError giving ``P(e)`` (or saying it is
            unknown) and asking for more samples.

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> compiled = CompiledNetwork(example_network("cancer"))
        >>> error = compiled.unmet(compiled.evidence({"Xray": "positive"}), "no sample agrees with")
        >>> type(error).__name__, str(error).split("}: ")[1]
        ('ValueError', 'its probability is 0.208 (log -1.57); draw more samples')
        """
        if log_pe is False:
            log_pe = self.log_evidence(observed)
        evidence = self.named(observed)
        if log_pe is not None and np.isneginf(log_pe):
            return zero_evidence(evidence)
        if log_pe is None:
            odds = "whether it is possible at all is unknown (exact P(e) is too large to compute)"
        else:
            odds = f"its probability is {np.exp(log_pe):.3g} (log {log_pe:.4g})"
        msg = f"{what} the evidence {evidence}: {odds}; draw more samples"
        return ValueError(msg)

    def targets(self, variables: Any, observed: dict[int, int]) -> list[int]:
        """The positions of the query variables, checked as exact inference checks them.

        Parameters
        ----------
        variables : node or sequence of nodes
            The query variables, each named once.
        observed : dict of int -> int
            The evidence as :meth:`evidence` gives it; no query variable may be observed (a
            ValueError names it, as for an unknown node or one named twice).

        Returns
        -------
        list of int
            Each variable's position in :attr:`nodes`, in the order named.

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> compiled = CompiledNetwork(example_network("cancer"))
        >>> compiled.targets(["Cancer", "Pollution"], compiled.evidence({"Xray": "positive"}))
        [2, 0]
        """
        out = self.checks.nodes_of(variables, "variables")
        self.checks.apart(out, observed)
        return out

    def forward(self, n: int, observed: dict[int, int], rng: np.random.Generator):
        """``n`` forward (ancestral) samples, nodes in topological order, one uniform per
        sample and unobserved node; the observed nodes clamped. The states (n, nodes) and each
        sample's log weight ``sum log P(e_i | pa_i)``. :meth:`BayesianNetwork.sample` is this
        with nothing observed.

        Parameters
        ----------
        n : int
            The number of samples.
        observed : dict of int -> int
            The clamped nodes, as :meth:`evidence` gives them (empty: none).
        rng : numpy.random.Generator
            The random numbers.

        Returns
        -------
        states : ndarray of int64 of shape (n, n_nodes)
            Each sample's state index per node, columns in :attr:`nodes` order.
        log_weights : ndarray of shape (n,)
            Each sample's ``sum log P(e_i | pa_i)`` over the observed nodes (0 with none;
            ``-inf`` where the evidence is impossible given the sampled parents).

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> compiled = CompiledNetwork(example_network("cancer"))
        >>> states, log_w = compiled.forward(3, {3: 0}, np.random.default_rng(0))
        >>> states.shape, states[:, 3].tolist(), log_w.round(3).tolist()
        ((3, 5), [0, 0, 0], [-1.609, -1.609, -1.609])
        """
        return forward_samples(self, n, observed, rng)


class GibbsSampler:
    """Gibbs sampling on a :class:`~bayeskit.networks.BayesianNetwork` (Zhou, *Machine
    Learning*, Algorithm 7.1; see the module docstring).

    Parameters
    ----------
    network : BayesianNetwork

    Examples
    --------
    >>> from bayeskit.networks import DAG, BayesianNetwork
    >>> yn = ["yes", "no"]
    >>> net = BayesianNetwork(DAG(edges=[("rain", "wet")]),
    ...     {"rain": [0.2, 0.8], "wet": [[0.9, 0.1], [0.2, 0.8]]},
    ...     states={"rain": yn, "wet": yn})
    >>> result = GibbsSampler(net).query("rain", {"wet": "yes"}, n_draws=20_000, seed=0)
    >>> round(float(result.marginals["rain"].values[0]), 2)  # exact: 0.18 / 0.34 = 0.53
    0.53
    >>> result.r_hat["rain"] < 1.01
    True
    """

    def __init__(self, network: BayesianNetwork):
        check_network(network)
        self.network = network
        self._c = CompiledNetwork(network)

    def query(
        self,
        variables: Any,
        evidence: Mapping[Any, Any] | None = None,
        *,
        n_draws: int = 5_000,
        burn_in: int = 500,
        thin: int = 1,
        n_chains: int = 4,
        seed: int | np.random.Generator | None = None,
    ) -> GibbsResult:
        """Estimate the posteriors of ``variables`` given ``evidence``.

        Parameters
        ----------
        variables : node or list of nodes
        evidence : mapping node -> state, optional
        n_draws : int, default=5000
            Draws kept per chain.
        burn_in : int, default=500
            Sweeps dropped at the start of each chain.
        thin : int, default=1
            Keep every ``thin``-th sweep after the burn-in.
        n_chains : int, default=4
            Chains run side by side (at least 2 for R-hat).
        seed : int or Generator, optional
            The random numbers (None: fresh entropy).

        Returns
        -------
        GibbsResult
            The estimated posteriors (``marginals``), each node's split R-hat (``r_hat``) and
            the kept draws (``draws``, a row per draw of each chain).

        Raises
        ------
        ZeroProbabilityEvidence
            The evidence has probability zero under the network (a ``ValueError``): checked
            exactly when a chain's first forward sample misses it (see the module docstring).
        ValueError
            No start of positive probability was found for a chain in 1,000 forward samples,
            though the evidence is possible (its probability is given).

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> result = GibbsSampler(example_network("cancer")).query(
        ...     "Cancer", {"Smoker": "True"}, n_draws=2000, n_chains=2, seed=0)
        >>> result.draws.shape, result.r_hat["Cancer"] < 1.1  # exact P(Cancer=True | Smoker): 0.032
        ((4000, 3), True)
        """
        for name, value, low in (("n_draws", n_draws, 1), ("burn_in", burn_in, 0),
                                 ("thin", thin, 1), ("n_chains", n_chains, 1)):  # fmt: skip
            check_count(name, value, low=low)
        rng = check_seed(seed)
        c = self._c
        observed = c.evidence(evidence)
        targets = c.targets(variables, observed)
        free = np.array([i for i in c.topological if i not in observed], dtype=np.int64)
        self._warn_deterministic(free)
        state = chain_starts(c, n_chains, observed, rng)
        draws = run_sweeps(c, state, free, targets, n_draws, burn_in, thin, rng)
        marginals, r_hat, frame = Marginals(), {}, {}
        for t, i in enumerate(targets):
            node, k = c.nodes[i], int(c.card[i])
            counts = np.bincount(draws[:, :, t].ravel(), minlength=k).astype(np.float64)
            marginals[node] = Factor._trusted([node], counts / counts.sum(),
                                              {node: self.network.states(node)})  # fmt: skip
            r_hat[node] = max(split_r_hat(draws[:, :, t] == v) for v in range(k))
            frame[node] = np.asarray(self.network.states(node), dtype=object)[
                draws[:, :, t].T.ravel()
            ]
        frame["chain"] = np.repeat(np.arange(n_chains), n_draws)
        frame["draw"] = np.tile(np.arange(n_draws), n_chains)
        return GibbsResult(marginals, r_hat, pd.DataFrame(frame), n_draws)

    def _warn_deterministic(self, free: np.ndarray) -> None:
        c = self._c
        touched = set(free.tolist())
        for i in free.tolist():
            touched.update(c.children[c.ch_ptr[i] : c.ch_ptr[i + 1]].tolist())
        found = [c.nodes[i] for i in sorted(touched) if c.deterministic[i]]
        if found:
            shown = ", ".join(map(repr, found[:8])) + (" ..." if len(found) > 8 else "")
            warn(
                f"CPTs of {len(found)} node(s) the sampler touches ({shown}) have entries of "
                "exactly 0 or 1: single-node Gibbs moves may be unable to reach every state "
                "that has probability, so the chains may not mix; check r_hat, or use exact "
                "inference or likelihood weighting",
                DeterministicCPTWarning,
            )


def split_r_hat(draws: np.ndarray) -> float:
    """The split R-hat of ``draws`` (kept draws by chains), Gelman et al. (BDA3 Eq. 11.4): each
    chain cut into halves, ``sqrt(((n - 1) / n W + B / n) / W)``. 1.0 for draws that never vary;
    ``inf`` when the halves differ but none varies within.

    Parameters
    ----------
    draws : array-like of shape (n_draws, n_chains)
        The kept draws of one quantity (e.g. the indicator of a node's state), a column per
        chain.

    Returns
    -------
    float
        Near 1 when the half-chains agree; NaN with fewer than 4 draws per chain.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> round(split_r_hat(rng.normal(size=(1000, 4))), 2)  # four chains that agree
    1.0
    >>> split_r_hat(np.r_[np.zeros((500, 2)), np.ones((500, 2))])  # each stuck, then moved
    inf
    """
    x = np.asarray(draws, dtype=np.float64)
    n = x.shape[0] // 2
    if n < 2:
        return float("nan")
    halves = np.concatenate([x[:n], x[x.shape[0] - n :]], axis=1)  # (n, 2 chains)
    means = halves.mean(axis=0)
    w = halves.var(axis=0, ddof=1).mean()
    b = n * means.var(ddof=1)
    if w == 0:
        return 1.0 if b == 0 else float("inf")
    return float(math.sqrt(((n - 1) / n * w + b / n) / w))


def likelihood_weighting(
    network: BayesianNetwork,
    variables: Any,
    evidence: Mapping[Any, Any] | None = None,
    *,
    n_samples: int = 10_000,
    seed: int | np.random.Generator | None = None,
) -> dict[Any, Factor]:
    """Estimate posteriors by likelihood weighting (see the module docstring): a
    :class:`~bayeskit.networks.Marginals`, node -> Factor.

    Parameters
    ----------
    network : BayesianNetwork
    variables : node or list of nodes
        The nodes whose posteriors are estimated (not evidence nodes).
    evidence : mapping node -> state, optional
        The observed nodes and their states (by state name).
    n_samples : int, default=10_000
        Forward samples drawn, the evidence nodes clamped.
    seed : int or Generator, optional
        The random numbers (None: fresh entropy).

    Returns
    -------
    Marginals
        Node -> :class:`~bayeskit.factors.Factor` over its states: the weighted share of the
        samples in each state.

    Raises
    ------
    ZeroProbabilityEvidence
        The evidence has probability zero under the network (a ``ValueError``): checked
        exactly when every sample has weight 0.
    ValueError
        Every sample has weight 0 though the evidence is possible (its probability is given):
        too few samples.

    Examples
    --------
    >>> from bayeskit.networks import DAG, BayesianNetwork
    >>> yn = ["yes", "no"]
    >>> net = BayesianNetwork(DAG(edges=[("rain", "wet")]),
    ...     {"rain": [0.2, 0.8], "wet": [[0.9, 0.1], [0.2, 0.8]]},
    ...     states={"rain": yn, "wet": yn})
    >>> post = likelihood_weighting(net, "rain", {"wet": "yes"}, n_samples=20_000, seed=0)
    >>> p = float(post["rain"].values[0])
    >>> abs(p - 0.18 / 0.34) < 0.02  # exact: P(rain | wet) = 0.18 / 0.34
    True
    """
    check_count("n_samples", n_samples, low=1)
    rng = check_seed(seed)
    c = CompiledNetwork(network)
    observed = c.evidence(evidence)
    targets = c.targets(variables, observed)
    x, log_w = c.forward(n_samples, observed, rng)
    if np.isneginf(log_w).all():
        raise c.unmet(observed, f"every one of {n_samples:,} samples has weight 0 given")
    w = np.exp(log_w - log_w.max())
    return Marginals((c.nodes[i], shares(network, c.nodes[i], x[:, i], w)) for i in targets)


def rejection_sampling(
    network: BayesianNetwork,
    variables: Any,
    evidence: Mapping[Any, Any] | None = None,
    *,
    n_samples: int = 10_000,
    seed: int | np.random.Generator | None = None,
) -> dict[Any, Factor]:
    """Estimate posteriors by rejection sampling: ``n_samples`` forward samples, those that
    disagree with the evidence dropped; a :class:`~bayeskit.networks.Marginals`, node ->
    Factor.

    Parameters
    ----------
    network : BayesianNetwork
    variables : node or list of nodes
        The nodes whose posteriors are estimated (not evidence nodes).
    evidence : mapping node -> state, optional
        The observed nodes and their states (by state name).
    n_samples : int, default=10_000
        Forward samples drawn (before those that disagree with the evidence are dropped).
    seed : int or Generator, optional
        The random numbers (None: fresh entropy).

    Returns
    -------
    Marginals
        Node -> :class:`~bayeskit.factors.Factor` over its states: the share of the kept
        samples in each state.

    Raises
    ------
    ZeroProbabilityEvidence
        The evidence has probability zero under the network (a ``ValueError``): checked
        exactly when no sample agrees with it.
    ValueError
        No sample agrees with evidence that is possible (its probability is given): too few
        samples.

    Examples
    --------
    >>> from bayeskit.networks import DAG, BayesianNetwork
    >>> yn = ["yes", "no"]
    >>> net = BayesianNetwork(DAG(edges=[("rain", "wet")]),
    ...     {"rain": [0.2, 0.8], "wet": [[0.9, 0.1], [0.2, 0.8]]},
    ...     states={"rain": yn, "wet": yn})
    >>> post = rejection_sampling(net, "rain", {"wet": "yes"}, n_samples=20_000, seed=0)
    >>> p = float(post["rain"].values[0])
    >>> abs(p - 0.18 / 0.34) < 0.02  # about 34% of the samples are kept
    True
    """
    check_count("n_samples", n_samples, low=1)
    rng = check_seed(seed)
    c = CompiledNetwork(network)
    observed = c.evidence(evidence)
    targets = c.targets(variables, observed)
    x, _ = c.forward(n_samples, {}, rng)
    keep = np.ones(n_samples, dtype=bool)
    for i, s in observed.items():
        keep &= x[:, i] == s
    if not keep.any():
        raise c.unmet(observed, f"no sample of {n_samples:,} agrees with")
    w = keep.astype(np.float64)
    return Marginals((c.nodes[i], shares(network, c.nodes[i], x[:, i], w)) for i in targets)
