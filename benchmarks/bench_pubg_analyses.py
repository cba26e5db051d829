"""PUBG analyses: every analysis of :mod:`matchkit.analysis.pubg` on 100 matches' telemetry,
against the time of reading those files.

Input: the first :data:`MATCHES` steam matches of the PUBG double's sample set (every game mode,
seven maps), their documents and telemetry files as the double serves them, made before the
clock starts. Deterministic: the same bytes every run.

- (a) reading: ``to_pubg_telemetry_frames`` of the 100 files (compact JSON, as served) and
  ``to_frames`` of their documents; (b) the analyses: weapon kill shares, kill distances, first
  knock times and summary, landing spots, zone phases, damage by placement, on (a)'s tables.
  Best of :data:`ROUNDS` interleaved runs each (wall and CPU). Target: b well under a.
- (c) the small archive: the double's ``console`` shard synced with telemetry (14 days, about
  36 matches), opened with ``matchkit.archive.open``; each analysis and ``plot_match_map`` of
  it, timed one by one (best of 3 in a process that has imported dask.dataframe and
  matplotlib), and (b) again; this code beside :data:`BASE_COMMIT`'s, each in its own process
  with its code first on ``PYTHONPATH``, alternated for :data:`ROUNDS` rounds so that the
  machine's load moves between rounds, not between codes. Targets: each analysis under 0.5 s,
  the map under 1 s, (b) no worse. ``MATCHKIT_BENCH_PUBG_BASE=none`` measures this code alone.
"""

from __future__ import annotations

import json
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.baseline import REPOSITORY, export, run_code
from benchmarks.clock import Timing, clock, since

MATCHES = 100
ROUNDS = 3

BASE_COMMIT = "36416fb"
"""The code measured beside this one: main before the PUBG analyses read only what they use."""

IN_MEMORY = [
    ("weapon_kill_shares", {"by": "map_name"}),
    ("kill_distances", {}),
    ("first_knock_summary", {"by": "game_mode"}),
    ("landing_spots", {}),
    ("zone_phases", {}),
    ("damage_by_placement", {}),
]
"""(b)'s analyses, each with its arguments: run here and in the child of (c)."""

# Runs in a child process, with the code under test first on PYTHONPATH: argv is the archive
# folder, the pickle of (b)'s documents and files, and IN_MEMORY as JSON.
_CHILD = """
import json, pickle, sys, time
import dask.dataframe  # noqa: F401  (as a notebook has: its import is not the call's cost)
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import matchkit, matchkit.archive
from matchkit.analysis import pubg
from matchkit.names import catalogue_names
from matchkit.plots.pubg_map import plot_match_map
from matchkit.sampledata.pubg.catalogue import catalogue
from matchkit.telemetry.pubg import to_pubg_telemetry_frames

names = catalogue_names(catalogue(), source="the PUBG sample set")
def best(call, n=3):
    walls, cpus = [], []
    for _ in range(n):
        wall, cpu = time.perf_counter(), time.process_time()
        call()
        walls.append(time.perf_counter() - wall); cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)
started = time.perf_counter(), time.process_time()
archive = matchkit.archive.open(sys.argv[1])
figures = {"open": (time.perf_counter() - started[0], time.process_time() - started[1])}
match = str(archive.to_frames().matches["match_id"].iloc[0])
def match_map():
    plt.close(plot_match_map(archive, match_id=match, names=names).figure)
calls = {
    "to_frames": lambda: archive.to_frames(),
    "weapon_kill_shares": lambda: pubg.weapon_kill_shares(archive, by="map_name", names=names),
    "kill_distances": lambda: pubg.kill_distances(archive, names=names),
    "first_knock_summary": lambda: pubg.first_knock_summary(archive, by="game_mode"),
    "landing_spots": lambda: pubg.landing_spots(archive, names=names),
    "zone_phases": lambda: pubg.zone_phases(archive),
    "damage_by_placement": lambda: pubg.damage_by_placement(archive),
    "plot_match_map": match_map,
}
for label, call in calls.items():
    figures[label] = best(call)
documents, files = pickle.loads(open(sys.argv[2], "rb").read())
frames, telemetry = matchkit.to_frames(documents), to_pubg_telemetry_frames(files)
def in_memory():
    for name, arguments in json.loads(sys.argv[3]):
        getattr(pubg, name)(frames, telemetry, **arguments)
figures["(b) 100 matches in memory"] = best(in_memory)
print(json.dumps({"code": matchkit.__file__, "figures": figures}))
"""


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
    for name, arguments in IN_MEMORY:
        getattr(pubg, name)(frames, telemetry, **arguments)
    return since(started)


def small_archive(folder: Path) -> None:
    """The double's ``console`` shard synced with telemetry into ``folder`` (this code)."""
    import matchkit.archive
    from matchkit import Client

    with Client(None, profile="pubg", shard="console", progress=False) as client:
        matchkit.archive.sync(client, folder, telemetry=True, progress=False)


def _child(code: Path, folder: Path, pickled: Path) -> dict[str, Timing]:
    answer = run_code(
        code, _CHILD, str(folder), str(pickled), json.dumps(IN_MEMORY), cwd=folder.parent
    )
    return {label: (wall, cpu) for label, (wall, cpu) in answer["figures"].items()}


def archive_side_by_side(files: list[bytes], documents: list[dict[str, Any]]) -> None:
    """(c): this code beside :data:`BASE_COMMIT`'s on the small archive, alternated."""
    base = os.environ.get("MATCHKIT_BENCH_PUBG_BASE", BASE_COMMIT)
    with tempfile.TemporaryDirectory(prefix="bench-pubg-") as temporary:
        root = Path(temporary)
        small_archive(root / "archive")
        pickled = root / "inputs.pickle"
        pickled.write_bytes(pickle.dumps((documents, files)))
        codes = {"this": REPOSITORY}
        if base != "none":
            codes = {f"base {base}": export(base, root / "base"), **codes}
        best: dict[str, dict[str, Timing]] = {name: {} for name in codes}
        for _ in range(ROUNDS):
            for name, code in codes.items():
                for label, (wall, cpu) in _child(code, root / "archive", pickled).items():
                    old = best[name].get(label, (float("inf"), float("inf")))
                    best[name][label] = (min(old[0], wall), min(old[1], cpu))
    print("(c) the small archive (console, 14 days), best of 3 a process, "
          f"{ROUNDS} alternated processes a code; wall s / cpu s")  # fmt: skip
    header = "".join(f"{name:>24s}" for name in codes)
    print(f"{'call':28s}{header}")
    for label in best["this"]:
        cells = "".join(
            f"{best[name][label][0]:>11.3f} /{best[name][label][1]:>10.3f}" for name in codes
        )
        print(f"{label:28s}{cells}")


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
    archive_side_by_side(files, documents)
