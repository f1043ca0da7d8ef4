"""Family counts, information measures and the family look-up (bayeskit.stats)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.special import logsumexp

import bayeskit._compiled as compiled
from bayeskit.stats import (
    FamilyCounts,
    conditional_mutual_information,
    family_counts,
    mutual_information,
    pair_families,
)
from bayeskit.stats.checks import Layout
from bayeskit.stats.families import sum_over_last_parent
from bayeskit.stats.lookup import FamilyTables, LogFactor


def _data(n=3000, d=6, seed=0, missing=0.05):
    rng = np.random.default_rng(seed)
    states = rng.integers(2, 6, d)
    codes = (rng.random((n, d)) * states).astype(np.int8)
    codes[rng.random((n, d)) < missing] = -1
    y = rng.integers(0, 3, n).astype(np.int8)
    return np.column_stack([codes, y]), np.append(states, 3)


def _reference(codes, family, n_states, w=None):
    """The table of one family by np.add.at, rows missing any of its columns left out."""
    cols = list(family)
    ok = (codes[:, cols] >= 0).all(axis=1)
    out = np.zeros([n_states[c] for c in cols])
    weights = np.ones(len(codes)) if w is None else w
    np.add.at(out, tuple(codes[ok, c] for c in cols), weights[ok])
    return out


@pytest.fixture(params=["serial", "parallel"])
def build(request, monkeypatch):
    """Run the kernels' serial build, or force the parallel one (threshold 0)."""
    if request.param == "parallel":
        monkeypatch.setattr(compiled, "PARALLEL_MIN_WORK", 0)
    return request.param


def test_family_counts_match_a_reference_with_missing_values_and_weights(build):
    codes, ns = _data()
    d = len(ns) - 1
    w = np.random.default_rng(1).random(len(codes)) * 3
    fams = [(d,), (d, 2), (3, 0), (1, 2, 3, 5)] + pair_families(range(d), (d,))
    fc = family_counts(codes, fams, ns, w, target=d)
    for fam in fams:
        np.testing.assert_allclose(fc.table(fam), _reference(codes, fam, ns, w), rtol=1e-12)
    np.testing.assert_allclose(fc.class_count, np.bincount(codes[:, d], w, minlength=3))


def test_tables_larger_than_the_rows_are_counted_family_by_family(build):
    # more cells than rows: the threads share the families, not the rows (in place, no copy
    # per thread); the answer is the same, and the small tables beside them too
    codes, ns = _data(n=400, d=9, missing=0.1)
    d = len(ns) - 1
    w = np.random.default_rng(2).random(len(codes)) * 2
    fams = [(d,), (d, 0), (d, 1, 2, 3, 4, 5, 0), (d, 6, 7, 8, 1), (d, 8, 2, 4, 6, 3)]
    assert sum(np.prod([ns[c] for c in f]) for f in fams) > len(codes)
    fc = family_counts(codes, fams, ns, w, target=d)
    for fam in fams:
        np.testing.assert_allclose(fc.table(fam), _reference(codes, fam, ns, w), rtol=1e-12)


def test_sum_over_last_parent_equals_the_sum_over_that_axis():
    rng = np.random.default_rng(3)
    for shape in [(2, 3), (3, 1, 4), (2, 5, 3, 2), (2, 3, 4, 5, 1), (2, 0, 3)]:
        table = rng.random(shape)
        np.testing.assert_allclose(sum_over_last_parent(table), table.sum(axis=-2), rtol=1e-14)
        out = np.empty(table.sum(axis=-2).shape)
        assert sum_over_last_parent(table, out=out) is out


def test_pair_kernel_equals_generic_kernel(build):
    codes, ns = _data(n=5000, d=8)
    d = len(ns) - 1
    pairs = pair_families(range(d), (d,))
    fast = family_counts(codes, pairs, ns)  # spotted as an all-pairs block
    for fam in pairs:  # each counted alone, by the generic kernel
        alone = family_counts(codes, [fam], ns)
        np.testing.assert_array_equal(fast.table(fam), alone.table(fam))


def test_table_transposes_to_the_order_asked_for():
    codes, ns = _data(d=4)
    fc = family_counts(codes, [(4, 0, 2)], ns)
    np.testing.assert_array_equal(fc.table((4, 2, 0)), fc.table((4, 0, 2)).transpose(0, 2, 1))
    np.testing.assert_array_equal(fc.table((0, 4, 2)), fc.table((4, 0, 2)).transpose(1, 0, 2))
    with pytest.raises(KeyError, match="was not counted"):
        fc.table((4, 1))


def test_marginal_sums_out_of_the_smallest_holder():
    codes, ns = _data(d=4, missing=0.0)
    fc = family_counts(codes, [(4, 0, 2), (4, 1, 2, 3)], ns)
    np.testing.assert_allclose(fc.marginal((2, 4)), _reference(codes, (2, 4), ns))


def test_counts_of_pieces_add_up_to_counts_of_the_whole():
    codes, ns = _data()
    d = len(ns) - 1
    fams = [(d,), *pair_families(range(d), (d,))]
    whole = family_counts(codes, fams, ns, target=d)
    parts = family_counts(codes[:1000], fams, ns, target=d) + family_counts(
        codes[1000:], fams, ns, target=d
    )
    np.testing.assert_allclose(parts.counts, whole.counts)
    with pytest.raises(ValueError, match="different families"):
        whole + family_counts(codes, fams[:-1], ns, target=d)


def test_regrow_moves_every_axis_of_a_grown_column():
    codes, ns = _data(d=3, missing=0.0)
    fc = family_counts(codes, [(3,), (3, 0, 1), (1, 0)], ns, target=3)
    grown_states = ns.copy()
    grown_states[0] += 2
    remap = {0: np.arange(ns[0]) * 0 + np.arange(ns[0]) + 1}  # old code k -> k + 1
    g = fc.regrow(remap, grown_states)
    old, new = fc.table((3, 0, 1)), g.table((3, 0, 1))
    assert new.shape == (3, ns[0] + 2, ns[1])
    np.testing.assert_array_equal(new[:, 1 : ns[0] + 1, :], old)
    assert new[:, 0, :].sum() == 0
    assert new[:, -1, :].sum() == 0
    np.testing.assert_array_equal(g.table((1, 0))[:, 1 : ns[0] + 1], fc.table((1, 0)))


def test_validate_names_the_field():
    codes, ns = _data(d=2)
    fc = family_counts(codes, [(2,), (2, 0), (2, 1)], ns, target=2)
    layout = Layout(3, tuple(int(k) for k in ns[:2]), ("a", "b"))
    fc.validate(layout)
    bad = FamilyCounts(fc.n_states, fc.families, -fc.counts, 2)
    with pytest.raises(ValueError, match=r"stats_\.counts: holds negative"):
        bad.validate(layout)
    short = FamilyCounts(fc.n_states, fc.families, fc.counts[:-1], 2)
    with pytest.raises(ValueError, match=r"stats_\.counts: shape"):
        short.validate(layout)
    stray = FamilyCounts(fc.n_states, ((2,), (2, 7)), fc.counts, 2)
    with pytest.raises(ValueError, match=r"families\[1\]"):
        stray.validate(layout)


# ------------------------------------------------------------------ information
def test_mutual_information_matches_its_definition():
    rng = np.random.default_rng(3)
    t = rng.integers(0, 20, (3, 4)).astype(float)
    p = t / t.sum()
    expected = sum(
        p[a, b] * np.log(p[a, b] / (p[a].sum() * p[:, b].sum()))
        for a in range(3)
        for b in range(4)
        if p[a, b] > 0
    )
    assert mutual_information(t) == pytest.approx(expected, rel=1e-12)


def test_conditional_mutual_information_both_forms():
    rng = np.random.default_rng(4)
    t = rng.integers(0, 9, (2, 3, 4)).astype(float)
    n = t.sum()
    joint = per_class = 0.0
    for c, a, b in itertools.product(range(2), range(3), range(4)):
        if t[c, a, b] == 0:
            continue
        pc = t[c].sum()
        ratio = (t[c, a, b] / pc) / ((t[c, a].sum() / pc) * (t[c, :, b].sum() / pc))
        joint += t[c, a, b] / n * np.log(ratio)  # seed 004's form
        per_class += t[c, a, b] / pc * np.log(ratio)  # Zhou Eq. (7.22) as printed
    assert conditional_mutual_information(t) == pytest.approx(joint, rel=1e-12)
    assert conditional_mutual_information(t, "per-class") == pytest.approx(per_class, rel=1e-12)
    with pytest.raises(ValueError, match="weighting must be one of"):
        conditional_mutual_information(t, "bogus")


def test_information_of_independent_tables_is_zero():
    t = np.outer([1.0, 2.0], [3.0, 4.0, 5.0])
    assert mutual_information(t) == pytest.approx(0.0, abs=1e-15)
    assert conditional_mutual_information(np.stack([t, 2 * t])) == pytest.approx(0.0, abs=1e-15)


# ------------------------------------------------------------------ look-up
def _random_factor(rng, child, parents, ns, n_classes=3, fallback=True):
    shape = (n_classes, *(ns[p] for p in parents), ns[child])
    t = np.log(rng.dirichlet(np.ones(shape[-1]), size=shape[:-1]))
    fb = np.log(rng.dirichlet(np.ones(ns[child]), size=n_classes)) if fallback else None
    return LogFactor(child, tuple(parents), t, fb)


def _term(factor, row):
    if row[factor.child] < 0:
        return 0.0
    if any(row[p] < 0 for p in factor.parents):
        if factor.fallback is None:
            return 0.0
        return factor.fallback[:, row[factor.child]]
    return factor.log_table[(slice(None), *(row[p] for p in factor.parents), row[factor.child])]


def test_single_structure_look_up_matches_a_reference(build):
    rng = np.random.default_rng(5)
    codes, ns = _data(n=700, d=5)
    factors = [
        _random_factor(rng, 0, (), ns),
        _random_factor(rng, 1, (0,), ns),
        _random_factor(rng, 2, (0, 1), ns),
        _random_factor(rng, 3, (1,), ns, fallback=False),
        _random_factor(rng, 4, (3, 2, 0), ns),
    ]
    jll = FamilyTables([factors], 3).add_to(np.zeros((len(codes), 3)), codes)
    expected = np.array([sum(_term(f, row) for f in factors) for row in codes])
    np.testing.assert_allclose(jll, expected, rtol=1e-12, atol=1e-12)


def test_gated_average_with_fallback_matches_a_reference(build):
    rng = np.random.default_rng(6)
    codes, ns = _data(n=600, d=4)
    comps = [[_random_factor(rng, j, (s,), ns) for j in range(4) if j != s] for s in range(4)]
    naive = [_random_factor(rng, j, (), ns) for j in range(4)]
    gates = [((s,), rng.random(ns[s]) < 0.6) for s in range(4)]
    tables = FamilyTables([*comps, naive], 3, gates=[*gates, None], fallback=4)
    jll = tables.add_to(np.zeros((len(codes), 3)), codes)
    for i, row in enumerate(codes):
        open_ = [s for s in range(4) if row[s] >= 0 and gates[s][1][row[s]]]
        if open_:
            each = [sum(_term(f, row) for f in comps[s]) for s in open_]
            expected = logsumexp(each, axis=0) - np.log(len(open_))
        else:
            expected = sum(_term(f, row) for f in naive)
        np.testing.assert_allclose(jll[i], expected, rtol=1e-12, atol=1e-12)
    terms = tables.component_terms(codes)
    assert terms.shape == (len(codes), 5, 3)
    np.testing.assert_allclose(terms[:, 4], [sum(_term(f, r) for f in naive) for r in codes])


def test_naive_structure_takes_its_own_kernel_with_the_same_answer(build):
    rng = np.random.default_rng(7)
    codes, ns = _data(n=900, d=5)
    factors = [_random_factor(rng, j, (), ns, fallback=False) for j in range(5)]
    tables = FamilyTables([factors], 3)
    assert tables._naive
    jll = tables.add_to(np.zeros((len(codes), 3)), codes[:, :5])
    expected = np.array([sum(_term(f, row) for f in factors) for row in codes])
    np.testing.assert_allclose(jll, expected, rtol=1e-12, atol=1e-12)
    general = FamilyTables([factors], 3, base=np.zeros((1, 3)) + 0.5)  # a base: general kernel
    assert not general._naive
    np.testing.assert_allclose(general.add_to(np.zeros_like(jll), codes[:, :5]), jll + 0.5)


def test_leave_one_out_scores_match_a_reference(build):
    from bayeskit.stats.lookup import leave_one_out_scores

    rng = np.random.default_rng(8)
    codes, ns = _data(n=400, d=3)
    feats, y = codes[:, :3], codes[:, 3].astype(np.int64)
    comps_k = [
        [_random_factor(rng, j, (s,) if j != s else (), ns) for j in range(3)] for s in range(3)
    ]
    comps_l = [
        [LogFactor(f.child, f.parents, f.log_table - 0.1, f.fallback) for f in comp]
        for comp in comps_k
    ]
    kept, left = FamilyTables(comps_k, 3), FamilyTables(comps_l, 3)
    pk, pl = np.log([0.2, 0.3, 0.5]), np.log([0.1, 0.2, 0.4])
    w = rng.random(len(y)) + 0.5
    got = leave_one_out_scores(kept, left, feats, y, w, pk, pl)
    expected = np.zeros(3)
    for i, row in enumerate(feats):
        for s in range(3):
            a = pk + sum(_term(f, row) for f in comps_k[s])
            a[y[i]] = pl[y[i]] + sum(_term(f, row) for f in comps_l[s])[y[i]]
            expected[s] += w[i] * (a[y[i]] - logsumexp(a))
    np.testing.assert_array_equal(got[0], 0.0)  # no row impossible
    np.testing.assert_allclose(got[1], expected, rtol=1e-12)


def test_grouped_tables_equal_one_table_at_a_time():
    codes, ns = _data(d=5)
    fams = [(5,), *pair_families(range(5), (5,)), (5, 1), (5, 3)]
    fc = family_counts(codes, fams, ns, target=5)
    asked = [(5, 3, 1), (5, 1, 3), (5, 0, 4), (5, 4, 0), (5, 1), (4, 5, 2)]
    seen = []
    for positions, stacked in fc.grouped_tables(asked):
        for i, k in enumerate(positions):
            np.testing.assert_array_equal(stacked[i], fc.table(asked[k]))
            seen.append(k)
    assert sorted(seen) == list(range(len(asked)))


def test_ande_triples_count_as_pair_blocks_given_class_and_feature(build):
    # AnDE(n=2) counts (class, a, b, c): the pairs of the later features given (class, a)
    from bayeskit.stats._family_passes import _count_generic, _pair_blocks

    codes, ns = _data(n=2000, d=6, missing=0.05)
    d = 6
    fams = [(d,), *((d, i) for i in range(d)), *pair_families(range(d), (d,))]
    fams += [(d, *t) for t in itertools.combinations(range(d), 3)]
    blocks, rest = _pair_blocks(tuple(fams))
    assert [b[0] for b in blocks] == [(d,), (d, 0), (d, 1), (d, 2)]
    # left to the generic kernel: the class count, and (class, 3, 4, 5) (a block of one pair)
    assert [fams[k] for k in rest] == [(d,), (d, 3, 4, 5)]
    fc = family_counts(codes, fams, ns)
    generic = np.zeros_like(fc.counts)
    starts = [fc.start(f) for f in fams]
    _count_generic(codes, np.ones(len(codes)), fams, ns, starts, generic)
    np.testing.assert_array_equal(fc.counts, generic)


def test_a_family_listed_twice_or_out_of_range_is_refused():
    codes, ns = _data(d=3)
    with pytest.raises(ValueError, match=r"lists the columns \(3, 1, 0\) more than once"):
        family_counts(codes, [(3, 0, 1), (3, 0, 2), (3, 1, 0)], ns)
    with pytest.raises(ValueError, match=r"family \(3, 9\) must be distinct column indices"):
        family_counts(codes, [(3,), (3, 9)], ns)
    with pytest.raises(ValueError, match=r"family \(1, 1\) must be distinct"):
        family_counts(codes, [(1, 1)], ns)
