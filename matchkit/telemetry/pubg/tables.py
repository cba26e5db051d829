"""The tables of PubgTelemetryFrames, declared: which event types fill each, by which tree.

Every event table starts with ``match_id`` (the match's id, as ``matches.match_id``),
``event_index`` (the event's 0-based position in its file), ``time`` (its ``_D``, UTC) and
``phase`` (``common.isGame``); a table filled by several event types then has ``event_type``
(the ``_T``). Then come the columns its trees declare (:mod:`matchkit.telemetry.pubg.objects`),
the lead ones first, then members no tree declares (extra columns, each a problem).

Event types are those of PUBG's ``rst/telemetry-events.rst`` (HEAD 1037d54), spelled as the
recorded files spell them where they differ (``LogItemPickupFromLootBox``: the documentation
writes ``Lootbox``; both are read). A documented type without a table here goes to
``other_events``; an undocumented one too, and is counted as a problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from matchkit.model.schema import Column, Kind, TableSchema
from matchkit.telemetry.pubg.objects import (
    CHARACTER,
    COMMON,
    DAMAGE_INFO,
    GAME_RESULT,
    ITEM,
    LOCATION,
    SKIP,
    VEHICLE,
    Leaf,
    Node,
    Skip,
    leaves,
)

Members = Mapping[str, Leaf | Node | Skip]
"""An object's members by wire key."""

__all__ = [
    "DOCUMENTED_TYPES",
    "EVENT_TABLES",
    "EventTable",
    "Source",
    "event_root",
    "table_of_type",
]


def event_root(members: Members) -> Node:
    """An event's tree: its own members, and those every event has (``_T``, ``_D``, ``_V``,
    ``common``)."""
    return Node(
        {
            **members,
            "common": COMMON,
            "_T": SKIP,
            "_D": SKIP,
            "_V": Skip("before v2.0.0: the format's version"),
        }
    )


@dataclass(frozen=True)
class Source:
    """One event type a table is filled from, and its tree."""

    event_type: str
    tree: Node


@dataclass(frozen=True)
class EventTable:
    """A table of event rows.

    Attributes:
        name: the table's name.
        sources: the event types that fill it, each with its tree.
        lead: columns placed first (after the event columns), in this order.
        typed: whether its events may take the typed fast path (tables with nested lists are
            read the general way only: :mod:`matchkit.telemetry.pubg.nested`).
    """

    name: str
    sources: tuple[Source, ...]
    lead: tuple[str, ...] = ()
    typed: bool = True

    @cached_property
    def schema(self) -> TableSchema:
        """The table's declared columns (for DeclaredFrames, Parquet and the docs; made once)."""
        columns: dict[str, Column] = {
            "match_id": _derived("match_id", "string", "the match (= matches.match_id)"),
            "event_index": _derived("event_index", "Int64", "0-based position in its file"),
            "time": Column("time", "datetime", "attributes", "_D", "the event's _D, UTC"),
        }
        if len(self.sources) > 1:
            columns["event_type"] = Column("event_type", "category", "attributes", "_T")
        found: dict[str, Column] = {}
        for source in self.sources:
            for path, name, leaf in leaves(source.tree):
                column = _column(name, leaf, ".".join(path))
                if found.setdefault(name, column).kind != column.kind:
                    raise TypeError(f"{self.name}.{name}: two kinds in {source.event_type}")
        columns["phase"] = found.pop("phase")
        for name in self.lead:
            columns[name] = found.pop(name)
        columns.update(found)
        return TableSchema(self.name, "", ("match_id", "event_index"), tuple(columns.values()))


def _derived(name: str, kind: Kind, description: str) -> Column:
    return Column(name, kind, "derived", "", description)


def _column(name: str, leaf: Leaf, path: str) -> Column:
    kind: Kind = "string" if leaf.kind == "json" else leaf.kind
    return Column(name, kind, "attributes", path, leaf.description)


def _one(name: str, event_type: str, members: Members, lead: tuple[str, ...] = ()) -> EventTable:
    return EventTable(name, (Source(event_type, event_root(members)),), lead)


_KILLER_LOCATIONS = ("killer_x", "killer_y", "killer_z", "victim_x", "victim_y", "victim_z")
_DAMAGE: Members = {  # how a kill (LogPlayerKill), a knock or a hit was dealt: DamageInfo's columns
    "damageReason": DAMAGE_INFO.members["damageReason"],
    "damageTypeCategory": DAMAGE_INFO.members["damageTypeCategory"],
    "damageCauserName": DAMAGE_INFO.members["damageCauserName"],
}
_VICTIM_WEAPON: Members = {
    "victimWeapon": Leaf("victim_weapon", "string", "what the victim held"),
    "victimWeaponAdditionalInfo": Leaf("victim_weapon_additional_info", "json", strings=True),
}

_KILL_V2: Members = {
    "attackId": Leaf("attack_id", "Int64"),
    "dBNOId": Leaf("dbno_id", "Int64", "the knock it finished (-1: none)"),
    "victimGameResult": GAME_RESULT.under("victim_"),
    "victim": CHARACTER.under("victim_"),
    "victimVehicle": VEHICLE.under("victim_vehicle_"),
    **_VICTIM_WEAPON,
    "dBNOMaker": CHARACTER.under("dbno_maker_"),
    "dBNODamageInfo": DAMAGE_INFO.under("dbno_"),
    "finisher": CHARACTER.under("finisher_"),
    "finishDamageInfo": DAMAGE_INFO.under("finish_"),
    "killer": CHARACTER.under("killer_"),
    "killerDamageInfo": DAMAGE_INFO,
    "killerVehicle": VEHICLE.under("killer_vehicle_"),
    "assists_AccountId": Leaf("assist_ids", "json", "JSON list of account ids", strings=True),
    "teamKillers_AccountId": Leaf(
        "team_killer_ids", "json", "JSON list of account ids", strings=True
    ),
    "isSuicide": Leaf("is_suicide", "boolean"),
}
_KILL_V1: Members = {  # LogPlayerKill: the kill's DamageInfo members at the event's top level
    "attackId": _KILL_V2["attackId"],
    "killer": _KILL_V2["killer"],
    "victim": _KILL_V2["victim"],
    "assistant": CHARACTER.under("assistant_"),
    "dBNOId": _KILL_V2["dBNOId"],
    **{key: member for key, member in DAMAGE_INFO.members.items() if key != "additionalInfo"},
    "damageCauserAdditionalInfo": DAMAGE_INFO.members["additionalInfo"],
    **_VICTIM_WEAPON,
    "victimGameResult": _KILL_V2["victimGameResult"],
}

_KNOCK: Members = {
    "attackId": Leaf("attack_id", "Int64"),
    "attacker": CHARACTER.under("attacker_"),
    "victim": CHARACTER.under("victim_"),
    **{key: member for key, member in DAMAGE_INFO.members.items() if key != "additionalInfo"},
    "damageCauserAdditionalInfo": DAMAGE_INFO.members["additionalInfo"],
    **_VICTIM_WEAPON,
    "isAttackerInVehicle": Leaf("is_attacker_in_vehicle", "boolean"),
    "dBNOId": Leaf("dbno_id", "Int64", "this knock (LogPlayerKillV2.dBNOId, revives.dbno_id)"),
}

_DAMAGE_TAKEN: Members = {
    "attackId": Leaf("attack_id", "Int64", "-1 for the zone's damage"),
    "attacker": CHARACTER.under("attacker_"),
    "victim": CHARACTER.under("victim_"),
    **_DAMAGE,
    "damage": Leaf("damage", "float64", "health taken, after armour (1.0 = 1 health)"),
    "isThroughPenetrableWall": DAMAGE_INFO.members["isThroughPenetrableWall"],
}

_POSITION: Members = {
    "character": CHARACTER.under("player_"),
    "vehicle": VEHICLE.under("vehicle_"),
    "elapsedTime": Leaf("elapsed_time", "float64", "seconds since the match started"),
    "numAlivePlayers": Leaf("num_alive_players", "Int64"),
}

_GAME_STATE = Node(
    {
        "elapsedTime": Leaf("elapsed_time", "Int64", "seconds since the match started"),
        "numAliveTeams": Leaf("num_alive_teams", "Int64"),
        "numJoinPlayers": Leaf("num_join_players", "Int64"),
        "numStartPlayers": Leaf("num_start_players", "Int64"),
        "numAlivePlayers": Leaf("num_alive_players", "Int64"),
        "numStartTeams": Leaf("num_start_teams", "Int64"),
        "numParticipatedTeams": Leaf("num_participated_teams", "Int64"),
        "numParticipatedPlayers": Leaf("num_participated_players", "Int64"),
        # PUBG's safetyZone is the blue zone's circle (it closes in on the next safe zone), its
        # poisonGasWarning the next safe zone, the white circle (docs/telemetry-pubg.md).
        "safetyZonePosition": LOCATION.under("blue_zone_"),
        "safetyZoneRadius": Leaf("blue_zone_radius", "float64", "safetyZoneRadius, centimetres"),
        "poisonGasWarningPosition": LOCATION.under("safe_zone_"),
        "poisonGasWarningRadius": Leaf("safe_zone_radius", "float64", "poisonGasWarningRadius"),
        "redZonePosition": LOCATION.under("red_zone_"),
        "redZoneRadius": Leaf("red_zone_radius", "float64", "centimetres"),
        "blackZonePosition": LOCATION.under("black_zone_"),
        "blackZoneRadius": Leaf("black_zone_radius", "float64", "centimetres"),
    }
)

_PACKAGE: Members = {
    "itemPackage": Node(
        {
            "itemPackageId": Leaf("package_id", "string", "e.g. Carapackage_RedBox_C"),
            "location": LOCATION.under("package_"),
            "items": Skip("one row per item in care_package_items"),
        }
    )
}

_CHARACTER: Members = {"character": CHARACTER.under("player_")}
_ITEM: Members = {**_CHARACTER, "item": ITEM.under("item_")}
_ATTACHMENT: Members = {
    **_CHARACTER,
    "parentItem": ITEM.under("parent_item_"),
    "childItem": ITEM.under("item_"),
}
_TRUNK: Members = {**_ITEM, "vehicle": VEHICLE.under("vehicle_")}
_LOOT_BOX: Members = {
    **_ITEM,
    "ownerTeamId": Leaf("owner_team_id", "Int64", "the team of the dead player"),
    "creatorAccountId": Leaf("creator_id", "string", "the dead player's account id"),
}
_ITEM_EVENTS: tuple[tuple[str, Members], ...] = (
    ("LogItemPickup", _ITEM),
    ("LogItemEquip", _ITEM),
    ("LogItemUnequip", _ITEM),
    ("LogItemUse", _ITEM),
    ("LogItemDrop", _ITEM),
    ("LogItemAttach", _ATTACHMENT),
    ("LogItemDetach", _ATTACHMENT),
    ("LogItemPickupFromLootBox", _LOOT_BOX),
    ("LogItemPickupFromLootbox", _LOOT_BOX),
    (
        "LogItemPickupFromCarepackage",
        {**_ITEM, "carePackageUniqueId": Leaf("care_package_unique_id", "Int64")},
    ),
    ("LogItemPickupFromCustomPackage", _ITEM),
    ("LogItemPickupFromVehicleTrunk", _TRUNK),
    ("LogItemPutToVehicleTrunk", _TRUNK),
)

_RIDE: Members = {
    **_CHARACTER,
    "vehicle": VEHICLE.under("vehicle_"),
    "seatIndex": Leaf("seat_index", "Int64"),
    "fellowPassengers": Leaf("fellow_passengers", "json", "JSON list of Characters"),
}
_LEAVE: Members = {
    **_RIDE,
    "rideDistance": Leaf("ride_distance", "float64"),
    "maxSpeed": Leaf("max_speed", "float64"),
}
_VEHICLE_DESTROY: Members = {
    "attackId": Leaf("attack_id", "Int64"),
    "attacker": CHARACTER.under("attacker_"),
    "vehicle": VEHICLE.under("vehicle_"),
    "damageTypeCategory": DAMAGE_INFO.members["damageTypeCategory"],
    "damageCauserName": DAMAGE_INFO.members["damageCauserName"],
    "distance": Leaf("distance", "float64", "centimetres; -1 when none"),
}

_MATCH_START: Members = {
    "mapName": Leaf("map_name", "string", "the map's id, e.g. Baltic_Main (maps.MAP_SIZES)"),
    "weatherId": Leaf("weather_id", "string"),
    "characters": Leaf("characters", "json", "JSON list of the players at the start"),
    "cameraViewBehaviour": Leaf("camera_view_behaviour", "string", "e.g. FpsOnly"),
    "teamSize": Leaf("team_size", "Int64"),
    "isCustomGame": Leaf("is_custom_game", "boolean"),
    "isEventMode": Leaf("is_event_mode", "boolean"),
    "blueZoneCustomOptions": Leaf("blue_zone_custom_options", "string", "JSON text per phase"),
}
_DEFINITION: Members = {
    "MatchId": Leaf("definition_id", "string", "LogMatchDefinition.MatchId (ends with match_id)"),
    "PingQuality": Leaf("ping_quality", "string", "deprecated"),
    "SeasonState": Leaf("season_state", "string"),
}

EVENT_TABLES: tuple[EventTable, ...] = (
    EventTable(
        "kills",
        (
            Source("LogPlayerKillV2", event_root(_KILL_V2)),
            Source("LogPlayerKill", event_root(_KILL_V1)),
        ),
        (
            "killer_id",
            "victim_id",
            "dbno_maker_id",
            "finisher_id",
            "damage_causer_name",
            "damage_type_category",
            "damage_reason",
            "distance",
            "is_suicide",
            *_KILLER_LOCATIONS,
        ),
    ),
    _one("knocks", "LogPlayerMakeGroggy", _KNOCK, ("attacker_id", "victim_id", "dbno_id")),
    _one(
        "revives",
        "LogPlayerRevive",
        {
            "reviver": CHARACTER.under("reviver_"),
            "victim": CHARACTER.under("victim_"),
            "dBNOId": Leaf("dbno_id", "Int64", "the knock revived (= knocks.dbno_id)"),
            "useTraumaBag": Leaf("use_trauma_bag", "boolean"),
        },
        ("reviver_id", "victim_id", "dbno_id"),
    ),
    _one("damage", "LogPlayerTakeDamage", _DAMAGE_TAKEN, ("attacker_id", "victim_id", "damage")),
    _one(
        "positions",
        "LogPlayerPosition",
        _POSITION,
        ("player_id", "player_x", "player_y", "player_z", "elapsed_time", "num_alive_players"),
    ),
    _one("game_states", "LogGameStatePeriodic", {"gameState": _GAME_STATE}),
    EventTable(
        "care_packages",
        tuple(
            Source(kind, event_root(_PACKAGE))
            for kind in ("LogCarePackageSpawn", "LogCarePackageLand")
        ),
        typed=False,
    ),
    EventTable(
        "item_events",
        tuple(Source(kind, event_root(members)) for kind, members in _ITEM_EVENTS),
        ("player_id", "item_id", "item_category", "item_sub_category", "item_stack_count"),
    ),
    EventTable(
        "vehicles",
        (
            Source("LogVehicleRide", event_root(_RIDE)),
            Source("LogVehicleLeave", event_root(_LEAVE)),
            Source("LogVehicleDestroy", event_root(_VEHICLE_DESTROY)),
        ),
        ("player_id", "vehicle_id", "vehicle_type", "attacker_id"),
    ),
    _one(
        "landings",
        "LogParachuteLanding",
        {
            **_CHARACTER,
            "distance": Leaf("distance", "float64", "as on the wire"),
        },
        ("player_id", "player_x", "player_y", "player_z"),
    ),
    _one("match_start", "LogMatchStart", _MATCH_START, ("map_name",)),
    _one("match_definition", "LogMatchDefinition", _DEFINITION),
)
"""Every event table, in the order of PubgTelemetryFrames (``match_definition`` is folded into
``match_start``; LogMatchEnd's lists are read by :mod:`matchkit.telemetry.pubg.nested`)."""

_TABLE_OF_TYPE = {source.event_type: table for table in EVENT_TABLES for source in table.sources}


def table_of_type(event_type: str) -> EventTable | None:
    """The event table an event type fills, if one does."""
    return _TABLE_OF_TYPE.get(event_type)


DOCUMENTED_TYPES = frozenset(
    {
        *_TABLE_OF_TYPE,
        *(
            "LogArmorDestroy",
            "LogBlackZoneEnded",
            "LogCharacterCarry",
            "LogEmPickupLiftOff",
            "LogHeal",
            "LogMatchEnd",
            "LogObjectDestroy",
            "LogObjectInteraction",
            "LogPhaseChange",
            "LogPlayerAttack",
            "LogPlayerCreate",
            "LogPlayerDestroyBreachableWall",
            "LogPlayerDestroyProp",
            "LogPlayerLogin",
            "LogPlayerLogout",
            "LogPlayerRedeploy",
            "LogPlayerRedeployBRStart",
            "LogPlayerUseFlareGun",
            "LogPlayerUseThrowable",
            "LogRedZoneEnded",
            "LogSwimEnd",
            "LogSwimStart",
            "LogVaultStart",
            "LogVehicleDamage",
            "LogWeaponFireCount",
            "LogWheelDestroy",
        ),
    }
)
"""Every event type PUBG documents (rst/telemetry-events.rst), and the recorded files'
spellings: an event of any other type is kept in ``other_events`` and counted as a problem."""
