"""A list page checked against the request that produced it, before it is used or cached.

:func:`page_disagreements` is pure: it reads a decoded list page (its ``data``, and its
``included`` when a filter needs them) and the :class:`matchkit.rules.query.MatchQuery` of the
request, and says what disagrees. :func:`list_page_check` turns it into the request's parse
hook, which raises :class:`matchkit.client.responses.BadAnswerError`: a page that fails is retried
like a 5xx, never cached, and finally a :class:`matchkit.errors.ServiceError` that says what
disagreed (a service or proxy that ignores a filter, or serves matches outside the window).

What is checked, per page:

- its shard: every match, roster and participant that names a shard (``shardId``) names the one
  asked for, and so does the page's own link (``links.self``, whose path names a shard), so that
  a gateway answering with another shard's pages (a ``global`` list answered by the ``na``
  shard, even an empty one) is refused (:func:`shard_disagreements`; the ``na`` shard's rosters
  and participants name no shard, and the real services' players named ``""``: not checked);

and per match:

- the page holds each match id once (a page may hold more matches than ``page[limit]``: the real
  service once sent 50 for a limit of 5, ``matches-response-84.json``; the paging copes);
- ``createdAt`` is a time inside ``[filter[createdAt-start], filter[createdAt-end])`` (the order
  of a page is not checked: the real Vainglory service's pages were not in ``createdAt`` order;
  the paging copes, :class:`matchkit.rules.paging.WindowCursor`);
- every filter the match shows: ``tags.serverType`` (case-insensitive, decision 3) and
  ``tags.rankingType`` on ``global``, ``patchVersion``, ``gameMode`` on ``na``, and the player
  ids of its participants.

A check must not invent a rule the data cannot show, so a field a shape does not carry is not
checked: the ``na`` shard's older matches have no ``tags``; a match whose rosters or
participants are not all included cannot show that a player id is absent. Player and team
names are never checked: a player or team is a shared resource, included once per page as the
snapshot of its latest match on that page (decision 17), so a renamed player's name on the page
need not be the name that matched an earlier match of the same page.

Example:
    >>> from matchkit.rules.query import MatchQuery
    >>> query = MatchQuery.create(start="2026-10-01T00:00:00Z", end="2026-10-02T00:00:00Z")
    >>> late = {"type": "match", "id": "a", "attributes": {"createdAt": "2026-10-03T00:00:00Z"}}
    >>> page_disagreements({"data": [late]}, query)
    ["match 'a' createdAt 2026-10-03T00:00:00Z is outside [2026-10-01T00:00:00Z, \
2026-10-02T00:00:00Z)"]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from matchkit.client.responses import BadAnswerError
from matchkit.errors import InvalidArgumentError
from matchkit.rules.jsonapi import primary_resources
from matchkit.rules.windows import format_time, parse_time

if TYPE_CHECKING:
    from matchkit.client.request import Fetched
    from matchkit.rules.query import MatchQuery

__all__ = [
    "created_at",
    "list_page_check",
    "match_id_check",
    "page_disagreements",
    "shard_disagreements",
]

_SHOWN = 3
"""How many disagreements a message names (then how many more)."""
_SHARDED = frozenset({"roster", "participant"})
"""The included resources whose ``shardId`` is checked (a match's is read from ``data``)."""


def list_page_check(query: MatchQuery) -> Callable[[Fetched], Fetched]:
    """The parse hook of a list page asked with ``query`` (window, filters, paging): the page
    as it came, once nothing in it disagrees with the request.

    The returned function raises :class:`BadAnswerError` naming what disagreed.
    """

    def check(fetched: Fetched) -> Fetched:
        if fetched.head is None:  # a 404 read as an empty list: nothing to check
            return fetched
        document = fetched.head
        if query.player_ids:  # the participants are in ``included``, which the head skips
            document = fetched.document or {}
        found = page_disagreements(document, query)
        if found:
            more = f" (and {len(found) - _SHOWN} more)" if len(found) > _SHOWN else ""
            raise BadAnswerError(
                "a page that disagrees with its request: " + "; ".join(found[:_SHOWN]) + more
            )
        return fetched

    return check


def page_disagreements(document: Mapping[str, Any], query: MatchQuery) -> list[str]:
    """What in a decoded list page disagrees with the request ``query`` (empty: nothing).

    Args:
        document: the page's ``data`` (a list of match resources, already checked to be one)
            and, for a ``player_ids`` filter, its ``included``.
        query: the request: its ``start`` and ``end`` (the window; ``None`` is not checked),
            filters.
    """
    matches = [item for item in primary_resources(dict(document)) if isinstance(item, dict)]
    found: list[str] = shard_disagreements(document, query.shard)
    ids = [item.get("id") for item in matches]
    repeated = sorted({str(i) for i in ids if ids.count(i) > 1})
    if repeated:
        found.append(f"match {', '.join(repeated)} more than once on the page")
    participants = _participants(document, matches) if query.player_ids else {}
    for match in matches:
        label = f"match {match.get('id')!r}"
        moment = created_at(match)
        if moment is None:
            found.append(f"{label} has no createdAt time")
        else:
            found.extend(_window(label, moment, query))
        found.extend(_filters(label, match, query))
        players = participants.get(str(match.get("id")))
        if players is not None and not players & set(query.player_ids):
            found.append(f"{label} has none of the player ids asked for")
    return found


def match_id_check(match_id: str, shard: str) -> Callable[[Fetched], bytes]:
    """The parse hook of ``GET /shards/<shard>/matches/<match_id>``: the document's body, once
    the match it holds is the one asked for, of the shard asked for.

    A proxy or service that answers match A's URL with match B's document (or another shard's)
    would otherwise give B for A, once for each id asked (and cache it forever). Runs on the
    head that :func:`matchkit.client.responses.check_body` read (``Fetched.head``).

    Raises:
        BadAnswerError: the document's match has another id, or another shard.
    """

    def parse(fetched: Fetched) -> bytes:
        head = fetched.head or {}
        data = head.get("data")
        resource = data[0] if isinstance(data, list) and data else data
        found = resource.get("id") if isinstance(resource, dict) else None
        if not isinstance(found, str) or found != match_id:
            raise BadAnswerError(
                f"a document of match {found!r} where match {match_id!r} was asked"
            )
        wrong = shard_disagreements(head, shard)
        if wrong:
            raise BadAnswerError("a document of another shard: " + "; ".join(wrong[:_SHOWN]))
        return fetched.require_body()

    return parse


def shard_disagreements(head: Mapping[str, Any], shard: str) -> list[str]:
    """What in a document names another shard than ``shard`` (empty: nothing): its own link, its
    matches, and the rosters and participants it includes (a head's ``"shards"``, as
    :func:`matchkit.client.responses.read_head` reads them, or a whole document's
    ``included``)."""
    found: list[str] = []
    linked = _linked_shard(head.get("links"))
    if linked is not None and linked != shard:
        found.append(f"the page's own link names shard {linked!r}, not {shard}")
    for match in primary_resources(dict(head)):
        attributes = match.get("attributes") if isinstance(match, dict) else None
        named = attributes.get("shardId") if isinstance(attributes, dict) else None
        if named is not None and named != shard:
            found.append(f"match {match.get('id')!r} has shardId {named!r}, not {shard}")
    for kind, identifier, named in _included_shards(head):
        if kind in _SHARDED and named != shard:
            found.append(f"{kind} {identifier!r} has shardId {named!r}, not {shard}")
    return found


def _included_shards(document: Mapping[str, Any]) -> list[tuple[Any, Any, Any]]:
    """``(type, id, shardId)`` of each included resource naming a shard: as the head read them
    (``"shards"``), or from a whole document's ``included``."""
    if "shards" in document:
        return list(document["shards"])
    included = document.get("included")
    found = []
    for item in included if isinstance(included, list) else ():
        attributes = item.get("attributes") if isinstance(item, dict) else None
        named = attributes.get("shardId") if isinstance(attributes, dict) else None
        if named is not None:
            found.append((item.get("type"), item.get("id"), named))
    return found


def _linked_shard(links: Any) -> str | None:
    """The shard a page's ``links.self`` names (``/shards/<shard>/...``), or ``None``."""
    self_link = links.get("self") if isinstance(links, dict) else None
    if not isinstance(self_link, str):
        return None
    try:
        parts = urlsplit(self_link).path.split("/")
    except ValueError:
        return None
    return parts[2] if len(parts) > 2 and parts[1] == "shards" and parts[2] else None


def created_at(match: Mapping[str, Any]) -> datetime | None:
    """A match resource's ``createdAt`` as a UTC time, or ``None`` when it has none."""
    attributes = match.get("attributes")
    text = attributes.get("createdAt") if isinstance(attributes, dict) else None
    if not isinstance(text, str):
        return None
    try:
        return parse_time(text, parameter="createdAt")
    except InvalidArgumentError:
        return None


def _window(label: str, moment: datetime, query: MatchQuery) -> Iterator[str]:
    early = query.start is not None and moment < query.start
    late = query.end is not None and moment >= query.end
    if early or late:
        start = "" if query.start is None else format_time(query.start)
        end = "" if query.end is None else format_time(query.end)
        yield f"{label} createdAt {format_time(moment)} is outside [{start}, {end})"


def _filters(label: str, match: Mapping[str, Any], query: MatchQuery) -> Iterator[str]:
    """The filters ``match`` shows and does not pass (a field it does not carry: no check)."""
    attributes = match.get("attributes")
    attributes = attributes if isinstance(attributes, dict) else {}
    tags = attributes.get("tags")
    tags = tags if isinstance(tags, dict) else {}
    server = tags.get("serverType")
    if query.server_types and isinstance(server, str) and server.upper() not in query.server_types:
        yield f"{label} has serverType {server!r}, not {', '.join(query.server_types)}"
    ranking = tags.get("rankingType")
    if query.ranking_type and isinstance(ranking, str) and ranking.upper() != query.ranking_type:
        yield f"{label} has rankingType {ranking!r}, not {query.ranking_type}"
    for name, attribute in (("patch_versions", "patchVersion"), ("game_modes", "gameMode")):
        asked = getattr(query, name)
        value = attributes.get(attribute)
        if asked and isinstance(value, str) and value not in asked:
            yield f"{label} has {attribute} {value!r}, not {', '.join(asked)}"


def _participants(
    document: Mapping[str, Any], matches: list[dict[str, Any]]
) -> dict[str, set[str]]:
    """Match id -> the player ids of its participants, for each match whose rosters and their
    participants are all included (a match missing any is left out: it shows too little)."""
    included = document.get("included")
    by_key = {
        (item.get("type"), item.get("id")): item
        for item in (included if isinstance(included, list) else ())
        if isinstance(item, dict)
    }
    shown: dict[str, set[str]] = {}
    for match in matches:
        rosters = _related(match, "rosters")
        players = None if not rosters else _players_of(rosters, by_key)
        if players is not None:
            shown[str(match.get("id"))] = players
    return shown


def _players_of(
    rosters: list[tuple[Any, Any]], by_key: Mapping[tuple[Any, Any], dict[str, Any]]
) -> set[str] | None:
    """The player ids of the participants of ``rosters``, or ``None`` when a roster or one of
    its participants is not included."""
    players: set[str] = set()
    for roster_key in rosters:
        roster = by_key.get(roster_key)
        members = None if roster is None else _related(roster, "participants")
        if members is None:
            return None
        for member_key in members:
            member = by_key.get(member_key)
            if member is None:
                return None
            player = _relationship(member, "player")
            if isinstance(player, dict) and player.get("id") is not None:
                players.add(str(player["id"]))
    return players


def _relationship(resource: Mapping[str, Any], name: str) -> Any:
    relationships = resource.get("relationships")
    relation = relationships.get(name) if isinstance(relationships, dict) else None
    return relation.get("data") if isinstance(relation, dict) else None


def _related(resource: Mapping[str, Any], name: str) -> list[tuple[Any, Any]] | None:
    """The ``(type, id)`` keys a to-many relationship lists, or ``None`` when it shows none."""
    data = _relationship(resource, name)
    if not isinstance(data, list):
        return None
    keys = [(item.get("type"), item.get("id")) for item in data if isinstance(item, dict)]
    return keys if len(keys) == len(data) else None
