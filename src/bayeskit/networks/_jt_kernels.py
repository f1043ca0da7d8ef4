"""Compiled propagation in a junction tree: one pass per evidence row (see
:mod:`bayeskit.networks.junction` for the layout of the arrays).

Each row copies the compiled clique potentials into its own buffer, zeroes the cells its evidence
rules out, and passes messages along the tree (collect towards the root; on request, distribute
back, Hugin-style, dividing by the message that came up). Every message is divided by its largest
entry, and so is a clique whose largest cell has become tiny after a message, the logs of those
factors summed, so ``P(e)`` of much evidence does not underflow.
Threads split the rows, each with its own buffers.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from bayeskit._compiled import parallel_kernel, serial_kernel

_TINY = 1e-100  # a clique whose largest cell falls below this is divided by it


def _projection(cards, sep_strides, out):  # pragma: no cover - compiled
    """``out[i]``: the separator cell of clique cell ``i`` (C order), given each clique node's
    number of states and its stride in the separator (0 for nodes not in it). An odometer over
    the clique's cells: no division, about one addition per cell."""
    k = cards.shape[0]
    digits = np.zeros(k, dtype=np.int64)
    cell = 0
    for i in range(out.shape[0]):
        out[i] = cell
        j = k - 1
        while j >= 0:
            digits[j] += 1
            cell += sep_strides[j]
            if digits[j] < cards[j]:
                break
            cell -= cards[j] * sep_strides[j]
            digits[j] = 0
            j -= 1


projection = serial_kernel(_projection)


def _row(  # noqa: PLR0913  # pragma: no cover - compiled
    pots0, pot, msg, fresh, pot_off, sep_off, proj, proj_off, edge_from, edge_to, edge_id,
    root, distribute, row, obs_clique, obs_stride, obs_card,
):  # fmt: skip
    """One evidence row (``row``: a state per observed node, -1 = not observed) through the
    tree, in the buffers ``pot`` (potentials), ``msg`` (a message per separator) and ``fresh``
    (scratch): copy the compiled potentials, zero the cells the evidence rules out in each
    observed node's home clique, collect towards ``root`` and, with ``distribute``, send back.
    Returns ``log P(e)`` (``-inf`` for evidence of probability zero).

    Directed edges ``k`` are the collect order towards ``root``: message from clique
    ``edge_from[k]`` to ``edge_to[k]`` over separator
    ``e = edge_id[k] // 2``, and ``proj[proj_off[edge_id[k]] + i]`` is the separator cell of
    cell ``i`` of the sending clique (``proj_off[edge_id[k] ^ 1]`` for the receiving one).
    """
    pot[:] = pots0
    for j in range(row.shape[0]):
        s = row[j]
        if s < 0:
            continue
        c = obs_clique[j]
        st = obs_stride[j]
        k = obs_card[j]
        for i in range(pot_off[c + 1] - pot_off[c]):
            if (i // st) % k != s:
                pot[pot_off[c] + i] = 0.0
    log_scale = 0.0
    for k in range(edge_from.shape[0]):
        e2 = edge_id[k]
        e = e2 // 2
        a = edge_from[k]
        c = edge_to[k]
        lo = sep_off[e]
        hi = sep_off[e + 1]
        for m in range(lo, hi):
            msg[m] = 0.0
        pa = proj_off[e2]
        for i in range(pot_off[a + 1] - pot_off[a]):
            msg[lo + proj[pa + i]] += pot[pot_off[a] + i]
        top = 0.0
        for m in range(lo, hi):
            top = max(top, msg[m])
        if top <= 0.0:
            return -math.inf
        for m in range(lo, hi):
            msg[m] /= top
        log_scale += math.log(top)
        pc = proj_off[e2 ^ 1]
        big = 0.0
        for i in range(pot_off[c + 1] - pot_off[c]):
            pot[pot_off[c] + i] *= msg[lo + proj[pc + i]]
            big = max(big, pot[pot_off[c] + i])
        if 0.0 < big < _TINY:  # the clique itself rescaled before it underflows
            for i in range(pot_off[c], pot_off[c + 1]):
                pot[i] /= big
            log_scale += math.log(big)
    total = 0.0
    for i in range(pot_off[root], pot_off[root + 1]):
        total += pot[i]
    if total <= 0.0:
        return -math.inf
    if distribute:
        for k in range(edge_from.shape[0] - 1, -1, -1):
            e2 = edge_id[k]
            e = e2 // 2
            a = edge_to[k]  # now the sender
            c = edge_from[k]
            lo = sep_off[e]
            hi = sep_off[e + 1]
            for m in range(hi - lo):
                fresh[m] = 0.0
            pa = proj_off[e2 ^ 1]
            for i in range(pot_off[a + 1] - pot_off[a]):
                fresh[proj[pa + i]] += pot[pot_off[a] + i]
            top = 0.0
            for m in range(hi - lo):
                old = msg[lo + m]
                fresh[m] = fresh[m] / old if old > 0.0 else 0.0
                top = max(top, fresh[m])
            if top > 0.0:
                for m in range(hi - lo):
                    fresh[m] /= top
            pc = proj_off[e2]
            big = 0.0
            for i in range(pot_off[c + 1] - pot_off[c]):
                pot[pot_off[c] + i] *= fresh[proj[pc + i]]
                big = max(big, pot[pot_off[c] + i])
            if 0.0 < big < _TINY:  # scale no longer matters here: marginals are normalised
                for i in range(pot_off[c], pot_off[c + 1]):
                    pot[i] /= big
    return math.log(total) + log_scale


row_pass = serial_kernel(_row)


def _propagate(  # noqa: PLR0913  # pragma: no cover - compiled
    pots0, pot_off, sep_off, proj, proj_off, edge_from, edge_to, edge_id,
    root, distribute, codes, obs_clique, obs_stride, obs_card,
    targets_clique, targets_stride, targets_card, targets_out, out, log_pe, n_tasks,
):  # fmt: skip
    """For every row ``b`` of ``codes`` (one column per observed node, -1 = not observed): the
    row's pass (:func:`_row`), then each target's posterior into ``out[b, targets_out[q]:...]``,
    read from clique ``targets_clique[q]`` (the root when nothing is distributed) through its
    stride there, and ``log P(e)`` into ``log_pe[b]`` (``-inf`` for evidence of probability
    zero, whose posteriors are left at 0). The rows are cut into ``n_tasks`` blocks, one per
    thread, each with its own buffers.
    """
    n_rows = codes.shape[0]
    per = (n_rows + n_tasks - 1) // n_tasks
    n_sep = max(sep_off[sep_off.shape[0] - 1], 1)
    for t in nb.prange(n_tasks):
        pot = np.empty(pots0.shape[0])
        msg = np.empty(n_sep)
        fresh = np.empty(n_sep)
        for b in range(t * per, min(n_rows, (t + 1) * per)):
            log_pe[b] = row_pass(
                pots0, pot, msg, fresh, pot_off, sep_off, proj, proj_off, edge_from, edge_to,
                edge_id, root, distribute, codes[b], obs_clique, obs_stride, obs_card,
            )  # fmt: skip
            if log_pe[b] == -math.inf:
                continue
            for q in range(targets_clique.shape[0]):
                c = targets_clique[q]
                st = targets_stride[q]
                k = targets_card[q]
                o = targets_out[q]
                z = 0.0
                for i in range(pot_off[c + 1] - pot_off[c]):
                    v = pot[pot_off[c] + i]
                    out[b, o + (i // st) % k] += v
                    z += v
                for s in range(k):
                    out[b, o + s] /= z


def _expected_cells(  # noqa: PLR0913  # pragma: no cover - compiled
    pots0, pot_off, sep_off, proj, proj_off, edge_from, edge_to, edge_id, root,
    codes, weights, obs_clique, obs_stride, obs_card, log_pe, n_tasks,
):  # fmt: skip
    """The expected clique counts of the E-step: every row calibrated (collect and
    distribute), each clique's potential normalised to ``P(clique | the row's evidence)`` and
    added, times the row's weight, into that task's sum; the tasks' sums are then added.
    ``log_pe[b]`` gets each row's ``log P(e)``; a row of probability zero adds nothing. The
    rows are cut into ``n_tasks`` blocks whatever the threads (the caller fixes it by the size
    of the potentials), and the blocks' sums added in order: the counts do not depend on the
    number of threads."""
    n_rows = codes.shape[0]
    per = (n_rows + n_tasks - 1) // n_tasks
    n_sep = max(sep_off[sep_off.shape[0] - 1], 1)
    n_cliques = pot_off.shape[0] - 1
    sums = np.zeros((n_tasks, pots0.shape[0]))
    for t in nb.prange(n_tasks):
        pot = np.empty(pots0.shape[0])
        msg = np.empty(n_sep)
        fresh = np.empty(n_sep)
        acc = sums[t]
        for b in range(t * per, min(n_rows, (t + 1) * per)):
            log_pe[b] = row_pass(
                pots0, pot, msg, fresh, pot_off, sep_off, proj, proj_off, edge_from, edge_to,
                edge_id, root, True, codes[b], obs_clique, obs_stride, obs_card,
            )  # fmt: skip
            if log_pe[b] == -math.inf:
                continue
            w = weights[b]
            for c in range(n_cliques):
                z = 0.0
                for i in range(pot_off[c], pot_off[c + 1]):
                    z += pot[i]
                if z > 0.0:
                    f = w / z
                    for i in range(pot_off[c], pot_off[c + 1]):
                        acc[i] += pot[i] * f
    return sums.sum(axis=0)


def propagate_work(pots0, *args) -> int:
    """About three passes over the potentials per row."""
    return args[9].shape[0] * pots0.shape[0] * 3


def expected_work(pots0, *args) -> int:
    """About three passes over the potentials per row (``codes`` is the tenth argument)."""
    return args[8].shape[0] * pots0.shape[0] * 3


propagate = parallel_kernel(propagate_work)(_propagate)
expected_cells = parallel_kernel(expected_work)(_expected_cells)
