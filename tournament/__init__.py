"""Running Thousand bots against each other, and the ``thousand`` command line."""
