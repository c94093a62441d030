"""The baseline file: a run's description and counts as JSON (``reports/baselines/GAME.json``).

Format ``balance-baseline/1``: the game, the package version, when it was
recorded, ``config`` (the run: rules set and every rule, players, seed,
games, seat rotation, board and player file, the rule file), ``targets`` and
``check`` (the rule file's balance goals and check settings, so a baseline is
checked the same way without the file), ``counts`` (what every metric is
computed from, :func:`balance.check.metrics.counts_of`) and ``metrics``.

:func:`load_baseline` reads and validates one; a missing or corrupt file is a
one-line :class:`~balance.errors.UserError`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from balance.check.metrics import Metric, metrics_of
from balance.errors import UserError

FORMAT = "balance-baseline/1"
BASELINE_DIR = Path("reports") / "baselines"


@dataclass
class Baseline:
    """A recorded baseline: where it lives and its JSON document."""

    path: Path | None
    data: dict[str, Any]

    @property
    def game(self) -> str:
        return self.data["game"]

    def metrics(self) -> dict[str, Metric]:
        return metrics_of(self.data["counts"])

    def to_dict(self) -> dict[str, Any]:
        return self.data

    def save(self, path: str | Path | None = None) -> Path:
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("no path to save the baseline to")
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(target.suffix + ".tmp")
        tmp.write_text(json.dumps(self.data, indent=1) + "\n", encoding="utf-8")
        tmp.replace(target)
        self.path = target
        return target


def default_baseline_path(game: str) -> Path:
    return BASELINE_DIR / f"{game}.json"


def load_baseline(path: str | Path) -> Baseline:
    """Read and validate a baseline file; :class:`UserError` (one line) when missing or corrupt."""
    p = Path(path)
    if not p.is_file():
        raise UserError(
            f"baseline {p}: no such file (record one with 'balance baseline')"
        )
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"baseline {p}: corrupt, not valid JSON ({exc})") from None
    _validate_baseline(data, str(p))
    return Baseline(p, data)


def _validate_baseline(data: Any, where: str) -> None:
    def bad(reason: str) -> UserError:
        return UserError(
            f"baseline {where}: corrupt ({reason}); record it again with 'balance baseline'"
        )

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad(f"not a {FORMAT} file")
    if not isinstance(data.get("game"), str):
        raise bad("no game name")
    cfg = data.get("config")
    if not isinstance(cfg, dict):
        raise bad("no config")
    if not isinstance(cfg.get("params"), dict) or not isinstance(
        cfg.get("rules"), dict
    ):
        raise bad("config.params / config.rules missing")
    if not isinstance(cfg.get("players"), list) or not all(
        isinstance(x, str) for x in cfg["players"]
    ):
        raise bad("config.players is not a list of names")
    for key in ("seed", "games"):
        if (
            isinstance(cfg.get(key), bool)
            or not isinstance(cfg.get(key), int)
            or cfg[key] < 0
        ):
            raise bad(f"config.{key} is not a whole number")
    if cfg["games"] < 1:
        raise bad("config.games is 0")
    if not isinstance(cfg.get("rotate_seats"), bool):
        raise bad("config.rotate_seats is not true/false")
    for key in ("board", "player_file"):
        if cfg.get(key) is not None and not isinstance(cfg[key], str):
            raise bad(f"config.{key} is not a file name")
    c = data.get("counts")
    if not isinstance(c, dict):
        raise bad("no counts")

    def ints(value: Any, length: int | None = None) -> bool:
        return (
            isinstance(value, list)
            and all(
                isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in value
            )
            and (length is None or len(value) == length)
        )

    games = c.get("games")
    if games != cfg["games"]:
        raise bad("counts.games differs from config.games")
    if not ints(c.get("seat_wins"), len(cfg["players"])):
        raise bad("counts.seat_wins")
    names = c.get("strategies")
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
        raise bad("counts.strategies")
    if not ints(c.get("strategy_wins"), len(names)) or not ints(
        c.get("strategy_games"), len(names)
    ):
        raise bad("counts.strategy_wins / strategy_games")
    if not isinstance(c.get("no_winner"), int) or not 0 <= c["no_winner"] <= games:
        raise bad("counts.no_winner")
    reasons = c.get("end_reasons")
    if not isinstance(reasons, dict) or not ints(list(reasons.values())):
        raise bad("counts.end_reasons")
    if not ints(c.get("turns_hist")) or sum(c["turns_hist"]) != games:
        raise bad("counts.turns_hist does not add up to the games")
    if sum(c["seat_wins"]) + c["no_winner"] != games or sum(reasons.values()) != games:
        raise bad("counts do not add up to the games")
    if any(w > g or g > games for w, g in zip(c["strategy_wins"], c["strategy_games"])):
        raise bad("counts.strategy_wins above strategy_games")
    for key in ("targets", "check"):
        if not isinstance(data.get(key, {}), dict):
            raise bad(f"{key} is not a table")



def find_baselines(paths: Sequence[str | Path] | None = None) -> list[Path]:
    """The given baseline files, or every ``reports/baselines/*.json``."""
    if paths:
        return [Path(p) for p in paths]
    found = sorted(BASELINE_DIR.glob("*.json"))
    if not found:
        raise UserError(
            f"no baselines in {BASELINE_DIR}/: record one with 'balance baseline'"
        )
    return found
