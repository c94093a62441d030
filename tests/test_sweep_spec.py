"""SPEC parsing (``8..14``, ``8..14:2``, ``0.25..0.5:0.05``, ``8,10,12``, ``9``),
grid expansion and the sweep config file."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.errors import UserError
from balance.game import Param
from balance.sweep import (
    Axis,
    build_axes,
    expand_grid,
    format_spec,
    format_value,
    parse_spec,
)
from balance.config import load_sweep as load_config

INT = Param("car_cost", "int", 10, "price of a car", "reading: test", low=-(10**6), high=10**6)
SMALL = Param("cars", "int", 4, "cars", "reading: test", low=1, high=8)
FLOAT = Param("share", "float", 0.5, "a share", "reading: test", low=0.0, high=1.0)
BOOL = Param("spawn", "bool", False, "spawn on turn end", "reading: test")
CHOICE = Param("board", "choice", "small", "board size", "reading: test", choices=("small", "wide", "tall"))


@pytest.mark.parametrize(
    "param, text, expected",
    [
        (INT, "8..14", [8, 9, 10, 11, 12, 13, 14]),
        (INT, "8..14:2", [8, 10, 12, 14]),
        (INT, "8..14:4", [8, 12]),
        (INT, "8..8", [8]),
        (INT, " -3..1 ", [-3, -2, -1, 0, 1]),
        (INT, "8,10,12", [8, 10, 12]),
        (INT, "12,8", [12, 8]),
        (INT, "9", [9]),
        (FLOAT, "0.25..0.5:0.05", [0.25, 0.3, 0.35, 0.4, 0.45, 0.5]),
        (FLOAT, "0.1..0.3:0.1", [0.1, 0.2, 0.3]),  # decimal steps: no 0.30000000000000004
        (FLOAT, "0..1:0.3", [0.0, 0.3, 0.6, 0.9]),
        (FLOAT, "0.25,0.75", [0.25, 0.75]),
        (FLOAT, "1", [1.0]),
        (BOOL, "true,false", [True, False]),
        (BOOL, "yes", [True]),
        (CHOICE, "wide,tall", ["wide", "tall"]),
        (CHOICE, "small", ["small"]),
    ],
)
def test_good_specs(param, text, expected):
    values = parse_spec(param, text)
    assert values == expected
    assert all(type(v) is type(expected[0]) for v in values)


@pytest.mark.parametrize(
    "param, text, words",
    [
        (INT, "14..8", "reversed range"),
        (INT, "8..14:0", "step 0"),
        (INT, "8..14:-2", "step -2"),
        (INT, "8..14:1.5", "whole number"),
        (INT, "8.5", "expected an integer"),
        (INT, "8.5..10", "expected an integer"),
        (INT, "8..x", "LOW..HIGH"),
        (INT, "8...", "LOW..HIGH"),
        (INT, "8,,9", "empty item"),
        (INT, "8,9,8", "given twice"),
        (INT, "", "empty"),
        (SMALL, "0..4", "expected an integer in 1..8"),
        (SMALL, "1..9", "expected an integer in 1..8"),
        (SMALL, "9", "expected an integer in 1..8"),
        (FLOAT, "0.25..0.5", "needs a step"),
        (FLOAT, "0.2..0.4:0", "must be positive"),
        (FLOAT, "0.2..0.4:-0.1", "must be positive"),
        (FLOAT, "0.5..0.2:0.1", "reversed range"),
        (FLOAT, "0.5..1.5:0.5", "a number in 0.0..1.0"),
        (FLOAT, "nan", "a number in"),
        (BOOL, "true..false", "give a list"),
        (BOOL, "maybe", "true or false"),
        (CHOICE, "huge", "one of small, wide, tall"),
        (CHOICE, "small..tall", "give a list"),
    ],
)
def test_bad_specs_one_line(param, text, words):
    with pytest.raises(UserError) as err:
        parse_spec(param, text)
    assert words in str(err.value)
    assert "\n" not in str(err.value)


def test_huge_range_refused_before_it_is_built():
    with pytest.raises(UserError, match="more than --max-points 100"):
        parse_spec(INT, "0..1000000", max_values=100)


# ---- hypothesis round trips --------------------------------------------------------
@given(lo=st.integers(-1000, 1000), span=st.integers(0, 300), step=st.integers(1, 50))
def test_int_range_is_python_range(lo, span, step):
    hi = lo + span
    text = f"{lo}..{hi}" if step == 1 else f"{lo}..{hi}:{step}"
    assert parse_spec(INT, text) == list(range(lo, hi + 1, step))


_DEC = st.decimals(min_value=Decimal(0), max_value=Decimal(1), places=3, allow_nan=False, allow_infinity=False)


@given(a=_DEC, b=_DEC, step=st.decimals(min_value=Decimal("0.001"), max_value=Decimal("0.5"), places=3))
@settings(max_examples=200)
def test_float_range_is_exact_decimal(a, b, step):
    lo, hi = min(a, b), max(a, b)
    values = parse_spec(FLOAT, f"{lo}..{hi}:{step}")
    n = int((hi - lo) // step) + 1
    assert values == [float(lo + i * step) for i in range(n)]
    assert values[0] == float(lo) and values[-1] <= float(hi) and float(lo + n * step) > float(hi)


@given(st.lists(st.integers(-(10**6), 10**6), min_size=1, max_size=30, unique=True))
def test_int_values_round_trip(values):
    assert parse_spec(INT, format_spec(INT, values)) == values


@given(st.lists(st.floats(0.0, 1.0, allow_nan=False), min_size=1, max_size=20, unique=True))
def test_float_values_round_trip(values):
    values = [v + 0.0 for v in values]  # -0.0 and 0.0 are one value
    if len(set(values)) != len(values):
        return
    assert parse_spec(FLOAT, format_spec(FLOAT, values)) == values


@given(st.lists(st.sampled_from(CHOICE.choices), min_size=1, max_size=3, unique=True))
def test_choice_values_round_trip(values):
    assert parse_spec(CHOICE, format_spec(CHOICE, values)) == values


@given(st.lists(st.booleans(), min_size=1, max_size=2, unique=True))
def test_bool_values_round_trip(values):
    assert parse_spec(BOOL, format_spec(BOOL, values)) == values


def test_format_spec_prefers_ranges():
    assert format_spec(INT, [8, 9, 10, 11]) == "8..11"
    assert format_spec(INT, [8, 10, 12]) == "8..12:2"
    assert format_spec(INT, [8, 10]) == "8,10"
    assert format_spec(INT, [12, 10, 8]) == "12,10,8"
    assert format_value(0.1) == "0.1" and format_value(True) == "true"


# ---- grid -----------------------------------------------------------------------------
def test_grid_is_the_full_product_first_axis_slowest():
    axes = [Axis("a", "int", (1, 2, 3), "1..3"), Axis("b", "choice", ("x", "y"), "x,y")]
    grid = expand_grid(axes)
    assert len(grid) == 6
    assert grid[:3] == [{"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 2, "b": "x"}]
    assert expand_grid([]) == [{}]


def test_build_axes_counts_and_max_points(dicerace):
    axes = build_axes(dicerace, {"target": "10..20", "first_bonus": "0,1,2"}, 10_000)
    assert [len(a.values) for a in axes] == [11, 3]
    assert axes[0].spec == "10..20" and axes[1].spec == "0..2"
    with pytest.raises(UserError, match=r"33 points \(11 × 3\), more than --max-points 20"):
        build_axes(dicerace, {"target": "10..20", "first_bonus": "0,1,2"}, 20)
    # TOML values: a list, a number
    axes = build_axes(dicerace, {"target": [10, 12], "first_bonus": 1}, 100)
    assert axes[0].values == (10, 12) and axes[1].values == (1,)
    with pytest.raises(UserError, match="unknown parameter 'nope'"):
        build_axes(dicerace, {"nope": "1..2"}, 100)
    with pytest.raises(UserError, match="expected an integer"):
        build_axes(dicerace, {"target": 8.5}, 100)


def test_config_file(tmp_path):
    cfg = tmp_path / "sweep.toml"
    cfg.write_text(
        'game = "dicerace"\ngames = 500\nseed = 3\nplayers = ["plain", "cautious"]\nout = "runs/x"\n'
        '[params]\ntarget = "10..12"\nfirst_bonus = [0, 1]\n'
    )
    data = load_config(cfg)
    assert data["games"] == 500 and data["params"] == {"target": "10..12", "first_bonus": [0, 1]}
    assert data["out"] == str(tmp_path / "runs/x")  # paths are relative to the file
    bad = tmp_path / "bad.toml"
    for text, words in [
        ("gmes = 3", "unknown key 'gmes'"),
        ("games = 'many'", "games must be a whole number"),
        ("games = true", "games must be a whole number"),
        ("params = 3", "[params] must be a table"),
        ("players = 3", "players must be"),
        ("[params\n", "not valid TOML"),
    ]:
        bad.write_text(text)
        with pytest.raises(UserError) as err:
            load_config(bad)
        assert words in str(err.value) and "\n" not in str(err.value)


# ---- a parameter with a step of its own (TAXI!'s money in $10 notes) -----------------
MONEY = Param("destination_bonus", "int", 6000, "bonus", "reading: test", low=0, high=100_000, step=10)


def test_range_of_a_stepped_parameter_steps_by_its_step():
    values = parse_spec(MONEY, "3000..9000")
    assert values == list(range(3000, 9001, 10))
    assert parse_spec(MONEY, "3000..9000:1000") == [3000, 4000, 5000, 6000, 7000, 8000, 9000]
    assert format_spec(MONEY, values) == "3000..9000"
    assert parse_spec(MONEY, format_spec(MONEY, [3000, 5000, 7000])) == [3000, 5000, 7000]


@pytest.mark.parametrize("text, typed", [("3000..9000:15", "15"), ("3005..9000", "3005"), ("3000..9005", "9005")])
def test_stepped_range_errors_name_only_what_was_typed(text, typed):
    """The error names the user's own numbers, never a value the range computed (3001, 3015)."""
    with pytest.raises(UserError) as err:
        parse_spec(MONEY, text)
    message = str(err.value)
    assert typed in message and "multiple" in message
    import re

    numbers = set(re.findall(r"\d+", message))
    assert numbers <= {"3000", "9000", "9005", "3005", "15", "10", "0", "100000"}, message


def test_stepped_range_from_the_command_line(capsys):
    from balance.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["sweep", "taxi", "--param", "destination_bonus=3000..9000", "--dry-run", "--json"])
    assert exc.value.code == 0
    import json

    axes = json.loads(capsys.readouterr().out)["axes"]
    assert axes[0]["values"][:3] == [3000, 3010, 3020] and axes[0]["values"][-1] == 9000
