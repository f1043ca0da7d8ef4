"""Evidence that names a node twice, or names a node also asked for, is refused the same way
by every query: variable elimination, the junction tree, MAP, the batches, the samplers and
``predict_proba``. A node given two states, or two columns, has no one state to condition on
(before, a batch's second column of a node failed deep inside); a node both asked for and
observed would only get its observed state back, so it is refused with a way out rather than
answered by one method and not by another.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from bayeskit.networks import (
    ExactInference,
    GibbsSampler,
    JunctionTree,
    VariableElimination,
    likelihood_weighting,
    read_bif,
    rejection_sampling,
)

ASIA = read_bif(Path(__file__).parent / "data" / "asia.bif.gz")
VE, JT = VariableElimination(ASIA), JunctionTree(ASIA)
EXACT = ExactInference(ASIA, engine="junction-tree")


class _Pairs(Mapping):
    """A mapping that keeps every (key, value) pair it is given, as a mapping type other
    than dict may: keys equal to one node can both be there."""

    def __init__(self, pairs: list[tuple[Any, Any]]):
        self._pairs = pairs

    def __getitem__(self, key: Any) -> Any:
        return next(v for k, v in self._pairs if k == key)

    def __iter__(self) -> Iterator[Any]:
        return iter(k for k, _ in self._pairs)

    def __len__(self) -> int:
        return len(self._pairs)


TWICE = [
    _Pairs([("smoke", "yes"), (np.str_("smoke"), "no")]),
    _Pairs([("smoke", "yes"), ("xray", "yes"), (np.str_("smoke"), "yes")]),  # even agreeing
]

QUERIES = {
    "ve.query": lambda e: VE.query("lung", e),
    "ve.query joint": lambda e: VE.query(["lung", "bronc"], e),
    "jt.query": lambda e: JT.query("lung", e),
    "exact.query": lambda e: EXACT.query("lung", e),
    "ve.probability_of_evidence": lambda e: VE.probability_of_evidence(e),
    "jt.probability_of_evidence": lambda e: JT.probability_of_evidence(e),
    "jt.calibrate": lambda e: JT.calibrate(e),
    "ve.map_query": lambda e: VE.map_query(["lung"], e),
    "likelihood_weighting": lambda e: likelihood_weighting(ASIA, "lung", e, n_samples=50, seed=0),
    "gibbs": lambda e: GibbsSampler(ASIA).query("lung", e, n_draws=20, burn_in=2, seed=0),
}


@pytest.mark.parametrize("evidence", TWICE, ids=["two states", "one state twice"])
@pytest.mark.parametrize("query", QUERIES.values(), ids=QUERIES.keys())
def test_evidence_naming_a_node_twice_is_refused(query, evidence):
    with pytest.raises(ValueError, match="evidence names node 'smoke' twice"):
        query(evidence)


FRAMES = [
    pd.DataFrame([["yes", "no"]], columns=["smoke", "smoke"]),
    pd.DataFrame([["yes", "yes", "yes"]], columns=["xray", "smoke", "smoke"]),
    pd.DataFrame([["yes", None], [None, "no"]], columns=["smoke", "smoke"]),  # never both
]
BATCHES = {
    "ve": lambda f: VE.query_batch("lung", f),
    "ve joint": lambda f: VE.query_batch(["lung", "bronc"], f, joint=True),
    "jt": lambda f: JT.query_batch("lung", f),
    "jt several": lambda f: JT.query_batch(["lung", "bronc"], f),
    "exact": lambda f: EXACT.query_batch("lung", f),
    "predict_proba": lambda f: ASIA.predict_proba(f, "lung"),
}


@pytest.mark.parametrize("frame", FRAMES, ids=["two", "among others", "alternating"])
@pytest.mark.parametrize("batch", BATCHES.values(), ids=BATCHES.keys())
def test_a_batch_with_two_columns_of_a_node_is_refused(batch, frame):
    with pytest.raises(ValueError, match="evidence has two columns for node 'smoke'"):
        batch(frame)


ASKED = {
    "ve.query": (lambda: VE.query("lung", {"lung": "yes"}), "queried"),
    "ve.query joint": (lambda: VE.query(["bronc", "lung"], {"lung": "yes"}), "queried"),
    "ve.query marginals": (
        lambda: VE.query(["bronc", "lung"], {"lung": "yes"}, joint=False),
        "queried",
    ),
    "jt.query": (lambda: JT.query("lung", {"lung": "yes"}), "queried"),
    "jt.query joint": (lambda: JT.query(["bronc", "lung"], {"lung": "yes"}), "queried"),
    "ve.query_batch": (lambda: VE.query_batch("lung", pd.DataFrame({"lung": ["yes"]})), "queried"),
    "ve.query_batch missing": (
        lambda: VE.query_batch("lung", pd.DataFrame({"lung": [None], "xray": ["yes"]})),
        "queried",
    ),
    "jt.query_batch": (lambda: JT.query_batch("lung", pd.DataFrame({"lung": ["yes"]})), "queried"),
    "exact.query": (lambda: EXACT.query("lung", {"lung": "yes"}), "queried"),
    "exact.query_batch": (
        lambda: EXACT.query_batch("lung", pd.DataFrame({"lung": ["yes"]})),
        "queried",
    ),
    "jt.query_batch missing": (
        lambda: JT.query_batch("lung", pd.DataFrame({"lung": [None], "xray": ["yes"]})),
        "queried",
    ),
    "ve.map_query": (lambda: VE.map_query(["lung"], {"lung": "yes"}), "maximised"),
    "gibbs": (lambda: GibbsSampler(ASIA).query("lung", {"lung": "yes"}, seed=0), "queried"),
    "likelihood_weighting": (
        lambda: likelihood_weighting(ASIA, "lung", {"lung": "yes"}, seed=0),
        "queried",
    ),
    "rejection_sampling": (
        lambda: rejection_sampling(ASIA, "lung", {"lung": "yes"}, seed=0),
        "queried",
    ),
}


@pytest.mark.parametrize(("query", "verb"), ASKED.values(), ids=ASKED.keys())
def test_a_node_both_asked_for_and_observed_is_refused_everywhere(query, verb):
    with pytest.raises(ValueError, match=rf"\['lung'\] are both {verb} and observed: .*leave it"):
        query()


def test_calibrate_and_predict_leave_the_observed_nodes_out():
    """What asks for every node (calibrate) or fills one column from the others (predict)
    leaves the observed nodes out rather than refusing: documented, and the same answer."""
    marginals = JT.calibrate({"lung": "yes"})
    assert "lung" not in marginals
    frame = pd.DataFrame({"lung": ["yes"], "xray": ["yes"]})
    proba = ASIA.predict_proba(frame, "lung")
    np.testing.assert_allclose(proba.to_numpy()[0], VE.query("lung", {"xray": "yes"}).values)
