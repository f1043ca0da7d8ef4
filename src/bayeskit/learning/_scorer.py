"""What a structure search asks of a family scorer (:class:`Scorer`), whatever the data: the
interface shared by the scorers of discrete data (counts, :mod:`bayeskit.learning.scores`),
of data read in passes (:mod:`bayeskit.learning.passes`) and of continuous data (scatter
moments, :mod:`bayeskit.learning.gaussian_scores`)."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = ["Scorer", "candidates"]


class Scorer:
    """What the climb asks of a family scorer: ``scorer(v, parents)`` (a family's score),
    ``scorer.extensions(v, parents)`` (with each other node added as a parent), both kept once
    computed; ``prefetch(needs)``, the families the next calls will ask for, ``(node, parents,
    extensions too)``, counted together where that saves passes over the data (``lazy``);
    ``lookahead``, the next best moves' families to count with them; ``close``. In memory
    every family is counted when asked for (the search's in-memory scorer); over data read in
    passes see :class:`bayeskit.learning.passes.PassScores`."""

    lazy = False

    def __init__(self, r: Any, kind: str, ess: float, n_rows: float | None):
        self.r = np.asarray(r, dtype=np.int64)
        self.n_nodes = len(self.r)
        self.kind, self.ess = kind, ess
        self._n_rows = n_rows  # None: known once a first pass has read the data
        self.cache: dict[tuple[int, frozenset], float] = {}
        self._extended: dict[tuple[int, frozenset], np.ndarray] = {}

    @property
    def lookahead(self) -> int:
        """Moves whose families a pass counts beyond the next one: none in memory."""
        return 0

    @property
    def n_rows(self) -> float:
        """The data's number of rows (their total weight), which the scores' penalties use."""
        if self._n_rows is None:
            msg = "the data has not been read yet: its number of rows is not known"
            raise RuntimeError(msg)
        return self._n_rows

    def has(self, v: int, parents: frozenset, ext: bool) -> bool:
        """Whether ``v``'s family with ``parents`` (and, with ``ext``, its extensions) is kept."""
        key = (v, frozenset(parents))
        return key in self.cache and (not ext or key in self._extended)

    def __call__(self, v: int, parents: frozenset) -> float:
        """The score of ``v``'s family with ``parents`` (each kind of scorer computes it)."""
        raise NotImplementedError

    def extensions(self, v: int, parents: frozenset) -> np.ndarray:
        """``out[u]``: the score of ``v`` given ``parents | {u}`` for every node ``u`` not in
        the family (``-inf`` for the others), kept once computed (read-only)."""
        key = (v, parents)
        if key not in self._extended:
            out = np.full(self.n_nodes, -np.inf)
            cands = candidates(self.n_nodes, v, parents)
            if len(cands):
                out[cands] = self._extend(v, parents, cands)
            out.flags.writeable = False
            self._extended[key] = out
        return self._extended[key]

    def _extend(self, v: int, parents: frozenset, cands: np.ndarray) -> np.ndarray:
        """The scores of ``v`` given ``parents`` and each candidate in ``cands``: by default
        one family score each; scorers that score them together override it."""
        return np.array([self(v, parents | {int(u)}) for u in cands])

    def rescored(self, kind: str) -> Scorer:
        """The same data under the score ``kind``: a scorer sharing this one's data (rows,
        moments or passes), its families scored afresh. Closing it closes nothing; close the
        first.

        Examples
        --------
        >>> import numpy as np, pandas as pd
        >>> from bayeskit.learning.data_scorers import family_scorer
        >>> data = pd.DataFrame({"a": [0, 0, 1, 1] * 10, "b": [0, 1, 1, 1] * 10})
        >>> bic, _ = family_scorer(data, "bic", 1.0, None, None)
        >>> aic = bic.rescored("aic")
        >>> bool(aic(1, frozenset()) > bic(1, frozenset()))  # BIC's penalty: ln(40) / 2 > 1
        True
        """
        other = copy.copy(self)
        other.kind = kind
        other.cache, other._extended = {}, {}
        other.close = lambda: None  # type: ignore[method-assign]
        return other

    def prefetch(self, needs: Iterable[tuple[int, frozenset, bool]]) -> None:
        """Nothing to do where each family is counted when asked for."""

    def close(self) -> None:
        """Nothing held beyond the scores."""


def candidates(n_nodes: int, v: int, parents: Iterable[int]) -> np.ndarray:
    """The nodes that could join ``v``'s family as a parent: every other node not in it."""
    return np.array([u for u in range(n_nodes) if u != v and u not in parents], dtype=np.int64)
