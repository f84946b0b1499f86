"""The Settings dialog: who you are, which model, how the agent works, saving, appearance.

Nothing changes until OK: the dialog edits copies of the values, OK validates them (showing the
problem inline, next to the buttons, without closing), then hands them to the
:class:`SettingsStore` in one update, so listeners see one consistent change. The API key goes
to the keyring (or this session's memory) and never into ``settings.json``. Opened with
``open()``: no nested event loop under a running agent turn.
"""

from __future__ import annotations

import dataclasses
import logging

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIntValidator
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QColorDialog,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..agent.settings import DEFAULT_MODEL, AgentSettings, store_api_key, store_server_key, stored_server_key
from ..docx.comment_writer import initials_of
from ..docx.weak_links import weak_method
from .app_settings import (
    MAX_AUTOSAVE_S,
    MAX_CONTEXT_WINDOW,
    MIN_AUTOSAVE_S,
    SettingsStore,
    api_key_source,
    is_valid_base_url,
    keyring_available,
)
from .connection_tester import ConnectionTester

log = logging.getLogger(__name__)


class SettingsDialog(QDialog):
    """Edit the :class:`SettingsStore`'s settings; OK saves them, Cancel leaves everything as it was."""

    def __init__(self, store: SettingsStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self._store = store
        self._forget_key = False
        #: where OK put a newly typed key: "keyring", "session", or None when the key was left alone
        self.key_location: str | None = None
        self.colour_dialog: QColorDialog | None = None
        current = store.settings
        self._colours = list(current.markup_colours)

        columns = QHBoxLayout()
        left, right = QVBoxLayout(), QVBoxLayout()
        left.addWidget(self._you_section())
        left.addWidget(self._model_section())
        left.addStretch(1)
        right.addWidget(self._agent_section())
        right.addWidget(self._saving_section())
        right.addWidget(self._appearance_section())
        right.addStretch(1)
        columns.addLayout(left, 3)
        columns.addLayout(right, 2)

        self.error_label = QLabel(self)
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #C62828; font-weight: 600;")
        self.error_label.hide()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(columns)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self._update_provider()

    # ------------------------------------------------------------------ sections
    def _you_section(self) -> QGroupBox:
        current = self._store.settings
        box = QGroupBox(self.tr("You"), self)
        form = QFormLayout(box)
        self.name_edit = QLineEdit(current.user_name, box)
        self.name_edit.setToolTip(self.tr("Your tracked changes, replies and comments carry this name."))
        self.initials_edit = QLineEdit(current.user_initials, box)
        self.initials_edit.setMaxLength(9)
        self.initials_edit.setPlaceholderText(initials_of(current.user_name))
        self.name_edit.textChanged.connect(
            lambda name: self.initials_edit.setPlaceholderText(initials_of(name))
        )
        form.addRow(self.tr("Name:"), self.name_edit)
        form.addRow(self.tr("Initials:"), self.initials_edit)
        return box

    def _model_section(self) -> QGroupBox:
        current = self._store.settings
        box = QGroupBox(self.tr("Model"), self)
        box.setMinimumWidth(430)  # room for the URL, and for the key note on few lines
        form = QFormLayout(box)
        self.anthropic_radio = QRadioButton(self.tr("Anthropic API"), box)
        self.local_radio = QRadioButton(self.tr("Local server"), box)
        self._provider_group = QButtonGroup(box)
        self._provider_group.addButton(self.anthropic_radio)
        self._provider_group.addButton(self.local_radio)
        (self.local_radio if current.provider == "local" else self.anthropic_radio).setChecked(True)
        for radio in (self.anthropic_radio, self.local_radio):  # no dead space beside the label
            radio.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        self.local_radio.toggled.connect(self._update_provider)
        form.addRow(self.tr("Provider:"), self.anthropic_radio)
        form.addRow("", self.local_radio)
        self.base_url_edit = QLineEdit(current.base_url, box)
        self.base_url_edit.setPlaceholderText("http://127.0.0.1:11434")
        form.addRow(self.tr("Server URL:"), self.base_url_edit)
        self.api_combo = QComboBox(box)
        self.api_combo.addItem(self.tr("Anthropic Messages"), "anthropic")
        self.api_combo.addItem(self.tr("OpenAI chat completions"), "openai")
        self.api_combo.setCurrentIndex(max(0, self.api_combo.findData(current.api_style)))
        self.api_combo.setToolTip(
            self.tr("Choose OpenAI for a server that speaks only /v1/chat/completions.")
        )
        form.addRow(self.tr("Server API:"), self.api_combo)
        # the local server's own key: the Anthropic key below is never sent to this URL
        self.server_key_edit = QLineEdit(box)
        self.server_key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.server_key_edit.setPlaceholderText(
            self.tr("A key is stored for this server; type a new one to replace it")
            if stored_server_key(current.base_url)
            else self.tr("Optional: the key this server expects (most local servers need none)")
        )
        form.addRow(self.tr("Server key:"), self.server_key_edit)
        self.model_edit = QLineEdit(current.model, box)
        self.model_edit.setPlaceholderText(DEFAULT_MODEL)
        form.addRow(self.tr("Model:"), self.model_edit)
        self.context_edit = QLineEdit(str(current.context_window or ""), box)
        self.context_edit.setValidator(QIntValidator(1, MAX_CONTEXT_WINDOW, self.context_edit))
        self.context_edit.setPlaceholderText(self.tr("Blank: ask the server"))
        self.context_edit.setToolTip(
            self.tr(
                "The model's context window in tokens (Ollama's num_ctx, llama.cpp's --ctx-size). "
                "Every request is sized to fit it; blank asks the server, where it can say."
            )
        )
        form.addRow(self.tr("Context window:"), self.context_edit)

        self.key_edit = QLineEdit(box)
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.forget_key_button = QPushButton(self.tr("Forget key"), box)
        self.forget_key_button.clicked.connect(self._forget_stored_key)
        key_row = QHBoxLayout()
        key_row.addWidget(self.key_edit, 1)
        key_row.addWidget(self.forget_key_button)
        form.addRow(self.tr("API key:"), key_row)
        self.key_note = QLabel(box)
        self.key_note.setWordWrap(True)
        if keyring_available():
            self.key_note.setText(self.tr("Stored in the system keyring, never in the settings file."))
        else:
            self.key_note.setText(
                self.tr(
                    "This session only — no keyring available. The key is kept in memory and must be "
                    "entered again after Reviewer restarts."
                )
            )
        form.addRow("", self.key_note)
        # the tester is the dialog's own child: a weak callback keeps the two out of a reference cycle
        self.connection = ConnectionTester(weak_method(self.agent_settings_on_screen), box)
        form.addRow("", self.connection)
        self._show_key_state()
        return box

    def _agent_section(self) -> QGroupBox:
        box = QGroupBox(self.tr("Agent"), self)
        form = QFormLayout(box)
        self.mode_combo = QComboBox(box)
        self.mode_combo.addItem(self.tr("Review: the agent proposes, you apply"), "review")
        self.mode_combo.addItem(self.tr("Direct: edits go in as tracked changes"), "direct")
        self.mode_combo.setCurrentIndex(max(0, self.mode_combo.findData(self._store.settings.agent_mode)))
        form.addRow(self.tr("Default mode:"), self.mode_combo)
        self.profile_combo = QComboBox(box)
        for label, profile in (
            (self.tr("Automatic (from the context window)"), "auto"),
            (self.tr("Full"), "full"),
            (self.tr("Compact (small models)"), "compact"),
            (self.tr("Pipeline (no tools)"), "pipeline"),
        ):
            self.profile_combo.addItem(label, profile)
        self.profile_combo.setCurrentIndex(
            max(0, self.profile_combo.findData(self._store.settings.tool_profile))
        )
        self.profile_combo.setToolTip(
            self.tr(
                "What the model is given: every tool, six tools with short descriptions, or no tools "
                "(the document as text, edits answered as JSON) for a model that cannot call tools."
            )
        )
        form.addRow(self.tr("Tools:"), self.profile_combo)
        self.agent_name_edit = QLineEdit(self._store.settings.agent_name, box)
        self.agent_name_edit.setPlaceholderText(self._store.defaults.agent_name)
        self.agent_name_edit.setToolTip(
            self.tr("The author of the agent's tracked changes, comments and replies.")
        )
        form.addRow(self.tr("Agent's name:"), self.agent_name_edit)
        return box

    def _saving_section(self) -> QGroupBox:
        current = self._store.settings
        box = QGroupBox(self.tr("Saving"), self)
        form = QFormLayout(box)
        self.autosave_spin = QSpinBox(box)
        self.autosave_spin.setRange(MIN_AUTOSAVE_S, MAX_AUTOSAVE_S)
        self.autosave_spin.setSingleStep(10)
        self.autosave_spin.setSuffix(self.tr(" s"))
        self.autosave_spin.setValue(current.autosave_interval_s)
        self.autosave_spin.setToolTip(self.tr("How often a recovery copy of the open document is written."))
        form.addRow(self.tr("Autosave every:"), self.autosave_spin)
        self.backup_check = QCheckBox(self.tr("Keep the original as .bak on the first save"), box)
        self.backup_check.setChecked(current.keep_backup)
        form.addRow(self.backup_check)
        return box

    def _appearance_section(self) -> QGroupBox:
        box = QGroupBox(self.tr("Appearance"), self)
        form = QFormLayout(box)
        self.theme_combo = QComboBox(box)
        for label, theme in (
            (self.tr("System"), "system"),
            (self.tr("Light"), "light"),
            (self.tr("Dark"), "dark"),
        ):
            self.theme_combo.addItem(label, theme)
        self.theme_combo.setCurrentIndex(max(0, self.theme_combo.findData(self._store.settings.theme)))
        form.addRow(self.tr("Theme:"), self.theme_combo)
        swatches = QWidget(box)
        row = QHBoxLayout(swatches)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(3)
        self.colour_buttons: list[QToolButton] = []
        for index in range(len(self._colours)):
            button = QToolButton(swatches)
            button.setFixedSize(22, 22)
            button.clicked.connect(lambda _checked=False, i=index: self._choose_colour(i))
            row.addWidget(button)
            self.colour_buttons.append(button)
        reset = QToolButton(swatches)
        reset.setText(self.tr("Reset"))
        reset.setToolTip(self.tr("Back to the default author colours"))
        reset.clicked.connect(self._reset_colours)
        row.addSpacing(6)
        row.addWidget(reset)
        row.addStretch(1)
        form.addRow(self.tr("Author colours:"), swatches)
        self._paint_swatches()
        return box

    # ------------------------------------------------------------------ behaviour
    def _suggest_initials(self, name: str) -> None:
        self.initials_edit.setPlaceholderText(initials_of(name))

    def _update_provider(self) -> None:
        local = self.local_radio.isChecked()
        self.base_url_edit.setEnabled(local)
        self.server_key_edit.setEnabled(local)
        self.api_combo.setEnabled(local)

    def _show_key_state(self) -> None:
        source = None if self._forget_key else api_key_source()
        placeholders = {
            "environment": self.tr("ANTHROPIC_API_KEY is set in the environment and is used"),
            "keyring": self.tr("A key is stored; type a new one to replace it"),
            "session": self.tr("A key is kept for this session; type a new one to replace it"),
            None: self.tr("The key will be removed when you press OK")
            if self._forget_key
            else self.tr("Paste your Anthropic API key"),
        }
        self.key_edit.setPlaceholderText(placeholders[source])
        self.forget_key_button.setEnabled(source in ("keyring", "session"))

    def _forget_stored_key(self) -> None:
        self._forget_key = True
        self.key_edit.clear()
        self._show_key_state()

    def _paint_swatches(self) -> None:
        for button, colour in zip(self.colour_buttons, self._colours, strict=True):
            button.setStyleSheet(f"QToolButton {{ background: {colour}; border: 1px solid #808080; }}")
            button.setToolTip(self.tr("Author colour {0}; click to change").format(colour))

    def _choose_colour(self, index: int) -> None:
        """Open a colour picker for swatch ``index`` (non-blocking; the choice lands on colorSelected)."""
        dialog = QColorDialog(QColor(self._colours[index]), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.colorSelected.connect(lambda colour: self._set_colour(index, colour))
        self.colour_dialog = dialog
        dialog.open()

    def _set_colour(self, index: int, colour: QColor) -> None:
        self._colours[index] = colour.name().upper()
        self._paint_swatches()

    def _reset_colours(self) -> None:
        defaults = self._store.defaults.markup_colours
        self._colours = [defaults[i % len(defaults)] for i in range(len(self._colours))]
        self._paint_swatches()

    def markup_colours(self) -> list[str]:
        """The author colours as currently chosen in the dialog."""
        return list(self._colours)

    # ------------------------------------------------------------------ OK
    def agent_settings_on_screen(self) -> AgentSettings | str:
        """The model settings as typed, not yet saved (Test connection), or what is wrong with them."""
        if (problem := self._url_problem()) is not None:
            return problem
        typed = dataclasses.replace(self._store.settings, **self._model_values())
        return typed.to_agent_settings().replace(api_key=self._typed_key() or None)

    def _typed_key(self) -> str:
        """The key typed for the chosen provider: the Anthropic key never goes to a local server."""
        edit = self.server_key_edit if self.local_radio.isChecked() else self.key_edit
        return edit.text().strip()

    def _model_values(self) -> dict[str, str | int]:
        """Provider, model, server API, profile, (when valid) server URL and context window as
        typed: what OK saves and Test tries."""
        values: dict[str, str | int] = {
            "provider": "local" if self.local_radio.isChecked() else "anthropic",
            "model": self.model_edit.text().strip() or DEFAULT_MODEL,
            "api_style": self.api_combo.currentData(),
            "tool_profile": self.profile_combo.currentData(),
        }
        if is_valid_base_url(self.base_url_edit.text()):
            values["base_url"] = self.base_url_edit.text().strip()
        if self._context_problem() is None:
            values["context_window"] = int(self.context_edit.text() or 0)
        return values

    def done(self, result: int) -> None:  # noqa: D102 - QDialog override: a running check ends with the dialog
        self.connection.cancel()
        super().done(result)

    def _problem(self) -> tuple[str, QWidget] | None:
        """The first value OK cannot accept, with the field to put the cursor in."""
        if not self.name_edit.text().strip():
            return self.tr("Enter your name: your tracked changes and comments carry it."), self.name_edit
        if (problem := self._url_problem()) is not None:
            return problem, self.base_url_edit
        if (problem := self._context_problem()) is not None:
            return problem, self.context_edit
        return None

    def _context_problem(self) -> str | None:
        if self.context_edit.text() and not self.context_edit.hasAcceptableInput():
            return self.tr(
                "The context window is a number of tokens, such as 8192; leave it blank to ask the server."
            )
        return None

    def _url_problem(self) -> str | None:
        if self.local_radio.isChecked() and not is_valid_base_url(self.base_url_edit.text()):
            return self.tr("The server URL must start with http:// or https:// and name a host.")
        return None

    def accept(self) -> None:
        """Validate, then save everything in one update; on a problem, say so and stay open."""
        problem = self._problem()
        if problem is not None:
            message, field = problem
            self.error_label.setText(message)
            self.error_label.show()
            field.setFocus()
            return
        self.error_label.hide()
        values = {
            "user_name": self.name_edit.text().strip(),
            "user_initials": self.initials_edit.text().strip(),
            **self._model_values(),
            "agent_mode": self.mode_combo.currentData(),
            "agent_name": self.agent_name_edit.text().strip() or self._store.defaults.agent_name,
            "autosave_interval_s": self.autosave_spin.value(),
            "keep_backup": self.backup_check.isChecked(),
            "theme": self.theme_combo.currentData(),
            "markup_colours": self.markup_colours(),
        }
        self._store.update(**values)
        key = self.key_edit.text().strip()
        if key:
            self.key_location = store_api_key(key)
        elif self._forget_key:
            store_api_key(None)
        server_key = self.server_key_edit.text().strip()
        if server_key and self.local_radio.isChecked():
            store_server_key(self._store.settings.base_url, server_key)
        super().accept()
