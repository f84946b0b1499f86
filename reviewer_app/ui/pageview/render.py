"""Offscreen renders of the page view's own layout: PDF (one page per laid-out page) and PNGs.

These back the ``reviewer pdf`` and ``reviewer render`` commands and the screenshot tests, so
what they produce is exactly what the window paints: same layout, same painter, only the scale
differs. They work without a display: when no Qt application exists yet, one is created on the
``offscreen`` platform.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QMarginsF, QSizeF
from PySide6.QtGui import QGuiApplication, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter

from ...docx.reviewer import DocxReviewer
from .fonts import register_bundled_fonts
from .layout import PagedLayout
from .paint import PagePainter, PaintOptions
from .qformats import LU_PER_INCH
from .records import MarkupFilter

_APP: QGuiApplication | None = None


def ensure_app() -> QGuiApplication:
    """The running Qt application, or a new offscreen one (for the CLI and scripts), with the
    bundled fonts registered."""
    global _APP
    app = QGuiApplication.instance()
    if app is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _APP = QGuiApplication([])
        app = _APP
    register_bundled_fonts()
    return app  # type: ignore[return-value]


def _painter_for(layout: PagedLayout) -> PagePainter:
    return PagePainter(layout, layout.headers)


def render_pdf(
    reviewer: DocxReviewer,
    out: str | os.PathLike[str],
    markup: str = "all",
    markup_area: bool = True,
    layout: PagedLayout | None = None,
    markup_filter: MarkupFilter | None = None,
) -> int:
    """Write every laid-out page to ``out`` as a PDF page of that page's size; returns the page count.

    With ``markup_area`` (the default) a page with changes or comments shown (All markup) is
    widened by the balloon column, as in the window, so the comments reach whoever reads the
    PDF; without it every page keeps the document's own paper size. ``markup_filter``: the
    reviewers hidden and Simple Markup, as the window shows them.
    """
    ensure_app()
    layout = layout or PagedLayout(reviewer, markup, markup=markup_filter).build_all()
    painter_impl = _painter_for(layout)
    options = PaintOptions(markup_area=markup_area)
    pages = layout.pages()
    writer = QPdfWriter(str(out))
    writer.setResolution(LU_PER_INCH)
    writer.setCreator("Reviewer")
    path = reviewer.path
    writer.setTitle(Path(path).stem if path else "document")

    def page_layout(width_lu: float, height_lu: float) -> QPageLayout:
        size = QPageSize(
            QSizeF(width_lu / 10, height_lu / 10),
            QPageSize.Unit.Point,
            "",
            QPageSize.SizeMatchPolicy.ExactMatch,
        )
        return QPageLayout(size, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0))

    first = pages[0]
    writer.setPageLayout(page_layout(painter_impl.sheet_width(first, options), first.height))
    painter = QPainter()
    if not painter.begin(writer):
        raise OSError(QCoreApplication.translate("PageView", "Cannot write {path}.").format(path=out))
    try:
        for page in pages:
            if page.number:
                writer.setPageLayout(page_layout(painter_impl.sheet_width(page, options), page.height))
                writer.newPage()
            painter.save()
            # the writer's device pixels are LU (resolution 720), so no scale is needed
            painter_impl.paint(painter, page, options)
            painter.restore()
    finally:
        painter.end()
    return len(pages)


def render_page_image(
    layout: PagedLayout,
    page_number: int,
    dpi: float = 96,
    markup_area: bool = True,
    painter_impl: PagePainter | None = None,
) -> QImage:
    """One page as an image at ``dpi`` (white page, markup column when there is markup)."""
    painter_impl = painter_impl or _painter_for(layout)
    options = PaintOptions(markup_area=markup_area)
    page = layout.pages()[page_number]
    scale = dpi / LU_PER_INCH
    width = max(1, round(painter_impl.sheet_width(page, options) * scale))
    height = max(1, round(page.height * scale))
    image = QImage(width, height, QImage.Format.Format_ARGB32_Premultiplied)
    image.setDotsPerMeterX(round(dpi / 0.0254))
    image.setDotsPerMeterY(round(dpi / 0.0254))
    image.fill(0xFFFFFFFF)
    painter = QPainter(image)
    painter.setRenderHints(
        QPainter.RenderHint.Antialiasing
        | QPainter.RenderHint.TextAntialiasing
        | QPainter.RenderHint.SmoothPixmapTransform
    )
    painter.scale(scale, scale)
    painter_impl.paint(painter, page, options)
    painter.end()
    return image


def render_pngs(
    reviewer: DocxReviewer,
    pages: Iterable[int] | None,
    out_dir: str | os.PathLike[str],
    markup: str = "all",
    dpi: float = 96,
    markup_area: bool = True,
    layout: PagedLayout | None = None,
    prefix: str = "page",
) -> list[Path]:
    """Write 0-based ``pages`` (all when None) as ``{prefix}-{n}.png``, n 1-based; return the paths."""
    ensure_app()
    layout = layout or PagedLayout(reviewer, markup).build_all()
    painter_impl = _painter_for(layout)
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    count = layout.page_count()
    wanted = range(count) if pages is None else [p for p in pages if 0 <= p < count]
    written: list[Path] = []
    for number in wanted:
        image = render_page_image(layout, number, dpi, markup_area, painter_impl)
        target = folder / f"{prefix}-{number + 1}.png"
        if not image.save(str(target)):
            raise OSError(QCoreApplication.translate("PageView", "Cannot write {path}.").format(path=target))
        written.append(target)
    return written
