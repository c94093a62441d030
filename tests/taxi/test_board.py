"""TAXI!'s board: the shipped data is the spec's, its figures are the spec's, and
every bad input is refused in one line with exit status 2, writing nothing."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from balance.cli import main
from balance.errors import UserError
from balance.registry import get_game
from sims.taxi.board import DEFAULT_BOARD, load_board

SPEC = get_game("taxi")
SPEC_DATA = Path("/work/shared/specs/data/taxi-default.toml")
DEFAULT = DEFAULT_BOARD.read_text(encoding="utf-8")
BOARDS = Path(__file__).with_name("boards")


@pytest.mark.skipif(not SPEC_DATA.exists(), reason="the spec's data folder is not on this machine")
def test_the_default_board_is_the_spec_data_byte_for_byte():
    assert DEFAULT_BOARD.read_bytes() == SPEC_DATA.read_bytes()


def test_the_default_board_has_the_spec_shape():
    b = load_board()
    assert (b.n_nodes, len(b.segments), len(b.streets)) == (113, 156, 35)
    assert len(b.lights) == 12 and len(b.entries) == 8 and len(b.exits) == 8
    assert len(b.destinations) == 29 and b.nodes[b.base] == "j9"
    ring = [s for s in b.streets if s.kind == "freeway"]
    assert len(ring) == 1 and len(ring[0].path) == 20 and ring[0].loop and ring[0].one_way
    assert len(b.guides) == 6 and all(len(g) == 30 for g in b.guides)
    assert {len(b.decks[d]) for d in ("journey", "passenger", "expense")} == {50}


def test_the_decks_have_the_spec_composition():
    b = load_board()
    journey, passenger, expense = (b.decks[d] for d in ("journey", "passenger", "expense"))
    kinds = [c.kind for c in journey]
    assert kinds.count("gamble_money") == kinds.count("gamble_freeway") == kinds.count("gamble_taxi") == 2
    assert kinds.count("roadwork") == 3 and kinds.count("fine") == 10
    assert not any(c.kind in ("green", "freeway") and c.value > 0 for d in b.decks.values() for c in d)
    cash = lambda deck: sum(c.value if c.kind == "cash" else -c.value if c.kind == "fine" else 0 for c in deck)  # noqa: E731
    assert cash(journey) == -500  # -$10 a card
    assert cash(passenger) == 11_900  # +$238 a card
    assert sum(c.value for c in expense) / 50 == pytest.approx(391)


def test_tablet_free_distances_are_the_spec_figures():
    """Section (b): trips of a guide need 7 to 11 streets without tablets (7 to 10
    within tour 1), into the base 2 to 5, out of it 5 to stop 1 and 3 to 6 to stop
    16; every guide adds up to 112 (short) and 232 (long)."""
    b = load_board()
    for guide in b.guides:
        legs = []
        at = b.base
        for stop in guide:
            legs.append(int(b.d0[at, stop]))
            at = stop
        assert legs[0] == 5 and 3 <= legs[15] <= 6
        assert all(7 <= d <= 10 for d in legs[1:14])
        assert all(7 <= d <= 11 for d in legs[16:29])
        assert 2 <= legs[14] <= 5 and 2 <= legs[29] <= 5
        assert sum(legs[:15]) == 112 and sum(legs) == 232
    # the six players have six different destinations at every leg
    for k in range(30):
        stops = [g[k] for g in b.guides]
        assert k in (14, 29) or len(set(stops)) == 6


def test_every_destination_is_reachable_without_tablets_and_d0_is_symmetric_enough():
    b = load_board()
    road = [u for u in range(b.n_nodes) if not b.freeway[u]]
    targets = list(b.destination_nodes)
    assert b.d0[np.ix_(road, targets)].max() < 100
    assert all(b.d0[u, u] == 0 for u in range(b.n_nodes))


def test_the_drawing_is_the_map_of_rules_md():
    """The drawing made from the data is the spec's map, character for character
    (RULES.md quotes it): the data and the drawing describe the same city."""
    from sims.taxi.board import board_text

    rules = (DEFAULT_BOARD.parent.parent / "RULES.md").read_text(encoding="utf-8")
    start = rules.index("```\n    a b c d e f g h i j k l m n o p q r s") + 4
    drawn = rules[start : rules.index("```", start)]
    assert board_text(load_board()) == drawn
    assert board_text(load_board(BOARDS / "village.toml")) is None  # off the grid: listed instead


def test_board_json_has_the_spec_keys():
    data = SPEC.board_json(load_board())
    for key in ("nodes", "adjacency", "lights", "entries", "exits", "destinations", "base", "guides"):
        assert key in data
    assert len(data["destinations"]) == 28 and data["nodes"][data["base"]] == "j9"
    assert sum(len(a) for a in data["adjacency"]) == 2 * 156


def test_user_files_are_completed_from_the_default():
    decks = load_board(BOARDS / "decks_only.toml")
    assert decks.n_nodes == 113 and len(decks.decks["passenger"]) == 2 and decks.name == "Default city, test decks"
    village = load_board(BOARDS / "village.toml")
    assert village.n_nodes == 16 and len(village.decks["expense"]) == 1 and len(village.guides) == 2


def test_a_bent_road_is_one_street_along_its_path():
    b = load_board(BOARDS / "village.toml")
    d, l_, i = (b.node(x) for x in "DLI")
    a = next(k for k in range(b.n_arcs) if (b.arc_from[k], b.arc_to[k]) == (d, l_))
    nxt = b.arc_cont[a]
    assert nxt >= 0 and (b.arc_from[nxt], b.arc_to[nxt]) == (l_, i)
    assert b.d0[d, i] >= 1 << 20  # I is lit: a tablet-free drive never enters it


# --------------------------------------------------------------------------- refusals
def sub(old, new, count=1):
    def edit(text):
        assert old in text, old
        return text.replace(old, new, count)

    return edit


def add_street(line):
    return sub('street = [\n', 'street = [\n  ' + line + '\n')


def add_node(name, xy):
    return sub("[nodes]\n", f"[nodes]\n{name} = {xy}\n")


def both(*edits):
    def edit(text):
        for e in edits:
            text = e(text)
        return text

    return edit


BAD = [
    ("malformed TOML", lambda t: "name = [\n", "not valid TOML"),
    ("unknown key", lambda t: 'colour = "red"\n' + t, "unknown key 'colour'"),
    ("map in part", lambda t: 'base = "Taxi Base"\n', "a map given in part"),
    ("node named twice", sub("[nodes]\n", "[nodes]\na0 = [0, 0]\n"), "not valid TOML"),
    ("coordinates", sub("a0 = [0, 0]", "a0 = [0]"), "coordinates must be two numbers"),
    ("street kind", sub('kind = "freeway"', 'kind = "motorway"'), "unknown kind 'motorway'"),
    ("short street", sub('path = ["f5", "g5", "h5"]', 'path = ["f5"]'), "at least two nodes"),
    ("unknown street node", sub('path = ["f5", "g5", "h5"]', 'path = ["f5", "zz9"]'), "unknown node 'zz9'"),
    ("node twice in a street", sub('path = ["f5", "g5", "h5"]', 'path = ["f5", "g5", "f5"]'), "twice in its path"),
    ("two-way freeway", sub('kind = "freeway", one_way = true', 'kind = "freeway", one_way = false'),
     "must be one_way"),
    ("segment in two streets", add_street('{name = "Dup", kind = "minor", path = ["f5", "g5"]},'), "in two streets"),
    ("light on the freeway", sub('lights = ["d3"', 'lights = ["a0", "d3"'), "light on freeway node 'a0'"),
    ("light on the base", sub('lights = ["d3"', 'lights = ["j9", "d3"'), "light on the base"),
    ("light on a destination", sub('lights = ["d3"', 'lights = ["c1", "d3"'), "light on destination 'Post Office'"),
    ("entry not a segment", sub('entries = [["h1", "h0"]', 'entries = [["h1", "h0"], ["b1", "a0"]'),
     "entry b1->a0 is not a road segment"),
    ("entry backwards", sub('entries = [["h1", "h0"]', 'entries = [["h0", "h1"]'),
     "must go from a road node to a freeway node"),
    ("exit backwards", sub('exits = [["d0", "d1"]', 'exits = [["d1", "d0"]'),
     "must go from a freeway node to a road node"),
    ("entry and exit", sub('exits = [["d0", "d1"]', 'exits = [["h0", "h1"], ["d0", "d1"]'),
     "both an entry and an exit"),
    ("ramp missing", sub('entries = [["h1", "h0"], ', 'entries = ['), "without being an entry or an exit"),
    ("touching mid-road", both(
        add_street('{name = "Spur", kind = "minor", path = ["q1", "s0", "r2"]},'),
        sub('entries = [["h1", "h0"]', 'entries = [["q1", "s0"], ["h1", "h0"]'),
        sub('exits = [["d0", "d1"]', 'exits = [["s0", "r2"], ["d0", "d1"]'),
    ), "not at an end of its road"),
    ("road joining freeway nodes", add_street('{name = "Cut", kind = "minor", path = ["a0", "s0"]},'),
     "joins two freeway nodes"),
    ("destination unknown", sub('"Hotel" = "q1"', '"Hotel" = "zz1"'), "unknown node 'zz1'"),
    ("destination on the freeway", sub('"Hotel" = "q1"', '"Hotel" = "s0"'), "is on the freeway"),
    ("destination lit", sub('"Hotel" = "q1"', '"Hotel" = "d3"'), "light on destination 'Hotel'"),
    ("destinations sharing", sub('"Hotel" = "q1"', '"Hotel" = "c1"'), "share node"),
    ("base not a destination", sub('base = "Taxi Base"', 'base = "Town Square"'), "not among the destinations"),
    ("one guide", lambda t: re.sub(r"guides = \[\n  \[.*\],\n(  \[.*\],\n)+\]", lambda m: m.group(0).split("\n")[0]
                                    + "\n" + m.group(0).split("\n")[1] + "\n]", t), "at least 2 guides"),
    ("guide of 29 stops", sub('["Library", "Railway Station", ', '["Library", '), "has 29 stops"),
    ("stop 15 not the base", sub('"University", "Taxi Base", "Hospital"', '"University", "Hospital", "Taxi Base"'),
     "stop 15 must be the base"),
    ("unknown destination", sub('["Library", "Railway Station"', '["Libary", "Railway Station"'),
     "stop 1 'Libary' is not a destination"),
    ("stop repeated", sub('["Library", "Railway Station"', '["Library", "Library"'), "is the same as stop 1"),
    ("first stop the base", sub('["Library", "Railway Station"', '["Taxi Base", "Railway Station"'),
     "the same as the start at the base"),
    ("card kind", sub('kind = "no_move", count = 2}', 'kind = "lottery", count = 2}'), "unknown kind 'lottery'"),
    ("expense card outside", sub('{name = "Robbed: pay $500", kind = "cash", value = -500}',
                                 '{name = "Robbed: pay $500", kind = "expense", value = 500}'),
     "belongs to the expense deck"),
    ("other card in expense", sub('kind = "expense", value = 100, count = 10', 'kind = "cash", value = 100, count = 10'),
     "holds expense cards only"),
    ("wrong sign", sub('kind = "fine", value = 150', 'kind = "fine", value = -150'), "wrong sign"),
    ("streets 0", sub('kind = "streets", value = 3', 'kind = "streets", value = 0'), "wrong sign"),
    ("not $10 notes", sub('kind = "cash", value = 1000}', 'kind = "cash", value = 1005}'), "not a multiple of $10"),
    ("one-way street into nowhere", both(
        add_node("zz", "[6, 6]"),
        add_street('{name = "Dead end", kind = "minor", one_way = true, path = ["g5", "zz"]},'),
    ), "cannot be reached from node 'zz' without tablets"),
    ("freeway without exit", both(
        add_node("t0", "[20, 20]"), add_node("t1", "[21, 21]"),
        add_street('{name = "Spur freeway", kind = "freeway", one_way = true, path = ["t0", "t1"]},'),
    ), "no exit can be reached from freeway node 't"),
    ("empty deck", lambda t: t[: t.index("expense = [")] + "expense = []\n\n" + t[t.index("# Every stopping point"):],
     "at least one card"),
    ("zero copies", sub('kind = "no_move", count = 2}', 'kind = "no_move", count = 0}'), "count must be"),
]


def run_cli(args, tmp_path, capsys, monkeypatch):
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    monkeypatch.chdir(work)
    with pytest.raises(SystemExit) as exc:
        main(args)
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2, err
    assert len(err.splitlines()) == 1, err
    assert list(work.iterdir()) == [], "a refused run wrote files"
    return err


@pytest.mark.parametrize("name, edit, message", BAD, ids=[b[0] for b in BAD])
def test_a_bad_board_file_is_refused_in_one_line(name, edit, message, tmp_path, capsys, monkeypatch):
    path = tmp_path / "bad.toml"
    path.write_text(edit(DEFAULT), encoding="utf-8")
    with pytest.raises(UserError) as exc:
        load_board(path)
    assert message in str(exc.value), str(exc.value)
    assert "bad.toml" in str(exc.value)
    err = run_cli(["run", "taxi", "--games", "10", "--board", str(path)], tmp_path, capsys, monkeypatch)
    assert message in err and "bad.toml" in err


def test_a_missing_board_file_is_refused(tmp_path, capsys, monkeypatch):
    err = run_cli(["run", "taxi", "--board", str(tmp_path / "nope.toml")], tmp_path, capsys, monkeypatch)
    assert "does not exist" in err


def test_seven_players_are_refused(tmp_path, capsys, monkeypatch):
    err = run_cli(["run", "taxi", "--games", "10", "--players", ",".join(["router"] * 7)], tmp_path, capsys,
                  monkeypatch)
    assert "7 players" in err


def test_more_players_than_guides_are_refused(tmp_path, capsys, monkeypatch):
    board = str(BOARDS / "village.toml")
    err = run_cli(["run", "taxi", "--games", "10", "--board", board, "--players", "router,router,router"],
                  tmp_path, capsys, monkeypatch)
    assert "3 players" in err and "2 destination guides" in err
    err = run_cli(["trace", "taxi", "--board", board, "--players", "router,router,router"], tmp_path, capsys,
                  monkeypatch)
    assert "2 destination guides" in err


@pytest.mark.parametrize("param", ["max_turns=0", "freeway_faces=13", "start_money=1000001", "green_faces=-1",
                                   "start_money=9345", "freeway_faces=6", "game_length=medium"])
def test_bad_parameters_are_refused(param, tmp_path, capsys, monkeypatch):
    args = ["run", "taxi", "--games", "10", "--param", param]
    if param == "freeway_faces=6":
        args += ["--param", "green_faces=7"]
    err = run_cli(args, tmp_path, capsys, monkeypatch)
    assert param.split("=")[0] in err


def cli_ok(args):
    try:
        main(args)
    except SystemExit as exc:
        assert exc.code in (0, None)


def test_the_cli_lists_and_draws_the_board(capsys):
    import json

    cli_ok(["board", "taxi", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert len(data["nodes"]) == 113 and data["base"] == data["nodes"].index("j9")
    cli_ok(["params", "taxi", "--json"])
    out = capsys.readouterr().out
    assert "arrival_window" in out and "max_turns" in out
    cli_ok(["players", "taxi", "--json"])
    out = capsys.readouterr().out
    for name in ("random", "cautious", "router", "gambler", "investor", "mc"):
        assert name in out
