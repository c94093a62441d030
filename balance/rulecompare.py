"""``balance compare A.toml B.toml``: two rule sets played on the same games.

A and B are run descriptions (:class:`~balance.runspec.RunSpec`) of one game:
two rule files (``balance.toml``), one file and ``--param`` changes (B is A
with them), or the game's defaults and ``--param`` changes.  Both are played
on the same seed and the same game indices (common random numbers) through
the runner's paired tasks, so each game is a pair: the same deal under A and
under B (:mod:`balance.paired`).  Every metric of ``balance check`` is shown
under A and under B with the paired difference and its 95% interval; the
p-values of the family are Holm-adjusted.  Several ``--players`` lists each
get their own comparison (the same games).

The game-feel metrics (:mod:`balance.feel`: P(win | leading at 25%, half
time, 75%), the comeback and kingmaking rates, lead changes, the decisive
moment, the final margin) are counted per side, not game by game, so their
difference B − A is *unpaired* (:func:`balance.paired.unpaired_difference`:
Newcombe for proportions, the normal interval of a difference of means):
conservative, since the same deals make A and B positively correlated.  They
are Holm-adjusted in a family of their own, outside the paired one
(:func:`feel_rows`); a metric a game does not have (kingmaking with two
seats) is not shown.

What is compared must differ in its rules only: the seed, the games and the
players are A's (or the options'); files for two games, or naming different
players without ``--players``, are refused before any game is played.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from balance import format as fmt
from balance.errors import UserError
from balance.runspec import RunSpec

FAMILY_ALPHA = 0.05


@dataclass
class Side:
    """One rule set: its label (A, B), where it comes from and its run description."""

    label: str
    source: str  # "A.toml", "GAME defaults", "A.toml + NAME=VALUE"
    run: RunSpec


@dataclass
class Section:
    """One players list: A against B on the same games."""

    players: list[str]
    strategies: list[str]
    end_reasons: list[str]
    runs: tuple[RunSpec, RunSpec]
    paired: Any  # balance.paired.PairedAggregate
    rows: list[Any]  # balance.paired.PairedRow
    rounds: Any = None  # balance.precision.Rounds with --precision
    score_name: str = "score"
    feel: list[Any] = field(default_factory=list)  # the game-feel rows (unpaired, feel_rows)
    feel_reading: dict[str, Any] = field(default_factory=dict)  # balance.feel.reading of the game

    @property
    def games(self) -> int:
        return self.paired.games

    def row(self, name: str) -> Any:
        return next((r for r in self.rows if r.name == name), None)


@dataclass
class CompareResult:
    game: str
    title: str
    sides: tuple[Side, Side]
    changed_rules: dict[str, tuple[Any, Any]]  # name: (A's value, B's value)
    seed: int
    seconds_per_turn: float
    seconds_per_turn_source: str
    sections: list[Section] = field(default_factory=list)
    elapsed_s: float = 0.0
    alpha: float = FAMILY_ALPHA

    # ----- words ----------------------------------------------------------------
    def rules_text(self) -> str:
        if not self.changed_rules:
            return "B plays the same rules as A"
        return ", ".join(f"{k} {fmt.format_value(a)} → {fmt.format_value(b)}" for k, (a, b) in self.changed_rules.items())

    def summary(self, section: Section) -> list[str]:
        """The answer in plain words: what B changes, each change with its interval."""
        return summary_sentences(section, self.alpha)

    def to_dict(self) -> dict[str, Any]:
        from balance import __version__

        return {
            "kind": "compare",
            "game": self.game,
            "seed": self.seed,
            "a": {"source": self.sides[0].source, "params": dict(self.sides[0].run.params), "board": self.sides[0].run.board},
            "b": {"source": self.sides[1].source, "params": dict(self.sides[1].run.params), "board": self.sides[1].run.board},
            "changed_rules": {k: {"a": a, "b": b} for k, (a, b) in self.changed_rules.items()},
            "seconds_per_turn": self.seconds_per_turn or None,
            "seconds_per_turn_source": self.seconds_per_turn_source or None,
            "alpha": self.alpha,
            "correction": "holm",
            "pairing": "the same game indices and seed under A and B (common random numbers); "
            "intervals from the per-game differences; the game feel's are unpaired (comparisons[].game_feel)",
            "comparisons": [
                {
                    "players": s.players,
                    "games": s.games,
                    "rotate_seats": s.runs[0].rotate_seats,
                    "summary": self.summary(s),
                    "metrics": [r.to_dict() for r in s.rows],
                    "game_feel": feel_dict(s),
                    "precision": s.rounds.to_dict() if s.rounds is not None else None,
                }
                for s in self.sections
            ],
            "elapsed_s": round(self.elapsed_s, 3),
            "version": __version__,
        }


FEEL_PAIRING = (
    "unpaired: the game-feel counts are kept per side, not game by game (Newcombe's hybrid score interval "
    "for a proportion, the normal interval of a difference of means for a mean); conservative, since the "
    "same deals make A and B positively correlated"
)
FEEL_FAMILY = "Holm over the game-feel metrics alone, apart from the paired metrics' family"


def feel_dict(section: Section) -> dict[str, Any] | None:
    """The game-feel part of a comparison's JSON (None when no game kept a record)."""
    if not section.feel:
        return None
    return {
        "pairing": FEEL_PAIRING,
        "correction": FEEL_FAMILY,
        "standing": section.feel_reading.get("standing"),
        "final_margin_at": "end" if section.feel_reading.get("margin_at_end", True) else "last round end",
        "fair_share": 1.0 / len(section.players),
        "metrics": [r.to_dict() for r in section.feel],
    }


def _pretty(name: str) -> str:
    if name.startswith("seat_win_rate["):
        return f"seat {name[len('seat_win_rate['):-1]}"
    if name.startswith("strategy_win_rate["):
        return f"player {name[len('strategy_win_rate['):-1]}"
    if name.startswith("end_reason["):
        return f"games ending by {name[len('end_reason['):-1]}"
    if name == "no_winner_rate":
        return "games nobody wins"
    return name


def row_change(row: Any) -> str:
    """``seat 0 from 54.2% to 50.6% (−3.6, −4.1 to −3.1)``"""
    a, b = fmt.values(row.kind if row.kind == "proportion" else "mean", (row.a.value, row.b.value))
    if row.kind == "quantile":
        a, b = fmt.value("quantile", row.a.value), fmt.value("quantile", row.b.value)
    d, lo, hi = fmt.differences(row.kind, (row.diff, *row.ci95))
    unit = " points" if row.kind == "proportion" else f" {row.unit}"
    return f"{_pretty(row.name)} from {a} to {b} ({d}{unit}, 95% CI {lo} to {hi})"


def summary_sentences(section: Section, alpha: float) -> list[str]:
    n = section.games
    changed = [r for r in section.rows if r.changed and r.tested]
    seats = [r for r in changed if r.name.startswith(("seat_win_rate[", "strategy_win_rate["))]
    others = [r for r in changed if r not in seats and not r.name.startswith("turns_")]
    mean = section.row("turns_mean")
    minutes = section.row("minutes_mean")
    words = []
    if seats:
        words.append("moves " + "; ".join(row_change(r) for r in seats))
    if mean is not None and mean.changed:
        verb = "lengthens" if mean.diff > 0 else "shortens"
        lo, hi = fmt.differences("mean", mean.ci95)
        text = f"{verb} games by {abs(mean.diff):.2f} turns (95% CI {lo} to {hi}; mean {mean.a.value:.2f} → {mean.b.value:.2f})"
        if minutes is not None:
            mlo, mhi = fmt.differences("mean", minutes.ci95)
            text += f", {abs(minutes.diff):.2f} minutes at the table (95% CI {mlo} to {mhi})"
        words.append(text)
    if others:
        words.append("changes " + "; ".join(row_change(r) for r in others[:3]) + (" and more (table)" if len(others) > 3 else ""))
    players = ", ".join(section.players)
    head = f"With {players} ({n:,} pairs of games on the same seeds), B "
    feel = [r for r in section.feel if r.changed]
    tail = [
        "Game feel (unpaired intervals, Holm over the game-feel metrics alone): B "
        + "; ".join(row_change(r) for r in feel[:3]) + (" and more (table)" if len(feel) > 3 else "") + "."
    ] if feel else []
    if not words:
        from balance.summary import detectable_shift

        tested = sum(r.tested for r in section.rows)
        shift = detectable_shift(n, 1.0 / len(section.players), alpha=alpha, tests=tested)
        return [
            head + f"changes no metric clearly (Holm-adjusted p > {alpha:g} for all {tested}).",
            f"A seat's win rate would have to move about {100 * shift:.1f} points for a test of unpaired games this "
            "size to show it with 80% power; the pairing shows smaller moves when most games end alike.",
            *tail,
        ]
    out = [head + " and ".join(words) + "."]
    quiet = [r for r in section.rows if r.tested and not r.changed]
    if quiet:
        out.append(f"{len(quiet)} of {sum(r.tested for r in section.rows)} metrics show no clear change "
                   f"(Holm-adjusted p > {alpha:g}).")
    return out + tail


def paired_rows(
    pa: Any,
    strategies: Sequence[str],
    end_reasons: Sequence[str],
    *,
    seconds_per_turn: float = 0.0,
    alpha: float = 0.05,
    reps: int = 2000,
) -> list[Any]:
    """Every metric of ``balance check`` under A and B with its paired difference;
    Holm-adjusted over the family (a player's rate that is a seat's under another
    name, and the minutes, which are the turns' test again, are left out of it)."""
    from balance.check.metrics import Metric, counts_of, duplicate_metrics, metrics_of
    from balance.paired import QUANTILES, PairedRow, paired_from_sums, paired_proportion, paired_quantile
    from balance.paired import indicator_names
    from balance.stats import holm_adjust
    import numpy as np

    ca = counts_of(pa.a, strategies, end_reasons)
    cb = counts_of(pa.b, strategies, end_reasons)
    ma, mb = metrics_of(ca), metrics_of(cb)
    same = duplicate_metrics(ca)
    columns = {name: i for i, name in enumerate(indicator_names(pa.a.n_seats, strategies, end_reasons))}
    n = pa.games
    ta, tb, counts = pa.joint()
    rows: list[PairedRow] = []
    for name, a in ma.items():
        if name in same or name not in mb:
            continue
        # what the pairs measure: the outcomes kept game by game and the length; the
        # game-feel metrics are counted per side only: unpaired, in feel_rows
        if (a.kind == "proportion" and name not in columns) or (a.kind == "mean" and name != "turns_mean") or (
            a.kind not in ("proportion", "mean") and name not in QUANTILES
        ):
            continue
        b = mb[name]
        if a.kind == "proportion":
            i = columns[name]
            d = paired_proportion(a.n, int(pa.a_only[i]), int(pa.b_only[i]))
            unit = ""
        elif a.kind == "mean":
            diff = (tb - ta).astype(np.float64)
            d = paired_from_sums(n, float((diff * counts).sum()), float((diff * diff * counts).sum()))
            unit = "turns"
        else:
            d = paired_quantile(ta, tb, counts, QUANTILES[name], reps=reps)
            unit = "turns"
        rows.append(PairedRow(name, a.kind, a, b, d.diff, (d.low, d.high), d.p_value, unit=unit))
    for row, p in zip(rows, holm_adjust([r.p_value for r in rows])):
        row.p_adjusted = p
        row.changed = p <= alpha
    if seconds_per_turn > 0:
        scale = seconds_per_turn / 60.0
        for row in [r for r in rows if r.name.startswith("turns_")]:

            def minutes(m: Metric) -> Metric:
                return Metric(m.name.replace("turns_", "minutes_"), "mean", m.value * scale,
                              (m.ci95[0] * scale, m.ci95[1] * scale), m.n)

            rows.append(
                PairedRow(
                    row.name.replace("turns_", "minutes_"), "mean", minutes(row.a), minutes(row.b),
                    row.diff * scale, (row.ci95[0] * scale, row.ci95[1] * scale), row.p_value,
                    row.p_adjusted, row.changed, "minutes", tested=False,
                )
            )
    return rows


# The game-feel metrics in the order of balance.feel.rows, each with its unit.
FEEL_ORDER = (
    ("lead_changes_mean", "lead changes"),
    ("decisive_moment_mean", "share of the game"),
    ("lead_at_25_wins", ""),
    ("lead_at_half_wins", ""),
    ("lead_at_75_wins", ""),
    ("comeback_rate", ""),
    ("kingmaking_rate", ""),
    ("final_margin_mean", "standing"),
)


def feel_rows(
    pa: Any,
    strategies: Sequence[str],
    end_reasons: Sequence[str],
    *,
    feel_reading: Mapping[str, Any] | None = None,
    alpha: float = 0.05,
) -> list[Any]:
    """Every game-feel metric of ``balance check`` under A and B with the
    *unpaired* difference B − A (:func:`balance.paired.unpaired_difference`):
    their counts are aggregated per side, not kept game by game.  Holm-adjusted
    over these metrics alone (``tested`` False: outside the paired family); a
    metric either side lacks (kingmaking with two seats, no game with a strict
    leader at a checkpoint, a GPU run's missing record) is left out."""
    from balance.check.metrics import counts_of, metrics_of
    from balance.paired import PairedRow, unpaired_difference
    from balance.stats import holm_adjust

    ma = metrics_of(counts_of(pa.a, strategies, end_reasons, feel_reading=feel_reading))
    mb = metrics_of(counts_of(pa.b, strategies, end_reasons, feel_reading=feel_reading))
    standing = str((feel_reading or {}).get("standing") or "standing")
    rows = []
    for name, unit in FEEL_ORDER:
        a, b = ma.get(name), mb.get(name)
        if a is None or b is None:
            continue
        d = unpaired_difference(a, b)
        rows.append(PairedRow(name, a.kind, a, b, d.diff, (d.low, d.high), d.p_value,
                              unit=standing if unit == "standing" else unit, tested=False, paired=False))
    for row, p in zip(rows, holm_adjust([r.p_value for r in rows])):
        row.p_adjusted = p
        row.changed = p <= alpha
    return rows


# --------------------------------------------------------------------------- the plan
def _load(path: str) -> Any:
    from balance.config import load_config

    if not Path(path).is_file():
        raise UserError(f"{path}: no such file (compare takes rule files such as balance.toml)")
    return load_config(path)


def plan_sides(
    files: Sequence[str],
    *,
    game: str | None = None,
    params: Mapping[str, Any] | None = None,
) -> tuple[Side, Side, Any, Any]:
    """A and B, and the two rule files (None where a side has none)."""
    params = dict(params or {})
    if len(files) > 2:
        raise UserError(f"compare takes at most two rule files (A and B), got {len(files)}")
    cfgs = [_load(f) for f in files]
    for f, cfg in zip(files, cfgs):
        if game is not None and cfg.game != game:
            raise UserError(f"--game {game}, but {f} is for {cfg.game!r}")
    if len(cfgs) == 2 and cfgs[0].game != cfgs[1].game:
        raise UserError(f"{files[0]} is for {cfgs[0].game!r} and {files[1]} for {cfgs[1].game!r}: compare rules of one game")
    if len(cfgs) == 2 and params:
        raise UserError("--param with two rule files: write the change into B's file (or give A alone with --param)")
    if len(cfgs) < 2 and not params:
        raise UserError("compare needs B: a second rule file, or --param NAME=VALUE changes to A's rules")
    change = ", ".join(f"{k}={v}" for k, v in params.items())
    if cfgs:
        a = Side("A", files[0], cfgs[0].run)
    else:
        from balance.config import default_game

        name = game or default_game()
        a = Side("A", f"{name} defaults", RunSpec(name))
    b = Side("B", files[1], cfgs[1].run) if len(cfgs) == 2 else Side(
        "B", f"{a.source} + {change}", a.run.with_params({**dict(a.run.params), **params})
    )
    return a, b, cfgs[0] if cfgs else None, cfgs[1] if len(cfgs) == 2 else None


def compare(
    files: Sequence[str] = (),
    *,
    game: str | None = None,
    params: Mapping[str, Any] | None = None,
    players: Sequence[str | Sequence[str]] | None = None,
    games: int | None = None,
    seed: int | None = None,
    rotate_seats: bool | None = None,
    seconds_per_turn: float | None = None,
    precision: float | None = None,
    max_games: int | None = None,
    threads: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
    reps: int | None = None,
) -> CompareResult:
    """Play A and B on the same games and compare them metric by metric (module docstring)."""
    from balance.config import DEFAULT_GAMES
    from balance.executors import make_executor
    from balance.feel import reading
    from balance.paired import BOOTSTRAP_REPS
    from balance.precision import check_precision, play_rounds
    from balance.runner import Task, split
    from balance.runspec import check_games, check_seed

    check_precision(precision, max_games)
    a, b, cfg_a, cfg_b = plan_sides(files, game=game, params=params)
    keys_a = cfg_a.game_keys if cfg_a is not None else frozenset()
    n = games if games is not None else (a.run.games if "games" in keys_a else DEFAULT_GAMES)
    check_games(n)
    s = seed if seed is not None else (a.run.seed if "seed" in keys_a else 0)
    check_seed(s)
    rotate = rotate_seats if rotate_seats is not None else a.run.rotate_seats
    if seconds_per_turn is not None and not 0 < seconds_per_turn <= 86_400:
        raise UserError(f"--seconds-per-turn {seconds_per_turn:g}: expected seconds, more than 0 and at most 86400")
    if players:
        from balance.runspec import split_players

        lists = [split_players(p) for p in players]
    else:
        pa = a.run.players
        pb = b.run.players
        if cfg_b is not None and pa != pb and pb is not None:
            raise UserError(
                f"{a.source} seats {', '.join(pa or ('the defaults',))} and {b.source} seats {', '.join(pb)}: "
                "compare rules with the same players (give --players)"
            )
        lists = [pa]
    runs = []
    for names in lists:
        pair = []
        for side in (a, b):
            run = side.run.replace(players=names, seed=s, games=n, rotate_seats=rotate)
            pair.append(run.resolved())
        ra, rb = pair
        if ra.seatings.shape != rb.seatings.shape or (ra.seatings != rb.seatings).any():
            raise UserError("A and B seat their players differently; compare rules with the same players")
        runs.append((ra, rb))
    spec = runs[0][0].spec
    spt = float(seconds_per_turn) if seconds_per_turn is not None else float(spec.seconds_per_turn or 0.0)
    spt_source = (
        f"--seconds-per-turn {seconds_per_turn:g}" if seconds_per_turn is not None else spec.seconds_per_turn_source
    )
    changed = {
        k: (ra_v, dict(runs[0][1].run.params).get(k))
        for k, ra_v in runs[0][0].run.params
        if dict(runs[0][1].run.params).get(k) != ra_v
    }
    if a.run.board != b.run.board:
        changed["board"] = (a.run.board or "default", b.run.board or "default")
    result = CompareResult(spec.name, getattr(spec, "title", spec.name), (a, b), changed, s, spt, spt_source)
    if on_start is not None and precision is None:
        on_start(n * len(runs))
    start = time.perf_counter()
    with make_executor(threads, scheduler) as executor:
        for ra, rb in runs:
            ua, ub = ra.run.absolute(), rb.run.absolute()

            def play_range(first: int, count: int, ua: RunSpec = ua, ub: RunSpec = ub) -> Any:
                from balance.runner import execute

                tasks = [Task(ua, f, k, 0, "cpu", ub) for f, k in split(first, count, 1 << 17)]
                return execute(tasks, executor, (lambda t, agg: progress(agg.games)) if progress else None)[0]

            rounds = None
            if precision is None:
                paired = play_range(0, n)
            else:
                from balance.paired import paired_proportion

                def widths(pa: Any) -> list[float]:
                    cols = pa.a.n_seats + (pa.a.n_strategies if pa.a.n_strategies > 1 else 0)
                    return [
                        (d.high - d.low) / 2
                        for i in range(cols)
                        for d in [paired_proportion(pa.games, int(pa.a_only[i]), int(pa.b_only[i]))]
                    ]

                paired, rounds = play_rounds(play_range, widths, precision, max_games, ra.seatings.shape[0])
            rows = paired_rows(
                paired, ra.labels, spec.end_reason_names, seconds_per_turn=spt, alpha=result.alpha,
                reps=reps or BOOTSTRAP_REPS,
            )
            feel_reading = reading(spec)
            feel = feel_rows(paired, ra.labels, spec.end_reason_names, feel_reading=feel_reading, alpha=result.alpha)
            result.sections.append(
                Section(list(ra.run.players), ra.labels, list(spec.end_reason_names), (ra.run, rb.run), paired, rows,
                        rounds, spec.score_name, feel, feel_reading)
            )
    result.elapsed_s = time.perf_counter() - start
    return result
