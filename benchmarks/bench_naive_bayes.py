"""Naive Bayes against scikit-learn: categorical (CategoricalNB) and Gaussian (GaussianNB).

Targets (issue 2), on 1,000,000 rows x 50 features, median of 5 runs of fit + predict_proba:

* categorical: ``NaiveBayes(alpha=1, prior_alpha=0)`` (scikit-learn's settings) on a DataFrame
  of pandas categoricals (cardinality 2..10, 2 classes) at least 2x faster than
  ``CategoricalNB(alpha=1)`` on the integer codes; aim 10x;
* Gaussian: ``NaiveBayes(discretize=None, prior_alpha=0)`` (GaussianNB's model) at least as fast
  as ``GaussianNB()`` on the same float64 array;
* peak memory of fit + predict_proba no more than 2x the encoded input (int8 codes: 50 MB;
  float64 values: 400 MB).

The data are drawn with a fixed seed from class-dependent distributions (per-class categorical
distributions that differ a little; per-class Gaussians with different means and spreads), so the
accuracy printed is meaningful. Both libraries are fitted and scored on the same rows.
scikit-learn gets its inputs in the form it works on without a conversion: the codes as int64
(``CategoricalNB`` validates X with ``dtype="int"``, so int8 codes would be copied to int64
first) and the numeric data as a C-ordered float64 array.

numba kernels are compiled (or loaded from the on-disk cache) before any timing, by fits and
predictions on 200 and 20,000 rows (bayeskit runs a kernel single-threaded below a size threshold,
so both builds must be warm). Runs of the two libraries are interleaved. Peak memory is taken
in one further, untimed run per contender (see ``_common.py``).

    cd /work/main && PYTHONPATH=src python benchmarks/bench_naive_bayes.py [--rows N] [--repeats R]

With the default size the section "Naive Bayes vs scikit-learn (issue 2)" of RESULTS.md is
written (replaced if present); with another size only when ``--write yes`` is given.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd
from _common import (
    MB,
    Memory,
    Timing,
    load_average,
    machine_lines,
    markdown_table,
    peak_memory,
    say,
    time_phases,
    time_runs,
    timed_fit_predict,
    write_section,
)
from sklearn.naive_bayes import CategoricalNB, GaussianNB

from bayeskit.classifiers import NaiveBayes
from bayeskit.stats import categorical_counts, gaussian_moments

SECTION = "Naive Bayes vs scikit-learn (issue 2)"
DEFAULT_ROWS = 1_000_000
DEFAULT_FEATURES = 50
SEED = 20240602


# ---------------------------------------------------------------------- data
@dataclass
class CategoricalData:
    frame: pd.DataFrame  # pandas categoricals, string categories "v0".."v{K-1}"
    codes: np.ndarray  # int8, (n, d), C order: the encoded input
    codes_sk: np.ndarray  # int64 copy for scikit-learn
    y: np.ndarray  # int64 labels 0/1
    n_states: np.ndarray  # cardinality of each feature


def make_categorical(n: int, d: int, seed: int = SEED) -> CategoricalData:
    """Two classes (prior 0.6 / 0.4); feature j has K_j in 2..10 states, and each class draws it
    from its own distribution: a shared Dirichlet(2) base tilted per class by exp(0.3 z)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(np.int64)
    n_states = rng.integers(2, 11, size=d)
    codes = np.empty((n, d), dtype=np.int8)
    masks = [y == c for c in (0, 1)]
    for j, k in enumerate(n_states):
        base = rng.dirichlet(np.full(k, 2.0))
        col = np.empty(n, dtype=np.int8)
        for mask in masks:
            p = base * np.exp(0.3 * rng.standard_normal(k))
            cdf = np.cumsum(p / p.sum())
            u = rng.random(int(mask.sum()))
            col[mask] = np.minimum(np.searchsorted(cdf, u, side="right"), k - 1)
        codes[:, j] = col
    frame = pd.DataFrame(
        {
            f"c{j}": pd.Categorical.from_codes(codes[:, j], categories=[f"v{i}" for i in range(k)])
            for j, k in enumerate(n_states)
        }
    )
    return CategoricalData(frame, codes, codes.astype(np.int64), y, n_states)


@dataclass
class GaussianData:
    X: np.ndarray  # float64, (n, d), C order: the encoded input
    y: np.ndarray


def make_gaussian(n: int, d: int, seed: int = SEED) -> GaussianData:
    """Two classes (prior 0.6 / 0.4); feature j is N(mu_cj, sigma_cj^2) with class means about
    0.1 apart and standard deviations in 0.8..1.2."""
    rng = np.random.default_rng(seed + 1)
    y = (rng.random(n) < 0.4).astype(np.int64)
    mu = rng.normal(0.0, 0.1, size=(2, d))
    sigma = rng.uniform(0.8, 1.2, size=(2, d))
    X = rng.standard_normal((n, d))
    X *= sigma[y]
    X += mu[y]
    return GaussianData(X, y)


# ---------------------------------------------------------------------- contenders
def fit_predict(make_model, X, y, out: dict) -> dict[str, float]:
    """One run: fit then predict_proba, each timed; the posterior is left in ``out``."""
    model = make_model()
    out["proba"], fit, predict = timed_fit_predict(model, X, y, X)
    out["classes"] = model.classes_
    return {"fit": fit, "predict_proba": predict}


def warm_up(d: int) -> float:
    """Compile (or load from numba's cache) every kernel the timed runs use: fit + predict_proba
    on data of the same dtypes and width, once small and once large, since bayeskit runs its
    kernels on one thread below a size threshold and on all threads above it (both builds are
    warmed whatever the threshold, up to 20,000 rows' worth). Returns the seconds it took."""
    t0 = time.perf_counter()
    for rows in (200, 20_000):
        small = make_categorical(rows, d, seed=1)
        NaiveBayes(alpha=1, prior_alpha=0).fit(small.frame, small.y).predict_proba(small.frame)
        g = make_gaussian(rows, d, seed=1)
        NaiveBayes(discretize=None, prior_alpha=0).fit(g.X, g.y).predict_proba(g.X)
        frame = pd.DataFrame(g.X, copy=True)
        NaiveBayes(discretize=None, prior_alpha=0).fit(frame, g.y).predict_proba(frame)
    return time.perf_counter() - t0


@dataclass
class Case:
    name: str
    cells: int
    encoded_bytes: int
    timings: dict[str, dict[str, Timing]]
    memory: dict[str, Memory]
    outputs: dict[str, dict]
    y: np.ndarray
    load: tuple[str, str]
    parts: dict[str, Timing]


def run_case(name, contenders, y, cells, encoded_bytes, repeats, parts) -> Case:
    """Time the contenders (interleaved), then measure each one's peak memory once."""
    outputs = {k: {} for k in contenders}
    runs = {k: (lambda f=f, o=outputs[k]: f(o)) for k, f in contenders.items()}
    load_before = load_average()
    say(f"\n{name}: timing {', '.join(contenders)} ({repeats} runs each, interleaved) ...")
    timings = time_phases(runs, repeats)
    for k, t in timings.items():
        fit, pred, tot = t["fit"], t["predict_proba"], t["total"]
        say(
            f"  {k:<32} fit {fit.median:7.3f} s  predict_proba {pred.median:7.3f} s"
            f"  total {tot.median:7.3f} s  (runs {tot.spread})"
        )
    part_timings = {k: time_runs(f, repeats) for k, f in parts.items()}
    for k, t in part_timings.items():
        say(f"  part: {k:<38} {t.median:7.3f} s")
    memory = {}
    for k, f in runs.items():
        memory[k] = peak_memory(f)
        m = memory[k]
        rss = "n/a" if m.rss is None else f"{m.rss / MB:.0f} MB"
        say(f"  {k:<32} peak extra memory: traced {m.traced / MB:.0f} MB, RSS {rss}")
    return Case(
        name,
        cells,
        encoded_bytes,
        timings,
        memory,
        outputs,
        y,
        (load_before, load_average()),
        part_timings,
    )


# ---------------------------------------------------------------------- report
def agreement(case: Case, ours: str, theirs: str) -> tuple[float, float, float]:
    a, b = case.outputs[ours], case.outputs[theirs]
    assert np.array_equal(a["classes"], b["classes"]), (a["classes"], b["classes"])
    diff = float(np.max(np.abs(a["proba"] - b["proba"])))
    acc_a = float(np.mean(a["classes"][np.argmax(a["proba"], axis=1)] == case.y))
    acc_b = float(np.mean(b["classes"][np.argmax(b["proba"], axis=1)] == case.y))
    return diff, acc_a, acc_b


def table_rows(case: Case, reference: str) -> list[list[str]]:
    ref_total = case.timings[reference]["total"].median
    rows = []
    for k, t in case.timings.items():
        mem = case.memory[k]
        rss = "n/a" if mem.rss is None else f"{mem.rss / MB:.0f}"
        rows.append(
            [
                case.name,
                k,
                f"{t['fit'].median:.3f}",
                f"{t['predict_proba'].median:.3f}",
                f"{t['total'].median:.3f}",
                t["total"].spread,
                f"{ref_total / t['total'].median:.2f}x",
                f"{case.cells / t['fit'].median / 1e6:.0f}",
                f"{mem.traced / MB:.0f} / {rss}",
                f"{mem.traced / case.encoded_bytes:.2f} / "
                + ("n/a" if mem.rss is None else f"{mem.rss / case.encoded_bytes:.2f}"),
            ]
        )
    return rows


HEADER = [
    "case",
    "contender",
    "fit s",
    "predict_proba s",
    "total s",
    "total range s",
    "speed-up vs sklearn",
    "fit Mcells/s",
    "peak extra MB (traced / RSS)",
    "peak / encoded input (traced / RSS)",
]


def verdicts(cat: Case, gau: Case, gau_frame: str | None) -> list[str]:
    out = []
    bk, sk = cat.timings["bayeskit NaiveBayes"], cat.timings["sklearn CategoricalNB"]
    r = sk["total"].median / bk["total"].median
    status = "met, 10x aim met too" if r >= 10 else "met, 10x aim not" if r >= 2 else "NOT met"
    out.append(
        f"- Categorical speed (at least 2x, aim 10x): {status}: bayeskit "
        f"{bk['total'].median:.2f} s against scikit-learn {sk['total'].median:.2f} s for fit + "
        f"predict_proba, {r:.1f}x (fit {sk['fit'].median / bk['fit'].median:.1f}x, predict_proba "
        f"{sk['predict_proba'].median / bk['predict_proba'].median:.1f}x)."
    )
    bk, sk = gau.timings["bayeskit NaiveBayes"], gau.timings["sklearn GaussianNB"]
    r = sk["total"].median / bk["total"].median
    line = (
        f"- Gaussian speed (at least as fast as GaussianNB): {'met' if r >= 1 else 'NOT met'}: "
        f"bayeskit {bk['total'].median:.2f} s against scikit-learn {sk['total'].median:.2f} s on "
        f"the same array, {r:.1f}x"
    )
    if gau_frame:
        rf = sk["total"].median / gau.timings[gau_frame]["total"].median
        line += f" ({rf:.1f}x when bayeskit is given a DataFrame of float64 columns)"
    out.append(line + ".")
    parts = []
    ok = True
    for case, key in ((cat, "bayeskit NaiveBayes"), (gau, "bayeskit NaiveBayes")):
        m = case.memory[key]
        worst = max(m.traced, m.rss or 0)
        ok &= worst <= 2 * case.encoded_bytes
        rss = "n/a" if m.rss is None else f"{m.rss / MB:.0f} MB"
        parts.append(
            f"{case.name}: {m.traced / MB:.0f} MB traced, RSS growth {rss}, against "
            f"{case.encoded_bytes / MB:.0f} MB encoded input "
            f"({worst / case.encoded_bytes:.2f}x at the larger)"
        )
    out.append(
        f"- Peak memory (at most 2x the encoded input): {'met' if ok else 'NOT met'}: "
        + "; ".join(parts)
        + "."
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=DEFAULT_ROWS)
    parser.add_argument("--features", type=int, default=DEFAULT_FEATURES)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--write",
        choices=("auto", "yes", "no"),
        default="auto",
        help="write the RESULTS.md section (auto: only at the default size)",
    )
    args = parser.parse_args()
    n, d = args.rows, args.features

    # Machine, versions and the commit as the code is loaded (others may commit during the run).
    facts = machine_lines(("numpy", "pandas", "scipy", "sklearn", "numba"))

    say(f"load average before: {load_average()}; numba threads: {numba.get_num_threads()}")
    say(f"warm-up (numba compile or cache load; fits on 200 and 20,000 rows): {warm_up(d):.2f} s")

    t0 = time.perf_counter()
    cat = make_categorical(n, d)
    say(
        f"categorical data: {n} x {d}, cardinality {cat.n_states.min()}..{cat.n_states.max()}, "
        f"{time.perf_counter() - t0:.1f} s to generate"
    )
    min_cats = cat.n_states.astype(np.int64)
    fitted = NaiveBayes(alpha=1, prior_alpha=0).fit(cat.frame, cat.y)
    y_idx = np.ascontiguousarray(cat.y, dtype=np.intp)
    cat_case = run_case(
        "categorical",
        {
            "bayeskit NaiveBayes": lambda o: fit_predict(
                lambda: NaiveBayes(alpha=1, prior_alpha=0), cat.frame, cat.y, o
            ),
            "sklearn CategoricalNB": lambda o: fit_predict(
                lambda: CategoricalNB(alpha=1, min_categories=min_cats), cat.codes_sk, cat.y, o
            ),
        },
        cat.y,
        n * d,
        cat.codes.nbytes,
        args.repeats,
        {
            "bayeskit Schema.encode (DataFrame -> int8)": lambda: fitted.schema_.encode(cat.frame),
            "bayeskit categorical_counts (kernel)": lambda: categorical_counts(
                cat.codes, y_idx, 2, fitted.schema_.n_states
            ),
        },
    )
    cat.frame = cat.codes_sk = None  # free before the Gaussian case

    t0 = time.perf_counter()
    gau = make_gaussian(n, d)
    say(f"\nGaussian data: {n} x {d}, {time.perf_counter() - t0:.1f} s to generate")
    gframe = pd.DataFrame(gau.X, columns=[f"x{j}" for j in range(d)], copy=True)
    y_idx = np.ascontiguousarray(gau.y, dtype=np.intp)
    frame_key = "bayeskit NaiveBayes (DataFrame)"
    gau_case = run_case(
        "Gaussian",
        {
            "bayeskit NaiveBayes": lambda o: fit_predict(
                lambda: NaiveBayes(discretize=None, prior_alpha=0), gau.X, gau.y, o
            ),
            frame_key: lambda o: fit_predict(
                lambda: NaiveBayes(discretize=None, prior_alpha=0), gframe, gau.y, o
            ),
            "sklearn GaussianNB": lambda o: fit_predict(lambda: GaussianNB(), gau.X, gau.y, o),
        },
        gau.y,
        n * d,
        gau.X.nbytes,
        args.repeats,
        {"bayeskit gaussian_moments (kernel)": lambda: gaussian_moments(gau.X, y_idx, 2)},
    )

    say("")
    lines = []
    for case, ours, theirs in (
        (cat_case, "bayeskit NaiveBayes", "sklearn CategoricalNB"),
        (gau_case, "bayeskit NaiveBayes", "sklearn GaussianNB"),
        (gau_case, frame_key, "sklearn GaussianNB"),
    ):
        diff, acc_a, acc_b = agreement(case, ours, theirs)
        line = (
            f"- {case.name}, {ours} vs {theirs}: posteriors agree to max |diff| {diff:.2e}; "
            f"training accuracy {acc_a:.4f} vs {acc_b:.4f}"
        )
        lines.append(line)
        say(line)
    kernel = cat_case.parts["bayeskit categorical_counts (kernel)"].median
    encode = cat_case.parts["bayeskit Schema.encode (DataFrame -> int8)"].median
    moments = gau_case.parts["bayeskit gaussian_moments (kernel)"].median
    parts_line = (
        f"- Parts of bayeskit's fit (median of {args.repeats}): categorical_counts kernel alone "
        f"{kernel:.3f} s ({n * d / kernel / 1e6:.0f} Mcells/s); Schema.encode of the categorical "
        f"DataFrame {encode:.3f} s; gaussian_moments kernel alone {moments:.3f} s "
        f"({n * d / moments / 1e6:.0f} Mcells/s)."
    )
    say(parts_line)
    table = markdown_table(
        HEADER,
        table_rows(cat_case, "sklearn CategoricalNB") + table_rows(gau_case, "sklearn GaussianNB"),
    )
    say("\n" + table + "\n")
    verdict = verdicts(cat_case, gau_case, frame_key)
    for v in verdict:
        say(v)

    write = args.write == "yes" or (
        args.write == "auto" and n == DEFAULT_ROWS and d == DEFAULT_FEATURES
    )
    if not write:
        say("\n(RESULTS.md not written: not the default size; pass --write yes to force)")
        return
    body = "\n".join(
        [
            f"`PYTHONPATH=src python benchmarks/bench_naive_bayes.py --rows {n} --repeats "
            f"{args.repeats}`, {time.strftime('%Y-%m-%d')}. {n:,} rows x {d} features, 2 classes; "
            f"median of {args.repeats} runs (fit + predict_proba on the same rows), the libraries' "
            "runs interleaved. numba warmed up (fits on 200 and 20,000 rows) before timing; "
            f"numba threads: {numba.get_num_threads()}.",
            "",
            *facts,
            f"- load average (1/5/15 min) before / after: categorical {cat_case.load[0]} / "
            f"{cat_case.load[1]}; Gaussian {gau_case.load[0]} / {gau_case.load[1]} "
            "(other jobs share the machine)",
            "",
            "Inputs: bayeskit gets a DataFrame of pandas categoricals (categorical) or the float64 "
            "array (Gaussian; a second row gives it a DataFrame); scikit-learn gets int64 codes "
            '(what CategoricalNB converts to anyway) or the same float64 array. "fit Mcells/s" is '
            "rows x features / fit seconds. Peak extra memory: one further untimed run of fit + "
            'predict_proba; "encoded input" is the int8 codes '
            f"({cat_case.encoded_bytes / MB:.0f} MB) or the float64 values "
            f"({gau_case.encoded_bytes / MB:.0f} MB).",
            "",
            table,
            "",
            *lines,
            parts_line,
            "",
            "Targets:",
            "",
            *verdict,
        ]
    )
    write_section(SECTION, body)
    say(f"\nwrote section {SECTION!r} of benchmarks/RESULTS.md")


if __name__ == "__main__":
    main()
