"""Game length in minutes: turns times the table time a game declares for a turn
(or ``--seconds-per-turn``), with its interval, in run, its page and check."""

from __future__ import annotations

import json

import pytest

from balance.check.comparison import compare as compare_counts
from balance.check.metrics import counts_of, metrics_of
from balance.cli import main
from balance.config import Band, config_from_dict
from balance.errors import UserError


@pytest.fixture(scope="module")
def timed(dicerace):
    """Dice Race declaring 30 seconds a turn."""
    from balance.registry import get_game, register
    from tests.toygame import DiceRace

    class TimedRace(DiceRace):
        name = "timedrace"
        seconds_per_turn = 30.0
        seconds_per_turn_source = "reading: a test game's pace"

    try:
        register(TimedRace())
    except ValueError:
        pass
    return get_game("timedrace")


def call(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_every_game_declares_its_table_time():
    from balance.registry import get_game

    for name in ("carnage", "bahama", "carmarace", "tagcity", "taxi"):
        spec = get_game(name)
        assert spec.seconds_per_turn > 0, name
        assert spec.seconds_per_turn_source.startswith(("rulebook:", "reading:")), name
    assert "~20 minutes" in get_game("carnage").seconds_per_turn_source


def test_run_reports_minutes_with_their_interval(timed, capsys):
    code, out, err = call(capsys, "run", "timedrace", "-n", "2000", "--json", "--no-config")
    assert code == 0, err
    data = json.loads(out)
    m, t = data["minutes"], data["turns"]
    assert m["seconds_per_turn"] == 30.0 and m["mean"] == pytest.approx(t["mean"] / 2)
    assert m["mean_ci95"][0] < m["mean"] < m["mean_ci95"][1]
    code, out, _ = call(capsys, "run", "timedrace", "-n", "2000", "--seconds-per-turn", "120", "--json", "--no-config")
    assert json.loads(out)["minutes"]["mean"] == pytest.approx(2 * t["mean"])
    code, out, _ = call(capsys, "run", "dicerace", "-n", "500", "--json", "--no-config")
    assert json.loads(out)["minutes"] is None  # no table time declared
    code, _, err = call(capsys, "run", "timedrace", "-n", "500", "--seconds-per-turn", "0")
    assert code == 2 and err.startswith("error: --seconds-per-turn 0") and err.count("\n") == 1


def test_minutes_are_a_target_not_a_second_test(timed):
    from balance.api import run

    res = run("timedrace", games=3000)
    counts = counts_of(res.aggregate, res.strategies, res.end_reasons, 30.0)
    m = metrics_of(counts)
    assert m["minutes_mean"].value == pytest.approx(m["turns_mean"].value / 2)
    assert m["minutes_p90"].value == pytest.approx(m["turns_p90"].value / 2)
    rows, targets = compare_counts(counts, counts, targets={"minutes_mean": Band(0.0, 1.0)})
    assert not any(r.name.startswith("minutes_") for r in rows)  # the turns' test is not repeated
    assert [t.name for t in targets] == ["minutes_mean"] and targets[0].verdict == "fail"


def test_a_minutes_target_needs_a_table_time(dicerace, timed):
    cfg = config_from_dict({"game": {"name": "timedrace"}, "targets": {"minutes_mean": [5, 15]}})
    assert cfg.targets["minutes_mean"] == Band(5.0, 15.0)
    with pytest.raises(UserError, match="declares no table time of a turn; use turns_mean"):
        config_from_dict({"game": {"name": "dicerace"}, "targets": {"minutes_mean": [5, 15]}})


def test_sweep_report_reads_lengths_in_minutes(timed, tmp_path, monkeypatch):
    import json as _json

    from balance.api import sweep

    monkeypatch.chdir(tmp_path)
    sweep("timedrace", params={"target": "10,20"}, games=1000, out="runs/m", report="m.html")
    data = _json.loads((tmp_path / "m.json").read_text())
    manifest = _json.loads((tmp_path / "runs" / "m" / "manifest.json").read_text())
    assert manifest["seconds_per_turn"] == 30.0
    text = next(f["text"] for f in data["findings"] if f["kind"] == "length")
    first = data["points"][0]["turns"]["mean"]
    assert f"at 30 s a turn, {first / 2:,.1f} ±" in text and "minutes at the table" in text
