r"""
Discretised Iris: the joint PMF of the full Bayes classifier
============================================================

Zaki & Meira, *Data Mining and Machine Learning*, Sect. 18.1.2 (categorical attributes,
Eqs. 18.5-18.6), Tables 18.1 and 18.2, Example 18.2.

With categorical attributes the full Bayes classifier estimates each class's *joint* probability
mass function: the likelihood of a point :math:`\mathbf{v}` is the fraction of the class's
points that share all its values,

.. math::

    \hat{f}(\mathbf{v} \mid c_i) = \frac{n_i(\mathbf{v})}{n_i},

and, since an empty cell makes the posterior zero, Eq. (18.6) adds a pseudo-count of 1 to each of
the :math:`\prod_j m_j` possible values:

.. math::

    \hat{f}(\mathbf{v} \mid c_i) = \frac{n_i(\mathbf{v}) + 1}{n_i + \prod_{j=1}^d m_j}.

Table 18.1 discretises the sepal length of the Iris data into four bins and the sepal width into
three; Table 18.2 counts each cell per class (:math:`c_1` is *iris-setosa*, :math:`c_2` the
other two species). Example 18.2 classifies two points, one in an occupied cell and one in a cell
empty in both classes. bayeskit's :class:`~bayeskit.classifiers.FullBayes` keeps exactly these
counts and gives the example's likelihoods, with ``alpha=0`` (no pseudo-count) and ``alpha=1``
(Eq. 18.6).
"""

from fractions import Fraction

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from bayeskit import FullBayes
from bayeskit.data import apply_cuts, datasets


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
# Table 18.1: the bins
# --------------------
# Bins are closed on the right, the first one on both sides: sepal length ``[4.3, 5.2]``,
# ``(5.2, 6.1]``, ``(6.1, 7.0]``, ``(7.0, 7.9]``; sepal width ``[2.0, 2.8]``, ``(2.8, 3.6]``,
# ``(3.6, 4.4]``. :func:`~bayeskit.data.apply_cuts` bins by the inner edges.
X, species = datasets.load("iris")
X = X[["sepal_length", "sepal_width"]]
y = species.map({"setosa": "c1", "versicolor": "c2", "virginica": "c2"}).astype(str)
BINS = {
    "sepal_length": ([4.3, 5.2, 6.1, 7.0, 7.9], ["very short", "short", "long", "very long"]),
    "sepal_width": ([2.0, 2.8, 3.6, 4.4], ["short", "medium", "long"]),
}


def discretise(frame):
    """Each attribute's bin, by Table 18.1."""
    return pd.DataFrame(
        {
            name: pd.Categorical.from_codes(apply_cuts(frame[name].to_numpy(), edges[1:-1]), labels)
            for name, (edges, labels) in BINS.items()
        }
    )


Xd = discretise(X)
print(pd.concat([X, Xd], axis=1, keys=["measured", "binned"]).head().to_string())

# %%
# Table 18.2: the class-specific joint counts
# -------------------------------------------
# A fitted :class:`~bayeskit.classifiers.FullBayes` holds the count of every (length, width) cell
# per class, its sufficient statistic; ``dense()`` lays it out as Table 18.2 (rows: sepal length
# bins, columns: sepal width bins), the numerators over :math:`n_1 = 50` and :math:`n_2 = 100`.
model = FullBayes(alpha=0).fit(Xd, y)
counts = model.stats_.joint.dense()
book = {
    "c1": [[1, 33, 5], [0, 3, 8], [0, 0, 0], [0, 0, 0]],
    "c2": [[6, 0, 0], [24, 15, 0], [13, 30, 0], [3, 7, 2]],
}
for i, c in enumerate(model.classes_):
    table = pd.DataFrame(
        counts[i].astype(int), index=BINS["sepal_length"][1], columns=BINS["sepal_width"][1]
    )
    print(f"class {c} (n = {int(counts[i].sum())}): bayeskit's counts, as in the book")
    print(table.rename_axis(index="length \\ width").to_string(), end="\n\n")
    assert (counts[i] == book[c]).all()

# %%
# The marginals :math:`\hat{f}_{X_1}` and :math:`\hat{f}_{X_2}` of Table 18.2 are the row and
# column sums. The book prints 13/50 for the *short* sepal length of :math:`c_1`, but its own
# cells in that row, 0 + 3 + 8, make 11/50 (and 39 + 13 would be 52 of 50 points): a misprint.
# bayeskit's counts agree with the cells.
marginals = pd.DataFrame(
    [
        ("c1", "f_X1", "39/50, 13/50, 0, 0", counts[0].sum(axis=1)),
        ("c1", "f_X2", "1/50, 36/50, 13/50", counts[0].sum(axis=0)),
        ("c2", "f_X1", "6/100, 39/100, 43/100, 12/100", counts[1].sum(axis=1)),
        ("c2", "f_X2", "46/100, 52/100, 2/100", counts[1].sum(axis=0)),
    ],
    columns=["class", "marginal", "book", "bayeskit (counts)"],
)
marginals["bayeskit (counts)"] = marginals["bayeskit (counts)"].map(
    lambda v: v.astype(int).tolist()
)
print(marginals.to_string(index=False))
assert marginals["bayeskit (counts)"].tolist() == [
    [39, 11, 0, 0],  # the book's 13 is a misprint for 11
    [1, 36, 13],
    [6, 39, 43, 12],
    [46, 52, 2],
]

# %%
# Example 18.2, first point: an occupied cell
# -------------------------------------------
# :math:`\mathbf{x} = (5.3, 3.0)^T` falls in the cell (short, medium). The book multiplies the
# likelihoods by the priors rounded to 0.33 and 0.67; a second model is given those priors.
x1 = discretise(pd.DataFrame([[5.3, 3.0]], columns=X.columns))
assert x1.iloc[0].tolist() == ["short", "medium"]
rounded = FullBayes(alpha=0, priors=[0.33, 0.67]).fit(Xd, y)
likelihood = np.exp(model.predict_joint_log_proba(x1)[0] - model.log_prior_)
joint = np.exp(rounded.predict_joint_log_proba(x1)[0])
compare(
    [
        ("P(x | c1)", "3/50", likelihood[0]),
        ("P(x | c2)", "15/100", likelihood[1]),
        ("P(x | c1) P(c1)", "0.0198", joint[0]),
        ("P(x | c2) P(c2)", "0.1005", joint[1]),
    ]
)
assert rounded.predict(x1)[0] == model.predict(x1)[0] == "c2"

# %%
# Example 18.2, second point: an empty cell and the pseudo-count
# --------------------------------------------------------------
# :math:`\mathbf{x} = (6.75, 4.25)^T` is (long, long), a cell no training point falls in: without
# pseudo-counts both likelihoods are 0 and the classifier cannot decide. With a pseudo-count of 1
# per cell (``alpha=1``, Eq. 18.6; :math:`m_1 m_2 = 4 \times 3 = 12` cells) both become small but
# positive.
x2 = discretise(pd.DataFrame([[6.75, 4.25]], columns=X.columns))
assert x2.iloc[0].tolist() == ["long", "long"]
with np.errstate(divide="ignore"):
    empty = np.exp(model.predict_joint_log_proba(x2)[0] - model.log_prior_)
assert (empty == 0).all()
smoothed = FullBayes(alpha=1).fit(Xd, y)
rounded = FullBayes(alpha=1, priors=[0.33, 0.67]).fit(Xd, y)
likelihood = np.exp(smoothed.predict_joint_log_proba(x2)[0] - smoothed.log_prior_)
joint = np.exp(rounded.predict_joint_log_proba(x2)[0])
compare(
    [
        ("P(x | c1), no pseudo-count", "0/50", empty[0]),
        ("P(x | c2), no pseudo-count", "0/100", empty[1]),
        ("P(x | c1) = (0+1)/(50+12)", "1.61e-2", likelihood[0]),
        ("P(x | c2) = (0+1)/(100+12)", "8.93e-3", likelihood[1]),
        ("P(x | c1) P(c1)", "5.32e-3", joint[0]),
        ("P(x | c2) P(c2)", "5.98e-3", joint[1]),
    ]
)
assert rounded.predict(x2)[0] == smoothed.predict(x2)[0] == "c2"

# %%
# The cells over the data
# -----------------------
# The bins of Table 18.1 as grey grid lines over the two classes (as the book draws them in
# Fig. 18.1), each cell labelled with its counts :math:`n_1(\mathbf{v}) / n_2(\mathbf{v})`, and the
# two test points as squares.
fig, ax = plt.subplots(figsize=(7, 5))
for i, (c, marker) in enumerate((("c1", "o"), ("c2", "^"))):
    points = X[(y == c).to_numpy()].to_numpy()
    ax.scatter(*points.T, marker=marker, facecolors="none", edgecolors=f"C{i}", label=c, s=22)
(xedges, _), (yedges, _) = BINS["sepal_length"], BINS["sepal_width"]
for v in xedges:
    ax.axvline(v, color="grey", lw=0.8)
for v in yedges:
    ax.axhline(v, color="grey", lw=0.8)
for i in range(4):
    for j in range(3):
        centre = ((xedges[i] + xedges[i + 1]) / 2, (yedges[j] + yedges[j + 1]) / 2)
        label = f"{int(counts[0, i, j])} / {int(counts[1, i, j])}"
        ax.text(*centre, label, ha="center", va="center", fontsize="small", fontweight="bold")
for point in ((5.3, 3.0), (6.75, 4.25)):
    ax.scatter(*point, marker="s", facecolors="white", edgecolors="black", s=60, zorder=3)
ax.set(xlabel="sepal length", ylabel="sepal width", title="Table 18.2: counts c1 / c2 per cell")
ax.legend(title="class", loc="lower right")
fig.tight_layout()
