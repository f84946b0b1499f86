"""The app's folders and log are its owner's alone: folders 0700, the log and its backups 0600.

A transcript or review queue says what a lawyer is working on; on a shared machine nobody else
may list or read them. An install made by an older version (folders 0755, log 0644) is
tightened when the app starts.
"""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from reviewer_app.agent.proposal_store import ProposalStore
from reviewer_app.agent.transcript import Transcript, TranscriptStore
from reviewer_app.private_paths import (
    PrivateRotatingFileHandler,
    app_roots,
    config_root,
    data_root,
    log_root,
    state_root,
)
from reviewer_app.ui.app_settings import SettingsStore
from reviewer_app.ui.logging_setup import LOG_FILE_NAME, configure_logging
from reviewer_app.ui.recovery import RecoveryStore

REPO_ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX permission bits")


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def _permissive_umask():
    """The usual desktop umask, under which a plain mkdir or open gives 0755 and 0644."""
    old = os.umask(0o022)
    yield
    os.umask(old)


@pytest.fixture
def _restore_logging():
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in [h for h in root.handlers if h not in handlers]:
        root.removeHandler(handler)
        handler.close()
    for handler in handlers:
        if handler not in root.handlers:
            root.addHandler(handler)
    root.setLevel(level)


@pytest.mark.usefixtures("_restore_logging")
def test_the_log_folder_and_file_are_private() -> None:
    folder = configure_logging()
    logging.getLogger("reviewer_app.test").warning("a line for the log")
    assert folder == log_root()
    assert mode_of(folder) == 0o700
    assert mode_of(folder / LOG_FILE_NAME) == 0o600
    assert mode_of(state_root()) == 0o700  # the log folder lives inside the state folder on Linux


def test_rotated_log_files_stay_private(tmp_path: Path) -> None:
    handler = PrivateRotatingFileHandler(
        tmp_path / "reviewer.log", maxBytes=200, backupCount=3, encoding="utf-8"
    )
    logger = logging.getLogger("reviewer_app.test.rotation")
    logger.propagate = False
    logger.addHandler(handler)
    try:
        for n in range(40):
            logger.warning("line %d of a log that rotates", n)
    finally:
        logger.removeHandler(handler)
        handler.close()
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["reviewer.log", "reviewer.log.1", "reviewer.log.2", "reviewer.log.3"]
    assert {f.name: mode_of(f) for f in files} == {f.name: 0o600 for f in files}


def test_settings_transcripts_queues_and_recovery_are_written_in_private_folders(tmp_path: Path) -> None:
    store = SettingsStore()
    store.load()
    store.settings.user_initials = "JD"
    assert store.save()
    document = tmp_path / "contract.docx"
    document.write_bytes(b"not read")
    TranscriptStore().save(Transcript(document_path=str(document)))
    queue = ProposalStore(document)
    queue.proposals.append({"id": "p1"})
    queue.save()
    RecoveryStore().write(
        "k1",
        b"PK",
        original_path=str(document),
        document_name="contract.docx",
        undo_count=1,
        last_act="Typing",
    )

    folders = [config_root(), data_root(), data_root() / "transcripts", data_root() / "review-queue"]
    folders += [state_root(), state_root() / "recovery"]
    assert {str(f): mode_of(f) for f in folders} == {str(f): 0o700 for f in folders}


def test_starting_the_app_tightens_an_older_install() -> None:
    """Folders an older version made 0755 and a 0644 log become 0700 and 0600 when the app starts."""
    transcripts = data_root() / "transcripts"
    transcripts.mkdir(parents=True)
    (transcripts / "old.json").write_text("{}", encoding="utf-8")
    log_root().mkdir(parents=True)
    old_log = log_root() / LOG_FILE_NAME
    old_log.write_text("an old line\n", encoding="utf-8")
    (log_root() / f"{LOG_FILE_NAME}.1").write_text("an older line\n", encoding="utf-8")
    assert mode_of(transcripts) == 0o755 and mode_of(old_log) == 0o644

    proc = subprocess.run(
        [sys.executable, "-m", "reviewer_app", "--quit-after", "300"],
        cwd=REPO_ROOT,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        capture_output=True,
        text=True,
        timeout=90,
        stdin=subprocess.DEVNULL,
    )

    assert proc.returncode == 0, proc.stderr
    folders = [*app_roots(), transcripts, data_root() / "samples"]
    assert {str(f): mode_of(f) for f in folders} == {str(f): 0o700 for f in folders}
    files = [transcripts / "old.json", old_log, log_root() / f"{LOG_FILE_NAME}.1"]
    assert {str(f): mode_of(f) for f in files} == {str(f): 0o600 for f in files}
