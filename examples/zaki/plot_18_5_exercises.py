r"""
Exercises Q1-Q3: full and naive Bayes by hand and by bayeskit
=============================================================

Zaki & Meira, *Data Mining and Machine Learning*, Sect. 18.5, Exercises Q1, Q2 and Q3
(Tables 18.3 and 18.4), with Eqs. (18.3), (18.4), (18.6) and (18.7).

The book prints no answers to its exercises, so this example works each one out by hand, with
the chapter's formulas in exact fractions where they are rational, and checks bayeskit's
classifiers against that.

* **Q1** (Table 18.3): classify (Age = 23, Car = truck) by naive and by full Bayes, the domain of
  Car being {sports, vintage, suv, truck}.
* **Q2** (Table 18.4): classify (T, F, 1.0) by naive Bayes, two categorical attributes and a
  numeric one.
* **Q3**: classify :math:`(3, 4)^T` by full Bayes with given class means and covariances and equal
  priors.

The chapter's estimates throughout: priors :math:`n_i / n`, variances and covariances divided by
:math:`n_i` (``ddof=0``), and a pseudo-count of 1 for categorical values (Eq. 18.6 and its naive
Bayes analogue).
"""

from fractions import Fraction

import numpy as np
import pandas as pd

from bayeskit import FullBayes, NaiveBayes
from bayeskit.data import datasets
from bayeskit.estimate import log_determinant, mahalanobis_squared, mvn_log_density
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


def normal(x, mean, var):
    """The normal density, by hand."""
    return np.exp(-((x - mean) ** 2) / (2 * var)) / np.sqrt(2 * np.pi * var)


# %%
# Q1, naive Bayes
# ---------------
# Age is numeric: class H has ages 20, 45, 20, 25 (mean 27.5, variance 106.25); both L points
# have age 25, so the variance of L is 0 and its normal is a point mass at 25, whose density at
# 23 is 0. Car is categorical: truck never occurs, so its pseudo-count estimate is
# :math:`(0 + 1)/(n_i + 4)`. L is ruled out by its age, and H wins with posterior 1.
X, y = datasets.load("zaki_q1")
print(pd.concat([X, y], axis=1).to_string())
x = pd.DataFrame({"age": [23.0], "car": ["truck"]})
naive = NaiveBayes(discretize=None, ddof=0, var_smoothing=0.0, prior_alpha=0.0, alpha=1.0)
naive.fit(X, y)  # classes_ in sorted order: H, L
terms = np.exp(naive.feature_log_likelihood(x)[0])  # (attribute, class)
f_age_h = normal(23, 27.5, 106.25)
compare(
    [
        ("P(H)", "4/6", np.exp(naive.log_prior_[0])),
        ("P(L)", "2/6", np.exp(naive.log_prior_[1])),
        ("mean(age | H)", "55/2", naive.theta_[0, 0]),
        ("var(age | H)", "425/4", naive.var_[0, 0]),
        ("var(age | L)", "0", naive.var_[1, 0]),
        ("f(age = 23 | H)", f"{f_age_h:.7f}", terms[0, 0]),
        ("f(age = 23 | L)", "0", terms[0, 1]),
        ("P(truck | H) = (0+1)/(4+4)", "1/8", terms[1, 0]),
        ("P(truck | L) = (0+1)/(2+4)", "1/6", terms[1, 1]),
        (
            "P(x | H) P(H)",
            f"{f_age_h / 8 * 2 / 3:.6e}",
            np.exp(naive.predict_joint_log_proba(x)[0, 0]),
        ),
        ("P(H | x)", "1", naive.predict_proba(x)[0, 0]),
    ],
    reference="by hand",
)
assert naive.predict(x)[0] == "H"

# %%
# Q1, full Bayes
# --------------
# The chapter's full Bayes classifier is either all numeric or all categorical; a joint of a
# numeric age and a categorical car would need the density of age among the trucks of each
# class, for which there are no data. So age is taken as categorical here, over the training
# values and the query's, {20, 23, 25, 45}: 4 x 4 = 16 cells. The cell (23, truck) is empty in
# both classes, so Eq. (18.6) gives :math:`(0 + 1)/(n_i + 16)`: 1/20 for H and 1/18 for L. The
# priors decide: H.
ages = [20, 23, 25, 45]
Xc = X.assign(age=pd.Categorical(X["age"].astype(int), categories=ages))
xc = x.assign(age=pd.Categorical([23], categories=ages))
full = FullBayes(alpha=1.0).fit(Xc, y)
likelihood = np.exp(full.predict_joint_log_proba(xc)[0] - full.log_prior_)
joint = np.exp(full.predict_joint_log_proba(xc)[0])
compare(
    [
        ("P(x | H) = (0+1)/(4+16)", "1/20", likelihood[0]),
        ("P(x | L) = (0+1)/(2+16)", "1/18", likelihood[1]),
        ("P(x | H) P(H)", "1/30", joint[0]),
        ("P(x | L) P(L)", "1/54", joint[1]),
        ("P(H | x)", "9/14", full.predict_proba(xc)[0, 0]),
    ],
    reference="by hand",
)
assert full.predict(xc)[0] == "H"

# %%
# Q2, naive Bayes with mixed attributes
# -------------------------------------
# :math:`a_1` and :math:`a_2` are categorical (no zero count is involved, so no pseudo-count is
# needed: ``alpha=0``), :math:`a_3` is numeric. Class Y has :math:`a_3` = 5, 7, 3, 6 (mean 5.25,
# variance 2.1875), class N has 8, 7, 4, 5, 1 (mean 5, variance 6). The point's low
# :math:`a_3 = 1` is far likelier in N, which wins.
X, y = datasets.load("zaki_q2")
print(pd.concat([X, y], axis=1).to_string())
x = pd.DataFrame({"a1": ["T"], "a2": ["F"], "a3": [1.0]})
model = NaiveBayes(discretize=None, ddof=0, var_smoothing=0.0, prior_alpha=0.0, alpha=0.0)
model.fit(X, y)  # classes_: N, Y
terms = np.exp(model.feature_log_likelihood(x)[0])  # (attribute, class)
joint = np.exp(model.predict_joint_log_proba(x)[0])
f_y, f_n = normal(1.0, 5.25, 2.1875), normal(1.0, 5.0, 6.0)
joint_y, joint_n = 4 / 9 * 3 / 4 * 1 / 2 * f_y, 5 / 9 * 1 / 5 * 2 / 5 * f_n
compare(
    [
        ("P(Y)", "4/9", np.exp(model.log_prior_[1])),
        ("P(a1 = T | Y)", "3/4", terms[0, 1]),
        ("P(a2 = F | Y)", "2/4", terms[1, 1]),
        ("mean(a3 | Y)", "21/4", model.theta_[1, 0]),
        ("var(a3 | Y)", "35/16", model.var_[1, 0]),
        ("f(a3 = 1 | Y)", f"{f_y:.6e}", terms[2, 1]),
        ("P(N)", "5/9", np.exp(model.log_prior_[0])),
        ("P(a1 = T | N)", "1/5", terms[0, 0]),
        ("P(a2 = F | N)", "2/5", terms[1, 0]),
        ("mean(a3 | N)", "5", model.theta_[0, 0]),
        ("var(a3 | N)", "6", model.var_[0, 0]),
        ("f(a3 = 1 | N)", f"{f_n:.6e}", terms[2, 0]),
        ("P(x | Y) P(Y)", f"{joint_y:.6e}", joint[1]),
        ("P(x | N) P(N)", f"{joint_n:.6e}", joint[0]),
        ("P(Y | x)", f"{joint_y / (joint_y + joint_n):.6f}", model.predict_proba(x)[0, 1]),
    ],
    reference="by hand",
)
assert model.predict(x)[0] == "N"

# %%
# With the sample variance (divided by :math:`n_i - 1`, ``ddof=1``) the numeric term is less
# decisive, :math:`P(Y \mid \mathbf{x}) = 0.441`, and the answer is still N.
sample = NaiveBayes(discretize=None, ddof=1, var_smoothing=0.0, prior_alpha=0.0, alpha=0.0)
sample.fit(X, y)
print(f"ddof=1: P(Y | x) = {sample.predict_proba(x)[0, 1]:.3f}, class {sample.predict(x)[0]}")
assert round(sample.predict_proba(x)[0, 1], 3) == 0.441
assert sample.predict(x)[0] == "N"

# %%
# Q3, full Bayes with given parameters
# ------------------------------------
# :math:`\Sigma_1 = \begin{pmatrix} 5 & 3 \\ 3 & 2 \end{pmatrix}` has determinant 1 and inverse
# :math:`\begin{pmatrix} 2 & -3 \\ -3 & 5 \end{pmatrix}`, so the squared Mahalanobis distance of
# :math:`\mathbf{x} - \mu_1 = (2, 1)^T` is :math:`8 - 12 + 5 = 1`; :math:`\Sigma_2` is
# diagonal with determinant 2, and :math:`\mathbf{x} - \mu_2 = (-2, -1)^T` is at
# :math:`4/2 + 1 = 3`. Eq. (18.3) gives :math:`f_1 = e^{-1/2} / 2\pi` and
# :math:`f_2 = e^{-3/2} / (2\pi\sqrt{2})`. The estimate layer's Gaussian functions, which
# :class:`~bayeskit.classifiers.FullBayes` uses, compute them from the Cholesky factors.
mu = {"c1": np.array([1.0, 3.0]), "c2": np.array([5.0, 5.0])}
cov = {"c1": np.array([[5.0, 3.0], [3.0, 2.0]]), "c2": np.array([[2.0, 0.0], [0.0, 1.0]])}
point = np.array([[3.0, 4.0]])
chol = {c: np.linalg.cholesky(cov[c]) for c in cov}
f1, f2 = np.exp(-0.5) / (2 * np.pi), np.exp(-1.5) / (2 * np.pi * np.sqrt(2))
compare(
    [
        ("|Sigma_1|", "1", np.exp(log_determinant(chol["c1"]))),
        ("|Sigma_2|", "2", np.exp(log_determinant(chol["c2"]))),
        ("Mahalanobis^2 to mu_1", "1", mahalanobis_squared(point, mu["c1"], chol["c1"])[0]),
        ("Mahalanobis^2 to mu_2", "3", mahalanobis_squared(point, mu["c2"], chol["c2"])[0]),
        ("f_1(x)", f"{f1:.8f}", np.exp(mvn_log_density(point, mu["c1"], chol["c1"]))[0]),
        ("f_2(x)", f"{f2:.8f}", np.exp(mvn_log_density(point, mu["c2"], chol["c2"]))[0]),
    ],
    reference="by hand",
)

# %%
# The classifier itself learns its parameters from data. Any data whose class means and
# maximum-likelihood covariances are the given ones make it the exercise's classifier: the
# :math:`2d = 4` points :math:`\mu \pm \sqrt{d} L e_j` (:math:`L` the Cholesky factor) have
# exactly that mean and covariance. Fitted on them with equal priors,
# :class:`~bayeskit.classifiers.FullBayes` gives
# :math:`P(c_1 \mid \mathbf{x}) = f_1 / (f_1 + f_2) = 0.794`: class :math:`c_1`.
spread = {c: np.sqrt(2) * chol[c].T for c in chol}
points = np.concatenate([mu[c] + s * sign for c, s in spread.items() for sign in (1, -1)])
points = pd.DataFrame(points, columns=["x1", "x2"])
labels = np.repeat(["c1", "c2"], 4)
query = pd.DataFrame(point, columns=["x1", "x2"])
model = FullBayes(ddof=0, priors=[0.5, 0.5]).fit(points, labels)
assert np.allclose(model.means_, [mu["c1"], mu["c2"]])
assert np.allclose(model.covariance_, [cov["c1"], cov["c2"]])
compare(
    [("P(c1 | x)", f"{f1 / (f1 + f2):.8f}", model.predict_proba(query)[0, 0])], reference="by hand"
)
assert model.predict(query)[0] == "c1"

# %%
# The two normals of Q3 and the point :math:`(3, 4)^T`: the tilted, narrow density of
# :math:`c_1` reaches the point more easily than the round one of :math:`c_2`, though the point
# is nearer :math:`\mu_2` in plain distance.
ax = density_contours(model, ("x1", "x2"), point=(3.0, 4.0))
ax.figure.tight_layout()
