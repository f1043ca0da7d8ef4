"""Compiled look-up kernels: prediction is gathering table entries and adding logs.

numba pays here for the same reason as in counting: one pass over the rows reading int8 codes,
no ``(n_samples, n_classes, n_features)`` temporary (which at 1,000,000 x 50 x 2 would be 800 MB).
Compilation, caching and threads are set up in :mod:`bayeskit._compiled`; the timings are in
benchmarks/RESULTS.md.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from bayeskit._compiled import parallel_kernel


def _add_table_entries(jll, codes, table, offsets):  # pragma: no cover - compiled
    """jll[i, c] += table[offsets[f] + codes[i, f], c] for every feature f; code -1 adds nothing.

    ``table`` is (total_states, n_classes), one block of rows per feature, so the entries one
    sample needs for all classes are contiguous.
    """
    n, d = codes.shape
    n_classes = jll.shape[1]
    for i in nb.prange(n):
        for c in range(n_classes):  # one class at a time, so the sum stays in a register
            acc = 0.0
            for f in range(d):
                v = codes[i, f]
                if v >= 0:
                    acc += table[offsets[f] + v, c]
            jll[i, c] += acc


def _add_gaussian_log_density(jll, values, mean, log_norm, scale):  # pragma: no cover
    """jll[i, c] += log N(values[i, f] | mean[c, f], var[c, f]) for every feature f (NaN: nothing).

    ``log_norm = -log(2 pi var) / 2`` and ``scale = 1 / sqrt(2 var)``, both (n_classes, d), are
    computed once per model (:func:`bayeskit.estimate.gaussian_log_terms`). The deviation is
    standardised before it is squared, ``(dev * scale)^2``, so a term overflows only where the
    log-density itself is beyond float64 (not where ``dev^2`` alone is). A zero variance (only
    with ``var_smoothing=0``) is a point mass: ``+inf`` at its mean, ``-inf`` elsewhere; ``-inf``
    from any feature wins, so no NaN arises.
    """
    n, d = values.shape
    n_classes = jll.shape[1]
    for i in nb.prange(n):
        for c in range(n_classes):
            acc = 0.0
            impossible = False
            point_mass = False
            for f in range(d):
                x = values[i, f]
                if np.isnan(x):
                    continue
                dev = x - mean[c, f]
                s = scale[c, f]
                if np.isinf(s):
                    if dev != 0.0:
                        impossible = True
                    else:
                        point_mass = True
                else:
                    z = dev * s
                    if np.isinf(z):  # x - mean overflowed: scale each first
                        z = x * s - mean[c, f] * s
                    acc += log_norm[c, f] - z * z
            if impossible:
                jll[i, c] = -np.inf
            elif point_mass:
                jll[i, c] = np.inf if np.isfinite(jll[i, c]) or jll[i, c] > 0 else jll[i, c]
            else:
                jll[i, c] += acc


# work: table entries (or densities) added, cells of the input times classes
add_table_entries = parallel_kernel(lambda jll, codes, *_: codes.size * jll.shape[1])(
    _add_table_entries
)
add_gaussian_log_density = parallel_kernel(lambda jll, values, *_: values.size * jll.shape[1])(
    _add_gaussian_log_density
)


def _log_normalise_rows(jll):  # pragma: no cover - compiled
    """jll[i, c] -= log sum_c' exp(jll[i, c']) for every row, in place (the row's maximum is
    subtracted before exponentiating). Every row must have a finite maximum."""
    n, n_classes = jll.shape
    for i in nb.prange(n):
        m = jll[i, 0]
        for c in range(1, n_classes):
            if jll[i, c] > m:
                m = jll[i, c]
        s = 0.0
        for c in range(n_classes):
            s += np.exp(jll[i, c] - m)
        log_s = np.log(s)
        for c in range(n_classes):  # (x - m) first: exact for huge |x|, so rows sum to 1
            jll[i, c] = (jll[i, c] - m) - log_s


# work: an exp per entry costs about eight additions
log_normalise_rows = parallel_kernel(lambda jll: 8 * jll.size)(_log_normalise_rows)
