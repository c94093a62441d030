"""``balance init``, ``baseline`` and ``check`` from the command line: exit codes, outputs,
and every bad input as one line with exit 2."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from balance.cli import app, main


@pytest.fixture()
def folder(dicerace, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="session")
def other_game(dicerace):
    """A second toy game, for baselines of another game."""
    from balance.registry import get_game, register
    from tests.toygame import DiceRace

    class OtherRace(DiceRace):
        name = "otherrace"

    try:
        register(OtherRace())
    except ValueError:
        pass
    return get_game("otherrace")


def call(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def one_line_error(code, err):
    assert code == 2, err
    assert (
        err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    ), err


def set_rule(path: Path, name: str, value: int) -> None:
    lines = path.read_text().splitlines()
    path.write_text(
        "\n".join(
            f"{name} = {value}" if x.startswith(f"{name} =") else x for x in lines
        )
        + "\n"
    )


def test_init_baseline_check_round_trip(folder, capsys):
    code, out, _ = call(capsys, "init", "dicerace")
    assert code == 0 and "wrote balance.toml" in out
    set_rule(folder / "balance.toml", "games", 20_000)
    code, out, _ = call(capsys, "baseline")
    assert (
        code == 0
        and "wrote reports/baselines/dicerace.json" in out
        and "20,000 games" in out
    )

    code, out, _ = call(capsys, "check")
    assert code == 0, out
    assert "seat_win_rate[0]" in out and "balance check: all baselines pass" in out

    set_rule(folder / "balance.toml", "first_bonus", 2)
    code, out, _ = call(capsys, "check", "--junit", "out/junit.xml")
    assert code == 1
    assert (
        "REGRESSION: seat_win_rate[0] moved from" in out and "first_bonus 0 → 2" in out
    )
    suite = ET.parse("out/junit.xml").getroot().find("testsuite")
    assert int(suite.get("failures")) >= 1
    failed = [
        c.get("name") for c in suite.iter("testcase") if c.find("failure") is not None
    ]
    assert "seat_win_rate[0]" in failed

    code, out, _ = call(capsys, "check", "--markdown")
    assert code == 1
    assert out.startswith("## Balance check: ❌ failed")
    assert (
        "| metric | baseline (95% CI) | now (95% CI) | change (95% CI) | p adj. | verdict |"
        in out
    )
    assert "| **seat_win_rate[0]** |" in out

    code, out, _ = call(capsys, "check", "--json")
    data = json.loads(out)
    assert code == 1 and data["passed"] is False
    assert data["baselines"][0]["rules_changed"] == {
        "first_bonus": {"baseline": 0, "now": 2}
    }


def test_target_failure_exits_1(folder, capsys):
    call(capsys, "init", "dicerace")
    text = (
        (folder / "balance.toml")
        .read_text()
        .replace("[targets]\n", "[targets]\nturns_median = [15, 40]\n")  # a band dicerace's 10 turns miss
    )
    (folder / "balance.toml").write_text(text)
    set_rule(folder / "balance.toml", "games", 2000)
    call(capsys, "baseline")
    code, out, _ = call(capsys, "check")
    assert (
        code == 1
        and "FAILED TARGET: turns_median is 10" in out
        and "outside the target [15, 40]" in out
    )


def test_update_rerecords_every_baseline(folder, capsys, other_game):
    call(capsys, "baseline", "dicerace", "-n", "500", "--seed", "4")
    call(capsys, "baseline", "otherrace", "-n", "300")
    before = {
        p.name: json.loads(p.read_text())["counts"]
        for p in Path("reports/baselines").glob("*.json")
    }
    code, out, _ = call(capsys, "baseline", "--update")
    assert code == 0 and out.count("wrote reports/baselines/") == 2 and "seed 4" in out
    after = {
        p.name: json.loads(p.read_text())["counts"]
        for p in Path("reports/baselines").glob("*.json")
    }
    assert after == before
    code, out, _ = call(capsys, "check")
    assert code == 0 and "otherrace" in out and "dicerace" in out
    code, _, err = call(capsys, "baseline", "--update", "--games", "10")
    one_line_error(code, err)
    assert "drop --games" in err


@pytest.mark.parametrize(
    "setup, argv, message",
    [
        (None, ["check", "missing.json"], "baseline missing.json: no such file"),
        ("corrupt", ["check", "b.json"], "baseline b.json: corrupt, not valid JSON"),
        (
            "truncated",
            ["check", "b.json"],
            "baseline b.json: corrupt (not a balance-baseline/1 file)",
        ),
        ("unknown_game", ["check", "b.json"], "baseline b.json: unknown game 'chess'"),
        (
            "other_game",
            ["check", "reports/baselines/otherrace.json"],
            "is of game 'otherrace', but balance.toml is for 'dicerace'",
        ),
        (
            "unknown_key",
            ["check"],
            "balance.toml: [game] seeds: unknown key (did you mean 'seed'?)",
        ),
        (
            "wrong_type",
            ["check"],
            'balance.toml: [params] target: expected an integer in 1..1000, got "20"',
        ),
        (
            "out_of_range",
            ["baseline"],
            "balance.toml: [params] max_turns: expected an integer in 1..100000, got 0",
        ),
        (None, ["check"], "no baselines in reports/baselines/"),
        (None, ["baseline"], "no balance.toml here"),
        (None, ["baseline", "chess"], "unknown game 'chess'"),
        (None, ["init", "chess"], "unknown game 'chess'"),
        (None, ["check", "--config", "nope.toml"], "nope.toml: no such file"),
        ("config", ["init", "dicerace"], "balance.toml: already exists"),
        (
            "config",
            ["baseline", "otherrace"],
            "game 'otherrace' given, but balance.toml is for 'dicerace'",
        ),
        (None, ["check", "--seed", "-1", "x.json"], "--seed -1"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    folder, capsys, other_game, setup, argv, message
):
    toml = folder / "balance.toml"
    if setup is not None:
        if setup in (
            "config",
            "unknown_key",
            "wrong_type",
            "out_of_range",
            "other_game",
        ):
            toml.write_text("[game]\nname = 'dicerace'\ngames = 200\n")
        if setup == "corrupt":
            Path("b.json").write_text('{"format": "balance-baseline/1", ')
        elif setup == "truncated":
            Path("b.json").write_text("[]")
        elif setup == "unknown_game":
            call(capsys, "baseline", "dicerace", "-n", "100", "-o", "b.json")
            data = json.loads(Path("b.json").read_text())
            Path("b.json").write_text(json.dumps(dict(data, game="chess")))
        elif setup == "other_game":
            call(capsys, "baseline", "otherrace", "-n", "100", "--no-config")
        elif setup == "unknown_key":
            toml.write_text(toml.read_text() + "seeds = 3\n")
        elif setup == "wrong_type":
            toml.write_text(toml.read_text() + "[params]\ntarget = '20'\n")
        elif setup == "out_of_range":
            toml.write_text(toml.read_text() + "[params]\nmax_turns = 0\n")
    code, _, err = call(capsys, *argv)
    one_line_error(code, err)
    assert message in err, err


def test_no_config_ignores_the_rule_file(folder, capsys, other_game):
    call(capsys, "baseline", "otherrace", "-n", "200")
    Path("balance.toml").write_text("[game]\nname = 'dicerace'\n")
    code, _, err = call(capsys, "check")
    one_line_error(code, err)
    code, out, _ = call(capsys, "check", "--no-config")
    assert code == 0 and "otherrace" in out


def test_commands_forward_to_the_library(monkeypatch, tmp_path):
    """The CLI is thin: what reaches balance.check.check / baseline."""
    import balance.check as lib

    seen = {}

    class Report:
        exit_code = 0

        def to_text(self):
            return "ok\n"

        def to_junit(self):
            return "<testsuites/>"

    def fake_check(baselines, **kw):
        seen["check"] = (baselines, kw)
        return Report()

    monkeypatch.setattr(lib, "check", fake_check)
    result = CliRunner().invoke(
        app,
        [
            "check",
            "a.json",
            "b.json",
            "--seed",
            "5",
            "--no-config",
            "--threads",
            "1",
            "--junit",
            str(tmp_path / "j.xml"),
        ],
    )
    assert result.exit_code == 0, result.output
    baselines, kw = seen["check"]
    assert [str(b) for b in baselines] == ["a.json", "b.json"]
    assert (
        kw["seed"] == 5
        and kw["use_config"] is False
        and kw["threads"] == 1
        and kw["config"] is None
    )
    assert (tmp_path / "j.xml").read_text() == "<testsuites/>"

    from types import SimpleNamespace

    recorded = {
        "config": {"games": 1000, "seed": 2, "players": ["a", "b"]},
        "elapsed_s": 0.1,
    }

    def fake_baseline(game, **kw):
        seen["baseline"] = (game, kw)
        return SimpleNamespace(path=Path("x.json"), game="g", data=recorded)

    monkeypatch.setattr(lib, "baseline", fake_baseline)
    result = CliRunner().invoke(
        app,
        [
            "baseline",
            "g",
            "-n",
            "1k",
            "--seed",
            "2",
            "-o",
            "x.json",
            "--players",
            "a,b",
        ],
    )
    assert result.exit_code == 0, result.output
    game, kw = seen["baseline"]
    assert (
        game == "g"
        and kw["games"] == 1000
        and kw["seed"] == 2
        and str(kw["output"]) == "x.json"
    )
    assert kw["players"] == "a,b" and kw["use_config"] is True
