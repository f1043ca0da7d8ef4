"""bayeskit.plot.network: the layered drawing of a DAG, checked on its geometry. On every graph
(the issue's 5-node network, the bundled BIF networks, a TAN, seeded random DAGs): no two node
boxes overlap, no drawn edge segment enters a box other than its own two ends', every label's
rendered extent lies inside its box, and no two edges' paths lie on top of each other."""

from __future__ import annotations

from itertools import combinations, pairwise
from pathlib import Path

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch  # noqa: E402

from bayeskit import TAN  # noqa: E402
from bayeskit.data import datasets  # noqa: E402
from bayeskit.networks import DAG, read_bif  # noqa: E402
from bayeskit.plot import NETWORK_FONTSIZE, network  # noqa: E402

DATA = Path(__file__).parent / "networks" / "data"
#: How far (in data units: points of the layout) a segment may graze a box it must not enter.
TOL = 1e-6

# Class -> Survived and Class -> Age lay on top of Class -> Sex -> Survived -> Age.
FIVE = DAG(
    ["Class", "Sex", "Survived", "Age"],
    [
        ("Class", "Sex"),
        ("Sex", "Survived"),
        ("Survived", "Age"),
        ("Class", "Survived"),
        ("Class", "Age"),
    ],
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def random_dag(seed: int) -> DAG:
    """5-30 nodes with labels of 1-40 characters, about two parents each, some edges
    spanning many layers."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 31))
    stems = ["x", "Age", "HYPOVOLEMIA", "smoker status", "a_rather_long_variable_name", "$q$"]
    names = [f"{stems[int(rng.integers(len(stems)))]}{i}" for i in range(n)]
    names = [name * int(rng.integers(1, 3)) if len(name) < 12 else name for name in names]
    edges = []
    for j in range(1, n):
        for i in range(j):
            if rng.random() < min(0.6, 2.2 / j):
                edges.append((names[i], names[j]))
    return DAG(names, edges)


def tan_network():
    X, y = datasets.load("car")
    return TAN().fit(X, y).to_network()


def bif(name: str):
    return read_bif(DATA / f"{name}.bif.gz")


# ------------------------------------------------------------------ geometry checks
def enters(p, q, box, tol=TOL) -> bool:
    """Whether segment p-q meets the inside of ``box`` shrunk by ``tol`` (Liang-Barsky)."""
    x0, y0, x1, y1 = box[0] + tol, box[1] + tol, box[2] - tol, box[3] - tol
    (px, py), (qx, qy) = p, q
    dx, dy = qx - px, qy - py
    lo, hi = 0.0, 1.0
    for step, room in ((-dx, px - x0), (dx, x1 - px), (-dy, py - y0), (dy, y1 - py)):
        if step == 0:
            if room < 0:
                return False
        else:
            t = room / step
            if step < 0:
                lo = max(lo, t)
            else:
                hi = min(hi, t)
    return lo < hi


def on_side(point, box, side: str, tol=1e-6) -> bool:
    x, y = point
    y_side = box[1] if side == "bottom" else box[3]
    return abs(y - y_side) <= tol and box[0] - tol <= x <= box[2] + tol


def overlaps(a, b) -> bool:
    return a[0] < b[2] - TOL and b[0] < a[2] - TOL and a[1] < b[3] - TOL and b[1] < a[3] - TOL


def shared_length(s, t) -> float:
    """The length over which two segments lie on top of each other (0 unless collinear)."""
    p, q = np.asarray(s, dtype=float)
    r, u = np.asarray(t, dtype=float)
    d = q - p
    length = np.hypot(*d)
    if length == 0:
        return 0.0
    e = d / length
    normal = np.array([-e[1], e[0]])
    if abs((r - p) @ normal) > 1e-6 or abs((u - p) @ normal) > 1e-6:
        return 0.0
    a, b = sorted(((r - p) @ e, (u - p) @ e))
    return max(0.0, min(b, length) - max(a, 0.0))


def runs_alongside(s, t, gap=1.0) -> float:
    """How far segment t runs within ``gap`` of segment s (both ends of the stretch of t over
    s that close to s's line): two edges so close look like one."""
    p, q = np.asarray(s, dtype=float)
    r, u = np.asarray(t, dtype=float)
    length = np.hypot(*(q - p))
    e = (q - p) / length
    normal = np.array([-e[1], e[0]])
    a, b = (r - p) @ e, (u - p) @ e
    lo, hi = max(min(a, b), 0.0), min(max(a, b), length)
    if hi <= lo or a == b:
        return 0.0
    ends = [r + (x - a) / (b - a) * (u - r) for x in (lo, hi)]
    return hi - lo if all(abs((z - p) @ normal) < gap for z in ends) else 0.0


def check_drawing(dag: DAG, ax) -> None:
    """Every promise of the drawing, on ``ax`` where ``dag`` was drawn."""
    drawn = ax.bayeskit_network
    boxes = drawn.boxes
    assert set(boxes) == set(dag.nodes)
    assert set(drawn.edges) == set(dag.edges)
    assert len(ax.texts) == len(dag.nodes)  # one label per node
    for node, box in boxes.items():
        assert box[0] < box[2], node
        assert box[1] < box[3], node

    # no two boxes overlap
    for a, b in combinations(dag.nodes, 2):
        assert not overlaps(boxes[a], boxes[b]), (a, b)

    # parents above children
    for u, v in dag.edges:
        assert drawn.layers[u] < drawn.layers[v]
        assert boxes[u][1] > boxes[v][3]

    # each edge runs from its parent's bottom side to its child's top side, entering no box
    segments = []
    for (u, v), pts in drawn.edges.items():
        assert pts.shape[1:] == (2,)
        assert len(pts) >= 2
        assert on_side(pts[0], boxes[u], "bottom"), (u, v, pts[0], boxes[u])
        assert on_side(pts[-1], boxes[v], "top"), (u, v, pts[-1], boxes[v])
        for p, q in pairwise(pts):
            assert np.hypot(*(q - p)) > 0, (u, v)
            for node, box in boxes.items():
                assert not enters(p, q, box), f"{u} -> {v} passes through {node}"
            segments.append(((u, v), (p, q)))

    # no two edges share a stretch of line, or run so close (1 point) that they look as one
    for (e, s), (f, t) in combinations(segments, 2):
        if e != f:
            assert shared_length(s, t) < 1e-3, f"{e} lies on {f}"
            assert runs_alongside(s, t) < 4, f"{e} runs along {f}"

    # every label, as rendered, lies inside its box
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for node, text in drawn.labels.items():
        assert text.get_text() == str(node)
        assert text.get_fontsize() == pytest.approx(drawn.fontsize)
        extent = text.get_window_extent(renderer)
        (bx0, by0), (bx1, by1) = ax.transData.transform([boxes[node][:2], boxes[node][2:]])
        assert bx0 <= extent.x0, (node, extent, bx0)
        assert extent.x1 <= bx1, (node, extent, bx1)
        assert by0 <= extent.y0, (node, extent, by0)
        assert extent.y1 <= by1, (node, extent, by1)

    # what is recorded is what is drawn
    patches = [p for p in ax.patches if isinstance(p, FancyBboxPatch)]
    assert len(patches) == len(dag.nodes)
    drawn_boxes = sorted(
        (p.get_x(), p.get_y(), p.get_x() + p.get_width(), p.get_y() + p.get_height())
        for p in patches
    )
    np.testing.assert_allclose(drawn_boxes, sorted(boxes.values()))
    arrows = [p for p in ax.patches if isinstance(p, FancyArrowPatch)]
    assert len(arrows) == len(dag.edges)
    assert set(map(id, arrows)) == set(map(id, drawn.arrows.values()))


def test_the_checks_catch_what_they_check():
    box = (0.0, 0.0, 10.0, 4.0)
    assert enters((5, 10), (5, -10), box)  # straight through
    assert enters((-5, 2), (15, 3), box)
    assert not enters((5, 10), (5, 4), box)  # ends on its top side
    assert not enters((-5, 10), (-1, -10), box)  # passes beside it
    assert not enters((-5, 5), (15, 5), box)  # passes above it
    assert overlaps(box, (9.0, 3.0, 12.0, 8.0))
    assert not overlaps(box, (10.0, 0.0, 12.0, 4.0))  # touching sides
    assert shared_length(((0, 0), (0, 10)), ((0, 4), (0, 20))) == pytest.approx(6)
    assert shared_length(((0, 0), (0, 10)), ((0, 10), (0, 20))) == 0  # end to end
    assert shared_length(((0, 0), (0, 10)), ((0, 0), (1, 10))) == 0  # a shared end
    assert shared_length(((0, 0), (10, 10)), ((5, 5), (2, 2))) == pytest.approx(18**0.5)
    assert runs_alongside(((0, 0), (0, 10)), ((0.5, 2), (0.5, 30))) == pytest.approx(8)
    assert runs_alongside(((0, 0), (0, 10)), ((0.5, 2), (-0.5, 9))) == pytest.approx(7)
    assert runs_alongside(((0, 0), (0, 10)), ((2, 2), (2, 30))) == 0  # 2 apart
    assert runs_alongside(((0, 0), (0, 10)), ((-5, 0), (5, 10))) == 0  # crossing


# ------------------------------------------------------------------ the graphs
def test_the_issues_five_node_network_shows_all_five_edges(tmp_path):
    ax = network(FIVE)
    check_drawing(FIVE, ax)
    drawn = ax.bayeskit_network
    assert [drawn.layers[n] for n in ("Class", "Sex", "Survived", "Age")] == [0, 1, 2, 3]
    # the long edges are bent round the nodes between (a straight line would cross them)
    assert len(drawn.edges[("Class", "Survived")]) > 2
    assert len(drawn.edges[("Class", "Age")]) > 2
    ax.figure.savefig(tmp_path / "five.png")


@pytest.mark.parametrize("name", ["alarm", "asia", "cancer", "earthquake", "sachs", "survey"])
def test_bundled_networks(name, tmp_path):
    net = bif(name)
    ax = network(net, highlight=[net.nodes[0]])
    check_drawing(net.dag, ax)
    out = tmp_path / f"{name}.png"
    ax.figure.savefig(out, dpi=72)
    assert out.stat().st_size > 2_000


def test_alarm_edges_keep_off_the_boxes_they_used_to_cross():
    # ERRCAUTER -> HREKG and ERRLOWOUTPUT -> HRBP went through HR, TPR -> BP through HREKG
    net = bif("alarm")
    drawn = network(net).bayeskit_network
    for edge, node in [
        (("ERRCAUTER", "HREKG"), "HR"),
        (("ERRLOWOUTPUT", "HRBP"), "HR"),
        (("TPR", "BP"), "HREKG"),
    ]:
        pts = drawn.edges[edge]
        assert not any(enters(p, q, drawn.boxes[node]) for p, q in pairwise(pts))


def test_a_tan_keeps_its_class_box_clear_and_its_labels_whole():
    net = tan_network()
    ax = network(net, highlight=["class"])
    check_drawing(net.dag, ax)
    drawn = ax.bayeskit_network
    assert drawn.layers["class"] == 0
    assert all(drawn.layers[n] > 0 for n in net.nodes if n != "class")


@pytest.mark.parametrize("seed", range(20))
def test_random_dags(seed):
    dag = random_dag(seed)
    check_drawing(dag, network(dag))


def test_into_small_given_axes_the_font_shrinks_to_fit():
    net = bif("alarm")
    fig, ax = plt.subplots(figsize=(4, 3))
    assert network(net, ax) is ax
    check_drawing(net.dag, ax)
    assert ax.bayeskit_network.fontsize < NETWORK_FONTSIZE


def test_into_large_given_axes_the_drawing_is_not_blown_up():
    fig, ax = plt.subplots(figsize=(20, 15))
    network(FIVE, ax)
    check_drawing(FIVE, ax)
    assert ax.bayeskit_network.fontsize <= 1.5 * NETWORK_FONTSIZE


def test_components_isolated_nodes_and_empty_graphs():
    dag = DAG(
        ["lonely", "a", "b", "c", "d", "e", "also alone", 7],
        [("a", "b"), ("b", "c"), ("a", "c"), ("d", "e")],
    )
    check_drawing(dag, network(dag))
    check_drawing(DAG(["only"]), network(DAG(["only"])))
    check_drawing(DAG([f"v{i}" for i in range(30)]), network(DAG([f"v{i}" for i in range(30)])))
    ax = network(DAG())
    assert ax.bayeskit_network.boxes == {}


def test_wide_fan_in_and_fan_out():
    hub = [("hub", f"child {i}") for i in range(25)]
    sink = [(f"child {i}", "sink") for i in range(25)]
    dag = DAG(edges=hub + sink + [("hub", "sink")])
    check_drawing(dag, network(dag))


def test_a_150_node_network():
    rng = np.random.default_rng(7)
    n = 150
    edges = [
        (f"node{i}", f"node{j}")
        for j in range(1, n)
        for i in rng.choice(j, size=min(j, int(rng.integers(0, 4))), replace=False)
    ]
    dag = DAG([f"node{i}" for i in range(n)], edges)
    check_drawing(dag, network(dag))


@pytest.mark.parametrize("layout", ["dot", "spring"])
def test_the_old_layouts_are_deprecated_and_draw_the_layered_one(layout):
    with pytest.warns(FutureWarning, match=f"layout='{layout}' is deprecated"):
        ax = network(FIVE, layout=layout)
    check_drawing(FIVE, ax)


def test_refusals():
    with pytest.raises(ValueError, match="layout must be 'auto' or 'layered', got 'circle'"):
        network(FIVE, layout="circle")
    with pytest.raises(TypeError, match="BayesianNetwork, a HybridNetwork or a DAG"):
        network({"a": "b"})
