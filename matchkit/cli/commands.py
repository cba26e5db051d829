"""The matchkit command: serve, synth, fetch, report, cache, archive.

Each subcommand's arguments are declared in :mod:`matchkit.cli.parser`; here each is handed to
the module that owns the job. The heavy modules are imported only when their subcommand runs.
"""

from __future__ import annotations

import argparse
import logging
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from matchkit.cli.options import check_offline, client_options, filters_from_args
from matchkit.cli.parser import build_parser
from matchkit.errors import InvalidArgumentError, MatchkitError
from matchkit.rules.filters import MatchFilters

if TYPE_CHECKING:
    pass

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    run = {
        "serve": _serve,
        "synth": _synth,
        "fetch": _fetch,
        "report": _report,
        "cache": _cache,
        "archive": _archive,
    }[args.command]
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _shown_as(args.command)
            return int(run(args) or 0)
    except MatchkitError as error:
        print(f"matchkit {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _shown_as(command: str) -> Callable[..., None]:
    """Warnings as one line a user reads (``matchkit fetch: warning: ...``), not as Python
    prints them (a source path, a line number and the line of code)."""

    def show(message: Warning | str, *_: object, **__: object) -> None:
        print(f"matchkit {command}: warning: {message}", file=sys.stderr)

    return show


def _serve(args: argparse.Namespace) -> int:
    from matchkit.rules.profiles import get_profile
    from matchkit.service import serve

    profile = get_profile(args.profile)
    # Options a profile's service does not take are passed only when given: its serve then
    # refuses them by name (--data with --profile pubg).
    given = {
        "data": args.data,
        "faults": args.faults,
        "store_dir": args.store_dir,
        "telemetry_port": args.telemetry_port,
        "ingestion_delay": args.ingestion_delay,
    }
    serve(
        profile=profile,
        host=args.host,
        port=args.port,
        api_keys=args.api_keys,
        api_key_file=args.api_key_file,
        now=args.now,
        rate_limit=args.rate_limit or profile.default_rate_limit,
        **{name: value for name, value in given.items() if value is not None},
    )
    return 0


def _synth(args: argparse.Namespace) -> int:
    if args.archive is not None:
        from matchkit.cli.archive import synth_archive

        return synth_archive(args)
    if args.telemetry:
        raise InvalidArgumentError("--telemetry goes with --archive", parameter="telemetry")
    from matchkit.synth import write_dataset

    options = {key: getattr(args, key) for key in ("seed", "matches", "na_matches", "days")}
    options["as_of"] = args.as_of
    written = write_dataset(args.out, **{k: v for k, v in options.items() if v is not None})
    counts = ", ".join(f"{info['matches']} {shard}" for shard, info in written["shards"].items())
    print(
        f"wrote {args.out}: {counts} matches (seed {written['seed']}, "
        f"{written['days']} days to {written['as_of']})"
    )
    return 0


def _fetch(args: argparse.Namespace) -> int:
    from matchkit.client.client import Client

    filters = _fetch_filters(args)
    _check_fetch_out(args.out, overwrite=args.overwrite)  # before an hour of fetching
    options = client_options(args)
    check_offline(
        args.base_url, options, args.start, args.end, max_matches=args.max_matches, **filters
    )
    # A bar redrawn with carriage returns is for a terminal, not for a log or a pipe.
    progress = not args.no_progress and sys.stderr.isatty()
    with Client(args.base_url, offline=args.offline, progress=progress, **options) as client:
        frames = client.matches(args.start, args.end, max_matches=args.max_matches, **filters)
    frames.to_parquet(args.out, overwrite=args.overwrite)
    print(frames.summary())
    print(f"wrote {args.out}")
    return 0


def _fetch_filters(args: argparse.Namespace) -> MatchFilters:
    """The command line's filters (and sort) as ``Client.matches`` takes them."""
    filters = filters_from_args(args)
    filters["sort"] = args.sort
    return filters


def _check_fetch_out(out: Path, *, overwrite: bool) -> None:
    """Refuse an ``--out`` that ``to_parquet`` would refuse, in the command line's words."""
    from matchkit.model.manifest import check_target_folder
    from matchkit.model.parquet import MANIFEST

    check_target_folder(
        out,
        manifest=MANIFEST,
        overwrite=overwrite,
        name=f"--out {out}",
        parameter="out",
        overwrite_hint="pass --overwrite to replace a matchkit data set there, or choose a new "
        "folder",
        foreign=f"is not a matchkit Parquet data set (no {MANIFEST}); --overwrite replaces only "
        "a data set matchkit wrote: choose a new folder",
    )


def _report(args: argparse.Namespace) -> int:
    from matchkit.report.pages import ReportPage, build_report

    with _without_iri_parsers():
        import nbformat  # noqa: F401 (the report's reader of notebooks, imported here once)

    def announce(page: ReportPage) -> None:
        print(f"{page.html.name:<28} {page.seconds:6.1f} s  {page.title}", flush=True)

    index = build_report(
        out=args.out,
        base_url=args.base_url,
        overwrite=args.overwrite,
        api_reference=args.api_reference,
        on_page=announce,
        jobs=args.jobs,
        execute=args.execute,
    )
    print(f"report written: {index}")
    return 0


@contextmanager
def _without_iri_parsers() -> Iterator[None]:
    """Imports made with ``rfc3987_syntax`` marked absent, then its entry as it was.

    The report reads notebooks with nbformat, which imports jsonschema, whose format checkers
    import ``rfc3987_syntax`` when installed (jupyter-events asks for it); it builds about 35
    Lark parsers as it is imported: 3.3 of the report's CPU-seconds, for the ``iri`` format,
    which no notebook schema uses (python-jsonschema/jsonschema#1428). jsonschema then leaves
    that format unchecked in this process; nothing else changes.
    """
    name = "rfc3987_syntax"
    blocked = name not in sys.modules
    if blocked:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        if blocked and sys.modules.get(name, 0) is None:
            del sys.modules[name]


def _cache(args: argparse.Namespace) -> int:
    from matchkit.client.client import Client

    older_than = args.older_than if args.action == "clear" else None  # checked by the parser
    with Client(cache_dir=args.cache_dir, offline=True, progress=False) as client:
        if args.action == "info":
            print(client.cache_info())
            return 0
        path = client.cache_info().path
        removed = client.clear_cache(older_than)
    print(f"removed {removed} cached responses from {path}")
    return 0


def _archive(args: argparse.Namespace) -> int:
    from matchkit.cli.archive import run_archive

    return run_archive(args)


if __name__ == "__main__":
    raise SystemExit(main())
