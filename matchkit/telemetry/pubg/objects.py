"""The objects of PUBG's telemetry, declared as trees of members -> columns.

A telemetry event is a JSON object whose members are scalars, lists or objects (a Character, a
Vehicle, an Item, ...: PUBG's ``rst/telemetry-objects.rst``). Each table of
:class:`matchkit.telemetry.pubg.frames.PubgTelemetryFrames` is declared by such a tree
(:class:`Node`): a member is a :class:`Leaf` (one column), a nested :class:`Node` (its members'
columns, names prefixed), or :data:`SKIP` (read, not kept as a column: the event's ``_T`` and
``_D``, read for every event by :mod:`matchkit.telemetry.pubg.split`). A member a tree does not
declare is an extra column named by the same rule, and a problem.

Members are declared as PUBG documents them (api-documentation-content, HEAD 1037d54, 2025-05-19)
and as the recorded files in ``../shared/pubg/`` carry them where the two differ (decision 21):
the documentation lists ``Character.individualRanking``, ``isInVehicle``, ``inSpecialZone`` and
``type`` nowhere, the 2025 file carries them all.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "CHARACTER",
    "CHARACTER_WRAPPER",
    "COMMON",
    "DAMAGE_INFO",
    "GAME_RESULT",
    "ITEM",
    "LOCATION",
    "SKIP",
    "VEHICLE",
    "Leaf",
    "LeafKind",
    "Node",
    "Skip",
    "leaves",
]

LeafKind = Literal["string", "Int64", "float64", "boolean", "json"]
"""A column's kind; ``json``: a list or object kept as compact JSON text (a ``string`` column)."""


@dataclass(frozen=True)
class Leaf:
    """A member read into one column.

    Attributes:
        name: the column's name after its node's prefix (``id`` under ``killer_``: ``killer_id``).
        kind: the column's kind.
        description: one line for the docs.
        strings: a ``json`` leaf that PUBG writes as a list of strings (a zone, an item's
            attachments): the typed reader decodes it as one, which is faster than its text.
    """

    name: str
    kind: LeafKind
    description: str = ""
    strings: bool = False  # a json leaf that is a list of strings: the typed reader reads it so


@dataclass(frozen=True)
class Skip:
    """A member that is read but is not a column (declared, so that it is not unknown)."""

    why: str


SKIP = Skip("read for every event (split)")


@dataclass(frozen=True)
class Node:
    """An object: its members by wire key, and the prefix of its columns' names.

    Attributes:
        members: wire key -> a leaf, a nested node or a skipped member.
        prefix: put before the names of its members' columns (``"killer_"``); nested prefixes
            add up.
    """

    members: Mapping[str, Leaf | Node | Skip] = field(default_factory=dict)
    prefix: str = ""

    def under(self, prefix: str) -> Node:
        """The same object, its columns named under ``prefix``."""
        return Node(self.members, prefix)


Path = tuple[str, ...]


def leaves(node: Node, prefix: str = "", path: Path = ()) -> Iterator[tuple[Path, str, Leaf]]:
    """Every leaf of ``node``: its wire path, its column name and itself, in declaration order."""
    prefix += node.prefix
    for key, member in node.members.items():
        if isinstance(member, Leaf):
            yield (*path, key), prefix + member.name, member
        elif isinstance(member, Node):
            yield from leaves(member, prefix, (*path, key))


LOCATION = Node(
    {
        "x": Leaf("x", "float64", "centimetres from the map's left edge"),
        "y": Leaf("y", "float64", "centimetres from the map's top edge"),
        "z": Leaf("z", "float64", "centimetres, height"),
    }
)
"""Location (telemetry-objects.rst, Location: centimetres, (0, 0) at the map's top left)."""

CHARACTER = Node(
    {
        "accountId": Leaf("id", "string", "account id (= participants.player_id)"),
        "name": Leaf("name", "string", "in-game name"),
        "teamId": Leaf("team_id", "Int64", "team number within the match"),
        "health": Leaf("health", "float64", "0-100"),
        "location": LOCATION,
        "ranking": Leaf("ranking", "Int64", "team placement (0 until decided)"),
        "individualRanking": Leaf("individual_ranking", "Int64", "own placement (0 until known)"),
        "isInBlueZone": Leaf("is_in_blue_zone", "boolean"),
        "isInRedZone": Leaf("is_in_red_zone", "boolean"),
        "inSpecialZone": Leaf("in_special_zone", "string"),
        "isInVehicle": Leaf("is_in_vehicle", "boolean"),
        "zone": Leaf("zone", "json", "JSON list of the named regions it is in", strings=True),
        "type": Leaf("type", "string", "user or ai"),
    }
)
"""Character (telemetry-objects.rst; the recorded 2025 file adds individualRanking, inSpecialZone,
isInVehicle and type)."""

CHARACTER_WRAPPER = Node(
    {
        "character": CHARACTER,
        "primaryWeaponFirst": Leaf("primary_weapon_first", "string"),
        "primaryWeaponSecond": Leaf("primary_weapon_second", "string"),
        "secondaryWeapon": Leaf("secondary_weapon", "string"),
        "spawnKitIndex": Leaf("spawn_kit_index", "Int64"),
    }
)
"""CharacterWrapper: a Character with its weapons (LogMatchStart and LogMatchEnd since 2020)."""

VEHICLE = Node(
    {
        "vehicleType": Leaf("type", "string", "e.g. WheeledVehicle, TransportAircraft"),
        "vehicleId": Leaf("id", "string", "the vehicle's kind, e.g. Buggy_A_02_C"),
        "vehicleUniqueId": Leaf("unique_id", "Int64", "this vehicle within the match"),
        "healthPercent": Leaf("health_percent", "float64"),
        "feulPercent": Leaf("fuel_percent", "float64", "feulPercent on the wire"),
        "altitudeAbs": Leaf("altitude_abs", "float64"),
        "altitudeRel": Leaf("altitude_rel", "float64"),
        "velocity": Leaf("velocity", "float64"),
        "seatIndex": Leaf("seat_index", "Int64"),
        "isWheelsInAir": Leaf("is_wheels_in_air", "boolean"),
        "isInWaterVolume": Leaf("is_in_water_volume", "boolean"),
        "isEngineOn": Leaf("is_engine_on", "boolean"),
        "location": LOCATION,
    }
)
"""Vehicle (telemetry-objects.rst; the 2025 file adds its location)."""

ITEM = Node(
    {
        "itemId": Leaf("id", "string", "e.g. Item_Weapon_HK416_C"),
        "stackCount": Leaf("stack_count", "Int64"),
        "category": Leaf("category", "string"),
        "subCategory": Leaf("sub_category", "string"),
        "attachedItems": Leaf("attached_items", "json", "JSON list of item ids", strings=True),
    }
)
"""Item (telemetry-objects.rst)."""

DAMAGE_INFO = Node(
    {
        "damageReason": Leaf("damage_reason", "string", "e.g. HeadShot, TorsoShot"),
        "damageTypeCategory": Leaf("damage_type_category", "string", "e.g. Damage_Gun"),
        "damageCauserName": Leaf("damage_causer_name", "string", "e.g. WeapHK416_C"),
        "additionalInfo": Leaf("damage_causer_additional_info", "json", "JSON list", strings=True),
        "distance": Leaf("distance", "float64", "centimetres; -1 when none"),
        "isThroughPenetrableWall": Leaf("is_through_penetrable_wall", "boolean"),
    }
)
"""DamageInfo (telemetry-objects.rst): how a knock, a finish or a kill was dealt."""

_STATS = Node(
    {
        "killCount": Leaf("kill_count", "Int64"),
        "distanceOnFoot": Leaf("distance_on_foot", "float64", "metres"),
        "distanceOnSwim": Leaf("distance_on_swim", "float64", "metres"),
        "distanceOnVehicle": Leaf("distance_on_vehicle", "float64", "metres"),
        "distanceOnParachute": Leaf("distance_on_parachute", "float64", "metres"),
        "distanceOnFreefall": Leaf("distance_on_freefall", "float64", "metres"),
        "bpRewardDetail": Leaf("bp_reward_detail", "json"),
        "arcadeRewardDetail": Leaf("arcade_reward_detail", "json"),
        "statTrakDataPairs": Leaf("stat_trak_data_pairs", "json"),
        "headshotStatTrakDataPairs": Leaf("headshot_stat_trak_data_pairs", "json"),
    }
)

GAME_RESULT = Node(
    {
        "rank": Leaf("result_rank", "Int64", "placement"),
        "gameResult": Leaf("game_result", "string"),
        "teamId": Leaf("result_team_id", "Int64"),
        "stats": _STATS,
        "accountId": Leaf("result_id", "string", "account id"),
        "isRewardAbuse": Leaf("is_reward_abuse", "boolean"),
    }
)
"""GameResult (telemetry-objects.rst; the 2025 file adds isRewardAbuse and the reward details)."""

COMMON = Node(
    {
        "isGame": Leaf(
            "phase",
            "float64",
            "common.isGame: 0 before lift-off, 0.1 on the plane, 1 "
            "first zones, 1.5 first shrink, ... (a float32 on the wire)",
        ),
        "matchId": Skip("before v2.0.0: the match, checked against the file's (split)"),
        "mapName": Skip("before v2.0.0: the map, which match_start.map_name holds"),
    }
)
"""Common (telemetry-objects.rst; matchId and mapName were removed in v2.0.0, changelog)."""
