"""Tests of the PUBG telemetry reader (matchkit.telemetry.pubg)."""
