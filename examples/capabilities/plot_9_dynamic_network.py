"""
Dynamic Bayesian networks: the umbrella world
=============================================

A security guard never sees the weather; each day he only sees whether the director comes in
with an umbrella (Russell and Norvig, *Artificial Intelligence: A Modern Approach*, 15.1).
Rain persists from one day to the next with probability 0.7; the director carries an umbrella
on 90% of rainy days and 20% of dry ones. As a dynamic Bayesian network this is a two-slice
network: ``rain0 -> umbrella0`` for the first day, ``rain0 -> raint -> umbrellat`` for a step.

We reproduce the book's filtering, smoothing and most-likely-sequence figures, then learn the
network back from umbrellas alone by EM, rain hidden.
"""

# %%
# The network and the book's figures
# ----------------------------------
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from bayeskit.sequences import example_dbn, fit_dbn

dbn = example_dbn("umbrella")
two_days = pd.DataFrame({"umbrella": ["yes", "yes"]})
filtered = dbn.filter(two_days)["rain"]["yes"]
smoothed = dbn.smooth(two_days)["rain"]["yes"]
print(f"{'quantity':>34} {'book':>6} {'bayeskit':>9}")
for name, book, ours in [
    ("P(rain day 1 | umbrella day 1)", 0.818, filtered[0]),
    ("P(rain day 2 | umbrellas 1-2)", 0.883, filtered[1]),
    ("P(rain day 1 | umbrellas 1-2)", 0.883, smoothed[0]),
]:
    print(f"{name:>34} {book:6.3f} {ours:9.3f}")
    assert round(ours, 3) == book

# %%
# The most likely weather for the book's five days (its Fig. 15.5):
five_days = pd.DataFrame({"umbrella": ["yes", "yes", "no", "yes", "yes"]})
path, log_p = dbn.most_probable_sequence(five_days)
print(path.assign(umbrella=five_days["umbrella"]))
assert path["rain"].tolist() == ["yes", "yes", "no", "yes", "yes"]

# %%
# Filtering and smoothing over three weeks
# ----------------------------------------
# Filtering uses the umbrellas seen so far; smoothing uses all of them, so it is sharper in
# the middle of a dry or rainy spell.
weeks = dbn.unroll(21).sample(1, seed=3)
days = pd.DataFrame({"umbrella": [weeks[f"umbrella@{t}"].iloc[0] for t in range(21)]})
rain = [weeks[f"rain@{t}"].iloc[0] for t in range(21)]
fig, ax = plt.subplots(figsize=(9, 3.5))
ax.plot(dbn.filter(days)["rain"]["yes"], marker="o", label="filtered P(rain)")
ax.plot(dbn.smooth(days)["rain"]["yes"], marker="s", label="smoothed P(rain)")
ax.scatter(range(21), [1.05 if r == "yes" else -0.05 for r in rain], marker="|", s=200,
           color="black", label="true rain (top) / dry (bottom)")  # fmt: skip
umbrella_days = [t for t in range(21) if days["umbrella"][t] == "yes"]
ax.scatter(umbrella_days, [0.5] * len(umbrella_days), marker="^", color="tab:green",
           label="umbrella seen")  # fmt: skip
ax.set_xlabel("day")
ax.set_ylim(-0.15, 1.15)
ax.legend(loc="lower right", fontsize="small")
plt.tight_layout()

# %%
# Learning with the rain hidden
# -----------------------------
# 80 sequences of 30 days of umbrellas, and EM over the unrolled networks: the expected counts
# of every day's rain come from the junction tree, tied across days. The log-likelihood never
# decreases and ends above the true tables' (the maximum-likelihood fit of this sample).
sample = dbn.unroll(30)
rows = []
for k in range(80):
    one = sample.sample(1, seed=100 + k)
    rows += [{"seq": k, "umbrella": one[f"umbrella@{t}"].iloc[0]} for t in range(30)]
umbrellas = pd.DataFrame(rows)
learned = fit_dbn(dbn.network.dag, umbrellas, sequence_column="seq", latent={"rain": 2},
                  max_iter=300, tol=1e-9, random_state=0)  # fmt: skip
history = np.asarray(learned.history_)
assert np.all(np.diff(history) >= -1e-9 * np.abs(history[:-1]))
print(f"EM: {learned.n_iter_} iterations, log-likelihood {history[0]:.1f} -> {history[-1]:.1f}")
print("P(umbrella | hidden state):\n", learned.network.cpt("umbrellat").round(2))
print("P(state_t | state_t-1):\n", learned.network.cpt("raint").round(2))
plt.figure(figsize=(6, 3))
plt.plot(np.arange(1, len(history) + 1), history)
plt.xlabel("EM iteration")
plt.ylabel("log-likelihood")
plt.tight_layout()
