"""A list call's way from its arguments to a plan, and what it tells the caller on the way.

:meth:`matchkit.Client.plan`, :meth:`~matchkit.Client.iter_pages`,
:meth:`~matchkit.Client.matches` and :meth:`~matchkit.Client.player_matches` all start here
(:meth:`ListPlanner.plan`):

1. the arguments are checked before any request (:func:`matchkit.client.arguments.checked_query`),
   and a server type the interface does not list is named once per client
   (:class:`matchkit.client.warnings.UnlistedValueWarning`);
2. the range is planned at the client's now (:func:`matchkit.client.plan.make_plan`), the
   cache marking the requests it would answer;
3. a bound the time rules moved is said (:class:`matchkit.client.warnings.RangeClampedWarning`);
4. a range that reaches into the last hours the service may still fill is said
   (:class:`matchkit.client.warnings.ProvisionalRangeWarning`: decision 20, matches are listed
   once ended and ingested).

Each warning points at the caller's line: the public call is one frame above
:meth:`ListPlanner.plan`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from datetime import date, datetime

from matchkit.client.arguments import FetchOptions, checked_max_matches, checked_query
from matchkit.client.plan import FetchPlan, make_plan
from matchkit.client.settings import ClientSettings
from matchkit.client.transport import Transport
from matchkit.client.warnings import (
    ProvisionalRangeWarning,
    RangeClampedWarning,
    UnlistedValueWarning,
    clamp_notice,
    provisional_notice,
)
from matchkit.errors import InvalidArgumentError
from matchkit.rules.profiles import Profile
from matchkit.rules.query import SERVER_TYPES, MatchQuery, unlisted_server_types

__all__ = ["ListPlanner"]

_CALLER = 3
"""The caller's frame, seen from :meth:`ListPlanner.plan`: the caller, the public call, here."""


def require_match_list(profile: Profile) -> None:
    """Refuse a fetch by time where the service has no match list, saying how its matches are
    found (never an empty frame: on PUBG, a window with "no matches" would be a lie).

    Raises:
        InvalidArgumentError: ``profile`` has no match list.
    """
    if profile.match_list:
        return
    raise InvalidArgumentError(
        f"the {profile.name} profile's service has no match list, so matches(start, end) "
        "cannot find its matches; find them from players (client.players(names=[...]), then "
        "client.player_matches(player_id)), from samples (client.samples(start=None)), or by "
        "id (client.get_matches(ids))",
        parameter="start",
    )


class ListPlanner:
    """Plans the list calls of one client (see the module).

    Args:
        settings: the client's settings (its shard and rate limit).
        transport: the client's transport (its cache marks planned requests).
        now: the client's now.
    """

    def __init__(
        self, settings: ClientSettings, transport: Transport, now: Callable[[], datetime]
    ) -> None:
        self.settings = settings
        self.transport = transport
        self.now = now
        self._warned: set[str] = set()

    def plan(
        self, start: str | date | None, end: str | date | None, options: FetchOptions
    ) -> FetchPlan:
        """The plan of a call's arguments, after the notices it calls for.

        Raises:
            InvalidArgumentError: an argument is invalid (before any request), or the
                profile's service has no match list (PUBG): the message says how matches
                are found there.
        """
        require_match_list(self.settings.profile)
        query = self._query(start, end, options)
        plan = make_plan(
            query,
            now=self.now(),
            max_matches=checked_max_matches(options.get("max_matches")),
            rate_limit=self.settings.rate_limit,
            is_cached=lambda path, params: self.transport.lookup(path, params) is not None,
            settle=self.settings.settle,
        )
        notice = clamp_notice(query, plan.whole, now=plan.now)
        if notice is not None:
            warnings.warn(notice, RangeClampedWarning, stacklevel=_CALLER)
        provisional = plan.provisional
        if provisional is not None:
            warnings.warn(
                provisional_notice(provisional, settle=plan.settle),
                ProvisionalRangeWarning,
                stacklevel=_CALLER,
            )
        return plan

    def _query(
        self, start: str | date | None, end: str | date | None, options: FetchOptions
    ) -> MatchQuery:
        """Check a call's arguments (before any request) and warn once about unlisted values."""
        query = checked_query(self.settings.shard, start, end, options)
        unlisted = [value for value in unlisted_server_types(query) if value not in self._warned]
        if unlisted:
            self._warned.update(unlisted)
            warnings.warn(
                f"server_types {', '.join(unlisted)} not listed by the interface "
                f"({', '.join(SERVER_TYPES)}); sent as given, they match what the service has, "
                "perhaps nothing: check for a typo",
                UnlistedValueWarning,
                stacklevel=_CALLER + 1,
            )
        return query
