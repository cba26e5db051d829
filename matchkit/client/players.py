"""Players by name or id (decision 19), and one player's matches: the client's player calls.

:class:`PlayerCalls` gives :class:`matchkit.Client` its :meth:`~PlayerCalls.players` and
:meth:`~PlayerCalls.player_matches`. A look-up asks ``GET /shards/{shard}/players`` in
requests of at most 6 values (the service's limit), each answer cached for a day
(:data:`PLAYER_EXPIRY`: players change) and checked twice before it counts:

1. by the transport (:func:`matchkit.client.responses.check_body`): ``data`` is a list of
   ``player`` resources, else it is retried like a 5xx and never cached;
2. here, against what was asked: every player answered has an id (or a name) of the request,
   and none comes twice. A player that was not asked for (a proxy answering another request,
   say) makes the answer bad: it is dropped from the cache and asked again under the client's
   retry policy; when every try is bad, a :class:`matchkit.errors.ServiceError` says so, and
   nothing is cached or returned.

A name or id that no player has is not an error (the service simply leaves it out) but it is
never dropped silently: a :class:`matchkit.client.warnings.PlayerNotFoundWarning` names each one,
and the frame's ``attrs["not_found"]`` lists them.

Example:
    >>> with Client(progress=False) as client:  # doctest: +SKIP
    ...     client.players(names=["Mieth678"])[["player_id", "name", "field_2", "field_3"]]
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterable, Mapping
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any, Unpack

from matchkit.client.warnings import PlayerNotFoundWarning
from matchkit.errors import InvalidArgumentError, ServiceError
from matchkit.rules.query import MAX_LIST_VALUES, get_shard
from matchkit.rules.shards import ShardName

if TYPE_CHECKING:
    import pandas as pd

    from matchkit.client.arguments import FetchOptions
    from matchkit.client.transport import Transport
    from matchkit.model.frames import MatchFrames

__all__ = ["PLAYER_EXPIRY", "PlayerCalls", "checked_players", "fetch_players"]

log = logging.getLogger(__name__)

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


def _unasked(data: list[dict[str, Any]], kind: str, asked: tuple[str, ...]) -> str | None:
    """What makes an answer not one to the request for ``asked``, or ``None`` when it is."""
    seen: set[object] = set()  # ids as the answer has them (not yet known to be text)
    for player in data:
        identifier = player.get("id")
        value = identifier if kind == "ids" else (player.get("attributes") or {}).get("name")
        if value not in asked:
            return f"it holds the player {identifier!r} ({kind[:-1]} {value!r}), not asked for"
        if identifier in seen:
            return f"it holds the player {identifier!r} twice"
        seen.add(identifier)
    return None


def _answer(transport: Transport, path: str, kind: str, batch: tuple[str, ...]) -> bytes:
    """The checked body of one request of up to 6 values (see the module's rules)."""
    params = {_WIRE[kind]: ",".join(batch)}
    policy = transport.retry
    problem = ""
    for attempt in range(policy.attempts):
        fetched = transport.get(path, params, kind="players", expire_after=PLAYER_EXPIRY)
        found = _unasked((fetched.head or {}).get("data") or [], kind, batch)
        if found is None:
            return fetched.require_body()
        problem = found
        key = transport.keys.key("GET", transport.base_url + path, params.items())
        transport.session.cache.delete(key)  # a bad answer is never kept
        log.debug("GET %s: a bad answer (%s); try %d", fetched.url, problem, attempt + 1)
        if attempt + 1 < policy.attempts:
            policy.sleep(policy.backoff_seconds(attempt))
    raise ServiceError(
        f"GET {transport.base_url}{path} answered {policy.attempts} times with players that "
        f"were not asked for ({problem}); a proxy or cache between matchkit and the service "
        "may be mixing answers up: nothing was kept",
        status=200,
        url=f"{transport.base_url}{path}",
    )


def fetch_players(
    transport: Transport, shard: ShardName, *, names: object = None, ids: object = None
) -> pd.DataFrame:
    """The players of ``shard`` with the given names or ids, as :meth:`PlayerCalls.players`."""
    kind, values = checked_players(names, ids)
    path = f"/shards/{shard}/players"
    bodies = [
        _answer(transport, path, kind, values[start : start + MAX_LIST_VALUES])
        for start in range(0, len(values), MAX_LIST_VALUES)
    ]
    from matchkit.normalize.pipeline import to_frames

    players = to_frames(bodies).players
    column = "player_id" if kind == "ids" else "name"
    rank = {value: index for index, value in enumerate(values)}
    players = players.sort_values(column, key=lambda found: found.map(rank), kind="stable")
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


class PlayerCalls:
    """The player calls of :class:`matchkit.Client` (it provides ``transport``, ``shard`` and
    ``matches``)."""

    transport: Transport
    shard: ShardName

    def players(
        self, *, names: object = None, ids: object = None, shard: ShardName | None = None
    ) -> pd.DataFrame:
        """Look players up by name or by id, as they are now.

        Args:
            names: player names (a list, or one name), compared exactly (case included); a
                renamed player is found by the name they hold now.
            ids: player ids; give ``names`` or ``ids``, not both.
            shard: ``"global"`` or ``"na"`` (default: the client's shard).

        Returns:
            One row per player found, in the order asked, with the columns of
            :attr:`matchkit.MatchFrames.players` (their lifetime ``stats`` as columns).
            ``attrs["not_found"]`` lists the names or ids no player has, each also named by a
            :class:`matchkit.client.warnings.PlayerNotFoundWarning`.

        Raises:
            InvalidArgumentError: bad arguments (before any request).
            ServiceError: the service failed, or kept answering with players not asked for.
        """
        chosen = self.shard if shard is None else get_shard(shard).name
        return fetch_players(self.transport, chosen, names=names, ids=ids)

    def player_matches(
        self,
        player_id: str,
        start: str | date | None = None,
        end: str | date | None = None,
        **options: Unpack[FetchOptions],
    ) -> MatchFrames:
        """The matches of one player in ``[start, end)``, window by window, as MatchFrames.

        :meth:`matchkit.Client.matches` with ``player_ids=[player_id]``: the same time rules
        (any range, split into windows of at most 28 days, clamped to the retention period with
        a warning), cache and checks. Find a player's id by name with :meth:`players`.

        Raises:
            InvalidArgumentError: ``player_id`` is not one id, or another argument is bad.
        """
        if not isinstance(player_id, str) or not player_id.strip() or "," in player_id:
            raise InvalidArgumentError(
                f"player_id={player_id!r} must be one player id (a string); look an id up by "
                "name with client.players(names=[...])",
                parameter="player_id",
            )
        if "player_ids" in options:
            raise InvalidArgumentError(
                "player_matches takes one player_id; use matches(player_ids=[...]) for several",
                parameter="player_ids",
            )
        return self.matches(start, end, player_ids=[player_id], **options)  # type: ignore[attr-defined]
