"""StyleIndex: paragraph styles, heading and outline levels, style numbering, broken style trees."""

from __future__ import annotations

import pytest

from reviewer_app.docx.styles import StyleIndex
from reviewer_app.docx.xmlutil import NS, parse_xml


def index(inner: str) -> StyleIndex:
    """A StyleIndex over a ``w:styles`` part whose children are ``inner``."""
    return StyleIndex(parse_xml(f'<w:styles xmlns:w="{NS["w"]}">{inner}</w:styles>'.encode()))


def style(
    sid: str,
    name: str | None = None,
    kind: str | None = "paragraph",
    based_on: str | None = None,
    ppr: str = "",
    default: bool = False,
) -> str:
    attrs = (
        f' w:styleId="{sid}"' + (f' w:type="{kind}"' if kind else "") + (' w:default="1"' if default else "")
    )
    parts = [f'<w:name w:val="{name}"/>' if name is not None else ""]
    parts.append(f'<w:basedOn w:val="{based_on}"/>' if based_on else "")
    parts.append(f"<w:pPr>{ppr}</w:pPr>" if ppr else "")
    return f"<w:style{attrs}>{''.join(parts)}</w:style>"


def outline(level: int) -> str:
    return f'<w:outlineLvl w:val="{level}"/>'


def num_pr(num_id: str | None = None, ilvl: int | None = None) -> str:
    inner = (f'<w:ilvl w:val="{ilvl}"/>' if ilvl is not None else "") + (
        f'<w:numId w:val="{num_id}"/>' if num_id is not None else ""
    )
    return f"<w:numPr>{inner}</w:numPr>"


# -- identity ------------------------------------------------------------------------------------


def test_no_styles_part_answers_unknown_for_everything():
    styles = StyleIndex(None)
    assert styles.paragraph_style_ids() == []
    assert styles.default_paragraph_style_id is None
    assert not styles.is_paragraph_style("Normal")
    assert styles.heading_level("Heading1") is None
    assert styles.outline_level("Heading1") is None
    assert styles.numbering("ListParagraph") == (None, None)
    assert styles.style_name("Normal") is None


def test_paragraph_styles_in_document_order_and_types():
    styles = index(
        style("Normal", "Normal", default=True)
        + style("Strong", "Strong", kind="character")
        + style("Heading1", "heading 1")
        + style("TableGrid", "Table Grid", kind="table")
        + style("MyList", "My List", kind="numbering")
        + style("Untyped", "No type attribute", kind=None)
    )
    assert styles.paragraph_style_ids() == ["Normal", "Heading1", "Untyped"]
    assert styles.is_paragraph_style("Heading1")
    assert styles.is_paragraph_style("Untyped")  # ECMA-376: w:type defaults to paragraph
    for other in ("Strong", "TableGrid", "MyList", "Missing", None, ""):
        assert not styles.is_paragraph_style(other)
    assert styles.style_type("MyList") == "numbering"
    assert styles.style_type("Missing") is None
    assert "Strong" in styles and "Missing" not in styles


def test_default_paragraph_style_ignores_defaults_of_other_types():
    styles = index(
        style("DefaultParagraphFont", "Default Paragraph Font", kind="character", default=True)
        + style("Body", "Body")
        + style("Standard", "Normal", default=True)
    )
    assert styles.default_paragraph_style_id == "Standard"


def test_style_name_and_duplicate_ids_keep_the_first_definition():
    styles = index(style("Quote", "Quote") + style("Quote", "Second quote", ppr=outline(0)) + style("NoName"))
    assert styles.style_name("Quote") == "Quote"
    assert styles.heading_level("Quote") is None
    assert styles.style_name("NoName") is None
    assert styles.style_name(None) is None


# -- headings ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sid", "name", "level"),
    [
        ("Heading1", "heading 1", 1),
        ("Nadpis1", "heading 1", 1),  # Czech Word: localized id, English built-in name
        ("berschrift3", "heading 3", 3),  # German Word drops the Ü from the id
        ("Custom", "Heading 9", 9),  # name match is case-insensitive
        ("heading2", None, 2),  # no name: the id decides
        ("HEADING4", "Whatever", 4),
    ],
)
def test_built_in_headings_by_name_or_id(sid, name, level):
    assert index(style(sid, name)).heading_level(sid) == level


@pytest.mark.parametrize(
    "name", ["Title", "Subtitle", "heading", "heading 10", "heading 0", "Heading 1 Char"]
)
def test_not_headings(name):
    assert index(style("X", name)).heading_level("X") is None


def test_heading_level_from_outline_level_through_based_on():
    styles = index(
        style("ClauseBase", "Clause base", ppr=outline(1))
        + style("Clause", "Clause", based_on="ClauseBase")
        + style("Clause3", "Clause 3", based_on="Clause", ppr=outline(2))
        + style("BodyLike", "Body like", based_on="ClauseBase", ppr=outline(9))
    )
    assert styles.heading_level("ClauseBase") == 2
    assert styles.heading_level("Clause") == 2
    assert styles.heading_level("Clause3") == 3
    assert styles.heading_level("BodyLike") is None  # 9 = body text stops inheritance


def test_built_in_heading_name_outranks_its_own_outline_level():
    styles = index(style("Heading2", "heading 2", ppr=outline(5)))
    assert styles.heading_level("Heading2") == 2
    assert styles.outline_level("Heading2") == 5


def test_style_based_on_a_heading_is_a_heading_unless_it_says_otherwise():
    styles = index(
        style("Heading1", "heading 1")
        + style("MyHeading", "My Heading", based_on="Heading1")
        + style("MyHeadingLevel3", "My Heading 3", based_on="Heading1", ppr=outline(2))
        + style("NotAHeading", "Plain", based_on="Heading1", ppr=outline(9))
    )
    assert styles.heading_level("MyHeading") == 1
    assert styles.heading_level("MyHeadingLevel3") == 3
    assert styles.heading_level("NotAHeading") is None


def test_character_style_named_like_a_heading_is_not_a_heading_level():
    styles = index(style("Heading1Char", "heading 1", kind="character"))
    assert styles.heading_level("Heading1Char") is None


# -- outline levels ------------------------------------------------------------------------------


def test_outline_level_inherits_and_ignores_junk():
    styles = index(
        style("A", "A", ppr=outline(0))
        + style("B", "B", based_on="A")
        + style("C", "C", based_on="B", ppr='<w:outlineLvl w:val="x"/>')
        + style("D", "D", ppr=outline(12))
        + style("E", "E", based_on="A", ppr=outline(9))
    )
    assert styles.outline_level("A") == 0
    assert styles.outline_level("B") == 0
    assert styles.outline_level("C") == 0  # unreadable value counts as absent
    assert styles.outline_level("D") is None
    assert styles.outline_level("E") is None
    assert styles.outline_level("Missing") is None


# -- numbering -----------------------------------------------------------------------------------


def test_numbering_inherits_num_id_and_ilvl_separately():
    styles = index(
        style("List", "List", ppr=num_pr("5", 0))
        + style("List2", "List 2", based_on="List", ppr=num_pr(ilvl=1))
        + style("OtherList", "Other", based_on="List2", ppr=num_pr("7"))
        + style("Linked", "Linked", ppr=num_pr("9"))
        + style("Plain", "Plain")
    )
    assert styles.numbering("List") == ("5", 0)
    assert styles.numbering("List2") == ("5", 1)
    assert styles.numbering("OtherList") == ("7", 1)
    assert styles.numbering("Linked") == ("9", None)  # the level comes from numbering.xml
    assert styles.numbering("Plain") == (None, None)
    assert styles.numbering(None) == (None, None)


def test_num_id_zero_is_returned_so_it_can_cancel_a_base_style_list():
    styles = index(
        style("List", "List", ppr=num_pr("5", 2))
        + style("NoList", "No list", "paragraph", "List", num_pr("0"))
    )
    assert styles.numbering("NoList") == ("0", 2)


def test_numbering_ignores_out_of_range_levels():
    styles = index(style("Bad", "Bad", ppr=num_pr("3", 12)) + style("Junk", "Junk", ppr=num_pr(" 4 ", None)))
    assert styles.numbering("Bad") == ("3", None)
    assert styles.numbering("Junk") == ("4", None)


# -- broken trees --------------------------------------------------------------------------------


def test_based_on_cycles_terminate():
    styles = index(
        style("A", "A", based_on="B")
        + style("B", "B", based_on="A", ppr=outline(3))
        + style("Self", "Self", based_on="Self")
        + style("Dangling", "Dangling", based_on="Nowhere")
    )
    assert styles.based_on_chain("A") == ["A", "B"]
    assert styles.heading_level("A") == 4
    assert styles.based_on_chain("Self") == ["Self"]
    assert styles.heading_level("Self") is None
    assert styles.numbering("Self") == (None, None)
    assert styles.based_on_chain("Dangling") == ["Dangling"]
    assert styles.based_on_chain("Missing") == []


def test_style_without_id_is_ignored():
    styles = index(
        '<w:style w:type="paragraph"><w:name w:val="Orphan"/></w:style>' + style("Normal", "Normal")
    )
    assert styles.paragraph_style_ids() == ["Normal"]
