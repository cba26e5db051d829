"""The service's telemetry files: ``/telemetry/global/YYYY/MM/DD/HH/mm/<asset>-telemetry.json``.

The service stands in for the CDN the real service linked each match's telemetry asset to
(``docs/telemetry-format.md``, "What matchkit decides"): the asset's ``URL`` in a match
document is rewritten per response to this path on the service's own address
(:mod:`matchkit.service.documents`), and ``GET`` here answers the file, generated from the
stored match by :mod:`matchkit.sampledata.telemetry` (the same bytes every time) and kept in a small
LRU cache. Like a CDN it needs no API key (one sent anyway is never read), is not rate limited
and is never faulted; it answers gzip when asked, an ``ETag`` (304 on ``If-None-Match``),
``Cache-Control: public, max-age=31536000, immutable``, ``Last-Modified`` (the asset's
createdAt), CORS as the API, and a JSON:API 404 for an unknown asset or a path whose time is not
the asset's. Only assets the generator made (their stored URL on its CDN) are served: telemetry
is never made up for documents of other sources.
"""

from __future__ import annotations

import hashlib
import logging
import re
import sqlite3
import threading
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import format_datetime
from typing import Any

import orjson

from matchkit.rules.windows import TimeWindow
from matchkit.sampledata.telemetry import ASSET_URL_PREFIX, SERVICE_PATH_PREFIX, telemetry_bytes
from matchkit.service.documents import error_body
from matchkit.service.responses import (
    CORS_HEADERS,
    GZIP_LEVEL,
    JSON,
    PREFLIGHT_HEADERS,
    RawResponse,
    accepts_gzip,
)
from matchkit.service.store import MatchStore, StoredMatch

__all__ = [
    "CACHE_CONTROL",
    "TELEMETRY_GZIP_LEVEL",
    "TELEMETRY_ROUTE",
    "TelemetryEndpoint",
    "TelemetryFiles",
]

log = logging.getLogger(__name__)

TELEMETRY_ROUTE = SERVICE_PATH_PREFIX + "{path:path}"
CACHE_CONTROL = b"public, max-age=31536000, immutable"
TELEMETRY_GZIP_LEVEL = 3
"""zlib's level for telemetry files: a third of level 6's time for 13 % of the size instead of
10 % (each file is compressed when it is generated, on the request that asks for it)."""
_METHODS = b"GET, HEAD, OPTIONS"
_FOLDER = r"(\d{4}/\d{2}/\d{2}/\d{2}/\d{2})"
_ASSET = r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"
_PATH = re.compile(re.escape(SERVICE_PATH_PREFIX) + _FOLDER + "/" + _ASSET + r"-telemetry\.json")
_STORED_URL = re.compile(
    re.escape(f'"URL":"{ASSET_URL_PREFIX}').encode()
    + _FOLDER.encode()
    + b"/"
    + _ASSET.encode()
    + rb"-telemetry\.json\""
)
_ALL_TIME = TimeWindow(datetime(1970, 1, 1, tzinfo=UTC), datetime(9999, 1, 1, tzinfo=UTC))
_VARY = (b"vary", b"Accept-Encoding")


@dataclass(frozen=True)
class TelemetryFile:
    """One generated file, ready to send: its bytes, their gzip form and the validators."""

    body: bytes
    gzipped: bytes
    etag: bytes
    last_modified: bytes

    def etags(self) -> tuple[bytes, bytes]:
        """The ETag of the plain body and of the gzip one (a representation each)."""
        return self.etag, self.etag[:-1] + b'-gzip"'


class TelemetryFiles:
    """The telemetry files of one store: which asset belongs to which match, and a small LRU.

    The index (asset id -> match id and URL folder) is read from the store on first use.

    Args:
        store: the service's store.
        cache_size: how many generated files are kept.
    """

    def __init__(self, store: MatchStore, *, cache_size: int = 64) -> None:
        self.store = store
        self.cache_size = cache_size
        self._index: dict[str, tuple[str, str]] | None = None
        self._cache: OrderedDict[str, TelemetryFile] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def cached(self) -> tuple[str, ...]:
        """The asset ids whose files are cached, least recently used first."""
        with self._lock:
            return tuple(self._cache)

    def _assets(self) -> dict[str, tuple[str, str]]:
        if self._index is None:
            # A connection of its own, read-only: the store's serves the event loop's requests.
            connection = sqlite3.connect(f"file:{self.store.path}?mode=ro", uri=True)
            try:
                rows = connection.execute("SELECT id, own FROM matches WHERE shard = 'global'")
                index = {}
                for match_id, own in rows:
                    for found in _STORED_URL.finditer(own):
                        index[found.group(2).decode()] = (match_id, found.group(1).decode())
            finally:
                connection.close()
            self._index = index
        return self._index

    def find(self, folder: str, asset_id: str) -> str | None:
        """The match id of ``asset_id`` if its URL folder is ``folder`` (else ``None``)."""
        entry = self._assets().get(asset_id)
        return entry[0] if entry is not None and entry[1] == folder else None

    def file(self, asset_id: str, match_id: str) -> TelemetryFile | None:
        """The file of the asset, generated on first use; ``None`` if the match is gone."""
        with self._lock:
            cached = self._cache.get(asset_id)
            if cached is not None:
                self._cache.move_to_end(asset_id)
                return cached
        stored = self.store.get_match("global", match_id, window=_ALL_TIME)
        if stored is None:
            return None
        made = _make_file(stored, asset_id)
        with self._lock:
            self._cache[asset_id] = made
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return made


def _document(stored: StoredMatch) -> dict[str, Any]:
    parts = [part for part in (stored.own, stored.shared.replace(b"\n", b",")) if part]
    return {
        "data": orjson.loads(stored.resource),
        "included": orjson.loads(b"[" + b",".join(parts) + b"]"),
    }


def _make_file(stored: StoredMatch, asset_id: str) -> TelemetryFile:
    document = _document(stored)
    body = telemetry_bytes(document)
    created = next(
        item["attributes"]["createdAt"]
        for item in document["included"]
        if item.get("type") == "asset" and item.get("id") == asset_id
    )
    moment = datetime.strptime(created, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    return TelemetryFile(
        body=body,
        gzipped=zlib.compress(body, TELEMETRY_GZIP_LEVEL, wbits=31),
        etag=b'"' + hashlib.sha256(body).hexdigest()[:32].encode() + b'"',
        last_modified=format_datetime(moment, usegmt=True).encode(),
    )


def _error(status: int, detail: str, *, gzip: bool, headers=()) -> RawResponse:
    body = error_body(status, detail)
    extra = [(b"content-type", JSON.encode()), *CORS_HEADERS, _VARY, *headers]
    if gzip:
        body = zlib.compress(body, GZIP_LEVEL, wbits=31)
        extra.append((b"content-encoding", b"gzip"))
    return RawResponse(status, extra, body)


def _matches(if_none_match: str | None, etags: tuple[bytes, bytes]) -> bool:
    if not if_none_match:
        return False
    sent = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    return "*" in sent or any(tag.decode() in sent for tag in etags)


class TelemetryEndpoint:
    """The ASGI app of ``/telemetry/global/...``: no key, no rate limit (a CDN's rules)."""

    def __init__(self, files: TelemetryFiles) -> None:
        self.files = files

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        response = self.answer(scope)
        await response(scope, receive, send)

    def answer(self, scope: dict[str, Any]) -> RawResponse:
        headers = {
            name.decode("latin-1").lower(): value.decode("latin-1")
            for name, value in scope.get("headers") or ()
            if name.lower() in (b"accept-encoding", b"if-none-match")
        }
        gzip = accepts_gzip(headers.get("accept-encoding"))
        method = scope["method"]
        if method == "OPTIONS":
            return RawResponse(200, list(PREFLIGHT_HEADERS), b"")
        if method not in ("GET", "HEAD"):
            return _error(
                405,
                f"{method} is not allowed here; use GET",
                gzip=gzip,
                headers=[(b"allow", _METHODS)],
            )
        path = scope["path"]
        found = _PATH.fullmatch(path)
        match_id = None if found is None else self.files.find(found.group(1), found.group(2))
        if found is None or match_id is None:
            return _error(
                404,
                f"no telemetry file at {path}; telemetry URLs are the asset URLs of the match "
                "documents (/telemetry/global/YYYY/MM/DD/HH/mm/<asset-id>-telemetry.json, "
                "the time being the asset's createdAt)",
                gzip=gzip,
            )
        try:
            made = self.files.file(found.group(2), match_id)
        except Exception:
            log.exception("internal error generating the telemetry of match %s", match_id)
            return _error(500, "internal error of the service; the log has the details", gzip=gzip)
        if made is None:
            return _error(404, f"the match of telemetry asset {found.group(2)} is gone", gzip=gzip)
        etag = made.etags()[1 if gzip else 0]
        common = [
            (b"content-type", JSON.encode()),
            *CORS_HEADERS,
            _VARY,
            (b"etag", etag),
            (b"cache-control", CACHE_CONTROL),
            (b"last-modified", made.last_modified),
        ]
        if _matches(headers.get("if-none-match"), made.etags()):
            return RawResponse(304, common, b"")
        if gzip:
            return RawResponse(200, [*common, (b"content-encoding", b"gzip")], made.gzipped)
        return RawResponse(200, common, made.body)
