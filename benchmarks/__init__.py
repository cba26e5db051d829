"""Reproducible performance measurements of matchkit; run them with `make bench`."""
