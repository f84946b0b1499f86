"""The zoom in the status bar: the page view's size as a percentage, and a menu of sizes.

The view zooms by a painter scale in three modes (a percentage, fit width, fit page); in the fit
modes the percentage follows the window, so the button shows the effective zoom the view reports
with every ``zoom_changed`` rather than the last size chosen.
"""

from __future__ import annotations

from PySide6.QtWidgets import QMenu, QToolButton, QWidget

from .pageview import PageView

#: the sizes offered in the menu, in percent
PRESETS = (50, 75, 100, 125, 150, 200)


class ZoomButton(QToolButton):
    """Shows "100 %"; a click opens the preset sizes, Fit Width and Fit Page."""

    def __init__(self, view: PageView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("zoomButton")
        self.setAutoRaise(True)
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setToolTip(self.tr("Zoom: click to choose a size"))
        self.setAccessibleName(self.tr("Zoom"))
        menu = QMenu(self)
        menu.setObjectName("zoomMenu")
        for percent in PRESETS:
            action = menu.addAction(self.percent_text(percent))
            action.triggered.connect(lambda _checked=False, p=percent: view.set_zoom(p / 100))
        menu.addSeparator()
        menu.addAction(self.tr("Fit Width")).triggered.connect(
            lambda _checked=False: view.set_zoom("fit-width")
        )
        menu.addAction(self.tr("Fit Page")).triggered.connect(
            lambda _checked=False: view.set_zoom("fit-page")
        )
        self.setMenu(menu)
        view.zoom_changed.connect(self._show)
        self._show(view.zoom())

    def percent_text(self, percent: int) -> str:
        return self.tr("{percent} %").format(percent=percent)

    def _show(self, zoom: float) -> None:
        self.setText(self.percent_text(round(zoom * 100)))
