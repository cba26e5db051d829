"""The service's SQLite store: match documents indexed for every filter and for createdAt order.

The store is built once from a data set folder (the :mod:`matchkit.sampledata.dataset` format) or
from a folder of arbitrary JSON:API documents (``*.json``, ``*.json.gz``, ``*.jsonl.gz``, e.g.
pages a fetch wrote), into a cache folder, keyed by a fingerprint of the source; it is rebuilt when
the source changes. Each match keeps its resource and its included resources as serialized JSON
bytes, so a response is assembled by concatenating stored bytes.

Example:
    >>> store = MatchStore.open(sample_data_path(), store_dir=tmp)  # doctest: +SKIP
    >>> store.count("global")  # doctest: +SKIP
    4000
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

from matchkit.cachedir import cache_root
from matchkit.errors import DocumentError, InvalidArgumentError
from matchkit.model.atomic import atomic_write
from matchkit.rules.query import SHARDS, MatchQuery
from matchkit.rules.windows import TimeWindow, format_time, parse_time
from matchkit.sampledata.dataset import sample_data_path
from matchkit.service.ingestion import Listing, match_draw
from matchkit.service.sources import read_source

__all__ = ["BASE_URL_MARKER", "MATCH_OWN_TYPES", "MatchStore", "StoredMatch", "default_store_dir"]

log = logging.getLogger(__name__)

# Stands for the service's base URL inside stored match links; replaced per response.
BASE_URL_MARKER = "@@matchkit-base-url@@"
_SCHEMA_VERSION = "matchkit-store/5"
_MICROSECOND = timedelta(microseconds=1)
# Resources that exist only inside one match (interface.md): never deduplicated across matches.
MATCH_OWN_TYPES = frozenset({"roster", "participant", "round", "asset"})

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE matches (
    shard TEXT NOT NULL,
    id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    ended_at INTEGER NOT NULL,
    draw REAL NOT NULL,
    server_type TEXT,
    ranking_type TEXT,
    patch_version TEXT,
    game_mode TEXT,
    resource BLOB NOT NULL,
    own BLOB NOT NULL,
    shared BLOB NOT NULL,
    shared_keys TEXT NOT NULL,
    UNIQUE (shard, id)
);
CREATE TABLE match_values (kind TEXT NOT NULL, value TEXT NOT NULL, match INTEGER NOT NULL);
CREATE TABLE players (
    shard TEXT NOT NULL,
    id TEXT NOT NULL,
    name TEXT,
    created_at INTEGER NOT NULL,
    match_id TEXT NOT NULL,
    resource BLOB NOT NULL
);
"""
_INDEXES = """
CREATE INDEX matches_order ON matches (shard, created_at, id);
CREATE INDEX matches_server_type ON matches (shard, server_type, created_at);
CREATE INDEX matches_ranking_type ON matches (shard, ranking_type, created_at);
CREATE INDEX matches_patch_version ON matches (shard, patch_version, created_at);
CREATE INDEX matches_game_mode ON matches (shard, game_mode, created_at);
CREATE UNIQUE INDEX match_values_lookup ON match_values (kind, value, match);
CREATE INDEX players_by_id ON players (shard, id, created_at, match_id);
CREATE INDEX players_by_name ON players (shard, name, id);
"""
# Multi-valued filters live in match_values under these kinds.
_VALUE_FILTERS = {"player_ids": "player_id", "player_names": "player_name", "team_names": "team"}
_COLUMN_FILTERS = {
    "server_types": "server_type",
    "patch_versions": "patch_version",
    "game_modes": "game_mode",
}


def default_store_dir() -> Path:
    """Where stores are built: ``service/`` in matchkit's cache folder
    (:func:`matchkit.cachedir.cache_root`: ``$MATCHKIT_CACHE_DIR``, else the user cache folder)."""
    return cache_root() / "service"


@dataclass(frozen=True)
class StoredMatch:
    """One match as stored: its resource and included resources as JSON bytes.

    Resources that belong to one match only (rosters, participants, rounds, assets) are kept
    joined, ready to copy; the others (players, teams), which recur across matches, one by one
    with their keys so a page can include each once.

    Attributes:
        resource: the match resource; its ``links.self`` starts with :data:`BASE_URL_MARKER`.
        own: the match's own included resources, comma-joined.
        shared: the other included resources, newline-joined.
        shared_keys: ``"type\\x1fid"`` of each shared resource, newline-joined.
    """

    resource: bytes
    own: bytes
    shared: bytes
    shared_keys: str


class MatchStore:
    """Read access to a built store. Open it with :meth:`open`.

    One store is read from the event loop's thread only, so one connection serves it.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._connection = sqlite3.connect(
            f"file:{path}?mode=ro", uri=True, check_same_thread=False
        )
        meta = dict(self._connection.execute("SELECT key, value FROM meta"))
        #: the moment the source data set ends at (its manifest's as_of), if it says
        self.as_of = parse_time(meta["as_of"], parameter="as_of") if "as_of" in meta else None

    @classmethod
    def open(cls, source: str | os.PathLike[str] | None = None, *, store_dir: Path | None = None):
        """Open the store of ``source`` (default: the sample set), building it when needed.

        Args:
            source: a data set folder with a manifest, or a folder of JSON:API documents.
            store_dir: where stores are kept (default :func:`default_store_dir`).

        Raises:
            InvalidArgumentError: the source is missing or holds no documents.
            DocumentError: a document is not JSON or not a match document.
        """
        source_path = Path(source) if source is not None else None
        if source_path is not None and not source_path.is_dir():
            raise InvalidArgumentError(
                f"{source_path} is not a folder of match documents", parameter="data"
            )
        fingerprint, as_of, documents = read_source(source_path, schema=_SCHEMA_VERSION)
        folder = Path(store_dir) if store_dir is not None else default_store_dir()
        # One file per source folder and content: <source>-<content>.sqlite.
        resolved = source_path.resolve() if source_path else sample_data_path().resolve()
        source_key = hashlib.sha256(str(resolved).encode()).hexdigest()[:16]
        path = folder / f"{source_key}-{fingerprint[:32]}.sqlite"
        if not path.exists():
            folder.mkdir(parents=True, exist_ok=True)
            _build(path, documents(), as_of=as_of, fingerprint=fingerprint)
            for stale in folder.glob(f"{source_key}-*.sqlite"):
                if stale != path:  # an older build of the same folder (open readers keep it)
                    stale.unlink(missing_ok=True)
        return cls(path)

    def close(self) -> None:
        self._connection.close()

    def count(self, shard: str) -> int:
        """How many matches the store holds on ``shard``."""
        (count,) = self._connection.execute(
            "SELECT count(*) FROM matches WHERE shard = ?", (shard,)
        ).fetchone()
        return count

    def latest_created_at(self) -> datetime | None:
        row = self._connection.execute("SELECT max(created_at) FROM matches").fetchone()
        return None if row[0] is None else _from_micros(row[0])

    def list_matches(
        self, query: MatchQuery, window: TimeWindow, *, listing: Listing | None = None
    ) -> list[StoredMatch]:
        """The page of matches of ``query`` within ``window``, in the query's order: of those
        ``listing`` lets through (all, when ``None``)."""
        clauses = ["shard = ?", "created_at >= ?", "created_at < ?"]
        arguments: list[Any] = [query.shard, _micros(window.start), _micros(window.end)]
        listed, when = _listed(listing)
        if listed:
            clauses.append(listed)
            arguments.extend(when)
        for name, column in _COLUMN_FILTERS.items():
            values = getattr(query, name)
            if values:
                clauses.append(f"{column} IN ({','.join('?' * len(values))})")
                arguments.extend(values)
        if query.ranking_type:
            clauses.append("ranking_type = ?")
            arguments.append(query.ranking_type)
        for name, kind in _VALUE_FILTERS.items():
            values = getattr(query, name)
            if values:
                clauses.append(
                    "rowid IN (SELECT match FROM match_values WHERE kind = ? "
                    f"AND value IN ({','.join('?' * len(values))}))"
                )
                arguments.extend([f"{query.shard}:{kind}", *values])
        direction = "DESC" if query.descending else "ASC"
        sql = (
            "SELECT resource, own, shared, shared_keys FROM matches "
            f"WHERE {' AND '.join(clauses)} "
            f"ORDER BY created_at {direction}, id {direction} LIMIT ? OFFSET ?"
        )
        arguments.extend([query.limit, query.offset])
        return [StoredMatch(*row) for row in self._connection.execute(sql, arguments)]

    def get_match(
        self, shard: str, match_id: str, *, window: TimeWindow, listing: Listing | None = None
    ) -> StoredMatch | None:
        """One match by id, or ``None`` when the shard has no such match within ``window`` (or
        ``listing`` does not let it through yet)."""
        listed, when = _listed(listing)
        row = self._connection.execute(
            "SELECT resource, own, shared, shared_keys FROM matches "
            "WHERE shard = ? AND id = ? AND created_at >= ? AND created_at < ?"
            + (f" AND {listed}" if listed else ""),
            (shard, match_id, _micros(window.start), _micros(window.end), *when),
        ).fetchone()
        return None if row is None else StoredMatch(*row)

    def first_unlisted(self, shard: str, listing: Listing) -> datetime | None:
        """The ``createdAt`` of the earliest match created before ``listing.now`` that it does not
        let through yet (``None``: every one is listed): where the shard's final record ends."""
        listed, when = _listed(listing)
        if not listed:
            return None
        (first,) = self._connection.execute(
            f"SELECT min(created_at) FROM matches WHERE shard = ? AND created_at < ? "
            f"AND NOT ({listed})",
            (shard, _micros(listing.now), *when),
        ).fetchone()
        return None if first is None else _from_micros(first)

    def players(
        self,
        shard: str,
        *,
        before: datetime,
        ids: Sequence[str] = (),
        names: Sequence[str] = (),
        listing: Listing | None = None,
    ) -> dict[str, bytes]:
        """Player id -> the player's resource as of ``before``, of the players with one of
        ``ids`` or (as of then) one of ``names``.

        A player as of a moment is the snapshot included with their latest match before it (by
        createdAt, then match id: decision 17) among the matches ``listing`` lets through, so it
        is the one the match pages show. A name finds the player who holds it then, not one who
        held it before a rename.
        """
        candidates = list(ids)
        if names:  # everyone who ever held one of the names; kept if they hold it now
            marks = ",".join("?" * len(names))
            held = self._connection.execute(
                f"SELECT id FROM players WHERE shard = ? AND name IN ({marks})", [shard, *names]
            )
            candidates = list(dict.fromkeys(row[0] for row in held))
        listed, when = _listed(listing, table="m.")
        # A player's match not listed yet is not one the pages show (decision 20).
        unlisted = (
            ""
            if not listed
            else " AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.shard = players.shard "
            f"AND m.id = players.match_id AND NOT ({listed}))"
        )
        found: dict[str, bytes] = {}
        for player_id in candidates:  # each one latest row, straight from the index
            row = self._connection.execute(
                "SELECT name, resource FROM players WHERE shard = ? AND id = ? AND created_at < ?"
                f"{unlisted} ORDER BY created_at DESC, match_id DESC LIMIT 1",
                (shard, player_id, _micros(before), *when),
            ).fetchone()
            if row is not None and (not names or row[0] in names):
                found[player_id] = row[1]
        return found


def _listed(listing: Listing | None, *, table: str = "") -> tuple[str, list[Any]]:
    """The SQL condition (and its arguments) of the matches ``listing`` lets through, on the
    columns of ``table`` (``""`` or an alias such as ``"m."``); ``""`` when it lets every one
    through (listed from createdAt)."""
    if listing is None or listing.delay.from_creation:
        return "", []
    delay = listing.delay.sql(f"{table}draw")
    return f"{table}ended_at + {delay} <= ?", [_micros(listing.now)]


def _micros(moment: datetime) -> int:
    return (moment - _EPOCH) // _MICROSECOND


def _from_micros(value: int) -> datetime:
    return _EPOCH + value * _MICROSECOND


_EPOCH = parse_time("1970-01-01T00:00:00Z")


# -- building -------------------------------------------------------------------------------------


def _build(
    path: Path,
    documents: Iterable[tuple[str | None, dict[str, Any]]],
    *,
    as_of: datetime | None,
    fingerprint: str,
) -> None:
    """Build the store at ``path`` from ``(shard, single-match document)`` pairs, atomically."""

    def build(temporary: Path) -> None:
        connection = sqlite3.connect(temporary)
        try:
            connection.executescript(_SCHEMA)
            skipped = 0
            with connection:
                for shard, document in documents:
                    if shard is None or shard not in SHARDS:
                        skipped += 1
                        continue
                    _insert(connection, shard, document)
                connection.executescript(_INDEXES)
                meta = {"fingerprint": fingerprint, "schema": _SCHEMA_VERSION}
                if as_of is not None:
                    meta["as_of"] = format_time(as_of)
                connection.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
            if skipped:
                log.warning("skipped %d matches of shards other than %s", skipped, list(SHARDS))
        finally:
            connection.close()

    # Owner-only, as the cache folder it lives in; rebuilt from its documents when lost, so
    # there is no need to wait for the disk.
    atomic_write(path, build, mode=0o600, fsync=False)


def _insert(connection: sqlite3.Connection, shard: str, document: dict[str, Any]) -> None:
    match = document.get("data")
    if isinstance(match, list):
        if len(match) != 1:
            raise DocumentError("a stored document must hold exactly one match")
        match = match[0]
    if not isinstance(match, dict) or match.get("type") != "match" or "id" not in match:
        raise DocumentError(f"not a match document: data is {type(match).__name__}")
    attributes = match.get("attributes") or {}
    tags = attributes.get("tags")
    if not isinstance(tags, dict):
        tags = {}
    match_id = str(match["id"])
    resource = dict(match)
    links = dict(resource.get("links") or {})
    if shard == "global" or links:
        links.setdefault("schema", "")
        links["self"] = f"{BASE_URL_MARKER}/shards/{shard}/matches/{match_id}"
        resource["links"] = links
    included = [item for item in document.get("included") or () if isinstance(item, dict)]
    own = [item for item in included if item.get("type") in MATCH_OWN_TYPES]
    shared = [item for item in included if item.get("type") not in MATCH_OWN_TYPES]
    created_at = _micros(parse_time(attributes.get("createdAt", ""), parameter="createdAt"))
    cursor = connection.execute(
        "INSERT OR IGNORE INTO matches (shard, id, created_at, ended_at, draw, server_type, "
        "ranking_type, patch_version, game_mode, resource, own, shared, shared_keys) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            shard,
            match_id,
            created_at,
            created_at + _duration_micros(attributes.get("duration")),
            match_draw(shard, match_id),
            _upper(tags.get("serverType")),
            _upper(tags.get("rankingType")),
            attributes.get("patchVersion"),
            attributes.get("gameMode"),
            orjson.dumps(resource),
            b",".join(orjson.dumps(item) for item in own),
            b"\n".join(orjson.dumps(item) for item in shared),
            "\n".join(f"{item.get('type')}\x1f{item.get('id')}" for item in shared),
        ),
    )
    if cursor.rowcount == 0:
        return  # the same match seen twice (overlapping pages): the first copy stands
    rowid = cursor.lastrowid
    values = {
        (f"{shard}:{kind}", value)
        for kind, value in _filter_values(included)
        if isinstance(value, str) and value
    }
    connection.executemany(
        "INSERT INTO match_values VALUES (?, ?, ?)", [(*pair, rowid) for pair in values]
    )
    connection.executemany(
        "INSERT INTO players VALUES (?, ?, ?, ?, ?, ?)",
        [
            (shard, str(item["id"]), _name(item), created_at, match_id, orjson.dumps(item))
            for item in shared
            if item.get("type") == "player" and item.get("id") is not None
        ],
    )


def _filter_values(included: Sequence[dict[str, Any]]) -> Iterator[tuple[str, Any]]:
    """(kind, value) pairs of the multi-valued filters: player ids and names, team names."""
    by_key = {(item.get("type"), item.get("id")): item for item in included}
    for item in included:
        relationships = item.get("relationships") or {}
        if item.get("type") == "participant":
            player = (relationships.get("player") or {}).get("data")
            if isinstance(player, dict) and player.get("id") is not None:
                yield "player_id", str(player["id"])
                resource = by_key.get(("player", player["id"]), {})
                yield "player_name", (resource.get("attributes") or {}).get("name")
        elif item.get("type") == "roster":
            team = (relationships.get("team") or {}).get("data")
            if isinstance(team, dict):
                resource = by_key.get(("team", team.get("id")), {})
                yield "team", (resource.get("attributes") or {}).get("name")


def _duration_micros(duration: Any) -> int:
    """A match's ``duration`` (seconds) in microseconds; 0 when it has none a number gives."""
    if isinstance(duration, bool) or not isinstance(duration, int | float):
        return 0
    if not math.isfinite(duration) or duration < 0:
        return 0
    return int(duration * 1_000_000)


def _name(player: dict[str, Any]) -> str | None:
    name = (player.get("attributes") or {}).get("name")
    return name if isinstance(name, str) else None


def _upper(value: Any) -> str | None:
    return value.upper() if isinstance(value, str) else None
