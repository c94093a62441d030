"""The board pictures (``GameSpec.board_svg``, ``balance board GAME --svg FILE``).

For every registered game with a board, and for user board files of every
built-in game: the SVG parses; it has a title naming the board and where it
was read from, and a legend; every piece of the board's data (node, field,
street, cell, tile, HQ site, spawn card, ...) is drawn, counted against the
loaded data, each with hover text; no two marks overlap and no label hits a
mark or another label (computed from the coordinates); no text is smaller than
10 px when the picture is 800 px wide; every reference resolves.  The
picture is read from the SVG, never from the drawing code's own bookkeeping
(only the text-width estimate is shared: :func:`balance.svg.text_box`).
"""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from balance.registry import game_names, get_game
from balance.svg import Box, text_box

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent

# ----------------------------------------------------------------------------- user boards
CARNAGE_RING = """
name = "ring town"
hq = ["s0", "s3"]
spawn_cards = [["s0", "s2"], ["s1", "s4"], ["s2", "s5"], ["s3", "s6"], ["s4", "s0"], ["s5", "s1"], ["s6", "s2"],
  ["s0", "s3"], ["s1", "s5"], ["s2", "s6"], ["s3", "s1"], ["s4", "s2"], ["s5", "s3"], ["s6", "s4"], ["s0", "s5"],
  ["s1", "s6"]]
[[street]]
name = "s0"
neighbours = ["s1", "s5", "s6"]
[[street]]
name = "s1"
neighbours = ["s0", "s2", "s6"]
[[street]]
name = "s2"
neighbours = ["s1", "s3", "s6"]
[[street]]
name = "s3"
neighbours = ["s2", "s4", "s6"]
[[street]]
name = "s4"
neighbours = ["s3", "s5", "s6"]
[[street]]
name = "s5"
neighbours = ["s4", "s0", "s6"]
[[street]]
name = "s6"
neighbours = ["s0", "s1", "s2", "s3", "s4", "s5"]
"""

TAGCITY_SMALL = """
name = "small town"
[sheet]
rows = 4
cols = 5
districts = ["AABBB", "AABBC", "ACCCC", "AACCC"]
district_names = ["A", "B", "C"]
row_values = [[2, 1], [2, 1], [2, 1], [3, 0]]
col_values = [[1, 0], [1, 0], [1, 0], [1, 0], [-2, 5]]
district_values = [[4, 2], [3, 1], [5, 2]]
remote = [-1, -3]
[shapes]
dot = [[0, 0]]
bar = [[0, 0], [0, 1]]
ell = [[0, 0], [1, 0], [1, 1]]
tee = [[0, 0], [0, 1], [0, 2], [1, 1]]
[hq]
ring_a = ["bar", "ell", "tee"]
centre = ["dot"]
faces = [[0, 1], [1, 2], [2, 0], [0, 1], [1, 2], [2, 0]]
pool_b = ["bar", "ell", "tee"]
"""


def _carnage_grid(tmp_path: Path) -> Path:
    """A 3x3-block city in the default file's naming (drawn as a grid)."""
    from sims.carnage.board import grid_streets

    names, adjacency, _ = grid_streets(4, 4)
    cards = ", ".join(f'["{names[k % len(names)]}", "{names[(k * 7 + 3) % len(names)]}"]' for k in range(16))
    lines = ['name = "three by three"', f'hq = ["{names[0]}", "{names[-1]}", "{names[5]}"]', f"spawn_cards = [{cards}]"]
    for i, name in enumerate(names):
        lines += ["[[street]]", f'name = "{name}"', "neighbours = [" + ", ".join(f'"{names[j]}"' for j in adjacency[i]) + "]"]
    path = tmp_path / "three.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _bahama_reversed(tmp_path: Path) -> Path:
    """The default roads with the fields listed in reverse order and a name."""
    text = (ROOT / "sims/bahama/boards/default.toml").read_text(encoding="utf-8")
    start = text.index("fields = [")
    end = text.index("]", start)
    from sims.bahama.board import CARDS

    fields = "fields = [" + ", ".join(f'"{c}"' for c in reversed(CARDS))
    text = text[:start] + fields + text[end:]
    text = text.replace('name = "Bahama Taxi (issue 5)"', 'name = "Backwards island"')
    path = tmp_path / "backwards.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


USER_BOARDS = {
    "taxi village": ("taxi", lambda tmp: ROOT / "tests/taxi/boards/village.toml"),
    "carmarace mini": ("carmarace", lambda tmp: ROOT / "tests/carmarace/data/mini.toml"),
    "carnage grid": ("carnage", _carnage_grid),
    "carnage ring": ("carnage", lambda tmp: _write(tmp, "ring.toml", CARNAGE_RING)),
    "bahama reversed": ("bahama", _bahama_reversed),
    "tagcity small": ("tagcity", lambda tmp: _write(tmp, "small.toml", TAGCITY_SMALL)),
}


# ----------------------------------------------------------------------------- reading a picture
def _tag(e: ET.Element) -> str:
    return e.tag.removeprefix(NS)


def _classed(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def _names(root: ET.Element, cls: str) -> Counter:
    return Counter(e.get("data-name") for e in _classed(root, cls))


def _text(e: ET.Element) -> str:
    """An element's own text (its hover <title> left out)."""
    return (e.text or "") + "".join((c.tail or "") for c in e)


def _all_text(root: ET.Element) -> str:
    return " ".join(_text(e) for e in root.iter() if _tag(e) == "text")


def _hover(e: ET.Element) -> str:
    t = next((c for c in e if _tag(c) == "title"), None)
    return "" if t is None else (t.text or "")


def expected(game: str, board) -> dict[str, Counter]:
    """What the picture must draw, by class: the data-names, from the loaded board."""
    if game == "carnage":
        return {
            "street": Counter(board.names),
            "hq": Counter(None for _ in board.hq),
            "card-origin": Counter(None for _ in board.spawn_cards),
            "card-destination": Counter(None for _ in board.spawn_cards),
        }
    if game == "bahama":
        roads = Counter(f"{board.names[i]}-{board.names[j]}" for i, a in enumerate(board.adjacency) for j in a if i < j)
        return {"field": Counter(board.names), "road": roads}
    if game == "taxi":
        return {
            "node": Counter(board.nodes),
            "street": Counter(s.name for s in board.streets),
            "entry": Counter(None for _ in board.entries),
            "exit": Counter(None for _ in board.exits),
        }
    if game == "tagcity":
        return {
            "cell": Counter(f"{r},{c}" for r in range(board.rows) for c in range(board.cols)),
            "tile": Counter(board.shape_names),
            "hq-tile": Counter([*board.ring_a, *board.centre]),
            "face": Counter(str(v) for v in range(1, 7)),
            "remote": Counter(str(k) for k in range(len(board.remote))),
        }
    if game == "carmarace":
        return {"node": Counter(board.nodes)}
    # another game: at least every node its board data names
    return {"node": Counter(get_game(game).board_json(board).get("nodes") or [])}


def _circles(root: ET.Element) -> list[tuple[float, float, float, ET.Element]]:
    """Every circle that stands for something (it has a class): x, y, r."""
    return [
        (float(e.get("cx")), float(e.get("cy")), float(e.get("r")), e)
        for e in root.iter()
        if _tag(e) == "circle" and e.get("class")
    ]


def _label_boxes(root: ET.Element):
    """Every text of the drawing but the heading, the legend and the text inside a mark."""
    legend = {id(e) for g in _classed(root, "legend") for e in g.iter()}
    out = []
    for e in root.iter():
        if _tag(e) == "text" and id(e) not in legend and e.get("class") not in ("inlabel", "title", "subtitle"):
            out.append((text_box(float(e.get("x")), float(e.get("y")), _text(e), float(e.get("font-size")),
                                 e.get("text-anchor") or "start", e.get("font-weight") == "bold"), _text(e)))
    return out


def check_picture(svg: str, game: str, board, where: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert _tag(root) == "svg"
    # a title naming the board, and where it was read from
    assert _tag(root[0]) == "title" and root[0].text
    heading = [_text(e) for e in _classed(root, "title")]
    sub = " ".join(_text(e) for e in _classed(root, "subtitle"))
    assert len(heading) == 1 and heading[0] == root[0].text
    assert where in sub, (where, sub)
    # a legend with entries
    legends = _classed(root, "legend")
    assert len(legends) == 1 and len([e for e in legends[0].iter() if _tag(e) == "text"]) >= 4
    # every piece of the data, each with its hover text
    for cls, names in expected(game, board).items():
        drawn = _classed(root, cls)
        assert _names(root, cls) == names, cls
        assert all(_hover(e) for e in drawn), f"{cls} without hover text"
    # nothing overlaps: marks, labels
    marks = _circles(root)
    for (x1, y1, r1, a), (x2, y2, r2, b) in itertools.combinations(marks, 2):
        assert math.hypot(x1 - x2, y1 - y2) >= r1 + r2 - 1e-6, (_hover(a), _hover(b))
    labels = _label_boxes(root)
    for (b1, t1), (b2, t2) in itertools.combinations(labels, 2):
        assert not b1.hits(b2), (t1, t2)
    rects = [
        (Box(float(e.get("x")), float(e.get("y")), float(e.get("x")) + float(e.get("width")),
             float(e.get("y")) + float(e.get("height"))), e)
        for e in root.iter() if _tag(e) == "rect" and e.get("class")
    ]
    for box, t in labels:
        assert not any(box.hits(b) for b, _ in rects), t
        for x, y, r, e in marks:
            near_x = min(max(x, box.x0), box.x1)
            near_y = min(max(y, box.y0), box.y1)
            assert math.hypot(x - near_x, y - near_y) >= r - 1e-6, (t, _hover(e))
    # readable at 800 px, absolute coordinates, every reference resolves
    width = float(root.get("viewBox").split()[2])
    sizes = [float(e.get("font-size")) for e in root.iter() if _tag(e) == "text"]
    assert min(sizes) * 800 / width >= 10
    assert not any(e.get("transform") for e in root.iter())
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    refs = re.findall(r'href="#([^"]+)"|url\(#([^)]+)\)', svg)
    assert all((a or b) in ids for a, b in refs)
    return root


# ----------------------------------------------------------------------------- the tests
DRAWN = [g for g in game_names() if get_game(g).load_board(None) is not None]


def test_every_built_in_game_has_a_board_to_draw():
    assert {"carnage", "bahama", "taxi", "tagcity", "carmarace"} <= set(DRAWN)


@pytest.mark.parametrize("case", sorted(USER_BOARDS))
def test_a_user_board_is_drawn_the_same_way(case, tmp_path):
    game, make = USER_BOARDS[case]
    path = make(tmp_path)
    spec = get_game(game)
    board = spec.load_board(str(path))
    root = check_picture(spec.board_svg(board), game, board, str(path))
    default = spec.board_svg(spec.load_board(None))
    assert ET.tostring(root) != ET.tostring(ET.fromstring(default))


def test_carnage_draws_a_grid_only_when_the_names_and_neighbours_are_a_grid(tmp_path):
    from sims.carnage.drawing import grid_geometry

    spec = get_game("carnage")
    assert grid_geometry(spec.load_board(None)) is not None
    assert grid_geometry(spec.load_board(str(_carnage_grid(tmp_path)))) is not None
    assert grid_geometry(spec.load_board(str(_write(tmp_path, "ring.toml", CARNAGE_RING)))) is None
    # grid names whose neighbours a grid would not give: drawn as a graph, never as a false grid
    text = (ROOT / "sims/carnage/boards/default.toml").read_text(encoding="utf-8")
    text = text.replace('name = "h0.0"\nneighbours = ["h0.1", "v0.0", "v0.1"]', 'name = "h0.0"\nneighbours = ["h0.1", "v0.0", "v0.1", "v3.3"]')
    text = text.replace('name = "v3.3"\nneighbours = [', 'name = "v3.3"\nneighbours = ["h0.0", ')
    board = spec.load_board(str(_write(tmp_path, "odd.toml", text)))
    assert grid_geometry(board) is None
    root = check_picture(spec.board_svg(board), "carnage", board, "odd.toml")
    assert all(_tag(e) == "circle" for e in _classed(root, "street"))


def test_carnage_marks_each_card_on_its_origin_and_destination():
    spec = get_game("carnage")
    board = spec.load_board(None)
    root = ET.fromstring(spec.board_svg(board))
    for k, (o, d) in enumerate(board.spawn_cards):
        starts = [e for e in _classed(root, "card-origin") if _hover(e).startswith(f"spawn card {k} starts here")]
        ends = [e for e in _classed(root, "card-destination") if _hover(e).startswith(f"spawn card {k} ends here")]
        assert len(starts) == len(ends) == 1
        assert f"street {board.names[o]} " in _hover(starts[0]) and f"street {board.names[d]} " in _hover(ends[0])
    legend = _all_text(_classed(root, "legend")[0])
    for k, (o, d) in enumerate(board.spawn_cards):
        assert f"card {k}: {board.names[o]} → {board.names[d]}, {int(board.dist[o, d])} blocks" in legend  # 2-5 blocks


def test_taxi_names_every_destination_and_marks_every_light():
    spec = get_game("taxi")
    board = spec.load_board(None)
    root = ET.fromstring(spec.board_svg(board))
    legend = _all_text(_classed(root, "legend")[0])
    for name, node in board.destinations:
        assert name in legend
    lit = [e for e in _classed(root, "node") if "traffic light" in _hover(e)]
    assert sorted(e.get("data-name") for e in lit) == sorted(board.nodes[i] for i in board.lights)
    for g in range(len(board.guides)):
        assert f"guide {g + 1} (seat {g}):" in legend


def test_tagcity_shows_every_value_of_the_sheet():
    spec = get_game("tagcity")
    board = spec.load_board(None)
    root = ET.fromstring(spec.board_svg(board))
    texts = [_text(e) for e in root.iter() if _tag(e) == "text"]
    assert Counter(t for t in texts if re.fullmatch(r"-?\d+/-?\d+", t)) == Counter(
        f"{h}/{lo}" for h, lo in (*board.row_values, *board.col_values)
    )
    assert [_text(e) for e in root.iter() if _tag(e) == "text" and _text(e).startswith(("+", "-")) and "/" not in _text(e)] == [
        f"{v:+d}" for v in board.remote
    ]
    cells = {e.get("data-name"): e for e in _classed(root, "cell")}
    for r, line in enumerate(board.districts):
        for c, ch in enumerate(line):
            assert f"district {ch} " in _hover(cells[f"{r},{c}"])


def test_carmarace_spaces_never_overlap_and_keep_their_runs():
    """The issue's defect: the default map's spaces overlapped.  Every chain of the
    file stays in one row, one column a space, within a band."""
    spec = get_game("carmarace")
    board = spec.load_board(None)
    root = check_picture(spec.board_svg(board), "carmarace", board, "default board")
    at = {e.get("data-name"): (float(e.get("cx")), float(e.get("cy"))) for e in _classed(root, "node")}
    for a, b in (("b1", "b2"), ("c25", "c26"), ("w1", "w2"), ("k9", "k10")):
        (x1, y1), (x2, y2) = at[a], at[b]
        assert y1 == y2 and x2 > x1


# ----------------------------------------------------------------------------- the command
def _call(capsys, *argv):
    from balance.cli import main

    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.mark.parametrize("game", ["carnage", "bahama", "taxi", "tagcity", "carmarace"])
def test_board_svg_command_writes_the_picture(game, capsys, tmp_path):
    target = tmp_path / "out" / f"{game}.svg"
    code, out, err = _call(capsys, "board", game, "--svg", str(target))
    assert code in (0, None), err
    assert f"wrote{target}" in "".join(out.split())  # the terminal may wrap a long path anywhere
    spec = get_game(game)
    assert target.read_text(encoding="utf-8") == spec.board_svg(spec.load_board(None))


def test_board_svg_command_with_a_user_board(capsys, tmp_path):
    target = tmp_path / "village.svg"
    board = ROOT / "tests/taxi/boards/village.toml"
    code, _, err = _call(capsys, "board", "taxi", "--board", str(board), "--svg", str(target))
    assert code in (0, None), err
    assert "Test village" in target.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--svg", "{tmp}"], "is a directory"),
        (["--svg", "{tmp}/afile/x.svg"], "cannot write"),
        (["--board", "{tmp}/missing.toml", "--svg", "{tmp}/x.svg"], "does not exist"),
        (["--board", "{tmp}/afile", "--svg", "{tmp}/x.svg"], "not valid TOML"),
    ],
)
def test_board_svg_command_refuses_a_bad_path_or_board_in_one_line(argv, message, capsys, tmp_path):
    (tmp_path / "afile").write_text("not = [toml", encoding="utf-8")
    before = sorted(p.name for p in tmp_path.rglob("*"))
    code, out, err = _call(capsys, "board", "carnage", *[a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


# ----------------------------------------------------------------------------- on report pages
def _section(html_text: str) -> str:
    return html_text.split('<section id="board">', 1)[1].split("</section>", 1)[0]


def test_the_report_section_draws_the_default_board():
    from balance.report.board import run_board_section

    html_text = run_board_section({"game": "carnage", "run": {"board": None, "board_sha256": None}})
    assert "http:" not in html_text and "https:" not in html_text  # a page names no address
    body = _section(html_text)
    spec = get_game("carnage")
    svg = body[body.index("<svg") : body.index("</svg>") + 6]
    root = check_picture(svg, "carnage", spec.load_board(None), "default board")
    assert "width:100%" in root.get("style") and "max-height:none" in root.get("style")
    assert "default board" in body.split("<figcaption>")[1]


def test_the_report_section_draws_the_board_file_played_and_never_another(tmp_path):
    from balance.report.board import run_board_section
    from balance.store import file_sha256

    path = tmp_path / "village.toml"
    path.write_bytes((ROOT / "tests/taxi/boards/village.toml").read_bytes())
    played = {"game": "taxi", "run": {"board": str(path), "board_sha256": file_sha256(path)}}
    body = _section(run_board_section(played))
    assert "Test village" in body and str(path) in body
    check_picture(body[body.index("<svg") : body.index("</svg>") + 6], "taxi", get_game("taxi").load_board(str(path)), str(path))
    # the file changed since the run: a sentence, no picture of another board
    path.write_text(path.read_text(encoding="utf-8").replace("Test village", "Another village"), encoding="utf-8")
    body = _section(run_board_section(played))
    assert "<svg" not in body and "has changed since the run" in body
    path.unlink()
    body = _section(run_board_section(played))
    assert "<svg" not in body and "no longer exists" in body


def test_a_game_without_a_picture_gets_no_board_section():
    from balance.report.board import run_board_section

    assert run_board_section({"game": "dicerace", "run": {"board": None}}) == ""
    assert run_board_section({"game": "no-such-game", "run": {"board": None}}) == ""


def test_a_sweep_report_shows_the_board_it_played(dicerace, tmp_path, monkeypatch):
    """The page assembles the section: a sweep of a toy game that draws its track."""
    from balance import registry
    from balance.report import report
    from balance.svg import Picture, Swatch
    from balance.sweep import sweep
    from tests.toygame import DiceRace

    class TrackRace(DiceRace):
        name = "trackrace"
        title = "Track Race (test game)"

        def load_board(self, path=None):
            return {"squares": 12} if path is None else super().load_board(path)

        def board_json(self, board):
            return dict(board)

        def board_svg(self, board):
            pic = Picture("Track Race: twelve squares", "default board (none: a test)")
            for k in range(board["squares"]):
                pic.circle(40 + 30 * k, pic.y + 20, 10, fill="white", cls="node", name=str(k), tip=f"square {k}")
            pic.y += 50
            pic.legend([(Swatch("circle", fill="white", r=8), "square")])
            return pic.render()

    monkeypatch.setitem(registry._EXTRA, "trackrace", TrackRace())
    run = sweep("trackrace", games=200, out=tmp_path / "run")
    res = report(run.out)
    page = res.html.read_text(encoding="utf-8")
    body = _section(page)
    assert "Track Race: twelve squares" in body and body.count('class="node"') == 12
    assert "http:" not in page and "https:" not in page
    plain = report(sweep("dicerace", games=200, out=tmp_path / "plain").out)
    assert '<section id="board">' not in plain.html.read_text(encoding="utf-8")


def test_carnage_keeps_apart_the_cards_of_a_crowded_street(tmp_path):
    """Sixteen cards from one street to another: every badge still has its own place."""
    text = (ROOT / "sims/carnage/boards/default.toml").read_text(encoding="utf-8")
    start = text.index("spawn_cards = [")
    end = text.index("]\n", text.index("\n", start) + 1) + 2
    text = text[:start] + "spawn_cards = [" + ", ".join(['["h2.1", "v2.2"]'] * 16) + "]\n" + text[end:]
    spec = get_game("carnage")
    board = spec.load_board(str(_write(tmp_path, "crowded.toml", text)))
    check_picture(spec.board_svg(board), "carnage", board, "crowded.toml")
