"""The desktop app's log: a small rotating file a person can send with a bug report.

The file lives in ``platformdirs.user_log_dir("Reviewer")`` (Help ▸ Open log folder opens it),
is readable by its owner only (0600, in a 0700 folder, backups too), and is capped at
1 MB × 3 backups, so months of use never fill a disk. Warnings also go to
stderr for whoever started the app from a terminal. Modules log document text and keys at
DEBUG at most, and the file gets INFO and up by default.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from ..private_paths import PrivateRotatingFileHandler, log_root, private_dir

LOG_FILE_NAME = "reviewer.log"
MAX_LOG_BYTES = 1_000_000
LOG_BACKUPS = 3
_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
#: marks the handlers this module installed, so configuring twice replaces rather than doubles them
_OWNED = "_reviewer_log_handler"


def log_folder() -> Path:
    """Where the log files are (it may not exist yet)."""
    return log_root()


def configure_logging(level: int = logging.INFO) -> Path:
    """Send the root logger to the rotating log file (and warnings to stderr); returns the log folder.

    When the folder cannot be created (a read-only profile) the app still starts, logging to
    stderr only, with a warning saying why.
    """
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, _OWNED, False)]:
        root.removeHandler(handler)
        handler.close()
    folder = log_folder()
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(logging.WARNING)
    handlers: list[logging.Handler] = [console]
    problem: OSError | None = None
    try:
        private_dir(folder)
        handlers.append(
            PrivateRotatingFileHandler(
                folder / LOG_FILE_NAME, maxBytes=MAX_LOG_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8"
            )
        )
    except OSError as error:
        problem = error
    for handler in handlers:
        handler.setFormatter(logging.Formatter(_FORMAT))
        setattr(handler, _OWNED, True)
        root.addHandler(handler)
    root.setLevel(level)
    logging.captureWarnings(True)
    if problem is not None:
        logging.getLogger(__name__).warning("no log file in %s: %s", folder, problem)
    return folder
