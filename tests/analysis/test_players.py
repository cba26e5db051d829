"""player_history and player_summary on the sample set: pandas, several MatchFrames, and Dask.

Expected values come from the sample set's documents read in plain Python; the Dask inputs are
the same tables through ``dask.dataframe.from_pandas`` (text as strings, as an archive stores
it), in one and in several partitions, computed on Dask's threads (the same functions on a
LocalCluster's workers: ``tests/analysis/test_on_cluster.py``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from types import SimpleNamespace
from typing import Any

import dask
import dask.dataframe as dd
import pandas as pd
import pytest

from matchkit import to_frames
from matchkit.analysis import player_history, player_summary
from matchkit.errors import InvalidArgumentError
from matchkit.names import sample_names
from matchkit.sampledata.dataset import open_dataset
from tests.analysis.helpers import sample_frames, wilson


class _Dataset:
    """The sample set's documents, read once per module."""

    def __init__(self) -> None:
        opened = open_dataset()
        self.manifest = opened.manifest
        self.documents = {shard: list(opened.iter_documents(shard)) for shard in opened.shards}

    def iter_documents(self, shard: str) -> list[dict[str, Any]]:
        return self.documents[shard]


@pytest.fixture(scope="module")
def dataset() -> _Dataset:
    return _Dataset()


@pytest.fixture(scope="module")
def renames(dataset) -> dict[str, list[dict[str, str]]]:
    return dataset.manifest["renames"]


def _played(dataset, shard: str, player_id: str) -> list[dict[str, Any]]:
    """What the documents say of each match the player played: time, actor, won, name."""
    rows = []
    for document in dataset.iter_documents(shard):
        included = document["included"]
        for item in included:
            player = (item.get("relationships") or {}).get("player", {}).get("data")
            if item["type"] != "participant" or not player or player["id"] != player_id:
                continue
            (roster,) = [
                one
                for one in included
                if one["type"] == "roster"
                and {"type": "participant", "id": item["id"]}
                in one["relationships"]["participants"]["data"]
            ]
            (snapshot,) = [
                one for one in included if one["type"] == "player" and one["id"] == player_id
            ]
            won = roster["attributes"].get("won")
            rows.append(
                {
                    "match_id": document["data"]["id"],
                    "created_at": pd.Timestamp(document["data"]["attributes"]["createdAt"]),
                    "actor": item["attributes"]["actor"],
                    "won": None if won is None else won == "true",
                    "name": snapshot["attributes"]["name"],
                }
            )
    return sorted(rows, key=lambda row: (row["created_at"], row["match_id"]))


# -- pandas ------------------------------------------------------------------------------------


@pytest.mark.parametrize("shard", ["global", "na"])
def test_history_is_a_row_per_match_the_player_played(dataset, renames, shard):
    player_id = renames[shard][0]["player_id"]
    expected = _played(dataset, shard, player_id)
    history = player_history(sample_frames(shard), player_id, names=sample_names())
    assert list(history["match_id"]) == [row["match_id"] for row in expected]
    assert list(history["created_at"]) == [row["created_at"] for row in expected]
    assert list(history["actor"]) == [row["actor"] for row in expected]
    assert [None if pd.isna(won) else bool(won) for won in history["won"]] == [
        row["won"] for row in expected
    ]
    assert history["side"].notna().all()
    assert {"kills", "deaths"} <= set(history.columns)  # the participant's stats
    if shard == "global":
        assert history["character"].notna().all()
        assert not history["character"].str.isdigit().any()  # names, not ids


def test_summary_counts_rates_characters_and_times(dataset, renames):
    player_id = renames["global"][0]["player_id"]
    expected = _played(dataset, "global", player_id)
    summary = player_summary(sample_frames(), player_id, names=sample_names())
    wins = sum(1 for row in expected if row["won"])
    decided = sum(1 for row in expected if row["won"] is not None)
    assert (summary.matches, summary.wins, summary.decided) == (len(expected), wins, decided)
    low, high = wilson(wins, decided)
    assert summary.win_rate == pytest.approx(wins / decided)
    assert (summary.ci_low, summary.ci_high) == (pytest.approx(low), pytest.approx(high))
    assert summary.first_seen == expected[0]["created_at"]
    assert summary.last_seen == expected[-1]["created_at"]
    counts = defaultdict(int)
    for row in expected:
        counts[row["actor"]] += 1
    characters = summary.characters
    assert dict(zip(characters["actor"], characters["matches"], strict=True)) == counts
    assert characters["share"].sum() == pytest.approx(1.0)
    assert list(characters["matches"]) == sorted(characters["matches"], reverse=True)
    assert characters["character"].iloc[0] != characters["actor"].iloc[0]
    # one MatchFrames holds the latest snapshot only: the current name
    assert summary.name == renames["global"][0]["to"]
    assert list(summary.names["name"]) == [renames["global"][0]["to"]]
    assert not summary.renamed


@pytest.mark.parametrize("shard", ["global", "na"])
def test_several_matchframes_show_the_names_used_over_time(dataset, renames, shard):
    for rename in renames[shard]:
        documents = [
            document
            for document in dataset.iter_documents(shard)
            if any(item["id"] == rename["player_id"] for item in document["included"])
        ]
        by_month = defaultdict(list)
        for document in documents:
            by_month[document["data"]["attributes"]["createdAt"][:7]].append(document)
        monthly = [to_frames(month) for _, month in sorted(by_month.items())]
        summary = player_summary(monthly, rename["player_id"])
        assert list(summary.names["name"]) == [rename["from"], rename["to"]]
        assert summary.renamed
        assert summary.names["last_seen"].iloc[0] < pd.Timestamp(rename["at"])
        assert summary.names["first_seen"].iloc[1] >= pd.Timestamp(rename["at"])
        assert summary.matches == len(documents)  # each match once
        history = player_history(monthly, rename["player_id"])
        assert history["match_id"].is_unique
        assert len(history) == len(documents)


def test_a_player_without_matches_has_an_empty_history(renames):
    history = player_history(sample_frames(), "000000000000000001")
    assert history.empty
    assert {"match_id", "created_at", "actor", "side", "won"} <= set(history.columns)
    summary = player_summary(sample_frames(), "000000000000000001")
    assert (summary.matches, summary.wins, summary.name) == (0, 0, None)
    assert math.isnan(summary.win_rate)
    assert summary.characters.empty
    assert summary.names.empty


@pytest.mark.parametrize(
    ("data", "player_id", "parameter"),
    [
        ("frames", 42, "player_id"),
        ("frames", "", "player_id"),
        (pd.DataFrame(), "1", "data"),
        ([], "1", "data"),
    ],
)
def test_bad_arguments_are_invalid_argument_errors(data, player_id, parameter):
    data = sample_frames("na") if isinstance(data, str) else data
    with pytest.raises(InvalidArgumentError) as raised:
        player_history(data, player_id)
    assert raised.value.parameter == parameter


# -- Dask: the same results --------------------------------------------------------------------


def _months(frames: Any, table: pd.DataFrame) -> pd.Series:
    """Each row's match month, "YYYY-MM", as an archive partitions its tables."""
    months = frames.matches.set_index("match_id")["created_at"].dt.strftime("%Y-%m")
    return table["match_id"].map(months).astype("string")


def _lazy(frames: Any, partitions: int) -> SimpleNamespace:
    """The tables of ``frames`` as Dask DataFrames, text as strings (an archive's shapes)."""
    tables = {}
    for name in ("matches", "rosters", "participants", "players"):
        table = getattr(frames, name)
        text = {
            column: table[column].astype("string")
            for column in table.columns
            if isinstance(table[column].dtype, pd.CategoricalDtype)
        }
        if name != "players":  # an archive's partition column, on every match-bound table
            text["month"] = _months(frames, table)
        tables[name] = dd.from_pandas(table.assign(**text), npartitions=partitions)
    return SimpleNamespace(**dict(zip(tables, dask.persist(*tables.values()), strict=True)))


@pytest.mark.parametrize("partitions", [1, 5])
@pytest.mark.parametrize("shard", ["global", "na"])
def test_dask_tables_give_the_same_results(renames, shard, partitions):
    frames = sample_frames(shard)
    lazy = _lazy(frames, partitions)
    assert isinstance(lazy.matches, dd.DataFrame)
    names = sample_names()
    for player_id in [renames[shard][0]["player_id"], "000000000000000001"]:
        pd.testing.assert_frame_equal(
            player_history(lazy, player_id, names=names),
            player_history(frames, player_id, names=names),
        )
        eager, computed = (player_summary(data, player_id, names=names) for data in (frames, lazy))
        for field in ("characters", "names"):
            pd.testing.assert_frame_equal(getattr(computed, field), getattr(eager, field))
        plain = ("characters", "names", "win_rate", "ci_low", "ci_high")
        assert {k: v for k, v in vars(computed).items() if k not in plain} == {
            k: v for k, v in vars(eager).items() if k not in plain
        }
        for field in plain[2:]:
            assert getattr(computed, field) == pytest.approx(getattr(eager, field), nan_ok=True)


def test_an_archives_snapshots_give_the_names_over_time(dataset, renames):
    rename = renames["global"][1]  # took the name another player gave up
    frames = sample_frames()
    by_month: dict[str, list[dict]] = {}  # the player's matches, a month an archive batch
    for document in dataset.iter_documents("global"):
        if any(item["id"] == rename["player_id"] for item in document["included"]):
            month = document["data"]["attributes"]["createdAt"][:7]
            by_month.setdefault(month, []).append(document)
    snapshots = []
    for month in sorted(by_month):
        part = to_frames(by_month[month])
        latest = part.matches["created_at"].max()
        snapshots.append(part.players.assign(match_created_at=latest))
    lazy = _lazy(frames, 3)
    kept = pd.concat(snapshots, ignore_index=True)
    kept = kept.astype({"name": "string", "player_id": "string"})
    lazy.player_snapshots = dd.from_pandas(kept, npartitions=2).persist()
    summary = player_summary(lazy, rename["player_id"])
    assert list(summary.names["name"]) == [rename["from"], rename["to"]]
    assert summary.matches == player_summary(frames, rename["player_id"]).matches
