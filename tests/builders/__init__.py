"""The one builder of test documents.

- :mod:`tests.builders.resources`: one JSON:API resource at a time (match, roster, participant,
  round, player, team, asset) and pages of them; every other builder writes through these.
- :mod:`tests.builders.matches`: whole single-match documents from the few facts a test cares
  about (who played on which side, who won, rounds), for the analysis, plots and widgets.
- :mod:`tests.builders.datasets`: a small random but seeded data set folder (both shards) for the
  service's tests.
"""
