"""KDB, selective KDB, NBTree and hierarchical smoothing (issue 12)."""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest

from bayeskit import KDB, TAN, NaiveBayes, NBTree, SelectiveKDB, SelectiveKDBEnsemble
from bayeskit.classifiers._family import with_class_column
from bayeskit.classifiers.kdb import kdb_parents
from bayeskit.classifiers.nbtree import route
from bayeskit.data import datasets
from bayeskit.estimate import (
    hierarchical_concentrations,
    hierarchical_dirichlet,
    level_tables,
    lidstone,
    log_probabilities,
)
from bayeskit.stats import FamilyCounts, ScoredCounts, TreeCounts, family_counts


def _frame(codes: np.ndarray) -> pd.DataFrame:
    return pd.DataFrame({f"x{j}": pd.Categorical(codes[:, j]) for j in range(codes.shape[1])})


@pytest.fixture(scope="module")
def xor_data():
    """y = x0 XOR x1 (flipped 5% of the time), x2..x4 noise: a structure naive Bayes and any
    one-feature model cannot see."""
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 2, size=(600, 5))
    y = codes[:, 0] ^ codes[:, 1]
    y = np.where(rng.random(600) < 0.05, 1 - y, y)
    return _frame(codes), y


# --------------------------------------------------------------------------- estimator
class TestHierarchical:
    def test_normalised_and_finite(self):
        rng = np.random.default_rng(1)
        counts = rng.poisson(0.7, size=(3, 4, 5, 6)).astype(float)
        p = np.exp(hierarchical_dirichlet(counts))
        np.testing.assert_allclose(p.sum(axis=-1), 1.0, atol=1e-12)
        assert np.isfinite(np.log(p)).all()

    def test_unseen_configuration_gets_its_parent_level(self):
        counts = np.array(
            [[[30.0, 10.0], [0.0, 0.0], [0.0, 0.0]], [[5.0, 15.0], [2.0, 0.0], [0.0, 0.0]]]
        )
        p = np.exp(hierarchical_dirichlet(counts))
        np.testing.assert_allclose(p[0, 1], p[0, 2], atol=1e-12)  # both: class 0's level
        assert 0.6 < p[0, 1, 0] < 0.8  # class 0's distribution, 30 : 10 shrunk toward P(x)
        # close to the two-level estimate of the summed table (the same levels from rows)
        upper = np.exp(hierarchical_dirichlet(counts.sum(axis=1)))
        assert abs(p[0, 1, 0] - upper[0, 0]) < 0.05

    def test_identical_children_copy_the_parent(self):
        # every parent value has the same distribution: the extra parent adds nothing
        counts = np.tile(np.array([40.0, 10.0]), (2, 5, 1))
        counts[1] = [10.0, 40.0]
        p = np.exp(hierarchical_dirichlet(counts))
        np.testing.assert_allclose(p[0], p[0, :1].repeat(5, axis=0), atol=1e-12)
        _, conc = hierarchical_concentrations(counts)
        assert conc[1].min() > 100  # the weight goes to large concentrations

    def test_differing_children_keep_their_own_counts(self):
        counts = np.array([[[200.0, 0.0], [0.0, 200.0]]])  # (class, parent, x)
        p = np.exp(hierarchical_dirichlet(counts))
        assert p[0, 0, 0] > 0.99
        assert p[0, 1, 1] > 0.99

    def test_batch_axes_are_independent_tables(self):
        rng = np.random.default_rng(2)
        counts = rng.poisson(2.0, size=(4, 2, 3, 3)).astype(float)
        batched = hierarchical_dirichlet(counts, batch_axes=1)
        for b in range(4):
            np.testing.assert_allclose(batched[b], hierarchical_dirichlet(counts[b]), atol=1e-12)

    def test_one_axis_is_lidstone(self):
        counts = np.array([3.0, 1.0, 0.0])
        np.testing.assert_allclose(hierarchical_dirichlet(counts, 0.5), lidstone(counts, 0.5))

    def test_dispatch_and_axis_check(self):
        counts = np.array([[3.0, 1.0], [0.0, 4.0]])
        np.testing.assert_array_equal(
            log_probabilities(counts, "hierarchical", 1.0), hierarchical_dirichlet(counts)
        )
        with pytest.raises(ValueError, match="last axis"):
            log_probabilities(counts, "hierarchical", 1.0, axis=0)

    def test_levels(self):
        counts = np.arange(12.0).reshape(2, 3, 2)
        levels = level_tables(counts)
        assert [t.shape for t in levels] == [(2,), (2, 2), (2, 3, 2)]
        np.testing.assert_array_equal(levels[0], counts.sum(axis=(0, 1)))


# --------------------------------------------------------------------------- KDB
class TestKDB:
    @pytest.mark.parametrize("smoothing", ["lidstone", "hierarchical", "m-estimate"])
    def test_k0_is_naive_bayes(self, smoothing):
        X, y = datasets.load("car")
        a = KDB(k=0, smoothing=smoothing).fit(X, y)
        b = NaiveBayes(smoothing=smoothing).fit(X, y)
        assert all(p == () for p in a.structure_.values())
        np.testing.assert_allclose(a.predict_log_proba(X), b.predict_log_proba(X), atol=1e-12)

    def test_k1_is_one_dependence(self):
        X, y = datasets.load("car")
        model = KDB(k=1, smoothing="lidstone").fit(X, y)
        order = model.order_
        assert model.structure_[order[0]] == ()
        for pos, name in enumerate(order[1:], start=1):
            (p,) = model.structure_[name]
            assert order.index(p) < pos
        # the posterior is P(c) prod_j P(x_j | c, pa_j), read from the model's own tables
        jll = np.tile(model.log_prior_, (len(X), 1))
        for name, parents in model.structure_.items():
            table = model.conditional_log_table(name, given=parents)
            cols = [model.schema_.names.index(n) for n in (*parents, name)]
            codes = model.schema_.encode(X).codes
            idx = tuple(codes[:, c] for c in cols)
            jll += np.stack([table[(c, *idx)] for c in range(len(model.classes_))], axis=1)
        np.testing.assert_allclose(model.predict_joint_log_proba(X), jll, atol=1e-10)

    def test_sahami_parent_choice(self):
        cmi = np.array(
            [[0, 0.9, 0.1, 0.5], [0.9, 0, 0.2, 0.3], [0.1, 0.2, 0, 0.8], [0.5, 0.3, 0.8, 0]]
        )
        got = kdb_parents([0, 1, 2, 3], cmi, k=2, cells=[2] * 5, max_cells=1000)
        assert got == {1: (0,), 2: (1, 0), 3: (2, 0)}
        # a parent whose states would take the table beyond the cap is passed over: x0 has
        # 50 states, so no table may hold it (2 classes x 2 states x 50 > 40)
        got = kdb_parents([0, 1, 2, 3], cmi, k=2, cells=[50, 2, 2, 2, 2], max_cells=40)
        assert got == {2: (1,), 3: (2, 1)}

    def test_structure_from_pair_counts(self, xor_data):
        X, y = xor_data
        model = KDB(k=1).fit(X, y)
        first, second = model.order_[:2]
        assert {first, second} != {"x0", "x1"} or model.structure_[second] == (first,)
        assert model.structure_["x1"] == ("x0",) or model.structure_["x0"] == ("x1",)

    def test_higher_k_sees_interactions(self, xor_data):
        X, y = xor_data
        nb = NaiveBayes().fit(X, y).score(X, y)
        kdb = KDB(k=2).fit(X, y).score(X, y)
        assert nb < 0.65 < 0.9 < kdb

    @pytest.mark.parametrize("bad", [-1, 1.5, "2", None])
    def test_bad_k(self, bad):
        X, y = datasets.load("car")
        with pytest.raises((ValueError, TypeError), match="k"):
            KDB(k=bad).fit(X, y)

    def test_partial_fit_keeps_the_first_structure(self):
        X, y = datasets.load("car")
        y = np.asarray(y)
        rng = np.random.default_rng(3)
        idx = rng.permutation(len(y))
        a, b = idx[:300], idx[300:]
        inc = KDB(k=2).partial_fit(X.iloc[a], y[a], classes=np.unique(y))
        first = dict(inc.structure_)
        inc.partial_fit(X.iloc[b], y[b])
        assert inc.structure_ == first == KDB(k=2).fit(X.iloc[a], y[a]).structure_
        # the counts are those of every row over the first call's families
        enc = inc.schema_.encode(X)
        codes = with_class_column(enc.codes, np.searchsorted(inc.classes_, y), 4)
        stats = inc.stats_
        whole = family_counts(codes, stats.families, stats.n_states, target=stats.target)
        np.testing.assert_array_equal(stats.counts, whole.counts)

    def test_missing_values(self):
        X, y = datasets.load("car")
        X = X.copy()
        rng = np.random.default_rng(4)
        for c in X.columns:
            X.loc[rng.random(len(X)) < 0.1, c] = np.nan
        proba = KDB(k=3).fit(X, y).predict_proba(X)
        assert np.isfinite(proba).all()
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)

    def test_hierarchical_is_the_default_and_an_option_elsewhere(self):
        assert KDB().smoothing == SelectiveKDB().smoothing == "hierarchical"
        X, y = datasets.load("car")
        for model in (TAN(smoothing="hierarchical"), NaiveBayes(smoothing="hierarchical")):
            assert np.isfinite(model.fit(X, y).predict_log_proba(X)).all()


# --------------------------------------------------------------------------- SelectiveKDB
class TestSelectiveKDB:
    @pytest.mark.parametrize(
        ("missing", "weights", "params"),
        [
            (False, False, {"smoothing": "lidstone"}),
            (True, False, {"smoothing": "lidstone"}),
            (False, True, {"smoothing": "m-estimate", "alpha": 2.0}),
            (True, False, {"smoothing": "lidstone", "priors": [0.1, 0.2, 0.3, 0.4]}),
        ],
    )
    def test_leave_one_out_equals_refits(self, missing, weights, params):
        """Every candidate's score is the sum over rows of the log-probability of the row's
        class by the model refitted, structure held, on the counts less that row."""
        X, y = datasets.load("car")
        rng = np.random.default_rng(0)
        idx = rng.choice(len(y), 50, replace=False)
        Xs, ys = X.iloc[idx].reset_index(drop=True), np.asarray(y)[idx]
        if missing:
            for c in Xs.columns:
                Xs.loc[rng.random(len(Xs)) < 0.15, c] = np.nan
        w = rng.integers(1, 4, len(ys)).astype(float) if weights else np.ones(len(ys))
        sel = SelectiveKDB(k=2, **params).fit(Xs, ys, sample_weight=w if weights else None)
        counts: FamilyCounts = sel.stats_.counts
        order, parents = sel._structure()
        d = sel._d
        yi = np.searchsorted(sel.classes_, ys)
        codes = with_class_column(sel.schema_.encode(Xs).codes, yi, len(sel.classes_))
        expected = np.zeros((2, 3 * d))
        for r in range(len(ys)):
            one = family_counts(codes[r : r + 1], counts.families, counts.n_states, target=6)
            left = copy.deepcopy(sel)
            left.stats_ = ScoredCounts(
                FamilyCounts(counts.n_states, counts.families, counts.counts - one.counts, 6),
                sel.stats_.scores,
            )
            for q in range(3):
                trimmed = {j: p[:q] for j, p in parents.items() if p[:q]}
                for used in range(1, d + 1):
                    left._components = lambda t=trimmed, u=used, m=left: m._set_structure(
                        order, t, u
                    )
                    left._reestimate()
                    lp = left.predict_log_proba(Xs.iloc[r : r + 1])[0, yi[r]]
                    expected[1, q * d + used - 1] += w[r] * lp
        np.testing.assert_allclose(sel.stats_.scores, expected, rtol=1e-10, atol=1e-10)

    def test_choice_and_dropped_features(self, xor_data):
        X, y = xor_data
        model = SelectiveKDB(k=3).fit(X, y)
        assert model.k_ >= 1
        assert set(model.selected_) >= {"x0", "x1"}
        assert list(model.structure_) == [n for n in model.schema_.names if n in model.selected_]
        # features left out add nothing: predictions ignore their values
        X2 = X.copy()
        for name in set(X.columns) - set(model.selected_):
            X2[name] = pd.Categorical(
                np.zeros(len(X2), dtype=int), categories=X[name].cat.categories
            )
        np.testing.assert_allclose(model.predict_proba(X), model.predict_proba(X2), atol=1e-12)
        explained = model.explain(X.iloc[:5])
        for name in set(X.columns) - set(model.selected_):
            assert (explained[:, list(X.columns).index(name)] == 0).all()

    def test_score_rows_beyond_the_cap_stand_for_every_row(self, xor_data):
        # each row four times in a row: the evenly spaced quarter of the rows is every distinct
        # row once, so its scores weighted up by 4 are exactly those of all the rows
        X, y = xor_data
        X4, y4 = X.loc[X.index.repeat(4)].reset_index(drop=True), np.repeat(y, 4)
        full = SelectiveKDB(k=3, max_score_rows=None).fit(X4, y4)
        capped = SelectiveKDB(k=3, max_score_rows=len(y)).fit(X4, y4)
        np.testing.assert_allclose(capped.stats_.scores, full.stats_.scores, rtol=1e-10)
        # weights too: the scale is the call's total weight over the scored rows' weight
        w4 = np.repeat(np.random.default_rng(4).uniform(0.5, 2.0, len(y)), 4)
        full = SelectiveKDB(k=3, max_score_rows=None).fit(X4, y4, sample_weight=w4)
        capped = SelectiveKDB(k=3, max_score_rows=len(y)).fit(X4, y4, sample_weight=w4)
        np.testing.assert_allclose(capped.stats_.scores, full.stats_.scores, rtol=1e-10)
        # a cap above the rows changes nothing
        above = SelectiveKDB(k=3, max_score_rows=10**6).fit(X4, y4, sample_weight=w4)
        np.testing.assert_array_equal(above.stats_.scores, full.stats_.scores)

    @pytest.mark.parametrize("bad", [0, -5, 2.5, "all"])
    def test_bad_max_score_rows(self, xor_data, bad):
        X, y = xor_data
        with pytest.raises((ValueError, TypeError), match="max_score_rows"):
            SelectiveKDB(max_score_rows=bad).fit(X, y)

    def test_scores_shape_is_checked(self):
        X, y = datasets.load("car")
        model = SelectiveKDB(k=2).fit(X, y)
        bad = copy.deepcopy(model)
        bad.k = 3
        with pytest.raises(ValueError, match="scores"):
            bad._reestimate()


# --------------------------------------------------------------------------- ensemble
class TestSelectiveKDBEnsemble:
    def test_the_mean_of_its_members_and_member_0_is_selective_kdb(self):
        X, y = datasets.load("car")
        model = SelectiveKDBEnsemble(n_estimators=4, k=3).fit(X, y)
        assert len(model.members_) == 4
        mean = np.mean([m.predict_proba(X) for m in model.members_], axis=0)
        np.testing.assert_allclose(model.predict_proba(X), mean, atol=1e-12)
        single = SelectiveKDB(k=3).fit(X, y)
        np.testing.assert_allclose(model.members_[0].predict_proba(X), single.predict_proba(X))
        np.testing.assert_array_equal(model.class_count_, single.class_count_)
        # the others differ: their own weights and orders
        assert any(m.order_ != single.order_ for m in model.members_[1:])
        assert not np.array_equal(model.stats_.members[1].counts.counts[:4], single.class_count_)

    def test_seeded(self, xor_data):
        X, y = xor_data
        a = SelectiveKDBEnsemble(n_estimators=3, k=2).fit(X, y)
        b = SelectiveKDBEnsemble(n_estimators=3, k=2).fit(X, y)
        c = SelectiveKDBEnsemble(n_estimators=3, k=2, random_state=7).fit(X, y)
        np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
        assert not np.array_equal(a.predict_proba(X), c.predict_proba(X))

    def test_no_order_noise_keeps_the_order(self, xor_data):
        X, y = xor_data
        # each member is then the SelectiveKDB of its own weighted rows
        model = SelectiveKDBEnsemble(n_estimators=3, k=2, order_noise=0.0).fit(X, y)
        for i, member in enumerate(model.members_[1:], start=1):
            w = model._draws(i, len(y), X.shape[1], 0.0)[0]
            alone = SelectiveKDB(k=2).fit(X, y, sample_weight=w)
            assert member.order_ == alone.order_
            np.testing.assert_allclose(member.predict_proba(X), alone.predict_proba(X))

    def test_partial_fit_keeps_every_member_structure(self, xor_data):
        X, y = xor_data
        model = SelectiveKDBEnsemble(n_estimators=3, k=2)
        model.partial_fit(X.iloc[:300], y[:300], classes=[0, 1])
        orders = [m.order_ for m in model.members_]
        structures = [m.stats_.counts.families for m in model.members_]
        model.partial_fit(X.iloc[300:], y[300:])
        assert [m.order_ for m in model.members_] == orders
        assert [m.stats_.counts.families for m in model.members_] == structures
        # member 0 counts every row as given
        np.testing.assert_array_equal(model.class_count_, np.bincount(y, minlength=2))
        again = SelectiveKDBEnsemble(n_estimators=3, k=2)
        again.partial_fit(X.iloc[:300], y[:300], classes=[0, 1]).partial_fit(X.iloc[300:], y[300:])
        np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))

    def test_a_class_of_prior_zero_stays_at_zero(self, xor_data):
        X, y = xor_data
        y3 = np.where(np.arange(len(y)) < 30, 2, y)
        model = SelectiveKDBEnsemble(n_estimators=3, k=2, priors=[0.5, 0.5, 0.0]).fit(X, y3)
        proba = model.predict_proba(X)
        assert np.isfinite(proba).all()
        np.testing.assert_array_equal(proba[:, 2], 0.0)
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)
        unseen = SelectiveKDBEnsemble(n_estimators=3, k=2, prior_alpha=0.0)
        unseen.partial_fit(X, y, classes=[0, 1, 2])
        assert np.isfinite(unseen.predict_proba(X)).all()
        with pytest.raises(ValueError, match="cannot change the number of members"):
            unseen.set_params(n_estimators=4).partial_fit(X, y)

    @pytest.mark.parametrize(
        ("param", "value"),
        [("n_estimators", 0), ("n_estimators", 1.5), ("order_noise", -1.0), ("random_state", -1)],
    )
    def test_bad_parameters(self, xor_data, param, value):
        X, y = xor_data
        with pytest.raises((ValueError, TypeError), match=param):
            SelectiveKDBEnsemble(**{param: value}).fit(X, y)

    def test_no_single_table_to_explain(self, xor_data):
        X, y = xor_data
        model = SelectiveKDBEnsemble(n_estimators=2, k=2).fit(X, y)
        with pytest.raises(AttributeError, match="averages several models"):
            model.explain(X.iloc[:1])
        with pytest.raises(AttributeError, match="members_"):
            model.conditional_log_table("x0")
        bad = copy.deepcopy(model)
        bad.n_estimators = 3
        with pytest.raises(ValueError, match="members"):
            bad._reestimate()


# --------------------------------------------------------------------------- NBTree
class TestNBTree:
    def test_splits_on_an_interaction(self, xor_data):
        X, y = xor_data
        model = NBTree().fit(X, y)
        assert model.tree_[0]["split"] in {"x0", "x1"}
        assert model.n_leaves_ >= 2
        assert model.score(X, y) > 0.9 > NaiveBayes().fit(X, y).score(X, y)

    def test_no_split_where_naive_bayes_is_right(self):
        # features independent given the class, of unequal strength (so that ties, which
        # leave-one-out accuracy resolves by chance, are rare)
        rng = np.random.default_rng(5)
        y = rng.integers(0, 2, 800)
        strength = (0.9, 0.75, 0.7, 0.65, 0.6)
        codes = np.column_stack([np.where(rng.random(800) < p, y, 1 - y) for p in strength])
        model = NBTree().fit(_frame(codes), y)
        assert model.n_nodes_ == 1
        nb = NaiveBayes(discretize=None).fit(_frame(codes), y)
        np.testing.assert_allclose(
            model.predict_proba(_frame(codes)), nb.predict_proba(_frame(codes)), atol=1e-12
        )

    def test_small_nodes_are_leaves(self, xor_data):
        X, y = xor_data
        assert NBTree(min_samples=10_000).fit(X, y).n_nodes_ == 1
        assert NBTree(max_depth=1).fit(X, y).depth_ <= 1

    def test_route_stops_at_missing_and_unseen_values(self):
        split = np.array([0, -1, -1])
        parent = np.array([-1, 0, 0])
        value = np.array([-1, 0, 2])
        codes = np.array([[0, 1], [2, 0], [1, 0], [-1, 1]])
        np.testing.assert_array_equal(route(codes, split, parent, value, [3, 2]), [1, 2, 0, 0])

    def test_missing_split_value_uses_the_node_model(self, xor_data):
        X, y = xor_data
        model = NBTree().fit(X, y)
        X2 = X.iloc[:3].copy()
        root = model.tree_[0]["split"]
        X2[root] = np.nan
        proba = model.predict_proba(X2)
        assert np.isfinite(proba).all()

    def test_partial_fit_keeps_the_tree(self, xor_data):
        X, y = xor_data
        inc = NBTree().partial_fit(X.iloc[:300], y[:300], classes=[0, 1])
        tree = inc.tree_
        inc.partial_fit(X.iloc[300:], y[300:])
        assert [n["split"] for n in inc.tree_] == [n["split"] for n in tree]
        assert inc.tree_[0]["n_samples"] == 600

    def test_export_text(self, xor_data):
        X, y = xor_data
        text = NBTree().fit(X, y).export_text()
        assert "naive Bayes on" in text

    def test_bad_trees_are_refused(self, xor_data):
        X, y = xor_data
        model = NBTree().fit(X, y)
        s: TreeCounts = model.stats_
        layout_ok = s
        assert layout_ok.split[0] >= 0
        bad_parent = s.parent.copy()
        bad_parent[1] = 5
        from bayeskit.io._read import _layout  # the layout a model file is checked against

        layout = _layout(model.schema_, 2, 5)
        s.validate(layout)
        with pytest.raises(ValueError, match="parent"):
            TreeCounts(s.counts, s.split, bad_parent, s.value).validate(layout)
        twice = s.split.copy()
        twice[1] = twice[0]
        with pytest.raises(ValueError, match="split"):
            TreeCounts(s.counts, twice, s.parent, s.value).validate(layout)


class TestNBTreeEdges:
    def test_new_category_keeps_the_branches(self):
        rng = np.random.default_rng(6)
        x0 = rng.choice(["b", "c"], 600)
        x1 = rng.choice(["u", "v"], 600)
        y = ((x0 == "b") ^ (x1 == "u")).astype(int)
        first = pd.DataFrame({"x0": x0, "x1": x1})
        model = NBTree().partial_fit(first, y, classes=[0, 1])
        before = [(n["feature"], n["value"], n["n_samples"]) for n in model.tree_]
        # "a" sorts first: the codes of "b" and "c" move up by one
        model.partial_fit(pd.DataFrame({"x0": ["a"] * 4, "x1": ["u"] * 4}), [0, 1, 0, 1])
        after = [(n["feature"], n["value"], n["n_samples"]) for n in model.tree_]
        assert [a[:2] for a in after] == [b[:2] for b in before]
        assert model.score(first, y) > 0.95

    def test_class_never_seen_with_no_prior_count(self, xor_data):
        X, y = xor_data
        model = NBTree(prior_alpha=0).partial_fit(X, y, classes=[0, 1, 2])
        proba = model.predict_proba(X)
        assert np.isfinite(proba).all()
        assert (proba[:, 2] == 0).all()

    def test_hierarchical_counts_every_row_once(self, xor_data):
        X, y = xor_data
        model = NBTree(smoothing="hierarchical").fit(X, y)
        lidstone_model = NBTree().fit(X, y)
        assert model.n_nodes_ == lidstone_model.n_nodes_  # the tree does not depend on it
        proba = model.predict_proba(X)
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)
        assert model.score(X, y) > 0.9

    def test_region_probabilities_sum_to_one(self):
        X, y = datasets.load("car")
        model = NBTree(prior_alpha=0.5).fit(X, y)
        leaf = model.stats_.split < 0
        region = np.exp(model._node_term)
        np.testing.assert_allclose(region[:, leaf].sum(axis=1), 1.0, atol=1e-12)
        np.testing.assert_allclose(region[:, 0], 1.0, atol=1e-12)  # the root: every row
