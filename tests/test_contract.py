"""The game contract, checked on every registered game (Pgx's API test and
OpenSpiel's random-simulation test, for balance).

Parametrised by ``game_names()``: a game installed through the ``balance.games``
entry point (or registered, like the toy game) is covered without editing this
file.  Game-specific tests live in ``tests/<game>/``; this file finds a game's
referee there (``tests/<game>/referee.py``) and its golden traces in
``tests/golden/<game>/``.

For every game:

* a trace's ``end`` event is the outcome ``simulate`` gives the same game;
* outcomes do not depend on the chunking nor on the thread count (mc seated too);
* parameters out of their range are refused with a one-line UserError, the CLI
  exits 2 and writes nothing;
* every built-in player (mc included) plays at every allowed seat count;
* random parameter values inside their ranges end every game within the cap;
* the golden traces replay event for event and pass the game's referee;
* random traces (every player, every seat count) pass the game's referee;
* the search player is not significantly worse than its rollout policy;
* the state is addressed through named regions only, each with a meaning
  (no offset arithmetic in the game's state, kernel and players);
* ``balance init`` writes example targets on the game's own scale;
* a game with a board draws it (a readable SVG whose references resolve).

A game installed from its own package keeps its referee, golden cases and
golden traces there (``tests/golden.py``).  docs/adding-a-game.md lists what
each check asks of a new game.
"""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path

import numpy as np
import pytest

from balance.config import init, load_config
from balance.errors import UserError
from balance.registry import game_names, get_game
from balance.state import Layout
from tests.golden import case_of, game_tests_module, golden_files, play, to_jsonl
from tests.property import random_params
from tests.test_boards_svg import check_picture
from tests.test_config import write
from tests.test_layout import PACKAGES, _modules, offences

GAMES = game_names()
SEARCH = "mc:rollouts=4"  # mc at a tiny budget: the contract is about rules, not strength


def spec_of(game):
    return get_game(game)


def seat_players(spec, labels):
    """Distinct Player objects and the seating row for labels by seat."""
    distinct = list(dict.fromkeys(labels))
    players = [spec.parse_player(label) for label in distinct]
    return players, np.asarray([[distinct.index(label) for label in labels]], dtype=np.int64)


def mixed_labels(spec, n, rng):
    names = [p.name for p in spec.heuristics] + ["mc"]
    return [SEARCH if (name := rng.choice(names)) == "mc" else name for _ in range(n)]


def outcome_of(spec, out, i):
    return int(out.winner[i]), spec.end_reason_names[int(out.end_reason[i])], int(out.turns[i]), [
        int(x) for x in out.score[i]
    ]


def max_turns(params):
    return params.get("max_turns", params.get("max_rounds"))


# --------------------------------------------------------------------------- trace == simulate
@pytest.mark.parametrize("game", GAMES)
def test_trace_end_is_the_simulated_outcome(game):
    spec = spec_of(game)
    rng = random.Random(f"trace-{game}")
    for k in range(6):
        n = rng.randint(spec.min_players, spec.max_players)
        labels = list(spec.default_players) if k == 0 else mixed_labels(spec, n, rng)
        players, seating = seat_players(spec, labels)
        params = spec.resolve_params({}) if k < 2 else random_params(spec, rng)
        seed, index = rng.randrange(2**32), rng.randrange(10_000)
        out = spec.simulate(params, players, seating, seed, index, 1)
        end = spec.trace(params, players, seating, seed, index)[-1]
        assert end["type"] == "end"
        got = outcome_of(spec, out, 0)
        assert (end["winner"], end["reason"], end["turn"]) == got[:3], f"{game} {labels} seed {seed} game {index}"
        if spec.score_name in end:
            assert end[spec.score_name] == got[3], f"{game}: end {spec.score_name} is the outcome's score"


# --------------------------------------------------------------------------- reproducibility
def _outcomes(spec, params, players, seatings, seed, first, n):
    out = spec.simulate(params, players, seatings, seed, first, n)
    return [out.winner, out.end_reason, out.turns, out.score]


@pytest.mark.parametrize("game", GAMES)
def test_same_outcomes_for_any_chunking_and_thread_count(game):
    import numba

    from balance.runner import seatings_for

    spec = spec_of(game)
    params = spec.resolve_params({})
    labels = list(spec.default_players)
    labels[0] = SEARCH
    distinct = list(dict.fromkeys(labels))
    players = [spec.parse_player(x) for x in distinct]
    seatings = seatings_for([distinct.index(x) for x in labels], rotate=True)
    n = 60
    whole = _outcomes(spec, params, players, seatings, 17, 5, n)
    parts = [_outcomes(spec, params, players, seatings, 17, 5 + a, b - a) for a, b in ((0, 7), (7, 31), (31, n))]
    for k, name in enumerate(("winner", "end_reason", "turns", "score")):
        joined = np.concatenate([p[k] for p in parts])
        np.testing.assert_array_equal(whole[k], joined, err_msg=f"{game}: {name} by chunks")
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = _outcomes(spec, params, players, seatings, 17, 5, n)
    finally:
        numba.set_num_threads(previous)
    for k, name in enumerate(("winner", "end_reason", "turns", "score")):
        np.testing.assert_array_equal(whole[k], one[k], err_msg=f"{game}: {name}, one thread against all")


# --------------------------------------------------------------------------- parameters
@pytest.mark.parametrize("game", GAMES)
def test_parameters_out_of_range_are_refused(game):
    spec = spec_of(game)
    checked = 0
    for p in spec.params:
        bad = []
        if p.kind in ("int", "float"):
            if p.high is not None:
                bad.append(p.high + 1)
            if p.low is not None:
                bad.append(p.low - 1)
        elif p.kind == "choice":
            bad.append("no-such-choice")
        elif p.kind == "bool":
            bad.append("maybe")
        for value in bad:
            with pytest.raises(UserError) as exc:
                spec.resolve_params({p.name: value})
            message = str(exc.value)
            assert "\n" not in message and p.name in message, message
            checked += 1
    with pytest.raises(UserError, match="unknown parameter"):
        spec.resolve_params({"no_such_parameter": 1})
    assert checked >= 1


@pytest.mark.parametrize("game", GAMES)
def test_cli_refuses_a_bad_parameter_in_one_line_and_writes_nothing(game, tmp_path, capsys, monkeypatch):
    from balance.cli import main

    spec = spec_of(game)
    monkeypatch.chdir(tmp_path)
    p = next(p for p in spec.params if p.kind == "int" and p.high is not None)
    with pytest.raises(SystemExit) as exc:
        main(["run", game, "--games", "10", "--param", f"{p.name}={p.high + 1}"])
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and len(err.splitlines()) == 1 and p.name in err, err
    with pytest.raises(SystemExit) as exc:
        main(["run", game, "--games", "10", "--players", ",".join(["x"] * spec.min_players)])
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and len(err.splitlines()) == 1 and "'x'" in err, err
    with pytest.raises(SystemExit) as exc:
        main(["run", game, "--games", "10", "--players", ",".join([spec.default_players[0]] * (spec.max_players + 1))])
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and len(err.splitlines()) == 1, err
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- players and seats
@pytest.mark.parametrize("game", GAMES)
def test_every_builtin_player_at_every_seat_count(game):
    spec = spec_of(game)
    params = spec.resolve_params({})
    fill = spec.default_players[-1]
    for n in range(spec.min_players, spec.max_players + 1):
        for p in spec.players:
            label = SEARCH if p.name == "mc" else p.name
            labels = [label] + [fill] * (n - 1)
            players, seating = seat_players(spec, labels)
            games = 2 if p.name == "mc" else 20
            out = spec.simulate(params, players, seating, 1, 0, games)
            assert out.score.shape == (games, n)
            assert ((out.winner >= -1) & (out.winner < n)).all()
            assert ((out.end_reason >= 0) & (out.end_reason < len(spec.end_reasons))).all()
            assert (out.turns >= 1).all()
            cap = max_turns(params)
            if cap is not None:
                assert (out.turns <= cap).all(), f"{game}: {labels} played past the cap"


@pytest.mark.parametrize("game", GAMES)
def test_players_declare_their_parameters_and_the_search_player(game):
    spec = spec_of(game)
    names = [p.name for p in spec.players]
    assert names[-1] == "mc" and len(set(names)) == len(names)
    assert spec.player("mc").stochastic
    for name in spec.default_players:
        spec.player(name)
    for p in spec.players:
        for q in p.params:
            assert q.meaning and q.source, f"{game}: player {p.name} parameter {q.name} undocumented"
    assert all(r.name and r.meaning for r in spec.end_reasons)


# --------------------------------------------------------------------------- random rules
@pytest.mark.parametrize("game", GAMES)
def test_random_parameters_in_range_end_within_the_cap(game):
    spec = spec_of(game)
    rng = random.Random(f"params-{game}")
    for _ in range(12):
        params = random_params(spec, rng)
        n = rng.randint(spec.min_players, spec.max_players)
        labels = [rng.choice([p.name for p in spec.heuristics]) for _ in range(n)]
        players, seating = seat_players(spec, labels)
        out = spec.simulate(params, players, seating, rng.randrange(2**32), 0, 25)
        cap = max_turns(params)
        if cap is not None:
            assert (out.turns <= cap).all(), f"{game}: {params}"
        assert ((out.end_reason >= 0) & (out.end_reason < len(spec.end_reasons))).all()


# --------------------------------------------------------------------------- golden traces
GOLDEN = [(game, path) for game in GAMES for path in golden_files(game)]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_golden_traces(game):
    assert golden_files(game), f"no golden traces for {game}: run `python -m tests.golden {game}`"


@pytest.mark.parametrize("game, path", GOLDEN, ids=[f"{g}/{p.stem}" for g, p in GOLDEN])
def test_golden_trace_replays_event_for_event(game, path: Path):
    expected = path.read_text(encoding="utf-8").splitlines()
    case = case_of(json.loads(expected[0]))
    actual = to_jsonl(play(spec_of(game), case)).splitlines()
    for i, (a, e) in enumerate(zip(actual, expected)):
        assert a == e, f"{game}/{path.stem}: event {i} differs\n  now:    {a}\n  golden: {e}"
    assert len(actual) == len(expected), f"{game}/{path.stem}: {len(actual)} events now, {len(expected)} golden"


REFEREED = [(game, path) for game, path in GOLDEN if game_tests_module(game, "referee") is not None]


@pytest.mark.parametrize("game, path", REFEREED, ids=[f"{g}/{p.stem}" for g, p in REFEREED])
def test_golden_trace_passes_the_referee(game, path: Path):
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    game_tests_module(game, "referee").referee(events)


# --------------------------------------------------------------------------- referees
@pytest.mark.parametrize("game", [g for g in GAMES if game_tests_module(g, "referee") is not None])
def test_random_traces_pass_the_referee(game):
    spec = spec_of(game)
    referee = game_tests_module(game, "referee").referee
    rng = random.Random(f"referee-{game}")
    for _ in range(16):
        n = rng.randint(spec.min_players, spec.max_players)
        labels = mixed_labels(spec, n, rng)
        players, seating = seat_players(spec, labels)
        params = random_params(spec, rng)
        events = spec.trace(params, players, seating, rng.randrange(2**32), rng.randrange(1000))
        events = json.loads(json.dumps(events))  # what a referee reads: JSON
        referee(events)


@pytest.mark.parametrize("game", [g for g in GAMES if game_tests_module(g, "referee") is not None])
def test_the_referee_rejects_a_corrupted_end(game):
    spec = spec_of(game)
    referee = game_tests_module(game, "referee").referee
    players, seating = seat_players(spec, list(spec.default_players))
    events = json.loads(json.dumps(spec.trace(spec.resolve_params({}), players, seating, 0, 0)))
    n = len(spec.default_players)
    events[-1]["winner"] = (events[-1]["winner"] + 2) % (n + 1) - 1  # another seat, or none
    with pytest.raises(AssertionError):
        referee(events)


# --------------------------------------------------------------------------- the search player
SEARCH_GAMES = 600  # games a game's mc plays against its rollout policy (seats alternating)


def _scores(spec, a, b, games, seed):
    """Per game, 1 when ``a`` won, 0 when ``b`` won, 1/2 without a winner; a in
    seat 0 of even games, seat 1 of odd ones."""
    players = [spec.parse_player(a), spec.parse_player(b)]
    seatings = np.array([[0, 1], [1, 0]], np.int64)
    out = spec.simulate(spec.resolve_params({}), players, seatings, seed, 0, games)
    seat_of_a = np.arange(games) % 2
    return np.where(out.winner == seat_of_a, 1.0, np.where(out.winner < 0, 0.5, 0.0))


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_mc_is_not_worse_than_its_rollout_policy(game):
    """The search player at its default budget against the heuristic it searches
    over, heads up, seats alternating, SEARCH_GAMES games; the same games are
    played by that heuristic in both seats, so the paired difference of mc's
    score and the heuristic's own isolates what the search changes.  A
    one-sided test at 1%: mc fails if the difference is significantly below 0
    (z < -2.326).  docs/adding-a-game.md: what a new game must meet."""
    from balance.stats import paired_difference

    spec = spec_of(game)
    policy = spec.rollout_policy().label  # its trained heuristic for rollout_policy=trained
    mc = _scores(spec, "mc", policy, SEARCH_GAMES, seed=2026)
    itself = _scores(spec, policy, policy, SEARCH_GAMES, seed=2026)
    diff = paired_difference(mc, itself)
    assert diff.z > -2.326, (
        f"{game}: mc scored {mc.mean():.3f} against {policy}, {policy} itself {itself.mean():.3f} on the same "
        f"{SEARCH_GAMES} games: {diff.mean:+.3f} ({diff.low:+.3f} to {diff.high:+.3f}), z = {diff.z:.2f}"
    )


# --------------------------------------------------------------------------- the state's named regions

LAYOUT_GAMES = [g for g in PACKAGES if g in GAMES or g == "coinrace"]


@pytest.mark.parametrize("game", LAYOUT_GAMES)
def test_no_offset_arithmetic_on_the_state(game):
    found = [o for m in _modules(game) for o in offences(m)]
    assert not found, f"{game}: {len(found)} offset expressions outside the layout helpers:\n" + "\n".join(found[:40])


@pytest.mark.parametrize("game", LAYOUT_GAMES)
def test_every_region_is_named_shaped_and_meant(game):
    state = next(m for m in _modules(game) if m.__name__.endswith(".state"))
    layout = state.LAYOUT
    assert isinstance(layout, Layout) and layout.regions, f"{game}: state.LAYOUT declares no region"
    names = [r.name for r in layout.regions]
    assert len(names) == len(set(names))
    for r in layout.regions:
        assert r.meaning.strip(), f"{game}: region {r.name!r} says nothing of what it holds"
    # The regions tile the game's part of the state in declaration order (no
    # slot addressed by two fixed regions).
    fixed = sorted((int(r), r.size) for r in layout.regions if not r.placed)
    for (a, n), (b, _) in zip(fixed, fixed[1:]):
        assert a + n <= b


# --------------------------------------------------------------------------- what a designer opens


@pytest.mark.parametrize("game", [g for g in GAMES if get_game(g).load_board(None) is not None])
def test_the_default_board_is_drawn(game):
    spec = get_game(game)
    board = spec.load_board(None)
    svg = spec.board_svg(board)
    assert svg is not None, f"{game} has a board but no picture"
    check_picture(svg, game, board, "default board")


@pytest.mark.parametrize("game", GAMES)
def test_init_for_every_registered_game(game, tmp_path):
    """The starter file reads back, and its example targets are on the game's own scale:
    uncommented, each length band holds what a run of the defaults measures (TAXI!'s
    median of 88 turns is not in Carnage's [15, 40]), each seat band the fair share."""
    path = init(game, tmp_path / "balance.toml")
    text = path.read_text()
    data = tomllib.loads(text)
    from balance.api import run
    from balance.registry import get_game

    spec = get_game(game)
    assert data["params"] == spec.defaults()
    assert load_config(path).game == game
    live = "\n".join(line[2:] if line.startswith(("# seat_", "# strategy_", "# no_winner", "# turns_", "# end_reason."))
                     else line for line in text.splitlines())
    targets = load_config(write(tmp_path, live)).targets
    measured = run(game, games=2_000).to_dict()
    for key in ("turns_median", "turns_p90", "turns_mean"):
        band = targets[key]
        assert band.low <= measured["turns"][key.split("_")[1]] <= band.high, (key, band)
    fair = 1 / len(spec.default_players)
    assert targets["seat_win_rate"].low < fair < targets["seat_win_rate"].high
    for reason, share in measured["end_reason_shares"].items():
        band = targets[f"end_reason.{reason}"]
        assert band.low <= share["share"] <= band.high
