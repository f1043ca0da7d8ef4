r"""
Full Bayes on the 2-D Iris data
===============================

Zaki & Meira, *Data Mining and Machine Learning*, Sect. 18.1 (Eqs. 18.3-18.4, Algorithm 18.1),
Example 18.1 and Fig. 18.1.

The full Bayes classifier models each class :math:`c_i` by one multivariate normal density,

.. math::

    f_i(\mathbf{x}) = \frac{1}{(\sqrt{2\pi})^d \sqrt{|\hat{\Sigma}_i|}}
    \exp\left\{-\frac{(\mathbf{x} - \hat{\mu}_i)^T \hat{\Sigma}_i^{-1}
    (\mathbf{x} - \hat{\mu}_i)}{2}\right\},

with the class's sample mean :math:`\hat{\mu}_i`, its maximum-likelihood covariance
:math:`\hat{\Sigma}_i = \frac{1}{n_i} Z_i^T Z_i` (divided by :math:`n_i`, ``ddof=0``) and the
prior :math:`\hat{P}(c_i) = n_i / n`. A point goes to the class of largest
:math:`f_i(\mathbf{x}) \hat{P}(c_i)` (Eq. 18.4).

Example 18.1 takes two attributes of the Iris data, sepal length and sepal width, and two classes:
:math:`c_1` is *iris-setosa* (50 points), :math:`c_2` the other two species (100 points). It
classifies the test point :math:`\mathbf{x} = (6.75, 4.25)^T`. bayeskit's
:class:`~bayeskit.classifiers.FullBayes` reproduces every figure of the example.

The book's Iris is the UCI-archive file, which bayeskit bundles as ``iris``; scikit-learn's
``load_iris`` corrects two setosa rows and gives slightly different figures for :math:`c_1`.
"""

from fractions import Fraction

import numpy as np
import pandas as pd

from bayeskit import FullBayes
from bayeskit.data import datasets
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


# %%
# The data: two attributes, two classes
# -------------------------------------
X, species = datasets.load("iris")
X = X[["sepal_length", "sepal_width"]]
y = species.map({"setosa": "c1", "versicolor": "c2", "virginica": "c2"}).astype(str)
x = pd.DataFrame([[6.75, 4.25]], columns=X.columns)
print(y.value_counts().sort_index().to_string())

# %%
# Fitting: priors, means and covariances (Algorithm 18.1)
# -------------------------------------------------------
# ``ddof=0`` divides the scatter by :math:`n_i`, as the book does.
model = FullBayes(ddof=0).fit(X, y)
prior = np.exp(model.log_prior_)
mu, sigma = model.means_, model.covariance_
compare(
    [
        ("P(c1)", "0.33", prior[0]),
        ("P(c2)", "0.67", prior[1]),
        ("mu_1[sepal length]", "5.01", mu[0, 0]),
        ("mu_1[sepal width]", "3.42", mu[0, 1]),
        ("mu_2[sepal length]", "6.26", mu[1, 0]),
        ("mu_2[sepal width]", "2.87", mu[1, 1]),
        ("Sigma_1[1, 1]", "0.122", sigma[0, 0, 0]),
        ("Sigma_1[1, 2]", "0.098", sigma[0, 0, 1]),
        ("Sigma_1[2, 2]", "0.142", sigma[0, 1, 1]),
        ("Sigma_2[1, 1]", "0.435", sigma[1, 0, 0]),
        ("Sigma_2[1, 2]", "0.121", sigma[1, 0, 1]),
        ("Sigma_2[2, 2]", "0.110", sigma[1, 1, 1]),
    ]
)

# %%
# Classifying the test point (Eq. 18.4)
# -------------------------------------
# :meth:`~bayeskit.classifiers.FullBayes.predict_joint_log_proba` gives
# :math:`\log f_i(\mathbf{x}) \hat{P}(c_i)`; subtracting the log prior leaves the density. The book
# multiplies the densities by the priors rounded to 0.33 and 0.67, so a second model is given
# those priors to reproduce its products.
density = np.exp(model.predict_joint_log_proba(x)[0] - model.log_prior_)
rounded = FullBayes(ddof=0, priors=[0.33, 0.67]).fit(X, y)
joint = np.exp(rounded.predict_joint_log_proba(x)[0])
compare(
    [
        ("f_1(x)", "4.914e-7", density[0]),
        ("f_2(x)", "2.589e-5", density[1]),
        ("f_1(x) P(c1)", "1.622e-7", joint[0]),
        ("f_2(x) P(c2)", "1.735e-5", joint[1]),
    ]
)
assert model.predict(x)[0] == rounded.predict(x)[0] == "c2"  # the book's answer
print(f"predicted class: {model.predict(x)[0]}")
print(f"posterior P(c2 | x) = {model.predict_proba(x)[0, 1]:.4f}")

# %%
# The class densities (Fig. 18.1)
# -------------------------------
# Each class's normal density drawn as level curves over the data, the 1% curve of the book's
# figure thick, the class means in black and the test point as a square. The full covariance
# tilts the ellipses along the correlation of the two attributes within each class.
ax = density_contours(model, ("sepal_length", "sepal_width"), X=X, y=y, point=(6.75, 4.25))
ax.figure.tight_layout()
