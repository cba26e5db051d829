"""Typed decoding of pages in the known global shape (msgspec), the normalizer's fast path.

Most pages a user normalizes have the global shape of the service's interface. Decoding such a
page straight into msgspec Structs declared from the model (:data:`matchkit.schema.TABLES`, plus
the members the recorded global shape carries beyond the model's columns) skips building a dict
per JSON object, and a buffer then reads a column with one attribute getter over its rows.

The declaration is strict: a page with anything it does not cover (a member it does not name,
an object where a value is expected, another resource type, the older variant's text stats, an
error document) fails to decode here, and :func:`ShapeDecoder.decode` returns ``None``; the
normalizer then reads that page the general way (:func:`matchkit.jsonapi.load_document` and the
dict reader of :mod:`matchkit.chunks`), which keeps every extra member as a column and names
every malformed part. Both paths give identical tables (``tests/test_wire.py``).

Leaf values are typed ``Any``: they decode exactly as in the general path, and the column's type
is inferred later, as there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Union

import msgspec
from msgspec import UNSET, Struct

from matchkit.jsonapi import RawDocument
from matchkit.schema import TABLES

__all__ = [
    "NO_RELATIONSHIP",
    "UNSET",
    "Identifier",
    "Relationship",
    "ResourceShape",
    "ShapeDecoder",
]

_OPTIONS = {"forbid_unknown_fields": True, "gc": False}
# gc=False: decoded pages hold no reference cycles, and the collector need not track them.

_SUBSECTIONS = ("stats", "tags")

# Members the global shape carries beyond the model's known columns: in the recorded responses
# (../shared/samples/battlerite), the interface (stats.game) and the sample data set (Royale
# rosters' placement), so that such pages take the fast path. A member not named here sends its
# page down the general path, which is only slower.
_GLOBAL_SHAPE_EXTRAS: dict[str, dict[str, tuple[str, ...]]] = {
    "match": {"attributes": ("game",), "stats": ("game",)},
    "roster": {"stats": ("placement", "side")},
    "participant": {
        "stats": (
            "abilityUses",
            "damageDone",
            "damageReceived",
            "disablesDone",
            "disablesReceived",
            "energyGained",
            "energyUsed",
            "healingDone",
            "healingReceived",
            "side",
            "timeAlive",
            "userID",
        )
    },
    "player": {"relationships": ("assets",)},
}

NonEmptyText = Annotated[str, msgspec.Meta(min_length=1)]


class Identifier(Struct, **_OPTIONS):
    """A resource identifier in a relationship."""

    type: NonEmptyText
    id: NonEmptyText
    meta: Any = UNSET


class Relationship(Struct, frozen=True, **_OPTIONS):
    """A relationship member: its data (an identifier, a list of them or null)."""

    data: Identifier | list[Identifier] | None = None
    links: Any = UNSET
    meta: Any = UNSET


NO_RELATIONSHIP = Relationship()
"""Stands in for a relationship a resource does not carry (read as no identifiers)."""


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
    """

    type: str
    struct: type[Struct]
    attributes: tuple[str, ...]
    sections: Mapping[str, tuple[str, ...] | None]
    empty_sections: Mapping[str, Struct]
    relationships: tuple[str, ...]
    extras: frozenset[str]


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
                ("links", Any, UNSET),
                ("meta", Any, UNSET),
                ("jsonapi", Any, UNSET),
            ],
            **_OPTIONS,
        )
        self._decoder = msgspec.json.Decoder(document)
        self.shape_of = {shape.struct: shape for shape in self.shapes.values()}

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
    type_: str, relationships: tuple[str, ...], extras: Mapping[str, tuple[str, ...]]
) -> ResourceShape:
    """The declaration of one resource type: the model's members plus the extras."""
    table = next(schema for schema in TABLES.values() if schema.resource_type == type_)
    members: dict[str, list[str]] = {section: [] for section in ("attributes", *_SUBSECTIONS)}
    for column in table.columns:
        if column.section in members and column.key not in members[column.section]:
            members[column.section].append(column.key)
    extra_members = set()
    for section, names in extras.items():
        if section in members:
            added = [name for name in names if name not in members[section]]
            members[section] += added
            extra_members.update(added)

    def leaves(section: str) -> list[tuple[str, Any, Any]]:
        return [(name, Any, UNSET if name in extra_members else None) for name in members[section]]

    title = type_.title()
    fields: list[tuple[Any, ...]] = leaves("attributes")
    sections: dict[str, tuple[str, ...] | None] = {}
    empty_sections: dict[str, Struct] = {}
    for section in _SUBSECTIONS:
        if members[section]:
            struct = msgspec.defstruct(f"{title}{section.title()}", leaves(section), **_OPTIONS)
            sections[section] = tuple(members[section])
            empty_sections[section] = struct()
            fields.append((section, struct | None, None))
        else:
            sections[section] = None
            fields.append((section, dict[str, Any] | None, None))
    attributes = msgspec.defstruct(f"{title}Attributes", fields, **_OPTIONS)
    names = (*relationships, *extras.get("relationships", ()))
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
            ("links", Any, UNSET),
            ("meta", Any, UNSET),
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
    )
