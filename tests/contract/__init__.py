"""One suite that every reader, every recorded sample and a slice of the sample set go through."""
