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
- beside each of them, DuckDB on the same files (``Archive.files``), best of 2: the seats joined
  to the player-rounds (each rate's count and mean per character and round); each player's first
  pick and battlerites joined to the seats and the winners (the players, picks and wins of each
  character and battlerite, and the pick rate and win rates with and without it); the times in
  queue by region and ranking type (count, mean, median); each match's lead round by round (the
  matches decided in each round; each match's rounds, winner and deciding round). They must
  agree (counts exactly, the rest to 1e-9). The best layout for these questions is these files:
  each reads tables of the same matches, each sorted by match id.

Before this benchmark, the telemetry analyses read each table whole into one worker:
``per_minute_rates`` killed the 1 GiB workers at 1M matches (issue 37).

Run: ``python -m benchmarks archive_telemetry`` (``make bench`` runs it with the others).
"""

from __future__ import annotations

import itertools
import os
import shutil
import time
from pathlib import Path
from typing import Any

import psutil

import matchkit.archive
from benchmarks.bench_archive import (
    TARGET_RATIO,
    _duckdb,
    _start_sampler,
    _stop_sampler,
    build,
    each_size,
)
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
#: Each player (a (match, user) seated once; a missing user id too, as pandas merges it) of a
#: match with a winner (the side with the higher score in its first MatchFinishedEvent), with
#: the character of their first pick (none: left out) and the battlerites they picked (each
#: once, missing ones left out: ``list_distinct``); they won if their side (none: left out) is
#: the winner.
BATTLERITES_SQL = """
WITH winners AS (
    SELECT match_id,
           arg_min_null(CASE WHEN team_one_score > team_two_score THEN 1
                             WHEN team_two_score > team_one_score THEN 2 END, cursor) AS winner
    FROM read_parquet($finishes) GROUP BY match_id HAVING winner IS NOT NULL
),
seats AS (
    SELECT match_id, user_id, any_value(team) AS team
    FROM read_parquet($seats) GROUP BY match_id, user_id HAVING count(*) = 1
),
picks AS (
    SELECT match_id, user_id, arg_min_null(character, cursor) AS character,
           list_distinct(list(battlerite_type)) AS battlerites
    FROM read_parquet($picks) GROUP BY match_id, user_id
),
players AS (
    SELECT p.character, p.battlerites, s.team = w.winner AS won
    FROM picks AS p
    JOIN seats AS s ON s.match_id = p.match_id AND s.user_id IS NOT DISTINCT FROM p.user_id
    JOIN winners AS w ON w.match_id = p.match_id
    WHERE p.character IS NOT NULL AND s.team IS NOT NULL
),
characters AS (
    SELECT character, count(*) AS players, count(*) FILTER (WHERE won) AS all_wins
    FROM players GROUP BY ALL
),
chosen AS (
    SELECT character, battlerite_type, count(*) AS picks, count(*) FILTER (WHERE won) AS wins
    FROM (SELECT character, unnest(battlerites) AS battlerite_type, won FROM players)
    GROUP BY ALL
)
SELECT character, battlerite_type, players, picks, picks / players AS pick_rate, wins,
       wins / picks AS win_rate, (all_wins - wins) / nullif(players - picks, 0) AS win_rate_without
FROM chosen JOIN characters USING (character) ORDER BY character, battlerite_type
"""
QUEUES_SQL = """
SELECT match_region, ranking_type, count(*) AS n, avg(time_in_queue) AS mean_seconds,
       quantile_cont(time_in_queue, 0.5) AS median_seconds
FROM read_parquet($queue)
WHERE time_in_queue IS NOT NULL AND match_region IS NOT NULL AND ranking_type IS NOT NULL
GROUP BY ALL ORDER BY ALL
"""
#: Each match's rounds (by round, a missing one last, then by cursor), winner (the side ahead
#: after them all; matches that end level are left out) and deciding round (0-based: the one
#: after the last round the winner did not lead after), from team one's lead round by round:
#: one window over the rounds, no join.
DECIDED = """
WITH leads AS (
    SELECT match_id, CASE winning_team WHEN 1 THEN 1 WHEN 2 THEN -1 ELSE 0 END AS point,
           row_number() OVER by_round - 1 AS position, sum(point) OVER by_round AS lead
    FROM read_parquet($rounds)
    WINDOW by_round AS (PARTITION BY match_id ORDER BY round NULLS LAST, cursor
                        ROWS UNBOUNDED PRECEDING)
)
SELECT match_id, count(*) AS rounds, if(sum(point) > 0, 1, 2) AS winning_team,
       coalesce(if(sum(point) > 0, max(position) FILTER (WHERE lead <= 0),
                   max(position) FILTER (WHERE lead >= 0)) + 1, 0) AS decided_round
FROM leads GROUP BY match_id HAVING sum(point) <> 0
"""
MATCH_DECIDING_SQL = f"{DECIDED} ORDER BY match_id"
#: The matches decided in each round, by rounds played: those of ``DECIDED``, counted.
DECIDING_SQL = f"""
SELECT rounds, decided_round, count(*) AS matches FROM ({DECIDED}) GROUP BY ALL ORDER BY ALL
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


def _same_rates(ours: Any, sql: Any) -> bool:
    """per_minute_rates' damage and DuckDB's: the same groups, counts, and means to 1e-9."""
    import numpy as np

    ours = ours.loc[ours["stat"] == "damage_done"].sort_values(["character", "round"])
    return (
        ours["character"].astype(int).tolist() == sql["character"].astype(int).tolist()
        and ours["round"].astype(int).tolist() == sql["round"].astype(int).tolist()
        and ours["n"].tolist() == sql["n"].astype(int).tolist()
        and bool(np.allclose(ours["per_minute"], sql["per_minute"], rtol=1e-9, atol=0))
    )


def _same_battlerites(ours: Any, sql: Any) -> bool:
    """battlerite_win_rates and DuckDB's: the same characters, battlerites, players, picks and
    wins, the rates to 1e-9 (no rate without where every player picked it)."""
    import numpy as np

    counts = ["character", "battlerite_type", "players", "picks", "wins"]
    rates = ["pick_rate", "win_rate", "win_rate_without"]
    ours = ours.sort_values(counts[:2])
    same = ours[counts].astype(int).values.tolist() == sql[counts].astype(int).values.tolist()
    return same and bool(np.allclose(ours[rates], sql[rates], rtol=1e-9, atol=0, equal_nan=True))


def _same_queues(ours: Any, sql: Any) -> bool:
    """queue_times and DuckDB's: the same groups and counts, means and medians to 1e-9."""
    import numpy as np

    keys = ["match_region", "ranking_type"]
    ours = ours.astype({key: str for key in keys}).sort_values(keys, ignore_index=True)
    sql = sql.astype({key: str for key in keys}).sort_values(keys, ignore_index=True)
    columns = ["mean_seconds", "median_seconds"]
    return (
        ours[keys].equals(sql[keys])
        and ours["n"].tolist() == sql["n"].astype(int).tolist()
        and bool(np.allclose(ours[columns], sql[columns], rtol=1e-9, atol=0))
    )


def _same_deciding(ours: Any, sql: Any) -> bool:
    """deciding_rounds and DuckDB's: the same matches decided in each round, by rounds played."""
    columns = ["rounds", "decided_round", "matches"]
    ours = ours.sort_values(columns[:2])
    return ours[columns].astype(int).values.tolist() == sql[columns].astype(int).values.tolist()


def _same_match_deciding(ours: Any, sql: Any) -> bool:
    """match_deciding_rounds and DuckDB's: the same matches, rounds, winners and deciding
    rounds."""
    import numpy as np

    columns = ["rounds", "winning_team", "decided_round"]
    ours = ours.sort_values("match_id")
    return ours["match_id"].astype(str).tolist() == sql["match_id"].astype(str).tolist() and (
        np.array_equal(ours[columns].to_numpy("int64"), sql[columns].to_numpy("int64"))
    )


#: The analyses that DuckDB answers beside matchkit on the same files (their best layout: each
#: question reads tables of the same matches, sorted by match id): its query, the tables it
#: reads, how the answers are compared, and what is compared.
BESIDE_DUCKDB = {
    "per_minute_rates": (
        RATES_SQL,
        {"seats": "telemetry/reserved_users", "rounds": "telemetry/round_player_stats"},
        _same_rates,
        "the damage by character and round",
    ),
    "battlerite_win_rates": (
        BATTLERITES_SQL,
        {
            "finishes": "telemetry/match_finishes",
            "seats": "telemetry/reserved_users",
            "picks": "telemetry/battlerite_picks",
        },
        _same_battlerites,
        "each battlerite's pick rate and win rates",
    ),
    "queue_times": (
        QUEUES_SQL,
        {"queue": "telemetry/queue_events"},
        _same_queues,
        "by region and ranking type",
    ),
    "deciding_rounds": (
        DECIDING_SQL,
        {"rounds": "telemetry/rounds"},
        _same_deciding,
        "the matches decided in each round",
    ),
    "match_deciding_rounds": (
        MATCH_DECIDING_SQL,
        {"rounds": "telemetry/rounds"},
        _same_match_deciding,
        "each match's deciding round",
    ),
}


def beside_duckdb(archive: Any, name: str, result: Any) -> tuple[float, bool]:
    """DuckDB's answer to analysis ``name`` on the same files, beside matchkit's (``result``):
    DuckDB's best time, and whether they agree."""
    query, tables, same, _ = BESIDE_DUCKDB[name]
    files = {parameter: archive.files(table) for parameter, table in tables.items()}
    best = float("inf")
    sql: Any = None
    for _ in range(ROUNDS):
        with _duckdb() as connection:
            started = time.perf_counter()
            sql = connection.execute(query, files).df()
            best = min(best, time.perf_counter() - started)
    return best, same(result, sql)


def measure(root: Path, count: int, client: Any) -> None:
    folder = root / f"telemetry-{count}"
    print(build(folder, count, telemetry=True), flush=True)
    archive = matchkit.archive.open(folder)
    lines, results, times = analyses(client, archive)
    for line in lines:
        print(line, flush=True)
    for name, (_, _, _, what) in BESIDE_DUCKDB.items():
        duck, same = beside_duckdb(archive, name, results[name])
        ratio = times[name] / duck
        verdict = "ok" if ratio <= TARGET_RATIO else "OVER TARGET"
        print(
            f"  {name}, {what}: DuckDB on the same files {duck:.3f} s; matchkit {ratio:.1f}x "
            f"(target <= {TARGET_RATIO:.0f}x: {verdict}); the same answer: {same}",
            flush=True,
        )
    shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    each_size(sizes(), measure, prefix="matchkit-bench-telemetry-")


if __name__ == "__main__":
    main()
