"""The statistics of a model file must agree with one another: counts that claim more weight
than the rows they summarise, scores that find more rows impossible than were scored, and
families missing from or added to what a model counts are refused with a ModelFileError naming
the field and the rule, for every kind of model (never a KeyError, IndexError or numpy's
ValueError)."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

import bayeskit
from bayeskit.classifiers import MODELS
from bayeskit.data import datasets
from bayeskit.stats import FamilyCounts
from bayeskit.stats.checks import Layout
from test_io_validation import ModelFile
from test_io_validation import _refused as _refused_as_model_file_error

TABULAR = [n for n, cls in MODELS.items() if "categorical_features" in cls().get_params()]
# what each model is fitted with here: a few parameters that make every statistic appear
PARAMS = {
    "naive-bayes": {"discretize": None},  # Gaussian moments as well as count tables
    "aode": {"m": 0},
    "ande": {"n": 2, "m": 0},
    "selective-kdb-ensemble": {"n_estimators": 2},
    "tan-em": {"missing": "em"},
    "kdb-em": {"missing": "em"},
}
KINDS = [*MODELS, "tan-em", "kdb-em"]


def _model(kind):
    name = kind.removesuffix("-em")
    return MODELS[name](**PARAMS.get(kind, {}))


def _data(kind):
    tabular = kind.removesuffix("-em") in TABULAR
    X, y = datasets.load("watermelon3" if tabular else "iris")
    if kind.endswith("-em"):  # missing values, so that EM's expected counts are kept
        X = X.astype(object)
        X.iloc[[1, 4, 9], 0] = None
    return X, y


@pytest.fixture(scope="module")
def fitted():
    return {kind: _model(kind).fit(*_data(kind)) for kind in KINDS}


def _saved(fitted, kind, tmp_path):
    model = fitted[kind]
    return ModelFile(bayeskit.save(model, tmp_path / f"{kind}.bayeskit")), model.stats_


def _walk(obj, where="stats_"):
    """``(path, object)`` of every statistic in the tree (dataclasses and their fields)."""
    yield where, obj
    if dataclasses.is_dataclass(obj):
        for field in dataclasses.fields(obj):
            yield from _walk(getattr(obj, field.name), f"{where}.{field.name}")
    elif isinstance(obj, tuple):
        for i, item in enumerate(obj):
            yield from _walk(item, f"{where}[{i}]")


def _refused(path, *match):
    """Refused with a ModelFileError holding ``match``, in plain words: no exception of the
    estimation wrapped inside (a KeyError, IndexError or numpy's ValueError)."""
    message = _refused_as_model_file_error(path, *match)
    assert "do not fit" not in message, message
    assert not re.search(r"\b[A-Z][A-Za-z]*Error\b", message.split(": ", 1)[1]), message
    return message


def _key(f, path):
    (key,) = [k for k, p in f.paths.items() if p == path]
    return key


def _edit(f, path, change):
    """Apply ``change`` to a copy of the array at ``path``."""
    key = _key(f, path)
    arr = f.arrays[key].copy()
    change(arr)
    f.arrays[key] = arr


def _family_counts(stats):
    return [(p, o) for p, o in _walk(stats) if isinstance(o, FamilyCounts)]


def _class_zero_emptied(f, stats):
    """Class 0 made to have no rows, its tables left as they were; the fields edited."""
    edited = []
    for path, obj in _walk(stats):
        if isinstance(obj, FamilyCounts):
            at = obj._layout[1][obj.families.index((obj.target,))]
            _edit(f, f"{path}.counts", lambda a, at=at: a.__setitem__(at, 0.0))
            edited.append(f"{path}.counts")
        elif path.endswith("class_count") and path in f.paths.values():
            _edit(f, path, lambda a: a.__setitem__(0, 0.0))
            edited.append(path)
    return edited


def _one_cell_inflated(f, stats):
    """One count of the largest table raised by the total weight of the rows: the paths of the
    fields that now disagree with another."""
    total = float(np.sum(stats.class_count)) if hasattr(stats, "class_count") else 100.0
    families = _family_counts(stats)
    if families:
        path, obj = families[0]
        k = max(range(len(obj.families)), key=lambda i: len(obj.families[i]))
        at = obj._layout[1][k]
        _edit(f, f"{path}.counts", lambda a: a.__setitem__(at, a[at] + total + 1))
        return f"{path}.counts"
    path = next(p for p in f.paths.values() if "feature_count" in p or p.endswith("joint.counts"))
    _edit(f, path, lambda a: a.__setitem__((0,) * a.ndim, a[(0,) * a.ndim] + total + 1))
    return path


# models whose every table is bounded by the class counts (the multinomial model counts words,
# which no number of rows bounds; KNN keeps rows, not counts)
BOUNDED = [k for k in KINDS if k not in ("multinomial-nb", "knn-bayes")]


@pytest.mark.parametrize("kind", KINDS)
def test_tables_of_a_class_without_rows_are_refused(fitted, tmp_path, kind):
    f, stats = _saved(fitted, kind, tmp_path)
    edited = _class_zero_emptied(f, stats)
    assert edited
    message = _refused(f.write(), "stats_.")
    rules = ("more than", "not the class counts", "class_count is 0", "differs from")
    assert any(rule in message for rule in rules), message


@pytest.mark.parametrize("kind", BOUNDED)
def test_a_count_above_the_rows_it_summarises_is_refused(fitted, tmp_path, kind):
    f, stats = _saved(fitted, kind, tmp_path)
    path = _one_cell_inflated(f, stats)
    message = _refused(f.write(), path.rsplit("[", 1)[0])
    assert "more" in message or "not the class counts" in message, message


@pytest.mark.parametrize("kind", ["naive-bayes", "full-bayes"])
def test_moments_of_more_rows_than_the_class_has_are_refused(fitted, tmp_path, kind):
    f, stats = _saved(fitted, kind, tmp_path)
    path = next(p for p in f.paths.values() if p.endswith(".count") and "moments" in p)
    _edit(f, path, lambda a: a.__iadd__(float(np.sum(stats.class_count))))
    _refused(f.write(), "moments", "more than")


@pytest.mark.parametrize("kind", ["spode", "selective-kdb", "selective-kdb-ensemble"])
def test_scores_claiming_more_weight_than_the_rows_are_refused(fitted, tmp_path, kind):
    f, stats = _saved(fitted, kind, tmp_path)
    for path in [p for p in f.paths.values() if p.endswith("scores")]:
        g, _ = _saved(fitted, kind, tmp_path)
        _edit(g, path, lambda a: a.__setitem__((0, 0), 1e6))
        _refused(g.write(), f"{path}[0]", "probability zero", "more than")


def test_multinomial_words_of_a_class_without_rows_are_refused(fitted, tmp_path):
    f, _ = _saved(fitted, "multinomial-nb", tmp_path)
    _edit(f, "stats_.class_count", lambda a: a.__setitem__(1, 0.0))
    label = fitted["multinomial-nb"].classes_[1]
    _refused(f.write(), "stats_.feature_count[0]", f"class {label!r}", "class_count is 0")


def test_joint_counts_must_sum_to_the_class_counts(fitted, tmp_path):
    f, _ = _saved(fitted, "full-bayes", tmp_path)
    _edit(f, "stats_.joint.class_count", lambda a: a.__imul__(2.0))
    _refused(f.write(), "stats_.joint.counts", "not the class counts")


# ---------------------------------------------------------------------- families
FIXED = ["tan", "aode", "ande", "spode", "nbtree"]  # models that count a fixed set of families


def _families_edited(f, stats, change):
    """The file with the families of its first family counts changed by ``change(families)``,
    each kept family's table as it was and a new one's all zero (so the counts agree with one
    another and only the families are wrong); the path of those counts and the families."""
    path, obj = _family_counts(stats)[0]
    node = f.doc["fitted"]["stats"]
    for part in path.split(".")[1:]:
        field, _, index = part.partition("[")
        node = node["fields"][field]
        if index:
            node = node["tuple"][int(index.rstrip("]"))]
    families = change(list(obj.families))
    node["fields"]["families"] = {
        "tuple": [{"tuple": [{"value": c} for c in fam]} for fam in families]
    }
    tables = []
    for fam in families:
        try:  # a new family's counts summed out of a larger one, as counting would give
            tables.append(obj.marginal(fam))
        except KeyError:
            tables.append(np.zeros([obj.n_states[c] for c in fam]))
    f.arrays[_key(f, f"{path}.counts")] = np.concatenate([t.ravel() for t in tables])
    return path, families


def _names(model, family):
    names = model.schema_.names
    return [repr(names[c]) for c in family if c < len(names)]


@pytest.mark.parametrize("kind", FIXED)
@pytest.mark.parametrize("last", [False, True])
def test_a_missing_family_is_named(fitted, tmp_path, kind, last):
    f, stats = _saved(fitted, kind, tmp_path)
    dropped = []

    def drop(fams):  # a feature's family (the class family is the counts' own check)
        k = len(fams) - 1 if last else next(i for i, fam in enumerate(fams) if len(fam) > 1)
        dropped.append(fams.pop(k))
        return fams

    path, _ = _families_edited(f, stats, drop)
    message = _refused(f.write(), f"{path}.families", "lacks the family", "counts")
    assert all(name in message for name in _names(fitted[kind], dropped[0])), message
    assert "KeyError" not in message


@pytest.mark.parametrize("kind", FIXED)
def test_an_extra_family_is_named(fitted, tmp_path, kind):
    f, stats = _saved(fitted, kind, tmp_path)
    added = []

    def add(fams):  # the class with the first features, as many as no counted family has
        target = fams[0][0] if len(fams[0]) == 1 else max(max(fam) for fam in fams)
        size = 1
        while (target, *range(size)) in fams:
            size += 1
        added.append((target, *range(size)))
        return [*fams, added[0]]

    path, _ = _families_edited(f, stats, add)
    message = _refused(f.write(), f"{path}.families", "holds the family", "does not count")
    assert all(name in message for name in _names(fitted[kind], added[0])), message


@pytest.mark.parametrize("kind", ["tan-em", "kdb-em"])
def test_expected_counts_missing_a_feature_family_are_named(fitted, tmp_path, kind):
    f, stats = _saved(fitted, kind, tmp_path)
    path, obj = "stats_.expected", stats.expected
    node = f.doc["fitted"]["stats"]["fields"]["expected"]
    d = obj.target
    keep = [fam for fam in obj.families if fam != (d, 0)]
    node["fields"]["families"] = {"tuple": [{"tuple": [{"value": c} for c in fam]} for fam in keep]}
    f.arrays[_key(f, f"{path}.counts")] = np.concatenate([obj.table(fam).ravel() for fam in keep])
    name = fitted[kind].schema_.names[0]
    _refused(f.write(), f"{path}.families", "lacks the family", f"(class, {name!r})")


STRUCTURED = ["kdb", "selective-kdb", "selective-kdb-ensemble", "network"]  # families = structure


@pytest.mark.parametrize("kind", STRUCTURED)
def test_a_structure_without_a_feature_is_named(fitted, tmp_path, kind):
    f, stats = _saved(fitted, kind, tmp_path)
    dropped = []

    def drop(fams):  # the first feature's (class, x_j), or a network's first feature family
        dropped.append(fams.pop(1))
        return fams

    path, _ = _families_edited(f, stats, drop)
    message = _refused(f.write(), f"{path}.families", "not a", "have no")
    child = fitted[kind].schema_.names[dropped[0][-1]]
    assert repr(child) in message, message


@pytest.mark.parametrize("kind", STRUCTURED)
def test_a_structure_with_an_extra_family_is_named(fitted, tmp_path, kind):
    f, stats = _saved(fitted, kind, tmp_path)
    path, families = _families_edited(f, stats, lambda fams: [*fams, (fams[0][0], 0, 1, 2, 3)])
    message = _refused(f.write(), f"{path}.families", "not a")
    names = fitted[kind].schema_.names
    assert all(names[c] in message for c in range(4)), message


def test_family_cells_beyond_int64_are_refused_by_shape():
    # a family over three columns of 2**31 states has 2**94 cells: refused by the count of
    # cells the file holds, computed without overflow, never an OverflowError
    layout = Layout(2, (2**31,) * 3, ("categories",) * 3)
    counts = FamilyCounts(np.array([2**31] * 3 + [2]), ((3,), (3, 0, 1, 2)), np.ones(4), target=3)
    with pytest.raises(ValueError, match=r"stats_.counts: shape \(4,\) does not match"):
        counts.validate(layout)


@pytest.mark.parametrize(
    ("kind", "field"),
    [
        ("naive-bayes", "moments.count"),
        ("full-bayes", "moments.scatter.count"),
    ],
)
def test_moments_of_no_rows_must_be_zero(fitted, tmp_path, kind, field):
    # a count of 0 whose mean (or scatter) is not: the moments claim rows the count has not
    f, _ = _saved(fitted, kind, tmp_path)
    _edit(f, f"stats_.{field}", lambda a: a.__setitem__(0, 0.0))
    _refused(f.write(), "stats_.moments", "where the count is 0", "moments of no rows are zero")


@pytest.mark.parametrize("kind", ["spode", "selective-kdb", "selective-kdb-ensemble"])
@pytest.mark.parametrize("change", [-1, 1])
def test_scores_of_another_number_of_candidates_are_named(fitted, tmp_path, kind, change):
    f, _ = _saved(fitted, kind, tmp_path)
    path = next(p for p in f.paths.values() if p.endswith("scores"))
    key = _key(f, path)
    a = f.arrays[key]
    f.arrays[key] = a[:, :-1] if change < 0 else np.concatenate([a, a[:, :1]], axis=1)
    _refused(f.write(), f"{path} has shape", "expected (2, ", "one per candidate")


@pytest.mark.parametrize(
    ("kind", "param", "value"),
    [("spode", "parent", 99), ("tan", "root", "nowhere"), ("ande", "n", 9)],
)
def test_structure_parameters_beyond_the_features_are_named(fitted, tmp_path, kind, param, value):
    f, _ = _saved(fitted, kind, tmp_path)
    f.doc["params"][param] = value
    message = _refused(f.write(), "params: ", param)
    assert "do not fit" not in message, message


@pytest.mark.parametrize("value", [1e300, -1e300, 1.7e308])
@pytest.mark.parametrize("ddof", [0, 10**6])
def test_full_bayes_moments_beyond_float64_are_named(fitted, tmp_path, value, ddof):
    # a class mean so far from the others that the pooled moments overflow float64
    f, _ = _saved(fitted, "full-bayes", tmp_path)
    f.doc["params"]["ddof"] = ddof
    _edit(f, "stats_.moments.scatter.mean", lambda a: a.__setitem__((0, 0), value))
    column = fitted["full-bayes"].schema_.numeric[0].name
    _refused(f.write(), "stats_.moments: numeric columns", repr(column), "too large")


@pytest.mark.parametrize(
    ("params", "field", "factor"),
    [
        ({"shrinkage": "ledoit-wolf"}, "stats_.moments.scatter.scatter", 1.7e308),
        ({"ddof": 5}, "stats_.moments.scatter.count", 1e-320),
        ({"ddof": 0}, "stats_.moments.scatter.count", 1e-320),
    ],
)
def test_full_bayes_covariances_beyond_float64_are_named(fitted, tmp_path, params, field, factor):
    # finite moments whose covariance (a scatter over a tiny weight, or shrunk) is not
    f, _ = _saved(fitted, "full-bayes", tmp_path)
    f.doc["params"].update(params)
    with np.errstate(over="ignore"):
        _edit(f, field, lambda a: a.__imul__(factor))
    _refused(f.write(), "stats_.moments: ", "beyond float64", "rescale")
