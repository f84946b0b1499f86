"""Transcripts: one conversation per document, saved in the app's data folder and restored on reopen.

A transcript holds two things. ``messages`` is the model-facing history (user text, the
assistant's text and tool calls, tool results), kept unfenced so a later session wraps it in
its own nonce. ``entries`` is the log a person sees: messages, tool calls with their inputs and
results, edit batches with each operation's status (the chat's edit cards are rebuilt from
them), errors, "stopped by the user", token usage, model name and timestamps.

Files live in ``platformdirs.user_data_dir("Reviewer")/transcripts/``, named by a hash of the
document's resolved path and its identity (Word's ``w14:docId``/``w15:docId``, else the creation
time in its core properties), so a different document saved over the same path does not inherit
the conversation. The API key is never stored: no field holds it, and :meth:`TranscriptStore.save`
scrubs any string equal to the key in use before writing. Document text stays on this machine.

A restored conversation continues with the earlier messages, minus the document text read
then (ids in it may be stale and it costs tokens), plus a compact summary of the changes and
comments the agent made (:meth:`Transcript.continuation_summary`).
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..docx.atomic_write import write_atomically
from ..docx.edit.engine import target_block_id
from ..private_paths import data_root, private_dir

FORMAT_VERSION = 1
OMITTED_READ = "(document text read in an earlier session, left out: re-read what you need)"
STOPPED_BY_USER = "stopped by the user"
#: How many changes the continuation summary lists before saying "and N more".
SUMMARY_LIMIT = 40


def now() -> str:
    """UTC, to the second, ISO 8601."""
    return datetime.now(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def default_directory() -> Path:
    return data_root() / "transcripts"


def document_identity(reviewer: Any) -> str:
    """A value that stays with a document across edits and saves, and differs between documents.

    Word's ``w15:docId`` / ``w14:docId`` (settings part) when present, else the core properties'
    creation time, else ``""`` (then the path alone keys the transcript).
    """
    try:
        from ..docx import xmlutil

        document = reviewer.document
        settings = document.part_root(xmlutil.REL_SETTINGS)
        if settings is not None:
            for ns in (xmlutil.W15, xmlutil.W14):
                node = settings.find(ns + "docId")
                if node is not None and node.get(ns + "val"):
                    return f"docId:{node.get(ns + 'val')}"
        package = reviewer.package
        core = package.related_part("", xmlutil.REL_CORE_PROPERTIES)
        if core is not None:
            root = package.xml(core)
            for node in root.iter():
                if isinstance(node.tag, str) and node.tag.endswith("}created") and (node.text or "").strip():
                    return f"created:{node.text.strip()}"
    except Exception:  # an odd package has no identity; the path still keys it
        return ""
    return ""


# ----------------------------------------------------------------------------- the transcript
@dataclass
class Transcript:
    """One document's conversation; see the module docstring for the two halves."""

    document_path: str | None = None
    identity: str = ""
    model: str = ""
    created: str = field(default_factory=now)
    updated: str = field(default_factory=now)
    messages: list[dict[str, Any]] = field(default_factory=list)
    entries: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)

    def log(self, kind: str, **data: Any) -> dict[str, Any]:
        entry = {"kind": kind, "at": now(), **data}
        self.entries.append(entry)
        self.updated = entry["at"]
        return entry

    def add_usage(self, usage: dict[str, int]) -> None:
        for key, value in usage.items():
            self.usage[key] = self.usage.get(key, 0) + int(value or 0)

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "document": {"path": self.document_path, "identity": self.identity},
            "model": self.model,
            "created": self.created,
            "updated": self.updated,
            "usage": self.usage,
            "messages": self.messages,
            "entries": self.entries,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Transcript:
        document = data.get("document") or {}
        return cls(
            document_path=document.get("path"),
            identity=str(document.get("identity") or ""),
            model=str(data.get("model") or ""),
            created=str(data.get("created") or now()),
            updated=str(data.get("updated") or now()),
            messages=[m for m in data.get("messages") or [] if isinstance(m, dict)],
            entries=[e for e in data.get("entries") or [] if isinstance(e, dict)],
            usage={k: int(v) for k, v in (data.get("usage") or {}).items() if isinstance(v, int)},
        )

    # ------------------------------------------------------------------ continuing
    def edit_batches(self) -> list[dict[str, Any]]:
        """Every edit batch logged, in order (the chat rebuilds its edit cards from these)."""
        return [e for e in self.entries if e.get("kind") == "edit_batch"]

    def continuation_summary(self) -> str:
        """A compact list of the tracked changes, comments and proposals the agent made."""
        lines: list[str] = []
        for batch in self.edit_batches():
            for row in batch.get("operations") or []:
                if row.get("status") not in ("applied", "queued", "replayed"):
                    continue
                lines.append("- " + _describe(row.get("operation"), row.get("status"), batch.get("mode")))
        if len(lines) > SUMMARY_LIMIT:
            extra = len(lines) - SUMMARY_LIMIT
            lines = [*lines[:SUMMARY_LIMIT], f"- … and {extra} more"]
        return "\n".join(lines)

    def restored_messages(self) -> list[dict[str, Any]]:
        """The history to continue from: document text read earlier replaced by a short note."""
        messages = copy.deepcopy(self.messages)
        for message in messages:
            content = message.get("content")
            if not isinstance(content, list):
                continue
            for block in content:
                if (
                    isinstance(block, dict)
                    and block.get("type") == "tool_result"
                    and block.get("_fence") is True
                ):
                    block["content"] = OMITTED_READ
                    block.pop("_fence", None)
        return messages


def _clip(value: Any, limit: int = 80) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _describe(op: Any, status: Any, mode: Any) -> str:
    """One line per operation: type, target, the gist of the change, and where it went."""
    where = {"applied": "tracked change", "queued": "proposal awaiting review", "replayed": "tracked change"}
    if not isinstance(op, dict):
        return f"an operation ({where.get(str(status), status)})"
    kind = str(op.get("type") or "operation")
    target = target_block_id(op)
    parts = [kind]
    if target:
        parts.append(f"on block {target}")
    if "find" in op and "replace" in op:
        parts.append(f'"{_clip(op["find"], 50)}" → "{_clip(op["replace"], 50)}"')
    elif "text" in op and kind != "commentOnBlock":
        parts.append(f'"{_clip(op["text"])}"')
    comment = op.get("comment")
    if isinstance(comment, dict):
        comment = comment.get("text")
    if comment:
        parts.append(f'comment "{_clip(comment)}"')
    label = (
        "comment" if kind.startswith("comment") and status == "applied" else where.get(str(status), status)
    )
    return f"{' '.join(parts)} ({label})"


# ----------------------------------------------------------------------------- the store
class TranscriptStore:
    """Transcripts on disk, one JSON file per (document path, identity)."""

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_directory()

    def file_for(self, document_path: str | os.PathLike[str], identity: str = "") -> Path:
        resolved = str(Path(document_path).resolve())
        key = hashlib.sha256(f"{resolved}\n{identity}".encode()).hexdigest()[:32]
        return self.directory / f"{key}.json"

    def beside(self, document_path: str | os.PathLike[str], identity: str, suffix: str) -> Path:
        """A file kept with the document's transcript, under its key: ``<key><suffix>`` (what
        else belongs to the document the way its conversation does, e.g. a playbook review)."""
        transcript = self.file_for(document_path, identity)
        return transcript.with_name(transcript.stem + suffix)

    def load(self, document_path: str | os.PathLike[str], identity: str = "") -> Transcript | None:
        """The saved transcript of this document, or None (missing or unreadable: never a crash)."""
        file = self.file_for(document_path, identity)
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
            return None
        transcript = Transcript.from_dict(data)
        resolved = str(Path(document_path).resolve())
        if transcript.document_path != resolved or transcript.identity != identity:
            return None
        return transcript

    def for_reviewer(self, reviewer: Any) -> Transcript:
        """The saved conversation of the document ``reviewer`` holds, or a new one keyed to it."""
        identity = document_identity(reviewer)
        path = getattr(reviewer, "path", None)
        if path:
            saved = self.load(path, identity)
            if saved is not None:
                return saved
            path = str(Path(path).resolve())
        return Transcript(document_path=path or None, identity=identity)

    def save(self, transcript: Transcript, secrets: tuple[str | None, ...] = ()) -> Path | None:
        """Write atomically (temporary file, fsync, rename); None for a document without a path.

        ``secrets`` (the API key in use) are scrubbed from the text before it reaches the disk.
        """
        if not transcript.document_path:
            return None
        transcript.document_path = str(Path(transcript.document_path).resolve())
        file = self.file_for(transcript.document_path, transcript.identity)
        text = json.dumps(transcript.to_dict(), ensure_ascii=False, indent=1)
        for secret in secrets:
            if secret and len(secret) >= 8:
                text = text.replace(secret, "[redacted]")
        private_dir(file.parent)
        write_atomically(file, text.encode("utf-8"))
        return file

    def delete(self, document_path: str | os.PathLike[str], identity: str = "") -> bool:
        file = self.file_for(document_path, identity)
        existed = file.exists()
        file.unlink(missing_ok=True)
        return existed
