"""
Hidden Markov models: the dishonest casino
==========================================

A casino mostly rolls a fair die but now and then switches to a loaded one that shows a six
half the time (Durbin, Eddy, Krogh and Mitchison, *Biological Sequence Analysis*, 3.2). The
die in use is a hidden state that follows a Markov chain; the rolls are the observations. A
:class:`~bayeskit.sequences.HiddenMarkovModel` answers three questions about it:

* which die was used at each roll (decoding: the Viterbi path, or each roll's posterior);
* how likely a sequence of rolls is (the forward pass);
* what the casino's parameters are, from rolls alone (Baum-Welch, the EM algorithm).
"""

# %%
# The model and a sample from it
# ------------------------------
import matplotlib.pyplot as plt
import numpy as np

from bayeskit.plot import state_sequence
from bayeskit.sequences import HiddenMarkovModel, example_hmm

casino = example_hmm("casino", random_state=0)
print("transitions (fair, loaded):\n", casino.transmat_)
print("loaded die:", casino.emissionprob_[1].round(2))
rolls, dice = casino.sample(300)  # rolls are codes 0-5 for the faces 1-6

# %%
# Decoding: which die?
# --------------------
# The Viterbi path is the most probable sequence of dice; the posteriors say, roll by roll,
# how sure the model is. The top strip of the figure is the truth.
log_prob, path = casino.decode(rolls)
posteriors = casino.predict_proba(rolls)
print(f"Viterbi path right at {np.mean(path == dice):.0%} of the rolls")
print(f"posterior decoding right at {np.mean(posteriors.argmax(axis=1) == dice):.0%}")
assert np.mean(path == dice) > 0.7

ax = state_sequence(
    rolls + 1,
    states=path,
    posteriors=posteriors,
    true_states=dice,
    state_names=["fair", "loaded"],
)
ax.set_title("300 rolls: Viterbi path (bands), truth (top strip), posteriors (below)")
plt.tight_layout()

# %%
# Learning the casino from 30,000 rolls
# -------------------------------------
# Baum-Welch starts from random parameters and alternates forward-backward (expected
# transition and emission counts) with re-estimation. Which learned state is the loaded die is
# up to the data: we order them by the probability of a six.
long_rolls, _ = casino.sample(30_000, random_state=1)
model = HiddenMarkovModel(
    2, emission="categorical", n_iter=300, tol=1e-4, n_init=2, random_state=0
).fit(long_rolls)
order = np.argsort(model.emissionprob_[:, 5])
learned_trans = model.transmat_[np.ix_(order, order)]
learned_emit = model.emissionprob_[order]
print(f"{'quantity':>24} {'true':>6} {'learned':>8}")
for name, true, got in [
    ("P(fair -> loaded)", casino.transmat_[0, 1], learned_trans[0, 1]),
    ("P(loaded -> fair)", casino.transmat_[1, 0], learned_trans[1, 0]),
    ("P(six | fair)", casino.emissionprob_[0, 5], learned_emit[0, 5]),
    ("P(six | loaded)", casino.emissionprob_[1, 5], learned_emit[1, 5]),
]:
    print(f"{name:>24} {true:6.3f} {got:8.3f}")
np.testing.assert_allclose(learned_trans, casino.transmat_, atol=0.03)
np.testing.assert_allclose(learned_emit, casino.emissionprob_, atol=0.03)

# %%
# Baum-Welch never lowers its objective (the log-likelihood here, as the priors are flat):
plt.figure(figsize=(6, 3))
plt.plot(np.arange(1, model.n_iter_ + 1), model.objective_, marker=".")
plt.xlabel("iteration")
plt.ylabel("log-likelihood")
plt.title(f"Baum-Welch on 30,000 rolls ({model.n_iter_} iterations)")
plt.tight_layout()
assert np.all(np.diff(model.objective_) >= -1e-6)
