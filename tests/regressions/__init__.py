"""One test per found bug, in a file named after it."""
