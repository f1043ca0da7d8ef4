"""Gaussian-process classification by the Laplace approximation (Rasmussen and Williams,
*Gaussian Processes for Machine Learning*, 2006: GPML, chapter 3), binary and multiclass.

A latent function per class has a Gaussian-process prior with a kernel of
:mod:`sklearn.gaussian_process.kernels`; the class probabilities are its logistic (two
classes) or softmax (more) transform. The posterior of the latent values at the training
points is approximated by a Gaussian at its mode (GPML 3.4; 3.5 for the softmax, all classes
coupled: no one-vs-rest), the kernel's hyperparameters are chosen by maximising the
approximate log marginal likelihood with its exact gradient (GPML 5.5), and a prediction
averages the likelihood over the latent predictive Gaussian: for two classes by the closed form
of a mixture of probits (as scikit-learn) or by quadrature, for more by Monte Carlo over a
fixed set of draws. The numerics are :mod:`bayeskit.classifiers._laplace`.

The parameters and attributes are scikit-learn's ``GaussianProcessClassifier``'s where they
exist, so a user can switch by changing the import; with two classes and the same kernel the
two agree in log marginal likelihood and probabilities (to rounding).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from scipy.optimize import minimize
from scipy.special import ndtri
from scipy.stats import qmc
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.gaussian_process.kernels import RBF
from sklearn.gaussian_process.kernels import ConstantKernel as C
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from bayeskit.classifiers import _laplace
from bayeskit.classifiers import _sparse_laplace as _sparse
from bayeskit.data.validation import check_count, check_real, check_sample_weight
from bayeskit.decision import decide_labels

__all__ = ["GaussianProcessClassifier"]

PREDICTIVE = ("probit", "quadrature")


class GaussianProcessClassifier(ClassifierMixin, BaseEstimator):
    """Gaussian-process classification by the Laplace approximation: logistic for two
    classes, softmax for more (GPML Algorithms 3.1-3.4, gradients 5.1 and section 5.5.2).

    Parameters
    ----------
    kernel : sklearn.gaussian_process.kernels.Kernel, optional
        The covariance of the latent functions (one kernel for every class). Default
        ``ConstantKernel(1.0, "fixed") * RBF(1.0, "fixed")``, as scikit-learn's.
    optimizer : "fmin_l_bfgs_b", callable or None, default="fmin_l_bfgs_b"
        Maximises the approximate log marginal likelihood over the kernel's free
        hyperparameters (L-BFGS-B with the exact gradient); a callable
        ``optimizer(obj_func, initial_theta, bounds) -> (theta, value)`` as scikit-learn's;
        None keeps the kernel as given.
    n_restarts_optimizer : int, default=0
        Further starts, drawn log-uniformly within the bounds; the best optimum is kept.
    max_iter_predict : int, default=100
        The most Newton steps to the posterior mode.
    random_state : int, RandomState or None, default=None
        Draws the restarts.
    predictive : {"probit", "quadrature"}, default="probit"
        Two classes: the predictive probability by the closed-form mixture of probits
        (Williams and Barber 1998; scikit-learn's) or by 64-node Gauss-Hermite quadrature.
    n_draws : int, default=512
        More classes: the Monte Carlo draws (a scrambled Sobol set, antithetic and, up to 5
        classes, closed under permuting the classes, so the probabilities do not depend on the
        order of the classes) averaged per test point.
    inducing_points : int or array-like of shape (m, n_features), optional
        None: the exact method (``O(n^3)`` time, ``O(n^2)`` memory). Otherwise the
        approximation on ``m`` inducing inputs (subset of regressors, with the deterministic
        training conditional's predictive variance; ``O(n m^2)``): an integer ``m`` takes the
        k-means centres of ``X`` (seeded by ``random_state``), an array the given points
        (such as a subset of the rows). The inputs stay fixed; the kernel's hyperparameters
        are still fitted, with the exact gradient of the approximate marginal likelihood.
    inducing_jitter : float, default=1e-8
        Added to the diagonal of the inducing points' kernel matrix, relative to its mean
        diagonal (close inducing inputs make it nearly singular).
    max_bytes : int, default=4 GiB
        An exact fit holds a few ``n x n`` matrices (more with many classes or
        hyperparameters), a fit on inducing points a few ``n x m``: above this it is refused,
        naming the memory it would need.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    kernel_ : Kernel
        The kernel with the fitted hyperparameters.
    log_marginal_likelihood_value_ : float
        The approximate log marginal likelihood at ``kernel_.theta``.
    X_train_ : ndarray of shape (n_samples, n_features)
    inducing_points_ : ndarray of shape (m, n_features) or None
        The inducing inputs (None for the exact method).
    n_features_in_ : int

    Examples
    --------
    >>> from sklearn.gaussian_process.kernels import RBF
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(80, 2))
    >>> y = np.where(X[:, 0] + X[:, 1] > 0, "up", "down")
    >>> model = GaussianProcessClassifier(RBF(1.0)).fit(X, y)
    >>> model.predict([[2.0, 2.0], [-2.0, -1.0]]).tolist()
    ['up', 'down']
    >>> model.predict_proba([[0.0, 0.0]]).sum().round(6)
    np.float64(1.0)
    """

    def __init__(self, kernel: Any = None, *, optimizer: Any = "fmin_l_bfgs_b",
                 n_restarts_optimizer: int = 0, max_iter_predict: int = 100,
                 random_state: Any = None, predictive: str = "probit", n_draws: int = 512,
                 inducing_points: Any = None, inducing_jitter: float = 1e-8,
                 max_bytes: int = 4 << 30):  # fmt: skip
        self.kernel = kernel
        self.optimizer = optimizer
        self.n_restarts_optimizer = n_restarts_optimizer
        self.max_iter_predict = max_iter_predict
        self.random_state = random_state
        self.predictive = predictive
        self.n_draws = n_draws
        self.inducing_points = inducing_points
        self.inducing_jitter = inducing_jitter
        self.max_bytes = max_bytes

    # ------------------------------------------------------------------ fitting

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> GaussianProcessClassifier:
        """Fit the hyperparameters and the posterior of the latent functions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numbers; NaN and infinity are refused.
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights multiplying each sample's log-likelihood.

        Returns
        -------
        GaussianProcessClassifier

        Raises
        ------
        ValueError
            On one class only, a missing or infinite value, options out of range, or data
            whose exact fit would need more than ``max_bytes``.

        Examples
        --------
        >>> X = np.array([[0.0], [0.5], [2.0], [2.5]])
        >>> GaussianProcessClassifier().fit(X, [0, 0, 1, 1]).classes_.tolist()
        [0, 1]
        """
        self._check_options()
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_min_samples=2)
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        self.n_classes_ = len(self.classes_)
        if self.n_classes_ < 2:
            msg = (
                "GaussianProcessClassifier requires 2 or more distinct classes; got "
                f"{self.n_classes_} class ({self.classes_[0]!r})"
            )
            raise ValueError(msg)
        w = check_sample_weight(sample_weight, len(X), positive_sum=True)
        self._w = np.ones(len(X)) if w is None else w
        self.kernel_ = (C(1.0, "fixed") * RBF(1.0, "fixed") if self.kernel is None
                        else clone(self.kernel))  # fmt: skip
        self.X_train_ = np.array(X, copy=True)
        self.inducing_points_ = self._inducing(self.X_train_)
        self._check_memory(len(X))
        codes = codes.reshape(-1)
        self._warm: np.ndarray | None = None
        self._t = (codes == 1).astype(np.float64)  # two classes: the second is 1
        self._Y = np.eye(self.n_classes_)[codes].T  # more: one-hot, (n_classes, n)
        if self.optimizer is not None and self.kernel_.n_dims > 0:
            self._optimise()
        else:
            self.log_marginal_likelihood_value_ = self.log_marginal_likelihood(self.kernel_.theta)
        self._mode, _, self._parts = self._evaluate(self.kernel_, eval_gradient=False)
        self._warm = None  # (the optimiser's)
        return self

    def _inducing(self, X: np.ndarray) -> np.ndarray | None:
        """The inducing inputs: None (exact), the k-means centres of ``X`` or given points."""
        spec = self.inducing_points
        if spec is None:
            return None
        if isinstance(spec, int | np.integer) and not isinstance(spec, bool):
            check_count("inducing_points", int(spec), low=1)
            if spec >= len(X):
                return X.copy()
            from sklearn.cluster import KMeans

            seed = check_random_state(self.random_state).randint(2**31 - 1)
            return KMeans(n_clusters=int(spec), n_init=3, random_state=seed).fit(X).cluster_centers_
        Z = np.asarray(spec, dtype=np.float64)
        if Z.ndim != 2 or Z.shape[1] != X.shape[1] or len(Z) == 0:
            msg = (
                f"inducing_points must be a count or an array of shape (m, {X.shape[1]}), got "
                f"shape {Z.shape}"
            )
            raise ValueError(msg)
        if not np.isfinite(Z).all():
            msg = "inducing_points must be finite numbers"
            raise ValueError(msg)
        return Z.copy()

    def _check_options(self) -> None:
        check_count("n_restarts_optimizer", self.n_restarts_optimizer)
        check_count("max_iter_predict", self.max_iter_predict, low=1)
        check_count("n_draws", self.n_draws, low=1)
        check_count("max_bytes", self.max_bytes, low=1)
        check_real("inducing_jitter", self.inducing_jitter, low=0)
        if self.predictive not in PREDICTIVE:
            msg = f"predictive must be one of {PREDICTIVE}, got {self.predictive!r}"
            raise ValueError(msg)
        if not (self.optimizer is None or callable(self.optimizer)
                or self.optimizer == "fmin_l_bfgs_b"):  # fmt: skip
            msg = f"optimizer must be 'fmin_l_bfgs_b', a callable or None, got {self.optimizer!r}"
            raise ValueError(msg)

    def _check_memory(self, n: int) -> None:
        """Refuse a fit whose ``n x n`` (or ``n x m``) matrices would exceed ``max_bytes``."""
        c = self.n_classes_ if self.n_classes_ > 2 else 1
        if self.inducing_points_ is not None:
            m = len(self.inducing_points_)
            count = 3 + self.kernel_.n_dims + c * c
            need = 8 * n * m * count + 8 * 3 * (c * m) ** 2
            if need > self.max_bytes:
                msg = (
                    f"a fit on {n:,} samples and {m:,} inducing points needs about "
                    f"{need / 2**30:.1f} GiB, more than max_bytes={self.max_bytes:,}; take "
                    "fewer inducing points, or raise max_bytes"
                )
                raise ValueError(msg)
            return
        per_matrix = 8 * n * n
        count = 4 + self.kernel_.n_dims + (2 * self.n_classes_ if self.n_classes_ > 2 else 0)
        need = per_matrix * count
        if need > self.max_bytes:
            msg = (
                f"an exact fit on {n:,} samples needs about {need / 2**30:.1f} GiB ({count} "
                f"matrices of {n:,} x {n:,}), more than max_bytes={self.max_bytes:,}; fit on "
                "inducing points (inducing_points=500, say), or raise max_bytes"
            )
            raise ValueError(msg)

    def _fit_mode(self, K: np.ndarray, warm: bool = False) -> Any:
        """The Laplace approximation at kernel matrix ``K``, Newton from 0; during the
        optimisation (``warm``) a softmax model starts from the previous mode, which saves
        most steps (the final fit starts from 0 again, so it does not depend on the path)."""
        if self.n_classes_ == 2:
            return _laplace.binary_mode(K, self._t, self._w, self.max_iter_predict)
        start = getattr(self, "_warm", None) if warm else None
        mode = _laplace.multi_mode(K, self._Y, self._w, self.max_iter_predict, start)
        if warm:
            self._warm = mode.f
        return mode

    def _optimise(self) -> None:
        def obj_func(theta: np.ndarray, eval_gradient: bool = True):
            if eval_gradient:
                value, grad = self.log_marginal_likelihood(theta, eval_gradient=True,
                                                           clone_kernel=False)  # fmt: skip
                return -value, -grad
            return -self.log_marginal_likelihood(theta, clone_kernel=False)

        bounds = self.kernel_.bounds
        optima = [self._constrained_optimization(obj_func, self.kernel_.theta, bounds)]
        if self.n_restarts_optimizer > 0:
            if not np.isfinite(bounds).all():
                msg = "n_restarts_optimizer > 0 needs finite bounds on every hyperparameter"
                raise ValueError(msg)
            rng = check_random_state(self.random_state)
            for _ in range(self.n_restarts_optimizer):
                start = rng.uniform(bounds[:, 0], bounds[:, 1])
                optima.append(self._constrained_optimization(obj_func, start, bounds))
        values = [value for _, value in optima]
        best = int(np.argmin(values))
        self.kernel_.theta = optima[best][0]
        self.log_marginal_likelihood_value_ = -float(values[best])

    def _constrained_optimization(self, obj_func, initial_theta, bounds):
        if callable(self.optimizer):
            return self.optimizer(obj_func, initial_theta, bounds=bounds)
        result = minimize(obj_func, initial_theta, method="L-BFGS-B", jac=True, bounds=bounds)
        return result.x, float(result.fun)

    def log_marginal_likelihood(self, theta: Any = None, eval_gradient: bool = False,
                                clone_kernel: bool = True) -> Any:  # fmt: skip
        """The Laplace approximation of the log marginal likelihood at hyperparameters
        ``theta`` (log-transformed, as ``kernel_.theta``), and its gradient.

        Parameters
        ----------
        theta : array-like, optional
            None: the fitted value (``log_marginal_likelihood_value_``).
        eval_gradient : bool, default=False
            Also return the gradient in ``theta``.
        clone_kernel : bool, default=True
            Evaluate on a copy of ``kernel_`` (False sets ``kernel_``'s hyperparameters).

        Returns
        -------
        float, or (float, ndarray)

        Raises
        ------
        ValueError
            When the gradient is asked without ``theta``.

        Examples
        --------
        >>> X = np.array([[0.0], [0.5], [2.0], [2.5]])
        >>> model = GaussianProcessClassifier(optimizer=None).fit(X, [0, 0, 1, 1])
        >>> bool(np.isclose(model.log_marginal_likelihood(model.kernel_.theta),
        ...                 model.log_marginal_likelihood_value_))
        True
        """
        check_is_fitted(self, "kernel_")
        if theta is None:
            if eval_gradient:
                msg = "the gradient needs theta"
                raise ValueError(msg)
            return self.log_marginal_likelihood_value_
        kernel = self.kernel_.clone_with_theta(theta) if clone_kernel else self.kernel_
        if not clone_kernel:
            kernel.theta = theta
        mode, grad, _ = self._evaluate(kernel, eval_gradient, warm=not clone_kernel)
        return (mode.log_marginal, grad) if eval_gradient else mode.log_marginal

    def _evaluate(self, kernel: Any, eval_gradient: bool, warm: bool = False):
        """The approximation at ``kernel``: its mode, the gradient of its log marginal
        likelihood (or None) and, on inducing points, the matrices predictions reuse."""
        binary = self.n_classes_ == 2
        if self.inducing_points_ is not None:
            parts = _sparse.cross_covariances(kernel, self.X_train_, self.inducing_points_,
                                              self.inducing_jitter, eval_gradient)  # fmt: skip
            Y = self._t[None, :] if binary else self._Y
            mode = _sparse.sparse_mode(parts["Phi"], Y, self._w, self.max_iter_predict, binary)
            grad = _sparse.sparse_gradient(parts, mode, self._w, binary) if eval_gradient else None
            return mode, grad, parts
        if eval_gradient:
            K, K_grad = kernel(self.X_train_, eval_gradient=True)
        else:
            K = kernel(self.X_train_)
        mode = self._fit_mode(K, warm=warm)
        grad = None
        if eval_gradient:
            gradient = _laplace.binary_gradient if binary else _laplace.multi_gradient
            grad = gradient(K, K_grad, mode, self._w)
        return mode, grad, None

    # ------------------------------------------------------------------ prediction

    def latent_mean_and_variance(self, X: Any) -> tuple[np.ndarray, np.ndarray]:
        """The predictive mean and variance of the latent function (two classes: shapes
        ``(n,)``), or the latent functions' means ``(n, n_classes)`` and covariances
        ``(n, n_classes, n_classes)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        mean, variance : ndarray

        Examples
        --------
        >>> X = np.array([[0.0], [0.5], [2.0], [2.5]])
        >>> model = GaussianProcessClassifier().fit(X, [0, 0, 1, 1])
        >>> mean, var = model.latent_mean_and_variance([[3.0]])
        >>> bool(mean[0] > 0), bool(var[0] > 0)
        (True, True)
        """
        check_is_fitted(self, "_mode")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        k_diag = self.kernel_.diag(X)
        if self.inducing_points_ is not None:
            K_zs = self.kernel_(self.inducing_points_, X)
            return _sparse.sparse_latent(self._parts, self._mode, K_zs, k_diag)
        K_star = self.kernel_(self.X_train_, X)
        if self.n_classes_ == 2:
            return _laplace.binary_latent(self._mode, K_star, k_diag)
        return _laplace.multi_latent(self._mode, K_star, k_diag)

    def predict_proba(self, X: Any) -> np.ndarray:
        """``P(c | x)`` for each row and class (columns in the order of ``classes_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)

        Examples
        --------
        >>> X = np.array([[0.0], [0.5], [2.0], [2.5]])
        >>> model = GaussianProcessClassifier().fit(X, [0, 0, 1, 1])
        >>> model.predict_proba([[1.25]]).round(3).tolist()
        [[0.5, 0.5]]
        """
        mean, var = self.latent_mean_and_variance(X)
        if self.n_classes_ == 2:
            p = _laplace.binary_probability(mean, var, self.predictive)
            return np.column_stack([1.0 - p, p])
        return _laplace.softmax_expectation(mean, var, self._draws())

    def _draws(self) -> np.ndarray:
        """Standard normal draws ``(S, n_classes)``: scrambled Sobol points (seeded),
        antithetic, closed under permuting the classes up to 5 classes."""
        c = self.n_classes_
        base = qmc.Sobol(d=c, scramble=True, seed=0).random(self.n_draws)
        z = ndtri(np.clip(base, 1e-12, 1 - 1e-12))
        z = np.vstack([z, -z])
        if c <= 5:
            z = np.vstack([z[:, list(p)] for p in itertools.permutations(range(c))])
        return z

    def predict_log_proba(self, X: Any) -> np.ndarray:
        """``log P(c | x)`` for each row and class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)

        Examples
        --------
        >>> X = np.array([[0.0], [0.5], [2.0], [2.5]])
        >>> model = GaussianProcessClassifier().fit(X, [0, 0, 1, 1])
        >>> model.predict_log_proba([[1.25]]).round(3).tolist()
        [[-0.693, -0.693]]
        """
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X: Any, *, cost: Any = None) -> np.ndarray:
        """The class of least conditional risk (Zhou, *Machine Learning*, 7.1): the most
        probable one under the 0/1 loss.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        cost : array-like, DataFrame or dict, optional
            ``cost[i, j]``: the cost of predicting class ``i`` when the truth is ``j``
            (:func:`~bayeskit.decision.cost_matrix`).

        Returns
        -------
        ndarray of shape (n_samples,)

        Examples
        --------
        >>> X = np.array([[0.0], [0.5], [2.0], [2.5]])
        >>> model = GaussianProcessClassifier().fit(X, ["a", "a", "b", "b"])
        >>> model.predict([[0.2]]).tolist(), model.predict([[0.2]], cost=[[0, 5], [1, 0]]).tolist()
        (['a'], ['b'])
        """
        return decide_labels(self.predict_proba(X), self.classes_, cost)

    def decide(self, X: Any, *, cost: Any = None, reject_threshold: float | None = None,
               reject_label: Any = None) -> np.ndarray:  # fmt: skip
        """Minimum-risk decisions with Chow's reject option (as every bayeskit classifier's
        ``decide``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        cost : array-like, DataFrame or dict, optional
            The cost matrix; None for the 0/1 loss.
        reject_threshold : float, optional
            The cost of abstaining.
        reject_label : object, default=None
            What a rejected sample gets.

        Returns
        -------
        ndarray of shape (n_samples,)

        Examples
        --------
        >>> X = np.array([[0.0], [0.5], [2.0], [2.5]])
        >>> model = GaussianProcessClassifier().fit(X, ["a", "a", "b", "b"])
        >>> model.decide([[0.0], [1.25]], reject_threshold=0.45, reject_label="?").tolist()
        ['a', '?']
        """
        return decide_labels(self.predict_proba(X), self.classes_, cost,
                             reject_threshold=reject_threshold,
                             reject_label=reject_label)  # fmt: skip

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags
