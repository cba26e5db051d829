"""A PUBG telemetry file not yet held whole (a path, gzip bytes) split into its events a piece at
a time, into the :class:`matchkit.telemetry.pubg.split.SplitFile` of the whole file.

The bytes arrive in pieces (:func:`matchkit.telemetry.pubg.source.content_pieces`). Whole events
are cut out of them: a piece of events ends where a candidate boundary between two events
(``}``, ``,``, ``{``, found by a pattern) makes the bytes before it a JSON array that msgspec
reads whole. A candidate inside a string or a nested array leaves a string or a container open,
which msgspec refuses, so a wrong one is never taken (an earlier one is tried, then more bytes
are awaited). Each piece's events are read as the split reads a file's
(:func:`matchkit.telemetry.pubg.split.piece_heads`) and each type's copied into a JSON array of
its own, so that the piece is let go: what stays is the events' text grouped by type, which the
tables let go a type at a time as they are read
(:class:`matchkit.telemetry.pubg.split.EventTexts`). The whole decompressed file is never held
beside its tables.

A file whose pieces cannot be read (not JSON, not an array, an event without ``_T``, a ``_D``
that is not a time, ...) raises :class:`Unsplittable`: the reader then reads it in one piece
(:func:`matchkit.telemetry.pubg.split.split_events`), whose error names the byte or the event as
it does for a file in memory (one implementation of each message). Every byte is read by msgspec
as it is in one array, so a file is refused in pieces exactly when it is in one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import msgspec
import numpy as np

from matchkit.errors import DocumentError
from matchkit.telemetry.pubg.split import (
    EventTexts,
    SplitFile,
    picked,
    piece_heads,
    split_events,
    type_groups,
)

__all__ = ["Unsplittable", "split_pieces"]

_RAWS = msgspec.json.Decoder(list[msgspec.Raw])
_BOUNDARY = re.compile(rb"\}\s*,\s*\{")
_LEADING = re.compile(rb"\s*")
_TAIL = 1 << 16
"""Bytes at the end of what is pending searched first for the last boundary between events."""
_TRIES = 3
"""Candidate boundaries tried, the last first, before more bytes are awaited."""
_NEVER = 1 << 62


class Unsplittable(Exception):  # noqa: N818 (not an error the caller sees)
    """The pieces are not a file's events: the reader reads the file in one piece, whose
    :class:`DocumentError` says what is wrong."""


def split_pieces(pieces: Iterable[bytes], *, where: str, index: int) -> SplitFile:
    """The events of a file given in ``pieces`` (its bytes, decompressed, in any pieces).

    A file that arrives in one piece is split as a file in memory is.

    Raises:
        Unsplittable: the pieces are not a JSON array of events (see the module's docs).
        DocumentError: the file arrived in one piece and is not one
            (:func:`matchkit.telemetry.pubg.split.split_events`).
    """
    parts = _Parts(where=where, index=index)
    pending = bytearray()
    size = 0
    wait_for = 0  # bytes pending before a cut is tried (more after a try found no boundary)
    first = True  # pending starts with the file's "[" (else with an event's "{")
    for piece in pieces:
        size += len(piece)
        pending += piece
        del piece
        if len(pending) < wait_for:
            continue
        if first:
            start = _LEADING.match(pending)
            at = start.end() if start else 0
            if at == len(pending):  # only whitespace yet
                continue
            if pending[at] != ord("["):
                wait_for = _NEVER  # not an array: read whole, as one piece, for its error
                continue
        cut = _cut(pending, first)
        if cut is None:
            wait_for = 2 * len(pending)
            continue
        text, raws, consumed = cut
        del pending[:consumed]
        first, wait_for = False, 0
        parts.add(text, raws)
        del text, raws
    if first:  # never cut: the file in one piece
        return split_events(pending, where=where, index=index)
    text = b"[" + pending
    del pending
    try:
        raws = _RAWS.decode(text)
    except (msgspec.DecodeError, msgspec.ValidationError):
        raise Unsplittable from None
    parts.add(text, raws)
    return parts.split_file(size)


def _cut(pending: bytearray, first: bool) -> tuple[bytes, list[msgspec.Raw], int] | None:
    """The events before the last boundary msgspec accepts (of the last few candidates): their
    JSON array, its events, and where the next event starts in ``pending``; ``None``: none."""
    start = max(0, len(pending) - _TAIL)
    found = list(_BOUNDARY.finditer(pending, start)) or list(_BOUNDARY.finditer(pending))
    for boundary in reversed(found[-_TRIES:]):
        end = boundary.start() + 1
        with memoryview(pending) as view:
            text = b"".join((view[:end], b"]") if first else (b"[", view[:end], b"]"))
        try:
            return text, _RAWS.decode(text), boundary.end() - 1
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue
    return None


class _Parts:
    """What the pieces held so far: each event's type and time, the matches named, and each
    type's events' text (a JSON array per type and piece, copied out of the piece)."""

    def __init__(self, *, where: str, index: int) -> None:
        self.where = where
        self.index = index
        self.events = 0
        self.names: dict[str, int] = {}
        self.match_ids: set[str] = set()
        self.codes: list[np.ndarray] = []
        self.micros: list[np.ndarray] = []
        self.by_type: dict[str, list[msgspec.Raw]] = {}

    def add(self, text: bytes, raws: list[msgspec.Raw]) -> None:
        """A piece's events (``raws``, decoded from ``text``, their JSON array).

        Raises:
            Unsplittable: an event is not a telemetry event (no ``_T``, a ``_D`` not a time).
        """
        try:
            codes, micros = piece_heads(
                text,
                raws,
                self.names,
                self.match_ids,
                where=self.where,
                index=self.index,
                offset=self.events,
            )
        except DocumentError:
            raise Unsplittable from None
        for kind, indices in type_groups(codes, list(self.names)).items():
            if len(indices):  # a type of an earlier piece may have none here
                own = b"".join((b"[", b",".join(picked(raws, indices)), b"]"))
                self.by_type.setdefault(kind, []).extend(_RAWS.decode(own))
        self.codes.append(codes)
        self.micros.append(micros)
        self.events += len(raws)

    def split_file(self, size: int) -> SplitFile:
        """The file's events, once every piece was added."""
        codes = np.concatenate(self.codes)
        names = list(self.names)
        return SplitFile(
            self.events,
            EventTexts(self.by_type),
            codes,
            names,
            np.concatenate(self.micros),
            type_groups(codes, names),
            frozenset(self.match_ids),
            size,
        )
