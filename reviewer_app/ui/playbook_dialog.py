"""Agent ▸ Review Against Playbook…: pick the playbook the agent checks the contract against.

The list holds the playbooks in the user's library (the ones Reviewer ships and the ones
imported). A playbook file in the library that cannot be read is listed with its error, so the
person sees why it cannot be picked. Import… adds a playbook from a YAML file or a .docx table;
a file that is not a usable playbook says where it is wrong (file, line, field) inside the
dialog and adds nothing. The dialog only chooses: the window starts the review with
:meth:`chosen`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..agent.playbook import library
from ..agent.playbook.library import PlaybookEntry
from ..agent.playbook.model import Playbook
from ..agent.playbook.yaml_format import PlaybookError
from .chat.colors import chat_colors
from .plurals import count_text


def same_playbook(playbook: Playbook | None, other: Playbook) -> bool:
    """The same playbook, wherever its file is: the same name and positions."""
    return playbook is not None and (playbook.name, playbook.positions) == (other.name, other.positions)


PLAYBOOK_FILTER = "Playbooks (*.yaml *.yml *.docx);;All files (*)"
_ENTRY_ROLE = Qt.ItemDataRole.UserRole


class PlaybookDialog(QDialog):
    """The playbooks to choose from, Import…, and Start Review / Cancel."""

    def __init__(self, current: Playbook | None = None, parent: QWidget | None = None) -> None:
        """``current``: the playbook of the document's review so far, picked at first."""
        super().__init__(parent)
        self.setObjectName("playbookDialog")
        self.setWindowTitle(self.tr("Review against playbook"))
        self.setMinimumWidth(460)
        intro = QLabel(
            self.tr(
                "The agent checks the contract against each position of the playbook, cites the "
                "clause it relies on, and proposes the fallback where the contract deviates."
            )
        )
        intro.setWordWrap(True)
        self.list = QListWidget()
        self.list.setObjectName("playbookChoices")
        self.list.setAccessibleName(self.tr("Playbooks"))
        self.list.setWordWrap(True)
        self.list.setSpacing(3)
        self.list.currentItemChanged.connect(lambda _item, _old: self._picked())
        self.list.itemDoubleClicked.connect(lambda _item: self.accept())
        self.description = QLabel()
        self.description.setObjectName("playbookDescription")
        self.description.setWordWrap(True)
        self.problem = QLabel()
        self.problem.setObjectName("playbookImportProblem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet(f"color: {chat_colors(self)['error']};")
        self.problem.hide()
        self.import_button = QPushButton(self.tr("Import…"))
        self.import_button.setObjectName("playbookImport")
        self.import_button.setToolTip(self.tr("Add a playbook from a YAML file or a Word table (.docx)"))
        self.import_button.clicked.connect(self.import_playbook)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.start_button = self.buttons.addButton(
            self.tr("Start Review"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.start_button.setObjectName("playbookStart")
        self.buttons.addButton(self.import_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.description)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self._fill(lambda entry: current is not None and same_playbook(entry.playbook, current))

    # ------------------------------------------------------------------ the list
    def _fill(self, select: Callable[[PlaybookEntry], bool]) -> None:
        """List the library; pick the first entry ``select`` accepts, else the first readable one."""
        self.list.clear()
        entries = library.list_playbooks()
        for entry in entries:
            item = QListWidgetItem(f"{entry.name}\n{self._facts(entry)}")
            item.setData(_ENTRY_ROLE, entry)
            if entry.playbook is None:
                item.setForeground(self.palette().placeholderText())
            self.list.addItem(item)
        wanted = [i for i, e in enumerate(entries) if select(e)]
        readable = [i for i, e in enumerate(entries) if e.playbook is not None]
        if wanted or readable:
            self.list.setCurrentRow((wanted or readable)[0])
        self._picked()

    def _facts(self, entry: PlaybookEntry) -> str:
        """The line under a playbook's name: what it is for, its size, whose it is."""
        origin = (
            self.tr("shipped with Reviewer")
            if entry.origin == "shipped"
            else self.tr("yours: {0}").format(entry.path.name)
        )
        playbook = entry.playbook
        if playbook is None:
            return self.tr("cannot be read · {0}").format(origin)
        positions = count_text(len(playbook.positions), "{n} position", "{n} positions")
        return f"{playbook.contract_type} · {positions} · {origin}"

    def playbook_names(self) -> list[str]:
        """The names listed, in order (two playbooks may share one: the line under it differs)."""
        return [self.list.item(i).text().split("\n")[0] for i in range(self.list.count())]

    def _entry(self) -> PlaybookEntry | None:
        item = self.list.currentItem()
        return item.data(_ENTRY_ROLE) if item is not None else None

    def chosen(self) -> Playbook | None:
        """The playbook picked (None when none is, or the one picked cannot be read)."""
        entry = self._entry()
        return entry.playbook if entry is not None else None

    def _picked(self) -> None:
        entry = self._entry()
        playbook = self.chosen()
        self.start_button.setEnabled(playbook is not None)
        if entry is None:
            self.description.setText(self.tr("No playbook yet: import one."))
            return
        self.description.setText(entry.error if playbook is None else playbook.description)

    # ------------------------------------------------------------------ Import…
    def ask_import_path(self) -> str:
        """The file to import (a file dialog; tests answer it)."""
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Import a playbook"), str(Path.home()), self.tr(PLAYBOOK_FILTER)
        )
        return path

    def import_playbook(self) -> Path | None:
        """Import… : add a playbook from a file (the file added, selected); a bad file says what is
        wrong and adds nothing."""
        path = self.ask_import_path()
        if not path:
            return None
        try:
            added = library.import_playbook(path)
        except PlaybookError as error:
            self._say(str(error))
            return None
        except OSError as error:
            self._say(f"{Path(path).name}: {error.strerror or error}")
            return None
        self.problem.hide()
        self._fill(lambda entry: entry.path == added)
        return added

    def _say(self, problem: str) -> None:
        self.problem.setText(self.tr("Not imported: {0}").format(problem))
        self.problem.show()
