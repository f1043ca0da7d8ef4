"""ARFF files (Weka's format) as pandas DataFrames, read by :func:`scipy.io.arff.loadarff`.

An ARFF file declares each attribute's type, so nothing is guessed: a nominal attribute becomes a
pandas categorical whose categories are its declared values, in the declared order (a value the
data never uses is still a category); a numeric (``numeric``, ``real``, ``integer``) attribute
stays numeric (float64); a ``date`` attribute becomes datetime64. ``?`` is a missing value.
By Weka's convention the last attribute is the class when nothing else is said. String and
relational attributes and the sparse data format are not read by scipy's reader: the error says
so.
"""

from __future__ import annotations

import codecs
import gzip
import io
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["ARFF_SUFFIXES", "is_arff", "read_arff"]

#: The file names read as ARFF (case ignored).
ARFF_SUFFIXES = (".arff", ".arff.gz")


def is_arff(path: str | os.PathLike) -> bool:
    """Whether ``path`` names an ARFF file (``.arff`` or ``.arff.gz``)."""
    return Path(path).name.lower().endswith(ARFF_SUFFIXES)


def read_arff(path: str | os.PathLike, *, encoding: str | None = None) -> pd.DataFrame:
    """Read an ARFF file (``.arff``, or gzipped ``.arff.gz``) into a DataFrame.

    Parameters
    ----------
    path : str or path-like
    encoding : str, optional
        The text encoding of non-ASCII names and values (default UTF-8, else latin-1).

    Returns
    -------
    DataFrame
        One column per attribute, in the file's order: nominal attributes as categoricals with
        their declared values as categories, numeric ones as float64 (NaN where ``?``), dates
        as datetime64. ``frame.attrs["relation"]`` holds the ``@relation`` name; the class is
        the last column by Weka's convention.

    Raises
    ------
    FileNotFoundError
        If there is no file at ``path``.
    ValueError
        If the file is not ARFF that scipy's reader reads (the message says why).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "weather.arff"
    >>> _ = path.write_text(
    ...     "@relation weather\\n"
    ...     "@attribute outlook {sunny, overcast, rainy}\\n"
    ...     "@attribute temperature numeric\\n"
    ...     "@attribute play {yes, no}\\n"
    ...     "@data\\n"
    ...     "sunny,85,no\\n"
    ...     "overcast,?,yes\\n"
    ...     "?,72,yes\\n"
    ... )
    >>> frame = read_arff(path)
    >>> frame
        outlook  temperature play
    0     sunny         85.0   no
    1  overcast          NaN  yes
    2       NaN         72.0  yes
    >>> list(frame["outlook"].cat.categories), frame.attrs["relation"]
    (['sunny', 'overcast', 'rainy'], 'weather')
    """
    path = Path(path)
    raw = _read_bytes(path)
    # scipy's reader holds nominal values as ASCII bytes: other text goes through as escapes
    # ("\\xc3\\xa9") and is decoded back here, which is unambiguous where the file has no "\\"
    text_encoding = encoding or _guess_encoding(raw)
    escaped = not raw.isascii()
    if escaped and b"\\" in raw:
        msg = (
            f"{path} holds both non-ASCII text and backslashes, which scipy's ARFF reader "
            "cannot take together; convert the file to CSV or Parquet"
        )
        raise ValueError(msg)

    def name(text: str) -> str:
        if not escaped:
            return text
        return codecs.escape_decode(text.encode("ascii"))[0].decode(text_encoding)

    data, meta = _load(raw, path)
    frame = pd.DataFrame(_columns(data, meta, name))
    relation = re.search(rb"^\s*@relation\s+(.*?)\s*$", raw, re.IGNORECASE | re.MULTILINE)
    text = relation.group(1).decode(text_encoding) if relation else ""
    frame.attrs["relation"] = text[1:-1] if text[:1] in "'\"" and text[-1:] == text[:1] else text
    return frame


def _read_bytes(path: Path) -> bytes:
    """The bytes of the file at ``path``, unzipped if it ends in ``.gz``."""
    if not path.is_file():
        msg = f"file not found: {path}"
        raise FileNotFoundError(msg)
    opener = gzip.open if path.name.lower().endswith(".gz") else open
    try:
        with opener(path, "rb") as handle:
            return handle.read()
    except (OSError, EOFError) as exc:  # a damaged .gz
        msg = f"{path} cannot be read: {exc}"
        raise ValueError(msg) from None


def _load(raw: bytes, path: Path) -> tuple[Any, Any]:
    """scipy's reading of the file's bytes ``raw`` (non-ASCII text as escapes): its data and
    meta-data; what it cannot read refused with the reason."""
    from scipy.io import arff  # about 0.2 s to import: only when an ARFF file is read

    try:
        return arff.loadarff(io.StringIO(raw.decode("ascii", errors="backslashreplace")))
    except NotImplementedError as exc:  # string and relational attributes
        msg = (
            f"{path}: {exc} (scipy's ARFF reader reads numeric, nominal and date attributes; "
            "declare text attributes as nominal, or convert the file to CSV)"
        )
        raise ValueError(msg) from None
    except (ValueError, TypeError, IndexError, KeyError, arff.ArffError) as exc:
        sparse = re.search(rb"^@data\s.*?^\s*\{", raw, re.IGNORECASE | re.MULTILINE | re.DOTALL)
        why = "its rows are sparse ({index value, ...}), which it does not read" if sparse else exc
        msg = f"{path} is not an ARFF file scipy's reader can read: {why}"
        raise ValueError(msg) from None


def _columns(data: Any, meta: Any, name: Callable[[str], str]) -> dict[str, Any]:
    """The columns of scipy's ``data``, named by ``name`` (which decodes escaped text):
    nominal attributes as categoricals of their declared values, others as they are."""
    columns: dict[str, Any] = {}
    for attr in meta.names():
        kind, declared = meta[attr]
        values = data[attr]
        if kind == "nominal":  # each distinct value decoded once, not every row
            distinct, where = np.unique(values, return_inverse=True)
            texts = [None if v == b"?" else name(v.decode("ascii")) for v in distinct]
            columns[name(attr)] = pd.Categorical(
                np.array(texts, dtype=object)[where.reshape(-1)],
                categories=[name(v) for v in declared],
            )
        else:  # numeric (NaN where missing) or date (NaT)
            columns[name(attr)] = values
    return columns


def _guess_encoding(raw: bytes) -> str:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return "latin-1"
    return "utf-8"
