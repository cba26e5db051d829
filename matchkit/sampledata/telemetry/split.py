"""Per-round player stats of an Arena match whose sums are the participants' stats exactly.

A match document carries each participant's totals and each round's winner and duration; the
telemetry's RoundFinishedEvents carry one row per round and player. :func:`split_rounds` draws
rows that agree with everything the document says:

- deaths: a participant dies once in every round their side lost; their other deaths fall in
  rounds their side won (never the whole side), as the match model plays them;
- timeAlive: a round survived counts its whole duration; a round died in, between a third of it
  and all of it, the rows summing to the participant's timeAlive;
- kills: each death in a round is a kill by a member of the other side in that round, the kills
  of each participant summing to their total;
- every other stat the participant carries is split over the rounds in proportion to the time
  alive (jittered), with the largest-remainder rule so the rows sum to the total exactly;
  a stat the participant does not carry is drawn per round (disables by role, energy, ...).

When a document's totals cannot be realised that way (a document of another source), each
total is still split exactly, without the round constraints.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations, product

from matchkit.sampledata import parameters as p
from matchkit.sampledata.sampling import Draw
from matchkit.sampledata.telemetry import parameters as t
from matchkit.sampledata.telemetry.catalogue import character_kit
from matchkit.sampledata.telemetry.match import PLAYER_STATS, MatchView, ParticipantView

__all__ = ["split_rounds", "split_total"]

Rows = list[list[dict[str, int]]]  # [round][participant] -> stats


def split_total(total: int, weights: Sequence[int]) -> list[int]:
    """``total`` in integer parts proportional to ``weights`` (largest remainders), summing to it.

    Example:
        >>> split_total(10, [1, 1, 1])
        [4, 3, 3]
    """
    count = len(weights)
    if count == 0:
        return []
    if sum(weights) <= 0 or any(weight < 0 for weight in weights):
        weights = [1] * count
    whole = sum(weights)
    parts = [total * weight // whole for weight in weights]
    remainders = sorted(range(count), key=lambda index: (-(total * weights[index] % whole), index))
    for index in remainders[: total - sum(parts)]:
        parts[index] += 1
    return parts


def _extra_deaths(view: MatchView, side: int, draw: Draw) -> int | None:
    """How many deaths in won rounds the side's participants without a ``deaths`` stat add:
    exactly what the other side's kills need when all of those are known (None: no such
    number), else a draw of the model's chance per round, at least what the kills need."""
    people = view.participants
    killers = [one for one in people if one.side != side]
    known_kills = sum(one.stats.get("kills", 0) for one in killers)
    fixed = sum(
        one.stats["deaths"]
        if "deaths" in one.stats
        else sum(1 for r in view.rounds if r.winning_team != side)
        for one in people
        if one.side == side
    )
    if all("kills" in one.stats for one in killers):
        return known_kills - fixed if known_kills >= fixed else None
    unknown = [one for one in people if one.side == side and "deaths" not in one.stats]
    won = sum(1 for r in view.rounds if r.winning_team == side)
    drawn = sum(draw.chance(p.ARENA_WINNER_DEATH) for _ in range(won * len(unknown)))
    return max(drawn, known_kills - fixed)


def _fits(person: ParticipantView, died: tuple[int, ...], durations: list[int]) -> bool:
    """Whether the participant's timeAlive can add up when they died in the rounds ``died``
    (a round died in counts a third of it to all of it, a round survived all of it)."""
    total = person.stats.get("timeAlive")
    if total is None:
        return True
    slack = sum(durations[r] - durations[r] // 3 for r in died)
    return sum(durations) - slack <= total <= sum(durations)


def _side_deaths(view: MatchView, side: int, members: list[int], draw: Draw) -> dict[int, tuple]:
    """For the members of ``side`` whose deaths are known: the won rounds each died in, drawn
    among the choices where every timeAlive adds up and someone of the side stands in each
    won round (the best choice found when none does)."""
    people = view.participants
    durations = [one.duration for one in view.rounds]
    won = [r for r, one in enumerate(view.rounds) if one.winning_team == side]
    lost = tuple(r for r, one in enumerate(view.rounds) if one.winning_team != side)
    size = len([one for one in people if one.side == side])
    options = []
    for i in members:
        extra = people[i].stats["deaths"] - len(lost)
        choices = draw.shuffled(list(combinations(won, extra)))

        def unfit(died: tuple[int, ...], person: ParticipantView = people[i]) -> bool:
            return not _fits(person, lost + died, durations)

        options.append(sorted(choices, key=unfit))
    best, best_score = None, None
    for chosen in product(*options):
        dead = Counter(r for rounds in chosen for r in rounds)
        score = (
            sum(
                not _fits(people[i], lost + c, durations)
                for i, c in zip(members, chosen, strict=True)
            ),
            sum(1 for r in won if dead[r] >= size),
        )
        if best_score is None or score < best_score:
            best, best_score = chosen, score
            if score == (0, 0):
                break
    return dict(zip(members, best or (), strict=True))


def _deaths(view: MatchView, draw: Draw) -> list[list[int]]:
    """deaths[participant][round]."""
    rounds = view.rounds
    people = view.participants
    side_size = {roster.side: len(roster.participants) for roster in view.rosters}
    result = [[1 if one.winning_team != person.side else 0 for one in rounds] for person in people]
    dead_in: Counter[tuple[int, int]] = Counter()  # (side, round) -> deaths of the winning side
    for side in sorted(side_size):
        members = []
        for i, person in enumerate(people):
            if person.side != side or "deaths" not in person.stats:
                continue
            extra = person.stats["deaths"] - sum(result[i])
            if 0 <= extra <= sum(1 for one in rounds if one.winning_team == side):
                members.append(i)
            else:
                result[i] = split_total(person.stats["deaths"], [1] * len(rounds))
        for i, chosen in _side_deaths(view, side, members, draw).items():
            for r in chosen:
                result[i][r] += 1
                dead_in[(side, r)] += 1
    for side in sorted(side_size):
        unknown = [
            i for i, one in enumerate(people) if one.side == side and "deaths" not in one.stats
        ]
        if not unknown:
            continue
        extra = _extra_deaths(view, side, draw) or 0
        slots = [
            (i, r) for i in unknown for r, one in enumerate(rounds) if one.winning_team == side
        ]
        for i, r in draw.shuffled(slots):
            if extra <= 0:
                break
            if dead_in[(side, r)] + 1 < side_size[side]:
                result[i][r] += 1
                dead_in[(side, r)] += 1
                extra -= 1
    return result


def _time_alive(person: ParticipantView, deaths: list[int], view: MatchView, draw: Draw):
    durations = [one.duration for one in view.rounds]
    lows = [
        duration // 3 if died else duration
        for duration, died in zip(durations, deaths, strict=True)
    ]
    total = person.stats.get("timeAlive")
    if total is None:
        return [draw.integer(low, high) for low, high in zip(lows, durations, strict=True)]
    extra = total - sum(lows)
    capacity = [high - low for low, high in zip(lows, durations, strict=True)]
    if 0 <= extra <= sum(capacity):
        added = split_total(extra, capacity) if extra else [0] * len(lows)
        return [low + more for low, more in zip(lows, added, strict=True)]
    return split_total(total, durations)


def _kills(view: MatchView, deaths: list[list[int]], draw: Draw) -> list[list[int]]:
    """kills[participant][round]: each death of a side is a kill by the other side's member."""
    people = view.participants
    count = len(view.rounds)
    kills = [[0] * count for _ in people]
    for side in {person.side for person in people}:
        members = [index for index, person in enumerate(people) if person.side == side]
        victims = [
            sum(deaths[index][r] for index, person in enumerate(people) if person.side != side)
            for r in range(count)
        ]
        needed = sum(victims)
        known = {i: people[i].stats["kills"] for i in members if "kills" in people[i].stats}
        unknown = [i for i in members if i not in known]
        budget = dict(known)
        left = needed - sum(known.values())
        if unknown and left >= 0:
            for index, share in zip(unknown, split_total(left, [1] * len(unknown)), strict=True):
                budget[index] = share
        elif unknown or left != 0:  # the totals cannot follow the deaths: split them alone
            for index in members:
                total = known.get(index, draw.integer(0, 2))
                kills[index] = split_total(total, [victim + 1 for victim in victims])
            continue
        for r in range(count):
            for _ in range(victims[r]):
                pool = [index for index in members if budget[index] > 0]
                weights = [budget[index] for index in pool]
                pick = draw.integer(1, sum(weights))
                for index, weight in zip(pool, weights, strict=True):
                    pick -= weight
                    if pick <= 0:
                        budget[index] -= 1
                        kills[index][r] += 1
                        break
    return kills


_SPREAD = int(Fraction(t.SPLIT_JITTER) * 100)
_DISABLES = dict(t.DISABLES_PER_MINUTE)
_MEAN_DISABLES = sum(_DISABLES.values()) // len(_DISABLES)
_ENERGY = Fraction(t.ENERGY_PER_SECOND)


def _jittered(draw: Draw, alive: list[int]) -> list[int]:
    return [seconds * draw.integer(100 - _SPREAD, 100 + _SPREAD) for seconds in alive]


def _drawn(draw: Draw, name: str, seconds: int, role: str) -> int:
    """A stat the participant does not carry, for one round of ``seconds`` alive."""
    jitter = draw.integer(100 - _SPREAD, 100 + _SPREAD)
    if name == "disablesDone":
        return seconds * _DISABLES[role] * jitter // 6000
    if name == "disablesReceived":
        return seconds * _MEAN_DISABLES * jitter // 6000
    if name == "energyGained":
        return seconds * _ENERGY.numerator * jitter // (_ENERGY.denominator * 100)
    if name in ("damageDone", "damageReceived"):
        return seconds * draw.integer(150, 450) // 60
    if name == "healingDone":
        rate = draw.integer(80, 260) if role == "support" else draw.integer(0, 40)
        return seconds * rate // 60
    if name == "healingReceived":
        return seconds * draw.integer(20, 120) // 60
    return seconds * draw.integer(30, 90) // 60  # abilityUses


def split_rounds(view: MatchView, draw: Draw) -> Rows:
    """Per round, per participant (in ``view.participants`` order), the 13 playerStats."""
    people = view.participants
    count = len(view.rounds)
    deaths = _deaths(view, draw)
    alive = [_time_alive(person, deaths[i], view, draw) for i, person in enumerate(people)]
    kills = _kills(view, deaths, draw)
    rows: Rows = [[{} for _ in people] for _ in range(count)]
    for i, person in enumerate(people):
        role = character_kit(person.actor).role
        weights = _jittered(draw, alive[i])
        columns: dict[str, list[int]] = {
            "kills": kills[i],
            "deaths": deaths[i],
            "timeAlive": alive[i],
        }
        for name in PLAYER_STATS:
            if name in columns or name == "score":
                continue
            if name == "energyUsed":
                continue
            if name in person.stats:
                columns[name] = split_total(person.stats[name], weights)
            else:
                columns[name] = [_drawn(draw, name, seconds, role) for seconds in alive[i]]
        if "energyUsed" in person.stats:
            columns["energyUsed"] = split_total(person.stats["energyUsed"], weights)
        else:
            columns["energyUsed"] = [
                25 * (gained * draw.integer(30, 90) // 100 // 25)
                for gained in columns["energyGained"]
            ]
        formula = [
            100 * columns["kills"][r] + (columns["damageDone"][r] + columns["healingDone"][r]) // 2
            for r in range(count)
        ]
        if "score" in person.stats:
            columns["score"] = split_total(person.stats["score"], [one + 1 for one in formula])
        else:
            columns["score"] = formula
        for r in range(count):
            rows[r][i] = {name: columns[name][r] for name in PLAYER_STATS}
    return rows
