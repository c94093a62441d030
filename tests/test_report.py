"""The HTML report and its JSON twin: every figure present, nothing external,
findings computed from the data, the same numbers as the store."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from balance.errors import UserError
from balance.game import Outcomes
from balance.aggregate import Aggregate
from balance.format import percent_ci as _rate_ci
from balance.report import report, report_data
from balance.report.findings import findings
from balance.seating import seatings_for
from balance.sweep import sweep


class Page(HTMLParser):
    """Collects tags, ids, attributes and text of an HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str, str]] = []
        self.ids: dict[str, str] = {}
        self.stack: list[str] = []
        self.svg_in_figure: set[str] = set()
        self.text: list[str] = []
        self.styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for k, v in attrs:
            self.attrs.append((tag, k, v or ""))
            if k == "id":
                self.ids[v] = tag
        if tag == "svg":
            figs = [s for s in self.stack if s.startswith("fig-")]
            if figs:
                self.svg_in_figure.add(figs[-1])
        self.stack.append(dict(attrs).get("id", "") if tag == "figure" else tag)
        self._in_style = tag == "style"

    def handle_endtag(self, tag):
        if self.stack:
            self.stack.pop()
        self._in_style = False

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_data(self, data):
        (self.styles if self._in_style else self.text).append(data)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


def assert_self_contained(page: Page, raw: str) -> None:
    for tag in ("script", "link", "img", "iframe", "object", "embed", "base"):
        assert tag not in page.tags, f"<{tag}> in a self-contained report"
    for tag, key, value in page.attrs:
        if key in ("href", "xlink:href", "src", "srcset", "action", "data"):
            # in-page anchors and inline data (a heatmap's raster) only
            assert value.startswith(("#", "data:image/png;base64,")), f"{tag} {key}={value[:60]!r} points outside the page"
        assert "url(" not in value or "url(#" in value, f"{tag} {key}={value!r}"
    css = "".join(page.styles)
    assert "url(" not in css and "@import" not in css
    assert "http:" not in raw and "https:" not in raw and "//" not in raw.replace("://", "").split("<body>")[0]
    assert "file:" not in raw
    # several inline SVGs share one page: ids unique, every in-page reference resolves
    ids = [v for _, k, v in page.attrs if k == "id"]
    assert len(ids) == len(set(ids))
    refs = {v[1:] for _, k, v in page.attrs if k in ("href", "xlink:href") and v.startswith("#")}
    refs |= set(re.findall(r"url\(#([^)]+)\)", raw))
    assert refs <= set(ids)


@pytest.fixture(scope="module")
def two_param_run(dicerace, tmp_path_factory):
    out = tmp_path_factory.mktemp("rep") / "run"
    return sweep(
        "dicerace", params={"target": "10..40:10", "first_bonus": "0,3", "max_turns": "14"}, games=1500, seed=1,
        players="plain,cautious", rotate_seats=True, out=out,
    )


def test_two_parameter_report(two_param_run, tmp_path):
    html_path = tmp_path / "rep" / "r.html"
    res = report(two_param_run.out, html_path, png=tmp_path / "main.png")
    raw = html_path.read_text(encoding="utf-8")
    page = parse(html_path)
    assert_self_contained(page, raw)
    data = json.loads(res.json.read_text(), parse_constant=lambda c: pytest.fail(f"{c} in strict JSON"))
    ids = [f["id"] for f in data["figures"]]
    for axis in ("target", "first_bonus"):
        for kind in ("win-seat", "win-player", "length", "reasons"):
            assert f"{kind}-{axis}" in ids
    for heat in ("heat-seat0-target-first_bonus", "heat-seat1-target-first_bonus", "heat-length-target-first_bonus",
                 "heat-nowinner-target-first_bonus"):
        assert heat in ids
    for fid in ids:
        assert page.ids.get(f"fig-{fid}") == "figure"
        assert f"fig-{fid}" in page.svg_in_figure, f"figure {fid} has no inline svg"
    # one row per point, every figure with its interval
    assert len(data["points"]) == 8
    table_rows = raw.split('id="points-table"')[1].split("</table>")[0].count("<tr>")
    assert table_rows == 1 + 8
    text = " ".join(page.text)
    for p in data["points"]:
        s = p["seats"][0]
        assert _rate_ci(s["win_rate"], s["ci95"]) in text
    # the numbers are the store's numbers
    first = data["points"][0]
    agg = two_param_run.aggregates[0]
    assert first["seats"][1]["wins"] == int(agg.seat_wins[1]) and first["games"] == 1500
    assert first["turns"]["median_ci95"][0] <= first["turns"]["median"] <= first["turns"]["median_ci95"][1]
    # findings: every sentence in the page, and the turn cap named as a cap
    kinds = {f["kind"] for f in data["findings"]}
    assert {"precision", "fairness", "fairest", "trend", "length", "player", "end_reason", "no_winner"} <= kinds
    for f in data["findings"]:
        assert f["text"].replace("  ", " ") in text
    cap = next(f for f in data["findings"] if f["kind"] == "end_reason" and f["end_reason"] == "turn_limit")
    assert cap["cap_like"] and cap["text"].startswith("Games hit the turn_limit in ")
    # footer: command, seed, versions, commit
    footer = raw.split('<footer id="reproduce">')[1]
    assert "balance sweep dicerace --param target=10..40:10" in footer
    assert "Seed 1" in footer and "numba" in footer and "commit" in footer
    assert res.png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # same data, same bytes
    again = report(two_param_run.out, tmp_path / "again.html")
    assert again.html.read_text(encoding="utf-8") == raw


def test_one_parameter_report_and_incomplete_run(dicerace, tmp_path):
    run = sweep("dicerace", params={"first_bonus": "0..3"}, games=800, seed=3, out=tmp_path / "run")
    (run.out / "points" / "point-000002.parquet").unlink()
    res = report(run.out)
    assert res.html == run.out / "report.html" and res.json == run.out / "report.json"
    data = res.data
    assert [f["id"] for f in data["figures"]] == [
        "win-seat-first_bonus", "length-first_bonus", "reasons-first_bonus", "runaway-first_bonus"
    ]
    assert data["points_finished"] == 3 and data["points_total"] == 4
    assert data["findings"][0]["text"].startswith("Only 3 of 4 points are finished")
    assert_self_contained(parse(res.html), res.html.read_text())


def test_single_point_report(dicerace, tmp_path):
    run = sweep("dicerace", games=500, out=tmp_path / "run")
    res = report(run.out)
    assert [f["id"] for f in res.data["figures"]] == ["win-seat-point", "length-point", "reasons-point", "runaway-point"]
    assert any(f["kind"] == "fairness" for f in res.data["findings"])


def test_report_refuses_what_is_not_a_run(tmp_path):
    with pytest.raises(UserError, match="no such directory"):
        report(tmp_path / "nothing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError, match="is not a sweep run"):
        report(tmp_path / "empty")
    assert list((tmp_path / "empty").iterdir()) == []


# ---- findings from hand-made counts ------------------------------------------------------
def _agg(seat0_wins: int, seat1_wins: int, capped: int, games: int = 10_000) -> Aggregate:
    winner = np.full(games, -1, np.int8)
    winner[:seat0_wins] = 0
    winner[seat0_wins : seat0_wins + seat1_wins] = 1
    reason = np.zeros(games, np.int8)
    reason[games - capped :] = 1
    turns = np.full(games, 30, np.int32)
    score = np.zeros((games, 2), np.int32)
    return Aggregate.from_outcomes(Outcomes(winner, reason, turns, score), seatings_for((0, 1), False), 0, 2, 2)


def test_findings_in_plain_words():
    manifest = {
        "game": "toy", "title": "Toy", "players": ["greedy", "fleet"], "strategies": ["greedy", "fleet"],
        "rotate_seats": False, "end_reasons": ["win", "turn_cap"], "score_name": "score", "seed": 0,
        "games_per_point": 10_000, "axes": [{"name": "car_cost", "kind": "int", "values": [8, 10, 12]}],
        "points": [{"car_cost": 8}, {"car_cost": 10}, {"car_cost": 12}], "params": {"car_cost": 8},
        "end_reason_info": [
            {"name": "win", "meaning": "a seat won", "is_cap": False},
            {"name": "turn_cap", "meaning": "the turn cap", "is_cap": True},
        ],
    }
    aggs = {0: _agg(5620, 4380, 0), 1: _agg(5010, 4990, 0), 2: _agg(4500, 5190, 310)}
    data = report_data(manifest, aggs)
    texts = [f["text"] for f in data["findings"]]
    assert any(t.startswith("Seat 0 (greedy) wins 56.2% (55.2–57.2) at car_cost=8, outside the 45–55% fairness band") for t in texts)
    assert any(t.startswith("The fairest point is car_cost=10") for t in texts)
    assert any("seat 0 (greedy)'s win rate falls from 56.2% to 45.0%" in t and "crosses 50.0% between car_cost=10 and 12" in t for t in texts)
    assert any(t.startswith("Games hit the turn_cap in 3.1% (2.8–3.5) of games at car_cost=12") for t in texts)
    assert any(t.startswith("Nobody wins 3.1% (2.8–3.5) of games at car_cost=12") for t in texts)
    assert data["fairness"]["band"] == pytest.approx([0.45, 0.55])
    fair = next(f for f in data["findings"] if f["kind"] == "fairness" and f.get("seat") == 0)
    assert fair["points_outside"] == [0] and fair["win_rate"] == pytest.approx(0.562)
    # a narrower band of the caller's choosing
    strict = findings(report_data(manifest, aggs, band=(0.49, 0.51)), manifest, aggs)
    assert any("outside the 49–51% fairness band (its whole 95% interval); outside at 2 of 3 points" in f["text"]
               for f in strict)


def test_inside_or_outside_a_band_is_read_from_the_interval():
    """A seat shown as 45.0% (44.0–46.0) is not "inside the 45–55% band" on its point
    estimate: its interval reaches across the edge, so the report cannot tell."""
    manifest = {
        "game": "toy", "title": "Toy", "players": ["greedy", "fleet"], "strategies": ["greedy", "fleet"],
        "rotate_seats": False, "end_reasons": ["win", "turn_cap"], "score_name": "score", "seed": 0,
        "games_per_point": 10_000, "axes": [{"name": "car_cost", "kind": "int", "values": [8, 10, 12]}],
        "points": [{"car_cost": 8}, {"car_cost": 10}, {"car_cost": 12}], "params": {"car_cost": 8},
    }
    aggs = {0: _agg(5620, 4380, 0), 1: _agg(5010, 4990, 0), 2: _agg(4500, 5190, 310)}
    data = report_data(manifest, aggs)
    seat0 = next(f for f in data["findings"] if f["kind"] == "fairness" and f.get("seat") == 0)
    assert seat0["points_outside"] == [0] and seat0["points_cannot_tell"] == [2] and seat0["points_inside"] == [1]
    assert "cannot tell at 1 (car_cost=12)" in seat0["text"] and seat0["verdict"] == "bad"
    # inside only when the whole interval is: 50.1% (49.1–51.1) at car_cost=10
    seat1 = next(f for f in data["findings"] if f["kind"] == "fairness" and f.get("seat") == 1)
    assert seat1["points_inside"] == [1, 2]
    # one point whose only doubt is the interval: "cannot tell", coloured as such
    one = dict(manifest, axes=[{"name": "car_cost", "kind": "int", "values": [12]}], points=[{"car_cost": 12}])
    [f] = [f for f in report_data(one, {0: aggs[2]})["findings"] if f["kind"] == "fairness"]
    assert f["verdict"] == "unsure" and "cannot tell whether it is inside the 45–55% fairness band" in f["text"]
    assert report_data(one, {0: aggs[2]})["summary"]["verdict"] == "unsure"


# ---- findings: one small function each; caps from the manifest ------------------------------
def _manifest(**extra):
    return {
        "game": "toy", "title": "Toy", "players": ["greedy", "fleet"], "strategies": ["greedy", "fleet"],
        "rotate_seats": False, "end_reasons": ["win", "turn_cap"], "score_name": "score", "seed": 0,
        "games_per_point": 10_000, "axes": [{"name": "car_cost", "kind": "int", "values": [8, 10, 12]}],
        "points": [{"car_cost": 8}, {"car_cost": 10}, {"car_cost": 12}], "params": {"car_cost": 8}, **extra,
    }


def test_each_finding_is_a_function_of_the_data():
    from balance.report import findings as F

    aggs = {0: _agg(5620, 4380, 0), 1: _agg(5010, 4990, 0), 2: _agg(4500, 5190, 310)}
    manifest = _manifest(end_reason_info=[{"name": "turn_cap", "meaning": "cap", "is_cap": True}])
    data = report_data(manifest, aggs)
    ctx = F.Context(data, manifest, aggs)
    assert F.incomplete(ctx) == []
    assert [f["kind"] for f in F.seats_keep_players(ctx)] == ["note"]
    [fairest] = F.fairest(ctx)
    assert fairest["point"] == 1 and fairest["text"].startswith("The fairest point is car_cost=10: every seat within")
    [trend] = [F.seat_trend(ctx, data["by_axis"][0], 0)]
    assert trend["kind"] == "trend" and trend["crossings"] == [[10, 12]]
    [cap] = F.end_reason(ctx, "turn_cap")
    assert cap["cap_like"] and "stopped by a cap" in cap["text"]
    assert F.length(ctx) == []  # several points: length is told along each axis
    assert [f["kind"] for f in F.along_axes(ctx)] == ["trend", "trend", "length"]
    # the report's findings are the list run in order
    assert F.findings(data, manifest, aggs) == data["findings"]
    assert [f.__name__ for f in F.FINDINGS][:4] == ["incomplete", "measured_with", "seats_keep_players", "precision"]


def test_caps_come_from_the_manifest_and_old_runs_have_none():
    aggs = {0: _agg(5620, 4380, 0), 1: _agg(5010, 4990, 0), 2: _agg(4500, 5190, 310)}
    old = report_data(_manifest(), aggs)  # a run recorded before end_reason_info: no cap
    cap = next(f for f in old["findings"] if f["kind"] == "end_reason" and f["end_reason"] == "turn_cap")
    assert not cap["cap_like"] and cap["text"].startswith("Games end by turn_cap in 3.1% (2.8–3.5)")
    # a reason the game marks as a cap is one whatever its name; the name alone decides nothing
    named = _manifest(end_reasons=["win", "stalemate"],
                      end_reason_info=[{"name": "stalemate", "meaning": "a turn limit", "is_cap": True}])
    data = report_data(named, aggs)
    cap = next(f for f in data["findings"] if f["kind"] == "end_reason" and f["end_reason"] == "stalemate")
    assert cap["cap_like"] and cap["text"].startswith("Games hit the stalemate in")


def test_the_fairest_values_are_a_set_that_holds_across_seeds(dicerace, tmp_path):
    """Issue 19, defect 3: the argmax of point estimates changes with the seed. The
    report names every value the data cannot tell less fair than the best, with its
    interval; the best of each seed is a candidate under every other seed."""
    found = []
    for seed in range(3):
        run = sweep("dicerace", params={"target": "20..44:4"}, games=2000, seed=seed, players="cautious,plain",
                    out=tmp_path / f"s{seed}")
        data = report(run.out).data
        [f] = [f for f in data["findings"] if f["kind"] == "fairest"]
        found.append(f)
        assert f["point"] == f["candidates"][0] and len(f["candidates"]) > 1
        assert f["text"].startswith("The fairest points, within noise of each other")
        assert "changes with the seed" in f["text"] and "worst seat" in f["text"] and "(" in f["text"]
        assert f["rule"] in (tmp_path / f"s{seed}" / "report.html").read_text().replace("&#x27;", "'")
    assert len({f["point"] for f in found}) > 1  # the best by estimate moves with the seed ...
    for f in found:
        for g in found:
            assert f["point"] in g["candidates"]  # ... but stays among the candidates of every seed


def test_fairest_candidates_rule():
    """A point clearly further from the fair share than the best one is no candidate;
    one within noise of it is."""
    from balance.report.findings import fairest_candidates
    from balance.stats import wilson

    def point(i, wins, n=10_000):
        return {"point": i, "params": {"x": i}, "seats": [
            {"seat": 0, "win_rate": wins / n, "ci95": list(wilson(wins, n))},
            {"seat": 1, "win_rate": 1 - wins / n, "ci95": list(wilson(n - wins, n))}]}

    pts = [point(0, 5600), point(1, 5080), point(2, 5000 - 110), point(3, 5300)]
    best, candidates = fairest_candidates(pts, 0.5)
    assert best["point"] == 1 and [p["point"] for p in candidates] == [1, 2]


def test_a_player_in_several_seats_has_their_share(dicerace):
    """Issue 19, defect 5: a player in two of four seats is judged against 2/4, not 1/4."""
    from balance.api import run
    from balance.summary import summarize

    for rotate in (False, True):
        r = run("dicerace", games=400, players="plain,cautious,plain,plain", rotate_seats=rotate)
        s = summarize(r.aggregate, r.strategies, ["x"] * 4, r.end_reasons)
        by = {p["player"]: p for p in s["strategies"]}
        assert by["plain"]["seats"] == 3 and by["plain"]["fair_share"] == pytest.approx(0.75)
        assert by["cautious"]["seats"] == 1 and by["cautious"]["fair_share"] == pytest.approx(0.25)
        assert r.to_dict()["strategies"][0]["fair_share"] == pytest.approx(0.75)


def test_run_prints_each_players_fair_share(dicerace, capsys):
    from balance.cli import main

    with pytest.raises(SystemExit):
        main(["run", "dicerace", "--games", "400", "--players", "plain,cautious,plain,plain"])
    out = capsys.readouterr().out
    table = out.split("Win rate by player")[1].split("How games end")[0]
    assert "fair share" in table
    rows = {line.split("│")[1].strip(): line.split("│")[-2].strip() for line in table.splitlines() if line.count("│") > 2}
    assert rows == {"plain": "75.0%", "cautious": "25.0%"}


def test_each_player_gets_its_own_band_when_the_shares_differ(dicerace, tmp_path):
    """plain in two of three seats: its fair share is 2/3 and its band is drawn around it,
    apart from cautious's 1/3 (one grey band for one seat would judge plain wrongly)."""
    run = sweep("dicerace", params={"first_bonus": "0,1"}, games=300, players="plain,cautious,plain",
                rotate_seats=True, out=tmp_path / "run")
    res = report(run.out)
    bands = {b["player"]: b for b in res.data["fairness"]["players"]}
    assert bands["plain"]["fair_share"] == pytest.approx(2 / 3) and bands["cautious"]["fair_share"] == pytest.approx(1 / 3)
    assert bands["plain"]["band"] == pytest.approx([0.6, 2 / 3 * 1.1])
    texts = [f["text"] for f in res.data["findings"] if f["kind"] == "player"]
    assert any(t.startswith("Player plain (2 of 3 seats: fair share 66.7%, band 60–73.33%)") for t in texts), texts
    page = res.html.read_text()
    figure = page.split('id="fig-win-player-first_bonus"')[1].split("</figure>")[0]
    assert 'id="f1-fair-band-0"' in figure and 'id="f1-fair-band-1"' in figure
    assert "fair share 66.7%: 2 of 3 seats" in figure


def test_when_no_point_is_clearly_fairer_the_report_says_so():
    aggs = {0: _agg(5010, 4990, 0), 1: _agg(4990, 5010, 0), 2: _agg(5030, 4970, 0)}
    data = report_data(_manifest(), aggs)
    [f] = [f for f in data["findings"] if f["kind"] == "fairest"]
    assert f["candidates"] == [0, 1, 2] and f["verdict"] == "unsure"
    assert f["text"].startswith("No point is clearly fairer than the others: all 3 are within noise")
    assert "no point is clearly fairer than the others" in data["summary"]["sentences"][1]


def test_no_sign_change_between_players_says_what_would_have_shown():
    from balance.report.compare import between_players

    point = {
        "point": 0, "params": {"x": 1}, "games": 100,
        "seats": [{"win_rate": 0.6, "ci95": [0.55, 0.65], "wins": 60, "games": 100},
                  {"win_rate": 0.4, "ci95": [0.35, 0.45], "wins": 40, "games": 100}],
        "end_reason_shares": {"a": {"share": 1.0, "ci95": [0.96, 1.0]}},
    }
    [note] = between_players(["p", "q"], [{"points": [point], "by_axis": []}] * 2)
    assert note["kind"] == "note" and note["detectable_seat_edge"] == pytest.approx(0.14, abs=0.001)
    assert "at 100 games a point, a seat edge smaller than 14.0 points would usually not show" in note["text"]
