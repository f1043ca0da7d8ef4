"""Structure search over data read in passes: the families a climbing step asks for, counted
together in one pass over chunks or Dask partitions.

Hill climbing (:mod:`bayeskit.learning.search`) reads the data through family counts alone. In
memory, each family is counted when it is asked for. When the data does not fit, and neither do
its distinct rows, :class:`PassScores` takes the requests of a step together,
``(node, parents, extensions)``, where ``extensions`` asks as well for the family with each
other node added as a parent (what the gains of every ``add`` move into the node need). One pass
counts them all, chunk by chunk or partition by partition (:func:`count_needs`); the counts of
parts add up (:func:`add_counts`, a tree on Dask); then each family is scored and kept, and the
counts are dropped. Memory holds one chunk and one pass's tables, never the rows. The file is
parsed once: the chunks' codes, a byte per cell, wait in a temporary folder for the passes after
the first (:class:`ChunkPasses`; on Dask, on the workers).

A table of at most :data:`_DENSE_CELLS` cells is counted dense (the same table, cell for cell,
as the in-memory scorer counts where it does not renumber parent configurations, so the same
score to the last bit; else equal up to rounding, about 1e-16 relative, which the climb's tie
tolerance absorbs); a larger one as the distinct rows of its columns with their weights, which
add up across parts as well and hold no more than the rows do (such a table, summed over all
the parts, can hold a family's distinct rows over all the data). The climb is the in-memory
one: the same moves in the same order, so the same DAG. Passes per climb: one for the states
when they are not given, one for the start (the tree start: one for every pair, one for the
tree's families), then one per step whose families were not counted yet, and one for each
restart's perturbed graph.

A pass may count the families of the next few best moves as well (the look-ahead), which most
often saves the next step's pass, at the price of more families per pass. Which pays depends on
what a pass costs beyond its counting. Measured on 10M ALARM rows (benchmarks/RESULTS.md), with
the codes kept from the first pass, a look-ahead of 0 made 77 passes in 55.6 s (Dask, 2 local
workers: 69.3 s), 8 made 30 in 74.9 s (83.1 s), 16 made 27 in 83.8 s (89.3 s); when every pass
parses the file again (5.7 s a pass), 8 saved half the passes. So the depth is
:data:`LOOKAHEAD_READING` while a pass reads the source, 0 once it reads kept codes (a reader's
``lookahead``), unless :data:`LOOKAHEAD` sets it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from bayeskit.data.rows import distinct_rows
from bayeskit.learning._scorer import candidates
from bayeskit.learning.parameters import chunk_codes, merge_distinct
from bayeskit.learning.scores import CountScorer, cell_batches, family_scores
from bayeskit.stats.extensions import extension_counts, family_table, parent_configurations

__all__ = ["ChunkPasses", "PassScores", "add_counts", "count_needs"]

_DENSE_CELLS = 1 << 20  # a table of more cells is counted as its distinct rows (8 MB dense)
#: Moves looked ahead while each pass reads (and parses) the source.
LOOKAHEAD_READING = 8
#: A fixed look-ahead depth for every reader (None: each reader's own; benchmarks set it).
LOOKAHEAD: int | None = None

#: One request: node, its parents (sorted), and whether every extension is asked for too.
Need = tuple[int, tuple[int, ...], bool]


def _table_plan(r: np.ndarray, v: int, parents: tuple[int, ...], ext: bool):
    """A request's shapes: parent configurations ``k`` (None when the family's table is
    sparse), the dense candidates and the sparse ones."""
    k = 1
    for p in parents:
        k *= int(r[p])
    rv = int(r[v])
    family_dense = k * rv <= _DENSE_CELLS
    cands = candidates(len(r), v, parents) if ext else np.zeros(0, dtype=np.int64)
    # k * rv <= _DENSE_CELLS before any product with a candidate's states (no overflow)
    fits = k * rv * r[cands] <= _DENSE_CELLS if family_dense else np.zeros(len(cands), bool)
    return (k if family_dense else None), cands[fits], cands[~fits].tolist()


def _distinct(codes: np.ndarray, columns: list[int], weights: Any) -> tuple:
    """The distinct rows of ``codes``' node-major ``columns`` (row-major) and their weights."""
    return distinct_rows(codes[columns].T, weights, missing="last")


def count_needs(codes: np.ndarray, weights: Any, needs: tuple[Need, ...], r: Any) -> tuple:
    """One part's counts of every family ``needs`` asks for: ``(total weight, [(family,
    dense extensions, {candidate: sparse extension}), ...])``, from node-major state ``codes``
    (``(n_nodes, n_rows)``) and row ``weights`` (None: 1 each). A dense table is a flat array
    (parent configuration times state); a sparse one the distinct rows of its columns (parents
    sorted, then the node) with their weights."""
    r = np.asarray(r, dtype=np.int64)
    m = codes.shape[1]
    flat_weights = None if weights is None else np.asarray(weights, dtype=np.float64)
    kernel_weights = np.empty(0) if flat_weights is None else flat_weights
    total = float(m if flat_weights is None else flat_weights.sum())
    out = []
    for v, parents, ext in needs:
        k, dense, sparse = _table_plan(r, v, parents, ext)
        rv = int(r[v])
        if k is None:
            family: Any = _distinct(codes, [*parents, v], flat_weights)
            ids = None
        else:
            ids, _, _ = parent_configurations(codes, parents, r)
            family = family_table(ids, k, codes[v], rv, flat_weights)
        tables = []
        if len(dense):
            cells = k * r[dense] * rv
            for batch in cell_batches(dense, cells):
                tables.append(
                    extension_counts(codes, kernel_weights, batch, r[batch], ids, k, rv, codes[v])
                )
        wide = {u: _distinct(codes, [*sorted({*parents, u}), v], flat_weights) for u in sparse}
        out.append((family, np.concatenate(tables) if tables else np.zeros(0), wide))
    return total, out


def _add_table(a: Any, b: Any) -> Any:
    return a + b if isinstance(a, np.ndarray) else merge_distinct(a, *b)


def add_counts(a: tuple | None, b: tuple | None) -> tuple | None:
    """Two parts' :func:`count_needs` added (None: a part of no row)."""
    if a is None or b is None:
        return b if a is None else a
    tables = [
        (_add_table(fa, fb), da + db, {u: _add_table(wa[u], wb[u]) for u in wa})
        for (fa, da, wa), (fb, db, wb) in zip(a[1], b[1], strict=True)
    ]
    return a[0] + b[0], tables


def _sparse_score(table: tuple, r: int, q: float, kind: str, n_rows: float, ess: float) -> float:
    """A family's score from its distinct rows (parents, then the node) and their weights."""
    rows, weights = table
    _, _, config = distinct_rows(rows[:, :-1], missing="last", return_inverse=True)
    n_config = int(config.max()) + 1 if len(config) else 0
    flat = family_table(config, n_config, rows[:, -1], r, weights)
    scores = family_scores(flat, r, np.array([n_config]), np.array([q]), kind, n_rows, ess)
    return float(scores[0])


class PassScores(CountScorer):
    """Family scores over data read in passes (the interface of the in-memory scorer,
    :class:`~bayeskit.learning.scores._FamilyScores`): :meth:`prefetch` counts every family
    asked for in one pass of ``read`` and scores it; a family asked for and not counted yet
    costs a pass of its own (the climb prefetches, so that does not happen).

    Parameters
    ----------
    nodes : tuple
    states : dict
        Each node's states.
    read : callable
        ``read(needs)``: one pass over all the data, :func:`count_needs` of every part added
        up with :func:`add_counts` (None for no row).
    kind, ess :
        The score and BDeu's equivalent sample size.
    """

    lazy = True

    def __init__(self, nodes: tuple, states: dict, read: Callable[[tuple[Need, ...]], Any],
                 kind: str, ess: float):  # fmt: skip
        self.nodes, self.states = tuple(nodes), states
        super().__init__([len(states[n]) for n in self.nodes], kind, ess, None)  # rows: 1st pass
        self.read = read
        self.passes = 0

    @property
    def lookahead(self) -> int:
        """Moves whose families a pass counts beyond the next one (module docstring)."""
        if LOOKAHEAD is not None:
            return LOOKAHEAD
        return getattr(self.read, "lookahead", LOOKAHEAD_READING)

    def prefetch(self, needs: Iterable[tuple[int, Any, bool]]) -> None:
        """Count and score, in one pass, every family of ``needs`` not counted yet."""
        wanted: dict[tuple[int, tuple[int, ...]], bool] = {}
        for v, parents, ext in needs:
            if not self.has(v, parents, ext):
                key = (int(v), tuple(sorted(int(p) for p in parents)))
                wanted[key] = wanted.get(key, False) or bool(ext)
        if not wanted:
            return
        plan = tuple((v, parents, ext) for (v, parents), ext in wanted.items())
        counted = self.read(plan)
        self.passes += 1
        if counted is None or counted[0] <= 0:
            msg = "the data holds no rows: there is nothing to learn from"
            raise ValueError(msg)
        if self._n_rows is None:
            self._n_rows = counted[0]
        elif counted[0] != self._n_rows:
            msg = (
                f"the data changed between passes: {counted[0]:g} rows, {self.n_rows:g} before "
                "(structure learning reads it once per climbing step)"
            )
            raise ValueError(msg)
        for need, tables in zip(plan, counted[1], strict=True):
            self._score(need, *tables)

    def _score(self, need: Need, family: Any, dense: np.ndarray, wide: dict) -> None:
        v, parents, ext = need
        k, dense_cands, sparse = _table_plan(self.r, v, parents, ext)
        r, q = int(self.r[v]), float(np.prod(self.r[list(parents)], dtype=np.float64))
        key = (v, frozenset(parents))
        if k is None:
            self.cache[key] = _sparse_score(family, r, q, self.kind, self.n_rows, self.ess)
        else:
            rows = np.array([k], dtype=np.int64)
            self.cache[key] = float(self._scores(family, r, rows, np.array([q]))[0])
        if not ext:
            return
        out = np.full(self.n_nodes, -np.inf)
        if len(dense_cands):
            r_cand = self.r[dense_cands]
            out[dense_cands] = self._scores(dense, r, k * r_cand, q * r_cand.astype(np.float64))
        for u in sparse:
            out[u] = _sparse_score(wide[u], r, q * float(self.r[u]), self.kind, self.n_rows,
                                   self.ess)  # fmt: skip
        out.flags.writeable = False
        self._extended[key] = out

    def close(self) -> None:
        """Let ``read`` free what it holds between passes (spilled chunks, persisted
        partitions)."""
        close = getattr(self.read, "close", None)
        if close is not None:
            close()

    def __call__(self, v: int, parents: frozenset) -> float:
        key = (v, frozenset(parents))
        if key not in self.cache:
            self.prefetch([(v, parents, False)])
        return self.cache[key]

    def extensions(self, v: int, parents: frozenset) -> np.ndarray:
        key = (v, frozenset(parents))
        if key not in self._extended:
            self.prefetch([(v, parents, True)])
        return self._extended[key]


class ChunkPasses:
    """``read`` for :class:`PassScores` over data in chunks (re-iterable): each chunk encoded
    with the nodes' ``states`` and counted, the counts added up.

    The first pass reads the chunks (a Parquet file's text columns as categories, no Python
    string per cell) and keeps each chunk's codes, node-major, one byte per cell for up to
    127 states, in a temporary folder (``spill``, default :func:`tempfile.gettempdir`); the
    passes after it read those back instead of parsing and encoding the file again: on 1M
    ALARM rows (37 text columns, chunks of 250,000) a pass counting one family takes 0.01-0.02
    s instead of 0.33-0.38 s, one counting eight with all their extensions 0.26-0.40 s instead
    of 0.62-0.70 s; the first pass, which writes them, 0.87 s. When the folder cannot be
    written (no space), the passes read the chunks every time. :meth:`close` removes the
    folder.
    """

    def __init__(self, chunks: Any, nodes: tuple, states: dict, spill: Any = None):
        self.source = chunks
        self.nodes, self.states = tuple(nodes), states
        self.n_states = [len(states[n]) for n in self.nodes]
        self.spill = spill
        self._folder: Any = None
        self._files: list | None = None  # the spilled chunks, once a pass has written them
        self._refused = False  # the disk refused once: every pass reads the chunks

    @property
    def lookahead(self) -> int:
        """0 once the codes are kept (a pass costs little beyond its counting), else
        :data:`LOOKAHEAD_READING`."""
        return 0 if self._files is not None else LOOKAHEAD_READING

    def __call__(self, needs: tuple[Need, ...]) -> Any:
        total = None
        for codes in self._codes():
            total = add_counts(total, count_needs(codes, None, needs, self.n_states))
        return total

    def _codes(self):
        """Each chunk's node-major codes: from the spilled files, or read, encoded and
        spilled (the first pass)."""
        if self._files is not None:
            for path in self._files:
                yield np.load(path, allow_pickle=False)
            return
        files: list | None = [] if self._open() else None
        for codes in chunk_codes(self.source, self.nodes, self.states):
            if files is not None:
                files = self._write(files, codes)
            yield codes
        if files is not None:
            self._files = files

    def _open(self) -> bool:
        import tempfile

        if self._refused:
            return False
        try:
            self._folder = tempfile.TemporaryDirectory(prefix="bayeskit-passes-", dir=self.spill)
        except OSError:
            self._refused = True
            return False
        return True

    def _write(self, files: list, codes: np.ndarray) -> list | None:
        """``files`` with ``codes`` spilled as one more; None (and the folder gone) when the
        disk refuses."""
        import os

        path = os.path.join(self._folder.name, f"{len(files)}.npy")
        try:
            np.save(path, codes, allow_pickle=False)
        except OSError:
            self.close()
            self._refused = True
            return None
        return [*files, path]

    def close(self) -> None:
        """Remove the spilled chunks (the passes read the source again after this)."""
        if self._folder is not None:
            self._folder.cleanup()
        self._folder, self._files = None, None
