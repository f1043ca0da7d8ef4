"""Conformance: full Bayes, every case with topic ``full_bayes``.

Seed ``002_c29c00ad3fc7f344.txt`` (Zaki & Meira, *Data Mining and Machine Learning*, ch. 18):
Sect. 18.1 (Eqs. 18.1-18.4, Algorithm 18.1) and Example 18.1 (multivariate normal on 2-D Iris),
Sect. 18.1.2 categorical attributes (Table 18.1 discretization, Table 18.2 joint PMF, Eq. 18.6
pseudo-counts) and Example 18.2, exercises Q1 and Q3. Seed ``003_724f2bcfd11b2332.txt`` (notes
after Han, Kamber & Pei 6.3), Sects. 2.2 and 2.3: the joint likelihood on the 7-row age/credit
tables. Every output except the ``seed_arithmetic`` ones is tested, one test each; the figures
come from ``cases.json``.

Outputs with a ``class_prior`` repeat the seed's arithmetic with its rounded priors (0.33 /
0.67): the model is given those priors. Q3 gives the class parameters instead of data: the model
is fitted on four points per class whose mean and ML covariance are exactly the given ones.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from _cases import case, check, outputs, textbook_frame
from scipy.special import logsumexp

from bayeskit import FullBayes
from bayeskit.data.discretize import apply_cuts
from bayeskit.estimate import log_determinant, mahalanobis_squared
from bayeskit.stats import joint_counts

EX18_1 = "zaki-ex18.1-full-bayes-iris-2d"
TABLE18_2 = "zaki-table18.2-joint-pmf-counts"
EX18_2_SHORT = "zaki-ex18.2-joint-pmf-short-medium"
EX18_2_LONG = "zaki-ex18.2-joint-pmf-pseudocount-long-long"
Q1 = "zaki-q1-full-bayes"
Q3 = "zaki-q3-full-bayes-given-parameters"
HAN_A = "han-2.2-bayes-theorem-table-a"
HAN_B = "han-2.3-joint-likelihood-zero-table-b"


def _index(model: FullBayes, label) -> int:
    return list(model.classes_).index(label)


def _answer(model_for, query: pd.DataFrame | np.ndarray, q: dict):
    """The model's answer to one quantity; ``model_for(priors)`` fits the case's model."""
    kind = q["kind"]
    if kind == "joint" and "class_prior" in q:  # the seed's rounded prior for this class
        base = model_for(None)
        labels = list(base.classes_)
        assert len(labels) == 2
        p = q["class_prior"]
        priors = [p if label == q["class"] else 1.0 - p for label in labels]
        model = model_for(priors)
        return np.exp(model.predict_joint_log_proba(query)[0, _index(model, q["class"])])
    model = model_for(None)
    with np.errstate(divide="ignore"):
        if kind == "prior":
            return np.exp(model.log_prior_[_index(model, q["class"])])
        if kind in ("likelihood", "density"):
            c = _index(model, q["class"])
            return np.exp(model.predict_joint_log_proba(query)[0, c] - model.log_prior_[c])
        if kind == "joint":
            return np.exp(model.predict_joint_log_proba(query)[0, _index(model, q["class"])])
        if kind == "evidence":
            return np.exp(logsumexp(model.predict_joint_log_proba(query)[0]))
        if kind == "posterior":
            return model.predict_proba(query)[0, _index(model, q["class"])]
        if kind == "predicted_class":
            return model.predict(query)[0]
        if kind == "mean":
            features = list(model.feature_names_in_)
            return model.means_[_index(model, q["class"]), features.index(q["feature"])]
        if kind == "covariance":
            assert q["ddof"] == model.ddof
            features = list(model.feature_names_in_)
            i, j = (features.index(f) for f in q["features"])
            return model.covariance_[_index(model, q["class"]), i, j]
    raise AssertionError(f"no test for quantity kind {q['kind']!r}")


# ---------------------------------------------------------------- Example 18.1
def _iris(case_id: str) -> tuple[pd.DataFrame, np.ndarray]:
    inp = case(case_id)["inputs"]
    df = textbook_frame(inp["data"])
    return df[inp["features"]], df["species"].map(inp["class_map"]).to_numpy()


# zaki-ex18.1-full-bayes-iris-2d: seed 002, Zaki & Meira Sect. 18.1, Algorithm 18.1, Example 18.1
@pytest.mark.parametrize("out", outputs(EX18_1), ids=lambda o: o["name"])
def test_zaki_ex18_1_full_bayes_iris(out):
    c = case(EX18_1)
    x, y = _iris(EX18_1)
    ddof = c["method"]["covariance_ddof"]
    query = pd.DataFrame([c["inputs"]["query"]], columns=c["inputs"]["features"])
    check(
        _answer(
            lambda priors: FullBayes(ddof=ddof, priors=priors).fit(x, y), query, out["quantity"]
        ),
        out,
    )


# ---------------------------------------------------------------- Table 18.2 and Example 18.2
def _discretized(case_id: str) -> tuple[pd.DataFrame, np.ndarray, dict]:
    """Table 18.1: each feature binned by the case's edges into its labelled bins."""
    inp = case(case_id)["inputs"]
    x, y = _iris(case_id)
    spec = inp["discretization"]
    binned = {
        f: pd.Categorical.from_codes(
            apply_cuts(x[f].to_numpy(), spec[f]["edges"][1:-1]), spec[f]["labels"]
        )
        for f in inp["features"]
    }
    return pd.DataFrame(binned), y, spec


# zaki-table18.2-joint-pmf-counts: seed 002, Zaki & Meira Table 18.1 and Table 18.2 (counts)
@pytest.mark.parametrize("out", outputs(TABLE18_2), ids=lambda o: o["name"])
def test_zaki_table18_2_joint_counts(out):
    x, y, spec = _discretized(TABLE18_2)
    features = list(x.columns)
    classes, y_idx = np.unique(y, return_inverse=True)
    codes = np.column_stack([x[f].cat.codes.to_numpy() for f in features])
    sizes = [len(spec[f]["labels"]) for f in features]
    dense = joint_counts(codes, y_idx, len(classes), sizes).dense()
    q = out["quantity"]
    table = dense[list(classes).index(q["class"])]
    if q["kind"] == "count_table":
        got = table
    else:  # count_vector: the class-specific marginal of one attribute
        axis = 1 - features.index(q["feature"])
        got = table.sum(axis=axis)
    check(got.astype(int), out)


def _example_18_2(case_id: str, out: dict):
    c = case(case_id)
    x, y, spec = _discretized(case_id)
    features = list(x.columns)
    raw = np.asarray(c["inputs"]["query"]["raw"], dtype=float)
    labels = [
        spec[f]["labels"][int(apply_cuts(raw[i : i + 1], spec[f]["edges"][1:-1])[0])]
        for i, f in enumerate(features)
    ]
    assert labels == c["inputs"]["query"]["categorical"]  # (5.3, 3.0) is (short, medium), ...
    query = pd.DataFrame([labels], columns=features)
    alpha = c["method"]["pseudo_count"]
    return _answer(
        lambda priors: FullBayes(alpha=alpha, priors=priors).fit(x, y), query, out["quantity"]
    )


# zaki-ex18.2-joint-pmf-short-medium: seed 002, Zaki & Meira Sect. 18.1.2, Example 18.2 (1st point)
@pytest.mark.parametrize("out", outputs(EX18_2_SHORT), ids=lambda o: o["name"])
def test_zaki_ex18_2_empirical_joint_pmf(out):
    check(_example_18_2(EX18_2_SHORT, out), out)


# zaki-ex18.2-joint-pmf-pseudocount-long-long: seed 002, Zaki & Meira Eq. (18.6), Example 18.2
@pytest.mark.parametrize("out", outputs(EX18_2_LONG), ids=lambda o: o["name"])
def test_zaki_ex18_2_pseudocount_joint_pmf(out):
    check(_example_18_2(EX18_2_LONG, out), out)


# ---------------------------------------------------------------- Exercise Q1
# zaki-q1-full-bayes: seed 002, Zaki & Meira Exercise Q1 (Table 18.3), full Bayes with Eq. (18.6)
@pytest.mark.parametrize("out", outputs(Q1), ids=lambda o: o["name"])
def test_zaki_q1_full_bayes(out):
    c = case(Q1)
    inp, method = c["inputs"], c["method"]
    df = textbook_frame(inp["data"])
    features = inp["categorical_features"]
    x, y = df[features], df[inp["class_column"]].to_numpy()
    categories = {"age": method["age_domain"], "car": method["car_domain"]}
    query = pd.DataFrame([inp["query"]])[features]

    def model_for(priors):
        return FullBayes(
            alpha=method["pseudo_count"],
            priors=priors,
            categorical_features=features,
            categories=categories,
        ).fit(x, y)

    check(_answer(model_for, query, out["quantity"]), out)


# ---------------------------------------------------------------- Exercise Q3
def _q3_points(mean: np.ndarray, cov: np.ndarray) -> np.ndarray:
    """mean +- sqrt(d) L e_j: 2d points whose mean is ``mean`` and ML covariance ``L L^T = cov``."""
    d = len(mean)
    spread = np.sqrt(d) * np.linalg.cholesky(cov).T
    return np.concatenate([mean + spread, mean - spread])


# zaki-q3-full-bayes-given-parameters: seed 002, Zaki & Meira Exercise Q3, Eqs. (18.3)-(18.4)
@pytest.mark.parametrize("out", outputs(Q3), ids=lambda o: o["name"])
def test_zaki_q3_full_bayes_given_parameters(out):
    inp = case(Q3)["inputs"]
    params = {
        "c1": (np.array(inp["mu1"]), np.array(inp["Sigma1"])),
        "c2": (np.array(inp["mu2"]), np.array(inp["Sigma2"])),
    }
    query = np.array([inp["query"]])
    q = out["quantity"]
    if q["kind"] in ("determinant", "mahalanobis_squared"):
        mean, cov = params[q["class"]]
        chol = np.linalg.cholesky(cov)
        if q["kind"] == "determinant":
            check(np.exp(log_determinant(chol)), out)
        else:
            check(mahalanobis_squared(query, mean, chol)[0], out)
        return
    x = np.concatenate([_q3_points(*params["c1"]), _q3_points(*params["c2"])])
    y = np.repeat(["c1", "c2"], 4)
    priors = [inp["priors"]["c1"], inp["priors"]["c2"]]
    model = FullBayes(priors=priors).fit(x, y)
    np.testing.assert_allclose(model.means_, [params["c1"][0], params["c2"][0]], atol=1e-12)
    np.testing.assert_allclose(model.covariance_, [params["c1"][1], params["c2"][1]], atol=1e-12)
    check(_answer(lambda _: model, query, q), out)


# ---------------------------------------------------------------- Han, Kamber & Pei notes
def _han(case_id: str, out: dict):
    c = case(case_id)
    inp = c["inputs"]
    df = textbook_frame(inp["data"])
    x, y = df.drop(columns=inp["class_column"]), df[inp["class_column"]].to_numpy()
    query = pd.DataFrame([inp["query"]])[list(x.columns)]
    alpha = c["method"]["pseudo_count"]
    return _answer(
        lambda priors: FullBayes(alpha=alpha, priors=priors).fit(x, y), query, out["quantity"]
    )


# han-2.2-bayes-theorem-table-a: seed 003, Han/Kamber notes Sect. 2.2 (example with training data)
@pytest.mark.parametrize("out", outputs(HAN_A), ids=lambda o: o["name"])
def test_han_2_2_joint_bayes_table_a(out):
    check(_han(HAN_A, out), out)


# han-2.3-joint-likelihood-zero-table-b: seed 003, Han/Kamber notes Sect. 2.3 (limitation)
@pytest.mark.parametrize("out", outputs(HAN_B), ids=lambda o: o["name"])
def test_han_2_3_joint_likelihood_zero_table_b(out):
    check(_han(HAN_B, out), out)


def test_every_full_bayes_case_is_covered():
    # the cases this module tests are exactly those with topic full_bayes in the fixture
    from _cases import load_cases

    ids = {c["id"] for c in load_cases("full_bayes")}
    assert ids == {EX18_1, TABLE18_2, EX18_2_SHORT, EX18_2_LONG, Q1, Q3, HAN_A, HAN_B}
