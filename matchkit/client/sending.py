"""One GET on the wire: its redirects, its deadline and the cap on its body.

:class:`Sender` is what :class:`matchkit.client.request.RequestPath` sends each try with. For
one try it:

- follows redirects itself, at most :attr:`Limits.max_redirects`, checking each ``Location``
  (:func:`matchkit.client.urls.url_problem`; a malformed one never reaches requests, which
  would raise a raw ``ValueError``), and drops the ``Authorization`` header when a redirect
  leaves the first URL's origin (scheme, host and port);
- bounds the whole try by one deadline (:attr:`Limits.timeout`), from sending it to the last
  byte of its body: each socket read is given only what is left of it, so a body that trickles
  in cannot hold the client (the connection and each read of the head are bounded by the
  timeout too, by requests; what the head took counts against the body's deadline);
- reads the body a slice at a time (urllib3 inflates a bounded slice per read) under the cap
  (:attr:`Limits.max_body_bytes`), counted on the wire and decoded, so that a small gzip body
  that would inflate to gigabytes is a typed :class:`matchkit.errors.ServiceError`, never a
  ``MemoryError``.

A redirect that cannot be followed is not raised here: the response comes back marked with the
problem (:func:`problem_of`), for the path to retry like any answer that is not what was asked.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

import requests
import urllib3.exceptions
from requests_cache import DO_NOT_CACHE

from matchkit.client.retrying import Scrubber
from matchkit.client.urls import origin, url_problem
from matchkit.errors import MatchkitError, ServiceError

__all__ = ["DEFAULT_MAX_BODY_BYTES", "Limits", "Sender", "problem_of", "was_redirected"]

DEFAULT_MAX_BODY_BYTES = 256 * 2**20
"""The default cap on one answer, on the wire and decoded: 256 MiB (a list page is tens of
kilobytes, a telemetry file a few megabytes)."""
_CHUNK = 64 * 1024
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_PROBLEM = "_matchkit_problem"
_REDIRECTED = "_matchkit_redirected"
_LOCATION = "_matchkit_location"
_DEADLINE = "_matchkit_deadline"


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


def problem_of(response: requests.Response) -> str | None:
    """Why a response is not an answer (a redirect that could not be followed), or ``None``."""
    problem = getattr(response, _PROBLEM, None)
    return problem if isinstance(problem, str) else None


def was_redirected(response: requests.Response) -> bool:
    """Whether a redirect led to ``response``."""
    return bool(getattr(response, _REDIRECTED, False))


class Sender:
    """Sends one try of a GET, with its redirects, under :class:`Limits` (see the module).

    Args:
        session: the client's session (its cache is neither read nor written here: the
            transport looks up and stores).
        limits: the deadline, the cap on body size and the redirects.
        scrub: blanks the API key out of what a redirect's problem says.
        logger: where each try is logged (DEBUG).

    Attributes:
        network_requests: requests sent (retries and redirects included).
    """

    def __init__(
        self,
        session: requests.Session,
        *,
        limits: Limits,
        scrub: Scrubber,
        logger: logging.Logger,
    ) -> None:
        self.session = session
        self.limits = limits
        self.scrub = scrub
        self.logger = logger
        self.network_requests = 0

    def send(
        self,
        url: str,
        params: Mapping[str, str] | None,
        headers: dict[str, str | None],
        *,
        shown: str,
        what: str,
        host: str,
    ) -> requests.Response:
        """One request and its redirects, the body read under the deadline and the cap.

        Raises:
            requests.RequestException: a transport failure (the path retries the transient).
            ServiceError: the body is larger than the cap.
        """
        limits = self.limits
        first = origin(url)
        redirected = False
        for hop in range(limits.max_redirects + 1):
            response = self._open(url, params, headers)
            location = getattr(response, _LOCATION, None)
            if location is None:
                self._read_body(response, shown=shown, what=what, host=host)
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
            if origin(target) != first:
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
        setattr(response, _DEADLINE, time.monotonic() + timeout - response.elapsed.total_seconds())
        self.logger.debug(
            "GET %s -> %s in %.1f ms",
            response.url or url,
            response.status_code,
            (time.perf_counter() - started) * 1e3,
        )
        return response

    def _read_body(self, response: requests.Response, *, shown: str, what: str, host: str) -> None:
        """Read the body into ``response.content``, a slice at a time, under the cap and the
        deadline."""
        limit = self.limits.max_body_bytes
        declared = response.headers.get("Content-Length", "").strip()
        if declared.isdigit() and int(declared) > limit:
            response.close()
            reason = f"it declares {int(declared):,} bytes"
            raise self._too_large(response, shown, what, host, reason)
        raw = response.raw
        sock = _socket(raw)
        deadline: float = getattr(response, _DEADLINE)
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
                    reason = f"more than {limit:,} bytes arrived"
                    raise self._too_large(response, shown, what, host, reason)
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
        self, response: requests.Response, shown: str, what: str, host: str, reason: str
    ) -> ServiceError:
        label = f"GET {shown} ({what})" if what else f"GET {shown}"
        return ServiceError(
            f"{label}: the answer is larger than max_body_bytes={self.limits.max_body_bytes:,} "
            f"({reason}); a proxy or the {host} is sending something else. If the answer "
            "is meant to be this large, raise the cap (Client(max_body_bytes=...))",
            status=response.status_code,
            url=response.url or shown,
        )


def _take_location(response: requests.Response, *args: Any, **kwargs: Any) -> requests.Response:
    """A response hook: a redirect's ``Location`` moves out of its headers, for
    :meth:`Sender.send` to check and follow (requests would otherwise parse it first, and raise a
    raw ValueError for one that is malformed)."""
    if response.status_code in _REDIRECTS and "Location" in response.headers:
        setattr(response, _LOCATION, response.headers.pop("Location"))
    return response


def _socket(raw: Any) -> Any:
    """The socket under a streamed urllib3 response, to bound each read by the deadline."""
    connection = getattr(raw, "_connection", None)
    sock = getattr(connection, "sock", None)
    return sock if hasattr(sock, "settimeout") else None
