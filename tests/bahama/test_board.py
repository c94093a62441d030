"""The default board meets every fact the rulebook states; board files are validated.

Rulebook (seed 003, "Board" and the example table): adjacent pairs 5♦–2♠,
Q♠–A♠, A♣–K♣; non-adjacent pairs 3♥–5♥, A♠–A♣; eight fares, a fare being the
number of moves of the shortest route.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from balance.errors import UserError
from sims.bahama import board as bahama_board

ADJACENT = [("5♦", "2♠"), ("Q♠", "A♠"), ("A♣", "K♣")]
NOT_ADJACENT = [("3♥", "5♥"), ("A♠", "A♣")]
FARES = [
    ("8♠", "8♥", 3),
    ("10♠", "10♣", 4),
    ("K♣", "10♥", 2),
    ("3♣", "A♦", 5),
    ("K♦", "9♣", 3),
    ("5♦", "2♠", 1),
    ("2♦", "2♥", 7),
    ("6♦", "8♦", 2),
]


def test_default_board_shape(board):
    assert len(board.names) == 52 and len(set(board.names)) == 52
    assert set(board.names) == set(bahama_board.CARDS)
    assert board.n_edges == 128
    for u, row in enumerate(board.adjacency):
        assert list(row) == sorted(set(row)) and u not in row
        for v in row:
            assert u in board.adjacency[v], "adjacency must be symmetric"
    assert (board.dist >= 0).all(), "the board must be connected"
    # Each suit holds a quarter of the board: 13 fields, 23 roads inside it.
    for suit in bahama_board.SUITS:
        fields = {board.index(r + suit) for r in bahama_board.RANKS}
        inside = sum(1 for u in fields for v in board.adjacency[u] if v in fields) // 2
        assert len(fields) == 13 and inside == 23


@pytest.mark.parametrize("a,b", ADJACENT)
def test_rulebook_adjacent_pairs(board, a, b):
    assert board.index(b) in board.adjacency[board.index(a)]


@pytest.mark.parametrize("a,b", NOT_ADJACENT)
def test_rulebook_non_adjacent_pairs(board, a, b):
    assert board.index(b) not in board.adjacency[board.index(a)]


@pytest.mark.parametrize("origin,dest,fare", FARES)
def test_rulebook_fare_table(board, origin, dest, fare):
    assert board.dist[board.index(origin), board.index(dest)] == fare


def test_default_file_is_the_issue_edge_list():
    assert bahama_board.DEFAULT_PATH.read_text(encoding="utf-8") == bahama_board.default_toml()
    assert len(bahama_board.default_edges()) == 128


def test_board_json(spec, board):
    data = spec.board_json(board)
    assert data["nodes"][:3] == ["A♠", "K♠", "Q♠"] and len(data["nodes"]) == 52
    assert len(data["adjacency"]) == 52
    assert sum(len(r) for r in data["adjacency"]) == 256


def test_card_names_accept_ascii():
    assert bahama_board.card_name("10h") == "10♥"
    assert bahama_board.card_name(" qs ") == "Q♠"
    assert bahama_board.card_name("AD") == "A♦"
    assert bahama_board.card_name("2♣") == "2♣"
    for bad in ("1S", "11H", "AX", "", "A"):
        with pytest.raises(ValueError):
            bahama_board.card_name(bad)


def _ascii(text: str) -> str:
    for sym, letter in (("♠", "S"), ("♥", "H"), ("♣", "C"), ("♦", "D")):
        text = text.replace(sym, letter)
    return text


def test_user_board_in_ascii_loads_the_same(tmp_path, spec, board):
    path = tmp_path / "ascii.toml"
    path.write_text(_ascii(bahama_board.default_toml()), encoding="utf-8")
    mine = spec.load_board(str(path))
    assert mine.names == board.names and mine.adjacency == board.adjacency
    assert (mine.dist == board.dist).all()


def _fields_block() -> str:
    return "fields = [" + ", ".join(f'"{c}"' for c in bahama_board.CARDS) + "]\n"


def _edges_block(edges) -> str:
    return "edges = [" + ", ".join(f'["{a}", "{b}"]' for a, b in edges) + "]\n"


DEFAULT_EDGES = bahama_board.default_edges()
BAD_BOARDS = {
    "malformed TOML": ("fields = [", r"not valid TOML"),
    "unknown key": (
        _fields_block() + _edges_block(DEFAULT_EDGES) + "roads = 1\n",
        r"unknown key 'roads'",
    ),
    "no edges": (_fields_block(), r"missing 'edges'"),
    "51 fields": (
        "fields = [" + ", ".join(f'"{c}"' for c in bahama_board.CARDS[:51]) + "]\n" + _edges_block([]),
        r"exactly 52 fields .* found 51",
    ),
    "not a card": (
        _fields_block().replace('"A♠"', '"1♠"') + _edges_block([]),
        r"field '1♠' is not a card",
    ),
    "duplicate field": (
        _fields_block().replace('"K♠"', '"A♠"') + _edges_block([]),
        r"field A♠ is listed twice",
    ),
    "unknown edge field": (
        _fields_block() + _edges_block([("A♠", "Z♠")]),
        r"unknown field 'Z♠'",
    ),
    "edge not a pair": (_fields_block() + 'edges = [["A♠"]]\n', r"is not a pair"),
    "self-loop": (
        _fields_block() + _edges_block([("A♠", "AS")]),
        r"joins field A♠ to itself",
    ),
    "duplicate edge": (
        _fields_block() + _edges_block([("A♠", "K♠"), ("KS", "AS")]),
        r"edge K♠-A♠ is listed twice",
    ),
    "disconnected": (
        _fields_block() + _edges_block([e for e in DEFAULT_EDGES if e[0][-1] == e[1][-1]]),
        r"not connected: 39 field\(s\) cannot be reached from A♠",
    ),
    "degree above 16": (
        _fields_block() + _edges_block(DEFAULT_EDGES + [("A♠", c) for c in bahama_board.CARDS[16:36]]),
        r"field A♠ has \d+ neighbours; allowed: at most 16",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_BOARDS))
def test_bad_board_files_are_refused_in_one_line(tmp_path, spec, case):
    text, pattern = BAD_BOARDS[case]
    path = tmp_path / "board.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as err:
        spec.load_board(str(path))
    message = str(err.value)
    assert "\n" not in message and str(path) in message
    assert re.search(pattern, message), message


def test_missing_board_file(spec, tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        spec.load_board(str(tmp_path / "nope.toml"))


def test_write_default_command(tmp_path, monkeypatch):
    target = tmp_path / "boards" / "default.toml"
    monkeypatch.setattr(bahama_board, "DEFAULT_PATH", target)
    assert bahama_board.main(["--write-default"]) == 0
    assert target.read_text(encoding="utf-8") == bahama_board.default_toml()
    assert bahama_board.main(["--check-default"]) == 0
    assert bahama_board.main([]) == 2
    assert Path(bahama_board.__file__).with_name("boards").joinpath("default.toml").is_file()
