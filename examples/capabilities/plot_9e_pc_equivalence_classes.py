"""
Tests of independence and equivalence classes: PC-stable on ALARM
=================================================================

A score-based search returns one DAG, but data cannot tell apart the DAGs of a Markov
equivalence class (same skeleton, same v-structures ``a -> c <- b``): ``a -> b -> c`` and
``a <- b <- c`` fit every sample equally. PC-stable (Spirtes, Glymour and Scheines; Colombo
and Maathuis 2014) learns the class itself, from tests of conditional independence: it drops
the edge ``x - y`` once some set of neighbours makes ``x`` and ``y`` independent, then directs
the v-structures and what Meek's rules derive from them. What no data can direct stays
undirected.

Here we sample 5,000 patients from the ALARM network, learn its class with
:func:`~bayeskit.networks.learn_pc`, and compare it with the true class
(:func:`~bayeskit.networks.cpdag`), with greedy equivalence search's class and with the hill
climb's DAG.
"""

# %%
# The true class and the learned one
# ----------------------------------
import time

import matplotlib.pyplot as plt

from bayeskit.networks import (
    cpdag,
    equivalent,
    example_network,
    learn_ges,
    learn_pc,
    learn_structure,
    score,
    structural_hamming_distance,
)

alarm = example_network("alarm")
rows = alarm.sample(5_000, seed=0)
truth = cpdag(alarm.dag)
print(f"true class: {len(truth.directed)} directed and {len(truth.undirected)} undirected edges")

start = time.perf_counter()
found = learn_pc(rows)  # G-squared tests at the 0.05 level, conservative v-structures
print(f"PC-stable: {time.perf_counter() - start:.2f} s, {len(found.directed)} directed, "
      f"{len(found.undirected)} undirected edges")  # fmt: skip

missing = truth.skeleton() - found.skeleton()
extra = found.skeleton() - truth.skeleton()
print("edges missed:", sorted(sorted(pair) for pair in missing))
print("edges added:", sorted(sorted(pair) for pair in extra))
print("SHD between the classes:", structural_hamming_distance(found, truth))

# %%
# Why an edge went: the separating sets
# -------------------------------------
# Each pair found independent keeps the set that separated it.
for pair in sorted(missing, key=sorted):
    u, v = sorted(pair)
    print(f"{u} - {v}: independent given {found.sepsets.get(pair)}")

# %%
# Against hill climbing, compared as classes
# ------------------------------------------
# The climb's DAG is one member of its class; its class is what the data support.
climbed = learn_structure(rows, "bic")
print("hill climb: SHD of its class to the truth",
      structural_hamming_distance(cpdag(climbed), truth))  # fmt: skip
print("PC's DAG equivalent to the climb's?", equivalent(found.to_dag(), climbed))

# %%
# Greedy equivalence search: a climb over classes
# -----------------------------------------------
# GES (Chickering 2002) climbs on the score, as the hill climb does, but over equivalence
# classes: it adds edges while the score rises, then removes them. It returns a class, as PC
# does; the hill climb's default starts from GES's class (and, for BIC, from the optima of the
# weaker AIC penalty) and keeps the best.
ges_class = learn_ges(rows, "bic")
print("GES: SHD of its class to the truth", structural_hamming_distance(ges_class, truth))
tree_start = learn_structure(rows, "bic", start="tree")
for name, dag in [("climb from the Chow-Liu tree", tree_start), ("default climb", climbed),
                  ("true DAG", alarm.dag)]:  # fmt: skip
    print(f"{name:28} BIC {score(dag, rows, 'bic'):,.1f}")

# %%
# The level of the tests
# ----------------------
# A higher ``significance_level`` rejects independence more easily, so more edges stay.
levels = [0.001, 0.01, 0.05, 0.1, 0.2]
counts = [len(learn_pc(rows, significance_level=a).skeleton()) for a in levels]
fig, ax = plt.subplots(figsize=(5, 3))
ax.plot(levels, counts, marker="o")
ax.axhline(len(truth.skeleton()), color="grey", linestyle="--", label="true edges")
ax.set_xscale("log")
ax.set_xlabel("significance level")
ax.set_ylabel("edges kept")
ax.legend()
fig.tight_layout()
