"""Running sweeps on the toy game: every point is the run it stands for, per-game
rows add up to the stored counts, common random numbers, resume (in process and
after SIGKILL) changes no number, and a different sweep is refused."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from balance.api import run as api_run
from balance.errors import UserError
from balance.store import RunDir, load, open_run
from balance.sweep import finish, plan, sweep
from tests.test_store import assert_same_aggregate

REPO = Path(__file__).resolve().parent.parent


def test_each_point_is_the_plain_run(dicerace, tmp_path):
    result = sweep(
        "dicerace", params={"target": "10..30:10", "first_bonus": "0,2"}, games=3000, seed=11,
        players="plain,cautious", out=tmp_path / "run", chunk=1000,
    )
    assert result.points_played == 6 and result.games_played == 18000
    assert result.manifest["complete"] is True
    for i, point in enumerate(result.manifest["points"]):
        direct = api_run("dicerace", games=3000, seed=11, players="plain,cautious", params=point)
        assert_same_aggregate(result.aggregates[i], direct.aggregate)
    figures = result.figures()
    assert [f["params"] for f in figures] == result.manifest["points"]
    assert figures[0]["seats"][0]["ci95"][0] < figures[0]["seats"][0]["win_rate"]


def test_chunking_and_threads_change_nothing(dicerace, tmp_path):
    kw = {"params": {"target": "12,24"}, "games": 2500, "seed": 5, "players": "plain,cautious", "rotate_seats": True}
    a = sweep("dicerace", out=tmp_path / "a", chunk=2500, **kw)
    b = sweep("dicerace", out=tmp_path / "b", chunk=333, threads=1, **kw)
    assert load(a.out).equals(load(b.out))
    assert a.manifest["seatings"] == [[0, 1], [1, 0]]


def test_per_game_rows_add_up_to_the_counts(dicerace, tmp_path):
    result = sweep(
        "dicerace", params={"target": "15,60", "max_turns": "12"}, games=1500, seed=2,
        players="plain,cautious", out=tmp_path / "run", keep_games=True, chunk=600,
    )
    games = load(result.out, games=True)
    counts = load(result.out)
    assert games.height == 3000 and games["game"].n_unique() == 1500
    for point in (0, 1):
        g = games.filter(pl.col("point") == point)
        c = counts.filter(pl.col("point") == point)

        def measure(name, c=c, **keys):
            rows = c.filter(pl.col("measure") == name)
            for k, v in keys.items():
                rows = rows.filter(pl.col(k).is_null() if v is None else pl.col(k) == v)
            return rows["count"].sum()

        assert measure("games") == g.height
        assert measure("no_winner") == g.filter(pl.col("winner") == -1).height
        for seat in (0, 1):
            assert measure("seat_wins", seat=seat) == g.filter(pl.col("winner") == seat).height
            assert measure("score_sum", seat=seat) == g[f"score_{seat}"].sum()
        for reason in ("target", "turn_limit"):
            assert measure("end_reason", end_reason=reason) == g.filter(pl.col("end_reason") == reason).height
            assert measure("end_reason_by_winner", seat=None, end_reason=reason) == g.filter(
                (pl.col("winner") == -1) & (pl.col("end_reason") == reason)
            ).height
        hist = g.group_by("turns").len().sort("turns")
        stored = c.filter(pl.col("measure") == "turns").sort("turns")
        assert hist["turns"].to_list() == stored["turns"].to_list()
        assert hist["len"].to_list() == stored["count"].to_list()
    # The turn cap of 12 stops some games at target=60: both end reasons occur.
    assert set(games["end_reason"].cast(str).unique()) == {"target", "turn_limit"}


def test_common_random_numbers(dicerace, tmp_path):
    # max_turns 400 or 500 never binds at target 20: the same game g must be the very same game.
    result = sweep(
        "dicerace", params={"max_turns": "400,500"}, games=1000, seed=9, out=tmp_path / "run", keep_games=True
    )
    games = load(result.out, games=True)
    cols = ["game", "winner", "turns", "score_0", "score_1"]
    a = games.filter(pl.col("point") == 0).select(cols)
    b = games.filter(pl.col("point") == 1).select(cols)
    assert a.equals(b)


def test_resume_in_process_and_refusals(dicerace, tmp_path):
    out = tmp_path / "run"
    kw = {"params": {"target": "10..40:10"}, "games": 2000, "seed": 4, "out": out, "chunk": 700}
    whole = sweep("dicerace", **kw)
    reference = load(out)
    files = {p.name: p.read_bytes() for p in (out / "points").iterdir()}
    # Lose two points, as a killed run would, and resume.
    (out / "points" / "point-000001.parquet").unlink()
    (out / "points" / "point-000003.parquet").unlink()
    with pytest.raises(UserError, match="already holds a run; add --resume"):
        plan("dicerace", **kw)
    p = plan("dicerace", resume=True, **kw)
    assert p.done == [0, 2] and p.pending == [1, 3] and p.pending_games == 4000
    assert any("resume: 2 of 4 points already done" in line for line in p.describe())
    resumed = finish(p)
    assert resumed.points_played == 2
    assert load(out).equals(reference)
    assert {q.name: q.read_bytes() for q in (out / "points").iterdir()} == files
    assert len(resumed.manifest["sessions"]) == 2
    # Nothing left to do: resuming again plays nothing.
    again = sweep("dicerace", resume=True, **kw)
    assert again.points_played == 0 and again.games_played == 0
    # A different sweep in the same directory is refused, naming the difference.
    for change, words in [
        ({"seed": 5}, "seed 4 there, 5 here"),
        ({"games": 3000}, "games_per_point 2000 there, 3000 here"),
        ({"params": {"target": "10..50:10"}}, "axes target=10..40:10 there, target=10..50:10 here"),
        ({"params": {"target": "10..40:10", "max_turns": "300"}}, "axes"),
        ({"players": "plain,cautious"}, "players"),
    ]:
        with pytest.raises(UserError, match="holds another sweep") as err:
            plan("dicerace", **{**kw, **change, "resume": True})
        assert words in str(err.value)
    assert whole.out == out
    # --resume into a new directory starts the sweep there.
    fresh = plan("dicerace", **{**kw, "out": tmp_path / "new", "resume": True})
    assert fresh.done == [] and not (tmp_path / "new").exists()


def test_plan_writes_nothing(dicerace, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    p = plan("dicerace", params={"target": "10..20"}, games=100)
    assert p.n_points == 11 and p.total_games == 1100
    assert str(p.out).startswith("runs/dicerace-")
    assert list(tmp_path.iterdir()) == []
    for kwargs in (
        {"params": {"target": "14..8"}},
        {"params": {"target": "10..20"}, "max_points": 5},
        {"params": {"nope": "1"}},
        {"params": {"target": "1..1000", "first_bonus": "0..100"}},
        {"games": 0},
        {"seed": -1},
        {"players": "plain"},
        {"resume": True},
        {"keep_games": True, "scheduler": "tcp://127.0.0.1:1"},
        {"report": str(tmp_path)},
    ):
        with pytest.raises(UserError):
            plan("dicerace", **{"games": 100, **kwargs})
    assert list(tmp_path.iterdir()) == []


def test_cross_parameter_checks_run_for_every_point(dicerace, tmp_path, monkeypatch):
    def check(values):
        if values["first_bonus"] >= values["target"]:
            raise UserError(f"first_bonus {values['first_bonus']} must be below target {values['target']}")

    monkeypatch.setattr(dicerace, "check_params", check, raising=False)
    with pytest.raises(UserError, match=r"point target=5, first_bonus=6: first_bonus 6 must be below target 5"):
        plan("dicerace", params={"target": "5,10", "first_bonus": "0,6"}, games=10, out=tmp_path / "x")
    assert not (tmp_path / "x").exists()


def test_config_file_and_flags_win(dicerace, tmp_path):
    cfg = tmp_path / "sweep.toml"
    cfg.write_text(
        'game = "dicerace"\ngames = 400\nseed = 3\nplayers = "plain,cautious"\nout = "cfgrun"\n'
        '[params]\ntarget = "10..14:2"\nfirst_bonus = 1\n'
    )
    p = plan(config=cfg)
    assert p.game == "dicerace" and p.games == 400 and p.seed == 3 and p.players == ["plain", "cautious"]
    assert [a.name for a in p.axes] == ["target", "first_bonus"] and p.n_points == 3
    assert p.out == tmp_path / "cfgrun"
    q = plan(config=cfg, games=50, params={"target": "20"}, out=tmp_path / "flag")
    assert q.games == 50 and q.axes[1].values == (20,) and q.axes[0].name == "first_bonus"
    assert q.seed == 3 and q.out == tmp_path / "flag"


# ---- kill -9 mid-sweep, resume: identical results ----------------------------------------
_SLOW_WRAPPER = """
import sys, time
sys.path.insert(0, {repo!r})
from tests.toygame import DiceRace

class SlowDiceRace(DiceRace):
    # Each chunk takes a while, so the kill lands mid-sweep.
    def simulate(self, *args, **kwargs):
        time.sleep(0.12)
        return super().simulate(*args, **kwargs)

from balance.registry import register
register(SlowDiceRace())
from balance.cli import main
main(sys.argv[1:])
"""


@pytest.mark.slow
def test_sigkill_then_resume_gives_identical_results(dicerace, tmp_path):
    wrapper = tmp_path / "slow_balance.py"
    wrapper.write_text(textwrap.dedent(_SLOW_WRAPPER.format(repo=str(REPO))))
    out = tmp_path / "killed"
    args = [
        "sweep", "dicerace", "--param", "target=10..32:2", "--games", "3000", "--chunk", "1000",
        "--seed", "21", "--players", "plain,cautious", "--keep-games", "--out", str(out),
    ]
    env = {**os.environ, "NUMBA_NUM_THREADS": "2"}
    proc = subprocess.Popen(
        [sys.executable, str(wrapper), *args], cwd=REPO, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    run = RunDir(out)
    while len(run.finished_points()) < 3:
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline, "the sweep did not start"
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    finished = run.finished_points()
    assert 3 <= len(finished) < 12, "the kill must land mid-sweep"

    resumed = subprocess.run(
        [sys.executable, str(wrapper), *args, "--resume"], cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"resume: {len(finished)} of 12 points already done" in resumed.stdout

    reference = sweep(
        "dicerace", params={"target": "10..32:2"}, games=3000, chunk=3000, seed=21, players="plain,cautious",
        keep_games=True, out=tmp_path / "whole",
    )
    assert load(out).equals(load(reference.out))
    assert load(out, games=True).equals(load(reference.out, games=True))
    for i in range(12):
        assert run.point_path(i).read_bytes() == RunDir(reference.out).point_path(i).read_bytes()
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]
    manifest, aggs = open_run(out)
    assert manifest["complete"] and len(manifest["sessions"]) == 1  # the killed session never recorded itself
    assert sorted(aggs) == list(range(12)) and all(a.games == 3000 for a in aggs.values())
    assert np.all([a.seat_wins.sum() + a.no_winner == 3000 for a in aggs.values()])
