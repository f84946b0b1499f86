"""The fonts Reviewer ships, and which of them stands in for a font a document names.

Contracts are written in Calibri, Cambria, Arial, Times New Roman and Courier New, which most
Linux machines (and a fresh macOS) do not have. A different font has different widths, so every
line and page would break elsewhere than in Word. Reviewer ships metric-compatible faces with
open licences in ``resources/fonts`` (Carlito, Caladea, Liberation Sans/Serif/Mono: each glyph
as wide as the original's) and registers them with Qt before the first layout, so the pages come
out the same on every machine and in the installed bundle, whatever fonts the system has.

Where the real face is installed, Qt finds it first: :func:`families_for` lists the stand-in
after the document's own family, never instead of it.
"""

from __future__ import annotations

import logging
import math
import struct

from PySide6.QtGui import QFont, QFontDatabase, QFontMetricsF, QRawFont

from ...resources import resource_path

log = logging.getLogger(__name__)

#: Folder of the bundled fonts inside ``resources/``.
FONTS_DIR = "fonts"

#: Metric-compatible stand-ins (bundled), by the lower-case family a document names.
SUBSTITUTES = {
    "calibri": "Carlito",
    "calibri light": "Carlito",
    "cambria": "Caladea",
    "cambria math": "Caladea",
    "arial": "Liberation Sans",
    "arial mt": "Liberation Sans",
    "arialmt": "Liberation Sans",
    "helvetica": "Liberation Sans",
    "helvetica neue": "Liberation Sans",
    "times new roman": "Liberation Serif",
    "timesnewromanpsmt": "Liberation Serif",
    "times": "Liberation Serif",
    "courier new": "Liberation Mono",
    "couriernewpsmt": "Liberation Mono",
    "courier": "Liberation Mono",
}

#: OpenType features that join letters into one glyph ("ti", "ff", "fi"). Word does not use them
#: unless a run asks (``w14:ligatures``), and a PDF reader cannot always map a joined glyph back
#: to its letters: "parties" extracted as "par es" and could not be searched or copied.
_LIGATURES = ("liga", "clig")

_registered: list[str] | None = None


def register_bundled_fonts() -> list[str]:
    """Register the bundled fonts with Qt once per process; the families now available.

    Needs a QGuiApplication. A missing or unreadable file is logged, not raised: the layout then
    falls back to the system's fonts, which is worse but still shows every word.
    """
    global _registered
    if _registered is not None:
        return _registered
    families: set[str] = set()
    try:
        folder = resource_path(FONTS_DIR)
    except FileNotFoundError as exc:
        log.warning("bundled fonts not found: %s", exc)
        folder = None
    files = sorted(folder.glob("*.ttf")) if folder is not None else []
    for path in files:
        font_id = QFontDatabase.addApplicationFont(str(path))
        if font_id < 0:
            log.warning("Qt cannot load the bundled font %s", path)
            continue
        families.update(QFontDatabase.applicationFontFamilies(font_id))
    _registered = sorted(families)
    return _registered


def families_for(family: str) -> list[str]:
    """The families to ask Qt for, in order, when a document names ``family``."""
    substitute = SUBSTITUTES.get(family.strip().lower())
    return [family, substitute] if substitute else [family]


def without_ligatures(font: QFont) -> QFont:
    """``font`` with letter-joining ligatures off (see :data:`_LIGATURES`); changed in place."""
    for tag in _LIGATURES:
        font.setFeature(QFont.Tag(tag), 0)
    return font


def line_gap_factor(font: QFont) -> float:
    """A single-spaced line of ``font`` in LibreOffice and Word, as a share of Qt's (1.02: 2 % taller).

    Qt takes a line's height from the font's OS/2 table (Windows ascent and descent, the sum
    rounded up to a whole layout unit) and adds no line gap; LibreOffice takes the ``hhea``
    ascender, descender and line gap, as Word does for the faces it ships, and keeps the height
    in whole twips (half a layout unit). Liberation Sans and Serif (Arial's and Times New Roman's
    stand-ins) carry a gap of 3 % of a line in ``hhea`` alone, so without it a page of 8 pt Arial
    held two lines more than LibreOffice's; for Carlito and Caladea the two differ by Qt's
    rounding alone, but 11 pt Carlito's 13.43 pt line became 13.5 pt in Qt against 13.45 pt in
    LibreOffice, and a page of it lost a line against LibreOffice's. 1.0 when the font has no
    ``hhea`` table.
    """
    raw = QRawFont.fromFont(font)
    hhea, head = bytes(raw.fontTable("hhea")), bytes(raw.fontTable("head"))
    metrics = QFontMetricsF(font)
    height = math.ceil(metrics.ascent() + metrics.descent())
    if len(hhea) < 10 or len(head) < 20 or height <= 0:
        return 1.0
    units = struct.unpack(">H", head[18:20])[0]
    ascender, descender, gap = struct.unpack(">hhh", hhea[4:10])
    if units <= 0:
        return 1.0
    theirs = (ascender - descender + gap) / units * raw.pixelSize()
    return round(theirs * 2) / 2 / height
