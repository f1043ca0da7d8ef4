"""The structure learners by name: what :meth:`BayesianNetwork.learn
<bayeskit.networks.BayesianNetwork.learn>`, the command line's ``network learn`` and structural
EM look a search up in.

Each learner takes the data (a DataFrame, data in chunks, or encoded rows) and a score, with its
own options (keyword arguments, named by :attr:`StructureLearner.options`), and returns a DAG
over the data's columns. A new search (PC-stable, MMHC, an exact search) is a module of this
package and one entry here (as PC-stable is, :mod:`.constraint`); whoever looks learners up by
name (the network classifier's ``structure`` too) then offers it, passing it those of their
settings it takes.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bayeskit.graphs.dag import DAG
from bayeskit.learning.constraint import check_pc_options, pc_dag
from bayeskit.learning.exact import check_exact_options, exact_dag
from bayeskit.learning.ges import check_ges_options, ges_dag
from bayeskit.learning.mmhc import check_mmhc_options, learn_mmhc
from bayeskit.learning.search import check_search_options, hill_climb, learn_tree

__all__ = [
    "LEARNER_ALIASES",
    "STRUCTURE_LEARNERS",
    "StructureLearner",
    "learn_structure",
    "structure_learner",
]


@dataclass(frozen=True)
class StructureLearner:
    """A structure search by name.

    Attributes
    ----------
    name : str
    learn : callable
        ``learn(data, score, **options)``: a DAG over the data's columns.
    tree : bool
        Whether the search takes the tree search's options (:func:`learn_tree`) rather than the
        hill climb's (:func:`hill_climb`).
    description : str
    check : callable, optional
        ``check(score, options)``: the option values checked without the data, for a
        learner whose options are neither the climb's nor the tree's (PC-stable's); an option
        the learner does not take is refused before it is called.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> a = rng.integers(0, 2, 1000)
    >>> data = pd.DataFrame({"a": a, "b": np.where(rng.random(1000) < 0.9, a, 1 - a)})
    >>> learner = STRUCTURE_LEARNERS["tree"]
    >>> learner.description, learner.learn(data, "bic").edges
    ('the Chow-Liu tree (a forest for a penalised score)', (('a', 'b'),))
    """

    name: str
    learn: Callable[..., DAG]
    tree: bool
    description: str
    check: Callable[[Any, Mapping[str, Any]], None] | None = None

    @property
    def options(self) -> tuple[str, ...]:
        """The names of the options ``learn`` takes: its parameters after the data and the
        score.

        Examples
        --------
        >>> "tabu_length" in structure_learner("hill-climb").options
        True
        >>> "tabu_length" in structure_learner("tree").options
        False
        """
        params = inspect.signature(self.learn).parameters
        return tuple(name for name in params if name not in ("data", "score"))

    def taken(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """Those of ``settings`` (option name -> value) the learner takes: how a caller with
        settings of its own (the command line, the network classifier) passes them on.

        Parameters
        ----------
        settings : mapping str -> object
            Option name -> value; names the learner does not take (:attr:`options`) are left
            out.

        Returns
        -------
        dict of str -> object
            The settings the learner takes, in ``settings``' order.

        Examples
        --------
        >>> structure_learner("tree").taken({"max_parents": 2, "ess": 5.0})
        {'ess': 5.0}
        """
        return {k: v for k, v in settings.items() if k in self.options}

    def check_options(self, score: Any, options: Mapping[str, Any]) -> None:
        """The score and ``options`` checked without the data (:func:`check_search_options`):
        TypeError naming an option the search does not take, ValueError naming a setting.

        Parameters
        ----------
        score : str
            The score's name (``"bic"``, ``"aic"``, ``"k2"``, ``"bdeu"``, ``"ll"``).
        options : mapping str -> object
            The search's options, as ``learn`` would take them.

        Raises
        ------
        TypeError
            An option the search does not take (the message lists those it takes).
        ValueError
            An unknown score, or an option's value out of its range.

        Examples
        --------
        >>> learner = structure_learner("hill-climb")
        >>> learner.check_options("bic", {"max_parents": 2})  # fine: nothing happens
        >>> learner.check_options("bic", {"root": "a"})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        TypeError: hill_climb takes no option 'root'; its options: max_parents, ...
        """
        if self.check is not None:
            unknown = [k for k in options if k not in self.options]
            if unknown:
                msg = (f"structure learner {self.name!r} takes no option {unknown[0]!r}; its "
                       f"options: {', '.join(self.options)}")  # fmt: skip
                raise TypeError(msg)
            self.check(score, options)
            return
        check_search_options(score, options, tree=self.tree)


#: Every structure learner, by the name the network's ``learn`` and the command line take.
STRUCTURE_LEARNERS: dict[str, StructureLearner] = {
    "hill-climb": StructureLearner(
        "hill-climb", hill_climb, False, "greedy hill climbing with a tabu list"
    ),
    "tree": StructureLearner(
        "tree", learn_tree, True, "the Chow-Liu tree (a forest for a penalised score)"
    ),
    "pc": StructureLearner(
        "pc",
        pc_dag,
        False,
        "PC-stable: tests of independence, then a DAG of the equivalence class found",
        check_pc_options,
    ),  # fmt: skip
    "mmhc": StructureLearner(
        "mmhc",
        learn_mmhc,
        False,
        "max-min hill climbing: the hill climb within the skeleton tests of independence find",
        check_mmhc_options,
    ),  # fmt: skip
    "ges": StructureLearner(
        "ges",
        ges_dag,
        False,
        "greedy equivalence search: inserting, then deleting, edges of equivalence classes",
        check_ges_options,
    ),  # fmt: skip
    "exact": StructureLearner(
        "exact",
        exact_dag,
        False,
        "the DAG of highest score, by dynamic programming over subsets (up to about 25 nodes)",
        check_exact_options,
    ),  # fmt: skip
}


#: Other names of learners, as bnlearn names them: ``"hc"`` and ``"tabu"`` are the hill climb,
#: a tabu search by default (``tabu_length=10``).
LEARNER_ALIASES: dict[str, str] = {"hc": "hill-climb", "tabu": "hill-climb"}


def structure_learner(name: Any) -> StructureLearner:
    """The learner named ``name``; ValueError listing the names otherwise.

    Parameters
    ----------
    name : str
        A key of :data:`STRUCTURE_LEARNERS`, or of :data:`LEARNER_ALIASES`.

    Returns
    -------
    StructureLearner
        The registry's entry: its ``learn`` function and the options it takes.

    Raises
    ------
    ValueError
        ``name`` is no learner's name; the message lists them.

    Examples
    --------
    >>> structure_learner("tree").learn.__name__
    'learn_tree'
    """
    if isinstance(name, str) and name in LEARNER_ALIASES:
        name = LEARNER_ALIASES[name]
    if not isinstance(name, str) or name not in STRUCTURE_LEARNERS:
        names = ", ".join(repr(n) for n in (*STRUCTURE_LEARNERS, *LEARNER_ALIASES))
        msg = f"structure learner must be one of {names}, got {name!r}"
        raise ValueError(msg)
    return STRUCTURE_LEARNERS[name]


def learn_structure(data: Any, score: str = "bic", *, algorithm: str = "hill-climb",
                    **options: Any) -> DAG:  # fmt: skip
    """Learn a DAG over ``data``'s columns with any structure learner, by name: the one entry
    to all of them (each is also a function of its own).

    Parameters
    ----------
    data : DataFrame, or chunks
        Complete data, one column per node (the learner says which kinds of column it
        takes), or data in chunks (:func:`~bayeskit.data.read_chunks`).
    score : {"bic", "aic", "k2", "bdeu", "ll", "bge"}, default="bic"
        The score of the score-based learners (the constraint-based PC-stable does not use
        it).
    algorithm : str, default="hill-climb"
        ``"hill-climb"`` (or ``"hc"``, ``"tabu"``): :func:`hill_climb`; ``"tree"``:
        :func:`learn_tree`; ``"pc"``: PC-stable, :func:`learn_pc`; ``"mmhc"``:
        :func:`learn_mmhc`; ``"ges"``: greedy equivalence search, :func:`learn_ges`;
        ``"exact"``: :func:`learn_exact` (:data:`STRUCTURE_LEARNERS` lists them).
    **options
        The learner's own options (:attr:`StructureLearner.options`), checked before the data
        is read.

    Returns
    -------
    DAG
        Nodes in ``data``'s column order; for a learner of equivalence classes (PC-stable,
        GES), a DAG of the class found.

    Raises
    ------
    TypeError
        An option the learner does not take (the message lists those it takes).
    ValueError
        An unknown learner or score, an option out of its range, or data the learner
        refuses.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> a = rng.integers(0, 2, 2000)
    >>> data = pd.DataFrame({"a": a, "b": np.where(rng.random(2000) < 0.9, a, 1 - a)})
    >>> learn_structure(data).edges
    (('a', 'b'),)
    >>> learn_structure(data, algorithm="pc", significance_level=0.01).edges
    (('a', 'b'),)
    """
    learner = structure_learner(algorithm)
    learner.check_options(score, options)
    return learner.learn(data, score, **options)
