"""The fast tier: the gate that says when a compiled core may answer, and the
compiled pieces every compiled variant binds (the search, the playout),
below the variants (docs/rules/tiers.md).  Nothing here knows a game."""
