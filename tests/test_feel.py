"""Game feel (balance.feel) against exact values.

Coin Race (tests/coinrace/) is pure luck with a fixed length: every sequence
of flips is equally likely, so enumerating them gives each game-feel figure
exactly, by a reference written from the definitions of docs/architecture.md
(not from the kernel's counters).  Two checks:

* game by game: the kernel's record of a game equals the reference's reading
  of that game's trace (also past the ring's FEEL_RING samples);
* in distribution: each figure of a run contains the exact value within a
  wide interval (4 standard errors: the seeds are fixed, so this never flakes,
  and a wrong definition moves a figure far more).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from balance.aggregate import Aggregate
from balance.engine import (
    FO_CHANGES, FO_LEAD_AT, FO_LEADER, FO_LEADER_AT_OUT, FO_LEADER_SINCE, FO_MARGIN, FO_OUT_SINCE,
    FO_ROUND_MARGIN, FO_SAMPLES, FO_TRAILER_HALF,
)
from balance.feel import AT, COUNTS, summarize
from balance.runspec import RunSpec
from balance.state import FEEL_RING
from balance.stats import wilson


@pytest.fixture(scope="module")
def coinrace():
    from balance.registry import _EXTRA, game_names, register
    from tests.coinrace import SPEC

    if SPEC.name not in game_names():
        register(SPEC)
    yield SPEC
    _EXTRA.pop(SPEC.name, None)  # the game-parametrised tests of other modules never see it


# --------------------------------------------------------------------------- the reference
def strict(values, best):
    """The seat strictly best (max or min) among ``values``; -1 on a tie."""
    target = max(values) if best == "max" else min(values)
    seats = [s for s, v in enumerate(values) if v == target]
    return seats[0] if len(seats) == 1 else -1


def ring_sample(k, R):
    """The sample the record reads for sample k < R: exact within FEEL_RING
    samples; past them the ring keeps every stride-th sample (stride the
    smallest power of two that fits R samples in FEEL_RING) and k reads the
    kept one at or before it (the first for an earlier k)."""
    stride = 1
    while R // stride > FEEL_RING:
        stride *= 2
    return max(1, k // stride) * stride


def reference(standings, winner):
    """A game's record from its standings after each round (sample k = after
    round k, the last one the end), written from the definitions."""
    R = len(standings)
    n = len(standings[0])
    leaders = [strict(v, "max") for v in standings]
    trailers = [strict(v, "min") for v in standings]
    seen = [x for x in leaders if x >= 0]
    changes = sum(1 for a, b in zip(seen, seen[1:]) if a != b)
    since = R
    while since > 1 and leaders[since - 2] == leaders[R - 1]:
        since -= 1

    def at(k):
        k = k if k >= R else ring_sample(k, R)
        return leaders[k - 1], trailers[k - 1]

    lead_at = [at(max(1, math.ceil(q * R / 4)))[0] for q in (1, 2, 3)]
    trailer_half = at(max(1, math.ceil(R / 2)))[1]

    def last(s, k):
        v = standings[k - 1]
        return v[s] == min(v) and len(set(v)) > 1

    out_since, leader_at_out = 0, -1
    for s in range(n if n >= 3 else 0):  # kingmaking: three seats or more
        if s == winner or not last(s, R):
            continue
        k = R
        while k > 1 and last(s, k - 1):
            k -= 1
        if out_since == 0 or k < out_since:
            out_since, leader_at_out = k, leaders[k - 1]

    def margin(v):
        top = sorted(v, reverse=True)
        return top[0] - top[1]

    return {
        FO_SAMPLES: R, FO_CHANGES: changes, FO_LEADER: leaders[-1], FO_LEADER_SINCE: since,
        FO_LEAD_AT: lead_at[0], FO_LEAD_AT + 1: lead_at[1], FO_LEAD_AT + 2: lead_at[2],
        FO_TRAILER_HALF: trailer_half, FO_OUT_SINCE: out_since, FO_LEADER_AT_OUT: leader_at_out,
        FO_MARGIN: margin(standings[-1]), FO_ROUND_MARGIN: margin(standings[-2] if R > 1 else standings[-1]),
    }


def standings_of(events, n, rounds):
    points = [0] * n
    out = []
    for e in events:
        if e["type"] == "flip":
            points[e["seat"]] += e["heads"]
            if e["turn"] % n == 0:
                out.append(list(points))
    assert len(out) == rounds
    return out


def winner_of(final):
    top = strict(final, "max")
    return top


def tally(c, rec, w, n):
    """Add one game's record (won by seat ``w``, -1: nobody) to the counts
    ``c`` (balance.feel.COUNTS by name), from the definitions."""
    R = rec[FO_SAMPLES]
    c["games"] += 1
    c["changes_sum"] += rec[FO_CHANGES]
    c["changes_sq"] += rec[FO_CHANGES] ** 2
    if w >= 0:
        since = rec[FO_LEADER_SINCE] if rec[FO_LEADER] == w else R
        decisive = (1000 * since + R // 2) // R
        c["decisive_n"] += 1
        c["decisive_sum"] += decisive
        c["decisive_sq"] += decisive**2
    for q, label in enumerate(("25", "50", "75")):
        leader = rec[FO_LEAD_AT + q]
        if leader >= 0:
            c[f"lead{label}_games"] += 1
            c[f"lead{label}_wins"] += leader == w
    if rec[FO_TRAILER_HALF] >= 0:
        c["trail50_games"] += 1
        c["trail50_wins"] += rec[FO_TRAILER_HALF] == w
    if n >= 3 and w >= 0:
        c["king_games"] += 1
        o = rec[FO_OUT_SINCE]
        c["king_changed"] += 0 < o < R and rec[FO_LEADER_AT_OUT] >= 0 and rec[FO_LEADER_AT_OUT] != w
    for key, col in (("margin", FO_MARGIN), ("round_margin", FO_ROUND_MARGIN)):
        c[f"{key}_sum"] += rec[col]
        c[f"{key}_sq"] += rec[col] ** 2


def exact(n, rounds):
    """Every figure's exact value: each sequence of n * rounds flips is as likely."""
    c = dict.fromkeys(COUNTS, 0)
    for flips in itertools.product((0, 1), repeat=n * rounds):
        points = [0] * n
        standings = []
        for r in range(rounds):
            for s in range(n):
                points[s] += flips[r * n + s]
            standings.append(list(points))
        w = winner_of(points)
        tally(c, reference(standings, w), w, n)
    g = c["games"]
    return {
        "lead_changes": Fraction(c["changes_sum"], g),
        "decisive_moment": Fraction(c["decisive_sum"], 1000 * c["decisive_n"]),
        "lead_wins": [Fraction(c[f"lead{q}_wins"], c[f"lead{q}_games"]) for q in ("25", "50", "75")],
        "comeback": Fraction(c["trail50_wins"], c["trail50_games"]),
        "kingmaking": Fraction(c["king_changed"], c["king_games"]) if n >= 3 else None,
        "final_margin": Fraction(c["margin_sum"], g),
    }


# --------------------------------------------------------------------------- the tests
def play(coinrace, n, rounds, games, first=0):
    r = RunSpec(game="coinrace", params=(("rounds", rounds),), players=("flip",) * n, games=games).resolved()
    out = coinrace.simulate(r.rules, list(r.strategies), r.seatings, 7, first, games, r.board)
    return r, out


@pytest.mark.parametrize("n, rounds", [(2, 4), (3, 4), (3, 5), (2, 150)])
def test_each_game_record_is_its_trace_read_by_the_definitions(coinrace, n, rounds):
    r, out = play(coinrace, n, rounds, 60)
    for g in range(60):
        events = coinrace.trace(r.rules, list(r.strategies), r.seatings, 7, g, r.board)
        standings = standings_of(events, n, rounds)
        w = int(out.winner[g])
        assert w == winner_of(standings[-1])
        ref = reference(standings, w)
        rec = coinrace.feel_record(r.rules, list(r.strategies), r.seatings, 7, g, r.board)
        got = {k: int(rec[k]) for k in ref}
        assert got == ref, (g, standings)


@pytest.mark.parametrize("n, rounds", [(2, 4), (3, 5), (4, 6), (3, 150)])
def test_the_kernel_counts_are_the_records_counted_by_the_definitions(coinrace, n, rounds):
    """The batch keeps no row per game: its counts, added up in the kernel
    game by game, equal each game's record (the one the reference checks
    above) counted by the definitions, for every count."""
    games = 120
    r, out = play(coinrace, n, rounds, games)
    want = dict.fromkeys(COUNTS, 0)
    for g in range(games):
        rec = coinrace.feel_record(r.rules, list(r.strategies), r.seatings, 7, g, r.board)
        tally(want, [int(x) for x in rec], int(out.winner[g]), n)
    assert {name: int(out.feel[AT[name]]) for name in COUNTS} == want
    assert out.feel.shape == (len(COUNTS),) and want["games"] == games and (want["king_games"] > 0) == (n >= 3)


@pytest.mark.parametrize("n, rounds", [(2, 4), (3, 4)])
def test_figures_match_the_exact_values(coinrace, n, rounds):
    games = 40_000
    r, out = play(coinrace, n, rounds, games)
    agg = Aggregate.from_outcomes(out, r.seatings, 0, 1, 2)
    fig = summarize(agg.feel, n, "points")
    want = exact(n, rounds)
    z = 4.0

    def near_mean(m, value):
        se = (m["ci95"][1] - m["ci95"][0]) / (2 * 1.959964)
        assert abs(m["mean"] - float(value)) <= z * se + 1e-12, (m, float(value))

    def near_rate(rate, value):
        lo, hi = wilson(rate["count"], rate["n"], confidence=math.erf(z / math.sqrt(2)))
        assert lo <= float(value) <= hi, (rate, float(value))

    assert fig["games"] == games
    near_mean(fig["lead_changes"], want["lead_changes"])
    near_mean(fig["decisive_moment"], want["decisive_moment"])
    near_mean(fig["final_margin"], want["final_margin"])
    for got, value in zip(fig["lead_wins"], want["lead_wins"]):
        near_rate(got, value)
        assert got["fair_share"] == pytest.approx(1 / n)
    near_rate(fig["comeback"], want["comeback"])
    if n >= 3:
        near_rate(fig["kingmaking"], want["kingmaking"])
    else:
        assert fig["kingmaking"] is None
    # A leader at half time of a fair race still wins more than its share.
    assert fig["lead_wins"][1]["ci95"][0] > 1 / n


def test_exact_values_of_a_two_seat_race_by_hand():
    """The reference itself, on a case small enough to count by hand: two
    seats, one round.  The one sample is the end: a leader there always wins
    (1/2 of the flips have one), and no lead can change."""
    want = exact(2, 1)
    assert want["lead_wins"] == [1, 1, 1]
    assert want["lead_changes"] == 0
    assert want["final_margin"] == Fraction(1, 2)


def test_counters_change_no_game(coinrace):
    """The same games whatever the chunking: the counters draw no random number."""
    _, whole = play(coinrace, 3, 6, 400)
    _, head = play(coinrace, 3, 6, 200)
    _, tail = play(coinrace, 3, 6, 200, first=200)
    assert np.array_equal(whole.winner[200:], tail.winner)
    assert np.array_equal(whole.feel, head.feel + tail.feel)


def test_store_round_trip_keeps_the_counts(coinrace):
    from balance.store import aggregate_rows, rows_aggregate

    r, out = play(coinrace, 3, 5, 500)
    agg = Aggregate.from_outcomes(out, r.seatings, 0, 1, 2)
    back = rows_aggregate(aggregate_rows(agg, 0, {}, {}, ["flip"], ["rounds", "tie"]), 3, ["flip"], ["rounds", "tie"])
    assert np.array_equal(back.feel, agg.feel) and back.feel[0] == 500
    assert np.array_equal(Aggregate.from_dict(agg.to_dict()).feel, agg.feel)


def test_sweep_report_draws_the_runaway_leader_curve(coinrace, tmp_path):
    import json

    from balance.sweep import sweep

    result = sweep("coinrace", params={"rounds": "2,4,8"}, games=3000, players=["flip"] * 3, out=tmp_path / "run",
                   report=str(tmp_path / "report.html"))
    series = result.to_dict()["points"]
    assert [p["feel"]["games"] for p in series] == [3000] * 3
    data = json.loads((tmp_path / "report.json").read_text())
    curve = data["by_axis"][0]["series"]
    assert [s["value"] for s in curve] == [2, 4, 8]
    for s in curve:
        for row in s["feel"]["lead_wins"]:
            assert row["ci95"][0] <= row["rate"] <= row["ci95"][1] and row["n"] > 0
    html = (tmp_path / "report.html").read_text()
    assert "Runaway leader against rounds" in html and "s-lead50-band" in html


def test_run_json_and_page_carry_the_game_feel(coinrace, tmp_path):
    import json

    from balance.api import run, run_report

    result = run("coinrace", games=2000, players=["flip"] * 2, params={"rounds": 6})
    data = result.to_dict()
    feel = data["feel"]
    assert feel["games"] == 2000 and feel["standing"] == "points" and feel["kingmaking"] is None
    assert feel["final_margin"]["at"] == "end"
    page = run_report(result, str(tmp_path / "run.html"))
    assert "feel-table" in page.html.read_text() and "Runaway leader" in page.html.read_text()
    assert json.loads(page.html.with_suffix(".json").read_text())["points"][0]["feel"]["games"] == 2000


def test_tournament_reports_game_feel_per_table(dicerace, tmp_path):
    from balance.tournaments import tournament

    result = tournament("dicerace", players="plain,cautious", games=600, out=tmp_path / "t")
    rows = result.figures["feel"]
    assert [(r["kind"], r["players"]) for r in rows] == [
        ("match", ["plain", "cautious"]), ("seats", ["plain"]), ("seats", ["cautious"])
    ]
    for r in rows:
        assert r["feel"]["games"] == 600 and r["feel"]["standing"] == "win estimate"
        assert r["feel"]["final_margin"]["at"] == "last round end"
    assert "Game feel by table" in result.html.read_text()


def test_balance_run_prints_the_game_feel_table(coinrace, capsys):
    from balance.cli import main

    with pytest.raises(SystemExit) as done:
        main(["run", "coinrace", "--games", "3000", "--players", "flip,flip,flip", "--param", "rounds=4"])
    out = capsys.readouterr().out
    assert done.value.code in (0, None)
    assert "Game feel (who is ahead: points; 95% intervals)" in out
    for label in ("lead changes per game", "decisive moment", "P(win | leading at 50%) (fair 33%)",
                  "comeback: last at half time wins", "kingmaking estimate", "final margin (points, at the end)"):
        assert label in out


def test_check_reads_game_feel_metrics_and_targets(coinrace):
    from balance.check.comparison import compare, evaluate_targets
    from balance.check.metrics import counts_of, metrics_of
    from balance.config import parse_targets
    from balance.errors import UserError

    r, out = play(coinrace, 2, 4, 20_000)
    counts = counts_of(Aggregate.from_outcomes(out, r.seatings, 0, 1, 2), ["flip"], ["rounds", "tie"])
    m = metrics_of(counts)
    half = m["lead_at_half_wins"]
    assert half.n == int(counts["feel"]["lead50_games"]) and half.ci95[0] <= float(Fraction(59, 80)) <= half.ci95[1]
    assert {"lead_at_25_wins", "lead_at_75_wins", "comeback_rate", "lead_changes_mean", "decisive_moment_mean",
            "final_margin_mean"} <= set(m) and "kingmaking_rate" not in m  # two seats
    targets = parse_targets({"lead_at_half_wins": [0.5, 0.7], "lead_changes_mean": [0, 0.05]}, coinrace, "balance.toml")
    verdicts = {t.target: t.verdict for t in evaluate_targets(m, targets)}
    assert verdicts == {"lead_at_half_wins": "fail", "lead_changes_mean": "fail"}  # 73.75% exactly; 0.078 changes
    with pytest.raises(UserError, match="proportions in 0..1"):
        parse_targets({"lead_at_half_wins": [0.5, 1.5]}, coinrace, "balance.toml")
    # the same games compared with themselves: every game-feel metric unchanged
    rows, _ = compare(counts, counts)
    assert all(row.verdict == "ok" for row in rows if row.name in m and row.name.startswith(("lead", "comeback", "decisive", "final")))
