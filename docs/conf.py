"""Sphinx configuration of the bayeskit site: user guide, API reference, gallery, contributors.

Nothing is downloaded at build time: the theme has no external links, maths is rendered by a
MathJax copied from the ``django-static-mathjax`` wheel (static files only, no Django), and
intersphinx reads the inventories stored in ``docs/_intersphinx``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import bayeskit

DOCS = Path(__file__).resolve().parent

project = "bayeskit"
author = "bayeskit developers"
copyright = "bayeskit developers"
release = bayeskit.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "myst_parser",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = ["_build", "_intersphinx", "**.ipynb_checkpoints", "auto_examples/*.ipynb"]
default_role = "obj"

# -- API reference -----------------------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"member-order": "groupwise"}
autodoc_typehints = "none"  # numpydoc's Parameters sections say the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()  # validation off for now
numpydoc_xref_param_type = False

# -- maths without a CDN -----------------------------------------------------------------------
# MathJax 3's full SVG build is one self-contained file (its fonts and every TeX extension, such
# as \boldsymbol, are inside: the plain tex-svg.js fetches extensions from input/tex/ on demand,
# which is not copied); it is copied from the installed wheel into _static at build time, so the
# repository holds no copy of it.
_MATHJAX = "tex-svg-full.js"


def _mathjax_file() -> Path | None:
    try:
        import mathjax  # the django-static-mathjax wheel: static files only
    except ImportError:
        return None
    path = Path(mathjax.__file__).parent / "static" / "mathjax" / "es5" / _MATHJAX
    return path if path.is_file() else None


mathjax_path = _MATHJAX


def _copy_mathjax(app, exception) -> None:
    source = _mathjax_file()
    if exception is None and app.builder.format == "html" and source is not None:
        static = Path(app.outdir) / "_static"
        static.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, static / _MATHJAX)


def _check_mathjax(app) -> None:
    if app.builder.format == "html" and _mathjax_file() is None:
        from sphinx.errors import ConfigError

        msg = (
            "MathJax not found: install the docs extra (pip install -e '.[docs]'), which "
            "brings django-static-mathjax, so that maths renders without a network"
        )
        raise ConfigError(msg)


def _skip_foreign_member(app, what, name, obj, skip, options):
    """Leave out the members scikit-learn's base classes add (metadata routing, set_output)."""
    module = getattr(obj, "__module__", None) or ""
    return True if module.split(".")[0] == "sklearn" else None


def setup(app) -> None:
    app.connect("builder-inited", _check_mathjax)
    app.connect("autodoc-skip-member", _skip_foreign_member)
    app.connect("build-finished", _copy_mathjax)


# -- links to other projects: stored inventories only --------------------------------------------
# Each inventory is read from docs/_intersphinx (see the README there); a project whose
# inventory is absent is simply not linked. The URLs are only where the links point.
_INVENTORIES = {
    "python": "https://docs.python.org/3",
    "numpy": "https://numpy.org/doc/stable",
    "pandas": "https://pandas.pydata.org/docs",
    "scikit-learn": "https://scikit-learn.org/stable",
    "networkx": "https://networkx.org/documentation/stable",
    "dask": "https://docs.dask.org/en/stable",
}
intersphinx_mapping = {
    name: (url, str(DOCS / "_intersphinx" / f"{name}.inv"))
    for name, url in _INVENTORIES.items()
    if (DOCS / "_intersphinx" / f"{name}.inv").is_file()
}
intersphinx_timeout = 1

# -- gallery -----------------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "reference_url": {"bayeskit": None},
    "show_memory": False,
    "show_signature": False,
    "matplotlib_animations": False,
    # the computation-times pages load DataTables from a CDN: not written
    "write_computation_times": False,
}

# -- HTML --------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"bayeskit {release}"
html_static_path: list[str] = []
html_show_sourcelink = False
# the theme mode a first visit gets (without it the theme logs an error and falls back to auto)
html_context = {"default_mode": "auto"}
html_theme_options = {
    "logo": {"text": "bayeskit"},
    "icon_links": [],
    "navbar_end": ["theme-switcher", "navbar-icon-links"],
    "use_edit_page_button": False,
    "show_prev_next": True,
    "navigation_with_keys": False,
    "footer_start": ["copyright"],
    "footer_end": [],  # no "Created using Sphinx" link: the site links nothing outside
}

myst_heading_anchors = 3
