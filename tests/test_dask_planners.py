"""``balance tune`` and ``balance sensitivity`` on a real Dask cluster (the one of
tests/test_dask.py): their points go through the runner's executor, so
``--scheduler`` spreads them over the workers, and the numbers are the local ones."""

from __future__ import annotations

import pytest

pytest.importorskip("distributed")

from tests.test_dask import Cluster  # noqa: E402


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, dicerace):
    c = Cluster(tmp_path_factory.mktemp("dask"))
    try:
        c.start(2)
        yield c
    finally:
        c.stop()


def test_tune_on_cluster_matches_local(cluster, tmp_path):
    from balance.tune import tune

    kwargs = dict(params=["target=8..40", "first_bonus=0..3"], targets=["turns_median=12..17"],
                  players=["plain,plain", "cautious,cautious"], trials=5, rungs=[200, 800], confirm_top=1,
                  confirm_games=1000, seed=3, chunk=300, report=False)
    remote = tune("dicerace", out=tmp_path / "remote", scheduler=cluster.address, **kwargs)
    here = tune("dicerace", out=tmp_path / "local", **kwargs)
    assert remote.figures["history"] == here.figures["history"]
    assert remote.figures["answer"] == here.figures["answer"]


def test_sensitivity_on_cluster_matches_local(cluster, tmp_path):
    from balance.sensitivity import sensitivity

    kwargs = dict(params=["target=10..30", "first_bonus=0..3", "max_turns=400"], players="plain,plain", games=600,
                  trajectories=3, sobol_n=4, seed=3, chunk=250, report=False)
    remote = sensitivity("dicerace", out=tmp_path / "remote", scheduler=cluster.address, **kwargs)
    here = sensitivity("dicerace", out=tmp_path / "local", **kwargs)
    assert remote.figures["metrics"] == here.figures["metrics"]
