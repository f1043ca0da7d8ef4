"""Compiled look-up kernels: prediction is gathering table entries and adding logs.

numba pays here for the same reason as in counting: one pass over the rows reading int8 codes,
no ``(n_samples, n_classes, n_features)`` temporary (which at 1,000,000 x 50 x 2 would be 800 MB).
Compilation, caching and threads are set up in :mod:`bayeskit._compiled`; the timings are in
benchmarks/RESULTS.md.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from bayeskit._compiled import parallel_kernel, serial_kernel


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


_ROWS_PER_BLOCK = 256


# A structure's families travel to the kernels as one tuple ``fams`` of arrays, one entry per
# family: (child column, child states, table offset, fallback offset or -1, parents' start in
# the two arrays that follow, parent columns, parent strides, reuses the previous family's
# parents); see stats.lookup.FamilyTables for how it is built.


def _family_positions(bases, row, s, n_classes, fams, comp_ptr):  # pragma: no cover
    """bases[k] = where the entries of component s's k-th family for this row start in the
    table (its classes follow), or -1 where the family adds nothing (missing child, or missing
    parent without fallback); returns the number of families. A family whose parents are those
    of the family before it (``reuse[f]``: every family of a SPODE) reuses its parent
    configuration instead of reading the parents again."""
    child, size, offset, fallback, par_ptr, par_cols, par_strides, reuse = fams
    first = comp_ptr[s]
    m = comp_ptr[s + 1] - first
    cfg = 0
    for f in range(first, first + m):
        if f == first or not reuse[f]:
            cfg = 0
            for k in range(par_ptr[f], par_ptr[f + 1]):
                p = row[par_cols[k]]
                if p < 0:
                    cfg = -1
                    break
                cfg += p * par_strides[k]
        v = row[child[f]]
        b = -1
        if v >= 0:
            if cfg >= 0:
                b = offset[f] + (cfg * size[f] + v) * n_classes
            elif fallback[f] >= 0:
                b = fallback[f] + v * n_classes
        bases[f - first] = b
    return m


family_positions = serial_kernel(_family_positions)


def _component_sum(acc, bases, row, s, table, fams, comp_ptr, comp_base):  # pragma: no cover
    """acc[c] = comp_base[s, c] + the terms of component s's families for one row of codes
    (see :func:`_add_family_terms` for the layout). ``bases`` is scratch space, at least as
    long as the component's families: the table position of each family's entries is found
    once, then the classes are summed one at a time, so each sum stays in a register (about
    15% faster than adding a row of classes per family)."""
    n_classes = acc.shape[0]
    m = family_positions(bases, row, s, n_classes, fams, comp_ptr)
    for c in range(n_classes):
        total = comp_base[s, c]
        for f in range(m):
            b = bases[f]
            if b >= 0:
                total += table[b + c]
        acc[c] = total


component_sum = serial_kernel(_component_sum)


def _gate_open(row, s, gates):  # pragma: no cover - compiled
    """Whether component s takes part in this row (its gate columns observed, its gate set)."""
    gate_ptr, gate_cols, gate_strides, gate_offset, gate = gates
    cfg = 0
    for k in range(gate_ptr[s], gate_ptr[s + 1]):
        v = row[gate_cols[k]]
        if v < 0:
            return False
        cfg += v * gate_strides[k]
    return gate[gate_offset[s] + cfg] != 0


gate_open = serial_kernel(_gate_open)


def _add_family_terms(jll, codes, table, fams, comp_ptr, comp_base, gates, fallback):  # noqa: E501  # pragma: no cover
    """jll[i, c] += the log-likelihood of row i under a structure (or the mean of several).

    A structure (a *component*) is a list of families; family f adds
    ``table[offset[f] + (config * size[f] + codes[i, child[f]]) * C + c]``, where
    ``config = sum_k codes[i, par_cols[k]] * par_strides[k]`` over its parents (so each table is
    laid out ``(parent configuration, child state, class)``: the entries a row needs for every
    class are contiguous). A missing child adds nothing (summed out: its table sums to 1 over
    the child); a missing parent adds the family's fallback entry
    ``table[fallback[f] + child * C + c]`` (nothing when ``fallback[f] < 0``).
    Component s adds ``comp_base[s, c]`` too.

    With one component, its sum is added to jll. With several, jll gets the log of the mean
    of ``exp(sum)`` over the components whose gate is open for the row: gate s is open when every
    column ``gate_cols[gate_ptr[s]:gate_ptr[s + 1]]`` is observed and
    ``gate[gate_offset[s] + sum codes * gate_strides]`` is set (the AODE rule that a super-parent
    value must have been seen often enough). Component ``fallback`` (if >= 0) is used only in
    rows where no other gate is open (AODE falls back to naive Bayes).
    """
    n = codes.shape[0]
    n_classes = jll.shape[1]
    n_comp = comp_ptr.shape[0] - 1
    n_blocks = (n + _ROWS_PER_BLOCK - 1) // _ROWS_PER_BLOCK
    for b in nb.prange(n_blocks):
        lo = b * _ROWS_PER_BLOCK
        hi = min(n, lo + _ROWS_PER_BLOCK)
        acc = np.empty(n_classes)
        bases = np.empty(fams[0].shape[0], dtype=np.int64)
        if n_comp == 1:
            for i in range(lo, hi):
                component_sum(acc, bases, codes[i], 0, table, fams, comp_ptr, comp_base)
                for c in range(n_classes):
                    jll[i, c] += acc[c]
            continue
        # Several components: component by component over the block of rows, so that one
        # component's tables (a few KB for a SPODE) are read for all the block's rows while in
        # cache, with a streaming log-sum-exp per row and class.
        best = np.full((hi - lo, n_classes), -np.inf)
        total = np.zeros((hi - lo, n_classes))
        n_open = np.zeros(hi - lo, dtype=np.int64)
        for s in range(n_comp):
            if s == fallback:
                continue
            for i in range(lo, hi):
                row = codes[i]
                if not gate_open(row, s, gates):
                    continue
                r = i - lo
                n_open[r] += 1
                component_sum(acc, bases, row, s, table, fams, comp_ptr, comp_base)
                for c in range(n_classes):
                    a = acc[c]
                    if a == -np.inf:
                        continue
                    if a > best[r, c]:
                        total[r, c] = total[r, c] * np.exp(best[r, c] - a) + 1.0
                        best[r, c] = a
                    else:
                        total[r, c] += np.exp(a - best[r, c])
        for i in range(lo, hi):
            r = i - lo
            if n_open[r] == 0:  # no gate open: the fallback component, if any
                if fallback >= 0:
                    component_sum(acc, bases, codes[i], fallback, table, fams, comp_ptr, comp_base)
                    for c in range(n_classes):
                        jll[i, c] += acc[c]
                else:
                    for c in range(n_classes):
                        jll[i, c] = -np.inf
                continue
            log_open = np.log(n_open[r])
            for c in range(n_classes):
                if total[r, c] > 0.0:
                    jll[i, c] += best[r, c] + np.log(total[r, c]) - log_open
                else:
                    jll[i, c] = -np.inf


def _component_terms(out, codes, table, fams, comp_ptr, comp_base):  # pragma: no cover
    """out[i, s, c] = component s's log-likelihood of row i (no gates, no averaging): what a
    structure search compares candidates by."""
    n = codes.shape[0]
    n_classes = out.shape[2]
    n_comp = comp_ptr.shape[0] - 1
    n_blocks = (n + _ROWS_PER_BLOCK - 1) // _ROWS_PER_BLOCK
    for b in nb.prange(n_blocks):
        acc = np.empty(n_classes)
        bases = np.empty(fams[0].shape[0], dtype=np.int64)
        for i in range(b * _ROWS_PER_BLOCK, min(n, (b + 1) * _ROWS_PER_BLOCK)):
            for s in range(n_comp):
                component_sum(acc, bases, codes[i], s, table, fams, comp_ptr, comp_base)
                for c in range(n_classes):
                    out[i, s, c] = acc[c]


def _family_work(jll, codes, table, fams, *_) -> int:
    return codes.shape[0] * fams[0].shape[0] * jll.shape[-1]


# work: table entries added, rows times families (of all components) times classes
add_family_terms = parallel_kernel(_family_work)(_add_family_terms)
component_terms = parallel_kernel(_family_work)(_component_terms)


def _leave_one_out(  # pragma: no cover - compiled
    scores, codes, y, weights, kept, left, prior_kept, prior_left, fams, comp_ptr, n_tasks
):
    """Leave-one-out scores of each component s: ``scores[1, s] += sum_i w_i log P_{-i}(y_i |
    x_i)`` over the rows the component finds possible, ``scores[0, s] += w_i`` for each
    row it gives probability zero, and ``scores[2, s] += w_i / t`` for each row whose class is
    among the ``t`` classes of highest left-out probability (the weight predicted right).
    The class of row i is scored with the ``left`` tables (its
    own counts less one row), every other class with the ``kept`` ones; both share one layout.
    What a structure search by leave-one-out log-loss needs, without an ``(n_samples,
    n_components, n_classes)`` temporary."""
    n = codes.shape[0]
    n_comp = comp_ptr.shape[0] - 1
    n_classes = prior_kept.shape[0]
    per_task = (n + n_tasks - 1) // n_tasks
    partial = np.zeros((n_tasks, 3, n_comp))
    for t in nb.prange(n_tasks):
        bases = np.empty(fams[0].shape[0], dtype=np.int64)
        acc = np.empty(n_classes)
        for i in range(t * per_task, min(n, (t + 1) * per_task)):
            row = codes[i]
            yi = y[i]
            for s in range(n_comp):
                m = family_positions(bases, row, s, n_classes, fams, comp_ptr)
                top = -np.inf
                for c in range(n_classes):
                    total = prior_left[c] if c == yi else prior_kept[c]
                    table = left if c == yi else kept
                    for f in range(m):
                        b = bases[f]
                        if b >= 0:
                            total += table[b + c]
                    acc[c] = total
                    if total > top:
                        top = total
                if acc[yi] == top:
                    ties = 0
                    for c in range(n_classes):
                        if acc[c] == top:
                            ties += 1
                    partial[t, 2, s] += weights[i] / ties
                if acc[yi] == -np.inf:
                    partial[t, 0, s] += weights[i]
                    continue
                z = 0.0
                for c in range(n_classes):
                    z += np.exp(acc[c] - top)
                partial[t, 1, s] += weights[i] * (acc[yi] - top - np.log(z))
    out = partial.sum(axis=0)
    for s in range(n_comp):
        for r in range(3):
            scores[r, s] += out[r, s]


def _loo_work(scores, codes, y, weights, kept, left, prior_kept, prior_left, fams, *_) -> int:
    return codes.shape[0] * fams[0].shape[0] * (prior_kept.shape[0] + 1)


leave_one_out = parallel_kernel(_loo_work)(_leave_one_out)


def _nested_leave_one_out(  # pragma: no cover - compiled
    scores, codes, y, weights, order, n_par, par, par_states, k_states, counts, low, in_low,
    cell_off, alpha, prior_kept, prior_left, n_tasks,
):  # fmt: skip
    """Leave-one-out scores of every nested k-dependence model at once: the candidate ``(q, i)``
    uses the first ``i + 1`` features of ``order`` and at most ``q`` parents each (the first
    ones of ``par``). ``scores[0, q * d + i]`` sums the weight of the rows it gives probability
    zero, ``scores[1, q * d + i]`` the others' ``w log P_{-row}(y | x)``.

    Feature ``order[i]`` has count tables by level ``l >= 1`` (flat, from ``cell_off[i, l]`` in
    ``low`` where ``in_low[i, l]``, else in ``counts``) over ``(class, pa_1..pa_{l-1}, x)``,
    read as the Lidstone estimate ``(n + a) / (N + K a)`` with ``a = alpha[i]``. The row's own
    class takes one unit out of ``n`` and ``N`` (floored at 0) where the row was counted (level
    1, and the others when it has every parent of the feature), so an integer weight scores as
    that many copies of the row. A zero denominator (no count, no pseudo-count) gives the
    uniform distribution. A candidate whose parents of the feature include a missing one uses
    level 1, ``P(x | c)``, as prediction does; a missing feature adds nothing.
    Rows are taken a block at a time and features one after the other, so that one feature's
    tables stay in cache. Each estimate is computed where it is read, one log per look-up: the
    tables are large (k parents), the rows scored are few (see SelectiveKDB), so logs of every
    cell computed ahead cost more than they save."""
    n, d = codes.shape[0], order.shape[0]
    n_classes = prior_kept.shape[0]
    n_q = scores.shape[1] // max(d, 1)
    max_levels = par.shape[1] + 2
    per_task = (n + n_tasks - 1) // n_tasks
    partial = np.zeros((n_tasks, 2, scores.shape[1]))
    for t in nb.prange(n_tasks):
        lo, hi = t * per_task, min(n, (t + 1) * per_task)
        acc = np.empty((max(hi - lo, 0), n_q, n_classes))
        logs = np.empty(max_levels)
        for r in range(lo, hi):
            for q in range(n_q):
                for c in range(n_classes):
                    acc[r - lo, q, c] = prior_left[c] if c == y[r] else prior_kept[c]
        for i in range(d):
            k = k_states[i]
            a = alpha[i]
            for r in range(lo, hi):
                row = codes[r]
                yr = y[r]
                ar = acc[r - lo]
                x = row[order[i]]
                if x >= 0:
                    # the row is in the tables of levels >= 2 only if it has all the parents
                    complete = True
                    for m in range(n_par[i]):
                        if row[par[i, m]] < 0:
                            complete = False
                    for c in range(n_classes):
                        cfg = c
                        top = 0
                        for lev in range(1, n_par[i] + 2):
                            if lev >= 2:
                                v = row[par[i, lev - 2]]
                                if v < 0:
                                    break
                                cfg = cfg * par_states[i, lev - 2] + v
                            cells = low if in_low[i, lev] else counts
                            base = cell_off[i, lev] + cfg * k
                            num = cells[base + x]
                            den = 0.0
                            for s in range(k):
                                den += cells[base + s]
                            if c == yr and (lev == 1 or complete):
                                num = max(num - 1.0, 0.0)
                                den = max(den - 1.0, 0.0)
                            den += k * a
                            logs[lev - 1] = -np.log(k) if den == 0.0 else np.log((num + a) / den)
                            top = lev
                        for q in range(n_q):
                            # its first q parents (as many as it has); one of them missing:
                            # P(x | c), as at prediction
                            use = min(q, n_par[i])
                            ar[q, c] += logs[use] if use < top else logs[0]
                wr = weights[r]
                for q in range(n_q):
                    if ar[q, yr] == -np.inf:
                        partial[t, 0, q * d + i] += wr
                        continue
                    z = 0.0  # log P(y | x) = -log sum_c exp(acc_c - acc_y)
                    for c in range(n_classes):
                        if c != yr:
                            z += np.exp(ar[q, c] - ar[q, yr])
                    partial[t, 1, q * d + i] -= wr * np.log1p(z)
    out = partial.sum(axis=0)
    for s in range(scores.shape[1]):
        scores[0, s] += out[0, s]
        scores[1, s] += out[1, s]


def _nested_work(scores, codes, *_) -> int:
    return codes.shape[0] * scores.shape[1] * 4


nested_leave_one_out = parallel_kernel(_nested_work)(_nested_leave_one_out)
