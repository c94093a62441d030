"""Six seats everywhere in the toolkit, on the toy game (2 to 6 seats): the runner
and its aggregates, --rotate-seats with six distinct players (720 seatings),
summaries, the sweep store, the report, the check and a tournament table."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from balance.api import baseline, check, run
from balance.report import report
from balance.runspec import RunSpec
from balance.seating import n_seatings, seatings_for
from balance.store import load, open_run
from balance.sweep import sweep
from tests.test_report import assert_self_contained, parse

# Six distinct players: the two heuristics and mc at four budgets (a label each).
SIX = ["plain", "cautious", "mc:rollouts=1", "mc:rollouts=2", "mc:rollouts=3", "mc:horizon=2"]


def test_seatings_of_six_distinct_players():
    rows = seatings_for(range(6), True)
    assert rows.shape == (720, 6) and n_seatings(range(6), True) == 720 == math.factorial(6)
    assert rows[0].tolist() == [0, 1, 2, 3, 4, 5]  # game 0 is the seating as given
    assert {tuple(r) for r in rows.tolist()} == set(itertools.permutations(range(6)))
    assert n_seatings([0, 0, 1, 1, 2, 2], True) == len(seatings_for([0, 0, 1, 1, 2, 2], True)) == 90
    assert n_seatings(range(6), False) == 1


def test_every_seating_of_six_players_equally_often(dicerace):
    r = run("dicerace", games=1440, players=SIX, rotate_seats=True, seed=4, params={"target": 8})
    agg = r.aggregate
    assert agg.n_seats == 6 and agg.n_strategies == 6
    # 1,440 games = every one of the 720 seatings twice: each player sits in each seat 240 times
    assert (agg.seat_strategy_games == 240).all()
    assert (agg.strategy_games == 1440).all()
    assert agg.seat_wins.sum() + agg.no_winner == 1440
    assert "warning" not in r.to_dict()
    data = r.to_dict()
    assert len(data["seats"]) == 6 and [s["player"] for s in data["seats"]] == ["rotated"] * 6
    assert [s["player"] for s in data["strategies"]] == SIX
    uneven = run("dicerace", games=1000, players=SIX, rotate_seats=True, seed=4, params={"target": 8})
    assert uneven.to_dict()["warning"].startswith("1000 games is not a multiple of the 720 seatings")


def test_tournament_tables_are_rotated_runs():
    """A tournament's match table (every order of its players) is the run of those
    players with seats rotated; a seat table, one player in every seat."""
    from balance.tournaments import tables_for

    for table in tables_for(["a", "b", "c", "d", "e", "f"], 6):
        by_seat = table.players if table.kind == "match" else table.players * 6
        index = [by_seat.index(p) for p in by_seat] if table.kind == "match" else [0] * 6
        rows = seatings_for(index, table.kind == "match").tolist()
        assert rows == [list(r) for r in table.seatings]


def test_six_seat_sweep_store_and_report(dicerace, tmp_path):
    result = sweep(
        "dicerace", params={"target": "6,9"}, games=720, players=SIX, rotate_seats=True, seed=1,
        out=tmp_path / "run", keep_games=True, chunk=300,
    )
    manifest, aggs = open_run(result.out)
    assert len(manifest["seatings"]) == 720 and all(a.n_seats == 6 for a in aggs.values())
    counts = load(result.out)
    assert sorted(counts.filter(counts["measure"] == "seat_wins")["seat"].unique().to_list()) == list(range(6))
    games = load(result.out, games=True)
    assert sorted(games["seating"].unique().to_list()) == list(range(720))
    assert [f"score_{s}" for s in range(6)] == [c for c in games.columns if c.startswith("score_")]
    html = tmp_path / "r.html"
    res = report(result.out, html)
    assert res.data["fairness"]["fair_share"] == pytest.approx(1 / 6)
    assert all(len(p["seats"]) == 6 for p in res.data["points"])
    assert_self_contained(parse(html), html.read_text(encoding="utf-8"))
    assert sum(f["kind"] == "trend" for f in res.data["findings"]) == 6


def test_six_seat_figure_has_a_colour_and_a_legend_entry_per_seat(dicerace, tmp_path):
    from balance.report.data import report_data
    from balance.report.figures import fig_win_rate

    result = sweep("dicerace", params={"target": "6,9"}, games=720, players=SIX[:1] * 6, out=tmp_path / "run")
    data = report_data(result.manifest, result.aggregates)
    fig = fig_win_rate(data, data["by_axis"][0], "seats", result.manifest)
    ax = fig.axes[0]
    colours = {line.get_color() for line in ax.get_lines()}
    assert len(colours) == 6
    legend = ax.get_legend()
    assert len(legend.get_texts()) == 7  # six seats and the fairness band, beside the axes
    assert legend.get_bbox_to_anchor() is not None


def test_six_seat_check(dicerace, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    b = baseline("dicerace", games=720, players=SIX[:2] * 3, use_config=False)
    assert len(b.data["counts"]["seat_wins"]) == 6
    result = check([b.path], use_config=False).results[0]
    names = [c.name for c in result.comparisons]
    assert [f"seat_win_rate[{s}]" for s in range(6)] == [n for n in names if n.startswith("seat_win_rate")]
    assert result.passed  # the same games again


def test_seven_players_refused(dicerace):
    with pytest.raises(Exception, match="7 players for dicerace; allowed: 2 to 6"):
        RunSpec.of("dicerace", players=SIX + ["plain"]).resolved()


def test_sweep_table_of_six_seats_cuts_no_interval(dicerace, tmp_path, capsys):
    from balance.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["sweep", "dicerace", "-p", "target=6,9", "--games", "40", "--players", ",".join(["plain"] * 6),
              "--out", str(tmp_path / "run")])
    out = capsys.readouterr().out
    assert exc.value.code == 0
    assert "…" not in out and "seat 5" in out and "no winner" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    np.testing.assert_equal(out.count("(95% CI)"), 1)
