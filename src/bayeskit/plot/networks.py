"""A Bayesian network's DAG drawn with matplotlib: the layered layout of
:mod:`bayeskit._layered`, its boxes sized to their labels in the font drawn, scaled to the
axes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bayeskit.plot._common import _pyplot

__all__ = ["NETWORK_FONTSIZE", "NetworkDrawing", "network"]

#: The labels' font size (points) in a figure :func:`network` makes; drawn into smaller axes,
#: the whole drawing, its font with it, is scaled down to fit.
NETWORK_FONTSIZE = 9.0
_NODE_COLOUR, _HIGHLIGHT_COLOUR, _EDGE_COLOUR = "#d1e5f0", "#f4a582", "#555555"
_PAD_X, _PAD_Y = 0.6, 0.4  # room between a label and its box's sides, in font sizes
_MAX_ZOOM = 1.5  # into large axes, a drawing is scaled up at most this much
_MAX_FIGURE_INCHES = 60.0  # the largest side of a figure network() makes


@dataclass
class NetworkDrawing:
    """The geometry of a network drawn by :func:`network`, kept on its axes as
    ``ax.bayeskit_network``. Coordinates are the axes' data coordinates.

    Attributes
    ----------
    boxes : dict
        Node -> ``(x0, y0, x1, y1)``, its box (left, bottom, right, top).
    edges : dict
        ``(parent, child)`` -> array of shape ``(k, 2)``: the polyline drawn, from a point on the
        bottom side of the parent's box to the arrow's tip on the top side of the child's.
    layers : dict
        Node -> its layer, 0 at the top; every edge goes down to a later layer.
    labels : dict
        Node -> its label (a matplotlib ``Text``).
    arrows : dict
        ``(parent, child)`` -> the edge's ``FancyArrowPatch``.
    fontsize : float
        The labels' font size, in points.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from bayeskit.networks import DAG
    >>> drawn = network(DAG(edges=[("rain", "wet grass")])).bayeskit_network
    >>> drawn.edges[("rain", "wet grass")].shape
    (2, 2)
    >>> drawn.boxes["rain"][1] > drawn.boxes["wet grass"][3]  # the parent above
    True
    """

    boxes: dict
    edges: dict
    layers: dict
    labels: dict
    arrows: dict
    fontsize: float


def network(net: Any, ax: Any = None, *, layout: str = "auto", highlight: Sequence = ()) -> Any:
    """Draw a Bayesian network's DAG (a :class:`~bayeskit.networks.BayesianNetwork` or a
    :class:`~bayeskit.networks.DAG`): nodes as labelled boxes, parents above their children,
    edges as arrows.

    The layout is layered, as graphviz's ``dot`` draws (Sugiyama, Tagawa & Toda 1981; Gansner
    et al. 1993), without needing graphviz: each node gets a layer and every edge goes down to
    a later one; an edge spanning several layers passes each layer in between through a gap of
    its own; the order within the layers is chosen by barycentre sweeps to keep crossings few;
    edges are straightened where that keeps them clear of the boxes. So no box overlaps another,
    no edge passes through a box other than its own two, and no two edges lie on top of each
    other (``A -> C`` beside ``A -> B -> C`` is routed round ``B``). Every box fits its whole
    label, measured in the font drawn; where the drawing must shrink to fit the axes, the font
    shrinks with it.

    Parameters
    ----------
    net : BayesianNetwork, HybridNetwork or DAG
    ax : matplotlib Axes, optional
        Where to draw. Its size when called sets the scale: resizing the figure afterwards can
        make labels overflow their boxes. Default: a new figure sized to the drawing, labels at
        :data:`NETWORK_FONTSIZE` points (smaller only past 60 inches a side).
    layout : {"auto", "layered"}, default="auto"
        Both draw the layered layout. ``"dot"`` and ``"spring"`` are deprecated (a
        ``FutureWarning``) and draw it too: their straight edges went through nodes.
    highlight : sequence of nodes, optional
        Nodes drawn in another colour (a query, the class).

    Returns
    -------
    matplotlib.axes.Axes
        Holding a label (``ax.texts``) and a box per node and an arrow per edge (``ax.patches``),
        and the geometry as ``ax.bayeskit_network``, a :class:`NetworkDrawing`.

    Raises
    ------
    TypeError
        If ``net`` is neither a BayesianNetwork nor a DAG.
    ValueError
        If ``layout`` is not one of the above.
    ImportError
        If matplotlib is not installed.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from bayeskit.networks import DAG
    >>> dag = DAG(edges=[("Class", "Sex"), ("Sex", "Survived"), ("Class", "Survived")])
    >>> drawn = network(dag, highlight=["Class"]).bayeskit_network
    >>> [drawn.layers[n] for n in ("Class", "Sex", "Survived")]
    [0, 1, 2]
    >>> len(drawn.edges[("Class", "Survived")]) > 2  # bent round Sex
    True
    """
    from bayeskit._layered import layered_layout

    dag = _dag_of(net, layout)
    plt = _pyplot()
    nodes = list(dag.nodes)
    index = {n: i for i, n in enumerate(nodes)}
    marked = {n for n in highlight if n in index}

    own = ax is None
    if own:
        fig, ax = plt.subplots()
        ax.set_position((0.0, 0.0, 1.0, 1.0))
    fig = ax.figure
    base = NETWORK_FONTSIZE
    texts = [_label(ax, n, base) for n in nodes]
    renderer = _renderer(fig)
    extents = _text_sizes(texts, renderer, fig.dpi)
    sizes = [(w + 2 * _PAD_X * base, h + 2 * _PAD_Y * base) for w, h in extents]
    geometry = layered_layout(len(nodes), [(index[u], index[v]) for u, v in dag.edges], sizes, base)
    scale = _fit_to_axes(ax, geometry, base, own)

    for t, box in zip(texts, geometry.boxes, strict=True):
        t.set_position(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))
    room = [(w + _PAD_X * base, h + _PAD_Y * base) for w, h in extents]  # half the padding
    fontsize = _fitting_font(texts, extents, room, scale, base, renderer, fig.dpi)
    arrows, polylines = _draw_dag(ax, dag, nodes, geometry, marked, scale, fontsize)
    ax.bayeskit_network = NetworkDrawing(
        boxes={n: tuple(map(float, b)) for n, b in zip(nodes, geometry.boxes, strict=True)},
        edges=polylines,
        layers=dict(zip(nodes, geometry.layers, strict=True)),
        labels=dict(zip(nodes, texts, strict=True)),
        arrows=arrows,
        fontsize=fontsize,
    )
    return ax


def _dag_of(net: Any, layout: str) -> Any:
    """The DAG of ``net`` (a BayesianNetwork, a HybridNetwork or a DAG), once ``layout`` is
    checked (the deprecated ones with a warning)."""
    from bayeskit._warnings import warn
    from bayeskit.networks import DAG, BayesianNetwork, HybridNetwork

    dag = net.dag if isinstance(net, BayesianNetwork | HybridNetwork) else net
    if not isinstance(dag, DAG):
        msg = f"network needs a BayesianNetwork, a HybridNetwork or a DAG, got {type(net).__name__}"
        raise TypeError(msg)
    if layout in ("dot", "spring"):
        warn(
            f"layout={layout!r} is deprecated and draws the layered layout (its straight edges "
            "went through nodes); pass layout='layered'",
            FutureWarning,
        )
    elif layout not in ("auto", "layered"):
        msg = f"layout must be 'auto' or 'layered', got {layout!r}"
        raise ValueError(msg)
    return dag


def _fit_to_axes(ax: Any, geometry: Any, base: float, own: bool) -> float:
    """Set the axes' limits to show the whole layout, centred (a figure of ``network``'s own,
    ``own``, first sized to it), and return the scale: points on the page per layout unit."""
    fig = ax.figure
    points = [(b[0], b[1]) for b in geometry.boxes] + [(b[2], b[3]) for b in geometry.boxes]
    points += [tuple(p) for path in geometry.paths for p in path]
    margin = 0.5 * base
    xs, ys = [p[0] for p in points] or [0.0], [p[1] for p in points] or [0.0]
    x0, x1, y0, y1 = min(xs) - margin, max(xs) + margin, min(ys) - margin, max(ys) + margin
    width, height = x1 - x0, y1 - y0
    if own:
        shrink = min(1.0, _MAX_FIGURE_INCHES * 72 / max(width, height))
        fig.set_size_inches(max(width * shrink, 36.0) / 72, max(height * shrink, 36.0) / 72)
    frame = ax.get_position()
    fig_w, fig_h = fig.get_size_inches() * 72
    ax_w, ax_h = frame.width * fig_w, frame.height * fig_h
    scale = min(ax_w / width, ax_h / height, _MAX_ZOOM)  # points on the page per layout unit
    if abs(scale - 1.0) < 1e-9:
        scale = 1.0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    ax.set_xlim(cx - ax_w / scale / 2, cx + ax_w / scale / 2)
    ax.set_ylim(cy - ax_h / scale / 2, cy + ax_h / scale / 2)
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_autoscale_on(False)
    ax.set_axis_off()
    return scale


def _draw_dag(ax: Any, dag: Any, nodes: list, geometry: Any, marked: set, scale: float,
              fontsize: float) -> tuple[dict, dict]:  # fmt: skip
    """A box per node (the ``marked`` ones highlighted) and an arrow per edge, along the
    layout's polylines; the arrows and the polylines, by edge."""
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch
    from matplotlib.path import Path as MplPath

    base = NETWORK_FONTSIZE
    line = max(0.3, min(1.0, scale))
    for node, box in zip(nodes, geometry.boxes, strict=True):
        ax.add_artist(  # add_patch would recompute the limits, slowly, for nothing
            FancyBboxPatch(
                (box[0], box[1]),
                box[2] - box[0],
                box[3] - box[1],
                boxstyle=f"round,pad=0,rounding_size={0.3 * base:g}",
                facecolor=_HIGHLIGHT_COLOUR if node in marked else _NODE_COLOUR,
                edgecolor="#4a6f8a",
                linewidth=0.6 * line,
                zorder=2,
            )
        )
    arrows, polylines = {}, {}
    for edge, pts in zip(dag.edges, geometry.paths, strict=True):
        arrows[edge] = ax.add_artist(
            FancyArrowPatch(
                path=MplPath(pts),
                arrowstyle="-|>",
                mutation_scale=0.9 * fontsize + 1.0,
                linewidth=0.9 * line,
                color=_EDGE_COLOUR,
                zorder=1,
            )
        )
        polylines[edge] = pts
    return arrows, polylines


def _label(ax: Any, node: Any, fontsize: float) -> Any:
    return ax.text(
        0.0,
        0.0,
        str(node),
        fontsize=fontsize,
        ha="center",
        va="center",
        zorder=3,
        parse_math=False,  # a '$' in a name is a dollar sign
    )


def _renderer(fig: Any) -> Any:
    """A renderer to measure text with: the figure's own, else an Agg one at its dpi."""
    get = getattr(fig.canvas, "get_renderer", None)
    if get is not None:
        return get()
    from matplotlib.backends.backend_agg import RendererAgg

    return RendererAgg(1, 1, fig.dpi)


def _text_sizes(texts: list, renderer: Any, dpi: float) -> list[tuple[float, float]]:
    """Each text's rendered width and height, in points."""
    out = []
    for t in texts:
        extent = t.get_window_extent(renderer)
        out.append((extent.width * 72 / dpi, extent.height * 72 / dpi))
    return out


def _fitting_font(texts, extents, room, scale, base, renderer, dpi) -> float:
    """The labels' font size: ``base * scale``, less where a label, drawn at that size, would
    not fit its ``room`` scaled by ``scale`` (text does not scale quite in proportion)."""
    fontsize = base * scale
    for _ in range(4):
        if fontsize != base:
            for t in texts:
                t.set_fontsize(fontsize)
            extents = _text_sizes(texts, renderer, dpi)
        worst = max(
            (
                max(w / (rw * scale), h / (rh * scale))
                for (w, h), (rw, rh) in zip(extents, room, strict=True)
            ),
            default=1.0,
        )
        if worst <= 1.0:
            break
        fontsize /= worst * 1.01
    return fontsize
