"""
Naive Bayes on the watermelon data set 3.0
==========================================

Zhou, *Machine Learning*, 7.3, trains a naive Bayes classifier on the watermelon data set 3.0
(Table 4.3: six categorical attributes, two numeric ones, and whether the melon is ripe) and
classifies "test example 1", which is the data set's first row. This example fits the same model
with bayeskit and prints the book's figures beside ours.

The book's settings differ from bayeskit's defaults, so the example states them: relative
frequencies without smoothing (``alpha=0`` for the conditional tables, ``prior_alpha=0`` for
the prior: Zhou eqs. 7.16-7.17), a Gaussian per class for the numeric attributes rather than
bins (``discretize=None``; eq. 7.18) with the sample standard deviation (``ddof=1``), and no
variance floor (``var_smoothing=0``).
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from bayeskit import NaiveBayes
from bayeskit.data import datasets

X, y = datasets.load("watermelon3")
test_1 = X.iloc[:1]
print(test_1.T)

model = NaiveBayes(alpha=0.0, prior_alpha=0.0, discretize=None, ddof=1, var_smoothing=0.0)
model.fit(X, y)
classes = list(model.classes_)
print("classes:", classes)

# %%
# The class prior, eq. 7.16: ``P(c) = |D_c| / |D|``. The book gives 8/17 and 9/17.

book_prior = {"true": 8 / 17, "false": 9 / 17}
for c in ("true", "false"):
    ours = np.exp(model.log_prior_[classes.index(c)])
    print(f"P(ripe={c:5}) = {ours:.3f}   book: {book_prior[c]:.3f}")

# %%
# Each attribute value of test example 1 given the class: relative frequencies for the
# categorical ones (eq. 7.17), Gaussian densities for density and sugar (eq. 7.18).
# ``feature_log_likelihood`` gives ``log p(x_j | c)`` for every row, feature and class.
#
# The book prints ``P(sound=muffled | ripe=true)`` as 5/8 = 0.625; the data give 6/8 = 0.750,
# and the book's own product (0.052) uses 0.750.

book = {  # attribute: (value of test example 1, book's figure for true, for false)
    "color": ("green", 0.375, 0.333),
    "root": ("curly", 0.625, 0.333),
    "sound": ("muffled", 0.625, 0.444),
    "texture": ("clear", 0.875, 0.222),
    "umbilicus": ("hollow", 0.625, 0.222),
    "surface": ("hard", 0.750, 0.667),
    "density": (0.697, 1.959, 1.203),
    "sugar": (0.460, 0.788, 0.066),
}
factors = np.exp(model.feature_log_likelihood(test_1)[0])  # (n_features, n_classes)
names = model.schema_.names
rows = []
for name, (value, book_true, book_false) in book.items():
    ours = factors[names.index(name)]
    rows.append(
        {
            "attribute": f"{name}={value}",
            "ours (true)": ours[classes.index("true")],
            "book (true)": book_true,
            "ours (false)": ours[classes.index("false")],
            "book (false)": book_false,
        }
    )
table = pd.DataFrame(rows).set_index("attribute")
print(table.round(3).to_string())

# %%
# The joint ``P(c) * prod_j p(x_j | c)`` of eq. 7.15, then the decision. The book gives
# 0.052 for ripe and 6.80e-5 for unripe (its product of factors rounded to three decimals;
# unrounded, 6.86e-5), and classifies test example 1 as ripe.

joint = np.exp(model.predict_joint_log_proba(test_1)[0])
print(f"joint(true)  = {joint[classes.index('true')]:.3f}      book: 0.052")
print(f"joint(false) = {joint[classes.index('false')]:.2e}   book: 6.80e-05")
print("predicted:", model.predict(test_1)[0], "  book: true (ripe)")
print(
    "posterior P(ripe=true | x) =", model.predict_proba(test_1)[0, classes.index("true")].round(4)
)

# %%
# Each attribute's factor, for both classes, on a log scale: texture, umbilicus and sugar
# speak most for "ripe".

fig, ax = plt.subplots(figsize=(7, 3.5))
positions = np.arange(len(table))
ax.bar(positions - 0.2, table["ours (true)"], width=0.4, label="ripe = true")
ax.bar(positions + 0.2, table["ours (false)"], width=0.4, label="ripe = false")
ax.set_xticks(positions, table.index, rotation=30, ha="right")
ax.set_yscale("log")
ax.set_ylabel("P(x_j | c) or p(x_j | c)")
ax.set_title("Test example 1: each attribute's factor")
ax.legend()
fig.tight_layout()
plt.show()
