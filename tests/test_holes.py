"""Rule holes and player stalls (balance.holes): a line-up whose games end at
a simulation's cap in more than 1% of games is named, with the share and its
interval, in the run's text and JSON, its page, and the tournament; a game's
stalling players (GameSpec.stallers) say what they exploit and which rule
closes it.  Bahama's waiter without patience stands on the last citizen while
it is losing (sims/bahama/RULES.md: a third of the games against nearest run to
the cap), and must_move closes the hole."""

from __future__ import annotations

import json

import pytest

from balance.cli import main
from balance.holes import LIMIT, find_holes
from balance.registry import get_game

STALLER = "waiter:patience=0"


@pytest.fixture(scope="module")
def bahama():
    return get_game("bahama")


def test_a_seated_staller_is_a_rule_hole_that_its_setting_closes(bahama):
    params = bahama.resolve_params({})
    (hole,) = find_holes(bahama, {"no_waiting": 760, "turn_limit": 1240}, [STALLER, "mc"], params)
    assert hole.kind == "rule hole" and hole.closed_by == "must_move=true" and hole.staller == STALLER
    assert hole.low < 0.62 < hole.high and hole.certain
    text = hole.message()
    assert text.startswith("62.0% (59.9–64.1) of 2,000 games ended at the cap (turn_limit) with waiter:patience=0, mc")
    assert "--param must_move=true closes it" in text


def test_the_same_stall_once_the_rule_is_set_is_the_players_own(bahama):
    params = bahama.resolve_params({"must_move": True})
    (hole,) = find_holes(bahama, {"no_waiting": 1960, "turn_limit": 40}, [STALLER, "nearest"], params)
    assert hole.kind == "player stall or rule hole" and not hole.closed_by
    assert "already set" in hole.message()


def test_no_staller_seated_names_the_line_up_and_suggests_the_games_setting(bahama):
    params = bahama.resolve_params({})
    (hole,) = find_holes(bahama, {"no_waiting": 1900, "turn_limit": 100}, ["nearest", "nearest"], params)
    assert hole.kind == "player stall or rule hole" and hole.closed_by == "must_move=true"
    assert "try --param must_move=true" in hole.message()


def test_caps_under_the_limit_or_uncertain(bahama):
    params = bahama.resolve_params({})
    assert find_holes(bahama, {"no_waiting": 9990, "turn_limit": 10}, ["nearest", "nearest"], params) == []
    # 3 of 200 games: above 1% by its estimate, but the interval reaches below it
    (hole,) = find_holes(bahama, {"no_waiting": 197, "turn_limit": 3}, ["nearest", "nearest"], params)
    assert not hole.certain and hole.low < LIMIT < hole.share and "cannot tell" in hole.message()
    # a game whose end reasons have no cap has no holes
    carnage = get_game("carnage")
    assert find_holes(carnage, {"deliveries": 50, "cars": 50}, ["greedy", "fleet"], carnage.resolve_params({})) == []


def _call(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.mark.slow
def test_a_stalling_run_says_so_in_its_output_json_and_page(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = ["run", "bahama", "--players", f"{STALLER},nearest", "--rotate-seats", "--games", "400", "--seed", "0", "--no-config"]
    code, out, _ = _call(capsys, *argv, "--json")
    assert code == 0
    data = json.loads(out)
    (hole,) = data["holes"]
    assert hole["kind"] == "rule hole" and hole["closed_by"] == "must_move=true" and hole["share"] > 0.1
    code, out, _ = _call(capsys, *argv, "--report", "run.html")
    assert code == 0
    assert "a rule hole" in out and "must_move=true closes it" in " ".join(out.split())
    page = (tmp_path / "run.html").read_text(encoding="utf-8")
    assert "must_move=true closes it" in page
    box = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))["summary"]
    assert box["verdict"] == "bad" and any("must_move=true closes it" in s for s in box["sentences"])
    # closed by the rule: nothing to say
    code, out, _ = _call(capsys, *argv, "--param", "must_move=true", "--json")
    assert code == 0 and json.loads(out)["holes"] == []


@pytest.mark.slow
def test_a_tournament_with_stallers_seats_them_and_names_their_tables(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = _call(capsys, "tournament", "bahama", "--players", "nearest,courier", "--stallers",
                         "--games", "200", "--no-seat-tables", "--out", "t", "--json")
    assert code == 0
    data = json.loads(out)
    assert STALLER in data["players"] and "blocker:patience=0" in data["players"]
    holes = data["holes"]
    assert holes and all(STALLER in h["players"] or "blocker:patience=0" in h["players"] for h in holes)
    report = json.loads((tmp_path / "t" / "report.json").read_text(encoding="utf-8"))
    assert any(f["kind"] == "hole" and f["verdict"] == "bad" for f in report["findings"])
    code, _, err = _call(capsys, "tournament", "carnage", "--players", "greedy,fleet", "--stallers", "--games", "10")
    assert code == 2 and "no stalling players" in err and len(err.strip().splitlines()) == 1
