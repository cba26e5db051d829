"""PUBG analyses: every analysis of :mod:`matchkit.analysis.pubg` on 100 matches' telemetry,
against the time of reading those files.

Input: the first :data:`MATCHES` steam matches of the PUBG double's sample set (every game mode,
seven maps), their documents and telemetry files as the double serves them, made before the
clock starts. Deterministic: the same bytes every run.

- (a) reading: ``to_pubg_telemetry_frames`` of the 100 files (compact JSON, as served) and
  ``to_frames`` of their documents; (b) the analyses: weapon kill shares, kill distances, first
  knock times and summary, landing spots, zone phases, damage by placement, on (a)'s tables.
  Best of :data:`ROUNDS` interleaved runs each (wall and CPU). Target: b well under a.
"""

from __future__ import annotations

from typing import Any

from benchmarks.clock import Timing, clock, since

MATCHES = 100
ROUNDS = 3


def inputs() -> tuple[list[bytes], list[dict[str, Any]]]:
    """The files and documents of the first :data:`MATCHES` steam matches."""
    from matchkit.sampledata.pubg.documents import match_document
    from matchkit.sampledata.pubg.plan import build_plan
    from matchkit.sampledata.pubg.telemetry import telemetry_bytes

    plans = build_plan().shards["steam"].matches[:MATCHES]
    files = [telemetry_bytes(match) for match in plans]
    documents = [match_document(match, telemetry_url="http://t") for match in plans]
    return files, documents


def read(files: list[bytes], documents: list[dict[str, Any]]) -> tuple[Any, Any, Timing]:
    import matchkit
    from matchkit.telemetry.pubg import to_pubg_telemetry_frames

    started = clock()
    frames = matchkit.to_frames(documents)
    telemetry = to_pubg_telemetry_frames(files)
    return frames, telemetry, since(started)


def analyse(frames: Any, telemetry: Any) -> Timing:
    from matchkit.analysis import pubg

    started = clock()
    pubg.weapon_kill_shares(frames, telemetry, by="map_name")
    pubg.kill_distances(frames, telemetry)
    pubg.first_knock_summary(frames, telemetry, by="game_mode")
    pubg.landing_spots(frames, telemetry)
    pubg.zone_phases(frames, telemetry)
    pubg.damage_by_placement(frames, telemetry)
    return since(started)


def main() -> None:
    files, documents = inputs()
    megabytes = sum(map(len, files)) / 1e6
    print(f"input: {MATCHES} PUBG sample-set matches, telemetry {megabytes:.1f} MB in all")
    reads: list[Timing] = []
    runs: list[Timing] = []
    for _ in range(ROUNDS):
        frames, telemetry, elapsed = read(files, documents)
        reads.append(elapsed)
        runs.append(analyse(frames, telemetry))
    a_wall, a_cpu = min(t[0] for t in reads), min(t[1] for t in reads)
    b_wall, b_cpu = min(t[0] for t in runs), min(t[1] for t in runs)
    print(f"(a) reading files and documents: {a_wall:.2f} s wall, {a_cpu:.2f} s cpu")
    print(f"(b) the PUBG analyses:           {b_wall:.2f} s wall, {b_cpu:.2f} s cpu")
    print(f"b/a = {b_wall / a_wall:.2f} (wall), {b_cpu / a_cpu:.2f} (cpu); target well under 1")
