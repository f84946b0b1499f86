"""``DocxReviewer``: a headless document session, the engine's public face (contract decision 1).

The agent's bridges, the CLI and the desktop app all hold one of these per open document. It
opens safely, exposes the snapshot and the readers, and saves atomically; the edit engine adds
``apply_operations``, ``accept_all`` and ``reject_all`` on top of the same document.
"""

from __future__ import annotations

import copy
import os
import secrets
from typing import TYPE_CHECKING, Any

from . import find, outline, revisions, stories
from .change_details import list_change_details
from .document import WordDocument
from .outline import ReadError
from .package import Package
from .protection import refuse_untracked, tracked_changes_only
from .snapshot import Snapshot

if TYPE_CHECKING:
    from .edit.engine import Applier
    from .edit.stamp import RevisionStamp
    from .journal import ChangeJournal

DEFAULT_AUTHOR = "Reviewer"


class DocxReviewer:
    """One open .docx: read it as blocks, stories, comments and changes; save it faithfully."""

    def __init__(
        self, package: Package, author: str = DEFAULT_AUTHOR, revision_stamp: RevisionStamp | None = None
    ) -> None:
        self.package = package
        self.document = WordDocument(package)
        self._edit_setup: tuple[str, RevisionStamp | None] = (author, revision_stamp)
        self._edits: Applier | None = None
        self._session = secrets.token_hex(4)

    @classmethod
    def open(cls, path: str | os.PathLike[str], author: str = DEFAULT_AUTHOR) -> DocxReviewer:
        """Open ``path``; raises a :class:`~reviewer_app.docx.errors.DocxOpenError` subclass."""
        return cls(Package.open(path), author=author)

    @classmethod
    def from_bytes(cls, data: bytes, author: str = DEFAULT_AUTHOR, path: str | None = None) -> DocxReviewer:
        """Open a document held in memory (same checks as :meth:`open`)."""
        return cls(Package.from_bytes(data, path=path), author=author)

    @property
    def _applier(self) -> Applier:
        """The edit engine, made (and imported, with the comment writers it brings) on first use:
        a reading command such as ``reviewer check`` never loads it, a tenth of its start-up."""
        if self._edits is None:
            from .edit.engine import Applier

            self._edits = Applier(self.document, *self._edit_setup)
        return self._edits

    @property
    def author(self) -> str:
        """The name every change and comment made through this session is attributed to."""
        return self._applier.author

    @author.setter
    def author(self, name: str) -> None:
        self._applier.author = name

    def set_initials(self, author: str, initials: str) -> None:
        """The initials Word shows on ``author``'s new comments; empty: derived from the name."""
        from .edit.schema import sanitize_text

        name, chosen = sanitize_text(author), sanitize_text(initials).strip()
        if chosen:
            self.document.chosen_initials[name] = chosen
        else:
            self.document.chosen_initials.pop(name, None)

    @property
    def revision_stamp(self) -> RevisionStamp | None:
        """A fixed date and id floor for new revisions (repeatable output), or None for now."""
        return self._applier.stamp

    @revision_stamp.setter
    def revision_stamp(self, stamp: RevisionStamp | None) -> None:
        self._applier.stamp = stamp

    @property
    def path(self) -> str | None:
        """Where the document was opened from (None for in-memory documents)."""
        return self.package.path

    # ------------------------------------------------------------- reads
    def snapshot(self) -> Snapshot:
        """Blocks and anchors of the main story (contract §2.1)."""
        return self.document.snapshot()

    def snapshot_dict(self) -> dict[str, Any]:
        """The snapshot as the contract's JSON (``{blocks, anchors}``)."""
        return self.snapshot().to_dict()

    def read_document(self) -> list[dict[str, Any]]:
        """Every content block as the reading tools show it (contract §4.1)."""
        return self.snapshot().agent_blocks()

    def get_outline(self, max_depth: int = outline.DEFAULT_MAX_DEPTH) -> dict[str, Any]:
        """Headings with section handles down to ``max_depth`` (contract §4.2)."""
        return outline.get_outline(self.snapshot(), max_depth)

    def read_section(
        self,
        handle: dict[str, Any],
        max_blocks: int = outline.DEFAULT_MAX_BLOCKS,
        after_block_id: str | None = None,
    ) -> dict[str, Any]:
        """A page of one section's blocks; raises :class:`ReadError` for stale/missing handles."""
        return outline.read_section(self.snapshot(), handle, max_blocks, after_block_id)

    def list_stories(self) -> list[dict[str, Any]]:
        """Main story, headers, footers, footnotes and endnotes as ``{handle, text}``."""
        return stories.list_stories(self.document)

    def read_story(self, handle: dict[str, Any]) -> dict[str, Any] | None:
        """The story a handle from :meth:`list_stories` names (None when it names none)."""
        return stories.read_story(self.document, handle)

    def comments(self) -> list[dict[str, Any]]:
        """Top-level comments with their replies, resolved state and anchors (contract §8)."""
        # flat records and their replies copied one by one, not deep-copied, keep the shared
        # listing safe at a fraction of the cost
        return [
            {**comment, "replies": [dict(r) for r in comment["replies"]]}
            for comment in self.comment_threads()
        ]

    def comment_threads(self) -> list[dict[str, Any]]:
        """:meth:`comments` without the copies, for readers that only look: the dicts are shared
        (with the next listing too, where a thread nothing changed is the very same dict, so a
        view can tell the changed threads by identity) and must not be changed."""
        from . import comments

        # every change makes a new snapshot, so the memo stays true
        return self.snapshot().memo("comments", lambda snap: comments.list_comments(self.document, snap))

    def changes(self) -> list[dict[str, Any]]:
        """Pending tracked changes of the main story in document order (contract §8)."""
        listed = self.snapshot().memo("changes", lambda snap: revisions.list_changes(self.document, snap))
        return copy.deepcopy(listed)

    def change_details(self) -> list[dict[str, Any]]:
        """Every pending change of every story with its date and move flag, for a person's review
        (:func:`~.change_details.list_change_details`); :meth:`changes` keeps the contract's shape."""
        listed = self.snapshot().memo("changeDetails", lambda snap: list_change_details(self.document, snap))
        # flat records (strings, None, a bool, one small dict): a copy per record, not a deepcopy,
        # keeps the memo safe at a fifth of the cost on a thousand changes
        return [{**change, "story": dict(change["story"])} for change in listed]

    def find_text(
        self,
        query: str,
        match_case: bool = False,
        whole_word: bool = False,
        scope: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Literal search in the document, a section or a story (contract §4.5).

        Raises :class:`ReadError` with the contract's message for a stale section, an unknown
        story, or a page scope (a headless document has no layout to map pages from).
        """
        kind = (scope or {}).get("type", "document")
        handle = (scope or {}).get("handle")
        if kind == "page":
            raise ReadError("This editor surface cannot search by page without live pagination.")
        if kind == "section":
            status, blocks = outline.resolve_section(self.snapshot(), handle or {})
            if status != "found":
                raise ReadError("The scoped section is stale or missing; run get_document_outline again.")
            return find.find_in_blocks(blocks, query, match_case, whole_word)
        if kind == "story" and isinstance(handle, dict) and handle.get("type") != "main":
            story = self.read_story(handle)
            if story is None:
                raise ReadError("The scoped story was not found; run list_stories again.")
            return find.find_in_story(story, query, match_case, whole_word)
        index = self.snapshot().memo("search", lambda snap: find.build_index(snap.blocks))
        return find.find_in_index(index, query, match_case, whole_word)

    # ------------------------------------------------------------- edits
    def document_version(self) -> str:
        """An opaque version that changes with every edit (for ``precondition.documentVersion``);
        a dry run leaves it as it was."""
        return f"{self._session}-{self._applier.content_version}"

    def apply_operations(self, batch: Any) -> dict[str, Any]:
        """Apply a contract batch (§5.4) as tracked changes or comments; return the result (§5.9).

        Raises :class:`~reviewer_app.docx.edit.batch.ContractError` when the batch itself is
        malformed; every refusal of a well-formed operation is a skip in the result instead.
        """
        return self._applier.apply(batch, self.document_version())

    def undo_operations(self, handle: dict[str, Any] | str) -> dict[str, Any]:
        """Undo the latest committed batch (``undoDocumentOperations`` semantics)."""
        return self._applier.undo(handle)

    # ------------------------------------------------------------- accept and reject (a person's acts)
    @property
    def tracked_changes_only(self) -> bool:
        """The file is protected for tracked changes: accepting, rejecting and finalizing raise
        :class:`~.protection.TrackedChangesOnlyError`, and untracked batches are refused."""
        return tracked_changes_only(self.document)

    def accept_change(self, change_id: str) -> bool:
        """Accept one change as :meth:`changes` lists it (both halves of a move together)."""
        refuse_untracked(self.document)
        from .edit import resolve

        return resolve.accept_change(self.document, change_id)

    def reject_change(self, change_id: str) -> bool:
        """Reject one change as :meth:`changes` lists it (both halves of a move together)."""
        refuse_untracked(self.document)
        from .edit import resolve

        return resolve.reject_change(self.document, change_id)

    def accept_all(self, author: str | None = None) -> int:
        """Accept every pending change in every story (or only ``author``'s); return the count."""
        refuse_untracked(self.document)
        from .edit import resolve

        return resolve.accept_all(self.document, author)

    def reject_all(self, author: str | None = None) -> int:
        """Reject every pending change in every story (or only ``author``'s); return the count."""
        refuse_untracked(self.document)
        from .edit import resolve

        return resolve.reject_all(self.document, author)

    def finalize(self, strip_metadata: bool = False) -> dict[str, int]:
        """Accept all changes, remove every comment, optionally blank author/time metadata."""
        refuse_untracked(self.document)
        from .edit import finalize as finalizing

        return finalizing.finalize(self.document, strip_metadata)

    # ------------------------------------------------------------- undo
    def begin_changes(self) -> ChangeJournal:
        """Start recording an act for undo; ``finish()`` the journal after it for its
        :class:`~.journal.UndoEntry` (exact to the byte, as large as what the act touched)."""
        from .journal import ChangeJournal

        return ChangeJournal(self.document)

    # ------------------------------------------------------------- saving
    def to_bytes(self) -> bytes:
        """The package as it would be saved."""
        return self.package.to_bytes()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Save atomically to ``path`` (temporary file, fsync, rename)."""
        self.package.save(path)
