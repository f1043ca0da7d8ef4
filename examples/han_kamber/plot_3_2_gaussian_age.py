r"""
A numeric attribute: the Gaussian density of age
================================================

Han, Kamber & Pei lecture notes, *Bayes Classifiers* (6.3), Sect. 3.2 *Numerical attributes*,
the age example (Han, Kamber & Pei, Sect. 8.3.2).

A continuous attribute is commonly given a Gaussian class-conditional density,

.. math::

    p(x_k \mid C_i) = g(x_k, \mu_{C_i}, \sigma_{C_i})
    = \frac{1}{\sqrt{2\pi} \sigma_{C_i}} e^{-\frac{(x_k - \mu_{C_i})^2}{2 \sigma_{C_i}^2}},

whose mean and variance are estimated from the class's values. The notes' example keeps age
numeric in a 7-row table (bundled as ``age_numeric_credit``) and evaluates both classes' densities
at age 30. The variances the notes print are the *sample* variances, divided by
:math:`n_i - 1`: bayeskit's :class:`~bayeskit.classifiers.NaiveBayes` with ``ddof=1``, no variance
floor (``var_smoothing=0``) and numeric attributes kept numeric (``discretize=None``).
"""

from fractions import Fraction

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from bayeskit import NaiveBayes
from bayeskit.data import datasets
from bayeskit.estimate import gaussian_log_density


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
    """The Gaussian density g(x, mu, sigma), by hand."""
    return np.exp(-((x - mean) ** 2) / (2 * var)) / np.sqrt(2 * np.pi * var)


X, y = datasets.load("age_numeric_credit")
print(pd.concat([X, y], axis=1).to_string())
model = NaiveBayes(discretize=None, ddof=1, var_smoothing=0.0, alpha=0.0, prior_alpha=0.0)
model.fit(X, y)  # classes_: no, yes; theta_ and var_ have shape (class, numeric attribute)

# %%
# The class-conditional mean and variance of age
# ----------------------------------------------
compare(
    [
        ("mu_yes", "32.67", model.theta_[1, 0]),
        ("sigma^2_yes", "76.33", model.var_[1, 0]),
        ("mu_no", "27.75", model.theta_[0, 0]),
    ]
)

# %%
# The notes print :math:`\sigma^2_{\text{no}} = 69.59`; the four ages 22, 31, 20, 38 give
# :math:`208.75 / 3 = 69.583`, which rounds to 69.58.
print(f"sigma^2_no = {model.var_[0, 0]:.4f} (notes: 69.59)")
assert round(model.var_[0, 0], 2) == 69.58

# %%
# The densities at age 30
# -----------------------
# The notes computed their six-decimal densities from the parameters rounded to two decimals, so
# they differ from the exact ones in the sixth decimal. bayeskit's Gaussian log-density, given
# the rounded parameters, gives the notes' figures; the fitted model, with the exact parameters,
# gives 0.043584 and 0.046117.
rounded = {
    "yes": np.exp(gaussian_log_density(30.0, 32.67, 76.33)),
    "no": np.exp(gaussian_log_density(30.0, 27.75, 69.59)),
}
compare(
    [
        ("g(30; 32.67, 76.33)", "0.043579", rounded["yes"]),
        ("g(30; 27.75, 69.59)", "0.046115", rounded["no"]),
    ]
)
x = pd.DataFrame({"age": [30.0], "credit_rating": ["fair"]})
terms = np.exp(model.feature_log_likelihood(x)[0])  # (attribute, class)
print(f"fitted model: p(age = 30 | yes) = {terms[0, 1]:.6f}, p(age = 30 | no) = {terms[0, 0]:.6f}")
assert abs(terms[0, 1] - 0.0435837) < 5e-7
assert abs(terms[0, 0] - 0.0461168) < 5e-7

# %%
# The naive Bayes decision for X = (30, fair)
# -------------------------------------------
# The notes stop at the densities. Combined with the credit rating's frequencies
# (:math:`P(\text{fair} \mid \text{yes}) = 2/3`, :math:`P(\text{fair} \mid \text{no}) = 2/4`) and
# the priors 3/7 and 4/7, the joints are 0.01245 and 0.01318: a narrow "no".
joint = np.exp(model.predict_joint_log_proba(x)[0])
g_yes, g_no = normal(30, 98 / 3, 229 / 3), normal(30, 111 / 4, 835 / 12)  # exact parameters
compare(
    [
        ("P(fair | yes)", "2/3", terms[1, 1]),
        ("P(fair | no)", "2/4", terms[1, 0]),
        ("p(X | yes) P(yes)", f"{g_yes * 2 / 3 * 3 / 7:.8f}", joint[1]),
        ("p(X | no) P(no)", f"{g_no * 2 / 4 * 4 / 7:.8f}", joint[0]),
    ],
    reference="by hand",
)
assert model.predict(x)[0] == "no"

# %%
# The two densities of age
# ------------------------
ages = np.linspace(0, 65, 300)
fig, ax = plt.subplots(figsize=(7, 3.5))
for i, c in enumerate(model.classes_):
    density = np.exp(gaussian_log_density(ages, model.theta_[i, 0], model.var_[i, 0]))
    ax.plot(ages, density, color=f"C{i}", label=f"buys_computer = {c}")
    ax.plot(X["age"][y == c], np.zeros((y == c).sum()), "|", color=f"C{i}", markersize=15)
ax.axvline(30, color="black", linestyle="--", linewidth=0.8)
ax.annotate("age = 30", (30, 0.001), xytext=(4, 0), textcoords="offset points")
ax.set(xlabel="age", ylabel="p(age | class)", title="Gaussian class-conditional densities")
ax.legend()
fig.tight_layout()
