"""Messages show values as the user wrote them: no ``np.float64(...)``, no ``array([...])``, no
empty "missing []"; ``explain`` shows 0 where the evidence is 0 up to rounding."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bayeskit._text import plain, shown
from bayeskit.classifiers import TAN, NaiveBayes
from bayeskit.data import equal_width_cuts
from bayeskit.networks import DAG, fit_em

X = pd.DataFrame({"a": ["u", "u", "v", "v", "u", "v"], "b": ["p", "q", "p", "q", "p", "q"]})
Y = [0, 0, 1, 1, 2, 2]


def _message(call) -> str:
    with pytest.raises((ValueError, TypeError)) as info:
        call()
    text = str(info.value)
    assert "np." not in text
    assert "array(" not in text
    return text


def test_plain_and_shown_unwrap_numpy_values_inside_containers():
    value = {"k": (np.int64(1), [np.float64(0.5), np.str_("a")]), "a": np.array([1, 2])}
    assert plain(value) == {"k": (1, [0.5, "a"]), "a": [1, 2]}
    assert shown(np.float64(0.0)) == "0.0"
    assert shown(np.bool_(True)) == "True"


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda: NaiveBayes(alpha=np.float64(-1.0)).fit(X, Y), "got -1.0"),
        (lambda: NaiveBayes(priors=np.array([0.25, 0.25, 0.25])).fit(X, Y), "got 0.75"),
        (lambda: NaiveBayes().fit(X, np.zeros(6)), "y has only 1 class (0.0)"),
        (lambda: equal_width_cuts(np.arange(5.0), n_bins=np.int64(0)), "got 0"),
        (lambda: fit_em(DAG(edges=[("a", "b")]), X, max_iter=np.int64(-1)), "got -1"),
        (lambda: DAG(edges=[(np.str_("a"), np.str_("b"))] * 2), "edge 'a' -> 'b' is listed"),
    ],
    ids=["parameter", "priors sum", "one class", "n_bins", "network argument", "edge"],
)
def test_numpy_values_in_messages_read_as_written(call, expected):
    assert expected in _message(call)


def test_column_mismatch_names_only_what_differs():
    model = NaiveBayes().fit(X, Y)
    extra = _message(lambda: model.predict(X.assign(extra=1)))
    assert "unexpected ['extra']" in extra
    assert "missing" not in extra
    both = _message(lambda: model.predict(X.rename(columns={"b": "c"})))
    assert "missing ['b'], unexpected ['c']" in both
    records = _message(lambda: model.predict([{"a": "u", "b": "p", "extra": 1}]))
    assert "missing" not in records


@pytest.mark.parametrize("model", [NaiveBayes(), TAN()], ids=repr)
def test_explain_shows_zero_evidence_as_zero(model):
    # b is independent of the class: log P(b | c) - log P(b) is 0, which log-sum-exp gave as
    # -1.1e-16 for naive Bayes
    model.fit(X, Y)
    evidence = model.explain(X)
    tiny = (evidence != 0) & (np.abs(evidence) < 1e-12)
    assert not tiny.any()
    assert (evidence == 0).any()
    frame = model.explain(X, as_frame=True)
    assert "e-1" not in frame.to_string()
