"""Crash safety without Qt: recovery copies of open documents, lock files, stray-save housekeeping.

Recovery copies live in ``platformdirs.user_state_dir("Reviewer")/recovery/``, never beside the
document: contract folders are shared, and a copy of unsaved review work must not travel with
them. One entry per open document, keyed by a hash of its absolute path (a generated id for a
document that has no file yet): ``KEY.docx`` holds the package bytes, ``KEY.json`` says whose
they are. Both are written atomically and the JSON last, so an entry is offered only once its
copy is complete. An entry whose process is still running belongs to a live window and is never
offered; one whose process is gone is a crash leftover (:meth:`RecoveryStore.pending`).

A lock file ``.NAME.docx.reviewer-lock`` beside the document stops two windows (or two people
on a share) from editing one file and overwriting each other's saves. Its name is our own:
Word's ``~$`` owner file and LibreOffice's ``.~lock.NAME#`` belong to those programs, whose
checks would misread our contents. Word's owner file is still looked for, to warn that Word has
the document open (:func:`word_owner`).

Whether a process is "still running" is judged on this host only: its pid is alive and it
started before the entry or lock was written (a later start is a recycled pid). A lock from
another host cannot be checked, so it holds for :data:`FOREIGN_LOCK_HOURS`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import socket
import sys
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import platformdirs

from ..docx.atomic_write import write_atomically

log = logging.getLogger(__name__)

FORMAT_VERSION = 1
LOCK_SUFFIX = ".reviewer-lock"
#: A lock written on another machine is honoured this long; after that its owner surely left.
FOREIGN_LOCK_HOURS = 12
#: A save's temporary file older than this was left by a killed process (a live save takes < 1 s).
STRAY_TEMP_AGE_S = 60
#: Clock slack when comparing a process's start with a timestamp (Linux's boot time is whole seconds).
_START_SLACK_S = 2.0
#: ``tempfile.mkstemp`` names: prefix, eight characters from its alphabet, suffix.
_MKSTEMP_CHARS = "[a-z0-9_]{8}"


def default_directory() -> Path:
    return Path(platformdirs.user_state_dir("Reviewer", appauthor=False)) / "recovery"


def _now() -> datetime:
    return datetime.now(UTC)


def _parse_time(text: Any) -> datetime | None:
    try:
        stamp = datetime.fromisoformat(str(text))
    except ValueError:
        return None
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


# ----------------------------------------------------------------------------- processes
def process_alive(pid: int) -> bool:
    """Whether a process with this id runs on this machine (any user's)."""
    if pid <= 0:
        return False
    if sys.platform == "win32":
        import ctypes

        kernel = ctypes.windll.kernel32  # type: ignore[attr-defined]
        handle = kernel.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        code = ctypes.c_ulong()
        kernel.GetExitCodeProcess(handle, ctypes.byref(code))
        kernel.CloseHandle(handle)
        return code.value == 259  # STILL_ACTIVE
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


def process_started(pid: int) -> float | None:
    """When the process started (epoch seconds), where the system tells (Linux); else None."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        boot = next(line for line in Path("/proc/stat").read_text().splitlines() if line.startswith("btime"))
    except (OSError, StopIteration):
        return None
    ticks = int(stat.rsplit(")", 1)[1].split()[19])  # field 22, counted after the command name
    return int(boot.split()[1]) + ticks / os.sysconf("SC_CLK_TCK")


def _written_by_running_process(host: str, pid: int, written_at: datetime | None) -> bool:
    """True when ``pid`` on ``host`` still runs and is the very process that wrote at ``written_at``."""
    if host != socket.gethostname() or not process_alive(pid):
        return False
    started = process_started(pid)
    return started is None or written_at is None or started <= written_at.timestamp() + _START_SLACK_S


# ----------------------------------------------------------------------------- recovery store
@dataclass(frozen=True)
class RecoveryEntry:
    """One recovery copy: the document it stands for and who wrote it when."""

    key: str
    original_path: str | None
    document_name: str
    saved_at: datetime
    pid: int
    host: str
    undo_count: int
    last_act: str
    docx_file: Path

    def read_bytes(self) -> bytes:
        return self.docx_file.read_bytes()


class RecoveryStore:
    """The recovery folder: write, list, discard copies; find the ones a crash left behind."""

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_directory()

    @staticmethod
    def key_for(document_path: str | os.PathLike[str] | None) -> str:
        """The entry key of a document: a hash of its absolute path, or a new id when it has none."""
        if document_path is None:
            return "unsaved-" + uuid.uuid4().hex[:16]
        return hashlib.sha256(os.path.abspath(document_path).encode("utf-8")).hexdigest()[:32]

    def write(
        self,
        key: str,
        data: bytes,
        *,
        original_path: str | None,
        document_name: str,
        undo_count: int,
        last_act: str,
    ) -> RecoveryEntry:
        """Store ``data`` as the copy of ``key``: the package first, then the JSON that vouches for it."""
        self.directory.mkdir(parents=True, exist_ok=True)
        docx_file = self.directory / f"{key}.docx"
        write_atomically(docx_file, data)
        record = {
            "version": FORMAT_VERSION,
            "original_path": os.path.abspath(original_path) if original_path else None,
            "document_name": document_name,
            "saved_at": _now().isoformat(),
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "undo_count": undo_count,
            "last_act": last_act,
        }
        write_atomically(self.directory / f"{key}.json", json.dumps(record, indent=1).encode("utf-8"))
        entry = self._entry(key, record)
        assert entry is not None
        return entry

    def discard(self, key: str) -> None:
        """Forget ``key``'s copy (JSON first, so a half-removed entry is never offered)."""
        for suffix in (".json", ".docx"):
            (self.directory / f"{key}{suffix}").unlink(missing_ok=True)

    def entries(self) -> list[RecoveryEntry]:
        """Every complete entry, newest first (unreadable ones are skipped, never a crash)."""
        found = []
        for file in self.directory.glob("*.json"):
            try:
                record = json.loads(file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            entry = self._entry(file.stem, record) if isinstance(record, dict) else None
            if entry is not None and entry.docx_file.is_file():
                found.append(entry)
        return sorted(found, key=lambda e: e.saved_at, reverse=True)

    def pending(self) -> list[RecoveryEntry]:
        """Entries whose writer is no longer running: what a crash or a killed app left behind."""
        self._remove_stray_temp_files()
        return [e for e in self.entries() if not _written_by_running_process(e.host, e.pid, e.saved_at)]

    def _remove_stray_temp_files(self) -> None:
        for file in self.directory.glob("*.tmp"):
            if _older_than(file, STRAY_TEMP_AGE_S):
                file.unlink(missing_ok=True)

    def _entry(self, key: str, record: dict[str, Any]) -> RecoveryEntry | None:
        saved_at = _parse_time(record.get("saved_at"))
        if record.get("version") != FORMAT_VERSION or saved_at is None:
            return None
        original = record.get("original_path")
        return RecoveryEntry(
            key=key,
            original_path=str(original) if original else None,
            document_name=str(record.get("document_name") or ""),
            saved_at=saved_at,
            pid=int(record.get("pid") or 0),
            host=str(record.get("host") or ""),
            undo_count=int(record.get("undo_count") or 0),
            last_act=str(record.get("last_act") or ""),
            docx_file=self.directory / f"{key}.docx",
        )


# ----------------------------------------------------------------------------- lock files
@dataclass(frozen=True)
class LockOwner:
    """Who holds a document's lock (read from the lock file)."""

    user: str
    host: str
    pid: int
    opened_at: datetime | None
    token: str

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> LockOwner:
        return cls(
            user=str(record.get("user") or ""),
            host=str(record.get("host") or ""),
            pid=int(record.get("pid") or 0),
            opened_at=_parse_time(record.get("opened_at")),
            token=str(record.get("token") or ""),
        )


class DocumentLockedError(RuntimeError):
    """The document is open in another Reviewer window (here or on another machine)."""

    def __init__(self, document_path: str, owner: LockOwner) -> None:
        since = owner.opened_at.astimezone().strftime("%Y-%m-%d %H:%M") if owner.opened_at else "?"
        super().__init__(
            f"{Path(document_path).name} is open in Reviewer by {owner.user or 'someone'} "
            f"on {owner.host or 'another computer'} since {since}."
        )
        self.document_path = document_path
        self.owner = owner


def lock_file_for(document_path: str | os.PathLike[str]) -> Path:
    path = Path(os.path.abspath(document_path))
    return path.with_name(f".{path.name}{LOCK_SUFFIX}")


#: tokens of the locks this process holds: a lock file naming our pid but no held token is a leftover
_held_tokens: set[str] = set()


class DocumentLock:
    """This window's claim on a document; :meth:`release` on close (a crash leaves it stale)."""

    def __init__(self, lock_file: Path, owner: LockOwner) -> None:
        self.lock_file = lock_file
        self.owner = owner

    @classmethod
    def acquire(
        cls, document_path: str | os.PathLike[str], user: str, *, take_over: bool = False
    ) -> DocumentLock | None:
        """Claim ``document_path`` for ``user``; None when its folder cannot hold a lock file.

        Raises :class:`DocumentLockedError` when a running window holds it, unless ``take_over``
        (the person chose "open anyway"). A stale lock (its process is gone) is taken over.
        """
        lock_file = lock_file_for(document_path)
        record = {
            "user": user,
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "opened_at": _now().isoformat(),
            "token": uuid.uuid4().hex,
        }
        payload = json.dumps(record).encode("utf-8")
        try:
            fd = os.open(lock_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            holder = _read_owner(lock_file)
            if holder is not None and _lock_is_live(holder) and not take_over:
                raise DocumentLockedError(os.fspath(document_path), holder) from None
            log.info("taking over the lock on %s (held by %s)", lock_file.name, holder)
            try:
                write_atomically(lock_file, payload)
            except OSError as error:
                log.warning("could not take over the lock %s: %s", lock_file, error)
                return None
        except OSError as error:  # read-only folder or share: the document still opens
            log.info("no lock file for %s: %s", Path(document_path).name, error)
            return None
        else:
            with os.fdopen(fd, "wb") as out:
                out.write(payload)
        _held_tokens.add(record["token"])
        return cls(lock_file, LockOwner.from_record(record))

    def release(self) -> None:
        """Remove the lock file, unless another window took it over since (it is theirs now)."""
        _held_tokens.discard(self.owner.token)
        holder = _read_owner(self.lock_file)
        if holder is not None and holder.token == self.owner.token:
            self.lock_file.unlink(missing_ok=True)


def _read_owner(lock_file: Path) -> LockOwner | None:
    """The lock's owner; None when it vanished or cannot be read (a crash mid-write: stale)."""
    try:
        record = json.loads(lock_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return LockOwner.from_record(record) if isinstance(record, dict) else None


def _lock_is_live(owner: LockOwner) -> bool:
    if owner.host != socket.gethostname():
        return owner.opened_at is None or _now() - owner.opened_at < timedelta(hours=FOREIGN_LOCK_HOURS)
    if owner.pid == os.getpid():  # ours only if we still hold it; else an earlier process had our pid
        return owner.token in _held_tokens
    return _written_by_running_process(owner.host, owner.pid, owner.opened_at)


# ----------------------------------------------------------------------------- Word and housekeeping
def word_owner_files(document_path: str | os.PathLike[str]) -> list[Path]:
    """Where Word puts its owner file for this document: ``~$`` over the first two characters of
    the name (shorter names get it over one character, or in front)."""
    path = Path(os.path.abspath(document_path))
    stem = path.name
    return [path.with_name("~$" + stem[cut:]) for cut in (2, 1, 0)]


def word_owner(document_path: str | os.PathLike[str]) -> str | None:
    """The user name in Word's owner file ('' when unreadable), or None when Word has no claim."""
    for file in word_owner_files(document_path):
        try:
            data = file.read_bytes()
        except OSError:
            continue
        length = data[0] if data else 0
        return data[1 : 1 + length].decode("cp1252", errors="replace").strip()
    return None


def remove_stray_save_files(document_path: str | os.PathLike[str]) -> list[Path]:
    """Delete the temporary files a killed save of this document left beside it.

    A save writes ``.NAME.XXXXXXXX.tmp`` and renames it; a process killed in between leaves it.
    Only files older than :data:`STRAY_TEMP_AGE_S` go, so a save running in another window is
    never touched.
    """
    path = Path(os.path.abspath(document_path))
    pattern = re.compile(rf"\.{re.escape(path.name)}\.{_MKSTEMP_CHARS}\.tmp")
    removed = []
    try:
        candidates = list(path.parent.iterdir())
    except OSError:
        return removed
    for file in candidates:
        if pattern.fullmatch(file.name) and _older_than(file, STRAY_TEMP_AGE_S):
            try:
                file.unlink()
            except OSError as error:
                log.info("could not remove the stray save file %s: %s", file.name, error)
                continue
            log.info("removed %s, left by an interrupted save", file.name)
            removed.append(file)
    return removed


def _older_than(file: Path, seconds: float) -> bool:
    try:
        return time.time() - file.stat().st_mtime > seconds
    except OSError:
        return False
