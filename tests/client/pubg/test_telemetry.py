"""client.telemetry under PUBG: files from the CDN host through the one transport, read by
read_pubg_file against their match's roster, without the key, a bad file refused once."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import pytest
import requests

from matchkit.client.client import Client
from matchkit.errors import DocumentError
from matchkit.service import RunningService
from matchkit.telemetry.pubg import PubgTelemetryFrames
from tests.client.pubg.conftest import CdnProxy, through


def test_telemetry_of_a_few_matches_agrees_with_them(
    pubg_client: Callable[..., Client],
) -> None:
    client = pubg_client()
    sample = client.samples(start="2026-11-14T00:00:00Z")
    ids = sample.matches["match_id"].tolist()[:3]
    frames = sample.filter(sample.matches["match_id"].isin(ids))
    telemetry = client.telemetry(frames, max_workers=2)
    assert isinstance(telemetry, PubgTelemetryFrames)
    assert telemetry.match_ids == ids
    assert telemetry.problems == ()
    # every kill a participant is credited with is a kill event of theirs (the reader checks
    # it; asserted here on the tables the client returned)
    kills = telemetry.kills
    credited = kills[kills["killer_id"].notna() & (kills["killer_id"] != kills["victim_id"])]
    counted = credited.groupby(["match_id", "killer_id"]).size()
    participants = frames.participants.set_index(["match_id", "player_id"])["kills"]
    scored = participants[participants > 0].astype("int64")
    assert counted.sum() >= scored.sum() > 0
    # a second call reads the cache: the same tables
    again = client.telemetry(frames)
    pd.testing.assert_frame_equal(again.kills, telemetry.kills)


def test_the_key_is_never_sent_to_the_telemetry_host(
    pubg_client: Callable[..., Client], cdn_proxy: CdnProxy
) -> None:
    client = pubg_client()  # holds the double's key
    sample = client.samples(start="2026-11-15T00:00:00Z")
    frames = through(
        sample.filter(sample.matches["match_id"].isin(sample.matches["match_id"][:2])), cdn_proxy
    )
    client.telemetry(frames)
    assert len(cdn_proxy.headers) == 2
    for headers in cdn_proxy.headers:
        assert "Authorization" not in headers
        assert "gzip" in headers.get("Accept-Encoding", "")


def test_a_file_of_another_match_is_refused_the_first_time_and_never_cached(
    pubg_service: RunningService, pubg_client: Callable[..., Client], cdn_proxy: CdnProxy
) -> None:
    client = pubg_client()
    sample = client.samples(start="2026-11-16T00:00:00Z")
    first, second = sample.matches["match_id"].tolist()[:2]
    frames = through(sample.filter(sample.matches["match_id"] == first), cdn_proxy)
    url = sample.assets.set_index("match_id").loc[second, "url"]
    cdn_proxy.body = requests.get(url, timeout=30).content  # the other match's file
    with pytest.raises(DocumentError, match=first):
        client.telemetry(frames)
    assert len(cdn_proxy.headers) == 1  # downloaded once: not again in a retry loop
    with pytest.raises(DocumentError, match=first):
        client.telemetry(frames)  # not cached: asked again, refused again
    assert len(cdn_proxy.headers) == 2
    cdn_proxy.body = None  # the host is fixed: the right file comes
    telemetry = client.telemetry(frames)
    assert telemetry.match_ids == [first]
    assert len(cdn_proxy.headers) == 3


def test_on_error_skip_leaves_a_bad_file_out_and_says_so(
    pubg_client: Callable[..., Client], cdn_proxy: CdnProxy
) -> None:
    client = pubg_client()
    sample = client.samples(start="2026-11-17T00:00:00Z")
    match_id = sample.matches["match_id"].iloc[0]
    frames = through(sample.filter(sample.matches["match_id"] == match_id), cdn_proxy)
    cdn_proxy.body = b'[{"_T": "LogMatchStart"}]'  # an event without _D
    skipped = client.telemetry(frames, on_error="skip")
    assert skipped.match_ids == []
    assert len(skipped.problems) == 1
    assert match_id in skipped.problems[0]
    assert len(cdn_proxy.headers) == 1
