"""The PUBG double's second host: the CDN the matches' asset URLs name, and the names.

``GET /<title>/<shard>/YYYY/MM/DD/HH/mm/<asset id>-telemetry.json`` answers the match's event
file (:mod:`matchkit.sampledata.pubg.telemetry`), gzip-compressed when the request accepts gzip
(PUBG's telemetry is served gzipped). Like the real CDN it needs no key (one sent is never read)
and has no rate limit; a file past the retention answers 403 (what the real CDN answers, per the
API team in pubg-python issue #86), an unknown path 404. It is its own ASGI app, served on its
own listener: a client's API key is never sent to it.

It also serves the sample set's names (:mod:`matchkit.sampledata.pubg.catalogue`) as PUBG
publishes its own, one ``{id: name}`` dictionary a kind at the paths of the PUBG profile's
:class:`matchkit.rules.profiles.NameDictionaries` (``/pubg/api-assets/master/dictionaries/
telemetry/mapName.json``...), so that a client swaps only the host to read them here.
"""

from __future__ import annotations

import re
import threading
import zlib
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import orjson
from starlette.applications import Starlette

from matchkit.rules.profiles import Profile
from matchkit.sampledata.pubg import PubgSampleSet
from matchkit.sampledata.pubg.catalogue import catalogue
from matchkit.sampledata.pubg.documents import asset_id, telemetry_path
from matchkit.sampledata.pubg.plan import MatchPlan
from matchkit.service.pubg.app import PubgService
from matchkit.service.pubg.bodies import date_header, error_body
from matchkit.service.responses import CORS_HEADERS, RawResponse, accepts_gzip

__all__ = ["TELEMETRY_GZIP_LEVEL", "create_telemetry_app"]

TELEMETRY_GZIP_LEVEL = 3
_PATH = re.compile(r"/[^/]+/[^/]+/\d{4}/\d{2}/\d{2}/\d{2}/\d{2}/([0-9a-f-]{36})-telemetry\.json")
_JSON = b"application/json"


def _dictionaries(profile: Profile) -> dict[str, bytes]:
    """Path -> body of each name dictionary ``profile`` publishes, from the set's catalogue (a
    kind the catalogue does not name is an empty dictionary)."""
    published = profile.name_dictionaries
    if published is None:
        return {}
    folder = urlsplit(published.url).path
    names = catalogue()["names"]
    return {
        folder + path: orjson.dumps(names.get(kind, {}), option=orjson.OPT_SORT_KEYS)
        for kind, path in published.files.items()
    }


def create_telemetry_app(service: PubgService) -> Starlette:
    """The CDN of ``service`` (it reads the service's sample set and clock)."""
    app = Starlette()
    # Every path is the CDN's: the router's default answers them all.
    app.router.default = _Telemetry(service)  # type: ignore[assignment]
    app.state.service = service
    return app


class _Telemetry:
    def __init__(self, service: PubgService) -> None:
        self.service = service
        self._index: dict[str, MatchPlan] | None = None
        self._lock = threading.Lock()
        self._dictionaries = _dictionaries(service.profile)

    def _assets(self) -> dict[str, MatchPlan]:
        with self._lock:
            if self._index is None:
                sample_set: PubgSampleSet = self.service.sample_set
                self._index = {
                    asset_id(match): match
                    for shard in sample_set.plan.shards.values()
                    for match in shard.matches
                }
            return self._index

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        await self.answer(scope)(scope, receive, send)

    def answer(self, scope: dict[str, Any]) -> RawResponse:
        now = self.service.now()
        headers = dict(
            (name.decode("latin-1").lower(), value.decode("latin-1"))
            for name, value in scope.get("headers") or ()
        )
        gzip = accepts_gzip(headers.get("accept-encoding"))
        if scope["method"] not in ("GET", "HEAD"):
            return _error(405, f"{scope['method']} is not allowed here; use GET", now)
        path = scope["path"]
        if path in self._dictionaries:
            common = [(b"content-type", _JSON), *CORS_HEADERS, date_header(now)]
            return RawResponse(200, common, self._dictionaries[path])
        found = _PATH.fullmatch(path)
        match = None if found is None else self._assets().get(found.group(1))
        if match is None or telemetry_path(match) != path or match.ended_at > now:
            return _error(404, f"no telemetry file at {path}", now)
        if not self.service.sample_set.available(match, now=now):
            days = self.service.profile.retention.days
            return _error(403, f"the telemetry of match {match.id} is past its {days} days", now)
        body = self.service.sample_set.telemetry(match)
        common = [
            (b"content-type", _JSON),
            *CORS_HEADERS,
            (b"vary", b"Accept-Encoding"),
            (b"cache-control", b"public, max-age=31536000, immutable"),
            date_header(now),
        ]
        if gzip:
            compressed = zlib.compress(body, TELEMETRY_GZIP_LEVEL, wbits=31)
            return RawResponse(200, [*common, (b"content-encoding", b"gzip")], compressed)
        return RawResponse(200, common, body)


def _error(status: int, description: str, now: datetime) -> RawResponse:
    body = error_body(status, description)
    headers = [(b"content-type", _JSON), *CORS_HEADERS, date_header(now)]
    return RawResponse(status, headers, body)
