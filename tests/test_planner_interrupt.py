"""A real Ctrl-C (SIGINT) during ``balance tune`` and ``balance sensitivity``: one
line saying what was kept and how ``--resume`` goes on, exit status 130, and the
resumed run finishes from there (the helpers of tests/test_interrupt.py)."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from balance.cli import main
from tests.test_interrupt import interrupt, one_line


def _complete_trials(db) -> int:
    if not db.is_file():
        return 0
    try:
        with sqlite3.connect(db) as c:
            return c.execute("SELECT count(*) FROM trials WHERE state = 'COMPLETE'").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_sigint_during_tune_keeps_the_trials_and_resume_finishes(tmp_path, capsys):
    out = tmp_path / "tune"
    argv = ["tune", "carnage", "--param", "car_cost=6..16", "--target", "turns_median=18..24", "--players",
            "greedy,greedy", "--trials", "6", "--rungs", "3000,12000", "--confirm-top", "1", "--confirm-games", "4000",
            "--out", str(out)]
    res = interrupt(tmp_path, argv, lambda marker: _complete_trials(out / "study.db") >= 2)
    line = one_line(res)
    m = re.search(r"interrupted: (\d+) trials kept in \S+study.db .*continue with --resume --out (\S+)", line)
    assert m and int(m.group(1)) >= 2 and m.group(2) == str(out), line
    kept = _complete_trials(out / "study.db")
    assert kept == int(m.group(1)) and not (out / "tuned.json").exists()
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--resume", "--json"])
    assert exc.value.code == 0
    assert json.loads(capsys.readouterr().out)["trials"] == 6


def test_sigint_during_sensitivity_keeps_the_points_and_resume_finishes(tmp_path, capsys):
    out = tmp_path / "sens"
    argv = ["sensitivity", "carnage", "--players", "greedy,greedy", "--param", "car_cost=6..16", "--param",
            "start_money=5..20", "--param", "upkeep_per_car=0..2", "--games", "2000", "--trajectories", "3",
            "--sobol-n", "4", "--metric", "turns_mean", "--out", str(out)]
    points = out / "points.jsonl"
    res = interrupt(tmp_path, argv, lambda marker: points.is_file() and len(points.read_text().splitlines()) >= 3)
    # the cost, said before the first game, then the one line of the interrupt
    assert res.returncode == 130 and "Traceback" not in res.stderr, res.stderr
    cost, line = res.stderr.strip().splitlines()
    assert cost.startswith("cost: 31 one-at-a-time + 48 Morris + at most 24 Sobol points x 2,000 games"), cost
    m = re.search(r"interrupted: (\d+) points kept in \S+points.jsonl; continue with --resume --out (\S+)", line)
    assert m and m.group(2) == str(out), line
    assert len(points.read_text().splitlines()) == int(m.group(1))
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--resume", "--json"])
    assert exc.value.code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["points"] == len(points.read_text().splitlines())
