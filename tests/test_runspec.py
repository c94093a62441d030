"""One frozen run description (RunSpec) for run, sweeps, checks, config and tasks;
config.py the only reader of balance.toml (a sweep is its [sweep] table); the
default game from balance.toml or the registry's first entry."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import pytest

from balance.config import default_game, load_config, load_sweep, project_game
from balance.errors import UserError
from balance.registry import first_game, game_names
from balance.runner import Task, tasks_for
from balance.runspec import RunSpec
from balance.sweep import plan


def test_a_run_description_is_frozen_hashable_and_picklable(dicerace):
    run = RunSpec.of("dicerace", params={"target": 12}, players="plain, cautious", seed=3, games=10)
    assert run.players == ("plain", "cautious") and run.params == (("target", 12),)
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.seed = 4
    assert hash(run) == hash(RunSpec.of("dicerace", params={"target": 12}, players=["plain", "cautious"], seed=3,
                                        games=10))
    assert pickle.loads(pickle.dumps(run)) == run
    assert run.with_params({"target": 14}).rules == {"target": 14} and run.rules == {"target": 12}


def test_resolved_lists_every_rule_and_the_seatings(dicerace):
    r = RunSpec.of("dicerace", params={"target": "12"}, players="cautious,plain,cautious", rotate_seats=True).resolved()
    assert r.run.params == (("target", 12), ("first_bonus", 0), ("max_turns", 400))
    assert r.run.players == ("cautious", "plain", "cautious")
    assert r.labels == ["cautious", "plain"] and r.seat_index == (0, 1, 0)
    assert r.seatings.tolist() == [[0, 1, 0], [0, 0, 1], [1, 0, 0]]
    assert RunSpec("dicerace").resolved().names == ["plain", "plain"]  # the game's default players


@pytest.mark.parametrize(
    "run, message",
    [
        (RunSpec("dicerace", games=0), "--games 0"),
        (RunSpec("dicerace", seed=-1), "--seed -1"),
        (RunSpec("nosuch"), "unknown game 'nosuch'"),
        (RunSpec("dicerace", params=(("target", 0),)), "parameter target=0"),
        (RunSpec("dicerace", params=(("target", [1]),)), r"parameter target=\[1\]"),
        (RunSpec("dicerace", players=("plain",)), "1 players for dicerace; allowed: 2 to 6"),
        (RunSpec("dicerace", players=("plain", "ghost")), "unknown player 'ghost'"),
        (RunSpec("dicerace", player_file="/nonexistent/bots.py"), "does not exist"),
    ],
)
def test_every_mistake_is_one_line(dicerace, run, message):
    with pytest.raises(UserError, match=message) as err:
        run.resolved()
    assert "\n" not in str(err.value)


def test_tasks_carry_the_description(dicerace, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = RunSpec.of("dicerace", games=10, player_file="bots.py")
    tasks = tasks_for(run, 4, point=2)
    assert [(t.first_game, t.n_games) for t in tasks] == [(0, 4), (4, 4), (8, 2)]
    assert all(isinstance(t, Task) and t.point == 2 and t.device == "cpu" for t in tasks)
    assert tasks[0].run.player_file == str(tmp_path.resolve() / "bots.py")  # absolute: for any worker


def test_sweep_points_config_and_checks_share_it(dicerace, tmp_path):
    p = plan("dicerace", params={"target": "10,20"}, games=100, players="plain,cautious", out=tmp_path / "r")
    assert isinstance(p.run, RunSpec) and p.run.games == 100 and p.players == ["plain", "cautious"]
    assert p.point_run(1).rules["target"] == 20 and p.point_run(1).replace(params=()) == p.run
    path = tmp_path / "balance.toml"
    path.write_text('[game]\nname = "dicerace"\nplayers = ["plain", "cautious"]\nseed = 5\n[params]\ntarget = 12\n')
    cfg = load_config(path)
    assert cfg.run == RunSpec("dicerace", (("target", 12),), ("plain", "cautious"), 5, 100_000)
    from balance.check.plan import plan_from_config

    planned = plan_from_config(cfg, dicerace)
    assert planned.run.rules == {"target": 12, "first_bonus": 0, "max_turns": 400}
    assert planned.run.replace(params=cfg.run.params) == cfg.run


# --------------------------------------------------------------------------- the default game
def test_default_game_is_the_registrys_first_without_balance_toml(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert project_game() is None
    assert default_game() == first_game() and first_game() in game_names()
    (tmp_path / "balance.toml").write_text('[game]\nname = "dicerace"\n[targets]\nnonsense = 1\n')
    assert default_game() == "dicerace"  # only [game] name is read for the default
    (tmp_path / "balance.toml").write_text("[game\n")
    with pytest.raises(UserError, match="balance.toml: not valid TOML"):
        default_game()


# --------------------------------------------------------------------------- [sweep] of balance.toml
PROJECT = """
[game]
name = "dicerace"
players = ["plain", "cautious"]
seed = 7

[params]
first_bonus = 1

[cluster]
scheduler = "tcp://127.0.0.1:8786"

[sweep]
games = 300
out = "runs/target"
rotate_seats = true

[sweep.params]
target = "10..14:2"
"""


def test_a_sweep_is_a_section_of_balance_toml(dicerace, tmp_path):
    (tmp_path / "sub").mkdir()
    path = tmp_path / "sub" / "balance.toml"
    path.write_text(PROJECT)
    cfg = load_config(path)
    assert cfg.sweep == {"games": 300, "out": str(tmp_path / "sub" / "runs/target"), "rotate_seats": True,
                         "params": {"target": "10..14:2"}}
    settings = load_sweep(path)
    assert settings["game"] == "dicerace" and settings["players"] == ["plain", "cautious"] and settings["seed"] == 7
    assert settings["params"] == {"first_bonus": 1, "target": "10..14:2"}  # the file's rules, then the swept ones
    assert settings["scheduler"] == "tcp://127.0.0.1:8786"
    p = plan(config=path, scheduler="")
    assert p.games == 300 and p.seed == 7 and p.rotate_seats and p.players == ["plain", "cautious"]
    assert [a.name for a in p.axes] == ["first_bonus", "target"] and p.n_points == 3
    assert all(params["first_bonus"] == 1 for params in p.params)
    assert p.out == Path(tmp_path / "sub" / "runs/target")


@pytest.mark.parametrize(
    "text, message",
    [
        ('[game]\nname = "dicerace"\n', r"no \[sweep\] table"),
        ('[game]\nname = "dicerace"\n[sweep]\ngmes = 3\n', r"\[sweep\]: unknown key 'gmes'"),
        ('[game]\nname = "dicerace"\n[sweep]\ngames = "many"\n', "games must be a whole number"),
        ('[game]\nname = "dicerace"\n[sweep]\ngame = "other"\n', "but \\[game\\] name is 'dicerace'"),
    ],
)
def test_bad_sweep_sections(dicerace, tmp_path, text, message):
    path = tmp_path / "balance.toml"
    path.write_text(text)
    with pytest.raises(UserError, match=message) as err:
        load_sweep(path)
    assert "\n" not in str(err.value)


def test_toml_is_read_in_config_only():
    """config.py is the only module of balance/ that reads TOML."""
    root = Path(__file__).resolve().parent.parent / "balance"
    readers = sorted(str(p.relative_to(root)) for p in root.rglob("*.py") if "tomllib" in p.read_text(encoding="utf-8"))
    assert readers == ["config.py"]
