"""Where a numbered paragraph's number and text start when its indents come from more than one place.

Word's order is: the paragraph's style, then its list level, then the paragraph's own ``w:ind``,
attribute by attribute. LibreOffice 7.4 turns the first two round when the style that numbers the
paragraph states indents of its own: the style's chain then places the number and the text. The
figures are LibreOffice's (its PDF of this document, read by poppler): a letter page with 1 inch
margins, a level at left 1440 / hanging 720 twips.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.render import render_pdf
from tests.docx_factory import make_docx, p

_NUMBERED = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'
_STYLES = (
    '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:sz w:val="20"/>'
    "</w:rPr></w:rPrDefault></w:docDefaults>"
    '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/>'
    '<w:pPr><w:ind w:left="360"/></w:pPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="Indented"><w:name w:val="Indented"/><w:basedOn w:val="Normal"/>'
    '<w:pPr><w:ind w:left="2880" w:hanging="720"/></w:pPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="ListOwn"><w:name w:val="List Own"/><w:basedOn w:val="Normal"/>'
    f'<w:pPr>{_NUMBERED}<w:ind w:left="2880" w:hanging="720"/></w:pPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="ListHanging"><w:name w:val="List Hanging"/><w:basedOn w:val="Normal"/>'
    f'<w:pPr>{_NUMBERED}<w:ind w:hanging="180"/></w:pPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="ListPlain"><w:name w:val="List Plain"/><w:basedOn w:val="Indented"/>'
    f"<w:pPr>{_NUMBERED}</w:pPr></w:style>"
)
_NUMBERING = (
    '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
    '<w:lvlText w:val="%1."/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="1440" w:hanging="720"/></w:pPr>'
    '</w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
)
_SETTINGS = '<w:defaultTabStop w:val="720"/>'
_WORDS = " ".join(f"w{n}" for n in range(30))


@pytest.mark.parametrize(
    ("ppr", "number_x", "second_line_x"),
    [
        # the paragraph names the list, its style only indents: the level wins
        ('<w:pStyle w:val="Indented"/>' + _NUMBERED, 108.0, 144.0),
        # the style names the list and states its indents: the style wins
        ('<w:pStyle w:val="ListOwn"/>', 180.0, 216.0),
        # ... all of its chain's (left 360 from Normal, hanging 180 of its own)
        ('<w:pStyle w:val="ListHanging"/>', 81.0, 90.0),
        # the style names the list, its parent indents: the level wins
        ('<w:pStyle w:val="ListPlain"/>', 108.0, 144.0),
        # the paragraph's own indent wins over all
        ('<w:pStyle w:val="ListOwn"/><w:ind w:left="2160" w:hanging="1080"/>', 126.0, 180.0),
    ],
    ids=["paragraph-list", "style-list-and-indent", "style-chain", "parent-indent", "direct"],
)
def test_a_list_number_and_its_text_start_where_libreoffice_puts_them(
    qapp, tmp_path: Path, ppr: str, number_x: float, second_line_x: float
) -> None:
    data = make_docx(p(f"Clause {_WORDS}", ppr=ppr), styles=_STYLES, numbering=_NUMBERING, settings=_SETTINGS)
    pdf = tmp_path / "list.pdf"
    render_pdf(DocxReviewer.from_bytes(data), pdf)
    done = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True)
    found = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)"', done.stdout)
    words = [(float(y), float(x)) for x, y in found]
    first_top, second_top = sorted({y for y, _x in words})[:2]
    # the number starts the first line (poppler may join it to the word after it)
    assert abs(min(x for y, x in words if y == first_top) - number_x) < 0.3
    assert abs(min(x for y, x in words if y == second_top) - second_line_x) < 0.3
