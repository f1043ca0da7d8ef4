r"""
The Laplacian correction on watermelon data set 3.0
===================================================

Zhou, *Machine Learning*, section 7.3, Eqs. (7.19)-(7.20).

Naive Bayes estimates each class-conditional probability by a relative frequency,
:math:`P(x_i \mid c) = |D_{c,x_i}| / |D_c|` (Eq. 7.17). An attribute value never seen with a
class then gets probability zero, and the product
:math:`P(c) \prod_i P(x_i \mid c)` of Eq. (7.15) is zero whatever the other attributes say.
The book's example: no ripe melon of watermelon data set 3.0 sounds *crisp*, so a naive Bayes
classifier trained on it calls every crisp melon unripe.

The Laplacian correction adds one to every count. With :math:`N` classes and :math:`N_i`
values of attribute :math:`i`,

.. math::

    \hat P(c) = \frac{|D_c| + 1}{|D| + N}, \qquad
    \hat P(x_i \mid c) = \frac{|D_{c,x_i}| + 1}{|D_c| + N_i}.

In bayeskit both are additive (Lidstone) smoothing with pseudo-count 1: ``prior_alpha=1`` for
the prior, ``alpha=1`` for the conditional tables of :class:`~bayeskit.NaiveBayes`.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from bayeskit import NaiveBayes
from bayeskit.data import datasets

# %%
# The data and two models
# -----------------------
# Watermelon data set 3.0 (Zhou, Table 4.3) is bundled with bayeskit: six categorical
# attributes, the numeric density and sugar content, and the class ``ripe``. Both models below
# treat density and sugar as Gaussian with the sample variance (``ddof=1``), as the book's
# section 7.3 does, and differ only in the smoothing of the counts.

X, y = datasets.load("watermelon3")
textbook = {"discretize": None, "var_smoothing": 0.0, "ddof": 1}
unsmoothed = NaiveBayes(alpha=0.0, prior_alpha=0.0, **textbook).fit(X, y)
laplace = NaiveBayes(alpha=1.0, prior_alpha=1.0, **textbook).fit(X, y)
print(X.head())


def prior(model, label):
    """P(ripe = label) as the model estimated it."""
    return float(np.exp(model.log_prior_[list(model.classes_).index(label)]))


def conditional(model, feature, value, label):
    """P(feature = value | ripe = label) from the model's table of that feature."""
    j = [col.name for col in model.schema_.categorical].index(feature)
    v = model.schema_.column(feature).categories.index(value)
    c = list(model.classes_).index(label)
    return float(np.exp(model.log_cpt_[j][c, 0, v]))


def compare(rows):
    """Print quantity, book and bayeskit side by side, and check that bayeskit's figure rounds
    to the book's: within half a unit of the last digit the book prints."""
    table = pd.DataFrame(rows, columns=["quantity", "book", "bayeskit"])
    print(table.to_string(index=False, formatters={"bayeskit": "{:.6f}".format}))
    for quantity, book, ours in rows:
        mantissa, _, exponent = book.lower().partition("e")
        digits = len(mantissa.partition(".")[2])
        tol = 0.5 * 10.0 ** (int(exponent or 0) - digits) + 1e-12
        assert abs(float(book) - ours) <= tol, (quantity, book, ours)


# %%
# The problem: a zero count
# -------------------------
# Without smoothing, :math:`P(\mathrm{sound}=\mathrm{crisp} \mid \mathrm{ripe}=\mathrm{true})
# = 0/8`. Take the book's test example 1 (the first row of the table, a ripe melon by every
# other attribute) and make it crisp: the unsmoothed model gives it probability zero of being
# ripe.

crisp = X.iloc[[0]].assign(sound="crisp")
print(crisp.to_string(index=False))
compare(  # the unsmoothed estimates of Eq. (7.17) the book prints before the correction
    [
        ("P(green | true) = 3/8", "0.375", conditional(unsmoothed, "color", "green", "true")),
        ("P(green | false) = 3/9", "0.333", conditional(unsmoothed, "color", "green", "false")),
        ("P(crisp | true) = 0/8", "0", conditional(unsmoothed, "sound", "crisp", "true")),
    ]
)
print("P(ripe=true | crisp T1), no smoothing:   ", unsmoothed.predict_proba(crisp)[0, 1])
assert unsmoothed.classes_[1] == "true"
assert unsmoothed.predict_proba(crisp)[0, 1] == 0.0
assert unsmoothed.predict(crisp)[0] == "false"

# %%
# The corrected estimates
# -----------------------
# The book works out the two priors and three conditionals and prints them to three decimals:
# :math:`\hat P(\mathrm{ripe}=\mathrm{true}) = (8+1)/(17+2)`, and so on.

green, crisp_ = ("color", "green"), ("sound", "crisp")
compare(
    [
        ("P^(ripe=true) = (8+1)/(17+2)", "0.474", prior(laplace, "true")),
        ("P^(ripe=false) = (9+1)/(17+2)", "0.526", prior(laplace, "false")),
        ("P^(green | true) = (3+1)/(8+3)", "0.364", conditional(laplace, *green, "true")),
        ("P^(green | false) = (3+1)/(9+3)", "0.333", conditional(laplace, *green, "false")),
        ("P^(crisp | true) = (0+1)/(8+3)", "0.091", conditional(laplace, *crisp_, "true")),
    ]
)

# %%
# The exact fractions are those of Eqs. (7.19)-(7.20):

assert np.isclose(prior(laplace, "true"), 9 / 19)
assert np.isclose(conditional(laplace, "color", "green", "true"), 4 / 11)
assert np.isclose(conditional(laplace, "sound", "crisp", "true"), 1 / 11)

# %%
# With the correction the crisp melon is no longer ruled out: the other attributes, all typical
# of ripe melons, decide.

p_ripe = laplace.predict_proba(crisp)[0, 1]
print(f"P(ripe=true | crisp T1), Laplace-corrected: {p_ripe:.4f}")
assert p_ripe > 0.5
assert laplace.predict(crisp)[0] == "true"

# %%
# The estimates of sound, with and without the correction
# -------------------------------------------------------
# The correction moves every estimate towards the uniform :math:`1/N_i` (here 1/3), the more
# so the fewer the examples of the class: the zero becomes 1/11.

sound = laplace.schema_.column("sound").categories
j = [col.name for col in laplace.schema_.categorical].index("sound")
fig, axes = plt.subplots(1, 2, figsize=(8, 3.2), sharey=True)
width = 0.38
for ax, label in zip(axes, ("true", "false"), strict=True):
    c = list(laplace.classes_).index(label)
    pos = np.arange(len(sound))
    raw = np.exp(unsmoothed.log_cpt_[j][c, 0])
    smooth = np.exp(laplace.log_cpt_[j][c, 0])
    ax.bar(pos - width / 2, raw, width, label="relative frequency (7.17)")
    ax.bar(pos + width / 2, smooth, width, label="Laplace-corrected (7.20)")
    ax.set_xticks(pos, sound)
    ax.set_title(f"P(sound | ripe={label})")
    ax.axhline(1 / 3, color="grey", lw=0.8, ls=":")
axes[0].set_ylabel("probability")
axes[0].legend(loc="upper left", fontsize=8)
fig.tight_layout()
plt.show()

# %%
# Incremental learning
# --------------------
# The book closes the section by noting that training naive Bayes is counting: when the data
# change, the counts of the new examples are added and the affected estimates recomputed.
# :meth:`~bayeskit.NaiveBayes.partial_fit` does that; fed the melons one at a time it ends
# with the same tables as one fit on all 17.

one_by_one = NaiveBayes(alpha=1.0, prior_alpha=1.0, **textbook)
for i in range(len(X)):
    one_by_one.partial_fit(X.iloc[[i]], y.iloc[[i]], classes=["false", "true"])
assert np.allclose(one_by_one.log_prior_, laplace.log_prior_)
assert all(np.allclose(a, b) for a, b in zip(one_by_one.log_cpt_, laplace.log_cpt_, strict=True))
assert np.allclose(one_by_one.theta_, laplace.theta_)
assert np.allclose(one_by_one.var_, laplace.var_)
print("P^(crisp | true) after 17 partial fits:", conditional(one_by_one, *crisp_, "true"))
