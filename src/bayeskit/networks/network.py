"""Discrete Bayesian networks: a DAG and one conditional probability table per node.

``B = <G, Theta>`` (Zhou, *Machine Learning*, 7.5): ``G`` a :class:`~bayeskit.networks.DAG`,
``Theta`` the CPTs ``theta_{x_i | pi_i} = P(x_i | pi_i)``, and the joint probability their product
(Eq. 7.26). A node's CPT is a dense array in the axis order :mod:`bayeskit.stats` uses for a
family's counts: the parents first, in the order :meth:`DAG.parents` lists them, the node itself
last, so ``cpt[u_1, ..., u_m, :]`` is the distribution of the node given that parent
configuration and sums to 1. States are named per node, in the order of the CPT's axis.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.factors.cpd import CPD
from bayeskit.factors.states import encode_frame
from bayeskit.graphs.dag import DAG, Node
from bayeskit.networks import _network_helpers as helpers
from bayeskit.networks._fit import FitMethod, fit_cpts, learn_network

__all__ = ["BayesianNetwork", "encode_frame"]

#: How far a CPT's distribution may sum from 1 (files print probabilities with a few digits).
SUM_TOLERANCE = helpers.SUM_TOLERANCE


class BayesianNetwork:
    """A discrete Bayesian network.

    Parameters
    ----------
    dag : DAG, or list of (parent, child) pairs
        The structure; an edge list's nodes are ``cpts``' keys, in their order
        (:func:`~bayeskit.graphs.dag.as_dag`).
    cpts : mapping node -> array-like or CPD
        Each node's CPT, shape ``(*parent cardinalities, cardinality)`` with the parents in
        ``dag.parents(node)`` order; each distribution (last axis) non-negative, summing to 1
        within ``SUM_TOLERANCE`` (1e-6, as files print probabilities with a few digits). The
        stored rows (:meth:`cpt`) are the given rows divided by their sums, so they sum to 1
        to rounding and every inference method (variable elimination, the junction tree,
        the samplers, :meth:`probability`) works with the same distribution; a row that sums
        to 1 up to rounding is stored bit for bit as given. A node's CPT may instead be a
        :class:`~bayeskit.factors.CPD` of that node, read by name: its parents those the DAG
        gives the node (in any order: its table is transposed to the DAG's), its state names
        those of the network (in any order) for the node and each parent. The network holds
        one CPD per node, made once here (:meth:`cpd`).
    states : mapping node -> list of state names, optional
        Each node's state names, in the order of its CPT's last axis; by default the names
        its CPD gives, if it is given one, else "0", "1", ...
        Names are text: a name given as a number, a boolean or a numpy scalar is named by its
        canonical key (``0`` is ``"0"``, ``1.0`` is ``"1"``, ``True`` is ``"True"``), and a
        value of evidence or data finds a state by its name, else by that key
        (:mod:`bayeskit.factors.states`).

    Raises
    ------
    ValueError
        Naming the node: a CPT missing or extra, of the wrong shape, not finite, negative, or
        a row not summing to 1 within ``SUM_TOLERANCE``; two state names of one state
        (``["a", "a"]``, ``[1, "1"]``, both named) or not as many as the CPT's states; a CPD
        of another node, of other parents, or naming a variable's states otherwise than
        ``states`` (or the variable's own CPD) does.
    TypeError
        States given as text or a mapping instead of a list of names.

    Examples
    --------
    The network of Yang Yu's Nanjing lecture *Bayesian Classifiers* (C and S roots, W given C,
    B given C and S, A given B):

    >>> dag = DAG(edges=[("C", "W"), ("C", "B"), ("S", "B"), ("B", "A")])
    >>> T = ("T", "F")
    >>> net = BayesianNetwork(dag, {
    ...     "C": [0.8, 0.2], "S": [0.02, 0.98], "W": [[0.9, 0.1], [0.01, 0.99]],
    ...     "B": [[[0.9, 0.1], [0.2, 0.8]], [[0.9, 0.1], [0.01, 0.99]]],
    ...     "A": [[0.7, 0.3], [0.1, 0.9]]}, states=dict.fromkeys("CSWBA", T))
    >>> round(net.probability({"C": "T", "S": "F", "W": "T", "B": "T", "A": "T"}), 6)
    0.098784
    >>> net.n_parameters
    10

    The same kind of network from CPDs, states named by them:

    >>> rain = CPD("rain", [], [0.3, 0.7], {"rain": ["yes", "no"]})
    >>> wet = CPD("wet", ["rain"], [[0.9, 0.1], [0.2, 0.8]],
    ...           {"rain": ["yes", "no"], "wet": ["yes", "no"]})
    >>> net = BayesianNetwork(DAG(edges=[("rain", "wet")]), {"rain": rain, "wet": wet})
    >>> net.states("rain"), round(net.probability({"rain": "no", "wet": "yes"}), 2)
    (('yes', 'no'), 0.14)
    >>> net.cpd("wet") is net.cpd("wet"), net.cpt("wet").tolist()
    (True, [[0.9, 0.1], [0.2, 0.8]])
    """

    def __init__(
        self, dag: DAG, cpts: Mapping[Node, Any], states: Mapping[Node, Any] | None = None
    ):
        self._dag, self._states, self._cpds = helpers.build_cpds(dag, cpts, states)

    # ------------------------------------------------------------------ learning
    @classmethod
    def learn(
        cls,
        data: pd.DataFrame,
        structure: Any = "hill-climb",
        *,
        score: str = "bic",
        estimator: str = "bdeu",
        alpha: float | None = None,
        states: Mapping | None = None,
        sample_weight: Any = None,
        method: str = "count",
        discretize: str | Mapping | None = None,
        **search: Any,
    ) -> BayesianNetwork:
        """Learn a network from ``data``, one node per column: the structure, then the CPTs.

        Parameters
        ----------
        data : DataFrame, or chunks
            Complete data (``method="count"``), or with missing values (EM); data in chunks
            as :func:`~bayeskit.networks.learn_structure` takes it.
        structure : {"hill-climb", "tree"}, DAG, or list of (parent, child) pairs
            A structure learner's name (:data:`~bayeskit.learning.STRUCTURE_LEARNERS`):
            ``"hill-climb"``: :func:`~bayeskit.networks.learn_structure`; ``"tree"``:
            :func:`~bayeskit.networks.learn_tree`; both scored by ``score``, with ``search``'s
            options. A DAG or an edge list is taken as it is and only the CPTs are learned (an
            edge list's nodes are ``data``'s columns, in their order, and any node its edges
            name besides: :func:`~bayeskit.graphs.dag.as_dag`).
        score : {"bic", "aic", "k2", "bdeu", "ll"}, default="bic"
        estimator, alpha, states, sample_weight :
            As :func:`~bayeskit.networks.fit_parameters`. By default a column's states are its
            values, whole numbers in numeric order; a column of numbers not whole, or of more
            than 32 distinct whole numbers, is refused by name before anything is allocated
            (:mod:`bayeskit.factors.states`): bin it (``discretize``) or declare it
            categorical.
        method : {"count", "em", "gradient"}, default="count"
            ``"count"``: :func:`~bayeskit.networks.fit_parameters` from complete data; ``"em"``
            or ``"gradient"``: :func:`~bayeskit.networks.fit_em` from data with missing values
            and latent nodes, the structure given (``search`` then holds ``fit_em``'s options:
            ``latent``, ``start``, ``max_iter``, ``seed``, ...).
        discretize : str or mapping column -> str, optional
            Bin the numeric columns that cannot be nodes as they are: ``"equal-frequency:5"``
            or ``"equal-width:N"``; each becomes a node whose states are its bins, named as
            intervals (``"(-inf, 2.5]"``). A mapping bins the columns it names
            (:func:`~bayeskit.factors.states.discretize_frame`). A DataFrame only.
        **search :
            The search's options (``max_parents``, ``tabu_length``, ``start``, ``black_list``,
            ``white_list``, ``restarts``, ``root``, ...), or EM's.

        Returns
        -------
        BayesianNetwork

        Raises
        ------
        ValueError
            For a ``method`` other than those above, an unknown learner's name, ``discretize``
            with data in chunks, or EM without the structure given.
        TypeError
            For a search's options (``**search``) when the structure is given.

        See Also
        --------
        fit : a network's CPTs fitted to data, its structure and states kept.

        Examples
        --------
        >>> rng = np.random.default_rng(0)
        >>> a = rng.integers(0, 2, 3000)
        >>> b = np.where(rng.random(3000) < 0.9, a, 1 - a)
        >>> net = BayesianNetwork.learn(pd.DataFrame({"a": a, "b": b}))
        >>> net.dag.edges, net.cpt("b").round(1).tolist()
        ((('a', 'b'),), [[0.9, 0.1], [0.1, 0.9]])
        >>> x = rng.normal(size=3000) + 2 * b  # a measurement: binned into 3 states
        >>> net = BayesianNetwork.learn(pd.DataFrame({"b": b, "x": x}),
        ...                             discretize="equal-frequency:3")
        >>> len(net.states("x")), net.states("x")[0].startswith("(-inf, ")
        (3, True)
        """
        return learn_network(BayesianNetwork, data, structure, score=score, estimator=estimator,
                             alpha=alpha, states=states, sample_weight=sample_weight,
                             method=method, discretize=discretize, search=search)  # fmt: skip

    @FitMethod
    def fit(
        self,
        data: pd.DataFrame,
        *structure: Any,
        estimator: str = "bdeu",
        alpha: float | None = None,
        sample_weight: Any = None,
        method: str = "count",
        **em: Any,
    ) -> BayesianNetwork:
        """This network's CPTs fitted to ``data``, its DAG and its states kept: a new network.

        To learn a structure as well, call the class's :meth:`learn`:
        ``BayesianNetwork.learn(data)``. (Called on the class, ``BayesianNetwork.fit(data,
        ...)`` is the old spelling of ``learn``: it still learns, with a FutureWarning.)

        A new network is returned and this one is left as it is, as every operation on a
        network does: its CPTs are read-only and what is compiled from them (the junction
        tree, the sampler) is kept, so a fit in place (pgmpy's) would leave those stale. As
        scikit-learn's ``fit`` returns the fitted estimator, write ``net = net.fit(data)``.

        Parameters
        ----------
        data : DataFrame, or chunks
            A column per node (others are ignored). Each node keeps its states: data that
            shows only some of them is fine (the others are counted zero), a value that is no
            state is an error naming the column and the value.
        estimator, alpha, sample_weight :
            As :func:`~bayeskit.networks.fit_parameters`.
        method : {"count", "em", "gradient"}, default="count"
            ``"count"``: complete data; ``"em"`` or ``"gradient"``:
            :func:`~bayeskit.networks.fit_em`, for missing values, and for nodes with no
            column, latent (with the states this network gives them, unless ``latent=`` says
            otherwise).
        **em :
            With EM, :func:`~bayeskit.networks.fit_em`'s ``latent``, ``start`` (for example
            this network, to start from its CPTs), ``max_iter``, ``tol``, ``restarts``,
            ``seed``, ``progress``.

        Returns
        -------
        BayesianNetwork
            Over the same DAG and states.

        Raises
        ------
        TypeError
            For a structure or a search's option (``score``, ``max_parents``, ``states``,
            ...): ``fit`` keeps the structure; :meth:`learn` takes those.

        Examples
        --------
        >>> net = BayesianNetwork(DAG(edges=[("rain", "wet")]),
        ...     {"rain": [0.5, 0.5], "wet": [[0.5, 0.5], [0.5, 0.5]]},
        ...     states={"rain": ["no", "yes"], "wet": ["no", "yes"]})
        >>> data = pd.DataFrame({"rain": ["yes", "yes", "no", "no"],
        ...                      "wet": ["yes", "yes", "no", "yes"]})
        >>> fitted = net.fit(data, estimator="mle")
        >>> fitted.dag == net.dag, fitted.cpt("wet").tolist()
        (True, [[0.5, 0.5], [0.0, 1.0]])
        """
        return fit_cpts(self, BayesianNetwork, data, structure, estimator=estimator, alpha=alpha,
                        sample_weight=sample_weight, method=method, em=em)  # fmt: skip

    # ------------------------------------------------------------------ structure
    @property
    def dag(self) -> DAG:
        return self._dag

    @property
    def nodes(self) -> tuple[Node, ...]:
        return self._dag.nodes

    def states(self, node: Node) -> tuple[str, ...]:
        """The node's state names, in its CPT's order.

        Parameters
        ----------
        node : node
            One of the network's :attr:`nodes`; a KeyError names the nodes otherwise.

        Returns
        -------
        tuple of str
            The names, in the order of the last axis of :meth:`cpt`.

        Examples
        --------
        >>> BayesianNetwork(DAG(nodes=["a"]), {"a": [0.5, 0.5]}).states("a")
        ('0', '1')
        """
        return self._states[self._dag._check(node)]

    def cardinality(self, node: Node) -> int:
        """The node's number of states.

        Parameters
        ----------
        node : node
            One of the network's :attr:`nodes`; a KeyError names the nodes otherwise.

        Returns
        -------
        int

        Examples
        --------
        >>> BayesianNetwork(DAG(nodes=["a"]), {"a": [0.2, 0.3, 0.5]}).cardinality("a")
        3
        """
        return len(self.states(node))

    def cpt(self, node: Node) -> np.ndarray:
        """The node's CPT, a read-only array (:meth:`cpd` is the table with the states named).

        Parameters
        ----------
        node : node
            One of the network's :attr:`nodes`; a KeyError names the nodes otherwise.

        Returns
        -------
        ndarray of shape (parent cardinalities..., cardinality)
            Axes: the parents (:meth:`DAG.parents` order), then the node; each row sums to 1.

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> example_network("cancer").cpt("Xray").tolist()  # P(Xray | Cancer)
        [[0.9, 0.1], [0.2, 0.8]]
        """
        return self._cpds[self._dag._check(node)].values

    def cpd(self, node: Node) -> CPD:
        """The node's CPT labelled, ``P(node | parents)``: a
        :class:`~bayeskit.networks.CPD` that prints as a table of a row per configuration of
        the parents and a column per state of the node (text, and HTML in Jupyter), as
        pgmpy's ``TabularCPD`` and pyAgrum's ``bn.cpt`` do; ``to_frame()`` is that table as a
        DataFrame, ``to_factor()`` a :class:`~bayeskit.networks.Factor`, ``values`` the array
        of :meth:`cpt`. It is the node's conditional distribution the network holds (the same
        object each call; it cannot be changed).

        Parameters
        ----------
        node : node
            One of the network's :attr:`nodes`; a KeyError names the nodes otherwise.

        Returns
        -------
        CPD

        Examples
        --------
        >>> net = BayesianNetwork(DAG(edges=[("rain", "wet")]),
        ...     {"rain": [0.3, 0.7], "wet": [[0.9, 0.1], [0.2, 0.8]]},
        ...     states={"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> net.cpd("wet")
                   wet
        rain  yes   no
        yes   0.9  0.1
        no    0.2  0.8
        >>> net.cpd("wet").to_frame().loc["yes"].tolist()
        [0.9, 0.1]
        """
        return self._cpds[self._dag._check(node)]

    @property
    def n_parameters(self) -> int:
        """Free parameters ``|B| = sum_i (r_i - 1) prod_{j in pi_i} r_j``."""
        return helpers.free_parameters(self._dag, self._states)

    def __repr__(self) -> str:
        n, e = len(self.nodes), len(self._dag.edges)
        return f"BayesianNetwork({n} nodes, {e} edges, {self.n_parameters} parameters)"

    # ------------------------------------------------------------------ probabilities
    def log_probability(self, assignment: Mapping[Node, Any]) -> float:
        """``ln P(x_1, ..., x_d) = sum_i ln theta(x_i | pi_i)`` of a full assignment (Eq. 7.26).

        Parameters
        ----------
        assignment : mapping node -> state
            A state (by name) for every node of the network, and for no other.

        Returns
        -------
        float
            The natural log of the joint probability; -inf for an assignment of probability 0.

        Raises
        ------
        ValueError
            A node without a value, an unknown node, or a value that is no state of its node.

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> net = example_network("cancer")
        >>> x = dict(zip(net.nodes, ["low", "True", "False", "negative", "False"]))
        >>> round(net.log_probability(x), 4)
        -1.9196
        """
        return helpers.joint_log_probability(self._dag, self._cpds, self._states, assignment)

    def probability(self, assignment: Mapping[Node, Any]) -> float:
        """``P(x_1, ..., x_d) = prod_i theta(x_i | pi_i)`` of a full assignment (Eq. 7.26).

        Parameters
        ----------
        assignment : mapping node -> state
            A state for every node, and for no other (see :meth:`log_probability`).

        Returns
        -------
        float

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> net = example_network("cancer")
        >>> x = dict(zip(net.nodes, ["low", "True", "False", "negative", "False"]))
        >>> round(net.probability(x), 6)
        0.146664
        """
        return math.exp(self.log_probability(assignment))

    def encode(self, data: pd.DataFrame) -> np.ndarray:
        """The state index of every value of ``data`` (see :func:`encode_frame`).

        Parameters
        ----------
        data : DataFrame
            A column per node (others are ignored), values named as the node's states.

        Returns
        -------
        ndarray of int of shape (n_rows, n_nodes)
            Columns in :attr:`nodes` order, each value's position in :meth:`states`.

        Raises
        ------
        ValueError
            Naming the column: a node without a column, a missing value, or a value no state.

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> net = example_network("cancer")  # Pollution, Smoker, Cancer, Xray, Dyspnoea
        >>> net.encode(pd.DataFrame([["high", "True", "False", "positive", "False"]],
        ...                         columns=net.nodes))
        array([[1, 0, 1, 0, 1]])
        """
        return encode_frame(self.nodes, self._states, data)

    def kl_divergence(self, other: BayesianNetwork) -> float:
        """``KL(self || other)`` of the two joint distributions (nats), for ``other`` over the
        same DAG and states: by the chain rule, each node's CPT rows' divergence weighted by
        the probability of their parent configuration under ``self`` (exact marginals from
        the junction tree). What EM's estimates are measured by against the true network.
        ``other`` may list a node's parents or states in another order: its tables are read
        by name (:func:`aligned_cpts`); other state names are refused naming the node.

        Parameters
        ----------
        other : BayesianNetwork
            The approximating network, over the same DAG and state names.

        Returns
        -------
        float
            In nats, ``>= 0``; inf where ``other`` gives probability 0 to a state ``self`` does not.

        Examples
        --------
        >>> dag = DAG(edges=[("a", "b")])
        >>> p = BayesianNetwork(dag, {"a": [0.5, 0.5], "b": [[0.9, 0.1], [0.1, 0.9]]})
        >>> q = BayesianNetwork(dag, {"a": [0.5, 0.5], "b": [[0.5, 0.5], [0.5, 0.5]]})
        >>> round(p.kl_divergence(q), 4)  # 0.9 log 1.8 + 0.1 log 0.2
        0.3681
        """
        return helpers.network_divergence(self, other, self._exact())

    def log_likelihood(self, data: pd.DataFrame, *, per_row: bool = False) -> float | np.ndarray:
        """``sum_rows ln P(row)`` of complete data, or each row's when ``per_row``.

        One compiled pass of the look-up the classifiers share (:class:`~bayeskit.stats.lookup.
        FamilyTables`), each row's CPT entries' logs added in node order.

        Parameters
        ----------
        data : DataFrame
            Complete data, as :meth:`encode` takes it (a ValueError names a column otherwise).
        per_row : bool, default=False
            Return each row's log-likelihood instead of their sum.

        Returns
        -------
        float or ndarray of shape (n_rows,)
            Natural logs; -inf for a row of probability 0.

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> net = example_network("cancer")
        >>> rows = net.sample(2, seed=0)
        >>> net.log_likelihood(rows, per_row=True).round(3), round(net.log_likelihood(rows), 2)
        (array([-1.92, -1.92]), -3.84)
        """
        total = helpers.row_log_likelihoods(self._dag, self._cpds, self.encode(data))
        return total if per_row else float(total.sum())

    # ------------------------------------------------------------------ prediction
    def predict_proba(self, data: pd.DataFrame, node: Node) -> pd.DataFrame:
        """``P(node | the row's other columns)`` for every row of ``data``.

        Exact (:class:`~bayeskit.networks.ExactInference`: variable elimination, or a junction tree
        compiled once it pays, whichever costs less per group of rows), kept between calls.

        Parameters
        ----------
        data : DataFrame
            A row per case. Columns that are nodes are evidence (a missing value: not observed;
            the column of ``node`` itself, if any, is ignored), others are ignored.
        node : node
            The node to predict.

        Returns
        -------
        DataFrame of shape (n_rows, cardinality)
            A column per state of ``node`` (:meth:`states` order), ``data``'s index; rows sum to 1.

        Raises
        ------
        ZeroProbabilityEvidence
            A row's evidence has probability 0 (a ``ValueError``).

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> net = example_network("cancer")
        >>> net.predict_proba(pd.DataFrame({"Xray": ["positive", "negative"]}), "Cancer").round(3)
        Cancer   True  False
        0       0.050  0.950
        1       0.001  0.999
        """
        evidence = helpers.evidence_columns(data, self._dag, self._states, node)
        return self._exact().query_batch(node, evidence)

    def predict(self, data: pd.DataFrame, node: Node) -> pd.Series:
        """The most probable state of ``node`` for every row of ``data`` given its other
        columns (see :meth:`predict_proba`): fills a column from the others.

        Parameters
        ----------
        data : DataFrame
            The evidence, as :meth:`predict_proba` takes it.
        node : node
            The node to predict.

        Returns
        -------
        Series
            The state names, ``data``'s index, named ``node``; on ties, the first state.

        Examples
        --------
        >>> net = BayesianNetwork(DAG(edges=[("rain", "wet")]),
        ...     {"rain": [0.3, 0.7], "wet": [[0.9, 0.1], [0.2, 0.8]]},
        ...     states={"rain": ["yes", "no"], "wet": ["yes", "no"]})
        >>> net.predict(pd.DataFrame({"wet": ["yes", "no", None]}), "rain").tolist()
        ['yes', 'no', 'no']
        """
        proba = self.predict_proba(data, node)
        return helpers.most_probable(proba, self._states[self._dag._check(node)], data.index, node)

    def _exact(self):
        """The network's exact inference, made on first use and kept (plans, junction tree)."""
        return helpers.exact_inference(self)

    def _junction_tree(self):
        return self._exact().junction_tree

    def sample(self, n: int, seed: int | np.random.Generator | None = None) -> pd.DataFrame:
        """``n`` rows drawn by forward (ancestral) sampling: each node, parents first, from its
        CPT row.

        Parameters
        ----------
        n : int
            The number of rows, ``>= 0``.
        seed : int, Generator or None, default=None
            The random generator or its seed; None draws fresh entropy.

        Returns
        -------
        DataFrame of shape (n, n_nodes)
            Columns in :attr:`nodes` order, each categorical of the node's state names.

        Raises
        ------
        ValueError
            ``n`` not a non-negative integer, or a ``seed`` none of the above.

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> rows = example_network("cancer").sample(1000, seed=0)
        >>> rows.shape, list(rows["Xray"].cat.categories)
        ((1000, 5), ['positive', 'negative'])
        """
        return helpers.sample_rows(self, n, seed)
