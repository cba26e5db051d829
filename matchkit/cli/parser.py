"""The arguments of the ``matchkit`` command: each option with its format, default and examples.

:func:`build_parser` declares them; :mod:`matchkit.cli.commands` runs the subcommands.
Descriptions and epilogs are kept as written (examples line up), so they are wrapped here at
:data:`WIDTH`.
"""

from __future__ import annotations

import argparse
import math
from datetime import timedelta
from pathlib import Path

from matchkit.cli.archive import add_archive_parser
from matchkit.cli.options import Subcommands, add_command, add_filter_options
from matchkit.rules.profiles import PROFILES
from matchkit.rules.ratelimit import DEFAULT_RATE_LIMIT
from matchkit.rules.shards import SHARDS

__all__ = ["build_parser", "days_ago"]


_DESCRIPTION = """\
matchkit: fetch, normalize and analyse multiplayer match records from JSON:API match-data
services, and run the reference service with its sample data set.
"""

_EPILOG = """\
examples:
  matchkit fetch --start 2026-10-01 --end 2026-10-08 --out matches    # from the sample service
  matchkit report --out reports                # the notebooks as an offline HTML report
  matchkit serve --port 8000                   # the reference service on loopback
  matchkit cache info                          # what the HTTP cache holds
  matchkit archive sync archive                # keep matches past the 120 days

Run `matchkit COMMAND --help` for a command's options. The service is MATCHKIT_BASE_URL (default:
the embedded sample service) and its key MATCHKIT_API_KEY; the HTTP cache is in MATCHKIT_CACHE_DIR
(default: the user cache folder).
"""

_SERVICE_HELP = "service URL, e.g. https://api.example.com (default: $MATCHKIT_BASE_URL, else the \
embedded sample service)"

_CACHE_DIR_HELP = "folder of the HTTP cache (default: $MATCHKIT_CACHE_DIR, else the user cache \
folder, e.g. ~/.cache/matchkit)"


def days_ago(text: str) -> timedelta:
    """An argparse ``type``: a number of days >= 0 (``30``, ``0.5``) as a timedelta.

    Every number option that is not a whole number goes through a converter like this one, so
    that a value Python reads but cannot hold (``inf``, ``1e400``, ``nan``, ``-1``, more days
    than a timedelta holds) is an argument error (exit 2, with the usage), never a traceback.

    Raises:
        argparse.ArgumentTypeError: ``text`` is not such a number.
    """
    try:
        days = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of days") from None
    if not math.isfinite(days) or not 0 <= days <= timedelta.max.days:
        raise argparse.ArgumentTypeError(
            f"{text!r} must be a finite number of days from 0 to {timedelta.max.days:,}"
        )
    return timedelta(days=days)


def build_parser() -> argparse.ArgumentParser:
    """The parser of the ``matchkit`` command and its subcommands."""
    parser = argparse.ArgumentParser(
        prog="matchkit",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _serve_parser(commands)
    _synth_parser(commands)
    _fetch_parser(commands)
    _report_parser(commands)
    _cache_parser(commands)
    add_archive_parser(commands)
    return parser


def _serve_parser(commands: Subcommands) -> None:
    serve = add_command(
        commands,
        "serve",
        help="run the reference match-data service",
        description="Run the reference match-data service (JSON:API) until interrupted.",
        epilog="""\
examples:
  matchkit serve                                  # sample set, loopback port 8000, a new key
  matchkit serve --port 0 --rate-limit off        # any free port, no rate limit
  MATCHKIT_API_KEY=secret matchkit serve          # accept this key (kept out of `ps`)
  matchkit serve --api-key-file keys.txt          # accept the keys in this file, one per line
  matchkit serve --data my-dataset --now wall     # another data set, the wall clock as now
  matchkit serve --profile pubg --port 0          # the PUBG double and its telemetry host
""",
    )
    _serve_address_options(serve)
    _serve_service_options(serve)


def _serve_address_options(serve: argparse.ArgumentParser) -> None:
    """Which service ``serve`` runs, and where it listens."""
    serve.add_argument(
        "--profile",
        default=None,
        choices=list(PROFILES),
        help="which service to serve: gamelocker (default) or pubg, the PUBG double on the "
        "PUBG sample set, its telemetry files on a second port",
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, loopback only)"
    )
    serve.add_argument(
        "--port", type=int, default=8000, help="TCP port, 0 for a free one (default: 8000)"
    )
    serve.add_argument(
        "--telemetry-port",
        type=int,
        default=None,
        metavar="PORT",
        help="with --profile pubg: the telemetry host's TCP port (default: --port + 1, or a free "
        "one with --port 0)",
    )


def _serve_service_options(serve: argparse.ArgumentParser) -> None:
    """What ``serve`` serves: the data, the keys, its clock, its limits and its faults."""
    serve.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help="data-set folder written by `matchkit synth` (default: the bundled sample set)",
    )
    serve.add_argument(
        "--api-key",
        action="append",
        dest="api_keys",
        metavar="KEY",
        help="a key the service accepts, repeatable; visible in the process list, so prefer "
        "--api-key-file or $MATCHKIT_API_KEY (default: $MATCHKIT_API_KEY, else one is "
        "generated and printed)",
    )
    serve.add_argument(
        "--api-key-file",
        type=Path,
        default=None,
        metavar="PATH",
        help="a file of keys the service accepts, one per line (default: none)",
    )
    serve.add_argument(
        "--now",
        default=None,
        metavar="TIME",
        help="ISO 8601 time the service takes as now, e.g. 2026-10-31T00:00:00Z, or 'wall' for "
        "the clock (default: the data set's as_of)",
    )
    serve.add_argument(
        "--rate-limit",
        default=None,
        metavar="RATE",
        help=f"requests per key: 'off' or N/minute, e.g. 60/minute (default: {DEFAULT_RATE_LIMIT})",
    )
    serve.add_argument(
        "--store-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="where the SQLite store is built (default: the user cache folder)",
    )
    serve.add_argument(
        "--faults",
        default=None,
        metavar="SPEC",
        help="inject faults into the match endpoints, as KIND=PROBABILITY pairs, e.g. "
        "'500=0.05,429=0.05,drop=0.03,slow=0.02,truncate=0.02,seed=7' (default: none; kinds "
        "in matchkit.service.faults)",
    )
    serve.add_argument(
        "--ingestion-delay",
        default=None,
        metavar="DELAY",
        help="how long after its end a match is listed (decision 20): 'default' (minutes, a "
        "long tail of hours: matchkit.service.ingestion), 'off' (listed from its createdAt), 0 "
        "(once ended), or a fixed delay such as 90s, 10m, 2h (default: 'default')",
    )


def _synth_parser(commands: Subcommands) -> None:
    from matchkit.sampledata import parameters  # constants only: light to import

    synth = add_command(
        commands,
        "synth",
        help="generate the deterministic sample data set",
        description="Generate a deterministic sample data set (the same options give the same "
        "bytes).",
        epilog="""\
examples:
  matchkit synth --out sample                     # the bundled sample set, regenerated
  matchkit synth --out big --matches 20000 --seed 3 --days 60
  matchkit synth --archive big-archive --matches 1000000     # an archive, a year, no HTTP
  matchkit synth --archive with-telemetry --matches 100000 --telemetry
""",
    )
    where = synth.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="data-set folder to write (default: none; this or --archive)",
    )
    where.add_argument(
        "--archive",
        type=Path,
        metavar="DIR",
        help="write an archive (Delta tables, see `matchkit archive`) of --matches matches over "
        "--days (default 365) directly, without documents or HTTP; DIR must be new or empty",
    )
    synth.add_argument(
        "--telemetry",
        action="store_true",
        help="with --archive: each match's telemetry tables too, drawn to agree with it",
    )
    synth.add_argument(
        "--seed", type=int, default=None, help=f"random seed (default: {parameters.DEFAULT_SEED})"
    )
    synth.add_argument(
        "--matches",
        type=int,
        default=None,
        metavar="N",
        help=f"matches on the global shard (default: {parameters.GLOBAL_MATCHES})",
    )
    synth.add_argument(
        "--na-matches",
        type=int,
        default=None,
        metavar="N",
        help=f"matches on the na shard, the older shape (default: {parameters.DEFAULT_NA_MATCHES})",
    )
    synth.add_argument(
        "--as-of",
        default=None,
        metavar="TIME",
        help=f"ISO 8601 time the data set ends at (default: {parameters.DEFAULT_AS_OF})",
    )
    synth.add_argument(
        "--days",
        type=int,
        default=None,
        metavar="N",
        help=f"days the data set covers, at most 120 (default: {parameters.DAYS})",
    )


def _fetch_parser(commands: Subcommands) -> None:
    fetch = add_command(
        commands,
        "fetch",
        help="fetch matches and write them as Parquet",
        description="Fetch the matches of a time range through the HTTP cache and write the "
        "normalized tables as a Parquet data set. The API key is read from MATCHKIT_API_KEY, "
        "never from the command line.",
        epilog="""\
examples:
  matchkit fetch --start 2026-10-01 --end 2026-10-08 --out week       # the sample service
  matchkit fetch --start 2026-10-01T12:00:00Z --server-types QUICK2V2,QUICK3V3 --out quick
  MATCHKIT_API_KEY=... matchkit fetch --base-url https://api.example.com \\
      --start 2026-10-01 --max-matches 500 --out sample --overwrite
  matchkit fetch --shard na --player-names alice,bob --offline --out cached  # cache only

Times are ISO 8601: a date (midnight UTC) or a date and time, UTC when no offset is given.
""",
    )
    fetch.add_argument("--base-url", default=None, metavar="URL", help=_SERVICE_HELP)
    fetch.add_argument(
        "--shard",
        default="global",
        choices=list(SHARDS),
        help="region of the service: 'global' (current shape) or 'na' (older shape) "
        "(default: global)",
    )
    fetch.add_argument(
        "--start",
        default=None,
        metavar="TIME",
        help="first match time, inclusive, e.g. 2026-10-01 or 2026-10-01T12:00:00Z (default: "
        "28 days before --end on global, 3 hours before on na; at most 120 days back)",
    )
    fetch.add_argument(
        "--end",
        default=None,
        metavar="TIME",
        help="end of the range, exclusive, same format as --start (default: now)",
    )
    fetch.add_argument(
        "--now",
        default=None,
        metavar="TIME",
        help="ISO 8601 time taken as now (default: the embedded service's now, else the clock)",
    )
    add_filter_options(fetch)
    fetch.add_argument(
        "--sort",
        default="createdAt",
        choices=["createdAt", "-createdAt"],
        help="createdAt: oldest first; -createdAt: newest first (default: createdAt)",
    )
    fetch.add_argument(
        "--max-matches",
        type=int,
        default=None,
        metavar="N",
        help="stop after N matches, in --sort order (default: no limit)",
    )
    fetch.add_argument("--cache-dir", type=Path, default=None, metavar="DIR", help=_CACHE_DIR_HELP)
    fetch.add_argument(
        "--offline", action="store_true", help="answer from the cache only (default: off)"
    )
    fetch.add_argument(
        "--rate-limit",
        default=None,
        metavar="RATE",
        help="'off', N/minute (or /second, /hour) or a number a minute (default: "
        f"{DEFAULT_RATE_LIMIT} for a remote service, off for the embedded one)",
    )
    fetch.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (there is none either when standard error is not a terminal)",
    )
    _out_options(
        fetch,
        out_help="Parquet data-set folder to create (checked before anything is fetched)",
        overwrite_help="replace --out when it holds a matchkit data set (default: refuse a "
        "non-empty folder)",
        required=True,
    )


def _out_options(
    parser: argparse.ArgumentParser,
    *,
    out_help: str,
    overwrite_help: str,
    required: bool = False,
    default: Path | None = None,
) -> None:
    """The ``--out DIR`` and ``--overwrite`` options of a command that writes a folder."""
    parser.add_argument(
        "--out", type=Path, required=required, default=default, metavar="DIR", help=out_help
    )
    parser.add_argument("--overwrite", action="store_true", help=overwrite_help)


def _report_parser(commands: Subcommands) -> None:
    report = add_command(
        commands,
        "report",
        help="execute the notebooks into an offline HTML report",
        description="Execute the notebooks top to bottom and write one HTML page each, an "
        "index and the API reference. The pages read offline: the web files they load are "
        "copied beside them (install them once with `make assets`).",
        epilog="""\
examples:
  matchkit report                                 # ./reports from the sample service
  matchkit report --out site --overwrite          # replace the report written there before
  MATCHKIT_API_KEY=... matchkit report --base-url https://api.example.com --out remote
  matchkit report --no-execute --out preview      # the notebooks as committed, in seconds

--out must be new, empty, or a previous matchkit report (with --overwrite); matchkit never
replaces a folder holding anything it did not write.
""",
    )
    _out_options(
        report,
        out_help="report folder: new, empty, or a previous report with --overwrite (default: "
        "reports)",
        overwrite_help="replace a previous matchkit report in --out, atomically (default: refuse)",
        default=Path("reports"),
    )
    report.add_argument("--base-url", default=None, metavar="URL", help=_SERVICE_HELP)
    report.add_argument(
        "--no-api-reference",
        dest="api_reference",
        action="store_false",
        help="skip the API reference (default: write it to DIR/api)",
    )
    report.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="notebooks executed at a time, a kernel each; the pages are the same whatever N "
        "(default: 3, or 1 on a single core)",
    )
    report.add_argument(
        "--no-execute",
        dest="execute",
        action="store_false",
        help="render the notebooks as committed, with their saved outputs, without running them "
        "(default: execute them; not with --base-url or --jobs)",
    )


def _cache_parser(commands: Subcommands) -> None:
    cache = add_command(
        commands,
        "cache",
        help="show or clear the HTTP cache",
        description="Show or clear the client's HTTP cache (one SQLite file in the cache folder).",
        epilog="""\
examples:
  matchkit cache info                             # responses, size, oldest and newest
  matchkit cache clear --older-than 30            # drop responses stored over 30 days ago
  matchkit cache clear --cache-dir ./cache        # drop everything in that cache
""",
    )
    actions = cache.add_subparsers(dest="action", required=True, metavar="ACTION")
    info = actions.add_parser(
        "info",
        help="what the cache holds",
        description="Print how many responses the cache holds, its size, path, and when the "
        "oldest and newest were stored.",
    )
    clear = actions.add_parser(
        "clear",
        help="remove cached responses",
        description="Remove cached responses: all of them, or those stored more than "
        "--older-than days ago.",
    )
    for action in (info, clear):
        action.add_argument(
            "--cache-dir", type=Path, default=None, metavar="DIR", help=_CACHE_DIR_HELP
        )
    clear.add_argument(
        "--older-than",
        type=days_ago,
        default=None,
        metavar="DAYS",
        help="only responses stored more than DAYS days ago, e.g. 30 or 0.5 (default: all)",
    )
