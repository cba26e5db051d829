"""The catalogue of misbehaviours, and how a seed draws its mix of them.

Each entry names the requests it applies to (``list`` pages, single ``match`` documents, the
``status`` resource, ``telemetry`` files). A seed draws 1 to 3 entries and a fault probability
(:func:`draw_mix`); each request then gets a fault from the entries that apply to it with that
probability, decided by a generator seeded with the seed, the request (role, path, query) and
how often the same request was seen before (:func:`request_random`). So a seed faults the same
requests the same way on every run, whatever order the client's threads send them in.

What each entry does on the wire is :mod:`tests.chaos.proxy`'s (``Proxy._fault_<name>``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

ALL = frozenset({"list", "match", "status", "telemetry"})
API = frozenset({"list", "match", "status"})

CATALOGUE: dict[str, frozenset[str]] = {
    # status answers
    "server_error": ALL,  # 500/502/503/504, JSON:API or a gateway's HTML page
    "rate_limited": ALL,  # 429 in every header form the client reads (RATE_LIMIT_FORMS)
    "html_404": ALL,  # a gateway's HTML 404 page
    # broken transport
    "dropped_connection": ALL,  # closed without a byte of answer
    "truncated_body": ALL,  # the full Content-Length, half the body, closed
    "slow_headers": ALL,  # nothing for longer than the client's timeout
    "slow_body": ALL,  # the body trickles in, a byte at a time, past the timeout
    "endless_body": ALL,  # a chunked body that never ends
    "gzip_bomb": ALL,  # 200 KB of gzip inflating to 200 MB
    # bad 200s
    "invalid_body": ALL,  # not JSON, not UTF-8, empty, cut
    "bad_200": ALL,  # JSON of the wrong shape for the request
    "wrong_content_type": ALL,  # the right body as text/html or text/plain, or an HTML page
    # redirects
    "redirect_elsewhere": ALL,  # to another host (which records any API key it sees)
    "redirect_within": ALL,  # to another path of the same host, which answers right
    "redirect_to_404": ALL,  # to a path answering 404
    "redirect_malformed": ALL,  # a Location that is not a usable URL
    # answers to another question
    "short_page": frozenset({"list"}),  # fewer matches than the page limit, more to come
    "reordered_items": frozenset({"list"}),  # the page's matches in another order
    "duplicated_items": frozenset({"list"}),  # a match twice on a page
    "dropped_filter": frozenset({"list"}),  # a filter left out of the forwarded query
    "moving_matches": frozenset({"list"}),  # a match leaves / arrives before the offset
    "swapped_id": frozenset({"match"}),  # match A's URL answers match B
    "another_shard": frozenset({"list", "match"}),  # the na shard's pages, or a match as na's
    "repeated_member": frozenset({"list", "match"}),  # a second "data": [] or "included": []
    "telemetry_of_another_match": frozenset({"telemetry"}),
    "empty_telemetry": frozenset({"telemetry"}),  # []
}

RATE_LIMIT_FORMS = (
    "retry-after-seconds",
    "retry-after-http-date",
    "reset-epoch-seconds",
    "reset-epoch-milliseconds",
    "reset-epoch-nanoseconds",
    "reset-duration-nanoseconds",
    "reset-duration-seconds",
    "no-wait-given",
)

PROBABILITIES = (0.15, 0.3, 0.5)
"""The share of requests a seed faults (one of these)."""


@dataclass(frozen=True)
class Mix:
    """What one seed draws: the entries in play and the share of requests they fault."""

    seed: int
    entries: tuple[str, ...]
    probability: float

    def __str__(self) -> str:
        return f"seed {self.seed}: {'+'.join(self.entries)} at p={self.probability}"


def draw_mix(seed: int, *, only: tuple[str, ...] | None = None) -> Mix:
    """The seed's mix: 1 to 3 catalogue entries (or ``only``) and a probability."""
    rng = random.Random(f"mix:{seed}")
    names = sorted(CATALOGUE)
    entries = tuple(sorted(rng.sample(names, rng.randint(1, 3))))
    probability = rng.choice(PROBABILITIES)
    return Mix(seed, tuple(only) if only else entries, probability)


def request_random(seed: int, identity: str, seen: int) -> random.Random:
    """The generator of one request: the ``seen``-th time ``identity`` reached a proxy."""
    return random.Random(f"{seed}|{identity}|{seen}")


def draw_fault(mix: Mix, kind: str, rng: random.Random) -> str | None:
    """The fault of one request of ``kind``, or ``None`` (answered as the service answers)."""
    applicable = [name for name in mix.entries if kind in CATALOGUE[name]]
    if not applicable or rng.random() >= mix.probability:
        return None
    return rng.choice(applicable)
