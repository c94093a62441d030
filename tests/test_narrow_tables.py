"""Tables in a terminal of any width: piped (80 columns) or narrow (60), every number
and interval whole on its line, never cut to ``(52.8–57.…`` nor folded mid-number."""

from __future__ import annotations

import json

import pytest
from rich.cells import cell_len

from balance import format as fmt
from balance.cli import main

WIDTHS = [60, 80]


def call(capsys, monkeypatch, width, *argv):
    monkeypatch.setenv("COLUMNS", str(width))
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    assert exc.value.code == 0, err
    return out


def assert_whole(out: str, width: int, cells: list[str]) -> None:
    """Nothing cut or too wide, and each of ``cells`` (a value and its interval as a
    table shows it) whole: its interval on one line, its value just before it."""
    assert "…" not in out
    lines = out.splitlines()
    assert all(cell_len(line) <= width for line in lines), max(lines, key=cell_len)
    for cell in cells:
        value, interval = cell.split()
        # the interval on the value's line, or (the cell wrapped at its space) on the next
        assert any(
            value in line and (interval in line.split(value, 1)[1] or interval in nxt)
            for line, nxt in zip(lines, [*lines[1:], ""])
        ), (cell, out)


def pct_cells(items, rate="win_rate", ci="ci95"):
    return [fmt.percent_ci_cell(x[rate], x[ci]) for x in items]


@pytest.mark.parametrize("width", WIDTHS)
def test_run_tables(capsys, monkeypatch, width):
    # Long player names: at 60 columns the seat table is shown a seat at a time.
    argv = ["run", "carnage", "--games", "300", "--rotate-seats", "--no-config",
            "--players", "greedy:reserve=2;side_step=false,fleet:reserve=2;side_step=false;detour=4"]
    data = json.loads(call(capsys, monkeypatch, width, *argv, "--json"))
    out = call(capsys, monkeypatch, width, *argv)
    cells = pct_cells(data["seats"]) + pct_cells(data["strategies"])
    cells += [fmt.percent_ci_cell(s["share"], s["ci95"]) for s in data["end_reason_shares"].values()]
    assert_whole(out, width, cells)


@pytest.mark.parametrize("width", WIDTHS)
def test_sweep_table(capsys, monkeypatch, width, tmp_path):
    argv = ["sweep", "taxi", "--param", "hire_fee=0..1000:500", "--games", "300", "--no-rotate-seats"]
    data = json.loads(call(capsys, monkeypatch, width, *argv, "--out", str(tmp_path / "a"), "--json"))
    out = call(capsys, monkeypatch, width, *argv, "--out", str(tmp_path / "b"))
    cells = []
    for point in data["points"]:
        cells += pct_cells(point["seats"])
    assert len(cells) == 12
    assert_whole(out, width, cells)


@pytest.mark.parametrize("width", WIDTHS)
def test_tournament_tables(capsys, monkeypatch, width, tmp_path):
    argv = ["tournament", "carnage", "--players", "greedy,fleet,nearest,blocker,random", "--games", "200"]
    data = json.loads(call(capsys, monkeypatch, width, *argv, "--out", str(tmp_path / "a"), "--json"))
    out = call(capsys, monkeypatch, width, *argv, "--out", str(tmp_path / "b"))
    f = data
    cells = [fmt.percent_ci_cell(c["rate"], c["ci95"]) for row in f["matrix"] for c in row if c is not None]
    cells += [fmt.percent_ci_cell(o["rate"], o["ci95"]) for o in f["overall"]]
    assert_whole(out, width, cells)
    for r in f["ratings"]:
        assert f"{r['ci95'][0]:+.0f} to {r['ci95'][1]:+.0f}" in out


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", ["carnage", "taxi"])
def test_params_listing(capsys, monkeypatch, width, game):
    from balance.registry import get_game

    out = call(capsys, monkeypatch, width, "params", game)
    lines = out.splitlines()
    assert all(cell_len(line) <= width for line in lines)
    for p in get_game(game).params:  # name and default whole on one line, what is allowed whole
        i = next(i for i, line in enumerate(lines) if line.startswith(f"{p.name} = {fmt.format_value(p.default)}"))
        assert f"({p.kind}: {p.allowed})" in lines[i] + lines[i + 1]


def test_players_listing_in_80_columns(capsys, monkeypatch):
    from balance.registry import get_game

    out = call(capsys, monkeypatch, 80, "players", "carnage")
    assert "…" not in out and all(cell_len(line) <= 80 for line in out.splitlines())
    for p in get_game("carnage").players:
        assert any(line.startswith(p.name + "  (") for line in out.splitlines())
