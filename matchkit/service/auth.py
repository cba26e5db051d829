"""API keys of the service (decision 13): ``Authorization: Bearer <key>`` or the bare key.

Keys are compared in constant time and never logged, put into messages or shown in a repr.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable

from matchkit.errors import InvalidArgumentError

__all__ = ["ApiKeys", "generate_api_key"]


def generate_api_key() -> str:
    """A fresh random key (URL-safe text)."""
    return secrets.token_urlsafe(24)


class ApiKeys:
    """The set of keys a service accepts.

    Raises:
        InvalidArgumentError: no keys, or a key that is empty or holds whitespace.
    """

    def __init__(self, keys: Iterable[str]) -> None:
        keys = tuple(keys)
        if not keys:
            raise InvalidArgumentError(
                "api_keys is empty; pass at least one key, or None to generate one",
                parameter="api_keys",
            )
        for key in keys:
            if not isinstance(key, str) or not key or any(char.isspace() for char in key):
                raise InvalidArgumentError(
                    "each API key must be a non-empty string without whitespace",
                    parameter="api_keys",
                )
        self._keys = tuple(key.encode() for key in keys)

    def __repr__(self) -> str:
        return f"ApiKeys(<{len(self._keys)} hidden>)"

    @property
    def first(self) -> str:
        """The first key (handed to tests and printed by ``matchkit serve``)."""
        return self._keys[0].decode()

    def authenticate(self, header: str | None) -> str | None:
        """The key an ``Authorization`` header value carries, if it is one of ours, else None."""
        if not header:
            return None
        scheme, _, rest = header.strip().partition(" ")
        candidate = rest.strip() if scheme.lower() == "bearer" and rest else header.strip()
        presented = candidate.encode()
        accepted = False
        for key in self._keys:  # every key is compared: the time does not tell which matched
            accepted |= hmac.compare_digest(presented, key)
        return candidate if accepted else None
