"""A document's playbook review on disk, beside its conversation transcript.

The review (the playbook it ran, the findings, and the lawyer's overrides and notes) belongs to
the document the way the conversation does, so it is kept the same way: in the app's private
data folder, never next to the .docx (a contract folder is shared and sent on, and internal
notes must not travel with it), under the transcript's own key (the document's resolved path
plus its identity, :mod:`..transcript`), as ``<key>.playbook.json`` beside ``<key>.json``. A
different document saved over the same path does not inherit the review. Writes are atomic; a
missing or unreadable file is no review, never a crash.

The playbook is stored whole, so the findings keep their positions' titles and questions when
the playbook file is edited, moved or deleted afterwards.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ...docx.atomic_write import write_atomically
from ...private_paths import private_dir
from ..transcript import TranscriptStore, now
from .model import Playbook, PlaybookFinding, PlaybookReview, Position

FORMAT_VERSION = 1
SUFFIX = ".playbook.json"


def playbook_to_dict(playbook: Playbook) -> dict[str, Any]:
    return {
        "name": playbook.name,
        "contractType": playbook.contract_type,
        "description": playbook.description,
        "source": playbook.source,
        "positions": [p.to_dict() for p in playbook.positions],
    }


def playbook_from_dict(data: dict[str, Any]) -> Playbook:
    positions = tuple(
        Position(
            id=str(p["id"]),
            title=str(p.get("title", "")),
            question=str(p.get("question", "")),
            standard=str(p.get("standard", "")),
            fallbacks=tuple(str(f) for f in p.get("fallbacks", ())),
            unacceptable=str(p.get("unacceptable", "")),
            guidance=str(p.get("guidance", "")),
            severity=str(p.get("severity", "medium")),
            model_clause=str(p.get("model_clause", "")),
        )
        for p in data.get("positions", ())
    )
    return Playbook(
        name=str(data.get("name", "")),
        contract_type=str(data.get("contractType", "")),
        positions=positions,
        description=str(data.get("description", "")),
        source=str(data.get("source", "")),
    )


class FindingsStore:
    """Playbook reviews on disk, one file per (document path, identity), beside the transcripts."""

    def __init__(self, transcripts: TranscriptStore | None = None) -> None:
        self.transcripts = transcripts or TranscriptStore()

    def file_for(self, document_path: str | os.PathLike[str], identity: str = "") -> Path:
        return self.transcripts.beside(document_path, identity, SUFFIX)

    def save(self, review: PlaybookReview, document_path: str | os.PathLike[str], identity: str = "") -> Path:
        """Write the review atomically into the private data folder."""
        file = self.file_for(document_path, identity)
        data = {
            "version": FORMAT_VERSION,
            "document": {"path": str(Path(document_path).resolve()), "identity": identity},
            "updated": now(),
            "playbook": playbook_to_dict(review.playbook),
            "findings": [f.to_dict() for f in review.findings.values()],
        }
        private_dir(file.parent)
        write_atomically(file, json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8"))
        return file

    def load(self, document_path: str | os.PathLike[str], identity: str = "") -> PlaybookReview | None:
        """The saved review of this document, or None (none saved, unreadable, another document's)."""
        try:
            data = json.loads(self.file_for(document_path, identity).read_text(encoding="utf-8"))
            document = data["document"]
            if data.get("version") != FORMAT_VERSION or document != {
                "path": str(Path(document_path).resolve()),
                "identity": identity,
            }:
                return None
            review = PlaybookReview(playbook_from_dict(data["playbook"]))
            for item in data.get("findings", ()):
                review.record(PlaybookFinding.from_dict(item))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        return review

    def delete(self, document_path: str | os.PathLike[str], identity: str = "") -> bool:
        file = self.file_for(document_path, identity)
        existed = file.exists()
        file.unlink(missing_ok=True)
        return existed


__all__ = ["FindingsStore", "playbook_from_dict", "playbook_to_dict"]
