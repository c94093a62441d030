"""Carmarace's map and decks: the shipped data is the spec's, every fault is refused in one line."""

from __future__ import annotations

import hashlib
import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from balance.errors import UserError
from sims.carmarace import SPEC
from sims.carmarace.board import BOARDS, load_board, load_decks

MAP = (BOARDS / "default.toml").read_text(encoding="utf-8")
DECKS = (BOARDS / "decks.toml").read_text(encoding="utf-8")

# sha256 of the spec's data files (../shared/specs/data/carmarace-map.toml and -decks.toml)
SPEC_SHA256 = {
    "default.toml": "6bb4da120584a97e382d30ce76ba03d0503cbfd7a59afbbdc0cf10686366bf0a",
    "decks.toml": "a4810213249d78e5b7115d17f82a851dcd74fe9e6da3b8f0dd3019d1dfb62c1d",
}

TINY = """
name = "tiny"
space = [
  { name = "L1", kind = "lot", number = 1, next = ["r1"] },
  { name = "L2", kind = "lot", number = 2, next = ["r1"] },
  { name = "CON", kind = "convention" },
]
[[chain]]
name = "r"
kind = "road"
length = 5
next = ["CON"]
"""


@pytest.mark.parametrize("name", sorted(SPEC_SHA256))
def test_the_shipped_files_are_the_specs_byte_for_byte(name):
    assert hashlib.sha256((BOARDS / name).read_bytes()).hexdigest() == SPEC_SHA256[name]


def test_the_default_map_is_as_the_spec_describes_it():
    b = load_board()
    n = {k: v for k, v in Counter(b.kind).items()}
    assert n == {"lot": 6, "road": 174, "convention": 1, "track": 42, "station": 8, "sky": 50, "airport": 4}
    idx = b.nodes.index
    assert [b.number[idx(f"L{k}")] for k in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert b.togo[idx("L1")] == 108  # the shortest road trip
    # the longest road trip: the long branch at each of the three arrows
    longest = {b.convention: 0}
    for u in reversed(_topological(b)):
        road = [w for w in b.adjacency[u] if b.kind[w] in ("lot", "road", "convention")]
        if road and b.kind[u] in ("lot", "road"):
            longest[u] = 1 + max(longest[w] for w in road)
    assert longest[idx("L1")] == 128
    assert sum(b.stop) == 5 and sum(g is not None for g in b.gps) == 3
    # consecutive stations are 7 steps apart (6 track spaces, then the station)
    for a, z in (("TW1", "TW2"), ("T1", "TE1"), ("TE3", "T2")):
        steps, u = 0, idx(a)
        while u != idx(z):
            u = next(w for w in b.adjacency[u] if b.kind[w] in ("track", "station"))
            steps += 1
        assert steps == 7, (a, z)


def _topological(b):
    indeg = Counter(w for a in b.adjacency for w in a)
    order = [u for u in range(b.n_nodes) if indeg[u] == 0]
    for u in order:
        for w in b.adjacency[u]:
            indeg[w] -= 1
            if indeg[w] == 0:
                order.append(w)
    return order


def test_the_default_decks_are_as_the_spec_describes_them():
    d = load_decks()
    by_deck = Counter(c["deck"] for c in d.cards)
    assert by_deck == {"transport": 50, "road": 50, "train": 50, "plane": 50}
    transport = [c for c in d.cards if c["deck"] == "transport"]
    assert Counter(c["mode"] for c in transport) == {"road": 36, "train": 7, "plane": 7}
    assert len({c["name"] for c in transport}) == 40
    assert sum(c["tracks"] for c in transport) == 3 and sum(c["ignores_stops"] for c in transport) == 4
    assert {c["name"]: c["keep"] for c in transport if c["keep"]} == {"Taxi": 1, "Bus": 2}
    assert d.cards[d.gifts["airport"]]["name"] == "Plane Transportation"
    assert d.cards[d.gifts["station"]]["name"] == "The People's Transport"
    assert d.gifts == {"airport": 43, "station": 36}


def test_board_json_is_the_setup_board_and_the_svg_draws_every_space():
    b = SPEC.board_for(None)
    data = SPEC.board_json(b)
    setup = SPEC.trace(SPEC.resolve_params({}), [SPEC.parse_player("hunter")], [[0, 0]], 0, 0)[0]
    assert data == setup["board"]
    assert data["land"][data["nodes"].index("p1")] == [data["nodes"].index("i9"), data["nodes"].index("h1")]
    svg = SPEC.board_svg(b)
    root = ET.fromstring(svg)
    spaces = [e for e in root.iter() if e.tag.endswith("circle") and e.get("class") == "node"]
    assert sorted(e.get("data-name") for e in spaces) == sorted(b.nodes)
    assert "The Convention" in svg and "Parking lot, square 1" in svg


def test_a_map_without_drawing_cells_is_still_drawn(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    b = load_board(path)
    assert b.togo[b.nodes.index("L1")] == 6
    root = ET.fromstring(SPEC.board_svg(b))
    assert len([e for e in root.iter() if e.tag.endswith("circle") and e.get("class") == "node"]) == b.n_nodes


# --------------------------------------------------------------------------- refusals
MAP_FAULTS = [
    ("unknown key", lambda t: t.replace('size = [33, 22]', 'size = [33, 22]\ncolour = "red"'), "unknown key 'colour'"),
    ("name twice", lambda t: t.replace('{ name = "L2", kind = "lot"', '{ name = "L1", kind = "lot"'), "used twice"),
    ("chain name clash", lambda t: t.replace('{ name = "J1", kind = "road"', '{ name = "a3", kind = "road"'), "used twice"),
    ("unknown kind", lambda t: t.replace('{ name = "J1", kind = "road"', '{ name = "J1", kind = "river"'), "kind must be"),
    ("lot without number", lambda t: t.replace('kind = "lot", number = 3,', 'kind = "lot",'), "needs a number"),
    ("number twice", lambda t: t.replace('number = 3,', 'number = 2,'), "used twice"),
    ("road with number", lambda t: t.replace('{ name = "J1", kind = "road",', '{ name = "J1", kind = "road", number = 9,'),
     "only lot squares"),
    ("chain length", lambda t: t.replace("length = 12", "length = 0"), "positive integer"),
    ("chain kind", lambda t: t.replace('name = "a"\nkind = "road"', 'name = "a"\nkind = "station"'), "kind must be"),
    ("chain land size", lambda t: t.replace('"a6", "a8", "a10", "a12", "b2", "b4",', '"a6", "a8",'), "one entry per space"),
    ("unknown next", lambda t: t.replace('next = ["d1"]', 'next = ["zz9"]'), "unknown space 'zz9'"),
    ("next twice", lambda t: t.replace('["b6", "TW1"],', '["b6", "b7"],'), "names 'b7' twice"),
    ("two conventions", lambda t: t.replace('{ name = "J3", kind = "road"', '{ name = "J3", kind = "convention"'),
     "exactly one convention"),
    ("into the lot", lambda t: t.replace('["g9", "AC"],', '["g9", "AC"],\n  ["g10", "L1"],'), "into the parking lot"),
    ("road to sky", lambda t: t.replace('["g9", "AC"],', '["g9", "AC"],\n  ["g11", "z3"],'), "straight into the sky"),
    ("track to sky", lambda t: t.replace('["g9", "AC"],', '["g9", "AC"],\n  ["m3", "z3"],'), "track and sky"),
    ("stop off road", lambda t: t.replace('{ name = "T2", kind = "station",', '{ name = "T2", kind = "station", stop = true,'),
     "Stop sign must be on a road"),
    ("gps faces", lambda t: t.replace('gps = ["b1", "b1", "b1", "c1", "c1", "c1"]', 'gps = ["b1", "c1"]'), "6 names"),
    ("gps set", lambda t: t.replace('gps = ["b1", "b1", "b1", "c1", "c1", "c1"]', 'gps = ["b1", "b1", "b1", "b1", "b1", "b1"]'),
     "exactly the space's next"),
    ("fork without gps", lambda t: t.replace(', gps = ["b1", "b1", "b1", "c1", "c1", "c1"]', ''), "no gps arrow"),
    ("station without land", lambda t: t.replace('next = ["k5"], land = ["k4"]', 'next = ["k5"]'), "needs a land list"),
    ("land onto sky", lambda t: t.replace('next = ["k5"], land = ["k4"]', 'next = ["k5"], land = ["z3"]'),
     "not a lot, road, track or station"),
    ("cycle", lambda t: t.replace('["g9", "AC"],', '["g9", "AC"],\n  ["m3", "m1"],'), "cycle"),
    ("land forward", lambda t: t.replace('next = ["v1", "d8"], land = ["d7"]', 'next = ["v1", "d8"], land = ["d9"]'),
     "no shortcuts"),
    ("convention unreachable", lambda t: t.replace('next = ["CON"]', 'next = []'), "no finite togo"),
    ("not toml", lambda t: t + "\n[[[", "not valid TOML"),
]


def _write(tmp_path: Path, text: str, decks: str | None = None) -> Path:
    path = tmp_path / "map.toml"
    if decks is not None:
        (tmp_path / "mydecks.toml").write_text(decks, encoding="utf-8")
        text = text.replace('decks = "decks.toml"', 'decks = "mydecks.toml"')
    else:
        text = text.replace('decks = "decks.toml"\n', "")
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("what, change, words", MAP_FAULTS, ids=[f[0] for f in MAP_FAULTS])
def test_a_bad_map_is_refused_in_one_line_naming_the_file(tmp_path, what, change, words):
    changed = change(MAP)
    assert changed != MAP, what
    path = _write(tmp_path, changed)
    with pytest.raises(UserError) as exc:
        load_board(path)
    msg = str(exc.value)
    assert words in msg and "map.toml" in msg and "\n" not in msg, msg


DECK_FAULTS = [
    ("empty deck", lambda t: t[: t.index("plane = [")] + "plane = []\n", "the plane deck is empty"),
    ("unknown effect", lambda t: t.replace('effect = "land", copies = 3 },\n]\n\n# Plane', 'effect = "teleport", copies = 3 },\n]\n\n# Plane'),
     "effect must be one of"),
    ("bad mode", lambda t: t.replace('mode = "train", speed = 6, limit = 3 }', 'mode = "boat", speed = 6, limit = 3 }'),
     "mode must be one of"),
    ("negative speed", lambda t: t.replace('name = "Skateboard", mode = "road", speed = 2', 'name = "Skateboard", mode = "road", speed = -2'),
     "at least 0"),
    ("negative limit", lambda t: t.replace('speed = 2, limit = 1 }', 'speed = 2, limit = -1 }', 1), "limit must be"),
    ("tracks on a train", lambda t: t.replace('mode = "train", speed = 6, limit = 2 }', 'mode = "train", speed = 6, limit = 2, tracks = true }'),
     "road vehicles only"),
    ("gift of the wrong mode", lambda t: t.replace('airport = "Plane Transportation"', 'airport = "Taxi"'), "names no plane card"),
    ("unknown key", lambda t: t.replace('{ name = "Turbo", speed = 3, copies = 4 }', '{ name = "Turbo", speed = 3, copies = 4, colour = 1 }'),
     "unknown key 'colour'"),
    ("copies", lambda t: t.replace('{ name = "Turbo", speed = 3, copies = 4 }', '{ name = "Turbo", speed = 3, copies = 0 }'),
     "copies must be"),
]


@pytest.mark.parametrize("what, change, words", DECK_FAULTS, ids=[f[0] for f in DECK_FAULTS])
def test_a_bad_deck_file_is_refused_in_one_line_naming_it(tmp_path, what, change, words):
    changed = change(DECKS)
    assert changed != DECKS, what
    path = _write(tmp_path, MAP, decks=changed)
    with pytest.raises(UserError) as exc:
        load_board(path)
    msg = str(exc.value)
    assert words in msg and "mydecks.toml" in msg and "\n" not in msg, msg


def test_a_missing_map_or_deck_file_is_refused(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        load_board(tmp_path / "nope.toml")
    path = tmp_path / "map.toml"
    path.write_text(MAP.replace('decks = "decks.toml"', 'decks = "gone.toml"'), encoding="utf-8")
    with pytest.raises(UserError, match="gone.toml.*does not exist"):
        load_board(path)


# --------------------------------------------------------------------------- through the CLI
def _cli(args, tmp_path, monkeypatch, capsys):
    from balance.cli import main

    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(SystemExit) as exc:
        main(args)
    err = capsys.readouterr().err.strip()
    assert sorted(p.name for p in tmp_path.iterdir()) == before, "something was written"
    return exc.value.code, err


CLI_CASES = [
    ("unreachable convention", MAP_FAULTS[-2][1], None, "no finite togo"),
    ("land pointing forward", MAP_FAULTS[-3][1], None, "no shortcuts"),
    ("empty deck", None, DECK_FAULTS[0][1], "deck is empty"),
    ("unknown effect", None, DECK_FAULTS[1][1], "effect must be one of"),
]


@pytest.mark.parametrize("what, map_change, deck_change, words", CLI_CASES, ids=[c[0] for c in CLI_CASES])
def test_the_cli_refuses_bad_data_in_one_line_with_exit_2(tmp_path, monkeypatch, capsys, what, map_change, deck_change,
                                                         words):
    text = map_change(MAP) if map_change else MAP
    decks = deck_change(DECKS) if deck_change else DECKS
    path = _write(tmp_path, text, decks=decks)
    for cmd in (["run", "carmarace", "--games", "10", "--board", str(path)], ["board", "carmarace", "--board", str(path)]):
        code, err = _cli(cmd, tmp_path, monkeypatch, capsys)
        assert code == 2 and len(err.splitlines()) == 1 and words in err, err


def test_the_cli_refuses_seven_players_and_more_players_than_squares(tmp_path, monkeypatch, capsys):
    code, err = _cli(["run", "carmarace", "--games", "10", "--players", ",".join(["hunter"] * 7)], tmp_path, monkeypatch,
                     capsys)
    assert code == 2 and len(err.splitlines()) == 1 and "7 players" in err, err
    tiny = tmp_path / "tiny.toml"
    tiny.write_text(TINY, encoding="utf-8")
    code, err = _cli(["run", "carmarace", "--games", "10", "--board", str(tiny), "--players", "hunter,hunter,hunter"],
                     tmp_path, monkeypatch, capsys)
    assert code == 2 and len(err.splitlines()) == 1 and "2 numbered lot squares" in err, err
    code, err = _cli(["run", "carmarace", "--games", "10", "--param", "karma_limit_delta=4"], tmp_path, monkeypatch,
                     capsys)
    assert code == 2 and len(err.splitlines()) == 1 and "karma_limit_delta" in err, err


def test_a_user_map_plays(tmp_path):
    tiny = tmp_path / "tiny.toml"
    tiny.write_text(TINY, encoding="utf-8")
    board = SPEC.board_for(str(tiny))
    out = SPEC.simulate(SPEC.resolve_params({}), [SPEC.parse_player("hunter")], [[0, 0]], 1, 0, 50, board)
    assert (out.end_reason == 0).all() and (out.turns >= 1).all()


def test_board_json_through_the_cli(tmp_path, monkeypatch, capsys):
    from balance.cli import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["board", "carmarace", "--json"])
    assert exc.value.code in (0, None)
    data = json.loads(capsys.readouterr().out)
    assert data == SPEC.board_json(SPEC.board_for(None))


def test_board_svg_through_the_cli(tmp_path, monkeypatch):
    from balance.cli import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["board", "carmarace", "--svg", "map.svg"])
    assert exc.value.code in (0, None)
    root = ET.fromstring((tmp_path / "map.svg").read_text(encoding="utf-8"))
    assert len([e for e in root.iter() if e.tag.endswith("circle") and e.get("class") == "node"]) == SPEC.board_for(None).n_nodes


def test_the_heatmap_counts_every_space_a_pawn_enters():
    """out.heat (the map's drawing grid, row-major) = the spaces entered in the traces:
    steps of moves, Good-Karma steps, moves to the closest road."""
    import numpy as np

    from sims.carmarace.board import heat_grid

    board = SPEC.board_for(None)
    (rows, cols), cell = heat_grid(board)
    assert SPEC.heatmap_shape(board) == (rows, cols) == (22, 33)
    params = SPEC.resolve_params({"good_karma_step": True})
    players = [SPEC.parse_player("saboteur"), SPEC.parse_player("random")]
    seating = np.array([[0, 1, 0]], np.int64)
    out = SPEC.simulate(params, players, seating, 5, 0, 12)
    expected = np.zeros(rows * cols, np.int64)
    for g in range(12):
        for e in SPEC.trace(params, players, seating, 5, g):
            if e["type"] == "move":
                for v in e["path"][1:]:
                    expected[cell[v]] += 1
            elif e["type"] == "step" or (e["type"] == "land" and e["to"] != e["from"]):
                expected[cell[e["to"]]] += 1
    np.testing.assert_array_equal(out.heat, expected)
    assert expected.sum() > 0
