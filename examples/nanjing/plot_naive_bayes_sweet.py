r"""
Naive Bayes on the sweet table, with and without smoothing
==========================================================

Yang Yu, Nanjing University, lecture 5 *Bayesian Classifiers*, the naive Bayes slides (the
colour/weight/sweet table) and the slide on smoothed (Laplacian correction) probabilities.

Naive Bayes estimates the prior by frequency, :math:`\tilde{P}(y) = \frac{1}{m} \sum_i I(y_i =
y)`, assumes the features conditionally independent given the class, and decides

.. math::

    f(\mathbf{x}) = \arg\max_y \tilde{P}(y) \prod_i \tilde{P}(x_i \mid y).

The slides' table has five fruits with a colour in {0, 1, 2, 3} and a weight in {0, ..., 4}
(the domains are given on the slide; bundled as ``sweet``). A query whose values were never seen
with a class gets probability 0 for it: for (colour 0, weight 1) both classes do, and the
classifier cannot decide. The Laplacian correction, "assume every event has happened once",
adds one to every count, of the class too:

.. math::

    \tilde{P}(\text{color} = 0 \mid y = \text{yes}) = \frac{0 + 1}{2 + 4}, \qquad
    \tilde{P}(y = \text{yes}) = \frac{2 + 1}{5 + 2}.

bayeskit's :class:`~bayeskit.classifiers.NaiveBayes` does both: ``alpha=0, prior_alpha=0`` for
frequencies, ``alpha=1, prior_alpha=1`` for the corrected estimates.
"""

import warnings
from fractions import Fraction

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from bayeskit import NaiveBayes
from bayeskit.data import datasets
from bayeskit.exceptions import ZeroEvidenceWarning


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


X, y = datasets.load("sweet")
print(pd.concat([X, y], axis=1).to_string())
print("domains:", {name: list(X[name].cat.categories) for name in X})

# %%
# Frequencies
# -----------
# ``classes_`` is sorted: no, yes. The slide rounds 1/3 to 0.33 and truncates
# 0.33 x 0.33 x 0.6 = 0.065 to 0.06; the exact joint of "no" is 1/15 = 0.067. "yes" wins either
# way.
model = NaiveBayes(alpha=0.0, prior_alpha=0.0).fit(X, y)
first = pd.DataFrame({"color": [3], "weight": [3]})
joint = np.exp(model.predict_joint_log_proba(first)[0])
color_3 = np.exp(model.feature_log_likelihood(first)[0, 0])  # P(color = 3 | class)
compare(
    [
        ("P(y = yes)", "2/5", np.exp(model.log_prior_[1])),
        ("P(y = no)", "3/5", np.exp(model.log_prior_[0])),
        ("P(color = 3 | y = yes)", "1/2", color_3[1]),
        ("P(3 | yes) P(3 | yes) P(yes) = 0.5 x 0.5 x 0.4", "0.1", joint[1]),
    ]
)
print(f"P(3 | no) P(3 | no) P(no) = {joint[0]:.4f} (slide: 0.33 x 0.33 x 0.6 = 0.06)")
assert abs(joint[0] - 1 / 15) < 1e-12
assert model.predict(first)[0] == "yes"

# %%
# The query (colour 0, weight 1): colour 0 never occurs with "yes" and weight 1 never occurs at
# all, so both joints are 0. bayeskit says so: the joint log-probabilities are :math:`-\infty`,
# and the posterior, which 0/0 leaves undefined, falls back to the class prior, with a
# :class:`~bayeskit.exceptions.ZeroEvidenceWarning` that says why.
second = pd.DataFrame({"color": [0], "weight": [1]})
with np.errstate(divide="ignore"):
    zero = np.exp(model.predict_joint_log_proba(second)[0])
compare(
    [
        ("P(0 | yes) P(1 | yes) P(yes)", "0", zero[1]),
        ("P(0 | no) P(1 | no) P(no)", "0", zero[0]),
    ]
)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    undecided = model.predict_proba(second)[0]
print(f"posterior {undecided}\nwarning: {caught[0].message}")
assert issubclass(caught[0].category, ZeroEvidenceWarning)
assert np.allclose(undecided, np.exp(model.log_prior_))

# %%
# The Laplacian correction
# ------------------------
# One is added to each count: colour has 4 values, weight 5 and the class 2.
smoothed = NaiveBayes(alpha=1.0, prior_alpha=1.0).fit(X, y)
terms = np.exp(smoothed.feature_log_likelihood(second)[0])  # (feature, class)
prior = np.exp(smoothed.log_prior_)
joint = np.exp(smoothed.predict_joint_log_proba(second)[0])
compare(
    [
        ("P(color = 0 | yes) = (0+1)/(2+4)", "1/6", terms[0, 1]),
        ("P(weight = 1 | yes)", "1/7", terms[1, 1]),
        ("P(y = yes) = (2+1)/(5+2)", "3/7", prior[1]),
        ("P(color = 0 | no)", "2/7", terms[0, 0]),
        ("P(weight = 1 | no)", "1/8", terms[1, 0]),
        ("P(y = no)", "4/7", prior[0]),
        ("1/6 x 1/7 x 3/7", "0.01", joint[1]),
        ("2/7 x 1/8 x 4/7", "0.02", joint[0]),
    ]
)
assert smoothed.predict(second)[0] == "no"

# %%
# The joints of the second query
# ------------------------------
# Without smoothing both classes are impossible; with it "no" is twice as likely as "yes"
# (1/49 against 1/98).
table = pd.DataFrame(
    {"frequencies": zero, "Laplacian correction": joint}, index=smoothed.classes_
).T
ax = table.plot.bar(rot=0, figsize=(6, 3.5), title="P(color = 0 | y) P(weight = 1 | y) P(y)")
ax.set(ylabel="joint probability")
ax.legend(title="sweet?")
plt.tight_layout()
