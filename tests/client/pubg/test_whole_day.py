"""A PUBG analyst's whole day on the embedded double, with no key and no base URL:
players -> their matches -> tables; samples -> matches -> tables; telemetry of a few matches."""

from __future__ import annotations

import pytest

import matchkit
from matchkit.telemetry.pubg import PubgTelemetryFrames


def test_the_whole_day_on_the_embedded_double(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("MATCHKIT_API_KEY", "MATCHKIT_BASE_URL", "MATCHKIT_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)
    with matchkit.Client(profile="pubg", cache_dir=tmp_path, progress=False) as client:
        assert client.embedded
        assert client.shard == "steam"
        # samples -> matches -> tables
        day = client.samples()
        assert len(day.matches) > 0
        assert day.matches["match_id"].tolist() == day.sample_matches["match_id"].tolist()
        assert set(day.matches["game"]) == {"pubg"}
        view = day.participant_view()
        assert {"rank", "map_name"} <= set(view.columns)
        assert view["rank"].notna().all()
        assert set(view["kind"]) <= {"registered", "bot"}
        # players -> their matches -> tables
        registered = view[view["kind"] == "registered"]
        names = registered["name"].drop_duplicates().head(3).tolist()
        players = client.players(names=names)
        assert players["name"].tolist() == names
        player_id = players["player_id"].iloc[0]
        theirs = client.player_matches(player_id)
        assert len(theirs.matches) == len(theirs.player_matches) > 0
        mine = theirs.participants[theirs.participants["player_id"] == player_id]
        assert sorted(mine["match_id"]) == sorted(theirs.matches["match_id"])
        # telemetry of a few matches, against their rosters
        few = day.filter(day.matches["match_id"].isin(day.matches["match_id"].head(2)))
        telemetry = client.telemetry(few)
        assert isinstance(telemetry, PubgTelemetryFrames)
        assert telemetry.match_ids == few.matches["match_id"].tolist()
        assert len(telemetry.kills) > 0
        # the catalogue names the maps
        assert client.names() is not None
        seasons = client.seasons()
        assert seasons["is_current_season"].sum() == 1
