"""The plans of variable elimination and the table operations that run them.

A plan (:class:`_Plan`) is what a query of one shape needs, compiled once: which CPTs, which
evidence axes, the elimination steps (:class:`_Step`) and the size of the largest table. Running
it multiplies and sums tables with ``np.einsum`` over integer index lists (index 0 the batch
axis of evidence rows, node ``i`` index ``i + 1``), a group of operands at a time, rescaling
each partial product per row so that long products do not underflow; MAP maximises instead of
summing and reads the maximising states back in reverse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

_BATCH = 0  # einsum index of the batch axis; node i is index i + 1
_EINSUM_INDICES = 52
_MAX_OPERANDS = 8  # einsum's operands at once (it takes 32 at most); see _contract


@dataclass(frozen=True)
class _Step:
    var: int  # the node eliminated
    slots: tuple[int, ...]  # the tables multiplied
    out: tuple[int, ...]  # the result's nodes (batch axis apart)
    maximise: bool


@dataclass(frozen=True)
class _Plan:
    targets: tuple[int, ...]
    observed: tuple[int, ...]  # the evidence nodes used, in the order of their columns
    factors: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]
    # per factor: the node whose CPT it is, the axes of the evidence nodes in the CPT, and
    # the positions of those nodes in ``observed``
    scopes: tuple[tuple[int, ...], ...]  # each factor's remaining nodes (evidence removed)
    steps: tuple[_Step, ...]
    largest: int  # cells of the largest table, per batch row


def _rescale(table: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``table`` (leading batch axis) divided by each row's largest entry, and those entries'
    logs (rows of zeros are left as they are, log 0 added)."""
    top = table.reshape(n, -1).max(axis=1)
    top = np.where(top > 0, top, 1.0)
    return table / top.reshape((-1,) + (1,) * (table.ndim - 1)), np.log(top)


def _contract(
    operands,
    out: tuple[int, ...],
    batched: bool,
    n: int | None = None,
    log_scale: np.ndarray | None = None,
) -> np.ndarray:
    """The product of ``operands`` (table, nodes, has a batch axis) summed to ``out`` (plus the
    batch axis when ``batched``; ``n`` rows when the result must have one though no operand
    has). Many operands are multiplied a group at a time, each partial product with a batch
    axis rescaled to a largest entry of 1 per row, its log added to ``log_scale``: a product
    of hundreds of small factors does not underflow."""
    operands = list(operands)
    while len(operands) > _MAX_OPERANDS:
        head, operands = operands[:_MAX_OPERANDS], operands[_MAX_OPERANDS:]
        needed = set(out) | {u for _, nodes, _ in operands for u in nodes}
        keep = tuple(sorted({u for _, nodes, _ in head for u in nodes} & needed))
        head_batch = any(b for *_, b in head)
        part = _contract(head, keep, head_batch)
        if head_batch and log_scale is not None:
            part, log_top = _rescale(part, len(log_scale))
            log_scale += log_top
        operands.append((part, keep, head_batch))
    args: list[Any] = []
    for table, nodes, has_batch in operands:
        args += [table, ([_BATCH] if has_batch else []) + [u + 1 for u in nodes]]
    any_batch = any(b for *_, b in operands)
    target = ([_BATCH] if any_batch and batched else []) + [u + 1 for u in out]
    indices = {i for k in range(1, len(args), 2) for i in args[k]}
    if len(indices) <= _EINSUM_INDICES and max(indices, default=0) < _EINSUM_INDICES:
        result = np.einsum(*args, target, optimize=len(operands) > 2)
    else:
        result = _broadcast_product(args, target)
    if batched and not any_batch and n is not None:
        result = np.broadcast_to(result, (n, *result.shape)).copy()
    return result


def _broadcast_product(args, target) -> np.ndarray:
    """einsum's product-and-sum by broadcasting, for index numbers einsum cannot take."""
    union: list[int] = []
    for k in range(1, len(args), 2):
        union += [i for i in args[k] if i not in union]
    pos = {i: j for j, i in enumerate(union)}
    values = np.ones((1,) * len(union))
    for k in range(0, len(args), 2):
        table, idx = args[k], args[k + 1]
        perm = sorted(range(len(idx)), key=lambda a: pos[idx[a]])
        shape = [1] * len(union)
        for a in perm:
            shape[pos[idx[a]]] = table.shape[a]
        values = values * np.transpose(table, perm).reshape(shape)
    gone = tuple(j for j, i in enumerate(union) if i not in target)
    values = values.sum(axis=gone)
    kept = [i for i in union if i in target]
    return np.transpose(values, [kept.index(i) for i in target])


def _max_out(operands, var: int, out, batched: bool, n: int, log_scale: np.ndarray):
    """The product of ``operands`` maximised over ``var``: the table and the argmax."""
    everything = tuple(sorted({u for _, nodes, _ in operands for u in nodes}))
    full = _contract(operands, everything, batched, n, log_scale=log_scale)
    axis = everything.index(var) + (1 if batched else 0)
    rest = [u for u in everything if u != var]
    arg = np.argmax(full, axis=axis)
    table = np.max(full, axis=axis)
    order = [rest.index(u) for u in out]
    lead = [0] if batched else []
    perm = lead + [len(lead) + i for i in order]
    return np.transpose(table, perm), (np.transpose(arg, perm), tuple(out))


def _max_traceback(plan: _Plan, table: np.ndarray, choices) -> dict[int, int]:
    """The maximising state of every maximised node (one row), read in reverse."""
    best: dict[int, int] = {}
    for step, (arg, nodes) in reversed(choices):
        index = tuple(best[u] for u in nodes)
        first = (0, *index)
        best[step.var] = int(arg[first] if arg.ndim == len(nodes) + 1 else arg[index])
    del table
    return best


def _run_plan(plan: _Plan, cpts: list, codes: np.ndarray, keep_choices: bool = False):
    """Run ``plan`` on the network's CPTs ``cpts`` (node order) and the evidence rows ``codes``
    (columns: ``plan.observed``): the table over the targets (leading batch axis) and each
    row's log scale, and with ``keep_choices`` the maximising choices of each step."""
    n = codes.shape[0]
    tables: dict[int, tuple[np.ndarray, tuple[int, ...], bool]] = {}
    log_scale = np.zeros(n)
    for k, (v, axes, cols) in enumerate(plan.factors):
        cpt = cpts[v]
        if axes:  # each row's slice, scaled to a largest entry of 1
            moved = np.moveaxis(cpt, axes, range(len(axes)))
            table, log_top = _rescale(moved[tuple(codes[:, c] for c in cols)], n)
            log_scale += log_top
            tables[k] = (table, plan.scopes[k], True)
        else:
            tables[k] = (cpt, plan.scopes[k], False)
    choices = []
    slot = len(plan.factors)
    for step in plan.steps:
        operands = [tables.pop(k) for k in step.slots]
        batched = any(b for *_, b in operands)
        if step.maximise:
            table, arg = _max_out(operands, step.var, step.out, batched, n, log_scale)
            choices.append((step, arg))
        else:
            table = _contract(operands, step.out, batched, log_scale=log_scale)
        if batched:
            table, log_top = _rescale(table, n)
            log_scale += log_top
        tables[slot] = (table, step.out, batched)
        slot += 1
    rest = []
    for table, nodes, batched in tables.values():  # each scaled to a largest entry of 1
        if batched:
            table, log_top = _rescale(table, n)
            log_scale += log_top
        rest.append((table, nodes, batched))
    final = () if any(step.maximise for step in plan.steps) else plan.targets
    if rest:
        table = _contract(rest, final, True, n, log_scale=log_scale)
    else:
        table = np.ones((n,))
    if keep_choices:
        return table, log_scale, choices
    return table, log_scale


def _moral_component(scope: list, start: set[int], kept: set[int], observed: set[int]) -> set[int]:
    """The nodes connected to ``start`` in the moral graph of ``kept`` without the observed
    nodes (``scope[v]``: the nodes of ``v``'s CPT)."""
    neighbours: dict[int, set[int]] = {v: set() for v in kept if v not in observed}
    for v in kept:
        family = [u for u in scope[v] if u not in observed]
        for a in family:
            neighbours[a].update(b for b in family if b != a)
    seen, todo = set(start), list(start)
    while todo:
        for b in neighbours.get(todo.pop(), ()):
            if b not in seen:
                seen.add(b)
                todo.append(b)
    return seen


def _prune_evidence(engine: Any, targets, observed) -> tuple[frozenset[int], tuple]:
    """The evidence a query of ``targets`` given ``observed`` keeps once d-separated evidence
    is dropped, and the guard of the rows whose dropped evidence might be impossible: per CPT
    with a zero that could show it, the positions in ``observed`` of its observed nodes and
    where it is positive (``engine``: a :class:`VariableElimination`, its CPTs and scopes)."""
    obs = set(observed)
    used_obs = set(observed)
    while True:
        kept = engine._ancestral(set(targets) | used_obs)
        component = _moral_component(engine._scope, set(targets), kept, obs)
        cpts = [v for v in sorted(kept) if set(engine._scope[v]) & component]
        touched = {u for v in cpts for u in engine._scope[v]} & used_obs
        if touched == used_obs:
            break
        used_obs = touched
    # every CPT of the ancestral set stays (see _compile), so P(e') = 0 is seen. The
    # dropped evidence e'' makes P(e) zero only through a zero met in the CPT of a dropped
    # node or of a kept node with a dropped parent: take a joint state of positive
    # probability given e' (one exists when P(e') > 0), set the dropped nodes to their
    # states (the CPTs that changes are those), and give each node the dropped evidence
    # adds to the ancestral set, parents first, a state of positive probability (its CPT
    # row has one): a joint state of positive probability given e, unless one of those
    # CPTs is 0 somewhere at the row's observed states. The guard tells, per row, whether
    # one is: per such CPT with a zero, the positions in ``observed`` of its observed
    # nodes, and whether it is positive at those states whatever its other nodes' states.
    dropped = obs - used_obs
    risky = dropped | {c for d in dropped for c in engine._children[d] if c in kept}
    guard = []
    for v in sorted(u for u in risky if engine._has_zero[u]):
        scope = engine._scope[v]
        fixed = [k for k, u in enumerate(scope) if u in obs]
        free = tuple(k for k in range(len(scope)) if k not in fixed)
        positive = np.all(engine._cpts[v] > 0, axis=free)
        guard.append((tuple(observed.index(scope[k]) for k in fixed), positive))
    return frozenset(used_obs), tuple(guard)
