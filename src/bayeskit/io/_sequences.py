"""Hidden Markov models in a model file (see "Hidden Markov models" in :mod:`bayeskit.io`):
what :func:`~bayeskit.io.save` writes of a fitted
:class:`~bayeskit.sequences.HiddenMarkovModel`, and how :func:`~bayeskit.io.load` reads it
back, every field checked before it is trusted."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NoReturn

import numpy as np
from sklearn.utils.validation import check_is_fitted

from bayeskit.io._format import _ARRAYS, _HMM_MODEL
from bayeskit.sequences import (
    COVARIANCE_TYPES,
    EMISSIONS,
    Emission,
    HiddenMarkovModel,
    check_parameters,
)
from bayeskit.sequences.mixed import COLUMN_EMISSIONS

__all__ = ["HMM_MODEL", "hmm_fitted", "is_hmm", "read_hmm"]

#: The ``model`` name of a hidden Markov model's file.
HMM_MODEL = _HMM_MODEL
_FITTED_KEYS = {"parameters", "objective", "n_iter", "converged", "symbols", "feature_names_in"}
_PRIORS = (
    "startprob_prior",
    "transmat_prior",
    "emissionprob_prior",
    "means_prior",
    "means_weight",
    "covars_prior",
    "covars_weight",
    "lambdas_prior",
    "lambdas_weight",
    "weights_prior",
)
_COLUMN_KINDS = COLUMN_EMISSIONS
_MAX_PRIOR_DEPTH = 3  # a number, a vector, or a matrix of concentrations

Fail = Callable[..., NoReturn]


def is_hmm(model: Any) -> bool:
    """Whether ``model`` is saved as a hidden Markov model."""
    return isinstance(model, HiddenMarkovModel)


def _parameter_names(model: HiddenMarkovModel) -> tuple[Any, tuple[str, ...]]:
    emission = model.emission_distribution()
    return emission, ("startprob_", "transmat_", *emission.parameter_names)


# --------------------------------------------------------------------------------------------
# writing
# --------------------------------------------------------------------------------------------


def hmm_fitted(model: HiddenMarkovModel) -> tuple[dict, dict[str, np.ndarray]]:
    """The ``fitted`` section of a hidden Markov model's file and the arrays it refers to.

    Raises ``TypeError`` for a model that the format cannot describe (a custom
    :class:`~bayeskit.sequences.Emission` object, symbols that are not strings),
    ``NotFittedError`` before its parameters are fitted or set, and ``ValueError`` when the
    parameters set by hand are not a valid model.
    """
    if isinstance(model.emission, Emission):
        msg = (
            f"cannot save a HiddenMarkovModel whose emission is a custom Emission object "
            f"({type(model.emission).__name__}): a model file names its emission "
            f"({', '.join(repr(e) for e in EMISSIONS)}) and rebuilds it, so it never runs "
            "code from the file; save the parameter arrays yourself (numpy.savez) and "
            "rebuild the emission in code"
        )
        raise TypeError(msg)
    emission, names = _parameter_names(model)
    check_is_fitted(model, list(names))
    values = {name: np.asarray(getattr(model, name), dtype=np.float64) for name in names}
    check_parameters(emission, values, model.n_states)
    arrays: dict[str, np.ndarray] = {}
    parameters = {}
    for name, value in values.items():
        parameters[name] = key = f"a{len(arrays)}"
        arrays[key] = value
    fitted: dict[str, Any] = {
        "parameters": parameters,
        "objective": None,
        "n_iter": None,
        "converged": None,
        "symbols": _symbols_to_save(model, values),
        "feature_names_in": _names_to_save(model),
    }
    if hasattr(model, "objective_"):
        fitted["objective"] = key = f"a{len(arrays)}"
        arrays[key] = np.asarray(model.objective_, dtype=np.float64)
        fitted["n_iter"] = int(model.n_iter_)
        fitted["converged"] = bool(model.converged_)
    return fitted, arrays


def _symbols_to_save(model: HiddenMarkovModel, values: dict) -> list[str] | None:
    symbols = getattr(model, "symbols_", None)
    if symbols is None:
        return None
    if "emissionprob_" not in values:
        msg = f"symbols_ name categorical symbols, but the emission is {model.emission!r}"
        raise TypeError(msg)
    out = list(np.asarray(symbols, dtype=object).ravel())
    if not all(isinstance(s, str) for s in out) or len(set(out)) != len(out):
        msg = "symbols_ must be distinct strings to be saved"
        raise TypeError(msg)
    if len(out) != values["emissionprob_"].shape[1]:
        msg = (
            f"symbols_ names {len(out)} symbols but emissionprob_ has "
            f"{values['emissionprob_'].shape[1]}"
        )
        raise TypeError(msg)
    return out


def _names_to_save(model: HiddenMarkovModel) -> list[str] | None:
    names = getattr(model, "feature_names_in_", None)
    if names is None:
        return None
    out = list(np.asarray(names, dtype=object).ravel())
    if not all(isinstance(s, str) for s in out) or len(set(out)) != len(out):
        msg = "feature_names_in_ must be distinct strings to be saved"
        raise TypeError(msg)
    return out


# --------------------------------------------------------------------------------------------
# reading
# --------------------------------------------------------------------------------------------


def _is_int(value: Any, least: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def _is_number(value: Any) -> bool:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer beyond the floats' range
        return False


def _is_prior(value: Any, depth: int = 0) -> bool:
    """A finite number, or a rectangular nest of lists of them (an array's shape)."""
    if _is_number(value):
        return True
    if not (isinstance(value, list) and depth < _MAX_PRIOR_DEPTH):
        return False
    if not all(_is_prior(v, depth + 1) for v in value):
        return False
    shapes = {np.shape(v) for v in value}
    return len(shapes) <= 1


def _is_plain(value: Any, depth: int = 0) -> bool:
    """JSON of bounded depth: null, booleans, finite numbers, strings, lists and objects."""
    if value is None or isinstance(value, (bool, str)) or _is_number(value):
        return True
    if depth >= _MAX_PRIOR_DEPTH:
        return False
    if isinstance(value, list):
        return all(_is_plain(v, depth + 1) for v in value)
    return isinstance(value, dict) and all(_is_plain(v, depth + 1) for v in value.values())


def _is_column_emissions(value: Any) -> bool:
    return value is None or (
        isinstance(value, dict)
        and all(isinstance(v, str) and v in _COLUMN_KINDS for v in value.values())
    )


def _check_settings(params: dict, fail: Fail) -> None:
    """Every constructor parameter of a hidden Markov model, of the type and range it takes
    (one this module does not know, of plain JSON: the model checks it when it uses it)."""
    checks: dict[str, tuple[Callable[[Any], bool], str]] = {
        "n_states": (lambda v: _is_int(v, 1), "a positive integer"),
        "emission": (
            lambda v: isinstance(v, str) and v in EMISSIONS,
            f"one of {sorted(EMISSIONS)}",
        ),
        "covariance_type": (
            lambda v: isinstance(v, str) and v in COVARIANCE_TYPES,
            f"one of {list(COVARIANCE_TYPES)}",
        ),
        "n_features": (lambda v: v is None or _is_int(v, 1), "null or a positive integer"),
        "min_covar": (lambda v: _is_number(v) and v >= 0, "a number >= 0"),
        "algorithm": (lambda v: v in ("viterbi", "map"), "'viterbi' or 'map'"),
        "implementation": (lambda v: v in ("scaling", "log"), "'scaling' or 'log'"),
        "n_iter": (lambda v: _is_int(v, 1), "a positive integer"),
        "tol": (lambda v: _is_number(v) and v >= 0, "a number >= 0"),
        "n_init": (lambda v: _is_int(v, 1), "a positive integer"),
        "init_params": (lambda v: v is None or isinstance(v, str), "null or a string"),
        "params": (lambda v: v is None or isinstance(v, str), "null or a string"),
        "random_state": (lambda v: v is None or _is_int(v, 0), "null or an integer >= 0"),
        "sequence_column": (lambda v: v is None or isinstance(v, str), "null or a string"),
        "n_mix": (lambda v: _is_int(v, 1), "a positive integer"),
        "column_emissions": (_is_column_emissions, "null or an object of emission names"),
        **{name: (_is_prior, "a finite number or a rectangular list of them") for name in _PRIORS},
    }
    for name, value in params.items():
        ok, what = checks.get(name, (_is_plain, "plain JSON"))
        if not ok(value):
            fail(f"params.{name} must be {what}, got {str(value)[:80]}")


def _read_params(params: Any, fail: Fail) -> HiddenMarkovModel:
    if not isinstance(params, dict):
        fail("params must be a JSON object")
    known = HiddenMarkovModel().get_params(deep=False)
    unknown = sorted(set(params) - set(known))
    if unknown:
        fail(
            f"parameters {unknown} are not parameters of HiddenMarkovModel (known: {sorted(known)})"
        )
    _check_settings(params, fail)
    # a prior saved from an array comes back as lists: the model computes with arrays
    params = {k: np.asarray(v, dtype=float) if k in _PRIORS and isinstance(v, list) else v
              for k, v in params.items()}  # fmt: skip
    model = HiddenMarkovModel(**params)
    emission = model.emission_distribution()
    letters = "st" + "".join(emission.codes)
    for name in ("init_params", "params"):
        given = getattr(model, name)
        if given is not None and not set(given) <= set(letters):
            fail(f"params.{name} must hold letters among {letters!r}, got {given[:80]!r}")
    return model


def _read_array(key: Any, where: str, arrays: dict[str, np.ndarray], fail: Fail) -> np.ndarray:
    if not isinstance(key, str) or key not in arrays:
        fail(f"{where} refers to array {str(key)[:80]!r}, which {_ARRAYS} does not hold")
    arr = arrays[key]
    if arr.dtype != np.float64:
        fail(f"{where} has dtype {arr.dtype}; a hidden Markov model's arrays are float64")
    return arr


def _read_parameters(
    raw: Any, names: tuple[str, ...], emission_name: str, arrays: dict, fail: Fail
) -> dict[str, np.ndarray]:
    if not isinstance(raw, dict):
        fail("fitted.parameters must be a JSON object: attribute name -> array")
    unknown = sorted(set(raw) - set(names))
    if unknown:
        fail(
            f"fitted.parameters names {unknown}, not parameters of a hidden Markov model with "
            f"emission {emission_name!r} (its parameters: {', '.join(names)})"
        )
    missing = [n for n in names if n not in raw]
    if missing:
        fail(f"fitted.parameters lacks {missing} (a model with emission {emission_name!r})")
    return {n: _read_array(raw[n], f"fitted.parameters.{n}", arrays, fail) for n in names}


def _read_history(fitted: dict, arrays: dict, fail: Fail) -> tuple | None:
    """``objective_``, ``n_iter_`` and ``converged_``, or None for parameters set by hand."""
    raw = (fitted["objective"], fitted["n_iter"], fitted["converged"])
    if raw == (None, None, None):
        return None
    objective_key, n_iter, converged = raw
    objective = _read_array(objective_key, "fitted.objective", arrays, fail)
    if not _is_int(n_iter, 1):
        fail(f"fitted.n_iter must be a positive integer (or null), got {str(n_iter)[:80]}")
    if not isinstance(converged, bool):
        fail(f"fitted.converged must be true or false (or null), got {str(converged)[:80]}")
    if objective.shape != (n_iter,):
        fail(
            f"fitted.objective has shape {objective.shape}; expected ({n_iter},), one per iteration"
        )
    if np.isnan(objective).any():
        fail("fitted.objective holds NaN")
    return objective.tolist(), n_iter, converged


def _read_names(raw: Any, values: dict, fail: Fail) -> np.ndarray | None:
    """The feature names, one per column the emission reads (where its arrays say how many)."""
    if raw is None:
        return None
    if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw) or not raw:
        fail("fitted.feature_names_in must be null or a list of strings")
    if len(set(raw)) != len(raw):
        fail("fitted.feature_names_in must be distinct")
    if "layout_" not in values:  # (a product emission's columns are its layout's business)
        widths = {"emissionprob_": 1, "means_": None, "lambdas_": None}
        for name, width in widths.items():
            if name in values:
                n = width if width is not None else values[name].shape[-1]
                if len(raw) != n:
                    fail(f"fitted.feature_names_in names {len(raw)} columns; {name} has {n}")
                break
    return np.array(raw, dtype=object)


def _read_symbols(raw: Any, values: dict, fail: Fail) -> np.ndarray | None:
    if raw is None:
        return None
    if "emissionprob_" not in values:
        fail("fitted.symbols names categorical symbols, but the emission is not categorical")
    if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw):
        fail("fitted.symbols must be null or a list of strings")
    if len(set(raw)) != len(raw):
        fail("fitted.symbols must be distinct")
    k = values["emissionprob_"].shape[1] if values["emissionprob_"].ndim == 2 else -1
    if len(raw) != k:
        fail(f"fitted.symbols names {len(raw)} symbols; emissionprob_ has {k} columns")
    return np.array(raw, dtype=object)


def read_hmm(doc: dict, arrays: dict[str, np.ndarray], fail: Fail) -> HiddenMarkovModel:
    """The hidden Markov model of a model file's document and arrays, every field checked (its
    parameters by the model's own :func:`~bayeskit.sequences.check_parameters`)."""
    model = _read_params(doc.get("params"), fail)
    emission, names = _parameter_names(model)
    fitted = doc.get("fitted")
    if not isinstance(fitted, dict) or set(fitted) != _FITTED_KEYS:
        fail(f"'fitted' must be a JSON object with keys {sorted(_FITTED_KEYS)}")
    values = _read_parameters(fitted["parameters"], names, str(model.emission), arrays, fail)
    history = _read_history(fitted, arrays, fail)
    used = {fitted["parameters"][n] for n in names} | (
        set() if history is None else {fitted["objective"]}
    )
    if len(used) != len(names) + (history is not None):
        fail("fitted refers to one array twice")
    unused = sorted(set(arrays) - used)
    if unused:
        fail(f"{_ARRAYS} holds arrays {unused} that the metadata does not refer to")
    if model.emission == "categorical" and model.n_features is not None:
        got = values["emissionprob_"].shape[-1]
        if values["emissionprob_"].ndim != 2 or got != model.n_features:
            fail(f"params.n_features is {model.n_features} but emissionprob_ has {got} symbols")
    try:
        check_parameters(emission, values, model.n_states)
    except Exception as exc:  # noqa: BLE001 - whatever the numbers do, the user gets one error
        fail(f"fitted.parameters: {exc}", exc)
    symbols = _read_symbols(fitted["symbols"], values, fail)
    names_in = _read_names(fitted["feature_names_in"], values, fail)
    for name, value in values.items():
        setattr(model, name, value)
    if history is not None:
        model.objective_, model.n_iter_, model.converged_ = history
    if symbols is not None:
        model.symbols_ = symbols
    if names_in is not None:
        model.feature_names_in_ = names_in
    return model
