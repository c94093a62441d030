"""Carmarace's rule parameters: one declaration each, with its rulebook source.

Rulebook: ../shared/seeds/004_29ccf0044ef0b6fb.txt (Luca Caltabiano, Board to
Death Games, 2014).  Where the rulebook is silent the source starts with
"reading:" and says why (sims/carmarace/RULES.md has the long form, rule by
rule).  The map and the four decks are data (boards/default.toml,
boards/decks.toml), swept by passing other files with ``--board``.

The kernel reads the values at ``state.PARAMS + P_*``: a bool as 0/1, a
choice as its index in ``choices``.
"""

from __future__ import annotations

from balance.game import Param

PARAMS: tuple[Param, ...] = (
    Param(
        "hand_limit", "int", 0,
        "hand limit; 0 = the rulebook's table (2 players: 4, 3-4: 5, 5-6: 6)",
        "2 player game = Maximum hand size of 4 cards; 3-4 player game = ... 5 cards; 5-6 player game = ... 6 cards",
        low=0, high=10,
    ),
    Param(
        "start_squares", "choice", "lowest",
        "which numbered lot squares the seats take (seat order = square order)",
        "The number will determine the turn order (reading: seats take squares 1..P, as a review's "
        "'5th or 6th spot'; highest = the P highest numbers; random = P distinct squares at random)",
        choices=("lowest", "highest", "random"),
    ),
    Param(
        "start_gifts", "bool", True,
        "the players next to the airport / station start with the plane / train gift card",
        "The player next to the airport starts with a 'Plane Transportation' card in his hand. The player "
        "next to the train station starts with 'The People's Transport' train card in his hand.",
    ),
    Param(
        "karma_must_match", "bool", True,
        "a Karma card must come from the deck of the vehicle's mode (road, train, plane)",
        "reading: the game has one Karma deck per mode (road, train, plane) and never says a card may go "
        "on another mode's vehicle",
    ),
    Param(
        "karma_limit_delta", "int", 0,
        "added to every printed karma limit (floor 0)",
        "reading: a designer's knob on 'the Karma limit on that Transportation card'",
        low=-3, high=3,
    ),
    Param(
        "plane_stays_aloft", "bool", True,
        "a plane ending its move in the sky stays in front of its player and must be ridden next turn",
        "reading: a review's 'you won't be kicked out of the planes in mid-air'",
    ),
    Param(
        "young_players", "bool", False,
        "variant: no special abilities (card text ignored: only speeds count)",
        "Variant (For younger players): You can play CarmaRace without using the special abilities. Just use "
        "the Speed of the transportations and the + or - from the Karma Cards.",
    ),
    Param(
        "good_karma_step", "bool", False,
        "variant: playing a positive Karma card on another player's vehicle steps your own pawn 1 space",
        "Good Karma Variant: ... the player who plays a Positive Karma card on another player may immediately "
        "move up one space.",
    ),
    Param(
        "tie_rule", "choice", "vote",
        "how a tie between closest spots is settled (move to the closest road or track)",
        "Ties: Whenever there is a tie for whatever reason, players take a vote ... If the votes are also tied, "
        "the player in last position decides.",
        choices=("vote", "random"),
    ),
    Param(
        "max_turns", "int", 1000,
        "player turns before the game ends with no winner (turn_limit)",
        "reading: a simulation must end; hunter games end within 160 turns even with 6 players, random-only "
        "games within about 500",
        low=1, high=100_000,
    ),
)

P_HAND_LIMIT = 0
P_START_SQUARES = 1
P_START_GIFTS = 2
P_KARMA_MUST_MATCH = 3
P_KARMA_LIMIT_DELTA = 4
P_PLANE_STAYS_ALOFT = 5
P_YOUNG_PLAYERS = 6
P_GOOD_KARMA_STEP = 7
P_TIE_RULE = 8
P_MAX_TURNS = 9
N_PARAMS = len(PARAMS)

SQUARES_LOWEST = 0
SQUARES_HIGHEST = 1
SQUARES_RANDOM = 2
TIE_VOTE = 0
TIE_RANDOM = 1

assert [p.name for p in PARAMS].index("max_turns") == P_MAX_TURNS
