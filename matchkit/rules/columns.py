"""How a profile's documents map to the model's columns: a :class:`ColumnMap`, declared as data.

The normalizer (:mod:`matchkit.normalize`) reads the map of the profile whose documents it
reads; it never asks which profile that is. A map says:

- which wire members become which columns, of which kind (:class:`WireColumn`): a member mapped
  onto a column of the model (PUBG's ``attributes.matchType`` onto ``matches.match_type``), or a
  column of the profile's own, which every table of its documents then has, typed, even when no
  document carried the member (PUBG's ``stats.DBNOs`` as ``dbnos``, not ``dbn_os``);
- which participant stats member holds the player's id (PUBG: ``stats.playerId``; the
  Gamelocker documents link a ``player`` resource instead);
- which id prefix makes a participant which kind (PUBG: ``account.`` registered, ``ai.`` a bot);
- which game modes are battle royales (``matches.is_royale``).

Kinds are the model's column kinds (``string``, ``category``, ``Int64``, ``boolean``,
``float64``, ``datetime``), written here as text because the rules do not import the model; a
contract test holds them to :data:`matchkit.model.schema.KINDS`. A profile's own column is never
``category``: combining frames keeps an extra column's dtype only when it does not depend on the
values (categories do), so text is ``string``; a member mapped onto a model column takes the
model's kind.

Example:
    >>> PUBG_COLUMNS.column_of("participant", "stats", "DBNOs").column
    'dbnos'
    >>> PUBG_COLUMNS.kind_of_id("ai.349")
    'bot'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = ["GAMELOCKER_COLUMNS", "PUBG_COLUMNS", "ColumnMap", "WireColumn"]


@dataclass(frozen=True)
class WireColumn:
    """A wire member and the column it becomes.

    Attributes:
        resource: the JSON:API type that carries it (``participant``).
        section: ``attributes`` or ``stats``.
        member: the member's wire name (``DBNOs``).
        column: the column's name (``dbnos``).
        kind: the column's kind (a model kind, as text).
        description: one line for the docs.
    """

    resource: str
    section: str
    member: str
    column: str
    kind: str
    description: str = ""


@dataclass(frozen=True)
class ColumnMap:
    """How one profile's documents map to the model (see the module).

    Attributes:
        columns: the members it maps, each to its column.
        player_id_member: the participant stats member holding the player's id, if any.
        kinds_by_prefix: player id prefix -> participant kind (``registered`` or ``bot``).
        royale_game_modes: the ``gameMode`` values of battle royales.
    """

    columns: tuple[WireColumn, ...] = ()
    player_id_member: str | None = None
    kinds_by_prefix: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    royale_game_modes: frozenset[str] = frozenset()

    def of(self, resource: str) -> tuple[WireColumn, ...]:
        """The mapped members of one resource type."""
        return tuple(column for column in self.columns if column.resource == resource)

    def column_of(self, resource: str, section: str, member: str) -> WireColumn:
        """The mapping of one member.

        Raises:
            KeyError: the map does not name it.
        """
        for column in self.columns:
            if (column.resource, column.section, column.member) == (resource, section, member):
                return column
        raise KeyError((resource, section, member))

    def kind_of_id(self, player_id: str) -> str | None:
        """The participant kind a player id's prefix says, or ``None``."""
        for prefix, kind in self.kinds_by_prefix.items():
            if player_id.startswith(prefix):
                return kind
        return None


GAMELOCKER_COLUMNS = ColumnMap()
"""The model's columns are the Gamelocker documents' own (``docs/model.md``)."""


def _stats(resource: str, spec: str) -> tuple[WireColumn, ...]:
    """Stats columns from ``"member:column:kind ..."``."""
    columns = []
    for item in spec.split():
        member, column, kind = item.split(":")
        columns.append(WireColumn(resource, "stats", member, column, kind))
    return tuple(columns)


_PUBG_PARTICIPANT_STATS = _stats(
    "participant",
    "DBNOs:dbnos:Int64 boosts:boosts:Int64 damageDealt:damage_dealt:float64 "
    "deathType:death_type:string headshotKills:headshot_kills:Int64 heals:heals:Int64 "
    "killPlace:kill_place:Int64 killStreaks:kill_streaks:Int64 longestKill:longest_kill:float64 "
    "name:name:string revives:revives:Int64 rideDistance:ride_distance:float64 "
    "roadKills:road_kills:Int64 swimDistance:swim_distance:float64 "
    "teamKills:team_kills:Int64 timeSurvived:time_survived:float64 "
    "vehicleDestroys:vehicle_destroys:Int64 walkDistance:walk_distance:float64 "
    "weaponsAcquired:weapons_acquired:Int64 winPlace:win_place:Int64",
)

PUBG_COLUMNS = ColumnMap(
    columns=(
        WireColumn(
            "match",
            "attributes",
            "matchType",
            "match_type",
            "category",
            "official, arcade, custom, event, ...",
        ),
        WireColumn(
            "match",
            "attributes",
            "mapName",
            "map_name",
            "string",
            "the map's id, e.g. Baltic_Main (Erangel)",
        ),
        WireColumn("match", "attributes", "isCustomMatch", "is_custom_match", "boolean"),
        WireColumn("match", "attributes", "seasonState", "season_state", "string"),
        WireColumn("roster", "stats", "rank", "rank", "Int64", "the roster's placement, 1 won"),
        WireColumn(
            "roster",
            "stats",
            "teamId",
            "team_number",
            "Int64",
            "the roster's team number in the match (telemetry's teamId)",
        ),
        *_PUBG_PARTICIPANT_STATS,
        WireColumn("player", "attributes", "createdAt", "created_at", "datetime"),
        WireColumn("player", "attributes", "updatedAt", "updated_at", "datetime"),
        WireColumn("player", "attributes", "banType", "ban_type", "string"),
        WireColumn("player", "attributes", "clanId", "clan_id", "string"),
    ),
    player_id_member="playerId",
    kinds_by_prefix=MappingProxyType({"account.": "registered", "ai.": "bot"}),
    royale_game_modes=frozenset(
        f"{prefix}{size}{view}"
        for prefix in ("", "normal-", "esports-")
        for size in ("solo", "duo", "squad")
        for view in ("", "-fpp")
    ),
)
"""PUBG's documents (``../shared/pubg/``): player ids and kinds from ``stats.playerId``, typed
stats, the map and match type, players' times."""
