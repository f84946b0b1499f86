"""Edit ▸ Go To… (Ctrl+G): jump to a clause by its number, or to a page, as Word's Go To does.

A lawyer on a call hears "look at 14.3(b)" and types it. The clause is looked up in the same
outline the navigation pane lists (full numbers composed from the labels the page prints);
``p 12`` or ``page 12`` goes to the twelfth page as laid out. What cannot be found is said in
the dialog, which stays open with the text selected to be corrected.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from .clause_outline import find_clause, outline, page_request
from .document_controller import DocumentController
from .pageview import PageView


class GoToDialog(QDialog):
    """One line for a clause number or a page, Go and Close (see the module docstring)."""

    def __init__(self, controller: DocumentController, view: PageView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("goToDialog")
        self.setWindowTitle(self.tr("Go To"))
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self._controller = controller
        self._view = view
        prompt = QLabel(self.tr("Clause number or page (for example 5.2, 14.3(b) or p 12):"))
        prompt.setWordWrap(True)
        self.input = QLineEdit()
        self.input.setObjectName("goToInput")
        self.input.setAccessibleName(self.tr("Clause number or page"))
        prompt.setBuddy(self.input)
        self.message = QLabel()
        self.message.setObjectName("goToMessage")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #B3261E")
        self.message.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.go_button = buttons.addButton(self.tr("&Go"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.go_button.setObjectName("goToGo")
        for button in buttons.buttons():  # Enter in the line is Go, never Close
            button.setAutoDefault(False)
        self.go_button.setDefault(True)
        buttons.accepted.connect(self.go)
        buttons.rejected.connect(self.reject)
        column = QVBoxLayout(self)
        column.addWidget(prompt)
        column.addWidget(self.input)
        column.addWidget(self.message)
        column.addWidget(buttons)
        self.setMinimumWidth(360)
        self.input.setFocus()

    def go(self) -> bool:
        """Go where the line says and close; else say why in the dialog and keep it open."""
        text = self.input.text().strip()
        problem = (
            self._go(text) if text else self.tr("Type a clause number such as 5.2, or a page such as p 12.")
        )
        if problem is None:
            self.accept()
            return True
        self.message.setText(problem)
        self.message.show()
        self.input.selectAll()
        self.input.setFocus()
        return False

    def _go(self, text: str) -> str | None:
        """Scroll to the page or clause ``text`` names; the reason when it cannot (None: done)."""
        reviewer = self._controller.reviewer
        if reviewer is None:
            return self.tr("Open a document first.")
        page = page_request(text)
        if page is not None:
            self._view.finish_layout()  # page numbers are final once everything is laid out
            total = self._view.page_count()
            if self._view.go_to_page(page - 1):
                return None
            return self.tr("There is no page {page}: the document has {total} pages.").format(
                page=page, total=total
            )
        snapshot = reviewer.snapshot()
        entry = find_clause(snapshot.memo("clause_outline", outline), text)
        if entry is not None and self._view.show_block(entry.block_id):
            return None
        hint = self.tr(" For a page, type p {0}.").format(text) if text.isdigit() else ""
        return self.tr("There is no clause {0} in this document.").format(text) + hint
