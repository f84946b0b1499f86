"""The bridge: the seam between the tool executor and a document surface (contract §9).

The executor never touches a document directly. It talks to a *bridge*, a plain object with a
few required methods and some optional ones; an optional member that is absent (or ``None``)
is a capability the surface lacks, and the matching tool answers with the contract's
"unsupported" sentence instead of failing. Keeping the seam structural (a ``Protocol``, not a
base class) lets the headless reviewer, the review queue and the desktop page view each expose
exactly what they can do, and lets tests hand in small fakes.

Required members: ``snapshot()``, ``apply_document_operations(batch)``, ``get_comments()``,
``get_changes()``, ``reply_to_comment(id, text) -> bool``, ``resolve_comment(id, resolved) -> bool``.
Optional members: ``document_operation_mode`` (a contract mode string), ``undo_document_operations``,
``get_document_version``, ``list_stories``, ``read_story``, ``find_text``, ``scroll_to_block``,
``get_selection_text``, ``get_page_count``, ``get_page_text``, ``get_target_page``,
``show_in_document``, and ``replay_session`` (the object the replay ledger is kept for; §5.8).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from ..docx import comment_writer
from ..docx.edit.contract import MODES
from ..docx.edit.stamp import RevisionStamp
from ..docx.reviewer import DocxReviewer
from ..docx.snapshot import Snapshot

DEFAULT_MODE = "tracked-changes"

#: Members a bridge may lack; the executor and the conformance suite look them up by these names.
OPTIONAL_MEMBERS: tuple[str, ...] = (
    "document_operation_mode",
    "undo_document_operations",
    "get_document_version",
    "list_stories",
    "read_story",
    "find_text",
    "scroll_to_block",
    "get_selection_text",
    "get_page_count",
    "get_page_text",
    "get_target_page",
    "show_in_document",
)
REQUIRED_MEMBERS: tuple[str, ...] = (
    "snapshot",
    "apply_document_operations",
    "get_comments",
    "get_changes",
    "reply_to_comment",
    "resolve_comment",
)


@runtime_checkable
class AgentBridge(Protocol):
    """What every surface must offer; optional members are documented in the module docstring."""

    def snapshot(self) -> Snapshot:
        """Blocks and anchors of the main story as they are now."""
        ...

    def apply_document_operations(self, batch: Mapping[str, Any]) -> dict[str, Any]:
        """Apply (or queue) a strict contract batch (§5.4); return the core result (§5.9).

        The batch's ``precondition.documentVersion`` and each operation's ``blockTextHash`` are
        the bridge's to honour (the edit engine does, for every bridge built on it): the executor
        passes them on and reports the refusals, it does not compare versions itself.
        """
        ...

    def get_comments(self) -> list[dict[str, Any]]:
        """Top-level comments with replies (§8)."""
        ...

    def get_changes(self) -> list[dict[str, Any]]:
        """Pending tracked changes (§8)."""
        ...

    def reply_to_comment(self, comment_id: str, text: str) -> bool:
        """Reply to a comment; False when there is no such comment."""
        ...

    def resolve_comment(self, comment_id: str, resolved: bool) -> bool:
        """Resolve or reopen a comment; False when there is no such comment."""
        ...


def member(bridge: Any, name: str) -> Any:
    """The bridge's optional member ``name`` or None: a hostile or broken attribute counts as absent."""
    try:
        return getattr(bridge, name, None)
    except Exception:
        return None


def coerce_stamp(value: RevisionStamp | Mapping[str, Any] | None) -> RevisionStamp | None:
    """Accept a :class:`RevisionStamp` or the contract's ``{date, idSeed}`` object."""
    if value is None or isinstance(value, RevisionStamp):
        return value
    if isinstance(value, Mapping) and isinstance(value.get("date"), str):
        seed = value.get("idSeed", value.get("id_seed", 0))
        return RevisionStamp(date=value["date"], id_seed=int(seed or 0))
    raise TypeError("revision_stamp must be a RevisionStamp or {date, idSeed}.")


class ReviewerReads:
    """The read and comment members shared by every bridge over a :class:`DocxReviewer`.

    ``replay_session`` is the reviewer itself: an operation id names one operation for the whole
    document session, so a new bridge made per call over the same reviewer still replays (§5.8).
    """

    def __init__(
        self, reviewer: DocxReviewer, revision_stamp: RevisionStamp | Mapping[str, Any] | None = None
    ):
        self.reviewer = reviewer
        self.revision_stamp = coerce_stamp(revision_stamp)
        if self.revision_stamp is not None:
            # fixes dates and the id floor of everything the engine writes for this reviewer
            reviewer.revision_stamp = self.revision_stamp

    @property
    def replay_session(self) -> object:
        return self.reviewer

    def snapshot(self) -> Snapshot:
        return self.reviewer.snapshot()

    def get_document_version(self) -> str:
        return self.reviewer.document_version()

    def get_comments(self) -> list[dict[str, Any]]:
        return self.reviewer.comments()

    def get_changes(self) -> list[dict[str, Any]]:
        return self.reviewer.changes()

    def reply_to_comment(self, comment_id: str, text: str) -> bool:
        date = self.revision_stamp.date if self.revision_stamp else None
        reply_id = comment_writer.reply(self.reviewer.document, comment_id, text, self.reviewer.author, date)
        return reply_id is not None

    def resolve_comment(self, comment_id: str, resolved: bool) -> bool:
        return comment_writer.resolve(self.reviewer.document, comment_id, resolved)

    def list_stories(self) -> list[dict[str, Any]]:
        return self.reviewer.list_stories()

    def read_story(self, handle: dict[str, Any]) -> dict[str, Any] | None:
        return self.reviewer.read_story(handle)

    def find_text(
        self, query: str, match_case: bool, whole_word: bool, scope: dict[str, Any] | None
    ) -> dict[str, Any]:
        """Search with the reviewer's cached index (raises ``ReadError`` for stale scopes)."""
        return self.reviewer.find_text(query, match_case, whole_word, scope)


class ReviewerBridge(ReviewerReads):
    """The headless bridge: every change goes straight into the document in ``mode``.

    It has no layout, selection or view, so it has no page, selection, scroll, show or
    target-page members at all (decision 9): those tools report themselves unsupported.
    """

    def __init__(
        self,
        reviewer: DocxReviewer,
        mode: str = DEFAULT_MODE,
        revision_stamp: RevisionStamp | Mapping[str, Any] | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"Unknown document operation mode {mode!r}; expected one of {', '.join(MODES)}.")
        super().__init__(reviewer, revision_stamp)
        self.document_operation_mode = mode

    def apply_document_operations(self, batch: Mapping[str, Any]) -> dict[str, Any]:
        return self.reviewer.apply_operations(batch)

    def undo_document_operations(self, handle: dict[str, Any] | str) -> dict[str, Any]:
        return self.reviewer.undo_operations(handle)


def create_reviewer_bridge(
    reviewer: DocxReviewer,
    mode: str = DEFAULT_MODE,
    revision_stamp: RevisionStamp | Mapping[str, Any] | None = None,
) -> ReviewerBridge:
    """The headless bridge over ``reviewer`` (contract decision 1 and §9).

    ``mode`` is stamped on every batch (``tracked-changes`` by default; ``direct`` for edits a
    person makes with tracking off). ``revision_stamp`` (a :class:`RevisionStamp` or
    ``{date, idSeed}``) fixes the dates and id floor of revisions, comments and replies, so
    tests and repeatable pipelines produce the same package twice.
    """
    return ReviewerBridge(reviewer, mode, revision_stamp)
