"""Write a file so that a crash, a full disk or a kill mid-write never leaves it half-written.

The data goes to a temporary file beside the target (same folder, so the rename cannot cross
file systems), is flushed and fsync'd, then ``os.replace``d over the target in one step. Every
file the app writes (documents, settings, transcripts, proposal queues, recovery copies) goes
through here, so there is one place to get this right.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(target: str | os.PathLike[str], data: bytes) -> None:
    """Replace ``target`` with ``data``; on any failure the earlier ``target`` stays as it was.

    The temporary file is named ``.NAME.XXXXXXXX.tmp``: a hard kill between writing and
    replacing can leave one behind, and :mod:`reviewer_app.ui.recovery` cleans those up by name.
    """
    path = Path(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.absolute().parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
