"""JSON:API match documents -> :class:`~matchkit.model.frames.MatchFrames`.

Each raw page is decoded by the fast path into typed records (:mod:`matchkit.normalize.wire`) when
it has the known global shape, and parsed into dicts otherwise. One pass over the resources of every
document deduplicates them and appends each to the
:class:`~matchkit.normalize.chunks.ResourceBuffer` of
its type, which converts them to Arrow arrays a chunk
at a time. Then each table is assembled once, with its dtypes; foreign keys come from the
relationships' identifier arrays, joined by (type, id) in Arrow. A resource seen again (same type
and id, on any page) is skipped: the first one wins. References to resources that no document
includes keep their id and are reported in ``MatchFrames.problems``.

Example:
    >>> frames = to_frames({"data": [], "links": {}})
    >>> len(frames), list(frames.matches.columns[:3])
    (0, ['match_id', 'created_at', 'duration'])
"""

from __future__ import annotations

import gc
import logging
from collections import Counter
from collections.abc import Iterable
from functools import cache
from operator import attrgetter
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from msgspec import Struct

from matchkit.model.frames import MatchFrames
from matchkit.model.schema import TABLES
from matchkit.normalize.assemble import assemble
from matchkit.normalize.chunks import FLUSH_ROWS, Links, ResourceBuffer
from matchkit.normalize.derive import (
    participant_kinds,
    roster_sides_from_participants,
    sides_from_stats,
    whole_match_game,
)
from matchkit.normalize.wire import ShapeDecoder
from matchkit.rules.jsonapi import RAW_TYPES, RawDocument, iter_inputs, load_document, resource_key

__all__ = ["to_frames"]

logger = logging.getLogger(__name__)

# resource type -> (table, relationships read as identifier arrays)
_RESOURCE_TABLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "match": ("matches", ("rosters", "rounds", "assets", "spectators")),
    "roster": ("rosters", ("participants", "team")),
    "participant": ("participants", ("player",)),
    "round": ("rounds", ("participants",)),
    "player": ("players", ()),
    "team": ("teams", ()),
    "asset": ("assets", ()),
}

FLUSH_ALL_ROWS = 2048
"""Resources walked (all types together) between two conversions of every buffer."""

_ID = attrgetter("id")

_TYPED_GIVE_UP = 16
"""Pages the fast path may decline beyond those it decodes before it is no longer tried."""

# How many references of one kind are listed one by one in the problems before a count.
_LISTED_PER_KIND = 10


def to_frames(documents: RawDocument | Iterable[RawDocument]) -> MatchFrames:
    """Normalize JSON:API match documents into tables.

    Args:
        documents: one document or an iterable of them (pages), each a dict or raw JSON
            (bytes or str). Both shapes are read: the global shape and the older ``na``
            variant; ``data`` may be a list or a single object. A document whose data holds no
            match (an empty page, a status document) adds nothing. Raw pages of the known
            global shape take a fast path (:mod:`matchkit.normalize.wire`): pass response bodies as
            they are rather than parsing them first.

    Returns:
        The tables, with ``problems`` listing what could not be resolved (references to
        resources no document includes, values that do not fit their column, resource types
        outside the model).

    Raises:
        DocumentError: a document is not JSON, not a JSON:API document, is an error document
            (top-level ``errors``), or holds a resource without a type or id or with a wrong
            shape (attributes, stats or relationships that are not objects).

    Example:
        >>> frames = to_frames(page_bytes for page_bytes in pages)  # doctest: +SKIP
        >>> frames.participant_view().groupby("side")["won"].mean()  # doctest: +SKIP
    """
    # The pass allocates many small containers that all stay alive until the tables are built;
    # the cyclic collector would scan them again and again for nothing. Pausing it is measured
    # in benchmarks/bench_normalize.py.
    collector_was_enabled = gc.isenabled()
    gc.disable()
    try:
        walker = _Walker(_shape_decoder())
        for index, document in enumerate(iter_inputs(documents)):
            walker.add(document, index)
        return walker.frames()
    finally:
        if collector_was_enabled:
            gc.enable()


@cache
def _shape_decoder() -> ShapeDecoder:
    """The fast path's decoder (its Structs are declared once per process)."""
    return ShapeDecoder({type_: names for type_, (_, names) in _RESOURCE_TABLES.items()})


class _Walker:
    """Walks resources into per-type buffers, then builds the tables.

    Raw pages are first decoded by the fast path (:mod:`matchkit.normalize.wire`); a page it
    declines, and a document given as a dict, is read the general way. After :data:`_TYPED_GIVE_UP`
    more declined pages than decoded ones, the input is taken not to be of the known shape and
    the fast path is no longer tried (each try costs a partial parse).
    """

    def __init__(self, decoder: ShapeDecoder) -> None:
        self.decoder = decoder
        self.buffers = {
            type_: ResourceBuffer(
                type_,
                relationships=names,
                text_stats=type_ == "match",
                shape=decoder.shapes[type_],
            )
            for type_, (_, names) in _RESOURCE_TABLES.items()
        }
        self.entries = {type_: (set(), buffer) for type_, buffer in self.buffers.items()}
        self.typed_entries = {
            decoder.shapes[type_].struct: entry for type_, entry in self.entries.items()
        }
        self.ignored: Counter[str] = Counter()
        self.problems: list[str] = []
        self.pending = 0
        self.declined = 0  # pages the fast path declined, less those it decoded

    def add(self, document: RawDocument, index: int) -> None:
        """Walk one document of the input (a dict or raw JSON)."""
        if self.declined < _TYPED_GIVE_UP and isinstance(document, RAW_TYPES):
            typed = self.decoder.decode(document)
            if typed is not None:
                self.declined = max(self.declined - 1, 0)
                self.consume_typed(typed)
                return
            self.declined += 1
        self.consume(load_document(document, document_index=index), index)

    def consume_typed(self, document: Struct) -> None:
        """Walk a page decoded by the fast path (its resources are checked Structs)."""
        data = document.data
        if type(data) is not list:
            data = [] if data is None else [data]
        included = document.included or ()
        for buffer in self.buffers.values():
            if buffer.pending:  # dict resources first, to keep the order first seen
                buffer.flush()
        groups: dict[type, list[Struct]] = {}
        for resources in (data, included):
            for resource in resources:
                kind = type(resource)
                group = groups.get(kind)
                if group is None:
                    groups[kind] = [resource]
                else:
                    group.append(resource)
        entries = self.typed_entries
        for kind, group in groups.items():
            seen, buffer = entries[kind]
            ids = list(map(_ID, group))
            if seen.isdisjoint(ids) and len(set(ids)) == len(ids):  # no repeats: at once
                seen.update(ids)
                buffer.ids += ids
                buffer.typed += group
            else:
                for id_, resource in zip(ids, group, strict=True):
                    if id_ not in seen:
                        seen.add(id_)
                        buffer.ids.append(id_)
                        buffer.typed.append(resource)
            if len(buffer.typed) >= FLUSH_ROWS:
                buffer.flush()
        self._flush_every_few_pages(len(data) + len(included))

    def consume(self, document: dict[str, Any], index: int) -> None:
        """Walk a parsed document, checking each resource's type and id."""
        for buffer in self.buffers.values():
            if buffer.typed:  # typed resources first, to keep the order first seen
                buffer.flush()
        data = document["data"]
        if type(data) is dict:
            data = [data]
        entries = self.entries
        for resources in (data or (), document.get("included") or ()):
            for resource in resources:
                try:
                    type_ = resource["type"]
                    id_ = resource["id"]
                except (TypeError, KeyError):
                    resource_key(resource, document_index=index)  # raises the precise error
                    raise
                if type(id_) is not str or not id_:
                    resource_key(resource, document_index=index)
                entry = entries.get(type_) if type(type_) is str else None
                if entry is None:
                    resource_key(resource, document_index=index)
                    self.ignored[type_] += 1
                    continue
                seen, buffer = entry
                if id_ in seen:
                    continue
                seen.add(id_)
                buffer.ids.append(id_)
                pending = buffer.pending
                pending.append(resource)
                buffer.documents.append(index)
                if len(pending) >= FLUSH_ROWS:
                    buffer.flush()
        self._flush_every_few_pages(len(data or ()) + len(document.get("included") or ()))

    def _flush_every_few_pages(self, resources: int) -> None:
        # Convert what the last pages brought while it is still in the CPU caches: the
        # chunks are small, and every type is flushed together (measured: several times
        # faster than converting large chunks whose resources have gone cold).
        self.pending += resources
        if self.pending >= FLUSH_ALL_ROWS:
            self.pending = 0
            for buffer in self.buffers.values():
                buffer.flush()

    def frames(self) -> MatchFrames:
        return _Builder(self.buffers, self.ignored, self.problems).frames()


class _Builder:
    """Builds every table from the buffers: keys, foreign keys, derived columns, problems."""

    def __init__(
        self, buffers: dict[str, ResourceBuffer], ignored: Counter[str], problems: list[str]
    ) -> None:
        self.buffers = buffers
        self.problems = problems
        for type_, count in sorted(ignored.items()):
            problems.append(
                f"ignored {count} resource(s) of type {type_!r}: not part of the match model"
            )
        self.ids = {
            type_: pa.array(buffer.ids, type=pa.string()) for type_, buffer in buffers.items()
        }

    def links(self, owner: str, name: str, expected: str) -> tuple[pa.Array, pa.Array]:
        """``(owner ids, child ids)`` of one relationship, identifiers of other types dropped."""
        links: Links = self.buffers[owner].links(name)
        owners = self.ids[owner].take(pa.array(links.rows, type=pa.int64()))
        if expected:
            matching = pc.equal(links.types, expected)
            unexpected = len(links.ids) - pc.sum(matching).as_py() if len(links.ids) else 0
            if unexpected:
                self.problems.append(
                    f"{unexpected} identifier(s) in the {name!r} relationship of {owner} "
                    f"resources are not of type {expected!r} and were ignored"
                )
                return owners.filter(matching), links.ids.filter(matching)
        return owners, links.ids

    def owners(self, owner: str, name: str, child: str) -> pa.Array:
        """For each ``child`` resource, the id of the ``owner`` whose to-many relationship
        ``name`` lists it first (null when none does); checked for missing and repeated
        children."""
        parents, children = self.links(owner, name, child)
        keys = self.ids[child]
        if not len(children):
            return pa.nulls(len(keys), type=pa.string())
        positions = pc.index_in(keys, value_set=children)
        # The ids are unique: when as many of them are listed as there are listings, every
        # listed child exists and none is listed twice, and there is nothing to report.
        if len(keys) - positions.null_count != len(children):
            self.report_missing(owner, child, parents, children)
            repeated = len(children) - pc.count_distinct(children).as_py()
            if repeated:
                self.problems.append(
                    f"{repeated} {child} identifier(s) are listed more than once in {owner} "
                    f"{name} relationships; the first listing was kept"
                )
        return parents.take(positions)

    def report_missing(
        self, owner: str, type_: str, owners: pa.Array, references: pa.Array
    ) -> None:
        if not len(references):
            return
        missing = pc.invert(pc.is_in(references, value_set=self.ids[type_]))
        count = pc.sum(missing).as_py() or 0
        if not count:
            return
        examples = zip(
            owners.filter(missing)[:_LISTED_PER_KIND].to_pylist(),
            references.filter(missing)[:_LISTED_PER_KIND].to_pylist(),
            strict=True,
        )
        for parent, child in examples:
            self.problems.append(
                f"{owner} {parent!r} refers to {type_} {child!r}, which no document includes"
            )
        if count > _LISTED_PER_KIND:
            self.problems.append(
                f"... and {count - _LISTED_PER_KIND} more {owner} -> {type_} references to "
                "resources no document includes"
            )

    def to_one(self, owner: str, name: str, expected: str) -> pa.Array:
        """A to-one relationship's ids as a column of the owner's table (null where absent)."""
        links: Links = self.buffers[owner].links(name)
        rows = self.buffers[owner].rows
        matching = pc.equal(links.types, expected) if len(links.ids) else None
        ids = links.ids
        positions = links.rows
        if matching is not None and not pc.all(matching).as_py():
            self.problems.append(
                f"identifiers in the {name!r} relationship of {owner} resources that are not "
                f"of type {expected!r} were ignored"
            )
            ids = ids.filter(matching)
            positions = positions[matching.to_numpy(zero_copy_only=False)]
        take = np.full(rows, len(ids), dtype=np.int64)
        take[positions[::-1]] = np.arange(len(ids), dtype=np.int64)[::-1]  # first one wins
        column = pa.concat_arrays([ids, pa.nulls(1, type=pa.string())]).take(pa.array(take))
        self.report_missing(owner, expected, self.ids[owner].take(pa.array(positions)), ids)
        return column

    def orphans(self, table: str, parent: str, parent_ids: pa.Array) -> None:
        count = parent_ids.null_count
        if count:
            self.problems.append(
                f"{count} of {len(parent_ids)} {table} are listed by no {parent}; their "
                f"{parent}_id is <NA>"
            )

    def frames(self) -> MatchFrames:
        problems = self.problems
        match_of_roster = self.owners("match", "rosters", "roster")
        match_of_round = self.owners("match", "rounds", "round")
        match_of_asset = self.owners("match", "assets", "asset")
        roster_of_participant = self.owners("roster", "participants", "participant")
        built = {}
        built["participants"] = self.participants(roster_of_participant, match_of_roster)
        built["rosters"] = self.rosters(match_of_roster, built["participants"])
        built["matches"] = self.matches()
        for name, type_, match_ids in (
            ("rounds", "round", match_of_round),
            ("assets", "asset", match_of_asset),
        ):
            buffer = self.buffers[type_]
            self.orphans(name, "match", match_ids)
            built[name] = assemble(
                TABLES[name],
                buffer.rows,
                buffer.sections(),
                {f"{type_}_id": self.ids[type_], "match_id": match_ids},
                {},
                problems,
            )
        for name, type_ in (("players", "player"), ("teams", "team")):
            buffer = self.buffers[type_]
            built[name] = assemble(
                TABLES[name],
                buffer.rows,
                buffer.sections(),
                {f"{type_}_id": self.ids[type_]},
                {},
                problems,
            )
        rounds, participants = self.links("round", "participants", "participant")
        self.report_missing("round", "participant", rounds, participants)
        built["round_participants"] = assemble(
            TABLES["round_participants"],
            len(rounds),
            {},
            {
                "round_id": rounds,
                "participant_id": participants,
                "match_id": _lookup(*self.links("match", "rounds", "round"), rounds),
            },
            {},
            problems,
        )
        matches, spectators = self.links("match", "spectators", "")
        spectator_links = self.buffers["match"].links("spectators")
        built["spectators"] = assemble(
            TABLES["spectators"],
            len(matches),
            {},
            {
                "match_id": matches,
                "spectator_type": spectator_links.types,
                "spectator_id": spectators,
            },
            {},
            problems,
        )
        if problems:
            logger.warning("to_frames: %d problem(s), see MatchFrames.problems", len(problems))
        return MatchFrames(**built, problems=tuple(problems))

    def participants(self, roster_ids: pa.Array, match_of_roster: pa.Array) -> pd.DataFrame:
        buffer = self.buffers["participant"]
        rows = buffer.rows
        sections = buffer.sections()
        stats = sections.setdefault("stats", {})
        self.orphans("participants", "roster", roster_ids)
        player_ids = self.to_one("participant", "player", "player")
        sides, labels = sides_from_stats(
            stats.pop("side", None), rows=rows, label="participants.side", problems=self.problems
        )
        user_ids = stats.pop("userID", None)
        return assemble(
            TABLES["participants"],
            rows,
            sections,
            {
                "participant_id": self.ids["participant"],
                "match_id": _lookup(match_of_roster, self.ids["roster"], roster_ids),
                "roster_id": roster_ids,
                "player_id": player_ids,
                "side": sides,
                "user_id": user_ids,
                **participant_kinds(user_ids, player_ids, rows=rows),
            },
            {("stats", "side_label"): labels} if labels is not None else {},
            self.problems,
        )

    def rosters(self, match_ids: pa.Array, participants: pd.DataFrame) -> pd.DataFrame:
        buffer = self.buffers["roster"]
        sections = buffer.sections()
        self.orphans("rosters", "match", match_ids)
        sides, labels = sides_from_stats(
            sections.setdefault("stats", {}).pop("side", None),
            rows=buffer.rows,
            label="rosters.side",
            problems=self.problems,
        )
        return assemble(
            TABLES["rosters"],
            buffer.rows,
            sections,
            {
                "roster_id": self.ids["roster"],
                "match_id": match_ids,
                "team_id": self.to_one("roster", "team", "team"),
                "side": roster_sides_from_participants(buffer.ids, sides, participants),
                "side_label": labels,
            },
            {},
            self.problems,
        )

    def matches(self) -> pd.DataFrame:
        buffer = self.buffers["match"]
        sections = buffer.sections()
        text = sections.pop("text", {})
        game, is_royale, leftover = whole_match_game(
            sections.setdefault("attributes", {}).pop("game", None),
            sections.setdefault("stats", {}).pop("game", None),
            rows=buffer.rows,
        )
        return assemble(
            TABLES["matches"],
            buffer.rows,
            sections,
            {
                "match_id": self.ids["match"],
                "game": game,
                "is_royale": is_royale,
                "stats_text": text.get("stats"),
            },
            {("stats", "stats_game"): leftover} if leftover is not None else {},
            self.problems,
        )


def _lookup(parents: pa.Array, children: pa.Array, keys: pa.Array) -> pa.Array:
    """For each key, the parent of the first (parent, child) pair whose child it is; else null."""
    if not len(children):
        return pa.nulls(len(keys), type=pa.string())
    return parents.take(pc.index_in(keys, value_set=children))
