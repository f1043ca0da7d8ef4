r"""
K nearest neighbours as a Bayes classifier
==========================================

Zaki & Meira, *Data Mining and Machine Learning*, Sect. 18.3, Example 18.5 and Fig. 18.3.

The K nearest neighbours classifier estimates each class's density non-parametrically. Let
:math:`r` be the distance from the test point :math:`\mathbf{x}` to its K-th nearest training
point and :math:`K_i` the number of the K neighbours in class :math:`c_i`; over the ball of
radius :math:`r` and volume :math:`V`,

.. math::

    \hat{f}(\mathbf{x} \mid c_i) = \frac{K_i}{n_i V},
    \qquad
    P(c_i \mid \mathbf{x}) = \frac{\hat{f}(\mathbf{x} \mid c_i) \hat{P}(c_i)}
    {\sum_j \hat{f}(\mathbf{x} \mid c_j) \hat{P}(c_j)} = \frac{K_i}{K},

so the predicted class is the majority class among the K neighbours. Example 18.5 classifies
:math:`\mathbf{x} = (6.75, 4.25)^T` on the 2-D Iris data of Example 18.1 (:math:`c_1` is
*iris-setosa*, :math:`c_2` the other two species) with :math:`K = 5` and the Euclidean
distance. bayeskit's :class:`~bayeskit.classifiers.KNNBayes` gives the counts, the radius, the
densities and the posterior.
"""

from fractions import Fraction

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from bayeskit import KNNBayes
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


X, species = datasets.load("iris")
X = X[["sepal_length", "sepal_width"]]
y = species.map({"setosa": "c1", "versicolor": "c2", "virginica": "c2"}).astype(str)
x = pd.DataFrame([[6.75, 4.25]], columns=X.columns)

# %%
# The five neighbours
# -------------------
model = KNNBayes(n_neighbors=5, metric="euclidean").fit(X, y)
counts = model.neighbor_counts(x)[0]
posterior = model.predict_proba(x)[0]
distance, index = model.kneighbors(x)
neighbours = X.iloc[index[0]].assign(cls=y.iloc[index[0]].to_numpy(), distance=distance[0])
print(neighbours.to_string())
compare(
    [
        ("K_1", "1", counts[0]),
        ("K_2", "4", counts[1]),
    ]
)
print(f"P(c1 | x) = K_1 / K = {posterior[0]:g}, P(c2 | x) = K_2 / K = {posterior[1]:g}")
assert np.allclose(posterior, counts / 5)
assert model.predict(x)[0] == "c2"  # the book's answer

# %%
# The radius: two identical points
# --------------------------------
# The book names :math:`(6.2, 3.4)^T` as the 5th nearest neighbour, at
# :math:`r = \sqrt{1.025} = 1.012`. That holds when the two identical training points
# :math:`(6.7, 3.3)^T` (both in :math:`c_2`) count once, as they do in a scatter plot. The
# classifier counts every training row, so its 5th neighbour is :math:`(5.8, 4.0)^T` at
# :math:`r = 0.982`; fitted on the distinct points, it gives the book's radius. :math:`K_1 = 1`,
# :math:`K_2 = 4` and the prediction :math:`c_2` are the same either way.
distinct = pd.concat([X, y], axis=1).drop_duplicates()
merged = KNNBayes(n_neighbors=5).fit(distinct[X.columns], distinct["species"])
fifth = distinct.iloc[merged.kneighbors(x)[1][0, -1]]
r = merged.radius(x)[0]
compare([("r (distinct points)", "1.012", r), ("r^2 (distinct points)", "1.025", r**2)])
assert (fifth["sepal_length"], fifth["sepal_width"]) == (6.2, 3.4)
assert (merged.neighbor_counts(x)[0] == counts).all()
assert merged.predict(x)[0] == "c2"
print(f"r counting every row: {model.radius(x)[0]:.3f}, the 5th neighbour (5.8, 4.0)")
assert abs(model.radius(x)[0] - 0.982) < 0.0005

# %%
# The densities :math:`K_i / (n_i V)`, with :math:`V = \pi r^2` the area of the disc, are what the
# posterior is made of; their ratio, times the priors' ratio, is :math:`K_1 / K_2`.
r = model.radius(x)[0]
density = model.density(x)[0]
print(f"f(x | c1) = {density[0]:.5f}, f(x | c2) = {density[1]:.5f}")
assert np.allclose(density, [1 / (50 * np.pi * r**2), 4 / (100 * np.pi * r**2)])

# %%
# The neighbourhood (Fig. 18.3)
# -----------------------------
# The disc of radius :math:`r` around the test point holds its five nearest neighbours (filled),
# four of class :math:`c_2` and one of :math:`c_1`.
fig, ax = plt.subplots(figsize=(6.5, 5))
for i, (c, marker) in enumerate((("c1", "o"), ("c2", "^"))):
    points = X[(y == c).to_numpy()].to_numpy()
    ax.scatter(*points.T, marker=marker, facecolors="none", edgecolors=f"C{i}", label=c, s=22)
    near = neighbours[neighbours["cls"] == c]
    ax.scatter(near["sepal_length"], near["sepal_width"], marker=marker, color=f"C{i}", s=40)
ax.add_patch(plt.Circle((6.75, 4.25), r, fill=False, color="black", linestyle="--"))
ax.scatter(6.75, 4.25, marker="s", facecolors="white", edgecolors="black", s=60, zorder=3)
ax.annotate("x", (6.75, 4.25), xytext=(6, 6), textcoords="offset points", fontweight="bold")
ax.set(xlabel="sepal length", ylabel="sepal width", title=f"K = 5 neighbours, r = {r:.3f}")
ax.set_aspect("equal")
ax.legend(title="class", loc="lower right")
fig.tight_layout()
