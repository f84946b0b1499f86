"""The Checks panel: the contract checks' findings for the open document, to go through and fix.

The panel re-checks after every change the :class:`DocumentController` reports, with the open
document's shared :class:`~reviewer_app.docx.checks.Checker` (the agent's check_document uses
it too), which re-reads only the blocks a text edit replaced: a re-check of a 300-page contract
takes milliseconds. While the
panel is hidden it does not check at all (a first check of a long contract takes seconds) and
catches up when shown.

Picking a finding shows its exact range on the page (:attr:`ChecksPanel.finding_shown`). Fix
applies the finding's certain correction through the controller: a tracked change under the
person's name, one Undo step. Ignore hides the finding for good in this document
(:class:`~reviewer_app.ui.checks_store.IgnoredFindings`); the kind filter narrows the list.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..docx.checks import Finding, checker_for
from ..docx.checks.fixes import fix_batch
from .checks_store import IgnoredFindings
from .document_controller import DocumentController
from .plurals import count_text

_KEY_ROLE = Qt.ItemDataRole.UserRole
#: a block id's 0-based page as laid out, or None (not laid out yet)
PageLookup = Callable[[str], "int | None"]


class ChecksPanel(QWidget):
    """Findings list with a kind filter, Fix and Ignore (see the module docstring)."""

    #: show this range of this block in the document: (block id, start offset, end offset)
    finding_shown = Signal(str, int, int)

    def __init__(
        self,
        controller: DocumentController,
        page_of_block: PageLookup | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._page_of_block = page_of_block
        self.setObjectName("checksPanel")
        self.setAccessibleName(self.tr("Contract checks"))
        self._controller = controller
        self._ignored = IgnoredFindings()
        self._findings: dict[str, Finding] = {}
        self._active = False
        self._stale = True
        self._build()
        controller.document_loaded.connect(self._document_loaded)
        controller.document_changed.connect(self._document_changed)

    # ------------------------------------------------------------------ widgets
    def _build(self) -> None:
        self.kind_filter = QComboBox()
        self.kind_filter.setObjectName("checksKind")
        self.kind_filter.setAccessibleName(self.tr("Kind of finding"))
        for label, kind in (
            (self.tr("All kinds"), None),
            (self.tr("Defined terms"), "terms"),
            (self.tr("Cross-references"), "references"),
            (self.tr("Numbers"), "numbers"),
            (self.tr("Blanks and placeholders"), "blanks"),
            (self.tr("Parties"), "parties"),
        ):
            self.kind_filter.addItem(label, kind)
        self.kind_filter.currentIndexChanged.connect(lambda _i: self._fill())

        self.list = QListWidget()
        self.list.setObjectName("checksList")
        self.list.setAccessibleName(self.tr("Findings"))
        self.list.setWordWrap(True)
        self.list.setAlternatingRowColors(True)
        self.list.setSpacing(2)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.currentItemChanged.connect(lambda item, _old: self._picked(item))
        self.list.itemClicked.connect(self._picked)

        self.fix_button = QPushButton(self.tr("Fix"))
        self.fix_button.setObjectName("checksFix")
        self.fix_button.setToolTip(self.tr("Make the suggested correction as a tracked change"))
        self.fix_button.clicked.connect(self.fix_current)
        self.ignore_button = QPushButton(self.tr("Ignore"))
        self.ignore_button.setObjectName("checksIgnore")
        self.ignore_button.setToolTip(self.tr("Hide this finding in this document from now on"))
        self.ignore_button.clicked.connect(self.ignore_current)
        buttons = QHBoxLayout()
        buttons.addWidget(self.fix_button)
        buttons.addWidget(self.ignore_button)
        buttons.addStretch(1)

        self.count_label = QLabel()
        self.count_label.setObjectName("checksCounts")
        self.count_label.setWordWrap(True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(6)
        layout.addWidget(self.kind_filter)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.count_label)
        self._update_buttons()

    # ------------------------------------------------------------------ checking
    def set_active(self, visible: bool) -> None:
        """Check only while the panel can be seen; connect the dock's ``visibilityChanged``.

        The check runs once the panel has painted "Checking…": a long contract's first check
        takes a second or two."""
        self._active = visible
        if visible and self._stale:
            self.count_label.setText(self.tr("Checking…"))
            QTimer.singleShot(0, self._refresh_if_stale)

    def _refresh_if_stale(self) -> None:
        if self._active and self._stale:
            self.refresh()

    def refresh_pages(self) -> None:
        """The pages are laid out (connect the page view's ``layout_finished``): name them."""
        self._fill()

    def _document_loaded(self) -> None:
        self._ignored = IgnoredFindings(self._controller.reviewer)
        self._document_changed(None)

    def _document_changed(self, _blocks: object) -> None:
        self._stale = True
        if self._active:
            self.refresh()

    def refresh(self) -> None:
        """Check the document now and list what is not ignored, keeping the person's place."""
        reviewer = self._controller.reviewer
        found = []
        if reviewer is not None:
            found = checker_for(reviewer).check(reviewer.snapshot(), reviewer.document.body)
        self._stale = False
        self._findings = {f.key: f for f in found if f.key not in self._ignored.keys}
        self._fill()

    def findings(self) -> list[Finding]:
        """The findings listed now (after Ignore and the kind filter), in document order."""
        return [self._findings[self.list.item(i).data(_KEY_ROLE)] for i in range(self.list.count())]

    def _fill(self) -> None:
        current = self.list.currentItem()
        keep = current.data(_KEY_ROLE) if current is not None else None
        row = max(self.list.currentRow(), 0)
        kind = self.kind_filter.currentData()
        self.list.blockSignals(True)
        self.list.clear()
        for key, finding in self._findings.items():
            if kind is None or finding.kind == kind:
                page = self._page_of_block(finding.block_id) if self._page_of_block else None
                where = "\n" + self.tr("Page {0}").format(page + 1) if page is not None else ""
                item = QListWidgetItem(finding.message + where)
                item.setData(_KEY_ROLE, key)
                item.setToolTip(finding.evidence)
                self.list.addItem(item)
        keys = [self.list.item(i).data(_KEY_ROLE) for i in range(self.list.count())]
        if keys:
            self.list.setCurrentRow(keys.index(keep) if keep in keys else min(row, len(keys) - 1))
        self.list.blockSignals(False)
        shown, total = self.list.count(), len(self._findings)
        if not total:
            text = self.tr("No drafting errors found.")
        elif shown == total:
            text = count_text(total, "{n} finding", "{n} findings")
        else:
            text = self.tr("{0} of {1}").format(shown, count_text(total, "{n} finding", "{n} findings"))
        if self._ignored.keys:
            text += " " + self.tr("({0} ignored)").format(len(self._ignored.keys))
        self.count_label.setText(text)
        self._update_buttons()

    # ------------------------------------------------------------------ acts
    def current_finding(self) -> Finding | None:
        item = self.list.currentItem()
        return None if item is None else self._findings.get(item.data(_KEY_ROLE))

    def _picked(self, item: QListWidgetItem | None) -> None:
        self._update_buttons()
        finding = None if item is None else self._findings.get(item.data(_KEY_ROLE))
        if finding is not None:
            self.finding_shown.emit(finding.block_id, finding.start, finding.end)

    def _update_buttons(self) -> None:
        finding = self.current_finding()
        self.ignore_button.setEnabled(finding is not None)
        self.fix_button.setEnabled(finding is not None and finding.fix is not None)
        self.fix_button.setToolTip(
            finding.fix.label
            if finding is not None and finding.fix is not None
            else self.tr("Make the suggested correction as a tracked change")
        )

    def fix_current(self) -> bool:
        """Apply the current finding's fix as a tracked change under the person's name."""
        finding = self.current_finding()
        reviewer = self._controller.reviewer
        if finding is None or finding.fix is None or reviewer is None:
            return False
        batch = fix_batch(finding, reviewer.snapshot())
        if batch is None:  # the text moved on since the check: check again instead
            self.refresh()
            return False
        label = self.tr("Fix: {0}").format(finding.fix.label)
        result = self._controller.apply_operations(label, batch)
        return bool(result.get("applied"))

    def ignore_current(self) -> None:
        finding = self.current_finding()
        if finding is None:
            return
        self._ignored.ignore(finding.key)
        del self._findings[finding.key]
        self._fill()
