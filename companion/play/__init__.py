"""What a press or a tap means, once per game: one controller per game between the
screens and the session (seat presses and touch intents in, one view out, undo), and the
seat lights as a view of what is on top."""
