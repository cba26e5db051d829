"""The interface's rules, pure and shared by the client and the service (one implementation each).

- :mod:`~matchkit.rules.windows`: time bounds, retention, the 28-day span, splitting a range.
- :mod:`~matchkit.rules.query`: shards, filters, sort and paging parameters, both directions.
- :mod:`~matchkit.rules.jsonapi`: JSON:API documents: loading, primary data, error descriptions.

Nothing here does I/O or imports the rest of matchkit but :mod:`matchkit.errors`.
"""
