"""The misbehaving proxies: real HTTP servers on loopback, one thread per connection.

Three listeners share one :class:`Chaos` state:

- ``api``: in front of the reference service's API (``/status``, ``/shards/...``); the client
  is given its address. It asks the service with its own ``Host``, so links and asset URLs name
  it, and rewrites each telemetry URL in a match document to the ``assets`` listener: the files
  come from another host, as on the real service (a CDN).
- ``assets``: in front of the service's telemetry files (``/telemetry/...``).
- ``elsewhere``: another host, where the redirects of ``redirect_elsewhere`` point. It answers as
  the service does (forwarding what it is sent), and records whether it ever saw the API key.

A seed's :class:`tests.chaos.catalogue.Mix` decides which requests get which fault; with no
mix (:meth:`Chaos.clean`) every request is forwarded as it is. Slow and endless bodies are
bounded (:data:`BOUND` seconds): a client still reading then had its deadline fail, which is
recorded in :attr:`Chaos.held`.
"""

from __future__ import annotations

import re
import select
import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from email.utils import formatdate
from functools import lru_cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

import orjson
import requests

from tests.chaos.catalogue import RATE_LIMIT_FORMS, Mix, draw_fault, request_random

BOUND = 2.5
"""Seconds a slow or endless body goes on at most (the client's timeout in the suite is lower)."""

COSTLY = frozenset({"slow_headers", "slow_body", "endless_body", "gzip_bomb"})
"""The faults that cost the client time (up to :data:`BOUND`) or memory."""

COSTLY_BUDGET = 3
"""The costly faults a seed serves at most (later draws of one are answered as the service
answers), so that a seed stays short whatever its probability."""

BOMB_SIZE = 200 * 2**20
"""What the gzip bomb inflates to."""

_LIST = re.compile(r"^/shards/[^/]+/matches$")
_MATCH = re.compile(r"^/shards/[^/]+/matches/([^/]+)$")
_JSONAPI = "application/vnd.api+json"
_HTML_404 = b"<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>"
_HTML_5XX = b"<html><body><h1>%d</h1><p>The gateway could not reach the upstream.</p></body></html>"
_FILTERS = ("filter[serverType]", "filter[createdAt-start]", "filter[createdAt-end]")
_GLOBAL_ONLY = ("filter[serverType]", "filter[rankingType]")
"""Filters of the ``global`` shard the ``na`` shard refuses (a 400)."""


@lru_cache(maxsize=1)
def gzip_bomb() -> bytes:
    """200 KB of gzip inflating to :data:`BOMB_SIZE` zero bytes (made once, in about 0.5 s)."""
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = bytes(2**20)
    return b"".join(packer.compress(block) for _ in range(BOMB_SIZE // 2**20)) + packer.flush()


@dataclass
class Request:
    """One request as a proxy sees it, and what answering it may use."""

    handler: BaseHTTPRequestHandler
    role: str
    kind: str | None
    path: str
    params: list[tuple[str, str]]
    rng: Any = None
    detail: str = ""

    @property
    def content_type(self) -> str:
        return "application/json" if self.kind == "telemetry" else _JSONAPI


@dataclass
class Chaos:
    """The state the three listeners share.

    Attributes:
        service_url: the reference service behind them.
        api_key: the key the client sends (recorded when another host sees it).
        mix: the seed's draw, or ``None`` for fault-free forwarding.
        log: this seed's faults, one line each, in the order they were served.
        held: slow or endless bodies the client kept reading until :data:`BOUND`.
        key_seen_by: the listeners other than ``api`` that received the API key.
        match_ids: the ids ``swapped_id`` answers with instead.
        telemetry_paths: the files ``telemetry_of_another_match`` answers with instead.
    """

    service_url: str
    api_key: str
    urls: dict[str, str] = field(default_factory=dict)
    mix: Mix | None = None
    log: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    key_seen_by: set[str] = field(default_factory=set)
    match_ids: list[str] = field(default_factory=list)
    telemetry_paths: list[str] = field(default_factory=list)
    _seen: Counter[str] = field(default_factory=Counter)
    _costly: int = 0
    _shifts: dict[str, list[int]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _local: threading.local = field(default_factory=threading.local)

    # -- a seed ------------------------------------------------------------------------------

    def begin(self, mix: Mix | None) -> None:
        """Start a seed (``None``: no faults): forget the last seed's draws and records."""
        with self._lock:
            self.mix = mix
            self.log, self.held, self.key_seen_by = [], [], set()
            self._seen.clear()
            self._shifts.clear()
            self._costly = 0

    def clean(self) -> None:
        """Forward everything as it is from now on (records are kept)."""
        with self._lock:
            self.mix = None
            self._shifts.clear()

    # -- answering ---------------------------------------------------------------------------

    def handle(self, handler: BaseHTTPRequestHandler, role: str) -> None:
        path, _, query = handler.path.partition("?")
        authorization = handler.headers.get("Authorization") or ""
        if role != "api" and self.api_key and self.api_key in authorization:
            with self._lock:
                self.key_seen_by.add(role)
        params = parse_qsl(query, keep_blank_values=True)
        request = Request(handler, role, _kind(role, path), path, params)
        if role == "api" and path.startswith("/gone/"):
            self._send(request, 404, _HTML_404, content_type="text/html")
            return
        if role in ("api", "assets") and path.startswith("/moved/"):
            request.path = path.removeprefix("/moved")
            self._forward(request)
            return
        fault = None
        with self._lock:
            mix = self.mix
            if mix is not None and request.kind is not None:
                identity = f"{role} {handler.path}"
                request.rng = request_random(mix.seed, identity, self._seen[identity])
                self._seen[identity] += 1
                fault = draw_fault(mix, request.kind, request.rng)
                if fault in COSTLY:
                    self._costly += 1
                    fault = fault if self._costly <= COSTLY_BUDGET else None
            if request.kind == "list":
                fault = self._move(request, fault)
        if fault is None:
            self._forward(request)
            return
        try:
            getattr(self, f"_fault_{fault}")(request)
        finally:
            with self._lock:
                self.log.append(f"{request.kind} {_shown(handler.path)}: {fault}{request.detail}")

    def _move(self, request: Request, fault: str | None) -> str | None:
        """Apply a moving match: ``page[offset]`` shifted while the shift lasts (under lock)."""
        params = dict(request.params)
        offset = int(params.get("page[offset]", "0") or 0)
        window = urlencode(sorted((k, v) for k, v in request.params if k != "page[offset]"))
        shift = self._shifts.get(window)
        if shift is None and fault == "moving_matches" and offset > 0:
            delta = request.rng.choice((1, 1, 2, -1))
            shift = self._shifts[window] = [delta, request.rng.randint(1, 3)]
            how = "left" if delta > 0 else "arrived"
            self.log.append(
                f"list {_shown(request.handler.path)}: moving_matches ({abs(delta)} {how} "
                f"before the offset, for {shift[1]} list request(s))"
            )
        if fault == "moving_matches":
            fault = None  # the shift is the fault; at offset 0 there is nothing before it
        if shift is not None and offset > 0:
            params["page[offset]"] = str(max(0, offset + shift[0]))
            request.params = list(params.items())
            shift[1] -= 1
            if shift[1] == 0:
                del self._shifts[window]
        return fault

    def _upstream(self, request: Request, path: str | None = None) -> requests.Response:
        session = getattr(self._local, "session", None)
        if session is None:
            session = self._local.session = requests.Session()
            session.trust_env = False
        headers = {"Host": self.urls["api"].removeprefix("http://")}
        for name in ("Authorization", "Accept"):
            if request.handler.headers.get(name):
                headers[name] = request.handler.headers[name]
        response = session.get(
            self.service_url + (path or request.path),
            params=request.params,
            headers=headers,
            timeout=30,
            allow_redirects=False,
        )
        api, assets = self.urls["api"], self.urls["assets"]
        response._content = response.content.replace(
            f"{api}/telemetry/".encode(), f"{assets}/telemetry/".encode()
        )
        return response

    def _forward(self, request: Request, path: str | None = None) -> None:
        response = self._upstream(request, path)
        self._send_upstream(request, response, response.content)

    def _send_upstream(
        self, request: Request, response: requests.Response, body: bytes, **override: str
    ) -> None:
        kept = {
            name: value
            for name, value in response.headers.items()
            if name.lower() in ("content-type", "retry-after") or name.lower().startswith("x-")
        }
        content_type = override.pop("content_type", kept.pop("Content-Type", request.content_type))
        kept.pop("content-type", None)
        self._send(request, response.status_code, body, content_type=content_type, headers=kept)

    def _send(
        self,
        request: Request,
        status: int,
        body: bytes,
        *,
        content_type: str | None = None,
        headers: dict[str, str] | None = None,
        length: int | None = None,
        close: bool = False,
    ) -> None:
        handler = request.handler
        handler.send_response(status)
        if content_type:
            handler.send_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(body) if length is None else length))
        if close:
            handler.send_header("Connection", "close")
            handler.close_connection = True
        handler.end_headers()
        handler.wfile.write(body)

    # -- the catalogue's entries (tests/chaos/catalogue.py) ----------------------------------

    def _fault_server_error(self, request: Request) -> None:
        status = request.rng.choice((500, 502, 503, 504))
        if status in (502, 504):
            self._send(request, status, _HTML_5XX % status, content_type="text/html")
        else:
            body = orjson.dumps({"errors": [{"status": str(status), "title": "failing"}]})
            self._send(request, status, body, content_type=request.content_type)

    def _fault_rate_limited(self, request: Request) -> None:
        form = request.rng.choice(RATE_LIMIT_FORMS)
        soon = time.time() + 1
        headers = {
            "retry-after-seconds": {"Retry-After": request.rng.choice(("0", "1"))},
            "retry-after-http-date": {"Retry-After": formatdate(soon, usegmt=True)},
            "reset-epoch-seconds": {"X-RateLimit-Reset": str(int(soon))},
            "reset-epoch-milliseconds": {"X-RateLimit-Reset": str(int(soon * 1e3))},
            "reset-epoch-nanoseconds": {"X-RateLimit-Reset": str(int(soon * 1e9))},
            "reset-duration-nanoseconds": {"X-RateLimit-Reset": "500000000"},
            "reset-duration-seconds": {"X-RateLimit-Reset": "1"},
            "no-wait-given": {},
        }[form]
        request.detail = f" ({form})"
        body = orjson.dumps({"errors": [{"status": "429", "title": "Too Many Requests"}]})
        self._send(request, 429, body, content_type=request.content_type, headers=headers)

    def _fault_html_404(self, request: Request) -> None:
        self._send(request, 404, _HTML_404, content_type="text/html")

    def _fault_dropped_connection(self, request: Request) -> None:
        request.handler.close_connection = True
        request.handler.connection.shutdown(socket.SHUT_RDWR)

    def _fault_truncated_body(self, request: Request) -> None:
        response = self._upstream(request)
        body = response.content
        self._send(
            request,
            response.status_code,
            body[: len(body) // 2],
            content_type=request.content_type,
            length=len(body),
            close=True,
        )

    def _fault_slow_headers(self, request: Request) -> None:
        started = time.monotonic()
        connection = request.handler.connection
        while time.monotonic() - started < BOUND:
            readable, _, _ = select.select([connection], [], [], 0.05)
            if readable and not connection.recv(1, socket.MSG_PEEK):
                break  # the client gave up
        else:
            self._held(request, "slow_headers", started)
        request.handler.close_connection = True

    def _fault_slow_body(self, request: Request) -> None:
        body = self._upstream(request).content
        self._trickle(request, "slow_body", len(body), (body[i : i + 1] for i in range(len(body))))

    def _fault_endless_body(self, request: Request) -> None:
        start = b"[" if request.kind == "telemetry" else b'{"data":['
        chunk = b" " * 16384

        def chunks() -> Any:
            yield b"%x\r\n%s\r\n" % (len(start), start)
            while True:
                yield b"%x\r\n%s\r\n" % (len(chunk), chunk)

        self._trickle(request, "endless_body", None, chunks(), every=0.01)

    def _trickle(
        self, request: Request, name: str, length: int | None, parts: Any, every: float = 0.1
    ) -> None:
        handler = request.handler
        handler.close_connection = True
        handler.send_response(200)
        handler.send_header("Content-Type", request.content_type)
        if length is None:
            handler.send_header("Transfer-Encoding", "chunked")
        else:
            handler.send_header("Content-Length", str(length))
        handler.send_header("Connection", "close")
        handler.end_headers()
        started = time.monotonic()
        try:
            for part in parts:
                if time.monotonic() - started >= BOUND:
                    self._held(request, name, started)
                    return  # cut: the connection closes mid-body
                handler.wfile.write(part)
                time.sleep(every)
        except OSError:
            return  # the client gave up

    def _held(self, request: Request, name: str, started: float) -> None:
        with self._lock:
            self.held.append(
                f"{request.kind} {_shown(request.handler.path)}: {name}: the client neither "
                f"finished nor closed the connection in {time.monotonic() - started:.1f} s"
            )

    def _fault_gzip_bomb(self, request: Request) -> None:
        headers = {"Content-Encoding": "gzip"}
        self._send(request, 200, gzip_bomb(), content_type=request.content_type, headers=headers)

    def _fault_invalid_body(self, request: Request) -> None:
        variant = request.rng.choice(("cut", "not utf-8", "empty", "not json", "trailing"))
        request.detail = f" ({variant})"
        if variant in ("cut", "trailing"):
            body = self._upstream(request).content
            body = body[: len(body) // 2] if variant == "cut" else body + b"}garbage"
        else:
            body = {"not utf-8": b'{"data": ["\xff\xfe"]}', "empty": b"", "not json": b"<ok>"}[
                variant
            ]
        self._send(request, 200, body, content_type=request.content_type)

    def _fault_bad_200(self, request: Request) -> None:
        shapes: dict[str | None, tuple[Any, ...]] = {
            "list": (
                {"data": None},
                {"message": "maintenance"},
                {"data": {"type": "match", "id": "x"}},
                {"data": [{"type": "player", "id": "x"}]},
                {"errors": [{"status": "500", "title": "oops"}]},
                {"data": "matches"},
            ),
            "match": ({"data": []}, {"data": None}, {"data": [{"type": "player", "id": "x"}]}),
            "status": ({"data": None}, {"message": "ok"}, {"data": [{"type": "match"}]}),
            "telemetry": ({"events": []}, [{"foo": 1}], [1, 2, 3], {"data": []}),
        }
        shape = request.rng.choice(shapes[request.kind])
        request.detail = f" ({orjson.dumps(shape).decode()[:40]})"
        self._send(request, 200, orjson.dumps(shape), content_type=request.content_type)

    def _fault_wrong_content_type(self, request: Request) -> None:
        variant = request.rng.choice(("text/html", "text/plain", "octet-stream", "html page"))
        request.detail = f" ({variant})"
        if variant == "html page":
            body = b"<html><body>Service temporarily in maintenance</body></html>"
            self._send(request, 200, body, content_type="text/html")
            return
        response = self._upstream(request)
        content_type = "application/octet-stream" if variant == "octet-stream" else variant
        self._send_upstream(request, response, response.content, content_type=content_type)

    def _redirect(self, request: Request, location: str) -> None:
        status = request.rng.choice((301, 302, 303, 307, 308))
        request.detail = f" ({status} to {location[:60]})"
        self._send(request, status, b"", headers={"Location": location})

    def _fault_redirect_elsewhere(self, request: Request) -> None:
        self._redirect(request, self.urls["elsewhere"] + request.handler.path)

    def _fault_redirect_within(self, request: Request) -> None:
        self._redirect(request, self.urls[request.role] + "/moved" + request.handler.path)

    def _fault_redirect_to_404(self, request: Request) -> None:
        self._redirect(request, self.urls["api"] + "/gone" + request.handler.path)

    def _fault_redirect_malformed(self, request: Request) -> None:
        where = ("http://[::1/x", "http://127.0.0.1:99999/x", "http://:80/x", "http:///x")
        self._redirect(request, request.rng.choice(where))

    def _fault_short_page(self, request: Request) -> None:
        params = dict(request.params)
        limit = int(params.get("page[limit]", "5") or 5)
        params["page[limit]"] = str(max(1, limit - request.rng.randint(1, max(1, limit - 1))))
        request.detail = f" (limit {params['page[limit]']})"
        request.params = list(params.items())
        self._forward(request)

    def _edited_page(self, request: Request, edit: Any) -> None:
        response = self._upstream(request)
        document = orjson.loads(response.content) if response.status_code == 200 else None
        if not isinstance(document, dict) or not isinstance(document.get("data"), list):
            self._send_upstream(request, response, response.content)
            return
        document["data"] = edit(document["data"])
        self._send_upstream(request, response, orjson.dumps(document))

    def _fault_reordered_items(self, request: Request) -> None:
        self._edited_page(request, lambda data: data[::-1])

    def _fault_duplicated_items(self, request: Request) -> None:
        replace = request.rng.random() < 0.5
        request.detail = " (last replaced by the first)" if replace else " (first appended)"

        def edit(data: list[Any]) -> list[Any]:
            if not data:
                return data
            return [*data[:-1], data[0]] if replace and len(data) > 1 else [*data, data[0]]

        self._edited_page(request, edit)

    def _fault_dropped_filter(self, request: Request) -> None:
        present = [name for name, _ in request.params if name in _FILTERS]
        if present:
            dropped = request.rng.choice(present)
            request.detail = f" ({dropped})"
            request.params = [(k, v) for k, v in request.params if k != dropped]
        self._forward(request)

    def _fault_swapped_id(self, request: Request) -> None:
        asked = _MATCH.match(request.path)
        others = [i for i in self.match_ids if asked and quote(i, safe="") != asked.group(1)]
        if not others:
            self._forward(request)
            return
        other = request.rng.choice(others)
        request.detail = f" (answered by {other})"
        self._forward(request, request.path.rsplit("/", 1)[0] + "/" + quote(other, safe=""))

    def _fault_another_shard(self, request: Request) -> None:
        """A gateway mixing shards up: a list is answered by the ``na`` shard's list of the same
        window (its filters that ``na`` takes), a match with its document as the ``na`` shard's
        (each ``shardId`` and its own link)."""
        if request.kind == "list":
            request.detail = " (the na shard's page)"
            request.params = [(k, v) for k, v in request.params if k not in _GLOBAL_ONLY]
            self._forward(request, "/shards/na/matches")
            return
        response = self._upstream(request)
        body = response.content.replace(b'"shardId":"global"', b'"shardId":"na"')
        body = body.replace(b"/shards/global/", b"/shards/na/")
        request.detail = " (as the na shard's)"
        self._send_upstream(request, response, body)

    def _fault_repeated_member(self, request: Request) -> None:
        """A second copy of a top-level member, empty, after the first: what a JSON reader keeps
        (the last) would be an empty page, or matches without their rosters."""
        response = self._upstream(request)
        body = response.content.rstrip()
        member = request.rng.choice(("data", "included"))
        if response.status_code != 200 or not body.endswith(b"}"):
            self._send_upstream(request, response, response.content)
            return
        request.detail = f" (a second {member!r})"
        self._send_upstream(request, response, body[:-1] + f',"{member}":[]}}'.encode())

    def _fault_telemetry_of_another_match(self, request: Request) -> None:
        others = [path for path in self.telemetry_paths if path != request.path]
        if not others:
            self._forward(request)
            return
        other = request.rng.choice(others)
        request.detail = f" (answered by {other.rsplit('/', 1)[-1][:36]})"
        self._forward(request, other)

    def _fault_empty_telemetry(self, request: Request) -> None:
        self._send(request, 200, b"[]", content_type="application/json")


def _kind(role: str, path: str) -> str | None:
    if role == "assets":
        return "telemetry" if path.startswith("/telemetry/") else None
    if role != "api":
        return None
    if path == "/status":
        return "status"
    if _LIST.match(path):
        return "list"
    return "match" if _MATCH.match(path) else None


def _shown(target: str) -> str:
    """A request target, short: the path's last part and the paging parameters."""
    path, _, query = target.partition("?")
    params = dict(parse_qsl(query))
    paging = [f"{k[5:-1]}={v}" for k, v in params.items() if k.startswith("page[")]
    tail = path.rsplit("/", 1)[-1][:40]
    return f"{tail} {' '.join(paging)}".strip()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Listener

    def setup(self) -> None:
        super().setup()
        # Headers and body go out in two writes: without this, Nagle's algorithm and the
        # client's delayed ACK hold each answer about 40 ms.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def do_GET(self) -> None:
        try:
            self.server.chaos.handle(self, self.server.role)
        except OSError:
            self.close_connection = True  # the client went away mid-answer

    def log_message(self, format: str, *args: Any) -> None:
        return


class _Listener(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, chaos: Chaos, role: str) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.chaos, self.role = chaos, role

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that resets a connection is part of the game: nothing to print."""


class Proxies:
    """The three listeners (``api``, ``assets``, ``elsewhere``) in front of one service, each
    served by a thread; :meth:`close` stops them."""

    def __init__(self, service_url: str, api_key: str) -> None:
        self.chaos = Chaos(service_url=service_url.rstrip("/"), api_key=api_key)
        roles = ("api", "assets", "elsewhere")
        self._listeners = {role: _Listener(self.chaos, role) for role in roles}
        for role, listener in self._listeners.items():
            self.chaos.urls[role] = listener.url
            name = f"chaos-{role}"
            threading.Thread(target=listener.serve_forever, name=name, daemon=True).start()

    @property
    def api_url(self) -> str:
        return self.chaos.urls["api"]

    def close(self) -> None:
        for listener in self._listeners.values():
            listener.shutdown()
            listener.server_close()
