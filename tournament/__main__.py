"""``python -m tournament`` runs the ``thousand`` command line."""

from tournament.cli import main

main()
