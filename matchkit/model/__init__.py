"""The normalized model: the tables and their columns (schema), MatchFrames, and Parquet."""
