"""Lock files against two programs editing one document, without Qt, for the app and the CLI.

A lock file ``.NAME.docx.reviewer-lock`` beside the document stops two windows (or two people
on a share) from editing one file and overwriting each other's saves; the CLI's edit commands
check it too, so a pipeline does not write a file a person has open. Its name is our own:
Word's ``~$`` owner file and LibreOffice's ``.~lock.NAME#`` belong to those programs, whose
checks would misread our contents.

Whether a process is "still running" is judged on this host only: its pid is alive and it
started before the lock (or a recovery entry) was written (a later start is a recycled pid). A
lock from another host cannot be checked, so it holds for :data:`FOREIGN_LOCK_HOURS`.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import sys
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from .atomic_write import write_atomically

log = logging.getLogger(__name__)

LOCK_SUFFIX = ".reviewer-lock"
#: A lock written on another machine is honoured this long; after that its owner surely left.
FOREIGN_LOCK_HOURS = 12
#: Clock slack when comparing a process's start with a timestamp (Linux's boot time is whole seconds).
_START_SLACK_S = 2.0


def now() -> datetime:
    return datetime.now(UTC)


def parse_time(text: Any) -> datetime | None:
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


def written_by_running_process(host: str, pid: int, written_at: datetime | None) -> bool:
    """True when ``pid`` on ``host`` still runs and is the very process that wrote at ``written_at``."""
    if host != socket.gethostname() or not process_alive(pid):
        return False
    started = process_started(pid)
    return started is None or written_at is None or started <= written_at.timestamp() + _START_SLACK_S


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
            opened_at=parse_time(record.get("opened_at")),
            token=str(record.get("token") or ""),
        )

    def describe(self) -> str:
        """ "by Alex on laptop-7 since 2024-05-01 09:30": who to ask to close the document."""
        since = self.opened_at.astimezone().strftime("%Y-%m-%d %H:%M") if self.opened_at else "?"
        return f"by {self.user or 'someone'} on {self.host or 'another computer'} since {since}"


class DocumentLockedError(RuntimeError):
    """The document is open in another Reviewer window (here or on another machine)."""

    def __init__(self, document_path: str, owner: LockOwner) -> None:
        super().__init__(f"{Path(document_path).name} is open in Reviewer {owner.describe()}.")
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
            "opened_at": now().isoformat(),
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
        return owner.opened_at is None or now() - owner.opened_at < timedelta(hours=FOREIGN_LOCK_HOURS)
    if owner.pid == os.getpid():  # ours only if we still hold it; else an earlier process had our pid
        return owner.token in _held_tokens
    return written_by_running_process(owner.host, owner.pid, owner.opened_at)


def live_lock_owner(document_path: str | os.PathLike[str]) -> LockOwner | None:
    """Who holds ``document_path`` open in Reviewer now; None when nobody (or a stale lock).

    The lock is looked for under the name given and the file a link leads to, since a window
    locks the name it opened.
    """
    for name in dict.fromkeys((os.path.abspath(document_path), os.path.realpath(document_path))):
        holder = _read_owner(lock_file_for(name))
        if holder is not None and _lock_is_live(holder):
            return holder
    return None
