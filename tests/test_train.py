"""``balance train``: a heuristic's parameters tuned against a field (balance.train).

On the toy game (dicerace: ``cautious`` gives up ``hold_back`` steps on a roll of
``from_roll`` or more; moving the whole roll is best, so ``hold_back=0`` is the
known answer) and on carnage at a tiny size: the search finds the better
setting, a study resumes exactly, the confirmation plays other games than the
tuning, the page is whole, and every mistake is one line with exit status 2.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from balance.cli import main
from balance.errors import UserError
from balance.game import Param, PlayerInfo
from balance.train import Interrupted, confirm_seed_for, field_score, search_space, share, train
from tests.test_report import assert_self_contained, parse


def _settings(label: str) -> dict[str, str]:
    _, _, rest = label.partition(":")
    return dict(item.split("=") for item in rest.split(";")) if rest else {}


def _trials(folder) -> list[tuple[int, str, float]]:
    """(number, label, value) of every complete trial, read from the SQLite study itself."""
    with sqlite3.connect(folder / "study.db") as db:
        rows = db.execute(
            "SELECT t.number, a.value_json, v.value FROM trials t JOIN trial_user_attributes a ON a.trial_id = t.trial_id "
            "JOIN trial_values v ON v.trial_id = t.trial_id WHERE a.key = 'label' AND t.state = 'COMPLETE' "
            "ORDER BY t.number"
        ).fetchall()
    return [(n, json.loads(label), value) for n, label, value in rows]


@pytest.fixture(scope="module")
def toy(dicerace, tmp_path_factory):
    out = tmp_path_factory.mktemp("train") / "run"
    return train("dicerace", player="cautious", against="plain", trials=14, games_per_trial=1000, seed=3,
                 space=["from_roll=6"], out=out)


# --------------------------------------------------------------------------- the search
def test_the_search_finds_the_known_best_setting(toy):
    f = toy.figures
    # Moving the whole roll is best: the tuned player holds nothing back ...
    assert _settings(f["tuned"]) == {"hold_back": "0"}, f["tuned"]
    assert f["default"] == "cautious" and f["trials"] == 14
    # ... plays like plain (a fair share against it) and beats the default on fresh games.
    vs_plain = f["against"][0]
    assert vs_plain["opponent"] == "plain" and abs(vs_plain["rate"] - 0.5) < 0.04
    assert f["against_default"]["ci95"][0] > 0.5
    default_row = next(r for r in f["confirmation"] if r["default"])
    assert default_row["confirmed"]["ci95"][1] < f["winner"]["confirmed"]["rate"]
    # The first trial is the default; the best so far never falls.
    history = f["history"]
    assert history[0]["label"] == "cautious"
    assert all(b["best"] >= a["best"] for a, b in zip(history, history[1:]))
    assert max(h["value"] for h in history) == history[-1]["best"]
    # Each trial stores its per-opponent counts; its value is the share of decided games.
    vs = next(h for h in history if h["label"] == f["tuned"])["score"]
    assert vs["n"] <= 1000 and vs["opponents"] == 1
    assert (toy.out / "tuned.txt").read_text().strip() == f["tuned"]
    assert json.loads((toy.out / "tuned.json").read_text())["tuned"] == f["tuned"]


def test_every_trial_plays_the_same_games_and_confirmation_other_ones(toy):
    """A trial's counts are those of a run of the same games (seed, games 0..M-1); the
    confirmation's are those of a run on the confirmation seed, never the tuning seed."""
    from balance.api import run

    f = toy.figures
    assert f["confirm_seed"] == confirm_seed_for(3) != 3
    first = run("dicerace", players="cautious,plain", games=1000, seed=3, rotate_seats=True)
    trial0 = json.loads((toy.out / "tuned.json").read_text())["history"][0]
    assert trial0["label"] == "cautious"
    assert round(trial0["value"] * (first.aggregate.games - first.aggregate.no_winner)) == first.aggregate.strategy_wins[0]
    row = next(r for r in f["confirmation"] if r["default"])
    again = run("dicerace", players="cautious,plain", games=f["confirm_games"], seed=f["confirm_seed"], rotate_seats=True)
    assert row["vs"]["plain"]["wins"] == again.aggregate.strategy_wins[0]
    assert row["vs"]["plain"]["games"] == f["confirm_games"] == 4000
    # The tuning score of the winner is not its confirmed one: other games.
    assert f["winner"]["tuning"]["n"] != f["winner"]["confirmed"]["n"]
    assert f["winner"]["overstated_by"] == pytest.approx(f["winner"]["tuning"]["rate"] - f["winner"]["confirmed"]["rate"])


def test_the_page_is_whole_and_says_what_it_found(toy):
    path = toy.out / "report.html"
    raw = path.read_text(encoding="utf-8")
    page = parse(path)
    assert_self_contained(page, raw)
    for section in ("summary", "findings", "trials", "importance", "confirmation", "strength", "all-trials", "reproduce"):
        assert section in page.ids, section
    assert raw.count("<svg") == 2  # trials over time, parameter importance
    text = " ".join(page.text)
    assert toy.figures["tuned"] in text and "overstated" in text and "plain" in text
    assert "balance train dicerace --player cautious --against plain" in text


# --------------------------------------------------------------------------- resuming
def test_a_study_resumes_where_it_stopped_and_proposes_what_an_unbroken_one_would(dicerace, tmp_path):
    args = dict(player="cautious", against="plain", games_per_trial=200, seed=5)
    whole = train("dicerace", trials=12, out=tmp_path / "whole", report=False, **args)
    part = tmp_path / "part"
    train("dicerace", trials=4, out=part, report=False, **args)
    first = _trials(part)
    assert len(first) == 4
    resumed = train("dicerace", trials=12, out=part, resume=True, **args)
    assert _trials(part)[:4] == first and len(_trials(part)) == 12
    assert _trials(part) == _trials(tmp_path / "whole")
    assert resumed.figures["tuned"] == whole.figures["tuned"]
    assert resumed.figures["confirmation"] == whole.figures["confirmation"]


def test_ctrl_c_loses_only_the_trial_in_flight(dicerace, tmp_path):
    args = dict(player="cautious", against="plain,cautious:hold_back=3", games_per_trial=200, seed=2)
    out = tmp_path / "run"
    done = []

    def interrupt(n):
        if len(done) >= 3:  # Ctrl-C in the first trial played after three were complete
            raise KeyboardInterrupt

    with pytest.raises(Interrupted, match="interrupted: [0-9]+ trials kept") as exc:
        train("dicerace", trials=8, out=out, on_games=interrupt, on_trial=done.append, **args)
    assert "--resume" in exc.value.message
    kept = _trials(out)
    assert [n for n, _, _ in kept] == list(range(len(done))) and len(kept) >= 3
    train("dicerace", trials=8, out=out, resume=True, report=False, **args)
    again = _trials(out)
    assert again[: len(kept)] == kept and len(again) == 8
    # The dropped trial counts for nothing: the same study as an unbroken one.
    train("dicerace", trials=8, out=tmp_path / "whole", report=False, **args)
    assert [(label, v) for _, label, v in again] == [(label, v) for _, label, v in _trials(tmp_path / "whole")]


def test_resume_refuses_other_options(dicerace, tmp_path):
    out = tmp_path / "run"
    train("dicerace", player="cautious", against="plain", trials=2, games_per_trial=100, out=out, report=False)
    with pytest.raises(UserError, match="another training .*games_per_trial"):
        train("dicerace", player="cautious", against="plain", trials=3, games_per_trial=200, out=out, resume=True)
    with pytest.raises(UserError, match="--resume"):
        train("dicerace", player="cautious", against="plain", trials=3, games_per_trial=100, out=out)
    # A trial left running by a killed process counts for nothing: marked failed on resume.
    import optuna

    study = optuna.load_study(study_name="train", storage=f"sqlite:///{out / 'study.db'}")
    study.ask()
    train("dicerace", player="cautious", against="plain", trials=3, games_per_trial=100, out=out, resume=True,
          report=False)
    states = sorted(t.state.name for t in study.get_trials())
    assert states == ["COMPLETE", "COMPLETE", "COMPLETE", "FAIL"]


# --------------------------------------------------------------------------- the pieces
def test_the_search_space_comes_from_the_declared_parameters():
    info = PlayerInfo("p", "a player", params=(
        Param("n", "int", 3, "m", "reading: x", low=0, high=9, step=3),
        Param("flag", "bool", True, "m", "reading: x"),
        Param("style", "choice", "a", "m", "reading: x", choices=("a", "b", "c")),
        Param("w", "float", 0.5, "m", "reading: x", low=0.0, high=2.0),
        Param("open", "int", 1, "m", "reading: x", low=0),
    ))
    dims, fixed = search_space(info)
    assert [d.name for d in dims] == ["n", "flag", "style", "w"] and fixed == {}  # 'open' has no upper end
    got = {d.name: d.distribution() for d in dims}
    assert (got["n"].low, got["n"].high, got["n"].step) == (0, 9, 3)
    assert list(got["flag"].choices) == [False, True] and list(got["style"].choices) == ["a", "b", "c"]
    assert (got["w"].low, got["w"].high) == (0.0, 2.0)
    dims, fixed = search_space(info, {"n": "3,6", "w": "0.25..1", "flag": "false", "open": "0..4"})
    assert fixed == {"flag": False}
    by = {d.name: d for d in dims}
    assert by["n"].values == (3, 6) and (by["w"].low, by["w"].high) == (0.25, 1.0) and by["open"].high == 4
    for bad, needle in (({"n": "4"}, "multiple of 3"), ({"n": "0..12"}, "n=12"), ({"x": "1"}, "unknown parameter"),
                        ({"w": "1..0.5"}, "LOW < HIGH"), ({"style": "a,,b"}, "expected")):
        with pytest.raises(UserError, match=needle):
            search_space(info, bad)


def test_the_field_score_is_the_mean_share_with_its_interval():
    a, b, mirror = share(60, 100, 100), share(30, 90, 100), share(None, 0, 0, mirror=True)
    s = field_score([a, b, mirror])
    assert s["rate"] == pytest.approx((0.6 + 30 / 90 + 0.5) / 3) and s["n"] == 190
    assert s["ci95"][0] < s["rate"] < s["ci95"][1]
    alone = field_score([a])
    assert alone["ci95"] == pytest.approx(a["ci95"], abs=0.02)


# --------------------------------------------------------------------------- a real game, tiny
def test_carnage_greedy_keeps_buying_cars(tmp_path):
    """reserve=100 never buys a car: against fleet the search keeps greedy's reserve of 3."""
    r = train("carnage", player="greedy", against="fleet", trials=4, games_per_trial=200, seed=0,
              space=["reserve=3,100", "side_step=true", "detour=99"], confirm_top=2, out=tmp_path / "c")
    f = r.figures
    tried = {h["label"]: h["value"] for h in f["history"]}
    assert set(tried) == {"greedy", "greedy:reserve=100"}, tried
    assert tried["greedy"] > tried["greedy:reserve=100"]
    assert f["tuned"] == "greedy" and f["against_default"]["mirror"]
    assert_self_contained(parse(r.html), r.html.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- the command line
def test_the_command_trains_prints_and_writes(dicerace, tmp_path, capsys):
    out = tmp_path / "cli"
    with pytest.raises(SystemExit) as exc:
        main(["train", "dicerace", "--player", "cautious", "--against", "plain", "--trials", "3",
              "--games-per-trial", "200", "--space", "from_roll=6", "--out", str(out)])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    tuned = (out / "tuned.txt").read_text().strip()
    assert f"tuned: {tuned}" in text and "Confirmation" in text and "untuned default" in text
    with pytest.raises(SystemExit) as exc:
        main(["train", "dicerace", "--player", "cautious", "--against", "plain", "--trials", "4",
              "--games-per-trial", "200", "--space", "from_roll=6", "--out", str(out), "--resume", "--json"])
    assert exc.value.code == 0
    assert json.loads(capsys.readouterr().out)["trials"] == 4


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--player", "nobody", "--against", "plain"], "unknown player 'nobody'"),
        (["--player", "plain", "--against", "cautious"], "no tunable parameters; players of dicerace with some: cautious"),
        (["--player", "mc", "--against", "plain"], "train tunes a heuristic"),
        (["--player", "cautious:hold_back=2", "--against", "plain"], "give the name only"),
        (["--player", "cautious", "--against", "plain,nobody"], "--against nobody: unknown player"),
        (["--player", "cautious", "--against", "plain,plain"], "given twice"),
        (["--player", "cautious"], "--against: name the players"),
        (["--against", "plain"], "--player: name the heuristic"),
        (["--player", "cautious", "--against", "plain", "--trials", "0"], "--trials 0"),
        (["--player", "cautious", "--against", "plain", "--games-per-trial", "301"], "multiple of 2"),
        (["--player", "cautious", "--against", "plain", "--confirm-top", "0"], "--confirm-top 0"),
        (["--player", "cautious", "--against", "plain", "--space", "hold_back=9"], "hold_back=9"),
        (["--player", "cautious", "--against", "plain", "--space", "hold_back=1", "--space", "from_roll=2"],
         "nothing to search"),
        (["--player", "cautious", "--against", "plain", "--param", "target=0"], "target"),
        (["--player", "cautious", "--against", "plain", "--threads", "0"], "--threads 0"),
    ],
)
def test_mistakes_are_one_line_and_exit_2(dicerace, tmp_path, capsys, monkeypatch, args, needle):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["train", "dicerace", "--out", str(tmp_path / "t"), *args])
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and len(err.splitlines()) == 1 and needle in err, err
    assert not (tmp_path / "t").exists()


def test_train_help_lists_every_option(capsys):
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    text = capsys.readouterr().out
    for option in ("--player", "--against", "--trials", "--games-per-trial", "--seed", "--space", "--confirm-top",
                   "--confirm-games", "--param", "--board", "--player-file", "--out", "--resume", "--threads",
                   "--verbose", "--json"):
        assert option in text, option


def test_a_tuned_player_that_beats_mc_is_a_finding(toy):
    """The finding follows the interval against mc: above 50%, below, or across it."""
    import copy

    from balance.train import beats_mc, findings

    f = copy.deepcopy(toy.figures)
    mc = {"opponent": "mc:rollouts=8", "wins": 540, "decided": 1000, "games": 1000, "rate": 0.54,
          "ci95": [0.509, 0.571], "n": 1000, "mirror": False}
    f["against"] = [*f["against"], mc]
    assert beats_mc(f) and any(line.startswith("Finding:") and "a strategy the search does not see" in line
                               for line in findings(f))
    for rate, ci, verdict in ((0.46, [0.429, 0.491], "loses to it"), (0.5, [0.469, 0.531], "not clearly stronger")):
        f["against"][-1] = {**mc, "rate": rate, "ci95": ci}
        assert not beats_mc(f)
        assert not any(line.startswith("Finding:") for line in findings(f))
        assert any(verdict in line for line in findings(f))
    assert not beats_mc(toy.figures)  # no mc in that field
