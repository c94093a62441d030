"""Carnage's own tests: hand-traced positions, simulate/trace agreement, boards, players, golden traces."""
