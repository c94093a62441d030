"""balance.toml: the starter file, and every refusal naming the file, the key and the reason."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from balance.config import (
    DEFAULT_TOLERANCE,
    Band,
    find_config,
    init,
    load_config,
    render_init,
    toml_value,
)
from balance.errors import UserError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "balance.toml"
    path.write_text(text, encoding="utf-8")
    return path


GOOD = """
[game]
name = "dicerace"
players = ["plain", "cautious"]
games = 5000
seed = 7
rotate_seats = true

[params]
first_bonus = 2

[targets]
seat_win_rate = [0.45, 0.55]
strategy_win_rate = [0.4, 0.6]
no_winner_rate = [0, 0.05]
turns_median = [15, 40]
turns_p90 = [20, 60]
end_reason.target = [0.9, 1.0]

[check]
alpha = 0.01
correction = "bonferroni"

[check.tolerance]
seat_win_rate = 0.03
end_reason.turn_limit = 0.001
turns_p90 = 3

[cluster]
scheduler = "tcp://10.0.0.1:8786"
"""


def test_reads_every_table(dicerace, tmp_path):
    cfg = load_config(write(tmp_path, GOOD))
    assert (cfg.game, cfg.players, cfg.games, cfg.seed, cfg.rotate_seats) == (
        "dicerace",
        ["plain", "cautious"],
        5000,
        7,
        True,
    )
    assert cfg.params == {"first_bonus": 2}
    assert cfg.resolved_params() == {"target": 20, "first_bonus": 2, "max_turns": 400}
    assert cfg.targets["seat_win_rate"] == Band(0.45, 0.55)
    assert cfg.targets["end_reason.target"] == Band(0.9, 1.0)
    assert cfg.targets["no_winner_rate"] == Band(0.0, 0.05)
    assert cfg.check.alpha == 0.01 and cfg.check.correction == "bonferroni"
    assert cfg.check.tolerance_for("seat_win_rate[2]") == 0.03
    assert cfg.check.tolerance_for("end_reason[turn_limit]") == 0.001
    assert (
        cfg.check.tolerance_for("end_reason[target]") == DEFAULT_TOLERANCE["end_reason"]
    )
    assert cfg.check.tolerance_for("turns_p90") == 3.0
    assert cfg.scheduler == "tcp://10.0.0.1:8786"
    # What a baseline records reads back the same.
    from balance.config import parse_check

    again = parse_check(cfg.check.to_dict(), dicerace, "x")
    assert again == cfg.check


def test_init_writes_every_parameter_live_with_its_meaning(dicerace, tmp_path):
    path = init("dicerace", tmp_path / "balance.toml")
    text = path.read_text()
    for p in dicerace.params:
        line = next(x for x in text.splitlines() if x.startswith(f"{p.name} ="))
        assert line.split("#")[0].strip() == f"{p.name} = {toml_value(p.default)}"
        assert p.meaning in line and p.allowed in line
    cfg = load_config(path)
    assert cfg.params == dicerace.defaults()
    assert cfg.players == list(dicerace.default_players)
    assert cfg.targets == {}  # targets are examples, commented out
    with pytest.raises(UserError, match="already exists"):
        init("dicerace", path)
    assert init("dicerace", path, force=True) == path


def test_init_targets_uncommented_read_back(dicerace, tmp_path):
    text = (
        render_init("dicerace")
        .replace("# seat_win_rate", "seat_win_rate")
        .replace("# end_reason.target", "end_reason.target")
    )
    cfg = load_config(write(tmp_path, text))
    assert set(cfg.targets) == {"seat_win_rate", "end_reason.target"}


def test_init_without_a_run_writes_placeholder_bands(dicerace, tmp_path):
    text = init("dicerace", tmp_path / "balance.toml", measure_games=None).read_text()
    assert "# turns_median = [0, 1000]" in text and "measured" not in text


def test_init_unknown_game():
    with pytest.raises(UserError, match="unknown game 'nope'"):
        init("nope", "unused.toml")


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "[game]\nname = 'dicerace'\n[gmae]\n",
            r"\[gmae\]: unknown table \(did you mean 'game'\?\)",
        ),
        (
            "[game]\nname = 'dicerace'\nplayrs = ['plain', 'plain']\n",
            r"\[game\] playrs: unknown key \(did you mean 'players'\?\)",
        ),
        ("[game]\nplayers = ['plain']\n", r"\[game\] name: missing"),
        ("[game]\nname = 3\n", r"\[game\] name: expected a string, got 3"),
        (
            "[game]\nname = 'chess'\n",
            r"\[game\] name: unknown game 'chess'; allowed: .*dicerace",
        ),
        (
            "[game]\nname = 'dicerace'\ngames = '1000'\n",
            r"\[game\] games: expected a whole number, at least 1, got \"1000\"",
        ),
        (
            "[game]\nname = 'dicerace'\ngames = 0\n",
            r"\[game\] games: expected a whole number, at least 1, got 0",
        ),
        (
            "[game]\nname = 'dicerace'\nseed = -1\n",
            r"\[game\] seed: expected a whole number",
        ),
        (
            "[game]\nname = 'dicerace'\nrotate_seats = 1\n",
            r"\[game\] rotate_seats: expected true or false",
        ),
        (
            "[game]\nname = 'dicerace'\nplayers = ['plain']\n",
            r"\[game\] players: 1 players; dicerace allows 2 to 6",
        ),
        (
            "[game]\nname = 'dicerace'\nplayers = ['plain', 'bold']\n",
            r"\[game\] players: unknown player 'bold'",
        ),
        (
            "[game]\nname = 'dicerace'\nboard = 'missing.toml'\n",
            r"\[game\] board: no such file",
        ),
        (
            "[game]\nname = 'dicerace'\n[params]\ntarget = 'twenty'\n",
            r"\[params\] target: expected an integer in 1..1000, got \"twenty\"",
        ),
        (
            "[game]\nname = 'dicerace'\n[params]\ntarget = true\n",
            r"\[params\] target: expected an integer in 1..1000, got true",
        ),
        (
            "[game]\nname = 'dicerace'\n[params]\ntarget = 2.5\n",
            r"\[params\] target: expected an integer in 1..1000, got 2.5",
        ),
        (
            "[game]\nname = 'dicerace'\n[params]\ntarget = 0\n",
            r"\[params\] target: expected an integer in 1..1000, got 0",
        ),
        (
            "[game]\nname = 'dicerace'\n[params]\ntraget = 10\n",
            r"\[params\] traget: unknown rule parameter of dicerace \(did you mean 'target'\?\)",
        ),
        (
            "[game]\nname = 'dicerace'\n[targets]\nseat_win_rate = 0.5\n",
            r"\[targets\] seat_win_rate: expected \[low, high\]",
        ),
        (
            "[game]\nname = 'dicerace'\n[targets]\nseat_win_rate = [0.6, 0.4]\n",
            r"\[targets\] seat_win_rate: low 0.6 is above high 0.4",
        ),
        (
            "[game]\nname = 'dicerace'\n[targets]\nno_winner_rate = [0, 5]\n",
            r"\[targets\] no_winner_rate: expected proportions in 0..1",
        ),
        (
            "[game]\nname = 'dicerace'\n[targets]\nturns_mean = [-1, 5]\n",
            r"\[targets\] turns_mean: expected turns, at least 0",
        ),
        (
            "[game]\nname = 'dicerace'\n[targets]\nseat_winrate = [0, 1]\n",
            r"\[targets\] seat_winrate: unknown target \(did you mean 'seat_win_rate'\?\)",
        ),
        (
            "[game]\nname = 'dicerace'\n[targets]\nend_reason.gridlock = [0, 1]\n",
            r"\[targets\] end_reason.gridlock: unknown end reason of dicerace; allowed: target, turn_limit",
        ),
        (
            "[game]\nname = 'dicerace'\n[check]\nalpha = 0.7\n",
            r"\[check\] alpha: expected a number between 0 and 0.5",
        ),
        (
            "[game]\nname = 'dicerace'\n[check]\ncorrection = 'none'\n",
            r"\[check\] correction: expected one of holm, bonferroni",
        ),
        (
            "[game]\nname = 'dicerace'\n[check]\nlevel = 1\n",
            r"\[check\] level: unknown key",
        ),
        (
            "[game]\nname = 'dicerace'\n[check.tolerance]\nseat_win_rate = 2\n",
            r"\[check.tolerance\] seat_win_rate: expected a proportion in 0..1",
        ),
        (
            "[game]\nname = 'dicerace'\n[check.tolerance]\nturns_p90 = -1\n",
            r"\[check.tolerance\] turns_p90: expected a number of turns",
        ),
        (
            "[game]\nname = 'dicerace'\n[check.tolerance]\nwin_rate = 0.1\n",
            r"\[check.tolerance\] win_rate: unknown metric",
        ),
        (
            "[game]\nname = 'dicerace'\n[cluster]\nscheduler = 8786\n",
            r"\[cluster\] scheduler: expected an address",
        ),
        (
            "[game]\nname = 'dicerace'\n[cluster]\nworkers = 3\n",
            r"\[cluster\] workers: unknown key",
        ),
        (
            "seeds = 3\n[game]\nname = 'dicerace'\n",
            r"seeds: a key outside any table \(did you mean \[game\] seed\?\); keys belong in the tables \[game\], \[params\]",
        ),
        (
            "target = 30\n[game]\nname = 'dicerace'\n",
            r"target: a key outside any table \(a rule parameter: put it under \[params\]\)",
        ),
        (
            "[game]\nname = 'dicerace'\nseeds = 3\n",
            r"\[game\] seeds: unknown key \(did you mean 'seed'\?\); allowed: name, players, games, seed",
        ),
        (
            "[game]\nname = 'dicerace'\nfirst_bonus = 3\n",
            r"\[game\] first_bonus: a rule parameter; put it under \[params\] \(\[game\] takes: name, players",
        ),
        ("[game]\nname = 'dicerace'\n[params]\n", None),
        ("[game\nname = 1", r"not valid TOML"),
        ("game = 1\n", r"\[game\] must be a table"),
    ],
)
def test_refusals_name_file_key_and_reason(dicerace, tmp_path, text, message):
    path = write(tmp_path, text)
    if message is None:
        load_config(path)
        return
    with pytest.raises(UserError) as exc:
        load_config(path)
    text = str(exc.value)
    assert "\n" not in text
    assert text.startswith(f"{path}: ")
    import re

    assert re.search(message, text), text


def test_relative_files_are_anchored_at_the_rule_file(dicerace, tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "players.py").write_text("# players\n")
    path = tmp_path / "sub" / "balance.toml"
    path.write_text(
        "[game]\nname = 'dicerace'\nplayer_file = 'players.py'\nplayers = ['plain', 'mine']\n"
    )
    monkeypatch.chdir(tmp_path)
    cfg = load_config("sub/balance.toml")
    assert cfg.player_file == "sub/players.py"
    assert cfg.players == [
        "plain",
        "mine",
    ]  # checked against the player file when a run starts


def test_find_config(dicerace, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert find_config() is None
    with pytest.raises(UserError, match="other.toml: no such file"):
        find_config("other.toml")
    write(tmp_path, "[game]\nname = 'dicerace'\n")
    assert find_config().game == "dicerace"
    assert find_config(use_default=False) is None


def test_toml_values():
    assert toml_value(True) == "true"
    assert toml_value(3) == "3"
    assert toml_value(0.5) == "0.5"
    assert toml_value(2.0) == "2.0"
    assert toml_value('say "hi"') == '"say \\"hi\\""'
    assert tomllib.loads("x = " + toml_value(["a", 1.5]))["x"] == ["a", 1.5]


# ---- the run a rule file describes (balance run, balance trace) ------------------------
RUN_FILE = """
[game]
name = "dicerace"
players = ["cautious", "cautious"]
games = 300
seed = 4
rotate_seats = true

[params]
first_bonus = 2
target = 25
"""


def test_run_for_reads_the_file_and_the_options_override_it(dicerace, tmp_path, monkeypatch):
    from balance.config import run_for

    monkeypatch.chdir(tmp_path)
    write(tmp_path, RUN_FILE)
    run, cfg = run_for()
    assert cfg is not None and cfg.where == "balance.toml"
    assert (run.game, run.players, run.games, run.seed, run.rotate_seats) == ("dicerace", ("cautious",) * 2, 300, 4, True)
    assert run.rules == {"first_bonus": 2, "target": 25}
    run, _ = run_for(
        "dicerace", params={"first_bonus": "1"}, players="plain,plain", games=50, seed=9, rotate_seats=False
    )
    assert (run.players, run.games, run.seed, run.rotate_seats) == (("plain", "plain"), 50, 9, False)
    assert run.rules == {"first_bonus": "1", "target": 25}  # one parameter at a time
    run, cfg = run_for(use_config=False)
    assert cfg is None and (run.rules, run.players, run.games) == ({}, None, 1_000_000)


def test_run_for_keys_the_file_leaves_out_take_the_defaults(dicerace, tmp_path, monkeypatch):
    from balance.config import run_for
    from balance.runspec import DEFAULT_GAMES

    monkeypatch.chdir(tmp_path)
    write(tmp_path, "[game]\nname = 'dicerace'\n")
    run, _ = run_for()
    assert (run.games, run.seed, run.players, run.rotate_seats, run.rules) == (DEFAULT_GAMES, 0, None, False, {})


def test_run_for_another_game(dicerace, tmp_path, monkeypatch):
    """./balance.toml of another game does not apply to it; a --config of another game is refused."""
    from balance.config import run_for

    monkeypatch.chdir(tmp_path)
    path = write(tmp_path, RUN_FILE)
    run, cfg = run_for("carnage")
    assert cfg is None and run.game == "carnage" and run.rules == {}
    with pytest.raises(UserError, match="game 'carnage' given, but .* is for 'dicerace'"):
        run_for("carnage", config=path)


def test_run_for_validates_the_whole_file(dicerace, tmp_path, monkeypatch):
    from balance.config import run_for

    monkeypatch.chdir(tmp_path)
    write(tmp_path, RUN_FILE.replace("seed = 4", "seeds = 4"))
    with pytest.raises(UserError, match=r"balance.toml: \[game\] seeds: unknown key"):
        run_for()
