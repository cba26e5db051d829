"""Which profile's column map a normalization reads: given, or told by the documents.

Each profile declares the ``titleId`` values its documents carry
(:attr:`matchkit.rules.profiles.Profile.title_ids`); the match, player and sample resources of
the documents name theirs. With no profile given, the one whose title ids the documents carry is
read (none claimed: the default, Gamelocker). Documents of two profiles in one call, or a
profile given that the documents contradict, are refused: read with the wrong map, PUBG's
participants would all be "anonymous" and their player ids empty, without a word.
"""

from __future__ import annotations

from collections.abc import Iterable

import pyarrow as pa
import pyarrow.compute as pc

from matchkit.errors import DocumentError
from matchkit.normalize.arrow import ARROW_POOL
from matchkit.normalize.chunks import ChunkTable
from matchkit.rules.profiles import DEFAULT_PROFILE, PROFILES, Profile, get_profile

__all__ = ["TITLED_TYPES", "resolve_profile", "title_ids"]

TITLED_TYPES = ("match", "player", "sample")
"""The resource types whose ``attributes.titleId`` tells the service."""


def title_ids(tables: dict[str, ChunkTable]) -> set[str]:
    """The ``titleId`` values the titled resources carry (read without taking the columns)."""
    found: set[str] = set()
    for type_ in TITLED_TYPES:
        table = tables.get(type_)
        if table is None or not table.chunks:
            continue
        for chunk in table.chunks:
            array = chunk.sections.get("attributes", {}).get("titleId")
            if array is not None and pa.types.is_string(array.type):
                found.update(v for v in pc.unique(array, memory_pool=ARROW_POOL).to_pylist() if v)
    return found


def resolve_profile(given: str | Profile | None, titles: Iterable[str]) -> Profile:
    """The profile to read the documents with.

    Raises:
        InvalidArgumentError: ``given`` is no profile.
        DocumentError: the documents are of two profiles, or not of the one given.
    """
    profile = None if given is None else get_profile(given)
    claimed: dict[str, tuple[Profile, str]] = {}
    for title in sorted(titles):
        owners = [candidate for candidate in PROFILES.values() if title in candidate.title_ids]
        # A title no profile claims is the default profile's (Gamelocker titles are many).
        owner = owners[0] if owners else DEFAULT_PROFILE
        claimed.setdefault(owner.name, (owner, title))
    if len(claimed) > 1:
        raise DocumentError(
            f"the documents are of several services ({', '.join(sorted(claimed))}, by their "
            "titleId); normalize each service's documents apart, then MatchFrames.concat"
        )
    if not claimed:
        return profile or DEFAULT_PROFILE
    ((found, title),) = claimed.values()
    if profile is not None and profile is not found:
        raise DocumentError(
            f"the documents are the {found.name} profile's (titleId {title!r}), "
            f"not the {profile.name} profile's; pass profile={found.name!r} or leave it out"
        )
    return found
