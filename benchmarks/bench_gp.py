"""Gaussian-process classification against scikit-learn's GaussianProcessClassifier.

Synthetic data (``--rows`` training rows, 1,000 test rows, 5 features, two or three classes
from a smooth function of the features plus noise); the kernel ``C(1.0) * RBF(1.0)`` fitted by
L-BFGS-B from the same start, no restarts. Per size and task: fit seconds of each, the ratio
(scikit-learn / bayeskit), each one's log marginal likelihood (for three classes scikit-learn's
is the mean of its one-vs-rest models', a different quantity), and the test log-loss. Then
the bundled iris set by 5-fold cross-validation: log-loss of the softmax Laplace
approximation against scikit-learn's one-vs-rest.

    python benchmarks/bench_gp.py --rows 500 1000 2000 4000
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from _common import load_average, machine_lines, markdown_table, publish, say

TITLE = "Gaussian-process classification against scikit-learn"


def data(n: int, classes: int, seed: int):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n + 1000, 5))
    score = np.column_stack([np.sin(X[:, 0]) + X[:, 1], X[:, 2] * X[:, 3], -X[:, 0] + X[:, 4]])
    score += 0.6 * rng.normal(size=score.shape)
    y = np.argmax(score[:, :classes], axis=1) if classes > 2 else (score[:, 0] > 0).astype(int)
    return X[:n], y[:n], X[n:], y[n:]


def fit(model, X, y):
    t = time.perf_counter()
    model.fit(X, y)
    return model, time.perf_counter() - t


def main(argv: list[str] | None = None) -> None:
    from sklearn.gaussian_process import GaussianProcessClassifier as Scikit
    from sklearn.gaussian_process.kernels import RBF
    from sklearn.gaussian_process.kernels import ConstantKernel as C
    from sklearn.metrics import log_loss
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    from bayeskit.classifiers import GaussianProcessClassifier as Ours
    from bayeskit.data import datasets

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, nargs="*", default=[500, 1000])
    ap.add_argument(
        "--sparse-rows",
        type=int,
        nargs="*",
        default=[],
        help="sizes fitted on --inducing points only (bayeskit), beside the exact",
    )
    ap.add_argument("--inducing", type=int, default=200)
    ap.add_argument("--skip-iris", action="store_true")
    ap.add_argument(
        "--eval-rows",
        type=int,
        nargs="*",
        default=[],
        help="sizes at which one evaluation of the log marginal likelihood and its gradient "
        "is timed, two and three classes (median of 3)",
    )
    ap.add_argument("--write", choices=("yes", "no"), default="yes")
    args = ap.parse_args(argv)
    load_before = load_average()
    rows = []
    for n in args.rows:
        for classes in (2, 3):
            X, y, X_test, y_test = data(n, classes, seed=n)
            ours, t_ours = fit(Ours(C(1.0) * RBF(1.0)), X, y)
            theirs, t_theirs = fit(Scikit(C(1.0) * RBF(1.0)), X, y)
            lml_theirs = theirs.log_marginal_likelihood_value_
            cells = [f"{n:,}", str(classes), f"{t_ours:.2f}", f"{t_theirs:.2f}",
                     f"{t_theirs / t_ours:.2f}x", f"{ours.log_marginal_likelihood_value_:.3f}",
                     f"{lml_theirs:.3f}",
                     f"{log_loss(y_test, ours.predict_proba(X_test)):.4f}",
                     f"{log_loss(y_test, theirs.predict_proba(X_test)):.4f}"]  # fmt: skip
            rows.append(cells)
            say(" | ".join(cells))
    sparse = []
    for n in args.sparse_rows:
        for classes in (2, 3):
            X, y, X_test, y_test = data(n, classes, seed=n)
            model = Ours(C(1.0) * RBF(1.0), inducing_points=args.inducing, random_state=0)
            model, seconds = fit(model, X, y)
            cells = [f"{n:,}", str(classes), f"{args.inducing}", f"{seconds:.2f}",
                     f"{model.log_marginal_likelihood_value_:.3f}",
                     f"{log_loss(y_test, model.predict_proba(X_test)):.4f}"]  # fmt: skip
            sparse.append(cells)
            say(" | ".join(cells))
    evals = []
    for n in args.eval_rows:
        seconds = []
        for classes in (2, 3):
            X, y, _, _ = data(n, classes, seed=n)
            model = Ours(C(1.0) * RBF(1.0), optimizer=None).fit(X, y)
            theta = model.kernel_.theta + 0.1
            model.log_marginal_likelihood(theta, eval_gradient=True, clone_kernel=False)
            runs = []
            for r in range(3):  # warm starts from the previous mode, as in the optimiser
                start = time.perf_counter()
                model.log_marginal_likelihood(theta + 0.01 * (r + 1), eval_gradient=True,
                                              clone_kernel=False)  # fmt: skip
                runs.append(time.perf_counter() - start)
            seconds.append(float(np.median(runs)))
        evals.append([f"{n:,}", f"{seconds[0]:.3f}", f"{seconds[1]:.3f}",
                      f"{seconds[1] / seconds[0]:.2f}x"])  # fmt: skip
        say(" | ".join(evals[-1]))
    iris = []
    if not args.skip_iris:
        X, y = datasets.load("iris")
        X = X.to_numpy(dtype=float)
        cv = StratifiedKFold(5, shuffle=True, random_state=0)
        for name, model in (("bayeskit softmax Laplace", Ours(C(1.0) * RBF(1.0))),
                            ("scikit-learn one-vs-rest", Scikit(C(1.0) * RBF(1.0)))):  # fmt: skip
            p = cross_val_predict(model, X, y, cv=cv, method="predict_proba")
            accuracy = np.mean(np.unique(y)[p.argmax(axis=1)] == y)  # columns: sorted classes
            iris.append([name, f"{log_loss(y, p):.4f}", f"{accuracy:.3f}"])
            say(" | ".join(iris[-1]))
    header = ["rows", "classes", "bayeskit fit (s)", "scikit-learn fit (s)", "ratio",
              "bayeskit log marginal likelihood", "scikit-learn's", "bayeskit test log-loss",
              "scikit-learn test log-loss"]  # fmt: skip
    lines = [
        *machine_lines(("numpy", "scipy", "sklearn")),
        f"- load average before / after: {load_before} / {load_average()}",
        "",
        "Fits of `C(1.0) * RBF(1.0)` by L-BFGS-B from the same start, one run each "
        "(`bench_gp.py`); ratio = scikit-learn's seconds / bayeskit's. Three classes: bayeskit "
        "fits the softmax Laplace approximation (one model, all classes coupled), scikit-learn "
        "one binary model per class, whose mean log marginal likelihood is shown.",
        "",
        markdown_table(header, rows),
    ]
    if sparse:
        lines += [
            "",
            "bayeskit on inducing points (k-means centres, seed 0; the same data, kernel and "
            "search):",
            "",
            markdown_table(
                [
                    "rows",
                    "classes",
                    "inducing points",
                    "fit (s)",
                    "log marginal likelihood (approximate)",
                    "test log-loss",
                ],
                sparse,
            ),  # fmt: skip
        ]
    if evals:
        lines += [
            "",
            "One evaluation of the log marginal likelihood and its gradient (bayeskit, "
            "median of 3, each from the previous evaluation's mode as in the search):",
            "",
            markdown_table(["rows", "two classes (s)", "three classes (s)", "ratio"], evals),
        ]
    if iris:
        lines += [
            "",
            "Iris, 5-fold cross-validated (stratified, shuffled with seed 0):",
            "",
            markdown_table(["model", "log-loss", "accuracy"], iris),
        ]
    publish(TITLE, "\n".join(lines), args.write == "yes")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    main()
