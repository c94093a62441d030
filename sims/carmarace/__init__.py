"""Carmarace: hitchhikers race from the parking lot to the Convention.

Seed rulebook: ../shared/seeds/004_29ccf0044ef0b6fb.txt (Luca Caltabiano, Board
to Death Games, 2014; 2-6 players).  Each turn a player rides one
Transportation card (a road vehicle, a train or a plane: a speed and a karma
limit); in a karma round everyone may play Karma cards on it to speed it up or
slow it down; then the pawn moves across a map of roads with Stop signs and
GPS arrows, railways from stations and air routes from airports.  The first
pawn at the Convention wins.  The map and the four decks are data
(boards/default.toml, boards/decks.toml; ``--board`` for others); every rule
and reading is in RULES.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from balance.errors import UserError
from balance.game import BudgetRung, EndReason, GameSpec, TraceContext
from sims.carmarace.params import PARAMS

TRACE_TURNS = 4000  # turns the trace region is sized for (hunter games: < 160, random: < 600)
ROWS_PER_TURN = 96  # trace rows a turn writes on average, generously (measured: 15 for hunters, 32 at worst)
SETUP_ROWS = 1000  # the setup's deck orders (at most 2,048 cards, 6 a row), gifts and first hands


class Carmarace(GameSpec):
    name = "carmarace"
    title = "Carmarace"
    rulebook = "sims/carmarace/RULES.md"
    summary = "hitchhikers ride cards and karma from the parking lot to the Convention"
    params = PARAMS
    end_reasons = (
        EndReason("convention", "a pawn reached the Convention"),
        EndReason("turn_limit", "max_turns player turns were played", is_cap=True),
    )
    score_name = "togo"
    standing_name = "distance to the finish (the nearest car leads)"
    min_players = 2
    max_players = 6
    default_players = ("hunter", "hunter", "hunter", "hunter")
    # The ladder a finding is checked along (balance sweep --ladder): the best
    # heuristic (docs/players.md) and the trained one (docs/train.md, which kept the defaults).
    best_heuristic = "saboteur"
    # Table time of a player turn (game length in minutes): reading.
    seconds_per_turn = 20.0
    seconds_per_turn_source = 'reading: a turn is a roll, a move and at most a card (RULES.md, "Table time")'
    trained_heuristic = ""
    # The search (docs/players.md, Carmarace): 128 playouts one round deep (a
    # turn of every seat in play: 2 turns heads up, 4 at the default table) over
    # saboteur, common random numbers, a switch at z >= 1, successive halving
    # when a menu is longer than the budget can race.
    mc_rollouts = 128
    mc_rollout_policy = "saboteur"
    mc_horizon = 1
    mc_horizon_unit = "rounds"
    mc_evidence = 1.0
    # The budget ladder as measured (docs/players.md, the search player): mc with
    # 4x and 16x the budget heads up, seats alternating; balance players shows it.
    mc_ladder = (
        BudgetRung(512, 128, 1020, 979, 16.1,
                   "balance run carmarace --players mc:rollouts=512,mc:rollouts=128 --rotate-seats --games 2000 --seed 7"),
        BudgetRung(2048, 512, 96, 103, 13.9,
                   "balance run carmarace --players mc:rollouts=2048,mc:rollouts=512 --rotate-seats --games 200 --seed 11"),
    )

    def encode(self, params: Mapping[str, Any], board: Any, n_seats: int) -> np.ndarray:
        from sims.carmarace.state import encode

        return encode(params, board, n_seats)

    def max_events(self, params: Mapping[str, Any], n_seats: int, board: Any) -> int:
        turns = min(int(params["max_turns"]), TRACE_TURNS)
        return SETUP_ROWS + ROWS_PER_TURN * turns

    def decode_trace(self, ctx: TraceContext) -> list[dict[str, Any]]:
        from sims.carmarace.events import decode

        return decode(ctx)

    def load_board(self, path: str | None = None) -> Any:
        from sims.carmarace.board import load_board

        return load_board(path)

    def board_json(self, board: Any) -> dict[str, Any]:
        from sims.carmarace.board import board_json

        return board_json(board)

    def board_svg(self, board: Any) -> str | None:
        from sims.carmarace.drawing import board_svg

        return board_svg(board)

    def heatmap_shape(self, board: Any) -> tuple[int, int] | None:
        from sims.carmarace.board import heat_grid

        return heat_grid(board)[0]

    def check_seating(self, n_seats: int, board: Any) -> None:
        squares = sum(1 for n in board.number if n is not None)
        if n_seats > squares:
            raise UserError(
                f"{n_seats} players for carmarace on map {board.source!r}: it has {squares} numbered lot squares"
            )


SPEC = Carmarace()
