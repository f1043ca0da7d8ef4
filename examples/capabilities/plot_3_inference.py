"""
Exact inference, and sampling against the exact answer
======================================================

A Bayesian network answers questions about any of its nodes given evidence on any others. Here
we ask them of two bundled networks (:func:`~bayeskit.networks.example_network`):

* exactly, on ASIA (Lauritzen and Spiegelhalter 1988: a visit to Asia, smoking, tuberculosis,
  lung cancer, bronchitis, an X-ray and shortness of breath): posterior marginals, the
  probability of the evidence, the most probable explanation (MAP and MPE) by variable
  elimination, and a batch of patients in one pass of the junction tree;
* approximately, on SACHS (Sachs et al. 2005, a protein-signalling network), by likelihood
  weighting and by Gibbs sampling (Zhou, *Machine Learning*, 7.5.3, Algorithm 7.1), whose
  estimates approach the exact posterior as the samples grow.
"""

# %%
# Posterior marginals on ASIA
# ---------------------------
# A patient is short of breath (``dysp``) and has a positive X-ray. How likely are lung cancer,
# tuberculosis and bronchitis?
import warnings

import matplotlib.pyplot as plt
import numpy as np

from bayeskit.networks import (
    DeterministicCPTWarning,
    GibbsSampler,
    JunctionTree,
    VariableElimination,
    example_network,
    likelihood_weighting,
)

asia = example_network("asia")
evidence = {"xray": "yes", "dysp": "yes"}
ve = VariableElimination(asia)
posterior = ve.query(["lung", "tub", "bronc"], evidence, joint=False)
print(posterior)

# %%
# A query of several nodes with ``joint=True`` (the default) gives their joint posterior as
# one factor, and :meth:`~bayeskit.networks.VariableElimination.probability_of_evidence` gives
# P(e), the normaliser of every posterior above.
print(ve.query(["lung", "tub"], evidence))
print(f"P(xray = yes, dysp = yes) = {ve.probability_of_evidence(evidence):.5f}")

# %%
# The most probable explanation
# -----------------------------
# MAP: the most probable joint state of some nodes given the evidence (the others summed out);
# MPE: that of every unobserved node (max-product elimination).
print(ve.map_query(["lung", "tub", "bronc"], evidence))
print(ve.map_query(evidence=evidence))

# %%
# Many patients in one pass
# -------------------------
# The junction tree is compiled once; ``query_batch`` answers one query per row of a data frame,
# each row its own evidence (a missing value is unobserved). Here: ten patients sampled from
# the network, whose diseases we hide.
patients = asia.sample(10, seed=1)
observed = patients.drop(columns=["lung", "tub", "either", "bronc"])
jt = JunctionTree(asia)
p_lung = jt.query_batch("lung", observed)
print(observed.assign(**{"P(lung = yes)": p_lung["yes"].round(4)}).to_string())

# %%
# Each row equals the single query with the same evidence.
first = ve.query("lung", observed.iloc[0].to_dict())
assert np.allclose(p_lung.iloc[0].to_numpy(), first.values)

# %%
# Sampling against the exact answer on SACHS
# ------------------------------------------
# Likelihood weighting draws every unobserved node forward from its CPT and weights each draw
# by the probability of the evidence given it; Gibbs sampling resamples one node at a time from
# its distribution given its Markov blanket, in four chains. Both are seeded. We estimate
# P(Raf | Erk = LOW, Akt = LOW) with more and more samples, five times each, and measure the
# total variation distance to the exact posterior.
sachs = example_network("sachs")
query, sachs_evidence = "Raf", {"Erk": "LOW", "Akt": "LOW"}
exact = VariableElimination(sachs).query(query, sachs_evidence).values
print("exact:", ", ".join(f"{s} {p:.4f}" for s, p in zip(sachs.states(query), exact, strict=True)))

sizes = [100, 300, 1_000, 3_000, 10_000, 30_000]
seeds = range(5)
errors = {"likelihood weighting": [], "Gibbs sampling (4 chains)": []}
gibbs = GibbsSampler(sachs)
for n in sizes:
    lw, gs = [], []
    for seed in seeds:
        estimate = likelihood_weighting(sachs, query, sachs_evidence, n_samples=n, seed=seed)
        lw.append(0.5 * np.abs(estimate[query].values - exact).sum())
        result = gibbs.query(query, sachs_evidence, n_draws=n // 4, burn_in=200, seed=seed)
        gs.append(0.5 * np.abs(result.marginals[query].values - exact).sum())
    errors["likelihood weighting"].append(np.mean(lw))
    errors["Gibbs sampling (4 chains)"].append(np.mean(gs))

print(f"{'samples':>8} {'LW error':>9} {'Gibbs error':>12}")
for n, a, b in zip(sizes, *errors.values(), strict=True):
    print(f"{n:8} {a:9.4f} {b:12.4f}")
print("split R-hat of the last Gibbs run:", round(result.r_hat[query], 4))

# %%
# The error falls as one over the square root of the number of samples, as a Monte Carlo
# average's does.
for curve in errors.values():
    assert curve[-1] < curve[0] / 5

fig, ax = plt.subplots(figsize=(7, 4))
for name, curve in errors.items():
    ax.loglog(sizes, curve, marker="o", label=name)
ax.loglog(sizes, 0.5 / np.sqrt(sizes), color="grey", ls="--", label=r"$0.5 / \sqrt{n}$")
ax.set_xlabel("samples n (Gibbs: kept draws over all chains)")
ax.set_ylabel("total variation distance to exact")
ax.set_title("P(Raf | Erk = LOW, Akt = LOW) on SACHS: 5 seeds per point")
ax.legend()
fig.tight_layout()
plt.show()

# %%
# When Gibbs sampling cannot move
# -------------------------------
# In ASIA, ``either`` is the logical OR of tuberculosis and lung cancer: its CPT holds only 0s
# and 1s. A single-node Gibbs move cannot then change ``lung`` or ``tub`` alone while
# ``either`` stays put, so the chains may never visit states that have probability. The sampler
# warns of such CPTs (:class:`~bayeskit.networks.DeterministicCPTWarning`); exact inference or
# likelihood weighting, which draws forward, are the remedy. Zhou (*Machine Learning*, 7.5.3)
# gives the same warning: with probabilities of 0 or 1 in the network, the chain need not
# converge to the posterior, and Gibbs sampling can give a wrong estimate. Compare the three:
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", DeterministicCPTWarning)
    stuck = GibbsSampler(asia).query("lung", evidence, n_draws=2_000, seed=0)
told = [w for w in caught if issubclass(w.category, DeterministicCPTWarning)]
assert told
print(told[0].message)
weighted = likelihood_weighting(asia, "lung", evidence, n_samples=20_000, seed=0)
print(f"{'P(lung = yes | e)':22} {'value':>7}")
print(f"{'exact':22} {posterior['lung'].values[0]:7.4f}")
print(f"{'likelihood weighting':22} {weighted['lung'].values[0]:7.4f}")
print(f"{'Gibbs sampling':22} {stuck.marginals['lung'].values[0]:7.4f}")
print("Gibbs split R-hat:", stuck.r_hat)
assert abs(weighted["lung"].values[0] - posterior["lung"].values[0]) < 0.02

# %%
# R-hat compares chains with one another and each chain's halves: chains that are stuck alike
# look converged to it. The warning, not R-hat, is the signal that single-node moves may be
# trapped.
