"""The ensemble's cut points on the suite's 26 data sets: SelectiveKDBEnsemble whose members
each bin the numeric columns on their own weighted rows (``cut_points="per-member"``, the
default) against one binning shared by all members (``cut_points="shared"``), with
SelectiveKDB and scikit-learn's random forest and histogram gradient boosting in the same run.

Folds, scoring and the peers' settings as bench_discriminative_suite.py (stratified 10-fold,
the saved folds of bench_defaults.py; log-loss of probabilities clipped at 1e-15). Every fit is
seeded, so the figures do not depend on the machine's load. Run::

    .venv/bin/python benchmarks/bench_ensemble_bins.py --data SUITE --write yes
"""

from __future__ import annotations

from bench_defaults import bayeskit_fitter
from bench_discriminative_suite import run_suite
from bench_semi_naive_suite import gradient_boosting, random_forest

from bayeskit.classifiers import SelectiveKDB, SelectiveKDBEnsemble

TITLE = "The ensemble's cut points on 26 data sets: per member against shared"


def contenders(ensemble: bool) -> dict:
    c = {"SelectiveKDB": bayeskit_fitter(SelectiveKDB)}
    if ensemble:
        c["SelectiveKDBEnsemble cut_points=shared"] = bayeskit_fitter(
            lambda: SelectiveKDBEnsemble(cut_points="shared")
        )
        c["SelectiveKDBEnsemble (default: per-member)"] = bayeskit_fitter(SelectiveKDBEnsemble)
    c["sklearn RandomForest"] = lambda a, b, x, k: random_forest(a, b, x, k, 0)
    c["sklearn HistGradientBoosting"] = lambda a, b, x, k: gradient_boosting(a, b, x, k, 0)
    return c


if __name__ == "__main__":
    run_suite(None, __doc__, TITLE, contenders)
