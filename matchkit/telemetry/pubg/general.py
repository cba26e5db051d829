"""The general reader: events as dicts, read member by member along their tree.

It reads what the typed reader (:mod:`matchkit.telemetry.pubg.typed`) refuses, and the tables
with nested lists: any member the tree does not declare is kept as an extra column, named as a
declared one would be (its object's prefix, then its key in snake_case), and reported; an
object where the tree expects one that is something else is kept the same way. A value of
another JSON type than its column's is left to the column conversion, which reports it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from matchkit.model.text import text_value
from matchkit.normalize import ARROW_POOL, nulls, snake_case
from matchkit.telemetry.pubg.chunks import arrow_values
from matchkit.telemetry.pubg.objects import Leaf, Node, Skip

__all__ = ["Flat", "Unknown", "flatten"]


@dataclass(frozen=True)
class Unknown:
    """A member the tree does not declare, found in some events.

    Attributes:
        column: the extra column holding it.
        path: its wire path (``killer.newMember``).
        count: the events that carry it.
        what: why it is unknown (a new member, or not the object the tree declares).
        rows: whether ``count`` counts rows of a nested table rather than events.
    """

    column: str
    path: str
    count: int
    what: str
    rows: bool = False  # counted in rows of a nested table (a player, an item), not events


@dataclass
class Flat:
    """Columns read from a batch of dicts: declared ones and extras (Arrow chunks by name)."""

    columns: dict[str, pa.Array] = field(default_factory=dict)
    extras: dict[str, pa.Array] = field(default_factory=dict)
    unknown: list[Unknown] = field(default_factory=list)


def flatten(items: Sequence[Any], tree: Node, *, declared: Iterable[str], prefix: str = "") -> Flat:
    """Every column of ``items`` (objects; ``None`` or anything else where absent) by ``tree``.

    Args:
        items: the events (or nested objects) of one batch.
        tree: their declared members.
        declared: the table's column names (an extra never takes one of them).
        prefix: the columns' prefix (a nested table's items under their owner's).
    """
    flat = Flat()
    _walk(list(items), tree, prefix, (), flat, set(declared))
    return flat


def _walk(
    values: list[Any], node: Node, prefix: str, path: tuple[str, ...], flat: Flat, taken: set[str]
) -> None:
    prefix += node.prefix
    objects: list[dict[str, Any] | None] = [v if type(v) is dict else None for v in values]
    keys: set[str] = set()
    for item in objects:
        if item:
            keys.update(item)
    for key, member in node.members.items():
        keys.discard(key)
        if isinstance(member, Skip) or not any(item and key in item for item in objects):
            if isinstance(member, Leaf):
                flat.columns[prefix + member.name] = nulls(len(values))
            elif isinstance(member, Node):
                _walk([None] * len(values), member, prefix, (*path, key), flat, taken)
            continue
        found = [item.get(key) if item else None for item in objects]
        if isinstance(member, Leaf):
            if member.kind == "json":
                found = [text_value(value) for value in found]
                flat.columns[prefix + member.name] = pa.array(
                    found, pa.string(), memory_pool=ARROW_POOL
                )
            else:
                flat.columns[prefix + member.name] = arrow_values(found, None)
            continue
        strays = [None if v is None or type(v) is dict else v for v in found]
        if any(stray is not None for stray in strays):
            _extra(strays, prefix + snake_case(key), (*path, key), "is not an object", flat, taken)
        _walk(found, member, prefix, (*path, key), flat, taken)
    for key in sorted(keys):
        found = [item.get(key) if item else None for item in objects]
        _extra(found, prefix + snake_case(key), (*path, key), "is a new member", flat, taken)


def _extra(
    values: list[Any], name: str, path: tuple[str, ...], what: str, flat: Flat, taken: set[str]
) -> None:
    while name in taken:
        name += "_extra"
    taken.add(name)
    flat.extras[name] = arrow_values(values, None)
    count = sum(value is not None for value in values)
    flat.unknown.append(Unknown(name, ".".join(path), count, what))
