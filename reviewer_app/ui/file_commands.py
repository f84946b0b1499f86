"""Open, save, close and export: the file side of the main window, with every question asked once.

A lawyer must never lose work to a dialog: closing or opening another file with unsaved
changes asks Save / Discard / Cancel; a save that fails says why and leaves the document open
and still marked modified; a file the engine refuses explains itself and keeps the current one.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QFileDialog, QMessageBox

from ..docx.errors import DocxOpenError
from ..docx.weak_links import BackReference
from .recovery_dialog import open_document

if TYPE_CHECKING:
    from .window_host import WindowHost

log = logging.getLogger(__name__)

DOCX_FILTER = "Word documents (*.docx);;All files (*)"


class FileCommands:
    """The window's file commands (kept apart so the window class stays about composition)."""

    window: BackReference[WindowHost] = BackReference()

    def __init__(self, window: WindowHost) -> None:
        self.window = window
        self.controller = window.controller

    # ------------------------------------------------------------------ dialogs (patched in tests)
    def ask_open_path(self) -> str:
        return self.ask_open_path_titled(self.window.tr("Open Word document"))

    def ask_open_path_titled(self, title: str) -> str:
        path, _ = QFileDialog.getOpenFileName(self.window, title, self.folder(), self.window.tr(DOCX_FILTER))
        return path

    def ask_save_path(self, title: str, suggestion: str, file_filter: str = DOCX_FILTER) -> str:
        path, _ = QFileDialog.getSaveFileName(self.window, title, suggestion, self.window.tr(file_filter))
        return path

    def ask_unsaved(self) -> QMessageBox.StandardButton:
        """Save, Discard or Cancel for a modified document about to be closed or replaced."""
        name = self.window.document_name()
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            self.window.tr("Unsaved changes"),
            self.window.tr("{name} has changes that are not saved. Save them before closing?").format(
                name=name
            ),
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
            self.window,
        )
        box.setObjectName("unsavedChangesBox")
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        return QMessageBox.StandardButton(box.exec())

    def ask_changed_on_disk(self) -> str:
        """Reload, Save As… or Overwrite (or Cancel) when another program wrote the file since."""
        name = self.window.document_name()
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            self.window.tr("File changed on disk"),
            self.window.tr(
                "{name} was changed by another program since you opened or saved it here. "
                "Saving now would overwrite those changes."
            ).format(name=name),
            QMessageBox.StandardButton.Cancel,
            self.window,
        )
        box.setObjectName("changedOnDiskBox")
        box.setInformativeText(
            self.window.tr(
                "Reload shows the file as it is now (your unsaved changes here are dropped); "
                "Save As… keeps both versions; Overwrite replaces the other program's changes."
            )
        )
        choices = {
            box.addButton(self.window.tr("Reload"), QMessageBox.ButtonRole.ActionRole): "reload",
            box.addButton(self.window.tr("Save As…"), QMessageBox.ButtonRole.ActionRole): "save_as",
            box.addButton(self.window.tr("Overwrite"), QMessageBox.ButtonRole.DestructiveRole): "overwrite",
        }
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return choices.get(box.clickedButton(), "cancel")

    def folder(self) -> str:
        path = self.controller.path
        if path:
            return str(Path(path).parent)
        return QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)

    # ------------------------------------------------------------------ commands
    def maybe_save(self) -> bool:
        """True when it is fine to drop the current document (saved, discarded, or unmodified)."""
        if not self.controller.is_modified():
            return True
        answer = self.ask_unsaved()
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def open_dialog(self) -> None:
        path = self.ask_open_path()
        if path:
            self.window.open_path(path)

    def open(self, path: str | os.PathLike[str]) -> bool:
        """Open ``path`` in place of the current document; False (with a message) when refused."""
        shown = os.fspath(path)
        if self.controller.reviewer is not None and not self.maybe_save():
            return False
        try:
            if not open_document(self.window, self.window.services.locks, shown):
                return False
        except DocxOpenError as exc:
            log.info("refused to open a document: %s", type(exc).__name__)
            self.window.show_error(self.window.tr("Cannot open document"), str(exc))
            return False
        except OSError as exc:
            self.window.show_error(
                self.window.tr("Cannot open document"), f"{Path(shown).name}: {exc.strerror}"
            )
            return False
        except Exception:
            log.exception("unexpected failure while opening a document")
            self.window.show_error(
                self.window.tr("Cannot open document"),
                self.window.tr(
                    "Reviewer could not read {name} because of an internal error. "
                    "The details were written to the log."
                ).format(name=Path(shown).name),
            )
            return False
        return True

    def save(self) -> bool:
        if self.controller.reviewer is None:
            return False
        if not self.controller.path:
            return self.save_as()
        return self._save_to(None)

    def save_as(self) -> bool:
        if self.controller.reviewer is None:
            return False
        suggestion = self.controller.path or str(Path(self.folder()) / self.window.document_name())
        path = self.ask_save_path(self.window.tr("Save document as"), suggestion)
        if not path:
            return False
        if not path.lower().endswith(".docx"):
            path += ".docx"
        return self._save_to(path)

    def _save_to(self, path: str | None) -> bool:
        current = self.controller.path
        same_file = path is None or (
            current is not None and os.path.abspath(path) == os.path.abspath(current)
        )
        if same_file and self.controller.changed_on_disk():
            choice = self.ask_changed_on_disk()
            if choice == "reload":
                return self._reload()
            if choice == "save_as":
                return self.save_as()
            if choice != "overwrite":
                return False
        try:
            saved = self.controller.save(path, keep_backup=self.window.keep_backup())
        except OSError as exc:
            log.warning("save failed: %s", exc)
            self.window.show_error(
                self.window.tr("Cannot save document"),
                self.window.tr(
                    "The document was not saved: {reason}. Your changes are still open here."
                ).format(reason=exc.strerror or str(exc)),
            )
            return False
        self.window.statusBar().showMessage(
            self.window.tr("Saved {name}").format(name=Path(saved).name), 4000
        )
        return True

    def _reload(self) -> bool:
        """Show the file as another program left it, dropping this window's unsaved changes."""
        path = self.controller.path
        assert path is not None
        try:
            self.window.services.locks.open(path)
        except (DocxOpenError, OSError) as exc:
            self.window.show_error(self.window.tr("Cannot open document"), str(exc))
            return False
        self.window.statusBar().showMessage(
            self.window.tr("Reloaded {name}").format(name=Path(path).name), 4000
        )
        return True

    def close(self) -> bool:
        """Close the document (asking about unsaved changes); False when the person cancelled."""
        if self.controller.reviewer is None:
            return True
        if not self.maybe_save():
            return False
        self.controller.close()
        return True

    def export_pdf(self) -> bool:
        """Write the pages as they show now (markup mode included) to a PDF the person names."""
        reviewer = self.controller.reviewer
        if reviewer is None:
            return False
        stem = Path(self.window.document_name()).stem
        suggestion = str(Path(self.folder()) / f"{stem} (redline).pdf")
        path = self.ask_save_path(self.window.tr("Export redline PDF"), suggestion, "PDF files (*.pdf)")
        if not path:
            return False
        from .pageview.render import render_pdf

        view = self.window.page_view
        try:
            pages = render_pdf(reviewer, path, markup=view.markup_mode(), markup_filter=view.markup_filter())
        except OSError as exc:
            self.window.show_error(self.window.tr("Cannot export PDF"), exc.strerror or str(exc))
            return False
        self.window.statusBar().showMessage(
            self.window.tr("Exported {count} pages to {name}").format(count=pages, name=Path(path).name), 6000
        )
        return True
