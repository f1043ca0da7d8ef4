"""bayeskit.plot: density contours (Zaki & Meira Figs. 18.1-18.2) and decision regions, rendered
to PNG with the Agg backend."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import PathCollection  # noqa: E402
from matplotlib.contour import ContourSet  # noqa: E402

from bayeskit import FullBayes, KNNBayes, NaiveBayes  # noqa: E402
from bayeskit.classifiers import MultinomialNaiveBayes  # noqa: E402
from bayeskit.data import datasets  # noqa: E402
from bayeskit.exceptions import SchemaError  # noqa: E402
from bayeskit.plot import decision_regions, density_contours  # noqa: E402

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def iris_2d():
    # Zaki Example 18.1: sepal length and width, c1 = setosa, c2 = the other two species.
    X, y = datasets.load("iris")
    return X[["sepal_length", "sepal_width"]], np.where(y == "setosa", "c1", "c2")


def _contour_sets(ax):
    return [c for c in ax.collections if isinstance(c, ContourSet)]


def _scatters(ax):
    return [c for c in ax.collections if type(c) is PathCollection]


def _save(ax, path):
    ax.figure.savefig(path, dpi=72)
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE
    assert len(data) > 10_000  # a blank 460 x 345 PNG is about 2 kB
    return data


@pytest.mark.parametrize("model_class", [NaiveBayes, FullBayes], ids=lambda m: m.__name__)
def test_density_contours_renders(tmp_path, iris_2d, model_class):
    X, y = iris_2d
    model = model_class(discretize=None).fit(
        X, y
    )  # Gaussian densities (NaiveBayes bins by default)
    ax = density_contours(model, ("sepal_length", "sepal_width"), X=X, y=y, point=(6.75, 4.25))
    _save(ax, tmp_path / "density.png")
    sets = _contour_sets(ax)
    assert len(sets) == 2  # one per class
    for cs in sets:
        np.testing.assert_allclose(cs.levels, [0.01, 0.1, 0.5, 0.9])  # 1% of the peak included
    # the data of each class, the class means and the test point
    assert len(_scatters(ax)) == 2 + 2 + 1
    assert ax.get_xlabel() == "sepal_length"
    assert ax.get_ylabel() == "sepal_width"


def test_one_percent_curve_is_the_mahalanobis_ellipse(iris_2d):
    X, y = iris_2d
    model = FullBayes().fit(X, y)
    ax = density_contours(model, levels=[0.01])
    cs = _contour_sets(ax)[0]
    path = cs.get_paths()[0]
    pts = path.vertices[~np.isnan(path.vertices).any(axis=1)]
    diff = pts - model.means_[0]
    d2 = np.einsum("ij,jk,ik->i", diff, np.linalg.inv(model.covariance_[0]), diff)
    np.testing.assert_allclose(d2, 2 * np.log(100), rtol=0.02)  # f / f_max = exp(-d^2 / 2) = 1%


def test_density_contours_at_tiny_scales(iris_2d):
    # covariances ~1e-240: their determinant (~1e-480) underflows to 0, which an inverse and
    # determinant mistook for singular; the Cholesky-based log density draws them
    X, y = iris_2d
    model = FullBayes().fit(X * 1e-120, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ax = density_contours(model, levels=[0.01])
    assert len(_contour_sets(ax)) == 2
    path = _contour_sets(ax)[0].get_paths()[0]
    pts = path.vertices[~np.isnan(path.vertices).any(axis=1)] * 1e120
    reference = FullBayes().fit(X, y)
    diff = pts - reference.means_[0]
    d2 = np.einsum("ij,jk,ik->i", diff, np.linalg.inv(reference.covariance_[0]), diff)
    np.testing.assert_allclose(d2, 2 * np.log(100), rtol=0.02)


def test_density_contours_skips_a_singular_class_with_a_warning():
    X = pd.DataFrame({"a": [0.0, 1.0, 2.0, 5.0, 6.0, 8.0], "b": [1.0, 1.0, 1.0, 2.0, 4.0, 3.0]})
    model = NaiveBayes(discretize=None, var_smoothing=0.0).fit(
        X, [0, 0, 0, 1, 1, 1]
    )  # b constant in class 0
    with pytest.warns(UserWarning, match="class 0 has a singular 2 x 2 covariance"):
        ax = density_contours(model)
    assert len(_contour_sets(ax)) == 1


def test_density_contours_uses_given_axes_and_positions(iris_2d):
    X, y = iris_2d
    fig, ax = plt.subplots()
    out = density_contours(NaiveBayes(discretize=None).fit(X, y), (1, 0), ax=ax)
    assert out is ax
    assert ax.get_xlabel() == "sepal_width"
    assert len(_contour_sets(ax)) == 2


def test_decision_regions_renders(tmp_path):
    X, y = datasets.load("iris")
    model = KNNBayes().fit(X, y)
    ax = decision_regions(model, X, y, features=("petal_length", "petal_width"))
    _save(ax, tmp_path / "regions.png")
    assert len(_contour_sets(ax)) == 1  # the filled regions
    assert len(_scatters(ax)) == 3  # the data, one collection per class
    assert ax.get_xlabel() == "petal_length"


def test_decision_regions_holds_other_features_at_median_and_mode(tmp_path):
    rng = np.random.default_rng(0)
    n = 200
    y = rng.integers(0, 2, n)
    X = pd.DataFrame(
        {
            "colour": rng.choice(["red", "blue"], n),
            "a": rng.normal(y, 1.0),
            "b": rng.normal(-y, 1.0),
            "c": rng.normal(size=n),
        }
    )
    ax = decision_regions(NaiveBayes().fit(X, y), X, y)  # default: the first two numeric
    _save(ax, tmp_path / "mixed.png")
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("a", "b")
    assert len(_contour_sets(ax)) == 1


def test_decision_regions_on_arrays(tmp_path):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(100, 3))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    ax = decision_regions(NaiveBayes().fit(X, y), X, y, features=(0, 1))
    _save(ax, tmp_path / "array.png")
    assert ax.get_xlabel() == "x0"


def test_density_contours_refuses_models_without_normal_densities(iris_2d):
    X, y = iris_2d
    with pytest.raises(TypeError, match="NaiveBayes .* or FullBayes"):
        density_contours(KNNBayes().fit(X, y))


def test_density_contours_refuses_discretized_features_by_name(iris_2d):
    X, y = iris_2d
    with pytest.raises(ValueError, match=r"discretized \['sepal_length', 'sepal_width'\]"):
        density_contours(NaiveBayes(discretize="mdl").fit(X, y))


def test_categorical_and_unknown_features_are_refused():
    X = pd.DataFrame({"colour": ["r", "g", "r", "g"], "a": [1.0, 2, 3, 4], "b": [0.0, 1, 0, 1]})
    model = NaiveBayes(discretize=None).fit(X, [0, 0, 1, 1])
    with pytest.raises(ValueError, match="feature 'colour' is categorical"):
        density_contours(model, ("colour", "a"))
    with pytest.raises(SchemaError, match="unknown column 'size'"):
        decision_regions(model, X, [0, 0, 1, 1], features=("size", "a"))
    with pytest.raises(ValueError, match="levels must be fractions"):
        density_contours(model, ("a", "b"), levels=[1.5])


def test_decision_regions_needs_a_schema():
    X = np.array([[1, 0], [0, 2], [3, 1], [0, 4]])
    model = MultinomialNaiveBayes().fit(X, [0, 1, 0, 1])
    with pytest.raises(TypeError, match="no schema"):
        decision_regions(model, X, [0, 1, 0, 1])


def test_missing_matplotlib_names_the_extra(monkeypatch, iris_2d):
    X, y = iris_2d
    model = NaiveBayes(discretize=None).fit(X, y)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r"pip install bayeskit\[plot\]"):
        density_contours(model)


def test_decision_regions_holds_an_integer_column_at_a_fractional_median(tmp_path):
    pytest.importorskip("matplotlib")
    from bayeskit import NaiveBayes
    from bayeskit.plot import decision_regions

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=40), "b": rng.normal(size=40), "cnt": np.arange(40)})
    y = (X["a"] > 0).astype(int)
    ax = decision_regions(NaiveBayes().fit(X, y), X, y, features=("a", "b"))
    assert ax.collections


def test_decision_regions_defaults_to_the_separating_features_and_says_what_is_held():
    from bayeskit import NaiveBayes
    from bayeskit.data import datasets
    from bayeskit.plot import decision_regions

    X, y = datasets.load("iris")
    model = NaiveBayes(discretize=None).fit(X, y)
    ax = decision_regions(model, X, y)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("petal_length", "petal_width")
    assert ax.get_title() == "NaiveBayes: predicted class over petal_length and petal_width"
    assert set(ax.bayeskit_held) == {"sepal_length", "sepal_width"}
    assert ax.bayeskit_held["sepal_length"] == pytest.approx(float(X["sepal_length"].median()))
    notes = [t.get_text() for t in ax.texts]
    assert any("held at" in t and "sepal_length=5.8" in t for t in notes)
    # not one solid region: the plotted features decide between all three classes
    (regions,) = [c for c in ax.collections if isinstance(c, ContourSet)]
    assert [len(segments) > 0 for segments in regions.allsegs] == [True, True, True]


def test_density_contours_have_a_title_and_labelled_levels():
    from bayeskit import FullBayes
    from bayeskit.data import datasets
    from bayeskit.plot import density_contours

    X, y = datasets.load("iris")
    ax = density_contours(FullBayes().fit(X, y), ("petal_length", "petal_width"))
    assert "class densities of petal_length and petal_width" in ax.get_title()
    assert "1%, 10%, 50%, 90%" in ax.get_title()
    labels = {t.get_text() for t in ax.texts}
    assert {"1%", "50%"} <= labels


# ---------------------------------------------------------------- networks
def test_network_renders_alarm_into_given_axes(tmp_path):
    # the geometry of these drawings is checked in test_plot_network.py
    from pathlib import Path

    from bayeskit.networks import read_bif
    from bayeskit.plot import network

    net = read_bif(Path(__file__).parent / "networks" / "data" / "alarm.bif.gz")
    fig, ax = plt.subplots(figsize=(12, 9))
    for layout in ("auto", "layered"):
        ax.clear()
        assert network(net, ax, layout=layout, highlight=[net.nodes[0]]) is ax
        assert len(ax.texts) == len(net.nodes)  # one label per node
    out = tmp_path / "net.png"
    fig.savefig(out)
    assert out.stat().st_size > 10_000
    plt.close(fig)
    with pytest.raises(ValueError, match="layout must be"):
        network(net, layout="circle")
    with pytest.raises(TypeError, match="BayesianNetwork, a HybridNetwork or a DAG"):
        network({"a": "b"})
