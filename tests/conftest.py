"""Shared fixtures: where the corpus and checkers are, per-test config isolation, LibreOffice.

``../shared`` sits beside the repository (CI clones the repo elsewhere and copies ``shared/``
next to it) and is read-only there: tests read from it and write only into ``tmp_path``.

Fixture names are used across the suite; keep them stable: ``corpus_dir``,
``public_corpus_files``, ``malformed_files``, ``lo_reading`` (and its alias ``lo_inspect``).
"""

from __future__ import annotations

import copy
import gc
import json
import os
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# Qt reads the platform when the first QApplication is built, before any fixture could run.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
CHECKERS = SHARED / "checkers"
ARTIFACTS = REPO_ROOT / "tests" / "_artifacts"
SOFFICE = Path("/usr/bin/soffice")
#: LibreOffice runs at most this many at once (CI has two cores; each soffice takes one).
LO_PARALLEL = 2
#: Hard limit for one lo_inspect run; the checker kills soffice itself after its own timeout.
LO_TIMEOUT_S = 600


def corpus_files(kind: str = "public") -> list[Path]:
    """The ``.docx`` files in ``../shared/corpus/<kind>`` (sorted; empty when shared/ is absent).

    A plain function so test modules can use it in ``@pytest.mark.parametrize``.
    """
    folder = CORPUS / kind
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix == ".docx")


def _require(path: Path, what: str) -> Path:
    if not path.exists():
        pytest.skip(f"{what} not found at {path} (shared/ must sit beside the repository)")
    return path


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """``../shared/corpus`` (skips when absent)."""
    return _require(CORPUS, "the shared corpus")


@pytest.fixture(scope="session")
def public_corpus_files(corpus_dir: Path) -> list[Path]:
    """Every real document in ``corpus/public``."""
    return corpus_files("public")


@pytest.fixture(scope="session")
def malformed_files(corpus_dir: Path) -> list[Path]:
    """The hostile and broken inputs in ``corpus/malformed``."""
    return corpus_files("malformed")


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """``tests/_artifacts`` (gitignored): screenshots and outputs worth looking at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


# ----------------------------------------------------------------------------- Qt leftovers
@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After a Qt test, destroy its widgets before the next test starts.

    pytest-qt closes the test's widgets with ``deleteLater``, which plain ``processEvents`` never
    carries out: the windows would live on, their timers firing (autosave every 60 s) in later,
    unrelated tests, until some event loop happened to run. Runs after the fixtures' teardown.
    Destroyed here, on Qt's thread, their Python side is freed by reference counting: no Qt
    object waits for Python's automatic collector, which may run on any thread.
    """
    if {"qapp", "qtbot"} & set(getattr(item, "fixturenames", ())):
        from PySide6.QtCore import QCoreApplication, QEvent

        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)


@pytest.fixture(autouse=True)
def _nothing_left_frozen() -> Iterator[None]:
    """A finished page layout freezes what exists (``hold_full_collections``); after each test it
    goes back to Python's collector, as opening the next document does in the app, so no test
    runs with another's objects frozen."""
    yield
    gc.unfreeze()


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point config, data, state and cache folders (platformdirs, QSettings) at a temp dir.

    No test may read or change the developer's own settings, recent files or transcripts, and
    no test may store an API key in the real keyring.
    """
    base = tmp_path_factory.mktemp("userdirs")
    for var, name in (
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_STATE_HOME", "state"),
        ("XDG_CACHE_HOME", "cache"),
    ):
        folder = base / name
        folder.mkdir()
        monkeypatch.setenv(var, str(folder))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    # a person who has already said who they are: no window stops on the first-run question
    # (tests of the first run itself take the ``first_run`` fixture)
    from reviewer_app.ui.app_settings import os_user_name, user_settings_path

    settings = user_settings_path()
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"version": 1, "user_name": os_user_name()}), encoding="utf-8")


@pytest.fixture
def first_run() -> None:
    """A fresh install: no settings file at all, so the app asks for the person's name."""
    from reviewer_app.ui.app_settings import user_settings_path

    user_settings_path().unlink(missing_ok=True)


# ----------------------------------------------------------------------------- LibreOffice
class LibreOfficeReader:
    """Runs ``lo_inspect.py`` and caches its JSON per file version and mode for the session.

    Thread-safe: concurrent requests for the same file wait for one run; at most
    :data:`LO_PARALLEL` soffice processes run at once.
    """

    def __init__(self) -> None:
        self._cache: dict[tuple[str, int, int], dict[str, Any]] = {}
        self._locks: dict[tuple[str, int, int], threading.Lock] = {}
        self._guard = threading.Lock()
        self._slots = threading.BoundedSemaphore(LO_PARALLEL)

    def __call__(self, path: str | os.PathLike[str], accept_reject: bool = False) -> dict[str, Any]:
        """LibreOffice's reading of ``path`` (see ``../shared/checkers/README.md`` for the keys).

        Every file is read once per session, always with LibreOffice's accept-all and
        reject-all: a reading with them is a superset of one without, and running soffice
        twice per file would double the suite's slowest part. ``accept_reject`` is kept for
        callers that state what they rely on.
        """
        target = Path(path).resolve()
        stat = target.stat()
        key = (str(target), stat.st_mtime_ns, stat.st_size)
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._cache:
                with self._slots:
                    self._cache[key] = self._run(target)
            return copy.deepcopy(self._cache[key])

    @staticmethod
    def _run(target: Path) -> dict[str, Any]:
        return run_lo_inspect(target)


def run_lo_inspect(target: Path, clock: tuple[str, ...] = ()) -> dict[str, Any]:
    """One uncached ``lo_inspect.py`` run on ``target``; ``clock`` prefixes the command (e.g.
    ``("faketime", "2031-03-04 10:00:00")`` to show that a test holds on another day)."""
    python = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else "python3"
    cmd = [*clock, python, str(CHECKERS / "lo_inspect.py"), str(target), "--compact"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=LO_TIMEOUT_S, stdin=subprocess.DEVNULL)
    if proc.returncode == 3:
        pytest.skip(f"LibreOffice/UNO is not usable here: {proc.stderr.strip()[-300:]}")
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise RuntimeError(
            f"lo_inspect.py exited {proc.returncode} on {target.name} without JSON: "
            f"{proc.stderr.strip()[-1000:]}"
        ) from None


@pytest.fixture(scope="session")
def lo_reading() -> Iterator[Callable[..., dict[str, Any]]]:
    """``read(path, accept_reject=False) -> dict``: LibreOffice's report on a .docx, cached."""
    if not SOFFICE.exists():
        pytest.skip(f"LibreOffice is not installed ({SOFFICE}): run bash ../shared/checkers/install.sh")
    _require(CHECKERS / "lo_inspect.py", "the LibreOffice checker")
    yield LibreOfficeReader()


@pytest.fixture
def lo_inspect(lo_reading: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """Alias of :func:`lo_reading` for tests that read one file."""
    return lo_reading
