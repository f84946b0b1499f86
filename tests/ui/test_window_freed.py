"""A closed window and a closed document are freed at once, with Python's automatic collector on.

The window, its helpers and its layout hold one another weakly where they point back, so nothing
Qt owns sits in a reference cycle: closing frees it by reference counting, on Qt's thread. The
automatic collector may then run in any thread (the HTTP client's name lookups, a model server)
without ever destroying a widget there, which crashed the app later in an unrelated event.

Each check runs its close step with collection switched off: whatever is freed there was freed by
reference counting, not by a collection that happened to run.
"""

from __future__ import annotations

import asyncio
import gc
import shutil
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QMessageBox

from reviewer_app.ui.main_window import MainWindow
from tests import chat_fixtures
from tests.docx_factory import make_docx, p
from tests.qt_event_loop import qt_event_loop
from tests.window_fixtures import click_menu_item, shown_main_window

SAMPLE = chat_fixtures.SAMPLE
loop = chat_fixtures.loop


@contextmanager
def no_collection() -> Iterator[None]:
    """Python's collector held off: what is freed inside was freed by reference counting."""
    assert gc.isenabled(), "the app and the suite run with Python's automatic collection on"
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _settle(loop: Any) -> None:
    """Qt's deferred deletions done, and the asyncio work a close starts (a retired chat session
    closing its HTTP client) run to its end."""
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    loop.run_until_complete(asyncio.sleep(0.05))


def _alive(parts: dict[str, weakref.ref[Any]]) -> list[str]:
    """The names of the parts still alive."""
    return [name for name, part in parts.items() if part() is not None]


def _other_version(folder: Path) -> Path:
    path = folder / "other.docx"
    path.write_bytes(make_docx(p("This Agreement is governed by the laws of England.")))
    return path


def _open_sample(window: MainWindow, folder: Path) -> None:
    copy = folder / SAMPLE.name
    shutil.copy(SAMPLE, copy)
    assert window.open_path(copy)
    window.page_view.finish_layout()


def test_a_closed_redline_window_and_its_document_are_freed_at_once(qtbot, loop, tmp_path: Path) -> None:
    """File ▸ Compare with… opens the redline in its own window; closed, that window, its
    controller, its document and its page layout are gone the moment the last reference goes."""
    window = shown_main_window(qtbot)
    _open_sample(window, tmp_path)
    other = _other_version(tmp_path)
    window.files.ask_open_path_titled = lambda _title: str(other)
    click_menu_item(window, qtbot, "file", window.actions.compare_with)
    redline = window.compare.windows[0]
    redline.files.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    redline.page_view.finish_layout()
    layout = redline.page_view.paged_layout()
    assert layout is not None and redline.reviewer is not None
    parts = (redline, redline.controller, redline.reviewer, layout, redline.chat)
    freed = {
        name: weakref.ref(part)
        for name, part in zip(("window", "controller", "document", "layout", "chat"), parts, strict=True)
    }
    del layout, parts
    with no_collection():
        assert redline.close()
        _settle(loop)
        assert window.compare.windows == []
        del redline
        assert _alive(freed) == []
    assert window.reviewer is not None  # the window it came from keeps its own document


def test_closing_the_document_frees_it_while_the_window_stays(qtbot, loop, tmp_path: Path) -> None:
    """File ▸ Close: the document and its layout are freed; the window goes on without them."""
    window = shown_main_window(qtbot)
    _open_sample(window, tmp_path)
    freed = {"document": weakref.ref(window.reviewer), "layout": weakref.ref(window.page_view.paged_layout())}
    with no_collection():
        click_menu_item(window, qtbot, "file", window.actions.close)
        _settle(loop)
        assert window.reviewer is None
        assert _alive(freed) == []


def _churn() -> None:
    """Allocate many collections' worth of cyclic garbage (run on a worker thread, it runs
    Python's automatic collector there, as a model server's handler or a name lookup does)."""
    for _ in range(50_000):
        item: list[Any] = []
        item.append(item)


def test_a_window_closed_while_a_worker_thread_allocates_is_destroyed_on_qt_thread(qtbot, loop) -> None:
    """Allocation in a worker thread runs Python's automatic collector there; a closed window
    must not be left for it to find, or a widget would be destroyed off Qt's thread."""
    destroyed_on: list[int] = []
    window = MainWindow()
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # as the redline windows are
    window.show()
    qtbot.waitExposed(window)
    weakref.finalize(window, lambda: destroyed_on.append(threading.get_ident()))

    worker = threading.Thread(target=_churn)
    with no_collection():
        assert window.close()
        _settle(loop)
        del window
    worker.start()
    worker.join()
    assert destroyed_on == [threading.get_ident()]


@pytest.fixture(autouse=True)
def _collection_on() -> None:
    """The suite as the app: Python's automatic collection is on."""
    assert gc.isenabled()


def test_a_controller_with_its_recovery_helpers_is_freed_at_once(qapp, tmp_path: Path) -> None:
    """The autosaver and the lock keeper are the controller's Qt children and hold it weakly: the
    three are freed by reference counting, not left in a cycle for a collection in another thread."""
    from reviewer_app.ui.autosave import Autosaver, LockKeeper
    from reviewer_app.ui.document_controller import DocumentController
    from reviewer_app.ui.recovery import RecoveryStore

    path = tmp_path / "contract.docx"
    path.write_bytes(make_docx(p("Clause one.")))
    with no_collection():
        controller = DocumentController(store_directory=tmp_path / "queue")
        saver, locks = Autosaver(controller, RecoveryStore(tmp_path / "recovery")), LockKeeper(controller)
        controller.open(path)
        parts = {
            "controller": weakref.ref(controller),
            "autosaver": weakref.ref(saver),
            "locks": weakref.ref(locks),
        }
        del controller, saver, locks
        assert _alive(parts) == []


def test_a_closed_event_loop_leaves_no_qt_object_to_a_collection_in_another_thread(qapp) -> None:
    """The suite runs asyncio on Qt's loop with a qasync loop per test (``qt_event_loop``), and a
    closed qasync loop stays in a reference cycle. Its Qt parts (the timer object still holding a
    pending ``call_later``, the carrier of ``call_soon_threadsafe``) must be gone before a
    collection in another thread can find them: destroyed there, the timer stayed in Qt's timer
    list as freed memory and a later test crashed (CI's segmentation faults late in the suite)."""
    gc.collect()  # earlier tests' garbage goes now, on Qt's thread: what is found below is this loop's
    found: list[str] = []

    def collect_here() -> None:
        gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection here would free is kept, to be listed
        try:
            gc.collect()
        finally:
            gc.set_debug(0)
        found.extend(type(thing).__name__ for thing in gc.garbage if isinstance(thing, QObject))

    with no_collection():
        with qt_event_loop() as event_loop:
            event_loop.call_later(60, print)  # pending at close, as an HTTP client's keep-alive timer is
            event_loop.run_until_complete(event_loop.getaddrinfo("127.0.0.1", 80))  # starts the executor
        del event_loop
        worker = threading.Thread(target=collect_here)
        worker.start()
        worker.join()
    gc.garbage.clear()
    gc.collect()
    assert found == []
