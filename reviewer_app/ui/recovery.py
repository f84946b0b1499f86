"""Crash safety without Qt: recovery copies of open documents, and Word's owner file.

Recovery copies live in ``platformdirs.user_state_dir("Reviewer")/recovery/``, never beside the
document: contract folders are shared, and a copy of unsaved review work must not travel with
them. One entry per open document, keyed by a hash of its absolute path (a generated id for a
document that has no file yet): ``KEY.docx`` holds the package bytes, ``KEY.json`` says whose
they are. Both are written atomically and the JSON last, so an entry is offered only once its
copy is complete. An entry whose process is still running belongs to a live window and is never
offered; one whose process is gone is a crash leftover (:meth:`RecoveryStore.pending`).

Lock files live in :mod:`reviewer_app.docx.doc_lock` (the CLI checks them too), and the cleanup
of killed saves in :mod:`reviewer_app.docx.atomic_write`. Word's owner
file is looked for here, to warn that Word has the document open (:func:`word_owner`).
Whether an entry's process is "still running" is judged as for locks.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import socket
import uuid
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ..docx.atomic_write import is_stray, write_atomically
from ..docx.doc_lock import now, parse_time, written_by_running_process
from ..private_paths import private_dir, state_root

log = logging.getLogger(__name__)

FORMAT_VERSION = 1


def default_directory() -> Path:
    return state_root() / "recovery"


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
        private_dir(self.directory)
        docx_file = self.directory / f"{key}.docx"
        write_atomically(docx_file, data)
        record = {
            "version": FORMAT_VERSION,
            "original_path": os.path.abspath(original_path) if original_path else None,
            "document_name": document_name,
            "saved_at": now().isoformat(),
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
        return [e for e in self.entries() if not written_by_running_process(e.host, e.pid, e.saved_at)]

    def _remove_stray_temp_files(self) -> None:
        for file in self.directory.glob("*.tmp"):
            if is_stray(file):
                file.unlink(missing_ok=True)

    def _entry(self, key: str, record: dict[str, Any]) -> RecoveryEntry | None:
        saved_at = parse_time(record.get("saved_at"))
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
