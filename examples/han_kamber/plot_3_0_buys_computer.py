r"""
Naive Bayes on the AllElectronics customers (buys_computer)
===========================================================

Han, Kamber & Pei lecture notes, *Bayes Classifiers* (6.3), Sect. 3 *Naive Bayes*, Example 2;
the step the notes show as an image is Han, Kamber & Pei, *Data Mining: Concepts and
Techniques*, Example 8.4.

The 14 customers of the AllElectronics table (bundled as ``buys_computer``) are described by
age, income, student and credit rating, and labelled by whether they bought a computer. The
customer to classify is

.. math::

    X = (\text{age} = \text{youth}, \text{income} = \text{medium}, \text{student} = \text{yes},
    \text{credit\_rating} = \text{fair}).

Naive Bayes estimates the prior and each attribute's class-conditional probability by relative
frequencies and predicts the class maximising :math:`P(X \mid C_i) P(C_i)`, with
:math:`P(X \mid C_i) = \prod_k P(x_k \mid C_i)`. bayeskit's
:class:`~bayeskit.classifiers.NaiveBayes` with no smoothing (``alpha=0``, ``prior_alpha=0``)
reproduces the figures, which the book prints to three decimals.
"""

from fractions import Fraction

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from bayeskit import NaiveBayes
from bayeskit.data import datasets


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


X, y = datasets.load("buys_computer")
print(pd.concat([X, y], axis=1).to_string())
x = pd.DataFrame(
    {"age": ["youth"], "income": ["medium"], "student": ["yes"], "credit_rating": ["fair"]}
)
model = NaiveBayes(alpha=0.0, prior_alpha=0.0).fit(X, y)  # classes_: no, yes

# %%
# The priors
# ----------
prior = np.exp(model.log_prior_)
compare([("P(buys = yes)", "0.643", prior[1]), ("P(buys = no)", "0.357", prior[0])])

# %%
# The class-conditional probabilities of X's values
# -------------------------------------------------
# :meth:`~bayeskit.classifiers.NaiveBayes.feature_log_likelihood` gives
# :math:`\log P(x_k \mid C_i)` for each attribute of the sample, shape (sample, attribute, class).
terms = pd.DataFrame(
    np.exp(model.feature_log_likelihood(x)[0]), index=X.columns, columns=model.classes_
)
compare(
    [
        ("P(age = youth | yes)", "0.222", terms.loc["age", "yes"]),
        ("P(age = youth | no)", "0.600", terms.loc["age", "no"]),
        ("P(income = medium | yes)", "0.444", terms.loc["income", "yes"]),
        ("P(income = medium | no)", "0.400", terms.loc["income", "no"]),
        ("P(student = yes | yes)", "0.667", terms.loc["student", "yes"]),
        ("P(student = yes | no)", "0.200", terms.loc["student", "no"]),
        ("P(credit_rating = fair | yes)", "0.667", terms.loc["credit_rating", "yes"]),
        ("P(credit_rating = fair | no)", "0.400", terms.loc["credit_rating", "no"]),
    ]
)

# %%
# The likelihoods, the joints and the decision
# --------------------------------------------
likelihood = np.exp(model.predict_joint_log_proba(x)[0] - model.log_prior_)
joint = np.exp(model.predict_joint_log_proba(x)[0])
compare(
    [
        ("P(X | yes)", "0.044", likelihood[1]),
        ("P(X | no)", "0.019", likelihood[0]),
        ("P(X | yes) P(yes)", "0.028", joint[1]),
        ("P(X | no) P(no)", "0.007", joint[0]),
    ]
)
assert model.predict(x)[0] == "yes"  # the book's answer
print(f"P(yes | X) = {model.predict_proba(x)[0, 1]:.3f}")

# %%
# Each attribute's vote
# ---------------------
# Youth speaks for "no", the other three values for "yes"; the prior adds its own weight to
# "yes".
ax = terms.plot.bar(rot=0, figsize=(7, 3.5), title="P(value of X | class)")
ax.set(ylabel="probability", xlabel="attribute of X")
ax.legend(title="buys_computer")
plt.tight_layout()
