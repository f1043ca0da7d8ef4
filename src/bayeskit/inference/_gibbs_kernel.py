"""The compiled Gibbs sweeps of :class:`~bayeskit.inference.sampling.GibbsSampler`: every
chain, one node at a time, drawn from its distribution given its Markov blanket."""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from bayeskit._compiled import parallel_kernel


def _gibbs_sweeps(  # pragma: no cover - compiled
    state, free, uniforms, log_cpt, cpt_off, fam_nodes, fam_strides, fam_ptr, children, ch_ptr,
    card, targets, first_kept, thin, draws, kept_from,
):  # fmt: skip
    """Run ``uniforms.shape[0]`` sweeps on every chain (rows of ``state``), node ``free[j]``
    drawn with ``uniforms[s, c, j]``; the sweeps count from ``first_kept`` (negative while
    burning in), and each ``thin``-th kept sweep writes the targets' states into
    ``draws[kept_from + k, c, :]``."""
    n_chains = state.shape[0]
    max_card = 0
    for i in range(card.shape[0]):
        max_card = max(max_card, card[i])
    for c in nb.prange(n_chains):
        x = state[c]
        logp = np.empty(max_card)
        for s in range(uniforms.shape[0]):
            for j in range(free.shape[0]):
                i = free[j]
                k = card[i]
                top = -np.inf
                for v in range(k):
                    x[i] = v
                    lp = 0.0
                    idx = 0
                    for m in range(fam_ptr[i], fam_ptr[i + 1]):
                        idx += x[fam_nodes[m]] * fam_strides[m]
                    lp += log_cpt[cpt_off[i] + idx]
                    for q in range(ch_ptr[i], ch_ptr[i + 1]):
                        ch = children[q]
                        idx = 0
                        for m in range(fam_ptr[ch], fam_ptr[ch + 1]):
                            idx += x[fam_nodes[m]] * fam_strides[m]
                        lp += log_cpt[cpt_off[ch] + idx]
                    logp[v] = lp
                    top = max(top, lp)
                if top == -np.inf:  # no state possible (not from a possible start): leave as is
                    x[i] = k - 1
                    continue
                total = 0.0
                for v in range(k):
                    logp[v] = math.exp(logp[v] - top)
                    total += logp[v]
                u = uniforms[s, c, j] * total
                chosen = k - 1
                acc = 0.0
                for v in range(k):
                    acc += logp[v]
                    if u < acc:
                        chosen = v
                        break
                x[i] = chosen
            step = first_kept + s
            if step >= 0 and step % thin == 0:
                row = kept_from + step // thin
                if row < draws.shape[0]:
                    for t in range(targets.shape[0]):
                        draws[row, c, t] = x[targets[t]]


def _sweeps_work(state, free, uniforms, *args) -> int:
    return uniforms.size * 8


gibbs_sweeps = parallel_kernel(_sweeps_work)(_gibbs_sweeps)
