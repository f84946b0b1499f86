"""asyncio on Qt's event loop for one test, closed so that nothing of it is left to another thread.

The app runs one qasync loop for its whole life; the suite makes one per test. A closed qasync
loop stays in a reference cycle (its selector points back at it), so without help it is freed
by Python's cyclic collector, which runs in whichever thread allocates next: in the suite, the
loopback model server's request handler. Its Qt parts (the timer object that carries
``call_later`` callbacks, the object that carries ``call_soon_threadsafe``, the executor's
QThreads) were then destroyed on that thread. Qt cannot unregister a timer from another thread
("Timers cannot be stopped from another thread"), so its timer list kept a pointer to freed
memory, and a later, unrelated test crashed in ``QTimerInfoList::activateTimers`` (CI's
segmentation faults late in the suite). Releasing those parts right after ``close()`` frees them
by reference counting on Qt's thread; what is left of the loop holds no Qt object.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

import qasync
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication


def release_qt_parts(loop: asyncio.AbstractEventLoop) -> None:
    """Drop a closed loop's references to its Qt objects (and to its QThread executor), so they
    are freed now, on this thread."""
    assert loop.is_closed(), "only a closed loop gives up its Qt parts"
    for name, value in list(vars(loop).items()):
        if isinstance(value, (QObject, qasync.QThreadExecutor)):
            setattr(loop, name, None)


@contextlib.contextmanager
def qt_event_loop() -> Iterator[asyncio.AbstractEventLoop]:
    """A qasync loop over the running QApplication, set as the current loop; on exit it runs
    10 ms more (retired chat sessions close their HTTP clients), is closed, and its Qt parts are
    released (see the module docstring)."""
    loop = qasync.QEventLoop(QApplication.instance())
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        with contextlib.suppress(Exception):
            loop.run_until_complete(asyncio.sleep(0.01))
        asyncio.set_event_loop(None)
        loop.close()
        release_qt_parts(loop)
