"""One seed of the chaos suite: a fetch through the faulty proxies, checked against the truth.

:func:`open_world` starts the reference service, the proxies (:mod:`tests.chaos.proxy`) and
fetches the truth once, fault-free, through the same proxies (so that links and asset URLs
name the same hosts). :func:`run_seed` then, for one seed:

1. fetches through the faulty proxies, on a new cache folder, with the client's public API:
   ``matches`` (a 3-day window of one server type, pages of 5), ``get_matches`` (4 ids) and
   ``telemetry`` (2 matches, by id); each stage must equal the truth exactly (every table, with
   ``pandas.testing.assert_frame_equal``) or raise a :class:`matchkit.errors.MatchkitError`;
2. fetches the same again, fault-free, over the SAME cache folder: it must give the truth
   exactly (the cache held only answers that passed their checks);
3. checks that the API key never reached another host (the ``elsewhere`` and ``assets``
   listeners);
4. checks that no slow or endless body held the client past the proxies' bound
   (:data:`tests.chaos.proxy.BOUND`, over three times the client's ``timeout``), and that the
   process's peak memory did not grow by more than :data:`MEMORY_LIMIT` during the fetch (a
   gzip bomb inflating to 200 MB must be cut, not decoded).

The result names the seed, its mix and every fault served, so that a failing seed can be
replayed (``MATCHKIT_CHAOS_SEED=N``) and made a regression test.
"""

from __future__ import annotations

import contextlib
import shutil
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pandas as pd

from matchkit.client import RetryPolicy
from matchkit.client.client import Client
from matchkit.errors import MatchkitError
from matchkit.model.frames import MatchFrames
from matchkit.model.schema import TABLES
from matchkit.service import running
from tests.chaos.catalogue import Mix, draw_mix
from tests.chaos.proxy import Proxies, gzip_bomb
from tests.client.conftest import problems_without_counts

START, END = "2026-10-20", "2026-10-23"
FILTERS: dict[str, Any] = {"server_types": ["QUICK2V2"]}
TIMEOUT = 0.75
"""The client's ``timeout`` in the suite: a slow body must be cut well before the proxy's bound."""
MAX_BODY_BYTES = 8 * 2**20
"""The client's cap on body size in the suite (answers here are below 100 KB)."""
MEMORY_LIMIT = 100 * 2**20
"""How much a seed's fetch may raise the process's peak memory (the truth's fetch: ~10 MB)."""
STAGES = ("matches", "get_matches", "telemetry")


def no_sleep(seconds: float) -> None:
    """The retry policy's sleep: 5xx backoffs and 429 waits cost nothing in the suite."""


@dataclass
class World:
    """What every seed shares: the service, the proxies, the truth and a scratch folder."""

    proxies: Proxies
    api_key: str
    now: Any
    root: Path
    single_ids: list[str] = field(default_factory=list)
    telemetry_ids: list[str] = field(default_factory=list)
    truth: dict[str, Any] = field(default_factory=dict)

    def client(self, cache_dir: Path) -> Client:
        """A client of the api proxy: small timeout, retries that never sleep."""
        client = Client(
            self.proxies.api_url,
            api_key=self.api_key,
            now=self.now,
            cache_dir=cache_dir,
            rate_limit="off",
            progress=False,
            timeout=TIMEOUT,
            max_body_bytes=MAX_BODY_BYTES,
        )
        client.retry_policy = RetryPolicy(
            attempts=6, backoff=0.0, max_backoff=0.0, jitter=0.0, sleep=no_sleep
        )
        return client

    def stages(self, client: Client) -> dict[str, Callable[[], Any]]:
        return {
            "matches": lambda: client.matches(START, END, **FILTERS),
            "get_matches": lambda: client.get_matches(self.single_ids),
            "telemetry": lambda: client.telemetry(self.telemetry_ids),
        }


@contextlib.contextmanager
def open_world(root: Path) -> Iterator[World]:
    """Start the service and the proxies, and fetch the truth (fault-free, through them)."""
    gzip_bomb()  # made once, before any seed is timed
    with running(store_dir=root / "store") as service:
        proxies = Proxies(service.base_url, service.api_key)
        try:
            world = World(proxies, service.api_key, service.now, root)
            with world.client(root / "truth") as client:
                world.truth["matches"] = client.matches(START, END, **FILTERS)
                ids = world.truth["matches"].matches["match_id"].tolist()
                world.single_ids = [ids[0], ids[len(ids) // 3], ids[2 * len(ids) // 3], ids[-1]]
                world.telemetry_ids = [ids[1], ids[-1]]
                world.truth["get_matches"] = client.get_matches(world.single_ids)
                world.truth["telemetry"] = client.telemetry(world.telemetry_ids)
            assets = world.truth["matches"].assets
            proxies.chaos.match_ids = ids
            proxies.chaos.telemetry_paths = sorted(
                urlsplit(url).path for url in assets["url"].dropna() if "/telemetry/" in url
            )
            yield world
        finally:
            proxies.close()


@dataclass
class SeedResult:
    """What one seed did: its mix, the faults served, each stage's outcome, what failed."""

    mix: Mix
    faults: list[str]
    outcomes: dict[str, str]
    failures: list[str]
    seconds: float

    @property
    def seed(self) -> int:
        return self.mix.seed

    def describe(self) -> str:
        lines = [
            f"{self.mix} (replay: MATCHKIT_CHAOS_SEED={self.seed}); {self.seconds:.1f} s",
            "  faults served: " + ("; ".join(self.faults) or "none"),
            "  outcomes: " + ", ".join(f"{k}={v}" for k, v in self.outcomes.items()),
            *(f"  FAILED {failure}" for failure in self.failures),
        ]
        return "\n".join(lines)


def run_seed(world: World, seed: int, *, only: tuple[str, ...] | None = None) -> SeedResult:
    """Run one seed (see the module's docstring); ``only`` forces the mix's entries."""
    mix = draw_mix(seed, only=only)
    chaos = world.proxies.chaos
    cache = world.root / f"seed-{seed}"
    shutil.rmtree(cache, ignore_errors=True)
    failures: list[str] = []
    outcomes: dict[str, str] = {}
    chaos.begin(mix)
    started = time.monotonic()
    before = _reset_peak_memory()
    try:
        with world.client(cache) as client:
            for name, call in world.stages(client).items():
                outcome, failure = _attempt(call)
                if failure is None and not isinstance(outcome, MatchkitError):
                    failure = _difference(outcome, world.truth[name])
                    outcome = "equal" if failure is None else "DIFFERENT"
                else:
                    outcome = type(outcome).__name__ if failure is None else "RAW ERROR"
                outcomes[name] = outcome
                if failure is not None:
                    failures.append(f"(1) {name}: {failure}")
        grown = _peak_memory_growth(before)
        chaos.clean()
        with world.client(cache) as client:
            for name, call in world.stages(client).items():
                outcome, failure = _attempt(call)
                if failure is None and isinstance(outcome, MatchkitError):
                    failure = f"raised {type(outcome).__name__}: {_short(outcome)}"
                if failure is None:
                    failure = _difference(outcome, world.truth[name])
                if failure is not None:
                    failures.append(f"(2) {name} fault-free over the same cache: {failure}")
        if chaos.key_seen_by:
            failures.append(f"(3) the API key reached another host: {sorted(chaos.key_seen_by)}")
        failures += [f"(4) deadline: {held}" for held in chaos.held]
        if grown is not None and grown > MEMORY_LIMIT:
            failures.append(f"(4) body size: peak memory grew by {grown / 2**20:.0f} MB")
    finally:
        chaos.clean()
        shutil.rmtree(cache, ignore_errors=True)
    return SeedResult(mix, list(chaos.log), outcomes, failures, time.monotonic() - started)


def _attempt(call: Callable[[], Any]) -> tuple[Any, str | None]:
    """The call's result or typed error, and a failure when it raised anything else."""
    try:
        return call(), None
    except MatchkitError as error:
        return error, None
    except Exception as error:
        kind = f"{type(error).__module__}.{type(error).__name__}"
        return error, f"raised {kind}: {_short(error)} ({_where(error)})"


def _where(error: BaseException) -> str:
    """Where a raw error left matchkit: the deepest frame in matchkit/, and the last one."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if "/matchkit/" in f.filename.replace("\\", "/")]
    shown = [f for f in (ours[-1:] + frames[-1:]) if f is not None]
    return " / ".join(f"{Path(f.filename).name}:{f.lineno} in {f.name}" for f in shown)


def _short(error: BaseException) -> str:
    return " ".join(str(error).split())[:300]


def _difference(actual: Any, expected: Any) -> str | None:
    """Where ``actual`` frames differ from ``expected`` (every table, exactly), or ``None``."""
    if type(actual) is not type(expected):
        return f"returned {type(actual).__name__}, not {type(expected).__name__}"
    tables, truths = actual.tables, expected.tables
    if list(tables) != list(truths):
        return f"tables {list(tables)} instead of {list(truths)}"
    for name, truth in truths.items():
        table = tables[name]
        if _same(table, truth):
            continue
        # The row order of a MatchFrames table other than ``matches`` is not a promise:
        # compared by the table's key.
        by_key = isinstance(expected, MatchFrames) and name != "matches"
        keys = list(TABLES[name].key) if by_key else None
        if keys:
            table = table.sort_values(keys, kind="stable").reset_index(drop=True)
            truth = truth.sort_values(keys, kind="stable").reset_index(drop=True)
            if _same(table, truth):
                continue
        try:
            pd.testing.assert_frame_equal(table, truth, check_exact=True, obj=name)
        except AssertionError as error:
            shown = " ".join(str(error).split())[:300]
            return f"{name}: {len(table)} rows against {len(truth)} in the truth; {shown}"
    if problems_without_counts(actual.problems) != problems_without_counts(expected.problems):
        return f"problems {list(actual.problems)} instead of {list(expected.problems)}"
    return None


def _same(table: pd.DataFrame, truth: pd.DataFrame) -> bool:
    """The fast check (``assert_frame_equal`` costs ten times more): the same columns, dtypes,
    index and values (NaN equal to NaN), exactly."""
    return (
        list(table.columns) == list(truth.columns)
        and table.dtypes.equals(truth.dtypes)
        and table.index.equals(truth.index)
        and table.equals(truth)
    )


def _status() -> dict[str, int]:
    with open("/proc/self/status", encoding="ascii") as status:
        fields = (line.split() for line in status)
        return {f[0].rstrip(":"): int(f[1]) * 1024 for f in fields if f[0] in ("VmHWM:", "VmRSS:")}


def _reset_peak_memory() -> int | None:
    """Reset the process's peak memory to its present size (Linux); that size, or ``None``."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
            clear.write("5")
        return _status()["VmRSS"]
    except OSError:
        return None


def _peak_memory_growth(before: int | None) -> int | None:
    return None if before is None else _status()["VmHWM"] - before
