"""The findings a person chose to ignore in the Checks panel, remembered per document.

One small JSON file per document in ``platformdirs.user_data_dir("Reviewer")/checks/``, named
like the chat's transcripts by a hash of the document's resolved path and its identity (Word's
``docId``, see :func:`~reviewer_app.agent.transcript.document_identity`), so an ignored finding
stays ignored when the document is opened again, and a different document saved over the same
path starts with none. A finding is named by :attr:`Finding.key`, which does not move with the
text around it. A document without a path (a new redline) remembers for as long as it is open.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ..agent.transcript import document_identity
from ..docx.atomic_write import write_atomically
from ..private_paths import data_root, private_dir

FORMAT_VERSION = 1


def default_directory() -> Path:
    return data_root() / "checks"


class IgnoredFindings:
    """The ignored finding keys of one open document, saved as they change."""

    def __init__(self, reviewer: Any = None, directory: Path | None = None) -> None:
        self.keys: set[str] = set()
        self._file: Path | None = None
        path = getattr(reviewer, "path", None)
        if path:
            resolved = str(Path(path).resolve())
            key = hashlib.sha256(f"{resolved}\n{document_identity(reviewer)}".encode()).hexdigest()[:32]
            self._file = (directory or default_directory()) / f"{key}.json"
            self.keys = self._load()

    def _load(self) -> set[str]:
        """The saved keys; a missing or unreadable file means none (never a crash)."""
        assert self._file is not None
        try:
            data = json.loads(self._file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return set()
        if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
            return set()
        return {k for k in data.get("ignored", []) if isinstance(k, str)}

    def ignore(self, key: str) -> None:
        self.keys.add(key)
        if self._file is not None:
            private_dir(self._file.parent)
            text = json.dumps({"version": FORMAT_VERSION, "ignored": sorted(self.keys)}, ensure_ascii=False)
            write_atomically(self._file, text.encode("utf-8"))
