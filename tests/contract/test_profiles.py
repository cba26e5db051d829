"""One contract over every profile: its fields agree with one another, and no code asks for a
profile by its name (a difference between services is a field of the profile)."""

from __future__ import annotations

import ast
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import matchkit
from matchkit.errors import InvalidArgumentError
from matchkit.model.schema import KINDS
from matchkit.rules.filters import MAX_LIST_VALUES
from matchkit.rules.profiles import GAMELOCKER, PROFILES, PUBG, Profile, get_profile
from matchkit.rules.shards import SHARDS
from matchkit.rules.windows import RETENTION

PACKAGE = Path(matchkit.__file__).parent
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


@pytest.fixture(params=sorted(PROFILES))
def profile(request: pytest.FixtureRequest) -> Profile:
    return PROFILES[request.param]


def test_matches_are_found_somehow(profile: Profile) -> None:
    """A profile without a match list has samples or players to find matches by."""
    assert profile.match_list == ("matches" in profile.endpoints)
    if not profile.match_list:
        assert profile.samples is not None or "players" in profile.endpoints
        assert "match" in profile.endpoints
    assert (profile.samples is not None) == ("samples" in profile.endpoints)


def test_page_limits_go_with_the_match_list(profile: Profile) -> None:
    if profile.match_list:
        assert set(profile.page_limits) == set(profile.shards)
        assert all(limit >= 1 for limit in profile.page_limits.values())
    else:
        assert not profile.page_limits


def test_limits_and_keys_name_its_endpoints(profile: Profile) -> None:
    assert profile.rate_limited <= set(profile.endpoints)
    assert profile.keyless <= set(profile.endpoints)
    assert not profile.rate_limited & profile.keyless  # a limit is counted per key
    assert profile.player_batch >= 1
    assert profile.shards
    assert len(set(profile.shards)) == len(profile.shards)
    assert profile.retention > timedelta(0)


def test_samples_lie_within_the_retention(profile: Profile) -> None:
    if profile.samples is not None:
        assert timedelta(0) < profile.samples.min_age < profile.samples.max_age
        assert profile.samples.max_age <= profile.retention


def test_column_maps_use_the_models_kinds(profile: Profile) -> None:
    seen = set()
    for column in profile.columns.columns:
        assert column.kind in KINDS, column
        assert re.fullmatch(r"[a-z][a-z0-9_]*", column.column), column
        assert (column.resource, column.column) not in seen, column
        seen.add((column.resource, column.column))
    assert set(profile.columns.kinds_by_prefix.values()) <= {"registered", "bot", "anonymous"}


def test_title_ids_tell_the_profiles_apart() -> None:
    claimed = [title for profile in PROFILES.values() for title in profile.title_ids]
    assert len(claimed) == len(set(claimed))


def test_the_gamelocker_profile_reads_the_existing_rules() -> None:
    assert GAMELOCKER.shards == tuple(SHARDS)
    assert GAMELOCKER.retention == RETENTION
    assert GAMELOCKER.player_batch == MAX_LIST_VALUES
    assert dict(GAMELOCKER.page_limits) == {name: s.max_limit for name, s in SHARDS.items()}
    assert get_profile() is GAMELOCKER
    assert get_profile(None) is GAMELOCKER


def test_the_pubg_profile_is_decision_21() -> None:
    assert PUBG.shards == ("steam", "kakao", "psn", "xbox", "console", "stadia", "tournament")
    assert PUBG.retention == timedelta(days=14)
    assert not PUBG.match_list
    assert PUBG.player_batch == 10
    assert PUBG.rate_limited == {"players", "player", "samples", "seasons"}
    assert {"match", "telemetry"} <= PUBG.keyless


def test_an_unknown_profile_names_the_known_ones() -> None:
    with pytest.raises(InvalidArgumentError, match="gamelocker, pubg") as caught:
        get_profile("steam")
    assert caught.value.parameter == "profile"
    assert get_profile(" PUBG ") is PUBG
    assert get_profile(PUBG) is PUBG


def test_a_shard_of_another_profile_is_refused_with_a_hint() -> None:
    with pytest.raises(InvalidArgumentError, match="shard of the gamelocker profile"):
        PUBG.checked_shard("global")
    with pytest.raises(InvalidArgumentError, match="use one of global, na"):
        GAMELOCKER.checked_shard("steam")
    assert GAMELOCKER.checked_shard("na") == "na"


def test_more_names_than_a_batch_are_refused() -> None:
    assert PUBG.checked_batch(tuple("abcdefghij"), parameter="names") == tuple("abcdefghij")
    with pytest.raises(InvalidArgumentError, match="at most 10"):
        PUBG.checked_batch(tuple("abcdefghijk"), parameter="names")


def test_the_samples_rule_names_what_is_wrong() -> None:
    rule = PUBG.samples
    assert rule is not None
    assert rule.checked_start("2026-11-19T00:00:00Z", now=NOW) == datetime(2026, 11, 19, tzinfo=UTC)
    with pytest.raises(InvalidArgumentError, match="at least 24 hours in the past"):
        rule.checked_start(NOW - timedelta(hours=23), now=NOW)
    with pytest.raises(InvalidArgumentError, match="go back 14 days"):
        rule.checked_start(NOW - timedelta(days=15), now=NOW)
    assert rule.latest(NOW) == datetime(2026, 11, 19, tzinfo=UTC)


def _name_tests(path: Path) -> list[str]:
    """Comparisons of a value with a profile's name (``x == "pubg"``, ``"pubg" in ...``)."""
    names = set(PROFILES)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(isinstance(o, ast.Constant) and o.value in names for o in operands):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


def test_no_code_asks_for_a_profile_by_its_name() -> None:
    found = [hit for path in sorted(PACKAGE.rglob("*.py")) for hit in _name_tests(path)]
    assert found == []


def test_a_profiles_own_columns_are_never_categories(profile: Profile) -> None:
    """Combining frames keeps an extra column's dtype only when it does not depend on the
    values; a member mapped onto a model column (matchType) takes the model's kind."""
    from matchkit.model.schema import TABLES

    model = {(s.resource_type, c.name) for s in TABLES.values() for c in s.columns}
    for column in profile.columns.columns:
        if (column.resource, column.column) not in model:
            assert column.kind != "category", column
