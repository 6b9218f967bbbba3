"""The table seen by people: a game at the terminal, games told in words, match logs, and the
replay as an HTML page."""
