"""Floating drawings (``wp:anchor``): pictures, shapes and text boxes placed on the page.

Word takes an anchored object out of the line and puts it where ``wp:positionH``/``wp:positionV``
say, measured from the page, the margins or the paragraph that anchors it. The builder notes
each anchored drawing with the document position of its paragraph (:attr:`StoryBuilder.floats`);
the painter places it on the page that paragraph is on, behind the text (``behindDoc``) or over
it. A picture is drawn from its image part; a shape with a solid fill as that colour; a text
box's ``w:txbxContent`` is laid out as a story of its own inside the box, so its words are on
the page and in the PDF. What cannot be drawn (a chart, a group, a shape without a fill or
text) is a labelled grey box of its size, never nothing. Text does not yet wrap around a
floating object (``wrapSquare``, ``wrapTight``): it is placed, and the text flows as in front of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lxml import etree
from PySide6.QtCore import QRectF, QUrl
from PySide6.QtGui import QColor, QImage, QPainter, QTextDocument

from ...docx.package import Package
from ...docx.sections import SectionProps
from ...docx.xmlutil import NS, W
from .images import EMU_PER_LU, extent_size, graphic_label, image_url, placeholder_url, rel_target
from .qformats import TWIPS

_WP = "{%s}" % NS["wp"]
_A = "{%s}" % NS["a"]
_R = "{%s}" % NS["r"]
_WPS = "{http://schemas.microsoft.com/office/word/2010/wordprocessingShape}"
#: a text box's default insets: 0.1 inch left and right, 0.05 inch top and bottom (LU)
_INSET_X, _INSET_Y = 72.0, 36.0


@dataclass(frozen=True, slots=True)
class Placement:
    """One axis of ``wp:positionH``/``wp:positionV``: from what, aligned how or offset by how much."""

    relative_from: str
    align: str | None
    offset: float  # LU


@dataclass(frozen=True, slots=True)
class Floating:
    """An anchored drawing as the painter needs it."""

    width: float
    height: float
    horizontal: Placement
    vertical: Placement
    behind: bool
    #: image or placeholder resource; None for a shape drawn from its fill and text
    url: str | None
    fill: str | None
    #: the text box's ``w:txbxContent``, laid out when painted
    text: etree._Element | None
    #: the package part the drawing is in (its relationships resolve the text box's pictures)
    part: str
    #: the picture's ``a:srcRect`` crop: shares of its width and height cut from (left, top, right, bottom)
    crop: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


def read_floating(drawing: etree._Element, package: Package, source_part: str) -> Floating | None:
    """The floating object of a ``w:drawing`` holding a ``wp:anchor`` (None for an inline or empty one)."""
    anchor = drawing.find(_WP + "anchor")
    if anchor is None or anchor.get("hidden") in ("1", "true"):
        return None
    size = extent_size(anchor)
    if size is None:
        return None
    width, height = size
    horizontal = _placement(anchor.find(_WP + "positionH"), "column")
    vertical = _placement(anchor.find(_WP + "positionV"), "paragraph")
    behind = anchor.get("behindDoc") in ("1", "true")
    blip = anchor.find(f".//{_A}blip")
    target = rel_target(package, source_part, blip.get(_R + "embed") if blip is not None else None)
    if target is not None:
        crop = _crop(anchor.find(f".//{_A}srcRect"))
        return Floating(
            width, height, horizontal, vertical, behind, image_url(target), None, None, source_part, crop
        )
    shape = anchor.find(f".//{_WPS}wsp")
    text = shape.find(f"{_WPS}txbx/{W}txbxContent") if shape is not None else None
    fill = _solid_fill(shape)
    if text is not None or fill is not None:
        return Floating(width, height, horizontal, vertical, behind, None, fill, text, source_part)
    data = anchor.find(f"{_A}graphic/{_A}graphicData")
    label = graphic_label(data.get("uri", "") if data is not None else "")
    return Floating(
        width, height, horizontal, vertical, behind, placeholder_url(label), None, None, source_part
    )


def _placement(position: etree._Element | None, default: str) -> Placement:
    if position is None:
        return Placement(default, None, 0.0)
    relative = position.get("relativeFrom") or default
    align = position.find(_WP + "align")
    if align is not None and align.text:
        return Placement(relative, align.text.strip(), 0.0)
    offset = position.find(_WP + "posOffset")
    try:
        value = int(offset.text or "0") / EMU_PER_LU if offset is not None else 0.0
    except ValueError:
        value = 0.0
    return Placement(relative, None, value)


def _crop(src_rect: etree._Element | None) -> tuple[float, float, float, float]:
    """``a:srcRect``'s l, t, r, b (thousandths of a percent) as shares of the picture."""
    if src_rect is None:
        return (0.0, 0.0, 0.0, 0.0)
    shares = []
    for side in ("l", "t", "r", "b"):
        try:
            shares.append(min(max(int(src_rect.get(side, "0")) / 100000, 0.0), 0.99))
        except ValueError:
            shares.append(0.0)
    return (shares[0], shares[1], shares[2], shares[3])


def _solid_fill(shape: etree._Element | None) -> str | None:
    """The RRGGBB of a shape's own solid fill (``a:srgbClr``), if it states one."""
    if shape is None:
        return None
    color = shape.find(f"{_WPS}spPr/{_A}solidFill/{_A}srgbClr")
    value = color.get("val") if color is not None else None
    return value if value and len(value) == 6 else None


def place(item: Floating, props: SectionProps, anchor_y: float) -> QRectF:
    """Where ``item`` lands on a page of ``props`` (LU), its paragraph's first line at ``anchor_y``."""
    page_w, page_h = props.width * TWIPS, props.height * TWIPS
    left, right = (props.left + props.gutter) * TWIPS, props.right * TWIPS
    top, bottom = props.top * TWIPS, props.bottom * TWIPS
    areas_h = {
        "page": (0.0, page_w),
        "leftMargin": (0.0, left),
        "insideMargin": (0.0, left),
        "rightMargin": (page_w - right, right),
        "outsideMargin": (page_w - right, right),
    }
    start, size = areas_h.get(item.horizontal.relative_from, (left, page_w - left - right))
    x = _along(item.horizontal, start, size, item.width, {"left": 0.0, "center": 0.5, "right": 1.0})
    areas_v = {
        "page": (0.0, page_h),
        "margin": (top, page_h - top - bottom),
        "topMargin": (0.0, top),
        "bottomMargin": (page_h - bottom, bottom),
    }
    start, size = areas_v.get(item.vertical.relative_from, (anchor_y, 0.0))
    y = _along(item.vertical, start, size, item.height, {"top": 0.0, "center": 0.5, "bottom": 1.0})
    return QRectF(x, y, item.width, item.height)


def _along(placement: Placement, start: float, size: float, extent: float, shares: dict[str, float]) -> float:
    if placement.align is None:
        return start + placement.offset
    share = shares.get(placement.align, 0.0)  # inside/outside: as left/top
    return start + share * (size - extent)


def paint_floating(
    painter: QPainter,
    item: Floating,
    rect: QRectF,
    resources: QTextDocument,
    text_document: Callable[[Floating, float], QTextDocument],
) -> None:
    """Draw ``item`` in ``rect``: its picture, its fill, its text box text, or a labelled box."""
    if item.url is not None:
        image = resources.loadResource(QTextDocument.ResourceType.ImageResource.value, QUrl(item.url))
        if isinstance(image, QImage):  # a PageDocument gives a labelled box for a part it cannot decode
            left, top, right, bottom = item.crop
            w, h = image.width(), image.height()
            source = QRectF(
                left * w, top * h, max(1.0, (1 - left - right) * w), max(1.0, (1 - top - bottom) * h)
            )
            painter.drawImage(rect, image, source)
        return
    if item.fill is not None:
        painter.fillRect(rect, QColor("#" + item.fill))
    if item.text is not None:
        inner = rect.adjusted(_INSET_X, _INSET_Y, -_INSET_X, -_INSET_Y)
        document = text_document(item, max(1.0, inner.width()))
        painter.save()
        painter.translate(inner.topLeft())
        document.drawContents(painter)
        painter.restore()
