"""After the game: BG Stats plays, the charts, the HTML report."""
