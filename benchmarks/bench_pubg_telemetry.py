"""PUBG telemetry: one file of tens of MB into tables, against the orjson floor, and its memory.

Input: a synthetic telemetry file made from the recorded whole file
(``../shared/pubg/telemetry-js1936-2025-custom-erangel.json``, 2,871 events of 36 players) by
:func:`scaled_file`: its players cloned into :data:`COPIES` teams of copies (new account ids and
names, their own kills), each LogPlayerPosition repeated :data:`POSITION_REPEATS` times along
its player's path and each LogPlayerAttack and LogPlayerTakeDamage :data:`HIT_REPEATS` times
(real 100-player files are mostly positions, attacks and damage), written compact as the CDN
serves it. Deterministic: the same bytes every run (no randomness).

- (a) the floor: ``orjson.loads`` of the file's bytes; (b) ``to_pubg_telemetry_frames`` of the
  same bytes into every table, checked against the match's players and kills (built from the
  file by the generator); (c) the same from the file gzip-compressed on disk (read a piece at a
  time). Best of :data:`ROUNDS` interleaved runs each (wall and CPU), MB/s of (b) and (c).
  Targets: b/a <= 3, at least 50 MB/s.
- The large file, this code beside the code of :data:`LARGE_BASELINE` (the reader before it
  read files in pieces), alternated in fresh processes :data:`SIDE_ROUNDS` times: (b) and (c),
  CPU and wall time, the best of each process's :data:`SIDE_REPEATS` runs; and the peak memory
  of one read in a fresh process (tracemalloc's peak of Python's and Arrow's allocations is not
  complete, so RSS, sampled) over the file's decompressed size: from its bytes in memory
  (beyond them), and from the gzip file on disk (everything counted). Target: <= 2x.
- Small files, the fixed cost per file: the files the PUBG double serves for the ``console``
  shard (:data:`SMALL_FILES` of its latest matches, about 1 MB and 1,700 events each, as real
  short matches are), each read by ``read_pubg_file`` checked against its match's roster, then
  the files' frames combined by ``PubgTelemetryFrames.concat`` (what the client's download
  does). This code and the code of :data:`BASELINE` (``git archive`` of that commit, when the
  repository's history is at hand) side by side, each in fresh processes, alternated
  :data:`SMALL_ROUNDS` times; CPU time, the best of each process's :data:`SMALL_REPEATS` runs.
  The large file above is read the same way beside it. Targets: at least 25 MB/s per file,
  the combination of the files under 0.5 s, the large file no slower than the baseline.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import orjson

from benchmarks.baseline import REPOSITORY, export, run_code
from benchmarks.clock import Timing, clock, since

ROUNDS = 5
COPIES = 3
POSITION_REPEATS = 12
HIT_REPEATS = 3
RECORDED = "telemetry-js1936-2025-custom-erangel.json"
SMALL_FILES = 36
SMALL_ROUNDS = 3
SMALL_REPEATS = 3
BASELINE = "44f099a"
"""The commit the small-file work started from (``MATCHKIT_BENCH_BASELINE`` overrides it)."""
LARGE_BASELINE = "0d60629"
"""The commit the reading in pieces started from (``MATCHKIT_BENCH_LARGE_BASELINE`` overrides)."""
SIDE_ROUNDS = 3
SIDE_REPEATS = 3
MATCH = "c2fb5093-866c-4d6d-96bf-7abf755094af"
"""The recorded whole file's match."""
_PLAYER_KEYS = ("character", "attacker", "victim", "killer", "finisher", "dBNOMaker", "reviver")


def recorded_events() -> list[dict[str, Any]]:
    """The recorded whole file's events (``MATCHKIT_SHARED`` or ``../shared``)."""
    shared = Path(os.environ.get("MATCHKIT_SHARED", Path(__file__).resolve().parents[2] / "shared"))
    return orjson.loads((shared / "pubg" / RECORDED).read_bytes())


def _account(account: str, copy: int) -> str:
    if not account or copy == 0:
        return account
    digest = hashlib.sha256(f"{account}/{copy}".encode()).hexdigest()[:32]
    return f"account.{digest}"


def _clone(value: Any, copy: int) -> Any:
    """A copy of an event's value with its players renamed for ``copy`` (ids, names, teams)."""
    if isinstance(value, dict):
        out = {key: _clone(item, copy) for key, item in value.items()}
        if "accountId" in out and isinstance(out["accountId"], str):
            out["accountId"] = _account(out["accountId"], copy)
            if copy and isinstance(out.get("name"), str):
                out["name"] = f"{out['name']}_{copy}"
            if copy and isinstance(out.get("teamId"), int) and out["teamId"] > 0:
                out["teamId"] += 100 * copy
        return out
    if isinstance(value, list):
        return [_clone(item, copy) for item in value]
    if isinstance(value, str) and value.startswith("account.") and copy:
        return _account(value, copy)
    return value


def _moved(event: dict[str, Any], step: int) -> dict[str, Any]:
    """A position event ``step`` later along its player's path: a few metres on, 1 s later."""
    moved = orjson.loads(orjson.dumps(event))
    location = moved["character"]["location"]
    location["x"] += 150.0 * step + (step * 7919) % 300
    location["y"] += 90.0 * step - (step * 104729) % 200
    moved["elapsedTime"] = moved.get("elapsedTime", 0) + step
    millis = int(moved["_D"][20:23]) + step * 37 % 1000
    moved["_D"] = f"{moved['_D'][:20]}{millis % 1000:03d}Z"
    return moved


def scaled_file() -> tuple[bytes, dict[str, int]]:
    """The synthetic file's bytes, and each player's kills (the match's roster)."""
    events = recorded_events()
    out: list[dict[str, Any]] = []
    for event in events:
        kind = event["_T"]
        if kind in ("LogMatchDefinition", "LogGameStatePeriodic", "LogPhaseChange"):
            out.append(event)
            continue
        if kind in ("LogMatchStart", "LogMatchEnd"):
            merged = dict(event)
            merged["characters"] = [
                _clone(c, copy) for copy in range(COPIES) for c in event["characters"]
            ]
            if kind == "LogMatchEnd":
                merged["allWeaponStats"] = [
                    _clone(s, copy) for copy in range(COPIES) for s in event["allWeaponStats"]
                ]
            out.append(merged)
            continue
        for copy in range(COPIES):
            clone = _clone(event, copy)
            out.append(clone)
            if kind == "LogPlayerPosition":
                out.extend(_moved(clone, step) for step in range(1, POSITION_REPEATS))
            elif kind in ("LogPlayerAttack", "LogPlayerTakeDamage"):
                out.extend(clone for _ in range(1, HIT_REPEATS))
    kills = Counter(
        e["killer"]["accountId"]
        for e in out
        if e["_T"] == "LogPlayerKillV2" and e.get("killer") and not e["isSuicide"]
    )
    end = next(e for e in out if e["_T"] == "LogMatchEnd")
    roster = {
        c["character"]["accountId"]: kills.get(c["character"]["accountId"], 0)
        for c in end["characters"]
    }
    return orjson.dumps(out), roster


def floor(content: bytes) -> Timing:
    """(a) orjson.loads of the file."""
    started = clock()
    orjson.loads(content)
    return since(started)


def matchkit_run(source: bytes | Path, roster: dict[str, int]) -> Timing:
    """(b) to_pubg_telemetry_frames of the file's bytes, or (c) of its path, checked against the
    roster."""
    from matchkit.telemetry.pubg import to_pubg_telemetry_frames

    started = clock()
    frames = to_pubg_telemetry_frames(source, matches={MATCH: list(roster.items())})
    elapsed = since(started)
    if frames.problems or len(frames.positions) == 0:
        raise RuntimeError(f"the synthetic file read with problems: {frames.problems[:3]}")
    return elapsed


def main() -> None:
    content, roster = scaled_file()
    megabytes = len(content) / 1e6
    print(f"input: one synthetic PUBG telemetry file, {megabytes:.1f} MB, {len(roster)} players")
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        _write_large(folder, content, roster)
        floors: list[Timing] = []
        runs: list[Timing] = []
        packed_runs: list[Timing] = []
        for _ in range(ROUNDS):
            floors.append(floor(content))
            runs.append(matchkit_run(content, roster))
            packed_runs.append(matchkit_run(folder / "large.json.gz", roster))
        a_wall, a_cpu = min(t[0] for t in floors), min(t[1] for t in floors)
        b_wall, b_cpu = min(t[0] for t in runs), min(t[1] for t in runs)
        c_wall, c_cpu = min(t[0] for t in packed_runs), min(t[1] for t in packed_runs)
        print(
            f"(a) orjson.loads          wall {a_wall:.3f} s  cpu {a_cpu:.3f} s  "
            f"({megabytes / a_wall:.0f} MB/s)"
        )
        for label, wall, cpu in (
            ("(b) its bytes", b_wall, b_cpu),
            ("(c) gzip file", c_wall, c_cpu),
        ):
            print(
                f"{label} to_pubg_telemetry_frames wall {wall:.3f} s  cpu {cpu:.3f} s  "
                f"({megabytes / wall:.0f} MB/s wall, {megabytes / cpu:.0f} MB/s cpu); "
                "target >= 50"
            )
        print(f"b/a = {b_wall / a_wall:.2f} (wall), {b_cpu / a_cpu:.2f} (cpu); target <= 3")
        large_main(folder)
    small_main(content, roster)


def _write_large(folder: Path, content: bytes, roster: dict[str, int]) -> None:
    """The large file, plain and gzip, and its roster, in ``folder`` (for the child processes)."""
    (folder / "large.json").write_bytes(content)
    (folder / "large.json.gz").write_bytes(gzip.compress(content, compresslevel=6))
    (folder / "large-roster.json").write_text(json.dumps({MATCH: list(roster.items())}))


# Run in a fresh process with either tree first on its path: public names only, which both have.
_LARGE_RUN = """
import json, sys, time
from pathlib import Path
import matchkit
from matchkit.telemetry.pubg import to_pubg_telemetry_frames
folder, what, repeats = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
roster = json.loads((folder / "large-roster.json").read_text())
plain, packed = folder / "large.json", folder / "large.json.gz"
if what == "speed":
    content = plain.read_bytes()
    best = [float("inf")] * 4
    for _ in range(repeats + 1):  # the first warms up
        for at, source in ((0, content), (2, packed)):
            wall, cpu = time.perf_counter(), time.process_time()
            to_pubg_telemetry_frames(source, matches=roster)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            best[at], best[at + 1] = min(best[at], cpu), min(best[at + 1], wall)
    figures = best
else:
    from benchmarks.memory import peak_rss_beyond
    if what == "memory-bytes":
        content = plain.read_bytes()
        peak = peak_rss_beyond(lambda: to_pubg_telemetry_frames(content, matches=roster))
    else:
        peak = peak_rss_beyond(lambda: to_pubg_telemetry_frames(packed, matches=roster))
    figures = [plain.stat().st_size, peak]
print(json.dumps({"code": matchkit.__file__, "figures": figures}))
"""


def large_main(folder: Path) -> None:
    """The large file, this code beside :data:`LARGE_BASELINE` (see the module's docs)."""
    commit = os.environ.get("MATCHKIT_BENCH_LARGE_BASELINE", LARGE_BASELINE)
    sides: dict[str, Path] = {}
    try:
        sides[f"baseline {commit}"] = export(
            commit, folder / "large-baseline", "matchkit", "benchmarks"
        )
    except RuntimeError:
        print("  (no git history: the baseline is not measured)")
    sides["this code"] = REPOSITORY
    speeds: dict[str, list[float]] = {}
    memories: dict[str, dict[str, list[float]]] = {side: {} for side in sides}
    for _ in range(SIDE_ROUNDS):
        for side, tree in sides.items():
            found = run_code(tree, _LARGE_RUN, str(folder), "speed", str(SIDE_REPEATS), cwd=folder)
            speeds[side] = [
                min(pair)
                for pair in zip(speeds.get(side, found["figures"]), found["figures"], strict=True)
            ]
            for what in ("memory-bytes", "memory-gzip"):
                size, peak = run_code(tree, _LARGE_RUN, str(folder), what, "0", cwd=folder)[
                    "figures"
                ]
                memories[side].setdefault(what, []).append(peak / size)
    megabytes = (folder / "large.json").stat().st_size / 1e6
    print(
        f"the large file, alternated fresh processes, best of {SIDE_ROUNDS}x{SIDE_REPEATS}; "
        "peak memory over the decompressed size, each of the processes:"
    )
    for side in sides:
        bytes_cpu, bytes_wall, gzip_cpu, gzip_wall = speeds[side]
        ratios = memories[side]
        print(
            f"  {side:<18} its bytes {megabytes / bytes_cpu:3.0f} MB/s cpu "
            f"({megabytes / bytes_wall:.0f} wall), gzip file {megabytes / gzip_cpu:3.0f} MB/s cpu "
            f"({megabytes / gzip_wall:.0f} wall); target >= 50"
        )
        print(
            f"  {'':<18} peak from its bytes (beyond them) "
            f"{' '.join(f'{r:.2f}x' for r in ratios['memory-bytes'])}, from the gzip file "
            f"{' '.join(f'{r:.2f}x' for r in ratios['memory-gzip'])}; target <= 2"
        )


def small_files() -> tuple[list[tuple[str, bytes]], dict[str, list[tuple[str, int]]]]:
    """The double's latest :data:`SMALL_FILES` console files at its ``as_of`` (match id, bytes),
    and each match's roster (participants' player ids and kills, from its match document)."""
    from matchkit.sampledata.pubg.sampleset import PubgSampleSet

    sample_set = PubgSampleSet.build()
    shard = sample_set.shard("console")
    if shard is None:
        raise RuntimeError("the sample set has no console shard")
    now = sample_set.as_of
    matches = [match for match in shard.matches if sample_set.available(match, now=now)]
    files: list[tuple[str, bytes]] = []
    rosters: dict[str, list[tuple[str, int]]] = {}
    for match in matches[-SMALL_FILES:]:
        document = sample_set.document(match, telemetry_url="http://127.0.0.1/telemetry")
        rosters[match.id] = [
            (item["attributes"]["stats"]["playerId"], item["attributes"]["stats"]["kills"])
            for item in document["included"]
            if item["type"] == "participant"
        ]
        files.append((match.id, sample_set.telemetry(match)))
    return files, rosters


# Run in a fresh process with either tree first on its path: public names only, which both have.
_SMALL_RUN = """
import json, sys, time
from pathlib import Path
import matchkit
from matchkit.telemetry.pubg import read_pubg_file, to_pubg_telemetry_frames
from matchkit.telemetry.pubg.check import MatchRoster
from matchkit.telemetry.pubg.frames import PubgTelemetryFrames
folder, repeats = Path(sys.argv[1]), int(sys.argv[2])
rosters = json.loads((folder / "rosters.json").read_text())
files = [(m, (folder / f"{m}.json").read_bytes()) for m in rosters]
large = (folder / "large.json").read_bytes()
large_roster = json.loads((folder / "large-roster.json").read_text())
reads, combines, larges = [], [], []
for _ in range(repeats + 1):  # the first warms up
    started = time.process_time()
    frames = [
        read_pubg_file(b, match_id=m, roster=MatchRoster(m, dict(rosters[m]))) for m, b in files
    ]
    reads.append(time.process_time() - started)
    started = time.process_time()
    PubgTelemetryFrames.concat(frames)
    combines.append(time.process_time() - started)
    del frames
    started = time.process_time()
    to_pubg_telemetry_frames(large, matches=large_roster)
    larges.append(time.process_time() - started)
figures = [min(reads[1:]), min(combines[1:]), min(larges[1:])]
print(json.dumps({"code": matchkit.__file__, "figures": figures}))
"""


def _baseline_tree(folder: Path) -> Path | None:
    """The baseline's package, extracted into ``folder``; ``None`` without git history."""
    try:
        return export(os.environ.get("MATCHKIT_BENCH_BASELINE", BASELINE), folder)
    except RuntimeError:
        return None


def _small_run(tree: Path, folder: Path) -> tuple[float, float, float]:
    read, combine, large = run_code(tree, _SMALL_RUN, str(folder), str(SMALL_REPEATS), cwd=folder)[
        "figures"
    ]
    return read, combine, large


def small_main(large: bytes, large_roster: dict[str, int]) -> None:
    """The small files' case (see the module's docs)."""
    files, rosters = small_files()
    megabytes = sum(len(content) for _, content in files) / 1e6
    large_megabytes = len(large) / 1e6
    events = sum(content.count(b'"_T"') for _, content in files) / len(files)
    print(
        f"small files: the double's {len(files)} latest console files, {megabytes:.1f} MB, "
        f"{megabytes / len(files):.2f} MB and {events:,.0f} events a file"
    )
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for match_id_, content in files:
            (folder / f"{match_id_}.json").write_bytes(content)
        (folder / "rosters.json").write_text(json.dumps(rosters))
        (folder / "large.json").write_bytes(large)
        (folder / "large-roster.json").write_text(json.dumps({MATCH: list(large_roster.items())}))
        (folder / "baseline").mkdir()
        baseline = _baseline_tree(folder / "baseline")
        sides = {"this code": REPOSITORY}
        if baseline is None:
            print("  (no git history: the baseline is not measured)")
        else:
            sides = {
                f"baseline {os.environ.get('MATCHKIT_BENCH_BASELINE', BASELINE)}": baseline,
                **sides,
            }
        best: dict[str, list[float]] = {}
        for _ in range(SMALL_ROUNDS):
            for side, tree in sides.items():
                found = _small_run(tree, folder)
                best[side] = [min(pair) for pair in zip(best.get(side, found), found, strict=True)]
    for side, (read, combine, large_cpu) in best.items():
        print(
            f"  {side:<18} read {megabytes / read:5.1f} MB/s cpu "
            f"({1000 * read / len(files):.0f} ms a file; target >= 25), "
            f"combine {combine:.2f} s cpu (target < 0.5), "
            f"large file {large_megabytes / large_cpu:.0f} MB/s cpu"
        )
