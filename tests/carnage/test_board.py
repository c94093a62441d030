"""Board files: the default board's shape and every refusal of a bad file (one line each)."""

from __future__ import annotations

import tomllib

import pytest

from balance.errors import UserError
from sims.carnage import SPEC
from sims.carnage.board import DEFAULT_BOARD, default_board_toml, load_board


def write_board(tmp_path, text=None, **changes):
    """The default board's TOML with top-level keys replaced (``hq=[...]``) or a
    whole ``text``; returns the path."""
    if text is None:
        lines = default_board_toml().splitlines()
        for key, value in changes.items():
            rendered = repr(value).replace("'", '"').replace("True", "true")
            if key == "spawn_cards":
                start = lines.index("spawn_cards = [")
                end = lines.index("]", start)
                lines[start : end + 1] = [f"spawn_cards = {rendered}"]
            else:
                i = next(
                    i for i, line in enumerate(lines) if line.startswith(f"{key} =")
                )
                lines[i] = f"{key} = {rendered}"
        text = "\n".join(lines) + "\n"
    path = tmp_path / "board.toml"
    path.write_text(text)
    return path


def test_default_board_is_the_shipped_data():
    assert (
        DEFAULT_BOARD.read_text() == default_board_toml()
    )  # regenerate with python -m sims.carnage.board
    board = load_board()
    assert board.n_streets == 40 and len(board.hq) == 4 and len(board.spawn_cards) == 16
    assert (
        max(len(a) for a in board.adjacency) == 6
        and min(len(a) for a in board.adjacency) == 3
    )
    assert all(board.dist[o, d] >= 2 for o, d in board.spawn_cards)
    js = SPEC.board_json(board)
    assert (
        list(js) == ["nodes", "adjacency", "hq", "spawn_cards"]
        and js["nodes"][0] == "h0.0"
    )


def test_indices_and_names_both_work(tmp_path):
    streets = "".join(
        f'\n[[street]]\nname = "{n}"\nneighbours = {nb}\n'
        for n, nb in (("a", '["b"]'), ("b", '[0, "c"]'), ("c", '["b"]'))
    )
    cards = "spawn_cards = [" + ", ".join(['["a", 2]'] * 16) + "]\n"
    board = load_board(write_board(tmp_path, 'hq = [0, "c"]\n' + cards + streets))
    assert (
        board.adjacency == ((1,), (0, 2), (1,))
        and board.hq == (0, 2)
        and board.spawn_cards[0] == (0, 2)
    )


def _street(name, neighbours):
    return f'\n[[street]]\nname = "{name}"\nneighbours = {neighbours}\n'


CARDS16 = "spawn_cards = [" + ", ".join(['["a", "c"]'] * 16) + "]\n"
ABC = _street("a", '["b"]') + _street("b", '["a", "c"]') + _street("c", '["b"]')


@pytest.mark.parametrize(
    "text, message",
    [
        ("hq = [", "not valid TOML"),
        (
            'hq = ["a", "c"]\n' + CARDS16 + 'colour = "red"\n' + ABC,
            "unknown key 'colour'",
        ),
        ('hq = ["a", "c"]\n' + CARDS16, "at least one [[street]]"),
        (
            'hq = ["a", "c"]\n'
            + CARDS16
            + _street("a", '["b"]')
            + _street("b", '["c"]')
            + _street("c", '["b"]'),
            "not symmetric",
        ),
        (
            'hq = ["a", "c"]\n'
            + CARDS16
            + _street("a", '["a", "b"]')
            + _street("b", '["a", "c"]')
            + _street("c", '["b"]'),
            "lists the street itself",
        ),
        (
            'hq = ["a", "c"]\n'
            + CARDS16
            + _street("a", '["b", "x"]')
            + _street("b", '["a", "c"]')
            + _street("c", '["b"]'),
            "'x' names no street",
        ),
        (
            'hq = ["a", "c"]\n'
            + CARDS16
            + _street("a", '["b", 7]')
            + _street("b", '["a", "c"]')
            + _street("c", '["b"]'),
            "index 7 names no street",
        ),
        (
            'hq = ["a", "c"]\n'
            + CARDS16
            + _street("a", '["b", "b"]')
            + _street("b", '["a", "c"]')
            + _street("c", '["b"]'),
            "lists a street twice",
        ),
        (
            'hq = ["a", "c"]\n'
            + CARDS16
            + _street("a", '["b"]')
            + _street("b", '["a"]')
            + _street("c", "[]"),
            "disconnected",
        ),
        ('hq = ["a", "c"]\n' + CARDS16 + ABC + _street("a", "[]"), "used twice"),
        ('hq = ["a", "z"]\n' + CARDS16 + ABC, "hq: 'z' names no street"),
        ('hq = ["a", "a"]\n' + CARDS16 + ABC, "lists street 'a' twice"),
        ('hq = ["a"]\n' + CARDS16 + ABC, "at least 2 needed"),
        ('hq = ["a", "c"]\nspawn_cards = [["a", "c"]]\n' + ABC, "exactly 16 needed"),
        (
            'hq = ["a", "c"]\nspawn_cards = ['
            + ", ".join(['["a", "c"]'] * 15 + ['["b", "b"]'])
            + "]\n"
            + ABC,
            "origin and destination are the same",
        ),
        (
            'hq = ["a", "c"]\nspawn_cards = ['
            + ", ".join(['["a", "c"]'] * 15 + ['["b"]'])
            + "]\n"
            + ABC,
            "must be [origin, destination]",
        ),
        (
            'hq = ["a", "c"]\n' + CARDS16 + ABC.replace('name = "a"', "name = 3"),
            "name must be a non-empty string",
        ),
    ],
)
def test_bad_board_files_are_refused_with_one_line(tmp_path, text, message):
    path = write_board(tmp_path, text)
    with pytest.raises(UserError) as err:
        load_board(path)
    assert message in str(err.value)
    assert "\n" not in str(err.value) and "board.toml" in str(err.value)


def test_more_than_six_neighbours_is_refused(tmp_path):
    names = "abcdefgh"
    text = 'hq = ["a", "b"]\nspawn_cards = [' + ", ".join(['["a", "b"]'] * 16) + "]\n"
    text += _street("a", repr(list(names[1:])).replace("'", '"'))
    for n in names[1:]:
        text += _street(n, '["a"]')
    with pytest.raises(UserError, match="7 neighbours, at most 6"):
        load_board(write_board(tmp_path, text))


def test_missing_file_and_default_board_roundtrip(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        load_board(tmp_path / "nope.toml")
    data = tomllib.loads(default_board_toml())
    assert len(data["street"]) == 40
    assert load_board(write_board(tmp_path, hq=["h0.0", "h4.3", "v0.0"])).hq == (
        0,
        19,
        20,
    )
