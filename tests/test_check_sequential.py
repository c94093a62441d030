"""``balance check --sequential``: the group-sequential boundaries spend alpha
exactly, a real change stops the check early, and false alarms stay at alpha
(measured over 400 runs, as the fixed-sample check's test does)."""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
import pytest

from balance.check import baseline, check
from balance.check.sequential import boundaries, fractions_for, looks_for, spending
from balance.config import CheckSettings
from tests.test_check import TOML, binomial_upper, write_config


def test_boundaries_spend_alpha_exactly():
    """Brownian motion at the looks' information: the chance of crossing any
    boundary is alpha (2,000,000 simulated paths; a one-look design is z 1.96)."""
    assert boundaries([1.0], 0.05) == pytest.approx([1.959964], abs=1e-5)
    t = np.array([0.1, 0.4, 0.75, 1.0])
    c = np.array(boundaries(list(t), 0.05))
    assert list(c) == sorted(c, reverse=True)  # O'Brien-Fleming: strict early, near 1.96 late
    rng = np.random.default_rng(7)
    steps = rng.standard_normal((2_000_000, 4)) * np.sqrt(np.diff(np.r_[0.0, t]))
    z = np.cumsum(steps, axis=1) / np.sqrt(t)
    crossed = float((np.abs(z) >= c).any(axis=1).mean())
    assert abs(crossed - 0.05) < 0.001, crossed
    assert spending(0.25, 0.05) < 0.001 and spending(1.0, 0.05) == 0.05


def test_looks_and_information():
    assert looks_for(1000, 4, 2) == [250, 500, 750, 1000]
    assert looks_for(10, 4, 6) == [6, 10]
    f = fractions_for([250, 500, 750, 1000], 1000)
    assert f[-1] == 1.0 and f[0] == pytest.approx((2 / 1000) / (1 / 1000 + 1 / 250))


@pytest.fixture()
def folder(dicerace, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_real_change_stops_at_the_first_look(folder):
    write_config(folder, TOML.format(games=20_000, bonus=0))
    b = baseline()
    write_config(folder, TOML.format(games=20_000, bonus=4))
    report = check([b.path], sequential=4)
    r = report.results[0]
    assert not report.passed
    assert r.sequential["looks_played"] == 1 and r.sequential["games_played"] == 5000
    assert "regression is certain" in r.sequential["stopped"]
    fixed = check([b.path])
    assert not fixed.passed  # the same verdict as the fixed-sample check, on a quarter of the games


def test_no_change_plays_every_look_and_matches_the_fixed_check(folder):
    write_config(folder, TOML.format(games=2000, bonus=0))
    b = baseline()
    seq = check([b.path], sequential=4).results[0]
    fixed = check([b.path]).results[0]
    assert seq.sequential["games_played"] == 2000 and seq.passed and fixed.passed
    assert [c.diff for c in seq.comparisons] == [c.diff for c in fixed.comparisons] == [0.0] * len(fixed.comparisons)


def test_cli_looks_need_sequential(folder, capsys):
    from tests.test_check_cli import call

    write_config(folder, TOML.format(games=500, bonus=0))
    baseline()
    code, _, err = call(capsys, "check", "--looks", "3")
    assert code == 2 and "--looks goes with --sequential" in err and err.count("\n") == 1
    code, _, err = call(capsys, "check", "--sequential", "--looks", "1")
    assert code == 2 and "--looks 1" in err
    code, out, _ = call(capsys, "check", "--sequential")
    assert code == 0 and "sequential: 500 of 500 games in 4 of 4 looks" in out


REPS = 400
GAMES = 400
ALPHA = 0.05


@pytest.mark.slow
def test_sequential_false_alarm_rate(folder):
    """Unchanged rules on a different seed (independent games), every tolerance 0,
    alpha 0.05, four looks: the sequential check fails in at most alpha of the runs.

    Measured when written (400 runs of 400 games, plain against cautious, seats
    rotated, 4 looks): see docs/ci.md, 'Sequential checks'."""
    write_config(
        folder,
        TOML.format(games=GAMES, bonus=0).replace("seed = 3", "seed = 3\nrotate_seats = true")
        + f"\n[check]\nalpha = {ALPHA}\n[check.tolerance]\n"
        + "".join(f"{k} = 0.0\n" for k in CheckSettings().tolerance),
    )
    start = time.perf_counter()
    alarms = 0
    early = 0
    for rep in range(REPS):
        path = Path(f"b{rep}.json")
        baseline(seed=2 * rep + 1_000, output=path)
        report = check([path], seed=2 * rep + 1_001, sequential=4)
        path.unlink()
        r = report.results[0]
        alarms += not report.passed
        early += r.sequential["looks_played"] < r.sequential["looks_planned"]
    rate = alarms / REPS
    allowed = binomial_upper(REPS, ALPHA)
    print(
        f"\nsequential false alarms: {alarms}/{REPS} = {rate:.1%} (alpha {ALPHA:.0%}, allowed {allowed}); "
        f"stopped early in {early} runs; {time.perf_counter() - start:.1f} s"
    )
    assert alarms <= allowed, f"false-alarm rate {rate:.1%} over {REPS} runs"
    assert math.isfinite(rate)
