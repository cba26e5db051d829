"""A list page checked against the request that produced it, before it is used or cached.

:func:`page_disagreements` is pure: it reads a decoded list page (its ``data``, and its
``included`` when a filter needs them) and the :class:`matchkit.rules.query.MatchQuery` of the
request, and says what disagrees. :func:`list_page_check` turns it into the request's parse
hook, which raises :class:`matchkit.client.responses.BadAnswerError`: a page that fails is retried
like a 5xx, never cached, and finally a :class:`matchkit.errors.ServiceError` that says what
disagreed (a service or proxy that ignores a filter, or serves matches outside the window).

What is checked, per match of the page:

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

from matchkit.client.responses import BadAnswerError
from matchkit.errors import InvalidArgumentError
from matchkit.rules.jsonapi import primary_resources
from matchkit.rules.windows import format_time, parse_time

if TYPE_CHECKING:
    from matchkit.client.request import Fetched
    from matchkit.rules.query import MatchQuery

__all__ = ["created_at", "list_page_check", "page_disagreements"]

_SHOWN = 3
"""How many disagreements a message names (then how many more)."""


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
    found: list[str] = []
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
