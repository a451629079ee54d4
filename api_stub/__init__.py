"""The tiny worker: maps HTTP to functions. Serves the static tree locally; nothing else yet."""
