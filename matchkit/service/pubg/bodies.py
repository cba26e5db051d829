"""The bodies and headers of the PUBG double: errors as PUBG writes them, status, links, Date.

PUBG's documented error bodies (``swagger/en/responses/*.yml`` of its documentation) are
objects with a ``title`` (``"Not Found"``, ``"Unauthorized"``, ``"Unsupported media type"``) and
an optional ``description``; the double puts each in a JSON:API ``errors`` list, so that any
JSON:API reader names it (:func:`matchkit.rules.jsonapi.describe_errors`).
"""

from __future__ import annotations

from datetime import datetime
from email.utils import format_datetime

import orjson

from matchkit.rules.windows import format_time

__all__ = ["TITLES", "date_header", "error_body", "status_body"]

TITLES = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    415: "Unsupported media type",
    429: "Too Many Requests",
    500: "Internal Server Error",
}
"""The ``title`` of each status's body (PUBG's own words where its documentation has them)."""


def error_body(status: int, description: str) -> bytes:
    """``{"errors": [{"title": ..., "description": ...}]}``."""
    return orjson.dumps({"errors": [{"title": TITLES[status], "description": description}]})


def status_body(*, version: str, released_at: datetime) -> bytes:
    """``GET /status``: ``{"data": {"type": "status", "id": "pubg-api", ...}}``."""
    return orjson.dumps(
        {
            "data": {
                "type": "status",
                "id": "pubg-api",
                "attributes": {"releasedAt": format_time(released_at), "version": version},
            }
        }
    )


def date_header(now: datetime) -> tuple[bytes, bytes]:
    """The ``Date`` header of an answer at the service's ``now`` (RFC 9110's form)."""
    return (b"date", format_datetime(now, usegmt=True).encode())
