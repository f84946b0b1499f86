"""Floating drawings on the page: anchored shapes, pictures and text boxes where Word puts them.

Each generated document anchors one object at a stated place (measured from the page, the margin
or its paragraph); the test reads the rendered page's pixels, or poppler's reading of ``reviewer
pdf``'s output for a text box's words.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from PySide6.QtGui import QColor

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.layout import PagedLayout
from reviewer_app.ui.pageview.render import render_page_image, render_pdf
from tests.docx_factory import make_docx, p

ARTIFACTS = Path(__file__).parents[1] / "_artifacts"
_DRAWING_NS = (
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"'
)
EMU_PER_INCH = 914400
#: 72 dpi: one pixel per point
DPI = 72


def _sect(header: bool = False) -> str:
    ref = '<w:headerReference w:type="default" r:id="rId1"/>' if header else ""
    return (
        f'<w:sectPr>{ref}<w:pgSz w:w="12240" w:h="15840"/>'
        '<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720"'
        ' w:gutter="0"/></w:sectPr>'
    )


def _position(axis: str, relative: str, value: str) -> str:
    inner = f"<wp:align>{value}</wp:align>" if value.isalpha() else f"<wp:posOffset>{value}</wp:posOffset>"
    return f'<wp:position{axis} relativeFrom="{relative}">{inner}</wp:position{axis}>'


def _shape(
    h: tuple[str, str], v: tuple[str, str], size: tuple[float, float], fill: str | None, text: str = ""
) -> str:
    """A run holding an anchored wps shape (``size`` in inches), filled and/or holding a text box."""
    cx, cy = (round(s * EMU_PER_INCH) for s in size)
    sppr = (
        '<wps:spPr><a:prstGeom prst="rect"/>'
        + (f'<a:solidFill><a:srgbClr val="{fill}"/></a:solidFill>' if fill else "<a:noFill/>")
        + "</wps:spPr>"
    )
    txbx = f"<wps:txbx><w:txbxContent>{p(text)}</w:txbxContent></wps:txbx>" if text else ""
    return (
        f"<w:r><w:drawing {_DRAWING_NS}>"
        '<wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0"'
        ' locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/>'
        f"{_position('H', *h)}{_position('V', *v)}"
        f'<wp:extent cx="{cx}" cy="{cy}"/><wp:wrapNone/><wp:docPr id="1" name="Shape 1"/>'
        '<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
        f"<wps:wsp>{sppr}{txbx}<wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>"
    )


def _layout(tmp_path: Path, body: str, **parts: str) -> PagedLayout:
    path = tmp_path / "float.docx"
    path.write_bytes(make_docx(body, **parts))
    return PagedLayout(DocxReviewer.open(path)).build_all()


def _pixel(image, x_pt: float, y_pt: float) -> str:
    return QColor(image.pixel(round(x_pt * DPI / 72), round(y_pt * DPI / 72))).name()


def test_header_band_drawn_at_the_top_of_every_page(qapp, tmp_path: Path) -> None:
    """A header's shape anchored to the page's top-left corner (the Common Paper teal band)."""
    band = _shape(("page", "left"), ("page", "top"), (8.5, 0.25), "107087")
    header = f'<w:p><w:pPr><w:jc w:val="right"/></w:pPr>{band}<w:r><w:t>ORDER FORM</w:t></w:r></w:p>'
    body = p("First page.") + '<w:p><w:r><w:br w:type="page"/></w:r></w:p>' + p("Second page.")
    layout = _layout(tmp_path, body + _sect(header=True), header=header)
    assert layout.page_count() == 2
    for page in layout.pages():
        image = render_page_image(layout, page.number, dpi=DPI, markup_area=False)
        image.save(str(ARTIFACTS / f"floating-header-{page.number + 1}.png"))
        assert _pixel(image, 5, 5) == "#107087"  # the band's top-left, on the paper's corner
        assert _pixel(image, 600, 15) == "#107087"  # it spans the page
        assert _pixel(image, 300, 30) == "#ffffff"  # and is a quarter inch tall


def test_body_shape_placed_from_the_margin_and_its_paragraph(qapp, tmp_path: Path) -> None:
    offset = str(2 * EMU_PER_INCH)  # 2 inches right of the margin, 1 inch below the paragraph
    shape = _shape(("margin", offset), ("paragraph", str(EMU_PER_INCH)), (1.0, 0.5), "C00000")
    body = p("Above.") + f"<w:p>{shape}<w:r><w:t>Anchor paragraph.</w:t></w:r></w:p>"
    layout = _layout(tmp_path, body + _sect())
    image = render_page_image(layout, 0, dpi=DPI, markup_area=False)
    image.save(str(ARTIFACTS / "floating-body.png"))
    line = 72 + 13.4  # the anchor paragraph's first line: the second line of the page (11-pt Calibri)
    assert _pixel(image, 72 + 144 + 36, line + 72 + 18) == "#c00000"  # the shape's middle
    assert _pixel(image, 72 + 144 - 6, line + 72 + 18) == "#ffffff"  # left of it: blank paper


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler's pdftotext is missing")
def test_text_box_text_is_on_the_page_and_in_the_pdf(qapp, tmp_path: Path) -> None:
    """A text box's words are painted inside the box and can be searched in the PDF."""
    x, y = str(3 * EMU_PER_INCH), str(4 * EMU_PER_INCH)
    box = _shape(("page", x), ("page", y), (2.0, 1.0), None, "Boxed words here")
    layout = _layout(tmp_path, f"<w:p>{box}<w:r><w:t>Body text.</w:t></w:r></w:p>" + _sect())
    pdf = tmp_path / "box.pdf"
    render_pdf(layout.reviewer, pdf, layout=layout)
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True)
    word = next(line for line in out.stdout.splitlines() if ">Boxed<" in line)
    attrs = dict(part.split("=") for part in word.strip().split(">")[0].split()[1:])
    left, top = float(attrs["xMin"].strip('"')), float(attrs["yMin"].strip('"'))
    assert left == pytest.approx(216 + 7.2, abs=2)  # 3 in from the page edge, 0.1 in inset
    assert 288 + 3.6 <= top <= 288 + 3.6 + 6  # 4 in down, 0.05 in inset (the line's ascent above)
    plain = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "Boxed words here" in plain


def test_chart_drawn_as_a_labelled_box_of_its_size(qapp, tmp_path: Path) -> None:
    """An anchored object the page cannot draw (a chart) is a grey box, not nothing."""
    chart = _shape(("page", str(EMU_PER_INCH)), ("page", str(3 * EMU_PER_INCH)), (3.0, 2.0), None).replace(
        "wordprocessingShape", "drawingml/2006/chart"
    )
    layout = _layout(tmp_path, f"<w:p>{chart}<w:r><w:t>Text.</w:t></w:r></w:p>" + _sect())
    image = render_page_image(layout, 0, dpi=DPI, markup_area=False)
    image.save(str(ARTIFACTS / "floating-chart.png"))
    assert _pixel(image, 72 + 30, 216 + 30) == "#f3f4f6"  # the placeholder's grey inside the box
    assert _pixel(image, 72 + 30, 216 - 10) == "#ffffff"
