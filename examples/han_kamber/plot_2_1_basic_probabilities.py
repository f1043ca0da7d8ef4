r"""
Basic probabilities: dice and coin, a drug test
===============================================

Han, Kamber & Pei lecture notes, *Bayes Classifiers* (6.3), Sect. 2.1 *Basic Probabilities*: the
dice-and-coin example and the drug test.

Probabilities estimated from data are relative frequencies: the probability of an event is the
fraction of the trials in which it occurred, the joint probability :math:`P(X, Y)` the fraction in
which both did, and the conditional probability

.. math::

    P(X \mid Y) = \frac{P(X, Y)}{P(Y)}, \qquad P(Y) > 0.

Relative frequencies are the maximum-likelihood estimates of a discrete distribution, so bayeskit
gets them by fitting a small Bayesian network with ``estimator="mle"``
(:func:`~bayeskit.networks.fit_parameters`): its joint distribution is the table of relative
frequencies, and a conditional probability is a query to exact inference
(:class:`~bayeskit.inference.VariableElimination`).
"""

from fractions import Fraction

import matplotlib.pyplot as plt
import pandas as pd

from bayeskit.data import datasets
from bayeskit.networks import DAG, VariableElimination, fit_parameters


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
# Six trials of a dice and a coin
# -------------------------------
# The notes record six trials of rolling a dice and flipping a coin at once. A network
# ``dice -> coin`` fitted by maximum likelihood holds :math:`P(\text{dice})` and
# :math:`P(\text{coin} \mid \text{dice})`, whose product is the joint frequency table.
X, coin = datasets.load("dice_coin")
trials = pd.concat([X, coin], axis=1)
print(trials.to_string())
faces = [1, 2, 3, 4, 5, 6]
dice_net = fit_parameters(
    DAG(edges=[("dice", "coin")]), trials, estimator="mle", states={"dice": faces}
).network
joint = VariableElimination(dice_net).query(["dice", "coin"])
dice = VariableElimination(dice_net).query("dice")
compare(
    [
        ("P(dice = 3)", "1/6", dice.value({"dice": 3})),
        ("P(dice = 1 or 2)", "4/6", dice.value({"dice": 1}) + dice.value({"dice": 2})),
        ("P(dice = 1, coin = T)", "2/6", joint.value({"dice": 1, "coin": "T"})),
    ]
)

# %%
# The drug test
# -------------
# 4000 patients by sex and test result. The table's cells are counts, so the network
# ``result -> sex`` is fitted to its four cells with the counts as weights. The conditional
# :math:`P(\text{woman} \mid \text{fail})` is the query of ``sex`` given the evidence
# ``result = fail``.
counts = pd.DataFrame(
    {"women": [200, 1800], "men": [1800, 200]}, index=pd.Index(["success", "fail"], name="result")
).rename_axis(columns="sex")
print(counts.to_string())
cells = counts.stack().reset_index(name="patients")  # one row per cell: result, sex, patients
drug_net = fit_parameters(
    DAG(edges=[("result", "sex")]),
    cells,
    estimator="mle",
    states={"result": ["success", "fail"], "sex": ["women", "men"]},
    sample_weight=cells["patients"],
).network
inference = VariableElimination(drug_net)
compare(
    [
        ("P(X = woman)", "2000/4000", inference.query("sex").value({"sex": "women"})),
        ("P(Y = fail)", "2000/4000", inference.query("result").value({"result": "fail"})),
        (
            "P(X = woman, Y = fail)",
            "1800/4000",
            drug_net.probability({"sex": "women", "result": "fail"}),
        ),
        (
            "P(X = woman | Y = fail)",
            "18/20",
            inference.query("sex", {"result": "fail"}).value({"sex": "women"}),
        ),
    ]
)

# %%
# The two joint distributions
# ---------------------------
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
table = joint.to_pandas().unstack("coin")
table.plot.bar(ax=left, rot=0, title="dice and coin: P(dice, coin)")
drug = drug_net.cpd("sex").to_frame().mul(inference.query("result").to_pandas(), axis=0)
drug.plot.bar(ax=right, rot=0, title="drug test: P(result, sex)")
for ax in (left, right):
    ax.set_ylabel("probability")
fig.tight_layout()
