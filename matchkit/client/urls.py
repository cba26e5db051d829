"""URLs as the request path sees them: can one be requested, how messages show it, its origin.

Example:
    >>> url_problem("http://[::1/x")
    "'http://[::1/x' is not a URL (Invalid IPv6 URL)"
    >>> url_problem("http://127.0.0.1:99999/x")
    "'http://127.0.0.1:99999/x' has a port out of range (0-65535)"
    >>> origin("HTTP://Example.com/a") == origin("http://example.com:80/b")
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode, urlsplit

__all__ = ["display_url", "origin", "url_problem"]


def url_problem(url: object) -> str | None:
    """What makes ``url`` impossible to request, or ``None`` when it can be sent."""
    if not isinstance(url, str):
        return f"{url!r} is not a URL (not text)"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises for a port out of range)
    except ValueError as error:
        reason = str(error)
        if "out of range" in reason:
            return f"{url!r} has a port out of range (0-65535)"
        return f"{url!r} is not a URL ({reason})"
    if parts.scheme.lower() not in ("http", "https"):
        return f"{url!r} is not an http:// or https:// URL"
    if not parts.hostname:
        return f"{url!r} names no host"
    if any(ord(character) < 33 or ord(character) == 127 for character in url):
        return f"{url!r} holds spaces or control characters"
    return None


def display_url(url: str, params: Mapping[str, str] | None) -> str:
    """``url`` with ``params`` as its query: how messages name a request."""
    return f"{url}?{urlencode(params)}" if params else url


def origin(url: str) -> tuple[str, str, int | None]:
    """The scheme, host and port of ``url`` (the default port when it names none): the
    ``Authorization`` header never leaves it."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    port = parts.port or {"http": 80, "https": 443}.get(scheme)
    return scheme, (parts.hostname or "").lower(), port
