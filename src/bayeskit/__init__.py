"""bayeskit: Bayesian classifiers and Bayesian networks.

Every model follows one pipeline::

    data --encode--> codes --count--> statistics --estimate--> tables --look up--> log P(c, x)
         --decide--> action

The layers are subpackages: :mod:`bayeskit.data`, :mod:`bayeskit.stats`,
:mod:`bayeskit.estimate`, :mod:`bayeskit.decision` and :mod:`bayeskit.classifiers`, with the
Bayesian networks in :mod:`bayeskit.networks`; the interfaces are :mod:`bayeskit.io`
(``save``/``load``), :mod:`bayeskit.evaluate`, :mod:`bayeskit.plot`, :mod:`bayeskit.dask` and the
``bayeskit`` command line.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from bayeskit._models import MODEL_CLASSES
from bayeskit._version import __version__

# Public names are imported on first use (PEP 562), so ``import bayeskit`` does not pay for
# scikit-learn, scipy, pandas and numba until a model, ``load`` or a subpackage is used.
_LAZY = {
    **{cls: "bayeskit.classifiers" for cls in MODEL_CLASSES.values()},  # every model
    "get_num_threads": "bayeskit._compiled",
    "load": "bayeskit.io",
    "num_threads": "bayeskit._compiled",
    "save": "bayeskit.io",
    "set_num_threads": "bayeskit._compiled",
}
_SUBMODULES = frozenset(
    {
        "classifiers",
        "dask",
        "data",
        "decision",
        "estimate",
        "evaluate",
        "exceptions",
        "io",
        "networks",
        "plot",
        "stats",
    }
)

if TYPE_CHECKING:  # what the names are, for type checkers and editors
    from bayeskit._compiled import get_num_threads, num_threads, set_num_threads
    from bayeskit.classifiers import (
        AODE,
        KDB,
        SPODE,
        TAN,
        AnDE,
        BernoulliNaiveBayes,
        FullBayes,
        KNNBayes,
        MultinomialNaiveBayes,
        NaiveBayes,
        NBTree,
        NetworkClassifier,
        SelectiveKDB,
        SelectiveKDBEnsemble,
        SubclassNaiveBayes,
    )
    from bayeskit.io import load, save

__all__ = [
    "AODE",
    "SPODE",
    "TAN",
    "AnDE",
    "BernoulliNaiveBayes",
    "FullBayes",
    "KDB",
    "KNNBayes",
    "MultinomialNaiveBayes",
    "NBTree",
    "NaiveBayes",
    "NetworkClassifier",
    "SelectiveKDB",
    "SelectiveKDBEnsemble",
    "SubclassNaiveBayes",
    "__version__",
    "get_num_threads",
    "load",
    "num_threads",
    "save",
    "set_num_threads",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f"bayeskit.{name}")
    else:
        msg = f"module 'bayeskit' has no attribute {name!r}"
        raise AttributeError(msg)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | _SUBMODULES)
