"""The typed reader's declaration: pages of the known global shape decoded into msgspec Structs.

Most pages a user normalizes have the global shape of the service's interface. Decoding such a
page straight into msgspec Structs declared from the model (:data:`matchkit.model.schema.TABLES`,
plus :data:`matchkit.model.schema.GLOBAL_SHAPE_EXTRAS`) skips building a dict per JSON object;
the typed reader (:mod:`matchkit.normalize.typed_reader`) then reads a batch of rows a Struct
level at a time, transposed in C.

The declaration is strict: a page with anything it does not cover (a member of a document,
attributes, stats or relationships object it does not name, an object where a value is
expected, another resource type, the older variant's text stats, an error document) fails to
decode here, and :meth:`ShapeDecoder.decode` returns ``None``; the normalizer then reads that
page with the general reader (:mod:`matchkit.normalize.general`), which keeps every extra member
as a column and names every malformed part. The members of a resource, a relationship and an
identifier that no table reads (``links``, ``meta``) are the exception: neither reader reads
them, so they are skipped here. Both readers give identical tables (``tests/contract``).

A member's value has the wire type its column kind implies (an integer, or text), or any type
where the wire varies (booleans, decimals, ``userID``); values of any type decode exactly as in
the general reader. Structs are declared with ``gc=False``: decoded pages hold no reference
cycles, so the garbage collector need not track them.
"""

from __future__ import annotations

import builtins
import types
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal, Protocol, TypedDict, Union

import msgspec
import pyarrow as pa
from msgspec import UNSET, Struct

from matchkit.model.listings import FRAME_TABLES
from matchkit.model.schema import (
    GLOBAL_SHAPE_EXTRAS,
    LOOSE_MEMBERS,
    RESOURCE_TABLES,
    SUBSECTIONS,
    WireType,
)
from matchkit.rules.jsonapi import RawDocument
from matchkit.rules.profiles import Profile

__all__ = [
    "NO_RELATIONSHIP",
    "UNSET",
    "DecodedPage",
    "Identifier",
    "Relationship",
    "ResourceShape",
    "ShapeDecoder",
    "profile_extras",
]


class _StructOptions(TypedDict):
    """The options of a Struct declared here (keywords of ``msgspec.defstruct``)."""

    forbid_unknown_fields: bool
    gc: bool


_OPTIONS: _StructOptions = {"forbid_unknown_fields": True, "gc": False}
_UNREAD_SKIPPED: _StructOptions = {**_OPTIONS, "forbid_unknown_fields": False}
"""For a resource, a relationship and an identifier: their members beyond those a table reads
are skipped (their JSON still checked), as the general reader ignores them."""

NonEmptyText = Annotated[str, msgspec.Meta(min_length=1)]

Unread = msgspec.Raw
"""A document's members no table reads (``links``, ``meta``, ``jsonapi``): checked JSON, kept
unparsed."""


if TYPE_CHECKING:
    # Built from the model at run time; to a type checker, the string it is.
    ModelType = str
else:
    ModelType = Literal[tuple(RESOURCE_TABLES)]
"""An identifier's type: one of the model's resource types, decoded as that one shared string
(no string per identifier). An identifier of another type sends its page to the general reader,
which reports it."""


class Identifier(Struct, **_UNREAD_SKIPPED):
    """A resource identifier in a relationship (its ``meta`` skipped unread)."""

    type: ModelType
    id: NonEmptyText


class Relationship(Struct, frozen=True, **_UNREAD_SKIPPED):
    """A relationship member: its data (an identifier, a list of them or null; its ``links``
    and ``meta`` skipped unread).

    A list is decoded as a tuple: a tuple of untracked Structs is untracked by the garbage
    collector at its first young collection, where a list stays tracked. The relationships of
    a batch's resources wait for it (:data:`matchkit.normalize.walker.FLUSH_ROWS`), so as
    lists they outlived young collections, were promoted batch after batch and set off full
    collections: 389 young, 35 middle and 3 full ones (0.19-0.28 s) in ``to_frames`` of the
    benchmark's 20,000 matches, against 21, 1 and none as tuples (0.04-0.05 s)."""

    data: Identifier | tuple[Identifier, ...] | None = None


NO_RELATIONSHIP = Relationship()
"""Stands in for a relationship a resource does not carry (read as no identifiers)."""


# The wire type of the model's members, by column kind: a value of another type sends its page
# down the general reader, and a column of one type is converted without Arrow's type inference.
# Booleans (``won``: "true" / "false" or JSON booleans) and decimals are read as they come.
_WIRE_TYPES: dict[str, Any] = {"Int64": int, "string": str, "category": str, "datetime": str}
ProfileWireType = WireType | Literal["decimal"]
"""A declared member's wire type; a profile's decimal members (PUBG's distances and times) are
``"decimal"``: a number, decoded as a float."""

_DECLARED_TYPES: dict[ProfileWireType, Any] = {
    "integer": int,
    "text": str,
    "decimal": float,
    "any": Any,
}
_WIRE_ARROW_TYPES = {int: pa.int64(), str: pa.string(), float: pa.float64()}


@dataclass(frozen=True)
class ResourceShape:
    """What the fast path declares for one resource type.

    A Struct's fields are read a chunk of rows at a time with :func:`msgspec.structs.astuple`
    and transposed; the names here are in field order.

    Attributes:
        type: the JSON:API type.
        struct: the resource's Struct (tagged with its type); fields ``id``, ``attributes``,
            ``relationships`` (its other members are skipped).
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
    struct: builtins.type[Struct]
    attributes: tuple[str, ...]
    sections: Mapping[str, tuple[str, ...] | None]
    empty_sections: Mapping[str, Struct]
    relationships: tuple[str, ...]
    extras: frozenset[str]
    arrow_types: Mapping[tuple[str, str], pa.DataType]


class DecodedPage(Protocol):
    """A page as :meth:`ShapeDecoder.decode` gives it: each resource the Struct of its type's
    :class:`ResourceShape` (the page's other members are kept unread)."""

    data: list[Struct] | Struct | None
    included: list[Struct] | None


class ShapeDecoder:
    """Decodes pages of the known shape into Structs; ``None`` for any other page.

    The declaration covers every resource type of the model
    (:data:`matchkit.model.schema.RESOURCE_TABLES`) with the members of its table plus the known
    extras: the global shape's (:data:`matchkit.model.schema.GLOBAL_SHAPE_EXTRAS`, the
    default) or a profile's (:func:`profile_extras`).
    """

    def __init__(self, extras: Extras = GLOBAL_SHAPE_EXTRAS, *, always: bool = False) -> None:
        self.shapes = {
            type_: _shape(type_, names, extras.get(type_, {}), always=always)
            for type_, (_, names) in RESOURCE_TABLES.items()
        }
        self.types = {shape.struct: type_ for type_, shape in self.shapes.items()}
        # Types built at run time: spelled as the objects they are (``list[resource]``).
        resource: Any = Union[tuple(shape.struct for shape in self.shapes.values())]  # noqa: UP007
        resources = types.GenericAlias(list, (resource,))
        document = msgspec.defstruct(
            "Document",
            [
                ("data", resources | resource | None),
                ("included", resources | None, None),
                ("links", Unread, UNSET),
                ("meta", Unread, UNSET),
                ("jsonapi", Unread, UNSET),
            ],
            **_OPTIONS,
        )
        self._decoder: msgspec.json.Decoder[DecodedPage] = msgspec.json.Decoder(document)

    def decode(self, raw: RawDocument) -> DecodedPage | None:
        """The page decoded into Structs, or ``None`` when it is not of the declared shape.

        The result has ``data`` (a list of resources, one resource or None) and ``included``
        (a list or None); each resource is the Struct of its type's :class:`ResourceShape`.
        """
        if not isinstance(raw, bytes | bytearray | memoryview | str):
            return None  # an already parsed document: the general reader's
        try:
            return self._decoder.decode(raw)
        except (msgspec.DecodeError, TypeError, RecursionError):
            return None


Extras = Mapping[str, Mapping[str, Mapping[str, ProfileWireType]]]
"""Resource type -> section -> member -> wire type: members declared beyond the model's."""

_KIND_WIRE_TYPES: dict[str, ProfileWireType] = {
    "Int64": "integer",
    "float64": "decimal",
    "string": "text",
    "category": "text",
    "datetime": "text",
}


def profile_extras(profile: Profile) -> Extras:
    """A profile's mapped members (its :class:`~matchkit.rules.columns.ColumnMap`), each with
    the wire type its kind implies (a decimal column's numbers decoded as floats, which its
    float64 column makes of them whatever their JSON spelling; booleans read as they come;
    any other value sends the page to the general reader), its player id
    member as text, and the relationships the global shape declares beyond the model's (a
    player's ``assets``). The global shape's other extras (Battlerite's stats) are left out:
    every member declared is a field of each decoded resource."""
    extras: dict[str, dict[str, dict[str, ProfileWireType]]] = {
        type_: {"relationships": dict(sections["relationships"])}
        for type_, sections in GLOBAL_SHAPE_EXTRAS.items()
        if "relationships" in sections
    }
    for column in profile.columns.columns:
        section = extras.setdefault(column.resource, {}).setdefault(column.section, {})
        section[column.member] = _KIND_WIRE_TYPES.get(column.kind, "any")
    if profile.columns.player_id_member is not None:
        stats = extras.setdefault("participant", {}).setdefault("stats", {})
        stats[profile.columns.player_id_member] = "text"
    return extras


def _members(
    type_: str, extras: Mapping[str, Mapping[str, ProfileWireType]], *, always: bool
) -> tuple[dict[str, dict[str, Any]], set[str]]:
    """Section -> member -> wire type of one resource type (the model's columns, then the
    extras), and the extra members that may be absent from a document (``always``: none)."""
    table = next(schema for schema in FRAME_TABLES.values() if schema.resource_type == type_)
    members: dict[str, dict[str, Any]] = {section: {} for section in ("attributes", *SUBSECTIONS)}
    for column in table.columns:
        if column.section in members and column.key not in members[column.section]:
            loose = (type_, column.section, column.key) in LOOSE_MEMBERS
            wire_type = Any if loose else _WIRE_TYPES.get(column.kind, Any)
            members[column.section][column.key] = wire_type
    extra_members: set[str] = set()
    for section, declared in extras.items():
        if section in members:
            added = {
                name: _DECLARED_TYPES[wire]
                for name, wire in declared.items()
                if name not in members[section]
            }
            members[section].update(added)
            if not always:  # members of the profile's own columns are there whatever is sent
                extra_members.update(added)
    return members, extra_members


def _shape(
    type_: str,
    relationships: tuple[str, ...],
    extras: Mapping[str, Mapping[str, ProfileWireType]],
    *,
    always: bool = False,
) -> ResourceShape:
    """The declaration of one resource type: the model's members plus the extras."""
    members, extra_members = _members(type_, extras, always=always)

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
        ],
        tag_field="type",
        tag=type_,
        **_UNREAD_SKIPPED,
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
            (section, name): _WIRE_ARROW_TYPES[wire]
            for section, declared in members.items()
            for name, wire in declared.items()
            if wire in _WIRE_ARROW_TYPES
        },
    )
