"""What a document file on disk looked like when it was opened or saved: size, mtime and a hash.

Another program (a pipeline's ``reviewer apply -o``, a colleague's Word on a share) may write the
file while a window has it open; saving the window's copy over it would silently lose that edit.
Comparing the file with its stamp before a save tells the two apart. Size and mtime decide
cheaply that nothing changed; when either moved, the content hash decides (a ``touch`` or a copy
of identical bytes is not an edit).
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass

_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class FileStamp:
    """One regular file's size, modification time (ns) and SHA-256."""

    size: int
    mtime_ns: int
    digest: str

    @classmethod
    def of(cls, path: str | os.PathLike[str]) -> FileStamp | None:
        """The stamp of the regular file at ``path`` (links followed); None when there is none.

        Opened without blocking and checked on its descriptor, so a FIFO put in the file's
        place is never waited on.
        """
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        except OSError:
            return None
        with os.fdopen(fd, "rb") as fh:
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode):
                return None
            digest = hashlib.sha256()
            while chunk := fh.read(_CHUNK):
                digest.update(chunk)
        return cls(status.st_size, status.st_mtime_ns, digest.hexdigest())

    def changed(self, path: str | os.PathLike[str]) -> bool:
        """True when the file at ``path`` now holds other bytes (a file gone since is no edit to keep)."""
        try:
            status = os.stat(path)
        except OSError:
            return False
        if (status.st_size, status.st_mtime_ns) == (self.size, self.mtime_ns):
            return False
        now = FileStamp.of(path)
        return now is not None and now.digest != self.digest
