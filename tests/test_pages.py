"""Every page a designer shares, parsed: the sweep report (one player list,
several lists, two parameters), the tournament page, the run page
(``balance run --report``) and the check page (``balance check --html``).

On every page: every in-page reference (``href="#…"``, ``<use>``, ``url(#…)``)
resolves to an id of the same document; every plotted series has its band (a
Wilson band or whisker for a win rate, the p10–p90 band for game length, the
interval of a mean) and its markers, each marker with its hover text; bars and
heatmap cells have theirs; the summary box and the table of contents are there;
colours follow verdicts.  Nothing here needs a browser."""

from __future__ import annotations

import json
import re
import struct
from html.parser import HTMLParser
from pathlib import Path

import pytest

from balance.cli import main

VOID = {"meta", "br", "link", "img", "input", "hr", "wbr", "source", "col", "area", "base", "embed", "param", "track"}


class Node:
    def __init__(self, tag: str, attrs: dict[str, str], parent: "Node | None") -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node] = []
        self.text: list[str] = []

    def iter(self):
        yield self
        for c in self.children:
            yield from c.iter()

    def all_text(self) -> str:
        return "".join(self.text) + "".join(c.all_text() for c in self.children)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())


class Tree(HTMLParser):
    """A small DOM of an HTML page (inline SVG included)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {}, None)
        self.cur = self.root
        self.styles: list[str] = []

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs}, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, {k: v or "" for k, v in attrs}, self.cur))

    def handle_endtag(self, tag):
        node = self.cur
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.cur = node.parent

    def handle_data(self, data):
        if self.cur.tag == "style":
            self.styles.append(data)
        self.cur.text.append(data)


def parse(path: Path) -> Tree:
    tree = Tree()
    tree.feed(path.read_text(encoding="utf-8"))
    tree.close()
    return tree


def call(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main([str(a) for a in argv])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


@pytest.fixture(scope="module")
def pages(sweep_pages, run_page):
    return {**sweep_pages, "run": run_page}


@pytest.fixture(scope="module")
def run_page(dicerace, tmp_path_factory):
    """balance run --report, four seats: plain and cautious in two each."""
    from balance.api import run, run_report

    d = tmp_path_factory.mktemp("runpage")
    r = run("dicerace", games=800, players="plain,plain,cautious,cautious", rotate_seats=True, seed=4)
    return run_report(r, d / "run.html").html


@pytest.fixture(scope="module")
def sweep_pages(dicerace, tmp_path_factory):
    """The sweep pages and the tournament page, from small runs of the toy game."""
    from balance.api import report, sweep, tournament
    from balance.sweep import sweep_set

    d = tmp_path_factory.mktemp("pages")
    out = {}
    one = sweep("dicerace", params={"first_bonus": "0..3"}, games=600, seed=2, players="plain,cautious",
                rotate_seats=True, out=d / "one")
    out["sweep"] = report(one.out, d / "sweep.html").html
    two = sweep("dicerace", params={"target": "10..30:10", "first_bonus": "0,2"}, games=400, seed=1,
                players="plain,cautious", out=d / "two")
    out["two-parameter"] = report(two.out, d / "two.html", png=d / "two.png").html
    lists = sweep_set("dicerace", ["plain,plain", "cautious,plain"], params={"first_bonus": "0..2"}, games=400,
                      out=d / "lists", report=str(d / "lists.html"), png=str(d / "lists.png"))
    out["several-lists"] = lists.report
    t = tournament("dicerace", players="plain,cautious", games=200, out=d / "tour")
    out["tournament"] = t.html
    return out


@pytest.fixture(scope="module")
def check_page(dicerace, tmp_path_factory):
    """balance check --html after a rule change (a failing check)."""
    import os

    d = tmp_path_factory.mktemp("checkpage")
    old = os.getcwd()
    os.chdir(d)
    try:
        Path("balance.toml").write_text('[game]\nname = "dicerace"\nplayers = ["plain", "cautious"]\ngames = 3000\n'
                                        '[targets]\nseat_win_rate = [0.4, 0.6]\n')
        with pytest.raises(SystemExit):
            main(["baseline"])
        Path("balance.toml").write_text('[game]\nname = "dicerace"\nplayers = ["plain", "cautious"]\ngames = 3000\n'
                                        '[params]\nfirst_bonus = 3\n[targets]\nseat_win_rate = [0.4, 0.6]\n')
        with pytest.raises(SystemExit) as exc:
            main(["check", "--html", "out/check.html", "--junit", "out/junit.xml"])
        assert exc.value.code == 1
        return d / "out" / "check.html"
    finally:
        os.chdir(old)


KINDS = ["sweep", "two-parameter", "several-lists", "tournament", "run", "check"]


@pytest.fixture(params=KINDS)
def page(request):
    kind = request.param
    path = (
        request.getfixturevalue("check_page") if kind == "check"
        else request.getfixturevalue("run_page") if kind == "run"
        else request.getfixturevalue("sweep_pages")[kind]
    )
    return kind, path, parse(path)


@pytest.fixture(params=[k for k in KINDS if k != "check"])
def plotted(request):
    """The pages with plots (the check page has tables only)."""
    kind = request.param
    path = request.getfixturevalue("run_page") if kind == "run" else request.getfixturevalue("sweep_pages")[kind]
    return kind, path, parse(path)


def _refs(tree: Tree, raw: str) -> set[str]:
    refs = set()
    for node in tree.root.iter():
        for key in ("href", "xlink:href"):
            v = node.attrs.get(key, "")
            if v.startswith("#"):
                refs.add(v[1:])
    refs |= set(re.findall(r"url\(#([^)]+)\)", raw))
    return refs


def test_every_reference_resolves_to_an_id_of_the_page(page):
    kind, path, tree = page
    raw = path.read_text(encoding="utf-8")
    ids = [n.attrs["id"] for n in tree.root.iter() if "id" in n.attrs]
    assert len(ids) == len(set(ids)), f"{kind}: duplicate ids"
    missing = _refs(tree, raw) - set(ids)
    assert not missing, f"{kind}: {len(missing)} references point at nothing, e.g. {sorted(missing)[:3]}"
    for tag in ("script", "link", "img", "iframe", "object"):
        assert not any(n.tag == tag for n in tree.root.iter()), f"{kind}: <{tag}> on a self-contained page"
    assert "http:" not in raw and "https:" not in raw


def _groups(tree: Tree) -> dict[str, Node]:
    return {n.attrs["id"]: n for n in tree.root.iter() if n.tag == "g" and "id" in n.attrs}


def test_every_series_has_its_band_and_markers_each_with_hover_text(plotted):
    kind, path, tree = plotted
    groups = _groups(tree)
    ids = {n.attrs["id"] for n in tree.root.iter() if "id" in n.attrs}
    lines = {gid: node for gid, node in groups.items() if re.search(r"-s-.+-line$", gid)}
    assert lines, f"{kind}: no plotted series"
    for gid, node in lines.items():
        band = groups.get(gid[: -len("line")] + "band")
        assert band is not None, f"{kind}: series {gid} has no band"
        assert any(n.tag == "path" for n in band.iter()), f"{kind}: band of {gid} is empty"
        uses = [n for n in node.iter() if n.tag == "use"]
        assert uses, f"{kind}: series {gid} has no markers"
        for u in uses:
            assert u.attrs.get("xlink:href", u.attrs.get("href", ""))[1:] in ids
            titles = [c for c in u.parent.children if c.tag == "title"]
            assert titles and titles[0].all_text().strip(), f"{kind}: a marker of {gid} has no hover text"
    # bars and heatmap cells carry their value too
    for gid, node in groups.items():
        if re.search(r"-(bar-\d+(-\d+)?|cell-\d+-\d+)$", gid):
            assert any(c.tag == "title" and c.all_text().strip() for c in node.children), f"{kind}: {gid}"


def test_the_series_are_the_ones_the_captions_promise(pages):
    """Win rate by seat: one series per seat, each with its Wilson band; length:
    the median with its p10–p90 band and the mean with its interval."""
    for kind in ("sweep", "several-lists", "two-parameter", "run"):
        tree = parse(pages[kind])
        for fig in (n for n in tree.root.iter() if n.tag == "figure"):
            fid = fig.attrs["id"]
            gids = [n.attrs["id"] for n in fig.iter() if n.tag == "g" and "id" in n.attrs]
            if fid.endswith(("fig-win-seat-first_bonus", "fig-win-seat-target", "fig-win-seat-point")):
                seats = 4 if kind == "run" else 2
                for s in range(seats):
                    assert any(g.endswith(f"-s-seat{s}-line") for g in gids), (kind, fid, s)
                    assert any(g.endswith(f"-s-seat{s}-band") for g in gids), (kind, fid, s)
            if "fig-length-" in fid:
                for key in ("median", "mean"):
                    assert any(g.endswith(f"-s-{key}-band") for g in gids), (kind, fid, key)


def test_every_page_has_a_summary_box_and_a_table_of_contents(page):
    kind, path, tree = page
    nodes = list(tree.root.iter())
    boxes = [n for n in nodes if "summary" in n.classes]
    assert boxes, f"{kind}: no summary box"
    box = boxes[0]
    verdicts = [c for c in box.classes if c.startswith("verdict-")]
    assert verdicts and verdicts[0][len("verdict-"):] in ("good", "bad", "unsure", "info")
    text = box.all_text()
    assert 1 <= len([c for c in box.children if c.tag == "p"]) <= 5
    assert "plain" in text or "cautious" in text, f"{kind}: the summary does not name its players: {text}"
    # the box comes before the table of contents, which comes before the sections
    order = [n for n in nodes if n.tag in ("nav", "section")]
    assert "summary" in order[0].classes and order[1].tag == "nav"
    links = [a.attrs["href"][1:] for a in order[1].iter() if a.tag == "a"]
    ids = {n.attrs["id"] for n in nodes if "id" in n.attrs}
    assert len(links) >= 2 and set(links) <= ids


def _css_colours(tree: Tree) -> dict[str, str]:
    css = "".join(tree.styles)
    variables = dict(re.findall(r"--([\w-]+):\s*([^;]+);", css))
    out = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        m = re.search(r"(?<![-\w])color:\s*([^;]+)", body)
        if not m:
            continue
        value = m.group(1).strip()
        value = variables.get(value[6:-1], value) if value.startswith("var(") else value
        for sel in selectors.split(","):
            out[sel.strip()] = value.strip()
    return out


def test_colours_follow_the_verdict_not_the_kind_of_finding(page):
    """Good news is not in the warning colour: a finding, a table cell or a row is
    coloured by its verdict alone (issue 19, defect 4)."""
    from balance.report.html import COLOURS

    kind, path, tree = page
    colours = _css_colours(tree)
    for v, colour in COLOURS.items():
        assert colours.get(f".verdict-{v}") == colour, (v, colours.get(f".verdict-{v}"))
    # no rule colours a finding by its kind
    for sel in colours:
        assert not re.fullmatch(r"(ul\.findings )?li\.[a-z_]+", sel) or "verdict" in sel, sel
    items = [n for n in tree.root.iter() if n.tag == "li" and any(c.startswith("verdict-") for c in n.classes)]
    assert items
    for li in items:
        [v] = [c for c in li.classes if c.startswith("verdict-")]
        for other in li.classes - {v}:
            assert f"li.{other}" not in colours and f".{other}" not in colours, other


def test_finding_colours_are_the_twins_verdicts(pages):
    for kind in ("sweep", "two-parameter", "run"):
        twin = json.loads(pages[kind].with_suffix(".json").read_text())
        tree = parse(pages[kind])
        ul = next(n for n in tree.root.iter() if n.tag == "section" and n.attrs.get("id") == "findings")
        items = [n for n in ul.iter() if n.tag == "li"]
        assert [f"verdict-{f['verdict']}" for f in twin["findings"]] == [
            next(c for c in li.classes if c.startswith("verdict-")) for li in items
        ]
        for f, li in zip(twin["findings"], items):
            if f["kind"] == "fairness" and not f["points_outside"] and not f["points_cannot_tell"]:
                assert f["verdict"] == "good"  # "every seat inside the band" is good news, in green


def test_a_sweep_of_several_lists_draws_every_interval(sweep_pages):
    pages = sweep_pages
    """Issue 19, defect 1: with several --players lists every SVG reference pointed at
    nothing (ids r0-r0f0-…, references #r0f0-…): no bands, no markers."""
    tree = parse(pages["several-lists"])
    raw = pages["several-lists"].read_text()
    ids = {n.attrs["id"] for n in tree.root.iter() if "id" in n.attrs}
    uses = [n for n in tree.root.iter() if n.tag == "use"]
    assert uses and all(u.attrs["xlink:href"][1:] in ids for u in uses)
    for i in (0, 1):
        section = next(n for n in tree.root.iter() if n.attrs.get("id") == f"players-{i}")
        gids = [n.attrs["id"] for n in section.iter() if n.tag == "g" and "id" in n.attrs]
        assert any(g.startswith(f"r{i}-") and g.endswith("-s-seat0-band") for g in gids)
        assert any(n.tag == "use" for n in section.iter())
    assert raw.count('class="summary') == 3  # the page's and each list's


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_stand_alone_pngs_keep_their_context(sweep_pages, dicerace):
    pages = sweep_pages
    """Issue 19, defect 13: the two-parameter PNG says what it pools over; the PNG of
    several lists shows every list, one titled panel each."""
    from balance.report.data import report_data
    from balance.report.figures import png_figure, png_set_figure
    from balance.store import open_run

    two = pages["two-parameter"].parent / "two"
    manifest, aggs = open_run(two)
    data = report_data(manifest, aggs)
    fig = png_figure(data, manifest)
    title = fig._suptitle.get_text()
    assert "pooled over first_bonus" in title and "plain, cautious" in title and "800 games per value" in title
    runs = []
    for i, label in enumerate(["plain, plain", "cautious, plain"]):
        m, a = open_run(pages["several-lists"].parent / "lists" / f"players-{i}")
        runs.append((label, report_data(m, a), m))
    fig = png_set_figure(runs)
    assert [ax.get_title(loc="left") for ax in fig.axes] == [
        "players plain, plain; 400 games per value", "players cautious, plain; 400 games per value"]
    assert "2 player lists" in fig._suptitle.get_text()
    # the files written: the several-list PNG is one panel per list, so taller
    w1, h1 = _png_size(pages["two-parameter"].with_suffix(".png"))
    w2, h2 = _png_size(pages["several-lists"].with_suffix(".png"))
    assert w1 == w2 and h2 > 1.6 * h1


def test_the_run_page_judges_each_player_against_its_own_fair_share(run_page):
    pages = {"run": run_page}
    """Issue 19, defect 5: a player in two of four seats has a fair share of 50%, not 25%."""
    twin = json.loads(pages["run"].with_suffix(".json").read_text())
    assert twin["kind"] == "run"
    bands = {b["player"]: b for b in twin["fairness"]["players"]}
    for name in ("plain", "cautious"):
        assert bands[name]["seats"] == 2 and bands[name]["fair_share"] == 0.5
        assert bands[name]["band"] == pytest.approx([0.45, 0.55])
    players = [f for f in twin["findings"] if f["kind"] == "player"]
    assert {f["player"] for f in players} == {"plain", "cautious"}
    assert all("2 of 4 seats: fair share 50.0%" in f["text"] for f in players)
    text = parse(pages["run"]).root.all_text()
    assert "Rules played" in text and "Board: the game's default board." in text
    assert "balance run dicerace --games 800 --seed 4 --players plain,plain,cautious,cautious --rotate-seats" in text


def test_run_report_and_check_html_from_the_command_line(dicerace, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = call(capsys, "run", "dicerace", "--games", "300", "--param", "target=15", "--report", "r.html")
    assert code in (0, None), err
    assert "report: r.html" in out and Path("r.html").is_file() and Path("r.json").is_file()
    text = parse(Path("r.html")).root.all_text()
    assert "Rules that differ from the game's defaults: target=15 (default 20)." in text
    # a page that cannot be written is refused before any game: one line, exit 2
    Path("adir.html").mkdir()
    for bad in ("adir.html", "r.txt"):
        code, out, err = call(capsys, "run", "dicerace", "--games", "300", "--report", bad)
        assert code == 2 and err.startswith("error: --report") and err.count("\n") == 1, err
    code, out, err = call(capsys, "check", "--html", "x.txt")
    assert code == 2 and err.startswith("error: --html x.txt") and err.count("\n") == 1


def test_the_check_page_colours_rows_by_verdict(check_page):
    tree = parse(check_page)
    table = next(n for n in tree.root.iter() if n.attrs.get("id") == "metrics-0")
    rows = [n for n in table.iter() if n.tag == "tr" and any(c.startswith("verdict-") for c in n.classes)]
    by_metric = {r.children[0].all_text(): r for r in rows}
    targets = next(n for n in tree.root.iter() if n.attrs.get("id") == "targets-0")
    outside = [r for r in targets.iter() if r.tag == "tr" and "OUTSIDE" in r.all_text()]
    assert outside and all("verdict-bad" in r.classes for r in outside)
    seat0 = by_metric["seat_win_rate[0]"]
    assert "verdict-bad" in seat0.classes and "REGRESSION" in seat0.all_text()
    assert "title" in seat0.attrs and "95% CI" in seat0.attrs["title"]
    assert any("verdict-good" in r.classes for r in rows)
    assert not any(m.startswith("strategy_win_rate") for m in by_metric)  # compared once, as the seats'
    box = next(n for n in tree.root.iter() if "summary" in n.classes)
    assert "verdict-bad" in box.classes and box.all_text().startswith("FAIL")
    text = tree.root.all_text()
    assert "would usually not show" in text and "Compared once: strategy_win_rate[plain] = seat_win_rate[0]" in text
    # the twins are still written
    assert (check_page.parent / "junit.xml").is_file()
