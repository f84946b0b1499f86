"""Keeping the open document safe while it is edited: recovery copies and the lock file.

:class:`Autosaver` writes a recovery copy (:class:`~.recovery.RecoveryStore`) about a second
after each change (a burst of accepts writes once) and on a timer as a retry, only while the
document has unsaved changes; a save, a close or undoing back to the saved state removes the
copy, because the file on disk is then the truth. A document that opens already modified (a
restored copy) is written at once, so the leftover it came from can go. Only serializing the
edited parts runs on the UI thread (the tree cannot be read from another thread while it is
edited; ~60 ms on the 300-page contract); compressing and writing the copy (~80 ms more, and a
disk that may stall) runs on a thread of its own, one copy at a time, and a save or close waits
for a copy in flight before removing it. After typing the copy waits for a longer pause (five
seconds), so a person who stops for a second between phrases does not find their next keys
stalled; the periodic write still catches a long burst.

:class:`LockKeeper` holds the lock file of the document the controller has open and follows it
through Save As and close. Opening goes through it so the lock is taken before the document
loads and given back when loading fails.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import socket
import threading
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from ..docx.atomic_write import remove_stray_save_files
from ..docx.doc_lock import DocumentLock
from ..docx.package import zip_members
from ..docx.reviewer import DocxReviewer
from ..docx.weak_links import BackReference
from .document_controller import DocumentController
from .recovery import RecoveryEntry, RecoveryStore

log = logging.getLogger(__name__)

DEFAULT_INTERVAL_S = 60.0
DEFAULT_DEBOUNCE_MS = 1000
DEFAULT_TYPING_PAUSE_MS = 5000


#: what writing a copy gives: the entry, or why it could not be written
Outcome = RecoveryEntry | OSError


@dataclass(slots=True, eq=False)
class _InFlight:
    """A copy being compressed and written on another thread."""

    generation: int  # the Autosaver's, when it started: a discard since makes it moot
    started: float
    thread: threading.Thread | None = None
    outcome: Outcome | None = None


def _store_copy(
    store: RecoveryStore, key: str, members: list[tuple[zipfile.ZipInfo, bytes]], meta: dict[str, Any]
) -> Outcome:
    """Compress ``members`` into the package and store it as ``key``'s copy (any thread)."""
    try:
        return store.write(key, zip_members(members), **meta)
    except OSError as error:
        return error.with_traceback(None)  # kept as a value: no frames held with it


class Autosaver(QObject):
    """Writes the controller's document to the recovery store while it has unsaved changes."""

    #: a recovery copy was written (the RecoveryEntry)
    written = Signal(object)
    #: a recovery copy could not be written (the reason); the next change or tick tries again
    write_failed = Signal(str)
    #: the copy in flight is written (emitted from its thread)
    _landed = Signal()
    #: the controller is this object's Qt parent; held weakly so the two make no reference cycle
    #: (a cycle would leave them to the cyclic collector, which may run in another thread)
    _controller: BackReference[DocumentController] = BackReference()

    def __init__(
        self,
        controller: DocumentController,
        store: RecoveryStore,
        interval_s: float = DEFAULT_INTERVAL_S,
        *,
        debounce_ms: int = DEFAULT_DEBOUNCE_MS,
        typing_pause_ms: int = DEFAULT_TYPING_PAUSE_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent if parent is not None else controller)
        self._controller = controller
        self._store = store
        self._key: str | None = None
        self._dirty = False
        #: how long the last write took, serialization included (ms)
        self.last_write_ms = 0.0
        self._debounce_ms, self._typing_pause_ms = debounce_ms, typing_pause_ms
        self._debounce = QTimer(self, singleShot=True, interval=debounce_ms)
        self._debounce.timeout.connect(self._write_soon)
        self._in_flight: _InFlight | None = None
        self._generation = 0  # a discard moves it on
        self._follow = False  # a write was asked for while one was in flight
        self._landed.connect(self._collect)
        self._interval = QTimer(self)
        self._interval.timeout.connect(self._tick)
        self.set_interval(interval_s)
        controller.document_changed.connect(self._changed)
        controller.modified_changed.connect(self._modified_changed)
        controller.document_loaded.connect(self._loaded)
        controller.saved.connect(self._saved)

    @property
    def key(self) -> str | None:
        """The recovery entry this window writes for the open document (None before the first)."""
        return self._key

    def set_interval(self, interval_s: float) -> None:
        """Settings ▸ autosave interval (seconds); 0 turns the periodic write off."""
        self._interval.stop()
        if interval_s > 0:
            self._interval.start(int(interval_s * 1000))

    def write_now(self) -> RecoveryEntry | None:
        """Write the copy now if there are unsaved changes; returns the entry, or None."""
        self._debounce.stop()
        self._collect()  # the copy in flight lands first, so this newer one is the one kept
        job = self._job()
        return None if job is None else self._done(job[0](), job[1])

    def discard(self) -> None:
        """Remove this window's copy (the document was saved, closed, or is back to its saved state)."""
        self._debounce.stop()
        self._collect()  # a copy in flight would otherwise land after the removal
        self._generation += 1
        self._dirty = self._follow = False
        if self._key is not None:
            self._store.discard(self._key)

    def _job(self) -> tuple[Callable[[], Outcome], float] | None:
        """Writing the copy as things stand (the edited parts serialized now), and when it began;
        None when there is nothing unsaved to keep."""
        controller = self._controller
        if controller.reviewer is None or not controller.is_modified():
            return None
        started = time.perf_counter()
        path = controller.path
        members = controller.require().package.members()
        meta: dict[str, Any] = {
            "original_path": path,
            "document_name": Path(path).name if path else "",
            "undo_count": controller.undo_stack.count(),
            "last_act": controller.undo_stack.undoText(),
        }
        self._dirty = False
        return functools.partial(_store_copy, self._store, self._entry_key(path), members, meta), started

    def _write_soon(self) -> None:
        """Write the copy with its compressing and writing on another thread (after one in flight)."""
        self._debounce.stop()
        if self._in_flight is not None:
            self._follow = True
            return
        job = self._job()
        if job is None:
            return
        write, started = job
        flight = _InFlight(self._generation, started)
        flight.thread = threading.Thread(target=self._fly, args=(flight, write), name="recovery-copy")
        self._in_flight = flight
        flight.thread.start()

    def _fly(self, flight: _InFlight, write: Callable[[], Outcome]) -> None:
        """The copy's own thread: write it, then tell the UI thread (:meth:`_collect`)."""
        flight.outcome = write()
        with contextlib.suppress(RuntimeError):  # the window went meanwhile; the copy is written
            self._landed.emit()

    def _collect(self) -> None:
        """Take in the copy in flight, waiting for it to land; then the write asked for meanwhile."""
        flight, self._in_flight = self._in_flight, None
        if flight is None:
            return
        assert flight.thread is not None
        flight.thread.join()
        assert flight.outcome is not None
        if flight.generation == self._generation:
            self._done(flight.outcome, flight.started)
        if self._follow:
            self._follow = False
            if self._dirty:
                self._write_soon()

    def _done(self, outcome: Outcome, started: float) -> RecoveryEntry | None:
        """Tell how writing the copy went; a failed one is tried again on the next change or tick."""
        if isinstance(outcome, OSError):
            log.warning("the recovery copy could not be written: %s", outcome)
            self._dirty = True
            self.write_failed.emit(str(outcome))
            return None
        self.last_write_ms = (time.perf_counter() - started) * 1000
        log.debug("recovery copy %s written in %.0f ms", outcome.key, self.last_write_ms)
        self.written.emit(outcome)
        return outcome

    def _entry_key(self, path: str | None) -> str:
        """The document's key; a suffixed one while a crash leftover of the same file waits to be
        offered (the person chose "Later"), so new work never overwrites it."""
        if self._key is None:
            key = self._store.key_for(path)
            leftover = next((e for e in self._store.entries() if e.key == key), None)
            if leftover is not None and (leftover.pid, leftover.host) != (os.getpid(), socket.gethostname()):
                key = f"{key}-{self._store.key_for(None)[-8:]}"
            self._key = key
        return self._key

    def _changed(self, _blocks: object) -> None:
        if self._controller.is_modified():
            self._dirty = True
            self._debounce.start(self._typing_pause_ms if self._controller.typing else self._debounce_ms)

    def _modified_changed(self, modified: bool) -> None:
        if not modified:
            self.discard()
            return
        self._dirty = True
        if self._key is None and self._controller.undo_stack.count() == 0:
            self.write_now()  # opened modified (a recovered copy): it exists nowhere else under this window

    def _tick(self) -> None:
        if self._dirty:
            self._write_soon()

    def _loaded(self) -> None:
        self.discard()  # the previous document was saved or given up before this one loaded
        self._key = None

    def _saved(self, _path: str) -> None:
        self.discard()
        self._key = None  # Save As: the next copy is keyed by the new name


class LockKeeper(QObject):
    """Holds the lock of the controller's document: taken on open, moved on Save As, freed on close."""

    #: the controller is this object's Qt parent: held weakly, as the Autosaver holds it
    _controller: BackReference[DocumentController] = BackReference()

    def __init__(self, controller: DocumentController, parent: QObject | None = None) -> None:
        super().__init__(parent if parent is not None else controller)
        self._controller = controller
        self._locks: dict[str, DocumentLock | None] = {}
        controller.document_loaded.connect(self._release_others)
        controller.saved.connect(self._follow_save)

    def open(self, path: str | os.PathLike[str], *, take_over: bool = False) -> DocxReviewer:
        """Lock ``path`` and open it in the controller.

        Raises :class:`~.recovery.DocumentLockedError` when another window holds it (ask the
        person, then call again with ``take_over=True``), or the controller's open errors (the
        lock is then given back and the current document stays).
        """
        target = os.path.abspath(path)
        self._claim(target, take_over)
        try:
            return self._controller.open(target)
        except BaseException:
            self._release(target)
            raise

    def open_bytes(self, data: bytes, path: str | None, *, take_over: bool = False) -> DocxReviewer:
        """Lock ``path`` (when there is one) and open ``data`` (a recovered copy) to be saved there."""
        target = os.path.abspath(path) if path else None
        if target is not None:
            self._claim(target, take_over)
        try:
            return self._controller.open_bytes(data, target)
        except BaseException:
            if target is not None:
                self._release(target)
            raise

    def release_all(self) -> None:
        """Give back every lock (the window closes)."""
        for path in list(self._locks):
            self._release(path)

    def _claim(self, target: str, take_over: bool) -> None:
        if target in self._locks:
            return
        remove_stray_save_files(target)
        self._locks[target] = DocumentLock.acquire(target, self._controller.author, take_over=take_over)

    def _release(self, path: str) -> None:
        lock = self._locks.pop(path, None)
        if lock is not None:
            lock.release()

    def _release_others(self) -> None:
        current = self._controller.path
        keep = os.path.abspath(current) if current else None
        for path in [p for p in self._locks if p != keep]:
            self._release(path)

    def _follow_save(self, path: str) -> None:
        """Save As: lock the new name (best effort: the file is written already) and free the old one."""
        target = os.path.abspath(path)
        if target not in self._locks:
            try:
                self._claim(target, take_over=True)
            except OSError as error:
                log.info("no lock on %s after Save As: %s", Path(target).name, error)
        self._release_others()
