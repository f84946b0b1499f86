"""The first-run question: what name and initials your tracked changes and comments carry.

Without it every change a person makes is authored as the login ("root", initials "R"), which
the other side of a negotiation then reads in Word. On the first start (no name stored yet) the
window asks once, prefilled with the account's full name; Skip keeps the prefill, so the
question never comes back either way. Settings ▸ You changes both later.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..docx.comment_writer import initials_of
from .app_settings import SettingsStore


class NameDialog(QDialog):
    """Name and initials, prefilled from the settings (the account's name on a first run)."""

    def __init__(self, store: SettingsStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("firstRunDialog")
        self.setWindowTitle(self.tr("Welcome to Reviewer"))
        self._store = store
        current = store.settings
        intro = QLabel(
            self.tr(
                "Your tracked changes, comments and replies carry your name and initials, in "
                "Reviewer and in Word. You can change them later in Settings ▸ You."
            ),
            self,
        )
        intro.setWordWrap(True)
        self.name_edit = QLineEdit(current.user_name, self)
        self.name_edit.setObjectName("firstRunName")
        self.initials_edit = QLineEdit(current.initials(), self)
        self.initials_edit.setObjectName("firstRunInitials")
        self.initials_edit.setMaxLength(9)
        self._suggested = current.initials()
        self.name_edit.textChanged.connect(self._follow_name)
        form = QFormLayout()
        form.addRow(self.tr("Name:"), self.name_edit)
        form.addRow(self.tr("Initials:"), self.initials_edit)

        self.buttons = QDialogButtonBox(self)
        self.continue_button = QPushButton(self.tr("Continue"), self)
        self.continue_button.setDefault(True)
        self.skip_button = QPushButton(self.tr("Skip"), self)
        self.skip_button.setToolTip(self.tr("Keep the name shown"))
        self.buttons.addButton(self.continue_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(self.skip_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.continue_button.clicked.connect(self.accept)
        self.skip_button.clicked.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(420)

    def _follow_name(self, name: str) -> None:
        """Initials follow the name as it is typed, until the person types their own."""
        self.continue_button.setEnabled(bool(name.strip()))
        if self.initials_edit.text() == self._suggested:
            self._suggested = initials_of(name) if name.strip() else ""
            self.initials_edit.setText(self._suggested)

    def done(self, result: int) -> None:
        """Continue stores what is typed; Skip (or Esc, or closing) stores the prefilled values."""
        if result == QDialog.DialogCode.Accepted and self.name_edit.text().strip():
            name, initials = self.name_edit.text().strip(), self.initials_edit.text().strip()
        else:
            name, initials = self._store.settings.user_name, self._store.settings.user_initials
        # initials that are just the name's own are left to follow a later change of name
        self._store.update(user_name=name, user_initials="" if initials == initials_of(name) else initials)
        super().done(result)


def ask_name(store: SettingsStore, parent: QWidget) -> NameDialog | None:
    """Open the name dialog (window-modal, not blocking) when no name is stored; None when one is."""
    if not store.needs_name():
        return None
    dialog = NameDialog(store, parent)
    dialog.open()
    return dialog
