r"""
The zero joint likelihood and the naive Bayes remedy
====================================================

Han, Kamber & Pei lecture notes, *Bayes Classifiers* (6.3), Sect. 2.3 *Limitation* and Sect. 3
*Naive Bayes*, first example (Han, Kamber & Pei, Sect. 8.3.2).

The joint likelihood :math:`P(X \mid C_i)` of a full Bayes classifier is the fraction of class
:math:`C_i`'s tuples that match :math:`X` on *every* attribute. With few tuples most combinations
are never seen, and an unseen combination has likelihood 0 whatever the other evidence. Naive
Bayes assumes the attributes independent given the class,

.. math::

    P(X \mid C_i) = \prod_{k=1}^n P(x_k \mid C_i),

so it needs each value seen in the class only on its own. On the 7-row table B of the notes
(bundled as ``age_credit_b``; it differs from table A in its fifth row), no buyer is
(youth, excellent), and bayeskit's :class:`~bayeskit.classifiers.FullBayes` gives the joint
likelihood 0, while :class:`~bayeskit.classifiers.NaiveBayes` gives the product of the two marginal
frequencies.
"""

from fractions import Fraction

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from bayeskit import FullBayes, NaiveBayes
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


X, y = datasets.load("age_credit_b")
print(pd.concat([X, y], axis=1).to_string())
x = pd.DataFrame({"age": ["youth"], "credit_rating": ["excellent"]})

# %%
# Sect. 2.3: the joint likelihood is zero
# ---------------------------------------
# Relative frequencies, no pseudo-count (``alpha=0``). ``classes_`` is sorted: no, yes.
full = FullBayes(alpha=0).fit(X, y)
with np.errstate(divide="ignore"):
    full_likelihood = np.exp(full.predict_joint_log_proba(x)[0] - full.log_prior_)
    full_joint = np.exp(full.predict_joint_log_proba(x)[0])
compare(
    [
        ("P(youth, excellent | yes)", "0/3", full_likelihood[1]),
        ("P(youth, excellent | yes) P(yes)", "0", full_joint[1]),
    ]
)

# %%
# The "no" class has one (youth, excellent) tuple among its four, so the full Bayes classifier
# says "no" with certainty: the buyers' data about youths *or* excellent ratings are ignored.
compare(
    [("P(youth, excellent | no)", "1/4", full_likelihood[0])],
    reference="by hand",
)
assert full.predict_proba(x)[0, 0] == 1.0

# %%
# Sect. 3: the naive Bayes likelihood
# -----------------------------------
# Each attribute's class-conditional frequency, no smoothing (``alpha=0``) and priors by relative
# frequency (``prior_alpha=0``). The feature log-likelihoods have shape (sample, attribute,
# class).
naive = NaiveBayes(alpha=0.0, prior_alpha=0.0).fit(X, y)
terms = np.exp(naive.feature_log_likelihood(x)[0])
naive_likelihood = np.exp(naive.predict_joint_log_proba(x)[0] - naive.log_prior_)
naive_joint = np.exp(naive.predict_joint_log_proba(x)[0])
compare(
    [
        ("P(age = youth | yes)", "1/3", terms[0, 1]),
        ("P(credit = excellent | yes)", "1/3", terms[1, 1]),
        ("P(youth, excellent | yes)", "1/9", naive_likelihood[1]),
    ]
)

# %%
# The notes stop at the likelihood of "yes". Going on by hand: for "no",
# :math:`P(\text{youth} \mid \text{no}) P(\text{excellent} \mid \text{no}) = 2/4 \times 2/4`, and
# with the priors 3/7 and 4/7 the joints are :math:`1/21` and :math:`1/7`: the prediction is
# still "no", but now with a posterior of 0.75, not 1.
compare(
    [
        ("P(youth, excellent | no)", "1/4", naive_likelihood[0]),
        ("P(X | yes) P(yes)", "1/21", naive_joint[1]),
        ("P(X | no) P(no)", "1/7", naive_joint[0]),
        ("P(no | X)", "3/4", naive.predict_proba(x)[0, 0]),
    ],
    reference="by hand",
)
assert naive.predict(x)[0] == full.predict(x)[0] == "no"

# %%
# The likelihoods of X under both models
# --------------------------------------
likelihoods = pd.DataFrame(
    {"full Bayes (joint)": full_likelihood, "naive Bayes (product)": naive_likelihood},
    index=full.classes_,
)
ax = likelihoods.plot.bar(rot=0, figsize=(6, 3.5), title="P(youth, excellent | class), table B")
ax.set(xlabel="buys_computer", ylabel="likelihood")
plt.tight_layout()
