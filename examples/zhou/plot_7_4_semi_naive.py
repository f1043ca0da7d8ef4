r"""
Semi-naive Bayes: SPODE, TAN and AODE on watermelon data set 3.0
================================================================

Zhou, *Machine Learning*, section 7.4, Eqs. (7.21)-(7.25) and Fig. 7.1.

A one-dependent estimator (ODE) lets each attribute depend on the class and on at most one
other attribute, its parent :math:`pa_i`:

.. math::

    P(c \mid \boldsymbol x) \propto P(c) \prod_{i=1}^d P(x_i \mid c, pa_i).

Fig. 7.1 of the book draws three structures: naive Bayes (no attribute parents), SPODE (every
attribute has the same *super-parent*, chosen by cross-validation) and TAN (the attribute
parents form a maximum weighted spanning tree of the conditional mutual information
:math:`I(x_i, x_j \mid y)`, directed away from a root). AODE averages the SPODEs of every
super-parent supported by at least :math:`m'` training examples,

.. math::

    P(c \mid \boldsymbol x) \propto \sum_{i=1,\ |D_{x_i}| \ge m'}^{d}
    P(c, x_i) \prod_{j=1}^d P(x_j \mid c, x_i),

with the Laplace-corrected estimates

.. math::

    \hat P(c, x_i) = \frac{|D_{c,x_i}| + 1}{|D| + N N_i}, \qquad
    \hat P(x_j \mid c, x_i) = \frac{|D_{c,x_i,x_j}| + 1}{|D_{c,x_i}| + N_j}.

This example reproduces the book's two AODE estimates on watermelon data set 3.0 and draws the
structures that bayeskit's :class:`~bayeskit.SPODE` and :class:`~bayeskit.TAN` learn on it.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from bayeskit import AODE, SPODE, TAN, NaiveBayes
from bayeskit.data import datasets
from bayeskit.plot import network

# %%
# AODE's estimates
# ----------------
# The book's example: :math:`\hat P(\mathrm{ripe}=\mathrm{true}, \mathrm{sound}=\mathrm{muffled})
# = (6+1)/(17+3 \times 2)` and :math:`\hat P(\mathrm{umbilicus}=\mathrm{hollow} \mid
# \mathrm{ripe}=\mathrm{true}, \mathrm{sound}=\mathrm{muffled}) = (3+1)/(6+3)`.
# :meth:`~bayeskit.AODE.joint_log_table` and :meth:`~bayeskit.AODE.conditional_log_table`
# return these tables (logs) for any attributes.

X, y = datasets.load("watermelon3")
aode = AODE().fit(X, y)
ripe = list(aode.classes_).index("true")
muffled = aode.schema_.column("sound").categories.index("muffled")
hollow = aode.schema_.column("umbilicus").categories.index("hollow")
joint = np.exp(aode.joint_log_table(("sound",)))
given = np.exp(aode.conditional_log_table("umbilicus", given=("sound",)))


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


compare(
    [
        ("P^(true, muffled) = (6+1)/(17+3x2)", "0.304", joint[ripe, muffled]),
        ("P^(hollow | true, muffled) = (3+1)/(6+3)", "0.444", given[ripe, muffled, hollow]),
    ]
)
assert np.isclose(joint[ripe, muffled], 7 / 23)
assert np.isclose(given[ripe, muffled, hollow], 4 / 9)

# %%
# The count 6 in the first estimate is the number of ripe melons that sound muffled; the same
# count makes :math:`P(\mathrm{sound}=\mathrm{muffled} \mid \mathrm{ripe}=\mathrm{true}) =
# 6/8` in the naive Bayes example of section 7.3.

print(pd.crosstab(X["sound"], y))
assert pd.crosstab(X["sound"], y).loc["muffled", "true"] == 6

# %%
# The structures of Fig. 7.1, learned on watermelon 3.0
# -----------------------------------------------------
# Fig. 7.1 draws the dependencies with abstract attributes :math:`x_1, \ldots, x_d`. Here are
# the ones bayeskit finds on the six categorical attributes of watermelon 3.0 (the discrete
# setting of the book's section 7.4), each exported as a Bayesian network with
# ``to_network`` and drawn with :func:`bayeskit.plot.network`, the class highlighted.
# SPODE picks its super-parent by leave-one-out cross-validation; TAN roots its tree at the
# attribute most informative about the class.

categorical = ["color", "root", "sound", "texture", "umbilicus", "surface"]
Xc = X[categorical]
models = {
    "(a) naive Bayes": NaiveBayes().fit(Xc, y),
    "(b) SPODE": SPODE().fit(Xc, y),
    "(c) TAN": TAN().fit(Xc, y),
}
spode, tan = models["(b) SPODE"], models["(c) TAN"]
print("SPODE's super-parent:", spode.parent_)
print("TAN's root:", tan.root_, "; its tree edges:", tan.edges_)

fig, axes = plt.subplots(1, 3, figsize=(13, 4.5))
for ax, title in zip(axes, models, strict=True):
    ax.set_title(title)
fig.tight_layout()  # before drawing: a network is scaled to its axes as they are then
for ax, model in zip(axes, models.values(), strict=True):
    network(model.to_network(class_node="ripe"), ax=ax, highlight=["ripe"])
plt.show()

# %%
# Every attribute but the super-parent has it as its one attribute parent; TAN's attribute
# parents form a tree (one root, ``d - 1`` edges).

assert all(p == (spode.parent_,) for f, p in spode.structure_.items() if f != spode.parent_)
assert spode.structure_[spode.parent_] == ()
assert len(tan.edges_) == len(categorical) - 1
assert sum(1 for p in tan.structure_.values() if not p) == 1

# %%
# The conditional mutual information TAN weighs the edges with (Eq. 7.22, in nats):

print(pd.DataFrame(tan.cmi_, index=categorical, columns=categorical).round(3))

# %%
# Test example 1 under each model
# -------------------------------
# All four models call the book's test example 1 (the first row) ripe. AODE here uses
# :math:`m' = 1`: with 17 melons no attribute value is seen :math:`m' = 30` times (the book's
# default, after Webb et al.), and AODE then falls back to naive Bayes.

t1 = Xc.iloc[[0]]
models["AODE (m'=1)"] = AODE(m=1).fit(Xc, y)
posterior = {
    name: model.predict_proba(t1)[0, list(model.classes_).index("true")]
    for name, model in models.items()
}
print(pd.Series(posterior, name="P(ripe=true | T1)").round(4).to_string())
assert all(p > 0.5 for p in posterior.values())
