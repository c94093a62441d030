"""The state contract a maintainer can read: every game addresses its state
through named regions (balance.state.Layout), never by offset arithmetic.

What is measured: the source of each game's kernel, players and state modules,
parsed (ast).  An offence is (a) arithmetic with a region (a module-level name
bound to a balance.state.Region: the game's own or the shared header's), or
(b) a subscript of a state (``st``, ``image``) whose index or slice bound is
itself arithmetic.  The regions' compiled helpers (``index``, ``row``, ``view``,
``row_view``) are the only place offsets are computed.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import numpy as np

from balance.registry import game_names, get_game
from balance.state import HEADER_REGIONS, Layout, Region, describe

STATE_NAMES = {"st", "image", "img", "state"}
ARITH = (ast.Add, ast.Sub, ast.Mult)


# Coin Race (tests/coinrace, the game-feel test game) is registered by its own tests only.
PACKAGES = {**{g: None for g in game_names()}, "coinrace": "tests.coinrace"}


def _modules(game: str) -> list:
    package = PACKAGES.get(game)
    if package is None:
        module = importlib.import_module(type(get_game(game)).__module__)
        package = module.__name__ if hasattr(module, "__path__") else module.__name__.rsplit(".", 1)[0]
    out = []
    for name in ("state", "kernel", "players"):
        try:
            out.append(importlib.import_module(f"{package}.{name}"))
        except ModuleNotFoundError:
            pass
    return out


def offences(module) -> list[str]:
    """Offset arithmetic in ``module``'s source: ``file:line: text``."""
    regions = {k for k, v in vars(module).items() if isinstance(v, Region)}
    path = Path(inspect.getsourcefile(module))
    source = path.read_text()
    tree = ast.parse(source)
    lines = source.splitlines()
    found: list[str] = []

    def is_arith(node) -> bool:
        return isinstance(node, ast.BinOp) and isinstance(node.op, ARITH)

    for node in ast.walk(tree):
        bad = False
        if is_arith(node) and any(isinstance(x, ast.Name) and x.id in regions for x in (node.left, node.right)):
            bad = True
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in STATE_NAMES:
            index = node.slice
            parts = [index.lower, index.upper, index.step] if isinstance(index, ast.Slice) else [index]
            bad = any(p is not None and is_arith(p) for p in parts)
        if bad:
            found.append(f"{path.name}:{node.lineno}: {lines[node.lineno - 1].strip()}")
    return sorted(set(found))


def test_region_helpers_address_what_arithmetic_did():
    """Fixed and placed regions: every helper's slot equals the row-major offset."""
    from numba import njit

    layout = Layout()
    n = layout.static("n", (), "a length")
    grid = layout.dynamic("grid", (3, 4, 5), "a fixed block")
    table = layout.placed("table", ("n", 7), "a placed block")
    board = layout.copy()
    at = board.place(table, 5 * 7)
    st = board.image()
    st[n] = 5
    grid_at, grid_row, table_at, table_row = grid.index, grid.row, table.index, table.row
    grid_row_view, table_view = grid.row_view, table.view

    @njit
    def probe(st, i, j, k):
        return grid_at(i, j, k), grid_row(i), table_at(st, i, j), table_row(st, i), grid_row_view(st, i).shape[0], table_view(st).shape[0]

    for i, j, k in [(0, 0, 0), (2, 3, 4), (1, 2, 3)]:
        got = probe(st, i, j, k)
        assert got == (int(grid) + i * 20 + j * 5 + k, int(grid) + i * 20, at + i * 7 + j, at + i * 7, 20, 35)
    table.put(st, np.arange(35))
    assert table.values(st)[4, 6] == 34
    text = describe(st, board, static=True)
    assert "grid" in text and "a placed block" in text and "[5x7]" in text


def test_header_regions_are_all_named():
    names = [r.name for r in HEADER_REGIONS]
    assert len(names) == len(set(names)) and "score" in names and "memory" in names
