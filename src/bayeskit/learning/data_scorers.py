"""The family scorer of any data a structure search takes (the one interface of
:mod:`bayeskit.learning._scorer`): counts of discrete data in memory, data in chunks (their
distinct rows, or a pass per step), scatter moments of continuous columns; and the score
settings every score-based search checks first."""

from __future__ import annotations

from typing import Any

import pandas as pd

from bayeskit._text import shown
from bayeskit.data.validation import check_count, check_real
from bayeskit.learning.parameters import NetworkData, distinct_chunk_rows, encode_data, in_chunks
from bayeskit.learning.passes import ChunkPasses, PassScores
from bayeskit.learning.scores import SCORES, _FamilyScores, moment_scorer, refuse_bge

__all__ = ["MAX_DISTINCT_ROWS", "check_score_settings", "family_scorer"]

#: Data in chunks: the most distinct rows a search holds in memory before it reads the chunks
#: again at every step instead (:mod:`bayeskit.learning.passes`).
MAX_DISTINCT_ROWS = 2_000_000


def check_score_settings(score: Any, ess: Any, max_distinct_rows: Any) -> None:
    """ValueError naming the setting unless ``score`` is a score's name, ``ess`` positive and
    ``max_distinct_rows`` a count or None."""
    if score not in SCORES:
        msg = f"score must be one of {SCORES}, got {shown(score)}"
        raise ValueError(msg)
    check_real("ess", ess, above=0)
    check_count("max_distinct_rows", max_distinct_rows, none_ok=True)


def family_scorer(data: Any, score: str, ess: float, states: Any, sample_weight: Any,
                  max_distinct_rows: int | None = None):  # fmt: skip
    """The family scorer of ``data`` (a DataFrame; data in chunks; data a caller of this
    package encoded already, :class:`NetworkData`; or a scorer built already) and its
    nodes."""
    if isinstance(data, PassScores):
        return data, list(data.nodes)
    if isinstance(data, NetworkData):
        return _FamilyScores(data, score, ess), list(data.nodes)
    if in_chunks(data):
        if sample_weight is not None:
            msg = "sample_weight goes with a DataFrame; chunks carry no weights"
            raise ValueError(msg)
        # data in chunks: their distinct rows, or a pass per climbing step when too many
        nodes, given, rows = distinct_chunk_rows(data, states, max_distinct_rows)
        if rows is None:
            passes = ChunkPasses(data, nodes, given)
            return PassScores(nodes, given, passes, score, ess), list(nodes)
        return _FamilyScores(NetworkData(nodes, given, *rows), score, ess), list(nodes)
    names = list(data.columns) if isinstance(data, pd.DataFrame) else []
    if isinstance(data, pd.DataFrame):  # continuous columns: moments (linear-Gaussian or CLG)
        scorer = moment_scorer(data, score, ess, states, sample_weight)
        if scorer is not None:
            return scorer, names
    refuse_bge(score)
    return _FamilyScores(encode_data(names, data, states, sample_weight), score, ess), names
