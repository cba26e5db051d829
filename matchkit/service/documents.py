"""JSON:API bodies of the service: match pages, single matches, status, errors, paging links.

Bodies are assembled from the stored bytes of each match (see :mod:`matchkit.service.store`);
included resources are deduplicated within a document (players recur across matches).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from http import HTTPStatus
from urllib.parse import quote

import orjson

from matchkit.rules.windows import format_time, parse_time
from matchkit.sampledata.telemetry import ASSET_URL_PREFIX, SERVICE_PATH_PREFIX
from matchkit.service.store import BASE_URL_MARKER, StoredMatch

__all__ = [
    "error_body",
    "list_body",
    "page_links",
    "single_body",
    "status_body",
]

_MARKER = BASE_URL_MARKER.encode()
# The generator's telemetry assets point at a CDN; the service serves them itself (telemetry.md).
_ASSET_PREFIX = ASSET_URL_PREFIX.encode()
# Characters left readable in link query strings; "+" and "&" are always escaped.
_SAFE = "[]-_.:,*"


def _assemble(data: bytes, included: bytes, links: dict[str, str], base_url: str) -> bytes:
    return b"".join(
        (
            b'{"data":',
            data.replace(_MARKER, base_url.encode()),
            b',"included":[',
            included.replace(_ASSET_PREFIX, f"{base_url}{SERVICE_PATH_PREFIX}".encode()),
            b'],"links":',
            orjson.dumps(links),
            b',"meta":{}}',
        )
    )


def _included(matches: Sequence[StoredMatch]) -> bytes:
    """The page's included resources, each once, in page order. A player or team shared by
    several matches of the page is the copy of the latest of them (by createdAt, then id): a
    snapshot as of its latest match, whatever the sort (decision 17)."""
    shared: dict[str, bytes] = {}
    for match in sorted(matches, key=_match_key, reverse=True):
        if match.shared:
            keys = match.shared_keys.split("\n")
            for key, resource in zip(keys, match.shared.split(b"\n"), strict=True):
                shared.setdefault(key, resource)
    seen: set[str] = set()
    parts: list[bytes] = []
    for match in matches:
        if match.own:
            parts.append(match.own)
        if match.shared:
            for key in match.shared_keys.split("\n"):
                if key not in seen:
                    seen.add(key)
                    parts.append(shared[key])
    return b",".join(parts)


def _match_key(match: StoredMatch) -> tuple[datetime, str]:
    resource = orjson.loads(match.resource)
    return parse_time(resource["attributes"]["createdAt"], parameter="createdAt"), resource["id"]


def list_body(matches: Sequence[StoredMatch], *, links: dict[str, str], base_url: str) -> bytes:
    """A page of the match list: ``data`` a list, ``included`` deduplicated, ``meta`` empty."""
    data = b"[" + b",".join(match.resource for match in matches) + b"]"
    return _assemble(data, _included(matches), links, base_url)


def single_body(match: StoredMatch, *, as_list: bool, self_link: str, base_url: str) -> bytes:
    """One match: ``data`` a one-element list (``global``) or the object (``na``, decision 9)."""
    data = b"[" + match.resource + b"]" if as_list else match.resource
    return _assemble(data, _included([match]), {"self": self_link}, base_url)


def page_links(
    url: str, params: Sequence[tuple[str, str]], *, limit: int, offset: int
) -> dict[str, str]:
    """``first``, ``next``, ``self`` and (offset > 0) ``previous`` links (decision 8).

    Each carries every other parameter of the request in its order, then ``page[limit]`` and
    ``page[offset]``.
    """

    carried = [
        f"{quote(key, safe=_SAFE)}={quote(value, safe=_SAFE)}"
        for key, value in params
        if key not in ("page[limit]", "page[offset]")
    ]
    prefix = f"{url}?{'&'.join([*carried, ''])}page[limit]={limit}&page[offset]="

    def link(page_offset: int) -> str:
        return f"{prefix}{page_offset}"

    links = {"first": link(0), "next": link(offset + limit), "self": link(offset)}
    if offset > 0:
        links["previous"] = link(max(0, offset - limit))
    return links


def status_body(*, name: str, version: str, released_at: datetime) -> bytes:
    """The status resource of decision 12."""
    return orjson.dumps(
        {
            "data": {
                "type": "status",
                "id": name,
                "attributes": {"releasedAt": format_time(released_at), "version": version},
            }
        }
    )


def error_body(status: int, detail: str, *, parameter: str | None = None) -> bytes:
    """A JSON:API error document (decision 10)."""
    error: dict[str, object] = {
        "status": str(status),
        "title": HTTPStatus(status).phrase,
        "detail": detail,
    }
    if parameter is not None:
        error["source"] = {"parameter": parameter}
    return orjson.dumps({"errors": [error]})
