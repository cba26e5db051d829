"""The attempt loop of one GET, and the one status-to-error mapping.

:class:`Retrying` sends a request until an answer is final, and owns the rules every request of
matchkit follows (all of them go through :class:`matchkit.client.request.RequestPath`):

- a transport failure in :data:`TRANSIENT_ERRORS` (a dropped connection, a timeout, a cut body)
  is a fault, retried with bounded exponential backoff and jitter
  (:meth:`RetryPolicy.backoff_seconds`); any other transport failure ends the request;
- a 500, 502, 503 or 504 (:data:`RETRY_STATUSES`) is a fault too, and so is a 200 whose body
  the caller's check refuses (:class:`matchkit.client.responses.BadAnswerError`): retried like a
  5xx, and never stored (the caller stores only what its check returned);
- a 429 is a refusal: it waits what the answer asks (:func:`read_rate_limit_wait`:
  ``Retry-After`` first, ``X-RateLimit-Reset`` by plausibility, decision 14), logged at INFO
  with the header that said so, never longer than ``max_rate_limit_wait``, and at most
  ``rate_limit_attempts`` times;
- once the tries are spent, a typed error says what happened, how often, and what to do;
- a final error status becomes its typed error in :func:`status_error`, the one
  status-to-error mapping of matchkit.

The caller keeps what is its own: ``send`` (the request, its headers and its cache) and
``check`` (a 200 read into its result, a final error status into its typed error). A secret the
caller holds (the API key) is blanked out of every message and error object by its
:class:`Scrubber`; a failed request's exception, which holds the request, is replaced by a bare
one of the same type.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
import requests

from matchkit.client.responses import BadAnswerError, error_objects, read_rate_limit_wait
from matchkit.errors import AuthError, MatchkitError, NotFoundError, RateLimitError, ServiceError
from matchkit.rules.jsonapi import describe_errors

__all__ = [
    "RETRY_STATUSES",
    "TRANSIENT_ERRORS",
    "RetryPolicy",
    "Retrying",
    "Scrubber",
    "status_error",
]

RETRY_STATUSES = frozenset({500, 502, 503, 504})
"""The statuses retried like a dropped connection."""

TRANSIENT_ERRORS = (
    requests.ConnectionError,
    requests.Timeout,
    requests.exceptions.ChunkedEncodingError,
    requests.exceptions.ContentDecodingError,
)
"""The transport failures worth another try; any other one ends the request at once."""

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry.

    Attributes:
        attempts: tries per request for 5xx, bad 200s, dropped connections and timeouts.
        rate_limit_attempts: tries per request while the service answers 429.
        backoff: the first backoff in seconds; doubled each retry, up to ``max_backoff``.
        jitter: fraction of each backoff taken off at random (spreads retries of many clients).
        max_rate_limit_wait: the longest single wait a 429 may ask for before giving up.
        sleep: waits (injected in tests so they never really wait).
        wall_clock: seconds since the epoch, for ``Retry-After`` dates and absolute resets.
        random: a number in [0, 1) for the jitter.
    """

    attempts: int = 5
    rate_limit_attempts: int = 10
    backoff: float = 0.5
    max_backoff: float = 30.0
    jitter: float = 0.5
    max_rate_limit_wait: float = 300.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    wall_clock: Callable[[], float] = field(default=time.time, repr=False)
    random: Callable[[], float] = field(default=random.random, repr=False)

    def backoff_seconds(self, retry: int) -> float:
        """The wait before retry number ``retry`` (0 for the first retry)."""
        ceiling = min(self.max_backoff, self.backoff * 2.0**retry)
        return ceiling * (1.0 - self.jitter * self.random())


@dataclass(frozen=True)
class Scrubber:
    """Blanks a secret out of text and error objects, should a service or proxy echo it back.

    Attributes:
        secret: the text to blank out (the API key); ``None`` for none. Never shown in a repr.
    """

    secret: str | None = field(default=None, repr=False)

    def text(self, text: str) -> str:
        """``text`` with the secret replaced by ``[api key]``."""
        return text.replace(self.secret, "[api key]") if self.secret else text

    def errors(self, errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """JSON:API ``errors`` with the secret replaced by ``[api key]`` wherever it occurs."""
        secret = self.secret
        if not secret or secret not in repr(errors):
            return errors
        escaped = orjson.dumps(secret)[1:-1]
        return orjson.loads(orjson.dumps(errors).replace(escaped, b"[api key]"))


@dataclass
class _Tries:
    """One request's failures so far, and how messages name it."""

    url: str
    what: str
    faults: int = 0
    refusals: int = 0

    @property
    def label(self) -> str:
        return f"GET {self.url} ({self.what})" if self.what else f"GET {self.url}"


@dataclass(frozen=True)
class Retrying:
    """Sends one request until its answer is final, under a :class:`RetryPolicy`.

    Attributes:
        policy: how often and how long to retry.
        logger: the caller's logger: 429 waits at INFO, failures and backoffs at DEBUG.
        host: what messages call the other end (``"service"``, ``"host"``).
        advice: what a :class:`matchkit.errors.RateLimitError` tells the user to do.
        scrub: blanks the caller's secret out of every message and error object.
        on_wait: told of each 429 wait: the seconds, and ``"the <host>'s rate limit"``.
        bad_answer_error: the type raised for a 200 the check still refuses when the tries are
            spent (a :class:`matchkit.errors.ServiceError` is given the status, URL and errors).
    """

    policy: RetryPolicy
    logger: logging.Logger
    host: str = "service"
    advice: str = "wait and retry"
    scrub: Scrubber = field(default_factory=Scrubber)
    on_wait: Callable[[float, str], None] | None = None
    bad_answer_error: type[MatchkitError] = ServiceError

    def run(
        self,
        send: Callable[[], requests.Response],
        check: Callable[[requests.Response], T],
        *,
        url: str,
        what: str = "",
    ) -> T:
        """Call ``send`` until ``check`` takes its answer, or the tries are spent.

        Args:
            send: one request; a :class:`requests.RequestException` is a transport failure,
                any other error it raises (e.g. a cache miss) ends the request as it is.
            check: reads an answer that is neither a 429 nor in :data:`RETRY_STATUSES` into
                the result, or raises the caller's typed error; a
                :class:`matchkit.client.responses.BadAnswerError` is retried like a 5xx.
            url: the request URL, as messages show it (then the URL that answered).
            what: what the request fetches, named in messages after the URL.

        Raises:
            RateLimitError: still 429 after ``rate_limit_attempts``, or a 429 asking to wait
                longer than ``max_rate_limit_wait``.
            ServiceError: a 5xx or a transport failure that outlasted the retries, or a
                transport failure that is not transient.
            MatchkitError: what ``send`` or ``check`` raise, and ``bad_answer_error``.
        """
        tries = _Tries(url, what)
        while True:
            failure: requests.RequestException | None = None
            try:
                response = send()
            except requests.RequestException as error:
                # A bare copy: the original holds the request, and with it the headers.
                failure = type(error)(self.scrub.text(str(error)))
            if failure is not None:
                self._fault(failure, tries)
                continue
            tries.url = response.url or tries.url
            status = response.status_code
            if status == 429:
                self._refused(response, tries)
            elif status in RETRY_STATUSES:
                self._failing(response, tries, None)
            else:
                try:
                    return check(response)
                except BadAnswerError as bad:
                    reason = str(bad)
                self._failing(response, tries, reason)

    def _fault(self, failure: requests.RequestException, tries: _Tries) -> None:
        """Back off after a transport failure, or raise when it is not transient or too many."""
        name = type(failure).__name__
        self.logger.debug("%s failed: %s", tries.label, name)
        tries.faults += 1
        if not isinstance(failure, TRANSIENT_ERRORS) or tries.faults >= self.policy.attempts:
            raise ServiceError(
                f"{tries.label} failed {tries.faults} times ({name}); the {self.host} is "
                "unreachable or dropping connections, try again later",
                url=tries.url,
            ) from failure
        self._back_off(tries)

    def _failing(self, response: requests.Response, tries: _Tries, bad_answer: str | None) -> None:
        """Back off after a 5xx or a refused 200 (``bad_answer`` says why), or raise when the
        tries are spent."""
        tries.faults += 1
        if tries.faults < self.policy.attempts:
            self._back_off(tries)
            return
        status = response.status_code
        errors = self.scrub.errors(error_objects(response))
        options: dict[str, Any] = {"status": status, "url": tries.url, "errors": errors}
        if bad_answer is None:
            raise ServiceError(
                f"{status} from {tries.label} after {tries.faults} attempts: "
                f"{describe_errors(errors)}; the {self.host} is failing, try again later",
                **options,
            )
        message = self.scrub.text(
            f"{tries.label} answered {status} with {bad_answer} ({tries.faults} attempts); a "
            f"proxy or the {self.host} is answering something else, try again later"
        )
        if issubclass(self.bad_answer_error, ServiceError):
            raise self.bad_answer_error(message, **options)
        raise self.bad_answer_error(message)

    def _refused(self, response: requests.Response, tries: _Tries) -> None:
        """Wait what a 429 asks (never longer), or raise when it asks too much or too often."""
        tries.refusals += 1
        policy = self.policy
        wait = read_rate_limit_wait(response.headers, wall_clock=policy.wall_clock())
        seconds = wait.seconds if wait is not None and wait.seconds > 0 else None
        if seconds is None:
            seconds = policy.backoff_seconds(tries.refusals - 1)
        reason = "no wait given: backing off" if wait is None else wait.reason
        if tries.refusals >= policy.rate_limit_attempts or seconds > policy.max_rate_limit_wait:
            raise RateLimitError(
                f"{tries.label} was refused by the {self.host}'s rate limit {tries.refusals} "
                f"times (it asks to wait {seconds:.1f} s: {reason}); {self.advice}",
                retry_after=seconds,
                status=response.status_code,
                url=tries.url,
                errors=self.scrub.errors(error_objects(response)),
            )
        self.logger.info("rate limited by the %s; waiting %.1f s (%s)", self.host, seconds, reason)
        if self.on_wait is not None:
            self.on_wait(seconds, f"the {self.host}'s rate limit")
        policy.sleep(seconds)

    def _back_off(self, tries: _Tries) -> None:
        seconds = self.policy.backoff_seconds(tries.faults - 1)
        self.logger.debug("%s: waiting %.2f s before trying again", tries.label, seconds)
        self.policy.sleep(seconds)


def status_error(
    response: requests.Response,
    *,
    url: str,
    what: str = "",
    scrub: Scrubber | None = None,
    hints: Mapping[int, str] | None = None,
) -> ServiceError:
    """The typed error of a final error answer (a 429 or a 5xx is :class:`Retrying`'s).

    The one status-to-error mapping of matchkit: 401 and 403 are an
    :class:`matchkit.errors.AuthError`, 404 a :class:`matchkit.errors.NotFoundError`, any other
    status a :class:`matchkit.errors.ServiceError`, each carrying the status, the URL and the
    JSON:API ``errors`` (the caller's secret blanked out).

    Args:
        what: what the request fetches, named after the URL (``"the telemetry of match X"``).
        hints: per status, what the user can do (added after the service's own words).
    """
    scrub = scrub or Scrubber()
    status = response.status_code
    errors = scrub.errors(error_objects(response))
    label = f"GET {url} ({what})" if what else f"GET {url}"
    message = f"{status} from {label}: {describe_errors(errors)}"
    hint = (hints or {}).get(status)
    if hint:
        message += f"; {hint}"
    options: dict[str, Any] = {"status": status, "url": url, "errors": errors}
    if status in (401, 403):
        return AuthError(message, **options)
    if status == 404:
        return NotFoundError(message, **options)
    return ServiceError(message, **options)
