"""Messages of the schema's numeric encoding: the bad cell, its column and its row."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bayeskit.data import Schema
from bayeskit.exceptions import SchemaError


def test_non_numeric_cell_is_named_with_its_row():
    train = pd.DataFrame({"size": [1.0, 2.0, 3.0, 4.0]})
    schema = Schema.infer(train)
    # the first cell is a valid number written as text, the bad one is in row 2
    query = pd.DataFrame({"size": pd.Series(["1.5", None, "big", "small"], dtype=object)})
    with pytest.raises(
        SchemaError, match=r"column 'size' is numeric but holds 'big' \(str\) in row 2"
    ):
        schema.encode(query)


def test_numbers_written_as_text_encode():
    schema = Schema.infer(pd.DataFrame({"size": [1.0, 2.0]}))
    enc = schema.encode(pd.DataFrame({"size": pd.Series(["1.5", None], dtype=object)}))
    np.testing.assert_array_equal(enc.values.ravel(), [1.5, np.nan])
