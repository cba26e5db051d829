"""Typed decoding of pages in the known global shape (msgspec), the normalizer's fast path.

Most pages a user normalizes have the global shape of the service's interface. Decoding such a
page straight into msgspec Structs declared from the model (:data:`matchkit.model.schema.TABLES`,
plus the members the global shape carries beyond the model's columns) skips building a dict per JSON
object, and a buffer then reads a chunk of rows a Struct level at a time, transposed in C
(:mod:`matchkit.normalize.chunks`).

The declaration is strict: a page with anything it does not cover (a member it does not name,
an object where a value is expected, another resource type, the older variant's text stats, an
error document) fails to decode here, and :func:`ShapeDecoder.decode` returns ``None``; the
normalizer then reads that page the general way (:func:`matchkit.rules.jsonapi.load_document` and
the dict reader of :mod:`matchkit.normalize.chunks`), which keeps every extra member as a column and
names every malformed part. Both paths give identical tables (``tests/test_wire.py``).

A member's value has the wire type its column kind implies (an integer, or text), or any type
where the wire varies (booleans, decimals, ``userID``); values of any type decode exactly as in
the general path.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Union

import msgspec
import pyarrow as pa
from msgspec import UNSET, Struct

from matchkit.model.schema import TABLES
from matchkit.rules.jsonapi import RawDocument

__all__ = [
    "NO_RELATIONSHIP",
    "SUBSECTIONS",
    "UNSET",
    "Identifier",
    "Relationship",
    "ResourceShape",
    "ShapeDecoder",
]

_OPTIONS = {"forbid_unknown_fields": True, "gc": False}
# gc=False: decoded pages hold no reference cycles, and the collector need not track them.

SUBSECTIONS = ("stats", "tags")
"""The attribute members that hold objects of members (read as sections of their own)."""

NonEmptyText = Annotated[str, msgspec.Meta(min_length=1)]

Unread = msgspec.Raw
"""Members no table reads (``links``, ``meta``, ``jsonapi``): checked JSON, kept unparsed."""


class Identifier(Struct, **_OPTIONS):
    """A resource identifier in a relationship."""

    type: NonEmptyText
    id: NonEmptyText
    meta: Unread = UNSET


class Relationship(Struct, frozen=True, **_OPTIONS):
    """A relationship member: its data (an identifier, a list of them or null)."""

    data: Identifier | list[Identifier] | None = None
    links: Unread = UNSET
    meta: Unread = UNSET


NO_RELATIONSHIP = Relationship()
"""Stands in for a relationship a resource does not carry (read as no identifiers)."""


# Members the global shape carries beyond the model's known columns, with their wire types: in
# the recorded responses (../shared/samples/battlerite), the interface (stats.game) and the
# sample data set (Royale rosters' placement), so that such pages take the fast path. A member
# not named here, or a value of another type, sends its page down the general path, which is
# only slower.
_GLOBAL_SHAPE_EXTRAS: dict[str, dict[str, dict[str, Any]]] = {
    "match": {"attributes": {"game": str}, "stats": {"game": str}},
    "roster": {"stats": {"placement": int, "side": int}},
    "participant": {
        "stats": {
            "abilityUses": int,
            "damageDone": int,
            "damageReceived": int,
            "disablesDone": int,
            "disablesReceived": int,
            "energyGained": int,
            "energyUsed": int,
            "healingDone": int,
            "healingReceived": int,
            "side": int,
            "timeAlive": int,
        }
    },
    "player": {"relationships": {"assets": Relationship}},
}

# The wire type of the model's members, by column kind: a value of another type sends its page
# down the general path, and a column of one type is converted without Arrow's type inference.
# Booleans (``won``: "true" / "false" or JSON booleans) and decimals are read as they come.
_WIRE_TYPES: dict[str, Any] = {"Int64": int, "string": str, "category": str, "datetime": str}
# Members whose wire type varies: userID is an integer or text.
_ANY_TYPE = {("participant", "stats", "userID")}
_ARROW_TYPES = {int: pa.int64(), str: pa.string()}


@dataclass(frozen=True)
class ResourceShape:
    """What the fast path declares for one resource type.

    A Struct's fields are read a chunk of rows at a time with :func:`msgspec.structs.astuple`
    and transposed; the names here are in field order.

    Attributes:
        type: the JSON:API type.
        struct: the resource's Struct (tagged with its type); fields ``id``, ``attributes``,
            ``relationships``, ``links``, ``meta``.
        attributes: the fields of its attributes Struct: scalar members, then ``stats`` and
            ``tags``.
        sections: for ``stats`` and ``tags``: the fields of the section's Struct, or ``None``
            when no members are declared (any object is then decoded as a dict).
        empty_sections: an empty instance of each declared section's Struct, standing in for a
            missing or null one.
        relationships: the fields of its relationships Struct, each a :class:`Relationship`
            (:data:`NO_RELATIONSHIP` when not carried).
        extras: members declared beyond the model's columns. A resource that does not carry
            one has :data:`msgspec.UNSET` (a member of the model: ``None``), so that a member
            no resource carries adds no column, as in the general path.
        arrow_types: the Arrow type of each ``(section, member)`` whose wire type is declared
            (an integer or text, checked when decoded), converted without type inference.
    """

    type: str
    struct: type[Struct]
    attributes: tuple[str, ...]
    sections: Mapping[str, tuple[str, ...] | None]
    empty_sections: Mapping[str, Struct]
    relationships: tuple[str, ...]
    extras: frozenset[str]
    arrow_types: Mapping[tuple[str, str], pa.DataType]


class ShapeDecoder:
    """Decodes pages of the known shape into Structs; ``None`` for any other page.

    Args:
        relationships: for each resource type of the model, the relationships the normalizer
            reads as identifier arrays.
    """

    def __init__(self, relationships: Mapping[str, tuple[str, ...]]) -> None:
        self.shapes = {
            type_: _shape(type_, names, _GLOBAL_SHAPE_EXTRAS.get(type_, {}))
            for type_, names in relationships.items()
        }
        resource = Union[tuple(shape.struct for shape in self.shapes.values())]  # noqa: UP007
        document = msgspec.defstruct(
            "Document",
            [
                ("data", list[resource] | resource | None),
                ("included", list[resource] | None, None),
                ("links", Unread, UNSET),
                ("meta", Unread, UNSET),
                ("jsonapi", Unread, UNSET),
            ],
            **_OPTIONS,
        )
        self._decoder = msgspec.json.Decoder(document)

    def decode(self, raw: RawDocument) -> Struct | None:
        """The page decoded into Structs, or ``None`` when it is not of the declared shape.

        The result has ``data`` (a list of resources, one resource or None) and ``included``
        (a list or None); each resource is the Struct of its type's :class:`ResourceShape`.
        """
        try:
            return self._decoder.decode(raw)
        except (msgspec.DecodeError, TypeError, RecursionError):
            return None


def _shape(
    type_: str, relationships: tuple[str, ...], extras: Mapping[str, Mapping[str, Any]]
) -> ResourceShape:
    """The declaration of one resource type: the model's members plus the extras."""
    table = next(schema for schema in TABLES.values() if schema.resource_type == type_)
    # section -> member -> wire type
    members: dict[str, dict[str, Any]] = {section: {} for section in ("attributes", *SUBSECTIONS)}
    for column in table.columns:
        if column.section in members and column.key not in members[column.section]:
            loose = (type_, column.section, column.key) in _ANY_TYPE
            wire_type = Any if loose else _WIRE_TYPES.get(column.kind, Any)
            members[column.section][column.key] = wire_type
    extra_members = set()
    for section, declared in extras.items():
        if section in members:
            added = {name: wire for name, wire in declared.items() if name not in members[section]}
            members[section].update(added)
            extra_members.update(added)

    def leaves(section: str) -> list[tuple[str, Any, Any]]:
        return [
            (name, Any if wire is Any else wire | None, UNSET if name in extra_members else None)
            for name, wire in members[section].items()
        ]

    title = type_.title()
    fields: list[tuple[Any, ...]] = leaves("attributes")
    sections: dict[str, tuple[str, ...] | None] = {}
    empty_sections: dict[str, Struct] = {}
    for section in SUBSECTIONS:
        if members[section]:
            struct = msgspec.defstruct(f"{title}{section.title()}", leaves(section), **_OPTIONS)
            sections[section] = tuple(members[section])
            empty_sections[section] = struct()
            fields.append((section, struct | None, None))
        else:
            sections[section] = None
            fields.append((section, dict[str, Any] | None, None))
    attributes = msgspec.defstruct(f"{title}Attributes", fields, **_OPTIONS)
    names = (*relationships, *extras.get("relationships", {}))
    relationship_struct = msgspec.defstruct(
        f"{title}Relationships",
        [(name, Relationship, NO_RELATIONSHIP) for name in names],
        **_OPTIONS,
    )
    struct = msgspec.defstruct(
        title,
        [
            ("id", NonEmptyText),
            ("attributes", attributes, msgspec.field(default_factory=attributes)),
            (
                "relationships",
                relationship_struct,
                msgspec.field(default_factory=relationship_struct),
            ),
            ("links", Unread, UNSET),
            ("meta", Unread, UNSET),
        ],
        tag_field="type",
        tag=type_,
        **_OPTIONS,
    )
    return ResourceShape(
        type=type_,
        struct=struct,
        attributes=tuple(name for name, *_ in fields),
        sections=sections,
        empty_sections=empty_sections,
        relationships=names,
        extras=frozenset(extra_members),
        arrow_types={
            (section, name): _ARROW_TYPES[wire]
            for section, declared in members.items()
            for name, wire in declared.items()
            if wire in _ARROW_TYPES
        },
    )
