"""Rule holes and player stalls: games that end at a simulation's cap.

A game that ends at a cap (an :class:`balance.game.EndReason` with
``is_cap``: a turn limit, not an end the rulebook gives) was cut by the
simulation.  When that happens in more than ``LIMIT`` of the games of a
line-up, either the rules let a player keep the game from ending (a rule
hole) or the players stall on their own (a player stall).  Every output that
shows a line-up's end reasons (run, sweep, tournament, report) calls
:func:`find_holes` and prints what it returns: the share with its interval,
the line-up, and what the game says about it (its ``stallers`` and the rule
setting that closes their hole).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from balance.stats import wilson

LIMIT = 0.01  # a cap reached in more than 1% of a line-up's games is named


@dataclass(frozen=True)
class Hole:
    """A line-up whose games hit a cap too often."""

    reason: str  # the cap's end reason
    games: int
    capped: int
    low: float
    high: float
    players: tuple[str, ...]
    kind: str  # "rule hole" (a staller is seated), "player stall or rule hole"
    closed_by: str  # the rule setting the game says closes it ("" when unknown or already set)
    staller: str  # the seated staller's label, if any
    does: str  # what that staller does

    @property
    def share(self) -> float:
        return self.capped / self.games if self.games else 0.0

    @property
    def certain(self) -> bool:
        """The whole interval is above LIMIT (else the share is above LIMIT
        but the interval reaches below it: it cannot tell)."""
        return self.low > LIMIT

    def explanation(self) -> str:
        """What it is, who does it, and what closes it: "a rule hole:
        waiter:patience=0 stands on ...; --param must_move=true closes it"."""
        text = f"a {self.kind}"
        if self.staller:
            text += f": {self.staller} {self.does}"
        if self.closed_by and self.staller:
            text += f"; --param {self.closed_by} closes it"
        elif self.closed_by:
            text += f"; try --param {self.closed_by} (it closes the hole the game's stalling players use)"
        elif self.staller:
            text += "; the rule that closes it is already set, so the players stall on their own"
        return text

    def message(self) -> str:
        """One line for a terminal or a page: the share with its interval, the
        line-up, and the explanation."""
        from balance.format import percent_ci

        share = f"{percent_ci(self.share, (self.low, self.high))} of {self.games:,} games"
        head = f"{share} ended at the cap ({self.reason}) with {', '.join(self.players)}"
        if not self.certain:
            head += f" (above {LIMIT:.0%}, but the interval cannot tell)"
        return f"{head}: {self.explanation()}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason, "games": self.games, "capped": self.capped, "share": self.share,
            "ci95": [self.low, self.high], "players": list(self.players), "kind": self.kind,
            "closed_by": self.closed_by or None, "staller": self.staller or None, "message": self.message(),
        }


def _param_is_set(assignment: str, params: Mapping[str, Any]) -> bool:
    name, _, value = assignment.partition("=")
    current = params.get(name.strip())
    if current is None:
        return False
    if isinstance(current, bool):
        return current == (value.strip().lower() in ("true", "1", "yes", "on"))
    return str(current) == value.strip()


def find_holes(
    spec: Any,
    end_counts: Mapping[str, int],
    players: Sequence[str],
    params: Mapping[str, Any] | None = None,
) -> list[Hole]:
    """The caps of ``spec`` reached in more than LIMIT of the games counted in
    ``end_counts`` (end reason name -> games) by the line-up ``players``
    (labels) under ``params``."""
    games = int(sum(end_counts.values()))
    if games <= 0:
        return []
    labels = tuple(str(p) for p in players)
    seated = [s for s in getattr(spec, "stallers", ()) if s.player in labels]
    out = []
    for reason in spec.end_reasons:
        if not reason.is_cap:
            continue
        capped = int(end_counts.get(reason.name, 0))
        if capped <= LIMIT * games:
            continue
        low, high = wilson(capped, games)
        staller = seated[0] if seated else None
        closed_by = ""
        if staller and staller.closed_by and not _param_is_set(staller.closed_by, params or {}):
            closed_by = staller.closed_by
        elif not staller:
            known = [s.closed_by for s in getattr(spec, "stallers", ()) if s.closed_by]
            closed_by = known[0] if known and not _param_is_set(known[0], params or {}) else ""
        out.append(Hole(
            reason=reason.name, games=games, capped=capped, low=low, high=high, players=labels,
            kind="rule hole" if staller and closed_by else "player stall or rule hole",
            closed_by=closed_by, staller=staller.player if staller else "", does=staller.does if staller else "",
        ))
    return out
