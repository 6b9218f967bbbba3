"""The tournament runner: the configuration and schedule, playing units on a backend, the journal
that survives a crash, the ratings and the summary, and what a person sees while it runs."""
