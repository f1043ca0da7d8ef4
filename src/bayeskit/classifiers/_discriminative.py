"""Discriminative parameters for the generative structures: each cell of a model's log tables
(and each class's log prior) gets a weight, fitted to maximise the conditional log-likelihood
of the training rows, the generative estimates the starting point and the scale.

After Zaidi, Webb, Carman, Petitjean and Cerquides (*Efficient parameter learning of Bayesian
network classifiers*, Machine Learning 106, 2017; and WANBIA-C, Zaidi, Cerquides, Carman and
Webb, JMLR 14, 2013): the model's score of class ``c`` for a row is
``v_c log P(c) + sum_f u_{f, cell} log P(x_f | c, pa_f)``, with one weight ``u`` per table
cell. All weights 1 give the generative model; the optimiser (L-BFGS) starts there, and since
each weight multiplies the log-probability the counts estimated, the problem is well scaled
from the first step (the "pre-conditioning" of the paper: a log-linear model with free
parameters converges an order of magnitude slower). The objective is the negative conditional
log-likelihood plus ``l2 / 2 * sum (weight - 1)^2``: the penalty pulls towards the generative
model, not towards zero (which would pull towards uniform predictions), so a large ``l2`` gives
the generative model back.

Only the cells some training row reads are free; the others keep weight 1. A row whose child
value is missing reads no cell of that family; one whose parent is missing reads the family's
fallback table (as the look-up does).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.optimize import minimize
from scipy.special import log_softmax

from bayeskit.classifiers._checks import _check_choice, _check_number
from bayeskit.data.schema import Encoded
from bayeskit.stats.conditional import conditional_log_likelihood
from bayeskit.stats.lookup import FamilyTables

__all__ = [
    "DISCRIMINATIVE_DOC",
    "L2_GRID",
    "PARAMETERS",
    "choose_l2",
    "fit_weights",
    "weighted_tables",
]

#: The values of a model's ``parameters``.
PARAMETERS = ("generative", "discriminative")
#: The penalties ``l2=None`` chooses among (largest first: each fit starts from the last),
#: besides the generative model itself (weights all 1, an infinite penalty).
L2_GRID = (100.0, 10.0, 1.0, 0.1, 0.01)
#: Up to this many rows ``l2`` is chosen by 5-fold cross-validation, beyond by one held-out
#: fifth (the rows: what a fold's fits cost).
CV_ROWS = 10_000
#: L-BFGS stops when an iteration lowers the objective by less than this share of it. Measured
#: on connect_4 (KDB, one fold, l2 = 1): 70 iterations at 1e-5 and 200 at 1e-8, for the same
#: held-out log-loss (0.5307 and 0.5311): the last digits of the training objective do not
#: carry to new rows.
FTOL = 1e-5
#: A log-probability below this (or minus infinity) is not weighted: the cell keeps weight 1.
_FLOOR = -700.0

#: The two parameters' text, written out by each model's docstring (a test checks them).
DISCRIMINATIVE_DOC = """    parameters : {"generative", "discriminative"}, default="generative"
        ``"generative"``: the tables are the smoothed counts. ``"discriminative"``: each table
        cell and each class prior also gets a weight, fitted to maximise the conditional
        log-likelihood of the training rows (Zaidi et al. 2017), starting from the generative
        model (all weights 1); the counts and the structure are unchanged, and numeric
        features must be binned. ``fit`` and ``partial_fit`` only (the weights need the rows:
        not ``fit_chunks``, Dask or EM).
    l2 : float, optional
        The penalty ``l2 / 2 * sum (weight - 1)^2`` that pulls the weights towards the
        generative model. None (default): chosen among 100, 10, 1, 0.1 and 0.01, or no
        weighting at all, by the conditional log-likelihood of held-out rows (5-fold
        cross-validation up to 10,000 rows, one held-out fifth beyond; the most conservative
        choice within a standard error of the best).
"""


class DiscriminativeWeights:
    """What a family model with ``parameters="discriminative"`` adds: the weights of its tables
    (``cell_weights_``), fitted on the rows after the tables are estimated, and applied to
    them whenever they are (re-)estimated."""

    classes_: np.ndarray
    log_prior_: np.ndarray
    l2: Any
    parameters: str
    _generative_tables: FamilyTables
    _tables: FamilyTables

    def _check_weight_options(self) -> None:
        """``parameters`` and ``l2``, the options every model with weights takes."""
        _check_choice("parameters", self.parameters, PARAMETERS)
        if self.l2 is not None:
            _check_number("l2", self.l2, low=0)

    def _refuse_without_rows(self, what: str) -> None:
        """ValueError with ``parameters="discriminative"``, whose weights are fitted on the rows
        in memory, which ``what`` (chunks, Dask, EM) does not hold."""
        if self._discriminative:
            msg = (f"parameters='discriminative' fits its weights on the rows in memory, which "
                   f"{what} does not hold; use fit (or partial_fit), or "
                   "parameters='generative'")  # fmt: skip
            raise ValueError(msg)

    def _refuse_weighted(self, what: str) -> None:
        """AttributeError when weights other than 1 are held: ``what`` (a network, the
        features' evidence) reads the generative tables, which the weighted model does not
        predict with."""
        weights = getattr(self, "cell_weights_", None)
        if weights is not None and not np.all(weights == 1.0):
            msg = (f"{type(self).__name__} with parameters='discriminative' weighs its tables: "
                   f"{what} is not defined (the weights are no probabilities); a model with "
                   "parameters='generative' gives it")  # fmt: skip
            raise AttributeError(msg)

    def _apply_weights(self) -> None:
        """The look-up tables: the generative ones, weighted when weights of their size are
        held."""
        weights = getattr(self, "cell_weights_", None)
        self._tables = self._generative_tables
        if weights is not None and len(weights) == self._n_weights():
            self._tables = weighted_tables(self._tables, self.log_prior_, weights)

    @property
    def _discriminative(self) -> bool:
        return getattr(self, "parameters", "generative") == "discriminative"

    def _n_weights(self) -> int:
        """A weight per cell of the generative tables, and one per class prior."""
        return int(self._generative_tables.table.size + len(self.classes_))

    def _learn_weights(self, X: Any, enc: Encoded, y: np.ndarray, w: np.ndarray | None) -> None:
        """With ``parameters="discriminative"``: the weights of the tables just estimated,
        fitted on these rows (from the weights held, when ``partial_fit`` adds rows to
        tables of the same size), ``l2`` chosen first when not given."""
        if not self._discriminative:
            return
        if not self._generative_tables.single:
            msg = f"{type(self).__name__} has no single table set to weigh discriminatively"
            raise ValueError(msg)
        if enc.values.shape[1]:
            msg = (f"parameters='discriminative' weighs tables, and {type(self).__name__} keeps "
                   f"{enc.values.shape[1]} numeric column(s) continuous; bin them "
                   "(discretize='mdl', the default) or use parameters='generative'")  # fmt: skip
            raise ValueError(msg)
        held = getattr(self, "cell_weights_", None)
        start = held if held is not None and len(held) == self._n_weights() else None
        l2 = self.l2 if self.l2 is not None else choose_l2(self, X, y, w)
        self.l2_ = l2
        if l2 is None:  # the held-out rows preferred the generative model
            self.cell_weights_ = np.ones(self._n_weights())
        else:
            cells = self._generative_tables.cells(enc.codes)
            self.cell_weights_ = fit_weights(self._generative_tables, self.log_prior_, cells, y, w,
                                        float(l2), start=start)  # fmt: skip
        self._tables = weighted_tables(self._generative_tables, self.log_prior_, self.cell_weights_)


def fit_weights(tables: FamilyTables, log_prior: np.ndarray, cells: np.ndarray, y: np.ndarray,
                sample_weight: np.ndarray | None, l2: float,
                start: np.ndarray | None = None, max_iter: int = 200) -> np.ndarray:  # fmt: skip
    """The weights (``n_cells + n_classes``: every table cell, then each class's log prior)
    that minimise the penalised negative conditional log-likelihood of the rows that read
    ``cells`` (:meth:`FamilyTables.cells <bayeskit.stats.lookup.FamilyTables.cells>`; classes
    ``y``), from ``start`` (all ones by default), by L-BFGS."""
    objective, x0, put = _objective(tables, log_prior, cells, y, sample_weight, l2, start)
    found = minimize(objective, x0, jac=True, method="L-BFGS-B",
                     options={"maxiter": max_iter, "gtol": 1e-6, "ftol": FTOL})  # fmt: skip
    return put(found.x)


def _objective(tables: FamilyTables, log_prior: np.ndarray, cells: np.ndarray, y: np.ndarray,
               sample_weight: np.ndarray | None, l2: float,
               start: np.ndarray | None = None) -> tuple:  # fmt: skip
    """``objective(theta) -> (loss, gradient)`` over the free weights (the cells the rows
    read whose log value is finite, then the class priors), the start ``theta``, and
    ``put(theta)``, the weights of every cell (1 for those not free) and prior. One compiled
    pass over the rows per evaluation (:mod:`bayeskit.stats.conditional`)."""
    n_classes = tables.n_classes
    size = tables.table.size
    table = np.concatenate([np.maximum(tables.table, _FLOOR), np.zeros(n_classes)])
    read = np.zeros(size + n_classes, dtype=bool)
    for c in range(n_classes):
        read[cells.ravel() + c] = True
    free = np.flatnonzero(read[:size] & (tables.table > _FLOOR))
    prior = np.where(np.isfinite(log_prior), log_prior, 0.0)
    w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, np.float64)
    y = np.ascontiguousarray(y, dtype=np.int64)
    cells = np.ascontiguousarray(cells, dtype=np.int64)
    k = len(free)
    x0 = np.ones(k + n_classes)
    if start is not None:
        x0[:k] = start[free]
        x0[k:] = start[size:]

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        values = table.copy()
        values[free] *= theta[:k]
        loglik, per_cell, per_class = conditional_log_likelihood(
            cells, values, theta[k:] * prior, y, w
        )
        grad = np.concatenate([-(per_cell[free] * table[free]), -(per_class * prior)])
        dev = theta - 1.0
        return -loglik + 0.5 * l2 * float(dev @ dev), grad + l2 * dev

    def put(theta: np.ndarray) -> np.ndarray:
        out = np.ones(size + n_classes)
        out[free] = theta[:k]
        out[size:] = theta[k:]
        return out

    return objective, x0, put


def weighted_tables(tables: FamilyTables, log_prior: np.ndarray,
                    weights: np.ndarray) -> FamilyTables:  # fmt: skip
    """The look-up of the weighted scores less ``log_prior``: each cell times its weight, and
    ``(v_c - 1) log P(c)`` added to every row (the model adds ``log P(c)`` itself)."""
    size = tables.table.size
    extra = np.where(np.isfinite(log_prior), (weights[size:] - 1.0) * log_prior, 0.0)
    return tables.scaled(weights[:size], extra)


def choose_l2(model: Any, X: Any, y_idx: np.ndarray, sample_weight: np.ndarray | None,
              seed: int = 0) -> float | None:  # fmt: skip
    """The penalty of :data:`L2_GRID` (or None: no weighting) chosen by the conditional
    log-likelihood of held-out rows: ``model`` (generative) refitted on each fold's other
    rows, then weighted with each penalty, largest first. The one-standard-error rule
    (Breiman et al. 1984): the most conservative candidate (no weighting, then the largest
    penalty) whose held-out loss is within a standard error of the best's, the error of the
    rows' paired loss differences; on a few hundred rows the best by a hair is often noise."""
    from sklearn.base import clone

    n = len(y_idx)
    losses, weights_held = [], []  # per held-out row: the loss of each candidate
    labels = model.classes_[y_idx]
    for fold in _folds(y_idx, 5 if n <= CV_ROWS else 1, seed):
        train, held = np.flatnonzero(~fold), np.flatnonzero(fold)
        if not len(held):  # too few rows of every class to hold any out
            continue
        w_train = None if sample_weight is None else sample_weight[train]
        weights_held.append(np.ones(len(held)) if sample_weight is None else sample_weight[held])
        part = clone(model).set_params(parameters="generative")
        part.fit(_rows(X, train), labels[train], sample_weight=w_train)
        codes = part._encode(part._prepare_X(_rows(X, train), reset=False)).codes
        cells = part._tables.cells(codes)
        held_codes = part._encode(part._prepare_X(_rows(X, held), reset=False)).codes
        held_y = np.searchsorted(part.classes_, labels[held])
        y_train = np.searchsorted(part.classes_, labels[train])
        weights = np.ones(part._tables.table.size + part._tables.n_classes)
        fold_loss = np.empty((len(held), len(L2_GRID) + 1))
        for k, l2 in enumerate((None, *L2_GRID)):
            if l2 is not None:
                weights = fit_weights(part._tables, part.log_prior_, cells, y_train, w_train,
                                      l2, start=weights)  # fmt: skip
            tables = weighted_tables(part._tables, part.log_prior_, weights)
            scores = tables.add_to(np.zeros((len(held), tables.n_classes)), held_codes)
            logp = log_softmax(scores + part.log_prior_, axis=1)
            fold_loss[:, k] = -logp[np.arange(len(held)), held_y]
        losses.append(fold_loss)
    if not losses:  # nothing held out: the generative model
        return None
    k = _one_standard_error(np.concatenate(losses), np.concatenate(weights_held))
    return None if k == 0 else L2_GRID[k - 1]


def _one_standard_error(loss: np.ndarray, w: np.ndarray) -> int:
    """The first column (the most conservative candidate) of ``loss`` (rows x candidates)
    whose weighted mean is within a standard error of the paired differences of the best
    column's."""
    total = w.sum()
    mean = w @ loss / total
    best = int(np.argmin(mean))
    n_eff = total**2 / float(w @ w)
    for k in range(loss.shape[1]):
        diff = loss[:, k] - loss[:, best]
        spread = float(w @ (diff - (mean[k] - mean[best])) ** 2) / total
        if mean[k] - mean[best] <= np.sqrt(spread / n_eff):
            return k
    return best


def _folds(y_idx: np.ndarray, k: int, seed: int) -> list[np.ndarray]:
    """Held-out masks: ``k`` stratified folds (``k = 1``: one fifth held out). A class with
    fewer rows than folds stays in every fold's training rows."""
    rng = np.random.default_rng(seed)
    parts = max(k, 5)
    fold = np.full(len(y_idx), -1)
    for c in np.unique(y_idx):
        rows = rng.permutation(np.flatnonzero(y_idx == c))
        if len(rows) >= parts:
            fold[rows] = np.arange(len(rows)) % parts
    return [fold == j for j in range(k)]


def _rows(X: Any, rows: np.ndarray) -> Any:
    return X.iloc[rows] if hasattr(X, "iloc") else X[rows]
