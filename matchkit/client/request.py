"""The one request path: every GET matchkit sends goes through :meth:`RequestPath.get`.

A client has one session, one :class:`RequestPath` over it and one
:class:`matchkit.client.transport.Transport` in front of that (the cache). Match lists, single
matches, players, the status and the names catalogue (the service's), and telemetry files (the
asset host's) all go through it. The path holds, once each:

- **one URL check** (:func:`matchkit.client.urls.url_problem`) before anything is sent;
- **one way to send a try** (:class:`matchkit.client.sending.Sender`): redirects (the
  ``Authorization`` header never follows one to another origin), one deadline from sending to
  the last byte, one cap on body size;
- **one client-side rate limit** (:class:`matchkit.client.throttle.Throttle`), for the peers
  it applies to (:attr:`Peer.throttled`);
- **one status-to-error mapping** (:func:`matchkit.client.retrying.status_error`), and **one
  retry loop** (:class:`matchkit.client.retrying.Retrying`);
- **one place where an answer is checked before it is used or stored**: the request's
  ``parse`` hook reads a 200 (as :class:`Fetched`) into what the caller wants, or raises
  :class:`matchkit.client.responses.BadAnswerError` saying what disagreed; only then is
  ``store`` called, and :meth:`RequestPath.get` returns what ``parse`` returned. A refused answer
  is retried like a 5xx, never stored, and when the tries are spent becomes a typed error.

Who answers decides a few rules (:class:`Peer`): what messages call it, whether the client's
rate limit applies, whether its ``Date`` is the service's clock (each answer from the service
tells the client's :class:`matchkit.client.clock.ServiceClock` its time, as it arrives, never
from the cache), and what a rate-limit error advises.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson
import requests

from matchkit.client.clock import Clock
from matchkit.client.responses import BadAnswerError
from matchkit.client.retrying import Retrying, RetryPolicy, Scrubber, status_error
from matchkit.client.sending import (
    DEFAULT_MAX_BODY_BYTES,
    Limits,
    Sender,
    problem_of,
    was_redirected,
)
from matchkit.client.throttle import Throttle
from matchkit.client.urls import display_url, url_problem
from matchkit.errors import MatchkitError, ServiceError

__all__ = [
    "ASSET_HOST",
    "DEFAULT_MAX_BODY_BYTES",
    "SERVICE",
    "Fetched",
    "Limits",
    "Parse",
    "Peer",
    "RequestPath",
]

_LOGGER = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class Peer:
    """Who answers a request, and the rules that follow from it.

    Attributes:
        name: what messages call it (``"service"``, ``"host"``).
        throttled: whether the client's own rate limit applies to it.
        tells_time: whether its answers' ``Date`` is the service's clock.
        advice: what a :class:`matchkit.errors.RateLimitError` tells the user to do.
    """

    name: str
    throttled: bool
    tells_time: bool
    advice: str


SERVICE = Peer(
    "service", throttled=True, tells_time=True, advice="lower rate_limit= or wait and retry"
)
"""The match-data service: the client's rate limit applies; its ``Date`` is the time."""
ASSET_HOST = Peer("host", throttled=False, tells_time=False, advice="wait and retry")
"""The host of telemetry files (a CDN on the real service): no rate limit, never the key, and
its clock is not the service's."""


@dataclass(frozen=True)
class Fetched:
    """A successful answer, as a ``parse`` hook reads it.

    Attributes:
        body: the raw (decoded) body; ``None`` for a list request answered by the service's
            own 404 at the start of a window, i.e. empty.
        head: the body's ``data`` and ``links`` when the transport read them (a JSON:API
            answer), else ``None``.
        url: the URL that answered (after redirects).
        status: the HTTP status.
        from_cache: whether the cache answered.
        redirected: whether a redirect led to the answer.
    """

    body: bytes | None
    head: dict[str, Any] | None
    url: str
    status: int
    from_cache: bool
    redirected: bool = False

    @property
    def document(self) -> dict[str, Any] | None:
        """The whole body, parsed (``None`` for an empty list)."""
        return None if self.body is None else orjson.loads(self.body)

    def require_body(self) -> bytes:
        """The body of an answer that has one: every answer but a list's 404 (an empty window).

        Raises:
            ServiceError: there is none (never silently an empty result).
        """
        if self.body is None:
            raise ServiceError(
                f"GET {self.url} answered {self.status} without a document",
                status=self.status,
                url=self.url,
            )
        return self.body


Parse = Callable[[Fetched], T]
"""The parse hook of a request: run on each answer (a new 200, a cache hit, and a list's empty
404) before it is used or stored, it returns what the caller wants of it when the answer is
what the request asked for, and raises :class:`matchkit.client.responses.BadAnswerError` saying
what disagreed otherwise (e.g. "a document of match 'B' where match 'A' was asked"): the answer
is then retried like a 5xx (a cache hit is dropped and fetched again), never stored, and when
the tries are spent the request ends in a typed error holding that message. Any other error it
raises ends the request as it is."""


class RequestPath:
    """Sends GET requests through the client's session under one set of rules (see the module).

    Args:
        session: the client's session.
        limits: the deadline, the cap on body size and the redirects.
        retry: the retry policy (replaceable; read at each request).
        scrub: blanks the API key out of messages and error objects.
        throttle: the client's own rate limit, or ``None`` when it is off.
        clock: told the ``Date`` of each answer from a peer that tells the time.
        logger: where requests (DEBUG) and 429 waits (INFO) are logged.

    Attributes:
        on_wait: told of each wait for a rate limit, the service's (429) or the client's own
            (seconds, what is waited for): a progress bar.
    """

    def __init__(
        self,
        session: requests.Session,
        *,
        limits: Limits,
        retry: RetryPolicy | None = None,
        scrub: Scrubber | None = None,
        throttle: Throttle | None = None,
        clock: Clock | None = None,
        logger: logging.Logger | None = None,
    ) -> None:
        self.clock = clock
        self.logger = logger or _LOGGER
        self.scrub = scrub or Scrubber()
        self.sender = Sender(session, limits=limits, scrub=self.scrub, logger=self.logger)
        self.retry = retry or RetryPolicy()
        self.throttle = throttle
        self._on_wait: Callable[[float, str], None] | None = None

    @property
    def session(self) -> requests.Session:
        return self.sender.session

    @property
    def limits(self) -> Limits:
        return self.sender.limits

    @limits.setter
    def limits(self, limits: Limits) -> None:
        self.sender.limits = limits

    @property
    def network_requests(self) -> int:
        """Requests sent (retries and redirects included)."""
        return self.sender.network_requests

    @property
    def on_wait(self) -> Callable[[float, str], None] | None:
        return self._on_wait

    @on_wait.setter
    def on_wait(self, listener: Callable[[float, str], None] | None) -> None:
        self._on_wait = listener
        if self.throttle is not None:
            self.throttle.on_wait = listener

    def get(
        self,
        url: str,
        params: Mapping[str, str] | None = None,
        *,
        peer: Peer,
        headers: Mapping[str, str | None],
        parse: Parse[T],
        what: str = "",
        store: Callable[[requests.Response], None] | None = None,
        empty: Callable[[requests.Response, bool], bool] | None = None,
        hints: Mapping[int, str] | None = None,
        bad_answer_error: type[MatchkitError] = ServiceError,
        limited: bool = True,
    ) -> T:
        """GET ``url?params`` until its answer is final: parsed (then stored), or an error.

        Args:
            peer: who answers (:data:`SERVICE`, :data:`ASSET_HOST`).
            headers: the request's headers (one given as None is not sent); an
                ``Authorization`` header is sent to ``url``'s origin only, never after a
                redirect to another one.
            parse: the request's parse hook (:data:`Parse`): what :meth:`get` returns.
            what: what the request fetches, named in messages.
            store: called with an answer that ``parse`` took, before it is returned.
            empty: whether a final error answer (not a 429 or a 5xx) means "nothing" (given the
                response and whether a redirect led to it): ``parse`` is then given a
                ``Fetched`` with no body, and nothing is stored. It may raise BadAnswerError,
                to retry an answer that cannot be trusted.
            hints: per status, what the user can do (:func:`retrying.status_error`).
            bad_answer_error: the type of the error of an answer still refused when the tries
                are spent.
            limited: whether the service limits this endpoint (the profile's
                ``rate_limited``): the client's own limit applies only then, and only to a
                peer it applies to.

        Raises:
            ServiceError: ``url`` cannot be requested; the answer is larger than the cap;
                an error status (:func:`retrying.status_error`); a fault that outlasted the retries.
            RateLimitError: still 429 after the policy's waits.
            MatchkitError: ``bad_answer_error`` once a refused answer outlasted the retries;
                what ``parse`` raises besides BadAnswerError.
        """
        shown = display_url(url, params)
        problem = url_problem(url)
        if problem is not None:
            raise ServiceError(
                f"GET {shown}{f' ({what})' if what else ''} cannot be sent: {problem}; the "
                f"{peer.name} gave a URL that cannot be requested",
                url=shown,
            )

        def send() -> requests.Response:
            if limited and peer.throttled and self.throttle is not None:
                self.throttle.wait_for(url)
            response = self.sender.send(
                url, params, dict(headers), shown=shown, what=what, host=peer.name
            )
            if peer.tells_time and self.clock is not None and not was_redirected(response):
                self.clock.observe(response.headers.get("Date"))
            return response

        def judge(response: requests.Response) -> T:
            answered = response.url or shown
            redirected = was_redirected(response)
            problem = problem_of(response)
            if problem is not None:
                raise BadAnswerError(problem)
            status = response.status_code
            if status == 200:
                value = parse(Fetched(response.content, None, answered, status, False, redirected))
                if store is not None:
                    store(response)
                return value
            if empty is not None and empty(response, redirected):
                return parse(Fetched(None, None, answered, status, False, redirected))
            raise status_error(response, url=answered, what=what, scrub=self.scrub, hints=hints)

        retrying = Retrying(
            self.retry,
            self.logger,
            host=peer.name,
            advice=peer.advice,
            scrub=self.scrub,
            on_wait=self._on_wait,
            bad_answer_error=bad_answer_error,
        )
        return retrying.run(send, judge, url=shown, what=what)
