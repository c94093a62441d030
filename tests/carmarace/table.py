"""Hand-built Carmarace positions for the rule tests.

``Table(players, params, hands={seat: [cards]}, pawns={seat: "name"}, seat=s)``
sets a game up with the real setup, then empties the hands back into the draw
piles, deals the given cards, puts the pawns on the given spaces and starts
the turn of ``seat``.  ``next()`` runs the rules to the next decision
(answering draws in the draw phase with "stop" unless ``draws`` is set);
``force([...])`` scripts the next random draws (a die as its face minus one).
"""

from __future__ import annotations

from typing import Any

from balance.state import DECIDER, SCRIPT, SCRIPT_LEN, SCRIPT_POS, TURN
from sims.carmarace import SPEC
from sims.carmarace import kernel as K
from sims.carmarace import state as S

BOARD = SPEC.board_for(None)
CARDS = BOARD.decks.cards


def node(name: str) -> int:
    return BOARD.nodes.index(name)


def card_id(name: str, copy: int = 0) -> int:
    """The id of the ``copy``-th card called ``name``."""
    return [c["id"] for c in CARDS if c["name"] == name][copy]


class Table:
    def __init__(
        self,
        players: list[str],
        params: dict[str, Any] | None = None,
        hands: dict[int, list[int]] | None = None,
        pawns: dict[int, str] | None = None,
        seat: int = 0,
        kept: dict[int, tuple[int, int]] | None = None,
        draws: bool = False,
    ) -> None:
        self.pos = SPEC.position(params or {}, players)
        self.n = len(players)
        self.draws = draws
        self.pos.advance()  # setup done: the first setup draw is pending
        st = self.st
        for s in range(self.n):
            for c in list(self.hand(s)):
                self._take(c)
                self._to_draw_pile(c)
        for s, cards in (hands or {}).items():
            for c in cards:
                self._take(c)
                K._hand_add(st, s, c)
        for s, name in (pawns or {}).items():
            st[S.pawn_at(s)] = node(name)
        for s, (c, stays) in (kept or {}).items():
            self._take(c)
            st[S.kept_at(s)] = c
            st[S.keep_left_at(s)] = stays
        st[K.PHASE] = K.PH_TURN
        st[TURN] = seat  # the next turn is seat's
        st[DECIDER] = -1

    @property
    def st(self):
        return self.pos.st

    def hand(self, seat: int) -> list[int]:
        n = int(self.st[S.hand_n_at(seat)])
        return [int(self.st[S.hand_at(seat, i)]) for i in range(n)]

    def pawn(self, seat: int) -> str:
        return BOARD.nodes[int(self.st[S.pawn_at(seat)])]

    def _deck(self, c: int) -> int:
        return S.DECKS.index(CARDS[c]["deck"])

    def _take(self, c: int) -> None:
        """Remove card ``c`` from wherever it is (a hand or a draw pile)."""
        st = self.st
        for s in range(self.n):
            if c in self.hand(s):
                K._hand_remove(st, s, c)
                return
        d = self._deck(c)
        base = int(S.draw_pile_at(st, st[S.deck_first_at(d)]))
        n = int(st[S.draw_n_at(d)])
        pile = [int(x) for x in st[base : base + n]]
        if c in pile:
            pile.remove(c)
            st[base : base + n - 1] = pile
            st[S.draw_n_at(d)] = n - 1
            return
        raise AssertionError(f"card {c} is not in a hand nor a draw pile")

    def _to_draw_pile(self, c: int) -> None:
        st = self.st
        d = self._deck(c)
        base = int(S.draw_pile_at(st, st[S.deck_first_at(d)]))
        n = int(st[S.draw_n_at(d)])
        st[base + 1 : base + n + 1] = st[base : base + n].copy()
        st[base] = c  # at the bottom
        st[S.draw_n_at(d)] = n + 1

    def on_top(self, c: int) -> None:
        """Put card ``c`` on top of its draw pile (the next card drawn from its deck)."""
        self._take(c)
        st = self.st
        d = self._deck(c)
        base = int(S.draw_pile_at(st, st[S.deck_first_at(d)]))
        n = int(st[S.draw_n_at(d)])
        st[base + n] = c
        st[S.draw_n_at(d)] = n + 1

    def force(self, values: list[int]) -> None:
        st = self.st
        for i, v in enumerate(values):
            st[SCRIPT + i] = v
        st[SCRIPT_LEN] = len(values)
        st[SCRIPT_POS] = 0

    def next(self) -> tuple[int, str, int] | None:
        """The next decision as (seat, kind name, subject); None at the end."""
        while True:
            got = self.pos.advance()
            if got is None:
                return None
            seat, kind, subject = got
            if kind == S.DRAW and subject == S.SUB_DRAW and not self.draws:
                self.pos.answer(-1)
                continue
            return seat, S.KIND_NAMES[kind], subject

    def answer(self, value: int) -> None:
        self.pos.answer(value)

    def until(self, kind: str, seat: int | None = None) -> tuple[int, str, int]:
        """Let the seated players decide until a decision of ``kind`` (of ``seat``)."""
        while True:
            got = self.next()
            assert got is not None, f"the game ended before a {kind} decision"
            if got[1] == kind and (seat is None or got[0] == seat):
                return got
            self.pos.answer(self.pos.decide())

    def events(self, *types: str) -> list[dict[str, Any]]:
        return [e for e in self.pos.events() if not types or e["type"] in types]
