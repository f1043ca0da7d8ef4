"""The parameters every table-reading classifier shares, documented in one place.

``priors``, ``prior_alpha``, ``categorical_features``, ``categories``, ``handle_unknown``,
``discretize`` and ``n_bins`` mean the same in every model (they are checked once, in
:meth:`BayesClassifier._check_params`); only their defaults and a model's own remark differ.
Each model's docstring writes their text out (so that IDEs, static tools and ``help`` show it);
:func:`tabular_parameters_doc` gives that text with the model's defaults and remarks, and a
test checks every docstring against it.
"""

from __future__ import annotations

import inspect
import textwrap

__all__ = ["store_parameters", "tabular_parameters_doc"]

_PRIORS = """\
    priors : array-like of shape (n_classes,), optional
        Class probabilities to use instead of estimating them{priors}.
"""
_PRIOR_ALPHA = """\
    prior_alpha : float, default={default}
        Pseudo-count for the estimated class prior: ``P(c) = (n_c + prior_alpha) / (n + C
        prior_alpha)``; 1 is the Laplacian correction (Zhou Eq. 7.19, Weka), 0 the relative
        frequencies (scikit-learn){prior_alpha}.
"""
_COLUMNS = """\
    categorical_features, categories :
        Which columns are categorical, and declared vocabularies; see
        :class:`bayeskit.data.Schema`.
    handle_unknown : {"missing", "warn", "error"}, default="missing"
        A category not seen in fit is treated as missing (optionally with a warning) or refused.
"""
_DISCRETIZE = """\
    discretize : {{"mdl", "equal-width", "equal-frequency", None}}, default={default}
        How numeric columns are binned and then modelled as categorical (cut points learned by
        the first ``fit`` or ``partial_fit`` call and kept; "mdl" is the supervised method of
        Fayyad and Irani, Zaki & Meira 18.2); None: {none}.
    n_bins : int, default=5
        Bins for the unsupervised discretizers.
"""


def tabular_parameters_doc(
    cls: type, *, priors: str = "", prior_alpha: str = "", none: str | None = None
) -> str:
    """The shared parameters' text as ``cls``'s docstring writes it out: the defaults read from
    the class's own ``__init__`` and its remarks (``priors``, ``prior_alpha``: text appended to
    their sentence; ``none``: what ``discretize=None`` does, for models that take
    ``discretize``), each description wrapped to the docstrings' width.

    Examples
    --------
    >>> from bayeskit.classifiers import FullBayes
    >>> print(tabular_parameters_doc(FullBayes).splitlines()[0])
        priors : array-like of shape (n_classes,), optional
    """
    defaults = {k: p.default for k, p in inspect.signature(cls).parameters.items()}
    text = _PRIORS.format(priors=priors)
    text += _PRIOR_ALPHA.format(default=defaults["prior_alpha"], prior_alpha=prior_alpha)
    text += _COLUMNS
    if "discretize" in defaults:
        default = defaults["discretize"]
        shown = f'"{default}"' if isinstance(default, str) else repr(default)
        text += _DISCRETIZE.format(default=shown, none=none)
    return _wrapped(text)


def _wrapped(text: str) -> str:
    """Each parameter's description re-wrapped to the docstrings' width (remarks lengthen it)."""
    out: list[str] = []
    para: list[str] = []

    def flush() -> None:
        if para:
            body = " ".join(line.strip() for line in para)
            out.extend(textwrap.wrap(body, 96, initial_indent=" " * 8, subsequent_indent=" " * 8))
            para.clear()

    for line in text.splitlines():
        if line.startswith("        "):
            para.append(line)
        else:
            flush()
            out.append(line)
    flush()
    return "\n".join(out) + "\n"


def store_parameters(estimator: object, values: dict) -> None:
    """Store every constructor argument on ``estimator`` under its own name, exactly as given
    (scikit-learn's rule: no check, no conversion in ``__init__``). Call it as the whole body
    of ``__init__`` with ``locals()``, so the signature is the one list of parameters."""
    for name in inspect.signature(type(estimator).__init__).parameters:
        if name != "self":
            setattr(estimator, name, values[name])
