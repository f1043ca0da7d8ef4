r"""
Relative frequency and maximum likelihood: the coin and the bag of balls
========================================================================

*AI Engineering*, chapter 7, sections 7.2.2 (frequentists and Bayesians) and 7.2.4 (maximum
likelihood estimation), Eqs. (7.11)-(7.13).

Two examples of the chapter. The frequentist reading of probability (7.2.2): a coin tossed 100
times shows heads 38 times, so :math:`P(\mathrm{heads}) = 38/100 = 0.38`. Maximum likelihood
(7.2.4): 100 draws with replacement from a bag of black and white balls give 75 white ones;
the proportion :math:`P` of white balls that makes these draws most likely maximises

.. math::

    O(\bar X \mid \theta) = \prod_{i=1}^{100} P(x_i \mid \theta) = P^{75} (1 - P)^{25}
    \qquad (7.11)

or, equivalently, its logarithm :math:`75 \ln P + 25 \ln(1 - P)`. The book's Eq. (7.12) prints
the negative of this, :math:`-75 \ln P - 25 \ln(1-P)`: the loss :math:`\ell` it minimises.
Setting the derivative to zero,

.. math::

    \frac{d \ell}{d P} = -\frac{75}{P} + \frac{25}{1 - P} = 0 \qquad (7.13)

gives :math:`P = 0.75`, the relative frequency of white balls. bayeskit's estimators take
counts and return log-probabilities: :func:`bayeskit.estimate.mle` is this relative frequency.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from bayeskit.estimate import dirichlet_posterior_mean, mle

# %%
# The two estimates
# -----------------

coin = np.array([38.0, 62.0])  # heads, tails
balls = np.array([75.0, 25.0])  # white, black
p_heads = float(np.exp(mle(coin))[0])
p_white = float(np.exp(mle(balls))[0])


def compare(rows):
    """Print quantity, book and bayeskit side by side, and check that bayeskit's figure rounds
    to the book's: within half a unit of the last digit the book prints."""
    table = pd.DataFrame(rows, columns=["quantity", "book", "bayeskit"])
    print(table.to_string(index=False, formatters={"bayeskit": "{:.6f}".format}))
    for quantity, book, ours in rows:
        mantissa, _, exponent = book.lower().partition("e")
        digits = len(mantissa.partition(".")[2])
        tol = 0.5 * 10.0 ** (int(exponent or 0) - digits) + 1e-12
        assert abs(float(book) - ours) <= tol, (quantity, book, ours)


compare(
    [
        ("P(heads) = 38/100 (7.2.2)", "0.38", p_heads),
        ("P_MLE(white), 75 white in 100 (7.2.4)", "0.75", p_white),
    ]
)

# %%
# The maximum, checked numerically
# --------------------------------
# The log-likelihood :math:`75 \ln P + 25 \ln(1-P)` over a fine grid of :math:`P` peaks at the
# estimate, where it is :math:`75 \ln 0.75 + 25 \ln 0.25 \approx -56.234`, and the derivative of
# Eq. (7.13) vanishes there.

grid = np.linspace(0.001, 0.999, 9_981)
log_lik = balls[0] * np.log(grid) + balls[1] * np.log1p(-grid)
best = grid[np.argmax(log_lik)]
at_mle = float(balls @ mle(balls))  # sum of counts times log-probabilities
print(f"grid maximum at P = {best:.4f}; log-likelihood at the MLE = {at_mle:.4f}")
assert abs(best - p_white) < 1e-3
assert np.isclose(at_mle, 75 * np.log(0.75) + 25 * np.log(0.25))
assert np.isclose(-75 / p_white + 25 / (1 - p_white), 0.0)

# %%
# A Bayesian estimate beside it
# -----------------------------
# Section 7.2.5 treats :math:`\theta` itself as uncertain. With a uniform prior on :math:`P`
# (a Beta(1, 1), the symmetric Dirichlet with :math:`\alpha = 1`) the posterior is
# Beta(76, 26); its mean, :math:`(75 + 1)/(100 + 2)`, is the Laplace-corrected estimate
# (:func:`bayeskit.estimate.dirichlet_posterior_mean`), and its mode is the MLE. The book
# prints no figure for this; it is shown for contrast.

posterior_mean = float(np.exp(dirichlet_posterior_mean(balls, alpha=1.0))[0])
print(f"posterior mean of P under a uniform prior: {posterior_mean:.4f} (= 76/102)")
assert np.isclose(posterior_mean, 76 / 102)

fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
left.plot(grid, log_lik)
left.axvline(p_white, color="C3", ls="--", label=f"MLE P = {p_white:.2f}")
left.set_ylim(at_mle - 40, at_mle + 5)
left.set_xlabel("P (proportion of white balls)")
left.set_ylabel("75 ln P + 25 ln(1 - P)")
left.set_title("the log of Eq. (7.11)")
left.legend()
derivative = -balls[0] / grid + balls[1] / (1 - grid)
right.plot(grid, derivative)
right.axhline(0, color="grey", lw=0.8)
right.axvline(p_white, color="C3", ls="--")
right.set_ylim(-400, 400)
right.set_xlabel("P")
right.set_ylabel("d loss / dP")
right.set_title("-75/P + 25/(1 - P), Eq. (7.13)")
fig.tight_layout()
plt.show()
