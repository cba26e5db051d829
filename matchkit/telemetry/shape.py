"""Which game's telemetry a file is, from its own shape: the reader is chosen by it.

A Gamelocker file (Battlerite) is an array of ``{"cursor", "type", "dataObject"}`` events
(``docs/telemetry-format.md``); a PUBG file an array of events keyed by ``_T`` and ``_D``
(``docs/telemetry-pubg.md``). :func:`telemetry_shape` looks at the first member names of a
file's first bytes (decompressed, when it is gzip), so choosing costs no parse of the file; the
reader chosen then checks the whole file, and refuses what is not of its shape.
"""

from __future__ import annotations

import os
import re
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

__all__ = ["GAMELOCKER_EVENTS", "PUBG_EVENTS", "Shape", "first_source", "telemetry_shape"]

Shape = Literal["gamelocker", "pubg"]
"""A telemetry file's format (the values a profile's ``telemetry_format`` takes)."""
GAMELOCKER_EVENTS: Shape = "gamelocker"
"""Decision 18's events: ``{cursor, type, dataObject}``."""
PUBG_EVENTS: Shape = "pubg"
"""PUBG's events: ``{_T, _D, common, ...}``."""

_PREFIX = 1 << 16
"""Bytes of a file looked at: a PUBG file's first event (LogMatchDefinition) is a few hundred."""

_FIRST_KEY = re.compile(rb'"(_T|_D|cursor|dataObject)"\s*:')
_PUBG_KEYS = (b"_T", b"_D")


def telemetry_shape(source: Any) -> Shape | None:
    """The shape of one telemetry file (a path, bytes, gzip bytes, JSON text or a parsed list
    of events), or ``None`` when its first bytes name neither (the Gamelocker reader, the
    default, then says what is wrong). A path that cannot be read is ``None`` too."""
    if isinstance(source, list):
        first = source[0] if source else None
        if isinstance(first, dict):
            return PUBG_EVENTS if "_T" in first or "_D" in first else GAMELOCKER_EVENTS
        return None
    prefix = _prefix(source)
    if prefix[:2] == b"\x1f\x8b":
        try:
            prefix = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS).decompress(prefix, _PREFIX)
        except zlib.error:
            return None
    found = _FIRST_KEY.search(prefix)
    if found is None:
        return None
    return PUBG_EVENTS if found.group(1) in _PUBG_KEYS else GAMELOCKER_EVENTS


def first_source(telemetry: Any) -> Any:
    """The first file of a ``to_telemetry_frames`` input (one file, a sequence of files, or a
    mapping ``{match_id: file}``), ``None`` when it holds none."""
    if isinstance(telemetry, Mapping):
        return next(iter(telemetry.values()), None)
    if isinstance(telemetry, str | bytes | bytearray | memoryview | os.PathLike):
        return telemetry
    if isinstance(telemetry, list) and telemetry and isinstance(telemetry[0], dict):
        return telemetry  # one parsed file
    if isinstance(telemetry, list | tuple):
        return telemetry[0] if telemetry else None
    return None


def _prefix(source: Any) -> bytes:
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source[:_PREFIX])
    if isinstance(source, str) and source.lstrip()[:1] in ("[", "{"):
        return source[:_PREFIX].encode()
    if isinstance(source, str | os.PathLike):
        try:
            with Path(source).open("rb") as handle:
                return handle.read(_PREFIX)
        except OSError:
            return b""
    return b""
