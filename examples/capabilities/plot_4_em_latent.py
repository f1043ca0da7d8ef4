"""
EM with a latent variable
=========================

A node that is never observed can still be learned: the expectation-maximisation (EM)
algorithm alternates an E-step, which completes the data with each hidden value's posterior
(expected counts, from the junction tree), and an M-step, which estimates the CPTs from those
counts as if they were observed (Zhou, *Machine Learning*, 7.6). Each step can only raise the
observed-data log-likelihood.

Here a hidden condition ``Z`` (ill or well) causes four symptoms. We sample 3,000 patients from
the true network, hide ``Z``, and fit the network's CPTs by
:func:`~bayeskit.networks.fit_em` from five random starts.
"""

# %%
# The true network and a sample without ``Z``
# -------------------------------------------
import matplotlib.pyplot as plt
import numpy as np

from bayeskit.networks import DAG, BayesianNetwork, JunctionTree, fit_em

symptoms = ["fever", "cough", "fatigue", "rash"]
dag = DAG(edges=[("Z", s) for s in symptoms])
yes_no = ["yes", "no"]
# each symptom's CPT: a row per state of Z (ill, well), a column per state (yes, no)
true = BayesianNetwork(
    dag,
    {
        "Z": [0.3, 0.7],
        "fever": [[0.8, 0.2], [0.1, 0.9]],
        "cough": [[0.7, 0.3], [0.2, 0.8]],
        "fatigue": [[0.9, 0.1], [0.4, 0.6]],
        "rash": [[0.3, 0.7], [0.05, 0.95]],
    },
    states={"Z": ["ill", "well"], **dict.fromkeys(symptoms, yes_no)},
)
sample = true.sample(3_000, seed=0)
data = sample.drop(columns="Z")  # Z is latent: no column
print(data.head())

# %%
# EM from five random starts
# --------------------------
# ``latent={"Z": 2}`` declares the hidden node and its number of states (named "0" and "1":
# which of them turns out to mean "ill" is up to the data). ``history`` holds the observed-data
# log-likelihood at each iteration.
runs = [fit_em(dag, data, latent={"Z": 2}, seed=seed) for seed in range(5)]
for seed, run in enumerate(runs):
    print(
        f"start {seed}: {run.n_iter:3d} iterations, converged {run.converged}, "
        f"log-likelihood {run.history[0]:9.1f} -> {run.history[-1]:9.2f}"
    )

# The true parameters' log-likelihood of the same data: one E-step started from them.
true_ll = fit_em(dag, data, latent={"Z": ["ill", "well"]}, start=true, max_iter=1).history[0]
print(f"true parameters: log-likelihood {true_ll:.2f}")

# %%
# EM never lowers the log-likelihood, and every start reaches the same maximum, a little above
# the true parameters' (the maximum-likelihood estimate fits this sample best).
for run in runs:
    assert np.all(np.diff(run.history) >= -1e-6)
best = max(run.history[-1] for run in runs)
assert all(abs(run.history[-1] - best) < 0.1 for run in runs)
assert best >= true_ll

# %%
# The log-likelihood per iteration
# --------------------------------
# Left: the climb (the first iterations, from the random starts, are far below). Right: the
# distance to the maximum on a log scale: a straight line, as EM converges linearly.
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
for seed, run in enumerate(runs):
    iterations = np.arange(1, len(run.history) + 1)
    left.plot(iterations, run.history, marker=".", label=f"start {seed}")
    gap = best - np.asarray(run.history)
    right.semilogy(iterations[gap > 1e-9], gap[gap > 1e-9], marker=".")
left.axhline(true_ll, color="black", ls="--", label="true parameters")
left.set_ylim(true_ll - 400, best + 50)
left.set_xlabel("EM iteration")
left.set_ylabel("observed-data log-likelihood (nats)")
left.legend(loc="lower right")
right.set_xlabel("EM iteration")
right.set_ylabel("maximum - log-likelihood")
fig.suptitle("fit_em on 3,000 patients, Z hidden")
fig.tight_layout()
plt.show()

# %%
# What EM learned about ``Z``
# ---------------------------
# Name the learned states: the one under which fever is more likely is "ill". Then the CPTs
# sit beside the true ones.
fitted = runs[0].network
ill = int(np.argmax(fitted.cpt("fever")[:, 0]))
order = [ill, 1 - ill]
print(f"{'quantity':24} {'true':>6} {'EM':>6}")
print(f"{'P(Z = ill)':24} {true.cpt('Z')[0]:6.3f} {fitted.cpt('Z')[ill]:6.3f}")
for s in symptoms:
    for row, z in enumerate(["ill", "well"]):
        learned = fitted.cpt(s)[order[row], 0]
        print(f"{f'P({s} = yes | {z})':24} {true.cpt(s)[row, 0]:6.3f} {learned:6.3f}")
        assert abs(learned - true.cpt(s)[row, 0]) < 0.06

# %%
# The fitted network also tells each patient's posterior probability of being ill, in one
# batched pass of the junction tree; the most probable state agrees with the hidden truth for
# most patients.
posterior = JunctionTree(fitted).query_batch("Z", data)
guess = np.where(posterior.iloc[:, ill] > 0.5, "ill", "well")
agreement = float(np.mean(guess == sample["Z"].astype(str).to_numpy()))
print(f"most probable state of Z equals the hidden one for {agreement:.1%} of the patients")
assert agreement > 0.8
