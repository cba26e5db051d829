"""Whole single-match documents in the ``global`` shape, from the few facts a test cares about.

Each builder returns what the service would send for one match (``data`` + ``included``),
written through :mod:`tests.builders.resources`, so tests state who played on which side, who won
and the rounds, and let ``matchkit.to_frames`` normalize them.

Example:
    >>> document = arena_match("M1", winner=1, participants=[[player("a")], [player("b")]])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.builders import resources

__all__ = ["Player", "arena_match", "bot", "player", "royale_match"]


@dataclass(frozen=True)
class Player:
    """One participant of a match: a registered player, an anonymous one, or a bot."""

    name: str
    actor: str = "100"
    attachment: int | None = 11
    emote: int | None = 21
    mount: int | None = 31
    outfit: int | None = 41
    registered: bool = True
    is_bot: bool = False
    stats: dict[str, Any] = field(default_factory=dict)


def player(name: str, **options: Any) -> Player:
    """A registered player (``name`` is also its player id); options as :class:`Player`."""
    return Player(name, **options)


def bot(name: str, *, actor: str = "100") -> Player:
    """A bot: no player relationship, no cosmetics, ``userID`` 0."""
    return Player(
        name,
        actor=actor,
        attachment=None,
        emote=None,
        mount=None,
        outfit=None,
        registered=False,
        is_bot=True,
    )


def _participant(match_id: str, side: int, person: Player) -> resources.Resource:
    stats: dict[str, Any] = {"side": side, "kills": 0, "deaths": 0, "score": 0}
    for kind in ("attachment", "emote", "mount", "outfit"):
        value = getattr(person, kind)
        if value is not None:
            stats[kind] = value
    stats["userID"] = 0 if person.is_bot else person.name
    stats.update(person.stats)
    return resources.participant(
        f"{match_id}-p-{person.name}",
        player=person.name if person.registered else None,
        stats=stats,
        actor=person.actor,
        unlinked=resources.OMIT,
    )


def _match(
    match_id: str,
    *,
    created_at: str,
    duration: int | None,
    server_type: str,
    ranking_type: str,
    patch_version: str,
    region: str,
    royale: bool,
    rosters: Sequence[tuple[int, bool | None, Sequence[Player]]],
    rounds: Sequence[tuple[int | None, int | None]],
) -> dict[str, Any]:
    included: list[resources.Resource] = []
    players: dict[str, resources.Resource] = {}
    roster_ids = []
    for number, (side, won, people) in enumerate(rosters):
        roster_id = f"{match_id}-r{number}"
        roster_ids.append(roster_id)
        participant_ids = []
        for person in people:
            included.append(_participant(match_id, side, person))
            participant_ids.append(included[-1]["id"])
            if person.registered:
                players[person.name] = resources.player(
                    person.name,
                    name=f"name-{person.name}",
                    stats={},
                    shard="global",
                    title="test-title",
                    assets=False,
                )
        included.append(
            resources.roster(
                roster_id,
                participants=participant_ids,
                won=None if won is None else ("true" if won else "false"),
                stats={"score": 0, "side": side},
            )
        )
    round_ids = [f"{match_id}-round{ordinal}" for ordinal in range(len(rounds))]
    for ordinal, (round_duration, winning_team) in enumerate(rounds):
        included.append(
            resources.round_(
                round_ids[ordinal],
                ordinal=ordinal,
                duration=round_duration,
                winning_team=winning_team,
            )
        )
    included.extend(players.values())
    match_stats: dict[str, Any] = {"mapID": "MAP1", "type": server_type, "region": region}
    if royale:
        match_stats["game"] = "Royale"
    data = resources.match(
        match_id,
        rosters=roster_ids,
        rounds=round_ids,
        created_at=created_at,
        stats=match_stats,
        tags={"rankingType": ranking_type, "serverType": server_type},
        links=None,
        game="Royale" if royale else "Arena",
        gameMode="1733162751",
        patchVersion=patch_version,
        titleId="test-title",
        duration=duration,
    )
    if duration is None:
        del data["attributes"]["duration"]
    return {"data": data, "included": included}


def arena_match(
    match_id: str,
    *,
    winner: int | None = 1,
    participants: Sequence[Sequence[Player]] | None = None,
    created_at: str = "2026-10-01T12:00:00Z",
    duration: int | None = 600,
    server_type: str = "QUICK2V2",
    ranking_type: str = "RANKED",
    patch_version: str = "2.1",
    region: str = "eu",
    rounds: Sequence[tuple[int | None, int | None]] = (),
) -> dict[str, Any]:
    """An Arena match: side 1 and side 2, ``winner`` (1, 2 or None for no result) won.

    Args:
        participants: the players of side 1 and of side 2 (one anonymous-free default each).
        rounds: ``(duration, winning_team)`` per round, in order.
    """
    if participants is None:
        participants = [[player(f"{match_id}-a")], [player(f"{match_id}-b")]]
    rosters = [
        (side, None if winner is None else winner == side, participants[side - 1])
        for side in (1, 2)
    ]
    return _match(
        match_id,
        created_at=created_at,
        duration=duration,
        server_type=server_type,
        ranking_type=ranking_type,
        patch_version=patch_version,
        region=region,
        royale=False,
        rosters=rosters,
        rounds=rounds,
    )


def royale_match(
    match_id: str,
    *,
    teams: int = 4,
    created_at: str = "2026-10-01T12:00:00Z",
    duration: int | None = 900,
    server_type: str = "ROYALRUMBLESOLO",
    ranking_type: str = "UNRANKED",
    patch_version: str = "2.1",
    region: str = "eu",
) -> dict[str, Any]:
    """A Royale match: one roster per team (team ``n`` on ``side`` n), the first team won."""
    rosters = [
        (number + 1, number == 0, [player(f"{match_id}-t{number}")]) for number in range(teams)
    ]
    return _match(
        match_id,
        created_at=created_at,
        duration=duration,
        server_type=server_type,
        ranking_type=ranking_type,
        patch_version=patch_version,
        region=region,
        royale=True,
        rosters=rosters,
        rounds=(),
    )
