"""A save interrupted between the temporary file and the rename leaves the original intact."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.autosave import LockKeeper
from reviewer_app.ui.document_controller import DocumentController

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "samples" / "sample-msa.docx"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def contract(tmp_path: Path) -> Path:
    folder = tmp_path / "matter"
    folder.mkdir()
    copy = folder / "contract.docx"
    shutil.copy(SAMPLE, copy)
    return copy


def _temp_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_failed_rename_keeps_the_original_and_the_unsaved_state(
    qapp, contract: Path, tmp_path: Path, monkeypatch
) -> None:
    original = contract.read_bytes()
    controller = DocumentController(store_directory=tmp_path / "queue")
    controller.open(contract)
    controller.accept_changes([controller.reviewer.changes()[0]["id"]])
    real_replace = os.replace

    def refusing_replace(src, dst, *args, **kwargs):
        if Path(dst) == contract:
            raise OSError(errno.EACCES, "Permission denied", str(dst))
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", refusing_replace)
    with pytest.raises(OSError) as failure:
        controller.save()
    assert failure.value.strerror == "Permission denied" and failure.value.filename == str(contract)
    del failure  # its traceback holds this frame: kept, the controller would wait for the cyclic collector
    assert contract.read_bytes() == original
    assert _temp_files(contract.parent) == []  # the temporary copy was removed
    assert controller.is_modified()  # the work is still unsaved, and says so
    assert contract.with_name("contract.docx.bak").read_bytes() == original

    monkeypatch.setattr(os, "replace", real_replace)
    controller.save()  # the next attempt succeeds
    assert not controller.is_modified()
    assert len(DocxReviewer.open(contract).changes()) == len(controller.reviewer.changes())


_KILLED_MID_SAVE = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    from PySide6.QtWidgets import QApplication
    from reviewer_app.ui.document_controller import DocumentController

    app = QApplication([])
    target = os.path.abspath(sys.argv[1])
    controller = DocumentController(store_directory=Path(sys.argv[2]))
    controller.open(target)
    controller.accept_changes([controller.reviewer.changes()[0]["id"]])
    real_replace = os.replace

    def killed(src, dst, *args, **kwargs):
        if os.path.abspath(dst) == target:
            os._exit(3)  # power cut: the temporary file is written and fsynced, the rename never happens
        return real_replace(src, dst, *args, **kwargs)

    os.replace = killed
    controller.save()
    """
)


def test_a_kill_before_the_rename_leaves_the_original_and_the_next_open_tidies_up(
    qapp, contract: Path, tmp_path: Path
) -> None:
    original = contract.read_bytes()
    killed = subprocess.run(
        [sys.executable, "-c", _KILLED_MID_SAVE, str(contract), str(tmp_path / "queue")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert killed.returncode == 3, killed.stderr
    assert contract.read_bytes() == original
    [stray] = _temp_files(contract.parent)
    assert stray.startswith(".contract.docx.")  # hidden, and never mistaken for the document
    assert DocxReviewer.open(contract.parent / stray).changes()  # the complete new version, not a fragment

    controller = DocumentController(store_directory=tmp_path / "queue")
    LockKeeper(controller).open(contract)
    assert _temp_files(contract.parent) == [stray]  # young: it may be another window's save in progress
    controller.close()
    aged = time.time() - 120
    os.utime(contract.parent / stray, (aged, aged))
    LockKeeper(controller).open(contract)
    assert _temp_files(contract.parent) == []
