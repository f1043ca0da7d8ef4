"""Write hmmlearn's answers on random models to tests/sequences/data/hmmlearn_reference.json.

The tests compare bayeskit's forward-backward and Viterbi with these figures (log-likelihood,
posteriors, Viterbi path and its log-probability) without needing hmmlearn. Each case stores
its parameters and observations as well, so nothing depends on either library's random draws.

    benchmarks/.venv-peers/bin/python benchmarks/hmmlearn_reference.py
"""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

import numpy as np
from hmmlearn import hmm

OUT = (
    Path(__file__).resolve().parents[1] / "tests" / "sequences" / "data" / "hmmlearn_reference.json"
)


def _stochastic(rng, *shape):
    p = rng.random(shape) + 0.05
    return p / p.sum(axis=-1, keepdims=True)


def case(kind: str, covariance_type: str | None, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    n, d, lengths = 3, 2, [17, 1, 30]
    start, trans = _stochastic(rng, n), _stochastic(rng, n, n)
    if kind == "categorical":
        model = hmm.CategoricalHMM(n, n_features=4)
        params = {"emissionprob_": _stochastic(rng, n, 4)}
        X = rng.integers(0, 4, size=(sum(lengths), 1))
    elif kind == "poisson":
        model = hmm.PoissonHMM(n)
        params = {"lambdas_": rng.gamma(3.0, 1.0, size=(n, d))}
        X = rng.poisson(3.0, size=(sum(lengths), d))
    else:
        model = hmm.GaussianHMM(n, covariance_type=covariance_type)
        means = rng.normal(size=(n, d)) * 2
        a = rng.normal(size=(n, d, d))
        full = a @ a.transpose(0, 2, 1) + 0.5 * np.eye(d)
        covars = {
            "full": full,
            "tied": full[0],
            "diag": np.stack([np.diag(m) for m in full]),
            "spherical": full[:, 0, 0],
        }[covariance_type]
        params = {"means_": means, "covars_": covars}
        X = rng.normal(size=(sum(lengths), d)) * 2
    model.startprob_, model.transmat_ = start, trans
    for name, value in params.items():
        setattr(model, name, value)
    if kind != "categorical":
        model.n_features = X.shape[1]
    log_prob, post = model.score_samples(X, lengths)
    vit_prob, path = model.decode(X, lengths, algorithm="viterbi")
    return {
        "emission": kind,
        "covariance_type": covariance_type,
        "startprob_": start.tolist(),
        "transmat_": trans.tolist(),
        "params": {k: np.asarray(v).tolist() for k, v in params.items()},
        "X": X.tolist(),
        "lengths": lengths,
        "log_prob": float(log_prob),
        "posteriors": post.tolist(),
        "viterbi_log_prob": float(vit_prob),
        "viterbi_path": path.tolist(),
    }


def main() -> None:
    cases = [case("categorical", None, 1), case("poisson", None, 2)]
    cases += [
        case("gaussian", c, 3 + k) for k, c in enumerate(["diag", "full", "spherical", "tied"])
    ]
    OUT.write_text(json.dumps({"hmmlearn": version("hmmlearn"), "cases": cases}, indent=0))
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
