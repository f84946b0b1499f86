"""The resolver works out a paragraph's or run's properties once per distinct look.

A contract numbers each list with its own ``w:numId``; the page view caches its Qt formats per
properties object, so lists whose levels state the same thing must resolve to one object, and a
list whose level states something else must not be folded into it.
"""

from __future__ import annotations

from lxml import etree

from reviewer_app.docx.format_resolver import FormatResolver
from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.docx.text import paragraph_text, run_property_marks
from reviewer_app.docx.xmlutil import NS, W
from tests.docx_factory import make_docx, p


def _level(ind: int) -> str:
    return f'<w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/><w:pPr><w:ind w:left="{ind}" w:hanging="360"/></w:pPr></w:lvl>'


NUMBERING = (
    f'<w:abstractNum w:abstractNumId="0">{_level(720)}</w:abstractNum>'
    f'<w:abstractNum w:abstractNumId="1">{_level(1440)}</w:abstractNum>'
    '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
    '<w:num w:numId="2"><w:abstractNumId w:val="0"/></w:num>'
    '<w:num w:numId="3"><w:abstractNumId w:val="1"/></w:num>'
)


def _numbered(num_id: int) -> str:
    return p(f"Item {num_id}", ppr=f'<w:numPr><w:ilvl w:val="0"/><w:numId w:val="{num_id}"/></w:numPr>')


def test_lists_with_equal_levels_share_one_properties_object() -> None:
    body = _numbered(1) + _numbered(2) + _numbered(3)
    reviewer = DocxReviewer.from_bytes(make_docx(body, numbering=NUMBERING))
    resolver = FormatResolver(reviewer.document)
    ppr = [el.find(W + "pPr") for el in reviewer.document.body.iter(W + "p")]
    first, second, third = (resolver.paragraph(ppr[i], None, (str(i + 1), 0)) for i in range(3))
    assert first is second
    assert (first.ind_left, first.ind_first) == (720, -360)
    assert (third.ind_left, third.ind_first) == (1440, -360)
    # the same key again is the same object, and a run's properties are shared alike
    assert resolver.paragraph(ppr[0], None, ("1", 0)) is first
    bold = etree.fromstring(f'<w:rPr xmlns:w="{NS["w"]}"><w:b/></w:rPr>')
    bold_too = etree.fromstring(f'<w:rPr xmlns:w="{NS["w"]}"><w:b/><w:lang w:val="en-GB"/></w:rPr>')
    assert resolver.run(bold, None) is resolver.run(bold_too, None)
    assert resolver.run(bold, None).bold and not resolver.run(None, None).bold


def _rpr(inner: str) -> etree._Element:
    return etree.fromstring(f'<w:rPr xmlns:w="{NS["w"]}">{inner}</w:rPr>')


def test_run_marks_read_hidden_and_changed_formatting_in_one_pass() -> None:
    assert run_property_marks(_rpr("<w:b/>")) == (False, False)
    assert run_property_marks(_rpr("<w:b/><w:vanish/>")) == (True, False)
    assert run_property_marks(_rpr("<w:specVanish/>")) == (True, False)
    assert run_property_marks(_rpr('<w:vanish w:val="0"/>')) == (False, False)
    assert run_property_marks(_rpr('<w:i/><w:rPrChange w:id="1"><w:rPr/></w:rPrChange>')) == (False, True)


def test_hidden_runs_stay_out_of_the_clean_text_wherever_their_properties_sit() -> None:
    """A run's ``w:rPr`` is read even when a writer put it after the text."""
    runs = (
        "<w:r><w:t>shown </w:t></w:r>"
        "<w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden </w:t></w:r>"
        "<w:r><w:t>also hidden</w:t><w:rPr><w:vanish/></w:rPr></w:r>"
        '<w:r><w:rPr><w:vanish w:val="false"/></w:rPr><w:t>shown too</w:t></w:r>'
    )
    reviewer = DocxReviewer.from_bytes(make_docx(p(runs=runs)))
    paragraph = next(reviewer.document.body.iter(W + "p"))
    assert paragraph_text(paragraph).text == "shown shown too"
