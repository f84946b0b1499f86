"""Write a file so that a crash, a full disk or a kill mid-write never leaves it half-written.

The data goes to a temporary file beside the target (same folder, so the rename cannot cross
file systems), is flushed and fsync'd, then ``os.replace``d over the target in one step. Every
file the app writes (documents, settings, transcripts, proposal queues, recovery copies) goes
through here, so there is one place to get this right.

Replacing a file must not change what the file *is* to the people who share it: the new file
gets the old one's permission bits and, where the system allows, its owner and group (a
contract in a group-writable matter folder stays group-writable), and a symbolic link stays a
link, with its target rewritten. A new file gets the ordinary default, ``0666`` less the umask.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import re
import secrets
import stat
import sys
import time
from pathlib import Path

log = logging.getLogger(__name__)

#: The alphabet and length of ``tempfile.mkstemp`` names, which :mod:`reviewer_app.ui.recovery`
#: recognises when it cleans up after a killed save.
_NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_"
_NAME_LENGTH = 8
_ATTEMPTS = 100
#: A temporary file older than this was left by a killed process (a live write takes < 1 s).
STRAY_TEMP_AGE_S = 60
#: Windows attributes a replaced file keeps (read-only cannot be replaced at all, so it is not here).
_KEPT_WINDOWS_ATTRIBUTES = 0x2 | 0x4 | 0x20 | 0x2000  # hidden, system, archive, not content indexed


def write_atomically(target: str | os.PathLike[str], data: bytes, *, follow_links: bool = True) -> None:
    """Replace ``target`` with ``data``; on any failure the earlier ``target`` stays as it was.

    With ``follow_links`` (the default) a symbolic link is saved through: its final target is
    rewritten and the link stays. Without it, whatever sits at ``target`` (a link included) is
    replaced by a regular file, so nothing outside ``target`` is ever written (backups).

    The temporary file is named ``.NAME.XXXXXXXX.tmp``: a hard kill between writing and
    replacing can leave one behind, and :mod:`reviewer_app.ui.recovery` cleans those up by name.
    """
    path = Path(os.path.realpath(target)) if follow_links else Path(os.path.abspath(target))
    _replace_with(path, data, _existing_regular_file(path))


def copy_atomically(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
    """Copy ``source`` to ``target`` atomically, with ``source``'s permissions and times.

    ``target`` is never followed: a link planted there is replaced, not written through.
    """
    with open(source, "rb") as fh:
        data = fh.read()
        like = os.fstat(fh.fileno())
    path = Path(os.path.abspath(target))
    _replace_with(path, data, like, times=(like.st_atime_ns, like.st_mtime_ns))


def remove_stray_save_files(target: str | os.PathLike[str]) -> list[Path]:
    """Delete the temporary files a killed write of ``target`` left beside it.

    A write makes ``.NAME.XXXXXXXX.tmp`` and renames it; a process killed in between leaves it.
    Only files older than :data:`STRAY_TEMP_AGE_S` go, so a write running in another window is
    never touched.
    """
    path = Path(os.path.abspath(target))
    pattern = re.compile(rf"\.{re.escape(path.name)}\.[{_NAME_CHARS}]{{{_NAME_LENGTH}}}\.tmp")
    removed: list[Path] = []
    try:
        candidates = list(path.parent.iterdir())
    except OSError:
        return removed
    for file in candidates:
        if pattern.fullmatch(file.name) and is_stray(file):
            try:
                file.unlink()
            except OSError as error:
                log.info("could not remove the stray temporary file %s: %s", file.name, error)
                continue
            log.info("removed %s, left by an interrupted write", file.name)
            removed.append(file)
    return removed


def is_stray(file: Path) -> bool:
    """Whether a temporary file is old enough to be a killed process's, not a running write's."""
    try:
        return time.time() - file.stat().st_mtime > STRAY_TEMP_AGE_S
    except OSError:
        return False


def _existing_regular_file(path: Path) -> os.stat_result | None:
    """The status of the regular file at ``path`` (whose permissions the new file keeps), or None."""
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        return None
    return status if stat.S_ISREG(status.st_mode) else None


def _replace_with(
    path: Path, data: bytes, like: os.stat_result | None, times: tuple[int, int] | None = None
) -> None:
    """Write ``data`` to a new temporary file shaped like ``like`` and rename it over ``path``."""
    fd, tmp = _create_temporary(path, private=like is not None)
    try:
        with os.fdopen(fd, "wb") as fh:
            if like is not None:
                _take_permissions(fh.fileno(), like)
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if times is not None:
            os.utime(tmp, ns=times)
        attributes = _windows_attributes(path)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if attributes:
        _set_windows_attributes(path, attributes)


def _create_temporary(path: Path, *, private: bool) -> tuple[int, str]:
    """Create ``.NAME.XXXXXXXX.tmp`` beside ``path`` exclusively.

    A file that will take an existing file's permissions starts private (``0600``) so nobody
    reads it half-written under looser ones; a new file is created ``0666`` and the umask
    applies, as for any program's new file (``mkstemp`` would leave it ``0600``).
    """
    mode = 0o600 if private else 0o666
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(_ATTEMPTS):
        suffix = "".join(secrets.choice(_NAME_CHARS) for _ in range(_NAME_LENGTH))
        tmp = str(path.with_name(f".{path.name}.{suffix}.tmp"))
        try:
            return os.open(tmp, flags, mode), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "No usable temporary file name", str(path.parent))


def _take_permissions(fd: int, like: os.stat_result) -> None:
    """Give the open temporary file ``like``'s owner, group and mode (owner first: chown clears setuid)."""
    if sys.platform == "win32":
        return
    if (like.st_uid, like.st_gid) != (os.getuid(), os.getgid()):
        try:
            os.fchown(fd, like.st_uid, like.st_gid)
        except PermissionError:  # only root may give a file away; the group may still be ours to set
            with contextlib.suppress(PermissionError):
                os.fchown(fd, -1, like.st_gid)
    os.fchmod(fd, stat.S_IMODE(like.st_mode))


def _windows_attributes(path: Path) -> int:
    """The attributes of the file at ``path`` a replacement must keep (Windows only; else 0)."""
    if sys.platform != "win32":
        return 0
    try:
        return os.stat(path).st_file_attributes & _KEPT_WINDOWS_ATTRIBUTES  # type: ignore[attr-defined]
    except OSError:
        return 0


def _set_windows_attributes(path: Path, attributes: int) -> None:
    """Put back hidden/system/archive flags that ``os.replace`` dropped with the old file."""
    import ctypes

    ctypes.windll.kernel32.SetFileAttributesW(str(path), attributes)  # type: ignore[attr-defined]
