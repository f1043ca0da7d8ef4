"""How a message names a row: one convention for the whole package.

* Data given in Python (a DataFrame, an array, records): a row is named by its 0-based
  position, ``row 21`` being ``X.iloc[21]`` whatever the index holds.
* Data read from a file by the command line: a row is named by its line in the file, the header
  being line 1, so data row ``i`` (0-based) of a CSV file is ``line i + 2``. The command line
  labels such a frame's index with its line numbers (:func:`label_file_lines`, index named
  :data:`LINE_INDEX`), and every message then names the line, however deep in the package it
  is raised and whatever rows were dropped or reordered on the way (the labels travel with the
  rows).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

__all__ = ["LINE_INDEX", "label_file_lines", "row_name"]

#: The name of an index that holds file line numbers.
LINE_INDEX = "line"


def row_name(index: Any, position: int) -> str:
    """The name of the row at ``position`` of data whose index is ``index`` (None for an
    array): ``line N`` where the index holds file lines, else ``row <position>``.

    Examples
    --------
    >>> row_name(pd.RangeIndex(5), 3)
    'row 3'
    >>> row_name(label_file_lines(pd.DataFrame({"a": [1, 2, 3]})).index, 1)
    'line 3'
    """
    if isinstance(index, pd.Index) and index.name == LINE_INDEX:
        return f"line {index[position]}"
    return f"row {position}"


def label_file_lines(frame: pd.DataFrame, header_lines: int = 1) -> pd.DataFrame:
    """``frame`` (rows read from a file, its index the 0-based data row numbers, as pandas'
    readers give it, chunks included) with its index turned into file line numbers: data row
    ``i`` is line ``i + header_lines + 1``. A new frame (pandas shares the columns).

    Examples
    --------
    >>> label_file_lines(pd.DataFrame({"a": [1, 2]})).index.tolist()
    [2, 3]
    """
    index = frame.index if isinstance(frame.index, pd.RangeIndex) else pd.RangeIndex(len(frame))
    return frame.set_axis(pd.Index(index + header_lines + 1, name=LINE_INDEX), axis=0)
