"""The redline panel's filter bar: author, type and text.

The choices follow the document: the author and type lists hold what the document has now, and a
chosen author or type that disappears (all of Priya's changes accepted) falls back to "All", so
the list never sits empty behind a filter the person can no longer see in the combo box.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QWidget

from .redline_model import category_label


class RedlineFilterBar(QWidget):
    """Author and type combo boxes and a text field; :attr:`changed` when the person changes one."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.author_box = QComboBox()
        self.author_box.setAccessibleName(self.tr("Filter by author"))
        self.author_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.author_box.setMinimumContentsLength(10)
        self.type_box = QComboBox()
        self.type_box.setAccessibleName(self.tr("Filter by type"))
        self.type_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.type_box.setMinimumContentsLength(8)
        self.text_field = QLineEdit()
        self.text_field.setPlaceholderText(self.tr("Filter text"))
        self.text_field.setAccessibleName(self.tr("Filter by text"))
        self.text_field.setClearButtonEnabled(True)
        self.author_box.currentIndexChanged.connect(self.changed)
        self.type_box.currentIndexChanged.connect(self.changed)
        self.text_field.textChanged.connect(self.changed)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.author_box, 3)
        layout.addWidget(self.type_box, 2)
        layout.addWidget(self.text_field, 3)
        self.fill([], [])

    def author(self) -> str | None:
        """The chosen author (None: all authors)."""
        return self.author_box.currentData()

    def category(self) -> str | None:
        """The chosen category (``redline_model.CATEGORIES``; None: all types)."""
        return self.type_box.currentData()

    def text(self) -> str:
        return self.text_field.text()

    def fill(self, authors: list[str], categories: list[str]) -> bool:
        """Offer these authors and categories, keeping the chosen ones while they exist.

        Emits nothing; returns True when a choice had to fall back to "All" (re-filter then).
        """
        chosen = (self.author(), self.category())
        self.blockSignals(True)
        try:
            self.author_box.clear()
            self.author_box.addItem(self.tr("All authors"), None)
            for name in authors:
                self.author_box.addItem(name or self.tr("(unknown)"), name)
            self.type_box.clear()
            self.type_box.addItem(self.tr("All types"), None)
            for found in categories:
                self.type_box.addItem(category_label(found), found)
            self.author_box.setCurrentIndex(max(0, self.author_box.findData(chosen[0])))
            self.type_box.setCurrentIndex(max(0, self.type_box.findData(chosen[1])))
        finally:
            self.blockSignals(False)
        return (self.author(), self.category()) != chosen

    def set_author(self, author: str | None) -> None:
        self.author_box.setCurrentIndex(max(0, self.author_box.findData(author)))

    def set_category(self, category: str | None) -> None:
        self.type_box.setCurrentIndex(max(0, self.type_box.findData(category)))

    def is_filtering(self) -> bool:
        return self.author() is not None or self.category() is not None or bool(self.text().strip())

    def reset(self, emit: bool = True) -> None:
        """Every author, every type, no text; emits :attr:`changed` once (when ``emit``)."""
        self.blockSignals(True)
        try:
            self.author_box.setCurrentIndex(0)
            self.type_box.setCurrentIndex(0)
            self.text_field.clear()
        finally:
            self.blockSignals(False)
        if emit:
            self.changed.emit()
