"""API keys of the service (decision 13): ``Authorization: Bearer <key>`` or the bare key.

Keys are compared in constant time and never logged, put into messages or shown in a repr.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable, Mapping
from pathlib import Path

from matchkit.errors import InvalidArgumentError, StorageError

__all__ = [
    "API_KEY_VARIABLE",
    "ApiKeys",
    "generate_api_key",
    "read_api_key_file",
    "resolve_api_keys",
]

API_KEY_VARIABLE = "MATCHKIT_API_KEY"


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


def read_api_key_file(path: str | Path) -> tuple[str, ...]:
    """The keys in a file: one per line; blank lines and lines starting with ``#`` are skipped.

    Raises:
        MatchkitError: the file cannot be read or holds no key (the message names the file,
            never its content).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not UTF-8 text"
        raise StorageError(
            f"cannot read the API key file {str(path)!r} ({reason}); give a readable file "
            "with one key per line",
            path=path,
        ) from None
    keys = tuple(
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    )
    if not keys:
        raise InvalidArgumentError(
            f"the API key file {str(path)!r} holds no key; write one per line",
            parameter="api_key_file",
        )
    return keys


def resolve_api_keys(
    api_keys: Iterable[str] | None,
    *,
    api_key_file: str | Path | None,
    environ: Mapping[str, str],
) -> tuple[tuple[str, ...] | None, str]:
    """The keys a served service accepts, and where they came from (for its banner).

    Keys given as arguments and in ``api_key_file`` are all accepted; without either,
    ``MATCHKIT_API_KEY`` in ``environ``; without that, ``None``: a key is to be generated. So a
    fixed key need not appear on a command line (where ``ps`` shows it).
    """
    given = tuple(api_keys or ())
    if api_key_file is not None:
        given += read_api_key_file(api_key_file)
    if given:
        return given, "given"
    from_environment = environ.get(API_KEY_VARIABLE, "").strip()
    if from_environment:
        return (from_environment,), f"from {API_KEY_VARIABLE}"
    return None, "generated"
