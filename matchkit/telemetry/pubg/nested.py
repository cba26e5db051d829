"""The tables of lists inside events: care package items, the final rankings, weapon stats.

Read the general way (:mod:`matchkit.telemetry.pubg.general`), from the few events that carry
them (a handful of care packages and one LogMatchEnd per file):

- ``care_package_items``: one row per item of a care package (LogCarePackageSpawn and
  LogCarePackageLand ``itemPackage.items``);
- ``match_end``: one row per player of LogMatchEnd ``characters`` (a CharacterWrapper since 2020,
  a bare Character before), with the player's ``gameResultOnFinished.results`` entry (PUBG lists
  the winners only) folded in by account id;
- ``weapon_stats``: one row per player and weapon of LogMatchEnd ``allWeaponStats``.

A list that is not a list of objects is a :class:`matchkit.errors.DocumentError` naming the
match and the event.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from matchkit.errors import DocumentError
from matchkit.model.schema import Column, TableSchema
from matchkit.normalize import ARROW_POOL
from matchkit.telemetry.pubg.general import Flat, flatten
from matchkit.telemetry.pubg.objects import (
    CHARACTER,
    CHARACTER_WRAPPER,
    COMMON,
    GAME_RESULT,
    ITEM,
    SKIP,
    Leaf,
    Node,
    Skip,
    leaves,
)

__all__ = ["MATCH_END", "NESTED_TABLES", "care_package_items", "match_end_rows", "weapon_stats"]

_FOLDED = Skip("one row per item in another table")

_PACKAGE_ITEM = Node({"itemPackageId": Leaf("package_id", "string"), "item": ITEM.under("item_")})

_RESULT = Node({**GAME_RESULT.members, "accountId": Skip("= player_id")})
_END_EVENT = Node(
    {
        "common": COMMON,
        "gameResultOnFinished": Node({"results": _FOLDED}),
        "_T": SKIP,
        "_D": SKIP,
        "_V": Skip("before v2.0.0: the format's version"),
    }
)
MATCH_END = Node(
    {
        **CHARACTER_WRAPPER.members,
        "character": CHARACTER.under("player_"),
        "gameResult": _RESULT,  # its gameResultOnFinished.results entry (winners only)
        "_event": _END_EVENT,  # the event's own members, repeated on each of its rows
    }
)
"""A row of match_end: a player of LogMatchEnd.characters."""

_WEAPON = Node(
    {
        "player": Node({"accountId": Leaf("id", "string", "account id")}, "player_"),
        "weapon": Leaf("weapon", "string", "its damage causer id, e.g. WeapUMP_C"),
        "damage": Leaf("damage", "float64"),
        "dBNODamage": Leaf("dbno_damage", "float64", "damage to knocked players"),
        "shots": Leaf("shots", "Int64"),
        "hits": Leaf("hits", "Int64"),
        "dBNOHits": Leaf("dbno_hits", "Int64"),
        "holdingTime": Leaf("holding_time", "float64", "seconds"),
        "hitDetails": Leaf("hit_details", "json", "JSON list per body part"),
    }
)


def _schema(name: str, tree: Node, key: tuple[str, ...], head: tuple[Column, ...]) -> TableSchema:
    read = []
    for path, column, leaf in leaves(tree):
        kind = "string" if leaf.kind == "json" else leaf.kind
        read.append(Column(column, kind, "attributes", ".".join(path), leaf.description))
    phase = [column for column in read if column.name == "phase"]  # after the event's columns
    rest = [column for column in read if column.name != "phase"]
    return TableSchema(name, "", key, (*head, *phase, *rest))


_MATCH_ID = Column("match_id", "string", "derived", "", "the match (= matches.match_id)")
_EVENT_INDEX = Column("event_index", "Int64", "derived", "", "0-based position in its file")
_TIME = Column("time", "datetime", "attributes", "_D", "the event's _D, UTC")
_POSITION = Column("position", "Int64", "derived", "", "0-based position in its list")

NESTED_TABLES: dict[str, TableSchema] = {
    "care_package_items": _schema(
        "care_package_items",
        _PACKAGE_ITEM,
        ("match_id", "event_index", "position"),
        (
            _MATCH_ID,
            _EVENT_INDEX,
            _TIME,
            Column("event_type", "category", "attributes", "_T"),
            _POSITION,
        ),
    ),
    "match_end": _schema(
        "match_end", MATCH_END, ("match_id", "player_id"), (_MATCH_ID, _EVENT_INDEX, _TIME)
    ),
    "weapon_stats": _schema(
        "weapon_stats",
        _WEAPON,
        ("match_id", "player_id", "position"),
        (_MATCH_ID, _EVENT_INDEX, _POSITION),
    ),
}
"""The nested tables' declared columns."""


def _objects(value: Any, *, where: str, what: str, event: int) -> list[dict[str, Any]]:
    """A list of objects, else a DocumentError naming the event."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(type(item) is dict for item in value):
        raise DocumentError(f"{where}: the {what} of event {event} is not a list of objects")
    return value


Rows = tuple[Flat, dict[str, pa.Array], int]
"""A nested table's read rows: their columns, the derived columns (event_index, time,
position, ...) and their number."""


def care_package_items(
    events: Sequence[dict[str, Any]], indices: np.ndarray, micros: np.ndarray, *, where: str
) -> Rows:
    """The items of care package events (dicts, with their file indices and times)."""
    items: list[dict[str, Any]] = []
    owners: list[int] = []
    positions: list[int] = []
    for owner, (event, index) in enumerate(zip(events, indices.tolist(), strict=True)):
        package = event.get("itemPackage")
        package = package if type(package) is dict else {}
        found = _objects(package.get("items"), where=where, what="itemPackage.items", event=index)
        for position, item in enumerate(found):
            items.append({"itemPackageId": package.get("itemPackageId"), "item": item})
            owners.append(owner)
            positions.append(position)
    flat = flatten(items, _PACKAGE_ITEM, declared=NESTED_TABLES["care_package_items"].column_names)
    _wire_paths(flat, {"item": "itemPackage.items", "": "itemPackage"})
    rows = np.asarray(owners, dtype=np.int64)
    types = [events[owner].get("_T") for owner in owners]
    return flat, _derived(indices, micros, rows, positions, event_type=types), len(items)


def match_end_rows(
    events: Sequence[dict[str, Any]], indices: np.ndarray, micros: np.ndarray, *, where: str
) -> Rows:
    """One row per player of LogMatchEnd events (dicts, with their file indices and times)."""
    rows: list[dict[str, Any]] = []
    owners: list[int] = []
    for owner, (event, index) in enumerate(zip(events, indices.tolist(), strict=True)):
        rest = {k: v for k, v in event.items() if k not in ("characters", "allWeaponStats")}
        finished = event.get("gameResultOnFinished")
        results = finished.get("results") if type(finished) is dict else None
        by_account: dict[Any, dict[str, Any]] = {}
        repeated: list[dict[str, Any]] = []
        for result in _objects(results, where=where, what="gameResultOnFinished", event=index):
            if result.get("accountId") in by_account:
                repeated.append(result)
            else:
                by_account[result.get("accountId")] = result
        players = _objects(event.get("characters"), where=where, what="characters", event=index)
        for item in players:
            wrapper = item if "character" in item else {"character": item}  # bare before 2020
            character = wrapper.get("character")
            account = character.get("accountId") if type(character) is dict else None
            entry = by_account.pop(account, None)
            rows.append({**wrapper, "gameResult": entry, "_event": rest})
            owners.append(owner)
        for entry in [*by_account.values(), *repeated]:  # a result without its character
            player = {"accountId": entry.get("accountId")}
            rows.append({"character": player, "gameResult": entry, "_event": rest})
            owners.append(owner)
    flat = flatten(rows, MATCH_END, declared=NESTED_TABLES["match_end"].column_names)
    _wire_paths(
        flat, {"_event": "", "gameResult": "gameResultOnFinished.results", "": "characters"}
    )
    owner_rows = np.asarray(owners, dtype=np.int64)
    return flat, _derived(indices, micros, owner_rows, None), len(rows)


def weapon_stats(
    events: Sequence[dict[str, Any]], indices: np.ndarray, micros: np.ndarray, *, where: str
) -> Rows:
    """One row per player and weapon of LogMatchEnd.allWeaponStats."""
    rows: list[dict[str, Any]] = []
    owners: list[int] = []
    positions: list[int] = []
    for owner, (event, index) in enumerate(zip(events, indices.tolist(), strict=True)):
        players = _objects(
            event.get("allWeaponStats"), where=where, what="allWeaponStats", event=index
        )
        for player in players:
            owner_part = {k: v for k, v in player.items() if k != "stats"}
            stats = _objects(
                player.get("stats"), where=where, what="allWeaponStats stats", event=index
            )
            for position, stat in enumerate(stats):
                rows.append({"player": owner_part, **stat})
                owners.append(owner)
                positions.append(position)
    flat = flatten(rows, _WEAPON, declared=NESTED_TABLES["weapon_stats"].column_names)
    _wire_paths(flat, {"player": "allWeaponStats", "": "allWeaponStats.stats"})
    owner_rows = np.asarray(owners, dtype=np.int64)
    derived = _derived(indices, micros, owner_rows, positions)
    del derived["time"]
    return flat, derived, len(rows)


def _wire_paths(flat: Flat, wire: dict[str, str]) -> None:
    """Name the unknown members of a table's rows by their path in the event: a row's first key
    is one of ``wire`` (``""``: any other), standing for the event's path to it."""
    for position, unknown in enumerate(flat.unknown):
        head, _, rest = unknown.path.partition(".")
        if head in wire:
            path = ".".join(part for part in (wire[head], rest) if part)
        else:
            path = ".".join(part for part in (wire[""], unknown.path) if part)
        flat.unknown[position] = dataclasses.replace(unknown, path=path, rows=True)


def _derived(
    indices: np.ndarray,
    micros: np.ndarray,
    owners: np.ndarray,
    positions: list[int] | None,
    *,
    event_type: list[Any] | None = None,
) -> dict[str, pa.Array]:
    events = indices[owners] if len(owners) else np.zeros(0, dtype=np.int64)
    derived = {"event_index": pa.array(events), "time": pa.array(micros[events])}
    if positions is not None:
        derived["position"] = pa.array(np.asarray(positions, dtype=np.int64))
    if event_type is not None:
        derived["event_type"] = pa.array(event_type, pa.string(), memory_pool=ARROW_POOL)
    return derived
