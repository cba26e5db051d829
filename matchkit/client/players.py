"""Players by name or id (decision 19): what :meth:`matchkit.Client.players` runs.

A look-up asks ``GET /shards/{shard}/players`` in requests of at most the profile's
``player_batch`` values (6 on the Gamelocker services, 10 on PUBG), each answer cached for a
day (:data:`PLAYER_EXPIRY`: players change) and checked twice before it counts:

1. by the transport (:func:`matchkit.client.responses.check_body`): ``data`` is a list of
   ``player`` resources;
2. by its parse hook (:func:`players_parser`), against what was asked: every player answered
   has an id (or a name) of the request, none comes twice, and each that names a shard
   (``shardId``) names the one asked. A player that was not asked for (a proxy answering
   another request, say) makes the answer bad.

A service that answers "none of them" with its own 404 error document (the profile's
``no_players_found``: PUBG's "No Players Found Matching Criteria") gives an empty batch; any
other 404 is retried, then an error.

A bad answer is retried like a 5xx under the client's retry policy and never cached (a cached
one is dropped and asked again); when every try is bad, a :class:`matchkit.errors.ServiceError`
says what disagreed, and nothing is returned.

A name or id that no player has is not an error (the service simply leaves it out) but it is
never dropped silently: a :class:`matchkit.client.warnings.PlayerNotFoundWarning` names each one,
and the frame's ``attrs["not_found"]`` lists them.

Example:
    >>> with Client(progress=False) as client:  # doctest: +SKIP
    ...     client.players(names=["Mieth678"])[["player_id", "name", "field_2", "field_3"]]
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Mapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from matchkit.client.arguments import match_path_segment
from matchkit.client.request import Fetched
from matchkit.client.responses import BadAnswerError
from matchkit.client.warnings import PlayerNotFoundWarning
from matchkit.errors import InvalidArgumentError
from matchkit.rules.profiles import GAMELOCKER, Profile

if TYPE_CHECKING:
    import pandas as pd

    from matchkit.client.transport import Transport
    from matchkit.model.frames import MatchFrames

__all__ = [
    "PLAYER_EXPIRY",
    "checked_player_id",
    "checked_players",
    "fetch_player",
    "fetch_players",
    "player_check",
    "player_frames",
    "players_parser",
]

PLAYER_EXPIRY = timedelta(days=1)
"""How long an answer about players is kept: they play, level up and rename."""
_WIRE = {"names": "filter[playerNames]", "ids": "filter[playerIds]"}
_SHOWN = 10


def checked_players(names: object, ids: object) -> tuple[str, tuple[str, ...]]:
    """``("names" | "ids", values)``: exactly one of the two given, each value a non-empty text
    without commas (the wire's separator), each once in the order first given.

    Raises:
        InvalidArgumentError: both or neither given, an empty list, or a bad value.
    """
    if (names is None) == (ids is None):
        raise InvalidArgumentError(
            "pass names= or ids= (a list of player names or ids), not "
            + ("both" if names is not None else "neither"),
            parameter="names" if names is not None else "ids",
        )
    kind, given = ("names", names) if names is not None else ("ids", ids)
    items = [given] if isinstance(given, str) else given
    if not isinstance(items, Iterable) or isinstance(items, Mapping | bytes):
        raise InvalidArgumentError(
            f"{kind} must be a string or a list of strings, not {type(given).__name__}",
            parameter=kind,
        )
    values = list(items)
    if not values:
        raise InvalidArgumentError(f"{kind} is empty; pass at least one", parameter=kind)
    for value in values:
        if (
            not isinstance(value, str)
            or not value.strip()
            or "," in value
            or value != value.strip()
        ):
            raise InvalidArgumentError(
                f"{kind} holds {value!r}; each must be a non-empty string without commas or "
                "surrounding spaces (names are compared exactly, case included)",
                parameter=kind,
            )
    return kind, tuple(dict.fromkeys(values))


def _unasked(
    data: list[dict[str, Any]], kind: str, asked: tuple[str, ...], shard: str | None
) -> str | None:
    """What makes an answer not one to the request for ``asked``, or ``None`` when it is."""
    seen: set[object] = set()  # ids as the answer has them (not yet known to be text)
    for player in data:
        identifier = player.get("id")
        attributes = player.get("attributes") or {}
        value = identifier if kind == "ids" else attributes.get("name")
        if value not in asked:
            return f"it holds the player {identifier!r} ({kind[:-1]} {value!r}), not asked for"
        if identifier in seen:
            return f"it holds the player {identifier!r} twice"
        named = attributes.get("shardId") if isinstance(attributes, dict) else None
        if shard is not None and named not in (None, "", shard):
            return f"it holds the player {identifier!r} of shard {named!r}, not {shard}"
        seen.add(identifier)
    return None


def players_parser(
    kind: str, asked: tuple[str, ...], shard: str | None = None
) -> Callable[[Fetched], bytes | None]:
    """The parse hook of one look-up of one batch: its body, once every player it holds was
    asked for, each once, of ``shard`` (when given); ``None`` when the service said it knows
    none of them (its own 404, where the profile answers so).

    Raises:
        BadAnswerError: a player not asked for, one twice, or one of another shard (a proxy
            or cache mixing answers up): the answer is retried, never cached.
    """

    def parse(fetched: Fetched) -> bytes | None:
        if fetched.body is None:
            return None  # the service's own "none found" (transport.no_players_found)
        problem = _unasked((fetched.head or {}).get("data") or [], kind, asked, shard)
        if problem is not None:
            raise BadAnswerError(f"players that were not asked for: {problem}")
        return fetched.body

    return parse


def player_frames(
    transport: Transport,
    shard: str,
    kind: str,
    values: tuple[str, ...],
    *,
    profile: Profile = GAMELOCKER,
) -> MatchFrames:
    """The players of ``shard`` with the names or ids ``values`` (``kind``: ``"names"`` or
    ``"ids"``, checked by :func:`checked_players`), as MatchFrames: ``players``, and on PUBG
    ``player_matches`` (each player's recent match ids, newest first).

    Raises:
        InvalidArgumentError: more values than one request takes, on a profile that does not
            split a look-up (before any request; the message names the rule).
    """
    size = profile.player_batch
    if not profile.player_lookup_splits:
        profile.checked_batch(values, parameter=kind)
    batches = [values[at : at + size] for at in range(0, len(values), size)]
    path = f"/shards/{shard}/players"
    found = [
        transport.get(
            path,
            {_WIRE[kind]: ",".join(batch)},
            kind="players",
            expire_after=PLAYER_EXPIRY,
            parse=players_parser(kind, batch, shard),
        )
        for batch in batches
    ]
    from matchkit.normalize.pipeline import to_frames

    return to_frames([body for body in found if body is not None], profile=profile)


def player_check(player_id: str, shard: str) -> Callable[[Fetched], bytes]:
    """The parse hook of ``GET /shards/<shard>/players/<player_id>``: the body, once it is that
    player, of that shard.

    Raises:
        BadAnswerError: another player, or one of another shard.
    """
    asked = (player_id,)

    def parse(fetched: Fetched) -> bytes:
        data = (fetched.head or {}).get("data")
        found: list[Any] = data if isinstance(data, list) else [data]
        problem = _unasked(found, "ids", asked, shard)
        if problem is not None:
            raise BadAnswerError(f"a player that was not asked for: {problem}")
        return fetched.require_body()

    return parse


def fetch_player(
    transport: Transport, shard: str, player_id: str, *, profile: Profile = GAMELOCKER
) -> MatchFrames:
    """One player by id (``GET /shards/<shard>/players/<id>``, kept a day), as MatchFrames:
    ``players``, and on PUBG ``player_matches`` (their recent match ids, newest first).

    Raises:
        NotFoundError: no player has that id on ``shard``.
    """
    from matchkit.normalize.pipeline import to_frames

    body = transport.get(
        f"/shards/{shard}/players/{match_path_segment(player_id)}",
        kind="player",
        expire_after=PLAYER_EXPIRY,
        parse=player_check(player_id, shard),
    )
    return to_frames([body], profile=profile)


def fetch_players(
    transport: Transport,
    shard: str,
    *,
    names: object = None,
    ids: object = None,
    profile: Profile = GAMELOCKER,
) -> pd.DataFrame:
    """The players of ``shard`` with the given names or ids: :meth:`matchkit.Client.players`.

    Raises:
        InvalidArgumentError: bad arguments (before any request).
    """
    kind, values = checked_players(names, ids)
    frames = player_frames(transport, shard, kind, values, profile=profile)
    column = "player_id" if kind == "ids" else "name"
    rank = {value: index for index, value in enumerate(values)}
    players = frames.players.sort_values(column, key=lambda found: found.map(rank), kind="stable")
    players = players.reset_index(drop=True)
    missing = [value for value in values if value not in set(players[column].dropna())]
    players.attrs["not_found"] = missing
    if missing:
        shown = ", ".join(repr(value) for value in missing[:_SHOWN])
        more = f" and {len(missing) - _SHOWN} more" if len(missing) > _SHOWN else ""
        warnings.warn(
            f"no player on shard {shard} has the {kind[:-1]} {shown}{more} "
            f"({len(missing)} of {len(values)} asked; names are compared exactly, case "
            "included, and a renamed player is found by their current name)",
            PlayerNotFoundWarning,
            stacklevel=3,
        )
    return players


def checked_player_id(player_id: object) -> str:
    """One player id, as :meth:`matchkit.Client.player_matches` takes it.

    Raises:
        InvalidArgumentError: not one id (a string without commas).
    """
    if not isinstance(player_id, str) or not player_id.strip() or "," in player_id:
        raise InvalidArgumentError(
            f"player_id={player_id!r} must be one player id (a string); look an id up by "
            "name with client.players(names=[...])",
            parameter="player_id",
        )
    return player_id
