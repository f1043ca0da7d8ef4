"""What a MAP or MPE query answers (:class:`MAPResult`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.factors.display import Grid, number_texts, shown_at

__all__ = ["MAPResult"]


@dataclass(frozen=True, eq=False)
class MAPResult:
    """A MAP or MPE answer: the most probable joint state of the maximised nodes given the
    evidence.

    Attributes
    ----------
    assignment : dict
        Node -> its state (name), in the order the nodes were asked for (network order for
        MPE).
    probability : float
        ``P(assignment | evidence)``.
    log_probability : float
        Its natural log (exact where ``probability`` underflows).
    evidence : dict
        The evidence given, node -> state.

    ``assignment, probability = result`` unpacks it as the pair ``map_query`` returned
    before, and ``result[0]``, ``result[1]`` index it so.

    Examples
    --------
    >>> from bayeskit.networks import DAG, BayesianNetwork, VariableElimination
    >>> yn = ["yes", "no"]
    >>> net = BayesianNetwork(DAG(edges=[("rain", "wet")]),
    ...     {"rain": [0.2, 0.8], "wet": [[0.9, 0.1], [0.2, 0.8]]},
    ...     states={"rain": yn, "wet": yn})
    >>> result = VariableElimination(net).map_query(["rain"], {"wet": "yes"})
    >>> result.assignment, round(result.probability, 4)  # 0.18 / 0.34
    ({'rain': 'yes'}, 0.5294)
    """

    assignment: dict[Any, str]
    probability: float
    log_probability: float
    evidence: dict[Any, str] = field(default_factory=dict)

    def __iter__(self):
        return iter((self.assignment, self.probability))

    def __getitem__(self, index: int | slice) -> Any:
        return (self.assignment, self.probability)[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MAPResult):
            return (self.assignment, self.probability, self.log_probability, self.evidence) == (
                other.assignment, other.probability, other.log_probability, other.evidence
            )  # fmt: skip
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def to_pandas(self) -> pd.Series:
        """The assignment as a Series: node -> state.

        Returns
        -------
        Series
            The state names, indexed by the maximised nodes (index named ``"node"``) in
            :attr:`assignment`'s order; the Series is named ``"state"``.

        Examples
        --------
        >>> result = MAPResult({"rain": "yes", "wet": "no"}, 0.25, np.log(0.25))
        >>> result.to_pandas().to_dict(), result.to_pandas().index.name
        ({'rain': 'yes', 'wet': 'no'}, 'node')
        """
        return pd.Series(self.assignment, dtype=object, name="state").rename_axis("node")

    def __repr__(self) -> str:
        return self._grid().text()

    def _repr_html_(self) -> str:
        return self._grid().html()

    def _grid(self) -> Grid:
        items = list(self.assignment.items())
        at, gap = shown_at(len(items))
        rows: list[Any] = []
        for r, k in enumerate(at.tolist()):
            if r == gap:
                rows.append(None)
            rows.append(([str(items[k][0]), str(items[k][1])], []))
        given = f" given {self.evidence}" if self.evidence else ""
        p = number_texts(np.array([self.probability]))[0]
        head = f"MAPResult: probability {p} (log {self.log_probability:.6g}){given}"
        note = None if gap is None else f"[{len(items):,} nodes, {len(at)} shown]"
        return Grid(["node", "state"], [], rows, note=note, title=head)
