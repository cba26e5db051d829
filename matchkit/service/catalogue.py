"""``GET /catalogue``: the data set's catalogue of names, served as it is on disk (no key).

A data set folder may carry a catalogue file (``catalogue.json``, named in its manifest's
``catalogue`` entry): what each id of the game's vocabulary is called
(:mod:`matchkit.synth.names` writes the sample set's). The service answers it to anyone, like
``/status``: it holds no match data. A folder without one answers 404 with a JSON:API error, so
a client can tell "no catalogue here" from an empty one.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from starlette.requests import Request

from matchkit.sampledata.dataset import find_catalogue
from matchkit.service.documents import error_body
from matchkit.service.responses import JSON, PREFLIGHT_HEADERS, RawResponse, accepts_gzip, respond

__all__ = ["CATALOGUE_PATH", "CatalogueEndpoint", "catalogue_endpoint"]

CATALOGUE_PATH = "/catalogue"


def catalogue_endpoint(data: str | os.PathLike[str] | None) -> CatalogueEndpoint:
    """The ASGI app answering ``GET``/``HEAD``/``OPTIONS`` on the catalogue of ``data``."""
    return CatalogueEndpoint(find_catalogue(data))


class CatalogueEndpoint:
    """An ASGI app (a class, so that Starlette passes it every method) serving one file."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        request = Request(scope, receive)
        gzip = accepts_gzip(request.headers.get("accept-encoding"))
        if request.method == "OPTIONS":
            response = RawResponse(200, list(PREFLIGHT_HEADERS), b"")
        elif request.method not in ("GET", "HEAD"):
            body = error_body(405, f"{request.method} is not allowed here; use GET")
            response = respond(
                405, body, content_type=JSON, gzip=gzip, extra_headers=[(b"allow", b"GET, HEAD")]
            )
        elif self.path is None:
            detail = (
                "this service's data set has no catalogue of names: ids stay ids "
                "(pass your own mapping to matchkit.names.load_names)"
            )
            response = respond(404, error_body(404, detail), content_type=JSON, gzip=gzip)
        else:
            response = respond(200, self.path.read_bytes(), content_type=JSON, gzip=gzip)
        await response(scope, receive, send)
