"""Bad input to the public functions (hypothesis): a result, or a MatchkitError that says why.

Each test feeds arbitrary values (wrong types, out-of-range numbers, odd text, extreme dates)
to one public function and accepts two outcomes only: a result, or an
:class:`~matchkit.errors.InvalidArgumentError` (a MatchkitError and a ValueError) whose message
names the argument at fault. A TypeError, KeyError, OverflowError or AttributeError from deep
inside fails the test.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchkit import CacheMissError, InvalidArgumentError, MatchkitError, to_frames
from matchkit.analysis import (
    cosmetic_summary,
    cosmetic_usage,
    cosmetic_win_rates,
    duration_summary,
    side_win_rates,
)
from matchkit.client.client import Client
from matchkit.rules.query import MatchQuery, get_shard
from matchkit.rules.windows import TimeWindow, parse_time, resolve_window, split_window
from matchkit.sampledata.dataset import open_dataset
from tests.builders.matches import arena_match, player, royale_match

SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
UNREACHABLE = "http://127.0.0.1:9"  # the discard port: nothing listens; no test sends to it

extreme_datetimes = st.one_of(
    st.datetimes(timezones=st.sampled_from([UTC, timezone(timedelta(hours=14)), None])),
    st.sampled_from(
        [
            datetime.min,
            datetime.max,
            datetime.min.replace(tzinfo=timezone(timedelta(hours=-5))),
            datetime.max.replace(tzinfo=timezone(timedelta(hours=5))),
            datetime(1970, 1, 1, tzinfo=UTC),
        ]
    ),
)
time_texts = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "0001-01-01T00:00:00+01:00",
            "9999-12-31T23:59:59-01:00",
            "0001-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z",
            "2026-10-01",
            "2026-10-01T00:00:00 0100",
            "2026-02-30T00:00:00Z",
            "",
            " ",
        ]
    ),
)
anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=20),
    st.binary(max_size=10),
    st.lists(st.one_of(st.integers(), st.text(max_size=8), st.none()), max_size=4),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
    st.sets(st.text(max_size=5), max_size=3),
    st.just(object()),
    st.just(float("nan")),
    st.just(math.inf),
    extreme_datetimes,
    time_texts,
)


def expect_result_or_invalid_argument(call, *, parameters=None) -> Any:
    """Run ``call``; it returns, or raises InvalidArgumentError naming one of ``parameters``."""
    try:
        return call()
    except InvalidArgumentError as raised:
        error = raised
    message = str(error)
    assert message
    if parameters is not None:
        assert error.parameter in parameters, (error.parameter, message)
        assert error.parameter in message, message
    return error


# -- windows ---------------------------------------------------------------------------------


@SETTINGS
@given(value=anything)
def test_parse_time(value):
    result = expect_result_or_invalid_argument(
        lambda: parse_time(value, parameter="start"), parameters={"start"}
    )
    if isinstance(result, datetime):
        assert result.utcoffset() == timedelta(0)


@SETTINGS
@given(
    start=st.one_of(st.none(), extreme_datetimes, time_texts),
    end=st.one_of(st.none(), extreme_datetimes, time_texts),
    now=st.one_of(extreme_datetimes, time_texts),
    lookback=st.timedeltas(),
    from_end=st.booleans(),
)
def test_resolve_window(start, end, now, lookback, from_end):
    result = expect_result_or_invalid_argument(
        lambda: resolve_window(
            start, end, now=now, default_lookback=lookback, lookback_from_end=from_end
        ),
        parameters={"start", "end", "now", "default_lookback"},
    )
    if isinstance(result, TimeWindow):
        assert result.start < result.end


@SETTINGS
@given(
    start=extreme_datetimes,
    span=st.timedeltas(min_value=timedelta(seconds=1), max_value=timedelta(days=400)),
    max_span=st.one_of(st.timedeltas(), anything),
)
def test_split_window(start, span, max_span):
    start = start.replace(tzinfo=UTC) if start.tzinfo is None else start

    def split():
        return split_window(TimeWindow(start, start + span), max_span=max_span)

    try:
        start + span
    except OverflowError:
        return  # no such window can exist
    result = expect_result_or_invalid_argument(split, parameters={"max_span"})
    if isinstance(result, list):
        assert result[0].start == start
        assert result[-1].end == start + span


# -- queries ---------------------------------------------------------------------------------

QUERY_ARGUMENTS = (
    "start",
    "end",
    "player_ids",
    "patch_versions",
    "server_types",
    "ranking_type",
    "player_names",
    "team_names",
    "game_modes",
    "sort",
    "limit",
    "offset",
)


@SETTINGS
@given(
    shard=st.one_of(st.sampled_from(["global", "na"]), anything),
    arguments=st.dictionaries(st.sampled_from(QUERY_ARGUMENTS), anything, max_size=4),
)
def test_match_query_create(shard, arguments):
    result = expect_result_or_invalid_argument(
        lambda: MatchQuery.create(shard, **arguments), parameters={"shard", *QUERY_ARGUMENTS}
    )
    if isinstance(result, MatchQuery):
        # A query that is valid goes over the wire and back unchanged.
        assert MatchQuery.from_params(result.shard, result.to_params()) == result
        now = datetime(2026, 10, 31, tzinfo=UTC)
        expect_result_or_invalid_argument(lambda: result.window(now=now))


WIRE = (
    "page[limit]",
    "page[offset]",
    "sort",
    "filter[createdAt-start]",
    "filter[createdAt-end]",
    "filter[playerIds]",
    "filter[serverType]",
    "filter[rankingType]",
    "filter[gameMode]",
)


@SETTINGS
@given(
    shard=st.sampled_from(["global", "na"]),
    params=st.dictionaries(
        st.one_of(st.sampled_from(WIRE), st.text(max_size=10)),
        st.one_of(st.text(max_size=30), time_texts),
        max_size=4,
    ),
)
def test_match_query_from_params(shard, params):
    result = expect_result_or_invalid_argument(lambda: MatchQuery.from_params(shard, params))
    if isinstance(result, InvalidArgumentError):
        assert result.parameter in params


@SETTINGS
@given(name=anything)
def test_get_shard(name):
    expect_result_or_invalid_argument(lambda: get_shard(name), parameters={"shard"})


# -- the client ------------------------------------------------------------------------------

CLIENT_OPTIONS = ("api_key", "shard", "offline", "rate_limit", "now", "progress", "timeout")


@SETTINGS
@given(
    base_url=st.one_of(st.just(UNREACHABLE), st.text(min_size=1, max_size=20)),
    options=st.dictionaries(st.sampled_from(CLIENT_OPTIONS), anything, max_size=3),
)
def test_client_constructor(tmp_path, base_url, options):
    if not base_url:
        base_url = UNREACHABLE  # "no base URL" starts the embedded service: not this test
    client = expect_result_or_invalid_argument(
        lambda: Client(base_url, cache_dir=tmp_path / "cache", **options),
        parameters={"base_url", "cache_dir", *CLIENT_OPTIONS},
    )
    if isinstance(client, Client):
        assert "Client(" in repr(client)
        client.close()


# Values the constructor once let through to fail later, or failed on deep inside (found by
# this suite; regression cases, named by what used to happen).
BAD_CLIENT_ARGUMENTS = [
    pytest.param({"base_url": 5}, id="base_url-int-AttributeError"),
    pytest.param({"base_url": b"http://x"}, id="base_url-bytes-TypeError"),
    pytest.param({"base_url": ["http://x"]}, id="base_url-list-AttributeError"),
    pytest.param({"base_url": "http://"}, id="base_url-without-host-accepted"),
    pytest.param({"cache_dir": 5}, id="cache_dir-int-TypeError"),
    pytest.param({"cache_dir": b"/tmp/x"}, id="cache_dir-bytes-TypeError"),
    pytest.param({"api_key": 5}, id="api_key-int-accepted"),
    pytest.param({"api_key": b"k"}, id="api_key-bytes-accepted"),
    pytest.param({"api_key": "two\nlines"}, id="api_key-newline-accepted"),
    pytest.param({"timeout": math.nan}, id="timeout-nan-accepted"),
    pytest.param({"timeout": math.inf}, id="timeout-inf-accepted"),
]


@pytest.mark.parametrize("arguments", BAD_CLIENT_ARGUMENTS)
def test_client_constructor_rejects_bad_values(tmp_path, arguments):
    arguments = {"base_url": UNREACHABLE, "cache_dir": tmp_path / "cache", **arguments}
    with pytest.raises(InvalidArgumentError) as raised:
        Client(arguments.pop("base_url"), **arguments).close()
    assert raised.value.parameter in {"base_url", "cache_dir", "api_key", "timeout"}


def test_client_constructor_with_an_unusable_cache_folder(tmp_path):
    (tmp_path / "file").write_text("a file, not a folder")
    with pytest.raises(MatchkitError, match="cannot hold the HTTP cache") as raised:
        Client(UNREACHABLE, cache_dir=tmp_path / "file" / "cache").close()
    assert raised.value.parameter == "cache_dir"


CALL_ARGUMENTS = (
    "player_ids",
    "patch_versions",
    "server_types",
    "ranking_type",
    "player_names",
    "team_names",
    "game_modes",
    "sort",
    "max_matches",
    "page_limit",
)


@pytest.fixture(scope="module")
def offline_client(tmp_path_factory):
    client = Client(
        UNREACHABLE,
        cache_dir=tmp_path_factory.mktemp("bad-input-cache"),
        now="2026-10-31T00:00:00Z",
        progress=False,
        offline=True,
    )
    yield client
    client.close()


# A range clamped to the retention is a result, said by its warning (which
# tests/regressions/test_clamped_range_is_silent.py checks): here it is expected, not noise.
@pytest.mark.filterwarnings("ignore::matchkit.client.client.RangeClampedWarning")
@SETTINGS
@given(
    start=st.one_of(st.none(), anything),
    end=st.one_of(st.none(), anything),
    arguments=st.dictionaries(st.sampled_from(CALL_ARGUMENTS), anything, max_size=3),
)
def test_client_plan(offline_client, start, end, arguments):
    # plan() takes the arguments of matches() and checks them the same way, sending nothing.
    expect_result_or_invalid_argument(
        lambda: offline_client.plan(start, end, **arguments),
        parameters={"start", "end", *CALL_ARGUMENTS},
    )


@pytest.mark.parametrize(
    "arguments",
    [
        {"start": 5},
        {"end": "yesterday"},
        {"sort": "duration"},
        {"max_matches": 0},
        {"max_matches": 2.5},
        {"page_limit": 6},
        {"page_limit": "5"},
        {"server_types": ["QUICK 9V9"]},
        {"ranking_type": ["RANKED"]},
        {"team_names": ["a"]},  # an na filter on global
        {"player_ids": [1, 2]},
    ],
)
@pytest.mark.parametrize("method", ["matches", "iter_pages"])
def test_client_calls_check_arguments_before_any_request(offline_client, method, arguments):
    arguments = dict(arguments)  # the parameter is shared by both methods' runs
    start = arguments.pop("start", None)
    end = arguments.pop("end", None)
    with pytest.raises(InvalidArgumentError) as raised:
        getattr(offline_client, method)(start, end, **arguments)
    assert raised.value.parameter in {"start", "end", *arguments}
    assert offline_client.transport.network_requests == 0
    assert offline_client.transport.cache_hits == 0


@SETTINGS
@given(match_id=st.one_of(anything, st.text(max_size=5).map(lambda text: text + "/x")))
def test_client_get_match_argument(offline_client, match_id):
    # A well-formed id goes to the (offline, empty) cache: a miss, never anything else.
    with pytest.raises((InvalidArgumentError, CacheMissError)) as raised:
        offline_client.get_match(match_id)
    if isinstance(raised.value, InvalidArgumentError):
        assert raised.value.parameter == "match_id"


@SETTINGS
@given(match_ids=st.one_of(anything, st.lists(anything, max_size=3)))
def test_client_get_matches_argument(offline_client, match_ids):
    # Well-formed ids go to the (offline, empty) cache: a miss; no ids at all, no matches.
    try:
        empty = not isinstance(match_ids, str | bytes) and not list(match_ids)
    except TypeError:  # not iterable
        empty = False
    if empty:
        assert len(offline_client.get_matches(match_ids)) == 0
        return
    with pytest.raises((InvalidArgumentError, CacheMissError)) as raised:
        offline_client.get_matches(match_ids)
    if isinstance(raised.value, InvalidArgumentError):
        assert raised.value.parameter in {"match_ids", "match_id"}
    assert offline_client.transport.network_requests == 0


# -- analysis --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def frames():
    return to_frames(
        [
            arena_match("A1", winner=1, rounds=[(60, 1), (70, 1)]),
            arena_match("A2", winner=2, participants=[[player("p", mount=5)], [player("q")]]),
            royale_match("R1", teams=3),
        ]
    )


by_values = st.one_of(
    st.none(),
    st.sampled_from(["server_type", "date", "week", "month", "actor", "region", "nope", ""]),
    st.lists(st.sampled_from(["server_type", "date", "nope", "patch_version"]), max_size=3),
    anything,
)


@SETTINGS
@given(
    by=by_values,
    level=st.one_of(st.sampled_from(["match", "round"]), anything),
    confidence=anything,
)
def test_side_win_rates(frames, by, level, confidence):
    result = expect_result_or_invalid_argument(
        lambda: side_win_rates(frames, by, level=level, confidence=confidence),
        parameters={"by", "level", "confidence"},
    )
    if isinstance(result, pd.DataFrame):
        assert (
            (result["ci_low"] <= result["win_rate"]) & (result["win_rate"] <= result["ci_high"])
        ).all()


@SETTINGS
@given(by=by_values, level=st.one_of(st.sampled_from(["match", "round"]), anything))
def test_duration_summary(frames, by, level):
    expect_result_or_invalid_argument(
        lambda: duration_summary(frames, by, level=level), parameters={"by", "level"}
    )


kinds = st.one_of(
    st.sampled_from(["mount", "outfit", "emote", "attachment", "hat"]),
    st.lists(st.sampled_from(["mount", "outfit", "hat"]), max_size=3),
    anything,
)


@SETTINGS
@given(kind=kinds, by=by_values, top=st.one_of(st.none(), anything))
def test_cosmetic_functions(frames, kind, by, top):
    expect_result_or_invalid_argument(
        lambda: cosmetic_usage(frames, kind, by, top=top), parameters={"kind", "by", "top"}
    )
    expect_result_or_invalid_argument(
        lambda: cosmetic_summary(frames, kind, by), parameters={"kind", "by"}
    )
    expect_result_or_invalid_argument(
        lambda: cosmetic_win_rates(frames, kind, by), parameters={"kind", "by"}
    )


@pytest.mark.parametrize("data", [None, 5, "frames", {"matches": []}, pd.DataFrame({"x": [1]})])
@pytest.mark.parametrize(
    "function", [side_win_rates, duration_summary, cosmetic_usage, cosmetic_summary]
)
def test_analysis_of_something_that_is_not_frames(function, data):
    with pytest.raises(InvalidArgumentError) as raised:
        function(data)
    assert raised.value.parameter in ("frames", "data")


# -- data sets -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make", [lambda tmp: tmp / "missing", lambda tmp: tmp, lambda tmp: tmp / "f"]
)
def test_open_dataset_of_a_folder_that_is_not_one(tmp_path, make):
    (tmp_path / "f").write_text("not a folder")
    with pytest.raises(MatchkitError, match=r"data set|manifest"):
        open_dataset(make(tmp_path))


def test_open_dataset_with_a_bad_manifest(tmp_path):
    (tmp_path / "manifest.json").write_text("[1, 2]")
    with pytest.raises(MatchkitError, match="manifest"):
        open_dataset(Path(tmp_path))
