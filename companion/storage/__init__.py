"""What is kept on disk: the journal, the history, snapshots, sealed
ballots, the run lock."""
