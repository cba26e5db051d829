"""PubgTelemetryFrames: the tables of a set of PUBG telemetry files.

Build one with :func:`matchkit.telemetry.pubg.to_pubg_telemetry_frames` (or
:func:`matchkit.to_telemetry_frames`, which chooses this reader for PUBG files); combine with
:meth:`PubgTelemetryFrames.concat`. ``docs/telemetry-pubg.md`` describes every table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from matchkit.model.base import DeclaredFrames
from matchkit.model.combine import stack
from matchkit.model.schema import category_dtype, coerce_frame
from matchkit.telemetry.pubg.schema import TABLE_NAMES, TABLES

__all__ = ["PubgTelemetryFrames", "coerced_table"]


@dataclass(frozen=True, eq=False, repr=False)
class PubgTelemetryFrames(DeclaredFrames, schemas=TABLES, counted="files"):
    """The tables of a set of PUBG telemetry files, keyed by ``match_id``.

    PUBG's tables are their own class, not more tables of :class:`TelemetryFrames`: the two
    games share no event, so each class holds only tables its game fills, and a table's
    columns say what they hold. Rows link to :class:`matchkit.model.frames.MatchFrames` by
    match (``match_id``) and player (every ``*_id`` of a character, e.g. ``killer_id`` =
    ``participants.player_id``, PUBG's account id). Positions are in the map's centimetres
    (:data:`matchkit.telemetry.pubg.MAP_SIZES`).

    Attributes:
        files: one row per file (events, decompressed bytes, time span).
        match_start: one row per match: LogMatchStart's settings (map, weather, team size,
            ...) and LogMatchDefinition's (definition id, season state).
        match_end: one row per player of LogMatchEnd: rankings, and the winners' results.
        kills: LogPlayerKillV2 and LogPlayerKill: killer, victim, knocker, finisher, how,
            from how far, where.
        knocks: LogPlayerMakeGroggy.
        revives: LogPlayerRevive.
        damage: LogPlayerTakeDamage.
        positions: every LogPlayerPosition, with elapsed time and the players alive.
        game_states: LogGameStatePeriodic: the blue, safe, red and black zones by time.
        care_packages: LogCarePackageSpawn and LogCarePackageLand.
        care_package_items: one row per item of a care package.
        item_events: pickups, equips, uses, drops, unequips, attachments of items.
        vehicles: LogVehicleRide, LogVehicleLeave and LogVehicleDestroy.
        landings: LogParachuteLanding.
        weapon_stats: LogMatchEnd's allWeaponStats, per player and weapon.
        other_events: every other event, its JSON text.
        event_counts: per file and event type, its events and the table they went to.
        problems: values that did not fit their column (kept as missing), members and event
            types matchkit does not know (kept as extra columns and in ``other_events``).
    """

    files: pd.DataFrame
    match_start: pd.DataFrame
    match_end: pd.DataFrame
    kills: pd.DataFrame
    knocks: pd.DataFrame
    revives: pd.DataFrame
    damage: pd.DataFrame
    positions: pd.DataFrame
    game_states: pd.DataFrame
    care_packages: pd.DataFrame
    care_package_items: pd.DataFrame
    item_events: pd.DataFrame
    vehicles: pd.DataFrame
    landings: pd.DataFrame
    weapon_stats: pd.DataFrame
    other_events: pd.DataFrame
    event_counts: pd.DataFrame
    problems: tuple[str, ...] = ()

    @property
    def match_ids(self) -> list[str]:
        """The matches whose telemetry these frames hold."""
        return self.files["match_id"].tolist()

    def summary(self) -> str:
        """A few lines: rows per table and the number of problems."""
        return "\n".join([*self._table_lines(), *self._problem_lines(more=True)])

    @classmethod
    def concat(cls, frames: Iterable[PubgTelemetryFrames]) -> PubgTelemetryFrames:
        """Combine frames; a match present in several keeps its first telemetry.

        Raises:
            InvalidArgumentError: ``frames`` is not an iterable of PubgTelemetryFrames.
        """
        frames = cls.checked_all(frames, where=f"{cls.__name__}.concat")
        if not frames:
            return cls.empty()
        kept: list[PubgTelemetryFrames] = []
        seen: set[str] = set()
        for frame in frames:
            new = [match for match in frame.match_ids if match not in seen]
            seen.update(new)
            if len(new) != len(frame):
                frame = frame._only(set(new))
            kept.append(frame)
        tables = {}
        for name in TABLE_NAMES:
            parts = [frame.tables[name] for frame in kept]
            parts = [part for part in parts if len(part)] or parts[:1]
            alike = _stacked_alike(parts, name) if len(parts) > 1 else None
            if alike is not None:
                tables[name] = alike
                continue
            combined = stack(parts).rows if len(parts) > 1 else parts[0]
            tables[name] = coerced_table(combined.reset_index(drop=True), name)
        problems = tuple(dict.fromkeys(p for frame in frames for p in frame.problems))
        return cls(**tables, problems=problems)

    def _only(self, match_ids: set[str]) -> PubgTelemetryFrames:
        tables = {
            name: frame[frame["match_id"].isin(match_ids).to_numpy()].reset_index(drop=True)
            for name, frame in self.tables.items()
        }
        return type(self)(**tables, problems=self.problems)


def coerced_table(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """The table ``name`` with its known columns and dtypes first, extra columns after them by
    name (as PubgTelemetryFrames holds it)."""
    schema = TABLES[name]
    coerced = coerce_frame(frame, schema)
    known = schema.column_names
    return coerced[[*known, *sorted(set(coerced.columns) - set(known))]]


def _stacked_alike(parts: list[pd.DataFrame], name: str) -> pd.DataFrame | None:
    """:func:`coerced_table` of the parts stacked, when the parts are alike (what the reader
    makes of files): the same columns in the order PubgTelemetryFrames holds them, each of one
    dtype in every part, its schema's (a category may differ in its categories, joined as
    :func:`coerce_frame` joins them). ``None`` otherwise, for
    :func:`matchkit.model.combine.stack`, which settles any other mix (its checks of every
    column of every part cost more than pandas' concat itself)."""
    schema = TABLES[name]
    columns = list(parts[0].columns)
    known = schema.column_names
    if columns != [*known, *sorted(set(columns) - set(known))] or any(
        list(part.columns) != columns for part in parts
    ):
        return None
    dtypes = [list(part.dtypes) for part in parts]
    declared = {column.name: column for column in schema.columns}
    categories: list[str] = []
    for position, column in enumerate(columns):
        dtype = dtypes[0][position]
        if all(other[position] is dtype or other[position] == dtype for other in dtypes[1:]):
            if column not in declared or dtype == declared[column].dtype:
                continue
            if isinstance(dtype, pd.CategoricalDtype) and _free_category(declared, column):
                continue
            return None
        if not _free_category(declared, column) or not all(
            isinstance(other[position], pd.CategoricalDtype) for other in dtypes
        ):
            return None
        categories.append(column)  # concat leaves text where the categories differ
    combined = pd.concat(parts, ignore_index=True)
    for column in categories:
        combined[column] = _categories_joined([part[column].array for part in parts])
    return combined


def _free_category(declared: dict[str, Any], column: str) -> bool:
    """Whether a known column is a category of no fixed vocabulary (each file's its own)."""
    found = declared.get(column)
    return found is not None and found.kind == "category" and not found.categories


def _categories_joined(arrays: list[Any]) -> pd.Categorical:
    """Categoricals one after another, their categories the values present, sorted (what
    :func:`matchkit.model.schema.categorical_of` makes of the text concat leaves)."""
    present: set[str] = set()
    for array in arrays:
        codes = array.codes
        present.update(str(value) for value in array.categories[np.unique(codes[codes >= 0])])
    dtype = category_dtype(sorted(present))
    position = {category: code for code, category in enumerate(dtype.categories)}
    codes = []
    for array in arrays:
        recode = np.array(
            [position.get(str(category), -1) for category in array.categories] + [-1],
            dtype=np.int32,
        )
        codes.append(recode[array.codes])  # code -1 (missing) indexes the last slot
    return pd.Categorical.from_codes(np.concatenate(codes), dtype=dtype)
