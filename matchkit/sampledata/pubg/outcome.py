"""How one match of the PUBG sample set goes: placements, deaths, kills, damage and stats.

Drawn from the match's own seed when it is first asked for, so the set starts quickly and every
part of a match (its document, its telemetry) reads the same :class:`Outcome`. The model is in
:mod:`matchkit.sampledata.pubg.parameters`: rosters placed by a Plackett-Luce draw on strength,
rosters falling in reverse order of placement, each death by the zone or by a living enemy
drawn by skill. A team deathmatch (two rosters, respawns) is a run of kills instead, each by a
player drawn by skill of an enemy drawn at random; the roster with more kills wins.

Every figure of a participant's stats is counted from the events here, so that the telemetry
file and the match document agree: kills, knocks (``DBNOs``), headshots, damage dealt, assists,
the longest kill, the time survived and the rank.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from matchkit.sampledata.pubg import parameters as p
from matchkit.sampledata.pubg.plan import MatchPlan
from matchkit.sampledata.sampling import QuickDraw

__all__ = ["Damage", "Death", "Outcome", "ParticipantStats", "draw_outcome"]

Seat = tuple[int, int]
"""``(roster index, slot index)``: one participant of a match."""

_KNOCK_DELAY = 4.0  # seconds between a knock and the kill that finishes it


@dataclass(frozen=True)
class Damage:
    """One hit: who dealt it (``None``: the zone) to whom, when and how much."""

    time: float
    attacker: Seat | None
    victim: Seat
    amount: float
    causer: str
    reason: str


@dataclass(frozen=True)
class Death:
    """One death (a TDM player may die several times)."""

    time: float
    victim: Seat
    killer: Seat | None
    knocked_at: float | None
    headshot: bool
    distance: float
    causer: str
    assists: tuple[Seat, ...]


@dataclass
class ParticipantStats:
    """A participant's stats, counted from the events."""

    kills: int = 0
    dbnos: int = 0
    headshot_kills: int = 0
    damage_dealt: float = 0.0
    assists: int = 0
    longest_kill: float = 0.0
    kill_times: list[float] = field(default_factory=list)
    died_at: float | None = None
    death_type: str = "alive"
    heals: int = 0
    boosts: int = 0
    weapons_acquired: int = 0
    walk_distance: float = 0.0
    ride_distance: float = 0.0
    swim_distance: float = 0.0
    kill_place: int = 0

    @property
    def kill_streaks(self) -> int:
        """The most kills each within 10 seconds of the one before."""
        best = run = 0
        previous = None
        for moment in self.kill_times:
            run = run + 1 if previous is not None and moment - previous <= 10 else 1
            best = max(best, run)
            previous = moment
        return best


@dataclass(frozen=True)
class Outcome:
    """How a match went.

    Attributes:
        ranks: each roster's placement (1: won).
        deaths: every death, in time order.
        damage: every hit, in time order.
        stats: each participant's stats, by seat.
        survived: each participant's time survived, in seconds.
    """

    ranks: tuple[int, ...]
    deaths: tuple[Death, ...]
    damage: tuple[Damage, ...]
    stats: dict[Seat, ParticipantStats]
    survived: dict[Seat, float]


def draw_outcome(match: MatchPlan) -> Outcome:
    """The outcome of ``match``, the same on every call and platform."""
    draw = QuickDraw(f"outcome:{match.seed}")
    seats = [(r, s) for r, roster in enumerate(match.rosters) for s in range(len(roster))]
    skill = {(r, s): match.rosters[r][s].skill for r, s in seats}
    if len(match.rosters) == 2 and match.mode.match_type == "arcade":
        ranks, deaths = _deathmatch(draw, match, seats, skill)
        survived = {seat: float(match.duration) for seat in seats}
    else:
        ranks = _placements(draw, match, skill)
        deaths, survived = _royale(draw, match, seats, skill, ranks)
    damage = _damage(draw, match, deaths, survived, skill)
    stats = _stats(draw, match, seats, deaths, damage, survived)
    return Outcome(ranks, tuple(deaths), tuple(damage), stats, survived)


def _placements(draw: QuickDraw, match: MatchPlan, skill: dict[Seat, int]) -> tuple[int, ...]:
    """Plackett-Luce on strength: the best place is drawn first, by strength among the rest."""
    strength = [
        sum(skill[(r, s)] for s in range(len(roster))) for r, roster in enumerate(match.rosters)
    ]
    left = list(range(len(match.rosters)))
    ranks = [0] * len(left)
    for place in range(1, len(ranks) + 1):
        total = sum(strength[r] for r in left)
        point = draw.rng.random() * total
        for r in left:
            point -= strength[r]
            if point < 0:
                break
        ranks[r] = place
        left.remove(r)
    return tuple(ranks)


def _royale(
    draw: QuickDraw,
    match: MatchPlan,
    seats: list[Seat],
    skill: dict[Seat, int],
    ranks: tuple[int, ...],
) -> tuple[list[Death], dict[Seat, float]]:
    end = float(match.duration)
    falls = sorted(
        round(p.FIRST_DEATH_SECONDS + draw.rng.random() * (end - 60 - p.FIRST_DEATH_SECONDS), 3)
        for _ in range(len(ranks) - 1)
    )
    by_rank = sorted(range(len(ranks)), key=lambda r: ranks[r], reverse=True)  # last place first
    died: dict[Seat, float] = {}
    for fall, r in zip(falls, by_rank, strict=False):
        members = [(r, s) for s in range(len(match.rosters[r]))]
        last = draw.pick(members)
        for seat in members:
            died[seat] = (
                fall
                if seat == last
                else round(
                    p.FIRST_DEATH_SECONDS + draw.rng.random() * (fall - p.FIRST_DEATH_SECONDS), 3
                )
            )
    winner = by_rank[-1]
    for s in range(len(match.rosters[winner])):  # a winner may have died on the way
        if len(match.rosters[winner]) > 1 and s and draw.chance("0.3"):
            died[(winner, s)] = round(p.FIRST_DEATH_SECONDS + draw.rng.random() * (end - 120), 3)
    survived = {seat: died.get(seat, end) for seat in seats}
    deaths = []
    for moment, victim in sorted((t, seat) for seat, t in died.items()):
        alive = [seat for seat in seats if seat[0] != victim[0] and survived[seat] > moment]
        if not alive or draw.chance(p.ZONE_DEATH_SHARE):
            deaths.append(Death(moment, victim, None, None, False, 0.0, p.ZONE_CAUSER[0], ()))
            continue
        killer = _by_skill(draw, alive, skill)
        deaths.append(_kill(draw, match, moment, victim, killer, seats, survived))
    return deaths, survived


def _deathmatch(
    draw: QuickDraw, match: MatchPlan, seats: list[Seat], skill: dict[Seat, int]
) -> tuple[tuple[int, ...], list[Death]]:
    count = draw.integer(40, 70)
    moments = sorted(round(5 + draw.rng.random() * (match.duration - 10), 3) for _ in range(count))
    deaths = []
    kills = [0, 0]
    for moment in moments:
        killer = _by_skill(draw, seats, skill)
        victim = (1 - killer[0], draw.integer(0, len(match.rosters[1 - killer[0]]) - 1))
        kills[killer[0]] += 1
        survived = {seat: float(match.duration) for seat in seats}
        deaths.append(_kill(draw, match, moment, victim, killer, seats, survived, knocks=False))
    first = 0 if kills[0] > kills[1] or (kills[0] == kills[1] and deaths[-1].victim[0]) else 1
    ranks = (1, 2) if first == 0 else (2, 1)
    return ranks, deaths


def _kill(
    draw: QuickDraw,
    match: MatchPlan,
    moment: float,
    victim: Seat,
    killer: Seat,
    seats: list[Seat],
    survived: dict[Seat, float],
    *,
    knocks: bool = True,
) -> Death:
    team_mode = match.mode.team_size > 1 and knocks
    knocked = team_mode and draw.chance(p.KNOCK_SHARE) and moment - _KNOCK_DELAY > 0
    helpers = [
        seat
        for seat in seats
        if seat[0] == killer[0] and seat != killer and survived[seat] > moment
    ]
    assists = tuple(seat for seat in helpers if draw.chance("0.25"))
    weapon = draw.pick(p.DAMAGE_CAUSERS)[0]
    return Death(
        time=moment,
        victim=victim,
        killer=killer,
        knocked_at=round(moment - _KNOCK_DELAY, 3) if knocked else None,
        headshot=draw.chance(p.HEADSHOT_SHARE),
        distance=round(500 + draw.rng.random() * 25_000, 2),
        causer=weapon,
        assists=assists,
    )


def _by_skill(draw: QuickDraw, seats: list[Seat], skill: dict[Seat, int]) -> Seat:
    total = sum(skill[seat] for seat in seats)
    point = draw.rng.random() * total
    for seat in seats:
        point -= skill[seat]
        if point < 0:
            return seat
    return seats[-1]


def _damage(
    draw: QuickDraw,
    match: MatchPlan,
    deaths: list[Death],
    survived: dict[Seat, float],
    skill: dict[Seat, int],
) -> list[Damage]:
    """The hits of every kill (100 health in one to three hits), each assist's hit before it,
    and each zone death's last tick."""
    hits = []
    for death in deaths:
        if death.killer is None:
            hits.append(Damage(death.time, None, death.victim, 100.0, death.causer, "NonSpecific"))
            continue
        for helper in death.assists:
            amount = float(draw.integer(10, 40))
            hits.append(
                Damage(
                    round(death.time - 6, 3),
                    helper,
                    death.victim,
                    amount,
                    draw.pick(p.DAMAGE_CAUSERS)[0],
                    "ArmShot",
                )
            )
        count = draw.integer(1, 3)
        first = death.knocked_at if death.knocked_at is not None else death.time - count
        left = 100.0
        for number in range(count):
            last = number == count - 1
            amount = left if last else float(draw.integer(10, 45))
            left -= amount
            moment = death.time if last else round(first - (count - number) * 0.4, 3)
            reason = "HeadShot" if last and death.headshot else "TorsoShot"
            hits.append(Damage(moment, death.killer, death.victim, amount, death.causer, reason))
    hits.sort(key=lambda hit: hit.time)
    return hits


def _stats(
    draw: QuickDraw,
    match: MatchPlan,
    seats: list[Seat],
    deaths: list[Death],
    damage: list[Damage],
    survived: dict[Seat, float],
) -> dict[Seat, ParticipantStats]:
    stats = {seat: ParticipantStats() for seat in seats}
    for hit in damage:
        if hit.attacker is not None:
            stats[hit.attacker].damage_dealt += hit.amount
    for death in deaths:
        victim = stats[death.victim]
        victim.died_at = death.time
        victim.death_type = "byzone" if death.killer is None else "byplayer"
        if death.killer is None:
            continue
        killer = stats[death.killer]
        killer.kills += 1
        killer.kill_times.append(death.time)
        killer.headshot_kills += death.headshot
        killer.dbnos += death.knocked_at is not None
        killer.longest_kill = max(killer.longest_kill, round(death.distance / 100, 4))
        for helper in death.assists:
            stats[helper].assists += 1
    minutes = Fraction(1, 60)
    for seat in seats:
        one = stats[seat]
        alive = survived[seat]
        one.heals = draw.integer(0, 4)
        one.boosts = draw.integer(0, 3)
        one.weapons_acquired = draw.integer(1, 5)
        one.walk_distance = round(alive * float(minutes) * draw.integer(40, 120), 3)
        one.ride_distance = round(draw.rng.random() * 3000, 3) if draw.chance("0.4") else 0.0
        one.swim_distance = round(draw.rng.random() * 40, 3) if draw.chance("0.1") else 0.0
    order = sorted(seats, key=lambda seat: (-stats[seat].kills, -stats[seat].damage_dealt, seat))
    for place, seat in enumerate(order, start=1):
        stats[seat].kill_place = place
    return stats
