"""Regression: a partition of a synthetic archive with telemetry took a Dask worker past its
memory.

``matchkit synth --archive --telemetry`` split a month in buckets of at most 100,000 matches, as
without telemetry; but a match carries about 70 telemetry rows more, and at 1M matches a
partition held 1.08M player-rounds: ``per_minute_rates``, even partition by partition, took a
1 GiB worker past its limit (it was restarted). With telemetry a bucket now holds at most
25,000 matches a month: every telemetry analysis peaked at 443-602 MiB a worker there. Found by
measuring the telemetry analyses on an archive (issue 37)."""

from __future__ import annotations

import matchkit.archive
from matchkit.archive.manifest import read_manifest
from matchkit.synth.archive import write_synthetic_archive

# 3,000 matches in a day: 91,312 a month, one bucket without telemetry, four with.
MATCHES, DAYS = 3_000, 1


def test_a_month_with_telemetry_is_split_in_smaller_buckets(tmp_path) -> None:
    write_synthetic_archive(tmp_path / "plain", matches=MATCHES, days=DAYS)
    write_synthetic_archive(tmp_path / "telemetry", matches=MATCHES, days=DAYS, telemetry=True)
    plain, telemetry = read_manifest(tmp_path / "plain"), read_manifest(tmp_path / "telemetry")
    assert plain is not None
    assert telemetry is not None
    assert (plain.buckets, telemetry.buckets) == (1, 4)
    archive = matchkit.archive.open(tmp_path / "telemetry")
    rounds = archive.telemetry.round_player_stats.map_partitions(len).compute()
    assert len(rounds) >= 4  # the month's player-rounds in four partitions, not one
    assert max(rounds) < sum(rounds) / 2
