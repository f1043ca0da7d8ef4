"""
Fitting from a file read in chunks
==================================

Every counting model in bayeskit learns from statistics that add up: the counts of two pieces
of a data set, added, are the counts of the whole. So a file too large for memory can be read a
chunk at a time, each chunk counted and dropped, and the model is the one a single ``fit`` on
all the rows gives. Zhou (*Machine Learning*, 7.3) makes the same point for naive Bayes'
incremental learning: new samples only update the counts their values touch.

Here the bundled ``nursery`` data set (12,958 applications to nursery schools, eight
categorical attributes) is written to a CSV file in a temporary folder and read back 1,000 rows
at a time with :func:`bayeskit.data.read_chunks`, then fitted three ways: by ``partial_fit``
chunk by chunk, by ``fit_chunks``, and, for a Bayesian network, by
:func:`~bayeskit.networks.learn_structure` and :func:`~bayeskit.networks.fit_parameters` on the
chunks. Each result is compared with the in-memory fit.
"""

# %%
# A CSV file, read in chunks
# --------------------------
import pathlib
import tempfile

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import bayeskit
from bayeskit.data import datasets, read_chunks
from bayeskit.networks import fit_parameters, learn_structure

X, y = datasets.load("nursery")
folder = pathlib.Path(tempfile.mkdtemp())
path = folder / "nursery.csv"
X.assign(target=y).to_csv(path, index=False)

chunks = read_chunks(path, chunksize=1_000)
print(f"{path.name}: {path.stat().st_size:,} bytes, {sum(1 for _ in chunks)} chunks")

# %%
# ``chunks`` can be iterated again and again (each pass reads the file anew, one chunk in
# memory). The columns are integer codes in the file, so the models are told that every
# feature is categorical. For the comparisons, the whole file is read once into memory too.
frame = pd.read_csv(path)
X_all, y_all = frame.drop(columns="target"), frame["target"]
classes = np.unique(y_all)

# %%
# ``partial_fit``, chunk by chunk
# -------------------------------
# The first call needs every class (a later chunk may hold one the first lacks).
incremental = bayeskit.NaiveBayes(categorical_features="all")
rows_seen, accuracy = [], []
for chunk in chunks:
    incremental.partial_fit(chunk.drop(columns="target"), chunk["target"], classes=classes)
    rows_seen.append(len(chunk) + (rows_seen[-1] if rows_seen else 0))
    accuracy.append(incremental.score(X_all, y_all))  # on all the rows: a learning curve
whole = bayeskit.NaiveBayes(categorical_features="all").fit(X_all, y_all)
gap = np.abs(incremental.predict_proba(X_all) - whole.predict_proba(X_all)).max()
print(f"naive Bayes: {len(rows_seen)} partial_fit calls; largest posterior difference {gap:.1e}")
assert gap < 1e-12

# %%
# ``fit_chunks``
# --------------
# Models that choose a structure from the counts (TAN's tree, KDB's parents) read the chunks
# more than once: a first pass for the class labels and the all-pairs counts their structure
# is chosen from, another for the families of that structure.
for name, model in [("TAN", bayeskit.TAN), ("KDB (k=2)", lambda **kw: bayeskit.KDB(k=2, **kw))]:
    chunked = model(categorical_features="all").fit_chunks(chunks, target="target")
    in_memory = model(categorical_features="all").fit(X_all, y_all)
    gap = np.abs(chunked.predict_proba(X_all) - in_memory.predict_proba(X_all)).max()
    print(f"{name}: structures equal {chunked.structure_ == in_memory.structure_}, "
          f"largest posterior difference {gap:.1e}")  # fmt: skip
    assert chunked.structure_ == in_memory.structure_
    assert gap < 1e-12

# %%
# A Bayesian network from the chunks
# ----------------------------------
# The structure search reads the chunks once into their distinct rows, weighted by how often
# each occurs, so it searches exactly what it would on all the rows; the CPTs are then counted
# chunk by chunk.
dag_chunks = learn_structure(chunks, "bic")
dag_memory = learn_structure(frame, "bic")
print("learned DAG:", dag_chunks, "- equal to the in-memory search:", dag_chunks == dag_memory)
assert dag_chunks == dag_memory
network = fit_parameters(dag_chunks, chunks).network
reference = fit_parameters(dag_memory, frame).network
assert all(np.array_equal(network.cpt(n), reference.cpt(n)) for n in network.nodes)
print("CPTs equal to the in-memory fit: True")
print("parents of the class node:", network.dag.parents("target"))

# %%
# The model after each chunk
# --------------------------
# ``partial_fit`` gives a usable model after every chunk. Its accuracy on all the rows, chunk
# after chunk, reaches the in-memory fit's exactly at the last one. The file lists the
# applications in the order of their attributes, so the first chunks hold only some kinds of
# application, and the early models are poor.
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.plot(rows_seen, accuracy, marker="o", label="partial_fit, after each chunk")
ax.axhline(whole.score(X_all, y_all), color="black", ls="--", label="one fit on all the rows")
ax.set_xlabel("rows counted")
ax.set_ylabel("accuracy on all the rows")
ax.set_title("Naive Bayes learned chunk by chunk from nursery.csv")
ax.legend(loc="lower right")
fig.tight_layout()
plt.show()
assert accuracy[-1] == whole.score(X_all, y_all)
