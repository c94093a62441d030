"""A state that prints itself: ``describe`` (from the layout's named regions),
``Position.describe``/``step`` and ``balance trace GAME --state N``.

What is measured: the text names every dynamic region of the game with its
values as the kernel left them; stepping a position decision by decision plays
exactly the traced game; a --state outside the game is one line, exit 2."""

from __future__ import annotations

import numpy as np
import pytest

from balance.cli import main
from balance.registry import get_game


def call(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.mark.parametrize("game", ["carnage", "dicerace"])
def test_trace_state_prints_every_dynamic_region_by_name(capsys, game):
    code, out, err = call(capsys, "trace", game, "--state", "5", "--no-config")
    assert code == 0, err
    first = out.splitlines()[0]
    assert f"{game}, game 0 of seed 0, decision 5" in first and "is asked" in first
    for region in get_game(game).layout.regions:
        if region.dynamic:
            assert f"  {region.name} " in out, f"{region.name} missing from the state"
    assert "the shared header" in out and "  turn " in out


def test_the_printed_state_is_the_kernels(dicerace):
    """The values shown are the state's own: the roll pending and the pawns."""
    from balance.state import SCORE

    position = dicerace.position({}, ["plain", "plain"], seed=4)
    position.advance()
    for _ in range(3):
        position.step()
    text = position.describe()
    roll = [line for line in text.splitlines() if line.strip().startswith("roll ")][0]
    assert f"= {int(position.st[dicerace.layout.region('roll')])} " in roll
    lines = text.splitlines()
    score = lines[lines.index(next(line for line in lines if line.strip().startswith("score "))) + 1]
    assert score.split() == [f"[{int(position.st[SCORE])}", f"{int(position.st[SCORE + 1])}]"]


@pytest.mark.parametrize("game", ["dicerace", "bahama"])
def test_stepping_a_position_plays_the_traced_game(game):
    spec = get_game(game)
    players = list(spec.default_players)
    position = spec.position({}, players, seed=9, game=3)
    position.advance()
    while position.step():
        pass
    seated = [spec.parse_player(p) for p in dict.fromkeys(players)]
    seating = np.asarray([[list(dict.fromkeys(players)).index(p) for p in players]], np.int64)
    assert position.events() == spec.trace(spec.resolve_params({}), seated, seating, 9, 3)


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["trace", "dicerace", "--state", "0"], "--state 0"),
        (["trace", "dicerace", "--state", "100000"], "allowed: 1.."),
        (["trace", "dicerace", "--static"], "--static"),
    ],
)
def test_state_mistakes_are_one_line(capsys, argv, needle):
    code, out, err = call(capsys, *argv, "--no-config")
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1 and out == ""


def test_a_failing_test_shows_its_positions_state_by_name(dicerace):
    """The conftest hook: a failing test with a Position in its frame gets a
    report section with that state, region by region."""
    from tests.conftest import state_sections

    def rules_test():
        pos = dicerace.position({}, ["plain", "plain"], seed=2)
        pos.advance()
        assert pos.st[0] < 0, "a deliberate failure"

    with pytest.raises(AssertionError) as excinfo:
        rules_test()
    sections = state_sections(excinfo)
    assert sections and "'pos'" in sections[0][0]
    assert "  phase " in sections[0][1] and "  roll " in sections[0][1] and "the shared header" in sections[0][1]
