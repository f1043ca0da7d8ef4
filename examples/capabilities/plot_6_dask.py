"""
Fitting on a Dask DataFrame
===========================

:mod:`bayeskit.dask` fits a model to a Dask DataFrame where its partitions live: each partition
is counted on its own, and the counts are added pairwise, as a tree, so that only statistics
travel, never rows. The structure step of a model (TAN's spanning tree, KDB's choice of parents)
then runs on the summed counts, as one ``fit`` would, and the model equals the in-memory one.

On a cluster, start a ``distributed.Client`` first and Dask runs the work there. This example
needs no cluster: it runs Dask's synchronous scheduler in this process (``"threads"`` would use
a thread pool), on the bundled ``car`` data set cut into four partitions.
"""

# %%
# A Dask DataFrame of four partitions
# -----------------------------------
import dask
import dask.dataframe as dd
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import bayeskit
import bayeskit.dask as bkd
from bayeskit.data import datasets
from bayeskit.networks import learn_structure

X, y = datasets.load("car")
frame = X.assign(target=y)
ddf = dd.from_pandas(frame, npartitions=4)
print(f"{ddf.npartitions} partitions of {ddf.map_partitions(len).compute().tolist()} rows")

# %%
# Fitting and predicting
# ----------------------
# :func:`bayeskit.dask.fit` takes the model, the Dask DataFrame and the target column; the class
# labels and each column's categories are gathered in one pass first. ``predict_proba`` maps
# the fitted model over the partitions, lazily, until ``compute``.
with dask.config.set(scheduler="synchronous"):
    model = bkd.fit(bayeskit.KDB(k=2), ddf, "target")
    proba = bkd.predict_proba(model, ddf.drop(columns="target")).compute()
print("feature parents:", model.structure_)
print(proba.iloc[::250].round(3))

# %%
# The same model as one ``fit`` on all the rows: the same parents for every feature, the same
# posteriors.
in_memory = bayeskit.KDB(k=2).fit(X, y)
gap = np.abs(proba.to_numpy() - in_memory.predict_proba(X)).max()
print("same structure:", model.structure_ == in_memory.structure_)
print(f"largest posterior difference: {gap:.1e}")
assert model.structure_ == in_memory.structure_
assert gap < 1e-12

# %%
# A network's structure
# ---------------------
# :func:`bayeskit.dask.learn_structure` reads every partition into its distinct rows, weighted by
# their counts, and climbs on them: the DAG of the in-memory search.
with dask.config.set(scheduler="synchronous"):
    dag = bkd.learn_structure(ddf, "bic")
print(dag, "- equal to the in-memory search:", dag == learn_structure(frame, "bic"))
assert dag == learn_structure(frame, "bic")

# %%
# The partitions differ, their counts add up
# ------------------------------------------
# The file lists the cars in the order of their attributes, so each partition holds other kinds
# of car and other classes (left). Counted apart and added, they give the counts of all the rows,
# and so the same posteriors (right: every car's posteriors, Dask against in-memory, on the
# diagonal).
shares = pd.crosstab(
    np.repeat(np.arange(ddf.npartitions), ddf.map_partitions(len).compute().to_numpy()),
    frame["target"].to_numpy(),
    normalize="index",
)
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
bottom = np.zeros(len(shares))
for label in shares.columns:
    left.bar(shares.index, shares[label], bottom=bottom, label=f"class {label}")
    bottom += shares[label].to_numpy()
left.set_xticks(shares.index, [f"partition {i}" for i in shares.index])
left.set_ylabel("share of the partition's rows")
left.set_ylim(0, 1.15)
left.legend(loc="upper center", ncols=4, fontsize="small")
right.scatter(in_memory.predict_proba(X).ravel(), proba.to_numpy().ravel(), s=8, alpha=0.4)
right.plot([0, 1], [0, 1], color="grey", ls="--")
right.set_xlabel("P(class | car), in-memory fit")
right.set_ylabel("P(class | car), bayeskit.dask.fit")
fig.suptitle("KDB (k=2) on car, fitted from four Dask partitions")
fig.tight_layout()
plt.show()
