"""``matchkit archive sync | info | compact``: the archive from the command line.

:func:`add_archive_parser` declares the arguments (for :mod:`matchkit.cli.parser`);
:func:`run_archive` runs them (for :mod:`matchkit.cli.commands`).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import warnings
from datetime import timedelta
from pathlib import Path

from matchkit.archive.defaults import DEFAULT_SETTLE
from matchkit.cli.options import (
    WIDTH,
    Subcommands,
    add_command,
    add_filter_options,
    check_offline,
    client_options,
    filters_from_args,
)
from matchkit.errors import InvalidArgumentError
from matchkit.rules.profiles import PROFILES
from matchkit.rules.ratelimit import DEFAULT_RATE_LIMIT

__all__ = ["add_archive_parser", "run_archive", "synth_archive"]


def add_archive_parser(commands: Subcommands) -> None:
    """Declare ``matchkit archive`` and its actions."""
    archive = commands.add_parser(
        "archive",
        help="keep matches past the service's 120 days, in Delta Lake tables",
        description=textwrap.fill(
            "Keep matches (and their telemetry) past the service's 120 days in an archive "
            "folder of Delta Lake tables, read lazily with Dask (matchkit.archive.open). See "
            "docs/archive.md.",
            width=WIDTH,
        ),
        epilog="""\
examples:
  matchkit archive sync archive                   # append what the service has and it lacks
  matchkit archive info archive                   # tables, rows, match times, versions, scope
  matchkit archive compact archive                # fewer, larger files; unused ones removed
""",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = archive.add_subparsers(dest="action", required=True, metavar="ACTION")
    _sync_parser(actions)
    info = add_command(
        actions,
        "info",
        help="what an archive holds",
        description="Print an archive's tables as its last completed batch left them (what "
        "matchkit.archive.open reads) with their rows, files, versions and size, the range of "
        "its match times, up to where it is final, its scope history (every scope with the "
        "match times it was synced for), a batch an interrupted sync left pending, and its "
        "gaps.",
        epilog="examples:\n  matchkit archive info archive\n",
    )
    info.add_argument("dir", type=Path, metavar="DIR", help="the archive folder")
    compact = add_command(
        actions,
        "compact",
        help="compact the tables and remove the files no version uses",
        description="Complete a batch an interrupted sync left pending (from its staged "
        "tables), rewrite each table's small files into larger ones (a new version with the "
        "same rows), then remove the data files that no version of the last --retention-hours "
        "uses. Only files of the archive's Delta tables are removed.",
        epilog="""\
examples:
  matchkit archive compact archive                # keep what versions of the last week use
  matchkit archive compact archive --retention-hours 0   # keep only what the latest uses
""",
    )
    compact.add_argument("dir", type=Path, metavar="DIR", help="the archive folder")
    compact.add_argument(
        "--retention-hours",
        type=float,
        default=168,
        metavar="H",
        help="keep the files that versions of the last H hours use (default: 168, a week)",
    )
    compact.add_argument(
        "--wait",
        type=float,
        default=0,
        metavar="S",
        help="seconds to wait for a running sync (default: 0, refuse)",
    )


def _sync_parser(actions: Subcommands) -> None:
    sync = add_command(
        actions,
        "sync",
        help="append what the service has and the archive lacks",
        description="Fetch, through the HTTP cache and the rate limit, the matches from the "
        "archive's watermark (first run: --start, else where the service's retention begins) "
        "to now, one window at a time, and append them to the archive in DIR. The archive is "
        "final up to now minus the settle period (--settle), which the next sync reads again: "
        "matches listed late are archived, none twice. Run it daily (e.g. from cron): a re-run "
        "adds nothing, and a sync killed at any point is completed by the next. The scope "
        "(shard, filters, --telemetry) is kept with the archive; another is refused unless "
        "--change-scope. The API key is read from MATCHKIT_API_KEY.",
        epilog="""\
examples:
  matchkit archive sync archive                           # the embedded sample service
  matchkit archive sync archive --telemetry --start 2026-08-01
  MATCHKIT_API_KEY=... matchkit archive sync ~/archive --base-url https://api.example.com
  matchkit archive sync quick --server-types QUICK2V2,QUICK3V3   # a scope of its own
  0 6 * * * matchkit archive sync /data/archive --no-progress    # a crontab line
  matchkit archive sync pubg --profile pubg --shard steam --telemetry  # a day of samples a batch
  matchkit archive sync mine --profile pubg --player-names Belmi_819 Ozzy_72   # their matches

With --profile pubg (no match list; matches kept 14 days) a batch is one day of the service's
clock: the day's sample (or, with --player-names, at most 10 players' recent matches of that
day), the matches of it the archive lacks, fetched by id. A day is final once its end is 24
hours old (an open day is read again by the next sync); --window-days and --settle do not apply.
""",
    )
    sync.add_argument("dir", type=Path, metavar="DIR", help="the archive folder (created)")
    sync.add_argument(
        "--base-url",
        default=None,
        metavar="URL",
        help="service URL (default: $MATCHKIT_BASE_URL, else the embedded sample service)",
    )
    sync.add_argument(
        "--profile",
        default=None,
        choices=list(PROFILES),
        help="the service's rules: gamelocker (default) or pubg (days of samples, or "
        "--player-names, a batch a day; see docs/pubg.md)",
    )
    sync.add_argument(
        "--shard",
        default=None,
        metavar="SHARD",
        help="the service's shard: "
        + "; ".join(f"{name}: {', '.join(p.shards)}" for name, p in PROFILES.items())
        + " (default: the profile's first)",
    )
    sync.add_argument(
        "--start",
        default=None,
        metavar="TIME",
        help="where a new archive starts, e.g. 2026-08-01 (default: where the service's "
        "retention begins; ignored once the archive has a watermark)",
    )
    sync.add_argument(
        "--now",
        default=None,
        metavar="TIME",
        help="ISO 8601 time taken as now (default: the embedded service's now, else the clock)",
    )
    add_filter_options(sync, several=True)
    sync.add_argument(
        "--telemetry", action="store_true", help="archive each match's telemetry too (default: off)"
    )
    sync.add_argument(
        "--buckets",
        type=int,
        default=None,
        metavar="N",
        help="buckets a new archive splits each month into, fixed at creation: more for a "
        "service of over about 100,000 matches a month (default: 1)",
    )
    sync.add_argument(
        "--rate-limit",
        default=None,
        metavar="RATE",
        help="'off', N/minute or a number a minute (default: "
        f"{DEFAULT_RATE_LIMIT} for a remote service, off for the embedded one)",
    )
    sync.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="folder of the HTTP cache (default: $MATCHKIT_CACHE_DIR, else the user cache)",
    )
    sync.add_argument(
        "--window-days", type=float, default=7, metavar="N", help="days per batch (default: 7)"
    )
    sync.add_argument(
        "--settle",
        type=float,
        default=DEFAULT_SETTLE / timedelta(hours=1),
        metavar="HOURS",
        help="hours before now in which matches may still be listed late: the archive is "
        "final only up to now minus HOURS, and the next sync reads them again (default: "
        f"{DEFAULT_SETTLE / timedelta(hours=1):g})",
    )
    sync.add_argument(
        "--change-scope",
        action="store_true",
        help="sync although the archive holds another scope (default: refuse)",
    )
    sync.add_argument(
        "--wait",
        type=float,
        default=0,
        metavar="S",
        help="seconds to wait for another sync of DIR (default: 0, refuse)",
    )
    sync.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress lines (the client's bar shows only on a terminal)",
    )


def run_archive(args: argparse.Namespace) -> int:
    """Run ``matchkit archive ACTION``."""
    import matchkit.archive as archive

    if args.action == "info":
        print(archive.info(args.dir))
        return 0
    if args.action == "compact":
        print(archive.compact(args.dir, retention_hours=args.retention_hours, wait=args.wait))
        return 0
    from matchkit.archive.syncing import checked_request, require_buckets
    from matchkit.client.client import Client
    from matchkit.rules.profiles import get_profile
    from matchkit.rules.windows import parse_time

    if not args.window_days > 0:
        raise InvalidArgumentError(
            f"--window-days {args.window_days} must be > 0", parameter="window_days"
        )
    if not 0 <= args.settle <= 24 * 28:
        raise InvalidArgumentError(
            f"--settle {args.settle} must be from 0 to {24 * 28} hours", parameter="settle"
        )
    filters = filters_from_args(args)
    # Every argument is checked before the client starts anything (an embedded service
    # included): the times and buckets, and the filters by an offline client planning a fetch
    # with them (it starts nothing and sends nothing).
    for parameter in ("start", "now"):
        if getattr(args, parameter) is not None:
            parse_time(getattr(args, parameter), parameter=parameter)
    require_buckets(Path(args.dir), args.buckets)
    profile = get_profile(args.profile)
    if args.shard is not None:
        profile.checked_shard(args.shard)
    options = client_options(args)
    arguments = {
        "start": args.start,
        "telemetry": args.telemetry,
        "window": timedelta(days=args.window_days),
        "settle": timedelta(hours=args.settle),
        "allow_scope_change": args.change_scope,
        "buckets": args.buckets,
    }
    if profile.match_list:
        check_offline(args.base_url, options, None, None, **filters)
    else:  # no match list to plan: the sync's own checks, by an offline client
        with Client(args.base_url, offline=True, progress=False, profile=profile, **options) as c:
            checked_request(
                c,
                Path(args.dir),
                now=None,
                shard=None,
                progress=False,
                **arguments,
                filters=dict(filters),
            )
    progress = not args.no_progress and sys.stderr.isatty()
    with (
        Client(args.base_url, progress=progress, profile=profile, **options) as client,
        warnings.catch_warnings(),
    ):
        result = archive.sync(
            client,
            args.dir,
            wait=args.wait,
            progress=not args.no_progress,
            **arguments,
            **filters,
        )
    print(result)
    return 0


def synth_archive(args: argparse.Namespace) -> int:
    """Run ``matchkit synth --archive DIR --matches N``."""
    import time

    from matchkit.synth.archive import write_synthetic_archive

    if args.matches is None:
        raise InvalidArgumentError("synth --archive needs --matches N", parameter="matches")
    if args.na_matches is not None:
        raise InvalidArgumentError(
            "synth --archive writes the global shard only; leave out --na-matches",
            parameter="na_matches",
        )
    options = {"seed": args.seed, "as_of": args.as_of, "days": args.days}
    began = time.monotonic()
    show = sys.stderr.isatty()

    def progress(done: int) -> None:
        if show:
            print(f"\r{done:,} of {args.matches:,} matches", end="", file=sys.stderr, flush=True)

    counts = write_synthetic_archive(
        args.archive,
        matches=args.matches,
        telemetry=args.telemetry,
        progress=progress,
        **{key: value for key, value in options.items() if value is not None},
    )
    seconds = time.monotonic() - began
    if show:
        print(file=sys.stderr)
    rows = ", ".join(f"{name} {count:,}" for name, count in counts.items() if count)
    print(
        f"wrote {args.archive}: {args.matches:,} matches in {seconds:.1f} s "
        f"({args.matches / seconds:,.0f} a second); rows: {rows}"
    )
    return 0
