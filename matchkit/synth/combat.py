"""What happens inside a global match: Arena rounds and Royale eliminations, stat by stat.

The simulations keep the documents consistent: in Arena the losers of a round all die in it and
each death is a kill of an opponent, so a side's kills equal the other side's deaths; a
roster's score is the number of rounds it won; in Royale each elimination is a kill by a
surviving roster's member and the last roster standing wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from matchkit.sampledata import parameters as p
from matchkit.sampledata.sampling import Draw
from matchkit.sampledata.telemetry.match import ArenaRound

__all__ = ["ArenaResult", "Fighter", "RoyaleResult", "play_arena", "play_royale"]


@dataclass
class Fighter:
    """One participant's running totals over a match (mutable while the match is played)."""

    side: int
    support: bool
    kills: int = 0
    deaths: int = 0
    damage_done: int = 0
    damage_received: int = 0
    healing_done: int = 0
    healing_received: int = 0
    ability_uses: int = 0
    time_alive: int = 0

    @property
    def score(self) -> int:
        return 100 * self.kills + (self.damage_done + self.healing_done) // 2

    def stats(self) -> dict[str, int]:
        """The simulated stats under their wire names."""
        return {
            "abilityUses": self.ability_uses,
            "damageDone": self.damage_done,
            "damageReceived": self.damage_received,
            "deaths": self.deaths,
            "healingDone": self.healing_done,
            "healingReceived": self.healing_received,
            "kills": self.kills,
            "score": self.score,
            "timeAlive": self.time_alive,
        }


@dataclass(frozen=True)
class ArenaResult:
    """An Arena match played out: its rounds, rounds won per side and the match duration."""

    rounds: tuple[ArenaRound, ...]
    rounds_won: dict[int, int]
    duration: int


@dataclass(frozen=True)
class RoyaleResult:
    """A Royale match played out: per roster (by index) its placement and kills; the duration."""

    placements: tuple[int, ...]
    duration: int
    kills_by_roster: tuple[int, ...]


def _fight(draw: Draw, fighter: Fighter, seconds: int) -> None:
    fighter.time_alive += seconds
    fighter.ability_uses += seconds * draw.integer(30, 90) // 60
    fighter.damage_done += seconds * draw.integer(150, 450) // 60
    fighter.damage_received += seconds * draw.integer(150, 450) // 60
    heal_rate = draw.integer(80, 260) if fighter.support else draw.integer(0, 40)
    fighter.healing_done += seconds * heal_rate // 60
    fighter.healing_received += seconds * draw.integer(20, 120) // 60


def play_arena(
    draw: Draw,
    sides: dict[int, list[Fighter]],
    *,
    side_one_round_win: Fraction,
    round_duration: tuple[int, int, int],
) -> ArenaResult:
    """Play rounds until a side has won ARENA_ROUNDS_TO_WIN; update the fighters' totals.

    Args:
        draw: the match's random source.
        sides: side (1 or 2) -> its fighters.
        side_one_round_win: probability that side 1 wins a round.
        round_duration: (low, mode, high) seconds of a round.
    """
    rounds_won = {1: 0, 2: 0}
    rounds: list[ArenaRound] = []
    winner_death = Fraction(p.ARENA_WINNER_DEATH)
    while max(rounds_won.values()) < p.ARENA_ROUNDS_TO_WIN:
        winner = 1 if draw.chance(side_one_round_win) else 2
        seconds = draw.triangular(*round_duration)
        winners_dying = [draw.chance(winner_death) for _ in sides[winner]]
        if all(winners_dying):
            winners_dying[-1] = False  # a side with nobody standing would have lost the round
        for side in (1, 2):
            for position, fighter in enumerate(sides[side]):
                if side != winner or winners_dying[position]:
                    fighter.deaths += 1
                    draw.pick(sides[3 - side]).kills += 1
                    _fight(draw, fighter, draw.integer(seconds // 3, seconds))
                else:
                    _fight(draw, fighter, seconds)
        rounds_won[winner] += 1
        rounds.append(ArenaRound(len(rounds), seconds, winner))
    duration = p.ARENA_INTRO_SECONDS + sum(
        one.duration + p.ARENA_ROUND_BREAK_SECONDS for one in rounds
    )
    return ArenaResult(tuple(rounds), rounds_won, duration)


def play_royale(
    draw: Draw, rosters: list[list[Fighter]], *, match_duration: tuple[int, int, int]
) -> RoyaleResult:
    """Eliminate rosters one by one; the last one standing wins. No side advantage.

    Placements are a uniform random order of the rosters; each eliminated participant is
    killed by a member of a roster placed better.
    """
    duration = draw.triangular(*match_duration)
    order = draw.shuffled(range(len(rosters)))
    placements = [0] * len(rosters)
    for place, index in enumerate(order, start=1):
        placements[index] = place
    eliminations = sorted(draw.integer(60, duration - 10) for _ in range(len(rosters) - 1))
    # the worst-placed roster falls first
    for time, index in zip(eliminations, reversed(order[1:]), strict=True):
        survivors = [
            fighter
            for other, roster in enumerate(rosters)
            if placements[other] < placements[index]
            for fighter in roster
        ]
        for fighter in rosters[index]:
            fighter.deaths += 1
            draw.pick(survivors).kills += 1
            _fight(draw, fighter, max(1, time - draw.integer(0, 30)))
    for fighter in rosters[order[0]]:
        _fight(draw, fighter, duration)
    return RoyaleResult(
        placements=tuple(placements),
        duration=duration,
        kills_by_roster=tuple(sum(f.kills for f in roster) for roster in rosters),
    )
