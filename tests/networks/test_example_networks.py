"""The bundled example networks: each loads, with the counts of the bnlearn repository."""

import gzip
from importlib import resources

import numpy as np
import pytest

from bayeskit.networks import BayesianNetwork, example_network, read_bif
from bayeskit.networks.examples import NAMES

# Nodes, arcs and free parameters, as the table of the reference networks gives them (counted
# from the files; they agree with the summaries of the bnlearn repository).
COUNTS = {
    "asia": (8, 8, 18),
    "cancer": (5, 4, 10),
    "earthquake": (5, 4, 10),
    "sachs": (11, 17, 178),
    "survey": (6, 6, 21),
    "alarm": (37, 46, 509),
    "child": (20, 25, 230),
    "insurance": (27, 52, 1008),
}


def test_names_are_the_counted_networks():
    assert sorted(NAMES) == sorted(COUNTS)


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_example_network_counts(name):
    net = example_network(name)
    n_nodes, n_arcs, n_parameters = COUNTS[name]
    assert isinstance(net, BayesianNetwork)
    assert len(net.nodes) == n_nodes
    assert len(net.dag.edges) == n_arcs
    assert sum(len(net.dag.parents(node)) for node in net.nodes) == n_arcs
    assert net.n_parameters == n_parameters


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_example_network_is_the_bundled_file(name):
    # read_bif on the bundled bytes gives the same network, and every CPT row sums to 1
    data = resources.files("bayeskit.networks.examples").joinpath(f"{name}.bif.gz").read_bytes()
    assert gzip.decompress(data).lstrip().startswith(b"network")
    net = example_network(name)
    again = read_bif(resources.files("bayeskit.networks.examples").joinpath(f"{name}.bif.gz"))
    assert again.nodes == net.nodes
    for node in net.nodes:
        np.testing.assert_array_equal(again.cpt(node), net.cpt(node))
        np.testing.assert_allclose(net.cpt(node).sum(axis=-1), 1.0, atol=1e-6)


def test_each_call_gives_a_new_network():
    assert example_network("asia") is not example_network("asia")


@pytest.mark.parametrize("name", ["alarm.bif", "ALARM", "munin", "", 3, None])
def test_unknown_name_is_refused_with_the_names(name):
    with pytest.raises(ValueError, match="unknown example network") as info:
        example_network(name)
    message = str(info.value)
    assert repr(name) in message
    for known in COUNTS:
        assert known in message
