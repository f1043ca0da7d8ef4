"""Docstrings a reference can be built from, and visible to static tools.

Shared parameter text. Parameters that several classifiers share (the tabular ones, the family
models' smoothing, the k-dependence ones, the EM ones and EM's attributes) are documented once,
in the module where they belong (``_params``, ``_family``, ``kdb``, ``_incomplete``), and each
class's docstring writes that text out literally, so that IDEs, ``help`` and static tools show
it (nothing edits ``__doc__`` at import). :data:`SHARED` lists which shared sections each class
writes out; the test checks each is in the docstring word for word, so an edit of the shared
text fails here until every docstring is updated. To update them::

    .venv/bin/python tests/test_docstrings.py --write

rewrites, in each listed class's docstring, the run of entries that a section documents (found
by their names) with the section's current text. A new parameter of a section needs its place
in each docstring once, by hand (or the write finds no run and says so).

Report. ``python tests/test_docstrings.py --report`` lists the public names (each public
package's ``__all__``, each object once) whose docstring lacks a Parameters, Returns, Raises or
Examples section where one applies, with the counts; ``--report --methods`` does the same for
the public methods of those classes. The test fails on any gap, so a new public name or method
lands with its sections.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pkgutil
import re
import sys
from pathlib import Path

import pytest

from bayeskit.classifiers import (
    AODE,
    KDB,
    SPODE,
    TAN,
    AnDE,
    BernoulliNaiveBayes,
    FullBayes,
    KNNBayes,
    MultinomialNaiveBayes,
    NaiveBayes,
    NBTree,
    NetworkClassifier,
    SelectiveKDB,
    SelectiveKDBEnsemble,
    SubclassNaiveBayes,
)
from bayeskit.classifiers._family import family_parameters_doc
from bayeskit.classifiers._incomplete import EM_ATTRIBUTES, em_parameters_doc
from bayeskit.classifiers._params import tabular_parameters_doc
from bayeskit.classifiers.kdb import kdb_parameters_doc


def _family(cls: type) -> str:
    return family_parameters_doc(cls)


def _kdb(cls: type) -> str:
    return kdb_parameters_doc(cls)


#: Each class -> the shared sections its docstring writes out (a function of the class: the
#: defaults are read from its ``__init__``).
SHARED: dict[type, list] = {
    NaiveBayes: [
        lambda c: tabular_parameters_doc(
            c,
            prior_alpha="; it matters only on small data sets and rare classes",
            none="one Gaussian per class and feature (Zhou Eq. 7.18)",
        ),
        lambda c: em_parameters_doc(network_em=False),
        lambda c: EM_ATTRIBUTES,
    ],
    MultinomialNaiveBayes: [
        lambda c: em_parameters_doc(network_em=None),
        lambda c: EM_ATTRIBUTES,
    ],
    BernoulliNaiveBayes: [
        lambda c: em_parameters_doc(network_em=None),
        lambda c: EM_ATTRIBUTES,
    ],
    FullBayes: [
        lambda c: tabular_parameters_doc(
            c,
            none=(
                "numeric features are modelled by the multivariate normal; binned, they enter the "
                "joint PMF of Eq. (18.6) with the categorical features"
            ),
        )
    ],
    KNNBayes: [
        lambda c: tabular_parameters_doc(
            c,
            priors=(
                "; the posterior is then proportional to ``P(c_i) K_i / n_i`` (the volume cancels)"
            ),
            prior_alpha="; with 0 the posterior is ``K_i / K``",
        )
    ],
    SubclassNaiveBayes: [
        lambda c: tabular_parameters_doc(
            c,
            none=(
                "numeric columns are refused with a SchemaError naming them (the components are "
                "categorical tables)"
            ),
        )
    ],
    TAN: [
        _family,
        lambda c: em_parameters_doc(network_em=True),
        lambda c: EM_ATTRIBUTES,
    ],
    KDB: [
        _kdb,
        _family,
        lambda c: em_parameters_doc(network_em=True),
        lambda c: EM_ATTRIBUTES,
    ],
    SelectiveKDB: [_kdb, _family],
    SelectiveKDBEnsemble: [_kdb, _family],
    NBTree: [_family],
    SPODE: [_family],
    AnDE: [_family],
    AODE: [_family],
    NetworkClassifier: [_family],
}

ENTRY = re.compile(r"^    (\S[^:]*?) :( .*)?$")  # a parameter's or attribute's first line


def _sections(cls: type) -> list[str]:
    return [make(cls).rstrip("\n") for make in SHARED[cls]]


@pytest.mark.skipif(sys.flags.optimize >= 2, reason="python -OO strips docstrings")
@pytest.mark.parametrize("cls", list(SHARED), ids=lambda c: c.__name__)
def test_docstring_writes_out_the_shared_text(cls):
    doc = cls.__doc__
    for text in _sections(cls):
        assert "\n" + text + "\n" in doc, (
            f"{cls.__name__}'s docstring is not up to date with the shared text starting "
            f"{text.splitlines()[0].strip()!r}: run python tests/test_docstrings.py --write"
        )


def test_no_docstring_keeps_a_placeholder():
    """The old placeholders (once filled in at import time) are gone from every class's
    docstring."""
    import bayeskit

    placeholder = re.compile(r"^\s*\{(tabular|kdb|em|em_attributes|params)\}\s*$", re.M)
    found = []
    for info in pkgutil.walk_packages(bayeskit.__path__, "bayeskit."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if inspect.isclass(obj) and obj.__module__ == info.name:
                if placeholder.search(obj.__doc__ or ""):
                    found.append(f"{info.name}.{name}")
    assert found == []


def test_write_replaces_the_run_of_entries_a_section_documents():
    """An out-of-date shared section is found by its entries' names and replaced whole; the
    entries around it are kept."""
    doc = """Model.

    Parameters
    ----------
    k : int
        Own.
    priors : array-like, optional
        Old text
        on two lines.
    prior_alpha : float, default=1.0
        Old.
    tol : float
        Own again.
    """
    section = (
        "    priors : array-like, optional\n        New.\n    prior_alpha : float\n        New."
    )
    out = _replace_run(doc, section)
    assert "\n" + section + "\n" in out
    assert "Old" not in out
    assert "    k : int\n        Own." in out
    assert out.endswith("    tol : float\n        Own again.\n    ")
    assert _replace_run(doc, "    missing : str\n        New.") is None


ORDER = ["Parameters", "Attributes", "Returns", "Yields", "Raises", "Warns", "See Also", "Notes",
         "References", "Examples"]  # fmt: skip


def test_public_docstrings_keep_numpydoc_section_order():
    """Each public class's and function's sections come in numpydoc's order."""
    pattern = re.compile(r"^(" + "|".join(ORDER) + r")\n-{3,}\s*$", re.M)
    wrong = []
    for name, obj in public_definitions().items():
        found = pattern.findall(inspect.getdoc(obj) or "")
        if [ORDER.index(s) for s in found] != sorted(ORDER.index(s) for s in found):
            wrong.append(f"{name}: {found}")
    assert wrong == []


@pytest.mark.parametrize("methods", [False, True], ids=["classes and functions", "methods"])
def test_every_public_name_has_its_numpydoc_sections(methods):
    """Every public class, function and method documents its Parameters, Returns, Raises
    (where its own body raises) and Examples, as ``--report`` counts them."""
    defs = public_methods() if methods else public_definitions()
    gaps = [
        f"{name}: {', '.join(missing(obj))}" for name, obj in sorted(defs.items()) if missing(obj)
    ]
    assert gaps == [], "run: python tests/test_docstrings.py --report" + (
        " --methods" if methods else ""
    )


# --------------------------------------------------------------------------------------------
# --write: the docstrings rewritten from the shared text
# --------------------------------------------------------------------------------------------


def _heads(text: str) -> list[str]:
    return [m.group(1) for line in text.splitlines() if (m := ENTRY.match(line))]


def _replace_run(doc: str, text: str) -> str | None:
    """``doc`` with its run of entries named as ``text``'s replaced by ``text``; None if it
    has no such run."""
    heads, lines = set(_heads(text)), doc.split("\n")
    start = next(
        (i for i, line in enumerate(lines) if (m := ENTRY.match(line)) and m.group(1) in heads),
        None,
    )
    if start is None:
        return None
    end = start
    while end < len(lines):
        m = ENTRY.match(lines[end])
        if not (m and m.group(1) in heads):
            break
        end += 1
        while end < len(lines) and lines[end].startswith("        "):
            end += 1
    return "\n".join([*lines[:start], text, *lines[end:]])


def write() -> list[str]:
    """Rewrite each listed docstring's shared sections in its source file; the classes whose
    docstring changed, and problems."""
    done = []
    for cls in SHARED:
        path = Path(inspect.getfile(cls))
        source = path.read_text("utf-8")
        node = next(
            n
            for n in ast.walk(ast.parse(source))
            if isinstance(n, ast.ClassDef) and n.name == cls.__name__
        )
        literal = node.body[0].value
        old = literal.value
        new = old
        for text in _sections(cls):
            if "\n" + text + "\n" in new:
                continue
            replaced = _replace_run(new, text)
            if replaced is None:
                done.append(f"{cls.__name__}: no entries of {_heads(text)}: place the text by hand")
                continue
            new = replaced
        if new == old:
            continue
        offsets = [0]
        for line in source.splitlines(keepends=True):
            offsets.append(offsets[-1] + len(line))
        a = offsets[literal.lineno - 1] + literal.col_offset
        b = offsets[literal.end_lineno - 1] + literal.end_col_offset
        assert source[a:b] == f'"""{old}"""', f"{cls.__name__}: a docstring with escapes"
        path.write_text(source[:a] + f'"""{new}"""' + source[b:], "utf-8")
        done.append(f"{cls.__name__}: rewritten in {path.name}")
    return done


# --------------------------------------------------------------------------------------------
# --report: public names lacking numpydoc sections
# --------------------------------------------------------------------------------------------

PACKAGES = [
    "bayeskit",
    "bayeskit.data",
    "bayeskit.stats",
    "bayeskit.estimate",
    "bayeskit.decision",
    "bayeskit.graphs",
    "bayeskit.factors",
    "bayeskit.inference",
    "bayeskit.learning",
    "bayeskit.networks",
    "bayeskit.classifiers",
    "bayeskit.sequences",
    "bayeskit.io",
    "bayeskit.dask",
    "bayeskit.evaluate",
    "bayeskit.plot",
]
SECTION = re.compile(r"^(Parameters|Attributes|Returns|Yields|Raises|Examples)\n-{3,}\s*$", re.M)


def public_definitions() -> dict[str, object]:
    """Each public class and function once, by its home: ``module.name``."""
    found: dict[str, object] = {}
    seen: set[int] = set()
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            obj = getattr(module, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)) or id(obj) in seen:
                continue
            seen.add(id(obj))
            found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return found


def public_methods() -> dict[str, object]:
    """Each public method of each public class once, by the class that defines it:
    ``module.Class.method`` (properties are attributes, documented by their class)."""
    found: dict[str, object] = {}
    seen: set[int] = set()
    for cls in public_definitions().values():
        if not inspect.isclass(cls):
            continue
        for klass in cls.__mro__:
            if not klass.__module__.startswith("bayeskit"):
                continue
            for name, member in vars(klass).items():
                func = member.__func__ if isinstance(member, classmethod | staticmethod) else member
                if name.startswith("_") or not inspect.isfunction(func) or id(func) in seen:
                    continue
                seen.add(id(func))
                found[f"{func.__module__}.{func.__qualname__}"] = func
    return found


def _raises(obj: object) -> bool:
    """Whether the function's own body raises (not counting functions nested in it)."""
    try:
        tree = ast.parse(inspect.cleandoc("\n" + inspect.getsource(obj)))
    except (OSError, TypeError, SyntaxError):
        return False
    todo = list(ast.iter_child_nodes(tree.body[0]))
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Raise) and node.exc is not None:
            return True
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            todo.extend(ast.iter_child_nodes(node))
    return False


def needed(obj: object) -> dict[str, bool]:
    """Section -> whether it applies to ``obj``."""
    target = obj.__init__ if inspect.isclass(obj) else obj
    try:
        params = [
            p
            for p in inspect.signature(target).parameters.values()
            if p.name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        ]
    except (TypeError, ValueError):
        params = []
    if inspect.isclass(obj) and obj.__init__ is object.__init__:
        params = []
    returns = False
    if inspect.isfunction(obj):
        annotation = inspect.signature(obj).return_annotation
        returns = annotation not in (None, "None", inspect.Signature.empty) or bool(
            inspect.isgeneratorfunction(obj)
        )
    exception = inspect.isclass(obj) and issubclass(obj, BaseException)
    return {
        "Parameters": bool(params),
        "Returns": returns,
        "Raises": inspect.isfunction(obj) and _raises(obj),
        "Examples": not exception,  # a warning's or an error's example is the raising call's
    }


def has(obj: object) -> set[str]:
    """The numpydoc sections of ``obj``'s docstring: Yields counts as Returns, and a record's
    (a dataclass's or named tuple's) Attributes as its Parameters, its fields."""
    found = set(SECTION.findall(inspect.getdoc(obj) or ""))
    record = dataclasses.is_dataclass(obj) or (inspect.isclass(obj) and hasattr(obj, "_fields"))
    if record and "Attributes" in found:
        found.add("Parameters")
    return found | ({"Returns"} if "Yields" in found else set())


def missing(obj: object) -> list[str]:
    """The sections ``obj``'s docstring lacks where they apply."""
    got = has(obj)
    return [s for s, w in needed(obj).items() if w and s not in got]


def report(methods: bool = False) -> str:
    rows: list[str] = []
    total = {section: [0, 0] for section in ("Parameters", "Returns", "Raises", "Examples")}
    defs = public_methods() if methods else public_definitions()
    for name, obj in sorted(defs.items()):
        want, got = needed(obj), has(obj)
        missing = [s for s, w in want.items() if w and s not in got]
        for s, w in want.items():
            total[s][0] += w
            total[s][1] += w and s in got
        if missing:
            rows.append(f"{name}: {', '.join(missing)}")
    kind = "public methods of public classes" if methods else "public classes and functions"
    lines = [*rows, "", f"{len(defs)} {kind}"]
    lines += [f"  {s}: {done} of the {n} it applies to" for s, (n, done) in total.items()]
    return "\n".join(lines)


if __name__ == "__main__":
    if "--write" in sys.argv[1:]:
        print("\n".join(write()) or "every docstring is up to date")
    elif "--report" in sys.argv[1:]:
        print(report(methods="--methods" in sys.argv[1:]))
    else:
        print(__doc__)
