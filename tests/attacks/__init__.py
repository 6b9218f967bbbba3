"""Hostile bots, run by the sandbox's tests: each attack writes what it looked at and what it
found to its error output, which the tests read in the bot's log."""
