"""List labels: definitions, effective numbering, live counting, number formats, and LibreOffice.

Most counting rules below were established by building small documents and reading them back
with LibreOffice 7.4 (the project's reference reader); those tests say "LibreOffice" in their
names or comments. Where LibreOffice 7.4 lacks a Word feature (``w:isLgl``, ``w:lvlRestart``,
``w:lvl/w:pStyle`` links, hidden levels) the tests pin Word's behaviour instead.

The corpus test walks every numbered public corpus document and compares each paragraph's label
with LibreOffice's ``ListLabelString``; the differences that remain are listed with their
reason in ``data/numbering_label_differences.tsv`` and asserted exactly.
"""

from __future__ import annotations

import csv
import difflib
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from reviewer_app.docx.numbering import ListCounter, NumberingDefinitions
from reviewer_app.docx.numformats import bullet_text, format_number
from reviewer_app.docx.package import Package
from reviewer_app.docx.styles import StyleIndex
from reviewer_app.docx.xmlutil import NS, REL_NUMBERING, REL_STYLES, W, child_val, parse_xml
from tests.conftest import CORPUS, LO_PARALLEL
from tests.corpus_manifest import files_counting

XMLNS = f'xmlns:w="{NS["w"]}" xmlns:mc="{NS["mc"]}"'


# -- helpers -------------------------------------------------------------------------------------


def lvl(
    ilvl: int, fmt: str = "decimal", text: str | None = None, start: int | None = 1, extra: str = ""
) -> str:
    """One ``w:lvl``; the default text is the usual legal "%1.%2.%3" chain ending in a dot."""
    if text is None:
        text = ".".join(f"%{k + 1}" for k in range(ilvl + 1)) + ("." if ilvl == 0 else "")
    start_xml = "" if start is None else f'<w:start w:val="{start}"/>'
    body = f'{start_xml}<w:numFmt w:val="{fmt}"/><w:lvlText w:val="{text}"/>{extra}'
    return f'<w:lvl w:ilvl="{ilvl}">{body}</w:lvl>'


def legal(levels: int = 3, fmts: tuple[str, ...] = ("decimal", "lowerLetter", "lowerRoman")) -> str:
    return "".join(lvl(i, fmts[i % len(fmts)]) for i in range(levels))


def abstract(aid: str, levels: str, extra: str = "") -> str:
    return f'<w:abstractNum w:abstractNumId="{aid}">{extra}{levels}</w:abstractNum>'


def num(nid: str, aid: str, overrides: str = "") -> str:
    return f'<w:num w:numId="{nid}"><w:abstractNumId w:val="{aid}"/>{overrides}</w:num>'


def start_override(ilvl: int, value: int) -> str:
    return f'<w:lvlOverride w:ilvl="{ilvl}"><w:startOverride w:val="{value}"/></w:lvlOverride>'


def definitions(numbering: str | None, styles: str = "") -> NumberingDefinitions:
    style_root = parse_xml(f"<w:styles {XMLNS}>{styles}</w:styles>".encode())
    root = (
        None if numbering is None else parse_xml(f"<w:numbering {XMLNS}>{numbering}</w:numbering>".encode())
    )
    return NumberingDefinitions(root, StyleIndex(style_root))


def labels(defs: NumberingDefinitions, *items: tuple[str, int]) -> list[str | None]:
    counter = ListCounter(defs)
    return [counter.label(num_id, ilvl) for num_id, ilvl in items]


def ppr(inner: str) -> Any:
    return parse_xml(f"<w:pPr {XMLNS}>{inner}</w:pPr>".encode())


def num_pr(num_id: str | None = None, ilvl: int | None = None) -> str:
    ilvl_xml = "" if ilvl is None else f'<w:ilvl w:val="{ilvl}"/>'
    num_xml = "" if num_id is None else f'<w:numId w:val="{num_id}"/>'
    return f"<w:numPr>{ilvl_xml}{num_xml}</w:numPr>"


def pstyle(sid: str, ppr_inner: str = "", default: bool = False) -> str:
    flag = ' w:default="1"' if default else ""
    inner = f'<w:name w:val="{sid}"/><w:pPr>{ppr_inner}</w:pPr>'
    return f'<w:style w:type="paragraph" w:styleId="{sid}"{flag}>{inner}</w:style>'


# -- definitions ---------------------------------------------------------------------------------


def test_level_properties_are_read():
    extra = (
        '<w:isLgl/><w:lvlRestart w:val="0"/><w:suff w:val="space"/><w:lvlJc w:val="right"/>'
        '<w:pStyle w:val="Heading2"/><w:rPr><w:rFonts w:ascii="Symbol"/><w:vanish/></w:rPr>'
    )
    defs = definitions(abstract("0", lvl(0) + lvl(1, "upperRoman", "%1.%2", 4, extra)) + num("1", "0"))
    level = defs.level("1", 1)
    assert level is not None
    assert (level.start, level.num_fmt, level.lvl_text) == (4, "upperRoman", "%1.%2")
    assert (level.is_lgl, level.restart, level.suffix, level.jc) == (True, 0, "space", "right")
    assert (level.pstyle, level.font, level.hidden) == ("Heading2", "Symbol", True)
    plain = defs.level("1", 0)
    assert plain is not None and (plain.is_lgl, plain.restart, plain.suffix, plain.hidden) == (
        False,
        None,
        "tab",
        False,
    )
    assert defs.level("1", 2) is None
    assert defs.level("9", 0) is None


def test_vanish_switched_off_is_not_hidden():
    defs = definitions(abstract("0", lvl(0, extra='<w:rPr><w:vanish w:val="0"/></w:rPr>')) + num("1", "0"))
    assert labels(defs, ("1", 0)) == ["1."]


def test_instance_defined():
    defs = definitions(abstract("0", lvl(0)) + num("1", "0") + num("2", "77"))
    assert defs.instance_defined("1")
    assert not defs.instance_defined("2")  # its abstract numbering does not exist
    assert not defs.instance_defined("0")
    assert not defs.instance_defined("3")
    assert not defs.instance_defined(None)
    assert not definitions(None).instance_defined("1")


def test_level_override_replaces_the_level_and_start_override_is_kept():
    override = (
        '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="7"/>'
        + lvl(0, "lowerRoman", "%1)", 20)
        + "</w:lvlOverride>"
    )
    defs = definitions(abstract("0", lvl(0)) + num("1", "0", override))
    level = defs.level("1", 0)
    assert level is not None and (level.num_fmt, level.lvl_text, level.start) == ("lowerRoman", "%1)", 20)
    assert defs.start_override("1", 0) == 7
    assert labels(defs, ("1", 0), ("1", 0)) == ["vii)", "viii)"]  # startOverride wins (LibreOffice)


def test_num_style_link_resolves_through_the_numbering_style():
    styles = (
        '<w:style w:type="numbering" w:styleId="MyList"><w:name w:val="MyList"/><w:pPr>'
        + num_pr("1")
        + "</w:pPr></w:style>"
    )
    numbering = (
        abstract(
            "0", lvl(0, "upperLetter", "%1.") + lvl(1, "decimal", "%1.%2"), '<w:styleLink w:val="MyList"/>'
        )
        + abstract("1", "", '<w:numStyleLink w:val="MyList"/>')
        + num("1", "0")
        + num("2", "1")
        + num("3", "1", start_override(0, 1))
    )
    defs = definitions(numbering, styles)
    assert defs.abstract_id("2") == "0"
    # Checked against LibreOffice 7.4: both instances count one list; num 3 restarts it.
    assert labels(defs, ("2", 0), ("2", 1), ("1", 0), ("2", 0), ("3", 0), ("1", 1)) == [
        "A.",
        "A.1",
        "B.",
        "C.",
        "A.",
        "A.1",
    ]


def test_num_style_link_falls_back_to_the_style_link_and_survives_cycles():
    numbering = (
        abstract("0", lvl(0, "upperRoman", "%1."), '<w:styleLink w:val="Orphan"/>')
        + abstract("1", "", '<w:numStyleLink w:val="Orphan"/>')
        + abstract("2", "", '<w:numStyleLink w:val="Loop"/>')
        + num("1", "1")
        + num("2", "2")
    )
    loop_style = '<w:style w:type="numbering" w:styleId="Loop"><w:pPr>' + num_pr("2") + "</w:pPr></w:style>"
    defs = definitions(numbering, loop_style)
    assert defs.abstract_id("1") == "0"
    assert labels(defs, ("1", 0)) == ["I."]
    assert defs.abstract_id("2") == "2"  # a link back to itself: no levels, no hang
    assert labels(defs, ("2", 0)) == [None]


def test_custom_number_format_from_alternate_content():
    custom = (
        '<w:lvl w:ilvl="0"><w:start w:val="1"/><mc:AlternateContent><mc:Choice Requires="w14">'
        '<w:numFmt w:val="custom" w:format="001, 002, 003, ..."/></mc:Choice>'
        '<mc:Fallback><w:numFmt w:val="decimal"/></mc:Fallback></mc:AlternateContent>'
        '<w:lvlText w:val="%1."/></w:lvl>'
    )
    unknown = custom.replace("001, 002, 003, ...", "a, ą, b, ...").replace('"decimal"', '"lowerLetter"')
    defs = definitions(abstract("0", custom) + abstract("1", unknown) + num("1", "0") + num("2", "1"))
    assert labels(defs, ("1", 0), ("1", 0), ("2", 0)) == ["001.", "002.", "a."]


# -- effective numbering ---------------------------------------------------------------------------


@pytest.fixture
def styled() -> NumberingDefinitions:
    numbering = (
        abstract("0", legal(3))
        + abstract("1", lvl(0) + lvl(1, "lowerLetter", "(%2)", 1, '<w:pStyle w:val="Sub"/>'))
        + num("1", "0")
        + num("2", "0")
        + num("3", "1")
    )
    styles = (
        pstyle("Normal", default=True)
        + pstyle("List2", num_pr("1", 1))
        + pstyle("ListNumOnly", num_pr("1"))
        + pstyle("Sub", num_pr("3"))
        + pstyle("Undefined", num_pr("42", 0))
    )
    return definitions(numbering, styles)


@pytest.mark.parametrize(
    ("style", "direct", "expected"),
    [
        (None, "", None),
        (None, num_pr("2", 1), ("2", 1)),
        ("List2", "", ("1", 1)),
        ("List2", num_pr("2", 2), ("2", 2)),  # direct numPr wins
        ("List2", num_pr(ilvl=0), ("1", 0)),  # direct ilvl re-levels the style's list
        ("List2", num_pr("2"), ("2", 1)),  # direct numId keeps the style's level
        ("List2", num_pr("0"), None),  # numId 0 removes the style's numbering
        ("List2", num_pr("0", 0), None),
        ("ListNumOnly", "", ("1", 0)),  # no level anywhere: level 0
        ("Sub", "", ("3", 1)),  # no level stated: the level whose w:pStyle is Sub
        ("Sub", num_pr(ilvl=0), ("3", 0)),
        ("Undefined", "", None),  # the style's list does not exist
        (None, num_pr("99", 0), None),
        (None, num_pr(ilvl=1), None),  # a level without any list
        ("List2", num_pr("1", 14), ("1", 8)),  # out-of-range levels are clamped
        ("NoSuchStyle", "", None),
    ],
)
def test_effective_numbering(styled, style, direct, expected):
    assert styled.effective_numbering(ppr(direct), style) == expected


def test_paragraph_without_style_takes_the_default_style_numbering():
    defs = definitions(abstract("0", lvl(0)) + num("1", "0"), pstyle("Normal", num_pr("1", 0), default=True))
    assert defs.effective_numbering(None, None) == ("1", 0)
    assert defs.effective_numbering(ppr(""), "Unknown") == ("1", 0)
    assert definitions(None).effective_numbering(ppr(num_pr("1", 0)), None) is None


# -- counting ------------------------------------------------------------------------------------


@pytest.fixture
def multilevel() -> NumberingDefinitions:
    return definitions(
        abstract("0", legal(4)) + num("1", "0") + num("2", "0") + num("3", "0", start_override(1, 5))
    )


def test_levels_count_and_deeper_levels_restart(multilevel):
    seq = [("1", 0), ("1", 1), ("1", 1), ("1", 2), ("1", 0), ("1", 1), ("1", 3)]
    assert labels(multilevel, *seq) == ["1.", "1.a", "1.b", "1.b.i", "2.", "2.a", "2.a.i.1"]


def test_a_fresh_counter_starts_again(multilevel):
    assert labels(multilevel, ("1", 0), ("1", 0)) == ["1.", "2."]
    assert labels(multilevel, ("1", 0)) == ["1."]


def test_instances_of_one_abstract_share_their_count(multilevel):
    assert labels(multilevel, ("1", 0), ("2", 0), ("1", 1), ("2", 1)) == ["1.", "2.", "2.a", "2.b"]


def test_skipped_level_counts_once_at_its_start_like_libreoffice(multilevel):
    # A list that opens on its second level shows "1.a"; the next first-level item is then 2.
    assert labels(multilevel, ("1", 1), ("1", 2), ("1", 0), ("1", 1)) == ["1.a", "1.a.i", "2.", "2.a"]


def test_restart_numbering_pattern_word_writes():
    """Word's "Restart numbering": a new w:num with startOverride on every level, used once; the
    following paragraphs (through the style's w:num) continue from it (pt_Contract-DE)."""
    overrides = "".join(start_override(i, 1) for i in range(9))
    defs = definitions(
        abstract("0", legal(2)) + num("18", "0") + num("119", "0", overrides) + num("106", "0", overrides)
    )
    seq = [("18", 0), ("18", 0), ("18", 0), ("119", 0), ("18", 0), ("18", 1), ("106", 0), ("18", 0)]
    assert labels(defs, *seq) == ["1.", "2.", "3.", "1.", "2.", "2.a", "1.", "2."]


def test_start_override_applies_once_on_the_first_overridden_level(multilevel):
    # Checked against LibreOffice 7.4: num 3 restarts level 2 at 5 the first time it is used
    # there; after a level-1 item, level 2 restarts at its own w:start again.
    seq = [("1", 0), ("1", 1), ("3", 0), ("3", 1), ("1", 1), ("3", 1), ("1", 0), ("3", 1)]
    assert labels(multilevel, *seq) == ["1.", "1.a", "2.", "2.e", "2.f", "2.g", "3.", "3.a"]


def test_start_override_waits_for_a_paragraph_on_its_level():
    # LibreOffice 7.4: an instance first used on another level does not restart anything yet.
    defs = definitions(abstract("0", legal(2)) + num("1", "0") + num("3", "0", start_override(0, 3)))
    seq = [("1", 0), ("1", 1), ("3", 1), ("3", 1), ("3", 0), ("1", 0), ("3", 0)]
    assert labels(defs, *seq) == ["1.", "1.a", "1.b", "1.c", "3.", "4.", "5."]


def test_only_the_first_override_of_an_instance_counts():
    # LibreOffice 7.4 (dxo_WC-BodyBookmarks-Before): num 2 overrides every level; its first
    # paragraph (level 2) uses the override, its later level-1 paragraph continues the count.
    overrides = "".join(start_override(i, 1) for i in range(9))
    defs = definitions(abstract("0", lvl(0, text="%1)") + lvl(1, text="%2)")) + num("2", "0", overrides))
    assert labels(defs, ("2", 1), ("2", 0), ("2", 0)) == ["1)", "2)", "3)"]


def test_level_override_without_start_override_continues_the_shared_count():
    # LibreOffice 7.4: w:lvlOverride/w:lvl changes the look, not the count.
    overridden = '<w:lvlOverride w:ilvl="0">' + lvl(0, "upperLetter", "%1)", 20) + "</w:lvlOverride>"
    defs = definitions(abstract("0", lvl(0, start=5)) + num("1", "0") + num("2", "0", overridden))
    assert labels(defs, ("1", 0), ("1", 0), ("2", 0), ("1", 0)) == ["5.", "6.", "G)", "8."]


def test_missing_start_means_zero():
    defs = definitions(abstract("0", lvl(0, start=None) + lvl(1, start=None, text="%1.%2")) + num("1", "0"))
    assert labels(defs, ("1", 0), ("1", 0), ("1", 1), ("1", 0)) == ["0.", "1.", "1.0", "2."]


def test_hidden_level_counts_but_shows_nothing():
    hidden = lvl(1, "lowerLetter", "%1.%2", 1, "<w:rPr><w:vanish/></w:rPr>")
    defs = definitions(abstract("0", lvl(0) + hidden + lvl(2, "lowerRoman")) + num("1", "0"))
    assert labels(defs, ("1", 0), ("1", 1), ("1", 2), ("1", 1), ("1", 2)) == [
        "1.",
        None,
        "1.a.i",
        None,
        "1.b.i",
    ]


def test_undefined_level_shows_nothing_but_counts():
    defs = definitions(abstract("0", lvl(0, "upperLetter", "%1)")) + num("1", "0"))
    # LibreOffice 7.4: the skipped level 1 item makes the next level-1 item B (phantom count).
    assert labels(defs, ("1", 2), ("1", 0), ("1", 8)) == [None, "B)", None]
    assert labels(defs, ("1", 9), ("1", -1), ("7", 0)) == [None, None, None]


def test_multiple_placeholders_and_free_text():
    defs = definitions(
        abstract(
            "0",
            lvl(0, "upperRoman", "Article %1")
            + lvl(1, "decimalZero", "Section %1.%2")
            + lvl(2, "lowerLetter", "(%3)"),
        )
        + num("1", "0")
    )
    assert labels(defs, ("1", 0), ("1", 1), ("1", 2), ("1", 1)) == [
        "Article I",
        "Section I.01",
        "(a)",
        "Section I.02",
    ]


def test_placeholder_of_a_deeper_level_is_dropped():
    # LibreOffice 7.4 shows the raw "%2%" here; Word shows nothing for it.
    defs = definitions(abstract("0", lvl(0, text="%1.%2") + lvl(1, text="[%2]")) + num("1", "0"))
    assert labels(defs, ("1", 0), ("1", 1)) == ["1.", "[1]"]


def test_legal_numbering_shows_upper_levels_in_arabic():
    """w:isLgl: Word's built-in "Article I / Section 1.01" list (docx4j_article-section-isLgl).

    LibreOffice 7.4 ignores w:isLgl and shows "Section I.01"; the corpus table records that.
    """
    section = lvl(1, "decimalZero", "Section %1.%2", 1, "<w:isLgl/>")
    clause = lvl(2, "lowerLetter", "%1-%3", 1, "<w:isLgl/>")
    defs = definitions(abstract("0", lvl(0, "upperRoman", "Article %1.") + section + clause) + num("1", "0"))
    seq = [("1", 0), ("1", 1), ("1", 2), ("1", 0), ("1", 1)]
    assert labels(defs, *seq) == ["Article I.", "Section 1.01", "1-1", "Article II.", "Section 2.01"]


def test_level_restart_rules_follow_word():
    """w:lvlRestart (ignored by LibreOffice 7.4): 0 never restarts, n restarts after level n."""
    never = lvl(1, "lowerLetter", "%1.%2", 1, '<w:lvlRestart w:val="0"/>')
    after_first = lvl(2, "lowerRoman", "%1.%2.%3", 1, '<w:lvlRestart w:val="1"/>')
    defs = definitions(abstract("0", lvl(0) + never + after_first) + num("1", "0"))
    seq = [("1", 0), ("1", 1), ("1", 2), ("1", 1), ("1", 2), ("1", 0), ("1", 1), ("1", 2)]
    assert labels(defs, *seq) == ["1.", "1.a", "1.a.i", "1.b", "1.b.ii", "2.", "2.c", "2.c.i"]


def test_unnumbered_levels_follow_libreoffice():
    # Verified one by one with LibreOffice 7.4.
    levels = (
        lvl(0, "none", "Schedule")
        + lvl(1, "none", "(%1)")
        + lvl(2, "decimal", "%1.%2.%3")
        + lvl(3, "none", "%4 end")
        + lvl(4, "decimal", "%4-%5")
        + lvl(5, "decimal", "%1.%2.%3.%4.%5.%6")
        + lvl(6, "none", "")
        + lvl(7, "none", "x%8y%7z")
    )
    other = lvl(0) + lvl(1, "none", "%1.%2 x") + lvl(2, "decimal", "%2.%3") + lvl(3, "decimal", "%1/%2/%3/%4")
    defs = definitions(abstract("0", levels) + abstract("1", other) + num("1", "0") + num("2", "1"))
    assert labels(defs, *(("1", i) for i in range(8))) == [
        "Schedule",
        "()",
        "1",
        " end",
        "1",
        "1.1.1",
        None,
        "xz",
    ]
    assert labels(defs, *(("2", i) for i in range(4))) == ["1.", " x", "1", "1/1/1"]


def test_bullets():
    levels = (
        lvl(0, "bullet", "\uf0b7", extra='<w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/></w:rPr>')
        + lvl(1, "bullet", "o", extra='<w:rPr><w:rFonts w:ascii="Courier New"/></w:rPr>')
        + lvl(2, "bullet", "\uf0a7", extra='<w:rPr><w:rFonts w:ascii="Wingdings"/></w:rPr>')
        + lvl(3, "bullet", " ")
        + lvl(4, "bullet", "–")
    )
    defs = definitions(abstract("0", levels) + num("1", "0"))
    assert labels(defs, *(("1", i) for i in range(5))) == ["•", "o", "▪", None, "–"]


@pytest.mark.parametrize(
    ("text", "font", "shown"),
    [
        ("\uf0b7", "Symbol", "•"),
        ("\uf0a8", "Symbol", "♦"),
        ("\uf0d8", "Wingdings", "➢"),
        ("\uf0fc", "Wingdings", "✔"),
        ("\uf0b7", "Times New Roman", "•"),
        ("\uf0a7", None, "▪"),
        ("\uf099", "Webdings", "•"),
        ("●", None, "●"),
        # older files write the symbol font's byte itself: Symbol's 0xB7 is its bullet
        ("\u00b7", "Symbol", "•"),
        ("\u00a7", "Wingdings", "▪"),
        ("\u00d8", "Wingdings", "➢"),
        ("\u00b7", "Calibri", "\u00b7"),
    ],
)
def test_bullet_text(text, font, shown):
    assert bullet_text(text, font) == shown


# -- number formats (every expected value below is what LibreOffice 7.4 shows) ---------------------

_CHINESE = (
    "1=一 2=二 9=九 10=十 11=十一 15=十五 20=二十 21=二十一 99=九十九 100=一百 101=一百零一 110=一百一十 "
    "401=四百零一 999=九百九十九 1001=一千零一 1010=一千零一十 2024=二千零二十四 "
    "10001=一万零一 12345=一万二千三百四十五"
)
FORMATS = {
    "decimal": "1=1 9=9 10=10 2024=2024",
    "decimalZero": "1=01 9=09 10=10 100=100",
    "upperRoman": "1=I 4=IV 9=IX 14=XIV 40=XL 49=XLIX 99=XCIX 401=CDI 999=CMXCIX 2024=MMXXIV 4000=MMMM",
    "lowerRoman": "1=i 2=ii 4=iv 9=ix 27=xxvii 1001=mi",
    "upperLetter": "1=A 26=Z 27=AA 28=BB 52=ZZ 53=AAA 100=VVVV",
    "lowerLetter": "1=a 2=b 26=z 27=aa 53=aaa 110=fffff",
    "ordinal": "1=1st 2=2nd 3=3rd 4=4th 11=11th 12=12th 13=13th 21=21st 22=22nd 53=53rd 101=101st 111=111th",
    "cardinalText": "1=One 11=Eleven 21=Twenty-one 100=One_hundred 101=One_hundred_one "
    "1001=One_thousand_and_one 2024=Two_thousand_and_twenty-four "
    "12345=Twelve_thousand_three_hundred_forty-five",
    "ordinalText": "1=First 2=Second 3=Third 5=Fifth 8=Eighth 9=Ninth 12=Twelfth 20=Twentieth "
    "21=Twenty-first "
    "100=One_hundredth 101=One_hundred_first 1001=One_thousand_and_first "
    "3999=Three_thousand_nine_hundred_ninety-ninth",
    "decimalEnclosedCircle": "1=① 20=⑳ 21=㉑ 35=㉟ 36=㊱ 50=㊿ 51=51",
    "chineseCounting": _CHINESE,
    "chineseCountingThousand": _CHINESE,
    "japaneseCounting": _CHINESE,
    "taiwaneseCounting": _CHINESE,
    "ideographTraditional": "1=甲 2=乙 10=癸 11=11",
    "ideographZodiac": "1=子 12=亥 13=13",
    "hebrew1": "1=א 10=י 11=יא 15=טו 16=טז 19=יט 99=צט 100=ק 115=קטו 399=שצט 400=ת 500=תק 999=תתקצט "
    "1000=אלף 1001=א_א 2024=ב_כד 4000=ד_אלפים 12345=יב_שמה",
    "hebrew2": "1=א 22=ת 23=אא 26=אד 49=בה 99=דכ 999=באט",
    "arabicAlpha": "1=أ 2=ب 10=ر 28=ى 29=أأ 30=أب 40=أس 999=أخغ",
    "arabicAbjad": "1=ا 2=ب 3=ج 10=ي 28=غ 29=اا 1010=احب",
    "russianLower": "1=а 29=я 30=аа 40=ал",
    "decimalFullWidth": "1=1 10=10",  # LibreOffice 7.4 shows ASCII digits for these
    "decimalEnclosedParen": "1=1 12=12",
    "thaiNumbers": "3=3",
    "someFutureFormat": "7=7",
}


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_number_formats_match_libreoffice(fmt):
    for pair in FORMATS[fmt].split():
        value, shown = pair.split("=")
        assert format_number(int(value), fmt) == shown.replace("_", " "), (fmt, value)


def test_number_format_edges():
    assert format_number(0, "lowerRoman") == "0"
    assert format_number(0, "upperLetter") == "0"
    assert format_number(5, "none") == ""
    assert format_number(7, "custom", "0001, 0002, 0003, ...") == "0007"
    assert format_number(7, "custom", "a, b, c, ...") == "7"


def test_start_override_beyond_sixteen_bits_restarts_at_one():
    defs = definitions(abstract("0", lvl(0)) + num("1", "0", start_override(0, 100000)))
    assert labels(defs, ("1", 0)) == ["1."]


# -- the corpus against LibreOffice ---------------------------------------------------------------

_DIFFERENCES = Path(__file__).parents[1] / "data" / "numbering_label_differences.tsv"
_TEXTBOX = W + "txbxContent"
_NOT_LETTERS = re.compile(r"[\W\d_]+")
UNALIGNED = "(unaligned)"


def _known_differences() -> dict[str, set[tuple[str, str, str]]]:
    table: dict[str, set[tuple[str, str, str]]] = {}
    with _DIFFERENCES.open(encoding="utf-8") as fh:
        for row in csv.reader(
            (line for line in fh if line.strip() and not line.startswith("#")), delimiter="\t"
        ):
            name, paragraph, ours, theirs, why = row
            assert why.strip(), f"{name} paragraph {paragraph}: say why it differs"
            table.setdefault(name, set()).add((paragraph, ours, theirs))
    return table


NUMBERED_FILES = files_counting("numbered_paras")
KNOWN = _known_differences()


def our_paragraphs(path: Path) -> list[tuple[str, str, bool]]:
    """(text, label, is bullet) for every body and table-cell paragraph, in document order.

    Paragraphs in text boxes are left out (LibreOffice lists them elsewhere); text keeps deleted
    and inserted runs, as LibreOffice shows the document with changes shown.
    """
    package = Package.open(path)

    def part(rel_type: str) -> Any:
        name = package.related_part(package.main_part, rel_type)
        return package.xml(name) if name else None

    defs = NumberingDefinitions(part(REL_NUMBERING), StyleIndex(part(REL_STYLES)))
    counter = ListCounter(defs)
    body = package.xml(package.main_part).find(W + "body")
    out: list[tuple[str, str, bool]] = []
    for para in body.iter(W + "p"):
        if any(a.tag == _TEXTBOX for a in para.iterancestors()):
            continue
        props = para.find(W + "pPr")
        effective = defs.effective_numbering(props, child_val(props, "pStyle"))
        label = (counter.label(*effective) if effective else None) or ""
        level = defs.level(*effective) if effective else None
        text = "".join(t.text or "" for t in para.iter(W + "t", W + "delText"))
        out.append((text, label, level is not None and level.num_fmt == "bullet"))
    return out


def _pairs(ours: list[str], theirs: list[str]) -> list[tuple[int, int]]:
    """Pair our paragraphs with LibreOffice's: by position when the counts agree, else by text.

    LibreOffice leaves out floating tables (they become frames), merges a drop cap with its
    paragraph and drops some empty paragraphs; aligning on letters only (field results and
    footnote numbers differ between the readers) pairs everything else.
    """
    if len(ours) == len(theirs):
        return list(zip(range(len(ours)), range(len(theirs)), strict=True))
    key = [_NOT_LETTERS.sub("", t) for t in ours], [_NOT_LETTERS.sub("", t) for t in theirs]
    pairs: list[tuple[int, int]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, *key, autojunk=False).get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            pairs.extend(zip(range(i1, i2), range(j1, j2), strict=True))
    return pairs


def label_differences(
    ours: list[tuple[str, str, bool]], reading: dict[str, Any]
) -> tuple[set[tuple[str, str, str]], int]:
    """Rows (our paragraph index, our label, LibreOffice's) where the labels differ, and how
    many numbered paragraphs were compared.

    LibreOffice's ListLabelString is empty for bullet levels (the glyph is drawn, not part of the
    label), so a bullet of ours agrees with "" there.
    """
    theirs = list(zip(reading["paragraphs"], reading["list_labels"], strict=True))
    pairs = _pairs([t for t, _, _ in ours], [t for t, _ in theirs])
    found: set[tuple[str, str, str]] = set()
    compared = 0
    for i, j in pairs:
        (_, label, bullet), (_, lo_label) = ours[i], theirs[j]
        if bullet and lo_label == "":
            continue
        if label or lo_label:
            compared += 1
            if label != lo_label:
                found.add((str(i), label, lo_label))
    paired_ours, paired_theirs = {i for i, _ in pairs}, {j for _, j in pairs}
    found |= {
        (str(i), o[1], UNALIGNED) for i, o in enumerate(ours) if i not in paired_ours and o[1] and not o[2]
    }
    found |= {(f"lo:{j}", UNALIGNED, t[1]) for j, t in enumerate(theirs) if j not in paired_theirs and t[1]}
    return found, compared


@pytest.fixture(scope="session")
def lo_list_labels(lo_reading) -> dict[str, dict[str, Any]]:
    """LibreOffice's reading of every numbered corpus file, two soffice processes at a time."""
    paths = [CORPUS / "public" / name for name in NUMBERED_FILES]
    with ThreadPoolExecutor(max_workers=LO_PARALLEL) as pool:
        return dict(zip(NUMBERED_FILES, pool.map(lo_reading, paths), strict=True))


def test_difference_table_names_only_numbered_corpus_files():
    if not NUMBERED_FILES:
        pytest.skip("the shared corpus is not beside the repository")
    assert set(KNOWN) <= set(NUMBERED_FILES)


@pytest.mark.libreoffice
@pytest.mark.corpus
@pytest.mark.parametrize("name", NUMBERED_FILES)
def test_corpus_labels_match_libreoffice(name, lo_list_labels):
    reading = lo_list_labels[name]
    assert reading.get("load_ok"), f"LibreOffice could not load {name}: {reading.get('error')}"
    found, compared = label_differences(our_paragraphs(CORPUS / "public" / name), reading)
    expected = KNOWN.get(name, set())
    assert found == expected, (
        f"{name}: {len(found - expected)} new difference(s) {sorted(found - expected)[:10]}, "
        f"{len(expected - found)} listed but gone {sorted(expected - found)[:10]} ({compared} compared)"
    )
