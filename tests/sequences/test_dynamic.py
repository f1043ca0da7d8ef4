"""Dynamic Bayesian networks: textbook figures, and an HMM as the special case."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bayeskit.graphs import DAG
from bayeskit.networks import BayesianNetwork
from bayeskit.sequences import DynamicBayesianNetwork, example_dbn, example_hmm


def test_umbrella_world_figures():
    """Russell and Norvig, 15.2: filtering 0.818, 0.883; smoothing day 1 given two days 0.883;
    the most likely sequence of Fig. 15.5."""
    dbn = example_dbn("umbrella")
    two = pd.DataFrame({"umbrella": ["yes", "yes"]})
    # the book prints 0.818, 0.883 and 0.883; exact: 9/11, 0.5645/0.6391 and 0.5645/0.6391
    filtered, smoothed = dbn.filter(two)["rain"]["yes"], dbn.smooth(two)["rain"]["yes"]
    np.testing.assert_allclose(filtered, [9 / 11, 0.8833570], atol=1e-7)
    np.testing.assert_allclose(smoothed, [0.8833570, 0.8833570], atol=1e-7)
    five = pd.DataFrame({"umbrella": ["yes", "yes", "no", "yes", "yes"]})
    path, _ = dbn.most_probable_sequence(five)
    assert path["rain"].tolist() == ["yes", "yes", "no", "yes", "yes"]


def test_an_hmm_is_the_special_case():
    """Posteriors, filtering, log-likelihood and Viterbi path of the DBN built from a
    categorical HMM equal the HMM's own forward-backward and Viterbi."""
    hmm = example_hmm("casino", random_state=3)
    rolls, _ = hmm.sample(60)
    dbn = DynamicBayesianNetwork.from_hmm(hmm)
    seen = pd.DataFrame({"symbol": [str(v) for v in rolls[:, 0]]})
    smooth = dbn.smooth(seen)["state"].to_numpy()
    np.testing.assert_allclose(smooth, hmm.predict_proba(rolls), atol=1e-12)
    assert dbn.log_likelihood(seen) == pytest.approx(hmm.score(rolls), rel=1e-12)
    path, log_p = dbn.most_probable_sequence(seen)
    vit_log_p, vit_path = hmm.decode(rolls)
    assert path["state"].astype(int).tolist() == vit_path.tolist()
    assert log_p == pytest.approx(vit_log_p, rel=1e-10)
    # filtering at step k = the smoothed posterior of a sequence cut after k
    filtered = dbn.filter(seen.iloc[:8])["state"].to_numpy()
    for k in (0, 3, 7):
        np.testing.assert_allclose(filtered[k], hmm.predict_proba(rolls[: k + 1])[-1], atol=1e-12)


def test_missing_observations_are_summed_out():
    dbn = example_dbn("umbrella")
    gap = pd.DataFrame({"umbrella": ["yes", None, "yes"]})
    post = dbn.smooth(gap)
    assert list(post["umbrella"].index) == [1]  # the unobserved umbrella gets a posterior
    both = dbn.log_likelihood(gap)
    assert np.isfinite(both)
    assert both > dbn.log_likelihood(pd.DataFrame({"umbrella": ["yes"] * 3}))


def test_bad_networks_and_observations_are_refused():
    yn = ["yes", "no"]

    def net(edges, cpts):
        return BayesianNetwork(DAG(edges=edges), cpts, states=dict.fromkeys(cpts, yn))

    with pytest.raises(ValueError, match="ends with neither slice suffix"):
        DynamicBayesianNetwork(net([("a0", "b")], {"a0": [0.5, 0.5], "b": [[1, 0], [0, 1]]}))
    with pytest.raises(ValueError, match="must have a node in both slices"):
        DynamicBayesianNetwork(net([("a0", "at"), ("a0", "b0")],
            {"a0": [0.5, 0.5], "at": [[1, 0], [0, 1]], "b0": [[1, 0], [0, 1]]}))  # fmt: skip
    with pytest.raises(ValueError, match="has a parent 'at' in the step"):
        DynamicBayesianNetwork(net([("at", "a0")], {"at": [0.5, 0.5], "a0": [[1, 0], [0, 1]]}))
    dbn = example_dbn("umbrella")
    with pytest.raises(ValueError, match="column 'snow' is no variable"):
        dbn.smooth(pd.DataFrame({"snow": ["yes"]}))
    with pytest.raises(ValueError, match="no step"):
        dbn.smooth(pd.DataFrame({"umbrella": []}))
    with pytest.raises(ValueError, match="n_steps must be a positive integer"):
        dbn.unroll(0)


def sampled_long_frame(dbn, n_seq, length):
    unrolled = dbn.unroll(length)
    rows = []
    for k in range(n_seq):
        one = unrolled.sample(1, seed=k)
        for t in range(length):
            rows.append({"seq": k, **{v: one[f"{v}@{t}"].iloc[0] for v in dbn.nodes}})
    return pd.DataFrame(rows)


def test_fit_dbn_counts_first_steps_and_transitions():
    from bayeskit.sequences import fit_dbn

    truth = example_dbn("umbrella")
    data = sampled_long_frame(truth, 30, 20)
    learned = fit_dbn(truth.network.dag, data, sequence_column="seq", states={
        "rain": ["yes", "no"], "umbrella": ["yes", "no"]})  # fmt: skip
    # transitions: a crosstab of consecutive rain values within each sequence
    prev = data.groupby("seq")["rain"].shift()
    table = pd.crosstab(prev[prev.notna()], data["rain"][prev.notna()], normalize="index")
    expected = table.loc[["yes", "no"], ["yes", "no"]].to_numpy()
    np.testing.assert_allclose(learned.network.cpt("raint"), expected, rtol=1e-12)
    firsts = data.groupby("seq")["rain"].first().value_counts(normalize=True)
    np.testing.assert_allclose(learned.network.cpt("rain0"), firsts[["yes", "no"]], rtol=1e-12)
    # the step's emission: the (rain, umbrella) pairs of every step after the first
    np.testing.assert_allclose(
        learned.network.cpt("umbrellat"),
        pd.crosstab(data["rain"][prev.notna()], data["umbrella"][prev.notna()],
                    normalize="index").loc[["yes", "no"], ["yes", "no"]].to_numpy(),
        rtol=1e-12,
    )  # fmt: skip


def test_fit_dbn_refuses_missing_values_and_unknown_variables():
    from bayeskit.sequences import fit_dbn

    truth = example_dbn("umbrella")
    data = sampled_long_frame(truth, 3, 5)
    with pytest.raises(ValueError, match="latent variable 'rain' has a column"):
        fit_dbn(truth.network.dag, data, sequence_column="seq", latent={"rain": 2})
    with pytest.raises(ValueError, match="variable 'rain' of the structure has no column"):
        fit_dbn(truth.network.dag, data.drop(columns="rain"), sequence_column="seq")
    with pytest.raises(ValueError, match="every sequence has a single step"):
        fit_dbn(truth.network.dag, data.groupby("seq").head(1), sequence_column="seq")


def test_fit_dbn_by_em_with_a_hidden_variable():
    """Rain hidden: EM's log-likelihood never decreases, and it ends above the true tables'
    (the maximum-likelihood estimate fits the sample best; with a binary umbrella the
    parameters themselves are only weakly identified from 1,800 days)."""
    from bayeskit.sequences import fit_dbn

    truth = example_dbn("umbrella")
    data = sampled_long_frame(truth, 60, 30).drop(columns="rain")
    learned = fit_dbn(truth.network.dag, data, sequence_column="seq", latent={"rain": 2},
                      max_iter=200, tol=1e-8, random_state=0)  # fmt: skip
    history = np.asarray(learned.history_)
    assert np.all(np.diff(history) >= -1e-9 * np.abs(history[:-1]))
    umbrella = learned.network.cpt("umbrellat")  # rows: rain "0", "1"; columns: no, yes
    assert abs(umbrella[0, 1] - umbrella[1, 1]) > 0.3  # the two states are told apart
    # maximum likelihood: the learned tables explain the data at least as well as the truth
    sequences = [g.drop(columns="seq").reset_index(drop=True) for _, g in data.groupby("seq")]
    truth_ll = sum(truth.log_likelihood(g) for g in sequences)
    learned_ll = sum(learned.log_likelihood(g) for g in sequences)
    assert learned_ll >= truth_ll
    assert learned_ll >= history[-1] - 1e-9  # one M-step past the last E-step: no lower


def test_fit_dbn_by_em_with_missing_values_only():
    from bayeskit.sequences import fit_dbn

    truth = example_dbn("umbrella")
    data = sampled_long_frame(truth, 20, 15)
    holes = data.copy()
    holes.loc[holes.index % 4 == 1, "rain"] = None
    learned = fit_dbn(truth.network.dag, holes, sequence_column="seq", max_iter=50,
                      random_state=0)  # fmt: skip
    history = np.asarray(learned.history_)
    assert np.all(np.diff(history) >= -1e-9 * np.abs(history[:-1]))
    complete = fit_dbn(truth.network.dag, data, sequence_column="seq")
    np.testing.assert_allclose(learned.network.cpt("umbrellat"),
                               complete.network.cpt("umbrellat"), atol=0.08)  # fmt: skip


def test_one_em_step_equals_the_hmm_expected_counts():
    """From the same parameters, one EM step on an HMM-shaped network re-estimates the
    transitions from Baum-Welch's expected transitions and each slice's emission from the
    posteriors of its own steps."""
    from bayeskit.sequences import expected_statistics, fit_dbn, sequence_offsets

    hmm = example_hmm("casino", random_state=5)
    hmm.startprob_ = np.array([0.6, 0.4])  # not a fixed point of the chain
    lengths = [40, 25, 60]
    rolls = np.concatenate([hmm.sample(n, random_state=k)[0] for k, n in enumerate(lengths)])
    start = DynamicBayesianNetwork.from_hmm(hmm)
    data = pd.DataFrame({"seq": np.repeat(np.arange(3), lengths),
                         "symbol": [str(v) for v in rolls[:, 0]]})  # fmt: skip
    faces = {"symbol": [str(k) for k in range(6)]}
    step = fit_dbn(start.network.dag, data, sequence_column="seq", latent={"state": 2},
                   start=start, max_iter=1, states=faces)  # fmt: skip
    emission = hmm.emission_distribution()
    params = {k: getattr(hmm, k) for k in ("startprob_", "transmat_", "emissionprob_")}
    offsets = sequence_offsets(lengths, len(rolls))
    stats, _ = expected_statistics(emission, params, emission.check(rolls), offsets)
    trans = stats["trans"] / stats["trans"].sum(axis=1, keepdims=True)
    np.testing.assert_allclose(step.network.cpt("statet"), trans, rtol=1e-10)
    np.testing.assert_allclose(step.network.cpt("state0"), stats["start"] / 3, rtol=1e-10)
    post = hmm.predict_proba(rolls, lengths)
    later = np.ones(len(rolls), bool)
    later[offsets[:-1]] = False
    counts = np.stack([np.bincount(rolls[later, 0], post[later, j], 6) for j in range(2)])
    np.testing.assert_allclose(step.network.cpt("symbolt"),
                               counts / counts.sum(axis=1, keepdims=True), rtol=1e-10)  # fmt: skip


def test_frontier_passes_equal_the_junction_tree(monkeypatch):
    """Two hidden chains and an observed child of both, with gaps in the evidence: the linear
    forward (and backward) passes over a slice's joint state give the junction tree's
    filtered (and smoothed) posteriors."""
    from bayeskit.sequences import dynamic

    yn = ["yes", "no"]
    dag = DAG(edges=[("a0", "at"), ("b0", "bt"), ("a0", "bt"), ("a0", "o0"), ("b0", "o0"),
                     ("at", "ot"), ("bt", "ot"), ("at", "bt")])  # fmt: skip
    rng = np.random.default_rng(2)

    def table(*shape):
        return rng.dirichlet(np.ones(shape[-1]), size=shape[:-1])

    cpts = {"a0": table(2), "b0": table(2), "o0": table(2, 2, 3), "at": table(2, 2),
            "bt": table(2, 2, 2, 2), "ot": table(2, 2, 3)}  # fmt: skip
    states = {**dict.fromkeys(["a0", "at", "b0", "bt"], yn),
              "o0": ["x", "y", "z"], "ot": ["x", "y", "z"]}  # fmt: skip
    dbn = DynamicBayesianNetwork(BayesianNetwork(dag, cpts, states=states))
    seen = pd.DataFrame({"o": ["x", None, "z", "y", "y", None, "x", "z"],
                         "a": [None, None, "yes", None, None, None, None, "no"]})  # fmt: skip
    forward, smoothed = dbn.filter(seen), dbn.smooth(seen)
    path, log_p = dbn.most_probable_sequence(seen)
    log_lik = dbn.log_likelihood(seen)
    monkeypatch.setattr(dynamic, "FORWARD_MAX_CELLS", 0)
    calibrated, tree = dbn.filter(seen), dbn.smooth(seen)
    assert sorted(forward) == sorted(calibrated) == sorted(smoothed) == ["a", "b", "o"]
    for name in forward:
        pd.testing.assert_frame_equal(forward[name], calibrated[name], rtol=1e-12, atol=1e-14)
        pd.testing.assert_frame_equal(smoothed[name], tree[name], rtol=1e-12, atol=1e-14)
    # the unrolled network's exact MAP assignment and evidence probability
    unrolled_path, unrolled_log_p = dbn.most_probable_sequence(seen)
    pd.testing.assert_frame_equal(path, unrolled_path)
    assert log_p == pytest.approx(unrolled_log_p, rel=1e-12)
    assert log_lik == pytest.approx(dbn.log_likelihood(seen), rel=1e-12)


def test_impossible_observations_and_unknown_states_are_refused():
    yn = ["yes", "no"]
    dag = DAG(edges=[("rain0", "umbrella0"), ("rain0", "raint"), ("raint", "umbrellat")])
    sure = [[1.0, 0.0], [0.0, 1.0]]  # rain persists; the umbrella shows it
    names = ["rain0", "umbrella0", "raint", "umbrellat"]
    cpts = {"rain0": [0.5, 0.5], "umbrella0": sure, "raint": sure, "umbrellat": sure}
    net = BayesianNetwork(dag, cpts, states=dict.fromkeys(names, yn))
    dbn = DynamicBayesianNetwork(net)
    clash = pd.DataFrame({"umbrella": ["yes", "no"]})
    for ask in (dbn.smooth, dbn.filter, dbn.most_probable_sequence):
        with pytest.raises(ValueError, match="probability 0"):
            ask(clash)
    assert dbn.log_likelihood(clash) == -np.inf
    with pytest.raises(ValueError, match="'maybe' is no state of 'umbrella'"):
        example_dbn("umbrella").smooth(pd.DataFrame({"umbrella": ["yes", "maybe"]}))


def test_the_log_space_filter_equals_the_compiled_one():
    from bayeskit.sequences import _kernels, _slices

    rng = np.random.default_rng(3)
    start, trans = rng.dirichlet(np.ones(5)), rng.dirichlet(np.ones(5), size=5)
    frame = np.log(rng.random((40, 5)))
    frame[rng.random(frame.shape) < 0.3] = -np.inf
    frame[:, 0] = np.log(0.5)  # every step possible
    fast, slow = np.empty_like(frame), np.empty_like(frame)
    value = _kernels.forward_rows(start, trans, frame, fast)
    with np.errstate(divide="ignore"):
        again = _slices._log_forward(np.log(start), np.log(trans), frame, slow)
    np.testing.assert_allclose(fast, slow, rtol=1e-10, atol=1e-14)
    assert value == pytest.approx(again, rel=1e-12)
