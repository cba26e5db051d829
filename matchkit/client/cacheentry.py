"""One entry of the HTTP cache file: a response as checksummed JSON and its raw body.

An entry is ``SEAL digest \n length \n JSON body``: requests-cache's cattrs stage turns the
response into builtin types, orjson writes them, and the body follows as raw bytes (no base64:
a cache hit must stay cheap). The SHA-256 digest covers all that follows the first line.

- **Nothing in an entry can run code**: it is JSON, never a pickle.
- **A damaged entry never loads**: a flipped byte or a changed digit fails the digest
  (:func:`unseal` raises ``ValueError``, and :class:`matchkit.client.cachefile.CacheFile`
  drops the entry). The digest guards against damage, not against someone who can write the
  file: they could store any JSON, but no code.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

import orjson
from requests_cache.serializers import SerializerPipeline, Stage
from requests_cache.serializers.preconf import base_stage

__all__ = ["SERIALIZER", "seal", "unseal"]

_SEAL = b"matchkit-cache/2 sha256:"


def _digest(data: bytes) -> bytes:
    return hashlib.sha256(data).hexdigest().encode()


def seal(response: dict[str, Any]) -> bytes:
    """A response (as builtin types) as ``SEAL digest \n length \n JSON body``.

    The body stays raw bytes after the JSON of everything else (no base64: a cache hit must
    stay cheap); the digest covers all that follows the first line.
    """
    content = response.pop("_content", None) or b""
    request = response.get("request")
    if isinstance(request, dict) and isinstance(request.get("body"), bytes):
        request["body"] = {"base64": base64.b64encode(request["body"]).decode()}
    meta = orjson.dumps(response)
    rest = b"%d\n" % len(meta) + meta + content
    return _SEAL + _digest(rest) + b"\n" + rest


def unseal(stored: bytes) -> dict[str, Any]:
    """The response that :func:`seal` stored; ``ValueError`` for anything else."""
    if not isinstance(stored, bytes | bytearray | memoryview):
        raise ValueError("not a matchkit cache entry")
    header, _, rest = bytes(stored).partition(b"\n")
    if not header.startswith(_SEAL):
        raise ValueError("not a matchkit cache entry (not sealed JSON)")
    if _digest(rest) != header[len(_SEAL) :]:
        raise ValueError("checksum mismatch")
    length, _, data = rest.partition(b"\n")
    size = int(length)
    response = orjson.loads(data[:size])
    if not isinstance(response, dict):
        raise ValueError("not a matchkit cache entry")
    response["_content"] = data[size:]
    request = response.get("request")
    if isinstance(request, dict) and isinstance(request.get("body"), dict):
        request["body"] = base64.b64decode(request["body"]["base64"])
    return response


SERIALIZER = SerializerPipeline(
    [base_stage, Stage(dumps=seal, loads=unseal)],
    name="matchkit-sealed-json",
    is_binary=True,
)
"""Response <-> sealed bytes (JSON and the raw body). No stage can execute code."""
