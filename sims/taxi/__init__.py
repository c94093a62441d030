"""TAXI!: 2-6 taxi drivers race through a street map to the stops of their
destination guides, paying for red lights and the freeway with tablets, drawing
Journey and Passenger cards, betting on gamble cards and buying taxi plates.

Rulebook: ../shared/seeds/001_15b32619ce928c7b.txt; the map and the decks are
our reconstruction (boards/default.toml).  Rules and readings: ``RULES.md``;
parameters: ``params.py``; board files: ``board.py``; state and decisions:
``state.py``; players: ``players.py``; the compiled rules: ``kernel.py``; the
trace: ``events.py``.  Numba is imported only when games are played.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from balance.errors import UserError
from balance.game import BudgetRung, EndReason, GameSpec, TraceContext
from sims.taxi.params import PARAMS, check_params


class Taxi(GameSpec):
    name = "taxi"
    title = "TAXI!"
    rulebook = "../shared/seeds/001_15b32619ce928c7b.txt (TAXI!); map and decks reconstructed (sims/taxi/RULES.md)"
    summary = "taxis race to their guides' destinations on a street map: tablets, gambles, plates, the wealthiest wins"
    params = PARAMS
    end_reasons = (
        EndReason("completed", "the last leg's charges were paid; the wealthiest player still in wins"),
        EndReason("last_standing", "one player was left after an elimination"),
        EndReason("turn_limit", "max_turns player turns were played", is_cap=True),
    )
    score_name = "wealth"
    standing_name = "wealth (money, plates and tablets, and the leg's expected bonus)"
    min_players = 2
    max_players = 6
    default_players = ("router", "gambler", "investor", "cautious")
    # The ladder a finding is checked along (balance sweep --ladder): the best
    # heuristic (docs/players.md) and the trained one (docs/train.md).
    best_heuristic = "router"
    # Table time of a player turn (game length in minutes): reading.
    seconds_per_turn = 30.0
    seconds_per_turn_source = 'reading: a turn is a roll, a drive through the streets and its lights, and a card (RULES.md, "Table time")'
    trained_heuristic = "router:journey_above=15000;bet_reserve=4000;buy_margin=5000;freeway_greens=4"
    # The search (docs/players.md, TAXI!): 128 playouts over router, cut after 4
    # player turns and scored by evaluate's standing, common random numbers, a
    # switch at z >= 1.  At 64, 4x its budget still won 52.6% (50.4-54.8) of
    # 2,000 games against it; at 128, 50.3%.
    mc_rollouts = 128
    mc_rollout_policy = "router"
    mc_horizon = 4  # one round of 4 players, scored by evaluate's standing (docs/players.md measures it)
    mc_evidence = 1.0
    # The budget ladder as measured (docs/players.md, the search player): mc with
    # 4x and 16x the budget heads up, seats alternating; balance players shows it.
    mc_ladder = (
        BudgetRung(512, 128, 1004, 992, 11.8,
                   "balance run taxi --players mc:rollouts=512,mc:rollouts=128 --rotate-seats --games 2000 --seed 7"),
        BudgetRung(2048, 512, 116, 84, 6.4,
                   "balance run taxi --players mc:rollouts=2048,mc:rollouts=512 --rotate-seats --games 200 --seed 11"),
    )

    # ----- parameters and board -------------------------------------------------
    def check_params(self, values: Mapping[str, Any]) -> None:
        check_params(values)

    def load_board(self, path: str | None = None) -> Any:
        from sims.taxi.board import load_board

        return load_board(path)

    def board_json(self, board: Any) -> dict[str, Any]:
        from sims.taxi.board import board_json

        return board_json(board if board is not None else self.board_for(None))

    def board_text(self, board: Any) -> str | None:
        from sims.taxi.board import board_text

        return board_text(board if board is not None else self.board_for(None))

    def board_svg(self, board: Any) -> str | None:
        from sims.taxi.drawing import board_svg

        return board_svg(board if board is not None else self.board_for(None))

    def check_seating(self, n_seats: int, board: Any) -> None:
        if n_seats > len(board.guides):
            raise UserError(
                f"{n_seats} players on board {board.name!r}: it has {len(board.guides)} destination guides, "
                "one per player"
            )

    # ----- the kernel's inputs and its trace ------------------------------------
    def encode(self, params: Mapping[str, Any], board: Any, n_seats: int) -> np.ndarray:
        from sims.taxi.state import encode

        return encode(params, board, n_seats)

    def max_events(self, params: Mapping[str, Any], n_seats: int, board: Any) -> int:
        """A bound on the rows of one game: per turn, per leg's end, setup.  Games
        longer than TRACE_TURNS turns are sized as if that long (a longer one is
        refused by GameSpec.trace, never cut)."""
        from sims.taxi.state import menu_capacity, path_capacity

        rows6 = lambda k: (k + 5) // 6  # noqa: E731
        deck = max(len(board.decks[d]) for d in ("journey", "passenger", "expense"))
        menu_capacity(board)
        n = n_seats
        turns = min(int(params["max_turns"]), TRACE_TURNS)
        shuffle = 1 + rows6(deck)
        per_turn = (
            1 + (n - 1) + 1 + 2 * shuffle + 2 + (n - 1) + 6 + n + 1 + 1
            + 2 + rows6(path_capacity(board)) + 1 + 1
        )
        plates = min(int(params["plate_supply"]), n * turns) if params["expense_per_plate"] else 1
        expenses = n * plates
        per_leg = 4 + 2 + n + expenses + (expenses // max(1, len(board.decks["expense"])) + 1) * shuffle + n
        setup = 3 * shuffle + 2
        return setup + turns * per_turn + 30 * per_leg + 2

    def decode_trace(self, ctx: TraceContext) -> list[dict[str, Any]]:
        from sims.taxi.events import decode

        return decode(ctx)


TRACE_TURNS = 20_000

SPEC = Taxi()
