"""Inline pictures: from a ``w:drawing``/``w:pict`` to an image the QTextDocument can lay out.

Layout only needs an object's size, which the XML states (``wp:extent``, VML ``style``), so the
image part is decoded when a page showing it is first painted (:meth:`PageDocument.loadResource`),
not while a long document is being laid out. Objects Qt cannot draw (charts, diagrams, shapes,
EMF/WMF pictures) keep their size as a labelled placeholder box, so pagination stays right.
Floating (anchored) objects do not take space in the text flow in Word: :mod:`.floating` places them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, quote, unquote, urlsplit

from lxml import etree
from PySide6.QtCore import QCoreApplication, QRectF, Qt, QUrl
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen, QTextDocument

from ...docx.package import Package
from ...docx.xmlutil import NS, W

_WP = "{%s}" % NS["wp"]
_A = "{%s}" % NS["a"]
_V = "{%s}" % NS["v"]
_R = "{%s}" % NS["r"]
#: English Metric Units per layout unit (914400 EMU per inch, 720 LU per inch).
EMU_PER_LU = 1270
_MAX_PIXELS = 2400
_SCHEME = "docx-image"
_PLACEHOLDER = "docx-placeholder"
_LENGTH = re.compile(r"(width|height)\s*:\s*([0-9.]+)\s*(pt|in|cm|mm|px)?", re.IGNORECASE)
_PER_LU = {"pt": 10.0, "in": 720.0, "cm": 720 / 2.54, "mm": 72 / 2.54, "px": 7.5, None: 7.5}
_GRAPHIC_KINDS = (
    ("chart", "Chart"),
    ("diagram", "Diagram"),
    ("wordprocessingShape", "Shape"),
    ("wordprocessingGroup", "Group of shapes"),
    ("wordprocessingCanvas", "Drawing canvas"),
    ("picture", "Picture"),
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("PageView", text)


@dataclass(frozen=True, slots=True)
class InlineObject:
    """What the layout inserts for one object: a resource URL and its size in layout units."""

    url: str
    width: float
    height: float


def describe_object(element: etree._Element, package: Package, source_part: str) -> InlineObject | None:
    """The inline object a ``w:drawing``/``w:pict``/``w:object`` shows; None when it floats or is empty."""
    if element.tag == W + "drawing":
        return _drawing(element, package, source_part)
    return _vml(element, package, source_part)


def extent_size(container: etree._Element) -> tuple[float, float] | None:
    """Width and height in layout units of a ``wp:inline`` or ``wp:anchor``'s ``wp:extent``;
    None when it is missing, unreadable or empty (nothing to draw)."""
    extent = container.find(_WP + "extent")
    try:
        width = int(extent.get("cx", "0")) / EMU_PER_LU if extent is not None else 0.0
        height = int(extent.get("cy", "0")) / EMU_PER_LU if extent is not None else 0.0
    except ValueError:
        return None
    return (width, height) if width > 0 and height > 0 else None


def _drawing(drawing: etree._Element, package: Package, source_part: str) -> InlineObject | None:
    inline = drawing.find(_WP + "inline")
    if inline is None:
        return None  # wp:anchor: floats beside or behind the text, takes no room in the line
    size = extent_size(inline)
    if size is None:
        return None
    width, height = size
    blip = inline.find(f".//{_A}blip")
    target = rel_target(package, source_part, blip.get(_R + "embed") if blip is not None else None)
    if target is not None:
        return InlineObject(image_url(target), width, height)
    data = inline.find(f"{_A}graphic/{_A}graphicData")
    uri = data.get("uri", "") if data is not None else ""
    return InlineObject(placeholder_url(graphic_label(uri)), width, height)


def _vml(element: etree._Element, package: Package, source_part: str) -> InlineObject | None:
    shape = next(element.iter(_V + "shape", _V + "rect", _V + "group"), None)
    if shape is None:
        return None
    style = shape.get("style", "")
    if "position:absolute" in style.replace(" ", ""):
        return None
    sizes = {
        name.lower(): float(value) * _PER_LU[unit.lower() if unit else None]
        for name, value, unit in _LENGTH.findall(style)
    }
    width, height = sizes.get("width", 0.0), sizes.get("height", 0.0)
    if width <= 0 or height <= 0:
        return None
    data = shape.find(_V + "imagedata")
    target = rel_target(package, source_part, data.get(_R + "id") if data is not None else None)
    if target is not None:
        return InlineObject(image_url(target), width, height)
    return InlineObject(placeholder_url("Object"), width, height)


def graphic_label(uri: str) -> str:
    """The placeholder label of a ``a:graphicData`` kind (its ``uri``): "Chart", "Shape", ..."""
    return next((name for key, name in _GRAPHIC_KINDS if key in uri), "Object")


def rel_target(package: Package, source_part: str, rel_id: str | None) -> str | None:
    if not rel_id:
        return None
    for rel in package.relationships(source_part):
        if rel.rel_id == rel_id and not rel.external and package.has_part(rel.target):
            return rel.target
    return None


def image_url(part_name: str) -> str:
    return f"{_SCHEME}:{quote(part_name)}"


def placeholder_url(label: str) -> str:
    return f"{_PLACEHOLDER}:?label={quote(label)}"


class PageDocument(QTextDocument):
    """A QTextDocument that decodes the package's pictures only when a page shows them."""

    def __init__(self, package: Package | None = None, parent: object | None = None) -> None:
        super().__init__(parent)
        self._package = package

    def loadResource(self, kind: int, url: QUrl) -> object:  # noqa: N802 - Qt override
        text = url.toString()
        if text.startswith(_SCHEME + ":"):
            image = self._decode(unquote(text[len(_SCHEME) + 1 :]))
            if image is None:
                image = placeholder_image(_tr("Picture"))
            self.addResource(kind, url, image)
            return image
        if text.startswith(_PLACEHOLDER + ":"):
            label = parse_qs(urlsplit(text).query).get("label", ["Object"])[0]
            image = placeholder_image(_tr(label))
            self.addResource(kind, url, image)
            return image
        return super().loadResource(kind, url)

    def _decode(self, part_name: str) -> QImage | None:
        if self._package is None or not self._package.has_part(part_name):
            return None
        try:
            data = self._package.read_bytes(part_name)
        except Exception:  # a damaged member must not take the page down
            return None
        image = QImage.fromData(data)
        if image.isNull():
            return None
        if max(image.width(), image.height()) > _MAX_PIXELS:
            image = image.scaled(
                _MAX_PIXELS,
                _MAX_PIXELS,
                Qt.AspectRatioMode.KeepAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            )
        return image


def placeholder_image(label: str) -> QImage:
    """A light box with a dashed outline and a label: the object is there, but not drawn."""
    image = QImage(320, 200, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("#F3F4F6"))
    painter = QPainter(image)
    pen = QPen(QColor("#9AA0A6"))
    pen.setStyle(Qt.PenStyle.DashLine)
    pen.setWidth(3)
    painter.setPen(pen)
    painter.drawRect(QRectF(1.5, 1.5, 317, 197))
    font = QFont()
    font.setPixelSize(28)
    painter.setFont(font)
    painter.setPen(QColor("#5F6368"))
    painter.drawText(QRectF(0, 0, 320, 200), Qt.AlignmentFlag.AlignCenter, label)
    painter.end()
    return image
