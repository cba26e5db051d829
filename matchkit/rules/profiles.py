"""The services of the interface family, each declared once: a :class:`Profile`.

A profile says what a service is: its shards, its retention, its endpoints (a time-windowed
match list, or players and samples), its batch sizes, which endpoints a rate limit applies to,
its error bodies, its telemetry format and how its documents map to the model's columns. The
client, the reference service, the normalizer and the command line read these fields; none of
them asks for a profile by its name: a difference between two services is a field here.

Two profiles: :data:`GAMELOCKER` (the default: ``docs/decisions.md`` decisions 1-20, its rules
read from :mod:`matchkit.rules.windows`, :mod:`matchkit.rules.shards` and
:mod:`matchkit.rules.filters`) and :data:`PUBG` (decision 21, with the facts and sources of
``../shared/pubg/README.md``).

Example:
    >>> get_profile("pubg").player_batch
    10
    >>> get_profile("gamelocker").match_list
    True
    >>> PUBG.checked_shard("steam")
    'steam'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Literal

from matchkit.errors import InvalidArgumentError
from matchkit.rules.columns import GAMELOCKER_COLUMNS, PUBG_COLUMNS, ColumnMap
from matchkit.rules.filters import MAX_LIST_VALUES
from matchkit.rules.ratelimit import DEFAULT_RATE_LIMIT
from matchkit.rules.shards import SHARDS
from matchkit.rules.windows import RETENTION, format_time, parse_time

__all__ = [
    "DEFAULT_PROFILE",
    "GAMELOCKER",
    "PROFILES",
    "PUBG",
    "ErrorStyle",
    "NameDictionaries",
    "Profile",
    "SamplesRule",
    "get_profile",
]

ErrorStyle = Literal["jsonapi", "title-description"]
"""How a service writes an error body: ``jsonapi`` (``{"errors": [{"status", "title",
"detail"}]}``, decision 10) or ``title-description`` (PUBG's documented 404 and 415 bodies,
``{"errors": [{"title": ..., "detail": ...}]}`` as its API answers them; see
:mod:`matchkit.service.pubg.errors`)."""


@dataclass(frozen=True)
class SamplesRule:
    """When a sample of random matches may start (``filter[createdAt-start]``).

    Attributes:
        min_age: a start at least this long before now (PUBG: 24 hours).
        max_age: a start at most this long before now (PUBG: 14 days).
        refresh: how often the service draws a new sample (PUBG: every 24 hours).
    """

    min_age: timedelta
    max_age: timedelta
    refresh: timedelta

    def checked_start(
        self, start: str | datetime, *, now: datetime, parameter: str = "start"
    ) -> datetime:
        """``start`` as a UTC datetime, when the rule allows it at ``now``.

        Raises:
            InvalidArgumentError: it does not parse, is less than :attr:`min_age` before now,
                or more than :attr:`max_age` before now; the message names the rule.
        """
        moment = parse_time(start, parameter=parameter)
        latest, earliest = now - self.min_age, now - self.max_age
        if moment > latest:
            raise InvalidArgumentError(
                f"{parameter} {format_time(moment)} is less than {_hours(self.min_age)} before "
                f"now ({format_time(now)}): a sample starts at least {_hours(self.min_age)} in "
                f"the past; use {format_time(latest)} or earlier, or no start for the latest",
                parameter=parameter,
            )
        if moment < earliest:
            raise InvalidArgumentError(
                f"{parameter} {format_time(moment)} is more than {self.max_age.days} days before "
                f"now ({format_time(now)}): samples go back {self.max_age.days} days; use "
                f"{format_time(earliest)} or later",
                parameter=parameter,
            )
        return moment

    def latest(self, now: datetime) -> datetime:
        """The start of the newest sample at ``now``: the last refresh at least
        :attr:`min_age` ago, on the refresh grid counted from the epoch."""
        seconds = int(self.refresh.total_seconds())
        anchor = int((now - self.min_age).timestamp())
        return datetime.fromtimestamp(anchor - anchor % seconds, tz=now.tzinfo)


@dataclass(frozen=True)
class NameDictionaries:
    """Where a service's names are published apart from the service: one JSON object of
    ``{id: name}`` a kind, at a path under one folder URL (PUBG's ``api-assets`` repository).

    Attributes:
        url: the folder of the dictionaries, ending in ``/``.
        files: kind of id (``map``, ``item``...) -> the dictionary's path under :attr:`url`.
    """

    url: str
    files: Mapping[str, str]


@dataclass(frozen=True, repr=False)
class Profile:
    """One service of the interface family, declared.

    Attributes:
        name: how a user chooses it (``Client(profile=...)``, ``matchkit serve --profile``).
        game: what ``matches.game`` says of its matches when the documents do not (``None``:
            the documents say).
        shards: the shards it serves, in the order its messages list them.
        retention: how long a match stays available.
        match_list: whether it has a time-windowed match list (``/shards/{s}/matches``).
        endpoints: endpoint name -> path template, every endpoint it answers.
        player_batch: the most names or ids one player request takes.
        page_limits: the largest ``page[limit]`` of the match list, by shard (empty without a
            list).
        samples: the rule of ``/samples`` (``None``: no samples endpoint).
        rate_limited: the endpoints a rate limit applies to (the others are free).
        default_rate_limit: the limit a development key gets.
        rate_limit_reset: how ``X-RateLimit-Reset`` is written: ``nanoseconds`` until the
            bucket is full (decision 14) or ``unix-seconds`` (the moment it is, PUBG's).
        keyless: the endpoints that need no API key.
        error_style: how error bodies are written (:data:`ErrorStyle`).
        case_sensitive_names: whether a player name matches only in its own letter case.
        player_lookup_splits: whether the client splits a look-up of more players than
            :attr:`player_batch` into several requests (Gamelocker: decision 19), or refuses it
            before any request (PUBG: each players request spends one of the 10 a minute, so
            a longer list is the caller's choice to split, as the issue's rule says).
        no_players_found: how it answers a players request none of whose names or ids it
            knows: ``empty-list`` (a 200 with an empty ``data``, decision 19) or ``404`` (its
            own error document, "No Players Found Matching Criteria": PUBG's).
        telemetry_format: the format of its telemetry files (``gamelocker``: decision 18's
            ``cursor``/``type``/``dataObject`` events; ``pubg``: ``_T``/``_D`` events).
        title_ids: the ``titleId`` values its documents carry (how the normalizer tells its
            documents when no profile is given; empty: whatever no other profile claims).
        name_dictionaries: where its names are published apart from it
            (:class:`NameDictionaries`), or ``None``: the service's own catalogue
            (the ``catalogue`` endpoint) names its ids.
        columns: how its documents map to the model's columns (:class:`ColumnMap`).
    """

    name: str
    game: str | None
    shards: tuple[str, ...]
    retention: timedelta
    match_list: bool
    endpoints: Mapping[str, str]
    player_batch: int
    page_limits: Mapping[str, int]
    samples: SamplesRule | None
    rate_limited: frozenset[str]
    default_rate_limit: str
    rate_limit_reset: Literal["nanoseconds", "unix-seconds"]
    keyless: frozenset[str]
    error_style: ErrorStyle
    case_sensitive_names: bool
    player_lookup_splits: bool
    no_players_found: Literal["empty-list", "404"]
    telemetry_format: str
    title_ids: tuple[str, ...]
    name_dictionaries: NameDictionaries | None
    columns: ColumnMap = field(repr=False)

    def __repr__(self) -> str:
        # Its name says which one it is; the fields' repr would show frozensets in the order of
        # the run's string hashing (the API reference differed between two builds).
        return f"Profile({self.name!r})"

    def checked_shard(self, shard: object, *, parameter: str = "shard") -> str:
        """``shard`` when this profile serves it.

        Raises:
            InvalidArgumentError: it does not; the message names the profile's shards.
        """
        if isinstance(shard, str) and shard in self.shards:
            return shard
        others = [profile.name for profile in PROFILES.values() if shard in profile.shards]
        hint = f" ({shard!r} is a shard of the {others[0]} profile)" if others else ""
        raise InvalidArgumentError(
            f"{parameter}={shard!r} is not a shard of the {self.name} profile{hint}; use one of "
            f"{', '.join(self.shards)}",
            parameter=parameter,
        )

    def checked_batch(self, values: tuple[str, ...], *, parameter: str) -> tuple[str, ...]:
        """``values`` when one player request takes that many.

        Raises:
            InvalidArgumentError: more than :attr:`player_batch`.
        """
        if len(values) > self.player_batch:
            raise InvalidArgumentError(
                f"{parameter} holds {len(values)} values; one request of the {self.name} "
                f"profile takes at most {self.player_batch} (split the list into requests of "
                f"{self.player_batch})",
                parameter=parameter,
            )
        return values


def _hours(span: timedelta) -> str:
    return f"{span.total_seconds() / 3600:g} hours"


GAMELOCKER = Profile(
    name="gamelocker",
    game=None,
    shards=tuple(SHARDS),
    retention=RETENTION,
    match_list=True,
    endpoints=MappingProxyType(
        {
            "status": "/status",
            "catalogue": "/catalogue",
            "matches": "/shards/{shard}/matches",
            "match": "/shards/{shard}/matches/{match_id}",
            "players": "/shards/{shard}/players",
            "player": "/shards/{shard}/players/{player_id}",
            "telemetry": "/telemetry/{path}",
        }
    ),
    player_batch=MAX_LIST_VALUES,
    page_limits=MappingProxyType({name: shard.max_limit for name, shard in SHARDS.items()}),
    samples=None,
    rate_limited=frozenset({"matches", "match", "players", "player"}),
    default_rate_limit=DEFAULT_RATE_LIMIT,
    rate_limit_reset="nanoseconds",
    keyless=frozenset({"status", "catalogue", "telemetry"}),
    error_style="jsonapi",
    case_sensitive_names=True,
    player_lookup_splits=True,
    no_players_found="empty-list",
    telemetry_format="gamelocker",
    title_ids=(),
    name_dictionaries=None,
    columns=GAMELOCKER_COLUMNS,
)
"""The Gamelocker interface (interface.md, decisions 1-20): the default profile."""

PUBG = Profile(
    name="pubg",
    game="pubg",
    shards=("steam", "kakao", "psn", "xbox", "console", "stadia", "tournament"),
    retention=timedelta(days=14),
    match_list=False,
    endpoints=MappingProxyType(
        {
            "status": "/status",
            "match": "/shards/{shard}/matches/{match_id}",
            "players": "/shards/{shard}/players",
            "player": "/shards/{shard}/players/{player_id}",
            "samples": "/shards/{shard}/samples",
            "seasons": "/shards/{shard}/seasons",
            "telemetry": "/{title}/{shard}/{path}",
        }
    ),
    player_batch=10,
    page_limits=MappingProxyType({}),
    samples=SamplesRule(
        min_age=timedelta(hours=24), max_age=timedelta(days=14), refresh=timedelta(hours=24)
    ),
    rate_limited=frozenset({"players", "player", "samples", "seasons"}),
    default_rate_limit=DEFAULT_RATE_LIMIT,
    rate_limit_reset="unix-seconds",
    keyless=frozenset({"status", "match", "telemetry"}),
    error_style="title-description",
    case_sensitive_names=True,
    player_lookup_splits=False,
    no_players_found="404",
    telemetry_format="pubg",
    title_ids=("bluehole-pubg",),
    # PUBG's own dictionaries (pubg/api-assets; no copy is shipped: the repository has no
    # license file and its README defers to PUBG's terms).
    name_dictionaries=NameDictionaries(
        url="https://raw.githubusercontent.com/pubg/api-assets/master/dictionaries/",
        files=MappingProxyType(
            {
                "map": "telemetry/mapName.json",
                "game_mode": "gameMode.json",
                "damage_causer": "telemetry/damageCauserName.json",
                "damage_type": "telemetry/damageTypeCategory.json",
                "item": "telemetry/item/itemId.json",
                "vehicle": "telemetry/vehicle/vehicleId.json",
            }
        ),
    ),
    columns=PUBG_COLUMNS,
)
"""PUBG's developer API (decision 21)."""

PROFILES: Mapping[str, Profile] = MappingProxyType(
    {profile.name: profile for profile in (GAMELOCKER, PUBG)}
)
"""Every profile by name, the default first."""

DEFAULT_PROFILE = GAMELOCKER
"""The profile used when none is chosen."""


def get_profile(profile: str | Profile | None = None) -> Profile:
    """The profile named ``profile`` (a :class:`Profile` is itself; ``None`` the default).

    Raises:
        InvalidArgumentError: no profile has that name; the message names the known ones.
    """
    if profile is None:
        return DEFAULT_PROFILE
    if isinstance(profile, Profile):
        return profile
    if isinstance(profile, str) and profile.strip().lower() in PROFILES:
        return PROFILES[profile.strip().lower()]
    raise InvalidArgumentError(
        f"profile={profile!r} is not known; use one of {', '.join(PROFILES)}",
        parameter="profile",
    )
