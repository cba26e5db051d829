"""MatchFrames: the container, participant_view, concat/merge and filter."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from matchkit import InvalidArgumentError, MatchFrames, to_frames
from matchkit.model.listings import FRAME_TABLES, LISTING_TABLES
from matchkit.model.schema import TABLE_NAMES, TABLES
from tests.builders.resources import arena, page


@pytest.fixture
def frames() -> MatchFrames:
    royale, included = arena("m3", rounds=0, created_at="2026-10-29T08:00:00Z")
    royale["attributes"]["stats"]["game"] = "Royale"
    royale["attributes"]["tags"]["serverType"] = "ROYALRUMBLESOLO"
    return to_frames(
        page(
            arena("m1", created_at="2026-10-30T12:00:00Z"),
            arena("m2", per_side=3, created_at="2026-10-31T09:30:00Z"),
            (royale, included),
        )
    )


def test_empty_has_every_table() -> None:
    empty = MatchFrames.empty()
    assert len(empty) == 0
    assert list(empty.tables) == [*TABLE_NAMES, *LISTING_TABLES]
    for name, schema in FRAME_TABLES.items():
        assert list(empty.tables[name].columns) == schema.column_names


def test_frozen_len_repr_and_summary(frames: MatchFrames) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        frames.matches = frames.rosters  # type: ignore[misc]
    assert len(frames) == 3
    assert repr(frames) == (
        "MatchFrames(matches=3, rosters=6, participants=14, rounds=6, round_participants=12, "
        "players=14, teams=0, assets=3, spectators=0, problems=0)"
    )
    summary = frames.summary()
    assert "participants" in summary
    assert "14 rows" in summary
    assert "matches from 2026-10-29 08:00 to 2026-10-31 09:30 UTC" in summary


def test_tables_must_be_dataframes() -> None:
    tables = MatchFrames.empty().tables
    tables["matches"] = [1, 2]  # type: ignore[assignment]
    with pytest.raises(InvalidArgumentError, match="matches must be a pandas DataFrame"):
        MatchFrames(**tables)


def test_participant_view_joins_roster_and_match(frames: MatchFrames) -> None:
    view = frames.participant_view()
    assert len(view) == len(frames.participants)
    expected = [
        *[c for c in frames.participants.columns if c != "side"],
        "side",
        "side_label",
        "won",
        "roster_score",
        "team_id",
        "created_at",
        "duration",
        "game",
        "game_mode",
        "server_type",
        "ranking_type",
        "patch_version",
        "region",
        "match_type",
        "is_royale",
    ]
    assert list(view.columns) == expected
    row = view.set_index("participant_id").loc["m2-p21"]
    assert row["roster_id"] == "m2-r2"
    assert row["side"] == 2
    assert bool(row["won"]) is False
    assert row["roster_score"] == 1
    assert row["created_at"] == pd.Timestamp("2026-10-31T09:30:00Z")
    assert row["server_type"] == "QUICK3V3"
    royale = view[view["match_id"] == "m3"]
    assert royale["is_royale"].all()
    assert set(royale["server_type"]) == {"ROYALRUMBLESOLO"}
    assert view["won"].dtype == "boolean"
    assert view["created_at"].dtype == frames.matches["created_at"].dtype
    assert view["game_mode"].dtype == frames.matches["game_mode"].dtype


def test_participant_view_of_participants_without_roster() -> None:
    frames = to_frames({"data": [], "included": [{"type": "participant", "id": "p"}]})
    view = frames.participant_view()
    assert len(view) == 1
    assert view.loc[0, "won"] is pd.NA
    assert pd.isna(view.loc[0, "created_at"])


def test_concat_and_merge_deduplicate(frames: MatchFrames) -> None:
    other = to_frames(page(arena("m2", per_side=3), arena("m4")))
    merged = frames.merge(other)
    assert list(merged.matches["match_id"]) == ["m1", "m2", "m3", "m4"]
    assert merged.participants["participant_id"].is_unique
    assert len(merged.participants) == 14 + 4
    assert len(merged.round_participants) == 12 + 6
    for name in TABLE_NAMES:
        for column in TABLES[name].columns:
            dtype = merged.tables[name][column.name].dtype
            if column.kind == "category" and not column.categories:
                assert isinstance(dtype, pd.CategoricalDtype), (name, column.name)
                assert dtype.categories.dtype == "str", (name, column.name)
            else:
                assert dtype == column.dtype, (name, column.name)
    assert MatchFrames.concat([]).matches.empty
    assert len(MatchFrames.concat([frames])) == 3


def test_concat_unions_extra_columns_and_categories() -> None:
    first_match, first_included = arena("a")
    first_match["attributes"]["stats"]["region"] = "eu"
    first_included[0]["attributes"]["stats"]["healingDone"] = 5
    second_match, second_included = arena("b")
    second_match["attributes"]["stats"]["region"] = "na"
    second_included[0]["attributes"]["stats"]["farm"] = 1.5
    merged = MatchFrames.concat(
        [
            to_frames(page((first_match, first_included))),
            to_frames(page((second_match, second_included))),
        ]
    )
    assert list(merged.matches["region"].cat.categories) == ["eu", "na"]
    assert merged.participants["healing_done"].dtype == "Int64"
    assert merged.participants["farm"].dtype == "float64"
    by_id = merged.participants.set_index("participant_id")
    assert by_id.loc["a-p10", "healing_done"] == 5
    assert pd.isna(by_id.loc["a-p10", "farm"])
    assert by_id.loc["b-p10", "farm"] == 1.5
    assert by_id.loc["b-p10", "healing_done"] is pd.NA


def test_filter_keeps_every_table_consistent(frames: MatchFrames) -> None:
    kept = frames.filter(lambda matches: matches["duration"] > 0)
    assert len(kept) == 3
    only = frames.filter(frames.matches["match_id"] == "m2")
    assert list(only.matches["match_id"]) == ["m2"]
    for name in ("rosters", "participants", "rounds", "round_participants", "assets"):
        assert set(only.tables[name]["match_id"]) == {"m2"}, name
    assert len(only.participants) == 6
    assert set(only.players["player_id"]) == set(only.participants["player_id"])
    assert only.matches.index.tolist() == [0]


def test_filter_masks(frames: MatchFrames) -> None:
    assert len(frames.filter([True, False, True])) == 2
    assert len(frames.filter(np.array([False, False, True]))) == 1
    with_na = pd.array([True, None, False], dtype="boolean")
    assert list(frames.filter(with_na).matches["match_id"]) == ["m1"]
    royale = frames.filter(lambda m: m["is_royale"])
    assert list(royale.matches["match_id"]) == ["m3"]
    assert royale.rounds.empty


def test_filter_rejects_masks_that_do_not_fit(frames: MatchFrames) -> None:
    with pytest.raises(InvalidArgumentError, match="3 matches"):
        frames.filter([True])
    shuffled = pd.Series([True, True, True], index=[5, 6, 7])
    with pytest.raises(InvalidArgumentError, match="index"):
        frames.filter(shuffled)


def test_filter_keeps_teams_that_kept_rosters_refer_to() -> None:
    match, included = arena("m1")
    for resource in included:
        if resource["id"] == "m1-r1":
            resource["relationships"]["team"] = {"data": {"type": "team", "id": "t1"}}
    included.append({"type": "team", "id": "t1", "attributes": {"name": "Wolves"}})
    frames = to_frames(page((match, included), arena("m2")))
    assert list(frames.filter([True, False]).teams["team_id"]) == ["t1"]
    assert frames.filter([False, True]).teams.empty


def test_declared_frames_take_their_tables_and_counted_table_as_class_arguments() -> None:
    from matchkit.model.base import DeclaredFrames
    from matchkit.model.schema import TableSchema, derived

    one = {
        "things": TableSchema(
            "things", "thing", ("thing_id",), (derived("thing_id", "string", "id"),)
        )
    }

    @dataclasses.dataclass(frozen=True, eq=False, repr=False)
    class Things(DeclaredFrames, schemas=one, counted="things"):
        things: pd.DataFrame
        problems: tuple[str, ...] = ()

    frames = Things(pd.DataFrame({"thing_id": ["a", "b", "c"]}), problems=["p"])
    assert len(frames) == 3
    assert repr(frames) == "Things(things=3, problems=1)"
    assert list(Things.empty().tables) == ["things"]
    assert frames.problems == ("p",)
    with pytest.raises(TypeError):

        class Unnamed(DeclaredFrames):  # the tables must be named
            pass
