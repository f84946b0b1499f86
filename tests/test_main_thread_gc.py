"""Qt objects in reference cycles are destroyed on Qt's thread, not by a busy worker thread.

A closed window in a cycle waits for Python's cyclic collector; run from a worker thread (the HTTP
client's name lookups, a model server, the SDK import) that collector would destroy widgets off
Qt's thread and crash the app later. The suite itself runs with automatic collection off (see
``conftest.py``), so each test turns it on where it needs Python's own behaviour.
"""

from __future__ import annotations

import gc
import threading
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QObject

from reviewer_app.ui.main_thread_gc import MainThreadCollector, collect_due


class _Panel(QObject):
    """A Qt object that refers to itself, as a window and its services do."""

    def __init__(self) -> None:
        super().__init__()
        self.me = self


def _churn_cycles(count: int = 50_000) -> None:
    """What a busy worker does to the collector: allocate many objects that live in cycles."""
    for _ in range(count):
        item: list[Any] = []
        item.append(item)


def _garbage_panel() -> list[int]:
    """A panel that is now unreachable except through its own cycle; the list gets the id of the
    thread that destroys it."""
    destroyed_on: list[int] = []
    panel = _Panel()
    weakref.finalize(panel, lambda: destroyed_on.append(threading.get_ident()))
    del panel
    return destroyed_on


def _churn_on_worker() -> int:
    worker = threading.Thread(target=_churn_cycles)
    worker.start()
    worker.join()
    assert worker.ident is not None
    return worker.ident


@pytest.fixture
def automatic_gc() -> Iterator[None]:
    """Python's default: automatic collection on (the suite turns it off between tests)."""
    gc.collect()
    gc.enable()
    yield
    gc.disable()


def test_without_the_collector_a_worker_thread_destroys_the_qt_object(qapp: Any, automatic_gc: None) -> None:
    destroyed_on = _garbage_panel()
    worker = _churn_on_worker()
    assert destroyed_on == [worker]


def test_with_the_collector_it_is_destroyed_on_qt_thread(qapp: Any, qtbot: Any, automatic_gc: None) -> None:
    collector = MainThreadCollector(interval_ms=20)
    try:
        destroyed_on = _garbage_panel()
        _churn_on_worker()
        assert destroyed_on == [], "the worker thread collected a Qt object"
        qtbot.waitUntil(lambda: bool(destroyed_on), timeout=2000)
        assert destroyed_on == [threading.get_ident()]
    finally:
        collector.uninstall()
    assert gc.isenabled()


def test_collect_due_collects_only_past_a_threshold(automatic_gc: None) -> None:
    gc.disable()
    gc.collect()
    destroyed_on = _garbage_panel()
    assert collect_due() is None and destroyed_on == []
    _churn_cycles(gc.get_threshold()[0] + 10)
    assert collect_due() == 0
    assert destroyed_on == [threading.get_ident()]


def test_the_app_collects_on_qt_thread_from_its_start(qapp: Any, automatic_gc: None) -> None:
    from reviewer_app.app import create_application

    create_application()
    create_application()
    collectors = qapp.findChildren(MainThreadCollector)
    try:
        assert len(collectors) == 1
        assert not gc.isenabled()
    finally:
        for collector in collectors:
            collector.uninstall()
            collector.setParent(None)


def test_full_collections_stay_rare_while_the_old_objects_barely_grow(automatic_gc: None) -> None:
    """A full collection walks every object (80 ms with a 300-page contract open): as in Python,
    one runs only when the old objects grew by a quarter, not every hundred thousand allocations."""
    gc.disable()
    long_lived = [[] for _ in range(200_000)]  # the open document, in effect
    collect_due()  # settle the bookkeeping with the heap as it is
    gc.collect()
    full: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(1)

    gc.callbacks.append(count)
    try:
        for _ in range(3_000):  # about 2.4 million short-lived objects, as a long streamed turn makes
            _churn_cycles(800)
            collect_due()
        assert gc.get_stats()[1]["collections"] > 0
        assert len(full) <= 2, f"{len(full)} full collections"
        # the old objects grow by more than a quarter (of whatever this process holds): one is due
        grown = [[] for _ in range(len(gc.get_objects()) // 3 + 1_000)]
        for _ in range(300):
            _churn_cycles(800)
            collect_due()
        assert len(full) >= 1
    finally:
        gc.callbacks.remove(count)
    del long_lived, grown
