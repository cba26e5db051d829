"""The rules every argument check shares (matchkit.rules.checks) and their users."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matchkit.errors import InvalidArgumentError
from matchkit.rules.checks import checked_choice, checked_positive_number, checked_whole_number
from matchkit.rules.query import MatchQuery
from matchkit.rules.ratelimit import RateLimit
from matchkit.telemetry.download import check_on_error

NOT_NUMBERS = [True, False, "3", None, 2.0j, [1]]


@given(st.integers(min_value=-50, max_value=50))
def test_a_whole_number_passes_within_its_bounds_and_fails_outside(value):
    inside = -10 <= value <= 10
    if inside:
        assert checked_whole_number(value, low=-10, high=10, parameter="n", message="m") == value
    else:
        with pytest.raises(InvalidArgumentError):
            checked_whole_number(value, low=-10, high=10, parameter="n", message="m")


@pytest.mark.parametrize("value", [*NOT_NUMBERS, 1.0, 1.5])
def test_a_whole_number_is_an_int_and_never_a_bool(value):
    with pytest.raises(InvalidArgumentError) as caught:
        checked_whole_number(value, parameter="count", message="count must be whole")
    assert str(caught.value) == "count must be whole"
    assert caught.value.parameter == "count"
    assert isinstance(caught.value, ValueError)


def test_a_whole_number_without_bounds_takes_any_int():
    assert checked_whole_number(-(10**30), parameter="seed", message="m") == -(10**30)


@pytest.mark.parametrize("value", [1, 0.5, 1e-300, 10**9, 10**400])
def test_a_positive_number_is_returned_as_given(value):
    result = checked_positive_number(value, parameter="x", message="m")
    assert result == value
    assert type(result) is type(value)  # an int stays an int


@pytest.mark.parametrize("value", [0, -1, -0.5, math.inf, -math.inf, math.nan, *NOT_NUMBERS])
def test_a_positive_number_is_finite_and_above_zero(value):
    with pytest.raises(InvalidArgumentError) as caught:
        checked_positive_number(value, parameter="timeout", message="timeout must be > 0")
    assert caught.value.parameter == "timeout"


def test_a_whole_positive_number_refuses_a_float():
    assert checked_positive_number(3, parameter="x", message="m", whole=True) == 3
    with pytest.raises(InvalidArgumentError):
        checked_positive_number(3.0, parameter="x", message="m", whole=True)


def test_the_query_and_the_rate_limit_use_the_shared_rules():
    with pytest.raises(InvalidArgumentError, match="offset=True must be a whole number >= 0"):
        MatchQuery.create("global", offset=True)
    with pytest.raises(InvalidArgumentError, match="out of range"):
        MatchQuery.create("na", limit=51)
    with pytest.raises(InvalidArgumentError, match="requests=True must be a positive"):
        RateLimit(True)
    assert RateLimit(10.0).requests == 10  # whole numbers stay ints (shown as "10")


@pytest.mark.parametrize("value", ["raise", "skip"])
def test_a_choice_is_returned_as_the_choice(value):
    assert checked_choice(value, ("raise", "skip"), parameter="x", message="m") is value


@pytest.mark.parametrize("value", ["ignore", "RAISE", None, ["raise"], {"skip": 1}, b"raise", 1])
def test_anything_else_is_refused_with_the_callers_message(value):
    with pytest.raises(InvalidArgumentError) as caught:
        checked_choice(value, ("raise", "skip"), parameter="on_error", message="use raise or skip")
    assert str(caught.value) == "use raise or skip"
    assert caught.value.parameter == "on_error"


def test_a_choice_has_the_type_of_the_choices():
    assert checked_choice(1, (1, 2), parameter="x", message="m") == 1
    for value in (True, 1.0):  # equal to 1, but not an int choice
        with pytest.raises(InvalidArgumentError):
            checked_choice(value, (1, 2), parameter="x", message="m")


def test_on_error_is_checked_once_for_the_client_and_the_downloader():
    assert check_on_error("skip") == "skip"
    with pytest.raises(InvalidArgumentError, match="on_error='ignore' must be 'raise' or 'skip'"):
        check_on_error("ignore")
