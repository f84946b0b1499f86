"""The window's side of a document protected for tracked changes (see :mod:`~reviewer_app.docx.protection`).

Opening such a file says so in a banner above the page; Accept, Reject, their "all" forms and
Accept All Changes Shown are greyed out while it is open, and anything that still asks the
controller to accept or reject (a panel button, an Accept All by Author item) is answered in the
status bar with the reason instead. Typing, paragraph edits, comments and the agent go on: they
write tracked changes, which the protection allows.
"""

from __future__ import annotations

from ..docx.reviewer import DocxReviewer
from .document_notice import DocumentNotice

#: how long the reason for a refused accept or reject stays in the status bar (ms)
REFUSAL_MS = 10_000


class ProtectionNotice(DocumentNotice):
    """The banner for a file protected for tracked changes, and the commands it turns off."""

    def applies(self, reviewer: DocxReviewer) -> bool:
        return reviewer.tracked_changes_only

    def banner_text(self) -> str:
        return self.tr(
            "This document is protected for tracked changes: every edit you make is tracked, and "
            "changes cannot be accepted or rejected until the protection is removed in Word "
            "(Review > Restrict Editing)."
        )

    def status_text(self) -> str:
        return self.tr("Protected for tracked changes: accepting and rejecting are turned off.")

    def show_refusal(self, message: str) -> None:
        """The controller refused an accept or reject: say why where the eye goes next."""
        self._status_bar.showMessage(message, REFUSAL_MS)
