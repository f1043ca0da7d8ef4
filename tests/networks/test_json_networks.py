"""JSON network files: what the writer accepts the reader returns exactly, and untrusted
files are refused with the node and the rule."""

import gzip
import io
import json

import numpy as np
import pytest
from tests.networks.test_hybrid_inference import _clg

from bayeskit.factors import CPD, LinearGaussianCPD
from bayeskit.graphs import DAG
from bayeskit.networks import HybridNetwork, example_network
from bayeskit.networks.json_format import NetworkJSONError, read_json, write_json


def _same(a, b):
    assert a.nodes == b.nodes
    assert set(a.dag.edges) == set(b.dag.edges)
    for v in a.nodes:
        x, y = a.cpd(v), b.cpd(v)
        assert type(x) is type(y)
        assert x.parents == y.parents
        if isinstance(x, CPD):
            assert np.array_equal(x.values, y.values)
            assert dict(x.states) == dict(y.states)
        else:
            for attr in ("intercept", "coefficients", "variance"):
                assert np.array_equal(getattr(x, attr), getattr(y, attr))  # bit for bit
            assert x.discrete_parents == y.discrete_parents


def test_round_trips_are_exact(tmp_path):
    rng = np.random.default_rng(0)
    net = _clg()
    odd = HybridNetwork(DAG(["x"]), [LinearGaussianCPD("x", [], rng.normal(), [], 1 / 3)])
    for original in (net, odd):
        out = io.StringIO()
        write_json(original, out)
        _same(original, read_json(io.StringIO(out.getvalue())))
    path = tmp_path / "net.json.gz"
    write_json(net, path)
    _same(net, read_json(path))
    discrete = example_network("asia")
    path = tmp_path / "asia.json"
    write_json(discrete, path)
    back = read_json(path)
    for v in discrete.nodes:
        assert np.array_equal(back.cpd(v).values, discrete.cpt(v))


def _document(**changes):
    doc = {"format": "bayeskit-network", "version": 1, "nodes": [
        {"name": "a", "kind": "discrete", "states": ["x", "y"], "parents": [], "table": [0.5, 0.5]},
        {"name": "v", "kind": "continuous", "parents": ["a"], "intercept": [0.0, 1.0],
         "coefficients": [[], []], "variance": [1.0, 2.0]},
    ]}  # fmt: skip
    doc.update(changes)
    return doc


def _read(doc, **kw):
    text = doc if isinstance(doc, str) else json.dumps(doc)
    return read_json(io.StringIO(text), **kw)


def _with_node(k, **changes):
    doc = _document()
    doc["nodes"][k] = {**doc["nodes"][k], **changes}
    return doc


@pytest.mark.parametrize(
    ("doc", "match"),
    [
        ("not json", "not JSON"),
        ('{"format": "bayeskit-network", "format": "x"}', "appears twice"),
        ('{"format": "bayeskit-network", "version": 1, "nodes": [NaN]}', "NaN"),
        (_document(format="bif"), "no bayeskit network"),
        (_document(version=2), "version 2 is not known"),
        (_document(nodes={}), "nodes must be a list"),
        (_with_node(0, name=3), "node 0 has no name"),
        (_with_node(1, name="a"), "'a' appears twice"),
        (_with_node(1, kind="ordinal"), "kind must be"),
        (_with_node(0, states=[]), "states must not be empty"),
        (_with_node(0, table=[0.5, True]), "table must be nested lists of numbers of shape"),
        (_with_node(0, table=[0.5, 0.6]), "'a'"),
        (_with_node(1, parents=["b"]), "parent 'b' is no node"),
        (_with_node(1, variance=[1.0, -1.0]), "variance of 'v' must be positive"),
        (_with_node(1, coefficients=[[1.0], []]), "coefficients must be nested lists"),
        (_with_node(0, parents=["v"], table=[[0.5, 0.5]]), "a discrete node may not have"),
    ],
)
def test_untrusted_files_are_refused_with_the_rule(doc, match):
    with pytest.raises(NetworkJSONError, match=match):
        _read(doc)


def test_sizes_are_checked_before_anything_is_built():
    states = [str(k) for k in range(1000)]
    doc = {"format": "bayeskit-network", "version": 1, "nodes": [
        {"name": "a", "kind": "discrete", "states": states, "parents": [], "table": [0.001] * 1000},
        {"name": "b", "kind": "discrete", "states": states, "parents": ["a"], "table": [[1.0]]},
    ]}  # fmt: skip
    with pytest.raises(NetworkJSONError, match="1,000,000 cells, over max_cells=1,000"):
        _read(doc, max_cells=1000)
    with pytest.raises(NetworkJSONError, match="larger than max_bytes=10"):
        _read(_document(), max_bytes=10)
    broken = gzip.compress(b'{"format": "bayeskit-network"')[:-6]
    with pytest.raises(NetworkJSONError, match="gzip"):
        read_json(io.BytesIO(broken))


def test_names_json_cannot_hold_are_refused_before_writing():
    net = HybridNetwork(DAG([1]), [LinearGaussianCPD(1, [], 0.0, [], 1.0)])
    with pytest.raises(ValueError, match="names nodes by strings"):
        write_json(net, io.StringIO())
