"""Tests of the Bahama Taxi package (sims/bahama)."""
