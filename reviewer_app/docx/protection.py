"""Documents protected for tracked changes only (``w:documentProtection w:edit="trackedChanges"``).

Word's Review ▸ Restrict Editing ▸ "Tracked changes" lets anyone edit, but every edit is
tracked, and nobody may accept or reject changes until the protection is removed. The other
side often sends a draft so. Reviewer honours it in the engine, not only in its menus, so no
path writes untracked content into such a file: accepting or rejecting changes (one, by
author, or all), finalizing, and a batch in the contract's ``direct`` (untracked) mode are all
refused with :data:`TRACKED_ONLY_MESSAGE`; tracked edits and comments go on as usual.

The protection counts only when enforced (``w:enforcement`` on), as in Word.
"""

from __future__ import annotations

from .document import WordDocument
from .xmlutil import REL_SETTINGS, W

TRACKED_ONLY_MESSAGE = (
    "This document is protected for tracked changes: every edit must stay a tracked change, so "
    "changes cannot be accepted or rejected, and nothing can be written untracked, until the "
    "protection is removed in Word (Review > Restrict Editing > Stop Protection)."
)
_ON = frozenset(("1", "true", "on"))


class TrackedChangesOnlyError(ValueError):
    """An act would write untracked content into a document protected for tracked changes."""

    def __init__(self) -> None:
        super().__init__(TRACKED_ONLY_MESSAGE)


def tracked_changes_only(doc: WordDocument) -> bool:
    """True when ``settings.xml`` enforces protection for tracked changes only."""
    settings = doc.part_root(REL_SETTINGS)
    protection = settings.find(W + "documentProtection") if settings is not None else None
    if protection is None:
        return False
    enforced = (protection.get(W + "enforcement") or "").strip().lower() in _ON
    return enforced and protection.get(W + "edit") == "trackedChanges"


def refuse_untracked(doc: WordDocument) -> None:
    """Raise :class:`TrackedChangesOnlyError` when ``doc`` is protected for tracked changes only."""
    if tracked_changes_only(doc):
        raise TrackedChangesOnlyError()
