"""``bayeskit.data.rows.distinct_rows`` against the row groupings it replaced.

Before it, two groupings of identical rows of integer codes were written out in the package:

* the networks' (EM, chunked and distributed structure learning, the family scores): each row
  narrowed to the smallest integer type and compared as one byte string (``np.unique`` on a
  void view), weights summed with ``np.bincount``;
* the joint counts' (full Bayes): a mixed-radix int64 key per row, ``np.unique`` on the keys
  with ``return_index``, and ``np.unique(axis=0)`` where the key would overflow.

Both are copied here as they were at git revision 281d891. Each case is 1,000,000 x 10 codes
drawn with a fixed seed, with random float weights; the figure is the best of ``--repeats``
runs (milliseconds). ``distinct_rows`` is timed with the vocabulary sizes given (as the joint
counts call it), without them (read from the codes, as the networks call it) and with
``missing='last'`` (the networks' order). Before timing, every result is checked to be the same
rows and the same sums, bit for bit, as the grouping it replaces. Run::

    .venv/bin/python benchmarks/bench_distinct_rows.py --repeats 5
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bayeskit.data.rows import distinct_rows


def bytes_grouping(codes, weights):
    """The networks' grouping (``networks.em.distinct_rows`` and ``_group_rows``)."""
    top = int(np.abs(codes).max(initial=0))
    dtype = np.int8 if top < 2**7 else np.int16 if top < 2**15 else np.int32
    narrow = np.ascontiguousarray(codes, dtype=dtype)
    keys = narrow.view(np.dtype((np.void, narrow.itemsize * narrow.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    rows, inverse = codes[first], np.asarray(inverse).reshape(-1)
    w = np.ones(len(codes)) if weights is None else weights
    return rows, np.bincount(inverse, weights=w, minlength=len(rows))


def key_grouping(rows, weights, n_states):
    """The joint counts' grouping (``stats.joint._group_rows`` and ``_sum_by_group``)."""
    radix = n_states.astype(np.float64) + 1.0
    if np.prod(radix) >= 2.0**62:
        uniq, inverse = np.unique(rows, axis=0, return_inverse=True)
    else:
        keys = np.zeros(rows.shape[0], dtype=np.int64)
        for j in range(rows.shape[1]):
            keys *= int(radix[j])
            keys += rows[:, j].astype(np.int64) + 1
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        uniq = rows[first]
    inverse = inverse.reshape(-1)
    return uniq, np.bincount(inverse, weights=weights, minlength=len(uniq))


CASES = [("2 states", 2, 0.0), ("4 states", 4, 0.0), ("4 states, 5% missing", 4, 0.05),
         ("10 states", 10, 0.0), ("200 states", 200, 0.0)]  # fmt: skip


def best(repeats, f, *args, **kwargs):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f(*args, **kwargs)
        times.append(time.perf_counter() - start)
    return min(times) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"{'case':22s} {'distinct':>9s} {'given K':>8s} {'from data':>9s} {'last':>6s} "
          f"{'bytes (old)':>11s} {'keys (old)':>10s}   ms, best of {args.repeats}")  # fmt: skip
    for name, k, missing in CASES:
        codes = rng.integers(0, k, size=(args.rows, 10)).astype(np.int8 if k < 128 else np.int16)
        codes[rng.random(codes.shape) < missing] = -1
        n_states = np.full(10, k)
        w = rng.random(len(codes))
        new = distinct_rows(codes, w, n_states)
        old = key_grouping(codes, w, n_states)
        assert all(np.array_equal(a, b) for a, b in zip(new, old, strict=True))
        assert all(np.array_equal(a, b) for a, b in zip(distinct_rows(codes, w), old, strict=True))
        if k < 128:  # the byte order of int8 codes is lexicographic with -1 last
            last, old = distinct_rows(codes, w, missing="last"), bytes_grouping(codes, w)
            assert all(np.array_equal(a, b) for a, b in zip(last, old, strict=True))
        r = args.repeats
        times = [
            best(r, distinct_rows, codes, w, n_states),
            best(r, distinct_rows, codes, w),
            best(r, distinct_rows, codes, w, missing="last"),
            best(r, bytes_grouping, codes, w),
            best(r, key_grouping, codes, w, n_states),
        ]
        widths = (8, 9, 6, 11, 10)
        cells = " ".join(f"{t:{width}.0f}" for t, width in zip(times, widths, strict=True))
        print(f"{name:22s} {len(new[0]):9d} {cells}")


if __name__ == "__main__":
    main()
