"""Light, dark or the system's look for the whole application.

Light and dark use the Fusion style with an explicit palette, because native styles (Windows'
in particular) ignore a dark palette; "system" puts back the style and palette the platform gave
the application at start. On Qt 6.8+ the colour-scheme hint is set too, so native window frames
and dialogs follow. The page view paints paper white whatever the theme.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

from .app_settings import THEMES

#: the style the platform chose, remembered before the first theme replaces it
_platform_style: str | None = None

_DARK_COLOURS = {
    QPalette.ColorRole.Window: "#2B2B2B",
    QPalette.ColorRole.WindowText: "#E6E6E6",
    QPalette.ColorRole.Base: "#1E1E1E",
    QPalette.ColorRole.AlternateBase: "#262626",
    QPalette.ColorRole.ToolTipBase: "#3A3A3A",
    QPalette.ColorRole.ToolTipText: "#E6E6E6",
    QPalette.ColorRole.PlaceholderText: "#8C8C8C",
    QPalette.ColorRole.Text: "#E6E6E6",
    QPalette.ColorRole.Button: "#353535",
    QPalette.ColorRole.ButtonText: "#E6E6E6",
    QPalette.ColorRole.BrightText: "#FF6B6B",
    QPalette.ColorRole.Light: "#4A4A4A",
    QPalette.ColorRole.Midlight: "#3C3C3C",
    QPalette.ColorRole.Mid: "#2F2F2F",
    QPalette.ColorRole.Dark: "#1A1A1A",
    QPalette.ColorRole.Shadow: "#0D0D0D",
    QPalette.ColorRole.Highlight: "#3D6FD1",
    QPalette.ColorRole.HighlightedText: "#FFFFFF",
    QPalette.ColorRole.Link: "#7AB0FF",
    QPalette.ColorRole.LinkVisited: "#B88CFF",
}
_DARK_DISABLED = {
    QPalette.ColorRole.WindowText: "#7A7A7A",
    QPalette.ColorRole.Text: "#7A7A7A",
    QPalette.ColorRole.ButtonText: "#7A7A7A",
    QPalette.ColorRole.Highlight: "#4A4A4A",
}


def dark_palette() -> QPalette:
    """A dark palette with readable contrast for text, disabled text and selections."""
    palette = QPalette()
    for role, colour in _DARK_COLOURS.items():
        palette.setColor(role, QColor(colour))
    for role, colour in _DARK_DISABLED.items():
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(colour))
    return palette


def apply_theme(app: QApplication, theme: str) -> None:
    """Give ``app`` the ``system``, ``light`` or ``dark`` look (an unknown name counts as system)."""
    global _platform_style
    if _platform_style is None:
        _platform_style = app.style().name()
    theme = theme if theme in THEMES else "system"
    _set_colour_scheme(app, theme)
    if theme == "system":
        app.setStyle(_platform_style)
        app.setPalette(QPalette())  # a palette with nothing set falls back to the platform's
        return
    fusion = QStyleFactory.create("Fusion")
    light = fusion.standardPalette()
    app.setStyle(fusion)
    app.setPalette(dark_palette() if theme == "dark" else light)


def _set_colour_scheme(app: QApplication, theme: str) -> None:
    hints = app.styleHints()
    if not hasattr(hints, "setColorScheme"):  # Qt before 6.8
        return
    if theme == "system":
        hints.unsetColorScheme()
    else:
        hints.setColorScheme(Qt.ColorScheme.Dark if theme == "dark" else Qt.ColorScheme.Light)
