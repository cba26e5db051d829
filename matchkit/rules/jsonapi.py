"""Pure JSON:API reading: documents, resource keys, relationships, error documents.

Nothing here knows about matches beyond the resource type names; :mod:`matchkit.normalize.pipeline`
builds tables on top of it and the service's store uses :func:`split_by_match` to load pages that a
fetch wrote. Every resource is addressed by its ``(type, id)`` key, never by its id alone.

Example:
    >>> document = load_document(b'{"data": {"type": "match", "id": "m1"}}')
    >>> [resource_key(resource) for resource in primary_resources(document)]
    [('match', 'm1')]
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import msgspec
import orjson

from matchkit.errors import DocumentError

__all__ = [
    "RAW_TYPES",
    "Document",
    "RawDocument",
    "ResourceIndex",
    "ResourceKey",
    "describe_errors",
    "iter_documents",
    "iter_inputs",
    "iter_resources",
    "load_document",
    "primary_resources",
    "relationship_keys",
    "repeated_members",
    "require_unique_members",
    "resource_key",
    "split_by_match",
]

Document = dict[str, Any]
"""A parsed JSON:API document."""

RawDocument = Document | bytes | bytearray | memoryview | str
"""A document as a dict or as raw JSON text."""

ResourceKey = tuple[str, str]
"""``(type, id)``: the identity of a resource."""

RAW_TYPES = (bytes, bytearray, memoryview, str)

_DECODER = msgspec.json.Decoder()
_MEMBERS = msgspec.json.Decoder(dict[str, msgspec.Raw])
_SPACES = frozenset(b" \t\n\r")
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}\[\]:,]')


def repeated_members(document: RawDocument) -> list[str]:
    """The top-level members a raw JSON object gives more than once (a dict, or text that is not
    a JSON object, has none to tell).

    Every JSON reader keeps one copy of a repeated member (msgspec, orjson and ``json`` keep the
    last): a page with a second ``"data": []`` reads as an empty page, one with a second
    ``"included": []`` as matches without their rosters. Such a document is malformed, and is
    refused (:func:`require_unique_members`) rather than read in part.

    The usual document is settled without a second parse: decoded into its members (each
    value left as raw text), it is the text of those members, each once, in order, with only
    whitespace, ``:`` and ``,`` between them. Only a document that is not (one with a repeated
    member, or a name written with escapes) is walked token by token.

    Example:
        >>> repeated_members(b'{"data": [1], "links": {}, "data": []}')
        ['data']
        >>> repeated_members(b'{"data": [{"data": 1, "data": 2}]}')
        []
    """
    if not isinstance(document, RAW_TYPES):
        return []
    raw = document.encode() if isinstance(document, str) else bytes(document)
    try:
        members = _MEMBERS.decode(raw)
    except (msgspec.DecodeError, RecursionError):
        return []  # not a JSON object: load_document says what it is
    if _each_once(raw, members):
        return []
    return _repeated_by_walking(raw)


def require_unique_members(document: RawDocument, *, document_index: int = 0) -> None:
    """Refuse a raw document that gives a top-level member more than once.

    Raises:
        DocumentError: it does (:func:`repeated_members`), naming the members.
    """
    repeated = repeated_members(document)
    if repeated:
        names = ", ".join(repr(name) for name in repeated)
        raise DocumentError(
            f"a malformed JSON:API document: its top-level member {names} is given more than "
            "once (a JSON reader keeps one copy, so part of it would be lost); it is refused",
            document_index=document_index,
        )


def _each_once(raw: bytes, members: Mapping[str, msgspec.Raw]) -> bool:
    """Whether ``raw`` is exactly ``members`` (decoded from it), each once and in order: the
    names as orjson writes them, each value's own text, and nothing but JSON whitespace, ``:``
    and ``,`` between."""
    at = _skip_spaces(raw, 0)
    if not raw.startswith(b"{", at):
        return False
    at = _skip_spaces(raw, at + 1)
    for index, (name, value) in enumerate(members.items()):
        if index:
            if not raw.startswith(b",", at):
                return False
            at = _skip_spaces(raw, at + 1)
        written = orjson.dumps(name)
        if not raw.startswith(written, at):
            return False
        at = _skip_spaces(raw, at + len(written))
        if not raw.startswith(b":", at):
            return False
        at = _skip_spaces(raw, at + 1)
        text = bytes(value)  # a copy is cheaper than comparing memoryviews item by item
        if not raw.startswith(text, at):
            return False
        at = _skip_spaces(raw, at + len(text))
    return raw.startswith(b"}", at) and _skip_spaces(raw, at + 1) == len(raw)


def _skip_spaces(raw: bytes, at: int) -> int:
    """The position of the first byte from ``at`` that is not JSON whitespace."""
    while at < len(raw) and raw[at] in _SPACES:
        at += 1
    return at


def _repeated_by_walking(raw: bytes) -> list[str]:
    """The repeated top-level names of a JSON object, found by walking its tokens (no recursion,
    whatever the depth)."""
    seen: set[str] = set()
    repeated: list[str] = []
    depth = 0
    last_string: bytes | None = None
    for token in _TOKEN.finditer(raw):
        text = token.group()
        if text in (b"{", b"["):
            depth += 1
        elif text in (b"}", b"]"):
            depth -= 1
        elif text == b":" and depth == 1 and last_string is not None:
            name = json.loads(last_string)
            if name in seen and name not in repeated:
                repeated.append(name)
            seen.add(name)
        last_string = text if text.startswith(b'"') else None
    return repeated


def load_document(document: RawDocument, *, document_index: int = 0) -> Document:
    """Parse (when raw) and check the top level of a JSON:API document.

    Args:
        document: a dict, or raw JSON as bytes or str (parsed with msgspec, as the fast path of
            :mod:`matchkit.normalize.typed_shapes` parses: integers of any size stay integers).
        document_index: position of the document in the caller's input, for error messages.

    Returns:
        The document as a dict; a dict given in is returned as it is, not copied.

    Raises:
        DocumentError: the text is not JSON; the top level is not an object; a top-level member
            is given twice (:func:`require_unique_members`); the document is a JSON:API error
            document (top-level ``errors``); it has no ``data`` member; ``data`` is not an object, a
            list or null; ``included`` is not a list.
    """
    if isinstance(document, RAW_TYPES):
        require_unique_members(document, document_index=document_index)
        try:
            document = _DECODER.decode(document)
        except msgspec.DecodeError as error:
            raise DocumentError(
                f"not valid JSON ({error}); pass the response body of a JSON:API match request",
                document_index=document_index,
            ) from None
        except RecursionError:
            raise DocumentError(
                "the JSON is nested too deeply to parse (deeper than Python's recursion limit)",
                document_index=document_index,
            ) from None
    if not isinstance(document, dict):
        raise DocumentError(
            f"a JSON:API document is a JSON object, not {type(document).__name__}",
            document_index=document_index,
        )
    if "errors" in document:
        raise DocumentError(
            "the document is a JSON:API error document, not match data: "
            f"{describe_errors(document['errors'])}",
            document_index=document_index,
        )
    if "data" not in document:
        raise DocumentError(
            "not a JSON:API document: it has no 'data' member "
            f"(top-level members: {sorted(map(str, document))})",
            document_index=document_index,
        )
    data = document["data"]
    if data is not None and not isinstance(data, dict | list):
        raise DocumentError(
            f"'data' must be a resource object, a list of them or null, not {type(data).__name__}",
            document_index=document_index,
        )
    included = document.get("included")
    if included is not None and not isinstance(included, list):
        raise DocumentError(
            f"'included' must be a list of resource objects, not {type(included).__name__}",
            document_index=document_index,
        )
    return document


def describe_errors(errors: Any) -> str:
    """One line for a JSON:API ``errors`` member, in any of the shapes services send.

    Each error contributes its status, title and detail (or description) when present.
    """
    if not isinstance(errors, list):
        errors = [errors]
    parts = []
    for error in errors:
        if isinstance(error, Mapping):
            fields = [
                str(error[name])
                for name in ("status", "title", "detail", "description")
                if error.get(name) not in (None, "")
            ]
            parts.append(" ".join(fields) or "(an error without status, title or detail)")
        else:
            parts.append(str(error))
    return "; ".join(parts) if parts else "(an empty errors list)"


def iter_documents(documents: RawDocument | Iterable[RawDocument]) -> Iterator[Document]:
    """Yield each document of the input, parsed and checked.

    A dict or raw JSON text is one document; anything else iterable is a sequence of them
    (pages). Raises :class:`DocumentError` as :func:`load_document` does, with the document's
    position.
    """
    for index, document in enumerate(iter_inputs(documents)):
        yield load_document(document, document_index=index)


def iter_inputs(documents: RawDocument | Iterable[RawDocument]) -> Iterator[RawDocument]:
    """Yield each document of the input as it was given (a dict or raw JSON, not parsed).

    A dict or raw JSON text is one document; anything else iterable is a sequence of them.

    Raises:
        DocumentError: the input is neither a document nor an iterable.
    """
    if isinstance(documents, (dict, *RAW_TYPES)):
        yield documents
        return
    try:
        iterator = iter(documents)
    except TypeError:
        raise DocumentError(
            "expected a JSON:API document (dict, bytes or str) or an iterable of them, not "
            f"{type(documents).__name__}"
        ) from None
    yield from iterator


def primary_resources(document: Document) -> list[dict[str, Any]]:
    """The resources of ``data`` as a list (an object becomes one item, null none)."""
    data = document.get("data")
    if data is None:
        return []
    if isinstance(data, dict):
        return [data]
    return data


def resource_key(
    resource: Any, *, document_index: int | None = None, where: str = "resource"
) -> ResourceKey:
    """The ``(type, id)`` of a resource object or resource identifier.

    Raises:
        DocumentError: it is not an object, or its type or id is missing or not a non-empty
            string.
    """
    if not isinstance(resource, dict):
        raise DocumentError(
            f"a {where} must be a JSON object with 'type' and 'id', not {type(resource).__name__}",
            document_index=document_index,
        )
    type_, id_ = resource.get("type"), resource.get("id")
    if not isinstance(type_, str) or not type_ or not isinstance(id_, str) or not id_:
        raise DocumentError(
            f"a {where} needs a non-empty string 'type' and 'id'",
            document_index=document_index,
            resource=(_shown(type_), _shown(id_)),
        )
    return type_, id_


def iter_resources(
    document: Document, *, document_index: int | None = None
) -> Iterator[tuple[ResourceKey, dict[str, Any]]]:
    """Yield ``(key, resource)`` for ``data`` then ``included``, checking each key."""
    for resource in primary_resources(document):
        yield resource_key(resource, document_index=document_index), resource
    for resource in document.get("included") or ():
        yield resource_key(resource, document_index=document_index), resource


def relationship_keys(
    resource: dict[str, Any], name: str, *, document_index: int | None = None
) -> list[ResourceKey]:
    """The keys a relationship points at: none, one (to-one) or many (to-many).

    A missing relationship or ``data: null`` gives an empty list.

    Raises:
        DocumentError: ``relationships``, the relationship or its ``data`` has the wrong shape,
            or an identifier lacks a string type or id.
    """
    owner = (_shown(resource.get("type")), _shown(resource.get("id")))
    relationships = resource.get("relationships")
    if relationships is None:
        return []
    if not isinstance(relationships, dict):
        raise DocumentError(
            "'relationships' must be an object", document_index=document_index, resource=owner
        )
    relationship = relationships.get(name)
    if relationship is None:
        return []
    if not isinstance(relationship, dict):
        raise DocumentError(
            f"relationship {name!r} must be an object with 'data'",
            document_index=document_index,
            resource=owner,
        )
    data = relationship.get("data")
    if data is None:
        return []
    where = f"identifier in relationship {name!r} of {owner[0]} {owner[1]}"
    if isinstance(data, dict):
        return [resource_key(data, document_index=document_index, where=where)]
    if isinstance(data, list):
        return [resource_key(item, document_index=document_index, where=where) for item in data]
    raise DocumentError(
        f"relationship {name!r} data must be an identifier, a list of them or null, not "
        f"{type(data).__name__}",
        document_index=document_index,
        resource=owner,
    )


class ResourceIndex(Mapping[ResourceKey, dict[str, Any]]):
    """The resources of one or more documents keyed by ``(type, id)``.

    A resource repeated across documents is kept once: the first one seen wins.

    Example:
        >>> index = ResourceIndex([{"data": [], "included": [{"type": "player", "id": "7"}]}])
        >>> ("player", "7") in index, ("team", "7") in index
        (True, False)
    """

    def __init__(self, documents: Iterable[Document] = ()) -> None:
        self._resources: dict[ResourceKey, dict[str, Any]] = {}
        for position, document in enumerate(documents):
            self.add(document, document_index=position)

    def add(self, document: Document, *, document_index: int | None = None) -> None:
        """Index the resources of one more (already loaded) document."""
        for key, resource in iter_resources(document, document_index=document_index):
            self._resources.setdefault(key, resource)

    def __getitem__(self, key: ResourceKey) -> dict[str, Any]:
        return self._resources[key]

    def __iter__(self) -> Iterator[ResourceKey]:
        return iter(self._resources)

    def __len__(self) -> int:
        return len(self._resources)

    def __repr__(self) -> str:
        return f"ResourceIndex({len(self)} resources)"

    def related(self, resource: dict[str, Any], name: str) -> list[dict[str, Any]]:
        """The indexed resources a relationship points at; missing ones are left out."""
        return [
            self._resources[key]
            for key in relationship_keys(resource, name)
            if key in self._resources
        ]

    def missing(self, resource: dict[str, Any], name: str) -> list[ResourceKey]:
        """The keys a relationship points at that the index does not hold."""
        return [key for key in relationship_keys(resource, name) if key not in self._resources]


def split_by_match(document: RawDocument, *, document_index: int = 0) -> list[Document]:
    """Split a (multi-match) document into single-match documents.

    Each result is ``{"data": match, "included": [...]}`` where ``included`` holds, in the
    original order, the resources reachable from the match through relationships (rosters,
    participants, players, teams, rounds, assets, ...). The walk never enters another match.
    Non-match primary resources (a status resource, say) give no document.

    Raises:
        DocumentError: as :func:`load_document`, or for a resource with a malformed key or
            relationship.
    """
    document = load_document(document, document_index=document_index)
    index = ResourceIndex([document])
    order = {key: position for position, key in enumerate(index)}
    documents = []
    for match in primary_resources(document):
        match_key = resource_key(match, document_index=document_index)
        if match_key[0] != "match":
            continue
        reached: set[ResourceKey] = set()
        pending = [match]
        while pending:
            resource = pending.pop()
            for name in _relationship_names(resource):
                for key in relationship_keys(resource, name, document_index=document_index):
                    if key[0] == "match" or key in reached or key not in index:
                        continue
                    reached.add(key)
                    pending.append(index[key])
        included = [index[key] for key in sorted(reached, key=order.__getitem__)]
        documents.append({"data": match, "included": included})
    return documents


def _relationship_names(resource: dict[str, Any]) -> list[str]:
    relationships = resource.get("relationships")
    return list(relationships) if isinstance(relationships, dict) else []


def _shown(value: Any) -> str | None:
    """A type or id as it can be shown in a message."""
    if value is None or isinstance(value, str):
        return value
    return repr(value)
