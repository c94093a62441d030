"""Players: built-ins differ, a user's player file loads and plays, and no
answer -- however wrong -- can break a rule (the referee replays the traces)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from balance.errors import UserError
from balance.playerfile import load_player_file
from sims.carnage import SPEC
from tests.carnage.referee import referee

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "carnage_bots.py"


def test_builtin_players_are_listed_with_descriptions():
    names = [p.name for p in SPEC.players]
    assert names == ["random", "nearest", "greedy", "fleet", "blocker", "mc"]
    assert all(p.description and p.builtin for p in SPEC.players)
    assert [p.name for p in SPEC.players if p.stochastic] == ["random", "mc"]
    assert set(SPEC.default_players) <= set(names)


def test_builtin_players_play_visibly_differently():
    params = SPEC.resolve_params({})
    stats = {}
    for name in ("random", "nearest", "greedy", "fleet"):
        out = SPEC.simulate(
            params, [SPEC.player(name)], np.array([[0, 0]]), 11, 0, 2000
        )
        stats[name] = (
            round(float(out.turns.mean()), 1),
            tuple(np.bincount(out.end_reason, minlength=5)),
        )
    assert len({s for s in stats.values()}) == 4, stats
    assert stats["random"][1][2] > 1500  # random players mostly go broke: last standing


def test_example_player_file_loads_and_plays_legally():
    extra = load_player_file(EXAMPLE, SPEC)
    assert [p.name for p in extra] == ["homebody", "wanderer"]
    players = [extra[0], SPEC.player("greedy"), extra[1]]
    seatings = np.array([[0, 1, 2], [2, 0, 1]])
    params = SPEC.resolve_params({})
    out = SPEC.simulate(params, players, seatings, 3, 0, 200)
    assert set(np.unique(out.end_reason)) <= set(range(5))
    for g in range(0, 40, 4):
        events = SPEC.trace(params, players, seatings, 3, g)
        referee(events)
        end = events[-1]
        assert (end["winner"], end["turn"]) == (int(out.winner[g]), int(out.turns[g]))


def test_a_player_answering_nonsense_cannot_break_a_rule(tmp_path):
    bots = tmp_path / "bad_bots.py"
    bots.write_text(
        "from numba import njit\n"
        "from balance import player\n"
        "from balance.state import draw_below\n"
        "import numpy as np\n"
        "@player('carnage', 'chaos', 'answers any integer at all', stochastic=True)\n"
        "@njit\n"
        "def chaos(kind, seat, subject, st):\n"
        "    return draw_below(st, np.int64(12)) - 2\n"
    )
    chaos = load_player_file(bots, SPEC)
    players = [chaos[0], SPEC.player("random")]
    params = SPEC.resolve_params({"max_turns": 200})
    for g in range(30):
        referee(SPEC.trace(params, players, np.array([[0, 1]]), 8, g))


def test_player_file_errors_are_one_line(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        load_player_file(tmp_path / "missing.py", SPEC)
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n")
    with pytest.raises(UserError, match="defines no player"):
        load_player_file(empty, SPEC)
