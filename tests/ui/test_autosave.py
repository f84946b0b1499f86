"""Autosave and recovery: a crash after an applied change loses nothing, and the restart offers it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from reviewer_app.docx.doc_lock import lock_file_for
from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.autosave import Autosaver, LockKeeper
from reviewer_app.ui.document_controller import DocumentController
from reviewer_app.ui.recovery import RecoveryEntry, RecoveryStore
from reviewer_app.ui.recovery_dialog import RecoveryDialog, offer_recovery

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "samples" / "sample-msa.docx"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def contract(tmp_path: Path) -> Path:
    copy = tmp_path / "contract.docx"
    shutil.copy(SAMPLE, copy)
    return copy


@pytest.fixture
def controller(qapp, contract: Path, tmp_path: Path) -> DocumentController:
    ctl = DocumentController(author="Alex Lawyer", store_directory=tmp_path / "queue")
    ctl.open(contract)
    return ctl


def _writes(saver: Autosaver) -> list[object]:
    written: list[object] = []
    saver.written.connect(written.append)
    return written


def test_a_burst_of_accepts_writes_one_copy(qtbot, controller: DocumentController) -> None:
    store = RecoveryStore()
    saver = Autosaver(controller, store, debounce_ms=150)
    written = _writes(saver)
    ids = [c["id"] for c in controller.reviewer.changes()[:5]]
    with qtbot.waitSignal(saver.written, timeout=3000):
        for change in ids:
            controller.accept_changes([change])
    qtbot.wait(400)  # no second write follows
    assert len(written) == 1
    [entry] = store.entries()
    assert entry.undo_count == 5 and entry.last_act == controller.undo_stack.undoText()
    restored = DocxReviewer.from_bytes(entry.read_bytes())
    assert len(restored.changes()) == len(controller.reviewer.changes())
    print(f"recovery write of the sample: {saver.last_write_ms:.1f} ms")


def test_nothing_is_written_while_the_document_is_unmodified(qtbot, controller: DocumentController) -> None:
    store = RecoveryStore()
    saver = Autosaver(controller, store, interval_s=0.05, debounce_ms=50)
    written = _writes(saver)
    qtbot.wait(200)  # several ticks of the interval timer
    assert saver.write_now() is None and written == [] and not store.directory.exists()


def test_save_close_and_undo_to_the_saved_state_remove_the_copy(
    qtbot, controller: DocumentController
) -> None:
    store = RecoveryStore()
    saver = Autosaver(controller, store, debounce_ms=50)
    first, second = (c["id"] for c in controller.reviewer.changes()[:2])
    controller.accept_changes([first])
    assert saver.write_now() is not None and len(store.entries()) == 1
    controller.save()
    assert store.entries() == []  # the file on disk is the truth now

    controller.accept_changes([second])
    saver.write_now()
    controller.undo_stack.undo()  # back to what is saved
    assert store.entries() == []

    controller.undo_stack.redo()
    saver.write_now()
    controller.close()  # the person chose "Discard" in the close question
    assert store.entries() == []


def test_the_interval_writes_what_the_debounce_missed(qtbot, controller: DocumentController) -> None:
    store = RecoveryStore()
    saver = Autosaver(controller, store, interval_s=0.1, debounce_ms=60_000)
    with qtbot.waitSignal(saver.written, timeout=3000):
        controller.accept_changes([controller.reviewer.changes()[0]["id"]])
    assert len(store.entries()) == 1


_CRASHING_WINDOW = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication
    from reviewer_app.ui.autosave import Autosaver, LockKeeper
    from reviewer_app.ui.document_controller import DocumentController
    from reviewer_app.ui.recovery import RecoveryStore

    app = QApplication([])
    controller = DocumentController(author="Alex Lawyer", store_directory=Path(sys.argv[2]))
    LockKeeper(controller).open(sys.argv[1])
    saver = Autosaver(controller, RecoveryStore(), debounce_ms=200)
    controller.accept_changes([controller.reviewer.changes()[0]["id"]])
    wait = QEventLoop()
    saver.written.connect(wait.quit)
    QTimer.singleShot(10_000, wait.quit)
    wait.exec()
    print(saver.key, flush=True)
    os._exit(3)  # the crash: no close, no save, no cleanup
    """
)


def test_a_crash_after_an_applied_change_is_offered_and_restored(
    qtbot, contract: Path, tmp_path: Path, monkeypatch
) -> None:
    original = contract.read_bytes()
    original_changes = len(DocxReviewer.open(contract).changes())
    crashed = subprocess.run(
        [sys.executable, "-c", _CRASHING_WINDOW, str(contract), str(tmp_path / "queue")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert crashed.returncode == 3, crashed.stderr
    key = crashed.stdout.strip()
    assert contract.read_bytes() == original  # nothing was saved
    left_lock = json.loads(lock_file_for(contract).read_text())
    assert left_lock["user"] == "Alex Lawyer"

    # the restart
    store = RecoveryStore()
    [entry] = store.pending()
    assert (
        entry.key == key and entry.original_path == str(contract) and entry.document_name == "contract.docx"
    )
    assert entry.undo_count == 1

    def person_restores(dialog: RecoveryDialog) -> int:
        assert dialog.list.topLevelItemCount() == 1
        assert dialog.list.topLevelItem(0).text(0) == "contract.docx"
        dialog.grab().save("/tmp/recovery_dialog.png")
        dialog.restore_selected()
        return 1

    monkeypatch.setattr(RecoveryDialog, "exec", person_restores)
    controller = DocumentController(author="Alex Lawyer", store_directory=tmp_path / "queue")
    saver = Autosaver(controller, store)
    locks = LockKeeper(controller)
    restored = offer_recovery(None, store, controller, locks)

    assert restored is not None and restored.key == key
    assert len(controller.reviewer.changes()) == original_changes - 1
    assert controller.is_modified() and controller.path == str(contract)
    assert contract.read_bytes() == original  # the person decides to save
    assert json.loads(lock_file_for(contract).read_text())["pid"] == os.getpid()  # stale lock taken over
    assert store.pending() == []  # the leftover is gone; this window's fresh copy is live
    [live] = store.entries()
    assert live.key == saver.key != key and live.pid == os.getpid()

    controller.save()
    assert store.entries() == [] and len(DocxReviewer.open(contract).changes()) == original_changes - 1
    controller.close()
    assert not lock_file_for(contract).exists()


def test_later_keeps_the_leftover_even_when_the_same_file_is_edited(
    qtbot, contract: Path, tmp_path: Path, monkeypatch
) -> None:
    store = RecoveryStore()
    key = store.key_for(contract)
    store.write(
        key,
        SAMPLE.read_bytes(),
        original_path=str(contract),
        document_name="contract.docx",
        undo_count=3,
        last_act="Reject 1 change(s)",
    )
    record = json.loads((store.directory / f"{key}.json").read_text())
    record["pid"] = 0  # no such process: a crash leftover
    (store.directory / f"{key}.json").write_text(json.dumps(record))

    monkeypatch.setattr(RecoveryDialog, "exec", lambda dialog: dialog.reject())
    controller = DocumentController(store_directory=tmp_path / "queue")
    saver = Autosaver(controller, store)
    assert offer_recovery(None, store, controller) is None and controller.reviewer is None

    controller.open(contract)
    controller.accept_changes([controller.reviewer.changes()[0]["id"]])
    saver.write_now()
    assert saver.key != key and {e.key for e in store.entries()} == {key, saver.key}
    controller.save()
    assert [e.key for e in store.pending()] == [key]  # still offered next time


def test_discard_in_the_dialog_deletes_the_copy(qtbot, tmp_path: Path, monkeypatch) -> None:
    store = RecoveryStore()
    store.write(
        "unsaved-1",
        SAMPLE.read_bytes(),
        original_path=None,
        document_name="",
        undo_count=1,
        last_act="Agent edit",
    )
    record = json.loads((store.directory / "unsaved-1.json").read_text())
    record["pid"] = 0
    (store.directory / "unsaved-1.json").write_text(json.dumps(record))

    def person_discards(dialog: RecoveryDialog) -> int:
        assert dialog.list.topLevelItem(0).text(0) == "Untitled document"
        dialog.discard_selected()
        assert not dialog.isVisible() or dialog.result() == 0
        return 0

    monkeypatch.setattr(RecoveryDialog, "exec", person_discards)
    controller = DocumentController(store_directory=tmp_path / "queue")
    assert offer_recovery(None, store, controller) is None
    assert store.entries() == [] and controller.reviewer is None


def test_the_copy_written_off_the_ui_thread_is_the_file_a_save_writes(
    qtbot, controller: DocumentController, tmp_path: Path
) -> None:
    store = RecoveryStore()
    saver = Autosaver(controller, store, debounce_ms=50)
    with qtbot.waitSignal(saver.written, timeout=5000) as landed:
        controller.accept_changes([controller.reviewer.changes()[0]["id"]])
    copy = landed.args[0].read_bytes()
    saved = tmp_path / "saved.docx"
    controller.save(saved)
    assert copy == saved.read_bytes()


def test_a_change_made_while_a_copy_is_written_is_in_the_next_copy(
    qtbot, controller: DocumentController
) -> None:
    store = RecoveryStore()
    saver = Autosaver(controller, store, debounce_ms=0)
    written = _writes(saver)
    first, second = (c["id"] for c in controller.reviewer.changes()[:2])
    controller.accept_changes([first])
    qtbot.wait(1)  # the debounce fires: the copy is being written on its thread
    controller.accept_changes([second])
    qtbot.waitUntil(lambda: len(written) == 2 and written[-1].undo_count == 2, timeout=5000)
    [entry] = store.entries()
    restored = DocxReviewer.from_bytes(entry.read_bytes())
    assert len(restored.changes()) == len(controller.reviewer.changes())


class _SlowDisk(RecoveryStore):
    """The real store on a disk that takes a while: a copy stays in flight for ``delay_s``."""

    delay_s = 0.3

    def write(self, *args: Any, **kwargs: Any) -> RecoveryEntry:
        time.sleep(self.delay_s)
        return super().write(*args, **kwargs)


def test_saving_while_a_copy_is_written_leaves_no_copy_behind(qtbot, controller: DocumentController) -> None:
    store = _SlowDisk()
    saver = Autosaver(controller, store, debounce_ms=0)
    controller.accept_changes([controller.reviewer.changes()[0]["id"]])
    qtbot.wait(1)  # the debounce fires: the copy is being written on its thread
    key = saver.key
    assert key is not None
    controller.save()
    qtbot.wait(600)  # long after the copy in flight would have landed
    assert store.entries() == [] and not list(store.directory.glob(f"{key}.*"))
