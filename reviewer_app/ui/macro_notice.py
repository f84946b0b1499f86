"""Say, without stopping anyone, that the open document carries macros.

A macro-enabled package (a .docm, or a .docx with a VBA project smuggled in) is something a
lawyer should know about before sending a copy on: Reviewer never runs the macros, but they
travel with the file until ``finalize --strip-metadata`` removes them. The notice is an
information banner above the page plus a status bar line, never a modal box (see
:class:`~.document_notice.DocumentNotice`).
"""

from __future__ import annotations

from ..docx.edit.hidden_data import has_macros
from ..docx.reviewer import DocxReviewer
from .document_notice import DocumentNotice


class MacroNotice(DocumentNotice):
    """The banner for a document with a VBA project."""

    def applies(self, reviewer: DocxReviewer) -> bool:
        return has_macros(reviewer.package)

    def banner_text(self) -> str:
        return self.tr(
            "This document contains macros (a VBA project). Reviewer never runs them, but they stay "
            "in the file when you save it; reviewer finalize --strip-metadata makes a copy without them."
        )

    def status_text(self) -> str:
        return self.tr("This document contains macros; Reviewer does not run them.")
