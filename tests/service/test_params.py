"""The service's reading of list parameters before the shared rules (issue 11 items 5, 6, 10)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matchkit.errors import InvalidArgumentError
from matchkit.service.params import (
    MAX_PAGING_VALUE,
    bounded_paging,
    list_query,
    query_items,
)


@given(st.integers(min_value=-MAX_PAGING_VALUE, max_value=MAX_PAGING_VALUE), st.integers(0, 18))
def test_whole_numbers_of_up_to_19_digits_come_back_canonical(value, zeros):
    sign = "-" if value < 0 else ""
    digits = f"{abs(value):0{min(zeros + len(str(abs(value))), 19)}d}"
    params = bounded_paging([("page[offset]", f" {sign}{digits} ")])
    assert params["page[offset]"] == str(value)


@given(st.text(max_size=30))
def test_any_text_is_a_number_or_an_error_naming_the_parameter(text):
    digits = text.strip().removeprefix("-")
    if digits.isascii() and digits.isdigit() and len(digits) <= 19:
        params = bounded_paging([("page[limit]", text)])
        assert params["page[limit]"] == str(int(text.strip()))
    else:
        with pytest.raises(InvalidArgumentError) as raised:
            bounded_paging([("page[limit]", text)])
        assert raised.value.parameter == "page[limit]"
        assert len(str(raised.value)) < 200


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("9223372036854775808", "is too large"),
        ("99999999999999999999", "more than 19 digits"),
        ("0" * 20, "more than 19 digits"),
        ("7" * 4_300, "more than 19 digits"),
        ("7" * 4_301, "more than 19 digits"),
        ("-" + "7" * 100_000, "more than 19 digits"),
    ],
    ids=lambda value: value[:12],
)
def test_long_numbers_are_refused_not_a_crash(text, problem):
    with pytest.raises(InvalidArgumentError, match=problem) as raised:
        bounded_paging([("page[offset]", text)])
    assert raised.value.parameter == "page[offset]"
    assert len(str(raised.value)) < 200


def test_filter_counts_apply_only_where_the_filter_exists():
    seven = ",".join("abcdefg")
    # teamNames is not a global filter: the shared rules name it as unknown there.
    with pytest.raises(InvalidArgumentError) as raised:
        list_query("global", [("filter[teamNames]", seven)])
    assert raised.value.parameter == "filter[teamNames]"
    assert "at most" not in str(raised.value)
    # patchVersion has no limit of 6.
    assert len(list_query("global", [("filter[patchVersion]", seven)]).patch_versions) == 7


def test_server_types_are_upper_cased_and_kept_in_order():
    query = list_query("global", [("filter[serverType]", "private, quick3v3 ,League_2v2")])
    assert query.server_types == ("PRIVATE", "QUICK3V3", "LEAGUE_2V2")


def test_repeated_parameter_is_refused_and_a_long_name_is_cut_short():
    name = "x" * 500
    with pytest.raises(InvalidArgumentError) as raised:
        query_items(f"{name}=1&{name}=2".encode())
    assert raised.value.parameter == name
    assert len(str(raised.value)) < 250
