"""The formats of an event, as pure functions with no Django (like games/engine/): who plays
whom, and how the results rank the players. The server's tournaments app stores what they
decide; tests check them on small known examples.

- `results`: the shared vocabulary (a pairing, its scores) and the standings with their
  tie-breaks;
- `roundrobin`: Berger tables, single or double;
- `swiss`: pairing by score, then rating, no pair twice, colours balanced, a bye;
- `arena`: re-pairing finished players at once, points with a streak bonus.
"""

from .arena import arena_pairs, arena_points
from .results import Pairing, Player, Standing, standings
from .roundrobin import berger_round, berger_rounds
from .swiss import swiss_round

__all__ = [
    "Pairing",
    "Player",
    "Standing",
    "arena_pairs",
    "arena_points",
    "berger_round",
    "berger_rounds",
    "standings",
    "swiss_round",
]
