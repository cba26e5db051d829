"""A profile's names published apart from its service: what :meth:`matchkit.Client.names` reads
when the profile declares :class:`matchkit.rules.profiles.NameDictionaries` (PUBG's
``api-assets``: one ``{id: name}`` JSON object a kind of id).

Each dictionary is a GET through the client's one transport (kind ``dictionary``): never with the
API key (another host), never rate limited, checked by :func:`dictionary_parser` before it is
used or cached, and cached for :data:`DICTIONARY_EXPIRY`, so that names work offline once read.
The embedded PUBG double serves its own dictionaries at the same paths on its second host, so
that the client swaps only the host (as it does for telemetry files). A local copy of the
dictionaries (a folder holding the same paths) is read from disk instead.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

import orjson

from matchkit.client.request import Fetched
from matchkit.client.responses import BadAnswerError
from matchkit.errors import DocumentError, InvalidArgumentError
from matchkit.names import Names
from matchkit.rules.jsonapi import repeated_members
from matchkit.rules.profiles import NameDictionaries

if TYPE_CHECKING:
    from matchkit.client.client import Client

__all__ = ["DICTIONARY_EXPIRY", "dictionary_parser", "fetch_dictionaries"]

DICTIONARY_EXPIRY = timedelta(days=7)
"""How long a dictionary read from its host is used before it is asked again (new maps and
items appear with game updates; offline, the cached copy is used however old)."""


def dictionary_parser(url: str) -> Callable[[Fetched], Mapping[str, str]]:
    """The parse hook of one dictionary: a JSON object of id -> name, each id once.

    Raises:
        BadAnswerError: the body is not such an object (a GitHub error page, say).
    """

    def parse(fetched: Fetched) -> Mapping[str, str]:
        return _read_dictionary(fetched.require_body(), url, BadAnswerError)

    return parse


def fetch_dictionaries(client: Client, location: str | os.PathLike[str] | None) -> Names:
    """Every dictionary of the client's profile, from ``location`` (a folder URL or a local
    folder) or, with ``None``, from where the profile publishes them: see
    :meth:`matchkit.Client.names`."""
    published = client.settings.profile.name_dictionaries
    if published is None:
        raise InvalidArgumentError(
            f"dictionaries={location!r}: the {client.settings.profile.name} profile's names come "
            "from its service's catalogue; call client.names() without it, or read a file with "
            "matchkit.names.load_names",
            parameter="dictionaries",
        )
    if location is not None and not _is_url(location):
        return _read_folder(Path(location), published)
    folder = str(location) if location is not None else _where(client, published)
    folder = folder if folder.endswith("/") else folder + "/"
    names = {}
    for kind, path in published.files.items():
        url = folder + path
        names[kind] = client.transport.download(
            url,
            what=f"the dictionary of {kind} names",
            parse=dictionary_parser(url),
            kind="dictionary",
            expire_after=DICTIONARY_EXPIRY,
        )
    return Names(names, source=folder)


def _where(client: Client, published: NameDictionaries) -> str:
    """The profile's folder URL, on the embedded double's second host when the client reads
    the embedded service (it serves its own dictionaries at the same paths)."""
    host = client.settings.telemetry_url if client.settings.embedded else None
    if host is None:
        return published.url
    parts, base = urlsplit(published.url), urlsplit(host)
    return urlunsplit((base.scheme, base.netloc, parts.path, "", ""))


def _is_url(location: str | os.PathLike[str]) -> bool:
    return isinstance(location, str) and location.lower().startswith(("http://", "https://"))


def _read_folder(folder: Path, published: NameDictionaries) -> Names:
    """A local copy: ``folder`` holds the dictionaries at the profile's paths (a clone of the
    publishing repository's ``dictionaries`` folder, or the clone itself)."""
    if not folder.is_dir():
        raise InvalidArgumentError(
            f"dictionaries={str(folder)!r} is neither a URL nor a folder", parameter="dictionaries"
        )
    if (folder / "dictionaries").is_dir():
        folder = folder / "dictionaries"
    missing = [path for path in published.files.values() if not (folder / path).is_file()]
    if missing:
        raise InvalidArgumentError(
            f"dictionaries={str(folder)!r} lacks {', '.join(missing)}; point at a copy of "
            f"the folder at {published.url}",
            parameter="dictionaries",
        )
    names = {
        kind: _read_dictionary((folder / path).read_bytes(), str(folder / path), DocumentError)
        for kind, path in published.files.items()
    }
    return Names(names, source=str(folder))


def _read_dictionary(body: bytes, source: str, error: type[Exception]) -> Mapping[str, str]:
    try:
        document = orjson.loads(body)
    except orjson.JSONDecodeError as problem:
        raise error(f"{source}: not JSON ({problem})") from None
    if not isinstance(document, dict) or not all(
        isinstance(name, str) for name in document.values()
    ):
        raise error(f"{source}: not a dictionary of names (a JSON object of id: name)")
    repeated = repeated_members(body)
    if repeated:
        raise error(f"{source}: gives {', '.join(map(repr, repeated))} twice")
    return document
