"""``balance sweep`` and ``balance report`` from the command line: the plan printed
first, data on stdout only with --json, bad input as one line with exit 2 and
nothing written, and an end-to-end run on a real game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from balance.cli import main

REPO = Path(__file__).resolve().parent.parent


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.fixture
def here(tmp_path, monkeypatch, dicerace):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_dry_run_prints_the_grid_and_writes_nothing(here, capsys):
    code, out, err = cli(capsys, "sweep", "dicerace", "--param", "target=10..14:2", "-p", "first_bonus=0,1",
                         "--games", "1k", "--dry-run")
    assert code == 0, err
    assert "target = 10, 12, 14  (3 values)" in out
    assert "first_bonus = 0, 1  (2 values)" in out
    assert "6 points × 1,000 games = 6,000 games" in out
    assert list(here.iterdir()) == []
    code, out, err = cli(capsys, "sweep", "dicerace", "-p", "target=10..14:2", "--dry-run", "--json")
    plan = json.loads(out)
    assert plan["dry_run"] is True and plan["points"] == 3 and plan["total_games"] == 3_000_000
    assert list(here.iterdir()) == []


def test_sweep_then_report(here, capsys):
    code, out, err = cli(capsys, "sweep", "dicerace", "-p", "target=10..20:5", "--games", "600", "--players",
                         "plain,cautious", "--out", "run", "--report", "reports/r.html", "--json")
    assert code == 0, err
    data = json.loads(out)  # stdout holds the JSON only
    assert [p["params"]["target"] for p in data["points"]] == [10, 15, 20]
    assert data["points"][0]["games"] == 600 and data["report"] == "reports/r.html"
    assert "dicerace sweep" in err and "3 points × 600 games" in err
    manifest = json.loads((here / "run" / "manifest.json").read_text())
    assert manifest["command"].startswith("balance ") or manifest["command"].startswith("balance sweep")
    assert (here / "reports" / "r.html").is_file() and (here / "reports" / "r.json").is_file()
    code, out, err = cli(capsys, "report", "run", "-o", "other.html", "--png", "main.png")
    assert code == 0, err
    assert "report: other.html" in out and (here / "main.png").is_file()
    code, out, err = cli(capsys, "report", "run", "--json")
    assert json.loads(out)["points_finished"] == 3
    # --resume with everything done plays nothing; a different sweep there is refused
    code, out, err = cli(capsys, "sweep", "dicerace", "-p", "target=10..20:5", "--games", "600", "--players",
                         "plain,cautious", "--out", "run", "--resume")
    assert code == 0, err
    assert "resume: 3 of 3 points already done; 0 to play" in out and "0 points played" in out
    code, out, err = cli(capsys, "sweep", "dicerace", "-p", "target=10..25:5", "--games", "600", "--players",
                         "plain,cautious", "--out", "run", "--resume")
    assert code == 2 and "holds another sweep" in err


def test_config_file_flags_win(here, capsys):
    (here / "sweep.toml").write_text(
        'game = "dicerace"\ngames = 300\nseed = 4\nout = "cfg"\n[params]\ntarget = "10..12"\n'
    )
    code, out, err = cli(capsys, "sweep", "--config", "sweep.toml", "--seed", "5", "--dry-run")
    assert code == 0, err
    assert "dicerace sweep" in out and "3 points × 300 games" in out and "(seed 5," in out and "results: cfg" in out


def test_default_game_from_balance_toml(here, capsys):
    (here / "balance.toml").write_text('[game]\nname = "dicerace"\n')
    code, out, err = cli(capsys, "sweep", "--param", "target=10,20", "--games", "10", "--dry-run")
    assert code == 0, err
    assert out.startswith("dicerace sweep")


BAD = [
    (["-p", "nope=1..3"], "unknown parameter 'nope' for dicerace; allowed: target, first_bonus, max_turns"),
    (["-p", "target=8.5"], "parameter target=8.5: expected an integer in 1..1000"),
    (["-p", "target=0..5"], "expected an integer in 1..1000"),
    (["-p", "target=14..8"], "reversed range"),
    (["-p", "target=8..14:0"], "step 0 must be a whole number of at least 1"),
    (["-p", "target=8..14:-2"], "step -2 must be"),
    (["-p", "target=8..1e9"], "expected an integer"),
    (["-p", "target=8..14", "--max-points", "5"], "7 values, more than --max-points 5"),
    (["-p", "target=1..200", "-p", "first_bonus=0..99"], "the grid has 20,000 points (200 × 100), more than --max-points 10,000"),
    (["-p", "target"], "expected NAME=VALUE"),
    (["-p", "target=10", "-p", "target=12"], "given twice"),
    (["--games", "0"], "--games 0"),
    (["--games", "lots"], "--games lots"),
    (["--seed", "-1"], "--seed -1"),
    (["--players", "plain,ghost"], "unknown player 'ghost'"),
    (["--resume"], "--resume needs --out"),
    (["--config", "missing.toml"], "--config missing.toml: no such file"),
    (["--max-points", "0"], "--max-points 0"),
    (["--threads", "0"], "--threads 0"),
    (["--keep-games", "--scheduler", "tcp://127.0.0.1:1"], "--keep-games plays on this machine"),
    (["--bogus"], "No such option"),
]


@pytest.mark.parametrize("args, words", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_one_line_exit_2_nothing_written(here, capsys, args, words):
    code, out, err = cli(capsys, "sweep", "dicerace", "--games", "10", *args) if "--games" not in args else cli(
        capsys, "sweep", "dicerace", *args
    )
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert words in err
    assert "Traceback" not in err and out == ""
    assert list(here.iterdir()) == []


def test_bad_report_dir(here, capsys):
    (here / "notarun").mkdir()
    for args, words in [
        (["report", "notarun"], "notarun is not a sweep run (no manifest.json)"),
        (["report", "nowhere"], "nowhere: no such directory"),
    ]:
        code, _, err = cli(capsys, *args)
        assert code == 2 and words in err and err.count("\n") == 1
    assert [p.name for p in here.iterdir()] == ["notarun"] and list((here / "notarun").iterdir()) == []


def test_existing_out_needs_resume(here, capsys):
    (here / "run").mkdir()
    (here / "run" / "something.txt").write_text("x")
    code, _, err = cli(capsys, "sweep", "dicerace", "--games", "10", "--out", "run")
    assert code == 2 and "already holds a run; add --resume" in err
    code, _, err = cli(capsys, "sweep", "dicerace", "--games", "10", "--out", "run", "--resume")
    assert code == 2 and "holds files but no sweep" in err


# ---- the flagship game, end to end, in a fresh folder --------------------------------------
def _carnage_ready() -> bool:
    return (REPO / "sims" / "carnage" / "__init__.py").is_file()


@pytest.mark.slow
@pytest.mark.skipif(not _carnage_ready(), reason="sims/carnage not written yet")
def test_carnage_sweep_and_report_in_an_empty_folder(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO), "NUMBA_NUM_THREADS": "2"}
    cmd = [sys.executable, "-m", "balance", "sweep", "--param", "car_cost=9,12", "--games", "2000",
           "--report", "reports/carnage-car_cost.html", "--png", "reports/carnage-car_cost.png"]
    done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("carnage sweep")  # GAME defaults to the flagship
    runs = list((tmp_path / "runs").iterdir())
    assert len(runs) == 1 and runs[0].name.startswith("carnage-")
    import polars as pl

    from balance.store import load

    frame = load(runs[0])
    assert frame.filter(pl.col("measure") == "games")["count"].to_list() == [2000, 2000]
    data = json.loads((tmp_path / "reports" / "carnage-car_cost.json").read_text())
    assert [p["params"]["car_cost"] for p in data["points"]] == [9, 12]
    assert "win-seat-car_cost" in [f["id"] for f in data["figures"]]
    html = (tmp_path / "reports" / "carnage-car_cost.html").read_text()
    assert "http:" not in html and "https:" not in html
