"""Matches and tournaments between bots, refereed by the rules engine only."""
