"""Conformance: the KNN classifier as a non-parametric Bayes classifier.

Case ``zaki-ex18.5-knn-iris-2d``: seed ``002_c29c00ad3fc7f344.txt``, Zaki & Meira, *Data Mining and
Machine Learning*, Sect. 18.3 (``P(c_i | x) = K_i / K``), Example 18.5: K = 5, euclidean
distance, 2-D Iris (sepal length and width), c1 = setosa, c2 = the other two species, query
x = (6.75, 4.25). Every output except the ``seed_arithmetic`` ones is tested, one test each.

The case records a seed ambiguity: the seed's 5th neighbour (6.2, 3.4) at r = 1.012 holds only if
the two identical training rows (6.7, 3.3) count once. Standard KNN (and KNNBayes) counts every
training row, giving r = 0.982; outputs marked ``"duplicates": "merged"`` are asked of a model
fitted on the distinct rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from _cases import case, check, outputs, textbook_frame

from bayeskit import KNNBayes

CASE_ID = "zaki-ex18.5-knn-iris-2d"


def _fitted(duplicates: str) -> tuple[KNNBayes, pd.DataFrame]:
    c = case(CASE_ID)
    inp = c["inputs"]
    df = textbook_frame(inp["data"])
    table = df[inp["features"]].assign(cls=df["species"].map(inp["class_map"]))
    if duplicates == "merged":
        table = table.drop_duplicates()
    assert c["method"]["metric"] == "euclidean"
    model = KNNBayes(n_neighbors=c["method"]["K"], metric="euclidean")
    model.fit(table[inp["features"]], table["cls"])
    query = pd.DataFrame([inp["query"]], columns=inp["features"])
    return model, query


def _got(out: dict):
    q = out["quantity"]
    model, x = _fitted(q.get("duplicates", "counted"))
    kind = q["kind"]
    if kind == "count":  # "neighbours of class c1"
        label = q["what"].split()[-1]
        return int(model.neighbor_counts(x)[0, list(model.classes_).index(label)])
    if kind == "predicted_class":
        return model.predict(x)[0]
    if kind == "posterior":
        return model.predict_proba(x)[0, list(model.classes_).index(q["class"])]
    if kind == "knn_radius":
        return model.radius(x)[0]
    if kind == "knn_radius_squared":
        return model.radius(x)[0] ** 2
    if kind == "point":  # the K-th nearest training point
        _, ind = model.kneighbors(x)
        return model.stats_.values[ind[0, -1]]
    raise AssertionError(f"no test for quantity kind {kind!r}")


# zaki-ex18.5-knn-iris-2d: seed 002, Zaki & Meira Sect. 18.3, Example 18.5
@pytest.mark.parametrize("out", outputs(CASE_ID), ids=lambda o: o["name"])
def test_zaki_ex18_5_knn(out):
    check(_got(out), out)


def test_zaki_ex18_5_density_is_k_i_over_n_i_v():
    # The density behind the posterior (Sect. 18.3): f(x | c_i) = K_i / (n_i V), V = pi r^2.
    model, x = _fitted("counted")
    r = model.radius(x)[0]
    np.testing.assert_allclose(
        model.density(x)[0], [1 / (50 * np.pi * r**2), 4 / (100 * np.pi * r**2)], rtol=1e-12
    )
