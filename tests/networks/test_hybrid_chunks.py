"""Fitting a network of discrete and continuous nodes from pieces of data: chunks and Dask
partitions give the network one fit on all the rows gives."""

import numpy as np
import pandas as pd
import pytest

from bayeskit.graphs import DAG
from bayeskit.networks import HybridNetwork, merge_statistics


def _data(n=3000, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.choice(["lo", "hi"], size=n, p=[0.3, 0.7])
    y = rng.normal(size=n)
    x = np.where(a == "hi", 2.0 + y, -1.0 - 0.5 * y) + rng.normal(size=n)
    frame = pd.DataFrame({"a": a, "y": y, "x": x})
    frame.loc[5, "x"] = np.nan  # a missing value leaves its row out of x's family
    return frame


DAG_AXY = DAG(edges=[("a", "x"), ("y", "x")])


def _close(a, b):
    for v in a.nodes:
        ca, cb = a.cpd(v), b.cpd(v)
        if a.is_continuous(v):
            for attr in ("intercept", "coefficients", "variance"):
                np.testing.assert_allclose(getattr(ca, attr), getattr(cb, attr), rtol=1e-10)
        else:
            np.testing.assert_allclose(ca.values, cb.values, rtol=1e-12)
            assert dict(ca.states) == dict(cb.states)


def test_chunks_give_the_network_of_all_rows():
    data = _data()
    whole = HybridNetwork.fit(DAG_AXY, data)
    chunks = [data.iloc[k : k + 700] for k in range(0, len(data), 700)]
    _close(whole, HybridNetwork.fit(DAG_AXY, chunks))
    shell = HybridNetwork.template(DAG_AXY, data)
    stats = merge_statistics(shell.statistics(chunks[0]), shell.statistics(chunks[1]))
    two = shell.estimated(stats)
    _close(two, HybridNetwork.fit(DAG_AXY, data.iloc[:1400], states={"a": ["hi", "lo"]}))


def test_states_are_gathered_from_every_chunk():
    data = _data()
    first = data[data["a"] == "lo"]
    rest = data[data["a"] == "hi"]
    net = HybridNetwork.fit(DAG_AXY, [first, rest])
    assert net.states("a") == ("hi", "lo")
    with pytest.raises(ValueError, match="there is no data"):
        HybridNetwork.fit(DAG_AXY, iter([]))


def test_dask_partitions_give_the_network_of_all_rows():
    dd = pytest.importorskip("dask.dataframe")
    from bayeskit.dask import fit_hybrid

    data = _data()
    whole = HybridNetwork.fit(DAG_AXY, data)
    _close(whole, fit_hybrid(DAG_AXY, dd.from_pandas(data, npartitions=5)))
    with pytest.raises(TypeError, match="dask DataFrame"):
        fit_hybrid(DAG_AXY, data)
