"""What both games share and neither owns: checked rules fields, cards and hands written as text,
linked histories, the interface of a game state, the record files' format and frozen views whose
fields are computed on first read."""
