"""
The command line
================

Much of what the other examples do is also a ``bayeskit`` command: cross-validate and compare
models, fit one and save it, predict from a CSV file, learn a Bayesian network from data and
query it. Here each command is run through :mod:`subprocess` and its output shown, as in a
terminal; the files go to a temporary folder. (Each ``$ bayeskit ...`` line is what you would
type; the script runs the same entry point with the Python interpreter that runs it, so it needs
no ``PATH`` set up.)

``bayeskit --help`` and ``bayeskit COMMAND --help`` list every command and option.
"""

# %%
# Running a command
# -----------------
import os
import pathlib
import shlex
import subprocess
import sys
import tempfile

import matplotlib.pyplot as plt

import bayeskit.plot
from bayeskit.data import datasets
from bayeskit.networks import example_network, read_bif, structural_hamming_distance

folder = pathlib.Path(tempfile.mkdtemp())
# plain text 100 characters wide, as a terminal without colours shows it
env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1"}
entry_point = "import sys; sys.argv[0] = 'bayeskit'; from bayeskit.cli import main; main()"


def bayeskit_command(line, expect=0):
    """Run ``bayeskit LINE`` in the folder, print what it prints, check its exit code."""
    print(f"$ bayeskit {line}")
    done = subprocess.run(
        [sys.executable, "-c", entry_point, *shlex.split(line)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    print(done.stdout + done.stderr)
    assert done.returncode == expect, done.returncode
    return done.stdout


# %%
# Comparing models
# ----------------
# ``compare`` cross-validates each model, and a majority-class baseline, on the same folds of a
# bundled data set (or of a CSV, Parquet or ARFF file, with ``--target``), and marks the models
# the corrected resampled t-test finds worse than the best.
bayeskit_command("compare car --models naive-bayes,tan,kdb --folds 5")

# %%
# Fitting and predicting
# ----------------------
# ``fit`` saves the model to a file (JSON and numpy arrays in a zip, never a pickle);
# ``predict`` reads new rows from a CSV file, matching the columns by name. (``bayeskit show
# car.bkm`` would say what the saved model is: its parameters, classes, features and parents.)
datasets.load("car")[0].sample(5, random_state=1).to_csv(folder / "new_cars.csv", index=False)
bayeskit_command("fit car --model tan -o car.bkm")
bayeskit_command("predict car.bkm new_cars.csv --proba")

# %%
# A bad argument is refused with exit code 2 and a message that lists the valid values.
bayeskit_command("fit car --model tree-augmented -o car.bkm", expect=2)

# %%
# Learning and querying a Bayesian network
# ----------------------------------------
# ``network learn`` learns a network's structure (hill climbing on BIC by default) and CPTs from
# a data file and writes it as BIF (or XMLBIF, for ``.xml``). The data: 5,000 rows sampled from
# the ASIA network.
asia = example_network("asia")
asia.sample(5_000, seed=0).to_csv(folder / "asia.csv", index=False)
bayeskit_command("network learn asia.csv -o asia_learned.bif")

# %%
# ``network query`` gives posterior marginals of the ``--target`` nodes given the
# ``--evidence`` (with ``--map``, the most probable joint state instead).
bayeskit_command("network query asia_learned.bif --evidence xray=yes,dysp=yes --target lung")

# %%
# The learned network beside the true one
# ---------------------------------------
# The file the command wrote is an ordinary BIF file: read it back and draw both graphs. One
# edge is missing, ``asia -> tub``: a visit to Asia is rare (one patient in a hundred), and
# 5,000 rows hold too few visitors for the edge to pay its BIC penalty.
learned = read_bif(folder / "asia_learned.bif")
print("structural Hamming distance to ASIA:", structural_hamming_distance(learned.dag, asia.dag))
assert set(asia.dag.edges) - set(learned.dag.edges) == {("asia", "tub")}
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 5))
bayeskit.plot.network(asia, ax=left)
left.set_title("ASIA")
bayeskit.plot.network(learned, ax=right)
right.set_title("learned from 5,000 rows")
plt.show()
