"""A per-cell heatmap a game opts into: carried through the aggregate (merged by
addition), the sweep store (per point) and the HTML report; games without one
are unchanged.

The game that opts in is a small subclass of the toy game: its heat region is
the pawns' positions (the shared header's SCORE slots, zeroed every game), seen
as a 2 × 3 sheet, so cell ``s`` counts the steps seat ``s`` made, summed over
the games, and every number can be checked against the outcomes.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from balance import registry
from balance.aggregate import Aggregate
from balance.api import run
from balance.report import report
from balance.seating import seatings_for
from balance.state import HEAT_AT, HEAT_CELLS, MAX_SEATS, SCORE
from balance.store import load, open_run
from balance.sweep import sweep
from tests.test_report import assert_self_contained, parse
from tests.toygame import DiceRace


class HeatRace(DiceRace):
    name = "heatrace"
    title = "Heat Race (test game with a heatmap)"

    def encode(self, params, board, n_seats):
        image = super().encode(params, board, n_seats).copy()
        image[HEAT_AT] = SCORE  # a dynamic region the engine zeroes every game
        image[HEAT_CELLS] = MAX_SEATS
        return image

    def heatmap_shape(self, board):
        return (2, 3)


@pytest.fixture
def heatrace(dicerace, monkeypatch):
    spec = HeatRace()
    monkeypatch.setitem(registry._EXTRA, spec.name, spec)
    return spec


def test_simulate_sums_each_cell_over_the_games(heatrace):
    params = heatrace.resolve_params({"target": 12})
    players = [heatrace.player("plain"), heatrace.player("cautious")]
    seatings = seatings_for([0, 1], True)
    out = heatrace.simulate(params, players, seatings, 4, 0, 3000)
    assert out.heat is not None and out.heat.dtype == np.int64 and out.heat.shape == (MAX_SEATS,)
    expected = np.zeros(MAX_SEATS, np.int64)
    expected[:2] = out.score.sum(axis=0)
    np.testing.assert_array_equal(out.heat, expected)
    agg = Aggregate.from_outcomes(out, seatings, 0, 2, 2)
    np.testing.assert_array_equal(agg.heat, expected)


def test_aggregate_heat_merges_by_addition_whatever_the_chunks(heatrace):
    whole = run("heatrace", games=5000, players="plain,cautious", seed=2, chunk=5000).aggregate
    parts = run("heatrace", games=5000, players="plain,cautious", seed=2, chunk=777, threads=1).aggregate
    np.testing.assert_array_equal(whole.heat, parts.heat)
    assert whole.heat.sum() == int(whole.score_sum.sum())
    # merging adds cell by cell; a set of no games has no heat to add
    empty = Aggregate(2, 2, 2)
    np.testing.assert_array_equal(empty.merge(whole).heat, whole.heat)
    np.testing.assert_array_equal(whole.merge(whole).heat, 2 * whole.heat)
    again = Aggregate.from_dict(json.loads(json.dumps(whole.to_dict())))
    np.testing.assert_array_equal(again.heat, whole.heat)
    with pytest.raises(ValueError, match="do not merge"):
        other = Aggregate(2, 2, 2)
        other.heat = np.zeros(4, np.int64)
        whole.merge(other)


def test_games_without_a_heatmap_are_unchanged(dicerace, tmp_path):
    agg = run("dicerace", games=500).aggregate
    assert agg.heat is None and "heat" not in agg.to_dict()
    result = sweep("dicerace", params={"target": "10,20", "max_turns": "9"}, games=500, out=tmp_path / "run")
    assert "heatmap" not in result.manifest
    # the end reasons with their meanings and caps: a report reads them without the game installed
    assert result.manifest["end_reason_info"] == [r.to_dict() for r in dicerace.end_reasons]
    assert [r["is_cap"] for r in result.manifest["end_reason_info"]] == [False, True]
    # a run recorded before end_reason_info loads (no cap) and gains it when resumed
    from balance.store import RunDir

    store = RunDir(result.out)
    old = store.read_manifest()
    del old["end_reason_info"]
    store.write_manifest(old)
    assert not next(f for f in report(result.out).data["findings"] if f.get("end_reason") == "turn_limit")["cap_like"]
    resumed = sweep("dicerace", params={"target": "10,20", "max_turns": "9"}, games=500, out=result.out, resume=True)
    assert resumed.points_played == 0 and resumed.manifest["end_reason_info"] == result.manifest["end_reason_info"]
    assert "cell" not in load(result.out).columns
    res = report(result.out)
    assert "cell_heat" not in res.data
    assert not [f for f in res.data["figures"] if f["id"].startswith("cells-")]


def test_sweep_stores_heat_per_point_and_the_report_draws_it(heatrace, tmp_path):
    result = sweep(
        "heatrace", params={"target": "10..25:5"}, games=2000, players="plain,cautious", seed=3,
        out=tmp_path / "run", chunk=700,
    )
    assert result.manifest["heatmap"] == {"shape": [2, 3]}
    frame = load(result.out)
    heat_rows = frame.filter(frame["measure"] == "heat")
    assert set(heat_rows["cell"].to_list()) == {0, 1}  # non-zero cells only: seats 0 and 1
    assert frame.filter(frame["measure"] != "heat")["cell"].null_count() == frame.height - heat_rows.height
    manifest, aggregates = open_run(result.out)
    for i, point in enumerate(manifest["points"]):
        direct = run("heatrace", games=2000, players="plain,cautious", seed=3, params=point).aggregate
        np.testing.assert_array_equal(aggregates[i].heat, direct.heat)

    html = tmp_path / "r.html"
    res = report(result.out, html)
    heat = res.data["cell_heat"]
    assert heat["shape"] == [2, 3]
    assert [p["point"] for p in heat["points"]] == [0, 1, 2, 3]  # up to four points: every one
    first = heat["points"][0]
    per_game = np.asarray(first["per_game"])
    assert per_game.shape == (2, 3)
    np.testing.assert_allclose(per_game.ravel(), aggregates[0].heat / 2000)
    ids = [f["id"] for f in res.data["figures"]]
    assert [i for i in ids if i.startswith("cells-")] == ["cells-point0", "cells-point1", "cells-point2", "cells-point3"]
    page = parse(html)
    raw = html.read_text(encoding="utf-8")
    assert_self_contained(page, raw)
    assert page.ids.get("sec-cells") == "section" and "fig-cells-point0" in page.svg_in_figure


def test_report_draws_first_and_last_of_many_points(heatrace, tmp_path):
    result = sweep("heatrace", params={"target": "10..30:4"}, games=300, out=tmp_path / "run")
    res = report(result.out)
    points = [p["point"] for p in res.data["cell_heat"]["points"]]
    assert points == [0, len(result.manifest["points"]) - 1]
