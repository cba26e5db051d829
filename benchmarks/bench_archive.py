"""The archive: its analyses over 1M and 10M matches, matchkit on Dask beside DuckDB.

For each size (``MATCHKIT_BENCH_ARCHIVE_SIZES``, default ``1000000,10000000`` matches):

- the time to build the archive with ``matchkit synth --archive DIR --matches N`` (the real
  writer, in its own process: wall time, matches a second, CPU-seconds);
- ``side_win_rates(archive, by="server_type")`` on ``matchkit.archive.open(DIR)`` (the real
  reader: one partition per month or month bucket, indexed by ``month``) on a LocalCluster of 2
  worker processes of one thread and 1 GiB each (``matchkit.archive.cluster.client``), best of 3,
  beside DuckDB on the same Parquet files (``Archive.files``), best of 3, and beside the
  yardstick: DuckDB on the layout best for the question (one Parquet file, written by DuckDB,
  with each roster beside its match's server type: no join), best of 3; all must agree to the
  row. Target: matchkit at most 5x the yardstick (aim: 2x);
- the other analyses that take an archive, each beside DuckDB on the same files, best of 3,
  agreeing: ``duration_summary`` by server type, ``cosmetic_usage`` of mounts by character (each
  question's table holds it: its best layout is matchkit's own files), and ``player_history``
  of the synthetic pool's most active player, an active one and one of a few matches beside
  DuckDB's join (target: 5x);
- the peak RSS of each worker during the query (target: at most 1 GB, and the same at 1M and
  10M);
- a daily sync: a day's matches (a 365th of the archive) committed through the archive's writer
  as a sync commits a batch (insert-only by match id: the match ids of its months read from
  ``matches``, the rest appended; ``matchkit.synth.archive.append_synthetic``), and the
  files it added and rewrote (target: seconds, no rewrite). What a real daily sync's settle
  period (the overlap it reads again) costs in requests is ``bench_archive_sync``'s figure.

The machine is shared: the figures are noisy; the best of 3 is printed.
"""

from __future__ import annotations

import itertools
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matchkit.archive
from matchkit.analysis import side_win_rates

TARGET_RATIO = 5.0
TARGET_WORKER_BYTES = 10**9
ROUNDS = 3
TABLES = ("matches", "rosters")
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


#: The yardstick (issue 37): DuckDB on the layout best for this question, one Parquet file it
#: writes itself with each roster row beside its match's server type and Royale flag, so that
#: the question needs no join; the same per-match checks as SQL's.
BEST_LAYOUT = """
COPY (
    SELECT r.match_id, r.side, r.won, m.server_type, coalesce(m.is_royale, false) AS is_royale
    FROM read_parquet($rosters) AS r JOIN read_parquet($matches) AS m USING (match_id)
) TO '{path}' (FORMAT parquet)
"""
BEST_SQL = """
WITH per_match AS (
    SELECT match_id, any_value(server_type) AS server_type, bool_or(is_royale) AS is_royale,
           count(*) AS rosters,
           sum(CASE WHEN side = 1 THEN 1 ELSE 0 END) AS side_one,
           sum(CASE WHEN side = 2 THEN 1 ELSE 0 END) AS side_two,
           sum(CASE WHEN won IS NOT NULL THEN 1 ELSE 0 END) AS results,
           sum(CASE WHEN side = 1 AND won THEN 1 ELSE 0 END) AS side_one_wins,
           sum(CASE WHEN side = 2 AND won THEN 1 ELSE 0 END) AS side_two_wins
    FROM read_parquet('{path}') GROUP BY match_id
)
SELECT server_type, count(*) AS matches, sum(side_one_wins) AS side_one_wins,
       sum(side_two_wins) AS side_two_wins
FROM per_match
WHERE NOT is_royale AND rosters = 2 AND side_one = 1 AND side_two = 1 AND results = rosters
GROUP BY server_type ORDER BY server_type
"""


#: What the issue's 45x was measured against: the rosters' wins counted by server type and side
#: on that file, with no per-match check. A different question (a match with three rosters, or
#: a roster without a result, is counted), printed beside the yardstick for scale.
ROSTER_COUNT_SQL = """
SELECT server_type, side, count(*) AS rosters, sum(won::int) AS wins
FROM read_parquet('{path}') WHERE NOT is_royale GROUP BY ALL
"""


#: Durations by server type: the matches table alone holds the question (its best layout is
#: matchkit's own files); quantiles interpolate linearly, as pandas' (duration_summary).
DURATIONS_SQL = """
SELECT server_type, count(duration) AS count, avg(duration) AS mean,
       quantile_cont(duration, 0.5) AS median, quantile_cont(duration, 0.25) AS q1,
       quantile_cont(duration, 0.75) AS q3, quantile_cont(duration, 0.9) AS p90
FROM read_parquet($matches) GROUP BY server_type ORDER BY server_type
"""


#: A player's matches with their rosters' results and the matches' attributes: DuckDB joins the
#: three tables' files, filtering participants by player first (its best layout is these files:
#: a join-free copy would repeat each match's attributes on every participant).
PLAYER_SQL = """
SELECT p.match_id, m.created_at, m.server_type, p.actor, p.side, r.won, p.kills
FROM read_parquet($participants) AS p
JOIN read_parquet($rosters) AS r USING (roster_id)
JOIN read_parquet($matches) AS m ON m.match_id = p.match_id
WHERE p.player_id = $player ORDER BY m.created_at
"""


COSMETICS_SQL = """
SELECT actor, mount AS cosmetic_id, count(*) AS picks
FROM read_parquet($participants)
WHERE kind IS DISTINCT FROM 'bot' AND mount IS NOT NULL
GROUP BY ALL ORDER BY ALL
"""


def _duckdb() -> Any:
    """A DuckDB connection of 2 threads, as the machine has cores, without a progress bar."""
    import duckdb

    connection = duckdb.connect()
    connection.execute("SET threads = 2")
    connection.execute("SET enable_progress_bar = false")
    return connection


def sizes() -> list[int]:
    text = os.environ.get("MATCHKIT_BENCH_ARCHIVE_SIZES", "1000000,10000000")
    return [int(part) for part in text.split(",") if part.strip()]


def duckdb_query(archive: Any) -> tuple[float, Any]:
    """Best wall time of DuckDB's side win rates on the tables' files, and its result."""

    files = {name: archive.files(name) for name in TABLES}
    best, result = float("inf"), None
    for _ in range(ROUNDS):
        with _duckdb() as connection:
            started = time.perf_counter()
            result = connection.execute(SQL, {name: files[name] for name in TABLES}).df()
            best = min(best, time.perf_counter() - started)
    return best, result


def best_layout_query(archive: Any, folder: Path) -> tuple[float, Any, float, float]:
    """Best wall time of DuckDB's side win rates on its best layout for the question (written
    first, by DuckDB, from the archive's files), its result, the time the file took to write,
    and the best time of :data:`ROSTER_COUNT_SQL` on it."""

    path = folder / "best-layout.parquet"
    files = {name: archive.files(name) for name in TABLES}
    best, result, counted = float("inf"), None, float("inf")
    with _duckdb() as connection:
        started = time.perf_counter()
        connection.execute(BEST_LAYOUT.format(path=path), files)
        written = time.perf_counter() - started
    for _ in range(ROUNDS):
        with _duckdb() as connection:
            started = time.perf_counter()
            result = connection.execute(BEST_SQL.format(path=path)).df()
            best = min(best, time.perf_counter() - started)
            started = time.perf_counter()
            connection.execute(ROSTER_COUNT_SQL.format(path=path)).df()
            counted = min(counted, time.perf_counter() - started)
    path.unlink()
    return best, result, written, counted


def durations(archive: Any) -> str:
    """``duration_summary(archive, by="server_type")`` on Dask beside DuckDB's query of the same
    files, best of 3 each, and whether they agree (counts exactly, the rest to 1e-9)."""
    import numpy as np

    from matchkit.analysis import duration_summary

    ours, theirs = float("inf"), float("inf")
    result: Any = None
    sql: Any = None
    for _ in range(ROUNDS):
        started = time.perf_counter()
        result = duration_summary(archive, by="server_type")
        ours = min(ours, time.perf_counter() - started)
        with _duckdb() as connection:
            started = time.perf_counter()
            sql = connection.execute(DURATIONS_SQL, {"matches": archive.files("matches")}).df()
            theirs = min(theirs, time.perf_counter() - started)
    ordered = result.assign(server_type=result["server_type"].astype(str))
    ordered = ordered.sort_values("server_type").reset_index(drop=True)
    columns = ["mean", "median", "q1", "q3", "p90"]
    same = (
        ordered["server_type"].tolist() == sql["server_type"].tolist()
        and ordered["count"].tolist() == sql["count"].tolist()
        and bool(np.allclose(ordered[columns], sql[columns], rtol=1e-9, atol=0))
    )
    verdict = "ok" if ours / theirs <= TARGET_RATIO else "OVER TARGET"
    return (
        f"  duration_summary by server type (the matches table alone: its best layout is "
        f"matchkit's files): matchkit on Dask {ours:.2f} s, DuckDB {theirs:.3f} s, "
        f"{ours / theirs:.1f}x (target <= {TARGET_RATIO:.0f}x: {verdict}); same table: {same}"
    )


def cosmetics(archive: Any) -> str:
    """``cosmetic_usage(archive, "mount", by="actor")`` on Dask beside DuckDB's count of the
    same participants files (the table holds the question: its best layout is matchkit's own
    files), best of 3 each, and whether the picks agree."""
    from matchkit.analysis import cosmetic_usage

    ours, theirs = float("inf"), float("inf")
    result: Any = None
    sql: Any = None
    for _ in range(ROUNDS):
        started = time.perf_counter()
        result = cosmetic_usage(archive, "mount", by="actor")
        ours = min(ours, time.perf_counter() - started)
        with _duckdb() as connection:
            started = time.perf_counter()
            sql = connection.execute(
                COSMETICS_SQL, {"participants": archive.files("participants")}
            ).df()
            theirs = min(theirs, time.perf_counter() - started)
    picks = sorted(
        zip(
            result["actor"].astype(str),
            result["cosmetic_id"].astype(int),
            result["picks"],
            strict=True,
        )
    )
    expected = sorted(zip(sql["actor"], sql["cosmetic_id"].astype(int), sql["picks"], strict=True))
    verdict = "ok" if ours / theirs <= TARGET_RATIO else "OVER TARGET"
    return (
        f"  cosmetic_usage of mounts by character (the participants table alone): matchkit on "
        f"Dask {ours:.2f} s, DuckDB {theirs:.3f} s, {ours / theirs:.1f}x (target <= "
        f"{TARGET_RATIO:.0f}x: {verdict}); same picks: {picks == expected}"
    )


def player_histories(archive: Any) -> list[str]:
    """``player_history(archive, id)`` on Dask beside DuckDB's join, best of 3 each, for the
    most active player of the synthetic pool (3.4% of all matches), an active one (the 1,001st
    by activity: about 400 matches in 1M) and one of a few matches; they must give the same
    matches. (Before the lookup order of issue 37, the most active player's history at 10M
    paused both 1 GiB workers for memory, and never came.)"""

    from matchkit.analysis import player_history

    files = {name: archive.files(name) for name in ("participants", "rosters", "matches")}
    lines = []
    for label, rank in (
        ("the most active player", 0),
        ("an active player", 1_000),
        ("a player of a few matches", 100_000),
    ):
        player = str(770_000_000_000_000_000 + rank * 7_919_113)  # the synthetic pool's ids
        ours, theirs = float("inf"), float("inf")
        history: Any = None
        sql: Any = None
        for _ in range(ROUNDS):
            started = time.perf_counter()
            history = player_history(archive, player)
            ours = min(ours, time.perf_counter() - started)
            with _duckdb() as connection:
                started = time.perf_counter()
                sql = connection.execute(PLAYER_SQL, {**files, "player": player}).df()
                theirs = min(theirs, time.perf_counter() - started)
        same = sorted(history["match_id"].astype(str)) == sorted(sql["match_id"])
        verdict = "ok" if ours / theirs <= TARGET_RATIO else "OVER TARGET"
        lines.append(
            f"  player_history of {label} ({len(history):,} matches): matchkit {ours:.2f} s, "
            f"DuckDB joining the files {theirs:.3f} s, {ours / theirs:.1f}x (target <= "
            f"{TARGET_RATIO:.0f}x: {verdict}); same matches: {same}"
        )
    return lines


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


def build(folder: Path, count: int, *, telemetry: bool = False) -> str:
    """``matchkit synth --archive folder --matches count`` (``--telemetry``) in its own
    process; its figures."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    command = [sys.executable, "-m", "matchkit", "synth", "--archive", str(folder)]
    command += ["--matches", str(count), *(["--telemetry"] if telemetry else [])]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    files = sum(len(matchkit.archive.open(folder).files(name)) for name in TABLES)
    return (
        f"build {count:,} matches (`matchkit synth --archive"
        f"{' --telemetry' if telemetry else ''}`): {seconds:.1f} s wall, "
        f"{count / seconds:,.0f} matches/s; {cpu:.1f} CPU-s ({count / cpu:,.0f} matches per "
        f"CPU-s); {files} files in matches + rosters"
    )


def daily_sync(folder: Path, matches: int) -> str:
    """A day's matches committed as a sync commits a batch; its time and files added/removed."""
    from deltalake import DeltaTable

    from matchkit.archive.versions import table_labels
    from matchkit.synth.archive import append_synthetic

    day = max(1, matches // 365)
    labels = table_labels(folder)
    before = {label: set(DeltaTable(str(folder / label)).file_uris()) for label in labels}
    started = time.perf_counter()
    added = append_synthetic(folder, matches=day, days=1)
    seconds = time.perf_counter() - started
    after = {label: set(DeltaTable(str(folder / label)).file_uris()) for label in labels}
    new = sum(len(after[label] - before[label]) for label in labels)
    removed = sum(len(before[label] - after[label]) for label in labels)
    rows = sum(added.values())
    return (
        f"daily sync ({added.get('matches', 0):,} matches, {rows:,} rows in {len(labels)} "
        f"tables, one commit each, insert-only by match id): {seconds:.2f} s; files added {new}, "
        f"files rewritten or removed {removed}"
    )


def measure(root: Path, count: int, client: Any) -> None:
    """Build an archive of ``count`` matches and print its figures as they are measured."""
    folder = root / f"archive-{count}"
    _say(build(folder, count))
    opened = matchkit.archive.open(folder)
    duck, sql = duckdb_query(opened)
    yardstick, best_sql, written, counted = best_layout_query(opened, root)
    ours, result, peaks = dask_query(client, opened)
    ratio = ours / duck
    verdict = "ok" if ratio <= TARGET_RATIO else "OVER TARGET"
    _say(
        f"side win rates by server type, {count:,} matches ({opened.matches.npartitions} "
        f"partitions): matchkit on Dask {ours:.2f} s, DuckDB on the same files {duck:.2f} s, "
        f"ratio {ratio:.1f}x; same counts: {agree(result, sql)}"
    )
    best_ratio = ours / yardstick
    verdict = "ok" if best_ratio <= TARGET_RATIO else "OVER TARGET"
    _say(
        f"  the yardstick, DuckDB on its best layout (one join-free Parquet file it wrote in "
        f"{written:.2f} s): {yardstick:.3f} s; matchkit {best_ratio:.1f}x it (target <= "
        f"{TARGET_RATIO:.0f}x: {verdict}; aim 2x); same counts: {agree(result, best_sql)}"
    )
    _say(
        f"  for scale, a different question on that file (rosters' wins by server type and "
        f"side, no per-match check): {counted:.3f} s, matchkit's answer {ours / counted:.0f}x it"
    )
    _say(durations(opened))
    _say(cosmetics(opened))
    for line in player_histories(opened):
        _say(line)
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
    _say(daily_sync(folder, count))
    shutil.rmtree(folder, ignore_errors=True)


def _say(line: str) -> None:
    print(line, flush=True)


def each_size(counts: list[int], measure: Callable[[Path, int, Any], None], *, prefix: str) -> None:
    """``measure(folder, count, client)`` for each archive size, in a temporary folder (under
    ``MATCHKIT_BENCH_DIR`` when set), on a LocalCluster of 2 workers of 1 GiB."""
    from matchkit.archive.cluster import client

    base = os.environ.get("MATCHKIT_BENCH_DIR") or None
    with (
        tempfile.TemporaryDirectory(prefix=prefix, dir=base) as folder,
        client(n_workers=2, memory_limit="1GiB") as dask_client,
    ):
        for count in counts:
            measure(Path(folder), count, dask_client)


def main() -> None:
    each_size(sizes(), measure, prefix="matchkit-bench-archive-")


if __name__ == "__main__":
    main()
