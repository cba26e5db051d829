"""The filters of a match query, declared once: their keyword arguments, wire names and shards.

:class:`MatchFilters` is the typed spelling (the keyword arguments of the client's calls, a
``TypedDict`` so that ``**options: Unpack[...]`` checks them); :data:`FILTERS` holds each
filter's facts in the same order. Everything else is derived from the two: each shard's
filters (:attr:`matchkit.rules.shards.Shard.filters`), the filters limited to
:data:`MAX_LIST_VALUES` values a request, the command line's options (``matchkit fetch``,
``matchkit archive sync``) and their help. A test holds the two declarations to the same names.

Example:
    >>> [spec.argument for spec in FILTERS if "na" in spec.shards]
    ['player_ids', 'player_names', 'team_names', 'game_modes']
    >>> wire_filters("global")["server_types"]
    'serverType'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from matchkit.rules.shards import ShardName

__all__ = [
    "FILTERS",
    "LIMITED_FILTERS",
    "MAX_LIST_VALUES",
    "RANKING_TYPES",
    "FilterSpec",
    "MatchFilters",
    "wire_filters",
]

RANKING_TYPES = ("RANKED", "UNRANKED")
"""The values ``ranking_type`` takes."""
MAX_LIST_VALUES = 6
"""The most values one request may give ``playerIds``, ``playerNames`` or ``teamNames``."""


class MatchFilters(TypedDict, total=False):
    """The filters of a match query and its sort: the keyword arguments of the client's calls.

    Lists match any of their values; a filter left out or ``None`` is no filter. Which shard
    takes which filter, and its wire name, is in :data:`FILTERS`: ``global`` takes
    ``player_ids``, ``patch_versions``, ``server_types`` and ``ranking_type``; ``na`` takes
    ``player_ids``, ``player_names``, ``team_names`` and ``game_modes``. ``sort`` is
    ``"createdAt"`` (default) or ``"-createdAt"``.
    """

    player_ids: Iterable[str] | str | None
    patch_versions: Iterable[str] | str | None
    server_types: Iterable[str] | str | None
    ranking_type: str | None
    player_names: Iterable[str] | str | None
    team_names: Iterable[str] | str | None
    game_modes: Iterable[str] | str | None
    sort: str


@dataclass(frozen=True)
class FilterSpec:
    """The facts of one filter of a match query.

    Attributes:
        argument: the keyword argument (a key of :class:`MatchFilters`), e.g. ``player_ids``.
        wire: the name inside ``filter[...]`` on the wire, e.g. ``playerIds``.
        shards: the shards that take it, in the order the help names them.
        many: whether it takes a list (comma-separated on the command line) or one value.
        limited: whether one request takes at most :data:`MAX_LIST_VALUES` values (decision 3).
        example: an example value, as the command line's help shows it.
        choices: the values a one-value filter takes (upper case; given in any case).
    """

    argument: str
    wire: str
    shards: tuple[ShardName, ...]
    many: bool
    limited: bool
    example: str
    choices: tuple[str, ...] = ()

    @property
    def option(self) -> str:
        """The command line's option, e.g. ``--player-ids``."""
        return "--" + self.argument.replace("_", "-")


FILTERS: tuple[FilterSpec, ...] = (
    FilterSpec("player_ids", "playerIds", ("global", "na"), True, True, "ID1,ID2"),
    FilterSpec("patch_versions", "patchVersion", ("global",), True, False, "2.9,2.10"),
    FilterSpec("server_types", "serverType", ("global",), True, False, "QUICK2V2,QUICK3V3"),
    FilterSpec("ranking_type", "rankingType", ("global",), False, False, "RANKED", RANKING_TYPES),
    FilterSpec("player_names", "playerNames", ("na",), True, True, "alice,bob"),
    FilterSpec("team_names", "teamNames", ("na",), True, True, "red,blue"),
    FilterSpec("game_modes", "gameMode", ("na",), True, False, "casual,ranked"),
)
"""Every filter of a match query, in the order of :class:`MatchFilters`."""

LIMITED_FILTERS = tuple(spec.argument for spec in FILTERS if spec.limited)
"""The filters one request gives at most :data:`MAX_LIST_VALUES` values (decision 3)."""


def wire_filters(shard: str) -> Mapping[str, str]:
    """The filters ``shard`` takes: keyword argument -> wire name, in :data:`FILTERS` order."""
    return MappingProxyType({spec.argument: spec.wire for spec in FILTERS if shard in spec.shards})
