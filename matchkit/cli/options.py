"""What the commands' parsers share: the width of their text, how a (sub)command's parser is
made, and the filters of a match query as options (``fetch`` and ``archive sync``)."""

from __future__ import annotations

import argparse
import textwrap
import warnings
from datetime import date
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict, Unpack, cast

from matchkit.rules.filters import FILTERS, FilterSpec, MatchFilters

if TYPE_CHECKING:
    from matchkit.client.arguments import FetchOptions
    from matchkit.rules.shards import ShardName

__all__ = [
    "WIDTH",
    "ClientOptions",
    "Subcommands",
    "add_command",
    "add_filter_options",
    "check_offline",
    "client_options",
    "filters_from_args",
]

WIDTH = 96
"""The width descriptions are wrapped to."""

Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""The subcommands of a parser (what ``add_subparsers`` returns)."""


def _filter_help(spec: FilterSpec) -> str:
    shards = " and ".join(spec.shards)
    if spec.many:
        return (
            f"only matches with any of these, comma-separated, e.g. {spec.example} ({shards}; "
            "default: no filter)"
        )
    default = "both" if len(spec.choices) == 2 else "any"
    return f"{' or '.join(spec.choices)} ({shards}; default: {default})"


def add_filter_options(parser: argparse.ArgumentParser, *, several: bool = False) -> None:
    """Add an option for each filter of a match query (:data:`matchkit.rules.filters.FILTERS`),
    in its order; :func:`filters_from_args` reads them back. ``several``: a list filter also
    takes its values as separate words (``--player-names A B``) as well as ``A,B``."""
    for spec in FILTERS:
        parser.add_argument(
            spec.option,
            default=None,
            nargs="+" if several and spec.many else None,
            metavar="A,B" if spec.many else "TYPE",
            help=_filter_help(spec),
        )


def filters_from_args(args: argparse.Namespace) -> MatchFilters:
    """The filters given on the command line (:func:`add_filter_options`) as the client's calls
    take them: a list filter split at its commas, a filter not given left out."""
    filters: dict[str, Any] = {}
    for spec in FILTERS:
        value = getattr(args, spec.argument)
        if value is not None and spec.many:
            words = value if isinstance(value, list) else [value]
            filters[spec.argument] = [part for word in words for part in word.split(",")]
        elif value is not None:
            filters[spec.argument] = value
    # The keys are FILTERS' arguments, which a test holds to MatchFilters' keys.
    return cast(MatchFilters, filters)


class ClientOptions(TypedDict):
    """The command line's options of a Client (beside its URL, offline, progress)."""

    shard: ShardName
    cache_dir: str | None
    rate_limit: str | None
    now: str | None


def client_options(args: argparse.Namespace) -> ClientOptions:
    """The Client options ``fetch`` and ``archive sync`` both take (``--shard`` and the rest)."""
    return {
        "shard": args.shard,
        "cache_dir": args.cache_dir,
        "rate_limit": args.rate_limit,
        "now": args.now,
    }


def check_offline(
    base_url: str | None,
    options: ClientOptions,
    start: str | date | None,
    end: str | date | None,
    **fetch: Unpack[FetchOptions],
) -> None:
    """Check a fetch's arguments before a service starts or a request is sent, as the fetch
    itself checks them: an offline client (which starts no embedded service and sends nothing)
    plans it. Its warnings (a clamped range) are left to the fetch, which gives them once.

    Raises:
        InvalidArgumentError: an argument is invalid.
    """
    from matchkit.client.client import Client

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with Client(base_url, offline=True, progress=False, **options) as check:
            check.plan(start, end, **fetch)


def add_command(
    commands: Subcommands, name: str, *, help: str, description: str, epilog: str
) -> argparse.ArgumentParser:
    """A parser for ``name`` among ``commands`` (a subparsers action), its description wrapped
    and its epilog (the examples) kept as written."""
    return commands.add_parser(
        name,
        help=help,
        description=textwrap.fill(description, width=WIDTH),
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
