"""Compiled forward-backward and Viterbi over a block of sequences (Rabiner 1989, III.A-B).

Every kernel takes the sequences ``first .. last - 1`` of a concatenation: sequence ``s`` is
rows ``offsets[s]:offsets[s + 1]`` of the per-step arrays. A block's kernel allocates its own
work space and returns its own expected transition counts, so blocks run at once in Python
threads (the kernels release the GIL) and their counts are added afterwards.

Scaled pass (``forward_backward_scaled``): from the emission log-likelihoods it forms
``frame[t, j] = P(x_t | state j) / m_t`` with ``m_t`` the row's largest emission probability,
so a row is never all below the floating-point range; a forward row is renormalised when its
sum falls below ``RESCALE_BELOW`` (see :func:`scaled_sequence`). Where a row's sum is 0 or not
finite (the model gives the sequence a probability below the range a scaled pass can hold),
the kernel marks the sequence with NaN in ``loglik``; the caller redoes it in log space.

Log-space pass (``forward_backward_log``): the same recursions on logarithms, each sum a
log-sum-exp. Slower (an ``exp`` per term) but without range limits; a sequence of probability
zero gets ``-inf``.
"""

from __future__ import annotations

import math

import numpy as np

from bayeskit._compiled import serial_kernel


@serial_kernel
def _longest(offsets, first, last):
    longest = 0
    for s in range(first, last):
        longest = max(longest, offsets[s + 1] - offsets[s])
    return longest


#: A forward row is rescaled only when its sum falls below this; between rescalings the
#: recursion carries no division, so one step does not wait on the last one's normalisation.
RESCALE_BELOW = 1e-100


@serial_kernel
def scaled_sequence(start, trans, trans_t, log_frame, a, steps, buffers, xi, backward):
    """The scaled pass over one sequence, rows ``a .. a + steps - 1`` of ``log_frame``.

    ``buffers`` is ``(frame, alpha, beta, scale, weighted, work)`` of at least ``steps`` rows.
    Returns ``log P(x)``, or NaN when a row's sum leaves the floating-point range. With
    ``backward`` it also leaves the scaled ``beta`` rows, scaled so that ``alpha[t] * beta[t]``
    is the posterior of step ``t`` up to rounding, and adds the sequence's expected transitions
    ``sum_t alpha_t(i) w_t(j) / s_{t+1}`` to ``xi``; the caller multiplies ``xi`` by ``A``
    elementwise once, after its last sequence.

    Scaling: the first forward row is normalised, and a later one is divided by its sum
    ``s_t`` only when the sum drops below :data:`RESCALE_BELOW` (``s_t = 1`` otherwise). The
    sums never grow (``frame <= 1`` and ``A``'s rows sum to 1), so nothing overflows; the
    backward pass divides by the same ``s_{t+1}`` and starts from ``1 / S``, ``S`` the last
    forward row's sum, so that ``sum_j alpha_t(j) beta_t(j) = 1`` at every step and
    ``log P(x) = sum_t log m_t + sum_t log s_t + log S``.
    """
    frame, alpha, beta, scale, weighted, work = buffers
    n = start.shape[0]
    # each row scaled by its largest emission probability m_t: frame = P(x_t | j) / m_t
    tops = 0.0
    for t in range(steps):
        top = -np.inf
        for j in range(n):
            top = max(top, log_frame[a + t, j])
        if not (top > -np.inf and top < np.inf):
            top = 0.0  # a row the model cannot emit: its sum is 0 and the pass fails
        tops += top
        for j in range(n):
            frame[t, j] = math.exp(log_frame[a + t, j] - top)
    total = 0.0
    for j in range(n):
        alpha[0, j] = start[j] * frame[0, j]
        total += alpha[0, j]
    if not (total > 0.0 and total < np.inf):
        return np.nan
    scale[0] = total
    inv = 1.0 / total
    for j in range(n):
        alpha[0, j] *= inv
    total = 1.0
    for t in range(1, steps):
        # alpha_{t-1} A as a sum of rows (contiguous, no reduction: the loops vectorise)
        for j in range(n):
            work[j] = 0.0
        for i in range(n):
            ai = alpha[t - 1, i]
            for j in range(n):
                work[j] += ai * trans[i, j]
        total = 0.0
        for j in range(n):
            v = work[j] * frame[t, j]
            alpha[t, j] = v
            total += v
        scale[t] = 1.0
        if not (total >= RESCALE_BELOW):
            if not (total > 0.0):  # 0 (out of range) or NaN
                return np.nan
            scale[t] = total
            inv = 1.0 / total
            for j in range(n):
                alpha[t, j] *= inv
            total = 1.0
    # sum_t log s_t as the log of running products, one logarithm per 1e100 of range
    acc = tops + math.log(total)
    product = 1.0
    for t in range(steps):
        product *= scale[t]
        if product < 1e-100 or product > 1e100:
            acc += math.log(product)
            product = 1.0
    acc += math.log(product)
    if not backward:
        return acc
    for j in range(n):
        beta[steps - 1, j] = 1.0 / total
    for t in range(steps - 2, -1, -1):
        for j in range(n):
            weighted[j] = frame[t + 1, j] * beta[t + 1, j]
        for i in range(n):  # A w as a sum of the columns of A (rows of its transpose)
            work[i] = 0.0
        for j in range(n):
            wj = weighted[j]
            for i in range(n):
                work[i] += wj * trans_t[j, i]
        inv = 1.0 / scale[t + 1]
        for i in range(n):
            beta[t, i] = work[i] * inv
        for i in range(n):
            ai = alpha[t, i] * inv
            for j in range(n):
                xi[i, j] += ai * weighted[j]
    return acc


@serial_kernel
def forward_rows(start, trans, log_frame, out):
    """Filtering over one sequence (all rows of ``log_frame``): each step's forward row,
    normalised, into ``out``; returns ``log P(x)`` (NaN when out of the scaled pass's range)."""
    steps, n = log_frame.shape
    buffers = scaled_buffers(steps, n)
    xi = np.zeros((n, n))
    trans_t = np.ascontiguousarray(trans.T)
    value = scaled_sequence(start, trans, trans_t, log_frame, 0, steps, buffers, xi, False)
    if value != value:
        return value
    alpha = buffers[1]
    for t in range(steps):
        total = 0.0
        for j in range(n):
            total += alpha[t, j]
        inv = 1.0 / total
        for j in range(n):
            out[t, j] = alpha[t, j] * inv
    return value


@serial_kernel
def scaled_buffers(longest, n):
    frame = np.empty((longest, n))
    alpha = np.empty((longest, n))
    beta = np.empty((longest, n))
    return frame, alpha, beta, np.empty(longest), np.empty(n), np.empty(n)


def _forward_backward_scaled(
    start, trans, log_frame, offsets, first, last, posteriors, loglik, want_posteriors, want_xi
):
    n = start.shape[0]
    xi = np.zeros((n, n))
    buffers = scaled_buffers(_longest(offsets, first, last), n)
    alpha, beta = buffers[1], buffers[2]
    trans_t = np.ascontiguousarray(trans.T)
    backward = want_posteriors or want_xi
    for s in range(first, last):
        a = offsets[s]
        steps = offsets[s + 1] - a
        if steps == 0:
            loglik[s] = 0.0
            continue
        loglik[s] = scaled_sequence(start, trans, trans_t, log_frame, a, steps, buffers, xi,
                                     backward)  # fmt: skip
        if not (want_posteriors and loglik[s] == loglik[s]):
            continue
        for t in range(steps):
            total = 0.0
            for j in range(n):
                v = alpha[t, j] * beta[t, j]
                posteriors[a + t, j] = v
                total += v
            inv = 1.0 / total
            for j in range(n):
                posteriors[a + t, j] *= inv
    for i in range(n):
        for j in range(n):
            xi[i, j] *= trans[i, j]
    return xi


@serial_kernel
def _logsumexp(values):
    top = -np.inf
    for v in values:
        top = max(top, v)
    if top == -np.inf:
        return -np.inf
    acc = 0.0
    for v in values:
        acc += math.exp(v - top)
    return top + math.log(acc)


def _forward_backward_log(
    log_start,
    log_trans,
    log_frame,
    offsets,
    first,
    last,
    posteriors,
    loglik,
    want_posteriors,
    want_xi,
):
    n = log_start.shape[0]
    xi = np.zeros((n, n))
    longest = _longest(offsets, first, last)
    alpha = np.empty((longest, n))
    beta = np.empty((longest, n))
    work = np.empty(n)
    for s in range(first, last):
        a = offsets[s]
        steps = offsets[s + 1] - a
        if steps == 0:
            loglik[s] = 0.0
            continue
        for j in range(n):
            alpha[0, j] = log_start[j] + log_frame[a, j]
        for t in range(1, steps):
            for j in range(n):
                for i in range(n):
                    work[i] = alpha[t - 1, i] + log_trans[i, j]
                alpha[t, j] = _logsumexp(work) + log_frame[a + t, j]
        total = _logsumexp(alpha[steps - 1])
        loglik[s] = total
        if total == -np.inf or not (want_posteriors or want_xi):
            continue
        for j in range(n):
            beta[steps - 1, j] = 0.0
        for t in range(steps - 2, -1, -1):
            for i in range(n):
                for j in range(n):
                    work[j] = log_trans[i, j] + log_frame[a + t + 1, j] + beta[t + 1, j]
                beta[t, i] = _logsumexp(work)
            if want_xi:
                for i in range(n):
                    for j in range(n):
                        xi[i, j] += math.exp(
                            alpha[t, i]
                            + log_trans[i, j]
                            + log_frame[a + t + 1, j]
                            + beta[t + 1, j]
                            - total
                        )
        if want_posteriors:
            for t in range(steps):
                for j in range(n):
                    work[j] = alpha[t, j] + beta[t, j]
                norm = _logsumexp(work)
                for j in range(n):
                    posteriors[a + t, j] = math.exp(work[j] - norm)
    return xi


def _viterbi(log_start, log_trans, log_frame, offsets, first, last, path, logprob):
    n = log_start.shape[0]
    longest = _longest(offsets, first, last)
    delta = np.empty((longest, n))
    back = np.empty((longest, n), dtype=np.intp)
    for s in range(first, last):
        a = offsets[s]
        steps = offsets[s + 1] - a
        if steps == 0:
            logprob[s] = 0.0
            continue
        for j in range(n):
            delta[0, j] = log_start[j] + log_frame[a, j]
        for t in range(1, steps):
            for j in range(n):
                best = -np.inf
                arg = 0
                for i in range(n):
                    v = delta[t - 1, i] + log_trans[i, j]
                    if v > best:
                        best = v
                        arg = i
                delta[t, j] = best + log_frame[a + t, j]
                back[t, j] = arg
        best = -np.inf
        arg = 0
        for j in range(n):
            if delta[steps - 1, j] > best:
                best = delta[steps - 1, j]
                arg = j
        logprob[s] = best
        path[a + steps - 1] = arg
        for t in range(steps - 1, 0, -1):
            arg = back[t, arg]
            path[a + t - 1] = arg
    return 0


forward_backward_scaled = serial_kernel(_forward_backward_scaled)
forward_backward_log = serial_kernel(_forward_backward_log)
viterbi = serial_kernel(_viterbi)
