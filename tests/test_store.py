"""The results store: aggregate <-> tidy rows, atomic writes, run directories, load()."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.errors import UserError
from balance.game import Outcomes
from balance.aggregate import Aggregate
from balance.seating import seatings_for
from balance.store import (
    FORMAT,
    RunDir,
    aggregate_rows,
    atomic_write_bytes,
    game_rows,
    load,
    param_column,
    rows_aggregate,
)

REASONS = ("target", "turn_limit", "bankrupt")


def random_outcomes(rng: np.random.Generator, n: int, n_seats: int) -> Outcomes:
    winner = rng.integers(-1, n_seats, n).astype(np.int8)
    reason = rng.integers(0, len(REASONS), n).astype(np.int8)
    turns = rng.integers(1, 300, n).astype(np.int32)
    score = rng.integers(0, 50, (n, n_seats)).astype(np.int32)
    return Outcomes(winner, reason, turns, score)


def assert_same_aggregate(a: Aggregate, b: Aggregate) -> None:
    assert a.games == b.games and a.no_winner == b.no_winner
    for name in (
        "seat_wins", "strategy_wins", "strategy_games", "seat_strategy_games", "seat_strategy_wins",
        "end_reasons", "reason_by_winner", "score_sum",
    ):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    ta, tb = np.trim_zeros(a.turns_hist, "b"), np.trim_zeros(b.turns_hist, "b")
    np.testing.assert_array_equal(ta, tb)


@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(0, 400),
    seats=st.sampled_from([(0, 0), (0, 1), (0, 1, 1), (0, 1, 2, 0)]),
    rotate=st.booleans(),
    first=st.integers(0, 10**6),
)
@settings(max_examples=40, deadline=None)
def test_rows_round_trip(seed, n, seats, rotate, first):
    rng = np.random.default_rng(seed)
    seatings = seatings_for(seats, rotate)
    n_strategies = max(seats) + 1
    out = random_outcomes(rng, n, len(seats))
    agg = Aggregate.from_outcomes(out, seatings, first, n_strategies, len(REASONS))
    names = [f"p{k}" for k in range(n_strategies)]
    frame = aggregate_rows(agg, 3, {"car_cost": 9, "share": 0.25}, {"car_cost": "int", "share": "float"}, names, REASONS)
    assert set(frame["point"].to_list()) == {3}
    assert frame["count"].min() >= 0
    back = rows_aggregate(frame, len(seats), names, REASONS)
    assert_same_aggregate(agg, back)


def test_rows_are_tidy_and_typed():
    rng = np.random.default_rng(1)
    seatings = seatings_for((0, 1), False)
    agg = Aggregate.from_outcomes(random_outcomes(rng, 1000, 2), seatings, 0, 2, len(REASONS))
    frame = aggregate_rows(agg, 0, {"spawn": True, "board": "wide"}, {"spawn": "bool", "board": "choice"}, ["a", "b"], REASONS)
    assert frame.columns == ["point", "spawn", "board", "measure", "seat", "player", "end_reason", "turns", "count"]
    assert str(frame.schema["spawn"]) == "Boolean" and str(frame.schema["count"]) == "Int64"
    wins = frame.filter(frame["measure"] == "seat_wins").sort("seat")
    assert wins["count"].to_list() == agg.seat_wins.tolist()
    hist = frame.filter(frame["measure"] == "turns")
    assert hist["count"].sum() == 1000 and hist["turns"].min() >= 1
    assert param_column("count") == "param_count" and param_column("car_cost") == "car_cost"


def test_game_rows():
    rng = np.random.default_rng(2)
    out = random_outcomes(rng, 50, 3)
    frame = game_rows(out, 4, 100, 6, {"car_cost": 9}, {"car_cost": "int"}, REASONS)
    assert frame.height == 50
    assert frame["game"].to_list() == list(range(100, 150))
    assert frame["seating"].to_list() == [g % 6 for g in range(100, 150)]
    assert frame["end_reason"].cast(str).to_list() == [REASONS[r] for r in out.end_reason]
    assert frame["score_2"].to_list() == out.score[:, 2].tolist()


def test_atomic_write_leaves_no_temp_file(tmp_path):
    target = tmp_path / "sub" / "x.bin"
    atomic_write_bytes(target, b"one")
    atomic_write_bytes(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in target.parent.iterdir()] == ["x.bin"]

    with pytest.raises(TypeError):
        atomic_write_bytes(target, object())  # type: ignore[arg-type]
    assert [p.name for p in target.parent.iterdir()] == ["x.bin"] and target.read_bytes() == b"two"


def test_run_dir_and_load(tmp_path):
    run = RunDir(tmp_path / "run")
    with pytest.raises(UserError, match="is not a sweep run"):
        run.read_manifest()
    manifest = {
        "format": FORMAT, "axes": [{"name": "car_cost", "kind": "int", "values": [8, 9]}],
        "players": ["a", "b"], "strategies": ["a", "b"], "end_reasons": list(REASONS), "keep_games": False,
    }
    run.path.mkdir()
    run.write_manifest(manifest)
    empty = load(run.path)
    assert empty.height == 0 and "car_cost" in empty.columns
    rng = np.random.default_rng(3)
    seatings = seatings_for((0, 1), False)
    for i, cost in enumerate((8, 9)):
        agg = Aggregate.from_outcomes(random_outcomes(rng, 100, 2), seatings, 0, 2, len(REASONS))
        run.write_point(i, aggregate_rows(agg, i, {"car_cost": cost}, {"car_cost": "int"}, ["a", "b"], REASONS))
    # a killed writer's leftovers: a temp file, and games of a point never finished
    (run.path / "points" / ".point-000002.parquet.abc.tmp").write_bytes(b"half")
    (run.path / "games" / "point-000002").mkdir(parents=True)
    assert run.finished_points() == [0, 1]
    run.clean_partial([0, 1])
    assert sorted(p.name for p in (run.path / "points").iterdir()) == ["point-000000.parquet", "point-000001.parquet"]
    assert not (run.path / "games" / "point-000002").exists()
    frame = load(run.path)
    assert frame["point"].unique().sort().to_list() == [0, 1]
    assert frame.filter(frame["measure"] == "games")["count"].to_list() == [100, 100]
    pdf = frame.to_pandas()
    assert len(pdf) == frame.height
    with pytest.raises(UserError, match="--keep-games"):
        load(run.path, games=True)
    (run.path / "manifest.json").write_text(json.dumps({"format": "other"}))
    with pytest.raises(UserError, match="not a sweep run"):
        load(run.path)
