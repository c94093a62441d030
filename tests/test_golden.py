"""Every built-in game still plays its golden games event for event.

On an intended change of the rules or players: `make golden`, then review
`git diff tests/golden`.
"""

from __future__ import annotations

import pytest

from balance.registry import get_game
from tests.golden import BUILTIN_GAMES, cases, path_for, play, to_jsonl
from tests.referees.bahama import referee_bahama
from tests.referees.carnage import referee_carnage

REFEREES = {"carnage": referee_carnage, "bahama": referee_bahama}

CASES = [(game, name, case) for game in BUILTIN_GAMES for name, case in cases(get_game(game))]


@pytest.mark.parametrize("game, name, case", CASES, ids=[f"{g}/{n}" for g, n, _ in CASES])
def test_golden_trace(game, name, case):
    path = path_for(game, name)
    assert path.is_file(), f"missing golden trace {path}: run `make golden`"
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = to_jsonl(play(get_game(game), case)).splitlines()
    for i, (a, e) in enumerate(zip(actual, expected)):
        assert a == e, f"{game}/{name}: event {i} differs\n  now:    {a}\n  golden: {e}"
    assert len(actual) == len(expected), f"{game}/{name}: {len(actual)} events now, {len(expected)} in the golden file"


@pytest.mark.parametrize("game, name, case", CASES, ids=[f"{g}/{n}" for g, n, _ in CASES])
def test_golden_games_pass_the_referee(game, name, case):
    import json

    events = [json.loads(line) for line in path_for(game, name).read_text(encoding="utf-8").splitlines()]
    REFEREES[game](events)
