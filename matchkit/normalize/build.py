"""Building the tables from the walked chunks: keys, foreign keys, derived columns, problems.

Foreign keys come from the relationships' identifier arrays, joined by id in Arrow. A child
listed by no parent keeps a missing parent id, and references to resources that no document
includes keep their id; both are reported. Later copies of resources are settled here
(:mod:`matchkit.normalize.repeats`, decision 17) before their tables are assembled.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from matchkit.model.frames import MatchFrames
from matchkit.model.listings import FRAME_TABLES, LISTINGS
from matchkit.model.schema import (
    RESOURCE_TABLES,
    SIDE_MEMBER,
    SNAPSHOT_OWNERS,
    TABLES,
    USER_ID_MEMBER,
)
from matchkit.normalize.arrow import ARROW_POOL, filtered, nulls, take
from matchkit.normalize.assemble import assemble
from matchkit.normalize.chunks import Links, Sections
from matchkit.normalize.derive import (
    kinds_by_prefix,
    participant_kinds,
    roster_sides_from_participants,
    sides_from_stats,
    whole_match_game,
)
from matchkit.normalize.listings import copied_listings, every_copys_pairs
from matchkit.normalize.problems import Problems
from matchkit.normalize.profiles import (
    map_columns,
    profile_game,
    profile_player_ids,
    resolve_profile,
    title_ids,
)
from matchkit.normalize.repeats import (
    SnapshotKeys,
    common_types,
    differing,
    keep_latest_snapshots,
    report_conflicts,
)
from matchkit.normalize.walker import Walker
from matchkit.rules.profiles import Profile

__all__ = ["build_frames"]

logger = logging.getLogger(__name__)

# How many references of one kind are listed one by one in the problems before a count.
_LISTED_PER_KIND = 10


def build_frames(walker: Walker, profile: str | Profile | None = None) -> MatchFrames:
    """The MatchFrames of everything the walker walked, read with the column map of
    ``profile`` (``None``: the profile the documents' title ids name, else the default)."""
    return _Builder(walker, profile).frames()


class _Builder:
    """Builds every table from the walked chunks: keys, foreign keys, derived columns,
    problems."""

    def __init__(self, walker: Walker, profile: str | Profile | None = None) -> None:
        self.walker = walker
        self.problems = problems = Problems()
        for type_, count in sorted(walker.ignored.items()):
            problems.add(
                "ignored_type",
                type_,
                count,
                f"ignored {count} resource(s) of type {type_!r}: not part of the match model",
            )
        for table in walker.tables.values():  # one type at a time: the pieces go as it is joined
            table.compact()
        self.profile = resolve_profile(profile, title_ids(walker.tables))
        self.columns = self.profile.columns
        self.ids = {type_: table.ids() for type_, table in walker.tables.items()}
        self.built: dict[str, pd.DataFrame] = {}
        self._links: dict[tuple[str, str], Links] = {}
        self._copied_links: dict[tuple[str, str], tuple[pa.Array, Links]] = {}

    def table_links(self, type_: str, name: str) -> Links:
        """The identifiers of a relationship the model reads, across a table."""
        key = (type_, name)
        if key not in self._links:
            self._links[key] = self.walker.tables[type_].links(name)
        return self._links[key]

    def rows(self, type_: str) -> int:
        return len(self.ids[type_])

    def sections(self, type_: str) -> Sections:
        """A table's columns by section and wire key, later copies settled (decision 17)."""
        table = self.walker.tables[type_]
        sections = table.take_sections()  # asked once per type; the builder holds them now
        copies = self.walker.repeats.read(type_)
        if copies is None:
            return sections
        self._copied_links.update(copied_listings(type_, copies))  # before the copies go
        sections, copied = common_types(sections, self.rows(type_), copies)
        kept = pc.index_in(copies.ids(), value_set=self.ids[type_], memory_pool=ARROW_POOL)
        kept_rows = kept.to_numpy().astype(np.int64)
        differs = differing(
            sections,
            lambda name: self.table_links(type_, name),
            kept_rows,
            copies,
            copied,
            RESOURCE_TABLES[type_][1],
        )
        if type_ not in SNAPSHOT_OWNERS:
            report_conflicts(type_, copies, differs, self.problems)
            return sections
        return keep_latest_snapshots(
            type_,
            sections,
            kept_rows,
            table.documents(),
            copies,
            copied,
            differs,
            self.snapshot_keys(type_),
            self.problems,
        )

    def snapshot_keys(self, type_: str) -> SnapshotKeys:
        """How late each copy of a snapshot type came, from the tables built so far."""
        table, column = SNAPSHOT_OWNERS[type_]
        owners = self.built[table]
        matches = self.built["matches"]
        return SnapshotKeys(
            self.ids[type_],
            pa.array(matches["match_id"]),
            matches["created_at"].array.asi8,  # NaT reads as NO_TIME, the earliest
            (
                pa.array(self.walker.match_ids, pa.string()),
                np.array(self.walker.match_documents, dtype=np.int64),
            ),
            (pa.array(owners[column]), pa.array(owners["match_id"])),
        )

    def links(self, owner: str, name: str, expected: str) -> tuple[pa.Array, pa.Array]:
        """``(owner ids, child ids)`` of one relationship, identifiers of other types dropped."""
        links = self.table_links(owner, name)
        owners = take(self.ids[owner], links.rows)
        if expected:
            matching = pc.equal(links.types, expected, memory_pool=ARROW_POOL)
            unexpected = len(links.ids) - pc.sum(matching).as_py() if len(links.ids) else 0
            if unexpected:
                self.problems.add(
                    "unexpected_identifier",
                    f"{owner}.{name}",
                    unexpected,
                    f"{unexpected} identifier(s) in the {name!r} relationship of {owner} "
                    f"resources are not of type {expected!r} and were ignored",
                )
                return filtered(owners, matching), filtered(links.ids, matching)
        return owners, links.ids

    def listing(self, owner: str, relationship: str) -> tuple[pa.Array, pa.Array]:
        """``(owner ids, match ids)`` of a listing, every copy's (:mod:`.listings`)."""
        owners, matches = self.links(owner, relationship, "match")
        return every_copys_pairs(owners, matches, self._copied_links.get((owner, relationship)))

    def owners(self, owner: str, name: str, child: str) -> pa.Array:
        """For each ``child`` resource, the id of the ``owner`` whose to-many relationship
        ``name`` lists it first (null when none does); checked for missing and repeated
        children."""
        parents, children = self.links(owner, name, child)
        keys = self.ids[child]
        if not len(children):
            return nulls(len(keys), pa.string())
        positions = pc.index_in(keys, value_set=children, memory_pool=ARROW_POOL)
        # The ids are unique: when as many of them are listed as there are listings, every
        # listed child exists and none is listed twice, and there is nothing to report.
        if len(keys) - positions.null_count != len(children):
            self.report_missing(owner, child, parents, children)
            distinct = pc.count_distinct(children, memory_pool=ARROW_POOL).as_py()
            repeated = len(children) - distinct
            if repeated:
                self.problems.add(
                    "repeated_listing",
                    f"{owner}.{name}",
                    repeated,
                    f"{repeated} {child} identifier(s) are listed more than once in {owner} "
                    f"{name} relationships; the first listing was kept",
                )
        return take(parents, positions)

    def report_missing(
        self, owner: str, type_: str, owners: pa.Array, references: pa.Array
    ) -> None:
        if not len(references):
            return
        found = pc.is_in(references, value_set=self.ids[type_], memory_pool=ARROW_POOL)
        missing = pc.invert(found, memory_pool=ARROW_POOL)
        count = pc.sum(missing).as_py() or 0
        if not count:
            return
        examples = zip(
            filtered(owners, missing)[:_LISTED_PER_KIND].to_pylist(),
            filtered(references, missing)[:_LISTED_PER_KIND].to_pylist(),
            strict=True,
        )
        subject = f"{owner} -> {type_}"
        for parent, child in examples:
            self.problems.add(
                "missing_reference",
                subject,
                1,
                f"{owner} {parent!r} refers to {type_} {child!r}, which no document includes",
            )
        if count > _LISTED_PER_KIND:
            self.problems.add(
                "missing_reference",
                subject,
                count - _LISTED_PER_KIND,
                f"... and {count - _LISTED_PER_KIND} more {owner} -> {type_} references to "
                "resources no document includes",
            )

    def to_one(self, owner: str, name: str, expected: str) -> pa.Array:
        """A to-one relationship's ids as a column of the owner's table (null where absent)."""
        links = self.table_links(owner, name)
        rows = self.rows(owner)
        matching = (
            pc.equal(links.types, expected, memory_pool=ARROW_POOL) if len(links.ids) else None
        )
        ids = links.ids
        positions = links.rows
        if matching is not None and not pc.all(matching).as_py():
            self.problems.add(
                "unexpected_identifier",
                f"{owner}.{name}",
                len(ids) - pc.sum(matching).as_py(),
                f"identifiers in the {name!r} relationship of {owner} resources that are not "
                f"of type {expected!r} were ignored",
            )
            ids = filtered(ids, matching)
            positions = positions[matching.to_numpy(zero_copy_only=False)]
        order = np.full(rows, len(ids), dtype=np.int64)
        order[positions[::-1]] = np.arange(len(ids), dtype=np.int64)[::-1]  # first one wins
        missing = nulls(1, pa.string())
        column = take(pa.concat_arrays([ids, missing], ARROW_POOL), order)
        self.report_missing(owner, expected, take(self.ids[owner], positions), ids)
        return column

    def table(
        self,
        name: str,
        rows: int,
        known: Mapping[str, Any],
        *,
        sections: Sections | None = None,
        extras: Mapping[tuple[str, str], pa.Array] | None = None,
    ) -> pd.DataFrame:
        """One table's DataFrame (:func:`matchkit.normalize.assemble.assemble`), the profile's
        mapped members (:attr:`matchkit.rules.profiles.Profile.columns`) in their columns."""
        schema = FRAME_TABLES[name]
        sections = sections or {}
        known, declared = map_columns(self.columns, schema, sections, known)
        return assemble(
            schema, rows, sections, known, extras or {}, self.problems, declared=declared
        )

    def orphans(self, table: str, parent: str, parent_ids: pa.Array) -> None:
        count = parent_ids.null_count
        if count:
            self.problems.add(
                "orphan",
                table,
                count,
                f"{count} of {len(parent_ids)} {table} are listed by no {parent}; their "
                f"{parent}_id is <NA>",
            )

    def frames(self) -> MatchFrames:
        problems = self.problems
        match_of_roster = self.owners("match", "rosters", "roster")
        match_of_round = self.owners("match", "rounds", "round")
        match_of_asset = self.owners("match", "assets", "asset")
        roster_of_participant = self.owners("roster", "participants", "participant")
        built = self.built
        built["participants"] = self.participants(roster_of_participant, match_of_roster)
        built["rosters"] = self.rosters(match_of_roster, built["participants"])
        built["matches"] = self.matches()
        for name, type_, match_ids in (
            ("rounds", "round", match_of_round),
            ("assets", "asset", match_of_asset),
        ):
            self.orphans(name, "match", match_ids)
            built[name] = self.table(
                name,
                self.rows(type_),
                {f"{type_}_id": self.ids[type_], "match_id": match_ids},
                sections=self.sections(type_),
            )
        for name, type_ in (
            ("players", "player"),
            ("teams", "team"),
            ("samples", "sample"),
            ("seasons", "season"),
        ):
            built[name] = self.table(
                name,
                self.rows(type_),
                {f"{type_}_id": self.ids[type_]},
                sections=self.sections(type_),
            )
        for name, (owner, relationship) in LISTINGS.items():
            owners, matches = self.listing(owner, relationship)
            built[name] = self.table(
                name, len(owners), {f"{owner}_id": owners, "match_id": matches}
            )
        rounds, participants = self.links("round", "participants", "participant")
        self.report_missing("round", "participant", rounds, participants)
        built["round_participants"] = self.table(
            "round_participants",
            len(rounds),
            {
                "round_id": rounds,
                "participant_id": participants,
                "match_id": _lookup(*self.links("match", "rounds", "round"), rounds),
            },
        )
        matches, spectators = self.links("match", "spectators", "")
        spectator_links = self.table_links("match", "spectators")
        built["spectators"] = self.table(
            "spectators",
            len(matches),
            {
                "match_id": matches,
                "spectator_type": spectator_links.types,
                "spectator_id": spectators,
            },
        )
        # Differing snapshots are expected (decision 17): said in problems, not warned about.
        warned = sum(problem.kind != "differing_snapshots" for problem in problems)
        if warned:
            logger.warning("to_frames: %d problem(s), see MatchFrames.problems", warned)
        elif problems:
            logger.info("to_frames: %d note(s), see MatchFrames.problems", len(problems))
        return MatchFrames(**built, problems=problems.texts())

    def participants(self, roster_ids: pa.Array, match_of_roster: pa.Array) -> pd.DataFrame:
        rows = self.rows("participant")
        sections = self.sections("participant")
        stats = sections.setdefault("stats", {})
        self.orphans("participants", "roster", roster_ids)
        linked = self.to_one("participant", "player", "player")
        player_ids = profile_player_ids(self.columns, linked, stats)
        sides, labels = sides_from_stats(
            stats.pop(SIDE_MEMBER, None),
            rows=rows,
            label="participants.side",
            problems=self.problems,
        )
        user_ids = stats.pop(USER_ID_MEMBER, None)
        return self.table(
            "participants",
            rows,
            {
                "participant_id": self.ids["participant"],
                "match_id": _lookup(match_of_roster, self.ids["roster"], roster_ids),
                "roster_id": roster_ids,
                "player_id": player_ids,
                "side": sides,
                "user_id": user_ids,
                **kinds_by_prefix(
                    participant_kinds(user_ids, linked, rows=rows),
                    player_ids,
                    self.columns.kinds_by_prefix,
                    rows=rows,
                ),
            },
            sections=sections,
            extras={("stats", "side_label"): labels} if labels is not None else {},
        )

    def rosters(self, match_ids: pa.Array, participants: pd.DataFrame) -> pd.DataFrame:
        rows = self.rows("roster")
        sections = self.sections("roster")
        self.orphans("rosters", "match", match_ids)
        sides, labels = sides_from_stats(
            sections.setdefault("stats", {}).pop(SIDE_MEMBER, None),
            rows=rows,
            label="rosters.side",
            problems=self.problems,
        )
        return self.table(
            "rosters",
            rows,
            {
                "roster_id": self.ids["roster"],
                "match_id": match_ids,
                "team_id": self.to_one("roster", "team", "team"),
                "side": roster_sides_from_participants(self.ids["roster"], sides, participants),
                "side_label": labels,
            },
            sections=sections,
        )

    def matches(self) -> pd.DataFrame:
        rows = self.rows("match")
        sections = self.sections("match")
        text = sections.pop("text", {})
        game_key = TABLES["matches"].column("game").key
        attributes = sections.setdefault("attributes", {})
        game, is_royale, leftover = whole_match_game(
            attributes.pop(game_key, None),
            sections.setdefault("stats", {}).pop(game_key, None),
            rows=rows,
        )
        mode_key = TABLES["matches"].column("game_mode").key
        game, is_royale = profile_game(
            self.profile, game, is_royale, attributes.get(mode_key), rows=rows
        )
        return self.table(
            "matches",
            rows,
            {
                "match_id": self.ids["match"],
                "game": game,
                "is_royale": is_royale,
                "stats_text": text.get("stats"),
            },
            sections=sections,
            extras={("stats", "stats_game"): leftover} if leftover is not None else {},
        )


def _lookup(parents: pa.Array, children: pa.Array, keys: pa.Array) -> pa.Array:
    """For each key, the parent of the first (parent, child) pair whose child it is; else null."""
    if not len(children):
        return nulls(len(keys), pa.string())
    return take(parents, pc.index_in(keys, value_set=children, memory_pool=ARROW_POOL))
