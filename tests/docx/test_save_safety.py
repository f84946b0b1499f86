"""Saving changes the document and nothing else about it: its permissions, owner and group, the
symbolic link it is reached through, and the files around it (a link planted as its backup).
A write that fails midway (a full disk) leaves neither a truncated document nor a truncated backup.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.document_controller import DocumentController
from tests.cli_runner import run_reviewer
from tests.conftest import REPO_ROOT

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions and links")


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _edit_and_save(qapp, path: Path, tmp_path: Path, *, keep_backup: bool = True) -> DocumentController:
    controller = DocumentController(store_directory=tmp_path / "queue")
    controller.open(path)
    controller.accept_changes([controller.reviewer.changes()[0]["id"]])
    controller.save(keep_backup=keep_backup)
    return controller


def _changes(path: Path) -> int:
    return len(DocxReviewer.open(path).changes())


@pytest.fixture
def contract(tmp_path: Path) -> Path:
    copy = tmp_path / "contract.docx"
    shutil.copyfile(SAMPLE, copy)
    return copy


@posix_only
@pytest.mark.parametrize("mode", [0o644, 0o664, 0o640], ids=oct)
def test_saving_in_the_app_keeps_the_files_mode_owner_and_group(qapp, contract, tmp_path, mode) -> None:
    os.chmod(contract, mode)
    owner = (os.getuid(), os.getgid())
    if os.geteuid() == 0:  # root can give files away: the save must give the new file back
        owner = (1234, 2345)
        os.chown(contract, *owner)
    before = _changes(contract)
    _edit_and_save(qapp, contract, tmp_path)
    assert _changes(contract) == before - 1
    assert _mode(contract) == mode
    assert (contract.stat().st_uid, contract.stat().st_gid) == owner
    assert _mode(contract.with_name("contract.docx.bak")) == mode


@posix_only
@pytest.mark.parametrize("mode", [0o644, 0o664], ids=oct)
def test_the_cli_writing_over_its_input_keeps_the_files_mode(contract, mode) -> None:
    os.chmod(contract, mode)
    run = run_reviewer("accept-all", contract, "-o", contract)
    assert run.returncode == 0, run.stderr
    assert _changes(contract) == 0
    assert _mode(contract) == mode


@posix_only
def test_a_new_file_gets_the_ordinary_default_mode(contract, tmp_path) -> None:
    out = tmp_path / "clean.docx"
    run = subprocess.run(
        [
            "sh",
            "-c",
            'umask 027 && exec "$0" -m reviewer_app accept-all "$1" -o "$2"',
            sys.executable,
            contract,
            out,
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert _mode(out) == 0o640  # 0666 less the umask, as any program's new file (not mkstemp's 0600)


@posix_only
def test_saving_through_a_link_rewrites_its_target_and_keeps_the_link(qapp, contract, tmp_path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    real = shared / "contract-v3.docx"
    contract.rename(real)
    link = tmp_path / "desk" / "contract.docx"
    link.parent.mkdir()
    link.symlink_to(real)
    before = _changes(real)

    _edit_and_save(qapp, link, tmp_path)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert _changes(real) == before - 1

    run = run_reviewer("accept-all", link, "-o", link)
    assert run.returncode == 0, run.stderr
    assert link.is_symlink() and _changes(real) == 0
    assert sorted(p.name for p in shared.iterdir()) == ["contract-v3.docx"]  # no temporary file left


@posix_only
def test_a_link_planted_as_the_backup_is_replaced_not_followed(qapp, contract, tmp_path) -> None:
    victim = tmp_path / "elsewhere" / "precious.txt"
    victim.parent.mkdir()
    victim.write_bytes(b"not yours to overwrite")
    backup = contract.with_name("contract.docx.bak")
    backup.symlink_to(victim)
    original = contract.read_bytes()

    _edit_and_save(qapp, contract, tmp_path)
    assert victim.read_bytes() == b"not yours to overwrite"
    assert not backup.is_symlink() and backup.read_bytes() == original


_FULL_DISK_SAVE = """
import resource, signal, sys
from pathlib import Path
from PySide6.QtCore import QCoreApplication
from reviewer_app.ui.document_controller import DocumentController

app = QCoreApplication([])
controller = DocumentController(store_directory=Path(sys.argv[2]))
controller.open(sys.argv[1])
controller.accept_changes([controller.reviewer.changes()[0]["id"]])
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # an oversized write then fails with EFBIG, like ENOSPC
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[3]), resource.RLIM_INFINITY))
try:
    controller.save(keep_backup=True)
except OSError as error:
    print("refused:", error.strerror)
    print("modified:", controller.is_modified())
"""


@posix_only
def test_a_write_failing_midway_leaves_no_truncated_backup_or_document(contract, tmp_path) -> None:
    original = contract.read_bytes()
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent(_FULL_DISK_SAVE),
            contract,
            tmp_path / "queue",
            str(len(original) // 2),
        ],
        cwd=REPO_ROOT,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["refused: File too large", "modified: True"]
    assert contract.read_bytes() == original
    assert sorted(p.name for p in contract.parent.iterdir() if p.name != "queue") == ["contract.docx"]
