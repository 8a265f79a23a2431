"""The shared framework of a game at the table: the seat vocabulary, the
session, refusals, the controllers' base, the one writer of the lights."""
