"""The ``bayeskit`` command line: fit, predict, evaluate and compare models; show a schema.

A thin interface (typer + rich) over :mod:`bayeskit.classifiers` (the ``MODELS`` registry),
:mod:`bayeskit.io` (model files), :mod:`bayeskit.evaluate` (cross-validation) and
:mod:`bayeskit.data.datasets`. ::

    bayeskit datasets
    bayeskit schema train.csv --target class          # the column kinds the rule below gives
    bayeskit fit car --model naive-bayes -o car.bayeskit --param alpha=0.5
    bayeskit predict car.bayeskit new_cars.csv --proba --keep id -o predictions.csv
    bayeskit evaluate train.csv --target class --categorical zip --folds 10
    bayeskit compare                     # every model on the bundled default data set, car

``DATA`` is a CSV file (``.csv``, ``.tsv``, optionally gzipped), a Parquet file (``.parquet``),
an ARFF file (``.arff``, ``.arff.gz``) or the name of a bundled data set. Bundled data sets know
their target and their column types; an ARFF file declares its attributes' types (nominal:
categorical, with the declared values as the categories; numeric: numeric), and its class is
the last attribute unless ``--target`` names another (Weka's convention).

Column kinds for files (CSV carries no types; see ``bayeskit schema DATA``), by the library's
one rule (:mod:`bayeskit.data.kinds`, ``categorical_features="infer"`` in Python), on the cells
typed as ``pandas.read_csv`` types them (``TRUE``/``FALSE`` booleans, numbers, text):

* text and booleans are categorical;
* a column of numbers is numeric, except whole numbers with at most 10 distinct values, or at
  most 50 distinct values seen 20 times each on average (integer codes), which are categorical;
* ``--categorical COL`` and ``--numeric COL`` override the rule for a column;
* a categorical column with a different value in (nearly) every row is an identifier: the
  models leave it out, with a note (``--categorical COL`` keeps it); ``--ignore COL`` drops any
  column after reading, on every command.

Rows are named by their line in the file (the header is line 1): :mod:`bayeskit.data.rows`.

Missing marks: pandas' defaults (empty, ``NA``, ``N/A``, ``NaN``, ``null``, ...), ``?`` (the
UCI/Weka mark), and any ``--na-values``. Rows whose class is missing are dropped, with a note.
The multinomial and Bernoulli models need numeric counts: they get the numeric columns, and are
refused (``compare``: skipped) when a column is categorical.

Exit codes: 0 on success, 2 for a bad argument (unknown model, file, column or parameter), 1 when
the data or a model file is refused (the message says why).
"""

from __future__ import annotations

# The command modules register their commands on the apps when imported, in this order (the
# order of the commands in ``--help``).
from bayeskit.cli import fit  # noqa: F401  # isort: skip
from bayeskit.cli import evaluate  # noqa: F401  # isort: skip
from bayeskit.cli import explain  # noqa: F401  # isort: skip
from bayeskit.cli import network_learn  # noqa: F401  # isort: skip
from bayeskit.cli import network_query  # noqa: F401  # isort: skip
from bayeskit.cli import hmm  # noqa: F401  # isort: skip

# re-exported: the tests and benchmarks read these from bayeskit.cli
from bayeskit.cli._app import (  # noqa: F401
    _DEFAULT_DATA,
    BASELINE,
    MODELS,
    NEEDS_COUNTS,
    _parse_value,
    app,
)
from bayeskit.cli._data import _read_table  # noqa: F401
from bayeskit.cli.explain import EXPLAINED  # noqa: F401

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the ``bayeskit`` console script."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
