"""
Gaussian-process classification: two classes and the softmax for three
=======================================================================

A latent function with a Gaussian-process prior, squashed by the logistic function (two
classes) or the softmax (more), gives class probabilities whose confidence falls away from
the data. The Laplace approximation fits it (Rasmussen and Williams, *Gaussian Processes for
Machine Learning*, chapter 3), the kernel's hyperparameters by maximising the approximate
marginal likelihood. With three classes the latent functions are coupled through the softmax
instead of fitting one model per class.
"""

# %%
# Two classes: the probability surface
# ------------------------------------
import matplotlib.pyplot as plt
import numpy as np
from sklearn.gaussian_process import GaussianProcessClassifier as OneVsRest
from sklearn.gaussian_process.kernels import RBF
from sklearn.gaussian_process.kernels import ConstantKernel as C
from sklearn.metrics import log_loss

from bayeskit.classifiers import GaussianProcessClassifier

rng = np.random.default_rng(0)
n = 120
angle = rng.uniform(0, np.pi, n)
upper = rng.random(n) < 0.5
X = np.column_stack(
    [
        np.cos(angle) + np.where(upper, 0.0, 1.0),
        np.sin(angle) * np.where(upper, 1.0, -1.0) + np.where(upper, 0.0, 0.4),
    ]
)
X += rng.normal(scale=0.15, size=X.shape)
y = upper.astype(int)

model = GaussianProcessClassifier(C(1.0) * RBF(1.0)).fit(X, y)
print("kernel:", model.kernel_, " log marginal likelihood:",
      round(model.log_marginal_likelihood_value_, 3))  # fmt: skip
grid = np.stack(np.meshgrid(np.linspace(-1.5, 2.5, 120), np.linspace(-1.2, 1.5, 100)), -1)
proba = model.predict_proba(grid.reshape(-1, 2))[:, 1].reshape(grid.shape[:2])
fig, ax = plt.subplots(figsize=(7, 4.5))
surface = ax.contourf(grid[..., 0], grid[..., 1], proba, levels=np.linspace(0, 1, 11),
                      cmap="RdBu_r", alpha=0.8)  # fmt: skip
ax.scatter(X[:, 0], X[:, 1], c=y, cmap="RdBu_r", edgecolor="black", s=20)
fig.colorbar(surface, label="P(upper | x)")
ax.set_title("Binary Laplace approximation")
plt.tight_layout()

# %%
# Abstaining where the model is unsure
# ------------------------------------
# ``decide`` rejects a point whose least conditional risk exceeds the threshold: between
# the moons, and far from every training point, where the latent variance is large.
decisions = model.decide(grid.reshape(-1, 2), reject_threshold=0.2, reject_label=-1)
print(f"rejected {np.mean(decisions == -1):.0%} of the grid")

# %%
# Three classes: the softmax Laplace approximation against one-vs-rest
# --------------------------------------------------------------------
centres = np.array([[0.0, 0.0], [2.0, 0.5], [1.0, 2.0]])
labels = rng.integers(3, size=300)
points = centres[labels] + rng.normal(scale=0.8, size=(300, 2))
train, test = slice(0, 150), slice(150, 300)
softmax = GaussianProcessClassifier(C(1.0) * RBF(1.0)).fit(points[train], labels[train])
ovr = OneVsRest(C(1.0) * RBF(1.0)).fit(points[train], labels[train])
for name, fitted in (("softmax Laplace", softmax), ("scikit-learn one-vs-rest", ovr)):
    p = fitted.predict_proba(points[test])
    accuracy = np.mean(p.argmax(axis=1) == labels[test])
    print(f"{name:>25}: test log-loss {log_loss(labels[test], p):.3f}, accuracy {accuracy:.3f}")
mean, cov = softmax.latent_mean_and_variance(points[test][:2])
print("latent means of two test points:\n", mean.round(2))
print("their latent covariance (first point):\n", cov[0].round(3))
