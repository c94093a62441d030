"""``balance tune``: rule values that meet the targets for every line-up (balance.tune).

On the toy game (dicerace: ``target`` sets the length, ``first_bonus`` the first
seat's edge): the answer meets the targets again on games of a seed neither the
tuning nor the confirmation played, every trial plays the same games, the
promising trials play more, a study resumes exactly after Ctrl-C, an
unattainable target is said plainly with the nearest miss, the page is whole,
and every mistake is one line with exit status 2.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from balance.cli import main
from balance.errors import Interrupted, UserError
from balance.tune import offset, parse_target_options, tune
from tests.test_report import assert_self_contained, parse

SPACE = ["target=8..40", "first_bonus=0..6"]
TARGETS = ["seat_win_rate=0.30..0.70", "turns_median=12..17"]
LINEUPS = ["plain,plain", "cautious,cautious"]


def _trials(folder) -> list[tuple[int, str, list[float]]]:
    """(number, label, values) of every complete trial, read from the SQLite study itself."""
    with sqlite3.connect(folder / "study.db") as db:
        rows = db.execute(
            "SELECT t.number, a.value_json FROM trials t JOIN trial_user_attributes a ON a.trial_id = t.trial_id "
            "WHERE a.key = 'label' AND t.state = 'COMPLETE' ORDER BY t.number"
        ).fetchall()
        values = db.execute(
            "SELECT t.number, v.objective, v.value FROM trials t JOIN trial_values v ON v.trial_id = t.trial_id "
            "WHERE t.state = 'COMPLETE' ORDER BY t.number, v.objective"
        ).fetchall()
    by = {}
    for n, _, v in values:
        by.setdefault(n, []).append(v)
    return [(n, json.loads(label), by[n]) for n, label in rows]


def _figures_on(game, values, players, seed, games, targets):
    """Each target read on a plain run of ``games`` games of ``seed`` (not through balance.tune)."""
    from balance.check.comparison import evaluate_targets
    from balance.check.metrics import counts_of, metrics_of
    from balance.config import parse_targets
    from balance.executors import LocalExecutor
    from balance.registry import get_game
    from balance.runner import execute, tasks_for
    from balance.runspec import RunSpec

    run = RunSpec.of(game, params=values, players=players, seed=seed, games=games)
    r = run.resolved()
    with LocalExecutor() as ex:
        agg = execute(tasks_for(run), ex)[0]
    bands = parse_targets(parse_target_options(targets), get_game(game), "test")
    return evaluate_targets(metrics_of(counts_of(agg, r.labels, r.spec.end_reason_names)), bands)


@pytest.fixture(scope="module")
def toy(dicerace, tmp_path_factory):
    out = tmp_path_factory.mktemp("tune") / "run"
    return tune("dicerace", params=SPACE, targets=TARGETS, players=LINEUPS, trials=16, rungs=[200, 800, 3200],
                seed=4, confirm_games=6000, out=out)


# --------------------------------------------------------------------------- the answer
def test_the_answer_meets_every_target_again_on_fresh_seeds(toy):
    f = toy.figures
    assert toy.meets, f["findings"]
    assert set(toy.values) == {"target", "first_bonus"}
    # every figure of the confirmation (two seats and the median, for both line-ups) inside with 95% confidence
    assert len(f["answer"]["figures"]) == 2 * 3 and all(x["verdict"] == "ok" for x in f["answer"]["figures"])
    assert all(x["n"] == 6000 for x in f["answer"]["figures"])
    # ... and again on a seed neither the tuning (4) nor the confirmation played
    fresh = 987_654_321
    assert fresh not in (f["seed"], f["confirm_seed"])
    for players in LINEUPS:
        read = _figures_on("dicerace", toy.values, players, fresh, 6000, TARGETS)
        assert len(read) == 3 and all(t.verdict == "ok" for t in read), [t.sentence() for t in read]
    assert f["findings"][0].startswith(f"{f['answer']['label']} meets every target")


def test_every_trial_plays_the_same_games_and_confirmation_other_ones(toy):
    """A trial's counts are those of a plain run of games 0..g-1 of the tuning seed; the
    confirmation's those of a run on the confirmation seed, never the tuning seed."""
    from balance.check.metrics import counts_of
    from balance.executors import LocalExecutor
    from balance.runner import execute, tasks_for
    from balance.runspec import RunSpec

    import optuna

    study = optuna.load_study(study_name="tune", storage=f"sqlite:///{toy.out / 'study.db'}")
    t = next(t for t in study.trials if t.state.name == "COMPLETE" and "repeat_of" not in t.user_attrs)
    for players, counts in zip(LINEUPS, t.user_attrs["counts"]):
        run = RunSpec.of("dicerace", params=t.user_attrs["values"], players=players, seed=4,
                         games=t.user_attrs["games"])
        with LocalExecutor() as ex:
            agg = execute(tasks_for(run), ex)[0]
        assert counts_of(agg, run.resolved().labels, ["target", "turn_limit"]) == counts
    f = toy.figures
    kept = json.loads((toy.out / "confirm.json").read_text())
    label = f["answer"]["label"]
    run = RunSpec.of("dicerace", params=toy.values, players=LINEUPS[0], seed=f["confirm_seed"], games=6000)
    with LocalExecutor() as ex:
        agg = execute(tasks_for(run), ex)[0]
    assert counts_of(agg, run.resolved().labels, ["target", "turn_limit"]) == kept[label][0]
    assert f["confirm_seed"] != f["seed"]


def test_promising_trials_play_more_games(toy):
    hist = toy.figures["history"]
    games = [h["games"] for h in hist if h["repeat_of"] is None]
    assert set(games) <= {200, 800, 3200}
    # few trials go on: the lower rungs hold more trials than the higher ones, and some went up
    assert games.count(200) > games.count(800) >= games.count(3200)
    assert games.count(800) + games.count(3200) >= 1
    # the first trial is the rules' current values (inside the searched space)
    assert hist[0]["values"] == {"target": 20, "first_bonus": 0}
    assert all(b["best"] <= a["best"] for a, b in zip(hist, hist[1:]))


def test_two_targets_make_a_two_objective_study_and_importance_per_target(toy):
    import optuna

    study = optuna.load_study(study_name="tune", storage=f"sqlite:///{toy.out / 'study.db'}")
    assert len(study.directions) == 2
    imp = toy.figures["importance"]
    assert set(imp) == {"seat_win_rate", "turns_median"}
    # the length is the target's doing, the first seat's edge mostly the bonus's
    assert imp["turns_median"]["values"]["target"] > imp["turns_median"]["values"]["first_bonus"]
    assert imp["seat_win_rate"]["values"]["first_bonus"] > imp["seat_win_rate"]["values"]["target"]


def test_the_trade_off_is_the_pareto_front_of_the_settings_tried(toy):
    front = toy.figures["front"]
    tried = [h for h in toy.figures["history"] if h["repeat_of"] is None]
    keys = ["seat_win_rate", "turns_median"]
    assert front and len({r["label"] for r in front}) == len(front)

    def dominates(a, b):
        return all(a[k] <= b[k] for k in keys) and any(a[k] < b[k] for k in keys)

    for r in front:  # no setting tried does better on every target
        assert not any(dominates(h["objectives"], r["objectives"]) for h in tried)
    for h in tried:  # and every other setting is matched or beaten by one of the front
        assert any(dominates(r["objectives"], h["objectives"]) or r["objectives"] == h["objectives"] for r in front)


def test_the_page_and_json_are_whole(toy):
    raw = toy.html.read_text(encoding="utf-8")
    assert_self_contained(parse(toy.html), raw)
    for needle in ("Findings", "on fresh games", "Parameter importance", "Every trial", "95% interval",
                   "balance tune dicerace --param target=8..40", toy.figures["answer"]["label"]):
        assert needle in raw, needle
    data = json.loads((toy.out / "tuned.json").read_text())
    assert data["answer"]["values"] == toy.values and data["answer"]["meets"] is True


def test_offset_is_half_widths_from_the_middle():
    assert offset(0.5, 0.48, 0.52) == 0
    assert offset(0.52, 0.48, 0.52) == pytest.approx(1)
    assert offset(30, 18, 24, "quantile") == pytest.approx(3)
    # a band at a figure's own bound aims at that bound: no gridlock is best, not half a percent
    assert offset(0.0, 0.0, 0.01) == 0 and offset(0.01, 0.0, 0.01) == pytest.approx(1)
    assert offset(0.02, 0.0, 0.01) == pytest.approx(2)
    assert offset(1.0, 0.9, 1.0) == 0 and offset(0.85, 0.9, 1.0) == pytest.approx(1.5)
    assert offset(0, 0, 10, "mean") == 0


# --------------------------------------------------------------------------- a target no rules meet
def test_an_unattainable_target_is_said_plainly_with_the_nearest_miss(dicerace, tmp_path):
    # dicerace's first seat has an edge at every target length: no rule here makes it 49-51%
    r = tune("dicerace", params=["target=30..40"], targets=["seat_win_rate=0.49..0.51", "turns_median=20..28"],
             players=["plain,plain"], trials=6, rungs=[300], confirm_top=1, confirm_games=4000, out=tmp_path / "t",
             report=False)
    f = r.figures
    assert not r.meets
    assert f["findings"][0].startswith("No setting tried meets every target with 95% confidence")
    failing = f["answer"]["failing"]
    assert failing and {x["metric"] for x in failing} <= {"seat_win_rate[0]", "seat_win_rate[1]"}
    assert any("seat_win_rate[0] for plain vs plain is" in line and "outside the target" in line
               for line in f["findings"])
    assert any("No setting tried brings seat_win_rate inside its band" in line for line in f["findings"])


# --------------------------------------------------------------------------- resuming
def test_ctrl_c_loses_only_the_trial_in_flight_and_resume_continues_exactly(dicerace, tmp_path):
    args = dict(params=SPACE, targets=TARGETS, players=LINEUPS, rungs=[100, 400], seed=2, confirm_top=1,
                confirm_games=1000, report=False)
    out = tmp_path / "run"
    done = []

    def interrupt(n):
        if len(done) >= 3:  # Ctrl-C in the first trial played after three were complete
            raise KeyboardInterrupt

    with pytest.raises(Interrupted, match="[0-9]+ trials kept") as exc:
        tune("dicerace", trials=9, out=out, on_games=interrupt, on_trial=done.append, **args)
    assert "--resume" in exc.value.message
    kept = _trials(out)
    assert [n for n, _, _ in kept] == list(range(len(done))) and len(kept) >= 3
    with pytest.raises(UserError, match="--resume"):
        tune("dicerace", trials=9, out=out, **args)
    with pytest.raises(UserError, match="another tuning .*seed"):
        tune("dicerace", trials=9, out=out, resume=True, **{**args, "seed": 3})
    resumed = tune("dicerace", trials=9, out=out, resume=True, **args)
    again = _trials(out)
    assert again[: len(kept)] == kept and len(again) == 9
    whole = tune("dicerace", trials=9, out=tmp_path / "whole", **args)
    assert [(label, v) for _, label, v in again] == [(label, v) for _, label, v in _trials(tmp_path / "whole")]
    # the same answer (its trial number aside: the dropped trial took a number in the study)
    assert {k: v for k, v in resumed.figures["answer"].items() if k != "trial"} == \
        {k: v for k, v in whole.figures["answer"].items() if k != "trial"}


# --------------------------------------------------------------------------- targets from balance.toml
def test_targets_and_players_come_from_balance_toml(dicerace, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "balance.toml").write_text(
        '[game]\nname = "dicerace"\nplayers = ["plain", "plain"]\n[targets]\nturns_median = [13, 16]\n',
        encoding="utf-8")
    r = tune("dicerace", params=["target=8..40"], trials=4, rungs=[200], confirm_top=1, confirm_games=2000,
             out=tmp_path / "t", report=False)
    assert r.figures["targets"] == {"turns_median": [13.0, 16.0]}
    assert r.figures["lineups"] == [["plain", "plain"]]


# --------------------------------------------------------------------------- the command line
def test_the_command_tunes_prints_and_writes(dicerace, tmp_path, capsys):
    out = tmp_path / "cli"
    argv = ["tune", "dicerace", "--param", "target=8..40", "--target", "turns_median=13..16", "--players",
            "plain,plain", "--trials", "4", "--rungs", "200", "--confirm-games", "2000", "--out", str(out)]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 0
    text = "".join(capsys.readouterr().out.split())  # the terminal may wrap a long path anywhere
    assert "onfreshgames" in text and "turns_median" in text and "report.html" in text
    with pytest.raises(SystemExit) as exc:
        main([*argv[:argv.index("--trials") + 1], "5", *argv[argv.index("--trials") + 2:], "--resume", "--json"])
    assert exc.value.code == 0
    assert json.loads(capsys.readouterr().out)["trials"] == 5


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--target", "turns_median=13..16"], "--param: give a rule to search"),
        (["--param", "target=8..40"], "no targets"),
        (["--param", "target=0..40", "--target", "turns_median=13..16"], "parameter target=0: expected an integer in 1..1000"),
        (["--param", "target=8..2000", "--target", "turns_median=13..16"], "expected an integer in 1..1000"),
        (["--param", "nothing=1..2", "--target", "turns_median=13..16"], "nothing"),
        (["--param", "target=12", "--target", "turns_median=13..16"], "give at least one rule as a range"),
        (["--param", "target=8..40", "--target", "turns_median=16..13"], "low 16 is above high 13"),
        (["--param", "target=8..40", "--target", "turns_median=13..13"], "an empty band"),
        (["--param", "target=8..40", "--target", "seat_win_rate=0.6..0.7"], "impossible: 2 seats' win rates"),
        (["--param", "target=8..40", "--target", "seat_win_rate=0.4..1.2"], "proportions in 0..1"),
        (["--param", "target=8..40", "--target", "end_reason.target=0.6..1",
          "--target", "end_reason.turn_limit=0.5..1"], "impossible: the end reasons' shares"),
        (["--param", "target=8..40", "--target", "strategy_win_rate=0.4..0.6"], "a player's win rate needs"),
        (["--param", "target=8..40", "--target", "wins=1..2"], "unknown target"),
        (["--param", "target=8..40", "--target", "turns_median"], "expected NAME=LOW..HIGH"),
        (["--param", "target=8..40", "--target", "turns_median=13..16", "--players", "plain,nobody"],
         "unknown player 'nobody'"),
        (["--param", "target=8..40", "--target", "turns_median=13..16", "--rungs", "400,100"], "increasing"),
        (["--param", "target=8..40", "--target", "turns_median=13..16", "--trials", "0"], "--trials 0"),
        (["--param", "target=8..40", "--target", "turns_median=13..16", "--threads", "0"], "--threads 0"),
    ],
)
def test_mistakes_are_one_line_and_exit_2(dicerace, tmp_path, capsys, monkeypatch, args, needle):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["tune", "dicerace", "--out", str(tmp_path / "t"), *args])
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and len(err.splitlines()) == 1 and needle in err, err
    assert not (tmp_path / "t").exists()


def test_tune_help_lists_every_option(capsys):
    with pytest.raises(SystemExit):
        main(["tune", "--help"])
    text = capsys.readouterr().out
    for option in ("--param", "--target", "--players", "--trials", "--rungs", "--seed", "--confirm-top",
                   "--confirm-games", "--board", "--player-file", "--out", "--resume", "--threads", "--scheduler",
                   "--verbose", "--json"):
        assert option in text, option
