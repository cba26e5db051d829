"""The telemetry file of a match of the PUBG sample set: a JSON array of ``_T``/``_D`` events.

The event shapes (keys, value types, nesting) are those of the recorded files in
``../shared/pubg/``: the whole 2025 file ``telemetry-js1936-2025-custom-erangel.json`` for every
event it has, the 2018 excerpt ``telemetry-excerpt-tpa-dist.json`` for the care packages. The
file agrees with its match document by construction (both read one
:class:`~matchkit.sampledata.pubg.outcome.Outcome`): one ``LogPlayerKillV2`` per death (killer,
finisher and knocker a participant alive then, or null for the zone), one
``LogPlayerTakeDamage`` per hit (a participant's ``damageDealt`` is the sum of its hits), one
``LogPlayerMakeGroggy`` per knock (``DBNOs``), ``LogMatchEnd`` rankings equal to the rosters'
ranks, and each participant's last ``LogPlayerPosition`` at or before its time survived.
``common.isGame`` is 0 in the lobby, 0.1 in the plane, then 1 and a half more each zone phase.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

import orjson

from matchkit.sampledata.pubg import parameters as p
from matchkit.sampledata.pubg.outcome import Death, Outcome, Seat, draw_outcome
from matchkit.sampledata.pubg.plan import Bot, MatchPlan
from matchkit.sampledata.sampling import QuickDraw

__all__ = ["telemetry_bytes", "telemetry_events"]

Event = dict[str, Any]
_NO_VEHICLE = {
    "vehicleType": "",
    "vehicleId": "",
    "seatIndex": -1,
    "healthPercent": 0,
    "feulPercent": 0,
    "altitudeAbs": 0,
    "altitudeRel": 0,
    "velocity": 0,
    "isWheelsInAir": False,
    "isInWaterVolume": False,
    "isEngineOn": True,
    "location": {"x": 0, "y": 0, "z": 0},
}
_REWARD = {
    "bpRewardDetail": {
        "byPlayTime": 0,
        "byRanking": 0,
        "byKills": 0,
        "byDamageDealt": 0,
        "boostAmount": 0,
        "byModeScore": 0,
    },
    "arcadeRewardDetail": {"byPlayTime": 0},
    "statTrakDataPairs": [],
    "headshotStatTrakDataPairs": [],
}


def telemetry_bytes(match: MatchPlan, outcome: Outcome | None = None) -> bytes:
    """The file's bytes (compact JSON)."""
    return orjson.dumps(telemetry_events(match, outcome))


def telemetry_events(match: MatchPlan, outcome: Outcome | None = None) -> list[Event]:
    """The file's events, in time order."""
    return _Renderer(match, outcome or draw_outcome(match)).events()


class _Renderer:
    def __init__(self, match: MatchPlan, outcome: Outcome) -> None:
        self.match = match
        self.outcome = outcome
        self.draw = QuickDraw(f"telemetry:{match.seed}")
        self.start = match.created_at
        self.royale = match.mode.match_type != "arcade"
        size = match.map.size
        self.center = (
            size * (0.3 + 0.4 * self.draw.random()),
            size * (0.3 + 0.4 * self.draw.random()),
        )
        self.seats = [(r, s) for r, roster in enumerate(match.rosters) for s in range(len(roster))]
        self.spot = {seat: self._somewhere() for seat in self.seats}
        self.out: list[tuple[float, int, Event]] = []
        deaths = sorted(outcome.survived.items(), key=lambda item: item[1], reverse=True)
        self.individual = {seat: place for place, (seat, _) in enumerate(deaths, start=1)}

    # -- helpers ------------------------------------------------------------------------

    def _somewhere(self) -> tuple[float, float]:
        size = self.match.map.size
        return (round(size * self.draw.random(), 2), round(size * self.draw.random(), 2))

    def _when(self, seconds: float) -> str:
        moment = self.start + timedelta(seconds=seconds)
        return _iso(moment)

    def _is_game(self, seconds: float) -> float:
        if seconds < 0:
            return 0
        if seconds < 60 and self.royale:
            return 0.10000000149011612
        return 1 + 0.5 * min(8, int(seconds // max(1, self.match.duration / 9)))

    def _add(self, seconds: float, kind: str, body: Event) -> None:
        if kind != "LogMatchDefinition":  # the one event without ``common``, as recorded
            body["common"] = {"isGame": self._is_game(seconds)}
        body["_D"] = self._when(seconds)
        body["_T"] = kind
        self.out.append((seconds, len(self.out), body))

    def _character(
        self, seat: Seat, seconds: float, *, health: float = 100, end: bool = False
    ) -> Event:
        slot = self.match.rosters[seat[0]][seat[1]]
        x, y = self.spot[seat]
        return {
            "name": slot.name,
            "teamId": seat[0] + 1,
            "health": health,
            "location": {"x": 0, "y": 0, "z": 0} if end else {"x": x, "y": y, "z": 500.0},
            "ranking": self.outcome.ranks[seat[0]] if end else 0,
            "individualRanking": self.individual[seat] if end else 0,
            "accountId": slot.id,
            "isInBlueZone": False,
            "isInRedZone": False,
            "inSpecialZone": "None",
            "isInVehicle": False,
            "zone": [],
            "type": "ai" if isinstance(slot, Bot) else "user",
        }

    def _alive(self, seat: Seat, seconds: float) -> bool:
        return self.outcome.survived[seat] >= seconds

    # -- the file -------------------------------------------------------------------------

    def events(self) -> list[Event]:
        match = self.match
        self._add(
            -60,
            "LogMatchDefinition",
            {
                "MatchId": f"match.bro.{match.mode.match_type}.{match.shard}.{match.mode.id}."
                f"{match.created_at:%Y.%m.%d.%H}.{match.id}",
                "PingQuality": "",
            },
        )
        for seat in self.seats:
            slot = match.rosters[seat[0]][seat[1]]
            if not isinstance(slot, Bot):
                self._add(-50, "LogPlayerLogin", {"accountId": slot.id})
            self._add(-49, "LogPlayerCreate", {"character": self._character(seat, -49)})
        self._add(
            0,
            "LogMatchStart",
            {
                "mapName": match.map.id,
                "weatherId": "Clear",
                "characters": [self._start_character(seat) for seat in self.seats],
                "cameraViewBehaviour": "FpsOnly" if match.mode.id.endswith("fpp") else "FpsAndTps",
                "teamSize": match.mode.team_size,
                "isCustomGame": match.custom,
                "isEventMode": False,
                "blueZoneCustomOptions": "[]",
            },
        )
        if self.royale:
            self._flight()
            self._care_packages()
        self._items()
        self._periodic()
        self._fights()
        self._end()
        self.out.sort(key=lambda item: (item[0], item[1]))
        return [event for _, _, event in self.out]

    def _start_character(self, seat: Seat) -> Event:
        return {
            "character": self._character(seat, 0),
            "primaryWeaponFirst": "",
            "primaryWeaponSecond": "",
            "secondaryWeapon": "",
            "spawnKitIndex": 0,
        }

    def _flight(self) -> None:
        plane = p.VEHICLES[0][0]
        for seat in self.seats:
            leave = 20 + self.draw.random() * 40
            vehicle = {
                **_NO_VEHICLE,
                "vehicleType": "TransportAircraft",
                "vehicleId": plane,
                "seatIndex": 0,
                "isEngineOn": False,
            }
            self._add(
                1,
                "LogVehicleRide",
                {
                    "character": self._character(seat, 1),
                    "vehicle": vehicle,
                    "seatIndex": 0,
                    "fellowPassengers": [],
                },
            )
            self._add(
                leave,
                "LogVehicleLeave",
                {
                    "character": self._character(seat, leave),
                    "vehicle": vehicle,
                    "rideDistance": 0,
                    "seatIndex": 0,
                    "maxSpeed": 0,
                    "fellowPassengers": [],
                },
            )
            landing = min(leave + 40, self.outcome.survived[seat])
            self._add(
                landing,
                "LogParachuteLanding",
                {
                    "character": self._character(seat, landing),
                    "distance": round(200 + 300 * self.draw.random(), 3),
                },
            )

    def _care_packages(self) -> None:
        for number in range(2):
            moment = self.match.duration * (0.3 + 0.3 * number)
            x, y = self._somewhere()
            weapon = p.DAMAGE_CAUSERS[number][0]
            items = [_item(f"Item_Weapon_{weapon[4:]}", "Weapon", "Main")]
            package = {"itemPackageId": p.CARE_PACKAGE[0], "items": items}
            self._add(
                moment,
                "LogCarePackageSpawn",
                {"itemPackage": {**package, "location": {"x": x, "y": y, "z": 30000}}},
            )
            self._add(
                moment + 45,
                "LogCarePackageLand",
                {"itemPackage": {**package, "location": {"x": x, "y": y, "z": 500.0}}},
            )

    def _items(self) -> None:
        for seat in self.seats:
            stats = self.outcome.stats[seat]
            alive = self.outcome.survived[seat]
            for number in range(stats.weapons_acquired):
                weapon = p.DAMAGE_CAUSERS[(seat[1] + number) % len(p.DAMAGE_CAUSERS)][0]
                item = _item(f"Item_Weapon_{weapon[4:]}", "Weapon", "Main")
                self._pickup(seat, min(alive, 70 + number * 15), item)
            for kind, count, item_id, category in (
                ("LogHeal", stats.heals, p.ITEMS[0][0], "Heal"),
                ("LogItemUse", stats.boosts, p.ITEMS[2][0], "Boost"),
            ):
                for number in range(count):
                    moment = min(alive, 120 + number * 30)
                    item = _item(item_id, "Use", category)
                    body: Event = {"character": self._character(seat, moment), "item": item}
                    if kind == "LogHeal":
                        body["healAmount"] = 15
                    self._add(moment, kind, body)

    def _pickup(self, seat: Seat, moment: float, item: Event) -> None:
        self._add(
            moment, "LogItemPickup", {"character": self._character(seat, moment), "item": item}
        )

    def _periodic(self) -> None:
        size = self.match.map.size
        step = p.POSITION_SECONDS
        teams = len(self.match.rosters)
        for tick in range(0, self.match.duration + 1, step):
            alive = [seat for seat in self.seats if self._alive(seat, tick)]
            radius = round(size * 0.5 * max(0.02, 1 - tick / self.match.duration), 3)
            state = {
                "elapsedTime": tick,
                "numStartTeams": teams,
                "numAliveTeams": len({seat[0] for seat in alive}),
                "numParticipatedTeams": teams,
                "numJoinPlayers": len(self.seats),
                "numStartPlayers": len(self.seats),
                "numAlivePlayers": len(alive),
                "numParticipatedPlayers": len(self.seats),
                "safetyZonePosition": {"x": self.center[0], "y": self.center[1], "z": 0},
                "safetyZoneRadius": radius,
                "poisonGasWarningPosition": {"x": self.center[0], "y": self.center[1], "z": 0},
                "poisonGasWarningRadius": round(radius * 0.8, 3),
                "redZonePosition": {"x": 0, "y": 0, "z": 0},
                "redZoneRadius": 0,
                "blackZonePosition": {"x": 0, "y": 0, "z": 0},
                "blackZoneRadius": 0,
            }
            self._add(tick, "LogGameStatePeriodic", {"gameState": state})
            if not tick:
                continue
            for seat in alive:
                self._walk(seat, radius)
                self._add(
                    tick,
                    "LogPlayerPosition",
                    {
                        "character": self._character(seat, tick),
                        "elapsedTime": tick,
                        "numAlivePlayers": len(alive),
                    },
                )

    def _walk(self, seat: Seat, radius: float) -> None:
        x, y = self.spot[seat]
        dx, dy = self.center[0] - x, self.center[1] - y
        distance = math.hypot(dx, dy)
        if distance > radius * 0.7:  # move towards the safe zone, a little off course
            share = min(1.0, (distance - radius * 0.7) / distance) * 0.8
            jitter = self.match.map.size * 0.01
            x += dx * share + jitter * (self.draw.random() - 0.5)
            y += dy * share + jitter * (self.draw.random() - 0.5)
        self.spot[seat] = (round(x, 2), round(y, 2))

    def _fights(self) -> None:
        attack = 1000
        for hit in self.outcome.damage:
            attack += 1
            body: Event = {"attackId": attack if hit.attacker is not None else -1}
            if hit.attacker is not None:
                body["attacker"] = self._character(hit.attacker, hit.time)
            body.update(
                victim=self._character(hit.victim, hit.time, health=0 if hit.amount == 100 else 60),
                damageTypeCategory="Damage_Gun" if hit.attacker is not None else "Damage_BlueZone",
                damageReason=hit.reason,
                damage=hit.amount,
                damageCauserName=hit.causer,
                isThroughPenetrableWall=False,
            )
            self._add(hit.time, "LogPlayerTakeDamage", body)
        for death in self.outcome.deaths:
            attack += 1
            if death.knocked_at is not None:
                self._add(death.knocked_at, "LogPlayerMakeGroggy", self._groggy(death, attack))
            self._add(death.time, "LogPlayerKillV2", self._kill(death, attack))

    def _damage_info(self, death: Death, *, player: bool) -> Event:
        if player and death.killer is not None:
            reason = "HeadShot" if death.headshot else "TorsoShot"
            return {
                "damageReason": reason,
                "damageTypeCategory": "Damage_Gun",
                "damageCauserName": death.causer,
                "additionalInfo": [],
                "distance": death.distance,
                "isThroughPenetrableWall": False,
            }
        return {
            "damageReason": "NonSpecific",
            "damageTypeCategory": "Damage_BlueZone",
            "damageCauserName": death.causer,
            "additionalInfo": [],
            "distance": -1,
            "isThroughPenetrableWall": False,
        }

    def _groggy(self, death: Death, attack: int) -> Event:
        # Knocks are by players, at a known moment (Outcome's _kill makes them so).
        assert death.killer is not None
        assert death.knocked_at is not None
        return {
            "attackId": attack,
            "attacker": self._character(death.killer, death.knocked_at),
            "victim": self._character(death.victim, death.knocked_at, health=0),
            "damageReason": "TorsoShot",
            "damageTypeCategory": "Damage_Gun",
            "damageCauserName": death.causer,
            "damageCauserAdditionalInfo": [],
            "victimWeapon": "",
            "victimWeaponAdditionalInfo": [],
            "distance": death.distance,
            "isAttackerInVehicle": False,
            "dBNOId": attack,
            "isThroughPenetrableWall": False,
        }

    def _kill(self, death: Death, attack: int) -> Event:
        victim = death.victim
        killer = None if death.killer is None else self._character(death.killer, death.time)
        knocker = (
            self._character(death.killer, death.knocked_at)
            if death.killer is not None and death.knocked_at is not None
            else None
        )
        result = self._game_result(victim)
        body: Event = {
            "attackId": attack,
            "dBNOId": attack if knocker is not None else -1,
            "victimGameResult": result,
            "victim": self._character(victim, death.time, health=0),
            "victimVehicle": dict(_NO_VEHICLE),
            "victimWeapon": "",
            "victimWeaponAdditionalInfo": [],
        }
        if knocker is not None:
            body["dBNOMaker"] = knocker
        body["dBNODamageInfo"] = self._damage_info(death, player=knocker is not None)
        body["finisher"] = killer
        body["finishDamageInfo"] = self._damage_info(death, player=True)
        body["killer"] = killer
        body["killerDamageInfo"] = self._damage_info(death, player=True)
        body["killerVehicle"] = dict(_NO_VEHICLE)
        body["assists_AccountId"] = [
            self.match.rosters[seat[0]][seat[1]].id for seat in death.assists
        ]
        body["teamKillers_AccountId"] = []
        body["isSuicide"] = False
        return body

    def _game_result(self, seat: tuple[int, int]) -> Event:
        """A participant's ``GameResult`` (a victim's at its kill, a winner's at the end)."""
        slot = self.match.rosters[seat[0]][seat[1]]
        stats = self.outcome.stats[seat]
        return {
            "rank": self.outcome.ranks[seat[0]],
            "gameResult": "",
            "teamId": seat[0] + 1,
            "stats": {
                "killCount": stats.kills,
                "distanceOnFoot": stats.walk_distance,
                "distanceOnSwim": stats.swim_distance,
                "distanceOnVehicle": stats.ride_distance,
                "distanceOnParachute": 300.0,
                "distanceOnFreefall": 250.0,
                **_REWARD,
            },
            "accountId": slot.id,
            "isRewardAbuse": False,
        }

    def _end(self) -> None:
        end = float(self.match.duration)
        winners = [seat for seat in self.seats if self.outcome.ranks[seat[0]] == 1]
        results = [self._game_result(seat) for seat in winners]
        characters = [
            {
                "character": self._character(seat, end, health=0, end=True),
                "primaryWeaponFirst": "",
                "primaryWeaponSecond": "",
                "secondaryWeapon": "",
                "spawnKitIndex": 0,
            }
            for seat in self.seats
        ]
        self._add(
            end,
            "LogMatchEnd",
            {
                "characters": characters,
                "gameResultOnFinished": {"results": results},
                "allWeaponStats": [],
            },
        )


def _item(item_id: str, category: str, sub_category: str) -> Event:
    return {
        "itemId": item_id,
        "stackCount": 1,
        "category": category,
        "subCategory": sub_category,
        "attachedItems": [],
    }


def _iso(moment: datetime) -> str:
    """``2025-07-12T17:11:34.015Z``: milliseconds and ``Z``, as the real files write ``_D``."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
