"""Bahama Taxi's rule parameters: one declaration each (``balance params bahama``).

Quotes are from the English translation of seed 003 (Bahama Taxi rules v1.0,
2012-07-12); ``reading:`` marks our choice where the rulebook is silent or
where issue 5 makes a variant of it.  RULES.md explains every reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from balance.game import Param

MAX_CAPACITY = 8  # the kernel's passenger table is 8 wide
MAX_CITIZENS_WAITING = 24  # 4 players draw 4 start cards: 48 cards are 24 citizens

PARAMS: tuple[Param, ...] = (
    Param(
        "capacity",
        "int",
        3,
        "passengers a taxi may carry at once",
        "A taxi can carry up to three passengers at once.",
        low=1,
        high=MAX_CAPACITY,
    ),
    Param(
        "citizens_waiting",
        "int",
        8,
        "citizens drawn at setup (two cards each: origin, then destination)",
        "8 inhabitants are drawn this way.",
        low=1,
        high=MAX_CITIZENS_WAITING,
    ),
    Param(
        "third_passenger_lock",
        "bool",
        True,
        "once the pile cannot supply a citizen (fewer than 2 cards), no taxi takes a 3rd (or later) passenger",
        "Once the draw pile has run out, no taxi may take a third passenger. "
        "(reading: 'run out' = fewer than two cards, the pile can no longer supply a citizen)",
    ),
    Param(
        "second_passenger_lock",
        "bool",
        True,
        "once second_lock_waiting or fewer citizens wait, no taxi takes a 2nd (or later) passenger",
        "Once only 4 or fewer inhabitants are waiting, no taxi may take a second passenger.",
    ),
    Param(
        "second_lock_waiting",
        "int",
        4,
        "the waiting count at or below which second_passenger_lock applies "
        "(counted at the pick-up, the citizen being taken included)",
        "Once only 4 or fewer inhabitants are waiting [...] (reading: counted before the pick-up)",
        low=1,
        high=MAX_CITIZENS_WAITING,
    ),
    Param(
        "pickup",
        "choice",
        "optional",
        "optional: taking a citizen waiting on the field the taxi stops on is the player's decision "
        "(decision KIND_PICKUP); compulsory: taken whenever capacity and the end-phase limits allow",
        "A player may take an inhabitant as a passenger if, at the end of the player's move, the taxi is on "
        "the field where that inhabitant waits. (reading: 'may' [Polish 'może zabrać'] gives the player a "
        "choice, as the same rulebook's 'may drive [...] or keep the taxi standing' does; compulsory is "
        "issue 5's reading)",
        choices=("compulsory", "optional"),
    ),
    Param(
        "must_move",
        "bool",
        False,
        "a taxi must move when an adjacent field is free (variant)",
        "reading: the rulebook lets a player 'keep the taxi standing where it is'; "
        "issue 5 asks for the obligatory-move variant, off by default",
    ),
    Param(
        "three_player_discard",
        "bool",
        False,
        "with 3 players, the card after the start cards is discarded so the pile splits into whole citizens (variant)",
        "reading: 3 players leave 49 cards, one of which can never become a citizen; "
        "issue 5's variant discards it at setup, off by default",
    ),
    Param(
        "max_turns",
        "int",
        1000,
        "cap on player turns; a game still running then ends with reason turn_limit and no winner",
        "reading: the rulebook's game always ends when no citizen waits, but players can stall "
        "(e.g. a taxi that never moves); default games end in about 100 turns",
        low=1,
        high=100_000,
    ),
)


# The kernel's index of each parameter in the state's PARAMS region (state.py),
# in the order of PARAMS above.
P_CAPACITY = 0
P_CITIZENS_WAITING = 1
P_THIRD_LOCK = 2  # 1: no 3rd passenger once the pile cannot supply a citizen
P_SECOND_LOCK = 3  # 1: no 2nd passenger once P_SECOND_LOCK_WAITING or fewer wait
P_SECOND_LOCK_WAITING = 4
P_PICKUP = 5  # PICKUP_COMPULSORY or PICKUP_OPTIONAL (the index of the choice)
P_MUST_MOVE = 6
P_THREE_PLAYER_DISCARD = 7
P_MAX_TURNS = 8
N_PARAMS = 9
PICKUP_COMPULSORY = 0
PICKUP_OPTIONAL = 1
assert [p.name for p in PARAMS].index("max_turns") == P_MAX_TURNS and len(PARAMS) == N_PARAMS
assert PARAMS[P_PICKUP].choices.index("optional") == PICKUP_OPTIONAL


def check_params(values: Mapping[str, Any]) -> None:
    """Cross-parameter checks.

    None is needed: every combination of values inside the ranges is a playable
    game (a lock whose threshold is reached at setup simply holds from the first
    turn; ``third_passenger_lock`` has no effect when capacity < 3;
    ``three_player_discard`` only acts with 3 players).  Kept as the one place
    to add them.
    """
    del values
