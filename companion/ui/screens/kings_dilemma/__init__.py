"""The King's Dilemma's screens: the start (coin toss or
resume), the council, entry, the end, their drawing."""
