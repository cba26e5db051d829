"""Reading the service's answers: a 200's body checked by request kind, error objects, 429 waits.

Pure functions over bytes and headers; the transport (:mod:`matchkit.client.transport`) decides
what to do with what they find.

- :func:`check_body`: a 200 must be what was asked for (decision 11). A list answer is a JSON:API
  document whose ``data`` is a list of ``match`` resources; a single match a list of one or the
  object; the status a ``status`` resource; a player look-up a list of ``player`` resources
  (decision 19; :mod:`matchkit.client.players` checks them against what was asked). Anything
  else (a proxy's ``{"message": "maintenance"}``, ``{"data": null}``, HTML) is a
  :class:`BadAnswerError`: retried like a 5xx, never cached.
- :func:`error_objects`: the JSON:API ``errors`` of an error response, whatever shape the service
  used (described by :func:`matchkit.rules.jsonapi.describe_errors`).
- :func:`read_rate_limit_wait`: how long a 429 asks to wait, ``Retry-After`` first, else
  ``X-RateLimit-Reset`` read by plausibility (decision 14).
- :func:`empty_list`: whether a list request's 404 means "no matches" (decision 11).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, Literal

import msgspec
import orjson
import requests

from matchkit.rules.jsonapi import repeated_members

__all__ = [
    "BadAnswerError",
    "RequestKind",
    "Wait",
    "check_body",
    "empty_list",
    "error_objects",
    "no_players_found",
    "rate_limit_wait",
    "read_head",
    "read_rate_limit_wait",
]

RequestKind = Literal[
    "list",
    "match",
    "status",
    "players",
    "player",
    "samples",
    "seasons",
    "catalogue",
    "telemetry",
    "dictionary",
]
"""What a request asks for: the service's match lists, single matches, players, samples (PUBG's
random match ids), seasons, status and catalogue of names, and the asset hosts' telemetry files
and dictionaries of names (:data:`matchkit.client.transport.KINDS` holds each one's rules)."""
_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")
_NEAR_NOW = 86_400.0
"""How far from the clock an ``X-RateLimit-Reset`` may lie to be read as a UNIX time."""
_LARGEST_SECONDS = 1e6
"""Durations from here up are nanoseconds (the reference service's unit), below it seconds."""


class BadAnswerError(Exception):
    """A 200 whose body is not what the request asked for (internal; never leaves matchkit)."""


class _Shard(msgspec.Struct):
    shard: Any = msgspec.field(default=None, name="shardId")


class _Included(msgspec.Struct):
    """An included resource as the head reads it: its type, id and shard, nothing more."""

    type: Any = None
    id: Any = None
    # An object is read for its shardId only; anything else is the normalizer's to refuse.
    attributes: _Shard | list[Any] | str | int | float | bool | None = None


class _Head(msgspec.Struct):
    data: Any = None
    links: Any = None
    included: (
        list[_Included | list[Any] | str | int | float | bool | None]
        | dict[str, Any]
        | str
        | int
        | float
        | bool
        | None
    ) = None


_HEAD = msgspec.json.Decoder(_Head)


def read_head(body: bytes) -> dict[str, Any] | None:
    """A body's ``data`` and ``links``, and under ``"shards"`` the ``(type, id, shardId)`` of each
    included resource that names a shard; ``None`` when the body is not a JSON object.

    Only these are built; the rest is skipped, its syntax checked (and the body's UTF-8, which
    the skipping does not check). The whole page is parsed once, by the normalizer: with paging
    parsing whole pages and the normalizer reading them as dicts, a warm re-run took 0.94 s;
    reading the head only, 0.68 s (benchmarks/bench_client.py).
    """
    try:
        head = _HEAD.decode(body)
        body.decode("utf-8")
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return None
    included = head.included if isinstance(head.included, list) else []
    shards = [
        (item.type, item.id, item.attributes.shard)
        for item in included
        if isinstance(item, _Included)
        and isinstance(item.attributes, _Shard)
        and item.attributes.shard is not None
    ]
    return {"data": head.data, "links": head.links, "shards": shards}


def check_body(kind: RequestKind, body: bytes) -> dict[str, Any]:
    """The ``data`` and ``links`` of a 200's body, checked to be what a ``kind`` request asks for.

    Raises:
        BadAnswerError: the body is not a JSON object, it gives a top-level member twice (a
            second ``"data": []``: :func:`matchkit.rules.jsonapi.repeated_members`), or its
            ``data`` is not a list of ``match`` resources (``list``), one match (``match``: a
            list of one or the object), a list of ``player`` resources (``players``), one
            player (``player``), one ``sample`` (``samples``), a list of ``season`` resources
            (``seasons``) or a ``status`` resource (``status``); the message says what it is
            instead.
    """
    head = read_head(body)
    if head is None:
        raise BadAnswerError("a body that is not a JSON object")
    repeated = repeated_members(body)
    if repeated:
        names = ", ".join(repr(name) for name in repeated)
        raise BadAnswerError(f"a malformed document: its top-level member {names} is given twice")
    data = head["data"]
    if kind == "list":
        if not isinstance(data, list):
            raise BadAnswerError(f"a document whose data is {_shape(data)}, not a list of matches")
        for resource in data:
            _check_resource(resource, "match")
    elif kind in _LISTED:
        listed = _LISTED[kind]
        if not isinstance(data, list):
            raise BadAnswerError(f"a document whose data is {_shape(data)}, not a list of {kind}")
        for resource in data:
            _check_resource(resource, listed)
    elif kind == "samples":
        _check_resource(data, "sample")
    elif kind == "player":
        resources = data if isinstance(data, list) else [data]
        if len(resources) != 1:
            raise BadAnswerError(f"a document whose data is {_shape(data)}, not one player")
        _check_resource(resources[0], "player")
    elif kind == "match":
        resources = data if isinstance(data, list) else [data]
        if len(resources) != 1:
            raise BadAnswerError(f"a document whose data is {_shape(data)}, not one match")
        _check_resource(resources[0], "match")
    else:
        resources = data if isinstance(data, list) and len(data) == 1 else [data]
        _check_resource(resources[0], "status")
    return head


_LISTED = {"players": "player", "seasons": "season"}
"""The kinds whose ``data`` is a list of resources of one type (besides the match list)."""


def _check_resource(resource: object, expected: str) -> None:
    if not isinstance(resource, dict) or resource.get("type") != expected:
        raise BadAnswerError(f"a document holding {_shape(resource)} where a {expected} belongs")


def _shape(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, dict):
        kind = value.get("type")
        return f"a resource of type {kind!r}" if isinstance(kind, str) else "an object"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return f"a {type(value).__name__}"


def error_objects(response: requests.Response) -> list[dict[str, Any]]:
    """The JSON:API ``errors`` of an error response, whatever shape the service used.

    Accepts ``{"errors": [...]}``, a single error object, top-level ``title`` / ``detail`` /
    ``description`` / ``message``, and bodies that are not JSON at all (a gateway's HTML page),
    whose text is kept, shortened, as the ``detail``. A ``message`` or ``error`` member with no
    ``detail`` is also given as the ``detail``, so that describing the errors shows it.
    """
    status = str(response.status_code)
    try:
        body = orjson.loads(response.content)
    except orjson.JSONDecodeError:
        body = None
    if isinstance(body, dict):
        errors = body.get("errors")
        if isinstance(errors, dict):
            errors = [errors]
        if isinstance(errors, list) and errors:
            return [item if isinstance(item, dict) else {"detail": str(item)} for item in errors]
        found = {
            key: body[key]
            for key in ("title", "detail", "description", "message", "error")
            if key in body
        }
        if found:
            if not ({"detail", "description"} & set(found)):
                said = found.get("message", found.get("error"))
                if isinstance(said, str):
                    found["detail"] = said
            return [{"status": status, **found}]
    text = _SPACE.sub(" ", _TAG.sub(" ", response.text or "")).strip()
    error: dict[str, Any] = {"status": status, "title": response.reason or ""}
    if text:
        error["detail"] = text[:300]
    return [error]


@dataclass(frozen=True)
class Wait:
    """How long a 429 asks to wait, and which header said so, read how.

    Attributes:
        seconds: the wait, never negative.
        reason: e.g. ``"Retry-After: 7"`` or ``"X-RateLimit-Reset 1529052065 read as a UNIX
            time in seconds"``.
    """

    seconds: float
    reason: str


def read_rate_limit_wait(headers: Mapping[str, str], *, wall_clock: float) -> Wait | None:
    """How long a 429 asks the client to wait, or ``None`` when it does not say.

    ``Retry-After`` (seconds or an HTTP date) wins. Else ``X-RateLimit-Reset`` is read by
    plausibility against ``wall_clock`` (decision 14): a UNIX time in seconds, milliseconds or
    nanoseconds within a day of now; else a duration, in nanoseconds when large (the reference
    service's unit) or in seconds when small (below a million).
    """
    retry_after = headers.get("Retry-After")
    if retry_after is not None:
        text = retry_after.strip()
        try:
            return Wait(max(0.0, float(text)), f"Retry-After: {text}")
        except ValueError:
            pass
        try:
            moment = parsedate_to_datetime(text)
        except (TypeError, ValueError):
            moment = None
        if moment is not None and moment.tzinfo is not None:
            return Wait(max(0.0, moment.timestamp() - wall_clock), f"Retry-After: {text}")
    reset = headers.get("X-RateLimit-Reset")
    if reset is None:
        return None
    try:
        value = float(reset.strip())
    except ValueError:
        return None
    if value != value or value in (float("inf"), float("-inf")):
        return None
    shown = f"X-RateLimit-Reset {reset.strip()}"
    for scale, unit in ((1.0, "seconds"), (1e3, "milliseconds"), (1e9, "nanoseconds")):
        unix_time = value / scale
        if abs(unix_time - wall_clock) <= _NEAR_NOW:
            return Wait(max(0.0, unix_time - wall_clock), f"{shown} read as a UNIX time in {unit}")
    if value >= _LARGEST_SECONDS:
        return Wait(value / 1e9, f"{shown} read as a duration in nanoseconds")
    return Wait(max(0.0, value), f"{shown} read as a duration in seconds")


def rate_limit_wait(headers: Mapping[str, str], *, wall_clock: float) -> float | None:
    """The seconds of :func:`read_rate_limit_wait`, or ``None`` when the answer does not say."""
    wait = read_rate_limit_wait(headers, wall_clock=wall_clock)
    return None if wait is None else wait.seconds


def empty_list(
    response: requests.Response, params: Mapping[str, str] | None, *, redirected: bool
) -> bool:
    """Whether a list request's final error answer means "no matches" (decision 11).

    The real Vainglory service answered an empty list with 404, and the service is confirmed
    (``GET /status``) before any list request reaches it. But a 404 can mean "empty" only as
    that service sent it: its own JSON:API error document, at the first page of a window
    (``page[offset]`` 0: a window's later pages exist because an earlier one said so), and not
    at the end of a redirect (another host's "not found"). Any other 404 on a list (a gateway's
    HTML page, one in the middle of a window, one after a redirect) cannot be trusted: it is
    retried like a 5xx, then a ServiceError. Any other status is an error of its own.

    Raises:
        BadAnswerError: a 404 that cannot mean "empty".
    """
    if response.status_code != 404:
        return False
    offset = (params or {}).get("page[offset]", "0")
    if redirected:
        raise BadAnswerError("a 404 at the end of a redirect, where a list page was asked")
    if str(offset).strip() not in ("", "0"):
        raise BadAnswerError(
            f"a 404 at page[offset]={offset}, in the middle of a window whose earlier pages "
            "said more matches follow"
        )
    if not _is_error_document(response.content):
        raise BadAnswerError("a 404 that is not the service's JSON:API error document")
    return True


def no_players_found(response: requests.Response, *, redirected: bool) -> bool:
    """Whether a players request's final error answer means "none of them" (PUBG answers a
    request none of whose names or ids it knows with 404 "No Players Found Matching Criteria").

    Only the service's own error document, not at the end of a redirect, means that; any other
    404 (a gateway's page, another host's) is retried like a 5xx, then a ServiceError.

    Raises:
        BadAnswerError: a 404 that cannot mean "none found".
    """
    if response.status_code != 404:
        return False
    if redirected:
        raise BadAnswerError("a 404 at the end of a redirect, where players were asked")
    if not _is_error_document(response.content):
        raise BadAnswerError("a 404 that is not the service's error document")
    return True


def _is_error_document(body: bytes) -> bool:
    try:
        document = orjson.loads(body)
    except orjson.JSONDecodeError:
        return False
    if not isinstance(document, dict):
        return False
    errors = document.get("errors")
    return isinstance(errors, list) and bool(errors) and all(isinstance(e, dict) for e in errors)
