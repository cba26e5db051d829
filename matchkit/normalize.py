"""JSON:API match documents -> :class:`~matchkit.frames.MatchFrames`.

One pass over the resources of every document fills a :class:`~matchkit.buffers.TableBuffer`
per table and the maps from child to parent (roster -> match, participant -> roster, ...); then
each table is assembled once, with its dtypes, and foreign keys are filled from those maps. A
resource seen again (same type and id, on any page) is skipped: the first one wins. References to
resources that no document includes keep their id and are reported in ``MatchFrames.problems``.

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
from typing import Any

import pyarrow as pa

from matchkit.buffers import TableBuffer, assemble
from matchkit.columns import text_value
from matchkit.derive import (
    participant_kinds,
    roster_sides_from_participants,
    sides_from_stats,
    whole_match_game,
)
from matchkit.errors import DocumentError
from matchkit.frames import MatchFrames
from matchkit.jsonapi import RawDocument, iter_documents, relationship_keys, resource_key
from matchkit.schema import TABLES

__all__ = ["to_frames"]

logger = logging.getLogger(__name__)

_RESOURCE_TABLES = {
    "match": "matches",
    "roster": "rosters",
    "participant": "participants",
    "round": "rounds",
    "player": "players",
    "team": "teams",
    "asset": "assets",
}

# The relationships each resource type's table turns into keys; any other relationship of a
# resource becomes an extra column holding its identifiers as JSON text.
_KNOWN_RELATIONSHIPS = {
    "match": {"rosters", "rounds", "assets", "spectators"},
    "roster": {"participants", "team"},
    "participant": {"player"},
    "round": {"participants"},
}

# How many references of one kind are listed one by one in the problems before a count.
_LISTED_PER_KIND = 10


def to_frames(documents: RawDocument | Iterable[RawDocument]) -> MatchFrames:
    """Normalize JSON:API match documents into tables.

    Args:
        documents: one document or an iterable of them (pages), each a dict or raw JSON
            (bytes or str, parsed with orjson). Both shapes are read: the global shape and the
            older ``na`` variant; ``data`` may be a list or a single object. A document whose
            data holds no match (an empty page, a status document) adds nothing.

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
        walker = _Walker()
        for index, document in enumerate(iter_documents(documents)):
            walker.consume(document, index)
        return walker.frames()
    finally:
        if collector_was_enabled:
            gc.enable()


class _Walker:
    """Walks resources into table buffers and parent maps."""

    def __init__(self) -> None:
        self.tables = {name: TableBuffer(TABLES[name]) for name in _RESOURCE_TABLES.values()}
        self.seen: dict[str, set[str]] = {type_: set() for type_ in _RESOURCE_TABLES}
        # child id -> parent id, per relationship: keys of one resource type each.
        self.roster_match: dict[str, str] = {}
        self.round_match: dict[str, str] = {}
        self.asset_match: dict[str, str] = {}
        self.participant_roster: dict[str, str] = {}
        self.round_participants: tuple[list[str], list[str]] = ([], [])
        self.spectators: tuple[list[str], list[str], list[str]] = ([], [], [])
        self.ignored: Counter[str] = Counter()
        self.relinked: Counter[str] = Counter()
        self.unexpected: Counter[tuple[str, str, str]] = Counter()
        self.problems: list[str] = []
        self._parent_maps = {
            "roster": self.roster_match,
            "round": self.round_match,
            "asset": self.asset_match,
            "participant": self.participant_roster,
        }

    def consume(self, document: dict[str, Any], index: int) -> None:
        data = document["data"]
        if type(data) is dict:
            data = [data]
        for resources in (data or (), document.get("included") or ()):
            for resource in resources:
                try:
                    type_ = resource["type"]
                    id_ = resource["id"]
                except (TypeError, KeyError):
                    resource_key(resource, document_index=index)  # raises the precise error
                    raise
                if type(type_) is not str or type(id_) is not str or not type_ or not id_:
                    resource_key(resource, document_index=index)
                seen = self.seen.get(type_)
                if seen is None:
                    self.ignored[type_] += 1
                    continue
                if id_ in seen:
                    continue
                seen.add(id_)
                self._add(type_, id_, resource, index)

    def _add(self, type_: str, id_: str, resource: dict[str, Any], index: int) -> None:
        table = self.tables[_RESOURCE_TABLES[type_]]
        row = len(table.ids)
        table.ids.append(id_)
        attributes = resource.get("attributes")
        if attributes:
            if type(attributes) is not dict:
                raise DocumentError(
                    "'attributes' must be an object", document_index=index, resource=(type_, id_)
                )
            if "stats" in attributes or "tags" in attributes:
                attributes = attributes.copy()
                stats = attributes.pop("stats", None)
                if stats is not None:
                    if type(stats) is dict:
                        if stats:
                            table.sections["stats"].add(row, stats)
                    elif type(stats) is str and type_ == "match":
                        table.put("stats_text", row, stats)
                    else:
                        raise DocumentError(
                            f"'attributes.stats' must be an object, not {type(stats).__name__}",
                            document_index=index,
                            resource=(type_, id_),
                        )
                tags = attributes.pop("tags", None)
                if tags is not None:
                    if type(tags) is not dict:
                        raise DocumentError(
                            f"'attributes.tags' must be an object, not {type(tags).__name__}",
                            document_index=index,
                            resource=(type_, id_),
                        )
                    if tags:
                        table.sections["tags"].add(row, tags)
            if attributes:
                table.sections["attributes"].add(row, attributes)
        relationships = resource.get("relationships")
        if relationships:
            self._relationships(type_, id_, row, table, relationships, resource, index)

    def _relationships(
        self,
        type_: str,
        id_: str,
        row: int,
        table: TableBuffer,
        relationships: Any,
        resource: dict[str, Any],
        index: int,
    ) -> None:
        if type(relationships) is not dict:
            relationship_keys(resource, "", document_index=index)  # raises the precise error
        known = _KNOWN_RELATIONSHIPS.get(type_, set())
        for name in relationships:
            keys = relationship_keys(resource, name, document_index=index)
            if name not in known:
                if keys:
                    table.put(f"relationships.{name}", row, _identifiers_text(keys, resource, name))
                continue
            if name == "spectators":
                for spectator_type, spectator_id in keys:
                    self.spectators[0].append(id_)
                    self.spectators[1].append(spectator_type)
                    self.spectators[2].append(spectator_id)
                continue
            expected = _EXPECTED_TYPES[type_, name]
            for key in keys:
                if key[0] != expected:
                    self.unexpected[type_, name, key[0]] += 1
                    continue
                if name == "team":
                    table.put("team_id", row, key[1])
                elif name == "player":
                    table.put("player_id", row, key[1])
                elif type_ == "round":
                    self.round_participants[0].append(id_)
                    self.round_participants[1].append(key[1])
                else:
                    parents = self._parent_maps[expected]
                    previous = parents.setdefault(key[1], id_)
                    if previous != id_:
                        self.relinked[expected] += 1

    def frames(self) -> MatchFrames:
        problems = self.problems
        built = {}
        participants = self.tables["participants"]
        participant_sections = participants.build_sections()
        roster_ids = [self.participant_roster.get(id_) for id_ in participants.ids]
        player_ids = participants.take_values("player_id")
        sides, side_labels = sides_from_stats(
            participant_sections["stats"].pop("side", None),
            rows=participants.rows,
            label="participants.side",
            problems=problems,
        )
        user_ids = participant_sections["stats"].pop("userID", None)
        kinds = participant_kinds(user_ids, player_ids, rows=participants.rows)
        extras = {("stats", "side_label"): side_labels} if side_labels is not None else {}
        built["participants"] = assemble(
            participants.schema,
            participants.rows,
            participant_sections,
            {
                "participant_id": participants.ids,
                "match_id": [self.roster_match.get(r) if r else None for r in roster_ids],
                "roster_id": roster_ids,
                "player_id": player_ids,
                "side": sides,
                "user_id": user_ids,
                **kinds,
            },
            {**extras, **self._relationship_extras(participants)},
            problems,
        )
        del participant_sections, roster_ids, player_ids
        built["rosters"] = self._rosters(built["participants"])
        built["matches"] = self._matches()
        for name, parents in (("rounds", self.round_match), ("assets", self.asset_match)):
            table = self.tables[name]
            built[name] = assemble(
                table.schema,
                table.rows,
                table.build_sections(),
                {
                    f"{table.schema.resource_type}_id": table.ids,
                    "match_id": [parents.get(id_) for id_ in table.ids],
                },
                self._relationship_extras(table),
                problems,
            )
        for name in ("players", "teams"):
            table = self.tables[name]
            built[name] = assemble(
                table.schema,
                table.rows,
                table.build_sections(),
                {f"{table.schema.resource_type}_id": table.ids},
                self._relationship_extras(table),
                problems,
            )
        round_ids, round_participant_ids = self.round_participants
        built["round_participants"] = assemble(
            TABLES["round_participants"],
            len(round_ids),
            {},
            {
                "round_id": round_ids,
                "participant_id": round_participant_ids,
                "match_id": [self.round_match.get(id_) for id_ in round_ids],
            },
            {},
            problems,
        )
        match_ids, spectator_types, spectator_ids = self.spectators
        built["spectators"] = assemble(
            TABLES["spectators"],
            len(match_ids),
            {},
            {
                "match_id": match_ids,
                "spectator_type": spectator_types,
                "spectator_id": spectator_ids,
            },
            {},
            problems,
        )
        self._report_references(built)
        if problems:
            logger.warning("to_frames: %d problem(s), see MatchFrames.problems", len(problems))
        return MatchFrames(**built, problems=tuple(problems))

    def _rosters(self, participants: Any) -> Any:
        table = self.tables["rosters"]
        sections = table.build_sections()
        sides, labels = sides_from_stats(
            sections["stats"].pop("side", None),
            rows=table.rows,
            label="rosters.side",
            problems=self.problems,
        )
        sides = roster_sides_from_participants(table.ids, sides, participants)
        return assemble(
            table.schema,
            table.rows,
            sections,
            {
                "roster_id": table.ids,
                "match_id": [self.roster_match.get(id_) for id_ in table.ids],
                "team_id": table.take_values("team_id"),
                "side": sides,
                "side_label": labels,
            },
            self._relationship_extras(table),
            self.problems,
        )

    def _matches(self) -> Any:
        table = self.tables["matches"]
        sections = table.build_sections()
        game, is_royale, leftover = whole_match_game(
            sections["attributes"].pop("game", None),
            sections["stats"].pop("game", None),
            rows=table.rows,
        )
        extras = self._relationship_extras(table)
        if leftover is not None:
            extras["stats", "stats_game"] = leftover
        return assemble(
            table.schema,
            table.rows,
            sections,
            {
                "match_id": table.ids,
                "game": game,
                "is_royale": is_royale,
                "stats_text": table.take_values("stats_text"),
            },
            extras,
            self.problems,
        )

    def _relationship_extras(self, table: TableBuffer) -> dict[tuple[str, str], pa.Array]:
        names = [name for name in table.values if name.startswith("relationships.")]
        return {
            ("relationships", name.removeprefix("relationships.")): pa.array(
                table.take_values(name), type=pa.string()
            )
            for name in names
        }

    def _report_references(self, built: dict[str, Any]) -> None:
        problems = self.problems
        seen = self.seen
        for type_, count in sorted(self.ignored.items()):
            problems.append(
                f"ignored {count} resource(s) of type {type_!r}: not part of the match model"
            )
        for (owner, name, type_), count in sorted(self.unexpected.items()):
            problems.append(
                f"{count} identifier(s) of type {type_!r} in the {name!r} relationship of "
                f"{owner} resources were ignored (expected {_EXPECTED_TYPES[owner, name]!r})"
            )
        for type_, count in sorted(self.relinked.items()):
            problems.append(
                f"{count} {type_} resource(s) are listed by more than one parent; the first "
                "listing was kept"
            )
        checks = [
            ("match", "roster", ((p, c) for c, p in self.roster_match.items())),
            ("match", "round", ((p, c) for c, p in self.round_match.items())),
            ("match", "asset", ((p, c) for c, p in self.asset_match.items())),
            ("roster", "participant", ((p, c) for c, p in self.participant_roster.items())),
            ("round", "participant", zip(*self.round_participants, strict=True)),
            ("participant", "player", _pairs(built["participants"], "participant_id", "player_id")),
            ("roster", "team", _pairs(built["rosters"], "roster_id", "team_id")),
        ]
        for owner, type_, pairs in checks:
            missing = [(parent, child) for parent, child in pairs if child not in seen[type_]]
            for parent, child in missing[:_LISTED_PER_KIND]:
                problems.append(
                    f"{owner} {parent!r} refers to {type_} {child!r}, which no document includes"
                )
            if len(missing) > _LISTED_PER_KIND:
                problems.append(
                    f"... and {len(missing) - _LISTED_PER_KIND} more {owner} -> {type_} "
                    "references to resources no document includes"
                )
        for name, parent in (
            ("rosters", "match"),
            ("participants", "roster"),
            ("rounds", "match"),
            ("assets", "match"),
        ):
            orphans = int(built[name][f"{parent}_id"].isna().sum())
            if orphans:
                problems.append(
                    f"{orphans} of {len(built[name])} {name} are listed by no {parent}; "
                    f"their {parent}_id is <NA>"
                )


_EXPECTED_TYPES = {
    ("match", "rosters"): "roster",
    ("match", "rounds"): "round",
    ("match", "assets"): "asset",
    ("roster", "participants"): "participant",
    ("roster", "team"): "team",
    ("participant", "player"): "player",
    ("round", "participants"): "participant",
}


def _pairs(frame: Any, owner: str, reference: str) -> list[tuple[str, str]]:
    present = frame[reference].notna()
    return list(
        zip(frame.loc[present, owner].tolist(), frame.loc[present, reference].tolist(), strict=True)
    )


def _identifiers_text(keys: list[tuple[str, str]], resource: dict[str, Any], name: str) -> str:
    """An unknown relationship's data as compact JSON (an identifier, or a list of them)."""
    data = resource["relationships"][name]["data"]
    items = [{"id": id_, "type": type_} for type_, id_ in keys]
    return text_value(items[0] if isinstance(data, dict) else items)  # type: ignore[return-value]
