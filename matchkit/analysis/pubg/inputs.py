"""What every PUBG analysis takes: MatchFrames of PUBG matches and their telemetry, checked
together; the names of damage causers and maps; each map's size.

The telemetry is one :class:`matchkit.telemetry.pubg.PubgTelemetryFrames` (of one match or
many; combine several with :meth:`PubgTelemetryFrames.concat`). The MatchFrames give what the
files do not say with authority: the rosters' ranks, the game mode, the map of each match.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from matchkit.analysis.inputs import is_archive
from matchkit.errors import InvalidArgumentError
from matchkit.model.frames import MatchFrames
from matchkit.names import Names, as_names
from matchkit.rules.profiles import PUBG
from matchkit.telemetry.pubg import MAP_SIZES, PubgTelemetryFrames

__all__ = [
    "PubgInputs",
    "PubgTelemetryFrames",
    "causer_labels",
    "checked_pubg_inputs",
    "map_labels",
    "map_sizes",
]


@dataclass(frozen=True)
class PubgInputs:
    """MatchFrames and telemetry restricted to the matches both hold.

    Attributes:
        frames: the MatchFrames given.
        telemetry: the telemetry of the matches both hold.
        matches: their rows of ``frames.matches``.
        excluded: what was left out, and why (for ``result.attrs["excluded"]``).
    """

    frames: MatchFrames
    telemetry: PubgTelemetryFrames
    matches: pd.DataFrame
    excluded: dict[str, int]

    def table(self, name: str) -> pd.DataFrame:
        """A telemetry table, only the rows of the matches both hold."""
        table = self.telemetry.tables[name]
        return table[table["match_id"].isin(self.matches["match_id"]).to_numpy()]


def checked_pubg_inputs(data: object, telemetry: object) -> PubgInputs:
    """``data`` and ``telemetry`` when they are MatchFrames of PUBG matches and their
    telemetry.

    A match of ``data`` without telemetry is left out and counted; a telemetry file of a match
    ``data`` lacks is an error (its ranks and map are not known).

    Raises:
        InvalidArgumentError: ``data`` is not MatchFrames of PUBG matches, ``telemetry`` is not
            PubgTelemetryFrames, or holds a match ``data`` lacks.
    """
    if is_archive(data):
        raise InvalidArgumentError(
            "data: the PUBG analyses do not read an archive yet (PUBG telemetry is not "
            "archived); pass archive.to_frames(start, end) of PUBG matches and their telemetry",
            parameter="data",
        )
    if not isinstance(data, MatchFrames):
        raise InvalidArgumentError(
            "data must be MatchFrames of PUBG matches (matchkit.to_frames of PUBG documents, or "
            f"Client.matches of a PUBG client), not {type(data).__name__}",
            parameter="data",
        )
    games = data.matches["game"].astype("string").fillna("(none)")
    other = sorted(set(games[games != PUBG.game]))
    if other:
        raise InvalidArgumentError(
            f"data holds matches of game {', '.join(other)}, not PUBG: the PUBG analyses read "
            "PUBG matches only; pass the MatchFrames of a PUBG client (profile='pubg')",
            parameter="data",
        )
    if not isinstance(telemetry, PubgTelemetryFrames):
        raise InvalidArgumentError(
            "telemetry must be PubgTelemetryFrames (matchkit.telemetry.pubg."
            "to_pubg_telemetry_frames, or PubgTelemetryFrames.concat of several), not "
            f"{type(telemetry).__name__}",
            parameter="telemetry",
        )
    known = set(data.matches["match_id"])
    files = list(dict.fromkeys(telemetry.match_ids))
    unknown = [match for match in files if match not in known]
    if unknown:
        raise InvalidArgumentError(
            f"telemetry holds {len(unknown)} match(es) data lacks (first: {unknown[0]}); pass "
            "the MatchFrames of every match whose telemetry you pass",
            parameter="telemetry",
        )
    with_files = data.matches["match_id"].isin(set(files)).to_numpy()
    matches = data.matches[with_files].reset_index(drop=True)
    excluded = {"matches without telemetry": int((~with_files).sum())}
    return PubgInputs(data, telemetry, matches, excluded)


def causer_labels(causers: pd.Series, names: Names | Mapping[str, Any] | None) -> pd.Series:
    """Each damage causer id's name (kind ``damage_causer``); an id without one stays the id."""
    return as_names(names, kind="damage_causer").label("damage_causer", causers)


def map_labels(maps: pd.Series, names: Names | Mapping[str, Any] | None) -> pd.Series:
    """Each map id's name (kind ``map``); an id without one stays the id."""
    return as_names(names, kind="map").label("map", maps)


def map_sizes(extra: Mapping[str, int] | None = None) -> dict[str, int]:
    """Map id -> its size in centimetres: PUBG's documented sizes
    (:data:`matchkit.telemetry.pubg.MAP_SIZES`), with ``extra`` over them (a map PUBG does
    not document, e.g. ``{"Neon_Main": 816_000}``).

    Raises:
        InvalidArgumentError: ``extra`` is not a mapping of map id -> a positive size.
    """
    sizes = dict(MAP_SIZES)
    if extra is None:
        return sizes
    if not isinstance(extra, Mapping) or not all(
        isinstance(size, int | float) and not isinstance(size, bool) and size > 0
        for size in extra.values()
    ):
        raise InvalidArgumentError(
            f"map_size={extra!r} must map a map id to its size in centimetres (> 0), e.g. "
            "{'Neon_Main': 816000}",
            parameter="map_size",
        )
    sizes.update({str(key): int(value) for key, value in extra.items()})
    return sizes
