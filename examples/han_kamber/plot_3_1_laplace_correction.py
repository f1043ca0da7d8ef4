r"""
The Laplacian correction
========================

Han, Kamber & Pei lecture notes, *Bayes Classifiers* (6.3), Sect. 3.1 *Laplacian Correction*
(Han, Kamber & Pei, Sect. 8.3.2).

One zero count zeroes a naive Bayes likelihood whatever the other attributes say. The notes'
example: of the 5 customers who bought a computer none is a student, so

.. math::

    P(\text{student} = \text{yes}, \text{credit} = \text{fair} \mid \text{buy} = \text{yes})
    = \frac{0}{5} \times \frac{4}{5} = 0,

and every student is classified as a non-buyer. The Laplacian correction adds
:math:`\alpha = 1` to each count of the table that has the zero, as if every value had been
seen once more:

.. math::

    P(\text{student} = \text{yes} \mid \text{buy} = \text{yes}) = \frac{0 + 1}{5 + 2} = \frac{1}{7}.

The notes add the pseudo-count only to the attribute and class that have a zero count; the other
tables stay as they were. That is bayeskit's ``smoothing="lidstone-where-zero"`` with ``alpha=1``;
the usual Laplace estimator (the default ``smoothing="lidstone"``) smooths every table, and is
shown for contrast.
"""

from fractions import Fraction

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from bayeskit import NaiveBayes


def compare(rows, reference="book"):
    """Print each quantity as the book prints it beside bayeskit's figure, and check that the two
    agree to the printed precision: within half a unit in the book's last digit (an integer or a
    fraction such as ``3/7`` is exact: within 1e-12)."""
    table, off = [], []
    for quantity, text, got in rows:
        if "/" in text or text.isdigit():
            value, tol = float(Fraction(text)), 1e-12
        else:
            mantissa, _, exponent = text.lower().partition("e")
            value = float(text)
            tol = 0.5 * 10.0 ** (int(exponent or 0) - len(mantissa.partition(".")[2]))
        table.append((quantity, text, f"{got:.6g}"))
        if not abs(got - value) <= tol:
            off.append(quantity)
    print(pd.DataFrame(table, columns=["quantity", reference, "bayeskit"]).to_string(index=False))
    assert not off, f"bayeskit differs from the {reference} on {off}"


# %%
# The two count tables
# --------------------
# The notes give only the counts of student and of credit per class (hypothetical customers,
# not the 14-row table). Naive Bayes only ever sees those per-class counts, so any table of
# customers with these margins gives the same model; here the values are simply listed in order.
student = {"yes": {"yes": 0, "no": 5}, "no": {"yes": 3, "no": 7}}  # buy -> student -> count
credit = {"yes": {"fair": 4, "excellent": 1}, "no": {"fair": 6, "excellent": 4}}
rows = []
for buy in ("yes", "no"):
    students = [s for s, n in student[buy].items() for _ in range(n)]
    credits = [c for c, n in credit[buy].items() for _ in range(n)]
    rows += [(s, c, buy) for s, c in zip(students, credits, strict=True)]
data = pd.DataFrame(rows, columns=["student", "credit", "buy"])
print(pd.crosstab(data["buy"], data["student"]), end="\n\n")
print(pd.crosstab(data["buy"], data["credit"]))
X, y = data[["student", "credit"]], data["buy"]


def likelihoods(model, student, credit):
    """P(student, credit | buy) for each class: the product of the two attributes' terms."""
    x = pd.DataFrame({"student": [student], "credit": [credit]})
    return pd.Series(np.exp(model.feature_log_likelihood(x)[0].sum(axis=0)), model.classes_)


# %%
# Without the correction
# ----------------------
raw = NaiveBayes(alpha=0.0).fit(X, y)
before = likelihoods(raw, "yes", "fair")
compare(
    [
        ("P(student, fair | buy = yes) = 0/5 x 4/5", "0", before["yes"]),
        ("P(student, fair | buy = no) = 3/10 x 6/10", "0.18", before["no"]),
    ]
)

# %%
# With the correction, as the notes apply it
# ------------------------------------------
# ``feature_log_likelihood`` gives each attribute's term: the student table of "yes" is smoothed,
# (0 + 1)/(5 + 2) and (5 + 1)/(5 + 2); the credit table and the "no" class keep their
# frequencies. The printed 0.11 and 0.69 are 4/35 and 24/35 rounded.
corrected = NaiveBayes(alpha=1.0, smoothing="lidstone-where-zero").fit(X, y)
after = likelihoods(corrected, "yes", "fair")
query = pd.DataFrame({"student": ["yes"], "credit": ["fair"]})
p_student = np.exp(corrected.feature_log_likelihood(query)[0, 0])
compare(
    [
        ("P(student = yes | buy = yes) = (0+1)/(5+2)", "1/7", p_student[1]),
        ("P(student, fair | buy = yes) = 1/7 x 4/5", "0.11", after["yes"]),
        (
            "P(non-student, fair | buy = yes) = 6/7 x 4/5",
            "0.69",
            likelihoods(corrected, "no", "fair")["yes"],
        ),
        ("P(student, fair | buy = no), unchanged", "0.18", after["no"]),
    ]
)

# %%
# The usual Laplace estimator
# ---------------------------
# Adding one to every count of every table changes the other factors too: 1/7 x 5/7 for "yes" and
# 4/12 x 7/12 for "no" (derived here, not in the notes).
laplace = likelihoods(NaiveBayes(alpha=1.0).fit(X, y), "yes", "fair")
compare(
    [
        ("P(student, fair | buy = yes) = 1/7 x 5/7", "5/49", laplace["yes"]),
        ("P(student, fair | buy = no) = 4/12 x 7/12", "28/144", laplace["no"]),
    ],
    reference="by hand",
)

# %%
# "The corrected probability estimates are close to their uncorrected counterparts, yet the zero
# probability value is avoided."
table = pd.DataFrame(
    {"no correction": before, "where zero (notes)": after, "everywhere": laplace}
).T
ax = table.plot.bar(rot=0, figsize=(7, 3.5), title="P(student = yes, credit = fair | buy)")
ax.set(ylabel="likelihood")
ax.legend(title="buy")
plt.tight_layout()
