"""The package's structure, checked from its source text (parsed with ``ast``, never imported).

The layers
----------
bayeskit is built as one pipeline (see ``bayeskit/__init__.py``)::

    data --encode--> codes --count--> statistics --estimate--> tables --look up--> log P(c, x)
         --decide--> action

and each step is a package: ``bayeskit.data``, ``bayeskit.stats``, ``bayeskit.estimate``,
``bayeskit.networks``, ``bayeskit.classifiers`` and ``bayeskit.decision``. Each top-level module
(``evaluate``, ``dask``, ``io``, ``plot``, ``cli``, ``exceptions``, and the shared helpers
``_compiled``, ``_progress``, ``_text``, ``_warnings``, ...) counts as a package of its own, and
so does the CLI once it is a package (``bayeskit/cli/``). The rules:

1. No import cycles, between modules or between packages. A package's code should depend only on
   the layers below it, so that each layer can be read, tested and changed without the ones above
   it, and so that importing one module never half-imports another. An import inside a function
   ("lazy") is still an arrow: it hides the cycle from Python's import machinery, not from the
   design. Imports under ``if TYPE_CHECKING:`` are listed but are not arrows (nothing runs them).
   ``importlib.import_module("bayeskit.x")`` and the like, with the module's name written out as a
   string, count as lazy arrows ("dynamic").
2. No private names across packages. A name starting with one underscore (``_helper``, or a
   private module ``bayeskit.stats._kernels``) belongs to its package: other modules of that
   package may import it, other packages may not. What another package needs is public API, named
   without the underscore, so that a package can change its internals without breaking others.
   The top-level private modules (``bayeskit._compiled``, ``bayeskit._text``, ...) are the whole
   library's shared internals: any bayeskit module may import them, but not their private names.
3. No module over 600 lines and no function or method over 100 lines (physical lines, from the
   ``def`` to its last line, docstring included): beyond that, code is hard to review and to test
   piece by piece.

Today's code breaks these rules in places, listed below (KNOWN_*). Each test fails on a violation
that is not in its list (a new one: fix it rather than list it) and on a list entry that no longer
occurs (delete it from the list: the lists only shrink). Keys carry no line numbers, so edits
elsewhere in a file do not disturb them; the messages give the lines.

The CLI is one unit in the keys: every module of ``bayeskit.cli`` (the package ``cli/``, once the
module ``cli.py``) is keyed as ``bayeskit.cli``. ``KNOWN_CLI_LAYOUT`` says which layout
the lists were written for; while the source has the other one, stale CLI entries are tolerated
(and a skipped test says to update the lists), so the split can land without turning this red.

Run ``python tests/test_structure.py`` for the whole import graph and every violation.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
ROOT = "bayeskit"
CLI = "bayeskit.cli"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 100

MODULE_LEVEL, IN_FUNCTION, TYPE_CHECKING_ONLY, DYNAMIC = (
    "module-level",
    "in a function",
    "under TYPE_CHECKING",
    "dynamic",
)
ARROW_KINDS = frozenset({MODULE_LEVEL, IN_FUNCTION, DYNAMIC})


# ------------------------------------------------------------------------------------------------
# Today's violations. Delete an entry once it no longer occurs; never add one.
# ------------------------------------------------------------------------------------------------

KNOWN_CLI_LAYOUT = "package"  # "module": src/bayeskit/cli.py; "package": src/bayeskit/cli/

# "importer -> imported" for each import arrow between two modules of one import cycle
KNOWN_MODULE_CYCLE_ARROWS: set[str] = set()

# "importer -> imported" for each arrow between two packages of one package cycle
KNOWN_PACKAGE_CYCLE_ARROWS: set[str] = set()

# "importer -> imported private name" (the name dotted onto the module it is imported from)
KNOWN_PRIVATE_IMPORTS: set[str] = set()

# modules over MAX_MODULE_LINES lines
KNOWN_BIG_MODULES: set[str] = set()

# "module:qualified.name" of functions and methods over MAX_FUNCTION_LINES lines
KNOWN_BIG_FUNCTIONS: set[str] = set()


# ------------------------------------------------------------------------------------------------
# reading the source
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Import:
    importer: str  # module doing the import
    line: int
    kind: str  # MODULE_LEVEL, IN_FUNCTION, TYPE_CHECKING_ONLY or DYNAMIC
    target: str  # the bayeskit module the arrow points to
    dotted: str  # what is imported, in full: the module, or module.name


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    tree: ast.Module
    text: str
    lines: int


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Module]:
    found = {}
    for path in sorted((SRC / ROOT).rglob("*.py")):
        if (path.with_suffix("") / "__init__.py").exists():
            continue  # a module shadowed by a package of its name (Python imports the package)
        text = path.read_text(encoding="utf-8")
        name = _module_name(path)
        tree = ast.parse(text, str(path))
        found[name] = Module(name, path, tree, text, len(text.splitlines()))
    return found


def _is_package(name: str) -> bool:
    return modules()[name].path.name == "__init__.py"


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _resolve(importer: str, level: int, module: str | None) -> str:
    """The absolute name of ``from <dots><module> import ...`` written in ``importer``."""
    if level == 0:
        return module or ""
    base = importer.split(".")
    if not _is_package(importer):
        base = base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _known_module(dotted: str) -> str | None:
    """The longest bayeskit module that ``dotted`` starts with."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        name = ".".join(parts[:end])
        if name in modules():
            return name
    return None


def _statements(body: list[ast.stmt], kind: str):
    """Every statement under ``body``, with its import kind, not descending into expressions
    (imports and defs are statements): much faster than walking every node."""
    for node in body:
        yield node, kind
        inner = IN_FUNCTION if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else kind
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _statements(node.body, TYPE_CHECKING_ONLY)
            yield from _statements(node.orelse, kind)
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, field, None)
            if children:
                yield from _statements(children, inner)


def _imports_of(mod: Module) -> list[Import]:
    found: list[Import] = []

    def add(node: ast.AST, kind: str, dotted: str) -> None:
        target = _known_module(dotted)
        if target is not None:
            found.append(Import(mod.name, node.lineno, kind, target, dotted))

    for node, kind in _statements(mod.tree.body, MODULE_LEVEL):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(node, kind, alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(mod.name, node.level, node.module)
            for alias in node.names:
                add(node, kind, base if alias.name == "*" else f"{base}.{alias.name}")
    if f'"{ROOT}.' in mod.text or f"'{ROOT}." in mod.text:
        # importlib.import_module("bayeskit.x"), or a helper given ("bayeskit.x", "name")
        for node in ast.walk(mod.tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            first = node.args[0]
            if not (isinstance(first, ast.Constant) and first.value in modules()):
                continue
            dotted = first.value
            second = node.args[1] if len(node.args) > 1 else None
            if isinstance(second, ast.Constant) and isinstance(second.value, str):
                dotted = f"{dotted}.{second.value}"
            if first.value != mod.name:
                add(node, DYNAMIC, dotted)
    return found


@cache
def imports() -> tuple[Import, ...]:
    return tuple(imp for mod in modules().values() for imp in _imports_of(mod))


def package_of(module: str) -> str:
    """The layer a module belongs to: ``bayeskit.<sub>`` for a subpackage's modules, the module
    itself for a top-level module (``bayeskit.cli`` for every module of a CLI package)."""
    parts = module.split(".")
    return ".".join(parts[:2])


def key_of(module: str) -> str:
    """The name a module has in the KNOWN lists: the CLI's modules are all ``bayeskit.cli``."""
    return CLI if module == CLI or module.startswith(CLI + ".") else module


def cli_layout() -> str:
    return "package" if (SRC / ROOT / "cli" / "__init__.py").exists() else "module"


def where(imp: Import) -> str:
    return f"{modules()[imp.importer].path.relative_to(SRC.parent)}:{imp.line}"


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm, iterative; the components of more than one node."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    nodes = sorted(set(graph) | {t for ts in graph.values() for t in ts})
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(component)
    return found


# ------------------------------------------------------------------------------------------------
# the violations, each as {key: [message, ...]}
# ------------------------------------------------------------------------------------------------


def _cycle_arrows(node_of) -> dict[str, list[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    arrows: dict[tuple[str, str], list[Import]] = defaultdict(list)
    for imp in imports():
        if imp.kind not in ARROW_KINDS:
            continue
        a, b = node_of(imp.importer), node_of(imp.target)
        if a != b:
            graph[a].add(b)
            arrows[a, b].append(imp)
    found: dict[str, list[str]] = defaultdict(list)
    for component in _strongly_connected(graph):
        members = ", ".join(sorted(component))
        for (a, b), imps in sorted(arrows.items()):
            if a in component and b in component:
                key = f"{key_of(a)} -> {key_of(b)}"
                for imp in imps:
                    found[key].append(
                        f"{where(imp)}: [import cycle] {imp.importer} imports {imp.dotted} "
                        f"({imp.kind}); the cycle: {members}"
                    )
    return found


def module_cycle_violations() -> dict[str, list[str]]:
    return _cycle_arrows(lambda name: name)


def package_cycle_violations() -> dict[str, list[str]]:
    return _cycle_arrows(package_of)


def _private_owner(imp: Import) -> str | None:
    """The package whose private name ``imp`` imports, if any (None: nothing private)."""
    parts = imp.dotted.split(".")
    for i, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            owner = ".".join(parts[:i])
            return None if owner == ROOT else package_of(owner)
    return None


def private_import_violations() -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    for imp in imports():
        owner = _private_owner(imp)
        if owner is not None and owner != package_of(imp.importer):
            found[f"{key_of(imp.importer)} -> {imp.dotted}"].append(
                f"{where(imp)}: [private import] {imp.importer} ({package_of(imp.importer)}) "
                f"imports {imp.dotted}, private to {owner} ({imp.kind})"
            )
    return found


def big_module_violations() -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    for mod in modules().values():
        if mod.lines > MAX_MODULE_LINES:
            found[key_of(mod.name)].append(
                f"{mod.path.relative_to(SRC.parent)}: [module size] {mod.name} has {mod.lines} "
                f"lines, over {MAX_MODULE_LINES}"
            )
    return found


def big_function_violations() -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)

    def visit(mod: Module, body: list, prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qualname = prefix + node.name
                size = node.end_lineno - node.lineno + 1
                if not isinstance(node, ast.ClassDef) and size > MAX_FUNCTION_LINES:
                    found[f"{key_of(mod.name)}:{qualname}"].append(
                        f"{mod.path.relative_to(SRC.parent)}:{node.lineno}: [function size] "
                        f"{mod.name}.{qualname} has {size} lines, over {MAX_FUNCTION_LINES}"
                    )
                visit(mod, node.body, qualname + ".")
                continue
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                visit(mod, getattr(node, field, None) or [], prefix)

    for mod in modules().values():
        visit(mod, mod.tree.body, "")
    return found


# ------------------------------------------------------------------------------------------------
# the tests
# ------------------------------------------------------------------------------------------------


def _is_cli_key(key: str) -> bool:
    return any(key_of(part) == CLI for part in key.replace(" -> ", ":").split(":"))


def _check(rule: str, found: dict[str, list[str]], known: set[str]) -> None:
    new = sorted(set(found) - known)
    stale = sorted(key for key in known - set(found))
    if cli_layout() != KNOWN_CLI_LAYOUT:  # the CLI is being split: its old entries may go
        stale = [key for key in stale if not _is_cli_key(key)]
    problems = []
    for key in new:
        problems.append(f"NEW {rule} violation {key!r}: fix it (do not add it to the list):")
        problems.extend(f"    {message}" for message in found[key])
    for key in stale:
        problems.append(
            f"FIXED {rule} entry {key!r} no longer occurs: delete it from the list in "
            "tests/test_structure.py"
        )
    assert not problems, "\n".join(problems)


def test_the_source_parses_and_has_modules():
    assert f"{ROOT}.stats" in modules()
    assert any(imp.kind == IN_FUNCTION for imp in imports())
    assert any(imp.kind == MODULE_LEVEL for imp in imports())


def test_no_module_import_cycles():
    _check("module import cycle", module_cycle_violations(), KNOWN_MODULE_CYCLE_ARROWS)


def test_no_package_import_cycles():
    _check("package import cycle", package_cycle_violations(), KNOWN_PACKAGE_CYCLE_ARROWS)


def test_no_private_names_across_packages():
    _check("private import", private_import_violations(), KNOWN_PRIVATE_IMPORTS)


def test_no_module_over_600_lines():
    _check("module size", big_module_violations(), KNOWN_BIG_MODULES)


def test_no_function_over_100_lines():
    _check("function size", big_function_violations(), KNOWN_BIG_FUNCTIONS)


def test_the_lists_are_written_for_this_cli_layout():
    if cli_layout() != KNOWN_CLI_LAYOUT:
        pytest.skip(
            f"the CLI is now a {cli_layout()} (the KNOWN lists were written for a "
            f"{KNOWN_CLI_LAYOUT}): set KNOWN_CLI_LAYOUT = {cli_layout()!r} in "
            "tests/test_structure.py and delete the CLI entries that no longer occur"
        )


# ------------------------------------------------------------------------------------------------
# python tests/test_structure.py: the graph and every violation, for reading and for the lists
# ------------------------------------------------------------------------------------------------


def _report() -> None:
    by_kind: dict[str, int] = defaultdict(int)
    for imp in imports():
        by_kind[imp.kind] += 1
    print(f"{len(modules())} modules, {len(imports())} imports of bayeskit modules:")
    for kind, count in sorted(by_kind.items()):
        print(f"    {count} {kind}")
    print("\npackage arrows (importer -> imported: module-level / in a function / dynamic):")
    counts: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for imp in imports():
        a, b = package_of(imp.importer), package_of(imp.target)
        if a != b:
            counts[a, b][imp.kind] += 1
    for (a, b), kinds in sorted(counts.items()):
        text = " / ".join(str(kinds[k]) for k in (MODULE_LEVEL, IN_FUNCTION, DYNAMIC))
        extra = f" (+{kinds[TYPE_CHECKING_ONLY]} typing)" if kinds[TYPE_CHECKING_ONLY] else ""
        print(f"    {a} -> {b}: {text}{extra}")
    for title, found in (
        ("module cycle arrows", module_cycle_violations()),
        ("package cycle arrows", package_cycle_violations()),
        ("private imports", private_import_violations()),
        ("big modules", big_module_violations()),
        ("big functions", big_function_violations()),
    ):
        print(f"\n{len(found)} {title}:")
        for key in sorted(found):
            print(f"    {key!r},")
            for message in found[key]:
                print(f"        # {message}")


if __name__ == "__main__":
    _report()
    sys.exit(0)
