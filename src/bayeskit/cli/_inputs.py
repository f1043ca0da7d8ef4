"""A command's data as a model takes it: training and test sets, the model built, the features a
fitted model reads, a cost matrix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from bayeskit.cli._app import (
    CATEGORICAL,
    MODELS,
    _names,
    _note,
    _parse_params,
    _refusals,
    np,
    pd,
    value_text,
)
from bayeskit.cli._data import _numbers, _read_table, _split, _Table


def _takes_tables(cls: type) -> bool:
    """Whether a model reads tabular data through a schema (and so accepts categorical data)."""
    return "categorical_features" in cls().get_params()


def _categorical(table: _Table, X: pd.DataFrame) -> list[str]:
    return [c for c in X.columns if table.kinds[c] == CATEGORICAL]


def _build(cls: type, table: _Table, X: pd.DataFrame, params: dict[str, Any]):
    """The model with the table's column kinds and the ``--param`` values it knows."""
    known = cls().get_params()
    model = cls(**{k: v for k, v in params.items() if k in known})
    if _takes_tables(cls):
        model.set_params(categorical_features=_categorical(table, X))
        declared = {c: v for c, v in table.domains.items() if c in _categorical(table, X)}
        if declared and "categories" in known and params.get("categories") is None:
            model.set_params(categories=declared)  # an ARFF file's declared values
    return model


def _model_input(cls: type, table: _Table, X: pd.DataFrame) -> pd.DataFrame:
    """The columns a model gets: all of them, or for a count model the numeric ones."""
    if _takes_tables(cls):
        return X
    return X.astype(np.float64)


def _training_data(
    name: str, cls: type, param, data, target, categorical, numeric, na_values, encoding,
    ignore=None,
) -> tuple[dict, _Table, pd.DataFrame, Any]:  # fmt: skip
    """What ``fit`` and ``evaluate`` start from: the model's parameters, the table read with the
    column options, its features and class, checked against the model."""
    params = _parse_params(param, {name: cls})
    table = _read_table(
        data,
        categorical=categorical,
        numeric=numeric,
        ignore=ignore,
        na_values=na_values,
        encoding=encoding,
        target=target,
    )
    X, y = _split(table)
    _check_fits_data(name, cls, table, X)
    return params, table, X, y


def _test_set(
    test: str, table: _Table, X: pd.DataFrame, categorical, numeric, na_values, encoding, ignore
) -> tuple[pd.DataFrame, Any]:
    """``--test FILE``: its features (the training columns, matched by name) and class, read
    with DATA's options and typed as DATA's columns were."""
    test_table = _read_table(
        test,
        categorical=categorical,
        numeric=numeric,
        ignore=ignore,
        na_values=na_values,
        encoding=encoding,
        target=table.default_target,
        hint="'--test'",
        like=table,
    )
    columns = test_table.frame.columns
    listed = ", ".join(map(str, columns))
    if table.default_target not in columns:
        msg = f"{test} has no class column {table.default_target!r} (columns: {listed})"
        raise typer.BadParameter(msg, param_hint="'--test'")
    missing = [str(c) for c in X.columns if c not in columns]
    if missing:
        msg = f"{test} lacks the columns {missing} of DATA (columns: {listed})"
        raise typer.BadParameter(msg, param_hint="'--test'")
    X_test, y_test = _split(test_table)
    extra = [str(c) for c in X_test.columns if c not in X.columns]
    if extra:
        _note(f"ignored the columns of {test} that DATA lacks: {extra}")
    return X_test[list(X.columns)], y_test


def _check_fits_data(name: str, cls: type, table: _Table, X: pd.DataFrame) -> None:
    categorical = _categorical(table, X)
    if categorical and not _takes_tables(cls):
        readers = ", ".join(n for n, c in MODELS.items() if _takes_tables(c))
        msg = (
            f"model {name!r} needs numeric counts, but columns {categorical} are categorical "
            "(see `bayeskit schema DATA`); declare them --numeric if they hold counts, or use "
            f"a model that reads categorical data: {readers}"
        )
        raise typer.BadParameter(msg, param_hint="'--model'")


def _note_unseen(X: pd.DataFrame, schema: Any) -> None:
    """A note on stderr counting, per column, the categorical cells that name no category of
    the model (it treats them as missing). A cell names a category as the model's encoder
    matches it (:func:`bayeskit.data.schema.category_codes`): by value, else by canonical key,
    so ``TRUE`` names a category learnt as ``True`` and ``1`` one learnt as ``1.0``."""
    from bayeskit.data.schema import category_codes

    if schema is None:
        return
    unseen = []
    for col in schema.categorical:
        if col.cuts is not None or col.name not in X.columns:
            continue
        s = X[col.name]
        bad = (category_codes(s, col.categories) < 0) & s.notna().to_numpy()
        if bad.any():
            texts = sorted({value_text(v) for v in s[bad]})
            shown = ", ".join(repr(t) for t in texts[:3]) + (", ..." if len(texts) > 3 else "")
            unseen.append(f"{col.name!r}: {int(bad.sum())} cell(s) ({shown})")
    if unseen:
        _note("categories not seen in training, treated as missing: " + "; ".join(unseen))


def _model_features(
    estimator: Any, table: _Table, frame: pd.DataFrame, drop: list, ignore: Any, hint: str = ""
) -> pd.DataFrame:
    """The model's features taken from DATA by name (``predict``, ``explain``): the ``drop``
    columns left out unless they are features, a feature --ignore dropped missing in every
    row, an identifier the model left out empty; a missing feature is an error, other columns
    are ignored with a note; numeric features as numbers; unseen categories noted."""
    names = getattr(estimator, "feature_names_in_", None)
    names = None if names is None else [str(n) for n in names]
    schema_ = getattr(estimator, "schema_", None)
    # a kept column that is also a feature stays a feature
    X = frame.drop(columns=[c for c in drop if names is None or c not in names])
    if names is not None:
        # features --ignore dropped: missing in every row; identifiers the model left out: empty
        absent = [n for n in _names(ignore) if n in names]
        if absent:
            _note(f"--ignore {', '.join(absent)}: the model's feature(s) treated as missing")
        if schema_ is not None:
            absent += [n for n in schema_.ignored if n not in X.columns]
        X = X.assign(**{n: pd.Series(None, index=X.index, dtype=object) for n in absent})
        missing = [n for n in names if n not in X.columns]
        if missing:
            msg = (
                f"DATA lacks the model's feature columns {missing} "
                f"(columns: {', '.join(map(str, frame.columns))})"
            )
            raise typer.BadParameter(msg, param_hint="'DATA'")
        extra = [str(c) for c in X.columns if c not in names]
        if extra:
            _note(f"ignored columns that are not the model's features: {extra} {hint}".rstrip())
        X = X[names]
    with _refusals():
        numeric = [c.name for c in schema_.numeric] if schema_ is not None else list(X.columns)
        for name in numeric:
            X[name] = _numbers(X[name], name, table.where)
        _note_unseen(X, schema_)
    return X


def _read_cost(path: Path, classes: np.ndarray) -> pd.DataFrame:
    """A cost matrix CSV with its labels matched to the model's classes by their text.

    A CSV header is text while class labels may be numbers or booleans, so each label is matched
    to the class whose text is the same, or failing that the same but for case (``false`` for
    ``False``); labels that match nothing are kept, and the decision layer names them.
    """
    table = pd.read_csv(path, index_col=0)
    exact = {str(c): c for c in classes}
    folded: dict[str, list] = {}
    for c in classes:
        folded.setdefault(str(c).casefold(), []).append(c)

    def match(label):
        text = str(label)
        if text in exact:
            return exact[text]
        near = folded.get(text.casefold(), [])
        return near[0] if len(near) == 1 else label

    table.index = [match(v) for v in table.index]
    table.columns = [match(v) for v in table.columns]
    return table
