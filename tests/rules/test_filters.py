"""The filters of a match query are declared once (matchkit.rules.filters); all else derives."""

from __future__ import annotations

import argparse
import dataclasses

from matchkit.cli.options import add_filter_options, filters_from_args
from matchkit.rules.filters import FILTERS, LIMITED_FILTERS, MatchFilters, wire_filters
from matchkit.rules.query import MatchQuery
from matchkit.rules.shards import SHARDS


def test_the_typed_spelling_and_the_table_name_the_same_filters_in_the_same_order() -> None:
    keys = [key for key in MatchFilters.__annotations__ if key != "sort"]
    assert keys == [spec.argument for spec in FILTERS]


def test_the_query_has_a_field_for_each_filter_and_no_other_filter_field() -> None:
    fields = {field.name for field in dataclasses.fields(MatchQuery)}
    assert {spec.argument for spec in FILTERS} <= fields
    others = {"shard", "start", "end", "sort", "limit", "offset", "_names"}
    assert fields - others == {spec.argument for spec in FILTERS}


def test_each_shard_takes_the_filters_the_table_gives_it() -> None:
    for name, shard in SHARDS.items():
        assert dict(shard.filters) == {
            spec.argument: spec.wire for spec in FILTERS if name in spec.shards
        }
        assert shard.filters == wire_filters(name)
    assert set(LIMITED_FILTERS) == {"player_ids", "player_names", "team_names"}


def test_the_command_line_has_an_option_for_each_filter_and_reads_it_back() -> None:
    parser = argparse.ArgumentParser()
    add_filter_options(parser)
    argv: list[str] = []
    for spec in FILTERS:
        argv += [spec.option, "A,B" if spec.many else spec.choices[0]]
    args = parser.parse_args(argv)
    expected = {spec.argument: ["A", "B"] if spec.many else spec.choices[0] for spec in FILTERS}
    assert filters_from_args(args) == expected
    assert filters_from_args(parser.parse_args([])) == {}
