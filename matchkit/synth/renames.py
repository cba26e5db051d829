"""Renamed players: who is called what, when.

A few registered players change their name during the window (``parameters.RENAMES``). A match
carries the player's name as it was at the match's start, so the included player snapshots show
the old name before the rename and the new one after; the service's ``filter[playerNames]``
finds the current holder of a name (decision 19). A rename either takes a new name (drawn from
its own random stream, so the other draws of the data set are untouched) or a name another
renamed player gave up earlier: a name belongs to one player at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction

from matchkit.errors import InvalidArgumentError
from matchkit.sampledata.parameters import RENAMES
from matchkit.sampledata.sampling import Draw
from matchkit.synth.population import Player, Population, _unique_name
from matchkit.synth.timeline import format_moment

__all__ = ["Rename", "Renames"]


@dataclass(frozen=True)
class Rename:
    """One player's change of name at a moment (matches from ``at`` on show ``new``)."""

    player_id: str
    old: str
    new: str
    at: datetime

    def record(self) -> dict[str, str]:
        """JSON-ready, for the manifest."""
        return {
            "player_id": self.player_id,
            "from": self.old,
            "to": self.new,
            "at": format_moment(self.at),
        }


class Renames:
    """The renames of one shard's population, and each player's name at a moment."""

    def __init__(
        self, seed: int, shard: str, population: Population, *, as_of: datetime, days: int
    ) -> None:
        draw = Draw(f"{seed}:{shard}:renames")
        used = {player.name for player in population.players}
        start = as_of - timedelta(days=days)
        seconds = days * 86400
        made: list[Rename] = []
        by_rank: dict[int, Rename] = {}
        for rank, fraction, takes_name_of in RENAMES[shard]:
            if rank > len(population.players):
                continue  # a small population has fewer players than the ranks named
            player = population.players[rank - 1]
            at = start + timedelta(seconds=int(Fraction(fraction) * seconds))
            if takes_name_of:
                given_up = by_rank.get(takes_name_of)
                if given_up is None or given_up.at >= at:
                    raise InvalidArgumentError(
                        f"rename of rank {rank} takes the name of rank {takes_name_of}, who "
                        "has not given it up before then",
                        parameter="RENAMES",
                    )
                new = given_up.old
            else:
                new = _unique_name(draw, used)
            rename = Rename(player.player_id, player.name, new, at)
            made.append(rename)
            by_rank[rank] = rename
        self.renames = tuple(made)
        self._by_player = {rename.player_id: rename for rename in made}

    def name(self, player: Player, moment: datetime) -> str:
        """The player's name at ``moment``."""
        rename = self._by_player.get(player.player_id)
        return rename.new if rename is not None and moment >= rename.at else player.name
