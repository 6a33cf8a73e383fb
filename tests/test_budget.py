"""The request budgets a server's processes share (``server/budget.py``), on a real file."""

from __future__ import annotations

import time
from pathlib import Path

from tenpennies.server.budget import SharedBuckets


def test_two_processes_maps_of_one_file_spend_one_budget_per_address(tmp_path: Path) -> None:
    path = tmp_path / "budgets"
    SharedBuckets.make(path)
    front, worker = SharedBuckets(path, 0.001, 10), SharedBuckets(path, 0.001, 10)
    try:
        now = time.monotonic()
        taken = [front.charge("ipv4:10.0.0.1", 1, now) for _ in range(6)]
        taken += [worker.charge("ipv4:10.0.0.1", 1, now) for _ in range(6)]
        assert taken.count(True) == 10 and taken[-2:] == [False, False]
        assert all(worker.charge("ipv4:10.0.0.2", 1, now) for _ in range(10))  # another address: its own
        assert not front.fallback.buckets  # every address had a slot of the file
    finally:
        front.close()
        worker.close()


def test_a_file_that_cannot_be_used_leaves_the_process_its_own_budgets(tmp_path: Path) -> None:
    lost = SharedBuckets(tmp_path / "gone", 0.001, 3)  # (a temporary directory cleaned under a running server)
    now = time.monotonic()
    assert [lost.charge("ipv4:10.0.0.1", 1, now) for _ in range(4)] == [True, True, True, False]
    lost.close()
