"""
Continuous networks: a linear-Gaussian chain and a conditional linear Gaussian node
===================================================================================

A network's tables generalise to densities for continuous nodes (Zhou, *Machine Learning*,
7.5). Here each continuous node is a linear regression on its parents with normal noise:
``x -> y -> z`` as a linear-Gaussian chain. We sample it, learn it back by least squares, and
ask exact questions: what ``x`` was, given ``z``. Then a conditional linear Gaussian node, whose
regression depends on a discrete parent.
"""

# %%
# A linear-Gaussian chain
# -----------------------
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from bayeskit.factors import LinearGaussianCPD
from bayeskit.graphs import DAG
from bayeskit.networks import GaussianInference, HybridNetwork

chain = HybridNetwork(
    DAG(edges=[("x", "y"), ("y", "z")]),
    [
        LinearGaussianCPD("x", [], intercept=0.0, coefficients=[], variance=1.0),
        LinearGaussianCPD("y", ["x"], intercept=1.0, coefficients=[2.0], variance=0.5),
        LinearGaussianCPD("z", ["y"], intercept=0.0, coefficients=[-1.0], variance=1.0),
    ],
)
data = chain.sample(5_000, seed=0)
learned = HybridNetwork.fit(chain.dag, data)
for node in chain.nodes:
    true, fit = chain.cpd(node), learned.cpd(node)
    print(f"{node}: slope {true.coefficients.tolist()} -> {fit.coefficients.round(3).tolist()}, "
          f"variance {float(true.variance)} -> {float(fit.variance):.3f}")  # fmt: skip

# %%
# Exact inference: the posterior of ``x`` given ``z``
# ----------------------------------------------------
# ``z = -(1 + 2x) + noise``, so a high ``z`` means a low ``x``. The posterior is Gaussian; its
# mean is linear in ``z`` and its spread the same for every ``z``.
engine = GaussianInference(chain)
post = engine.query("x", {"z": 3.0})
print(post.to_frame())
zs = pd.DataFrame({"z": np.linspace(-8, 6, 50)})
batch = engine.query_batch("x", zs)
fig, ax = plt.subplots(figsize=(7, 4))
ax.scatter(data["z"], data["x"], s=3, alpha=0.2, label="sampled (z, x)")
mean, std = batch[("x", "mean")], batch[("x", "std")]
ax.plot(zs["z"], mean, color="black", label="E[x | z]")
ax.fill_between(zs["z"], mean - 2 * std, mean + 2 * std, alpha=0.2, color="black",
                label="+/- 2 sd")  # fmt: skip
ax.set_xlabel("z")
ax.set_ylabel("x")
ax.legend()
plt.tight_layout()

# the sample agrees: rows with z near 3
near = data[(data["z"] - 3.0).abs() < 0.2]["x"]
print(f"sample mean of x for z near 3: {near.mean():.3f} (exact {post.mean[0]:.3f})")

# %%
# A conditional linear Gaussian node
# ----------------------------------
# ``dose`` is discrete; the response's regression on ``weight`` differs by dose. Fitting learns
# one regression per dose; the table of ``dose`` is learned by counting.
rng = np.random.default_rng(1)
n = 3_000
dose = rng.choice(["low", "high"], size=n)
weight = rng.normal(70, 10, size=n)
response = np.where(dose == "high", 5 + 0.2 * weight, 1 + 0.05 * weight) + rng.normal(size=n)
trial = pd.DataFrame({"dose": dose, "weight": weight, "response": response})
clg = HybridNetwork.fit(DAG(edges=[("dose", "response"), ("weight", "response")]), trial)
node = clg.cpd("response")
print("discrete parents:", node.discrete_parents, "states:", clg.states("dose"))
for k, state in enumerate(clg.states("dose")):
    print(f"dose={state}: response = {node.intercept[k]:.2f} + "
          f"{node.coefficients[k, 0]:.3f} weight, variance {node.variance[k]:.2f}")  # fmt: skip
