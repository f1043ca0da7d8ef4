r"""
A belief network: family history, smoking and lung cancer
=========================================================

Han, Kamber & Pei lecture notes, *Bayes Classifiers* (6.3), Sect. 4 *Bayesian Belief Networks*
(Han, Kamber & Pei, Sect. 9.1 and Fig. 9.1).

A belief network is a directed acyclic graph, a node per variable and an arc from each parent to
its child, and a conditional probability table (CPT) per node, :math:`P(X \mid
\text{Parents}(X))`. Each variable is conditionally independent of its non-descendants given its
parents, so the joint distribution factorises:

.. math::

    P(x_1, \dots, x_n) = \prod_{i=1}^n P(x_i \mid \text{Parents}(x_i)).

The notes' network has six Boolean variables: *FamilyHistory* and *Smoker* are the parents of
*LungCancer*; *Smoker* is also the parent of *Emphysema*; *LungCancer* is the parent of
*PositiveXRay*, and both *LungCancer* and *Emphysema* are the parents of *Dyspnea* (the notes draw
the graph as a figure, Han, Kamber & Pei's Fig. 9.1(a)). This example draws it with
:func:`bayeskit.plot.network`, reads the CPT of *LungCancer* with a :class:`~bayeskit.factors.CPD`,
and checks the independences the notes state in words as d-separation in the graph
(:meth:`bayeskit.graphs.DAG.d_separated`).
"""

from fractions import Fraction

import pandas as pd

from bayeskit.networks import CPD, DAG
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
# The graph (Fig. 9.1(a))
# -----------------------
dag = DAG(
    edges=[
        ("FamilyHistory", "LungCancer"),
        ("Smoker", "LungCancer"),
        ("Smoker", "Emphysema"),
        ("LungCancer", "PositiveXRay"),
        ("LungCancer", "Dyspnea"),
        ("Emphysema", "Dyspnea"),
    ]
)
ax = network(dag, highlight=["LungCancer"])
print("parents of LungCancer:", dag.parents("LungCancer"))
assert set(dag.parents("LungCancer")) == {"FamilyHistory", "Smoker"}

# %%
# The CPT of LungCancer (Fig. 9.1(b))
# -----------------------------------
# A row per configuration of the parents, a column per value of LungCancer. The notes print two
# entries in words, the upper-left and the bottom-right; each row sums to 1, which gives their
# complements. The two middle rows are not in the notes' text (only in the book's figure, 0.5
# and 0.7): they are filled in from there to complete the table, and not checked.
yes_no = ["yes", "no"]
lung_cancer = CPD(
    "LungCancer",
    ["FamilyHistory", "Smoker"],
    [[[0.8, 0.2], [0.5, 0.5]], [[0.7, 0.3], [0.1, 0.9]]],  # axes: FamilyHistory, Smoker, LC
    dict.fromkeys(["FamilyHistory", "Smoker", "LungCancer"], yes_no),
)
print(lung_cancer)
cpt = lung_cancer.to_frame()
compare(
    [
        ("P(LC = yes | FH = yes, S = yes)", "0.8", cpt.loc[("yes", "yes"), "yes"]),
        ("P(LC = no | FH = no, S = no)", "0.9", cpt.loc[("no", "no"), "no"]),
    ]
)
compare(
    [
        ("P(LC = no | FH = yes, S = yes) = 1 - 0.8", "1/5", cpt.loc[("yes", "yes"), "no"]),
        ("P(LC = yes | FH = no, S = no) = 1 - 0.9", "1/10", cpt.loc[("no", "no"), "yes"]),
    ],
    reference="by hand",
)

# %%
# The independences as d-separation
# ---------------------------------
# The notes: "PositiveXRay is independent of whether the patient has a family history of lung
# cancer or is a smoker, given that we know the patient has lung cancer", and "LungCancer is
# conditionally independent of Emphysema, given its parents, FamilyHistory and Smoker". Both are
# d-separations in the graph. Two contrasts show what the conditions do: without knowing
# LungCancer, an X-ray says something about smoking; and once Dyspnea, a common child of
# LungCancer and Emphysema, is observed, the two become dependent (explaining away).
statements = [
    ("PositiveXRay", ["FamilyHistory", "Smoker"], ["LungCancer"], True),
    ("LungCancer", "Emphysema", ["FamilyHistory", "Smoker"], True),
    ("PositiveXRay", "Smoker", [], False),
    ("LungCancer", "Emphysema", ["FamilyHistory", "Smoker", "Dyspnea"], False),
]
rows = [(x, y, given, dag.d_separated(x, y, given)) for x, y, given, _ in statements]
print(pd.DataFrame(rows, columns=["x", "y", "given", "independent"]).to_string(index=False))
assert [row[-1] for row in rows] == [expected for *_, expected in statements]

# %%
# Every variable is independent of its non-descendants given its parents: the local Markov
# property, which makes the product of the CPTs the joint distribution.
for node, others, parents in dag.local_independences():
    print(f"{node} is independent of {others} given {parents}")
    assert dag.d_separated(node, others, parents)
