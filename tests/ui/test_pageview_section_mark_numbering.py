"""The empty numbered heading that only carries a section break shows no number and counts none.

Common Paper's templates end their cover page with an empty Heading 1 whose mark holds the section
break; their clauses are numbered from 1 after it, as their own cross-references say. The page view
draws the labels the block model counts, so both are checked here on one small document.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewer_app.docx.checks import check_reviewer
from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.layout import PagedLayout
from tests.docx_factory import make_docx, p

_STYLES = "".join(
    f'<w:style w:type="paragraph" w:styleId="Heading{n}"><w:name w:val="heading {n}"/>'
    f'<w:pPr><w:numPr><w:ilvl w:val="{n - 1}"/><w:numId w:val="1"/></w:numPr>'
    f'<w:outlineLvl w:val="{n - 1}"/></w:pPr></w:style>'
    for n in (1, 2)
)
_NUMBERING = (
    '<w:abstractNum w:abstractNumId="0">'
    '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>'
    '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2"/></w:lvl>'
    '</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
)
_SECTION = '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>'


def _heading(para_id: str, level: int, text: str = "", extra: str = "") -> str:
    return p(text, para_id=para_id, ppr=f'<w:pStyle w:val="Heading{level}"/>{extra}')


def _cover_document(tmp_path: Path, cover_mark: str) -> DocxReviewer:
    """A cover line, the empty Heading 1 (its mark ``cover_mark``), then clauses citing each other."""
    body = (
        p("Order Form", para_id="10000001")
        + _heading("10000002", 1, extra=cover_mark)
        + _heading("10000003", 1, "Cooperation")
        + _heading("10000004", 2, "Obligations")
        + _heading("10000005", 1, "Payment")
        + p("Fees are owed once the duties of Section 1.1 (Obligations) are met.", para_id="10000006")
        + _SECTION
    )
    path = tmp_path / "cover.docx"
    path.write_bytes(make_docx(body, styles=_STYLES, numbering=_NUMBERING))
    return DocxReviewer.open(path)


def _shown(tmp_path: Path, cover_mark: str) -> dict[str, str]:
    """The text each heading shows on the page (label included), by paragraph id."""
    layout = PagedLayout(_cover_document(tmp_path, cover_mark), "all").build_all()
    shown = {}
    for para_id in ("10000002", "10000003", "10000004", "10000005"):
        record = layout.by_id[para_id]
        document = layout.docs[record.doc_index].document
        shown[para_id] = document.findBlock(record.start).text().replace("\t", " ").strip()
    return shown


def test_the_heading_carrying_the_cover_section_break_is_not_clause_one(qapp, tmp_path: Path) -> None:
    shown = _shown(tmp_path, _SECTION)
    assert shown["10000002"] == ""
    assert shown["10000003"].startswith("1.") and shown["10000003"].endswith("Cooperation")
    assert shown["10000004"].startswith("1.1") and shown["10000004"].endswith("Obligations")
    assert shown["10000005"].startswith("2.") and shown["10000005"].endswith("Payment")


def test_a_reference_counted_past_the_cover_heading_is_not_flagged(tmp_path: Path) -> None:
    findings = check_reviewer(_cover_document(tmp_path, _SECTION))
    assert not [f for f in findings if f.kind == "references"]


@pytest.mark.parametrize("mark", ["", "<w:rPr><w:b/></w:rPr>"])
def test_an_empty_numbered_heading_without_a_section_break_keeps_its_number(
    qapp, tmp_path: Path, mark: str
) -> None:
    shown = _shown(tmp_path, mark)
    assert shown["10000002"] == "1."
    assert shown["10000003"].startswith("2.")
