"""A PUBG telemetry file's bytes: from a path, bytes, text or a parsed list; gzip undone, capped.

PUBG's CDN serves each file gzip-compressed (``rst/telemetry.rst``), and a file kept on disk may
be kept so. Compressed content (it starts with gzip's magic bytes) is decompressed here in
pieces, never past ``max_bytes`` of output: a file that would decompress beyond it (a real file
is 4-60 MB; a compression bomb is not) is a :class:`matchkit.errors.DocumentError` before more
memory is taken, as is a truncated or damaged stream.

Content not yet in memory whole (a path, or gzip bytes) is handed on in pieces of about
:data:`PIECE_BYTES` (:func:`content_pieces`), read and decompressed in a thread of its own one
piece ahead of the reader (zlib and file reads release the GIL, so the second core does that
work while the events of the piece before are read): the reader cuts whole events out of them,
and the whole decompressed file is never held. Content already whole (plain bytes, text, a
parsed list) is read in one piece (:func:`read_content`). Both make the bytes with the same
reader and decompressor, so a file is refused with the same message either way.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Generator, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeAlias, TypeGuard

import msgspec

from matchkit.errors import DocumentError, InvalidArgumentError

__all__ = [
    "DEFAULT_MAX_BYTES",
    "GZIP_MAGIC",
    "PIECE_BYTES",
    "PubgSource",
    "checked_max_bytes",
    "content_pieces",
    "is_json_text",
    "read_content",
]

PubgSource: TypeAlias = str | os.PathLike[str] | bytes | bytearray | memoryview | list[Any]
"""One telemetry file: a path, its bytes (gzip or not), its JSON text, or its parsed events."""

DEFAULT_MAX_BYTES = 2 * 1024**3
"""The largest decompressed file read by default: 2 GiB (real files are 4-60 MB)."""

GZIP_MAGIC = b"\x1f\x8b"

_PIECE = 1 << 20
"""Compressed bytes fed to the decompressor at a time."""

_WHOLE_PIECE = 1 << 24
"""Bytes made at a time by a read of a whole file (:func:`read_content`)."""

PIECE_BYTES = 1 << 19
"""About how many decompressed bytes of a streamed file are handed on at a time: a few pieces of
a real file (4-60 MB), each large enough that what is paid per piece is lost in its events."""


def is_json_text(source: object) -> TypeGuard[str]:
    """Whether ``source`` is a file's JSON text rather than a path to it (it opens an array or
    an object)."""
    return isinstance(source, str) and source.lstrip()[:1] in ("[", "{")


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
    pieces = _pieces(source, where=where, index=index, max_bytes=max_bytes, piece=_WHOLE_PIECE)
    if pieces is not None:
        whole = bytearray()
        for piece in pieces:
            whole += piece
        return whole
    if isinstance(source, bytes | bytearray | memoryview):
        data = source if isinstance(source, bytes | bytearray) else bytes(source)
    elif is_json_text(source):
        data = source.encode()
    else:
        raise InvalidArgumentError(
            f"telemetry file {index} is a {type(source).__name__}; give a path, bytes, JSON "
            "text or the parsed list of events",
            parameter="telemetry",
        )
    if len(data) > max_bytes:
        raise _too_large(where, index, max_bytes)
    return data


def content_pieces(
    source: Any, *, where: str, index: int, max_bytes: int, piece: int = PIECE_BYTES
) -> Generator[bytes, None, None] | None:
    """The decompressed bytes of a file not yet held whole, in pieces of at most ``piece`` bytes
    (a path, plain or gzip; gzip bytes), each made in a thread one piece ahead of the caller;
    ``None`` for content already whole (plain bytes, JSON text, a parsed list:
    :func:`read_content`). Close the iterator when done with it: its thread stops.

    Raises (from the pieces, as they are made): what :func:`read_content` raises for the same
    content.
    """
    pieces = _pieces(source, where=where, index=index, max_bytes=max_bytes, piece=piece)
    return None if pieces is None else _ahead(pieces)


def _pieces(
    source: Any, *, where: str, index: int, max_bytes: int, piece: int
) -> Generator[bytes, None, None] | None:
    """:func:`content_pieces`, made as they are asked for."""
    if isinstance(source, bytes | bytearray | memoryview):
        view = memoryview(source).cast("B")
        if view[:2] != GZIP_MAGIC:
            return None
        blocks = (view[start : start + _PIECE] for start in range(0, len(view), _PIECE))
        return _inflated(blocks, where=where, index=index, max_bytes=max_bytes, piece=piece)
    if isinstance(source, str | os.PathLike) and not is_json_text(source):
        return _path_pieces(
            Path(source), where=where, index=index, max_bytes=max_bytes, piece=piece
        )
    return None


def _ahead(pieces: Generator[bytes, None, None]) -> Generator[bytes, None, None]:
    """``pieces``, the next one made in a thread while the caller uses this one (the thread
    ends, and ``pieces`` is closed, when the pieces end or this iterator is closed)."""
    try:
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="matchkit-telemetry") as pool:
            coming = pool.submit(next, pieces, None)
            try:
                while (piece := coming.result()) is not None:
                    coming = pool.submit(next, pieces, None)
                    yield piece
            finally:
                coming.cancel()
    finally:
        pieces.close()


def _path_pieces(
    path: Path, *, where: str, index: int, max_bytes: int, piece: int
) -> Generator[bytes, None, None]:
    """A file's decompressed bytes, read from disk as they are asked for."""
    try:
        handle = path.open("rb")
    except OSError as error:
        raise _unreadable(path, index, error) from None
    with handle:
        try:
            size = os.fstat(handle.fileno()).st_size
            head = handle.read(2)
        except OSError as error:
            raise _unreadable(path, index, error) from None
        if head != GZIP_MAGIC and size > max_bytes:  # refused before reading it
            raise _too_large(where, index, max_bytes)

        def blocks(length: int) -> Iterator[bytes]:
            yield head
            while True:
                try:
                    block = handle.read(length)
                except OSError as error:
                    raise _unreadable(path, index, error) from None
                if not block:
                    return
                yield block

        if head == GZIP_MAGIC:
            yield from _inflated(
                blocks(_PIECE), where=where, index=index, max_bytes=max_bytes, piece=piece
            )
            return
        total = 0
        for block in blocks(piece):
            total += len(block)
            if total > max_bytes:  # the file grew since it was measured
                raise _too_large(where, index, max_bytes)
            yield block


def _inflated(
    compressed: Iterable[bytes | memoryview], *, where: str, index: int, max_bytes: int, piece: int
) -> Generator[bytes, None, None]:
    """gzip data (one or more members, zeros after the last allowed), given in blocks,
    decompressed in pieces of at most ``piece`` bytes, at most ``max_bytes`` in all.

    Raises:
        DocumentError: the output would pass ``max_bytes``; the stream is damaged, ends before
            its last member does, or is followed by bytes that are neither zeros nor another
            member. The message does not depend on the blocks' or the pieces' sizes.
    """
    blocks = iter(compressed)
    stream = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    total = 0  # bytes made
    read = 0  # compressed bytes given
    ended = False  # a member ended: zeros to the end, or another member, may follow
    after = 0  # zeros after the last member: only zeros may follow them
    rest = b""  # the first byte after an ended member, too few to tell whether a member starts
    for block in blocks:
        read += len(block)
        data: bytes | memoryview = rest + block if rest else block
        rest = b""
        more = False  # the last call's output was cut at its limit: more may come
        while data or more:
            if ended:
                if not bytes(data).strip(b"\0"):  # zeros after the last member
                    after += len(data)
                    break
                if after or data[:1] == b"\0" or (len(data) >= 2 and data[:2] != GZIP_MAGIC):
                    raise _not_gzip_after(where, index, after + len(data) + sum(map(len, blocks)))
                if len(data) < 2:
                    rest = bytes(data)
                    break
                stream = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
                ended = False
            limit = min(piece, max_bytes + 1 - total)
            try:
                out = stream.decompress(data, limit)
            except zlib.error as error:
                raise DocumentError(
                    f"{where} is a damaged gzip stream ({error}); download it again",
                    document_index=index,
                ) from None
            more = len(out) == limit and not stream.eof
            total += len(out)
            if total > max_bytes:
                raise _too_large(where, index, max_bytes)
            data = stream.unconsumed_tail
            if stream.eof:
                data, ended = stream.unused_data, True
            if out:
                yield out
    if rest:
        raise _not_gzip_after(where, index, len(rest))
    if not ended:
        raise DocumentError(
            f"{where} is a truncated gzip stream: it ends before its data does "
            f"({read:,} compressed bytes, {total:,} read); download it again",
            document_index=index,
        )


def _not_gzip_after(where: str, index: int, count: int) -> DocumentError:
    return DocumentError(
        f"{where} has {count:,} bytes after its gzip stream that are not gzip",
        document_index=index,
    )


def _unreadable(path: Path, index: int, error: OSError) -> InvalidArgumentError:
    return InvalidArgumentError(
        f"telemetry file {index} ({path}) cannot be read: {error.strerror or error}",
        parameter="telemetry",
    )


def _too_large(where: str, index: int, max_bytes: int) -> DocumentError:
    return DocumentError(
        f"{where} is larger than max_bytes={max_bytes:,} bytes decompressed (real PUBG telemetry "
        "files are 4-60 MB); pass a larger max_bytes if you trust it",
        document_index=index,
    )
