"""Recovery copies and lock files: what a crash leaves is offered, what a live window holds is not."""

from __future__ import annotations

import errno
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from reviewer_app.docx.atomic_write import remove_stray_save_files
from reviewer_app.docx.doc_lock import DocumentLock, DocumentLockedError, lock_file_for, process_started
from reviewer_app.ui.autosave import LockKeeper
from reviewer_app.ui.document_controller import DocumentController
from reviewer_app.ui.recovery import RecoveryStore, word_owner
from reviewer_app.ui.recovery_dialog import open_document

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "samples" / "sample-msa.docx"


@pytest.fixture
def contract(tmp_path: Path) -> Path:
    copy = tmp_path / "contract.docx"
    shutil.copy(SAMPLE, copy)
    return copy


def _rewrite_owner(store: RecoveryStore, key: str, **fields: object) -> None:
    record_file = store.directory / f"{key}.json"
    record = json.loads(record_file.read_text())
    record.update(fields)
    record_file.write_text(json.dumps(record))


def _write(store: RecoveryStore, path: Path | None) -> str:
    key = store.key_for(path)
    store.write(
        key,
        b"PK-bytes",
        original_path=str(path) if path else None,
        document_name="contract.docx",
        undo_count=1,
        last_act="Accept 1 change",
    )
    return key


@pytest.fixture
def idle_process():
    """A live process that is not this one (another Reviewer window, as far as pids go)."""
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    yield proc
    proc.kill()
    proc.wait()


def test_the_store_lives_in_the_users_state_folder_and_keys_by_path(contract: Path) -> None:
    store = RecoveryStore()
    assert store.directory == Path(os.environ["XDG_STATE_HOME"]) / "Reviewer" / "recovery"
    assert store.key_for(contract) == store.key_for(str(contract))
    assert store.key_for(None) != store.key_for(None)  # an unsaved document gets its own id


def test_an_entry_of_this_running_window_is_not_offered_and_a_dead_ones_is(
    contract: Path, idle_process
) -> None:
    store = RecoveryStore()
    key = _write(store, contract)
    [entry] = store.entries()
    assert (entry.key, entry.original_path, entry.undo_count, entry.last_act) == (
        key,
        str(contract),
        1,
        "Accept 1 change",
    )
    assert entry.read_bytes() == b"PK-bytes"
    assert store.pending() == []  # written by this process, which runs: a live window's copy

    _rewrite_owner(store, key, pid=idle_process.pid)
    assert store.pending() == []  # another live window's copy is not ours to offer
    idle_process.kill()
    idle_process.wait()
    assert [e.key for e in store.pending()] == [key]  # its process is gone: a crash leftover

    store.discard(key)
    assert store.entries() == [] and list(store.directory.iterdir()) == []


@pytest.mark.skipif(process_started(os.getpid()) is None, reason="process start times are read on Linux")
def test_an_entry_older_than_the_process_with_its_pid_is_a_leftover(contract: Path) -> None:
    store = RecoveryStore()
    key = _write(store, contract)
    _rewrite_owner(store, key, saved_at=(datetime.now(UTC) - timedelta(days=1)).isoformat())
    assert [e.key for e in store.pending()] == [key]  # the pid was recycled by this later process


def test_a_half_written_entry_is_never_offered(contract: Path) -> None:
    store = RecoveryStore()
    key = _write(store, contract)
    (store.directory / f"{key}.json").unlink()  # the copy was written, the crash came before its JSON
    other = _write(store, contract.with_name("other.docx"))
    (store.directory / f"{other}.docx").unlink()  # a JSON without its copy vouches for nothing
    (store.directory / "garbage.json").write_text("[]")
    assert store.entries() == [] and store.pending() == []


def test_stray_temp_files_of_the_store_are_cleaned_when_old(contract: Path) -> None:
    store = RecoveryStore()
    _write(store, contract)
    stray = store.directory / ".abc.docx.k2j4h5g6.tmp"
    stray.write_bytes(b"half")
    store.pending()
    assert stray.exists()  # could be a write in progress in another window
    old = time.time() - 120
    os.utime(stray, (old, old))
    store.pending()
    assert not stray.exists()


# ----------------------------------------------------------------------------- locks
def test_a_second_window_on_one_file_is_told_who_has_it(qapp, contract: Path, tmp_path: Path) -> None:
    first = DocumentController(author="Alex Lawyer", store_directory=tmp_path / "q")
    second = DocumentController(author="Sam Partner", store_directory=tmp_path / "q")
    first_locks, second_locks = LockKeeper(first), LockKeeper(second)
    first_locks.open(contract)
    lock_file = lock_file_for(contract)
    assert lock_file.name == ".contract.docx.reviewer-lock"
    record = json.loads(lock_file.read_text())
    assert (record["user"], record["pid"], record["host"]) == (
        "Alex Lawyer",
        os.getpid(),
        socket.gethostname(),
    )

    with pytest.raises(DocumentLockedError) as refused:
        second_locks.open(contract)
    assert "contract.docx is open in Reviewer by Alex Lawyer on " in str(refused.value)
    assert refused.value.owner.user == "Alex Lawyer"
    del refused  # its traceback holds this frame: kept, both controllers would wait for the cyclic collector
    assert second.reviewer is None  # nothing opened

    second_locks.open(contract, take_over=True)  # "Open Anyway"
    assert json.loads(lock_file.read_text())["user"] == "Sam Partner"
    first.close()  # the first window's release must not free the lock the second took
    assert json.loads(lock_file.read_text())["user"] == "Sam Partner"
    second.close()
    assert not lock_file.exists()


def test_a_lock_held_by_another_process_refuses_and_a_dead_ones_is_taken_over(contract: Path, caplog) -> None:
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from reviewer_app.docx.doc_lock import DocumentLock;"
            f"DocumentLock.acquire({str(contract)!r}, 'Alex'); print('held', flush=True); sys.stdin.read()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(DocumentLockedError) as refused:
            DocumentLock.acquire(contract, "Sam")
        assert refused.value.owner.pid == holder.pid and refused.value.owner.user == "Alex"
    finally:
        holder.kill()  # a crash: the lock file stays behind
        holder.wait()
    assert lock_file_for(contract).exists()
    with caplog.at_level("INFO", logger="reviewer_app.docx.doc_lock"):
        lock = DocumentLock.acquire(contract, "Sam")
    assert lock is not None and json.loads(lock_file_for(contract).read_text())["user"] == "Sam"
    assert "taking over the lock" in caplog.text
    lock.release()
    assert not lock_file_for(contract).exists()


def test_a_lock_from_another_computer_holds_for_twelve_hours(contract: Path) -> None:
    def foreign(hours_ago: float) -> None:
        opened = (datetime.now(UTC) - timedelta(hours=hours_ago)).isoformat()
        lock_file_for(contract).write_text(
            json.dumps({"user": "Kim", "host": "other-laptop", "pid": 1, "opened_at": opened, "token": "t"})
        )

    foreign(1)
    with pytest.raises(DocumentLockedError, match="by Kim on other-laptop"):
        DocumentLock.acquire(contract, "Sam")
    foreign(13)
    assert DocumentLock.acquire(contract, "Sam") is not None


def test_a_leftover_lock_with_this_processes_pid_is_stale(contract: Path) -> None:
    lock_file_for(contract).write_text(
        json.dumps(
            {
                "user": "Me",
                "host": socket.gethostname(),
                "pid": os.getpid(),
                "opened_at": datetime.now(UTC).isoformat(),
                "token": "not-held",
            }
        )
    )
    assert DocumentLock.acquire(contract, "Sam") is not None


def test_a_read_only_folder_opens_without_a_lock(qapp, contract: Path, tmp_path: Path, monkeypatch) -> None:
    folder = contract.parent
    if (
        hasattr(os, "geteuid") and os.geteuid() == 0
    ):  # root writes into read-only folders: refuse as a share would
        real_open = os.open

        def read_only(path, flags, *args):
            if str(path).endswith(".reviewer-lock"):
                raise OSError(errno.EROFS, "Read-only file system", str(path))
            return real_open(path, flags, *args)

        monkeypatch.setattr(os, "open", read_only)
    folder.chmod(0o555)
    try:
        controller = DocumentController(store_directory=tmp_path / "q")
        LockKeeper(controller).open(contract)
        assert controller.reviewer is not None
        assert not lock_file_for(contract).exists()
    finally:
        folder.chmod(0o755)


def test_words_owner_file_is_noticed(qapp, contract: Path, tmp_path: Path, monkeypatch) -> None:
    assert word_owner(contract) is None
    owner_file = contract.with_name("~$ntract.docx")  # Word's rule: ~$ over the first two characters
    owner_file.write_bytes(bytes([4]) + b"Alex" + b"\x00" * 49)
    assert word_owner(contract) == "Alex"

    import reviewer_app.ui.recovery_dialog as dialogs

    asked: list[tuple[str, str]] = []
    monkeypatch.setattr(dialogs, "warn_word_has_it_open", lambda _p, path, user: asked.append((path, user)))
    controller = DocumentController(store_directory=tmp_path / "q")
    assert open_document(None, LockKeeper(controller), contract) is False  # the person cancelled
    assert asked == [(str(contract), "Alex")] and controller.reviewer is None


def test_stray_save_files_are_removed_when_old_and_only_ours(contract: Path) -> None:
    folder = contract.parent
    old_stray = folder / ".contract.docx.ab12cd_9.tmp"
    fresh_stray = folder / ".contract.docx.zz12cd34.tmp"
    someone_elses = folder / ".other.docx.ab12cd34.tmp"
    for file in (old_stray, fresh_stray, someone_elses):
        file.write_bytes(b"partial")
    old = time.time() - 300
    for file in (old_stray, someone_elses):
        os.utime(file, (old, old))
    assert remove_stray_save_files(contract) == [old_stray]
    assert fresh_stray.exists() and someone_elses.exists()


def test_save_as_moves_the_lock_to_the_new_name(qapp, contract: Path, tmp_path: Path) -> None:
    controller = DocumentController(author="Alex Lawyer", store_directory=tmp_path / "q")
    LockKeeper(controller).open(contract)
    renamed = contract.with_name("contract-v2.docx")
    controller.save(renamed)
    assert not lock_file_for(contract).exists()
    assert json.loads(lock_file_for(renamed).read_text())["user"] == "Alex Lawyer"
    controller.close()
    assert not lock_file_for(renamed).exists()


def test_open_anyway_takes_the_document_over(qapp, contract: Path, tmp_path: Path, monkeypatch) -> None:
    import reviewer_app.ui.recovery_dialog as dialogs

    holder = DocumentController(author="Alex Lawyer", store_directory=tmp_path / "q")
    LockKeeper(holder).open(contract)
    asked: list[str] = []
    monkeypatch.setattr(dialogs, "ask_take_over", lambda _p, error: asked.append(error.owner.user) or True)
    controller = DocumentController(author="Sam Partner", store_directory=tmp_path / "q")
    assert open_document(None, LockKeeper(controller), contract) is True
    assert asked == ["Alex Lawyer"] and controller.path == str(contract)
    assert json.loads(lock_file_for(contract).read_text())["user"] == "Sam Partner"
