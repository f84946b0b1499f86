"""The review queue's proposals for one document, kept on disk between sessions.

Where proposals live, and why: in ``platformdirs.user_data_dir("Reviewer")/review-queue/``, one
JSON file per document, named by a hash of the document's absolute path. Not in a sidecar next
to the .docx: contract folders are shared and sent on, and a ``NAME.docx.reviewer.json`` beside
the document would carry unreviewed AI drafting to whoever receives the folder, and cannot be
written at all on a read-only share. Not keyed by a hash of the file's content either: every
save changes the content, which would orphan the queue at exactly the moment it must survive.
The path key plus each proposal's block hash gives both: the queue follows the document
through save and reopen, and an edit made to the file outside Reviewer turns the affected
proposals stale instead of letting them land on changed text; :func:`save_with_proposals`
moves the queue along with a save-as.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..docx.atomic_write import is_stray, remove_stray_save_files, write_atomically
from ..docx.reviewer import DocxReviewer
from ..private_paths import data_root, private_dir

STORE_VERSION = 1


def default_store_directory() -> Path:
    """Where review queues are kept: the user's data folder, not the document's folder."""
    return data_root() / "review-queue"


class ProposalStore:
    """The proposals queued for one document, persisted as JSON (memory only without a path)."""

    def __init__(self, document_path: str | os.PathLike[str] | None, directory: Path | None = None) -> None:
        self.directory = directory or default_store_directory()
        self.document_path = str(Path(document_path).resolve()) if document_path is not None else None
        self.proposals: list[dict[str, Any]] = []
        self.load()

    @property
    def file(self) -> Path | None:
        """The JSON file of this document's queue (None for an in-memory document)."""
        if self.document_path is None:
            return None
        key = hashlib.sha256(self.document_path.encode("utf-8")).hexdigest()[:32]
        return self.directory / f"{key}.json"

    def load(self) -> None:
        """Read the queue back; a missing or unreadable file is an empty queue (never a crash).

        What a write killed half-way left in the folder goes first: this queue's own temporary
        files, and the ``.queue-*.json`` files earlier versions wrote their queues through.
        """
        self.proposals = []
        file = self.file
        if file is None:
            return
        remove_stray_save_files(file)
        for leftover in self.directory.glob(".queue-*.json"):
            if is_stray(leftover):
                leftover.unlink(missing_ok=True)
        if not file.exists():
            return
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and data.get("document") == self.document_path:
            self.proposals = [p for p in data.get("proposals", []) if isinstance(p, dict) and "id" in p]

    def save(self) -> None:
        """Write the queue atomically (:mod:`~reviewer_app.docx.atomic_write`); drop the file when empty."""
        file = self.file
        if file is None:
            return
        if not self.proposals:
            file.unlink(missing_ok=True)
            return
        private_dir(file.parent)
        data = {"version": STORE_VERSION, "document": self.document_path, "proposals": self.proposals}
        write_atomically(file, json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8"))

    def get(self, proposal_id: str) -> dict[str, Any] | None:
        return next((p for p in self.proposals if p["id"] == proposal_id), None)

    def unique_id(self, operation_id: str, taken: set[str] | None = None) -> str:
        """A proposal id: the operation's id, suffixed ``#2``, ``#3``... when already used.

        Operation ids repeat across calls (every add_comment is ``comment-1``); proposals must not.
        """
        used = {p["id"] for p in self.proposals} | (taken or set())
        candidate, n = operation_id, 1
        while candidate in used:
            n += 1
            candidate = f"{operation_id}#{n}"
        return candidate

    def add(self, proposals: Iterable[dict[str, Any]]) -> None:
        self.proposals.extend(proposals)
        self.save()

    def remove(self, proposal_ids: Iterable[str]) -> int:
        gone = set(proposal_ids)
        before = len(self.proposals)
        self.proposals = [p for p in self.proposals if p["id"] not in gone]
        if len(self.proposals) != before:
            self.save()
        return before - len(self.proposals)

    def move_to(self, document_path: str | os.PathLike[str]) -> None:
        """The document was saved under another name: its queue follows it."""
        old = self.file
        self.document_path = str(Path(document_path).resolve())
        self.save()
        if old is not None and old != self.file:
            old.unlink(missing_ok=True)


def save_with_proposals(reviewer: DocxReviewer, store: ProposalStore, path: str | os.PathLike[str]) -> None:
    """Save the document (a person's act) and keep its review queue with it under the new name."""
    reviewer.save(path)
    store.move_to(path)
