"""The tests of independence PC-stable (:mod:`bayeskit.learning.constraint`) asks: of discrete
data from count tables, of Gaussian data from the correlation matrix, and perfect ones
(d-separation in a known DAG). Each has ``p_values(batch)``: the p-value of each test
``(x, y, S)`` of a list, by column index; the data's tests cache every p-value, and a batch's
count tables are counted in one compiled pass over the rows."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from bayeskit.graphs.dag import DAG
from bayeskit.learning.parameters import NetworkData
from bayeskit.learning.scores import compact_rows
from bayeskit.stats.extensions import extension_counts, parent_configurations
from bayeskit.stats.families import family_counts
from bayeskit.stats.independence import discrete_test, fisher_z

__all__ = ["MAX_TEST_CELLS", "CountTests", "GaussianTests", "OracleTests"]

#: Tests sharing ``(y, S)`` with at least this many others are counted as one family extended
#: by each ``x`` (on complete data): one look-up per row and test instead of one per column.
GROUP = 6
#: The most cells one test's count table may have.
MAX_TEST_CELLS = 1 << 24

Test = tuple[int, int, tuple[int, ...]]


class CountTests:
    """Tests of discrete data from count tables (:func:`bayeskit.stats.discrete_test`); a
    batch's tables counted in one compiled pass, every p-value cached.

    Parameters
    ----------
    data : NetworkData
        The encoded rows (and weights).
    method : str, default="g2"
    adjusted_df : bool, default=False
    permutations : int, default=1000
    random_state : int, Generator or None
    min_rows_per_cell : float, default=0
        A test whose table has fewer rows than this per cell on average is not run: its
        p-value is 0 (dependence), as in MMHC's heuristic (Tsamardinos, Brown and Aliferis
        2006), since such a test has too little power to tell independence.

    Examples
    --------
    >>> codes = np.array([[0, 0], [1, 1]] * 50)
    >>> tests = CountTests(NetworkData(("a", "b"), {"a": ("0", "1"), "b": ("0", "1")},
    ...                                codes, None))
    >>> tests.p_values([(0, 1, ())]).round(6).tolist()
    [0.0]
    """

    def __init__(self, data: NetworkData, method: str = "g2", adjusted_df: bool = False,
                 permutations: int = 1000, random_state: Any = None,
                 min_rows_per_cell: float = 0.0):  # fmt: skip
        self.data = data
        self.min_rows_per_cell = min_rows_per_cell
        self.method = method
        self.adjusted_df = adjusted_df
        self.permutations = permutations
        self.rng = np.random.default_rng(random_state)
        self.n_states = np.array(data.n_states, dtype=np.int64)
        self._sizes = [int(v) for v in self.n_states]  # as Python ints: products of a few
        self._rows: tuple | None = None  # node-major distinct rows and weights, made once
        self.cache: dict[tuple, float] = {}
        self.n_tests = 0

    def p_values(self, batch: list[Test]) -> np.ndarray:
        """The p-value of each test ``(x, y, S)`` of ``batch`` (column indices).

        Parameters
        ----------
        batch : list of (int, int, tuple of int)

        Returns
        -------
        ndarray of float64

        Raises
        ------
        ValueError
            A test whose count table would have more than :data:`MAX_TEST_CELLS` cells.

        Examples
        --------
        ``c = a xor b``: ``a`` and ``b`` are independent, but not given ``c``.

        >>> codes = np.array([[0, 0, 0], [1, 1, 0], [0, 1, 1], [1, 0, 1]] * 30)
        >>> states = {v: ("0", "1") for v in "abc"}
        >>> tests = CountTests(NetworkData(tuple("abc"), states, codes, None))
        >>> tests.p_values([(0, 1, ()), (0, 1, (2,))]).round(4).tolist()
        [1.0, 0.0]
        """
        todo = {}
        for x, y, s in batch:
            key = _key(x, y, s)
            if key not in self.cache and key not in todo:
                sizes = self._sizes
                cells = sizes[x] * sizes[y] * math.prod(sizes[v] for v in s)
                if self.data.n_rows < self.min_rows_per_cell * cells:
                    self.cache[key] = 0.0  # too few rows to test: taken as dependence
                    continue
                if cells > MAX_TEST_CELLS:
                    msg = (f"a test of columns {x} and {y} given {list(s)} needs a table of "
                           f"{cells:,} cells (more than {MAX_TEST_CELLS:,}): lower "
                           "max_cond_size")  # fmt: skip
                    raise ValueError(msg)
                todo[key] = (x, y, s)
        if todo:
            self._run(list(todo.items()))
        return np.array([self.cache[_key(x, y, s)] for x, y, s in batch])

    def _run(self, todo: list) -> None:
        groups: dict[tuple, list[int]] = {}
        for i, (_, (_, y, s)) in enumerate(todo):
            groups.setdefault((y, s), []).append(i)
        # the tests that share (y, S) with many others are counted together, (y, S) as a
        # family extended by each x; the rest in one pass over every family
        big = {key: members for key, members in groups.items() if len(members) >= GROUP}
        complete = self._node_major()
        tables: list = [None] * len(todo)
        if complete and big:
            codes, weights, _ = complete
            self._extensions(todo, big, codes, weights, tables)
        rest = [i for i, t in enumerate(tables) if t is None]
        rows = (self.data.codes, self.data.weights) if not complete else complete[2]
        for i, table in zip(rest, self._families([todo[i] for i in rest], *rows), strict=True):
            tables[i] = table
        m_of = [math.prod(self._sizes[v] for v in s) for _, (_, _, s) in todo]
        _, _, p = discrete_test(tables, self.method, adjusted_df=self.adjusted_df,
                                permutations=self.permutations, random_state=self.rng,
                                strata=m_of)  # fmt: skip
        for (key, _), value in zip(todo, p, strict=True):
            self.cache[key] = float(value)
        self.n_tests += len(todo)

    def _node_major(self) -> tuple | None:
        """The rows node-major (each repeated row once, with its number as weight, when that
        saves a quarter of them or more, as the structure search's scorer does), their
        weights (empty for 1 each), and the same rows row-major with their weights (None for
        1 each); None when values are missing (each test then leaves out the rows missing one
        of its columns)."""
        if self._rows is None:
            codes = self.data.codes
            if codes.size and codes.min() < 0:
                self._rows = ()
            else:
                rows, weights = compact_rows(codes, self.data.weights, self.n_states)
                w = None if weights is None else np.asarray(weights, dtype=np.float64)
                kernel_w = np.empty(0) if w is None else w
                self._rows = (np.ascontiguousarray(rows.T), kernel_w, (rows, w))
        return self._rows or None

    def _extensions(self, todo: list, groups: dict, codes: np.ndarray, weights: np.ndarray,
                    tables: list) -> None:  # fmt: skip
        """The tables of complete data: the tests that share ``(y, S)`` counted together, ``y``
        and ``S``'s configuration as a family extended by each ``x``
        (:func:`~bayeskit.stats.extensions.extension_counts`); only the strata seen are
        numbered once there are more configurations than rows."""
        r = self.n_states
        for (y, s), members in groups.items():
            ids, k, _ = parent_configurations(codes, s, r, compact_above=codes.shape[1])
            cands = np.array([todo[i][1][0] for i in members], dtype=np.int64)
            flat = extension_counts(codes, weights, cands, r[cands], ids, k, int(r[y]), codes[y])
            at = 0
            for i, x in zip(members, cands, strict=True):
                size = int(r[x]) * k * int(r[y])
                table = flat[at : at + size].reshape(int(r[x]), k, int(r[y]))
                tables[i] = table.transpose(1, 0, 2)  # (S, x, y)
                at += size

    def _families(self, todo: list, codes: np.ndarray, weights: np.ndarray | None) -> list:
        """Each test's table from its family's counts over the rows ``codes`` (one compiled
        pass for all), leaving out the rows missing one of its columns."""
        if not todo:
            return []
        wanted = {frozenset((x, y, *s)): (*s, x, y) for _, (x, y, s) in todo}
        counts = family_counts(codes, list(wanted.values()), self.n_states, weights)
        # the tables lie one after the other, each in C order, in the order of
        # counts.families (FamilyCounts' documented layout)
        sizes = [math.prod(self._sizes[v] for v in f) for f in counts.families]
        offsets = np.concatenate([[0], np.cumsum(sizes)])
        where = {frozenset(f): k for k, f in enumerate(counts.families)}
        tables = []
        for _, (x, y, s) in todo:
            k = where[frozenset((x, y, *s))]
            stored = counts.families[k]
            flat = counts.counts[offsets[k] : offsets[k + 1]].reshape(self.n_states[list(stored)])
            order = (*s, x, y)
            if stored != order:
                flat = flat.transpose([stored.index(c) for c in order])
            m = math.prod(self._sizes[v] for v in s)
            tables.append(flat.reshape(m, self.n_states[x], self.n_states[y]))
        return tables


class GaussianTests:
    """Fisher's z tests (:func:`bayeskit.stats.fisher_z`) from the data's correlation matrix.

    Parameters
    ----------
    correlation : ndarray of shape (d, d)
    n : float
        The rows it was estimated from.

    Examples
    --------
    >>> tests = GaussianTests(np.array([[1.0, 0.0], [0.0, 1.0]]), 500)
    >>> tests.p_values([(0, 1, ())]).tolist()
    [1.0]
    """

    def __init__(self, correlation: np.ndarray, n: float):
        self.correlation = correlation
        self.n = n
        self.cache: dict[tuple, float] = {}
        self.n_tests = 0

    def p_values(self, batch: list[Test]) -> np.ndarray:
        """The p-value of each test ``(x, y, S)`` of ``batch``.

        Parameters
        ----------
        batch : list of (int, int, tuple of int)

        Returns
        -------
        ndarray of float64

        Examples
        --------
        >>> R = np.array([[1.0, 0.5, 0.5], [0.5, 1.0, 0.25], [0.5, 0.25, 1.0]])
        >>> GaussianTests(R, 1000).p_values([(1, 2, ()), (1, 2, (0,))]).round(6).tolist()
        [0.0, 1.0]
        """
        for x, y, s in batch:
            key = _key(x, y, s)
            if key not in self.cache:
                self.cache[key] = fisher_z(self.correlation, self.n, x, y, s)[1]
                self.n_tests += 1
        return np.array([self.cache[_key(x, y, s)] for x, y, s in batch])


class OracleTests:
    """Perfect tests: d-separation in a known DAG (p-value 1 when d-separated, else 0).

    Parameters
    ----------
    dag : DAG
    nodes : sequence
        The nodes in the order the indices of a test refer to.

    Examples
    --------
    >>> oracle = OracleTests(DAG(edges=[("a", "b"), ("b", "c")]), ["a", "b", "c"])
    >>> oracle.p_values([(0, 2, ()), (0, 2, (1,))]).tolist()
    [0.0, 1.0]
    """

    def __init__(self, dag: DAG, nodes: Iterable[Any]):
        self.dag = dag
        self.nodes = list(nodes)
        self.n_tests = 0

    def p_values(self, batch: list[Test]) -> np.ndarray:
        """1.0 for each test ``(x, y, S)`` whose nodes are d-separated, else 0.0.

        Parameters
        ----------
        batch : list of (int, int, tuple of int)

        Returns
        -------
        ndarray of float64

        Examples
        --------
        >>> collider = DAG(edges=[("a", "c"), ("b", "c")])
        >>> OracleTests(collider, "abc").p_values([(0, 1, ()), (0, 1, (2,))]).tolist()
        [1.0, 0.0]
        """
        self.n_tests += len(batch)
        v = self.nodes
        return np.array([float(self.dag.d_separated(v[x], v[y], [v[i] for i in s]))
                         for x, y, s in batch])  # fmt: skip


def _key(x: int, y: int, s: tuple) -> tuple:
    return (min(x, y), max(x, y), frozenset(s))
