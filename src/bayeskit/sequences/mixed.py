"""A product emission for tables that mix categorical and numeric columns.

Given the state, the columns are independent (naive Bayes within each state): each
categorical column has its own categorical emission, the numeric columns share one diagonal
Gaussian emission (or a Poisson one, for the columns named so), and the log-likelihood, the
statistics, the estimates, the log prior and the samples are the parts' own, added or put
side by side.

The parameters keep hmmlearn's names, one attribute per kind of part:

* ``emissionprob_`` ``(n_states, n_categories)``: the categorical columns' tables side by
  side, in column order (each column's block of every row sums to 1);
* ``means_`` and ``covars_`` ``(n_states, n_gaussian_columns)``;
* ``lambdas_`` ``(n_states, n_poisson_columns)``;
* ``layout_``: which column is which, and each categorical column's categories, as a float
  array (read it with :meth:`ProductEmission.describe`). Strings are matched by their text,
  so a model maps them to the same codes when it predicts as when it was fitted, and a value
  it never saw is refused by name.
"""

from __future__ import annotations

import numpy as np

from bayeskit.sequences import _layout
from bayeskit.sequences.emissions import CategoricalEmission, Emission, PoissonEmission
from bayeskit.sequences.gaussian import GaussianEmission

__all__ = ["COLUMN_EMISSIONS", "ProductEmission"]

#: The emissions a column of a mixed emission may have (``column_emissions`` values).
COLUMN_EMISSIONS = _layout.KINDS

_NAMES = {"categorical": ("emissionprob_",), "gaussian": ("means_", "covars_")}
_NAMES["poisson"] = ("lambdas_",)


class ProductEmission(Emission):
    """Independent emissions per column of a table, given the state (naive Bayes per state).

    ``X`` is a pandas DataFrame (or a 2-d array, its columns named ``"0"``, ``"1"``, ...).
    A column is categorical when its dtype is not numeric (object, string, category or bool)
    or when ``column_emissions`` says so, Poisson when ``column_emissions`` says so, and
    Gaussian otherwise. Missing values (NaN, None) add nothing to a step's density.

    :meth:`check` codes a categorical column's values in the emission's own codebook, which
    the other methods translate to the model's categories (``layout_``): give them
    observations read by the same emission object, as the hidden Markov model does.

    Parameters
    ----------
    settings : dict
        ``column_emissions`` (a dict of column name to ``"categorical"``, ``"gaussian"`` or
        ``"poisson"``) and the parts' priors, as the single emissions read them
        (``emissionprob_prior``; ``means_prior``, ``means_weight``, ``covars_prior``,
        ``covars_weight``, ``min_covar``; ``lambdas_prior``, ``lambdas_weight``).

    Attributes
    ----------
    parameter_names : tuple of str
        ``("layout_", "emissionprob_", "means_", "covars_", "lambdas_")``; a kind with no
        column has arrays with no columns.
    codes : dict of str to str
        ``e``, ``m``, ``c``, ``l`` as for the single emissions, and ``k`` for ``layout_``
        (made from the data by the initialisation, never changed by Baum-Welch).

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"weather": ["sun", "rain", "sun"], "visits": [3, 0, 2],
    ...                   "temperature": [21.0, 12.5, 19.0]})
    >>> e = ProductEmission({"column_emissions": {"visits": "poisson"}})
    >>> params = e.initialize(e.check(X), 2, np.random.default_rng(0))
    >>> e.describe(params)
    {'weather': ['rain', 'sun'], 'visits': 'poisson', 'temperature': 'gaussian'}
    >>> e.log_likelihood(params, e.check(X)).shape
    (3, 2)
    """

    parameter_names = ("layout_", "emissionprob_", "means_", "covars_", "lambdas_")
    codes = {"k": "layout_", "e": "emissionprob_", "m": "means_", "c": "covars_", "l": "lambdas_"}

    def __init__(self, settings):
        super().__init__(settings)
        asked = settings.get("column_emissions") or {}
        if not isinstance(asked, dict):
            msg = f"column_emissions must be a dict of column name to emission, got {asked!r}"
            raise ValueError(msg)
        self._asked = {str(k): v for k, v in asked.items()}
        self._names: list[str] = []
        self._kinds: list[str] = []
        self._codebook: dict[str, dict[str, int]] = {}

    # ------------------------------------------------------------ reading the table

    def check(self, X):
        import pandas as pd

        if not isinstance(X, pd.DataFrame):
            X = np.asarray(X)
            if X.ndim != 2:
                msg = f"observations must be a DataFrame or a 2-d array, got shape {X.shape}"
                raise ValueError(msg)
            X = pd.DataFrame(X).infer_objects()
        names = [str(c) for c in X.columns]
        unknown = sorted(set(self._asked) - set(names))
        if unknown:
            msg = f"column_emissions names columns that X lacks: {unknown}"
            raise ValueError(msg)
        kinds = [_layout.column_kind(X[c], self._asked.get(str(c))) for c in X.columns]
        out = np.empty((len(X), len(names)))
        for p, (name, kind) in enumerate(zip(names, kinds, strict=True)):
            column = X.iloc[:, p]
            if kind == "categorical":
                out[:, p] = self._codes(name, column)
                continue
            try:
                out[:, p] = pd.to_numeric(column).to_numpy(dtype=float, na_value=np.nan)
            except (TypeError, ValueError):
                msg = f"column {name!r} is {kind} but holds values that are not numbers"
                raise ValueError(msg) from None
            if np.isinf(out[:, p]).any():
                msg = f"column {name!r} must be finite (NaN marks a missing value)"
                raise ValueError(msg)
        if kinds.count("poisson"):
            PoissonEmission({}).check(out[:, [k == "poisson" for k in kinds]])
        self._names, self._kinds = names, kinds
        return out

    def _codes(self, name: str, column) -> np.ndarray:
        """Codes of a categorical column in this emission's own codebook, which grows as it
        sees new values (sorted within one call; a category dtype's order first)."""
        text, missing, declared = _layout.labels_of(column)
        book = self._codebook.setdefault(name, {})
        for label in [*declared, *sorted(set(text[~missing]))]:
            book.setdefault(label, len(book))
        codes = np.array([book.get(t, -1) for t in text], dtype=float)
        codes[missing] = np.nan
        return codes

    # ------------------------------------------------------------ the parts

    def _parts(self, params: dict) -> list[tuple[Emission, list[int], dict]]:
        """``(emission, columns, its parameters)`` of every part, read from ``layout_``."""
        names, kinds, categories = _layout.decode(params["layout_"])
        s = self.settings
        parts: list[tuple[Emission, list[int], dict]] = []
        start = 0
        probs = np.asarray(params["emissionprob_"], dtype=float)
        for p, kind in enumerate(kinds):
            if kind == "categorical":
                k = len(categories[p])
                e = CategoricalEmission(
                    {"n_features": k, "emissionprob_prior": s.get("emissionprob_prior", 1.0)}
                )
                parts.append((e, [p], {"emissionprob_": probs[:, start : start + k]}))
                start += k
        for kind, cls in (("gaussian", GaussianEmission), ("poisson", PoissonEmission)):
            columns = [p for p, k in enumerate(kinds) if k == kind]
            if columns:
                own = {n: params[n] for n in _NAMES[kind]}
                parts.append((cls({**s, "covariance_type": "diag"}), columns, own))
        return parts

    @staticmethod
    def _tag(e: Emission, columns: list[int]) -> str:
        return f"{columns[0]}:" if isinstance(e, CategoricalEmission) else f"{type(e).__name__}:"

    def describe(self, params: dict) -> dict:
        """Each column's emission, and each categorical column's categories in code order.

        Parameters
        ----------
        params : dict
            The emission's parameters (``layout_`` is read).

        Returns
        -------
        dict
            Column name to ``"gaussian"`` or ``"poisson"``, or to its categories (a list).

        Raises
        ------
        ValueError
            On a damaged ``layout_``.

        Examples
        --------
        >>> import pandas as pd
        >>> e = ProductEmission({})
        >>> X = e.check(pd.DataFrame({"a": ["x", "y"], "b": [0.5, 1.0]}))
        >>> e.describe(e.initialize(X, 1, np.random.default_rng(0)))
        {'a': ['x', 'y'], 'b': 'gaussian'}
        """
        names, kinds, categories = _layout.decode(params["layout_"])
        return {
            n: categories[p] if k == "categorical" else k
            for p, (n, k) in enumerate(zip(names, kinds, strict=True))
        }

    def _in_model_codes(self, params: dict, X: np.ndarray) -> np.ndarray:
        """``X`` with each categorical column recoded from this emission's codebook to the
        model's categories; refuses other columns and values the model never saw."""
        names, kinds, categories = _layout.decode(params["layout_"])
        if X.shape[1] != len(names) or (self._names and self._names != names):
            msg = f"X's columns {self._names or X.shape[1]} are not the model's {names}"
            raise ValueError(msg)
        if self._kinds and self._kinds != kinds:
            bad = next(p for p, k in enumerate(kinds) if k != self._kinds[p])
            msg = f"column {names[bad]!r} is {self._kinds[bad]} in X but {kinds[bad]} in the model"
            raise ValueError(msg)
        out = X.copy()
        for p, labels in categories.items():
            book = self._codebook.get(names[p], {})
            index = {label: code for code, label in enumerate(labels)}
            table = np.full(len(book) + 1, -1.0)
            for label, code in book.items():
                table[code] = index.get(label, -2.0)
            seen = ~np.isnan(X[:, p])
            codes = X[seen, p].astype(int)
            mapped = table[codes] if len(book) else np.full(len(codes), -2.0)
            if np.any(mapped < -1):
                label = next(k for k, v in book.items() if v == codes[np.argmax(mapped < -1)])
                msg = (
                    f"column {names[p]!r} has the value {label!r}, which the model never saw "
                    f"(its categories: {labels})"
                )
                raise ValueError(msg)
            out[seen, p] = mapped
        return out

    # ------------------------------------------------------------ the protocol

    def initialize(self, X, n_states, rng):
        """Starting parameters: the layout of the table last read by :meth:`check`, random
        categorical rows, k-means Gaussian means, Poisson rates about the column means.

        Parameters
        ----------
        X : ndarray
            The observations, as this emission's :meth:`check` returned them.
        n_states : int
            The number of hidden states.
        rng : numpy.random.Generator
            The random numbers.

        Returns
        -------
        dict
            ``layout_``, ``emissionprob_``, ``means_``, ``covars_`` and ``lambdas_``.

        Raises
        ------
        ValueError
            When :meth:`check` has read no table yet.

        Examples
        --------
        >>> import pandas as pd
        >>> e = ProductEmission({})
        >>> X = e.check(pd.DataFrame({"a": ["x", "y", "x"], "b": [1.0, 2.0, 3.0]}))
        >>> p = e.initialize(X, 2, np.random.default_rng(0))
        >>> p["emissionprob_"].shape, p["means_"].shape, p["lambdas_"].shape
        ((2, 2), (2, 1), (2, 0))
        """
        if not self._names:
            msg = "ProductEmission.initialize needs observations read by its own check"
            raise ValueError(msg)
        categories = {
            p: [label for label, _ in sorted(self._codebook[n].items(), key=_by_code)]
            for p, (n, k) in enumerate(zip(self._names, self._kinds, strict=True))
            if k == "categorical"
        }
        params = {
            "layout_": _layout.encode(self._names, self._kinds, categories),
            "emissionprob_": np.zeros((n_states, sum(len(c) for c in categories.values()))),
            "means_": np.zeros((n_states, self._kinds.count("gaussian"))),
            "covars_": np.ones((n_states, self._kinds.count("gaussian"))),
            "lambdas_": np.ones((n_states, self._kinds.count("poisson"))),
        }
        probs = []
        for e, columns, _ in self._parts(params):
            part = _part_data(e, X[:, columns])
            fresh = e.initialize(part, n_states, rng)
            if isinstance(e, CategoricalEmission):
                probs.append(fresh["emissionprob_"])
            else:
                params.update(fresh)
        if probs:
            params["emissionprob_"] = np.hstack(probs)
        return params

    def validate(self, params, n_states):
        names, kinds, categories = _layout.decode(params["layout_"])
        want = {
            "emissionprob_": (n_states, sum(len(c) for c in categories.values())),
            "means_": (n_states, kinds.count("gaussian")),
            "covars_": (n_states, kinds.count("gaussian")),
            "lambdas_": (n_states, kinds.count("poisson")),
        }
        for name, shape in want.items():
            if np.shape(params[name]) != shape:
                got = np.shape(params[name])
                msg = f"{name} must have shape {shape} for the layout_'s columns, got {got}"
                raise ValueError(msg)
        for e, columns, own in self._parts(params):
            try:
                e.validate(own, n_states)
            except ValueError as error:
                where = ", ".join(names[p] for p in columns)
                msg = f"{error} (column {where})"
                raise ValueError(msg) from None

    def log_likelihood(self, params, X):
        coded = self._in_model_codes(params, X)
        out = np.zeros((len(X), len(params["means_"])))
        for e, columns, own in self._parts(params):
            out += e.log_likelihood(own, _part_data(e, coded[:, columns]))
        return out

    def statistics(self, X, posteriors, params):
        """Each part's statistics, their keys prefixed by the part (``"0:emission_counts"``).

        Parameters
        ----------
        X : ndarray
            The observations, as :meth:`check` returns them.
        posteriors : ndarray of shape (n_steps, n_states)
            ``P(z_t = j | x)`` of every step.
        params : dict
            The parameters whose categories the counts follow.

        Returns
        -------
        dict of str to ndarray
            Sums over steps, which add across sequences, chunks and partitions.

        Examples
        --------
        >>> import pandas as pd
        >>> e = ProductEmission({})
        >>> X = e.check(pd.DataFrame({"a": ["x", "y", "x"]}))
        >>> params = e.initialize(X, 1, np.random.default_rng(0))
        >>> e.statistics(X, np.ones((3, 1)), params)
        {'0:emission_counts': array([[2., 1.]])}
        """
        coded, layout = self._in_model_codes(params, X), params["layout_"]
        shell = _shell(layout, posteriors.shape[1])
        stats = {}
        for e, columns, own in self._parts(shell):
            part = e.statistics(_part_data(e, coded[:, columns]), posteriors, own)
            stats.update({self._tag(e, columns) + k: v for k, v in part.items()})
        return stats

    def estimate(self, stats, params, update):
        out: dict = {}
        probs = []
        for e, columns, own in self._parts(params):
            tag = self._tag(e, columns)
            mine = {k[len(tag) :]: v for k, v in stats.items() if k.startswith(tag)}
            new = e.estimate(mine, own, update)
            if isinstance(e, CategoricalEmission):
                probs.append(new.get("emissionprob_", own["emissionprob_"]))
            else:
                out.update(new)
        if "e" in update:
            n = len(params["means_"])
            out["emissionprob_"] = np.hstack(probs) if probs else np.zeros((n, 0))
        return out

    def log_prior(self, params):
        return float(sum(e.log_prior(own) for e, _, own in self._parts(params)))

    def sample(self, params, states, rng):
        """One row of the table for each entry of ``states``.

        Parameters
        ----------
        params : dict
            The emission's parameters.
        states : ndarray of int of shape (n_steps,)
            The hidden state of each step.
        rng : numpy.random.Generator
            The random numbers.

        Returns
        -------
        pandas.DataFrame of shape (n_steps, n_columns)
            The model's columns (names as text), categorical ones holding their categories.

        Examples
        --------
        >>> import pandas as pd
        >>> e = ProductEmission({})
        >>> params = e.initialize(e.check(pd.DataFrame({"a": ["x", "y"]})), 1,
        ...                       np.random.default_rng(0))
        >>> e.sample(params, np.zeros(3, int), np.random.default_rng(1)).shape
        (3, 1)
        """
        import pandas as pd

        names, _, categories = _layout.decode(params["layout_"])
        columns: dict = {}
        for e, where, own in self._parts(params):
            drawn = e.sample(own, states, rng)
            for i, p in enumerate(where):
                if p in categories:
                    columns[p] = np.asarray(categories[p], dtype=object)[drawn[:, i].astype(int)]
                else:
                    columns[p] = drawn[:, i]
        return pd.DataFrame({names[p]: columns[p] for p in range(len(names))})

    def n_free_parameters(self, params):
        return sum(e.n_free_parameters(own) for e, _, own in self._parts(params))


def _by_code(item: tuple[str, int]) -> int:
    return item[1]


def _part_data(e: Emission, X: np.ndarray) -> np.ndarray:
    """A part's columns as it reads them: codes (-1 = missing) for a categorical one."""
    if isinstance(e, CategoricalEmission):
        return np.where(np.isnan(X[:, 0]), -1, X[:, 0]).astype(np.intp)
    return X


def _shell(layout, n_states: int) -> dict:
    """Placeholder parameters of the right shapes, for building the parts from a layout."""
    names, kinds, categories = _layout.decode(layout)
    k = sum(len(c) for c in categories.values())
    return {
        "layout_": layout,
        "emissionprob_": np.zeros((n_states, k)),
        "means_": np.zeros((n_states, kinds.count("gaussian"))),
        "covars_": np.ones((n_states, kinds.count("gaussian"))),
        "lambdas_": np.ones((n_states, kinds.count("poisson"))),
    }
