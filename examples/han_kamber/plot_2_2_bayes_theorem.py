r"""
Bayes' theorem: the computer shop and the liver-cancer test
===========================================================

Han, Kamber & Pei lecture notes, *Bayes Classifiers* (6.3), Sect. 2.2 *Bayes' Theorem* (Han,
Kamber & Pei, Sect. 8.3.1): "Example: with training data" and "Example: with estimated
probabilities".

Bayes' theorem turns the likelihood of the evidence :math:`X` under a hypothesis :math:`C_i` and
the hypothesis' prior into its posterior,

.. math::

    P(C_i \mid X) = \frac{P(X \mid C_i) \, P(C_i)}{P(X)},
    \qquad P(X) = \sum_k P(X \mid C_k) \, P(C_k),

and the classifier predicts the class of highest posterior. In the first example every
probability is a relative frequency of a 7-row table of customers (Table A): the likelihood of
:math:`X` = (youth, fair) is the fraction of each class's customers with *both* values, the joint
likelihood of bayeskit's :class:`~bayeskit.classifiers.FullBayes` over categorical attributes. In
the second the probabilities are given, and the posterior is a query to a two-node Bayesian network.
"""

from fractions import Fraction

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy.special import logsumexp

from bayeskit import FullBayes
from bayeskit.data import datasets
from bayeskit.networks import DAG, BayesianNetwork, VariableElimination


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
# With training data: who buys a computer?
# ----------------------------------------
# Table A of the notes (bundled as ``age_credit_a``), and the customer X = (youth, fair). The
# joint likelihood counts the rows of each class that match X on every attribute, so no
# pseudo-count is added (``alpha=0``) and the priors are relative frequencies (the default).
X, y = datasets.load("age_credit_a")
print(pd.concat([X, y], axis=1).to_string())
x = pd.DataFrame({"age": ["youth"], "credit_rating": ["fair"]})
model = FullBayes(alpha=0).fit(X, y)  # classes_: no, yes
log_joint = model.predict_joint_log_proba(x)[0]
likelihood = np.exp(log_joint - model.log_prior_)
posterior = model.predict_proba(x)[0]
compare(
    [
        ("P(buys = yes)", "3/7", np.exp(model.log_prior_[1])),
        ("P(buys = no)", "4/7", np.exp(model.log_prior_[0])),
        ("P(youth, fair | yes)", "1/3", likelihood[1]),
        ("P(youth, fair | no)", "2/4", likelihood[0]),
        ("P(youth, fair)", "3/7", np.exp(logsumexp(log_joint))),
        ("P(yes | youth, fair)", "0.33", posterior[1]),
    ]
)
assert model.predict(x)[0] == "no"  # "the customer would not buy a computer"

# %%
# The notes print :math:`P(\text{no} \mid X) = (4/7 \times 2/4) / (3/7) = 0.66`: the exact value is
# 2/3, which rounds to 0.67; the notes truncate.
print(f"P(no | youth, fair) = {posterior[0]:.4f} (notes: 0.66, truncated)")
assert posterior[0] == max(posterior)
assert int(posterior[0] * 100) == 66

# %%
# With estimated probabilities: liver cancer and alcoholism
# ---------------------------------------------------------
# :math:`C_1`: a patient has liver cancer, :math:`P(C_1) = 0.01`; :math:`A`: the patient is an
# alcoholic, :math:`P(A) = 0.05`, and :math:`P(A \mid C_1) = 0.70`. As a network
# ``cancer -> alcoholic`` the missing entry is :math:`P(A \mid C_2)`, which the total probability
# fixes: :math:`(P(A) - P(A \mid C_1) P(C_1)) / P(C_2)`. Bayes' theorem is then the query of
# ``cancer`` given the evidence ``alcoholic = yes``.
p_c1, p_a, p_a_c1 = 0.01, 0.05, 0.70
p_a_c2 = (p_a - p_a_c1 * p_c1) / (1 - p_c1)
network = BayesianNetwork(
    DAG(edges=[("cancer", "alcoholic")]),
    {"cancer": [p_c1, 1 - p_c1], "alcoholic": [[p_a_c1, 1 - p_a_c1], [p_a_c2, 1 - p_a_c2]]},
    states={"cancer": ["C1", "C2"], "alcoholic": ["yes", "no"]},
)
inference = VariableElimination(network)
after = inference.query("cancer", {"alcoholic": "yes"}).value({"cancer": "C1"})
compare(
    [
        ("P(A)", "0.05", inference.query("alcoholic").value({"alcoholic": "yes"})),
        ("P(C1 | A) = (0.7 x 0.01) / 0.05", "0.14", after),
    ]
)
assert abs(after - 0.14) < 1e-12  # exact: 0.007 / 0.05

# %%
# Knowing that the patient is an alcoholic raises the probability of liver cancer from the prior
# 1% to 14%.
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
pd.DataFrame(
    {"prior": np.exp(model.log_prior_), "posterior": posterior}, index=model.classes_
).plot.bar(ax=left, rot=0, title="buys_computer, X = (youth, fair)")
pd.Series({"prior P(C1)": p_c1, "posterior P(C1 | A)": after}).plot.bar(
    ax=right, rot=0, color=["C0", "C1"], title="liver cancer"
)
for ax in (left, right):
    ax.set_ylabel("probability")
fig.tight_layout()
