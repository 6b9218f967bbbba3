"""Bots used by the driver and external-bot tests: Python classes and stand-alone programs."""
