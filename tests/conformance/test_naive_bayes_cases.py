"""Conformance: every estimation, naive Bayes, Laplace-correction and decision case of the seeds.

Each test fits the model a case's ``method`` describes on the bundled copy of its table and asks
the public API for each expected output (figures in ``cases.json``, copied from
shared/conformance; pass rule and statuses in README.md here). Case ids name the seed and section:
``zhou-`` Zhou, *Machine Learning*, ch. 7; ``aieng-`` AI Engineering ch. 7; ``zaki-`` Zaki & Meira
ch. 18; ``han-`` notes after Han, Kamber & Pei 6.3; ``nju-`` Nanjing lecture 5.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from _cases import case, check, outputs, textbook_frame

from bayeskit import NaiveBayes
from bayeskit.data.discretize import apply_cuts
from bayeskit.estimate import lidstone


def _model_frame(c: dict) -> tuple[pd.DataFrame, pd.Series, list[str]]:
    inp = c["inputs"]
    df = textbook_frame(inp["data"])
    target = inp.get("class_column") or df.columns[-1]
    y = df[target]
    if "class_map" in inp:
        y = y.map(inp["class_map"])
    cats = list(inp.get("categorical_features", []))
    nums = list(inp.get("numeric_features", []))
    feats = cats + nums if (cats or nums) else list(inp.get("features", []))
    if not feats:
        feats = [col for col in df.columns if col != target]
    return df[feats], y, cats


# The textbooks model numeric features with Gaussians and estimate the class prior by relative
# frequencies: settings the library's defaults (MDL discretization, Laplace-smoothed prior) differ
# from, so every case states them.
TEXTBOOK = {"discretize": None, "prior_alpha": 0.0}


def _fit(case_id: str, **params) -> tuple[NaiveBayes, dict]:
    params = {**TEXTBOOK, **params}
    c = case(case_id)
    X, y, cats = _model_frame(c)
    domains = c["inputs"].get("domains")
    if domains is None and "car_domain" in c["method"]:
        domains = {"car": c["method"]["car_domain"]}
    model = NaiveBayes(categorical_features=cats or None, categories=domains, **params)
    return model.fit(X, y), c


def _class(model: NaiveBayes, label) -> int:
    return int(np.flatnonzero(model.classes_ == label)[0])


def _query_frame(model: NaiveBayes, query: dict) -> pd.DataFrame:
    return pd.DataFrame({name: [query[name]] for name in model.schema_.names})


def _answer(model: NaiveBayes, q: dict, query: dict | None):
    """Map one ``quantity`` of a case onto the public API."""
    kind = q["kind"]
    if kind == "prior":
        return np.exp(model.log_prior_[_class(model, q["class"])])
    if kind == "conditional":
        j = [col.name for col in model.schema_.categorical].index(q["feature"])
        code = model.schema_.column(q["feature"]).categories.index(q["value"])
        return np.exp(model.log_cpt_[j][_class(model, q["class"]), 0, code])
    if kind in ("mean", "variance", "std"):
        j = [col.name for col in model.schema_.numeric].index(q["feature"])
        c = _class(model, q["class"])
        if kind == "mean":
            return model.theta_[c, j]
        return model.var_[c, j] if kind == "variance" else np.sqrt(model.var_[c, j])
    if kind == "density":  # one feature's class-conditional density at x
        pos = model.schema_.names.index(q["feature"])
        row = {name: [np.nan] for name in model.schema_.names}
        row[q["feature"]] = [q["x"]]
        fll = model.feature_log_likelihood(pd.DataFrame(row))
        return np.exp(fll[0, pos, _class(model, q["class"])])
    x = _query_frame(model, q.get("query", query))
    if kind == "likelihood":
        jll = model.predict_joint_log_proba(x)[0] - model.log_prior_
        return np.exp(jll[_class(model, q["class"])])
    if kind == "joint":
        return np.exp(model.predict_joint_log_proba(x)[0, _class(model, q["class"])])
    if kind == "posterior":
        return model.predict_proba(x)[0, _class(model, q["class"])]
    if kind == "predicted_class":
        return model.predict(x)[0]
    raise AssertionError(f"no mapping for quantity kind {kind!r}")


# --- Zhou ch. 7.3: naive Bayes on watermelon 3.0 (eqs. 7.16-7.18), test sample T1 -----------
# Unsmoothed estimates (alpha=0), no variance floor; the worked example uses ddof=1 (see README).
ZHOU_NB = [
    ("zhou-7.3-nb-priors", {"alpha": 0.0}),
    ("zhou-7.3-nb-categorical-conditionals", {"alpha": 0.0}),
    ("zhou-7.3-nb-gaussian-parameters", {"alpha": 0.0, "ddof": 1}),
    ("zhou-7.3-nb-gaussian-densities", {"alpha": 0.0, "ddof": 1}),
    ("zhou-7.3-nb-gaussian-ddof0-contrast", {"alpha": 0.0, "ddof": 0}),
    ("zhou-7.3-nb-T1-decision", {"alpha": 0.0, "ddof": 1}),
    # eqs. 7.19-7.20: the Laplacian correction of prior and conditionals
    ("zhou-7.3-laplace-priors", {"alpha": 1.0, "prior_alpha": 1.0}),
    ("zhou-7.3-laplace-conditionals", {"alpha": 1.0, "prior_alpha": 1.0}),
    # Zaki & Meira Exercise Q2 (Table 18.4): mixed naive Bayes, both variance conventions
    ("zaki-q2-naive-bayes-mixed", {"alpha": 0.0}),
    # Zaki Exercise Q1 (Table 18.3): zero variance in class L, declared car domain, pseudo-count 1
    ("zaki-q1-naive-bayes", {"alpha": 1.0}),
    # Han 6.3 Sect. 3: buys_computer, unsmoothed; Sect. 3.2: Gaussian age with ddof=1
    ("han-3-naive-likelihood-table-b", {"alpha": 0.0}),
    ("han-3-buys-computer-priors", {"alpha": 0.0}),
    ("han-3-buys-computer-naive-bayes-X", {"alpha": 0.0}),
    ("han-3.2-gaussian-age", {"alpha": 0.0, "ddof": 1}),
    # Nanjing lecture 5: sweet table with declared domains, unsmoothed and with Laplace
    ("nju-nb-sweet-unsmoothed", {"alpha": 0.0}),
    ("nju-nb-sweet-laplace", {"alpha": 1.0, "prior_alpha": 1.0}),
]

PARAMS = [
    pytest.param(cid, params, out, id=f"{cid}:{out['name']}")
    for cid, params in ZHOU_NB
    for out in outputs(cid)
]


@pytest.mark.filterwarnings("ignore::bayeskit.exceptions.ZeroEvidenceWarning")
@pytest.mark.parametrize(("case_id", "params", "out"), PARAMS)
def test_naive_bayes_case(case_id, params, out):
    q = out["quantity"]
    params = dict(params, var_smoothing=0.0)  # the cases are computed without a variance floor
    if q.get("ddof") is not None:  # an output pinned to one variance convention
        params["ddof"] = q["ddof"]
    model, c = _fit(case_id, **params)
    query = c["inputs"].get("query")
    check(_answer(model, q, query), out)


# --- Zaki Example 18.3: Gaussian naive Bayes on 2-D Iris (UCI file), query (6.75, 4.25) -------
@pytest.mark.parametrize(
    "out", outputs("zaki-ex18.3-naive-bayes-gaussian-iris-2d"), ids=lambda o: o["name"]
)
def test_zaki_gaussian_naive_bayes_iris(out):
    c = case("zaki-ex18.3-naive-bayes-gaussian-iris-2d")
    X, y, _ = _model_frame(c)
    q = out["quantity"]
    # the seed multiplies by priors rounded to 0.33 / 0.67 (classes c1, c2)
    priors = [0.33, 0.67] if "class_prior" in q else None
    model = NaiveBayes(**TEXTBOOK, var_smoothing=0.0, priors=priors).fit(X, y)
    query = dict(zip(c["inputs"]["features"], c["inputs"]["query"], strict=True))
    if q["kind"] == "density":  # the product of the two per-feature densities
        x = _query_frame(model, query)
        got = np.exp(
            (model.predict_joint_log_proba(x) - model.log_prior_)[0, _class(model, q["class"])]
        )
    else:
        got = _answer(model, q, query)
    check(got, out)


# --- Zaki Example 18.4: categorical naive Bayes on the discretized 2-D Iris ------------------
def _zaki_discretized():
    c = case("zaki-ex18.4-naive-bayes-categorical-iris-2d")
    X, y, _ = _model_frame(c)
    disc = c["inputs"]["discretization"]
    cols = {}
    for name, spec in disc.items():
        codes = apply_cuts(X[name].to_numpy(dtype=float), np.array(spec["edges"][1:-1]))
        cols[name] = pd.Categorical.from_codes(codes, categories=spec["labels"])
    return pd.DataFrame(cols), y, c


@pytest.mark.parametrize(
    "out", outputs("zaki-ex18.4-naive-bayes-categorical-iris-2d"), ids=lambda o: o["name"]
)
def test_zaki_categorical_naive_bayes_iris(out):
    Xd, y, c = _zaki_discretized()
    q = out["quantity"]
    query = dict(zip(Xd.columns, c["inputs"]["query"]["categorical"], strict=True))
    priors = [0.33, 0.67] if "class_prior" in q else None
    if q.get("variant") == "pseudo_count_everywhere":  # the standard Laplace estimator
        model = NaiveBayes(**TEXTBOOK, alpha=1.0, priors=priors).fit(Xd, y)
        check(_answer(model, q, query), out)
        return
    # The seed adds the pseudo-count only where a count is zero (sepal_length = long in c1):
    # the Laplacian correction applied per distribution, smoothing="lidstone-where-zero".
    model = NaiveBayes(**TEXTBOOK, alpha=1.0, smoothing="lidstone-where-zero", priors=priors)
    model.fit(Xd, y)
    check(_answer(model, q, query), out)


# --- Han 6.3 Sect. 3.1: the Laplacian correction on hypothetical counts -----------------------
def test_han_laplace_correction():
    # Through the library: naive Bayes fitted on weighted rows whose per-class counts are the
    # example's two count tables (row weight n(s) n(c) / n_class keeps both margins), then
    # asked for the per-feature likelihoods of the query. The seed's correction ("add one to
    # each count" of a table that holds a zero) is smoothing="lidstone-where-zero".
    c = case("han-3.1-laplace-correction")
    counts = c["inputs"]["counts"]
    student, credit = counts["buy_x_student"], counts["buy_x_credit"]
    rows, weights = [], []
    for k in ("yes", "no"):
        total = sum(student[k].values())
        for s_val, s_n in student[k].items():
            for c_val, c_n in credit[k].items():
                rows.append({"student": s_val, "credit": c_val, "buy": k})
                weights.append(s_n * c_n / total)
    data = pd.DataFrame(rows)
    X, y = data[["student", "credit"]], data["buy"]
    domains = {"student": ["yes", "no"], "credit": ["fair", "excellent"]}
    settings = {
        "none": {"alpha": 0.0},
        "laplace_all": {"alpha": 1.0},
        "laplace_selective": {"alpha": 1.0, "smoothing": "lidstone-where-zero"},
    }
    for out in outputs("han-3.1-laplace-correction"):
        q = out["quantity"]
        query = q.get("query", {"student": "yes", "credit": "fair"})
        params = settings[q.get("smoothing")]
        model = NaiveBayes(**params, categories=domains).fit(X, y, sample_weight=weights)
        terms = model.feature_log_likelihood(pd.DataFrame([query]))[0, :, _class(model, q["class"])]
        got = np.exp(terms[0] if q["kind"] == "conditional" else terms.sum())
        check(got, out)


# --- Estimation from counts: AI Engineering 7.2 (coin, balls), Han 6.3 Sect. 2 ---------------
# The library counts the raw observations (a one-node or two-node network fitted by maximum
# likelihood, fit_parameters(estimator="mle")); the test only sums its full-assignment
# probabilities. The figures are the seeds' (cases.json).
def _mle_network(edges, nodes, rows: pd.DataFrame, states, weights=None):
    from bayeskit.networks import DAG, fit_parameters

    dag = DAG(nodes=nodes, edges=edges)
    fit = fit_parameters(dag, rows, estimator="mle", states=states, sample_weight=weights)
    return fit.network


def _observations(counts: dict, column: str) -> pd.DataFrame:
    """One row per observation: ``counts[value]`` rows holding ``value``."""
    return pd.DataFrame({column: [v for v, n in counts.items() for _ in range(n)]})


# aieng-7.2.2-coin-frequency: seed 001, AI Engineering Sect. 7.2.2 (38 heads in 100 tosses)
def test_aieng_coin_frequency():
    counts = case("aieng-7.2.2-coin-frequency")["inputs"]["counts"]
    rows = _observations(counts, "coin")
    net = _mle_network([], ["coin"], rows, {"coin": ["heads", "tails"]})
    (out,) = outputs("aieng-7.2.2-coin-frequency")
    check(net.probability({"coin": "heads"}), out)


# aieng-7.2.4-ball-mle: seed 001, AI Engineering Sect. 7.2.4, Eq. (7.12): the Bernoulli MLE
# maximises 75 ln P + 25 ln(1 - P); the log-likelihood is the fitted network's of the 100 draws
def test_aieng_ball_mle_and_log_likelihood():
    counts = case("aieng-7.2.4-ball-mle")["inputs"]["counts"]
    rows = _observations(counts, "ball")
    net = _mle_network([], ["ball"], rows, {"ball": ["white", "black"]})
    est, loglik = outputs("aieng-7.2.4-ball-mle")
    check(net.probability({"ball": "white"}), est)
    check(net.log_likelihood(rows), loglik)


# han-2.1-dice-coin-frequencies: seed 003, Han/Kamber notes Sect. 2.1 (six dice-and-coin trials)
def test_han_dice_coin_frequencies():
    c = case("han-2.1-dice-coin-frequencies")
    df = textbook_frame(c["inputs"]["data"])
    faces, sides = list(range(1, 7)), ["H", "T"]
    rows = pd.DataFrame({"dice": df["dice"].astype(int), "coin": df["coin"].astype(str)})
    net = _mle_network([("dice", "coin")], ["dice", "coin"], rows, {"dice": faces, "coin": sides})

    def p(dice, coin=None):
        return sum(net.probability({"dice": dice, "coin": s}) for s in ([coin] if coin else sides))

    for out in outputs("han-2.1-dice-coin-frequencies"):
        event = out["quantity"]["event"]
        if event == "dice == 3":
            got = p(3)
        elif event == "dice in {1, 2}":
            got = p(1) + p(2)
        else:
            assert event == "dice == 1 and coin == T"
            got = p(1, "T")
        check(got, out)


# han-2.1-drug-test-conditional: seed 003, Han/Kamber notes Sect. 2.1 (drug test by sex)
def test_han_drug_test_conditional():
    counts = case("han-2.1-drug-test-conditional")["inputs"]["counts"]
    cells = [(r, sex) for r in ("success", "failure") for sex in ("women", "men")]
    rows = pd.DataFrame(cells, columns=["outcome", "sex"])
    weights = [counts[r][sex] for r, sex in cells]
    states = {"outcome": ["success", "failure"], "sex": ["women", "men"]}
    net = _mle_network([("outcome", "sex")], ["outcome", "sex"], rows, states, weights)
    joint = {(r, sex): net.probability({"outcome": r, "sex": sex}) for r, sex in cells}
    sex_given_outcome = net.cpd("sex").to_frame()  # rows: outcome; columns: sex
    values = {
        ("woman", None): joint["success", "women"] + joint["failure", "women"],
        ("fail", None): joint["failure", "women"] + joint["failure", "men"],
        ("woman and fail", None): joint["failure", "women"],
        ("woman", "fail"): sex_given_outcome.loc["failure", "women"],  # P(woman | fail)
    }
    for out in outputs("han-2.1-drug-test-conditional"):
        q = out["quantity"]
        check(values[(q["event"], q.get("given"))], out)


def test_han_liver_cancer_bayes_theorem():
    # Han 6.3 Sect. 2.2: P(C1 | A) = P(A | C1) P(C1) / P(A). Through the library: a naive Bayes
    # fitted on four weighted rows whose frequencies are the example's probabilities
    # (P(A | C2) = (P(A) - P(A | C1) P(C1)) / P(C2)), counted, estimated by MLE and normalised
    # in log space, answers the query "alcoholic".
    inp = case("han-2.2-liver-cancer")["inputs"]
    (out,) = outputs("han-2.2-liver-cancer")
    p_c1, p_a, p_a_c1 = inp["P(C1)"], inp["P(A)"], inp["P(A|C1)"]
    p_a_c2 = (p_a - p_a_c1 * p_c1) / inp["P(C2)"]
    X = pd.DataFrame({"alcoholic": ["yes", "no", "yes", "no"]})
    y = ["C1", "C1", "C2", "C2"]
    w = [p_a_c1 * p_c1, (1 - p_a_c1) * p_c1, p_a_c2 * inp["P(C2)"], (1 - p_a_c2) * inp["P(C2)"]]
    model = NaiveBayes(alpha=0.0, prior_alpha=0.0).fit(X, y, sample_weight=w)
    got = model.predict_proba(pd.DataFrame({"alcoholic": ["yes"]}))[0, _class(model, "C1")]
    check(got, out)


# --- AI Engineering 7.3.1: Gaussian naive Bayes on scikit-learn's Iris vs GaussianNB ----------
def test_aieng_iris_gaussian_nb_matches_sklearn():
    from sklearn.datasets import load_iris
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB

    c = case("aieng-7.3.1-iris-gaussian-nb-vs-sklearn")
    split = c["method"]["split"]
    X, y = load_iris(return_X_y=True)
    X_tr, X_te, y_tr, y_te = train_test_split(
        X, y, test_size=split["test_size"], random_state=split["random_state"]
    )
    ours = NaiveBayes(**TEXTBOOK, var_smoothing=1e-9).fit(X_tr, y_tr)  # GaussianNB's settings
    theirs = GaussianNB().fit(X_tr, y_tr)
    pred = ours.predict(X_te)
    acc = float(np.mean(pred == y_te))
    # the seed's hand-written model used equal priors, ddof=0, no variance floor
    hand = NaiveBayes(**TEXTBOOK, priors=[1 / 3] * 3, var_smoothing=0.0).fit(X_tr, y_tr)
    hand = hand.predict(X_te)
    np.testing.assert_allclose(ours.predict_proba(X_te), theirs.predict_proba(X_te), atol=1e-9)
    got = {
        ("accuracy", "hand_written"): float(np.mean(hand == y_te)),
        ("accuracy", "sklearn"): float(np.mean(theirs.predict(X_te) == y_te)),
        ("accuracy", "corrected"): acc,
        ("count", "training rows"): len(y_tr),
        ("count", "test rows"): len(y_te),
        ("count", "test class counts"): np.bincount(y_te).tolist(),
        ("indices", "positions in y_test predicted wrongly"): np.flatnonzero(pred != y_te).tolist(),
    }
    for out in outputs("aieng-7.3.1-iris-gaussian-nb-vs-sklearn"):
        q = out["quantity"]
        check(got[(q["kind"], q.get("model", q.get("what")))], out)


# --- Zhou 7.4, eqs. (7.24)-(7.25): AODE's Laplace-corrected estimates from the count tables ---
# (the estimators AODE will use; the model itself comes with the semi-naive classifiers)
def test_zhou_aode_estimates_from_count_tables():
    from bayeskit.data import Schema
    from bayeskit.stats import count_table

    c = case("zhou-7.4-aode-estimates")
    X, y, cats = _model_frame(c)
    schema = Schema.infer(X[cats])
    codes = schema.encode(X[cats]).codes.astype(np.intp)
    classes = np.unique(y)
    y_idx = np.searchsorted(classes, y)
    names = schema.names
    sound, umb = names.index("sound"), names.index("umbilicus")
    k_sound = schema.column("sound").n_states
    k_umb = schema.column("umbilicus").n_states
    true = int(np.flatnonzero(classes == "true")[0])
    muffled = schema.column("sound").categories.index("muffled")
    hollow = schema.column("umbilicus").categories.index("hollow")
    joint_prior, conditional = outputs("zhou-7.4-aode-estimates")
    # eq. 7.24: P(c, x_i) = (|D_c,x_i| + 1) / (|D| + N N_i): Lidstone over the (class, value) cells
    pair = count_table(y_idx, np.zeros(len(y_idx), np.intp), codes[:, sound], 2, 1, k_sound)
    log_joint = lidstone(pair.reshape(-1), 1.0).reshape(2, k_sound)
    check(np.exp(log_joint[true, muffled]), joint_prior)
    # eq. 7.25: P(x_j | c, x_i) = (|D_c,x_i,x_j| + 1) / (|D_c,x_i| + N_j): parent = sound
    table = count_table(y_idx, codes[:, sound], codes[:, umb], 2, k_sound, k_umb)
    check(np.exp(lidstone(table, 1.0)[true, muffled, hollow]), conditional)
