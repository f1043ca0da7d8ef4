r"""
Numeric attributes in naive Bayes: which standard deviation the book uses
=========================================================================

Zhou, *Machine Learning*, section 7.3, Eq. (7.18), with Eq. (7.12) of section 7.2.

For a numeric attribute naive Bayes takes :math:`p(x_i \mid c)` to be a normal density with the
mean :math:`\mu_{c,i}` and variance :math:`\sigma_{c,i}^2` of the attribute among the examples
of class :math:`c` (Eq. 7.18):

.. math::

    p(x_i \mid c) = \frac{1}{\sqrt{2\pi}\,\sigma_{c,i}}
    \exp\left(-\frac{(x_i - \mu_{c,i})^2}{2\sigma_{c,i}^2}\right).

Section 7.2 derives the maximum-likelihood variance, with denominator :math:`|D_c|` (Eq.
7.12); the worked example of section 7.3 (watermelon data set 3.0, test example 1 with density
0.697 and sugar 0.460) prints figures that only the *sample* standard deviation, denominator
:math:`|D_c| - 1`, reproduces. bayeskit's :class:`~bayeskit.NaiveBayes` takes either:
``ddof=1`` for the book's figures, ``ddof=0`` (the default, as scikit-learn's ``GaussianNB``)
for Eq. (7.12). The naive Bayes example at the top of the gallery goes through the whole
classification of test example 1; this one looks at the numeric attributes alone.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy.stats import norm

from bayeskit import NaiveBayes
from bayeskit.data import datasets

# %%
# Two models, one per convention
# ------------------------------

X, y = datasets.load("watermelon3")
textbook = {"alpha": 0.0, "prior_alpha": 0.0, "discretize": None, "var_smoothing": 0.0}
sample_sd = NaiveBayes(ddof=1, **textbook).fit(X, y)
mle_sd = NaiveBayes(ddof=0, **textbook).fit(X, y)
numeric = [col.name for col in sample_sd.schema_.numeric]
classes = list(sample_sd.classes_)
print("numeric attributes:", numeric, " classes:", classes)


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
# Means and standard deviations
# -----------------------------
# The book's density formulas show each class's mean and standard deviation to three decimals.
# ``theta_`` holds the means and ``var_`` the variances, both of shape (classes, numeric
# attributes).

book_parameters = {  # (attribute, class): (mean, standard deviation) as the book prints them
    ("density", "true"): ("0.574", "0.129"),
    ("density", "false"): ("0.496", "0.195"),
    ("sugar", "true"): ("0.279", "0.101"),
    ("sugar", "false"): ("0.154", "0.108"),
}
rows = []
for (name, label), (mean, sd) in book_parameters.items():
    j, c = numeric.index(name), classes.index(label)
    rows.append((f"mean({name} | {label})", mean, sample_sd.theta_[c, j]))
    rows.append((f"std({name} | {label}), ddof=1", sd, np.sqrt(sample_sd.var_[c, j])))
compare(rows)

# %%
# The maximum-likelihood standard deviations (``ddof=0``) are smaller by the factor
# :math:`\sqrt{(|D_c| - 1)/|D_c|}` and do not round to the book's:

ratio = np.sqrt(mle_sd.var_ / sample_sd.var_)
counts = np.array([(y == label).sum() for label in classes])
assert np.allclose(ratio, np.sqrt((counts - 1) / counts)[:, None])
sd = pd.DataFrame(
    {
        "ddof=1": np.sqrt(sample_sd.var_).ravel(),
        "ddof=0": np.sqrt(mle_sd.var_).ravel(),
    },
    index=[f"{name} | {label}" for label in classes for name in numeric],
)
print(sd.round(4))

# %%
# The densities of test example 1
# -------------------------------
# :meth:`~bayeskit.NaiveBayes.feature_log_likelihood` gives :math:`\log p(x_i \mid c)` for
# each row, attribute and class. The book's four figures (it labels the two sugar densities
# "density = 0.460", a slip) against both conventions:

t1 = X.iloc[[0]]
names = sample_sd.schema_.names
ours1 = np.exp(sample_sd.feature_log_likelihood(t1)[0])
ours0 = np.exp(mle_sd.feature_log_likelihood(t1)[0])
book_densities = {
    ("density", "true"): "1.959",
    ("density", "false"): "1.203",
    ("sugar", "true"): "0.788",
    ("sugar", "false"): "0.066",
}
rows, contrast = [], []
for (name, label), book in book_densities.items():
    j, c = names.index(name), classes.index(label)
    x = float(t1[name].iloc[0])
    rows.append((f"p({name}={x:.3f} | {label})", book, ours1[j, c]))
    contrast.append((f"p({name}={x:.3f} | {label})", book, ours1[j, c], ours0[j, c]))
compare(rows)
print()
print(pd.DataFrame(contrast, columns=["quantity", "book", "ddof=1", "ddof=0"]).round(4))
assert all(abs(float(book) - d0) > 0.0005 for _, book, _, d0 in contrast)
# the ddof=0 figures, which the book does not print, computed from Eq. (7.12)'s variances:
assert np.allclose([d0 for *_, d0 in contrast], [1.96249220, 1.19415497, 0.66911281, 0.04247746])

# %%
# The same densities straight from Eq. (7.18), with the per-class sample mean and standard
# deviation computed with pandas:

for name in numeric:
    for label in classes:
        values = X.loc[y == label, name]
        direct = norm.pdf(t1[name].iloc[0], values.mean(), values.std(ddof=1))
        assert np.isclose(direct, ours1[names.index(name), classes.index(label)])

# %%
# The class-conditional densities, drawn
# --------------------------------------
# Each class's fitted normal density of density and of sugar (solid: ``ddof=1``, the book's;
# dotted: ``ddof=0``), the training melons as ticks, and test example 1's value as a vertical
# line. Its sugar content, 0.460, is far in the tail of the unripe melons' density: that
# factor, 0.066 against 0.788, weighs most for "ripe".

fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
for ax, name in zip(axes, numeric, strict=True):
    j = numeric.index(name)
    grid = np.linspace(-0.1, 1.1, 400)
    for c, label in enumerate(classes):
        colour = f"C{c}"
        for model, style in ((sample_sd, "-"), (mle_sd, ":")):
            pdf = norm.pdf(grid, model.theta_[c, j], np.sqrt(model.var_[c, j]))
            ax.plot(grid, pdf, style, color=colour, label=f"ripe={label}" if style == "-" else None)
        ax.plot(X.loc[y == label, name], np.full((y == label).sum(), -0.25 - 0.3 * c), "|",
                color=colour, ms=10)  # fmt: skip
    ax.plot([], [], ":", color="grey", label="ddof=0")
    ax.axvline(t1[name].iloc[0], color="k", lw=1, label="test example 1")
    ax.set_title(f"p({name} | ripe)")
    ax.set_xlabel(name)
axes[0].set_ylabel("density")
axes[0].legend(fontsize=8)
fig.tight_layout()
plt.show()
