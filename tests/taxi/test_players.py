"""TAXI!'s players: the heuristics follow their definitions, mc beats them at
its defaults, and a user's player file plays through the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from balance.registry import get_game
from balance.runner import seatings_for
from sims.taxi import state as S
from tests.taxi.positions import Game, card_id

SPEC = get_game("taxi")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "taxi_bots.py"


def test_card_choices_follow_the_definitions():
    g = Game(("router", "gambler", "investor", "cautious"))
    st = g.st
    from sims.taxi.players import cautious, gambler, investor, router

    g.set(0, money=5000)
    assert router(S.KIND_CARD, 0, 0, st) == S.CARD_JOURNEY
    g.set(0, money=4990)
    assert router(S.KIND_CARD, 0, 0, st) == S.CARD_PASSENGER
    assert gambler(S.KIND_CARD, 1, 0, st) == S.CARD_JOURNEY
    assert investor(S.KIND_CARD, 2, 0, st) == S.CARD_PASSENGER
    assert cautious(S.KIND_CARD, 3, 0, st) == S.CARD_PASSENGER


def test_purchases_follow_the_definitions():
    g = Game(("router", "gambler", "investor", "cautious"))
    st = g.st
    from sims.taxi.players import cautious, gambler, investor, router

    g.set(0, money=18000)
    assert router(S.KIND_BUY, 0, 15000, st) == 1
    g.set(0, money=17990)
    assert router(S.KIND_BUY, 0, 15000, st) == 0
    assert investor(S.KIND_BUY, 2, 15000, st) == 1
    assert gambler(S.KIND_BUY, 1, 15000, st) == 0 and cautious(S.KIND_BUY, 3, 15000, st) == 0


def test_bets_follow_the_expected_values():
    g = Game(("cautious", "router", "gambler", "investor"))
    g.top("journey", card_id("journey", "MONEY"))
    g.die(1)
    g.answer(S.CARD_JOURNEY)
    st = g.st
    from sims.taxi.players import bet_value, gambler, investor, router

    # 2 of each word unrevealed: EV x 6 = money 2*3000-4*1000, freeway (4-6)*300, taxi 2*15000-4*5000
    assert [bet_value(st, w) for w in (1, 2, 3)] == [2000, -600, 10000]
    g.set(1, money=6000)
    assert router(S.KIND_BET, 1, 0, st) == S.BET_TAXI  # leaves $1,000 after the $5,000 stake
    g.set(1, money=5990)
    assert router(S.KIND_BET, 1, 0, st) == S.BET_MONEY
    g.set(2, money=500, greens=1)
    assert gambler(S.KIND_BET, 2, 0, st) == S.BET_FREEWAY  # the only affordable word, EV < 0 or not
    g.set(2, money=500, greens=0)
    assert gambler(S.KIND_BET, 2, 0, st) == S.BET_NONE
    g.set(3, money=6000)
    assert investor(S.KIND_BET, 3, 0, st) == S.BET_TAXI
    g.set(3, money=5990)
    assert investor(S.KIND_BET, 3, 0, st) == S.BET_NONE


def test_the_search_player_beats_the_router_at_its_defaults():
    """mc (32 playouts, router's rollouts cut after 12 turns) in one seat of four
    against three routers, seats rotated: fair would be 25%."""
    players = [SPEC.parse_player("mc"), SPEC.parse_player("router")]
    seatings = seatings_for([0, 1, 1, 1], rotate=True)
    n = 400
    out = SPEC.simulate(SPEC.resolve_params({}), players, seatings, 11, 0, n)
    mc_wins = sum(1 for g in range(n) if out.winner[g] >= 0 and seatings[g % 4][out.winner[g]] == 0)
    assert mc_wins / n > 0.25, f"mc won {mc_wins} of {n}"


@pytest.mark.slow
def test_a_player_file_plays_through_the_cli(tmp_path, monkeypatch, capsys):
    from balance.cli import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["run", "taxi", "--player-file", str(EXAMPLES), "--players", "saver,sprinter", "--games", "50",
              "--json"])
    assert exc.value.code in (0, None)
    assert '"saver"' in capsys.readouterr().out
