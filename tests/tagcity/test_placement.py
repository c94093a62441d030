"""The kernel's placement search (``state.best_placement``: values summed from
per-cell tables at each corner's offsets, corners from shifted bit words,
targets read only where one may be completed) gives, at every decision
of whole games, the answer of a plain scan: every placement of the tile in the
enumeration order, its legality, cells and targets read from its tables, the first
of the highest value kept.  Where the value scale is exact (every board but
one whose lcm passes 2**42, RULES.md) the scan's value is also the
definition's (``placement_value``).  Checked for every tile, seat and value
type (V1, V2 and other weights) on the default sheet, on sheets of one and
four bit words (one with rounded values) and with tiles of up to six cells."""

from __future__ import annotations

import pytest
from numba import njit

from balance.state import DECIDER
from sims.tagcity import SPEC
from sims.tagcity.board import load_board
from sims.tagcity.state import (
    B_LONGEST,
    B_PAIR_WORDS,
    B_SCALE,
    B_SHAPES,
    B_WORDS,
    NO_VALUE,
    PAIR_BITS,
    R_NCELLS,
    V1,
    V2,
    best_cached,
    best_placement,
    cell_value_at,
    contact_of,
    cover_field,
    cover_row,
    empty_at,
    legal,
    pair_count,
    pair_target,
    placement_field,
    placement_gain,
    placement_row,
    placement_value,
    shape_count_at,
    shape_first_at,
    value_type,
    value_weights,
    weight_at,
)

VALUES = (V1, V2, int(value_type(7, 3)), int(value_type(0, 0)), int(value_type(2, 1)), int(value_type(30, 12)))


@njit
def record_value(st, seat, p, vtype):
    """Placement ``p``'s value from its record: its cells' values (V2's with
    their contact when the value counts contact), the extra contact of a
    weight above V2's, and the gain's weight less the progress share its cells
    already count for each target it completes."""
    g, c = value_weights(vtype)
    rec = placement_row(st, p)
    value = 0
    for j in range(st[placement_field(rec, st[R_NCELLS])]):
        y = st[placement_field(rec, st[R_NCELLS] + 1 + j)]
        value += st[cell_value_at(V1 if c == 0 else V2, seat, y)]
    if c > 1:
        value += (c - 1) * st[B_SCALE] * contact_of(st, seat, p)
    row = cover_row(st, p)
    for j in range(st[B_PAIR_WORDS]):
        pairs = st[cover_field(row, st[B_WORDS] + j)]
        while pairs != 0:
            t = pair_target(pairs)
            if pair_count(pairs) == st[empty_at(seat, t)]:
                value += (2 * g - 2) * st[B_SCALE] * st[weight_at(t)]
            pairs >>= PAIR_BITS
    return value


@njit
def scan(st, seat, shape, vtype, exact):
    """The plain reading: every placement of ``shape`` in order, the first legal
    one of the highest value (on an exact scale the definition's value too)."""
    best = -1
    best_value = NO_VALUE
    first = st[shape_first_at(shape)]
    for p in range(first, first + st[shape_count_at(shape)]):
        if legal(st, seat, p):
            value = record_value(st, seat, p, vtype)
            if exact and value != placement_value(st, seat, p, vtype)[0]:
                return -2, value, 0
            if value > best_value:
                best = p
                best_value = value
    if best < 0:
        return best, best_value, 0
    return best, best_value, placement_gain(st, seat, best)


def check_games(labels, params, seed, games, board=None):
    values = SPEC.resolve_params(params)
    checked = 0
    exact = None
    for game in games:
        pos = SPEC.position(values, labels, seed=seed, game=game, board=board, record=False)
        while pos.advance() is not None:
            st = pos.st
            if exact is None:  # L = lcm(1..longest target), unless it was capped (then values are rounded)
                exact = all(int(st[B_SCALE]) % e == 0 for e in range(1, int(st[B_LONGEST]) + 1))
            for seat in range(len(labels)):
                for shape in range(int(st[B_SHAPES])):
                    for vtype in VALUES:
                        want = scan(st, seat, shape, vtype, exact)
                        got = best_placement(st, seat, shape, vtype)
                        assert tuple(int(x) for x in got) == tuple(int(x) for x in want), (
                            f"game {game} decision of seat {int(st[DECIDER])}: seat {seat} shape {shape} "
                            f"value {vtype}: {got} != {want}"
                        )
                        if vtype <= V2:
                            assert tuple(best_cached(st, seat, shape, vtype)) == tuple(got)
                        checked += 1
            pos.answer(pos.decide())
    return checked


@pytest.mark.parametrize(
    "labels, params",
    [
        (["builder", "sniper"], {}),
        (["greedy", "random", "closer"], {"orientations": "rotate", "hq_side": "B"}),
        (["random", "sniper", "builder", "greedy"], {"orientations": "fixed"}),
    ],
)
def test_the_search_gives_the_plain_scans_placement(labels, params):
    assert check_games(labels, params, 5, range(2)) > 1000


def _sheet(tmp_path, rows, cols, names):
    """A sheet whose districts are its columns, ``names`` of them in turn."""
    line = '"' + "".join(names[c % len(names)] for c in range(cols)) + '"'
    values = [[9, 4], [1, 8], [5, 2], [3, 3]] * 4
    text = (
        f'name = "test {rows}x{cols}"\n[sheet]\nrows = {rows}\ncols = {cols}\n'
        f"districts = [{', '.join([line] * rows)}]\n"
        f"district_names = [{', '.join(f'{chr(34)}{n}{chr(34)}' for n in names)}]\n"
        f"row_values = {[[2, 1]] * rows}\ncol_values = {[[3, 1]] * cols}\n"
        f"district_values = {values[: len(names)]}\nremote = [-2, -2, -2]\n"
        "[shapes]\nP = [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0]]\nI2 = [[0, 0], [1, 0]]\n"
        "dot = [[5, 5]]\nZ6 = [[0, 0], [0, 1], [1, 1], [2, 1], [2, 2], [3, 2]]\n"
        '[hq]\nring_a = ["P", "I2", "Z6"]\ncentre = ["dot"]\n'
        "faces = [[0, 1], [1, 2], [2, 0], [0, 1], [1, 2], [2, 0]]\n"
        'pool_b = ["Z6", "I2", "P", "dot"]\n'
    )
    path = tmp_path / f"b{rows}x{cols}.toml"
    path.write_text(text, encoding="utf-8")
    return load_board(path)


@pytest.mark.parametrize(
    "rows, cols, names",
    [
        (16, 16, "ABCDEFGHIJKLMNOP"),  # four words, every target of 16 cells
        (16, 16, "AB"),  # districts of 128 cells: lcm(1..128) passes 2**42, values rounded
        (3, 5, "AB"),  # one word
        (9, 13, "ABCDEFGHIJKLM"),  # two words, a row across them
    ],
)
def test_the_search_on_other_sheets(tmp_path, rows, cols, names):
    board = _sheet(tmp_path, rows, cols, names)
    assert check_games(["builder", "greedy"], {"drone_boxes": 3}, 3, range(1), board) > 100
