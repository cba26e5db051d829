"""Samples and seasons (PUBG's ``/samples`` and ``/seasons``): what :meth:`matchkit.Client.samples`
and :meth:`matchkit.Client.seasons` ask, each answer checked against its request.

A service without a match list (PUBG) offers, instead, a random sample of match ids per platform,
refreshed every day (the profile's :class:`matchkit.rules.profiles.SamplesRule`): a start given
is checked against that rule, by the service's clock, before any request. An answer is checked
before it is used or cached (:func:`sample_check`, :func:`seasons_check`): its ``data`` is one
``sample`` resource (a list of ``season`` resources), every shard it names (``shardId``, its own
link) is the shard asked, and a sample asked from a start is the sample of that day (its
``createdAt`` within one refresh of the start). A refused answer is retried like a 5xx, never
cached, then a :class:`matchkit.errors.ServiceError` saying what disagreed.

Example:
    >>> with Client(profile="pubg", progress=False) as client:  # doctest: +SKIP
    ...     frames = client.samples()  # yesterday's sample: its match ids, then its matches
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from matchkit.client.checks import shard_disagreements
from matchkit.client.responses import BadAnswerError
from matchkit.errors import InvalidArgumentError
from matchkit.rules.profiles import Profile
from matchkit.rules.windows import format_time, parse_time

if TYPE_CHECKING:
    from matchkit.client.request import Fetched
    from matchkit.client.transport import Transport

__all__ = [
    "SAMPLE_EXPIRY",
    "SEASONS_EXPIRY",
    "fetch_sample",
    "fetch_sample_ids",
    "fetch_seasons",
    "sample_check",
    "sample_match_ids",
    "seasons_check",
]

SAMPLE_EXPIRY = timedelta(hours=1)
"""How long a sample asked without a start is kept: the newest changes once a day, and an hour
late is the most a user sees of yesterday's sample as today's."""
SEASONS_EXPIRY = timedelta(days=1)
"""How long the list of seasons is kept: a season lasts weeks."""
_START = "filter[createdAt-start]"
_SHOWN = 3


def checked_sample_start(
    profile: Profile, start: str | datetime | None, *, now: Callable[[], datetime]
) -> datetime | None:
    """``start`` as the profile's samples rule allows it at the service's ``now()`` (asked only
    when a start is given), or ``None`` for the newest sample.

    Raises:
        InvalidArgumentError: the profile has no samples, or ``start`` breaks its rule (less
            than 24 hours ago, more than 14 days back on PUBG); the message names the rule.
    """
    rule = profile.samples
    if rule is None:
        raise InvalidArgumentError(
            f"the {profile.name} profile has no samples (/samples); its matches are listed by "
            "time: use client.matches(start, end)",
            parameter="start",
        )
    if start is None:
        return None
    return rule.checked_start(start, now=now(), parameter="start")


def sample_check(
    shard: str, start: datetime | None, refresh: timedelta
) -> Callable[[Fetched], bytes]:
    """The parse hook of ``GET /shards/<shard>/samples[?filter[createdAt-start]=start]``: the
    body, once it is one sample of ``shard`` (of the day of ``start``, when given).

    Raises:
        BadAnswerError: another shard's sample, one of another day, or no ``createdAt``.
    """

    def parse(fetched: Fetched) -> bytes:
        head = fetched.head or {}
        wrong = shard_disagreements(head, shard)
        data = head.get("data")
        attributes = data.get("attributes") if isinstance(data, dict) else None
        named = attributes.get("shardId") if isinstance(attributes, dict) else None
        if named is not None and named != shard:
            wrong.append(f"the sample has shardId {named!r}, not {shard}")
        if wrong:
            raise BadAnswerError("a sample of another shard: " + "; ".join(wrong[:_SHOWN]))
        created = attributes.get("createdAt") if isinstance(attributes, dict) else None
        try:
            if not isinstance(created, str):
                raise InvalidArgumentError("not a text", parameter="createdAt")
            moment = parse_time(created, parameter="createdAt")
        except InvalidArgumentError:
            raise BadAnswerError(f"a sample whose createdAt is {created!r}, not a time") from None
        if start is not None and abs(moment - start) >= refresh:
            raise BadAnswerError(
                f"a sample created {format_time(moment)}, where the sample of "
                f"{format_time(start)} was asked"
            )
        return fetched.require_body()

    return parse


def seasons_check(shard: str) -> Callable[[Fetched], bytes]:
    """The parse hook of ``GET /shards/<shard>/seasons``: the body, once nothing in it names
    another shard.

    Raises:
        BadAnswerError: its own link names another shard.
    """

    def parse(fetched: Fetched) -> bytes:
        wrong = shard_disagreements(fetched.head or {}, shard)
        if wrong:
            raise BadAnswerError("seasons of another shard: " + "; ".join(wrong[:_SHOWN]))
        return fetched.require_body()

    return parse


def fetch_sample(
    transport: Transport, shard: str, start: datetime | None, *, profile: Profile
) -> bytes:
    """The sample document of ``shard`` from ``start`` (``None``: the newest), checked."""
    rule = profile.samples
    assert rule is not None  # checked_sample_start refused a profile without samples
    params = None if start is None else {_START: format_time(start)}
    # A sample asked by its start never changes: kept as long as the service keeps it.
    expiry = SAMPLE_EXPIRY if start is None else rule.max_age
    return transport.get(
        f"/shards/{shard}/samples",
        params,
        kind="samples",
        expire_after=expiry,
        parse=sample_check(shard, start, rule.refresh),
    )


def fetch_sample_ids(
    transport: Transport, shard: str, start: datetime | None, *, profile: Profile
) -> list[str]:
    """The match ids the sample of ``shard`` from ``start`` lists (checked), each once in the
    order listed, without fetching the matches (an archive fetches only those it lacks)."""
    from matchkit.normalize.pipeline import to_frames

    body = fetch_sample(transport, shard, start, profile=profile)
    return sample_match_ids(to_frames([body], profile=profile).sample_matches)


def sample_match_ids(frames_sample_matches: object) -> list[str]:
    """The match ids a sample lists, each once in the order listed (``sample_matches``)."""
    import pandas as pd

    assert isinstance(frames_sample_matches, pd.DataFrame)
    return list(dict.fromkeys(frames_sample_matches["match_id"].astype(str)))


def fetch_seasons(transport: Transport, shard: str) -> bytes:
    """The seasons document of ``shard``, checked."""
    return transport.get(
        f"/shards/{shard}/seasons",
        kind="seasons",
        expire_after=SEASONS_EXPIRY,
        parse=seasons_check(shard),
    )
