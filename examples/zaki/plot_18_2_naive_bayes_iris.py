r"""
Naive Bayes on the 2-D Iris data, numeric and categorical
=========================================================

Zaki & Meira, *Data Mining and Machine Learning*, Sect. 18.2 (Eq. 18.7, Algorithm 18.2),
Examples 18.3 and 18.4 and Fig. 18.2.

The naive Bayes classifier assumes the attributes independent within each class, so the
likelihood is a product of one-dimensional terms (Eq. 18.7):

.. math::

    P(\mathbf{x} \mid c_i) = \prod_{j=1}^d P(x_j \mid c_i).

For a numeric attribute each term is a normal density with the class's mean
:math:`\hat{\mu}_{ij}` and variance :math:`\hat{\sigma}^2_{ij} = \frac{1}{n_i} Z_{ij}^T Z_{ij}`:
the full Bayes model of Example 18.1 with its covariance matrices made diagonal (Example 18.3).
For a categorical attribute each term is the attribute's class-specific PMF, the row or column
margin of Table 18.2, with a pseudo-count where a count is zero (Example 18.4):

.. math::

    \hat{f}(\mathbf{v}_j \mid c_i) = \frac{n_i(\mathbf{v}_j) + 1}{n_i + m_j}.

Both examples classify the test point :math:`\mathbf{x} = (6.75, 4.25)^T` of Example 18.1
(:math:`c_1` is *iris-setosa*, :math:`c_2` the other two species) with bayeskit's
:class:`~bayeskit.classifiers.NaiveBayes`.
"""

from fractions import Fraction

import numpy as np
import pandas as pd

from bayeskit import NaiveBayes
from bayeskit.data import apply_cuts, datasets
from bayeskit.plot import density_contours


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


X, species = datasets.load("iris")
X = X[["sepal_length", "sepal_width"]]
y = species.map({"setosa": "c1", "versicolor": "c2", "virginica": "c2"}).astype(str)
x = pd.DataFrame([[6.75, 4.25]], columns=X.columns)

# %%
# Example 18.3: Gaussian naive Bayes
# ----------------------------------
# The book's settings: numeric attributes kept numeric (``discretize=None``), the variance divided
# by :math:`n_i` (``ddof=0``) with no floor added (``var_smoothing=0``), and priors
# :math:`n_i / n` (``prior_alpha=0``). A second model is given the priors rounded to 0.33 and
# 0.67, by which the book multiplies.
settings = {"discretize": None, "ddof": 0, "var_smoothing": 0.0, "prior_alpha": 0.0}
model = NaiveBayes(**settings).fit(X, y)
rounded = NaiveBayes(**settings, priors=[0.33, 0.67]).fit(X, y)
var = model.var_
density = np.exp(model.predict_joint_log_proba(x)[0] - model.log_prior_)
joint = np.exp(rounded.predict_joint_log_proba(x)[0])
compare(
    [
        ("sigma^2_1[sepal length]", "0.122", var[0, 0]),
        ("sigma^2_1[sepal width]", "0.142", var[0, 1]),
        ("sigma^2_2[sepal length]", "0.435", var[1, 0]),
        ("sigma^2_2[sepal width]", "0.110", var[1, 1]),
        ("f_2(x)", "9.597e-5", density[1]),
        ("f_1(x) P(c1)", "1.32e-7", joint[0]),
        ("f_2(x) P(c2)", "6.43e-5", joint[1]),
    ]
)
assert model.predict(x)[0] == rounded.predict(x)[0] == "c2"  # the book's answer

# %%
# The book prints :math:`f_1(\mathbf{x}) = 3.99 \times 10^{-7}`: the density is
# :math:`3.998 \times 10^{-7}`, which the book truncates rather than rounds (to three figures it is
# :math:`4.00 \times 10^{-7}`). Its product with the prior, :math:`1.32 \times 10^{-7}`, is right.
print(f"f_1(x) = {density[0]:.4e} (book: 3.99e-7, truncated)")
assert int(density[0] * 1e9) == 399

# %%
# The class densities (Fig. 18.2)
# -------------------------------
# With diagonal covariances the level curves are axis-parallel ellipses; compare the tilted ones
# of the full Bayes classifier in Fig. 18.1.
ax = density_contours(model, ("sepal_length", "sepal_width"), X=X, y=y, point=(6.75, 4.25))
ax.figure.tight_layout()

# %%
# Example 18.4: categorical naive Bayes
# -------------------------------------
# The attributes binned as in Table 18.1, the test point is (long, long). Its sepal length *long*
# never occurs in :math:`c_1`, so the book adds the pseudo-count to that attribute's PMF in
# :math:`c_1` only, (0 + 1)/(50 + 4), and keeps the other three margins unsmoothed: bayeskit's
# ``smoothing="lidstone-where-zero"`` (a pseudo-count ``alpha`` on every cell of a distribution
# that has a zero count, none on the others).
BINS = {
    "sepal_length": ([5.2, 6.1, 7.0], ["very short", "short", "long", "very long"]),
    "sepal_width": ([2.8, 3.6], ["short", "medium", "long"]),
}


def discretise(frame):
    """Each attribute's bin, by Table 18.1 (right-closed bins between the inner edges)."""
    return pd.DataFrame(
        {
            name: pd.Categorical.from_codes(apply_cuts(frame[name].to_numpy(), cuts), labels)
            for name, (cuts, labels) in BINS.items()
        }
    )


Xd, xd = discretise(X), discretise(x)
assert xd.iloc[0].tolist() == ["long", "long"]
settings = {"alpha": 1.0, "smoothing": "lidstone-where-zero", "prior_alpha": 0.0}
categorical = NaiveBayes(**settings).fit(Xd, y)
rounded = NaiveBayes(**settings, priors=[0.33, 0.67]).fit(Xd, y)
cpt = [np.exp(table[:, 0, :]) for table in categorical.log_cpt_]  # (class, state) per attribute
long_length, long_width = (
    BINS["sepal_length"][1].index("long"),
    BINS["sepal_width"][1].index("long"),
)
likelihood = np.exp(categorical.predict_joint_log_proba(xd)[0] - categorical.log_prior_)
joint = np.exp(rounded.predict_joint_log_proba(xd)[0])
compare(
    [
        ("P(length = long | c1) = (0+1)/(50+4)", "1/54", cpt[0][0, long_length]),
        ("P(width = long | c1)", "13/50", cpt[1][0, long_width]),
        ("P(length = long | c2)", "43/100", cpt[0][1, long_length]),
        ("P(width = long | c2)", "2/100", cpt[1][1, long_width]),
        ("P(v | c1)", "4.81e-3", likelihood[0]),
        ("P(v | c2)", "8.60e-3", likelihood[1]),
        ("P(v | c1) P(c1)", "1.59e-3", joint[0]),
        ("P(v | c2) P(c2)", "5.76e-3", joint[1]),
    ]
)
assert categorical.predict(xd)[0] == rounded.predict(xd)[0] == "c2"

# %%
# The usual Laplace estimator adds the pseudo-count to every attribute in every class
# (``smoothing="lidstone"``, the default). The likelihoods move, :math:`4.89 \times 10^{-3}` and
# :math:`1.23 \times 10^{-2}`, and the decision stays :math:`c_2`.
laplace = NaiveBayes(alpha=1.0, prior_alpha=0.0).fit(Xd, y)
everywhere = np.exp(laplace.predict_joint_log_proba(xd)[0] - laplace.log_prior_)
print(f"pseudo-count everywhere: P(v | c1) = {everywhere[0]:.3e}, P(v | c2) = {everywhere[1]:.3e}")
assert np.allclose(everywhere, [1 / 54 * 14 / 53, 44 / 104 * 3 / 103])
assert laplace.predict(xd)[0] == "c2"
