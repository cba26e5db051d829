"""A PUBG telemetry file's bytes: from a path, bytes, text or a parsed list; gzip undone, capped.

PUBG's CDN serves each file gzip-compressed (``rst/telemetry.rst``), and a file kept on disk may
be kept so. Compressed content (it starts with gzip's magic bytes) is decompressed here in
pieces, never past ``max_bytes`` of output: a file that would decompress beyond it (a real file
is 4-60 MB; a compression bomb is not) is a :class:`matchkit.errors.DocumentError` before more
memory is taken, as is a truncated or damaged stream.
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path
from typing import Any, TypeAlias

import msgspec

from matchkit.errors import DocumentError, InvalidArgumentError

__all__ = ["DEFAULT_MAX_BYTES", "GZIP_MAGIC", "PubgSource", "checked_max_bytes", "read_content"]

PubgSource: TypeAlias = str | os.PathLike[str] | bytes | bytearray | memoryview | list[Any]
"""One telemetry file: a path, its bytes (gzip or not), its JSON text, or its parsed events."""

DEFAULT_MAX_BYTES = 2 * 1024**3
"""The largest decompressed file read by default: 2 GiB (real files are 4-60 MB)."""

GZIP_MAGIC = b"\x1f\x8b"

_PIECE = 1 << 20
"""Compressed bytes fed to the decompressor at a time."""


def checked_max_bytes(value: object) -> int:
    """``max_bytes`` as a whole number of bytes >= 1.

    Raises:
        InvalidArgumentError: it is not.
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidArgumentError(
            f"max_bytes={value!r} must be a whole number of bytes >= 1 (the largest "
            f"decompressed telemetry file to read; default {DEFAULT_MAX_BYTES:,})",
            parameter="max_bytes",
        )
    return value


def read_content(source: Any, *, where: str, index: int, max_bytes: int) -> bytes | bytearray:
    """The JSON bytes of one file, decompressed when it is gzip.

    Args:
        source: a path, bytes (gzip or not), JSON text, or a parsed list of events.
        where: how errors name the file ("telemetry of match ...").
        index: its position in the caller's input (``document_index`` of errors).
        max_bytes: the most decompressed bytes to accept.

    Raises:
        DocumentError: the content is larger than ``max_bytes``, or a damaged or truncated
            gzip stream.
        InvalidArgumentError: ``source`` is none of the accepted kinds, or a path that cannot be
            read.
    """
    if isinstance(source, list):
        try:  # msgspec writes integers of any size, as JSON allows
            return msgspec.json.encode(source)
        except (TypeError, ValueError, OverflowError) as error:
            raise DocumentError(
                f"{where} is not a list of JSON events: {error}", document_index=index
            ) from None
    if isinstance(source, bytes | bytearray | memoryview):
        data = source if isinstance(source, bytes | bytearray) else bytes(source)
    elif isinstance(source, str) and source.lstrip()[:1] in ("[", "{"):
        data = source.encode()
    elif isinstance(source, str | os.PathLike):
        data = _read_path(Path(source), where=where, index=index, max_bytes=max_bytes)
    else:
        raise InvalidArgumentError(
            f"telemetry file {index} is a {type(source).__name__}; give a path, bytes, JSON "
            "text or the parsed list of events",
            parameter="telemetry",
        )
    if data[:2] == GZIP_MAGIC:
        return decompressed(data, where=where, index=index, max_bytes=max_bytes)
    if len(data) > max_bytes:
        raise _too_large(where, index, max_bytes)
    return data


def _read_path(path: Path, *, where: str, index: int, max_bytes: int) -> bytes:
    try:
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            head = handle.read(2)
            if head != GZIP_MAGIC and size > max_bytes:  # refused before reading it
                raise _too_large(f"{where} ({path})", index, max_bytes)
            return head + handle.read()
    except OSError as error:
        raise InvalidArgumentError(
            f"telemetry file {index} ({path}) cannot be read: {error.strerror or error}",
            parameter="telemetry",
        ) from None


def decompressed(data: bytes | bytearray, *, where: str, index: int, max_bytes: int) -> bytearray:
    """gzip ``data`` (one or more members) decompressed, at most ``max_bytes`` of it.

    Raises:
        DocumentError: the output would pass ``max_bytes``, or the stream is damaged or ends
            before its last member does.
    """
    out = bytearray()
    view = memoryview(data)
    while True:  # a member at a time
        stream = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
        end = 0
        try:
            while end < len(view) and not stream.eof:
                piece, end = view[end : end + _PIECE], end + _PIECE
                out += stream.decompress(piece, max_bytes + 1 - len(out))
                while stream.unconsumed_tail and len(out) <= max_bytes:
                    out += stream.decompress(stream.unconsumed_tail, max_bytes + 1 - len(out))
                if len(out) > max_bytes:
                    raise _too_large(where, index, max_bytes)
        except zlib.error as error:
            raise DocumentError(
                f"{where} is a damaged gzip stream ({error}); download it again",
                document_index=index,
            ) from None
        if not stream.eof:
            raise DocumentError(
                f"{where} is a truncated gzip stream: it ends before its data does "
                f"({len(data):,} compressed bytes, {len(out):,} read); download it again",
                document_index=index,
            )
        rest = stream.unused_data + view[end:]
        if not rest.strip(b"\0"):  # padding after the last member
            return out
        if rest[:2] != GZIP_MAGIC:
            raise DocumentError(
                f"{where} has {len(rest):,} bytes after its gzip stream that are not gzip",
                document_index=index,
            )
        view = memoryview(rest)


def _too_large(where: str, index: int, max_bytes: int) -> DocumentError:
    return DocumentError(
        f"{where} is larger than max_bytes={max_bytes:,} bytes decompressed (real PUBG telemetry "
        "files are 4-60 MB); pass a larger max_bytes if you trust it",
        document_index=index,
    )
