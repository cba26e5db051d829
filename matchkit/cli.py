"""The ``matchkit`` command: serve, synth, fetch, report.

Each subcommand parses its arguments here and hands them to the module that owns the job; the
heavy modules are imported only when their subcommand runs.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from matchkit.errors import MatchkitError

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    try:
        return int(args.run(args) or 0)
    except MatchkitError as error:
        print(f"matchkit {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="matchkit", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the reference match-data service")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    serve.add_argument("--port", type=int, default=8000, help="port (0: a free one)")
    serve.add_argument("--data", type=Path, help="folder of match documents (default: sample set)")
    serve.add_argument(
        "--api-key",
        action="append",
        dest="api_keys",
        metavar="KEY",
        help="a key the service accepts (repeatable; shown by ps: prefer --api-key-file or "
        "MATCHKIT_API_KEY; default: one is generated)",
    )
    serve.add_argument(
        "--api-key-file",
        type=Path,
        default=None,
        metavar="PATH",
        help="a file of keys the service accepts, one per line",
    )
    serve.add_argument(
        "--now",
        default=None,
        help="ISO time the service takes as now, or 'wall' for the clock "
        "(default: the data set's as_of)",
    )
    serve.add_argument(
        "--rate-limit", default=None, help="'off' or N/minute per key (default: 10/minute)"
    )
    serve.add_argument(
        "--store-dir",
        type=Path,
        default=None,
        help="where the SQLite store is built (default: the user cache folder)",
    )
    serve.add_argument(
        "--faults",
        default=None,
        metavar="SPEC",
        help="inject faults into the match endpoints, e.g. "
        "'500=0.05,503=0.05,502=0.02,504=0.02,drop=0.03,slow=0.02,truncate=0.02,429=0.05,seed=7' "
        "(see matchkit.service.faults)",
    )
    serve.set_defaults(run=_serve)

    synth = commands.add_parser("synth", help="generate the deterministic sample data set")
    synth.add_argument("--out", type=Path, required=True)
    synth.add_argument("--seed", type=int, default=None)
    synth.add_argument("--matches", type=int, default=None, help="global matches")
    synth.add_argument("--na-matches", type=int, default=None, help="na (older shape) matches")
    synth.add_argument("--as-of", default=None, help="ISO time the data set ends at")
    synth.add_argument("--days", type=int, default=None, help="days the data set covers")
    synth.set_defaults(run=_synth)

    fetch = commands.add_parser(
        "fetch",
        help="fetch matches and write them as Parquet",
        description="The API key is read from MATCHKIT_API_KEY (never from the command line).",
    )
    fetch.add_argument(
        "--base-url",
        default=None,
        help="service URL (default: MATCHKIT_BASE_URL, else the embedded service)",
    )
    fetch.add_argument("--shard", default="global", choices=["global", "na"])
    fetch.add_argument("--start", default=None)
    fetch.add_argument("--end", default=None)
    fetch.add_argument(
        "--now",
        default=None,
        help="ISO time taken as now (default: the embedded service's now, else the clock)",
    )
    for name in (
        "player-ids",
        "patch-versions",
        "server-types",
        "player-names",
        "team-names",
        "game-modes",
    ):
        fetch.add_argument(f"--{name}", default=None, help="comma-separated")
    fetch.add_argument("--ranking-type", default=None)
    fetch.add_argument("--sort", default="createdAt", choices=["createdAt", "-createdAt"])
    fetch.add_argument("--max-matches", type=int, default=None)
    fetch.add_argument("--cache-dir", type=Path, default=None)
    fetch.add_argument("--offline", action="store_true", help="answer from the cache only")
    fetch.add_argument(
        "--rate-limit",
        default=None,
        help="'off', 'N/minute' or a number a minute (default: 10/minute remote, off embedded)",
    )
    fetch.add_argument("--no-progress", action="store_true", help="no progress bar")
    fetch.add_argument("--out", type=Path, required=True, help="Parquet data set folder")
    fetch.add_argument("--overwrite", action="store_true", help="replace an existing --out")
    fetch.set_defaults(run=_fetch)

    report = commands.add_parser("report", help="execute the notebooks into an HTML report")
    report.add_argument("--out", type=Path, default=Path("reports"))
    report.add_argument(
        "--base-url",
        default=None,
        help="service URL (default: MATCHKIT_BASE_URL, else the embedded service)",
    )
    report.set_defaults(run=_report)
    return parser


def _serve(args: argparse.Namespace) -> int:
    from matchkit.service import serve

    serve(
        host=args.host,
        port=args.port,
        data=args.data,
        api_keys=args.api_keys,
        api_key_file=args.api_key_file,
        now=args.now,
        rate_limit=args.rate_limit or "10/minute",
        faults=args.faults,
        store_dir=args.store_dir,
    )
    return 0


def _synth(args: argparse.Namespace) -> int:
    from matchkit.synth import write_dataset

    options = {key: getattr(args, key) for key in ("seed", "matches", "na_matches", "days")}
    options["as_of"] = args.as_of
    manifest = write_dataset(args.out, **{k: v for k, v in options.items() if v is not None})
    counts = ", ".join(f"{info['matches']} {shard}" for shard, info in manifest["shards"].items())
    print(
        f"wrote {args.out}: {counts} matches (seed {manifest['seed']}, "
        f"{manifest['days']} days to {manifest['as_of']})"
    )
    return 0


def _fetch(args: argparse.Namespace) -> int:
    from matchkit.client.client import Client

    filters = {}
    for key in (
        "player_ids",
        "patch_versions",
        "server_types",
        "player_names",
        "team_names",
        "game_modes",
    ):
        value = getattr(args, key)
        if value is not None:
            filters[key] = value.split(",")
    if args.ranking_type is not None:
        filters["ranking_type"] = args.ranking_type
    with Client(
        args.base_url,
        shard=args.shard,
        cache_dir=args.cache_dir,
        offline=args.offline,
        rate_limit=args.rate_limit,
        now=args.now,
        progress=not args.no_progress,
    ) as client:
        frames = client.matches(
            args.start, args.end, sort=args.sort, max_matches=args.max_matches, **filters
        )
    frames.to_parquet(args.out, overwrite=args.overwrite)
    print(frames.summary())
    print(f"wrote {args.out}")
    return 0


def _report(args: argparse.Namespace) -> int:
    from matchkit.report import build_report

    index = build_report(out=args.out, base_url=args.base_url)
    print(f"report written: {index.resolve()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
