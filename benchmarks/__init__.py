"""Benchmarks of ``balance`` (``make bench`` runs :mod:`benchmarks.run`)."""
