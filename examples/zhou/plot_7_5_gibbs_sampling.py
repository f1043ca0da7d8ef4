r"""
Inference in the watermelon network by Gibbs sampling
=====================================================

Zhou, *Machine Learning*, section 7.5.3, Eq. (7.33) and Algorithm 7.1.

The book's query: having seen a melon's color = green, sound = muffled and root = curly (the
evidence :math:`\mathbf E = \mathbf e`), how likely is it ripe and of high sweetness (the query
:math:`\mathbf Q = \mathbf q = \{\mathrm{true}, \mathrm{high}\}`)? Exact inference is NP-hard
in general; Gibbs sampling approximates the answer. It starts from a random assignment of the
non-evidence variables, then repeatedly resamples each of them from its distribution given all
the others (computed from the network), which makes a Markov chain whose stationary
distribution is :math:`P(\mathbf Q \mid \mathbf E = \mathbf e)`. After :math:`T` samples, of
which :math:`n_q` agree with :math:`\mathbf q`,

.. math::

    P(\mathbf Q = \mathbf q \mid \mathbf E = \mathbf e) \simeq \frac{n_q}{T}.

The network is the one of Fig. 7.2 (see
:ref:`sphx_glr_auto_examples_zhou_plot_7_5_bayesian_network.py`): the root table holds the book's
printed entry :math:`P(\mathrm{root}=\mathrm{straight} \mid \mathrm{sweetness}=\mathrm{high})
= 0.1`, the other tables are illustrative values, not the book's. The book gives no figure for
the answer; here the exact posterior (:class:`~bayeskit.inference.VariableElimination`) is the
reference for :class:`~bayeskit.inference.GibbsSampler` and for Algorithm 7.1 written out in a
few lines.
"""

import matplotlib.pyplot as plt
import numpy as np

from bayeskit.inference import GibbsSampler, VariableElimination
from bayeskit.networks import DAG, BayesianNetwork

# %%
# The network and the exact answer
# --------------------------------

edges = [("ripe", "sound"), ("ripe", "color"), ("sweetness", "color"), ("sweetness", "root")]
states = {
    "ripe": ["true", "false"],
    "sweetness": ["high", "low"],
    "sound": ["muffled", "dull", "crisp"],
    "color": ["green", "dark", "light"],
    "root": ["straight", "curly"],
}
cpts = {
    "ripe": [0.47, 0.53],
    "sweetness": [0.4, 0.6],
    "sound": [[0.7, 0.2, 0.1], [0.4, 0.35, 0.25]],
    "color": [[[0.5, 0.4, 0.1], [0.4, 0.4, 0.2]], [[0.3, 0.3, 0.4], [0.2, 0.3, 0.5]]],
    "root": [[0.1, 0.9], [0.7, 0.3]],
}
net = BayesianNetwork(DAG(edges=edges), cpts, states=states)
evidence = {"color": "green", "sound": "muffled", "root": "curly"}
query = {"ripe": "true", "sweetness": "high"}

posterior = VariableElimination(net).query(["ripe", "sweetness"], evidence)
print(posterior)
exact = float(posterior.values[0, 0])  # ripe = true, sweetness = high
print(f"exact P(ripe=true, sweetness=high | e) = {exact:.4f}")

# %%
# By hand, the posterior is the joint of Eq. (7.27) with the evidence fixed, normalised over
# the four values of (ripe, sweetness):

joint = {
    (r, s): net.probability({**evidence, "ripe": r, "sweetness": s})
    for r in states["ripe"]
    for s in states["sweetness"]
}
assert np.isclose(exact, joint["true", "high"] / sum(joint.values()))

# %%
# bayeskit's Gibbs sampler
# ------------------------
# :meth:`GibbsSampler.query <bayeskit.inference.GibbsSampler.query>` runs several chains side
# by side (compiled), drops a burn-in, and returns each queried node's estimated marginal,
# the split :math:`\hat R` of each chain set (near 1 when the chains agree) and the kept draws.
# The draws give the estimate of the joint query, :math:`n_q / T`.

result = GibbsSampler(net).query(
    ["ripe", "sweetness"], evidence, n_draws=20_000, burn_in=500, n_chains=4, seed=0
)
draws = result.draws
hit = ((draws["ripe"] == "true") & (draws["sweetness"] == "high")).to_numpy()
estimate = hit.mean()
print(f"Gibbs, T = {hit.size}: n_q / T = {estimate:.4f} (exact {exact:.4f})")
print("split R-hat:", {k: round(v, 4) for k, v in result.r_hat.items()})
assert abs(estimate - exact) < 0.01
assert max(result.r_hat.values()) < 1.01

# %%
# Algorithm 7.1, written out
# --------------------------
# The same sampler in plain Python, one chain: each step resamples ripe and then sweetness
# from their distributions given every other variable, each proportional to the joint
# :math:`P_B` of the whole assignment (:meth:`BayesianNetwork.probability
# <bayeskit.networks.BayesianNetwork.probability>`), and counts the steps that agree with
# :math:`\mathbf q`.


def gibbs_algorithm_7_1(net, query, evidence, T, rng):
    free = list(query)
    q = {**evidence, **{v: rng.choice(net.states(v)) for v in free}}  # q^0: random
    n_q, running = 0, np.empty(T)
    for t in range(T):
        for v in free:  # resample each non-evidence variable given all the others
            p = np.array([net.probability({**q, v: s}) for s in net.states(v)])
            q[v] = net.states(v)[rng.choice(len(p), p=p / p.sum())]
        n_q += all(q[v] == query[v] for v in free)
        running[t] = n_q / (t + 1)
    return running


by_hand = gibbs_algorithm_7_1(net, query, evidence, T=4_000, rng=np.random.default_rng(1))
print(f"Algorithm 7.1, T = 4000: n_q / T = {by_hand[-1]:.4f} (exact {exact:.4f})")
assert abs(by_hand[-1] - exact) < 0.04

# %%
# Convergence
# -----------
# The running estimate :math:`n_q / T` of each chain against :math:`T`: wide swings at first,
# settling on the exact posterior as :math:`T` grows (the error shrinks like
# :math:`1/\sqrt T`, more slowly the more the chain's steps are correlated).

fig, ax = plt.subplots(figsize=(7, 3.8))
steps = np.arange(1, result.n_draws + 1)
for chain in range(4):
    mine = hit[draws["chain"].to_numpy() == chain]
    ax.plot(steps, np.cumsum(mine) / steps, lw=1, label=f"GibbsSampler, chain {chain + 1}")
ax.plot(np.arange(1, by_hand.size + 1), by_hand, lw=1.5, color="C4", ls="--",
        label="Algorithm 7.1 by hand")  # fmt: skip
ax.axhline(exact, color="k", lw=1.5, label=f"exact: {exact:.4f}")
ax.set_xscale("log")
ax.set_ylim(0, 1)
ax.set_xlabel("T (samples)")
ax.set_ylabel("n_q / T")
ax.set_title("P(ripe=true, sweetness=high | green, muffled, curly)")
ax.legend(fontsize=8)
fig.tight_layout()
plt.show()
