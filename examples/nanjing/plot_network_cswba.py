r"""
A five-node Bayesian network queried by exact inference
=======================================================

Yang Yu, Nanjing University, lecture 5 *Bayesian Classifiers*, the Bayesian networks slide (the
CPTs of C, S, W, B and A).

The slide gives a network of five Boolean variables by their conditional probability tables: C
and S have no parents, W depends on C, B on C and S, and A on B (the structure is read off the
tables' headers). A Bayesian network's joint distribution is the product of its CPTs,

.. math::

    P(C, S, W, B, A) = P(C) \, P(S) \, P(W \mid C) \, P(B \mid C, S) \, P(A \mid B),

and every marginal or conditional probability is a sum of that product. The slide asks no
query, so this example poses some, answers each exactly by hand, enumerating the 32 joint states
in rational arithmetic, and compares with bayeskit's
:class:`~bayeskit.networks.BayesianNetwork` and its exact inference by variable elimination
(:class:`~bayeskit.inference.VariableElimination`).
"""

import itertools
from fractions import Fraction

import pandas as pd

from bayeskit.networks import DAG, BayesianNetwork, VariableElimination
from bayeskit.plot import network


def compare(rows, reference="book"):
    """Print each quantity as the book prints it beside bayeskit's figure, and check that the two
    agree to the printed precision: within half a unit in the book's last digit (an integer or a
    fraction such as ``3/7`` is exact: within 1e-12)."""
    table, off = [], []
    for quantity, text, got in rows:
        if "/" in text or text.isdigit():
            value, tol = float(Fraction(text)), 1e-12
        else:
            mantissa, _, exponent = text.lower().partition("e")
            value = float(text)
            tol = 0.5 * 10.0 ** (int(exponent or 0) - len(mantissa.partition(".")[2]))
        table.append((quantity, text, f"{got:.6g}"))
        if not abs(got - value) <= tol:
            off.append(quantity)
    print(pd.DataFrame(table, columns=["quantity", reference, "bayeskit"]).to_string(index=False))
    assert not off, f"bayeskit differs from the {reference} on {off}"


# %%
# The network from the slide's tables
# -----------------------------------
# Each CPT's axes are the parents in the DAG's order, then the node; the states are T and F.
dag = DAG(edges=[("C", "W"), ("C", "B"), ("S", "B"), ("B", "A")])
net = BayesianNetwork(
    dag,
    {
        "C": [0.8, 0.2],
        "S": [0.02, 0.98],
        "W": [[0.9, 0.1], [0.01, 0.99]],
        "B": [[[0.9, 0.1], [0.2, 0.8]], [[0.9, 0.1], [0.01, 0.99]]],
        "A": [[0.7, 0.3], [0.1, 0.9]],
    },
    states=dict.fromkeys("CSWBA", ["T", "F"]),
)
for node in net.nodes:
    print(net.cpd(node), end="\n\n")
compare(
    [
        ("P(C = T)", "0.8", net.cpd("C").to_frame().loc[0, "T"]),
        ("P(S = T)", "0.02", net.cpd("S").to_frame().loc[0, "T"]),
        ("P(W = T | C = F)", "0.01", net.cpd("W").to_frame().loc["F", "T"]),
        ("P(B = T | C = T, S = F)", "0.2", net.cpd("B").to_frame().loc[("T", "F"), "T"]),
        ("P(A = F | B = F)", "0.9", net.cpd("A").to_frame().loc["F", "F"]),
    ]
)
network(net, highlight=["B"])

# %%
# The joint by hand
# -----------------
# The same tables as exact fractions, :math:`P(\text{node} = T \mid \text{parents})`, and the chain
# rule over all 32 assignments.
parents = {"C": (), "S": (), "W": ("C",), "B": ("C", "S"), "A": ("B",)}
p_true = {
    "C": {(): Fraction("0.8")},
    "S": {(): Fraction("0.02")},
    "W": {("T",): Fraction("0.9"), ("F",): Fraction("0.01")},
    "B": {
        ("T", "T"): Fraction("0.9"),
        ("T", "F"): Fraction("0.2"),
        ("F", "T"): Fraction("0.9"),
        ("F", "F"): Fraction("0.01"),
    },
    "A": {("T",): Fraction("0.7"), ("F",): Fraction("0.1")},
}
assignments = [dict(zip("CSWBA", v, strict=True)) for v in itertools.product("TF", repeat=5)]
joint = []  # (assignment, its probability)
for state in assignments:
    p = Fraction(1)
    for node, given in parents.items():
        t = p_true[node][tuple(state[g] for g in given)]
        p *= t if state[node] == "T" else 1 - t
    joint.append((state, p))


def by_hand(event, evidence=None):
    """P(event | evidence), exactly, by summing the joint over the matching assignments."""
    evidence = evidence or {}

    def total(condition):
        return sum(p for state, p in joint if all(state[k] == v for k, v in condition.items()))

    return total({**event, **evidence}) / total(evidence)


# %%
# Queries by variable elimination
# -------------------------------
# :meth:`~bayeskit.networks.BayesianNetwork.probability` evaluates the chain rule for a full
# assignment; :meth:`~bayeskit.inference.VariableElimination.query` sums out the other variables
# for a posterior given evidence. Knowing that C is true makes S *less* likely to explain B:
# :math:`P(S \mid B)` falls from 0.102 to 0.084 once C is known, explaining away.
inference = VariableElimination(net)


def query(node, evidence=None):
    """bayeskit's P(node = T | evidence)."""
    return inference.query(node, evidence).value({node: "T"})


full = {"C": "T", "S": "F", "W": "T", "B": "T", "A": "T"}
compare(
    [
        ("sum of the joint", str(sum(p for _, p in joint)), sum(map(net.probability, assignments))),
        ("P(C=T, S=F, W=T, B=T, A=T)", str(by_hand(full)), net.probability(full)),
        ("P(B = T)", str(by_hand({"B": "T"})), query("B")),
        ("P(A = T)", str(by_hand({"A": "T"})), query("A")),
        ("P(C = T | A = T)", str(by_hand({"C": "T"}, {"A": "T"})), query("C", {"A": "T"})),
        ("P(C = T | W = T)", str(by_hand({"C": "T"}, {"W": "T"})), query("C", {"W": "T"})),
        ("P(S = T | B = T)", str(by_hand({"S": "T"}, {"B": "T"})), query("S", {"B": "T"})),
        (
            "P(S = T | B = T, C = T)",
            str(by_hand({"S": "T"}, {"B": "T", "C": "T"})),
            query("S", {"B": "T", "C": "T"}),
        ),
        (
            "P(B = T | W = T, A = F)",
            str(by_hand({"B": "T"}, {"W": "T", "A": "F"})),
            query("B", {"W": "T", "A": "F"}),
        ),
    ],
    reference="by hand",
)
assert query("S", {"B": "T", "C": "T"}) < query("S", {"B": "T"})  # explaining away

# %%
# Every variable's marginal at once
# ---------------------------------
marginals = pd.Series({node: query(node) for node in net.nodes}, name="P(node = T)")
print(marginals.to_string())
