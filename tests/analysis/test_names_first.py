"""Analysis tables lead with names (character, cosmetic, map) and end with the ids they name."""

from __future__ import annotations

import pandas as pd
import pytest

from matchkit.analysis import (
    cosmetic_summary,
    cosmetic_usage,
    cosmetic_win_rates,
    duration_counts,
    duration_summary,
    player_history,
    player_summary,
    side_win_rates,
)
from matchkit.names import NAME_COLUMNS, sample_names
from tests.analysis.helpers import sample_frames

IDS = {*NAME_COLUMNS, "cosmetic_id", "default_cosmetic_id", "match_id"}
NAMES = {name for _, name in NAME_COLUMNS.values()} | {"cosmetic", "default_cosmetic"}


@pytest.fixture(scope="module")
def frames():
    return sample_frames()


def _ids_last(table: pd.DataFrame) -> None:
    columns = list(table.columns)
    ids = [column for column in columns if column in IDS]
    assert ids, columns
    assert columns[-len(ids) :] == ids, columns  # every id after every other column
    assert columns[0] in NAMES | {"created_at"}, columns  # a name (or the time) leads


TABLES = [
    lambda f, n: cosmetic_usage(f, "mount", names=n),
    lambda f, n: cosmetic_usage(f, ["mount", "emote"], names=n),
    lambda f, n: cosmetic_summary(f, "outfit", names=n),
    lambda f, n: cosmetic_win_rates(f, "mount", names=n),
    lambda f, n: side_win_rates(f, by="map_id", names=n),
    lambda f, n: duration_summary(f, by=["map_id", "server_type"], names=n),
    lambda f, n: duration_counts(f, by="map_id", names=n),
    lambda f, n: player_history(f, f.participants["player_id"].dropna().iloc[0], names=n),
    lambda f, n: (
        player_summary(f, f.participants["player_id"].dropna().iloc[0], names=n).characters
    ),
]
"""Every analysis table that names ids, as a function of the frames and the names."""


@pytest.mark.parametrize("table", TABLES)
def test_names_lead_and_ids_come_last(frames, table) -> None:
    _ids_last(table(frames, sample_names()))


def test_the_cosmetics_table_names_its_ids_row_by_row(frames) -> None:
    names = sample_names()
    usage = cosmetic_usage(frames, "mount", names=names)
    assert usage["character"].tolist() == [names.name("character", a) for a in usage["actor"]]
    assert usage["cosmetic"].tolist() == [names.name("mount", c) for c in usage["cosmetic_id"]]


@pytest.mark.parametrize("table", TABLES)
def test_without_names_the_table_has_the_same_columns_and_ids_as_names(frames, table) -> None:
    # names=None means no names: the same table, each name column holding its id as text.
    named, unnamed = table(frames, sample_names()), table(frames, None)
    assert list(unnamed.columns) == list(named.columns)
    for id_column, (_, name_column) in NAME_COLUMNS.items():
        if name_column in unnamed.columns:
            ids = unnamed[id_column].astype(object)
            expected = [None if pd.isna(value) else str(value) for value in ids]
            shown = [None if pd.isna(value) else value for value in unnamed[name_column]]
            assert shown == expected, name_column
