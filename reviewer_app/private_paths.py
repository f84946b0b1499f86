"""The app's own folders and log files, readable by their owner only.

Settings, transcripts (the agent's conversation about a contract), review queues, recovery
copies and the log all say what a lawyer is working on, so on a shared machine nobody else may
list or read them: every app folder is made 0700 and every log file 0600. Each module that
creates a folder under one of the app's roots goes through :func:`private_dir`, which also makes
the root and every folder between them private (``Path.mkdir(parents=True)`` gives parents the
default 0755). :func:`make_app_folders_private` tightens what an older version left 0755/0644.
No Qt here: the agent layer uses it too. On Windows modes mean little and ``chmod`` is harmless.
"""

from __future__ import annotations

import contextlib
import logging.handlers
import os
import stat
from pathlib import Path

import platformdirs

APP_DIR_NAME = "Reviewer"
PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600


def data_root() -> Path:
    """The app's data folder (transcripts, review queues, checks, the sample copy)."""
    return Path(platformdirs.user_data_dir(APP_DIR_NAME, appauthor=False))


def state_root() -> Path:
    """The app's state folder (recovery copies; the log folder lives inside it on Linux)."""
    return Path(platformdirs.user_state_dir(APP_DIR_NAME, appauthor=False))


def config_root() -> Path:
    """The app's configuration folder (``settings.json``)."""
    return Path(platformdirs.user_config_dir(APP_DIR_NAME, appauthor=False))


def log_root() -> Path:
    """The app's log folder."""
    return Path(platformdirs.user_log_dir(APP_DIR_NAME, appauthor=False))


def app_roots() -> tuple[Path, ...]:
    """Every folder the app owns outright (not the shared parents such as ``~/.local/share``)."""
    return (data_root(), state_root(), config_root(), log_root())


def private_dir(path: Path) -> Path:
    """Create ``path`` (and its parents) and make it 0700; returns ``path``.

    When ``path`` lies under one of :func:`app_roots`, the root and every folder from it down to
    ``path`` become 0700 too; folders above the root are left as the system made them.
    """
    path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR_MODE)
    root = next((r for r in app_roots() if path == r or r in path.parents), path)
    folder = path
    while True:
        os.chmod(folder, PRIVATE_DIR_MODE)
        if folder == root:
            return path
        folder = folder.parent


def make_app_folders_private() -> None:
    """Tighten an existing install: app folders to 0700, their files to at most 0600.

    Called when the app starts, since earlier versions made the folders 0755 and the log 0644.
    A file or folder that cannot be changed (another owner) is left as it is.
    """
    for root in app_roots():
        if not root.is_dir():
            continue
        for folder, dirs, files in os.walk(root):
            _chmod_quietly(Path(folder), PRIVATE_DIR_MODE)
            for name in files:
                file = Path(folder) / name
                try:
                    mode = file.lstat().st_mode
                except OSError:  # gone meanwhile
                    continue
                if stat.S_ISREG(mode):
                    _chmod_quietly(file, stat.S_IMODE(mode) & PRIVATE_FILE_MODE)
            dirs[:] = [d for d in dirs if not (Path(folder) / d).is_symlink()]


def _chmod_quietly(path: Path, mode: int) -> None:
    with contextlib.suppress(OSError):
        os.chmod(path, mode)


class PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log whose current and rotated files are created 0600 whatever the umask is."""

    def _open(self):  # type: ignore[no-untyped-def]  # logging's own signature
        """Open (creating 0600) the log file; rotation renames it, so backups keep the mode."""
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, PRIVATE_FILE_MODE)
        os.chmod(self.baseFilename, PRIVATE_FILE_MODE)  # a file left 0644 by an older version
        return os.fdopen(fd, "a", encoding=self.encoding, errors=self.errors)
