r"""
Gaussian naive Bayes on Iris, against scikit-learn
==================================================

*AI Engineering*, chapter 7, section 7.3.1 (the naive Bayes classifier), Eqs. (7.15)-(7.19)
and the code listing that follows them.

Naive Bayes takes the attributes as independent given the class, so
:math:`P(c_k \mid \vec x_i) \propto P(c_k) \prod_{j=1}^J P(x_{ij} \mid c_k)` (Eq. 7.15), and
for a numeric attribute :math:`P(x_{ij} \mid c_k)` is a normal density whose mean and standard
deviation are those of the attribute in class :math:`c_k` (Eq. 7.19):

.. math::

    P(x_{ij} \mid c_k) = \frac{1}{\sqrt{2\pi}\,\sigma_{k,j}}
    \exp\left[-\frac{(x_{ij} - \mu_{k,j})^2}{2 \sigma_{k,j}^2}\right].

The book writes this classifier in a few lines of numpy, trains it and scikit-learn's
``GaussianNB`` on 70% of the Iris data set (``train_test_split`` with ``random_state=20190308``,
``test_size=0.3``) and prints the test accuracy of both: 0.9333333333333333. This example
runs the book's code, scikit-learn and bayeskit's :class:`~bayeskit.NaiveBayes` on the same
split. The data are scikit-learn's ``load_iris`` (shipped with scikit-learn, no download), as in
the book; bayeskit's bundled ``iris`` is the UCI archive's copy, which differs in two rows.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.datasets import load_iris
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB

from bayeskit import NaiveBayes
from bayeskit.plot import density_contours

# %%
# The split of the book
# ---------------------

iris = load_iris()
x, y = iris.data, iris.target
x_train, x_test, y_train, y_test = train_test_split(x, y, random_state=20190308, test_size=0.3)
print("training rows:", len(y_train), " test rows:", len(y_test))
print("test rows per class:", np.bincount(y_test))

# %%
# The book's code
# ---------------
# As printed, up to names. Note two details. The standard deviation is numpy's default,
# ``x.std(0)``: the maximum-likelihood one (denominator :math:`|D_c|`, ``ddof=0``). And
# ``len(idx_i)`` is the length of a boolean mask over *all* training rows, so ``p_c`` is 1
# for every class: the code uses equal priors, not :math:`|D_{c_k}| / |D|` (Eq. 7.17). On this
# split that changes no prediction.


def gaussian_pdf(x_test, x):
    return np.exp(-((x_test - x.mean(0)) ** 2) / (2 * x.std(0) ** 2)) / np.sqrt(
        2 * np.pi * x.std(0) ** 2
    )


classes = np.unique(np.concatenate([y_train, y_test], 0))
pred_probs = []
for i in classes:
    idx_i = y_train == i
    p_c = len(idx_i) / len(y_train)  # the book's: 1 for every class
    p_x_c = np.prod(gaussian_pdf(x_test, x_train[idx_i]), 1)
    pred_probs.append(p_c * p_x_c)
pred_probs = np.vstack(pred_probs).T
by_hand = classes[pred_probs.argmax(1)]
score_by_hand = np.count_nonzero(y_test == by_hand) / len(y_test)

# %%
# scikit-learn and bayeskit
# -------------------------
# ``GaussianNB`` estimates the priors by class frequency, the variances with ``ddof=0``, and
# adds a floor of ``1e-9`` times the largest attribute variance to every variance. bayeskit's
# :class:`~bayeskit.NaiveBayes` does the same with ``discretize=None`` (a Gaussian per numeric
# attribute instead of bins), ``prior_alpha=0`` (relative-frequency priors), ``ddof=0`` and
# ``var_smoothing=1e-9``. With ``priors`` set to equal ones it is the book's code.

sklearn_nb = GaussianNB().fit(x_train, y_train)
settings = {"discretize": None, "ddof": 0, "var_smoothing": 1e-9}
ours = NaiveBayes(prior_alpha=0.0, **settings).fit(x_train, y_train)
ours_equal = NaiveBayes(priors=[1 / 3] * 3, **settings).fit(x_train, y_train)


def compare(rows):
    """Print quantity, book and bayeskit side by side, and check that bayeskit's figure rounds
    to the book's: within half a unit of the last digit the book prints."""
    table = pd.DataFrame(rows, columns=["quantity", "book", "ours"])
    print(table.to_string(index=False, formatters={"ours": lambda v: repr(float(v))}))
    for quantity, book, value in rows:
        mantissa, _, exponent = book.lower().partition("e")
        digits = len(mantissa.partition(".")[2])
        tol = 0.5 * 10.0 ** (int(exponent or 0) - digits) + 1e-12
        assert abs(float(book) - value) <= tol, (quantity, book, value)


printed = "0.9333333333333333"
compare(
    [
        ("accuracy, the book's code", printed, score_by_hand),
        ("accuracy, scikit-learn GaussianNB", printed, sklearn_nb.score(x_test, y_test)),
        ("accuracy, bayeskit NaiveBayes", printed, ours.score(x_test, y_test)),
        ("accuracy, bayeskit, equal priors", printed, ours_equal.score(x_test, y_test)),
    ]
)

# %%
# The three models agree on more than the accuracy: bayeskit's class means and (floored)
# variances are scikit-learn's, and so are its posterior probabilities, to rounding; the
# book's code and bayeskit with equal priors make the same predictions. All three miss the
# same 3 of the 45 test rows.

assert np.allclose(ours.theta_, sklearn_nb.theta_)
assert np.allclose(ours.var_ + ours.var_floor_, sklearn_nb.var_)
assert np.allclose(ours.predict_proba(x_test), sklearn_nb.predict_proba(x_test))
assert (ours.predict(x_test) == sklearn_nb.predict(x_test)).all()
assert (ours_equal.predict(x_test) == by_hand).all()
missed = np.flatnonzero(ours.predict(x_test) != y_test)
print("misclassified test rows:", missed.tolist())
assert missed.tolist() == [2, 22, 39]
assert np.flatnonzero(by_hand != y_test).tolist() == missed.tolist()

# %%
# The fitted class densities
# --------------------------
# Each class's normal density over the two petal measurements (the diagonal covariance that
# naive Bayes assumes), drawn with :func:`bayeskit.plot.density_contours` over the test rows;
# the three misclassified ones are ringed. They lie where the versicolor and virginica
# densities overlap.

names = iris.feature_names
frame = NaiveBayes(prior_alpha=0.0, **settings).fit(
    pd.DataFrame(x_train, columns=names), iris.target_names[y_train]
)
test = pd.DataFrame(x_test, columns=names)
petals = ("petal length (cm)", "petal width (cm)")
ax = density_contours(frame, petals, X=test, y=iris.target_names[y_test])
ax.scatter(test.loc[missed, petals[0]], test.loc[missed, petals[1]], s=160,
           facecolors="none", edgecolors="k", lw=1.5, label="misclassified")  # fmt: skip
ax.legend(fontsize=8)
ax.set_title("Iris test rows and the Gaussian naive Bayes class densities")
plt.show()
