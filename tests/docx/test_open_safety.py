"""A damaged or hostile file is refused with one sentence, never a traceback, and nothing but a
regular file is read: every refusal is a :class:`DocxOpenError` the CLI prints (exit 2) and the
app shows in its message box.
"""

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import textwrap
import threading
import time
import warnings
import zipfile
from pathlib import Path

import pytest

from reviewer_app.docx import DocxOpenError, DocxReviewer
from reviewer_app.docx.errors import (
    DuplicatePartError,
    EncryptedPartError,
    TruncatedPackageError,
    UnsupportedZipError,
)
from reviewer_app.ui.main_window import MainWindow
from tests.cli_runner import run_reviewer
from tests.conftest import CORPUS, REPO_ROOT
from tests.dialog_driver import answer_message_box
from tests.docx_factory import make_docx, p

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="devices, FIFOs and links")
MAIN = "word/document.xml"


def _central_entry(data: bytes, name: str) -> int:
    """Offset of ``name``'s central-directory record."""
    at = data.find(b"PK\x01\x02")
    while at != -1:
        length = struct.unpack_from("<H", data, at + 28)[0]
        if data[at + 46 : at + 46 + length] == name.encode():
            return at
        at = data.find(b"PK\x01\x02", at + 4)
    raise AssertionError(f"{name} is not in the zip")


def _local_entry(data: bytes, name: str) -> int:
    return struct.unpack_from("<I", data, _central_entry(data, name) + 42)[0]


def _patched(data: bytes, *edits: tuple[int, str, int]) -> bytes:
    out = bytearray(data)
    for offset, fmt, value in edits:
        struct.pack_into(fmt, out, offset, value)
    return bytes(out)


def encrypted_flag(data: bytes) -> bytes:
    """The main part claims zip encryption (general-purpose flag bit 0)."""
    central, local = _central_entry(data, MAIN), _local_entry(data, MAIN)
    return _patched(data, (central + 8, "<H", 1), (local + 6, "<H", 1))


def bad_header_offset(data: bytes) -> bytes:
    """The end record places the central directory past where it is: offsets turn negative."""
    end = data.rfind(b"PK\x05\x06")
    return _patched(data, (end + 16, "<I", struct.unpack_from("<I", data, end + 16)[0] + 50_000))


def future_zip_version(data: bytes) -> bytes:
    """The main part needs "zip version 25.5" to be extracted."""
    return _patched(data, (_central_entry(data, MAIN) + 6, "<H", 255))


def unknown_compression(data: bytes) -> bytes:
    """The main part is compressed with method 99 (AES), which Word never uses."""
    central, local = _central_entry(data, MAIN), _local_entry(data, MAIN)
    return _patched(data, (central + 10, "<H", 99), (local + 8, "<H", 99))


def twice_the_main_part(data: bytes) -> bytes:
    """``word/document.xml`` twice; a reader taking the last one would show other text."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, src.read(info))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # zipfile warns of the duplicate it is told to write
            dst.writestr(MAIN, src.read(MAIN).replace(b"Original", b"Smuggled"))
    return out.getvalue()


DAMAGES = {
    "encrypted-flag": (encrypted_flag, EncryptedPartError, "encrypted with a zip password"),
    "bad-header-offset": (bad_header_offset, TruncatedPackageError, "damaged"),
    "future-zip-version": (future_zip_version, UnsupportedZipError, "zip format Word does not write"),
    "unknown-compression": (unknown_compression, UnsupportedZipError, "compression method"),
    "duplicate-part": (twice_the_main_part, DuplicatePartError, "holds the part word/document.xml twice"),
}


@pytest.fixture(params=sorted(DAMAGES))
def damaged(request, tmp_path: Path) -> tuple[Path, type[DocxOpenError], str]:
    damage, error, words = DAMAGES[request.param]
    path = tmp_path / f"{request.param}.docx"
    path.write_bytes(damage(make_docx(p("Original text"))))
    return path, error, words


def test_each_damage_is_its_own_refusal(damaged) -> None:
    path, error, words = damaged
    with pytest.raises(error) as refused:
        DocxReviewer.open(path).snapshot()
    assert words in str(refused.value)


def test_the_cli_refuses_each_damage_in_one_line_with_exit_2(damaged, tmp_path) -> None:
    path, _error, words = damaged
    for args in (("read", path), ("accept-all", path, "-o", tmp_path / "out.docx")):
        run = run_reviewer(*args)
        assert run.returncode == 2, run.stderr
        assert run.stderr.startswith(f'reviewer: "{path}" cannot be opened: ')
        assert words in run.stderr and "Traceback" not in run.stderr
        assert run.stderr.count("\n") == 1
    assert not (tmp_path / "out.docx").exists()


@pytest.fixture
def window(qtbot) -> MainWindow:
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    return win


def test_the_app_shows_the_refusal_and_keeps_the_open_document(qtbot, window, damaged, tmp_path) -> None:
    path, error, words = damaged
    good = tmp_path / "good.docx"
    good.write_bytes(make_docx(p("Kept open")))
    assert window.open_path(good)
    shown = answer_message_box(qtbot, "openErrorBox", "OK")
    assert not window.open_path(path)
    assert shown.text.startswith(f'"{path}" cannot be opened: ') and words in shown.text
    assert window.controller.path == str(good)


def _memory_cap() -> None:
    """In the child: at most 1.5 GB of address space, so a runaway read fails instead of swapping."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (1536 * 1024 * 1024, resource.RLIM_INFINITY))


@posix_only
def test_a_link_to_a_device_is_refused_without_reading_it(tmp_path) -> None:
    link = tmp_path / "contract.docx"
    link.symlink_to("/dev/zero")
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "reviewer_app", "read", str(link)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_memory_cap,
    )
    assert run.returncode == 2, run.stderr[-500:]
    assert "a device, a pipe or a socket" in run.stderr
    assert time.monotonic() - started < 20  # it read 2.6 GB (or until memory ran out) before


@posix_only
def test_a_fifo_is_refused_at_once_in_the_cli(tmp_path) -> None:
    fifo = tmp_path / "contract.docx"
    os.mkfifo(fifo)
    # it blocked forever before
    run = run_reviewer("accept-all", fifo, "-o", tmp_path / "out.docx", timeout=30)
    assert run.returncode == 2
    assert "a device, a pipe or a socket" in run.stderr


@posix_only
def test_a_fifo_is_refused_at_once_in_the_app(qtbot, window, tmp_path) -> None:
    fifo = tmp_path / "contract.docx"
    os.mkfifo(fifo)
    unblock = threading.Timer(
        10, lambda: open(fifo, "wb").close()
    )  # frees a blocked open, so a failure fails
    unblock.start()
    try:
        shown = answer_message_box(qtbot, "openErrorBox", "OK")
        assert not window.open_path(fifo)
    finally:
        unblock.cancel()
    assert "a device, a pipe or a socket" in shown.text


_FUZZ = """
import json, random, resource, sys, time
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (1536 * 1024 * 1024, resource.RLIM_INFINITY))
from reviewer_app.docx import DocxOpenError, DocxReviewer

files, opens, seed, work = json.loads(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
rng = random.Random(seed)
originals = [Path(f).read_bytes() for f in files]
opened, refused, escaped = 0, {}, []
started = time.monotonic()
for n in range(opens):
    data = bytearray(originals[n % len(originals)])
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    target = work / "fuzzed.docx"
    target.write_bytes(data)
    try:
        DocxReviewer.open(target).snapshot()
        opened += 1
    except DocxOpenError as error:
        refused[type(error).__name__] = refused.get(type(error).__name__, 0) + 1
    except Exception as error:
        escaped.append(f"{files[n % len(files)]} #{n}: {type(error).__name__}: {error}")
print(json.dumps({"opened": opened, "refused": refused, "escaped": escaped, "seconds": time.monotonic() - started}))
"""
FUZZ_FILES = (
    "dxo_DD002-DenseComments.docx",
    "mammoth_endnotes.docx",
    "pt_CA001-Plain.docx",
    "pandoc_links.docx",
)


def test_a_thousand_random_corruptions_each_open_or_are_refused(tmp_path) -> None:
    files = [CORPUS / "public" / name for name in FUZZ_FILES]
    if not all(f.exists() for f in files):
        pytest.skip("the public corpus is not available")
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent(_FUZZ),
            json.dumps([str(f) for f in files]),
            "1000",
            "20240",
            tmp_path,
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,  # time cap; the memory cap (1.5 GB address space) is set inside the child
    )
    assert run.returncode == 0, run.stderr[-2000:]
    report = json.loads(run.stdout)
    assert report["escaped"] == []
    assert report["opened"] + sum(report["refused"].values()) == 1000
    assert report["seconds"] < 30
    print(report)
