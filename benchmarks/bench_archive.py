"""The archive: side win rates by server type over 1M and 10M matches, Dask beside DuckDB.

For each size (``MATCHKIT_BENCH_ARCHIVE_SIZES``, default ``1000000,10000000`` matches):

- the time to build the archive (:mod:`benchmarks.archive_data`: the sample set repeated over
  24 months, monthly partitions, one file per month and table);
- ``side_win_rates(archive, by="server_type")`` on a LocalCluster of 2 worker processes of one
  thread and 1 GiB each (``matchkit.archive.cluster.client``), best of 3, beside DuckDB on the
  same Parquet files (the tables' current versions), best of 3; the two must agree to the row.
  Target: matchkit at most 5x DuckDB;
- the peak RSS of each worker during the query (target: at most 1 GB, and the same at 1M and
  10M);
- a daily sync: one day's matches (a 365th of the archive) appended as one commit, and the
  files it added and rewrote (target: seconds, no rewrite);
- at the smallest size, the same query with daily partitions (many small files), and with the
  tables read without their partition index (Dask then shuffles on match id).

The machine is shared: the figures are noisy; the best of 3 is printed.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import pandas as pd

from benchmarks.archive_data import TABLES, build, dask_tables, file_lists
from matchkit.analysis import side_win_rates

TARGET_RATIO = 5.0
TARGET_WORKER_BYTES = 10**9
ROUNDS = 3
#: At most about this many matches per partition (a month is split into buckets beyond it), so
#: that a worker's memory does not grow with the archive: monthly partitions of 10M matches
#: (417k matches, 1.3M rosters each) took a 1 GiB worker over its limit.
BUCKET_MATCHES = int(os.environ.get("MATCHKIT_BENCH_BUCKET_MATCHES", "50000"))
SQL = """
WITH per_match AS (
    SELECT match_id, count(*) AS rosters,
           sum(CASE WHEN side = 1 THEN 1 ELSE 0 END) AS side_one,
           sum(CASE WHEN side = 2 THEN 1 ELSE 0 END) AS side_two,
           sum(CASE WHEN won IS NOT NULL THEN 1 ELSE 0 END) AS results,
           sum(CASE WHEN side = 1 AND won THEN 1 ELSE 0 END) AS side_one_wins,
           sum(CASE WHEN side = 2 AND won THEN 1 ELSE 0 END) AS side_two_wins
    FROM read_parquet($rosters) GROUP BY match_id
)
SELECT server_type, count(*) AS matches, sum(side_one_wins) AS side_one_wins,
       sum(side_two_wins) AS side_two_wins
FROM read_parquet($matches) AS m JOIN per_match USING (match_id)
WHERE NOT coalesce(m.is_royale, false)
  AND rosters = 2 AND side_one = 1 AND side_two = 1 AND results = rosters
GROUP BY server_type ORDER BY server_type
"""


def sizes() -> list[int]:
    text = os.environ.get("MATCHKIT_BENCH_ARCHIVE_SIZES", "1000000,10000000")
    return [int(part) for part in text.split(",") if part.strip()]


def duckdb_query(folder: Path) -> tuple[float, Any]:
    """Best wall time of DuckDB's side win rates on the tables' files, and its result."""
    import duckdb

    files = file_lists(folder)
    best, result = float("inf"), None
    for _ in range(ROUNDS):
        with duckdb.connect() as connection:
            connection.execute("SET threads = 2")
            connection.execute("SET enable_progress_bar = false")
            started = time.perf_counter()
            result = connection.execute(SQL, {name: files[name] for name in TABLES}).df()
            best = min(best, time.perf_counter() - started)
    return best, result


def _start_sampler(dask_worker: Any = None) -> None:
    import threading

    import psutil

    process = psutil.Process()
    state = {"peak": process.memory_info().rss, "done": threading.Event()}

    def sample() -> None:
        while not state["done"].is_set():
            state["peak"] = max(state["peak"], process.memory_info().rss)
            time.sleep(0.005)

    threading.Thread(target=sample, daemon=True).start()
    dask_worker._matchkit_peak = state


def _stop_sampler(dask_worker: Any = None) -> int:
    """The worker's peak RSS since its sampler started; -1 when it restarted meanwhile."""
    state = getattr(dask_worker, "_matchkit_peak", None)
    if state is None:
        return -1
    state["done"].set()
    return int(state["peak"])


def dask_query(client: Any, tables: Any, rounds: int = ROUNDS) -> tuple[float, Any, list[int]]:
    """Best wall time of matchkit's side win rates on Dask, its result, each worker's peak RSS
    ([-1] when a worker was restarted for going over its memory limit)."""
    best, result, peaks, restarted = float("inf"), None, [0], False
    for _ in range(rounds):
        client.run(_start_sampler)
        started = time.perf_counter()
        result = side_win_rates(tables, by="server_type")
        best = min(best, time.perf_counter() - started)
        now = sorted(client.run(_stop_sampler).values())
        restarted = restarted or -1 in now
        peaks = [max(pair) for pair in itertools.zip_longest(peaks, now, fillvalue=0)]
    return best, result, [-1] if restarted else peaks


def agree(result: Any, sql: Any) -> bool:
    """matchkit's table and DuckDB's give the same matches and wins per server type and side."""
    ours = result.assign(server_type=result["server_type"].astype(str))
    for row in sql.itertuples():
        rows = ours[ours["server_type"] == row.server_type].sort_values("side")
        if rows["matches"].tolist() != [row.matches] * 2:
            return False
        if rows["wins"].tolist() != [int(row.side_one_wins), int(row.side_two_wins)]:
            return False
    return len(ours) == 2 * len(sql)


def daily_sync(folder: Path, matches: int) -> str:
    """Append a day's matches (and rosters) as one commit; its time and files added/removed."""
    import pyarrow as pa
    import pyarrow.compute as pc
    from deltalake import DeltaTable, write_deltalake

    from benchmarks.archive_data import _copy, sample_tables

    sample = sample_tables()
    day = max(1, matches // 365)
    start = pd.Timestamp("2027-01-01", tz="UTC")
    copies = [
        _copy(sample, 10**6 + number, start, "month")
        for number in range(-(-day // sample["matches"].num_rows))
    ]
    day_rows = {"matches": pa.concat_tables(copy["matches"] for copy in copies).slice(0, day)}
    kept = pa.chunked_array(day_rows["matches"]["match_id"])
    rosters = pa.concat_tables(copy["rosters"] for copy in copies)
    day_rows["rosters"] = rosters.filter(pc.is_in(rosters["match_id"], value_set=kept))
    before = {name: set(DeltaTable(str(folder / name)).file_uris()) for name in TABLES}
    started = time.perf_counter()
    for name in TABLES:
        write_deltalake(str(folder / name), day_rows[name], mode="append", partition_by=["month"])
    seconds = time.perf_counter() - started
    after = {name: set(DeltaTable(str(folder / name)).file_uris()) for name in TABLES}
    added = sum(len(after[name] - before[name]) for name in TABLES)
    removed = sum(len(before[name] - after[name]) for name in TABLES)
    return (
        f"daily sync ({day_rows['matches'].num_rows:,} matches, "
        f"{day_rows['rosters'].num_rows:,} rosters, one commit "
        f"per table): {seconds:.2f} s; files added {added}, files rewritten or removed {removed}"
    )


def _shuffled_tables(folder: Path) -> Any:
    """The tables read by dd.read_parquet without the partition index (a shuffle on match id)."""
    import dask.dataframe as dd

    class Tables:
        pass

    tables = Tables()
    for name, paths in file_lists(folder).items():
        setattr(tables, name, dd.read_parquet(paths))
    return tables


def measure(root: Path, count: int, client: Any, *, extras: bool) -> None:
    """Build an archive of ``count`` matches and print its figures as they are measured."""
    folder = root / f"archive-{count}"
    started = time.perf_counter()
    built = build(folder, count, bucket_matches=BUCKET_MATCHES)
    seconds = time.perf_counter() - started
    _say(
        f"build {built['matches']:,} matches ({built['rosters']:,} rosters; files "
        f"{built['files']}): {seconds:.1f} s, {built['matches'] / seconds:,.0f} matches/s "
        "(benchmarks/archive_data.py, not yet `matchkit synth --archive`)"
    )
    duck, sql = duckdb_query(folder)
    ours, result, peaks = dask_query(client, dask_tables(folder))
    ratio = ours / duck
    verdict = "ok" if ratio <= TARGET_RATIO else "OVER TARGET"
    _say(
        f"side win rates by server type, {built['matches']:,} matches: matchkit on Dask "
        f"{ours:.2f} s, DuckDB {duck:.2f} s, ratio {ratio:.1f}x (target <= {TARGET_RATIO:.0f}x: "
        f"{verdict}); same counts: {agree(result, sql)}"
    )
    over = max(peaks) > TARGET_WORKER_BYTES or peaks == [-1]
    _say(
        "peak RSS per worker: "
        + (
            "a worker went over its 1 GiB and was restarted"
            if peaks == [-1]
            else ", ".join(f"{peak / 2**20:.0f} MiB" for peak in peaks)
        )
        + f" (target <= 1 GB: {'OVER TARGET' if over else 'ok'})"
    )
    if extras:
        started = time.perf_counter()
        side_win_rates(_shuffled_tables(folder), by="server_type")
        _say(
            f"same query, tables without their partition index (Dask shuffles on match id): "
            f"{time.perf_counter() - started:.2f} s (one run)"
        )
        daily = root / f"archive-{count}-daily"
        started = time.perf_counter()
        built_daily = build(daily, count, granularity="day")
        build_seconds = time.perf_counter() - started
        daily_duck, _ = duckdb_query(daily)
        daily_ours, _, _ = dask_query(client, dask_tables(daily), rounds=1)
        _say(
            f"daily partitions ({built_daily['files']['matches']} files per table, built in "
            f"{build_seconds:.1f} s): matchkit {daily_ours:.2f} s (one run), DuckDB "
            f"{daily_duck:.2f} s, ratio {daily_ours / daily_duck:.1f}x"
        )
        shutil.rmtree(daily, ignore_errors=True)
    _say(daily_sync(folder, built["matches"]))
    shutil.rmtree(folder, ignore_errors=True)


def _say(line: str) -> None:
    print(line, flush=True)


def main() -> None:
    from matchkit.archive.cluster import client

    base = os.environ.get("MATCHKIT_BENCH_DIR") or None
    with (
        tempfile.TemporaryDirectory(prefix="matchkit-bench-archive-", dir=base) as folder,
        client(n_workers=2, memory_limit="1GiB") as dask_client,
    ):
        counts = sizes()
        for index, count in enumerate(counts):
            measure(Path(folder), count, dask_client, extras=index == 0 and count <= 2_000_000)


if __name__ == "__main__":
    main()
