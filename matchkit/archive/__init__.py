"""The archive: matches and telemetry kept past the service's retention, on Delta Lake (the
"archive" helper's package; this placeholder only holds cluster.py until it is merged)."""
