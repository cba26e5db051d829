"""matchkit."""
