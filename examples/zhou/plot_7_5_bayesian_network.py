r"""
The watermelon Bayesian network: structure, independence and the moral graph
=============================================================================

Zhou, *Machine Learning*, section 7.5 and 7.5.1, Eqs. (7.26)-(7.27), Figs. 7.2-7.4.

A Bayesian network :math:`B = \langle G, \Theta \rangle` is a directed acyclic graph
:math:`G` with a conditional probability table (CPT) :math:`\theta_{x_i \mid \pi_i} =
P_B(x_i \mid \pi_i)` for each node given its parents :math:`\pi_i`; the joint distribution is
their product (Eq. 7.26),

.. math::

    P_B(x_1, \ldots, x_d) = \prod_{i=1}^d P_B(x_i \mid \pi_i) = \prod_{i=1}^d
    \theta_{x_i \mid \pi_i}.

The book's watermelon network (Fig. 7.2) has five nodes, ripe (:math:`x_1`), sweetness
(:math:`x_2`), sound (:math:`x_3`), color (:math:`x_4`) and root (:math:`x_5`), and factorises
as (Eq. 7.27)

.. math::

    P(x_1, x_2, x_3, x_4, x_5) = P(x_1) P(x_2) P(x_3 \mid x_1) P(x_4 \mid x_1, x_2)
    P(x_5 \mid x_2).

This example builds that network with :class:`~bayeskit.networks.BayesianNetwork`, checks the
conditional independences the book reads off it by d-separation (:meth:`DAG.d_separated
<bayeskit.networks.DAG.d_separated>`), and draws the DAG, the three structures of Fig. 7.3
and the moral graph of Fig. 7.4.
"""

import itertools

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
import pandas as pd

from bayeskit.inference import VariableElimination
from bayeskit.networks import DAG, BayesianNetwork
from bayeskit.plot import network

# %%
# The network of Fig. 7.2
# -----------------------
# The book prints one entry of one table: :math:`P(\mathrm{root}=\mathrm{straight} \mid
# \mathrm{sweetness}=\mathrm{high}) = 0.1` (sweetness is the sugar content made discrete). The
# rest of the root table and the other tables below are illustrative values chosen for this
# example, not the book's. Each table's last axis is the node's states, its first axes the
# parents' in the order the DAG lists them.

edges = [("ripe", "sound"), ("ripe", "color"), ("sweetness", "color"), ("sweetness", "root")]
states = {
    "ripe": ["true", "false"],
    "sweetness": ["high", "low"],
    "sound": ["muffled", "dull", "crisp"],
    "color": ["green", "dark", "light"],
    "root": ["straight", "curly"],
}
cpts = {
    "ripe": [0.47, 0.53],
    "sweetness": [0.4, 0.6],
    "sound": [[0.7, 0.2, 0.1], [0.4, 0.35, 0.25]],  # given ripe = true, false
    "color": [  # given (ripe, sweetness)
        [[0.5, 0.4, 0.1], [0.4, 0.4, 0.2]],
        [[0.3, 0.3, 0.4], [0.2, 0.3, 0.5]],
    ],
    "root": [[0.1, 0.9], [0.7, 0.3]],  # given sweetness = high (the book's 0.1), low
}
net = BayesianNetwork(DAG(edges=edges), cpts, states=states)
print(net.cpd("root"))

fig, ax = plt.subplots(figsize=(5, 2.6))
ax.set_title("Fig. 7.2: the watermelon network")
fig.tight_layout()
network(net, ax=ax, highlight=["root"])
plt.show()

# %%
# The book's entry, read from the network's table of root:

root = net.cpt("root")
high, straight = states["sweetness"].index("high"), states["root"].index("straight")


def compare(rows):
    """Print quantity, book and bayeskit side by side, and check that bayeskit's figure rounds
    to the book's: within half a unit of the last digit the book prints."""
    table = pd.DataFrame(rows, columns=["quantity", "book", "bayeskit"])
    print(table.to_string(index=False))
    for quantity, book, ours in rows:
        mantissa, _, exponent = book.lower().partition("e")
        digits = len(mantissa.partition(".")[2])
        tol = 0.5 * 10.0 ** (int(exponent or 0) - digits) + 1e-12
        assert abs(float(book) - ours) <= tol, (quantity, book, ours)


compare([("P(root=straight | sweetness=high)", "0.1", root[high, straight])])
assert net.dag.parents("color") == ("ripe", "sweetness")

# %%
# The joint is the product of Eq. (7.27): one assignment by hand, and the 2 x 2 x 3 x 3 x 2 =
# 72 assignments summing to one.

x = {"ripe": "true", "sweetness": "high", "sound": "muffled", "color": "green", "root": "curly"}
by_hand = 0.47 * 0.4 * 0.7 * 0.5 * 0.9
print(f"P(x) = {net.probability(x):.6f}, by Eq. (7.27): {by_hand:.6f}")
assert np.isclose(net.probability(x), by_hand)
nodes = list(states)
total = sum(
    net.probability(dict(zip(nodes, values, strict=True)))
    for values in itertools.product(*states.values())
)
assert np.isclose(total, 1.0)

# %%
# The three structures of Fig. 7.3
# --------------------------------
# Common parent: :math:`x_3 \perp x_4 \mid x_1`, but not :math:`x_3 \perp x_4`.
# V-structure: :math:`x_1 \perp x_2` (marginal independence), but not given :math:`x_4`.
# Chain (the book's "cascade"): :math:`y \perp z \mid x`, but not :math:`y \perp z`.

structures = {
    "common parent": DAG(edges=[("x1", "x3"), ("x1", "x4")]),
    "V-structure": DAG(edges=[("x1", "x4"), ("x2", "x4")]),
    "chain": DAG(edges=[("z", "x"), ("x", "y")]),
}
fig, axes = plt.subplots(1, 3, figsize=(9, 2.6))
for ax, name in zip(axes, structures, strict=True):
    ax.set_title(name)
fig.tight_layout()  # before drawing: a network is scaled to its axes as they are then
for ax, dag in zip(axes, structures.values(), strict=True):
    network(dag, ax=ax)
plt.show()

three = [
    ("common parent", "x3", "x4", ["x1"], True),
    ("common parent", "x3", "x4", [], False),
    ("V-structure", "x1", "x2", [], True),
    ("V-structure", "x1", "x2", ["x4"], False),
    ("chain", "y", "z", ["x"], True),
    ("chain", "y", "z", [], False),
]
for name, a, b, given, book in three:
    assert structures[name].d_separated(a, b, given) is book, (name, a, b, given)

# %%
# The network's numbers show the same. Sweetness and ripeness are independent until the color
# is seen (the V-structure ripe -> color <- sweetness); sound and color depend on each other
# through ripeness, and no longer once ripeness is known (the common parent).

ve = VariableElimination(net)
print(ve.query(["ripe", "sweetness"]))
pair = ve.query(["ripe", "sweetness"]).values
assert np.allclose(pair, np.outer(cpts["ripe"], cpts["sweetness"]))
print(ve.query(["ripe", "sweetness"], {"color": "green"}))
seen = ve.query(["ripe", "sweetness"], {"color": "green"}).values
margins = np.outer(seen.sum(axis=1), seen.sum(axis=0))
print("the product of its margins (ripe by sweetness):")
print(pd.DataFrame(margins, index=states["ripe"], columns=states["sweetness"]).round(4))
assert not np.allclose(seen, margins)
sound_color = ve.query(["sound", "color"]).values
assert not np.allclose(sound_color, np.outer(sound_color.sum(1), sound_color.sum(0)))
known = ve.query(["sound", "color"], {"ripe": "true"}).values
assert np.allclose(known, np.outer(known.sum(1), known.sum(0)))

# %%
# d-separation in the network of Fig. 7.2
# ---------------------------------------
# Below Fig. 7.4 the book lists :math:`x_3 \perp x_4 \mid x_1`, :math:`x_4 \perp x_5 \mid x_2`,
# :math:`x_3 \perp x_2 \mid x_1`, :math:`x_3 \perp x_5 \mid x_1` and :math:`x_3 \perp x_5
# \mid x_2`; the text around Fig. 7.3 adds the V-structure :math:`x_1 \to x_4 \leftarrow x_2`
# and the common parent :math:`x_1` of :math:`x_3` and :math:`x_4`. bayeskit tests
# d-separation as the book describes: keep :math:`x`, :math:`y`, :math:`\mathbf z` and their
# ancestors, moralise, remove :math:`\mathbf z`, and look for a path from :math:`x` to
# :math:`y`.

names = {"x1": "ripe", "x2": "sweetness", "x3": "sound", "x4": "color", "x5": "root"}
fig72 = DAG(edges=[("x1", "x3"), ("x1", "x4"), ("x2", "x4"), ("x2", "x5")])
statements = [
    ("x3", "x4", ["x1"], True),
    ("x4", "x5", ["x2"], True),
    ("x3", "x2", ["x1"], True),
    ("x3", "x5", ["x1"], True),
    ("x3", "x5", ["x2"], True),
    ("x1", "x2", [], True),
    ("x1", "x2", ["x4"], False),
    ("x3", "x4", [], False),
]
rows = []
for a, b, given, book in statements:
    z = "{" + ", ".join(given) + "}"
    meaning = f"{names[a]} _||_ {names[b]} | {{{', '.join(names[g] for g in given)}}}"
    rows.append((f"{a} _||_ {b} | {z}", meaning, book, fig72.d_separated(a, b, given)))
table = pd.DataFrame(rows, columns=["statement", "in words", "book", "bayeskit"])
print(table.to_string(index=False))
assert (table["book"] == table["bayeskit"]).all()

# %%
# The same statements hold in the watermelon network under its own names:

for a, b, given, book in statements:
    assert net.dag.d_separated(names[a], names[b], [names[g] for g in given]) is book

# %%
# The moral graph of Fig. 7.4
# ---------------------------
# Moralisation marries the parents of every child (here :math:`x_1` and :math:`x_2`, the
# parents of :math:`x_4`) and drops the directions.

moral = fig72.moral_edges()
print("moral graph edges:", moral)
assert {tuple(sorted(e)) for e in moral} == {
    ("x1", "x2"),
    ("x1", "x3"),
    ("x1", "x4"),
    ("x2", "x4"),
    ("x2", "x5"),
}

# %%
# In the moral graph of the whole network :math:`x_1` and :math:`x_2` are joined, yet
# :math:`x_1 \perp x_2`: the test first keeps only the nodes asked about and their
# ancestors (the book's margin note), and :math:`x_4` is not among those of
# :math:`\{x_1, x_2\}`.

print("moral graph of {x1, x2} and their ancestors:", fig72.moral_graph(["x1", "x2"]))
assert fig72.moral_graph(["x1", "x2"]) == {"x1": set(), "x2": set()}

# %%
# The DAG and its moral graph side by side (the married pair dashed):

fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4))
left.set_title("Fig. 7.2 (nodes x1 to x5)")
right.set_title("Fig. 7.4: its moral graph")
fig.tight_layout()
boxes = network(fig72, ax=left).bayeskit_network.boxes
where = {n: ((x0 + x1) / 2, (y0 + y1) / 2) for n, (x0, y0, x1, y1) in boxes.items()}
graph = nx.Graph(moral)
married = [("x1", "x2")]
nx.draw_networkx_nodes(graph, where, ax=right, node_color="#d1e5f0", edgecolors="#555555",
                       node_size=900)  # fmt: skip
nx.draw_networkx_labels(graph, where, ax=right)
nx.draw_networkx_edges(graph, where, ax=right, edgelist=[e for e in moral if e not in married],
                       node_size=900)  # fmt: skip
nx.draw_networkx_edges(graph, where, ax=right, edgelist=married, style="dashed",
                       edge_color="C3", node_size=900)  # fmt: skip
right.set_xlim(left.get_xlim())
right.set_ylim(left.get_ylim())
right.set_aspect("equal")
right.set_axis_off()
plt.show()
