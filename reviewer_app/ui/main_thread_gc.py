"""Python's cyclic garbage is collected on Qt's thread, never on a worker thread.

A window, a panel or a chat controller easily ends up in a reference cycle (the window holds its
services, the services hold the window), so when it is closed it waits for Python's cyclic
collector. Python runs that collector in whichever thread happens to allocate past the threshold,
and threads here allocate all the time: qasync's executor (the HTTP client's name lookups), the
SDK import, a local model server in the self-test. A widget destroyed on such a thread corrupts
Qt's state, and the app crashes later in an unrelated event with nothing in the log.

So while a :class:`MainThreadCollector` is installed, automatic collection is off and a timer on
Qt's thread applies Python's own generational thresholds instead. Between ticks nothing is
collected; a tick costs a few microseconds when no threshold is passed.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

#: how often the thresholds are looked at; short enough that garbage never piles up for long
INTERVAL_MS = 250


class _LongLived:
    """CPython's guard against quadratic full collections, kept here since Python's is not exposed.

    A full collection walks every tracked object (about 80 ms with a 300-page contract open), so
    Python runs one only when the objects moved to the oldest generation since the last one are
    more than a quarter of those that were there: without this, a long streamed turn would stall
    the window for a full walk every hundred thousand allocations.
    """

    total = 0  # objects in the oldest generation after the last full collection
    pending = 0  # objects moved there since

    @classmethod
    def full_collection_due(cls) -> bool:
        return cls.pending > cls.total // 4

    @classmethod
    def collect_young(cls, generation: int) -> None:
        if generation == 0:
            gc.collect(0)
            return
        young = len(gc.get_objects(0)) + len(gc.get_objects(1))  # a few thousand at most
        found = gc.collect(1)
        cls.pending += max(young - found, 0)  # the survivors are old objects now

    @classmethod
    def collect_all(cls) -> None:
        gc.collect(2)
        cls.total, cls.pending = len(gc.get_objects(2)), 0


def collect_due() -> int | None:
    """Collect the oldest generation that is due, by Python's own rules for an allocation.

    Returns the generation collected (None when none was due), so a caller in the middle of long
    work can give an older generation's collection (tens of milliseconds) a turn of its own.
    """
    counts = gc.get_count()
    thresholds = gc.get_threshold()
    if thresholds[2] and counts[2] > thresholds[2] and _LongLived.full_collection_due():
        _LongLived.collect_all()
        return 2
    for generation in (1, 0):
        if thresholds[generation] and counts[generation] > thresholds[generation]:
            _LongLived.collect_young(generation)
            return generation
    return None


class MainThreadCollector(QObject):
    """Turns automatic collection off and collects from a timer on the thread it lives on.

    Create it on Qt's thread; :meth:`uninstall` gives the automatic collector back as it was found.
    """

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._timer = QTimer(self, interval=interval_ms)
        self._timer.timeout.connect(collect_due)
        self._timer.start()

    def uninstall(self) -> None:
        """Stop collecting here and give collection back to Python (if it had it before)."""
        self._timer.stop()
        if self._was_enabled:
            gc.enable()


def install(app: QObject) -> MainThreadCollector:
    """The application's collector, made on first call and owned by ``app`` (one per process)."""
    existing = app.findChild(MainThreadCollector)
    return existing if isinstance(existing, MainThreadCollector) else MainThreadCollector(app)
