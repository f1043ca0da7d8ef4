"""read_chunks checks a CSV file before the first chunk, as a whole-file read would: an empty
or header-only file is refused naming it; a file that is not UTF-8, read without an encoding,
is read as latin-1 with a UserWarning naming the first bad byte; a file that does not hold the
encoding given is refused naming it and the encoding."""

from __future__ import annotations

import gzip
import re

import pandas as pd
import pytest

from bayeskit.data import read_chunks


def _write(path, text: str, encoding: str = "utf-8"):
    data = text.encode(encoding)
    if path.name.endswith(".gz"):
        data = gzip.compress(data)
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("name", ["d.csv", "d.csv.gz", "d.tsv"])
@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "is empty: no header row and no data"),
        ("\n\n", "is empty: no header row and no data"),
        ("x,y\n", "has a header (2 columns) but no data rows"),
        ("x\r\n", "has a header (1 columns) but no data rows"),
    ],
)
def test_an_empty_file_is_refused_naming_it(tmp_path, name, text, words):
    path = _write(tmp_path / name, text.replace(",", "\t") if ".tsv" in name else text)
    with pytest.raises(ValueError, match=re.escape(f"{name} {words}")):
        read_chunks(path, 10)


@pytest.mark.parametrize("name", ["l.csv", "l.csv.gz"])
@pytest.mark.parametrize("at", [0, 7, 3000])  # the first non-UTF-8 byte: first, second, late row
def test_a_latin1_file_is_read_as_latin1_with_a_warning(tmp_path, name, at):
    rows = ["x,y"] + ["eau,oui"] * (at // 8) + ["thé,non"] * 5
    text = "\n".join(rows) + "\n"
    path = _write(tmp_path / name, text, "latin-1")
    with pytest.warns(UserWarning, match=rf"{name} is not valid UTF-8 .* at byte (\d+)\); read"):
        chunks = read_chunks(path, 4)
    assert chunks.encoding == "latin-1"
    whole = pd.read_csv(path, encoding="latin-1")
    pd.testing.assert_frame_equal(pd.concat(list(chunks), ignore_index=True), whole)
    assert "thé" in set(whole["x"])


def test_the_warning_names_the_first_bad_byte(tmp_path):
    path = _write(tmp_path / "b.csv", "x,y\n" + "eau,oui\n" * 300 + "café,non\n", "latin-1")
    with pytest.warns(UserWarning, match=r"at byte 2407\)"):  # 4 + 300 * 8 + len("caf")
        read_chunks(path, 50)


@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_a_file_that_does_not_hold_the_encoding_given_is_refused(tmp_path, encoding):
    path = _write(tmp_path / "b.csv", "x,y\n" + "eau,oui\n" * 300 + "café,non\n", "latin-1")
    with pytest.raises(ValueError, match=rf"b.csv is not valid {encoding} text \(.*\); give"):
        list(read_chunks(path, 50, encoding=encoding))  # at the start or at the chunk


@pytest.mark.parametrize("encoding", [None, "utf-8"])
def test_a_utf8_file_reads_without_a_warning(tmp_path, recwarn, encoding):
    path = _write(tmp_path / "u.csv", "x,y\n" + "thé,oui\n" * 50)
    chunks = read_chunks(path, 7, encoding=encoding)
    assert sum(len(c) for c in chunks) == 50
    assert not [w for w in recwarn if issubclass(w.category, UserWarning)]
