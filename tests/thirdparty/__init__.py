"""Third-party clients of the real services, run against `matchkit serve` (see check.py)."""
