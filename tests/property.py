"""Hypothesis strategies (and their plain-random twins) for games' setups.

One module for every strategy the property tests use (Axelrod's
``tests/property.py``): seeds, game indices, parameter values inside each
game's declared ranges, and player lists of 2-4 built-in players.

Parameter values are drawn near the default most of the time (that is where
the games are played) but cover the declared range: each value is the default,
a value near it, or a value anywhere in ``low..high`` (log-uniform when the
range spans more than two orders of magnitude, so that caps such as
``max_turns`` do not make every game huge).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
GAME_INDICES = st.integers(min_value=0, max_value=10**6)


# ---- one parameter --------------------------------------------------------------
def _near(p: Any) -> tuple[int, int]:
    d = int(p.default)
    span = max(2, abs(d) // 2)
    lo, hi = d - span, d + span
    if p.low is not None:
        lo = max(lo, int(p.low))
    if p.high is not None:
        hi = min(hi, int(p.high))
    return lo, hi


def _full(p: Any) -> tuple[int, int]:
    lo = int(p.low) if p.low is not None else int(p.default) - 100
    hi = int(p.high) if p.high is not None else int(p.default) + 100
    return lo, hi


def _log_uniform_int(rng: random.Random, lo: int, hi: int) -> int:
    a, b = math.log(max(lo, 1)), math.log(hi + 1)
    return max(lo, min(hi, int(math.exp(rng.uniform(a, b)))))


def random_value(p: Any, rng: random.Random) -> Any:
    """A value of parameter ``p``: default (40%), near it (40%), anywhere (20%);
    an int with a ``step`` rounded down to a multiple of it (inside the range)."""
    value = _random_value(p, rng)
    return _on_step(p, value)


def _on_step(p: Any, value: Any) -> Any:
    step = getattr(p, "step", None)
    if not step or p.kind != "int" or value == p.default:
        return value
    value = value - value % step
    if p.low is not None and value < p.low:
        value += step
    return value


def _random_value(p: Any, rng: random.Random) -> Any:
    u = rng.random()
    if p.kind == "bool":
        return p.default if u < 0.4 else rng.random() < 0.5
    if p.kind == "choice":
        return p.default if u < 0.4 else rng.choice(p.choices)
    if p.kind == "float":
        lo, hi = _full(p)
        return p.default if u < 0.4 else rng.uniform(lo, hi)
    if u < 0.4:
        return p.default
    if u < 0.8:
        return rng.randint(*_near(p))
    lo, hi = _full(p)
    if hi - lo > 100 and hi > 100 * max(lo, 1):
        return _log_uniform_int(rng, lo, hi)
    return rng.randint(lo, hi)


def param_value(p: Any) -> st.SearchStrategy:
    """Hypothesis twin of :func:`random_value` (shrinks towards the default)."""
    if p.kind == "bool":
        return st.booleans()
    if p.kind == "choice":
        return st.sampled_from(p.choices)
    lo, hi = _full(p)
    if p.kind == "float":
        return st.one_of(st.just(p.default), st.floats(lo, hi, allow_nan=False))
    full = st.integers(lo, hi)
    if hi - lo > 100 and hi > 100 * max(lo, 1):
        full = st.floats(math.log(max(lo, 1)), math.log(hi + 1)).map(
            lambda x: max(lo, min(hi, int(math.exp(x))))
        )
    return st.one_of(st.just(p.default), st.integers(*_near(p)), full).map(lambda v: _on_step(p, v))


# ---- a whole setup ---------------------------------------------------------------
def random_params(spec: Any, rng: random.Random) -> dict[str, Any]:
    """Validated params (every rule parameter) drawn by :func:`random_value`."""
    from balance.errors import UserError

    for _ in range(100):
        overrides = {p.name: random_value(p, rng) for p in spec.params}
        try:
            return spec.resolve_params(overrides)
        except UserError:
            continue  # a combination check_params refuses: draw again
    return spec.resolve_params({})


def boundary_params(spec: Any) -> list[dict[str, Any]]:
    """Every numeric parameter at its low and at its high end, the others at default
    (combinations check_params refuses are left out)."""
    from balance.errors import UserError

    out = []
    for p in spec.params:
        if p.kind not in ("int", "float"):
            continue
        for v in (p.low, p.high):
            if v is None:
                continue
            try:
                out.append(spec.resolve_params({p.name: v}))
            except UserError:
                pass
    return out


@st.composite
def params_for(draw: Any, spec: Any) -> dict[str, Any]:
    from balance.errors import UserError

    overrides = {p.name: draw(param_value(p)) for p in spec.params}
    try:
        return spec.resolve_params(overrides)
    except UserError:
        from hypothesis import assume

        assume(False)
        raise  # unreachable


SEARCH = "mc:rollouts=4"  # the search player at a tiny budget: properties are about rules, not strength


def _labels(spec: Any) -> list[str]:
    return [p.name for p in spec.heuristics] + [SEARCH]


def player_names(spec: Any) -> st.SearchStrategy:
    names = _labels(spec)
    return st.lists(
        st.sampled_from(names),
        min_size=spec.min_players,
        max_size=min(4, spec.max_players),
    )


def random_players(spec: Any, rng: random.Random, n: int | None = None) -> list[str]:
    names = _labels(spec)
    n = n or rng.randint(spec.min_players, min(4, spec.max_players))
    return [rng.choice(names) for _ in range(n)]


@st.composite
def setups(draw: Any, spec: Any) -> tuple[dict, list[str], int, int]:
    """(params, player names, seed, game index)."""
    return (
        draw(params_for(spec)),
        draw(player_names(spec)),
        draw(SEEDS),
        draw(GAME_INDICES),
    )


# ---- a trace ---------------------------------------------------------------------
def _plain(x: Any) -> Any:
    """JSON fallback for numpy scalars (the CLI writes the same numbers)."""
    if hasattr(x, "item"):
        return x.item()
    if hasattr(x, "tolist"):
        return x.tolist()
    raise TypeError(f"not JSON serialisable: {type(x).__name__}")


def trace_events(
    spec: Any, params: dict, names: Sequence[str], seed: int, game: int = 0
) -> list[dict]:
    """One game's events, through a JSON Lines round trip (what a referee reads)."""
    import numpy as np

    distinct = list(dict.fromkeys(names))
    players = [spec.parse_player(n) for n in distinct]
    seatings = np.asarray([[distinct.index(n) for n in names]], dtype=np.int64)
    events = spec.trace(
        params, players, seatings, seed=seed, game=game, board=spec.load_board(None)
    )
    text = "\n".join(
        json.dumps(ev, default=_plain, ensure_ascii=False) for ev in events
    )
    return [json.loads(line) for line in text.splitlines()]
