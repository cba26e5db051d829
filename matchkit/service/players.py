"""The player endpoints' rules and bodies (decision 19).

``GET /shards/{shard}/players`` takes ``filter[playerIds]`` or ``filter[playerNames]``: one of
them, not both, with 1 to 6 comma-separated values; any other parameter is a 400 (decision 6).
Its ``data`` lists the players found in the order asked, each once; unknown ids or names are
simply absent. ``GET /shards/{shard}/players/<id>`` answers one object, or a 404.

A player is the snapshot that came with their latest match before ``now``
(:meth:`matchkit.service.store.MatchStore.players`), so its ``stats`` are the lifetime figures
the match pages show, in the shard's own shape (``na``'s older players have no
``patchVersion``). The service sets ``links`` (``self``, ``schema``) and an empty
``relationships.assets``, as the real services did.

Example:
    >>> players_filter([("filter[playerNames]", "Kari,Tovel")])
    ('filter[playerNames]', ('Kari', 'Tovel'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from matchkit.errors import InvalidArgumentError
from matchkit.rules.query import MAX_LIST_VALUES

__all__ = ["FILTERS", "player_body", "players_body", "players_filter"]

FILTERS = {"filter[playerIds]": "ids", "filter[playerNames]": "names"}
"""The collection's parameters, by what they select."""


def players_filter(items: Sequence[tuple[str, str]]) -> tuple[str, tuple[str, ...]]:
    """``(the filter's wire name, its values)`` of a player collection request's parameters.

    Raises:
        InvalidArgumentError: a parameter other than the two filters, both of them, neither,
            an empty value, or more than :data:`MAX_LIST_VALUES` values; it names the
            parameter.
    """
    for key, _value in items:
        if key not in FILTERS:
            raise InvalidArgumentError(
                f"{key!r} is not a parameter of /players; give filter[playerIds] or "
                "filter[playerNames]",
                parameter=key,
            )
    if len(items) != 1:
        both = len(items) == 2
        raise InvalidArgumentError(
            "give filter[playerIds] or filter[playerNames], not both"
            if both
            else "/players needs filter[playerIds] or filter[playerNames] (up to "
            f"{MAX_LIST_VALUES} comma-separated values)",
            parameter="filter[playerNames]" if both else "filter[playerIds]",
        )
    key, text = items[0]
    values = tuple(value.strip() for value in text.split(","))
    if not all(values):
        raise InvalidArgumentError(
            f"{key} holds an empty value; give comma-separated, non-empty values",
            parameter=key,
        )
    if len(values) > MAX_LIST_VALUES:
        raise InvalidArgumentError(
            f"{key} holds {len(values)} values; the service takes at most "
            f"{MAX_LIST_VALUES} per request: split the list into requests of "
            f"{MAX_LIST_VALUES} and merge the results",
            parameter=key,
        )
    return key, tuple(dict.fromkeys(values))


def _resource(stored: bytes, *, shard: str, base_url: str) -> dict[str, Any]:
    player = orjson.loads(stored)
    player["links"] = {"schema": "", "self": f"{base_url}/shards/{shard}/players/{player['id']}"}
    player["relationships"] = {"assets": {"data": []}}
    return player


def players_body(
    found: Mapping[str, bytes],
    order: Sequence[str],
    *,
    kind: str,
    shard: str,
    base_url: str,
    self_link: str,
) -> bytes:
    """The collection's document: the players found, in the order of the values asked."""
    players = [_resource(stored, shard=shard, base_url=base_url) for stored in found.values()]
    rank = {value: index for index, value in enumerate(order)}

    def place(player: dict[str, Any]) -> int:
        asked = player["id"] if kind == "ids" else player["attributes"].get("name")
        return rank.get(asked, len(rank))

    players.sort(key=place)
    return orjson.dumps({"data": players, "links": {"self": self_link}, "meta": {}})


def player_body(stored: bytes, *, shard: str, base_url: str, self_link: str) -> bytes:
    """The single player's document: ``data`` one object."""
    player = _resource(stored, shard=shard, base_url=base_url)
    return orjson.dumps({"data": player, "links": {"self": self_link}, "meta": {}})
