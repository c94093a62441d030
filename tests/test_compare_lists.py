"""What changes between player lists along a swept parameter
(balance.report.compare): an end reason's share or the game length moving one
way with one list and the other way with another (a change of sign), or the
same way by clearly different amounts (a change of size)."""

from __future__ import annotations

from balance.report.compare import SIZE, end_reason_trends, length_trends


def _point(value, games, reasons, mean=20.0, mean_se=0.05):
    counts = {name: round(share * games) for name, share in reasons.items()}
    return {"value": value, "games": games, "end_reasons": counts, "turns": {"mean": mean, "mean_se": mean_se},
            "seats": [{"wins": games // 2, "games": games}, {"wins": games // 2, "games": games}]}


def _data(first, last, mean=(20.0, 20.0)):
    return {"by_axis": [{"name": "car_cost", "series": [_point(8, 10_000, first, mean[0]), _point(14, 10_000, last, mean[1])]}],
            "points": []}


def test_an_end_reason_that_falls_with_one_list_and_rises_with_another():
    greedy = _data({"last_standing": 0.33, "deliveries": 0.20}, {"last_standing": 0.15, "deliveries": 0.62})
    mc = _data({"last_standing": 0.34, "deliveries": 0.05}, {"last_standing": 0.54, "deliveries": 0.18})
    found = end_reason_trends(["greedy,greedy", "mc,mc"], [greedy, mc])
    signs = [f for f in found if f["kind"] == "sign"]
    assert [f["end_reason"] for f in signs] == ["last_standing"]
    text = signs[0]["text"]
    assert "last_standing rise with mc,mc (+20.0 points" in text and "fall with greedy,greedy (-18.0 points" in text
    # deliveries rise with both, by 42 and 13 points: a change of size
    sizes = [f for f in found if f["kind"] == "size"]
    assert [f["end_reason"] for f in sizes] == ["deliveries"] and "rise with both, by +42.0 points, 95% CI" in sizes[0]["text"]


def test_moves_within_noise_or_alike_are_no_change():
    a = _data({"cars": 0.30}, {"cars": 0.31})
    b = _data({"cars": 0.30}, {"cars": 0.29})
    assert end_reason_trends(["a", "b"], [a, b]) == []  # neither move is clear of zero
    c = _data({"cars": 0.30}, {"cars": 0.40})
    d = _data({"cars": 0.30}, {"cars": 0.40 + SIZE / 2})
    assert end_reason_trends(["c", "d"], [c, d]) == []  # the same way, by less than SIZE apart


def test_length_that_grows_with_one_list_and_shrinks_with_another():
    a = _data({"cars": 0.5}, {"cars": 0.5}, mean=(20.0, 24.0))
    b = _data({"cars": 0.5}, {"cars": 0.5}, mean=(21.0, 18.5))
    (f,) = length_trends(["a", "b"], [a, b])
    assert f["kind"] == "sign" and "longer with a (+4.0 turns" in f["text"] and "shorter with b (-2.5 turns" in f["text"]
