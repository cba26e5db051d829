"""The one request path: every GET matchkit sends goes through :meth:`RequestPath.get`.

Match lists, single matches and the status (:mod:`matchkit.client.transport`), telemetry files
(:mod:`matchkit.client.downloads`) and the names catalogue (:func:`matchkit.names.fetch_names`)
each build a :class:`RequestPath` over their own session and send through it. The path holds,
once each:

- **one URL check** (:func:`url_problem`): the URL asked for, and each redirect's ``Location``;
  a URL that cannot be requested (``http://[::1/x``, a port of 99999, no host, not http(s)) is
  a typed error, never a raw ``ValueError``. Redirects are followed here, at most
  :attr:`Limits.max_redirects`, and the ``Authorization`` header never follows one to another
  origin (scheme, host and port).
- **one deadline per request** (:attr:`Limits.timeout`): it starts when the request is sent and
  covers the connection, the headers and the whole body (each body read is given only what is
  left of it), so a body that trickles in cannot hold the client; a request past its deadline
  is a timeout, retried like a dropped connection. (The connection and each read of the head
  are bounded by the timeout too, by requests; a head that trickles in line by line is bounded
  per read only: what the head took counts against the body's deadline.)
- **one cap on body size** (:attr:`Limits.max_body_bytes`), on the bytes on the wire and on the
  decoded bytes alike: the body is read in a streaming way (urllib3 inflates a bounded slice at a
  time), so a small gzip body that would inflate to gigabytes is a typed
  :class:`matchkit.errors.ServiceError` and never a ``MemoryError``.
- **one status-to-error mapping** (:func:`matchkit.client.retrying.status_error`), and **one
  retry loop** (:class:`matchkit.client.retrying.Retrying`).
- **one place where an answer is checked before it is used or cached**: ``read`` turns the body
  into its head (the transport's :func:`matchkit.client.responses.check_body`), then ``check``
  (the caller's hook, see :data:`Check`) compares it with the request; only then is ``store``
  called. A :class:`matchkit.client.responses.BadAnswerError` from either is retried like a 5xx,
  never stored, and when the tries are spent becomes a typed error saying what disagreed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

import orjson
import requests
import urllib3.exceptions
from requests_cache import DO_NOT_CACHE

from matchkit.client.responses import BadAnswerError
from matchkit.client.retrying import Retrying, RetryPolicy, Scrubber, status_error
from matchkit.errors import MatchkitError, ServiceError

__all__ = [
    "DEFAULT_MAX_BODY_BYTES",
    "Check",
    "Fetched",
    "Limits",
    "RequestPath",
    "display_url",
    "url_problem",
]

_LOGGER = logging.getLogger(__name__)

DEFAULT_MAX_BODY_BYTES = 256 * 2**20
"""The default cap on one answer, on the wire and decoded: 256 MiB (a list page is tens of
kilobytes, a telemetry file a few megabytes)."""
_CHUNK = 64 * 1024
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_PROBLEM = "_matchkit_problem"
_REDIRECTED = "_matchkit_redirected"
_LOCATION = "_matchkit_location"


@dataclass(frozen=True)
class Limits:
    """The bounds of one request.

    Attributes:
        timeout: seconds from sending the request to the last byte of its body (the connection,
            the headers and the whole body; a client-side rate-limit wait comes before it).
        max_body_bytes: the largest answer taken, counted on the wire and decoded.
        max_redirects: redirects followed before the answer counts as a bad one.
    """

    timeout: float = 30.0
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    max_redirects: int = 5


@dataclass(frozen=True)
class Fetched:
    """A successful answer: its body, checked to be what was asked for, and what paging reads.

    Attributes:
        body: the raw (decoded) body; ``None`` for a list request answered by the service's
            own 404 at the start of a window, i.e. empty.
        head: the body's ``data`` and ``links`` (``None`` when ``body`` is, or when the
            request's ``read`` builds none).
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


Check = Callable[[Fetched], None]
"""The check hook of a request: run on each answer (a new 200, or a cache hit) before it is used
or stored. It returns nothing when the answer is what the request asked for, and raises
:class:`matchkit.client.responses.BadAnswerError` saying what disagreed otherwise (e.g. "a
document of match 'B' where match 'A' was asked"): the answer is then retried like a 5xx (a cache
hit is dropped and fetched again), never stored, and when the tries are spent the request ends
in a typed error holding that message. Any other error it raises ends the request as it is."""


def url_problem(url: str) -> str | None:
    """What makes ``url`` impossible to request, or ``None`` when it can be sent.

    Example:
        >>> url_problem("http://[::1/x")
        "'http://[::1/x' is not a URL (Invalid IPv6 URL)"
        >>> url_problem("http://127.0.0.1:99999/x")
        "'http://127.0.0.1:99999/x' has a port out of range (0-65535)"
    """
    if not isinstance(url, str):
        return f"{url!r} is not a URL (not text)"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises for a port out of range)
    except ValueError as error:
        reason = str(error)
        if "out of range" in reason:
            return f"{url!r} has a port out of range (0-65535)"
        return f"{url!r} is not a URL ({reason})"
    if parts.scheme.lower() not in ("http", "https"):
        return f"{url!r} is not an http:// or https:// URL"
    if not parts.hostname:
        return f"{url!r} names no host"
    if any(ord(character) < 33 or ord(character) == 127 for character in url):
        return f"{url!r} holds spaces or control characters"
    return None


def display_url(url: str, params: Mapping[str, str] | None) -> str:
    """``url`` with ``params`` as its query: how messages name a request."""
    return f"{url}?{urlencode(params)}" if params else url


class RequestPath:
    """Sends GET requests through one session under one set of rules (see the module).

    Args:
        session: the session to send with (a cached session is asked to neither read nor write
            its cache: the caller looks up and stores).
        limits: the deadline, the cap on body size and the redirects.
        retry: the retry policy (replaceable; read at each request).
        host: what messages call the other end (``"service"``, ``"host"``).
        advice: what a :class:`matchkit.errors.RateLimitError` tells the user to do.
        scrub: blanks the caller's secret (the API key) out of messages and error objects.
        bad_answer_error: the type of the error of an answer still refused when the tries are
            spent.
        logger: where requests (DEBUG) and 429 waits (INFO) are logged: the caller's.

    Attributes:
        network_requests: requests sent (retries and redirects included).
        on_wait: told of each 429 wait (seconds, what is waited for): a progress bar.
    """

    def __init__(
        self,
        session: requests.Session,
        *,
        limits: Limits,
        retry: RetryPolicy | None = None,
        host: str = "service",
        advice: str = "wait and retry",
        scrub: Scrubber | None = None,
        bad_answer_error: type[MatchkitError] = ServiceError,
        logger: logging.Logger | None = None,
    ) -> None:
        self.session = session
        self.logger = logger or _LOGGER
        self.limits = limits
        self.retry = retry or RetryPolicy()
        self.host = host
        self.advice = advice
        self.scrub = scrub or Scrubber()
        self.bad_answer_error = bad_answer_error
        self.network_requests = 0
        self.on_wait: Callable[[float, str], None] | None = None

    def get(
        self,
        url: str,
        params: Mapping[str, str] | None = None,
        *,
        headers: Mapping[str, str | None],
        what: str = "",
        read: Callable[[bytes], dict[str, Any] | None] | None = None,
        check: Check | None = None,
        store: Callable[[requests.Response], None] | None = None,
        empty: Callable[[requests.Response, bool], bool] | None = None,
        hints: Mapping[int, str] | None = None,
    ) -> Fetched:
        """GET ``url?params`` until its answer is final: checked (then stored), or an error.

        Args:
            headers: the request's headers (one given as None is not sent); an
                ``Authorization`` header is sent to ``url``'s origin only, never after a
                redirect to another one.
            what: what the request fetches, named in messages.
            read: a 200's body into its head (``Fetched.head``); may raise BadAnswerError.
            check: the request's check hook (:data:`Check`), run after ``read``.
            store: called with an answer that passed both, before it is returned.
            empty: whether a final error answer (not a 429 or a 5xx) means "nothing" (given the
                response and whether a redirect led to it): it is then a ``Fetched`` with no
                body. It may raise BadAnswerError, to retry an answer that cannot be trusted.
            hints: per status, what the user can do (:func:`retrying.status_error`).

        Raises:
            ServiceError: ``url`` cannot be requested; the answer is larger than the cap;
                an error status (:func:`retrying.status_error`); a fault that outlasted the retries.
            RateLimitError: still 429 after the policy's waits.
            MatchkitError: ``bad_answer_error`` once a refused answer outlasted the retries;
                what ``check`` raises besides BadAnswerError.
        """
        shown = display_url(url, params)
        problem = url_problem(url)
        if problem is not None:
            raise ServiceError(
                f"GET {shown}{f' ({what})' if what else ''} cannot be sent: {problem}; the "
                f"{self.host} gave a URL that cannot be requested",
                url=shown,
            )

        def send() -> requests.Response:
            return self._send(url, params, dict(headers), shown=shown, what=what)

        def judge(response: requests.Response) -> Fetched:
            answered = response.url or shown
            redirected = bool(getattr(response, _REDIRECTED, False))
            problem = getattr(response, _PROBLEM, None)
            if problem is not None:
                raise BadAnswerError(problem)
            status = response.status_code
            if status == 200:
                body = response.content
                head = read(body) if read is not None else None
                fetched = Fetched(body, head, answered, status, False, redirected)
                if check is not None:
                    check(fetched)
                if store is not None:
                    store(response)
                return fetched
            if empty is not None and empty(response, redirected):
                return Fetched(None, None, answered, status, False, redirected)
            raise status_error(response, url=answered, what=what, scrub=self.scrub, hints=hints)

        retrying = Retrying(
            self.retry,
            self.logger,
            host=self.host,
            advice=self.advice,
            scrub=self.scrub,
            on_wait=self.on_wait,
            bad_answer_error=self.bad_answer_error,
        )
        return retrying.run(send, judge, url=shown, what=what)

    # -- sending -----------------------------------------------------------------------------

    def _send(
        self,
        url: str,
        params: Mapping[str, str] | None,
        headers: dict[str, str | None],
        *,
        shown: str,
        what: str,
    ) -> requests.Response:
        """One request and its redirects, the body read under the deadline and the cap."""
        limits = self.limits
        origin = _origin(url)
        redirected = False
        for hop in range(limits.max_redirects + 1):
            response = self._open(url, params, headers)
            location = getattr(response, _LOCATION, None)
            if location is None:
                self._read_body(response, shown=shown, what=what)
                setattr(response, _REDIRECTED, redirected)
                return response
            response.close()  # a redirect's body is never read
            try:
                target = urljoin(response.url or url, location)
            except ValueError:
                target = location
            problem = url_problem(target)
            if problem is None and hop == limits.max_redirects:
                problem = f"more than {limits.max_redirects} redirects (the last to {target!r})"
            if problem is not None:
                response._content = b""
                setattr(response, _PROBLEM, f"a redirect: {self.scrub.text(problem)}")
                return response
            self.logger.debug("GET %s redirected (%s) to %s", shown, response.status_code, target)
            if _origin(target) != origin:
                headers.pop("Authorization", None)  # never to another host
            url, params, redirected = target, None, True
        raise AssertionError("unreachable")  # pragma: no cover

    def _open(
        self, url: str, params: Mapping[str, str] | None, headers: dict[str, str | None]
    ) -> requests.Response:
        timeout = self.limits.timeout
        started = time.perf_counter()
        options: dict[str, Any] = {}
        if hasattr(self.session, "cache"):
            options["expire_after"] = DO_NOT_CACHE
        try:
            response = self.session.get(
                url,
                params=params,
                # requests leaves out a header given as None (its stubs do not say so).
                headers=headers,  # type: ignore[arg-type]
                timeout=(timeout, timeout),
                stream=True,
                allow_redirects=False,
                hooks={"response": _take_location},
                **options,
            )
        finally:
            self.network_requests += 1
        # The deadline counts from the moment the request was sent (after a rate-limit wait).
        response._matchkit_deadline = time.monotonic() + timeout - response.elapsed.total_seconds()  # type: ignore[attr-defined]
        self.logger.debug(
            "GET %s -> %s in %.1f ms",
            response.url or url,
            response.status_code,
            (time.perf_counter() - started) * 1e3,
        )
        return response

    def _read_body(self, response: requests.Response, *, shown: str, what: str) -> None:
        """Read the body into ``response.content``, a slice at a time, under the cap and the
        deadline."""
        limit = self.limits.max_body_bytes
        declared = response.headers.get("Content-Length", "").strip()
        if declared.isdigit() and int(declared) > limit:
            response.close()
            raise self._too_large(response, shown, what, f"it declares {int(declared):,} bytes")
        raw = response.raw
        sock = _socket(raw)
        deadline: float = response._matchkit_deadline  # type: ignore[attr-defined]
        chunks: list[bytes] = []
        size = 0
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise requests.Timeout(
                        f"the answer took longer than timeout={self.limits.timeout:g} s"
                    )
                if sock is not None:
                    sock.settimeout(min(remaining, self.limits.timeout))
                chunk = raw.read1(_CHUNK, decode_content=True)
                if not chunk:
                    break
                size += len(chunk)
                if size > limit or raw.tell() > limit:
                    raise self._too_large(
                        response, shown, what, f"more than {limit:,} bytes arrived"
                    )
                chunks.append(chunk)
        except (requests.RequestException, MatchkitError):
            response.close()
            raise
        except urllib3.exceptions.ReadTimeoutError as error:
            response.close()
            raise requests.Timeout(str(error)) from None
        except TimeoutError as error:
            response.close()
            raise requests.Timeout(str(error) or "timed out") from None
        except urllib3.exceptions.DecodeError as error:
            response.close()
            raise requests.exceptions.ContentDecodingError(str(error)) from None
        except (urllib3.exceptions.HTTPError, OSError) as error:
            response.close()
            raise requests.exceptions.ChunkedEncodingError(str(error)) from None
        if sock is not None:
            sock.settimeout(self.limits.timeout)  # as it was, for the next request on it
        response._content = b"".join(chunks)
        response._content_consumed = True

    def _too_large(
        self, response: requests.Response, shown: str, what: str, reason: str
    ) -> ServiceError:
        label = f"GET {shown} ({what})" if what else f"GET {shown}"
        return ServiceError(
            f"{label}: the answer is larger than max_body_bytes={self.limits.max_body_bytes:,} "
            f"({reason}); a proxy or the {self.host} is sending something else. If the answer "
            "is meant to be this large, raise the cap (Client(max_body_bytes=...))",
            status=response.status_code,
            url=response.url or shown,
        )


def _take_location(response: requests.Response, *args: Any, **kwargs: Any) -> requests.Response:
    """A response hook: a redirect's ``Location`` moves out of its headers, for :meth:`_send`
    to check and follow (requests would otherwise parse it first, and raise a raw ValueError
    for one that is malformed)."""
    if response.status_code in _REDIRECTS and "Location" in response.headers:
        setattr(response, _LOCATION, response.headers.pop("Location"))
    return response


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    port = parts.port or {"http": 80, "https": 443}.get(scheme)
    return scheme, (parts.hostname or "").lower(), port


def _socket(raw: Any) -> Any:
    """The socket under a streamed urllib3 response, to bound each read by the deadline."""
    connection = getattr(raw, "_connection", None)
    sock = getattr(connection, "sock", None)
    return sock if hasattr(sock, "settimeout") else None
