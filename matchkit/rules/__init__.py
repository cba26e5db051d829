"""The interface's rules, pure and shared by the client and the service (one implementation each).

- :mod:`matchkit.rules.windows`: time bounds, retention, the 28-day span, splitting a range.
- :mod:`matchkit.rules.shards`: the shards: page sizes, default lookback, their filters.
- :mod:`matchkit.rules.query`: filters (declared once), sort and paging parameters, both
  directions; batches of at most 6 ids or names.
- :mod:`matchkit.rules.paging`: the next offset and when a window ends; the service's links.
- :mod:`matchkit.rules.ratelimit`: the one rate-limit grammar and :class:`RateLimit` value.
- :mod:`matchkit.rules.jsonapi`: JSON:API documents: loading, primary data, error descriptions.
- :mod:`matchkit.rules.profiles`: the services of the family (Gamelocker, PUBG), each declared
  once; :mod:`matchkit.rules.columns`: how a profile's documents map to the model's columns.

Nothing here does I/O or imports the rest of matchkit but :mod:`matchkit.errors`. The package
is internal (its public face is the client's arguments and the service's answers): it exports
nothing.
"""

__all__: list[str] = []
