"""What the Optuna planners share (``balance train``, ``balance tune``).

* **Seeds**: the confirmation games' master seed is a fixed function of the
  tuning seed and never equal to it (:func:`confirm_seed_for`), so no
  confirmation game is a tuning game; the sampler is seeded afresh for each
  trial from (seed, trials completed) (:func:`trial_seed`), so a resumed study
  proposes exactly what an uninterrupted one would have.
* **The run folder**: ``manifest.json`` records the options; a second run in the
  same folder needs ``--resume`` and the same options (:func:`check_folder`).
* **The study** lives in SQLite (``study.db``, Optuna's RDBStorage)
  (:func:`open_study`); a trial a killed process left running is marked failed
  (it counts for nothing).
* **Importance**: Optuna's PED-ANOVA of each searched parameter
  (:func:`importance`), per objective.

Optuna (and SQLAlchemy under it) is imported only when a study is opened.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from balance.errors import UserError

_CONFIRM_SALT = 0x6A09E667F3BCC909  # the confirmation seed: splitmix64(seed ^ this), never the tuning seed
_TRIAL_SALT = 0xBB67AE8584CAA73B  # the sampler's seeds: splitmix64(splitmix64(seed ^ this) + n)
_MASK64 = (1 << 64) - 1
STUDY_FILE = "study.db"
IMPORTANCE_METHOD = "PED-ANOVA (Optuna's PedAnovaImportanceEvaluator), normalised to sum 1"


# --------------------------------------------------------------------------- seeds
def splitmix64(x: int) -> int:
    """One step of splitmix64 on a Python int (the mixer of balance.rng)."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def confirm_seed_for(seed: int) -> int:
    """The master seed of the confirmation games: a fixed function of the tuning
    seed, never equal to it (so no confirmation game is a tuning game)."""
    value = splitmix64(seed ^ _CONFIRM_SALT) & ((1 << 63) - 1)
    return value if value != seed else (value + 1) & ((1 << 63) - 1)


def trial_seed(seed: int, n: int) -> int:
    """The sampler's seed for the n-th trial: a stream of its own per master seed."""
    return splitmix64((splitmix64(seed ^ _TRIAL_SALT) + n) & _MASK64) >> 32


# --------------------------------------------------------------------------- the run folder
def check_folder(folder: Path, manifest: Mapping[str, Any], keys: Sequence[str], resume: bool, what: str) -> None:
    """Refuse a folder that holds another run, or this kind of run without
    ``--resume``, or a ``--resume`` with other options (``keys`` must match).
    Writes nothing."""
    existing = folder / "manifest.json"
    kind = manifest["kind"]
    if existing.is_file():
        if not resume:
            raise UserError(f"{folder} already holds a {what}; pass --resume to continue it, or choose another --out")
        old = json.loads(existing.read_text(encoding="utf-8"))
        differ = [k for k in keys if old.get(k) != json.loads(json.dumps(manifest[k]))]
        if old.get("kind") != kind or differ:
            raise UserError(f"{folder}: --resume of another {what} (differs in {', '.join(differ) or 'kind'})")
    elif folder.exists() and any(folder.iterdir()):
        raise UserError(f"{folder} is not empty and holds no {what}; choose another --out")


# --------------------------------------------------------------------------- Optuna
def load_optuna(verbose: bool, command: str = "balance train") -> Any:
    try:
        import optuna
    except ImportError:  # pragma: no cover - a core dependency
        raise UserError(f"{command} needs Optuna: pip install optuna") from None
    optuna.logging.set_verbosity(optuna.logging.INFO if verbose else optuna.logging.WARNING)
    return optuna


def open_study(optuna: Any, folder: Path, name: str, directions: Sequence[str]) -> Any:
    """The study in ``folder/study.db`` (created or loaded); stale running trials failed."""
    # Ctrl-C may land while SQLAlchemy holds a cursor: it then logs "Error closing
    # cursor" through Python's last-resort handler, a traceback on stderr after
    # the one line that says what was kept.  Its log stays out of stderr.
    import logging

    logging.getLogger("sqlalchemy").addHandler(logging.NullHandler())
    storage = optuna.storages.RDBStorage(f"sqlite:///{(folder / STUDY_FILE).resolve()}")
    study = optuna.create_study(storage=storage, study_name=name, directions=list(directions), load_if_exists=True)
    fail_stale(study, optuna)
    return study


def tpe_sampler(optuna: Any, seed: int, n: int, startup: int) -> Any:
    """Multivariate TPE seeded for the n-th trial (multi-objective when the study is)."""
    with warnings.catch_warnings():  # multivariate TPE is marked experimental in some Optuna versions
        warnings.simplefilter("ignore")
        return optuna.samplers.TPESampler(
            seed=trial_seed(seed, n), n_startup_trials=startup, multivariate=True, constant_liar=False,
        )


def fail_stale(study: Any, optuna: Any) -> None:
    """A trial left running by a killed process is marked failed (it counts for nothing)."""
    TS = optuna.trial.TrialState
    for t in study.get_trials(deepcopy=False, states=(TS.RUNNING,)):
        study.tell(t.number, state=TS.FAIL)


def complete(study: Any, optuna: Any) -> list[Any]:
    """The complete trials, in order."""
    return sorted(study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)), key=lambda t: t.number)


def importance(study: Any, optuna: Any, names: Sequence[str],
               target: Callable[[Any], float] | None = None) -> dict[str, Any]:
    """Optuna's PED-ANOVA importance of each searched parameter (None when the
    study is too small for the evaluator); ``target`` picks one objective of a
    multi-objective study."""
    if len(names) < 2:
        return {"method": IMPORTANCE_METHOD, "values": {names[0]: 1.0} if names else {},
                "note": "one parameter searched"}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = optuna.importance.get_param_importances(
                study, evaluator=optuna.importance.PedAnovaImportanceEvaluator(), params=list(names), target=target,
            )
    except Exception as exc:  # too few trials, or a single value tried: say so on the page
        return {"method": IMPORTANCE_METHOD, "values": None, "note": f"not computed: {' '.join(str(exc).split())[:160]}"}
    return {"method": IMPORTANCE_METHOD, "values": {k: float(v) for k, v in values.items()}, "note": None}
