"""Helpers for the conformance cases in ``cases.json`` (see README.md here).

The cases come from the five seed chapters (Zhou ch. 7; AI Engineering
ch. 7; Zaki & Meira ch. 18; lecture notes after Han, Kamber & Pei 6.3;
Nanjing lecture 5). A typical test::

    import pytest
    from _cases import case, check, outputs, textbook_frame

    # zhou-7.3-nb-priors: seed 000, Zhou Sect. 7.3, Eq. (7.16)
    @pytest.mark.parametrize("out", outputs("zhou-7.3-nb-priors"), ids=lambda o: o["name"])
    def test_zhou_priors(out):
        c = case("zhou-7.3-nb-priors")
        df = textbook_frame(c["inputs"]["data"])
        got = ...  # fit the model that c["method"] describes, ask for out["quantity"]
        check(got, out)
"""

from __future__ import annotations

import copy
import json
import math
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

CASES_FILE = Path(__file__).with_name("cases.json")
TEXTBOOK_PREFIX = "datasets/textbook/"
DATA_PACKAGE = "bayeskit.data.datasets"


@lru_cache(maxsize=1)
def _all_cases() -> tuple[dict[str, Any], ...]:
    with CASES_FILE.open(encoding="utf-8") as handle:
        cases = json.load(handle)
    ids = [c["id"] for c in cases]
    if len(ids) != len(set(ids)):
        raise ValueError(f"duplicate case ids in {CASES_FILE}")
    return tuple(cases)


def load_cases(topic: str | None = None) -> list[dict[str, Any]]:
    """All cases, or those whose ``topics`` include `topic` (deep copies)."""
    cases = _all_cases()
    if topic is not None:
        cases = tuple(c for c in cases if topic in c["topics"])
    return copy.deepcopy(list(cases))


def case(case_id: str) -> dict[str, Any]:
    """The case with id `case_id` (a deep copy); KeyError if there is none."""
    for c in _all_cases():
        if c["id"] == case_id:
            return copy.deepcopy(c)
    raise KeyError(f"no conformance case {case_id!r} in {CASES_FILE.name}")


def outputs(case_id: str, skip_seed_arithmetic: bool = True) -> list[dict[str, Any]]:
    """The expected outputs of a case.

    Outputs with status ``seed_arithmetic`` (the seed's own rounded
    arithmetic, not library behaviour) are left out unless
    `skip_seed_arithmetic` is False.
    """
    outs = case(case_id)["expected"]
    if skip_seed_arithmetic:
        outs = [
            o
            for o in outs
            if o.get("status") != "seed_arithmetic"
            and o["quantity"].get("kind") != "seed_arithmetic"
        ]
    return outs


def _plain(value: Any) -> Any:
    """NumPy / pandas values as plain Python values (lists, int, float, bool, str)."""
    if isinstance(value, (pd.Series, pd.Index, pd.Categorical)):
        value = np.asarray(value)
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _exact_equal(got: Any, value: Any) -> bool:
    if isinstance(value, bool) or isinstance(got, bool):
        return isinstance(got, bool) and isinstance(value, bool) and got == value
    if isinstance(value, list):
        return (
            isinstance(got, list)
            and len(got) == len(value)
            and all(_exact_equal(g, v) for g, v in zip(got, value, strict=True))
        )
    if isinstance(value, str) or isinstance(got, str):
        return isinstance(got, str) and isinstance(value, str) and got == value
    return got == value


def check(got: Any, expected_output: dict[str, Any]) -> None:
    """Assert that `got` matches one expected output of a case.

    For ``compare == "exact"`` the value must be equal (labels, counts,
    booleans, nested lists; NumPy values are converted first). Otherwise
    the pass rule ``abs(got - value) <= abs_tol + rel_tol * abs(value)``
    applies, and NaN or infinity never passes.

    Raises
    ------
    AssertionError
        Naming the output, the value got and the value expected.
    """
    name = expected_output["name"]
    value = expected_output["value"]
    if expected_output.get("compare") == "exact":
        plain = _plain(got)
        if not _exact_equal(plain, value):
            raise AssertionError(f"{name}: got {plain!r}, expected exactly {value!r}")
        return
    abs_tol = float(expected_output.get("abs_tol", 0.0))
    rel_tol = float(expected_output.get("rel_tol", 0.0))
    tol = abs_tol + rel_tol * abs(value)
    try:
        number = float(_plain(got))
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"{name}: got {got!r}, expected the number {value!r}") from exc
    if not (math.isfinite(number) and abs(number - value) <= tol):
        raise AssertionError(
            f"{name}: got {number!r}, expected {value!r} "
            f"(|diff| = {abs(number - value):.3g} > tol = {tol:.3g})"
        )


def textbook_frame(path: str) -> pd.DataFrame:
    """The bundled copy of a case's data file, as a plain DataFrame.

    `path` is a case's ``inputs["data"]``, such as
    ``"datasets/textbook/watermelon3.csv"``; the file is read from the
    package ``bayeskit.data.datasets``. The table is returned raw: no
    category dtypes and no columns dropped. Columns whose every cell is a
    number become int64 or float64 as pandas would read them; every other
    column stays text, so ``true``/``false`` class labels stay the strings
    the cases use (plain ``pd.read_csv`` would turn them into booleans).
    """
    if not isinstance(path, str) or not path.startswith(TEXTBOOK_PREFIX):
        raise ValueError(f"not a textbook data path: {path!r}")
    file_name = path[len(TEXTBOOK_PREFIX) :]
    resource = resources.files(DATA_PACKAGE).joinpath(file_name)
    if "/" in file_name or not file_name.endswith(".csv") or not resource.is_file():
        raise ValueError(f"no bundled textbook file for {path!r}")
    with resource.open("rb") as handle:
        frame = pd.read_csv(handle, dtype=str, keep_default_na=False, na_filter=False)
    for column in frame.columns:
        try:
            frame[column] = pd.to_numeric(frame[column])
        except (TypeError, ValueError):
            continue
    return frame
