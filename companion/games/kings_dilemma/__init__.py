"""The King's Dilemma: the vote, the kingdom, the campaign and the scoring (rules),
the night's adapter and controller, what its screens say, its table files, its
data and the campaign ledger."""
