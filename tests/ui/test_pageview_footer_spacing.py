"""A footer's last paragraph's space after lifts the footer, as in Word and LibreOffice.

The footer ends, that space included, at the footer distance above the paper's edge: LibreOffice 7.4
puts 10 pt Arial "Confidential" at 744.4 pt from the top of a letter page with a 0.5 inch footer
distance, and at 732.4 pt when the paragraph has 12 pt after. We drew it at 744.5 either way. The
PDF is read by poppler (``pdftotext -bbox``), as the corpus checker reads it; a double click where
the footer's text is drawn goes in to type there.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.docx.stories import story_block_id
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.pageview.caret import Caret
from reviewer_app.ui.pageview.render import render_pdf
from tests.docx_factory import make_docx, p
from tests.window_fixtures import window_on_file

FOOTER = story_block_id({"type": "footer", "relationshipId": "rId2"}, "seq-0001")
_STYLES = (
    '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:sz w:val="20"/>'
    "</w:rPr></w:rPrDefault></w:docDefaults>"
)
_BODY = p("The Supplier shall provide the Services.") + (
    '<w:sectPr><w:footerReference w:type="default" r:id="rId2"/><w:pgSz w:w="12240" w:h="15840"/>'
    '<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720"'
    ' w:gutter="0"/></w:sectPr>'
)


def _package(after: int) -> bytes:
    footer = p("Confidential", ppr=f'<w:spacing w:after="{after}"/>')
    return make_docx(_BODY, styles=_STYLES, footer=footer)


def _footer_box(qapp, tmp_path: Path, after: int) -> tuple[float, float, float]:
    """(left, top, bottom) in points of "Confidential" in our PDF."""
    pdf = tmp_path / f"footer-{after}.pdf"
    render_pdf(DocxReviewer.from_bytes(_package(after)), pdf)
    done = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True)
    found = re.search(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">Confidential<', done.stdout
    )
    assert found is not None
    return float(found[1]), float(found[2]), float(found[3])


@pytest.mark.parametrize(("after", "libreoffice_top"), [(0, 744.4), (240, 732.4)])
def test_the_footers_space_after_lifts_it_as_in_libreoffice(
    qapp, tmp_path: Path, after: int, libreoffice_top: float
) -> None:
    assert abs(_footer_box(qapp, tmp_path, after)[1] - libreoffice_top) < 0.2


def test_a_double_click_on_a_lifted_footer_goes_in_to_type_there(
    qapp, qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    left, top, bottom = _footer_box(qapp, tmp_path, 240)
    window: MainWindow = window_on_file(
        qtbot, tmp_path / "footer.docx", _package(240), monkeypatch, "Alex Lawyer"
    )
    view = window.page_view
    page = view.paged_layout().pages()[0]
    middle = (top + bottom) / 2 * 10  # points to layout units
    bar = view.verticalScrollBar()
    rect = view.page_rect(0)
    scale = rect.width() / page.width
    bar.setValue(round(bar.value() + rect.top() + middle * scale - view.viewport().height() / 2))
    rect = view.page_rect(0)
    at = QPoint(round(rect.left() + (left * 10 + 1) * scale), round(rect.top() + middle * scale))
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert view.caret() == Caret(FOOTER, 0)
