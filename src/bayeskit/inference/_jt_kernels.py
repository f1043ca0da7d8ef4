"""Compiled propagation in a junction tree: one pass per evidence row (see
:mod:`bayeskit.inference.junction` for the layout of the arrays).

Each row passes messages only where its evidence and query need them. The cliques a row *needs*
are its terminals (the root, each observed node's home clique and, when distributing, each
target's clique) and every clique on the tree paths between them: the smallest sub-tree that
connects them. A message from the rest of the tree into that sub-tree carries no evidence, so it
is the same for every row: it is computed once, when the tree is compiled (the *prior*
messages, one per direction of each edge), and only multiplied in. Each row copies the compiled
potentials of the cliques it needs into its own buffer, zeroes the cells its evidence rules out,
and passes messages along the sub-tree (collect towards the root; on request, distribute back,
Hugin-style, dividing by the message that came up). A row that observes little near its query
then touches a few cliques, not the whole tree (as lazy propagation restricts its messages to
the relevant part of the tree: Madsen and Jensen, *Artificial Intelligence* 113, 1999).

Every message is divided by its largest entry, and so is a clique whose largest cell has become
tiny after a message, the logs of those factors summed, so ``P(e)`` of much evidence does not
underflow.

The kernels are serial and release the GIL: the caller splits the rows into blocks and runs
them on threads (:func:`bayeskit._compiled.run_blocks`), so no parallel build is compiled.
"""

from __future__ import annotations

import math

import numpy as np

from bayeskit._compiled import serial_kernel

_TINY = 1e-100  # a clique whose largest cell falls below this is divided by it


def _mark(  # noqa: PLR0913  # pragma: no cover - compiled
    marks, edge_from, edge_to, root, distribute, everything, row, obs_clique, targets_clique
):
    """Flag in ``marks`` the cliques the row needs (all of them with ``everything``): its
    terminals (``root``, each observed node's home clique and, with ``distribute``, each
    target's clique) and every clique on the tree paths between them."""
    if everything:
        marks[:] = 1
        return
    marks[:] = 0
    marks[root] = 1
    if distribute:
        for q in range(targets_clique.shape[0]):
            marks[targets_clique[q]] = 1
    for j in range(row.shape[0]):
        if row[j] >= 0:
            marks[obs_clique[j]] = 1
    for k in range(edge_from.shape[0]):  # a clique is needed when one beyond it is
        if marks[edge_from[k]]:
            marks[edge_to[k]] = 1


def _load(  # noqa: PLR0913  # pragma: no cover - compiled
    pots0, pot, marks, pot_off, row, obs_clique, obs_stride, obs_card
):
    """Copy the compiled potentials of the marked cliques into ``pot`` and zero the cells the
    evidence ``row`` rules out in each observed node's home clique."""
    for c in range(pot_off.shape[0] - 1):
        if marks[c]:
            for i in range(pot_off[c], pot_off[c + 1]):
                pot[i] = pots0[i]
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


def _collect(  # noqa: PLR0913  # pragma: no cover - compiled
    pot, msg, marks, pot_off, sep_off, proj, proj_off, edge_from, edge_to, edge_id, prior,
    prior_log,
):  # fmt: skip
    """Pass the messages towards the root along the marked sub-tree (a marked clique receives
    the prior message of each neighbour that is not marked), each message and each clique
    that turns tiny rescaled; the sum of the logs of the factors divided out (``-inf`` as soon
    as a message is all zeros: evidence of probability zero)."""
    n_sep = sep_off[sep_off.shape[0] - 1]
    log_scale = 0.0
    for k in range(edge_from.shape[0]):
        a = edge_from[k]
        c = edge_to[k]
        if not marks[c]:  # neither end needed
            continue
        e2 = edge_id[k]
        e = e2 // 2
        lo = sep_off[e]
        hi = sep_off[e + 1]
        pc = proj_off[e2 ^ 1]
        if marks[a]:
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
            big = 0.0
            for i in range(pot_off[c + 1] - pot_off[c]):
                pot[pot_off[c] + i] *= msg[lo + proj[pc + i]]
                big = max(big, pot[pot_off[c] + i])
        else:  # from beyond the row's sub-tree: the prior message
            base = (e2 % 2) * n_sep + lo
            log_scale += prior_log[e2]
            big = 0.0
            for i in range(pot_off[c + 1] - pot_off[c]):
                pot[pot_off[c] + i] *= prior[base + proj[pc + i]]
                big = max(big, pot[pot_off[c] + i])
        if 0.0 < big < _TINY:  # the clique itself rescaled before it underflows
            for i in range(pot_off[c], pot_off[c + 1]):
                pot[i] /= big
            log_scale += math.log(big)
    return log_scale


def _distribute(  # noqa: PLR0913  # pragma: no cover - compiled
    pot, msg, fresh, marks, pot_off, sep_off, proj, proj_off, edge_from, edge_to, edge_id,
):  # fmt: skip
    """Send the messages back from the root to the marked cliques, Hugin-style: each the
    sender's marginal on the separator divided by the message that came up."""
    for k in range(edge_from.shape[0] - 1, -1, -1):
        e2 = edge_id[k]
        e = e2 // 2
        a = edge_to[k]  # now the sender
        c = edge_from[k]
        if not marks[c]:
            continue
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


mark = serial_kernel(_mark)
load = serial_kernel(_load)
collect = serial_kernel(_collect)
distribute_back = serial_kernel(_distribute)


def _row(  # noqa: PLR0913  # pragma: no cover - compiled
    pots0, pot, msg, fresh, marks, pot_off, sep_off, proj, proj_off, edge_from, edge_to,
    edge_id, prior, prior_log, root, distribute, everything, row, obs_clique, obs_stride,
    obs_card, targets_clique,
):  # fmt: skip
    """One evidence row (``row``: a state per observed node, -1 = not observed) through the
    tree, in the buffers ``pot`` (potentials), ``msg`` (a message per separator), ``fresh``
    (scratch) and ``marks`` (a flag per clique): mark the cliques the row needs (all of them
    with ``everything``), copy their compiled potentials, zero the cells the evidence rules out
    in each observed node's home clique, collect towards ``root`` (a clique needed by the row
    receives the prior message ``prior`` of each neighbour it does not need) and, with
    ``distribute``, send back to the needed cliques. Returns ``log P(e)`` (``-inf`` for
    evidence of probability zero).

    Directed edges ``k`` are the collect order towards ``root`` (every clique after all the
    cliques beyond it): message from clique ``edge_from[k]`` to ``edge_to[k]`` over separator
    ``e = edge_id[k] // 2``, and ``proj[proj_off[edge_id[k]] + i]`` is the separator cell of
    cell ``i`` of the sending clique (``proj_off[edge_id[k] ^ 1]`` for the receiving one). The
    prior message in direction ``edge_id[k]`` is ``prior[(edge_id[k] % 2) * n_sep + sep_off[e]
    + m]`` times ``exp(prior_log[edge_id[k]])``.
    """
    mark(marks, edge_from, edge_to, root, distribute, everything, row, obs_clique, targets_clique)
    load(pots0, pot, marks, pot_off, row, obs_clique, obs_stride, obs_card)
    log_scale = collect(
        pot, msg, marks, pot_off, sep_off, proj, proj_off, edge_from, edge_to, edge_id, prior,
        prior_log,
    )  # fmt: skip
    if log_scale == -math.inf:
        return -math.inf
    total = 0.0
    for i in range(pot_off[root], pot_off[root + 1]):
        total += pot[i]
    if total <= 0.0:
        return -math.inf
    if distribute:
        distribute_back(
            pot, msg, fresh, marks, pot_off, sep_off, proj, proj_off, edge_from, edge_to, edge_id
        )
    return math.log(total) + log_scale


row_pass = serial_kernel(_row)


def _propagate(  # noqa: PLR0913  # pragma: no cover - compiled
    pots0, pot_off, sep_off, proj, proj_off, edge_from, edge_to, edge_id, prior, prior_log,
    root, distribute, codes, obs_clique, obs_stride, obs_card,
    targets_clique, targets_stride, targets_card, targets_out, out, log_pe,
):  # fmt: skip
    """For every row ``b`` of ``codes`` (one column per observed node, -1 = not observed): the
    row's pass (:func:`_row`), then each target's posterior into ``out[b, targets_out[q]:...]``,
    read from clique ``targets_clique[q]`` (the root when nothing is distributed) through its
    stride there, and ``log P(e)`` into ``log_pe[b]`` (``-inf`` for evidence of probability
    zero, whose posteriors are left at 0).
    """
    n_sep = max(sep_off[sep_off.shape[0] - 1], 1)
    pot = np.empty(pots0.shape[0])
    msg = np.empty(n_sep)
    fresh = np.empty(n_sep)
    marks = np.empty(pot_off.shape[0] - 1, dtype=np.uint8)
    for b in range(codes.shape[0]):
        log_pe[b] = row_pass(
            pots0, pot, msg, fresh, marks, pot_off, sep_off, proj, proj_off, edge_from,
            edge_to, edge_id, prior, prior_log, root, distribute, False, codes[b], obs_clique,
            obs_stride, obs_card, targets_clique,
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
    codes, weights, obs_clique, obs_stride, obs_card, log_pe,
):  # fmt: skip
    """The expected clique counts of the E-step over the rows of ``codes``: every row
    calibrated (collect and distribute over the whole tree), each clique's potential normalised
    to ``P(clique | the row's evidence)`` and added, times the row's weight, into the sums
    returned. ``log_pe[b]`` gets each row's ``log P(e)``; a row of probability zero adds
    nothing."""
    n_sep = max(sep_off[sep_off.shape[0] - 1], 1)
    n_cliques = pot_off.shape[0] - 1
    acc = np.zeros(pots0.shape[0])
    pot = np.empty(pots0.shape[0])
    msg = np.empty(n_sep)
    fresh = np.empty(n_sep)
    marks = np.empty(n_cliques, dtype=np.uint8)
    nothing = np.zeros(0)
    none = np.zeros(0, dtype=np.int64)
    for b in range(codes.shape[0]):
        log_pe[b] = row_pass(
            pots0, pot, msg, fresh, marks, pot_off, sep_off, proj, proj_off, edge_from,
            edge_to, edge_id, nothing, nothing, root, True, True, codes[b], obs_clique,
            obs_stride, obs_card, none,
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
    return acc


propagate = serial_kernel(_propagate)
expected_cells = serial_kernel(_expected_cells)
