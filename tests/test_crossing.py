"""The value at which a swept response crosses a target, with its interval
(balance.report.findings.crossing)."""

from __future__ import annotations

import pytest

from balance.report.findings import crossing
from balance.stats import wilson


def _series(xs, wins, n):
    rates = [w / n for w in wins]
    cis = [wilson(w, n) for w in wins]
    return xs, rates, [c[0] for c in cis], [c[1] for c in cis]


def test_a_rising_rate_crosses_once_with_an_interval_around_it():
    xs, rates, lows, highs = _series([8, 10, 12, 14], [4000, 4600, 5300, 5800], 10_000)
    c = crossing(xs, rates, lows, highs, 0.5)
    assert c["value"] == pytest.approx(10 + 2 * (0.5 - 0.46) / (0.53 - 0.46))
    lo, hi = c["ci95"]
    assert 10 < lo < c["value"] < hi < 12
    # more games: a narrower interval around the same crossing
    xs, rates, lows2, highs2 = _series([8, 10, 12, 14], [40000, 46000, 53000, 58000], 100_000)
    c2 = crossing(xs, rates, lows2, highs2, 0.5)
    assert c2["value"] == pytest.approx(c["value"])
    assert c2["ci95"][1] - c2["ci95"][0] < 0.5 * (hi - lo)


def test_a_falling_rate_and_open_ends():
    xs, rates, lows, highs = _series([1, 2, 3], [520, 500, 470], 1000)
    c = crossing(xs, rates, lows, highs, 0.5)
    assert c["value"] == 2
    assert c["ci95"][0] is None or c["ci95"][0] < 2  # the band still holds 50% at the first value: no lower end
    assert c["ci95"][1] is None or c["ci95"][1] > 2


def test_no_reading_without_a_single_crossing():
    assert crossing([1, 2, 3], [0.6, 0.7, 0.8], [0.55, 0.65, 0.75], [0.65, 0.75, 0.85], 0.5) is None
    assert crossing([1, 2, 3, 4], [0.4, 0.6, 0.4, 0.6], [0.3] * 4, [0.7] * 4, 0.5) is None


def test_fairest_between_players_names_the_set_it_cannot_tell_apart(dicerace, tmp_path, monkeypatch):
    """plain against cautious, seats rotated: the seats are fair by construction, the
    question is between the players; each point is judged by its worst player."""
    import json

    from balance.api import sweep
    from balance.report.findings import player_distance

    monkeypatch.chdir(tmp_path)
    r = sweep("dicerace", params={"target": "6,30"}, players="plain,cautious", rotate_seats=True, games=4000,
              out="runs/p", report="p.html")
    data = json.loads((tmp_path / "p.json").read_text())
    found = [f for f in data["findings"] if f["kind"] == "fairest_players"]
    assert len(found) == 1 and found[0]["rule"].startswith("How the fairest values are decided")
    points = {p["point"]: p for p in data["points"]}
    best = points[found[0]["point"]]
    assert all(player_distance(best)[0] <= player_distance(p)[0] for p in points.values())
    assert r.points_played == 2
