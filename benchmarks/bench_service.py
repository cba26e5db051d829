"""Throughput and latency of the service's list endpoint against the stack's ceiling.

The service runs in its own process (uvicorn, rate limiting off, the committed sample set) with
one extra route, ``/bench/fixed``: a minimal endpoint on the same stack (Starlette routing, the
same response and gzip code) that returns a fixed body of the same size as a list page. A load
generator in this process (wrk when installed, else a Python generator with threads) requests
both, with ``Accept-Encoding: gzip``, alternately; the list endpoint pages through limit 5.
Target: the list endpoint reaches at least 50% of the fixed endpoint's throughput, with zero
non-2xx responses.

Environment: ``MATCHKIT_BENCH_SECONDS`` (per measurement, default 5),
``MATCHKIT_BENCH_CONNECTIONS`` (default 8), ``MATCHKIT_BENCH_LOADGEN`` (``wrk`` or ``python``).
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

KEY = "bench-key-not-secret"
OFFSETS = tuple(range(0, 80, 5))
LIST_PATH = "/shards/global/matches?page[limit]=5&page[offset]={offset}"
FIXED_PATH = "/bench/fixed"
TARGET_RATIO = 0.5


@dataclass(frozen=True)
class Measurement:
    name: str
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    non_2xx: int
    requests: int


# -- the server process ---------------------------------------------------------------------------


def serve(store_dir: str) -> None:
    """Run the service with the fixed endpoint; prints ``PORT <n> BODY <bytes>`` when ready."""
    import socket

    import uvicorn
    from starlette.routing import Route

    from matchkit.rules.query import MatchQuery
    from matchkit.service import create_app
    from matchkit.service.app import _AsgiEndpoint
    from matchkit.service.documents import list_body, page_links
    from matchkit.service.protocol import uvicorn_config
    from matchkit.service.responses import JSON, accepts_gzip, respond

    app = create_app(rate_limit="off", api_keys=[KEY], store_dir=store_dir)
    service = app.state.service
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1024)
    port = listener.getsockname()[1]
    base_url = f"http://127.0.0.1:{port}"
    # The fixed body: what the list endpoint answers for its first benchmark page.
    params = [("page[limit]", "5"), ("page[offset]", "0")]
    query = MatchQuery.from_params("global", dict(params))
    matches = service.store.list_matches(query, query.window(now=service.now()))
    links = page_links(f"{base_url}/shards/global/matches", params, limit=5, offset=0)
    body = list_body(matches, links=links, base_url=base_url)

    async def fixed(request):
        return respond(
            200,
            body,
            content_type=JSON,
            gzip=accepts_gzip(request.headers.get("accept-encoding")),
        )

    app.router.routes.insert(0, Route(FIXED_PATH, _AsgiEndpoint(fixed)))
    print(f"PORT {port} BODY {len(body)}", flush=True)
    # The served stack: the service's own connection protocol and limits (issue 11 item 12).
    config = uvicorn_config(app, log_level="warning", access_log=False)
    uvicorn.Server(config).run(sockets=[listener])


# -- load generators ------------------------------------------------------------------------------

_WRK_SCRIPT = """
counter = 0
paths = {%s}
request = function()
  counter = counter + 1
  return wrk.format(nil, paths[(counter %% #paths) + 1])
end
"""


def _wrk(name: str, port: int, paths: list[str], seconds: float, connections: int) -> Measurement:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(_WRK_SCRIPT % ", ".join(f'"{path}"' for path in paths))
    try:
        output = subprocess.run(
            [
                "wrk",
                "-t1",
                f"-c{connections}",
                f"-d{seconds:g}s",
                "--latency",
                "-s",
                script.name,
                "-H",
                f"Authorization: Bearer {KEY}",
                "-H",
                "Accept-Encoding: gzip",
                "-H",
                "Accept: application/vnd.api+json",
                f"http://127.0.0.1:{port}/",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    finally:
        os.unlink(script.name)

    def number(pattern: str) -> float:
        found = re.search(pattern, output)
        return float(found.group(1)) if found else 0.0

    def latency(percent: str) -> float:
        found = re.search(rf"^\s+{percent}%\s+([\d.]+)(us|ms|s)\s*$", output, re.MULTILINE)
        if not found:
            return float("nan")
        scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[found.group(2)]
        return float(found.group(1)) * scale

    errors = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output
    )
    socket_errors = sum(int(value) for value in errors.groups()) if errors else 0
    return Measurement(
        name=name,
        requests_per_second=number(r"Requests/sec:\s+([\d.]+)"),
        p50_ms=latency("50"),
        p99_ms=latency("99"),
        non_2xx=int(number(r"Non-2xx or 3xx responses:\s+(\d+)")) + socket_errors,
        requests=int(number(r"(\d+) requests in")),
    )


def _python_load(
    name: str, port: int, paths: list[str], seconds: float, connections: int
) -> Measurement:
    headers = {
        "Authorization": f"Bearer {KEY}",
        "Accept-Encoding": "gzip",
        "Accept": "application/vnd.api+json",
    }
    latencies: list[float] = []
    failures = [0]
    lock = threading.Lock()
    deadline = time.perf_counter() + seconds

    def worker(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine, bad, counter = [], 0, index
        while time.perf_counter() < deadline:
            path = paths[counter % len(paths)]
            counter += 1
            began = time.perf_counter()
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            response.read()
            mine.append(time.perf_counter() - began)
            bad += not 200 <= response.status < 300
        connection.close()
        with lock:
            latencies.extend(mine)
            failures[0] += bad

    began = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    latencies.sort()
    return Measurement(
        name=name,
        requests_per_second=len(latencies) / elapsed,
        p50_ms=1000 * latencies[len(latencies) // 2],
        p99_ms=1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        non_2xx=failures[0],
        requests=len(latencies),
    )


# -- the run --------------------------------------------------------------------------------------


def main() -> None:
    seconds = float(os.environ.get("MATCHKIT_BENCH_SECONDS", "5"))
    connections = int(os.environ.get("MATCHKIT_BENCH_CONNECTIONS", "8"))
    loadgen = os.environ.get("MATCHKIT_BENCH_LOADGEN") or (
        "wrk" if shutil.which("wrk") else "python"
    )
    measure = _wrk if loadgen == "wrk" else _python_load
    with tempfile.TemporaryDirectory() as store_dir:
        server = subprocess.Popen(
            [
                sys.executable,
                "-c",
                f"from benchmarks.bench_service import serve; serve({store_dir!r})",
            ],
            cwd=Path(__file__).resolve().parents[1],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            ready = server.stdout.readline().split()
            if len(ready) != 4 or ready[0] != "PORT":
                raise SystemExit(f"the benchmark server did not start: {ready}")
            port, body_size = int(ready[1]), int(ready[3])
            list_paths = [LIST_PATH.format(offset=offset) for offset in OFFSETS]
            fixed_paths = [FIXED_PATH]
            measure("warm-up", port, list_paths, 1.0, connections)
            measure("warm-up", port, fixed_paths, 1.0, connections)
            rounds: dict[str, list[Measurement]] = {"fixed": [], "list": []}
            for _ in range(2):
                rounds["fixed"].append(measure("fixed", port, fixed_paths, seconds, connections))
                rounds["list"].append(measure("list", port, list_paths, seconds, connections))
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(
        f"service list endpoint vs fixed body of the same size ({body_size} bytes before gzip); "
        f"load generator: {loadgen}, {connections} connections, 2 x {seconds:g} s each"
    )
    print(
        f"{'endpoint':<8} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8} {'requests':>9}"
    )
    summary = {}
    for name, results in rounds.items():
        rate = statistics.mean(m.requests_per_second for m in results)
        p50 = statistics.mean(m.p50_ms for m in results)
        p99 = statistics.mean(m.p99_ms for m in results)
        non_2xx = sum(m.non_2xx for m in results)
        total = sum(m.requests for m in results)
        summary[name] = rate
        print(f"{name:<8} {rate:9.1f} {p50:8.2f} {p99:8.2f} {non_2xx:8d} {total:9d}")
        if non_2xx:
            print(f"FAIL: {non_2xx} non-2xx responses on {name} with rate limiting off")
    ratio = summary["list"] / summary["fixed"]
    verdict = "ok" if ratio >= TARGET_RATIO else "BELOW TARGET"
    print(f"list / fixed throughput ratio: {ratio:.2f} (target >= {TARGET_RATIO:.2f}): {verdict}")


if __name__ == "__main__":
    main()
