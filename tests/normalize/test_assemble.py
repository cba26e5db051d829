"""Assembling a table from its columns (matchkit.normalize.assemble)."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa

from matchkit.model.schema import TABLES
from matchkit.normalize.assemble import assemble, snake_case
from matchkit.normalize.problems import Problems


def test_known_columns_come_first_with_their_dtypes_then_extras_by_name() -> None:
    problems = Problems()
    frame = assemble(
        TABLES["players"],
        2,
        {
            "attributes": {"name": pa.array(["Ann", None]), "shardId": pa.array(["eu", "eu"])},
            "stats": {"zeta": pa.array([1, 2]), "alphaRank": pa.array(["a", None])},
        },
        {"player_id": pa.array(["p1", "p2"])},
        {},
        problems,
    )
    assert list(frame.columns) == [*TABLES["players"].column_names, "alpha_rank", "zeta"]
    assert frame["player_id"].dtype == pd.StringDtype()
    assert isinstance(frame["shard_id"].dtype, pd.CategoricalDtype)
    assert frame["zeta"].dtype == "Int64"
    assert frame["title_id"].isna().all()  # a known column no document carried still exists
    assert frame["name"].tolist() == ["Ann", pd.NA]
    assert not len(problems)


def test_an_extra_whose_name_is_taken_is_prefixed_by_its_section() -> None:
    frame = assemble(
        TABLES["matches"],
        1,
        {
            "stats": {"duration": pa.array([5]), "mapID": pa.array(["m"])},
            "tags": {"duration": pa.array(["long"])},
        },
        {"match_id": pa.array(["m1"])},
        {},
        Problems(),
    )
    assert frame["map_id"].tolist() == ["m"]  # a known stats member
    assert frame["stats_duration"].tolist() == [5]
    assert frame["tags_duration"].tolist() == ["long"]
    assert frame["duration"].isna().all()


def test_values_that_do_not_fit_become_missing_and_are_reported() -> None:
    problems = Problems()
    frame = assemble(
        TABLES["rounds"],
        2,
        {"attributes": {"duration": pa.array(["long", "40"])}},
        {"round_id": pa.array(["r1", "r2"])},
        {},
        problems,
    )
    assert frame["duration"].tolist() == [pd.NA, 40]
    [problem] = list(problems)
    assert (problem.kind, problem.subject, problem.count) == ("unfit_values", "rounds.duration", 1)


def test_snake_case_names() -> None:
    assert snake_case("mapID") == "map_id"
    assert snake_case("URL") == "url"
    assert snake_case("1st") == "field_1st"
    assert snake_case("--") == "field"
