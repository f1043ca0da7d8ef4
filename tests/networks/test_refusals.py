"""Settings the network API refuses, and inputs it reports clearly: every numeric setting of
the scores, the searches, structural EM, EM and the samplers is checked (finite, in range, an
integer where it must be, a bool is no number) by the one check of bayeskit.data.validation,
with a message naming the setting and the rule; every seed= by one check; data with no
columns, repeated columns or chunks that are not DataFrames refused by name."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from bayeskit.data.validation import check_count, check_real, check_seed
from bayeskit.inference.sampling import likelihood_weighting, rejection_sampling
from bayeskit.learning.scores import family_score, score
from bayeskit.networks import (
    DAG,
    BayesianNetwork,
    GibbsSampler,
    fit_em,
    fit_parameters,
    learn_structure,
    learn_tree,
    structural_em,
)


@pytest.fixture(scope="module")
def data() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    a = rng.integers(0, 2, 300)
    b = np.where(rng.random(300) < 0.8, a, 1 - a)
    return pd.DataFrame({"a": a, "b": b, "c": rng.integers(0, 3, 300)})


@pytest.fixture(scope="module")
def net(data) -> BayesianNetwork:
    return BayesianNetwork.learn(data)


BAD_REALS = [
    (float("inf"), "inf"),
    (float("nan"), "nan"),
    (-1.0, "-1.0"),
    (0, "0"),
    (True, "True"),
    ("1", "'1'"),
    (None, "None"),
]


@pytest.mark.parametrize(("value", "text"), BAD_REALS)
@pytest.mark.parametrize(
    "call",
    [
        lambda d, v: learn_structure(d, "bdeu", ess=v),
        lambda d, v: learn_tree(d, "bdeu", ess=v),
        lambda d, v: score([("a", "b")], d, "bdeu", ess=v),
        lambda d, v: structural_em(d, ess=v),
        lambda d, v: BayesianNetwork.learn(d, score="bdeu", ess=v),
        lambda d, v: learn_structure(d.iloc[:0], "bdeu", ess=v),  # before any data is read
    ],
    ids=["learn_structure", "learn_tree", "score", "structural_em", "learn", "no-rows"],
)
def test_ess_must_be_a_finite_positive_number(data, call, value, text):
    with pytest.raises(
        ValueError, match=rf"ess must be a finite number > 0, got {re.escape(text)}$"
    ):
        call(data, value)


def test_infinite_ess_no_longer_gives_nan_scores(data):
    # the reviewer's case: ess=inf gave NaN scores and an empty DAG, silently
    with pytest.raises(ValueError, match="ess must be a finite number > 0, got inf"):
        learn_structure(data, "bdeu", ess=math.inf)
    with pytest.raises(ValueError, match="ess must be a finite number > 0"):
        family_score(np.ones((2, 2)), "bdeu", n_rows=4, ess=math.inf)


@pytest.mark.parametrize(
    ("setting", "value", "rule"),
    [
        ("tabu_length", -1, "a non-negative integer"),
        ("tabu_length", 2.5, "a non-negative integer"),
        ("tabu_length", True, "a non-negative integer"),
        ("restarts", -3, "a non-negative integer"),
        ("restarts", 1.0, "a non-negative integer"),
        ("perturb", "5", "a non-negative integer"),
        ("perturb", None, "a non-negative integer"),
        ("max_iter", 0, "an integer >= 1"),
        ("max_iter", math.inf, "an integer >= 1"),
        ("max_iter", False, "an integer >= 1"),
        ("max_parents", -1, "a non-negative integer or None"),
        ("max_parents", 1.5, "a non-negative integer or None"),
        ("max_parents", True, "a non-negative integer or None"),
        ("max_distinct_rows", -1, "a non-negative integer or None"),
        ("max_distinct_rows", 1e6, "a non-negative integer or None"),
    ],
)
def test_search_counts_are_checked_by_name(data, setting, value, rule):
    with pytest.raises(ValueError, match=rf"^{setting} must be {rule}, got "):
        learn_structure(data, **{setting: value})


@pytest.mark.parametrize("seed", ["abc", 1.5, -1, True, [1, "x"], {"seed": 1}])
@pytest.mark.parametrize(
    "call",
    [
        lambda d, n, s: learn_structure(d, restarts=1, seed=s),
        lambda d, n, s: structural_em(d, seed=s),
        lambda d, n, s: fit_em([("a", "b")], d, seed=s),
        lambda d, n, s: n.sample(5, seed=s),
        lambda d, n, s: likelihood_weighting(n, ["a"], n_samples=10, seed=s),
        lambda d, n, s: rejection_sampling(n, ["a"], n_samples=10, seed=s),
        lambda d, n, s: GibbsSampler(n).query("a", n_draws=5, burn_in=0, seed=s),
    ],
    ids=["learn_structure", "structural_em", "fit_em", "sample", "lw", "rejection", "gibbs"],
)
def test_every_seed_is_checked_by_one_rule(data, net, call, seed):
    with pytest.raises(
        ValueError, match=r"^seed must be None, an integer >= 0 or a numpy Generator"
    ):
        call(data, net, seed)


@pytest.mark.parametrize(
    "seed",
    [None, 0, 7, np.int64(3), np.random.default_rng(1), np.random.PCG64(2),
     np.random.SeedSequence(4)],
)  # fmt: skip
def test_good_seeds_are_taken(net, seed):
    assert len(net.sample(4, seed=seed)) == 4


def test_same_seed_same_draws(net):
    assert net.sample(50, seed=3).equals(net.sample(50, seed=3))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda d, n: structural_em(d, em_tol=math.nan), "em_tol must be a finite number >= 0"),
        (lambda d, n: structural_em(d, em_tol=True), "em_tol must be a finite number >= 0"),
        (lambda d, n: structural_em(d, alpha=math.inf), "alpha must be a finite number >= 0"),
        (lambda d, n: fit_em([("a", "b")], d, tol=True), "tol must be a finite number >= 0"),
        (lambda d, n: fit_em([("a", "b")], d, tol=-1e-3), "tol must be a finite number >= 0"),
        (lambda d, n: fit_em([("a", "b")], d, max_iter=0), "max_iter must be an integer >= 1"),
        (lambda d, n: fit_em([("a", "b")], d, restarts=1.0), "restarts must be a non-negative"),
        (
            lambda d, n: likelihood_weighting(n, ["a"], n_samples=0),
            "n_samples must be an integer >= 1",
        ),  # fmt: skip
        (
            lambda d, n: rejection_sampling(n, ["a"], n_samples=True),
            "n_samples must be an integer >= 1",
        ),  # fmt: skip
        (lambda d, n: GibbsSampler(n).query("a", thin=0), "thin must be an integer >= 1"),
        (lambda d, n: GibbsSampler(n).query("a", burn_in=-1), "burn_in must be a non-negative"),
        (
            lambda d, n: family_score(np.ones((2, 2)), "bic", n_rows=math.nan),
            "n_rows must be a finite number >= 0",
        ),  # fmt: skip
    ],
)
def test_em_and_sampler_settings_are_checked_by_name(data, net, call, message):
    with pytest.raises(ValueError, match=message):
        call(data, net)


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        (pd.DataFrame(index=range(5)), "data has no columns"),
        (
            pd.DataFrame([[0, 1, 0]] * 4, columns=["a", "b", "a"]),
            r"data has 1 column name\(s\) more than once \(\['a'\]\)",
        ),  # fmt: skip
        (
            pd.DataFrame([[0, 1, 0, 1]] * 4, columns=["a", "b", "b", "a"]),
            r"more than once \(\['a', 'b'\]\)",
        ),  # fmt: skip
    ],
)
@pytest.mark.parametrize(
    "call",
    [
        learn_structure,
        learn_tree,
        BayesianNetwork.learn,
        lambda d: learn_structure([d, d]),  # in chunks
    ],
    ids=["learn_structure", "learn_tree", "learn", "chunks"],
)
def test_no_columns_or_repeated_columns_are_refused(frame, message, call):
    with pytest.raises(ValueError, match=message):
        call(frame)


def test_repeated_node_column_is_refused_when_fitting(data):
    twice = pd.concat([data, data["a"]], axis=1)
    with pytest.raises(ValueError, match=r"column name\(s\) more than once \(\['a'\]\)"):
        fit_parameters(DAG(edges=[("a", "b")]), twice)


@pytest.mark.parametrize("chunk", [{"a": [0, 1]}, [0, 1], np.zeros((2, 2)), "a,b"])
@pytest.mark.parametrize(
    "call",
    [
        lambda c: fit_parameters([("a", "b")], c),
        lambda c: learn_structure(c),
        lambda c: BayesianNetwork.learn(c),
    ],
    ids=["fit_parameters", "learn_structure", "learn"],
)
def test_a_chunk_that_is_no_dataframe_is_refused_by_position(data, chunk, call):
    with pytest.raises(TypeError, match=r"chunk 1 is a \w+, not a DataFrame: data in chunks"):
        call([data, chunk])


@pytest.mark.parametrize(
    ("check", "args", "message"),
    [
        (check_count, ("k", 1.0), "k must be a non-negative integer, got 1.0"),
        (check_count, ("k", np.int64(0)), None),
        (check_real, ("x", np.float32(1.5)), None),
        (check_real, ("x", np.bool_(True)), "x must be a finite number, got True"),
        (
            check_real,
            (
                "x",
                2,
            ),
            None,
        ),
        (check_real, ("x", -math.inf), "x must be a finite number, got -inf"),
    ],
)
def test_shared_checks(check, args, message):
    if message is None:
        check(*args)
    else:
        with pytest.raises(ValueError, match=message):
            check(*args)


def test_check_seed_passes_a_generator_through():
    rng = np.random.default_rng(0)
    assert check_seed(rng) is rng


@pytest.mark.parametrize(
    "other",
    [
        pd.DataFrame({"x": ["u", "v"] * 5}),
        pd.DataFrame({"A": [0, 1] * 5, "B": [1, 0] * 5}),  # the names differ in case only
        pd.DataFrame({"z": [0, 1] * 5, "w": ["p", "q"] * 5, "v": [1, 1] * 5}),
    ],
)
@pytest.mark.parametrize(
    "call",
    [
        lambda n, d: n.fit(d),
        lambda n, d: n.fit(d, method="em"),
        lambda n, d: n.fit(d, method="gradient"),
        lambda n, d: fit_em(n.dag, d, latent={v: n.states(v) for v in n.nodes}),
    ],
    ids=["count", "em", "gradient", "fit_em"],
)
def test_data_that_shares_no_column_with_the_network_is_refused(net, other, call):
    # it fitted every node as latent, from nothing, and said nothing
    with pytest.raises(ValueError, match=r"data shares no column with the (network|DAG)") as info:
        call(net, other)
    text = str(info.value)
    assert "['a', 'b', 'c']" in text  # the nodes
    assert str(list(other.columns)) in text  # and data's columns


class _Unread(list):
    """Chunks that fail the test when read: a setting must be refused before any pass."""

    def __iter__(self):
        yield from ()
        raise AssertionError("the chunks were read before the settings were checked")


@pytest.mark.parametrize(
    ("structure", "options", "error", "message"),
    [
        ("hill-climb", {"ess": math.inf}, ValueError, "ess must be a finite number > 0"),
        ("hill-climb", {"tabu_length": -1}, ValueError, "tabu_length must be a non-negative"),
        ("hill-climb", {"seed": "abc"}, ValueError, "seed must be None, an integer >= 0"),
        ("hill-climb", {"max_iter": 0}, ValueError, "max_iter must be an integer >= 1"),
        ("hill-climb", {"root": "a"}, TypeError, "hill_climb takes no option 'root'"),
        ("tree", {"ess": -1}, ValueError, "ess must be a finite number > 0"),
        ("tree", {"tabu_length": 3}, TypeError, "learn_tree takes no option 'tabu_length'"),
        ("tree", {"max_distinct_rows": 1.5}, ValueError, "max_distinct_rows must be a non-neg"),
    ],
)
def test_learn_in_chunks_checks_its_settings_before_reading(structure, options, error,
                                                            message):  # fmt: skip
    with pytest.raises(error, match=message):
        BayesianNetwork.learn(_Unread([pd.DataFrame({"a": [0, 1]})]), structure, score="bdeu",
                              **options)  # fmt: skip


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"ess": math.nan}, ValueError, "ess must be a finite number > 0, got nan"),
        ({"perturb": -1}, ValueError, "perturb must be a non-negative integer"),
        ({"seed": 1.5}, ValueError, "seed must be None, an integer >= 0"),
        ({"tabu": 3}, TypeError, "hill_climb takes no option 'tabu'"),
    ],
)
def test_dask_learning_checks_its_settings(data, options, error, message):
    dd = pytest.importorskip("dask.dataframe")
    from bayeskit.dask import learn_structure as dask_learn

    with pytest.raises(error, match=message):
        dask_learn(dd.from_pandas(data.astype(str), npartitions=2), **options)


ALPHA_CALLS = [
    lambda d, a: fit_parameters([("a", "b")], d, alpha=a),
    lambda d, a: fit_parameters([("a", "b")], [d, d], alpha=a),
    lambda d, a: fit_em([("a", "b")], d, alpha=a),
    lambda d, a: BayesianNetwork.learn(d, alpha=a),
    lambda d, a: structural_em(d, alpha=a),
]
ALPHA_IDS = ["fit_parameters", "chunks", "fit_em", "learn", "structural_em"]


@pytest.mark.parametrize("alpha", [math.inf, math.nan, -0.5, True, "1", [1.0]])
@pytest.mark.parametrize("call", ALPHA_CALLS, ids=ALPHA_IDS)
def test_alpha_must_be_a_finite_non_negative_number(data, call, alpha):
    with pytest.raises(ValueError, match=r"^alpha must be a finite number >= 0 or None, got "):
        call(data, alpha)


@pytest.mark.parametrize("alpha", [np.float32(0.5), np.int64(2), 0.5, None])
@pytest.mark.parametrize("call", ALPHA_CALLS[:4], ids=ALPHA_IDS[:4])
def test_numpy_numbers_are_numbers(data, call, alpha):
    call(data, alpha)  # np.float32 was refused as no number
