"""What the commands' parsers share: the width of their text, how a (sub)command's parser is
made, and the filters of a match query as options (``fetch`` and ``archive sync``)."""

from __future__ import annotations

import argparse
import textwrap
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from matchkit.rules.query import MatchFilters

__all__ = ["FILTER_OPTIONS", "WIDTH", "add_command", "query_filters"]

WIDTH = 96
"""The width descriptions are wrapped to."""

FILTER_OPTIONS = (
    ("player-ids", "ID1,ID2", "global and na"),
    ("patch-versions", "2.9,2.10", "global"),
    ("server-types", "QUICK2V2,QUICK3V3", "global"),
    ("player-names", "alice,bob", "na"),
    ("team-names", "red,blue", "na"),
    ("game-modes", "casual,ranked", "na"),
)
"""Each list filter of a match query: its option name, an example value and its shards."""


def query_filters(args: argparse.Namespace) -> MatchFilters:
    """The filters given on the command line (lists split at commas), as the client takes them;
    a filter not given is left out."""
    filters: dict[str, object] = {}
    for name, _, _ in FILTER_OPTIONS:
        value = getattr(args, name.replace("-", "_"))
        if value is not None:
            filters[name.replace("-", "_")] = value.split(",")
    if args.ranking_type is not None:
        filters["ranking_type"] = args.ranking_type
    # Each name is a key of MatchFilters (tests/test_bad_input.py pins FILTER_OPTIONS to them).
    return cast("MatchFilters", filters)


def add_command(commands, name: str, *, help: str, description: str, epilog: str):
    """A parser for ``name`` among ``commands`` (a subparsers action), its description wrapped
    and its epilog (the examples) kept as written."""
    return commands.add_parser(
        name,
        help=help,
        description=textwrap.fill(description, width=WIDTH),
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
