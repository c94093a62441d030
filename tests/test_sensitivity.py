"""``balance sensitivity``: which rules matter (balance.sensitivity).

On the toy game, whose sensitivities are known by its rules: the length grows
with ``target`` (steps to win: a d6 moves 3.5 steps a turn, so 20 more steps are
about 11 more player turns for two seats) and barely with ``first_bonus`` (a head start for seat 0 on its first turn only);
the first seat's edge is the bonus's doing first, the target's second (a
shorter race leaves the first mover's tempo more weight); ``max_turns`` (a cap
no game of these lengths reaches) changes nothing at all, so on common random
numbers its effect is exactly zero.
"""

from __future__ import annotations

import json

import pytest

from balance.cli import main
from balance.errors import Interrupted, UserError
from balance.sensitivity import Factor, sensitivity
from tests.test_report import assert_self_contained, parse

RANGES = ["target=10..30", "first_bonus=0..3", "max_turns=300..400"]


@pytest.fixture(scope="module")
def toy(dicerace, tmp_path_factory):
    out = tmp_path_factory.mktemp("sens") / "run"
    events = []
    r = sensitivity("dicerace", params=RANGES, players="plain,plain", games=2000, seed=1, out=out,
                    on_plan=lambda c: events.append(("plan", c)), on_games=lambda n: events.append(("games", n)))
    r.events = events
    return r


def _row(table, name):
    return next(r for r in table if r["name"] == name)


def test_the_ranking_is_the_known_one(toy):
    m = toy.figures["metrics"]
    # length: target >> first_bonus > max_turns = 0, the intervals apart
    assert toy.ranking("turns_mean") == ["target", "first_bonus", "max_turns"]
    t, b, c = (_row(m["turns_mean"]["morris"], n) for n in ("target", "first_bonus", "max_turns"))
    assert t["ci95"][0] > b["ci95"][1] > 0
    assert c["mu_star"] == 0 and c["ci95"] == [0.0, 0.0]
    # about one turn per seat per ~3.5 steps: 20 steps more is about 11 more player turns
    assert 8 < t["mu_star"] < 14
    # first seat's edge: first_bonus > target > max_turns = 0
    assert toy.ranking("first_seat_edge") == ["first_bonus", "target", "max_turns"]
    b, t, c = (_row(m["first_seat_edge"]["morris"], n) for n in ("first_bonus", "target", "max_turns"))
    assert b["ci95"][0] > t["ci95"][1] and t["ci95"][0] > 0 and c["mu_star"] == 0
    # the edge falls as the race gets longer and grows with the bonus (signed mean effects)
    assert t["mu"] < 0 < b["mu"]


def test_sobol_for_the_few_that_matter(toy):
    f = toy.figures
    assert set(f["selected"]) == {"target", "first_bonus"}  # max_turns screened out
    sob = {r["name"]: r for r in f["metrics"]["turns_mean"]["sobol"]["indices"]}
    assert sob["target"]["ST"] > 0.8 and sob["first_bonus"]["ST"] < 0.1
    assert sob["target"]["ST_ci95"][0] > sob["first_bonus"]["ST_ci95"][1]
    edge = {r["name"]: r for r in f["metrics"]["first_seat_edge"]["sobol"]["indices"]}
    assert edge["first_bonus"]["S1"] > edge["target"]["S1"]
    for r in [*sob.values(), *edge.values()]:
        assert r["S1_ci95"][0] <= r["S1"] <= r["S1_ci95"][1] and r["ST_ci95"][0] <= r["ST"] <= r["ST_ci95"][1]


def test_the_tornado_moves_one_parameter_at_a_time(toy):
    d = toy.figures["metrics"]["turns_mean"]
    swings = {r["name"]: r for r in d["tornado"]}
    assert swings["max_turns"]["swing"] == 0
    assert swings["target"]["at_low"]["value"] < d["baseline"]["value"] < swings["target"]["at_high"]["value"]
    assert (swings["target"]["low"], swings["target"]["high"]) == (10, 30)
    lo = swings["target"]["at_low"]
    assert lo["ci95"][0] <= lo["value"] <= lo["ci95"][1] and lo["n"] == 2000


def test_the_cost_is_stated_before_any_game_and_is_what_was_played(toy):
    kinds = [k for k, _ in toy.events]
    assert kinds[0] == "plan" and kinds.count("plan") == 1
    cost = toy.events[0][1]
    k = 3
    assert cost["oat"] == 2 * k + 1 and cost["morris"] == 10 * (k + 1)
    assert cost["sobol_at_most"] == 64 * (k + 2) and cost["games_per_point"] == 2000
    played = sum(n for kind, n in toy.events if kind == "games")
    f = toy.figures
    assert played == f["games_played"] == f["points"] * 2000
    assert f["points"] == cost["oat"] + cost["morris"] + 64 * (2 + 2)  # Sobol over the two that matter


def test_every_point_plays_the_same_games(toy):
    """A point's counts are those of a plain run of games 0..G-1 of the master seed under its rules."""
    from balance.check.metrics import counts_of
    from balance.executors import LocalExecutor
    from balance.runner import execute, tasks_for
    from balance.runspec import RunSpec

    recs = [json.loads(line) for line in (toy.out / "points.jsonl").read_text().splitlines()]
    for rec in (recs[0], recs[-1]):
        run = RunSpec.of("dicerace", params=rec["rules"], players="plain,plain", seed=1, games=2000)
        with LocalExecutor() as ex:
            agg = execute(tasks_for(run), ex)[0]
        assert counts_of(agg, ["plain"], ["target", "turn_limit"]) == rec["counts"]


def test_the_page_and_json_are_whole(toy):
    raw = toy.html.read_text(encoding="utf-8")
    assert_self_contained(parse(toy.html), raw)
    for needle in ("Tornado", "Morris screening", "Sobol S1", "first_seat_edge", "turns_mean", "95%"):
        assert needle in raw, needle
    data = json.loads((toy.out / "sensitivity.json").read_text())
    assert data["metrics"]["turns_mean"]["morris"][0]["name"] == "target"


def test_factors_map_the_unit_scale_back_to_rules():
    f = Factor("money", "int", 10, 40, 10)
    assert [f.value(x) for x in (10, 14.9, 15.1, 40, 41)] == [10, 10, 20, 40, 40]
    c = Factor("hq", "choice", None, None, values=("fixed", "chosen", "anywhere"))
    assert c.bounds == [0.0, 3.0] and [c.value(x) for x in (0, 1, 2.5, 3)] == ["fixed", "chosen", "anywhere",
                                                                               "anywhere"]


def test_different_players_rotate_through_the_seats(dicerace, tmp_path):
    r = sensitivity("dicerace", params=["target=10..30", "first_bonus=0", "max_turns=400"], players="plain,cautious",
                    games=400, trajectories=2, sobol_params=0, out=tmp_path / "s", report=False,
                    metrics=["first_seat_edge", "strategy_win_rate[plain]"])
    assert r.figures["rotate_seats"] and r.figures["selected"] == []
    rec = json.loads((tmp_path / "s" / "points.jsonl").read_text().splitlines()[0])
    # each player sat in each seat in half the games
    assert rec["counts"]["seat_player_games"] == [[200, 200], [200, 200]]


def test_a_parameter_not_given_varies_around_its_value_or_over_its_allowed_range(dicerace):
    from balance.sensitivity import factors_for

    local, held, left = factors_for(dicerace, {})
    assert [(f.name, f.low, f.high) for f in local] == [("target", 10, 40), ("max_turns", 200, 800)]
    assert held == {} and left == ["first_bonus"]  # at 0: half to twice 0 is 0 (a switch is varied when asked)
    wide, _, _ = factors_for(dicerace, {}, "allowed")
    assert [(f.name, f.low, f.high) for f in wide] == [("target", 1, 1000), ("first_bonus", 0, 100),
                                                        ("max_turns", 1, 100_000)]
    # around the value held elsewhere, and a range given as given
    near, held, _ = factors_for(dicerace, {"first_bonus": "3", "max_turns": "300..350"}, current={"target": 8})
    assert [(f.name, f.low, f.high) for f in near] == [("target", 4, 16), ("max_turns", 300, 350)]
    assert held == {"first_bonus": 3}


def test_ctrl_c_keeps_the_points_played_and_resume_gives_the_same_figures(dicerace, tmp_path):
    args = dict(params=RANGES, players="plain,plain", games=500, trajectories=4, sobol_n=8, seed=2, report=False)
    out = tmp_path / "run"
    seen = []

    def interrupt(n):
        seen.append(n)
        if len(seen) == 12:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted, match="points kept in .*--resume") as exc:
        sensitivity("dicerace", out=out, on_games=interrupt, **args)
    kept = (out / "points.jsonl").read_text().splitlines()
    assert len(kept) == 11, exc.value.message
    with pytest.raises(UserError, match="--resume"):
        sensitivity("dicerace", out=out, **args)
    again = []
    resumed = sensitivity("dicerace", out=out, resume=True, on_games=again.append, **args)
    whole = sensitivity("dicerace", out=tmp_path / "whole", **args)
    assert resumed.figures["metrics"] == whole.figures["metrics"]
    assert sum(again) == whole.figures["games_played"] - 11 * 500  # the kept points not played again


def test_the_command_prints_the_cost_and_the_ranking(dicerace, tmp_path, capsys):
    out = tmp_path / "cli"
    with pytest.raises(SystemExit) as exc:
        main(["sensitivity", "dicerace", "--param", "target=10..30", "--param", "first_bonus=0..3", "--param",
              "max_turns=400", "--players", "plain,plain", "--games", "300", "--trajectories", "4", "--sobol-n", "8",
              "--metric", "turns_mean", "--out", str(out)])
    assert exc.value.code == 0
    captured = capsys.readouterr()
    assert "cost: 5 one-at-a-time + 12 Morris + at most 32 Sobol points x 300 games" in captured.err
    assert "turns_mean: the parameters by Morris mu*" in captured.out and "target" in captured.out
    data = json.loads((out / "sensitivity.json").read_text())
    assert list(data["metrics"]) == ["turns_mean"] and data["held"]["max_turns"] == 400


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--param", "nothing=1..2"], "nothing"),
        (["--param", "target=0..30"], "parameter target=0: expected an integer in 1..1000"),
        (["--param", "target=30..10"], "LOW < HIGH"),
        (["--param", "target=5", "--param", "first_bonus=1", "--param", "max_turns=9"], "nothing to vary"),
        (["--metric", "wins"], "--metric wins: unknown; allowed: first_seat_edge"),
        (["--sobol-n", "60"], "power of 2"),
        (["--trajectories", "1"], "--trajectories 1"),
        (["--games", "0"], "--games 0"),
        (["--players", "plain,nobody"], "unknown player 'nobody'"),
        (["--threads", "0"], "--threads 0"),
        (["--span", "wide"], "--span wide: allowed: local, allowed"),
        (["--players", "plain,cautious", "--games", "301"], "--games 301: expected a multiple of 2"),
    ],
)
def test_mistakes_are_one_line_and_exit_2(dicerace, tmp_path, capsys, monkeypatch, args, needle):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["sensitivity", "dicerace", "--out", str(tmp_path / "s"), *args])
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and len(err.splitlines()) == 1 and needle in err, err
    assert not (tmp_path / "s").exists()


def test_sensitivity_help_lists_every_option(capsys):
    with pytest.raises(SystemExit):
        main(["sensitivity", "--help"])
    text = capsys.readouterr().out
    for option in ("--param", "--metric", "--players", "--games", "--trajectories", "--sobol-n", "--sobol-params",
                   "--seed", "--span", "--board", "--player-file", "--out", "--resume", "--threads", "--scheduler", "--json"):
        assert option in text, option
