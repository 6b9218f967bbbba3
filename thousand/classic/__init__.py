"""Thousand (Тысяча, Tysiąc), the trick-taking game: its cards, rules, engine, views and records,
beside 1000? in ``thousand.bluff``. The names most code needs are exported by ``thousand``."""
