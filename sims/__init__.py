"""Game packages for ``balance``: one package per game, rules and players only."""
