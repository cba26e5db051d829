"""The typed reader: a batch of events of one type decoded into msgspec Structs, then columns.

Each event type of a table (:class:`matchkit.telemetry.pubg.tables.Source`) has a Struct made
from its tree: a scalar leaf is a field of its wire type (``str``, ``int``, ``float``, ``bool``,
each or ``None``), an object a nested Struct, a JSON leaf that PUBG writes as a list of strings a
``tuple[str, ...]``, any other JSON leaf and a skipped member ``msgspec.Raw`` (their text is
kept, not parsed). JSON leaves are written as the house writes JSON text, each distinct value
once. The Structs forbid unknown members: a batch with anything the
tree does not declare (a new member, a value of another JSON type) fails to decode here and is
read by the general reader (:mod:`matchkit.telemetry.pubg.general`), which keeps it as an extra
column, or reports the value that does not fit. Both give identical tables
(``tests/telemetry/pubg/test_readers.py``).

Decoded Structs are read into columns a field at a time (``map`` of an ``attrgetter``, in C), and
each column becomes one Arrow chunk of its declared type without a type scan.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import count
from operator import attrgetter
from typing import Any, Literal

import msgspec
import pyarrow as pa
from msgspec import Struct

from matchkit.model.text import text_value
from matchkit.normalize import nulls
from matchkit.telemetry.pubg.chunks import arrow_values
from matchkit.telemetry.pubg.objects import Leaf, LeafKind, Node, Skip
from matchkit.telemetry.pubg.tables import Source

__all__ = ["TypedReader", "json_texts", "list_texts", "typed_reader"]

_WIRE_TYPES: dict[str, Any] = {"string": str, "Int64": int, "float64": float, "boolean": bool}
_NAMES = count()


@dataclass(frozen=True)
class _Step:
    """What to do with one field of a Struct: a leaf's column, or a nested object's plan."""

    field: attrgetter[Any]
    column: str
    kind: LeafKind | Literal["strings"] | None  # None: a nested object
    plan: _Plan | None


@dataclass(frozen=True)
class _Plan:
    """How a Struct's fields become columns, and the Struct of an absent object."""

    steps: tuple[_Step, ...]
    empty: Any = None


def _struct(node: Node, prefix: str) -> tuple[type[Struct], _Plan]:
    """The Struct of an object and its plan; columns named under ``prefix``."""
    prefix += node.prefix
    fields: list[tuple[str, Any, Any]] = []
    rename: dict[str, str] = {}
    steps: list[_Step] = []
    for position, (key, member) in enumerate(node.members.items()):
        name = f"f{position}"
        rename[name] = key
        if isinstance(member, Skip):
            fields.append((name, msgspec.Raw, None))
        elif isinstance(member, Leaf) and member.kind == "json" and member.strings:
            fields.append((name, tuple[str, ...] | None, None))
            steps.append(_Step(attrgetter(name), prefix + member.name, "strings", None))
        elif isinstance(member, Leaf) and member.kind == "json":
            fields.append((name, msgspec.Raw, None))
            steps.append(_Step(attrgetter(name), prefix + member.name, "json", None))
        elif isinstance(member, Leaf):
            fields.append((name, _WIRE_TYPES[member.kind] | None, None))
            steps.append(_Step(attrgetter(name), prefix + member.name, member.kind, None))
        else:
            struct, plan = _struct(member, prefix)
            fields.append((name, struct | None, None))
            steps.append(_Step(attrgetter(name), "", None, plan))
    struct = msgspec.defstruct(
        f"PubgObject{next(_NAMES)}",
        fields,
        rename=rename,
        forbid_unknown_fields=True,
        gc=False,  # decoded events hold no cycles: the collector need not track them
    )
    return struct, _Plan(tuple(steps), struct())


class TypedReader:
    """Decodes batches of one event type (see the module's docs)."""

    def __init__(self, source: Source) -> None:
        struct, self._plan = _struct(source.tree, "")
        self._decoder = msgspec.json.Decoder(struct)

    def read(self, raws: Sequence[msgspec.Raw]) -> dict[str, pa.Array] | None:
        """A batch's columns (events of this type, each its JSON text), or ``None`` when one is
        not of the declared shape (the general reader reads the batch)."""
        try:
            events = list(map(self._decoder.decode, raws))
        except (msgspec.ValidationError, RecursionError):
            return None
        columns: dict[str, pa.Array] = {}
        _transpose(events, self._plan, columns)
        return columns


_READERS: dict[str, TypedReader] = {}


def typed_reader(source: Source) -> TypedReader:
    """The reader of one event type (made once)."""
    reader = _READERS.get(source.event_type)
    if reader is None:
        reader = _READERS[source.event_type] = TypedReader(source)
    return reader


def _transpose(items: list[Any], plan: _Plan, columns: dict[str, pa.Array]) -> None:
    """Each field of ``items`` (Structs of one type, or ``None``) into ``columns``.

    A field at a time (``map`` of an ``attrgetter``, in C): no container per row is made, so
    the garbage collector has nothing to walk (transposing rows as tuples made one per Struct,
    and collections took a third of the time)."""
    absent = items.count(None)
    if absent == len(items):
        _absent(plan, len(items), columns)
        return
    if absent:
        items = [plan.empty if item is None else item for item in items]
    for step in plan.steps:
        values = list(map(step.field, items))
        if step.plan is not None:
            _transpose(values, step.plan, columns)
        elif step.kind == "json":
            columns[step.column] = arrow_values(json_texts(values), "json")
        elif step.kind == "strings":
            columns[step.column] = arrow_values(list_texts(values), "json")
        else:
            columns[step.column] = arrow_values(values, step.kind)


def _absent(plan: _Plan, rows: int, columns: dict[str, pa.Array]) -> None:
    """The columns of an object no item carries: all missing."""
    for step in plan.steps:
        if step.plan is not None:
            _absent(step.plan, rows, columns)
        else:
            columns[step.column] = nulls(rows)


def list_texts(lists: Any) -> list[str | None]:
    """Lists of strings (tuples, or ``None``) as the house writes a JSON value as text, each
    distinct one once (most are empty, or one of a few zones)."""
    memo: dict[tuple[str, ...], str] = {}

    def text(items: tuple[str, ...] | None) -> str | None:
        if items is None:
            return None
        found = memo.get(items)
        if found is None:
            found = memo[items] = text_value(list(items))
        return found

    return list(map(text, lists))


_UNSEEN = object()
_DECODE = msgspec.json.Decoder().decode


def json_texts(raws: Any) -> list[str | None]:
    """Raw JSON values (or ``None``) as the house writes a JSON value as text
    (:func:`matchkit.model.text.text_value`: compact, sorted keys), each distinct one once."""
    memo: dict[bytes, str | None] = {}
    texts: list[str | None] = []
    for raw in raws:
        if raw is None:
            texts.append(None)
            continue
        key = bytes(raw)
        text = memo.get(key, _UNSEEN)
        if text is _UNSEEN:
            text = memo[key] = text_value(_DECODE(key))
        texts.append(text)  # type: ignore[arg-type]
    return texts
