"""Write hmmlearn's GMMHMM answers on fixed models to tests/sequences/data (a JSON file).

The tests compare bayeskit's Gaussian-mixture emission with these figures (log-likelihood and
posteriors of ``score_samples``) without needing hmmlearn. Each case stores its parameters and
observations, so nothing depends on either library's random draws.

    benchmarks/.venv-peers/bin/python benchmarks/hmmlearn_gmm_reference.py
"""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

import numpy as np
from hmmlearn import hmm

OUT = (
    Path(__file__).resolve().parents[1]
    / "tests"
    / "sequences"
    / "data"
    / "hmmlearn_gmm_reference.json"
)


def _stochastic(rng, *shape):
    p = rng.random(shape) + 0.05
    return p / p.sum(axis=-1, keepdims=True)


def case(covariance_type: str, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    n, m, d, lengths = 3, 2, 2, [17, 1, 30]
    start, trans, weights = _stochastic(rng, n), _stochastic(rng, n, n), _stochastic(rng, n, m)
    means = rng.normal(size=(n, m, d)) * 2
    a = rng.normal(size=(n, m, d, d))
    full = a @ a.transpose(0, 1, 3, 2) + 0.5 * np.eye(d)
    covars = {
        "full": full,
        "tied": full[:, 0],
        "diag": np.diagonal(full, axis1=2, axis2=3).copy(),
        "spherical": full[:, :, 0, 0],
    }[covariance_type]
    X = rng.normal(size=(sum(lengths), d)) * 2
    model = hmm.GMMHMM(n, n_mix=m, covariance_type=covariance_type)
    model.startprob_, model.transmat_, model.weights_ = start, trans, weights
    model.means_, model.covars_, model.n_features = means, covars, d
    log_prob, post = model.score_samples(X, lengths)
    return {
        "covariance_type": covariance_type,
        "startprob_": start.tolist(),
        "transmat_": trans.tolist(),
        "params": {
            "weights_": weights.tolist(),
            "means_": means.tolist(),
            "covars_": covars.tolist(),
        },
        "X": X.tolist(),
        "lengths": lengths,
        "log_prob": float(log_prob),
        "posteriors": post.tolist(),
    }


def main() -> None:
    cases = [case(c, 10 + k) for k, c in enumerate(["diag", "full", "spherical", "tied"])]
    OUT.write_text(json.dumps({"hmmlearn": version("hmmlearn"), "cases": cases}) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
