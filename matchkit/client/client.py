"""The client: fetch match records from a match-data service and return MatchFrames.

:class:`Client` is the one entry point. It applies the time rules itself, splits a range into
windows of at most 28 days, pages each window with the largest page the shard allows, and
reads everything through a cached, rate-limited session (:mod:`matchkit.client.cache`,
:mod:`matchkit.client.transport`). With no base URL configured it serves the committed sample data
set from an embedded reference service on loopback.

Example:
    >>> with Client(progress=False) as client:  # doctest: +SKIP
    ...     frames = client.matches("2026-07-03", "2026-10-31")
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack

import orjson
from tqdm.auto import tqdm

from matchkit.client.arguments import (
    FetchOptions,
    checked_api_key,
    checked_match_ids,
    match_path_segment,
)
from matchkit.client.cache import MATCH_EXPIRY, STATUS_EXPIRY, CacheInfo, cache_info, clear_cache
from matchkit.client.catalogue import CATALOGUE_PATH, catalogue_parser
from matchkit.client.checks import match_id_check
from matchkit.client.connection import connect
from matchkit.client.dictionaries import fetch_dictionaries
from matchkit.client.listing import ListPlanner
from matchkit.client.pager import Pager, ordered_frames
from matchkit.client.plan import FetchPlan, list_path
from matchkit.client.players import checked_player_id, fetch_player, fetch_players
from matchkit.client.retrying import RetryPolicy
from matchkit.client.samples import (
    checked_sample_start,
    fetch_sample,
    fetch_seasons,
    sample_match_ids,
)
from matchkit.client.settings import ClientSettings
from matchkit.client.status import ServiceStatus, read_status
from matchkit.client.warnings import RangeClampedWarning, UnlistedValueWarning
from matchkit.errors import InvalidArgumentError
from matchkit.rules.profiles import Profile
from matchkit.rules.windows import format_time, parse_time

if TYPE_CHECKING:
    import pandas as pd

    from matchkit.model.frames import MatchFrames
    from matchkit.names import Names
    from matchkit.rules.shards import ShardName
    from matchkit.telemetry.download import OnError
    from matchkit.telemetry.frames import TelemetryFrames
    from matchkit.telemetry.pubg import PubgTelemetryFrames

__all__ = [
    "Client",
    "ClientSettings",
    "FetchOptions",
    "RangeClampedWarning",
    "ServiceStatus",
    "UnlistedValueWarning",
]


class Client:
    """Fetches match records, cached, paged, windowed and rate-limited, as MatchFrames; players
    by name or id, one player's matches, telemetry files and the catalogue of names.

    Args:
        base_url: the service, e.g. ``"https://api.example.com"``; default ``MATCHKIT_BASE_URL``,
            else an embedded reference service on the sample data set (logged once at INFO).
        api_key: default ``MATCHKIT_API_KEY``; sent as ``Authorization: Bearer``, never logged,
            cached or shown.
        profile: the service's rules: ``"gamelocker"`` (the default: the interface of
            ``docs/interface.md``) or ``"pubg"`` (PUBG's API: platform shards, 14 days, no
            match list, players, samples and seasons; ``docs/pubg.md``); read once into
            ``settings.profile``.
        shard: one of the profile's shards; default its first (``"global"``, or ``"na"`` the
            older variant; PUBG's ``"steam"``, ``"kakao"``, ``"psn"``, ``"xbox"``,
            ``"console"``, ``"stadia"``, ``"tournament"``).
        cache_dir: folder of the HTTP cache; default ``MATCHKIT_CACHE_DIR``, else the platform's
            user cache folder.
        offline: answer only from the cache; a miss raises :class:`matchkit.errors.CacheMissError`.
        rate_limit: ``None`` (10 a minute for a remote service, off for the embedded one),
            ``"off"``, ``"N/minute"`` or a number of requests a minute.
        now: pin the present moment of the time rules (datetime or ISO 8601), for tests and
            reproducible runs; default: the service's clock (:mod:`matchkit.client.clock`),
            the embedded service's now being its data set's as-of.
        progress: show a progress bar over pages and matches (the window in its description,
            rate-limit waits in its postfix); ``False`` shows nothing.
        timeout: seconds a request may take, from sending it to the last byte of its answer
            (the connection and the whole body, not each read).
        max_body_bytes: the largest answer taken (on the wire and decoded); default 256 MiB.
            A larger one is a :class:`matchkit.errors.ServiceError` (e.g. a compression bomb).
        clock: this machine's clock, seconds since the epoch (injected by tests): compared with
            the service's, which a :class:`matchkit.client.warnings.ClockSkewWarning` names when
            they differ by more than a minute.

    Attributes:
        settings: every setting above but the key, resolved, in one frozen
            :class:`ClientSettings`.
        transport: the one way out: every request of the client goes through it.
        clock: the client's now (:mod:`matchkit.client.clock`).

    Raises:
        InvalidArgumentError: an argument is invalid (before any request is made).
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        api_key: str | None = None,
        profile: str | Profile | None = None,
        shard: str | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        offline: bool = False,
        rate_limit: str | float | None = None,
        now: str | datetime | None = None,
        progress: bool = True,
        timeout: float = 30,
        max_body_bytes: int | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        settings = ClientSettings.resolve(
            base_url,
            profile=profile,
            shard=shard,
            cache_dir=cache_dir,
            offline=offline,
            rate_limit=rate_limit,
            now=now,
            progress=progress,
            timeout=timeout,
            max_body_bytes=max_body_bytes,
        )
        key = checked_api_key(api_key or os.environ.get("MATCHKIT_API_KEY") or None)
        self._resources = contextlib.ExitStack()
        try:
            connection = connect(settings, api_key=key, resources=self._resources, wall_clock=clock)
        except BaseException:
            self._resources.close()  # stop an embedded service started on the way
            raise
        self.settings = connection.settings
        self.transport = connection.transport
        self.service = connection.service  # the embedded service, or None
        self.clock = connection.clock
        self._session = connection.session
        self._planner = ListPlanner(self.settings, self.transport, self.now)

    # -- lifecycle ---------------------------------------------------------------------------

    def close(self) -> None:
        """Close the session and stop the embedded service, if this client started one."""
        self._resources.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        settings = self.settings
        where = "embedded" if settings.embedded else settings.base_url
        rate = "off" if settings.rate_limit is None else str(settings.rate_limit)
        return (
            f"Client({where!r}, profile={settings.profile.name!r}, shard={settings.shard!r}, "
            f"offline={settings.offline}, "
            f"rate_limit={rate!r}, cache_dir={str(settings.cache_dir)!r})"
        )

    # -- the settings, as the archive and the notebooks read them -----------------------------

    @property
    def base_url(self) -> str:
        """Where the client sends (the embedded service's loopback address when embedded)."""
        assert self.settings.base_url is not None  # filled in by connect
        return self.settings.base_url

    @property
    def shard(self) -> ShardName:
        return self.settings.shard

    @property
    def profile(self) -> Profile:
        """The service's rules (:class:`matchkit.rules.profiles.Profile`)."""
        return self.settings.profile

    @property
    def embedded(self) -> bool:
        return self.settings.embedded

    @property
    def offline(self) -> bool:
        return self.settings.offline

    @property
    def progress(self) -> bool:
        return self.settings.progress

    @property
    def cache_dir(self) -> Path:
        return self.settings.cache_dir

    @property
    def rate_limit(self) -> Any:
        """The client-side rate (:class:`matchkit.rules.ratelimit.RateLimit`), or ``None``."""
        return self.settings.rate_limit

    @property
    def retry_policy(self) -> RetryPolicy:
        """How requests are retried; assign a new :class:`RetryPolicy` to change it."""
        return self.transport.retry

    @retry_policy.setter
    def retry_policy(self, policy: RetryPolicy) -> None:
        self.transport.retry = policy

    def now(self) -> datetime:
        """The present moment the time rules use, to the second: pinned (``now=``), else the
        service's clock as its answers tell it (asking ``GET /status`` when none has yet
        arrived; offline, this machine's clock).

        Raises:
            ServiceError: no service answers at the base URL (when it must be asked).
        """
        return self.clock.now()

    # -- calls -------------------------------------------------------------------------------

    def plan(
        self,
        start: str | date | None = None,
        end: str | date | None = None,
        **options: Unpack[FetchOptions],
    ) -> FetchPlan:
        """The windows and first requests :meth:`matches` would make, without making them.

        Takes the arguments of :meth:`matches`. Reads the cache (to mark the requests it would
        answer) and sends none of them; only ``GET /status``, once, when the client's now comes
        from the service and no answer has told it yet (:meth:`now`).

        Raises:
            InvalidArgumentError: an argument is invalid.
            ServiceError: the service's now was wanted and no service answers.
        """
        return self._planner.plan(start, end, options)

    def iter_pages(
        self,
        start: str | date | None = None,
        end: str | date | None = None,
        **options: Unpack[FetchOptions],
    ) -> Iterator[dict[str, Any]]:
        """Yield the raw list documents of the plan, page by page, in fetch order.

        Takes the arguments of :meth:`matches`. Pages come as the service sent them: a match
        may appear on several pages (:meth:`matches` keeps each once), and the last page may
        hold more than ``max_matches`` asks for. Arguments are checked before the first
        request, not lazily at the first ``next()``.
        """
        plan = self._planner.plan(start, end, options)
        return (orjson.loads(page.require_body()) for page in self._pager().iter_pages(plan))

    def matches(
        self,
        start: str | date | None = None,
        end: str | date | None = None,
        **options: Unpack[FetchOptions],
    ) -> MatchFrames:
        """Fetch the matches created in ``[start, end)`` that pass the filters.

        Args:
            start: inclusive start (datetime, ISO 8601, or a date: its midnight UTC); default
                28 days before now on ``global``, 3 hours before the end on ``na``. Clamped to
                the 120-day retention, with a :class:`RangeClampedWarning`.
            end: exclusive end; default now. Clamped to now, with a
                :class:`RangeClampedWarning`.
            **options: :class:`FetchOptions`. ``max_matches``: keep the first this many
                matches (in sort order); a deliberate cap. ``page_limit``: matches per page;
                default (and maximum) the shard's largest page. The filters
                (:class:`matchkit.rules.filters.MatchFilters`; which shard takes which, and
                which are asked in batches of 6 values, is in
                :data:`matchkit.rules.filters.FILTERS`; lists match any of their values);
                ``sort``: ``"createdAt"`` (ascending, default) or
                ``"-createdAt"``. A server type the interface does not list is sent as it is,
                with a warning.

        Returns:
            The matches, each once, ordered as ``sort`` asks, with their rosters, participants,
            rounds, players, teams and assets.

        Raises:
            InvalidArgumentError: an argument is invalid (before any request).
            AuthError, RateLimitError, ServiceError: the service refused or failed, after
                retries; no partial result is returned.
            CacheMissError: offline, and a page is not in the cache.
        """
        plan = self._planner.plan(start, end, options)
        from matchkit.normalize.pipeline import to_frames

        pager = self._pager()
        # The raw bodies, all fetched before any is normalized (a failed fetch yields nothing);
        # to_frames decodes them on its fast path.
        frames = to_frames([page.require_body() for page in pager.iter_pages(plan)])
        if pager.kept is not None and len(frames.matches) > len(pager.kept):
            frames = frames.filter(frames.matches["match_id"].isin(pager.kept))
        return ordered_frames(frames, descending=plan.query.descending)

    def get_match(self, match_id: str) -> MatchFrames:
        """Fetch one match (never expires in the cache).

        Raises:
            InvalidArgumentError: ``match_id`` is not an id a URL path can hold (empty, ``.``,
                ``..``, a ``/`` or ``\\``, control characters, surrounding spaces); checked
                before any request.
            NotFoundError: the service has no such match.
        """
        body = self.get_match_body(match_id)
        from matchkit.normalize.pipeline import to_frames

        return to_frames([body], profile=self.profile)

    def get_matches(self, match_ids: Iterable[str]) -> MatchFrames:
        """Fetch several matches by id (each cached forever) and normalize them together.

        One call to :func:`matchkit.to_frames` over every match's document: much faster than
        :meth:`get_match` for each id and :meth:`matchkit.MatchFrames.concat` (a fixed cost
        per normalization), and the same rules throughout (a player in several matches keeps
        its latest snapshot).

        Args:
            match_ids: the ids; each match once, in the order first given.

        Returns:
            The matches in the order of ``match_ids``, with their rosters, participants,
            rounds, players, teams and assets.

        Raises:
            InvalidArgumentError: ``match_ids`` is a single string or not an iterable of ids,
                or an id is not one a URL path can hold (all checked before any request).
            NotFoundError: the service has no match of one of the ids; no partial result is
                returned.
        """
        segments = checked_match_ids(
            match_ids, expected="a list of match ids (get_match takes one)"
        )
        shown = tqdm(
            segments.items(),
            desc=f"matchkit {self.shard}",
            unit="match",
            disable=not self.progress,
        )
        with shown:
            bodies = [self._match_body(match_id, segment) for match_id, segment in shown]
        from matchkit.normalize.pipeline import to_frames

        return to_frames(bodies, profile=self.profile)  # in the order their documents came

    def get_match_body(self, match_id: str) -> bytes:
        """The raw JSON:API document of one match, as the service sent it (cached forever):
        what :meth:`get_match` and :meth:`get_matches` normalize; pass such bodies to
        :func:`matchkit.to_frames` together.

        Raises:
            InvalidArgumentError, NotFoundError: as :meth:`get_match`.
        """
        return self._match_body(match_id, match_path_segment(match_id))

    def _match_body(self, match_id: str, segment: str) -> bytes:
        """The document of one match, checked to be that match's before it is used or cached."""
        return self.transport.get(
            f"{list_path(self.shard)}/{segment}",
            kind="match",
            expire_after=MATCH_EXPIRY,
            parse=match_id_check(match_id, self.shard),
        )

    def status(self) -> ServiceStatus:
        """The service's status resource (never cached)."""
        fetched = self.transport.get("/status", kind="status", expire_after=STATUS_EXPIRY)
        status = read_status(fetched.head)
        self.transport.confirmed = True
        return status

    def names(self, dictionaries: str | os.PathLike[str] | None = None) -> Names:
        """The names of the service's ids (characters, cosmetics, maps, items...), to show them
        by name in analysis tables and plots.

        Where they come from is the profile's: the Gamelocker services serve a catalogue
        (``GET /catalogue``, no key, never cached); PUBG publishes dictionaries apart from its
        API (:class:`matchkit.rules.profiles.NameDictionaries`: its ``api-assets``
        repository), read here one a kind of id, without the key, and cached for a week so that
        they work offline afterwards (the embedded double serves its own on its second host).

        Args:
            dictionaries: where to read a profile's dictionaries instead: a folder URL, or a
                local copy (a folder holding them at the published paths).

        Raises:
            InvalidArgumentError: ``dictionaries`` with a profile that has none, or a folder
                that lacks one of them.
            NotFoundError: the service has no catalogue, or a dictionary is not at its URL
                (ids stay ids; pass a mapping to :func:`matchkit.names.load_names` instead).
            ServiceError: the service or host could not be reached or answered another error.
            DocumentError: an answer is not a catalogue or dictionary (after the retries).
            CacheMissError: offline, and not cached (the catalogue never is).
        """
        if self.settings.profile.name_dictionaries is not None or dictionaries is not None:
            return fetch_dictionaries(self, dictionaries)
        return self.transport.get(
            CATALOGUE_PATH,
            kind="catalogue",
            expire_after=STATUS_EXPIRY,
            parse=catalogue_parser(self.base_url + CATALOGUE_PATH),
        )

    def cache_info(self) -> CacheInfo:
        """How many responses the cache holds, its size, and the oldest and newest."""
        return cache_info(self._session)

    def clear_cache(self, older_than: timedelta | None = None) -> int:
        """Remove all cached responses, or those stored more than ``older_than`` ago.

        Returns:
            The number of responses removed.
        """
        return clear_cache(self._session, older_than)

    # -- internals ---------------------------------------------------------------------------

    def _pager(self) -> Pager:
        return Pager(self.transport, progress=self.progress)

    # -- players (matchkit/client/players.py) ------------------------------------------------

    def players(
        self, *, names: object = None, ids: object = None, shard: ShardName | None = None
    ) -> pd.DataFrame:
        """Look players up by name or by id, as they are now.

        Args:
            names: player names (a list, or one name), compared exactly (case included); a
                renamed player is found by the name they hold now.
            ids: player ids; give ``names`` or ``ids``, not both.
            shard: ``"global"`` or ``"na"`` (default: the client's shard).

        Returns:
            One row per player found, in the order asked, with the columns of
            :attr:`matchkit.MatchFrames.players` (their lifetime ``stats`` as columns).
            ``attrs["not_found"]`` lists the names or ids no player has, each also named by a
            :class:`matchkit.client.warnings.PlayerNotFoundWarning`.

        Raises:
            InvalidArgumentError: bad arguments (before any request).
            ServiceError: the service failed, or kept answering with players not asked for.
        """
        chosen = self.shard if shard is None else self.profile.checked_shard(shard)
        return fetch_players(self.transport, chosen, names=names, ids=ids, profile=self.profile)

    def player_matches(
        self,
        player_id: str,
        start: str | date | None = None,
        end: str | date | None = None,
        **options: Unpack[FetchOptions],
    ) -> MatchFrames:
        """The matches of one player in ``[start, end)``, as MatchFrames.

        With a match list (the Gamelocker services): :meth:`matches` with
        ``player_ids=[player_id]``: the same time rules (any range, split into windows of at
        most 28 days, clamped to the retention period with a warning), cache and checks.

        Without one (PUBG): the player's recent match ids (``GET /players/{id}``: the last 14
        days, newest first), then those matches by id (:meth:`get_matches`: no
        rate limit, each cached forever), keeping those created in ``[start, end)`` (either
        bound may be left out); the result's ``player_matches`` lists every id the player
        listed. ``options`` are not taken there (nothing is filtered by the service).

        Find a player's id by name with :meth:`players`.

        Raises:
            InvalidArgumentError: ``player_id`` is not one id, or another argument is bad.
            NotFoundError: (PUBG) no player has that id.
        """
        player_id = checked_player_id(player_id)
        if "player_ids" in options:
            raise InvalidArgumentError(
                "player_matches takes one player_id; use matches(player_ids=[...]) for several",
                parameter="player_ids",
            )
        if self.profile.match_list:
            return self.matches(start, end, **(options | {"player_ids": [player_id]}))
        return self._listed_player_matches(player_id, start, end, options)

    def _listed_player_matches(
        self,
        player_id: str,
        start: str | date | None,
        end: str | date | None,
        options: FetchOptions,
    ) -> MatchFrames:
        """A player's matches where the service has no match list: the ids their player
        resource lists, then those matches by id."""
        if options:
            raise InvalidArgumentError(
                f"player_matches takes no {', '.join(sorted(options))} on the "
                f"{self.profile.name} profile (it has no match list to filter); filter the "
                "frames it returns instead",
                parameter=sorted(options)[0],
            )
        low = None if start is None else parse_time(start, parameter="start")
        high = None if end is None else parse_time(end, parameter="end")
        if low is not None and high is not None and high <= low:
            raise InvalidArgumentError(
                f"end {format_time(high)} is not after start {format_time(low)}",
                parameter="end",
            )
        listed = fetch_player(self.transport, self.shard, player_id, profile=self.profile)
        ids = list(dict.fromkeys(listed.player_matches["match_id"].astype(str)))
        frames = self._matches_with(ids, listed)
        created = frames.matches["created_at"]
        keep = created.notna()
        if low is not None:
            keep &= created >= low
        if high is not None:
            keep &= created < high
        if not bool(keep.all()):
            frames = frames.filter(keep)
        return frames

    def samples(self, start: str | date | datetime | None = None) -> MatchFrames:
        """A sample of random matches (PUBG's ``/samples``): its match ids, then its matches.

        Args:
            start: the sample's start (``filter[createdAt-start]``): at least 24 hours before
                now and at most 14 days back (by the service's clock); ``None``: the newest
                sample (yesterday's).

        Returns:
            The sample's matches, by id (no rate limit, each cached forever), with their
            rosters, participants and assets; ``samples`` and ``sample_matches`` say what
            the sample listed.

        Raises:
            InvalidArgumentError: the profile has no samples, or ``start`` breaks its rule
                (before any request; the message names the rule).
            NotFoundError: a listed match is gone (no partial result).
        """
        if isinstance(start, date) and not isinstance(start, datetime):
            start = datetime(start.year, start.month, start.day, tzinfo=UTC)
        moment = checked_sample_start(self.profile, start, now=self.now)
        body = fetch_sample(self.transport, self.shard, moment, profile=self.profile)
        from matchkit.normalize.pipeline import to_frames

        listed = to_frames([body], profile=self.profile)
        return self._matches_with(sample_match_ids(listed.sample_matches), listed)

    def seasons(self) -> pd.DataFrame:
        """The service's seasons (PUBG's ``/seasons``; kept a day in the cache), one row each
        (``season_id``, ``is_current_season``, ``is_offseason``).

        Raises:
            InvalidArgumentError: the profile has no seasons endpoint.
        """
        if "seasons" not in self.profile.endpoints:
            raise InvalidArgumentError(
                f"the {self.profile.name} profile has no seasons endpoint", parameter="seasons"
            )
        from matchkit.normalize.pipeline import to_frames

        body = fetch_seasons(self.transport, self.shard)
        return to_frames([body], profile=self.profile).seasons

    def _matches_with(self, ids: list[str], listed: MatchFrames) -> MatchFrames:
        """The matches of ``ids`` by id, with the listing tables of ``listed`` (the players or
        the sample that named them)."""
        from matchkit.model.frames import MatchFrames

        matches = self.get_matches(ids) if ids else self.get_matches([])
        return MatchFrames.concat([listed, matches])

    # -- telemetry (matchkit/client/downloads.py does the work) ------------------------------

    def telemetry(
        self,
        matches: MatchFrames | Iterable[str] | str,
        *,
        progress: bool | None = None,
        max_workers: int | None = None,
        on_error: OnError = "raise",
    ) -> TelemetryFrames | PubgTelemetryFrames:
        """Download the telemetry files of ``matches`` and return them as TelemetryFrames.

        Args:
            matches: MatchFrames (their telemetry assets are used) or match ids (each match is
                fetched first).
            progress: show a progress bar (default: the client's setting).
            max_workers: downloads at once (default 4).
            on_error: ``"raise"`` (default) or ``"skip"``: leave out a match whose file is
                missing or broken and list it in ``problems``.

        The files are fetched without the API key (the asset host is not the API), cached
        forever and checked before they are stored. The profile's telemetry format chooses
        the reader: on PUBG each file is read by
        :func:`matchkit.telemetry.pubg.read_pubg_file` against its match's roster and the
        result is :class:`matchkit.telemetry.pubg.PubgTelemetryFrames`; a file that fails its
        check is a :class:`matchkit.errors.DocumentError` the first time (never cached, never
        downloaded again). Each file becomes tables as it comes, so
        memory does not grow with the number of matches. See :mod:`matchkit.telemetry`.

        Raises:
            InvalidArgumentError: an argument is invalid, a match id too (every one is checked
                before any request, whatever ``on_error``).
        """
        from matchkit.client.downloads import fetch_telemetry

        return fetch_telemetry(
            self, matches, progress=progress, max_workers=max_workers, on_error=on_error
        )
