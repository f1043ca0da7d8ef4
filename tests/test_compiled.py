"""Compiled kernels in a real process: parallel builds, thread count, fork safety, on-disk cache.

Tests that depend on how a process starts (threading layer, fork, cache) run a fresh Python in a
subprocess, so they do not depend on what earlier tests did and a crash there cannot take the test
runner down.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import numba
import numpy as np
import pytest
from numba.core import caching
from scipy.special import logsumexp

import bayeskit
import bayeskit._compiled as compiled
from bayeskit import NaiveBayes
from bayeskit.data.discretize import Discretizer
from bayeskit.stats._kernels import count_codes, moment_sums
from bayeskit.stats._lookup import (
    add_gaussian_log_density,
    add_table_entries,
    log_normalise_rows,
)

SRC = str(Path(bayeskit.__file__).resolve().parent.parent)
# rows: several row blocks of the counting kernels (16,384 rows each) and a partial last one
N_ROWS = 3 * 16_384 + 123


def run_python(code: str, cache_dir: Path | None = None, **env: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter with bayeskit importable and no NUMBA_/BAYESKIT_
    settings but two threads; numba caches in ``cache_dir`` if given (else its default place)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "BAYESKIT_"))}
    clean["PYTHONPATH"] = SRC + os.pathsep + clean.get("PYTHONPATH", "")
    if cache_dir is not None:
        clean["NUMBA_CACHE_DIR"] = str(cache_dir)
    clean["NUMBA_NUM_THREADS"] = "2"  # parallel even on a one-CPU machine
    clean["BAYESKIT_NUM_THREADS"] = "2"
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=clean,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def last_json(proc: subprocess.CompletedProcess) -> dict:
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture
def always_parallel(monkeypatch):
    """Every kernel call takes the parallel build, on two threads."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba may start only one thread here (NUMBA_NUM_THREADS=1)")
    monkeypatch.setattr(compiled, "PARALLEL_MIN_WORK", 0)
    with bayeskit.num_threads(2):
        yield


@pytest.fixture
def rng():
    return np.random.default_rng(42)


# --------------------------------------------------------------------------- every parallel kernel
def test_count_codes_parallel_matches_numpy(always_parallel, rng):
    n_states = np.array([3, 5, 2, 7])
    codes = np.column_stack([rng.integers(-1, k, N_ROWS) for k in n_states]).astype(np.int8)
    y = rng.integers(0, 3, N_ROWS).astype(np.intp)
    w = rng.uniform(0.5, 2.0, N_ROWS)
    offsets = np.concatenate([[0], np.cumsum(n_states[:-1])]).astype(np.int64)
    got = count_codes(codes, y, w, offsets, 3, int(n_states.sum()))
    expected = np.zeros((3, int(n_states.sum())))
    for f, o in enumerate(offsets):
        seen = codes[:, f] >= 0
        np.add.at(expected, (y[seen], o + codes[seen, f]), w[seen])
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    with bayeskit.num_threads(1):
        serial = count_codes(codes, y, w, offsets, 3, int(n_states.sum()))
    np.testing.assert_allclose(got, serial, rtol=1e-12)


def test_moment_sums_parallel_matches_numpy(always_parallel, rng):
    values = rng.normal(3.0, 2.0, (N_ROWS, 3))
    values[rng.random(values.shape) < 0.1] = np.nan
    y = rng.integers(0, 2, N_ROWS).astype(np.intp)
    w = rng.uniform(0.5, 2.0, N_ROWS)
    count, mean, m2 = moment_sums(values, y, w, 2)
    for c in range(2):
        for f in range(3):
            x, wc = values[y == c, f], w[y == c]
            seen = ~np.isnan(x)
            mu = np.average(x[seen], weights=wc[seen])
            assert count[c, f] == pytest.approx(wc[seen].sum(), rel=1e-12)
            assert mean[c, f] == pytest.approx(mu, rel=1e-12)
            assert m2[c, f] == pytest.approx((wc[seen] * (x[seen] - mu) ** 2).sum(), rel=1e-10)
    with bayeskit.num_threads(1):
        serial = moment_sums(values, y, w, 2)
    for a, b in zip((count, mean, m2), serial, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_add_table_entries_parallel_matches_numpy(always_parallel, rng):
    n_states = np.array([4, 2, 6])
    offsets = np.concatenate([[0], np.cumsum(n_states[:-1])]).astype(np.int64)
    table = np.log(rng.uniform(0.01, 1.0, (int(n_states.sum()), 3)))
    codes = np.column_stack([rng.integers(-1, k, N_ROWS) for k in n_states]).astype(np.int16)
    start = rng.normal(size=(N_ROWS, 3))
    jll = start.copy()
    add_table_entries(jll, codes, table, offsets)
    expected = start.copy()
    for f, o in enumerate(offsets):
        seen = codes[:, f] >= 0
        expected[seen] += table[o + codes[seen, f]]
    np.testing.assert_allclose(jll, expected, rtol=1e-12, atol=1e-12)  # summation order differs


def test_add_gaussian_log_density_parallel_matches_numpy(always_parallel, rng):
    values = rng.normal(size=(N_ROWS, 4))
    values[rng.random(values.shape) < 0.05] = np.nan
    mean = rng.normal(size=(2, 4))
    var = rng.uniform(0.5, 2.0, (2, 4))
    log_norm, scale = -0.5 * np.log(2 * np.pi * var), np.sqrt(0.5 / var)
    jll = np.zeros((N_ROWS, 2))
    add_gaussian_log_density(jll, values, mean, log_norm, scale)
    terms = log_norm - ((values[:, None, :] - mean) * scale) ** 2  # (n, classes, d)
    expected = np.where(np.isnan(terms), 0.0, terms).sum(axis=2)
    np.testing.assert_allclose(jll, expected, rtol=1e-12, atol=1e-12)


def test_log_normalise_rows_parallel_matches_logsumexp(always_parallel, rng):
    start = rng.normal(scale=50.0, size=(N_ROWS, 3))
    jll = start.copy()
    log_normalise_rows(jll)
    np.testing.assert_allclose(jll, start - logsumexp(start, axis=1, keepdims=True), atol=1e-12)


def test_kernels_above_the_real_threshold_run_parallel_and_match_serial(rng):
    """No threshold lowered: data above ``PARALLEL_MIN_WORK`` takes the parallel build."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba may start only one thread here (NUMBA_NUM_THREADS=1)")
    n = compiled.PARALLEL_MIN_WORK // 4 + 1000
    # 3 numeric and 4 categorical columns: every kernel's work is above the threshold
    x = np.column_stack([rng.normal(size=(n, 3)), rng.integers(0, 4, (n, 4))])
    y = rng.integers(0, 2, n)
    params = {"categorical_features": [3, 4, 5, 6], "discretize": None}
    with bayeskit.num_threads(1):
        serial = NaiveBayes(**params).fit(x, y).predict_log_proba(x)
    with bayeskit.num_threads(2):
        parallel = NaiveBayes(**params).fit(x, y).predict_log_proba(x)
    assert numba.threading_layer() in ("tbb", "omp", "workqueue")  # threads were launched
    np.testing.assert_allclose(parallel, serial, rtol=1e-12, atol=1e-12)


def test_mdl_discretizer_column_threads_match_one_thread(rng):
    n = 120_000  # 2 columns: above the discretizer's 200,000 values for column threads
    x = rng.normal(size=(n, 2))
    y = (x[:, 0] + 0.5 * x[:, 1] + rng.normal(size=n) > 0).astype(np.int64)
    with bayeskit.num_threads(1):
        one = Discretizer("mdl").fit(x, y, 2)
    with bayeskit.num_threads(2):
        two = Discretizer("mdl").fit(x, y, 2)
    assert all(c.size > 0 for c in one.cuts_)
    for a, b in zip(one.cuts_, two.cuts_, strict=True):
        np.testing.assert_array_equal(a, b)


def test_discretizer_uses_the_bayeskit_thread_count(monkeypatch, rng):
    import bayeskit.data.discretize as discretize

    started = []

    class Pool(discretize.ThreadPoolExecutor):
        def __init__(self, max_workers):
            started.append(max_workers)
            super().__init__(max_workers=max_workers)

    monkeypatch.setattr(discretize, "ThreadPoolExecutor", Pool)
    monkeypatch.setattr(compiled, "PARALLEL_MIN_WORK", 0)  # the one dispatch rule
    x, y = rng.normal(size=(200, 3)), rng.integers(0, 2, 200)
    with bayeskit.num_threads(1):
        Discretizer("mdl").fit(x, y, 2)
    assert started == []
    with bayeskit.num_threads(2):
        Discretizer("mdl").fit(x, y, 2)
    assert started == ([2] if numba.config.NUMBA_NUM_THREADS >= 2 else [])


# --------------------------------------------------------------------------- thread count
def test_thread_count_defaults_to_usable_cpus(monkeypatch):
    monkeypatch.delenv(compiled.THREADS_ENV, raising=False)
    monkeypatch.setattr(compiled, "_process_threads", None)
    # a process allowed on 5 CPUs (as under taskset -c 0-4): 5 threads, unless numba caps lower
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3, 4}, raising=False)
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 8)
    assert bayeskit.get_num_threads() == 5
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 3)
    assert bayeskit.get_num_threads() == 3


def test_thread_count_follows_the_environment_variable(monkeypatch):
    monkeypatch.setattr(compiled, "_process_threads", None)
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 8)
    monkeypatch.setenv("BAYESKIT_NUM_THREADS", "3")
    assert bayeskit.get_num_threads() == 3
    monkeypatch.setenv("BAYESKIT_NUM_THREADS", "16")  # NUMBA_NUM_THREADS caps
    assert bayeskit.get_num_threads() == 8


@pytest.mark.parametrize("text", ["0", "-2", "two", "1.5"])
def test_bad_thread_environment_variable_is_named(monkeypatch, text):
    monkeypatch.setattr(compiled, "_process_threads", None)
    monkeypatch.setenv("BAYESKIT_NUM_THREADS", text)
    with pytest.raises(
        ValueError, match=f"BAYESKIT_NUM_THREADS must be an integer >= 1, got '{text}'"
    ):
        bayeskit.get_num_threads()


def test_set_num_threads_and_context_precedence(monkeypatch):
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 8)
    monkeypatch.setenv("BAYESKIT_NUM_THREADS", "5")
    monkeypatch.setattr(compiled, "_process_threads", None)
    bayeskit.set_num_threads(3)
    assert bayeskit.get_num_threads() == 3  # the call beats the environment
    with bayeskit.num_threads(2):
        assert bayeskit.get_num_threads() == 2  # the block beats the call
        with bayeskit.num_threads(1):
            assert bayeskit.get_num_threads() == 1
        assert bayeskit.get_num_threads() == 2
    assert bayeskit.get_num_threads() == 3
    bayeskit.set_num_threads(None)
    assert bayeskit.get_num_threads() == 5


def test_num_threads_block_is_local_to_its_thread(monkeypatch):
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 8)
    monkeypatch.setattr(compiled, "_process_threads", 4)
    seen = []
    with bayeskit.num_threads(1):
        worker = threading.Thread(target=lambda: seen.append(bayeskit.get_num_threads()))
        worker.start()
        worker.join()
    assert seen == [4]


@pytest.mark.parametrize("n", [0, -1, 1.5, True, "2"])
def test_bad_thread_counts_are_refused(n):
    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        bayeskit.set_num_threads(n)
    with pytest.raises(ValueError, match="n must be an integer >= 1"), bayeskit.num_threads(n):
        pass


def test_parallel_call_sets_and_restores_numba_threads(always_parallel, monkeypatch, rng):
    calls = []
    real = numba.set_num_threads
    monkeypatch.setattr(numba, "set_num_threads", lambda n: calls.append(n) or real(n))
    jll = rng.normal(size=(100, 2))
    before = numba.get_num_threads()
    log_normalise_rows(jll)
    assert calls == [2, before]
    assert numba.get_num_threads() == before
    calls.clear()
    with bayeskit.num_threads(1):  # one thread: the serial build, numba's threads untouched
        log_normalise_rows(jll)
    assert calls == []


def test_small_data_runs_serially(monkeypatch, rng):
    calls = []
    monkeypatch.setattr(numba, "set_num_threads", calls.append)
    jll = rng.normal(size=(100, 2))
    log_normalise_rows(jll)
    assert calls == []
    np.testing.assert_allclose(np.exp(jll).sum(axis=1), 1.0)


# --------------------------------------------------------------------------- threading layer
def test_user_choice_of_threading_layer_is_kept(monkeypatch):
    monkeypatch.setenv("NUMBA_THREADING_LAYER", "omp")
    monkeypatch.setattr(numba.config, "THREADING_LAYER", "omp")
    compiled._choose_threading_layer()
    assert numba.config.THREADING_LAYER == "omp"
    monkeypatch.delenv("NUMBA_THREADING_LAYER")
    monkeypatch.setattr(numba.config, "THREADING_LAYER", "threadsafe")  # set in code
    compiled._choose_threading_layer()
    assert numba.config.THREADING_LAYER == "threadsafe"


FORK_SCRIPT = """
    import json, multiprocessing, os
    import numba, numpy as np
    from bayeskit import NaiveBayes

    rng = np.random.default_rng(0)
    n = 400_000  # above the parallel threshold
    X = np.column_stack([rng.normal(size=(n, 2)), rng.integers(0, 3, n)])
    y = rng.integers(0, 2, n)

    def fit_and_check(seed):
        model = NaiveBayes(categorical_features=[2], discretize=None).fit(X, y)
        p = model.predict_proba(X)
        return bool(np.isfinite(p).all() and np.allclose(p.sum(axis=1), 1.0))

    ok_parent = fit_and_check(0)
    layer = numba.threading_layer()  # raises if no parallel kernel ran
    pid = os.fork()
    if pid == 0:
        os._exit(0 if fit_and_check(1) else 3)
    _, status = os.waitpid(pid, 0)
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pool_ok = pool.map_async(fit_and_check, [2, 3]).get(timeout=120)  # a dead worker hangs
    print(json.dumps({
        "layer": layer,
        "configured": numba.config.THREADING_LAYER,
        "child_exit": os.waitstatus_to_exitcode(status),
        "pool": pool_ok,
        "parent_before": ok_parent,
        "parent_after": fit_and_check(4),
    }))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_fit_then_fork_then_fit_in_child():
    out = last_json(run_python(FORK_SCRIPT))
    assert out["configured"] == "forksafe"
    assert out["layer"] in ("tbb", "workqueue")
    assert out["child_exit"] == 0
    assert out["pool"] == [True, True]
    assert out["parent_before"]
    assert out["parent_after"]


THREADS_SCRIPT = """
    import json, threading
    import numba, numpy as np
    from bayeskit.stats._kernels import moment_sums

    rng = np.random.default_rng(0)
    n = 300_000
    values = rng.normal(size=(n, 4))
    y = rng.integers(0, 2, n).astype(np.intp)
    w = np.ones(n)
    expected = moment_sums(values, y, w, 2)
    bad = []

    def work():
        for _ in range(15):
            got = moment_sums(values, y, w, 2)
            if not all(np.allclose(a, b) for a, b in zip(got, expected)):
                bad.append(1)

    workers = [threading.Thread(target=work) for _ in range(4)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    print(json.dumps({"layer": numba.threading_layer(), "bad": len(bad)}))
"""


def test_parallel_kernels_called_from_several_threads():
    # workqueue aborts the process on concurrent launches unless bayeskit serialises them
    out = last_json(run_python(THREADS_SCRIPT))
    assert out["layer"] in ("tbb", "workqueue")
    assert out["bad"] == 0


def test_one_thread_never_starts_numba_threads():
    script = """
        import json, numba, numpy as np
        from bayeskit import NaiveBayes
        rng = np.random.default_rng(0)
        X, y = rng.normal(size=(400_000, 3)), rng.integers(0, 2, 400_000)
        NaiveBayes().fit(X, y).predict_proba(X)
        try:
            layer = numba.threading_layer()
        except ValueError:
            layer = None
        print(json.dumps({"layer": layer}))
    """
    assert last_json(run_python(script, BAYESKIT_NUM_THREADS="1")) == {"layer": None}


# --------------------------------------------------------------------------- on-disk cache
CACHE_SCRIPT = """
    import json, sys
    import numba, numpy as np
    from numba.core import event
    from bayeskit.stats._lookup import log_normalise_rows

    compiled = []

    class Listener(event.Listener):
        def on_start(self, ev):
            compiled.append(ev.data["dispatcher"].py_func.__qualname__)

        def on_end(self, ev):
            pass

    event.register("numba:compile", Listener())
    ran = {}
    for what in sys.argv[1:]:  # "big" takes the parallel build, "small" the serial one
        log_normalise_rows(np.zeros((200_000 if what == "big" else 10, 3)))
        try:
            ran[what] = numba.threading_layer()
        except ValueError:
            ran[what] = None
    print(json.dumps({"compiled": sorted(compiled), "layer": ran}))
"""


def test_second_process_loads_both_builds_from_the_cache(tmp_path):
    def run(*order):
        code = CACHE_SCRIPT.replace("sys.argv[1:]", repr(list(order)))
        proc = run_python(code, tmp_path / "numba-cache")  # starts empty
        return last_json(proc)

    first = run("big", "small")  # the parallel build is saved first, then the serial one
    assert first["compiled"] == ["_log_normalise_rows", "_log_normalise_rows_parallel"]
    second = run("big", "small")
    assert second["compiled"] == []
    # the parallel build loaded from the cache is the parallel machine code (threads started)
    assert second["layer"]["big"] in ("tbb", "workqueue")
    third = run("small")
    assert third["compiled"] == []
    assert third["layer"] == {"small": None}  # the serial build starts no threads


def test_kernels_compile_uncached_where_no_cache_place_is_writable(monkeypatch):
    # numba raises "cannot cache function" when neither NUMBA_CACHE_DIR, the package's
    # __pycache__ nor the user's cache directory is writable (a read-only install)
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    if impl is None or not hasattr(impl, "_locator_classes"):
        pytest.skip("this numba keeps its cache locators elsewhere")
    monkeypatch.setattr(impl, "_locator_classes", [])

    def twice(x):  # pragma: no cover - compiled
        return 2 * x

    with pytest.raises(RuntimeError, match="cannot cache"):
        numba.njit(cache=True)(twice)
    assert compiled.serial_kernel(twice)(21) == 42
    kernel = compiled.parallel_kernel(lambda x: x.size)(twice)
    np.testing.assert_array_equal(kernel(np.arange(3)), [0, 2, 4])


def _read_only_run(root: Path, code: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    """Run ``code`` with ``root`` mounted read-only (a private mount namespace; needs root)."""
    script = (
        f'mount --bind "{root}" "{root}" && mount -o remount,bind,ro "{root}" && '
        f'exec "{sys.executable}" -c "$CODE"'
    )
    full = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "BAYESKIT_"))}
    full.update(env, CODE=textwrap.dedent(code), PYTHONPATH=str(root), NUMBA_NUM_THREADS="2")
    return subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        env=full,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


READ_ONLY_SCRIPT = """
    import json, numba, numpy as np
    from numba.core import event
    import bayeskit
    from bayeskit.stats._lookup import log_normalise_rows

    compiled = []

    class Listener(event.Listener):
        def on_start(self, ev):
            compiled.append(ev.data["dispatcher"].py_func.__qualname__)

        def on_end(self, ev):
            pass

    event.register("numba:compile", Listener())
    jll = np.zeros((200_000, 3))
    with bayeskit.num_threads(2):
        log_normalise_rows(jll)  # parallel build
    log_normalise_rows(jll[:10])  # serial build
    assert np.allclose(np.exp(jll).sum(axis=1), 1.0)
    print(json.dumps({"compiled": sorted(compiled), "file": bayeskit.__file__}))
"""


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0 or not Path("/usr/bin/unshare").exists(),
    reason="mounting a read-only copy needs root and unshare",
)
def test_read_only_install_works_and_caches_in_the_user_directory(tmp_path):
    import shutil

    root = tmp_path / "ro"
    shutil.copytree(
        Path(SRC) / "bayeskit", root / "bayeskit", ignore=shutil.ignore_patterns("*.nb?")
    )
    (root / "home").mkdir()
    probe = _read_only_run(root, f"open({str(root / 'probe')!r}, 'w')", {})
    if "Read-only file system" not in probe.stderr:
        pytest.skip(f"could not mount read-only here: {probe.stderr[-300:]}")
    nowhere = {"HOME": str(root / "home"), "XDG_CACHE_HOME": str(root / "home" / ".cache")}
    expected = ["_log_normalise_rows", "_log_normalise_rows_parallel"]
    # nothing writable: the kernels compile (in every process) instead of failing
    out = last_json(_read_only_run(root, READ_ONLY_SCRIPT, nowhere))
    assert out["file"].startswith(str(root))
    assert out["compiled"] == expected
    # a writable user cache directory (numba's fallback for a read-only package): loaded from it
    user_cache = {"HOME": str(root / "home"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    assert last_json(_read_only_run(root, READ_ONLY_SCRIPT, user_cache))["compiled"] == expected
    assert last_json(_read_only_run(root, READ_ONLY_SCRIPT, user_cache))["compiled"] == []
    assert list((tmp_path / "cache").rglob("*_log_normalise_rows_parallel*.nbi"))
