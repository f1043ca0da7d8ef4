"""
Continuous networks with missing values, and classifiers that keep numbers continuous
=====================================================================================

EM fits a network with continuous nodes to data with values missing (Zhou, *Machine
Learning*, 7.6): each E-step completes every family's statistic in expectation (counts for a
table, scatter moments for a regression) by exact inference. A node that is never observed
works the same way: a latent discrete parent of continuous nodes is a mixture of Gaussians.

Then :class:`~bayeskit.classifiers.CLGClassifier`: naive Bayes, TAN and KDB whose numeric
features stay continuous (conditional linear Gaussian nodes), against TAN on binned features.
"""

# %%
# Missing values that depend on what is observed
# -----------------------------------------------
# ``y = 1 + 2 x + noise``; ``x`` is lost more often the larger ``y`` is. The rows that keep ``x``
# are then not a random sample: fitting each family to the rows that observe it misjudges the
# mean of ``x`` and the regression. EM uses every observed value, ``y`` included.
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.model_selection import cross_val_score

from bayeskit.classifiers import TAN, CLGClassifier
from bayeskit.data import datasets
from bayeskit.graphs import DAG
from bayeskit.networks import HybridNetwork, fit_hybrid_em

rng = np.random.default_rng(0)
n = 3000
x = rng.normal(size=n)
y = 1.0 + 2.0 * x + rng.normal(size=n) * 0.5
lost = rng.random(n) < 1 / (1 + np.exp(-2 * (y - 1)))
frame = pd.DataFrame({"x": np.where(lost, np.nan, x), "y": y})
print(f"{int(lost.sum())} of {n} values of x missing")

dag = DAG(edges=[("x", "y")])
complete_rows = HybridNetwork.fit(dag, frame)  # each family from the rows that observe it
result = fit_hybrid_em(dag, frame)
print(f"EM: {result.n_iter} iterations, converged: {result.converged}")
for name, net in (("complete rows", complete_rows), ("EM", result.network)):
    cx, cy = net.cpd("x"), net.cpd("y")
    print(f"{name:>13}: mean of x {float(cx.intercept):+.3f}; y = {float(cy.intercept):.3f} + "
          f"{float(cy.coefficients[0]):.3f} x")  # fmt: skip
print(f"{'truth':>13}: mean of x {x.mean():+.3f}; y = 1.000 + 2.000 x")

# %%
# A latent discrete parent: a mixture of two Gaussians
# ----------------------------------------------------
# ``z`` has no column: EM finds the two components and their weights.
z = rng.random(4000) < 0.3
v = np.where(z, -2.0, 1.5) + rng.normal(size=4000) * np.where(z, 0.6, 1.0)
mixture = fit_hybrid_em([("z", "v")], pd.DataFrame({"v": v}), latent={"z": 2}, restarts=2)
cpd = mixture.network.cpd("v")
weights = mixture.network.cpd("z").values
print("weights", weights.round(3), "means", cpd.intercept.round(3), "sd",
      np.sqrt(cpd.variance).round(3))  # fmt: skip
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.hist(v, bins=60, density=True, alpha=0.4, label="data")
grid = np.linspace(v.min(), v.max(), 300)
density = sum(
    w * np.exp(-((grid - m) ** 2) / (2 * s2)) / np.sqrt(2 * np.pi * s2)
    for w, m, s2 in zip(weights, cpd.intercept, cpd.variance, strict=True)
)
ax.plot(grid, density, color="black", label="fitted mixture")
ax.set_xlabel("v")
ax.legend()
plt.tight_layout()

# %%
# Classifiers that keep numbers continuous
# ----------------------------------------
# Iris has four numeric features. TAN and KDB over conditional linear Gaussian nodes model
# how the features move together within a class; TAN on binned features sees only bins.
X, labels = datasets.load("iris")
models = {
    "CLG naive Bayes": CLGClassifier(structure="naive"),
    "CLG TAN": CLGClassifier(structure="tan"),
    "CLG KDB (k=2)": CLGClassifier(structure="kdb", k=2),
    "TAN on MDL bins": TAN(),
}
for name, model in models.items():
    scores = cross_val_score(model, X, labels, cv=5)
    print(f"{name:>16}: accuracy {scores.mean():.3f} (5-fold)")

tan = CLGClassifier(structure="tan").fit(X, labels)
print("TAN's feature tree:", [e for e in tan.network_.dag.edges if e[0] != "class"])
