"""Distributed fitting on Dask: statistics per partition, added up as a tree.

Every counting model learns from statistics that add up (``a + b``). :func:`fit` counts each
partition of a Dask DataFrame where it lives and sums the counts pairwise, as a tree, so what
travels is statistics, never rows; the structure step of a model (TAN's spanning tree, KDB's
choice of parents, SPODE's and SelectiveKDB's leave-one-out scores) then runs on the summed
statistics, as one ``fit`` would. The result is the model ``fit`` gives on the same rows
(to rounding of the sums' order, 1e-12). :func:`predict_proba` maps a fitted model over the
partitions.

Before counting, the vocabularies are fixed for every partition: the class labels and each
categorical column's values are gathered in one pass over those columns (sorted, as ``fit``
sorts them). Column kinds and the cut points of binned numeric columns (``discretize``) come
from the first :data:`SCHEMA_ROWS` rows of the first partition, the sample the cut points are
learned from, as :meth:`~bayeskit.classifiers.BayesClassifier.fit_chunks` cuts them on the
first chunk; declare the bins, or pass ``discretize=None``, for results that do not depend on
the partitioning. Parallelism is by partition: ``dd.read_parquet(path,
split_row_groups=True)`` makes one per row group of a single large file, which dask otherwise
reads as one partition.

A cluster: start a ``distributed.Client`` (``Client("tcp://scheduler:8786")`` for a real one,
``Client(LocalCluster(n_workers=4))`` on one machine) before calling :func:`fit`; Dask then
runs the graph there. Without a client, Dask's default scheduler runs it in this process.

Models that learn by more than counting (NBTree's tree, a learned NetworkClassifier structure,
SelectiveKDBEnsemble's members, SubclassNaiveBayes's EM) have no statistic to reduce: use
``fit_chunks`` for them.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.dask._common import _dask, _distinct_values, _tree
from bayeskit.dask.networks import fit_hybrid
from bayeskit.dask.sequences import fit_hmm

__all__ = [
    "SCHEMA_ROWS",
    "fit",
    "fit_hmm",
    "fit_hybrid",
    "learn_structure",
    "predict",
    "predict_proba",
]

#: Rows of the first partition the schema is inferred from (column kinds, and the cut points of
#: binned numeric columns); the vocabularies come from every row.
SCHEMA_ROWS = 1_000_000


def _check(model: Any, ddf: Any, target: Any) -> None:
    from bayeskit.classifiers import BayesClassifier

    _, dd = _dask()
    if not isinstance(model, BayesClassifier):
        msg = f"model must be a bayeskit classifier, got {type(model).__name__}"
        raise TypeError(msg)
    if model._unlabelled_marked() or model._missing_by_em():
        msg = (
            "bayeskit.dask.fit adds counts up partition by partition; EM over unlabelled rows "
            "(unlabelled=...) or missing values (missing='em') needs all rows at once: use "
            "model.fit"
        )
        raise ValueError(msg)
    if not model._distributable:
        msg = (
            f"{type(model).__name__} learns by more than adding counts up, so it cannot be "
            "fitted partition by partition; use model.fit_chunks"
        )
        raise TypeError(msg)
    if not isinstance(ddf, dd.DataFrame):
        msg = f"ddf must be a dask DataFrame, got {type(ddf).__name__}"
        raise TypeError(msg)
    if target not in ddf.columns:
        msg = f"ddf has no column {target!r} (its columns: {list(ddf.columns)})"
        raise ValueError(msg)


def _add(a: Any, b: Any) -> Any:
    """``(statistics, rows)`` of two parts added (None: an empty part)."""
    if a is None:
        return b
    if b is None:
        return a
    return a[0] + b[0], a[1] + b[1]


def _rows(template: Any, frame: pd.DataFrame, target: Any, weight: Any):
    """A partition's rows as the model counts them (``_encoded_rows``), or None."""
    X = frame.drop(columns=[c for c in (target, weight) if c is not None])
    w = None if weight is None else frame[weight].to_numpy(dtype=np.float64)
    return template._encoded_rows(X, frame[target].to_numpy(), w)


def _count(template: Any, frame: pd.DataFrame, target: Any, weight: Any) -> Any:
    """A partition's statistics and its number of rows (None for no row)."""
    rows = _rows(template, frame, target, weight) if len(frame) else None
    if rows is None or not len(rows[1]):
        return None
    enc, y, w = rows
    return template._count(enc, y, w, len(template.classes_)), len(y)


def _scores(template: Any, frame: pd.DataFrame, target: Any, weight: Any) -> Any:
    """The rows' leave-one-out scores against the summed counts (``stats_`` of the template,
    its scores zero): what ``_after_count`` adds, for this partition."""
    rows = _rows(template, frame, target, weight) if len(frame) else None
    if rows is None or not len(rows[1]):
        return None
    local = copy.copy(template)  # the template is shared by every task of the pass
    local._after_count(*rows)
    return local.stats_.scores - template.stats_.scores, len(rows[1])


def _positions(template: Any, frame: pd.DataFrame, target: Any, weight: Any) -> int:
    """The rows of a partition that are learned from (weight above 0)."""
    if weight is None:
        return len(frame)
    return int((frame[weight].to_numpy(dtype=np.float64) > 0).sum())


def _selected(template: Any, frame: pd.DataFrame, target: Any, weight: Any, wanted: Any):
    """The rows at positions ``wanted`` of a partition (counted among its rows of positive
    weight), encoded, with their class codes and weights, and the partition's total weight."""
    rows = _rows(template, frame, target, weight) if len(frame) else None
    if rows is None or not len(rows[1]):
        return None
    enc, y, w = rows
    w = np.ones(len(y)) if w is None else w
    from bayeskit.classifiers.rows import take_rows

    return take_rows(enc, wanted), y[wanted], w[wanted], float(w.sum())


_KINDS = {"count": _count, "scores": _scores}


def _runner(dask, parts, target, weight):
    """``run(kind, model)``: one pass over the partitions with ``model`` as it stands (its
    schema, classes and any statistics), each partition's ``(statistics, rows)`` summed as a
    tree and computed."""

    def run(kind: str, model: Any, wanted: Any = None) -> Any:
        template = dask.delayed(_template(model), pure=True)
        if kind == "positions":  # per partition, not summed
            tasks = [dask.delayed(_positions, pure=True)(template, p, target, weight)
                     for p in parts]  # fmt: skip
            return list(dask.compute(*tasks))
        if kind == "selected":  # the rows at the given positions, each partition's
            tasks = [dask.delayed(_selected, pure=True)(template, p, target, weight, rows)
                     for p, rows in zip(parts, wanted, strict=True)]  # fmt: skip
            return list(dask.compute(*tasks))
        tasks = [dask.delayed(_KINDS[kind], pure=True)(template, p, target, weight)
                 for p in parts]  # fmt: skip
        out = dask.compute(_tree(tasks, _add))[0]
        if out is None:
            msg = "ddf has no rows: there is nothing to learn from"
            raise ValueError(msg)
        return out

    return run


def fit(
    model: Any, ddf: Any, target: Any, *, classes: Any = None, sample_weight: Any = None
) -> Any:
    """Fit ``model`` on a Dask DataFrame, counting every partition where it is (module
    docstring); returns ``model``, fitted as ``model.fit`` on the same rows would be.

    Parameters
    ----------
    model : bayeskit classifier
        A counting model (its parameters as for ``fit``).
    ddf : dask.dataframe.DataFrame
        The features, the class column ``target`` and optionally a weight column.
    target : str
        The class column.
    classes : array-like, optional
        Every class label; by default gathered from ``target`` (one pass over it).
    sample_weight : str, optional
        The name of a column of non-negative row weights.

    Returns
    -------
    model
        The model, fitted.

    Raises
    ------
    TypeError
        ``model`` is no bayeskit classifier or one that cannot be fitted partition by
        partition (it learns by more than adding counts up), or ``ddf`` no Dask DataFrame.
    ValueError
        EM is asked for (``unlabelled`` or ``missing="em"``: it needs all rows at once), the
        weight column is missing, ``ddf`` has no rows, or the model's parameters or the data
        are refused as by ``model.fit``.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> from bayeskit.classifiers import TAN
    >>> from bayeskit.data import datasets
    >>> X, y = datasets.load("car")
    >>> frame = X.assign(label=y)
    >>> model = fit(TAN(), dd.from_pandas(frame, npartitions=4), "label")
    >>> bool(np.allclose(model.predict_proba(X), TAN().fit(X, y).predict_proba(X), atol=1e-12))
    True
    """
    dask, _ = _dask()
    _check(model, ddf, target)
    if sample_weight is not None and sample_weight not in ddf.columns:
        msg = f"ddf has no weight column {sample_weight!r}"
        raise ValueError(msg)
    with model._transaction():
        model._check_params()
        model._refuse_without_rows("a Dask fit")
        model._forget()
        features = [c for c in ddf.columns if c not in (target, sample_weight)]
        parts = ddf.to_delayed()
        # the schema's sample: the first partition's head (never the whole partition, which
        # may be the whole file: dask reads one Parquet file as one partition by default).
        # Taken from the one-partition frame `partitions[0]`: `ddf.head` warns from every
        # worker ("Insufficient elements for `head`") when the partition is shorter than that
        first = ddf.partitions[0].head(SCHEMA_ROWS, npartitions=1, compute=True)
        if not len(first):  # an empty first partition: the first rows of all of them
            first = ddf.head(SCHEMA_ROWS, npartitions=-1, compute=True)
        if not len(first):
            msg = "ddf has no rows: there is nothing to learn from"
            raise ValueError(msg)
        _fix_schema(model, ddf, first, target, features, classes, sample_weight)
        model._fit_distributed(_runner(dask, parts, target, sample_weight))
        return model


def _template(model: Any) -> Any:
    """The model as a worker gets it: parameters, schema, classes, any statistics and the flag
    of a first pass (``_structure_pass``); no tables."""
    out = model.__class__(**model.get_params())
    state = vars(model)
    for attr in ("schema_", "classes_", "n_features_in_", "feature_names_in_", "stats_"):
        if attr in state:
            setattr(out, attr, state[attr])
    if model._structure_pass:  # the first of two passes (KDB's counts the pairs)
        out._structure_pass = True
    return out


def _fix_schema(model, ddf, first, target, features, classes, weight) -> None:
    """Classes, feature bookkeeping and the schema with every partition's categories: the
    kinds and any cut points from the first partition, the vocabularies from one pass over the
    target and the categorical columns."""
    from bayeskit.classifiers.labels import class_labels, encode_targets
    from bayeskit.data.schema import Schema

    dask, _ = _dask()
    X0 = model._prepare_X(first[features], reset=True)
    kinds = None
    if model._reads_tables:
        kinds = Schema.infer(
            X0, categorical_features=model.categorical_features, categories=model.categories
        )
    categorical = [] if kinds is None else [c.name for c in kinds.categorical]
    seen = _distinct_values(dask, ddf, ([target] if classes is None else []) + categorical,
                            weight)  # fmt: skip
    if classes is None:
        classes = list(seen.pop(target))
    classes = class_labels(classes)
    if len(classes) < 2:
        msg = f"the class column holds {len(classes)} label(s); a classifier needs at least 2"
        raise ValueError(msg)
    w0 = None if weight is None else first[weight].to_numpy(dtype=np.float64)
    y0 = encode_targets(first[target], len(first))
    if w0 is not None:  # a row of weight 0 is never learned from: its label may be no class
        y0 = y0.take(w0 > 0)
        X0 = X0.iloc[w0 > 0] if isinstance(X0, pd.DataFrame) else X0[w0 > 0]
        w0 = w0[w0 > 0]
    codes0 = y0.codes_in(classes)
    schema = model._infer_schema(X0, codes0, len(classes), w0)
    grow = [c.name for c in (schema.categorical if schema is not None else ()) if c.cuts is None]
    if grow:
        longest = max(1, *(len(seen[c]) for c in grow))
        frame = pd.DataFrame({name: pd.Series([np.nan] * longest, dtype=object)
                              for name in schema.names})  # fmt: skip
        for name in grow:
            values = list(seen[name])
            frame[name] = pd.Series(values + [None] * (longest - len(values)), dtype=object)
        schema, _ = schema.extend(frame, model.categories)
    model.schema_ = schema
    model.classes_ = classes


def _features(model: Any, ddf: Any) -> list:
    from sklearn.utils.validation import check_is_fitted

    _, dd = _dask()
    check_is_fitted(model, "stats_")
    if not isinstance(ddf, dd.DataFrame):
        msg = f"ddf must be a dask DataFrame, got {type(ddf).__name__}"
        raise TypeError(msg)
    names = getattr(model, "feature_names_in_", None)
    if names is None:
        return list(ddf.columns)
    missing = [n for n in names if n not in ddf.columns]
    if missing:
        msg = f"ddf lacks the model's feature columns {missing}"
        raise ValueError(msg)
    return list(names)


def _proba_part(part: pd.DataFrame, model: Any, features: list, columns: list) -> pd.DataFrame:
    values = model.predict_proba(part[features]) if len(part) else np.zeros((0, len(columns)))
    return pd.DataFrame(values, index=part.index, columns=columns)


def _predict_part(part: pd.DataFrame, model: Any, features: list) -> pd.Series:
    values = model.predict(part[features]) if len(part) else model.classes_[:0]
    return pd.Series(values, index=part.index, name="prediction")


def predict_proba(model: Any, ddf: Any) -> Any:
    """``model.predict_proba`` of every partition, as a dask DataFrame with a column per class
    (named by the class label as text) and ``ddf``'s index; lazy, as Dask is.

    Parameters
    ----------
    model : bayeskit classifier
        A fitted model.
    ddf : dask.dataframe.DataFrame
        Holds the model's feature columns (others are ignored).

    Returns
    -------
    dask.dataframe.DataFrame
        Of shape (n_rows, n_classes).

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> from bayeskit.classifiers import NaiveBayes
    >>> from bayeskit.data import datasets
    >>> X, y = datasets.load("car")
    >>> model = NaiveBayes().fit(X, y)
    >>> proba = predict_proba(model, dd.from_pandas(X, npartitions=3)).compute()
    >>> bool(np.allclose(proba.to_numpy(), model.predict_proba(X)))
    True
    """
    features = _features(model, ddf)
    columns = [str(c) for c in model.classes_]
    meta = pd.DataFrame({c: pd.Series(dtype=np.float64) for c in columns})
    return ddf.map_partitions(_proba_part, model, features, columns, meta=meta)


def predict(model: Any, ddf: Any) -> Any:
    """``model.predict`` of every partition, as a dask Series named ``prediction``.

    Parameters
    ----------
    model : bayeskit classifier
        A fitted model.
    ddf : dask.dataframe.DataFrame
        Holds the model's feature columns (others are ignored).

    Returns
    -------
    dask.dataframe.Series
        Lazy, as Dask is; ``ddf``'s index.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> from bayeskit.classifiers import NaiveBayes
    >>> from bayeskit.data import datasets
    >>> X, y = datasets.load("car")
    >>> model = NaiveBayes().fit(X, y)
    >>> labels = predict(model, dd.from_pandas(X, npartitions=3)).compute()
    >>> bool((labels.to_numpy() == model.predict(X)).all())
    True
    """
    features = _features(model, ddf)
    meta = pd.Series(model.classes_[:0], name="prediction")
    return ddf.map_partitions(_predict_part, model, features, meta=meta)


# --------------------------------------------------------------------------------------------
# Bayesian networks
# --------------------------------------------------------------------------------------------


_TOO_MANY = "too many distinct rows"  # what a merge of more than max_distinct_rows gives


def _partition_rows(frame: pd.DataFrame, nodes: tuple, states: dict, limit: Any) -> Any:
    """A partition's distinct rows (state codes) and their numbers (None for no row;
    :data:`_TOO_MANY` beyond ``limit``)."""
    from bayeskit.learning.parameters import merge_distinct

    if not len(frame):
        return None
    rows = merge_distinct(None, _partition_codes(frame, nodes, states).T)
    return _TOO_MANY if limit is not None and len(rows[0]) > limit else rows


def _merge_rows(a: Any, b: Any, limit: Any) -> Any:
    from bayeskit.learning.parameters import merge_distinct

    if a is None or b is None:
        return b if a is None else a
    if _TOO_MANY in (a, b):  # compared by identity first: never an array comparison
        return _TOO_MANY
    rows = merge_distinct(a, *b)
    return _TOO_MANY if limit is not None and len(rows[0]) > limit else rows


def _partition_codes(frame: pd.DataFrame, nodes: tuple, states: dict) -> Any:
    """A partition's state codes, node-major, a byte per cell (None for no row)."""
    from bayeskit.factors.states import encode_columns

    return encode_columns(nodes, states, frame) if len(frame) else None


def _count_codes(codes: Any, needs: tuple, n_states: list) -> Any:
    """A partition's counts of the families a climbing step asks for (None for no row)."""
    from bayeskit.learning.passes import count_needs

    return None if codes is None else count_needs(codes, None, needs, n_states)


class _PartitionPasses:
    """``read`` for the structure search's passes over a Dask DataFrame's partitions: the
    partitions encoded once (a byte per cell) and, with a distributed client, persisted on
    the workers (which spill to disk under memory pressure), so a pass counts where the codes
    live instead of reading and encoding the source again; every partition's counts added up
    as a tree."""

    def __init__(self, dask: Any, ddf: Any, nodes: tuple, states: dict) -> None:
        self.dask = dask
        self.n_states = [len(states[n]) for n in nodes]
        codes = [dask.delayed(_partition_codes, pure=True)(p, nodes, states)
                 for p in ddf.to_delayed()]  # fmt: skip
        self.persisted = _client() is not None
        self.codes = list(dask.persist(*codes)) if self.persisted else codes

    @property
    def lookahead(self) -> int:
        """0 for persisted codes (a pass costs little beyond its counting), else the depth
        for passes that read the source (:mod:`bayeskit.learning.passes`)."""
        from bayeskit.learning.passes import LOOKAHEAD_READING

        return 0 if self.persisted else LOOKAHEAD_READING

    def __call__(self, needs: tuple) -> Any:
        from bayeskit.learning.passes import add_counts

        step = self.dask.delayed(_count_codes, pure=True)
        counts = [step(c, needs, self.n_states) for c in self.codes]
        return self.dask.compute(_tree(counts, add_counts))[0]

    def close(self) -> None:
        self.codes = []  # the workers release the persisted codes


def _client() -> Any:
    """The distributed client in use, or None (a local scheduler)."""
    try:
        from distributed import default_client

        return default_client()
    except (ImportError, ValueError):
        return None


def _distinct_partition_rows(dask: Any, ddf: Any, states: Any, limit: Any) -> tuple:
    """The nodes, their states (those not given from one pass over the columns, sorted) and
    the partitions' distinct rows with their numbers, merged as a tree (:data:`_TOO_MANY`
    beyond ``limit``, or with ``limit`` 0)."""
    from bayeskit.factors.states import node_states, state_names

    nodes = tuple(ddf.columns)
    given = {n: state_names(f"states[{n!r}]", states[n]) for n in (states or {})}
    unknown = [n for n in nodes if n not in given]
    for node, values in _distinct_values(dask, ddf, unknown).items():
        given[node] = node_states(node, list(values))  # the one rule (factors.states)
    merged: Any = _TOO_MANY
    if limit != 0:
        tasks = [dask.delayed(_partition_rows, pure=True)(p, nodes, given, limit)
                 for p in ddf.to_delayed()]  # fmt: skip
        merged = dask.compute(_tree(tasks, functools.partial(_merge_rows, limit=limit)))[0]
        if merged is None:
            msg = "ddf has no rows: there is nothing to learn from"
            raise ValueError(msg)
    return nodes, given, merged


def learn_structure(ddf: Any, score: str = "bic", *, states: Any = None,
                    algorithm: str = "hill-climb", **options: Any) -> Any:  # fmt: skip
    """:func:`bayeskit.networks.learn_structure`, or any structure learner, on a Dask
    DataFrame.

    Each partition's distinct rows (state codes) and their numbers are merged as a tree, and
    the search runs on them, which is the search on all the rows (every decomposable score
    reads counts alone). What travels is distinct rows, at most one per row. When there are
    more than ``max_distinct_rows`` (an option, as for data in chunks), the search instead
    makes one pass over the partitions per climbing step: every family the step asks for is
    counted per partition, in parallel, and the counts are added up as a tree
    (:mod:`bayeskit.learning.passes`); what travels then is count tables. The partitions
    are encoded once, a byte per cell, and with a distributed client kept on the workers for
    the passes (without one, each pass reads the source again). Either way the DAG is the
    in-memory search's. The states not given come from one pass over the columns (sorted).
    ``options`` are :func:`~bayeskit.networks.learn_structure`'s.

    Another ``algorithm`` of :data:`~bayeskit.learning.STRUCTURE_LEARNERS` (``"pc"``,
    ``"mmhc"``, ``"exact"``, ``"tree"``) runs on the same distinct rows, so it too gives
    what it gives on all the rows in memory: its tests of independence and scores read
    counts alone. Only the hill climb reads the partitions in passes when the distinct rows
    are too many.

    Parameters
    ----------
    ddf : dask.dataframe.DataFrame
        Complete data, a column per node.
    score : {"bic", "aic", "k2", "bdeu", "ll"}, default="bic"
    states : mapping node -> state names, optional
        By default each column's distinct values, sorted (one pass).
    algorithm : str, default="hill-climb"
        The learner's name in :data:`~bayeskit.learning.STRUCTURE_LEARNERS`.
    **options
        Those of :func:`~bayeskit.networks.learn_structure` (``max_parents``, ``start``,
        ``max_distinct_rows``, ...), or of the learner named, and ``max_distinct_rows``.

    Returns
    -------
    DAG
        The DAG the in-memory search gives on all the rows.

    Raises
    ------
    TypeError
        ``ddf`` is no Dask DataFrame, ``sample_weight`` is given (not taken on Dask), or an
        option the learner does not take.
    ValueError
        An option out of range, an unknown ``algorithm`` (before any pass), a column that
        cannot be a node, ``ddf`` has no rows, or more than ``max_distinct_rows`` distinct
        rows for a learner other than the hill climb.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> rng = np.random.default_rng(0)
    >>> a = rng.integers(0, 2, 2000)
    >>> b = np.where(rng.random(2000) < 0.9, a, 1 - a)
    >>> frame = pd.DataFrame({"a": a, "b": b, "c": rng.integers(0, 2, 2000)}).astype(str)
    >>> learn_structure(dd.from_pandas(frame, npartitions=4)).edges
    (('a', 'b'),)
    >>> learn_structure(dd.from_pandas(frame, npartitions=4), max_distinct_rows=0).edges
    (('a', 'b'),)
    >>> learn_structure(dd.from_pandas(frame, npartitions=4), algorithm="exact").edges
    (('a', 'b'),)
    """
    from bayeskit.learning.data_scorers import MAX_DISTINCT_ROWS
    from bayeskit.learning.learners import structure_learner
    from bayeskit.learning.parameters import NetworkData
    from bayeskit.learning.passes import PassScores
    from bayeskit.learning.search import check_search_options
    from bayeskit.learning.search import hill_climb as search

    dask, dd = _dask()
    if not isinstance(ddf, dd.DataFrame):
        msg = f"ddf must be a dask DataFrame, got {type(ddf).__name__}"
        raise TypeError(msg)
    if "sample_weight" in options:
        msg = "sample_weight is not taken on Dask: give each row once per weight unit"
        raise TypeError(msg)
    learner = structure_learner(algorithm)
    limit = options.pop("max_distinct_rows", MAX_DISTINCT_ROWS)
    if learner.name == "hill-climb":
        check_search_options(score, {**options, "max_distinct_rows": limit})
    else:  # before any pass over the partitions
        learner.check_options(score, options)
    nodes, given, merged = _distinct_partition_rows(dask, ddf, states, limit)
    if isinstance(merged, str) and learner.name != "hill-climb":
        msg = (f"ddf has more than max_distinct_rows={limit:,} distinct rows: only the hill "
               f"climb reads the partitions in passes; {algorithm!r} needs its distinct rows "
               "in memory (raise max_distinct_rows)")  # fmt: skip
        raise ValueError(msg)
    if learner.name != "hill-climb" and not isinstance(merged, str):
        return learner.learn(NetworkData(nodes, given, merged[0], merged[1]), score, **options)
    if isinstance(merged, str):  # too many distinct rows: a pass over the partitions per step
        read = _PartitionPasses(dask, ddf, nodes, given)
        scorer = PassScores(nodes, given, read, score, options.get("ess", 1.0))
        return search(scorer, score, **options)
    return search(NetworkData(nodes, given, merged[0], merged[1]), score, **options)
