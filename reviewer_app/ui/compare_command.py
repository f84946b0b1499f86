"""File ▸ Compare with…: the redline between another version and the open document, in a new window.

The other version is the base and the open document (as it reads with its own changes
accepted) the revised text, so the redline reads "what changed since that version" — the
question a lawyer asks when the other side sends a new draft. It opens in its own window as an
unsaved document: the person reviews it like any other, and Save asks for a name. Every version
compared this way is remembered for the chat, whose ``compare_with_version`` tool may then
offer it to the model by id (never by path).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from ..agent.host_tools import VersionChoice
from ..docx.compare import generate_redline_docx
from ..docx.compare.errors import CompareInputError, CompareOptionError
from ..docx.errors import DocxOpenError
from ..docx.weak_links import BackReference
from .compare_report import incomplete_redline
from .plurals import count_text

if TYPE_CHECKING:
    from .window_host import WindowHost

log = logging.getLogger(__name__)


class CompareCommand:
    """Runs a comparison for a window and keeps the versions the person picked."""

    window: BackReference[WindowHost] = BackReference()

    def __init__(self, window: WindowHost, new_window: Callable[[], WindowHost]) -> None:
        self.window = window
        #: makes the empty window a redline opens in (the window's own kind, without importing it)
        self.new_window = new_window
        #: the versions the person picked, as the chat's compare_with_version tool offers them
        self.versions: list[VersionChoice] = []
        self.windows: list[WindowHost] = []  # redline windows opened from here and still open

    def pick(self, path: str) -> VersionChoice:
        """Remember ``path`` as a version the person picked; the same file keeps its id."""
        resolved = str(Path(path).resolve())
        for version in self.versions:
            if version.source == resolved:
                return version
        version = VersionChoice(f"v{len(self.versions) + 1}", Path(path).name, resolved)
        self.versions.append(version)
        return version

    def run(self) -> WindowHost | None:
        """Ask for the other version, then open the redline (None when cancelled or refused)."""
        window = self.window
        if window.controller.reviewer is None:
            return None
        path = window.files.ask_open_path_titled(window.tr("Compare with which version?"))
        if not path:
            return None
        return self.compare_with(path)

    def compare_with(self, other: str) -> WindowHost | None:
        """Open the redline from ``other`` to the open document in a new window."""
        window = self.window
        current_name = window.document_name()
        try:
            result = generate_redline_docx(
                Path(other).read_bytes(), window.controller.current_bytes(), author=window.tr("Comparison")
            )
        except (CompareInputError, CompareOptionError, DocxOpenError) as exc:
            window.show_error(window.tr("Cannot compare"), str(exc))
            return None
        except OSError as exc:
            window.show_error(window.tr("Cannot compare"), f"{Path(other).name}: {exc.strerror or exc}")
            return None
        self.pick(other)
        redline = self.new_window()
        redline.controller.author = window.controller.author
        redline.controller.untitled_name = window.tr("{old} vs {new} (redline).docx").format(
            old=Path(other).stem, new=Path(current_name).stem
        )
        redline.controller.open_bytes(result["buffer"], None)
        # closed (after Save or Discard), the window and its document are freed, not kept till exit
        redline.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        redline.destroyed.connect(lambda: self.windows.remove(redline))
        redline.show()
        self.windows.append(redline)
        missing = incomplete_redline(result, Path(other).name)
        if missing is not None:
            log.warning("the redline from %s is incomplete: %s\n%s", other, *missing)
            redline.show_notice(*missing)
        applied = len(result.get("applied", []))
        differences = count_text(applied, "{n} difference", "{n} differences")
        redline.statusBar().showMessage(
            window.tr("{differences} from {old}").format(differences=differences, old=Path(other).name), 8000
        )
        return redline
