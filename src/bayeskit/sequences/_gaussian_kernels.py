"""The whole E-step of a Gaussian hidden Markov model with diagonal (or spherical) covariances,
compiled, over a block of sequences.

Per sequence it forms the emission log-likelihoods, runs the scaled forward-backward pass of
:func:`bayeskit.sequences._kernels.scaled_sequence` and adds the posterior-weighted moments,
without a posterior array, a Python step or the interpreter's lock in between. That makes one
short sequence cheap (numpy's fixed cost per call was most of an iteration there) and lets
blocks of sequences run on all cores at once. The sums are those of
:meth:`~bayeskit.sequences.GaussianEmission.statistics`; a missing feature (NaN) is left out
of its step's density and of its feature's moments, as there.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from bayeskit._compiled import planned_threads, row_blocks, run_blocks, serial_kernel
from bayeskit.sequences._kernels import _longest, scaled_buffers, scaled_sequence


@serial_kernel
def _diag_frame(X, a, steps, means, prec, log_norm, const, out, full):
    """``out[t, k] = log N(x_{a+t} | means[k], diag(1 / prec[k]))`` over the seen features;
    ``full[t]`` says whether row ``a + t`` has every feature."""
    n, d = means.shape
    for t in range(steps):
        row = a + t
        whole = True
        for f in range(d):
            if X[row, f] != X[row, f]:
                whole = False
        full[t] = whole
        for k in range(n):
            acc = 0.0
            if whole:
                for f in range(d):
                    diff = X[row, f] - means[k, f]
                    acc += diff * diff * prec[k, f]
                acc += const[k]
            else:
                for f in range(d):
                    x = X[row, f]
                    if x == x:
                        diff = x - means[k, f]
                        acc += log_norm[k, f] + diff * diff * prec[k, f]
            out[t, k] = -0.5 * acc + 0.0  # + 0.0: a row with nothing seen gets 0, not -0


def diag_terms(var):
    """What the kernels read of the variances ``(n_states, d)``: the precisions, the log
    normalisers ``log(2 pi var)``, and their sum per state."""
    log_norm = np.ascontiguousarray(np.log(2 * np.pi * var))
    return np.ascontiguousarray(1.0 / var), log_norm, log_norm.sum(axis=1)


def diag_log_likelihood(X, means, var):
    """``log N(x_t | means[k], diag(var[k]))`` of every row and state ``(n_steps, n_states)``,
    over each row's seen features (a row with none gets 0); blocks of rows on all cores."""
    prec, log_norm, const = diag_terms(var)
    out = np.empty((len(X), len(means)))
    full = np.empty(len(X), dtype=np.bool_)
    blocks = row_blocks(len(X), planned_threads(X.size * len(means)))
    run_blocks(
        [partial(_diag_frame, X[b], 0, b.stop - b.start, means, prec, log_norm, const, out[b],
                 full[b]) for b in blocks],
        len(blocks),
    )  # fmt: skip
    return out


@serial_kernel
def _add_moments(X, a, steps, alpha, beta, full, firsts, post, lost, s1, s2):
    """Add a sequence's posterior-weighted moments; ``beta`` rows become the posteriors."""
    n, d = s1.shape
    for t in range(steps):
        total = 0.0
        for k in range(n):
            g = alpha[t, k] * beta[t, k]
            beta[t, k] = g
            total += g
        inv = 1.0 / total
        for k in range(n):
            beta[t, k] *= inv
            post[k] += beta[t, k]
    for k in range(n):
        firsts[k] += beta[0, k]
    for t in range(steps):
        row = a + t
        if full[t]:  # the common case: no test per feature
            for k in range(n):
                g = beta[t, k]
                for f in range(d):
                    wx = g * X[row, f]
                    s1[k, f] += wx
                    s2[k, f] += wx * X[row, f]
            continue
        for k in range(n):
            g = beta[t, k]
            for f in range(d):
                x = X[row, f]
                if x == x:
                    s1[k, f] += g * x
                    s2[k, f] += g * x * x
                else:
                    lost[k, f] += g


@serial_kernel
def diag_e_step(start, trans, X, means, prec, log_norm, const, offsets, first, last, loglik):
    """Sequences ``first .. last - 1``: their log-likelihoods into ``loglik`` (NaN where the
    scaled pass fails; such a sequence adds nothing) and their statistics: expected transitions,
    the posterior of each first step, the posterior mass, the mass lost to missing features, and
    the weighted sums of ``x`` and ``x**2``."""
    n, d = means.shape
    longest = _longest(offsets, first, last)
    buffers = scaled_buffers(longest, n)
    alpha, beta = buffers[1], buffers[2]
    frame = np.empty((longest, n))
    full = np.empty(longest, dtype=np.bool_)
    trans_t = np.ascontiguousarray(trans.T)
    xi = np.zeros((n, n))
    firsts = np.zeros(n)
    post = np.zeros(n)
    lost = np.zeros((n, d))
    s1 = np.zeros((n, d))
    s2 = np.zeros((n, d))
    for s in range(first, last):
        a = offsets[s]
        steps = offsets[s + 1] - a
        if steps == 0:
            loglik[s] = 0.0
            continue
        _diag_frame(X, a, steps, means, prec, log_norm, const, frame, full)
        value = scaled_sequence(start, trans, trans_t, frame, 0, steps, buffers, xi, True)
        loglik[s] = value
        if value != value:
            continue
        _add_moments(X, a, steps, alpha, beta, full, firsts, post, lost, s1, s2)
    for i in range(n):
        for j in range(n):
            xi[i, j] *= trans[i, j]
    return xi, firsts, post, lost, s1, s2
