"""JSON:API match documents -> :class:`matchkit.model.frames.MatchFrames`: the entry point.

The way through, one module each:

1. a reader splits each page into its resources by type: the typed reader
   (:mod:`matchkit.normalize.typed_reader`, its shapes in :mod:`matchkit.normalize.typed_shapes`)
   for raw pages of the known global shape, the general reader
   (:mod:`matchkit.normalize.general`) for any other;
2. the walker (:mod:`matchkit.normalize.walker`) deduplicates once and has batches read into
   plain chunks (:mod:`matchkit.normalize.chunks`); later copies of a resource are settled by
   :mod:`matchkit.normalize.repeats` (decision 17);
3. the builder (:mod:`matchkit.normalize.build`) makes each table from the chunks
   (:mod:`matchkit.normalize.assemble`, :mod:`matchkit.normalize.derive`,
   :mod:`matchkit.normalize.columns`), reporting into one
   :class:`matchkit.normalize.problems.Problems`.

Example:
    >>> frames = to_frames({"data": [], "links": {}})
    >>> len(frames), list(frames.matches.columns[:3])
    (0, ['match_id', 'created_at', 'duration'])
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from matchkit.model.frames import MatchFrames
from matchkit.normalize.build import build_frames
from matchkit.normalize.general import GeneralReader
from matchkit.normalize.typed_reader import TypedReader
from matchkit.normalize.typed_shapes import ShapeDecoder, profile_extras
from matchkit.normalize.walker import Walker
from matchkit.rules.jsonapi import RawDocument, iter_inputs, require_unique_members
from matchkit.rules.profiles import PROFILES, Profile

__all__ = ["to_frames"]


def to_frames(
    documents: RawDocument | Iterable[RawDocument], *, profile: str | Profile | None = None
) -> MatchFrames:
    """Normalize JSON:API match documents into tables.

    Args:
        documents: one document or an iterable of them (pages), each a dict or raw JSON
            (bytes or str). Both shapes are read: the global shape and the older ``na``
            variant; ``data`` may be a list or a single object. A document whose data holds no
            match (an empty page, a status document) adds nothing. Raw pages of the known
            global shape take a fast path (:mod:`matchkit.normalize.typed_shapes`): pass
            response bodies as they are rather than parsing them first.
        profile: the service the documents come from (``"gamelocker"``, ``"pubg"`` or a
            :class:`matchkit.rules.profiles.Profile`), whose column map is read: PUBG's player
            ids from ``stats.playerId``, kinds by the id's prefix, ``DBNOs`` as ``dbnos``,
            ``matchType`` as ``match_type``, game ``"pubg"``. ``None`` (the default): the
            profile whose ``titleId`` the documents carry, else Gamelocker. PUBG's players,
            samples and seasons fill ``player_matches``, ``samples``, ``sample_matches`` and
            ``seasons``.

    Returns:
        The tables, with ``problems`` listing what could not be resolved (references to
        resources no document includes, values that do not fit their column, resource types
        outside the model, resources that arrived twice with different content). A player or
        team in several matches keeps the copy that came with its latest match (decision 17).

    Raises:
        DocumentError: a document is not JSON, not a JSON:API document, gives a top-level
            member twice (a second ``"data": []``), is an error document (top-level
            ``errors``), or holds a resource without a type or id or with a wrong shape
            (attributes, stats or relationships that are not objects); or the documents are
            of two services, or not of the profile given.
        InvalidArgumentError: ``profile`` names no profile.

    Example:
        >>> frames = to_frames(page_bytes for page_bytes in pages)  # doctest: +SKIP
        >>> frames.participant_view().groupby("side")["won"].mean()  # doctest: +SKIP
    """
    walker = Walker([TypedReader(decoder) for decoder in shape_decoders()], GeneralReader())
    for index, document in enumerate(iter_inputs(documents)):
        require_unique_members(
            document, document_index=index
        )  # a repeated member: refused, not read
        walker.add(document, index)
    walker.flush()
    return build_frames(walker, profile)


@cache
def shape_decoder() -> ShapeDecoder:
    """The typed reader's decoder of the global (Gamelocker) shape (its Structs are declared
    once per process)."""
    return ShapeDecoder()


@cache
def shape_decoders() -> tuple[ShapeDecoder, ...]:
    """The typed readers' decoders: the global shape's, then one for each profile with a column
    map of its own (its mapped members declared: PUBG's matches take the fast path too)."""
    return (
        shape_decoder(),
        *(
            ShapeDecoder(profile_extras(profile), always=True)
            for profile in PROFILES.values()
            if profile.columns.columns
        ),
    )
