"""What the samplers of :mod:`bayeskit.inference.sampling` run: a network laid out in the flat
arrays the kernels read, forward samples, a Gibbs chain's start and its sweeps, and a
posterior's weighted shares."""

from __future__ import annotations

from typing import Any

import numpy as np

from bayeskit.factors.factor import Factor
from bayeskit.inference._gibbs_kernel import gibbs_sweeps
from bayeskit.inference.evidence import EvidenceChecker, zero_evidence

_SWEEPS_PER_BLOCK = 1024  # uniforms drawn a block of sweeps at a time


def compile_arrays(net: Any) -> tuple[Any, ...]:
    """``net`` laid out as :class:`CompiledNetwork` holds it, in the order of its attributes:
    the network, its nodes and their positions, the input checks, the cardinalities, each CPT
    row's cumulative distribution, the log CPTs, families, children, the topological order and
    each node's count of deterministic entries."""
    nodes = net.nodes
    pos = {n: i for i, n in enumerate(nodes)}
    checks = EvidenceChecker(net)  # the input checks every engine shares
    card = np.array([net.cardinality(n) for n in nodes], dtype=np.int64)
    tables = [np.asarray(net.cpt(n), dtype=np.float64) for n in nodes]
    # each CPT row's cumulative distribution, exactly 1 at the end (so a last state of
    # probability 0 stays so): a forward draw is the number of entries below a uniform
    cumulative = []
    for t in tables:
        cum = np.cumsum(t.reshape(-1, t.shape[-1]), axis=1)
        cum /= cum[:, -1:]
        cumulative.append(cum)
    cpt_off = np.zeros(len(nodes) + 1, dtype=np.int64)
    np.cumsum([t.size for t in tables], out=cpt_off[1:])
    with np.errstate(divide="ignore"):
        log_cpt = np.concatenate([np.log(t).ravel() for t in tables])
    fam_nodes, fam_strides, fam_ptr = [], [], [0]
    for n in nodes:
        family = [pos[p] for p in net.dag.parents(n)] + [pos[n]]
        strides = np.cumprod([1, *card[family][::-1][:-1]])[::-1]
        fam_nodes += family
        fam_strides += strides.tolist()
        fam_ptr.append(len(fam_nodes))
    fam_nodes_ = np.array(fam_nodes, dtype=np.int64)
    fam_strides_ = np.array(fam_strides, dtype=np.int64)
    fam_ptr_ = np.array(fam_ptr, dtype=np.int64)
    children, ch_ptr = [], [0]
    for n in nodes:
        children += [pos[c] for c in net.dag.children(n)]
        ch_ptr.append(len(children))
    children_ = np.array(children, dtype=np.int64)
    ch_ptr_ = np.array(ch_ptr, dtype=np.int64)
    topological = [pos[n] for n in net.dag.topological_order()]
    deterministic = np.array([int(((t == 0) | (t == 1)).sum()) for t in tables], dtype=np.int64)
    return (net, nodes, pos, checks, card, cumulative, cpt_off, log_cpt, fam_nodes_, fam_strides_,
            fam_ptr_, children_, ch_ptr_, topological, deterministic)  # fmt: skip


def forward_samples(compiled: Any, n: int, observed: dict[int, int], rng: Any):
    """:meth:`CompiledNetwork.forward`: ``n`` forward samples, the observed nodes clamped, and
    each sample's log weight."""
    x = np.zeros((len(compiled.nodes), n), dtype=np.int64)  # node-major: rows read whole
    log_w = np.zeros(n)
    for i in compiled.topological:
        lo, hi = compiled.fam_ptr[i], compiled.fam_ptr[i + 1]
        base = np.zeros(n, dtype=np.int64)
        for m in range(lo, hi - 1):
            base += x[compiled.fam_nodes[m]] * compiled.fam_strides[m]
        if i in observed:
            x[i] = observed[i]
            log_w += compiled.log_cpt[compiled.cpt_off[i] + base + observed[i]]
            continue
        u = rng.random(n)
        x[i] = (u[:, None] >= compiled.cumulative[i][base // compiled.card[i]]).sum(axis=1)
    return x.T, log_w


def chain_starts(c: Any, n_chains: int, observed: dict[int, int], rng: Any) -> np.ndarray:
    """A start of positive probability for each Gibbs chain, by forward sampling (1,000 tries);
    ZeroProbabilityEvidence for impossible evidence, a ValueError when none is found."""
    state, log_w = c.forward(n_chains, observed, rng)
    state = np.ascontiguousarray(state)
    log_pe: Any = False  # not computed
    if np.isneginf(log_w).any():  # impossible evidence, or only unlikely
        log_pe = c.log_evidence(observed)
        if log_pe is not None and np.isneginf(log_pe):
            raise zero_evidence(c.named(observed))
    for _ in range(1000):  # a start the evidence allows, for each chain
        bad = np.flatnonzero(np.isneginf(log_w))
        if not len(bad):
            break
        state[bad], log_w[bad] = c.forward(len(bad), observed, rng)
    else:
        what = "no start of positive probability was found in 1,000 forward samples for"
        raise c.unmet(observed, what, log_pe)
    return state


def run_sweeps(c: Any, state: np.ndarray, free: np.ndarray, targets: list[int], n_draws: int,
               burn_in: int, thin: int, rng: Any) -> np.ndarray:  # fmt: skip
    """Every chain's kept draws of ``targets``, shape ``(n_draws, n_chains, n_targets)``: the
    sweeps run a block at a time, their uniforms drawn from ``rng``."""
    n_chains = state.shape[0]
    draws = np.zeros((n_draws, n_chains, len(targets)), dtype=np.int64)
    sweeps = burn_in + (n_draws - 1) * thin + 1
    done = 0
    while done < sweeps:
        block = min(_SWEEPS_PER_BLOCK, sweeps - done)
        uniforms = rng.random((block, n_chains, len(free)))
        gibbs_sweeps(
            state, free, uniforms, c.log_cpt, c.cpt_off, c.fam_nodes, c.fam_strides,
            c.fam_ptr, c.children, c.ch_ptr, c.card, np.array(targets, dtype=np.int64),
            done - burn_in, thin, draws, 0,
        )  # fmt: skip
        done += block
    return draws


def shares(network, name, states: np.ndarray, weights: np.ndarray) -> Factor:
    """The posterior of ``name``: the weighted share of the samples in each state."""
    k = network.cardinality(name)
    total = np.bincount(states, weights=weights, minlength=k)
    return Factor._trusted([name], total / total.sum(), {name: network.states(name)})
