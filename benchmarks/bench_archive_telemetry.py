"""The archive's telemetry: every telemetry analysis on a synthetic archive synced with telemetry,
on Dask, with each worker's peak memory, beside DuckDB where the question is one query.

For each size (``MATCHKIT_BENCH_TELEMETRY_SIZES``, default ``1000000`` matches; 10M writes about
26 GB):

- the build, ``matchkit synth --archive DIR --matches N --telemetry`` (its own process);
- ``per_minute_rates``, ``battlerite_win_rates``, ``queue_times`` (by region and ranking type:
  the synthetic queues carry no league), ``deciding_rounds`` and ``match_deciding_rounds`` on
  ``matchkit.archive.open(DIR)``, on a LocalCluster of 2 workers of one thread and 1 GiB
  (``matchkit.archive.cluster.client``), best of 2; each worker's peak RSS during them (target:
  at most 1 GB) and this process's (the results are combined here);
- beside ``per_minute_rates``, DuckDB on the same files (``Archive.files``): the seats joined to
  the player-rounds, each rate's count and mean per character and round, best of 2; they must
  agree (counts exactly, means to 1e-9). Its best layout is these files: the question joins two
  tables of the same matches, both sorted by match id.

Before this benchmark, the telemetry analyses read each table whole into one worker:
``per_minute_rates`` killed the 1 GiB workers at 1M matches (issue 37).

Run: ``python -m benchmarks archive_telemetry`` (``make bench`` runs it with the others).
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

import matchkit.archive
from benchmarks.bench_archive import TARGET_RATIO, _duckdb, _start_sampler, _stop_sampler
from matchkit.analysis import telemetry

ROUNDS = 2
TARGET_WORKER_BYTES = 10**9
RATES_SQL = """
WITH seats AS (
    SELECT match_id, user_id, any_value(character) AS character
    FROM read_parquet($seats) GROUP BY match_id, user_id HAVING count(*) = 1
)
SELECT s.character, r.round, count(r.damage_done) AS n,
       avg(r.damage_done / (r.time_alive / 60.0)) AS per_minute
FROM read_parquet($rounds) AS r JOIN seats AS s USING (match_id, user_id)
WHERE coalesce(r.time_alive, 0) > 0 AND s.character IS NOT NULL AND r.round IS NOT NULL
GROUP BY ALL ORDER BY ALL
"""
CALLS = {
    "per_minute_rates": {},
    "battlerite_win_rates": {},
    "queue_times": {"by": ["match_region", "ranking_type"]},
    "deciding_rounds": {},
    "match_deciding_rounds": {},
}


def sizes() -> list[int]:
    text = os.environ.get("MATCHKIT_BENCH_TELEMETRY_SIZES", "1000000")
    return [int(part) for part in text.split(",") if part.strip()]


def build(folder: Path, count: int) -> str:
    """``matchkit synth --archive folder --matches count --telemetry``; its wall time."""
    started = time.perf_counter()
    command = [sys.executable, "-m", "matchkit", "synth", "--archive", str(folder)]
    command += ["--matches", str(count), "--telemetry"]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    return f"build {count:,} matches with telemetry: {seconds:.1f} s ({count / seconds:,.0f}/s)"


def analyses(client: Any, archive: Any) -> tuple[list[str], dict[str, Any], dict[str, float]]:
    """Each analysis's best time and its workers' peak RSS, one line each; the results; the
    times."""
    lines, results, times = [], {}, {}
    process = psutil.Process()
    for name, arguments in CALLS.items():
        best, peaks, restarted = float("inf"), [0], False
        here = process.memory_info().rss
        for _ in range(ROUNDS):
            client.run(_start_sampler)
            started = time.perf_counter()
            results[name] = getattr(telemetry, name)(archive, **arguments)
            best = min(best, time.perf_counter() - started)
            now = sorted(client.run(_stop_sampler).values())
            restarted = restarted or -1 in now
            peaks = [max(pair) for pair in itertools.zip_longest(peaks, now, fillvalue=0)]
        times[name] = best
        over = restarted or max(peaks) > TARGET_WORKER_BYTES
        workers = (
            "a worker was restarted for memory"
            if restarted
            else ", ".join(f"{peak / 2**20:.0f}" for peak in peaks) + " MiB"
        )
        lines.append(
            f"  {name}{arguments or ''}: {best:.2f} s, {len(results[name]):,} rows; workers' "
            f"peak {workers} (target <= 1 GB: {'OVER TARGET' if over else 'ok'}); this "
            f"process {(process.memory_info().rss - here) / 2**20:+.0f} MiB"
        )
    return lines, results, times


def rates_beside_duckdb(archive: Any, result: Any) -> tuple[float, bool]:
    """DuckDB's per-minute damage by character and round on the same files, beside matchkit's
    (``result``: per_minute_rates' table): DuckDB's best time, and whether they agree."""
    import numpy as np

    best = float("inf")
    sql: Any = None
    files = {
        "seats": archive.files("telemetry/reserved_users"),
        "rounds": archive.files("telemetry/round_player_stats"),
    }
    for _ in range(ROUNDS):
        with _duckdb() as connection:
            started = time.perf_counter()
            sql = connection.execute(RATES_SQL, files).df()
            best = min(best, time.perf_counter() - started)
    ours = result.loc[result["stat"] == "damage_done"].sort_values(["character", "round"])
    same = (
        ours["character"].astype(int).tolist() == sql["character"].astype(int).tolist()
        and ours["round"].astype(int).tolist() == sql["round"].astype(int).tolist()
        and ours["n"].tolist() == sql["n"].astype(int).tolist()
        and bool(np.allclose(ours["per_minute"], sql["per_minute"], rtol=1e-9, atol=0))
    )
    return best, same


def measure(root: Path, count: int, client: Any) -> None:
    folder = root / f"telemetry-{count}"
    print(build(folder, count), flush=True)
    archive = matchkit.archive.open(folder)
    lines, results, times = analyses(client, archive)
    for line in lines:
        print(line, flush=True)
    duck, same = rates_beside_duckdb(archive, results["per_minute_rates"])
    ratio = times["per_minute_rates"] / duck
    verdict = "ok" if ratio <= TARGET_RATIO else "OVER TARGET"
    print(
        f"  per_minute_rates' damage by character and round, DuckDB on the same files: "
        f"{duck:.3f} s; matchkit {ratio:.1f}x (target <= {TARGET_RATIO:.0f}x: {verdict}); "
        f"same counts and means: {same}",
        flush=True,
    )
    shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    from matchkit.archive.cluster import client

    base = os.environ.get("MATCHKIT_BENCH_DIR") or None
    with (
        tempfile.TemporaryDirectory(prefix="matchkit-bench-telemetry-", dir=base) as folder,
        client(n_workers=2, memory_limit="1GiB") as dask_client,
    ):
        for count in sizes():
            measure(Path(folder), count, dask_client)


if __name__ == "__main__":
    main()
