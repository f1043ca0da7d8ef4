"""Example networks bundled with bayeskit.

Eight small and medium discrete networks of the bnlearn Bayesian Network Repository ship with the
package as gzip-compressed BIF files next to this module (pgmpy's copies of the repository's
files, MIT licence; the ``README.md`` beside them names the source, the licence and each
network's reference). They are read with :mod:`importlib.resources`, so they also load from an
installed wheel or zip.

Examples
--------
>>> from bayeskit.networks.examples import NAMES, example_network
>>> NAMES
('asia', 'cancer', 'earthquake', 'survey', 'sachs', 'alarm', 'child', 'insurance')
>>> example_network("cancer")
BayesianNetwork(5 nodes, 4 edges, 10 parameters)
"""

from __future__ import annotations

from importlib import resources

from bayeskit.networks.bif import read_bif
from bayeskit.networks.network import BayesianNetwork

__all__ = ["NAMES", "example_network"]

#: The bundled networks, small ones first (as the bnlearn repository sorts them by size).
NAMES: tuple[str, ...] = (
    "asia",
    "cancer",
    "earthquake",
    "survey",
    "sachs",
    "alarm",
    "child",
    "insurance",
)


def example_network(name: str) -> BayesianNetwork:
    """A bundled example network, read from its BIF file.

    Parameters
    ----------
    name : str
        One of the networks of the bnlearn Bayesian Network Repository that ship with
        bayeskit (nodes, arcs and free parameters):

        - ``"asia"`` (8, 8, 18): Lauritzen and Spiegelhalter (1988), lung disease and a
          visit to Asia;
        - ``"cancer"`` (5, 4, 10): Korb and Nicholson, *Bayesian Artificial Intelligence*;
        - ``"earthquake"`` (5, 4, 10): Korb and Nicholson, the burglary alarm;
        - ``"survey"`` (6, 6, 21): Scutari and Denis, *Bayesian Networks with Examples in R*,
          transport survey;
        - ``"sachs"`` (11, 17, 178): Sachs et al. (2005), protein signalling;
        - ``"alarm"`` (37, 46, 509): Beinlich et al. (1989), patient monitoring;
        - ``"child"`` (20, 25, 230): Spiegelhalter and Cowell (1992), congenital heart
          disease in newborns;
        - ``"insurance"`` (27, 52, 1008): Binder et al. (1997), car insurance risk.

    Returns
    -------
    BayesianNetwork
        A new network each call (read by :func:`~bayeskit.networks.read_bif`), its nodes,
        states and CPTs as the file gives them.

    Raises
    ------
    ValueError
        If `name` is not one of the names above; the message lists them.

    References
    ----------
    M. Scutari. Bayesian Network Repository, https://www.bnlearn.com/bnrepository/. The files
    are pgmpy's copies (``pgmpy.utils.get_example_model``), MIT licence.

    Examples
    --------
    >>> from bayeskit.networks import example_network
    >>> net = example_network("asia")
    >>> net.nodes
    ('asia', 'tub', 'smoke', 'lung', 'bronc', 'either', 'xray', 'dysp')
    >>> net.dag.parents("either")
    ('lung', 'tub')
    >>> net.states("dysp")
    ('yes', 'no')
    >>> example_network("alarm").n_parameters
    509
    """
    if not isinstance(name, str) or name not in NAMES:
        msg = f"unknown example network {name!r}; known: {', '.join(NAMES)}"
        raise ValueError(msg)
    with resources.files(__name__).joinpath(f"{name}.bif.gz").open("rb") as stream:
        return read_bif(stream)
