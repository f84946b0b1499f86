#!/usr/bin/env python3
"""Build a realistic Master Services Agreement (.docx) for demos, tests and benchmarks.

Usage::

    python resources/samples/generate_contract.py OUT.docx [--scale N] [--seed S]

``--scale 1`` (the default) is the bundled sample a new user opens first (``sample-msa.docx``,
17 pages as LibreOffice lays it out).  ``--scale 20`` is a synthetic ~300-page contract for the
benchmark: the same agreement with the additional articles and schedules a large outsourcing
deal carries, and many more service modules, each with its own service description,
service-level, milestone and fee tables, tracked changes and comments.

Why a generator and not a hand-made file: the reviewer must cope with what Word really writes
(style-linked multi-level numbering, footnotes, fields, threaded and resolved comments, pending
revisions by other authors, ``w14:paraId`` on every paragraph), and a script documents exactly
which of those constructs the sample contains and lets the benchmark scale the same document.
python-docx builds the skeleton (package, section, header/footer parts, core properties, tables);
everything it has no API for is written with lxml. The agreement's wording (clauses, definitions,
comment threads, the service modules' building blocks and Parts, the execution page, the running
heads) is in ``contract_text.yaml`` beside this script, so it can be edited without touching code;
the code keeps the structure, the seeded choices and the OOXML.

Output is deterministic for a given ``--scale``/``--seed``: revision and comment dates, ids,
paragraph ids, core-property timestamps and even the zip member timestamps are fixed, so
re-running the script gives a byte-identical file.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import random
import re
import sys
import time
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import docx
import yaml
from docx.document import Document as DocxDocument
from docx.opc.constants import CONTENT_TYPE as CT
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls
from docx.oxml.table import CT_Tbl
from docx.shared import Mm, Twips
from docx.table import Table
from lxml import etree

# --------------------------------------------------------------------------------------------
# Parties, people and fixed dates
# --------------------------------------------------------------------------------------------

SUPPLIER = "Northwind Analytics Ltd"
CUSTOMER = "Harbour Bank plc"
COUNSEL = "Priya Shah (Harbour Bank counsel)"
PROCUREMENT = "Marcus Lindqvist (Harbour Bank procurement)"
SUPPLIER_COUNSEL = "Daniel Okafor (Northwind)"
INITIALS = {COUNSEL: "PS", PROCUREMENT: "ML", SUPPLIER_COUNSEL: "DO"}

#: When each author's mark-up session starts; every revision/comment gets a later minute so
#: the dates are fixed (deterministic output) yet ordered like a real review.
SESSION_START = {
    PROCUREMENT: dt.datetime(2025, 3, 12, 9, 30),
    COUNSEL: dt.datetime(2025, 3, 14, 9, 5),
    SUPPLIER_COUNSEL: dt.datetime(2025, 3, 17, 8, 40),
}
CREATED = dt.datetime(2025, 2, 24, 10, 0)
MODIFIED = dt.datetime(2025, 3, 17, 16, 45)
ZIP_TIMESTAMP = (2025, 3, 17, 16, 45, 0)

# --------------------------------------------------------------------------------------------
# Namespaces and relationship types python-docx does not know
# --------------------------------------------------------------------------------------------

NS = {
    "w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
    "w14": "http://schemas.microsoft.com/office/word/2010/wordml",
    "w15": "http://schemas.microsoft.com/office/word/2012/wordml",
    "w16cid": "http://schemas.microsoft.com/office/word/2016/wordml/cid",
}
RT_COMMENTS_EXTENDED = "http://schemas.microsoft.com/office/2011/relationships/commentsExtended"
RT_COMMENTS_IDS = "http://schemas.microsoft.com/office/2016/09/relationships/commentsIds"
RT_PEOPLE = "http://schemas.microsoft.com/office/2011/relationships/people"
CT_COMMENTS_EXTENDED = "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml"
CT_COMMENTS_IDS = "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsIds+xml"
CT_PEOPLE = "application/vnd.openxmlformats-officedocument.wordprocessingml.people+xml"

W14_PARA_ID = f"{{{NS['w14']}}}paraId"
W14_TEXT_ID = f"{{{NS['w14']}}}textId"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"

# Numbering ids, chosen above the ones in python-docx's default template (abstract 0-8, num 1-9).
ABS_LEGAL, ABS_SCHEDULE, ABS_BULLET, ABS_PARTIES, ABS_RECITALS = 20, 21, 22, 23, 24
NUM_LEGAL, NUM_BULLET, NUM_PARTIES, NUM_RECITALS = 20, 22, 23, 24
FIRST_SCHEDULE_NUM = 100

#: First w:id for revisions and comments (one shared sequence, so all are unique).  Footnotes
#: number from 1 in their own id space, as Word does; starting annotations well above them
#: avoids a LibreOffice 7.4 import bug that shows the wrong footnote text when a comment's id
#: equals a footnote's id.
FIRST_ANNOTATION_ID = 1000

# A4 with one-inch margins: the text block is 9026 twips wide.
TEXT_WIDTH = 9026


def w(tag: str) -> str:
    """Clark name for a ``w:`` tag; short because the builder uses it on almost every line."""
    return f"{{{NS['w']}}}{tag}"


def sub(parent: etree._Element, tag: str, **attrs: str) -> etree._Element:
    """Append a ``w:`` child with ``w:`` attributes (``val="x"`` becomes ``w:val="x"``)."""
    el = etree.SubElement(parent, w(tag))
    for key, value in attrs.items():
        el.set(w(key), value)
    return el


# --------------------------------------------------------------------------------------------
# Inline mark-up used by the clause texts
# --------------------------------------------------------------------------------------------
#
#   **bold**                       defined terms and run-in clause titles
#   [+inserted+]  [-deleted-]      pending tracked changes by the current reviser
#   [~reformatted~]                text the reviser made bold (w:rPrChange)
#   [^footnote text^]              a footnote reference at this point
#   [@key|anchor text@]            the comment thread ``key`` anchored on "anchor text"
#
# The clause texts read almost like plain text this way, which keeps the drafting reviewable.

_TOKEN = re.compile(r"\*\*|\[\+|\+\]|\[-|-\]|\[~|~\]|\[\^|\^\]|\[@([\w.-]+)\||@\]")
_OPENERS = {"[+": "ins", "[-": "del", "[~": "fmt", "[^": "fn"}
_CLOSERS = {"+]": "ins", "-]": "del", "~]": "fmt", "^]": "fn", "@]": "comment"}


@dataclass
class Node:
    """One piece of parsed mark-up: plain text or a container of further nodes."""

    kind: str  # text | bold | ins | del | fmt | fn | comment
    text: str = ""
    key: str = ""
    children: list[Node] = field(default_factory=list)

    def plain(self) -> str:
        """The text content, ignoring all mark-up (used for footnote bodies)."""
        return self.text if self.kind == "text" else "".join(c.plain() for c in self.children)


def parse_markup(markup: str) -> list[Node]:
    """Parse the inline mark-up into a tree; unbalanced mark-up is a bug in the content."""
    root = Node("root")
    stack = [root]
    pos = 0
    for match in _TOKEN.finditer(markup):
        if match.start() > pos:
            stack[-1].children.append(Node("text", markup[pos : match.start()]))
        pos = match.end()
        token = match.group(0)
        if token == "**":
            if stack[-1].kind == "bold":
                stack.pop()
            else:
                node = Node("bold")
                stack[-1].children.append(node)
                stack.append(node)
        elif token in _OPENERS or token.startswith("[@"):
            node = Node(_OPENERS.get(token, "comment"), key=match.group(1) or "")
            stack[-1].children.append(node)
            stack.append(node)
        else:
            if stack[-1].kind != _CLOSERS[token]:
                raise ValueError(f"unbalanced {token!r} in: {markup}")
            stack.pop()
    if pos < len(markup):
        stack[-1].children.append(Node("text", markup[pos:]))
    if len(stack) != 1:
        raise ValueError(f"unclosed {stack[-1].kind} in: {markup}")
    return root.children


# --------------------------------------------------------------------------------------------
# Styles and numbering
# --------------------------------------------------------------------------------------------

FONT = '<w:rFonts w:ascii="Arial" w:hAnsi="Arial" w:eastAsia="Arial" w:cs="Arial"/>'

#: Paragraph and character styles python-docx's template lacks, as Word would write them.
#: Built-in ones keep Word's lower-case internal names ("footnote text", "annotation text").
NEW_STYLES = [
    ("paragraph", "ClauseBody", "Clause Body", "Normal", '<w:pPr><w:ind w:left="720"/></w:pPr>', ""),
    ("paragraph", "Definition", "Definition", "Normal", '<w:pPr><w:ind w:left="720"/></w:pPr>', ""),
    ("paragraph", "SubClause", "Sub-clause", "Normal", '<w:pPr><w:spacing w:after="80"/></w:pPr>', ""),
    (
        "paragraph",
        "CoverTitle",
        "Cover Title",
        "Normal",
        '<w:pPr><w:pBdr><w:top w:val="single" w:sz="8" w:space="8" w:color="auto"/>'
        '<w:bottom w:val="single" w:sz="8" w:space="8" w:color="auto"/></w:pBdr>'
        '<w:spacing w:before="480" w:after="480"/><w:jc w:val="center"/></w:pPr>',
        '<w:b/><w:caps/><w:sz w:val="32"/><w:szCs w:val="32"/>',
    ),
    (
        "paragraph",
        "CoverText",
        "Cover Text",
        "Normal",
        '<w:pPr><w:spacing w:after="240"/><w:jc w:val="center"/></w:pPr>',
        '<w:sz w:val="24"/><w:szCs w:val="24"/>',
    ),
    (
        "paragraph",
        "PartHeading",
        "Part Heading",
        "Normal",
        '<w:pPr><w:keepNext/><w:spacing w:before="240" w:after="120"/><w:jc w:val="left"/></w:pPr>',
        "<w:b/><w:caps/>",
    ),
    (
        "paragraph",
        "Party",
        "Party",
        "Normal",
        f'<w:pPr><w:numPr><w:numId w:val="{NUM_PARTIES}"/></w:numPr></w:pPr>',
        "",
    ),
    (
        "paragraph",
        "Recital",
        "Recital",
        "Normal",
        f'<w:pPr><w:numPr><w:numId w:val="{NUM_RECITALS}"/></w:numPr></w:pPr>',
        "",
    ),
    (
        "paragraph",
        "ScheduleTitle",
        "Schedule Title",
        "Normal",
        '<w:pPr><w:keepNext/><w:pageBreakBefore/><w:spacing w:after="60"/><w:jc w:val="center"/>'
        '<w:outlineLvl w:val="0"/></w:pPr>',
        '<w:b/><w:caps/><w:sz w:val="24"/><w:szCs w:val="24"/>',
    ),
    (
        "paragraph",
        "ScheduleSubtitle",
        "Schedule Subtitle",
        "Normal",
        '<w:pPr><w:keepNext/><w:spacing w:after="360"/><w:jc w:val="center"/></w:pPr>',
        "<w:b/><w:caps/>",
    ),
    (
        "paragraph",
        "ScheduleLevel1",
        "Schedule Level 1",
        "Normal",
        '<w:pPr><w:keepNext/><w:spacing w:before="200" w:after="120"/><w:jc w:val="left"/></w:pPr>',
        "<w:b/><w:caps/>",
    ),
    ("paragraph", "ScheduleLevel2", "Schedule Level 2", "Normal", "", ""),
    (
        "paragraph",
        "Bullet",
        "Bullet",
        "Normal",
        f'<w:pPr><w:numPr><w:numId w:val="{NUM_BULLET}"/></w:numPr><w:spacing w:after="60"/></w:pPr>',
        "",
    ),
    (
        "paragraph",
        "TableText",
        "Table Text",
        "Normal",
        '<w:pPr><w:spacing w:before="40" w:after="40" w:line="240" w:lineRule="auto"/>'
        '<w:jc w:val="left"/></w:pPr>',
        '<w:sz w:val="18"/><w:szCs w:val="18"/>',
    ),
    (
        "paragraph",
        "FootnoteText",
        "footnote text",
        "Normal",
        '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>',
        '<w:sz w:val="16"/><w:szCs w:val="16"/>',
    ),
    (
        "character",
        "FootnoteReference",
        "footnote reference",
        "DefaultParagraphFont",
        "",
        '<w:vertAlign w:val="superscript"/>',
    ),
    (
        "paragraph",
        "CommentText",
        "annotation text",
        "Normal",
        '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/><w:jc w:val="left"/></w:pPr>',
        "",
    ),
    (
        "character",
        "CommentReference",
        "annotation reference",
        "DefaultParagraphFont",
        "",
        '<w:sz w:val="16"/><w:szCs w:val="16"/>',
    ),
]


def _replace_props(style: etree._Element, ppr: str, rpr: str) -> None:
    """Swap a template style's pPr/rPr for ours (they are the last children of a style)."""
    for tag in ("pPr", "rPr"):
        for old in style.findall(w(tag)):
            style.remove(old)
    if ppr:
        style.append(parse_xml(f"<w:pPr {nsdecls('w')}>{ppr}</w:pPr>"))
    if rpr:
        style.append(parse_xml(f"<w:rPr {nsdecls('w')}>{rpr}</w:rPr>"))


def configure_styles(doc: DocxDocument) -> None:
    """Restyle the template like a UK law-firm precedent and link the headings to numbering.

    Heading 1 (article headings, "1.") and Heading 2 (clauses, "1.1") carry ``w:numPr`` in
    styles.xml, which is how Word's own multi-level list gallery links a list to headings; the
    clause paragraphs are body-sized so Heading 2 reads as running text with a number.
    """
    styles = doc.styles.element
    by_id = {s.get(w("styleId")): s for s in styles.findall(w("style"))}
    _replace_props(
        by_id["Normal"],
        '<w:spacing w:after="120" w:line="257" w:lineRule="auto"/><w:jc w:val="both"/>',
        f'{FONT}<w:sz w:val="20"/><w:szCs w:val="20"/><w:lang w:val="en-GB"/>',
    )
    _replace_props(
        by_id["Heading1"],
        f'<w:keepNext/><w:keepLines/><w:numPr><w:numId w:val="{NUM_LEGAL}"/></w:numPr>'
        '<w:spacing w:before="280" w:after="140"/><w:jc w:val="left"/><w:outlineLvl w:val="0"/>',
        f'{FONT}<w:b/><w:bCs/><w:caps/><w:sz w:val="20"/><w:szCs w:val="20"/>',
    )
    _replace_props(
        by_id["Heading2"],
        f'<w:numPr><w:ilvl w:val="1"/><w:numId w:val="{NUM_LEGAL}"/></w:numPr>'
        '<w:spacing w:before="0" w:after="140"/><w:outlineLvl w:val="1"/>',
        f'{FONT}<w:sz w:val="20"/><w:szCs w:val="20"/>',
    )
    for char_id in ("Heading1Char", "Heading2Char"):
        _replace_props(by_id[char_id], "", f"{FONT}<w:b/>" if char_id == "Heading1Char" else FONT)
    tabs = (
        f'<w:tabs><w:tab w:val="center" w:pos="{TEXT_WIDTH // 2}"/>'
        f'<w:tab w:val="right" w:pos="{TEXT_WIDTH}"/></w:tabs>'
    )
    for hf in ("Header", "Footer"):
        _replace_props(
            by_id[hf],
            f'{tabs}<w:spacing w:after="0" w:line="240" w:lineRule="auto"/><w:jc w:val="left"/>',
            '<w:sz w:val="16"/><w:szCs w:val="16"/>',
        )
    for kind, style_id, name, based_on, ppr, rpr in NEW_STYLES:
        styles.append(
            parse_xml(
                f'<w:style {nsdecls("w")} w:type="{kind}" w:styleId="{style_id}">'
                f'<w:name w:val="{name}"/><w:basedOn w:val="{based_on}"/>'
                f'<w:uiPriority w:val="99"/><w:qFormat/>{ppr}'
                f"{f'<w:rPr>{rpr}</w:rPr>' if rpr else ''}</w:style>"
            )
        )


def _lvl(
    ilvl: int,
    fmt: str,
    text: str,
    left: int,
    hanging: int,
    pstyle: str = "",
    bold: bool = False,
    font: str = "",
) -> str:
    """One ``w:lvl``; ``pstyle`` is the back-link Word writes for style-linked levels."""
    return (
        f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/>'
        + (f'<w:pStyle w:val="{pstyle}"/>' if pstyle else "")
        + f'<w:lvlText w:val="{text}"/><w:lvlJc w:val="left"/>'
        f'<w:pPr><w:tabs><w:tab w:val="num" w:pos="{left}"/></w:tabs>'
        f'<w:ind w:left="{left}" w:hanging="{hanging}"/></w:pPr>'
        + (f"<w:rPr>{font}{'<w:b/>' if bold else ''}</w:rPr>" if bold or font else "")
        + "</w:lvl>"
    )


def _abstract(abs_id: int, nsid: str, name: str, levels: Iterable[str], multi: bool = True) -> str:
    return (
        f'<w:abstractNum {nsdecls("w")} w:abstractNumId="{abs_id}"><w:nsid w:val="{nsid}"/>'
        f'<w:multiLevelType w:val="{"multilevel" if multi else "singleLevel"}"/>'
        f'<w:tmpl w:val="{nsid[::-1]}"/><w:name w:val="{name}"/>{"".join(levels)}</w:abstractNum>'
    )


def legal_abstract_num() -> str:
    """The contract's clause numbering: 1. / 1.1 / (a) / (i), then deeper fallback levels.

    Levels 0 and 1 point back at Heading 1 / Heading 2 (``w:pStyle``); levels 2 and 3 are
    applied with direct ``w:numPr`` on the sub-clause paragraphs.
    """
    levels = [
        _lvl(0, "decimal", "%1.", 720, 720, "Heading1", bold=True),
        _lvl(1, "decimal", "%1.%2", 720, 720, "Heading2"),
        _lvl(2, "lowerLetter", "(%3)", 1440, 720),
        _lvl(3, "lowerRoman", "(%4)", 2160, 720),
        _lvl(4, "upperLetter", "(%5)", 2880, 720),
        _lvl(5, "decimal", "(%6)", 3600, 720),
        _lvl(6, "lowerLetter", "%7)", 4320, 720),
        _lvl(7, "lowerRoman", "%8)", 5040, 720),
        _lvl(8, "decimal", "%9.", 5760, 720),
    ]
    return _abstract(ABS_LEGAL, "4E57A1C3", "MSA Legal Numbering", levels)


def configure_numbering(doc: DocxDocument) -> None:
    """Add our abstract lists and their instances to the template's numbering.xml.

    Schedule parts get their own restarting instances later (:meth:`Renderer.restart`).
    """
    numbering = doc.part.numbering_part.element
    schedule_levels = [
        _lvl(0, "decimal", "%1.", 720, 720, bold=True),
        _lvl(1, "decimal", "%1.%2", 720, 720),
        _lvl(2, "lowerLetter", "(%3)", 1440, 720),
        _lvl(3, "lowerRoman", "(%4)", 2160, 720),
    ]
    abstracts = [
        legal_abstract_num(),
        _abstract(ABS_SCHEDULE, "4E57A1C4", "MSA Schedule Numbering", schedule_levels),
        _abstract(
            ABS_BULLET, "4E57A1C5", "MSA Bullets", [_lvl(0, "bullet", "\u2022", 1080, 360)], multi=False
        ),
        _abstract(
            ABS_PARTIES,
            "4E57A1C6",
            "MSA Parties",
            [_lvl(0, "decimal", "(%1)", 720, 720, bold=True)],
            multi=False,
        ),
        _abstract(
            ABS_RECITALS, "4E57A1C7", "MSA Recitals", [_lvl(0, "upperLetter", "(%1)", 720, 720)], multi=False
        ),
    ]
    last_abstract = numbering.findall(w("abstractNum"))[-1]
    for xml in reversed(abstracts):
        last_abstract.addnext(parse_xml(xml))
    nums = [
        (NUM_LEGAL, ABS_LEGAL),
        (NUM_BULLET, ABS_BULLET),
        (NUM_PARTIES, ABS_PARTIES),
        (NUM_RECITALS, ABS_RECITALS),
    ]
    last_num = numbering.findall(w("num"))[-1]
    new_nums = [
        f'<w:num {nsdecls("w")} w:numId="{num_id}"><w:abstractNumId w:val="{abs_id}"/></w:num>'
        for num_id, abs_id in nums
    ]
    for xml in reversed(new_nums):
        last_num.addnext(parse_xml(xml))


# --------------------------------------------------------------------------------------------
# The document writer: paragraphs, runs, revisions, comments, footnotes, tables
# --------------------------------------------------------------------------------------------


@dataclass
class CommentEntry:
    """One comment of a thread; the first entry is the parent, later ones are replies."""

    author: str
    text: str


@dataclass
class Thread:
    """A comment thread as the reviewer sees it in Word's margin."""

    entries: list[CommentEntry]
    resolved: bool = False


@dataclass
class CommentRecord:
    """A comment as written to comments.xml, with the ids needed by the companion parts."""

    comment_id: int
    author: str
    date: str
    text: str
    parent: CommentRecord | None
    done: bool
    para_id: str = ""


class Clock:
    """Hands out increasing, fixed timestamps per author so that dates are deterministic."""

    def __init__(self) -> None:
        self._next = dict(SESSION_START)

    def stamp(self, author: str) -> str:
        """The next timestamp for ``author`` as Word writes it (UTC, no fractions)."""
        value = self._next[author]
        self._next[author] = value + dt.timedelta(minutes=2)
        return value.strftime("%Y-%m-%dT%H:%M:%SZ")


class Writer:
    """Appends content to the body of a python-docx document, lxml element by element.

    python-docx has no API for tracked changes, comment threads, footnotes or numbering, so
    paragraphs are built directly; python-docx is only used for tables (its cell/width API).
    """

    def __init__(self, doc: DocxDocument, threads: dict[str, Thread]) -> None:
        self.doc = doc
        self.body = doc.element.body
        self.sect_pr = self.body.find(w("sectPr"))
        self.threads = threads
        self.used_threads: set[str] = set()
        self.reviser = COUNSEL
        self.clock = Clock()
        self._ids = iter(range(FIRST_ANNOTATION_ID, 10_000_000))
        self.footnotes: list[str] = []
        self.comments: list[CommentRecord] = []
        self.revision_authors: set[str] = set()
        self.revision_count = 0
        self.table_count = 0

    # -- paragraphs ---------------------------------------------------------------------------

    def paragraph(
        self,
        style: str,
        markup: str = "",
        num: tuple[int, int] | None = None,
        *,
        jc: str = "",
        keep_next: bool = False,
        inserted: bool = False,
        parent: etree._Element | None = None,
    ) -> etree._Element:
        """Append one paragraph (to the body unless ``parent`` is given) and fill it.

        ``num`` is (numId, ilvl) for direct numbering; ``inserted`` marks the whole paragraph,
        including its paragraph mark, as a pending insertion by the current reviser.
        """
        p = etree.Element(w("p"))
        ppr = sub(p, "pPr")
        sub(ppr, "pStyle", val=style)
        if keep_next:
            sub(ppr, "keepNext")
        if num is not None:
            num_pr = sub(ppr, "numPr")
            sub(num_pr, "ilvl", val=str(num[1]))
            sub(num_pr, "numId", val=str(num[0]))
        if jc:
            sub(ppr, "jc", val=jc)
        if inserted:
            self._revision(sub(sub(ppr, "rPr"), "ins"))
            markup = f"[+{markup}+]"
        if parent is None:
            self.sect_pr.addprevious(p)
        else:
            parent.append(p)
        self.fill(p, markup)
        return p

    def fill(self, p: etree._Element, markup: str) -> None:
        """Append the runs for ``markup`` to paragraph ``p``."""
        self._emit(p, parse_markup(markup), bold=False, mode="")

    def page_break(self) -> None:
        """A paragraph holding only a page break (used after the cover page)."""
        p = etree.Element(w("p"))
        sub(sub(p, "r"), "br", type="page")
        self.sect_pr.addprevious(p)

    # -- runs and mark-up -----------------------------------------------------------------------

    def _revision(self, el: etree._Element) -> etree._Element:
        """Stamp a w:ins / w:del / w:rPrChange with a unique id, the reviser and a fixed date."""
        el.set(w("id"), str(next(self._ids)))
        el.set(w("author"), self.reviser)
        el.set(w("date"), self.clock.stamp(self.reviser))
        self.revision_authors.add(self.reviser)
        self.revision_count += 1
        return el

    def _run(
        self, parent: etree._Element, text: str, bold: bool, deleted: bool, reformatted: bool = False
    ) -> None:
        r = sub(parent, "r")
        if bold or reformatted:
            rpr = sub(r, "rPr")
            sub(rpr, "b")
            sub(rpr, "bCs")
            if reformatted:
                change = self._revision(sub(rpr, "rPrChange"))
                old = sub(change, "rPr")
                if bold:
                    sub(old, "b")
                    sub(old, "bCs")
        for i, piece in enumerate(text.split("\t")):
            if i:
                sub(r, "tab")
            if piece:
                t = sub(r, "delText" if deleted else "t")
                t.text = piece
                if piece != piece.strip():
                    t.set(XML_SPACE, "preserve")

    def _emit(self, parent: etree._Element, nodes: Sequence[Node], bold: bool, mode: str) -> None:
        for node in nodes:
            if node.kind == "text":
                self._run(parent, node.text, bold, deleted=mode == "del")
            elif node.kind == "bold":
                self._emit(parent, node.children, True, mode)
            elif node.kind in ("ins", "del"):
                wrapper = self._revision(sub(parent, node.kind))
                self._emit(wrapper, node.children, bold, node.kind)
            elif node.kind == "fmt":
                self._run(parent, node.plain(), bold, deleted=mode == "del", reformatted=True)
            elif node.kind == "fn":
                self.footnotes.append(node.plain().strip())
                r = sub(parent, "r")
                sub(sub(r, "rPr"), "rStyle", val="FootnoteReference")
                sub(r, "footnoteReference", id=str(len(self.footnotes)))
            elif node.kind == "comment":
                self._comment(parent, node, bold)

    def _comment(self, parent: etree._Element, node: Node, bold: bool) -> None:
        """Anchor thread ``node.key``: nested ranges, one reference run per comment, as Word does."""
        if node.key in self.used_threads:
            raise ValueError(f"comment thread {node.key!r} anchored twice")
        self.used_threads.add(node.key)
        thread = self.threads[node.key]
        records: list[CommentRecord] = []
        for entry in thread.entries:
            record = CommentRecord(
                comment_id=next(self._ids),
                author=entry.author,
                date=self.clock.stamp(entry.author),
                text=entry.text,
                parent=records[0] if records else None,
                done=thread.resolved,
            )
            records.append(record)
            self.comments.append(record)
            sub(parent, "commentRangeStart", id=str(record.comment_id))
        self._emit(parent, node.children, bold, mode="")
        for record in records:
            sub(parent, "commentRangeEnd", id=str(record.comment_id))
            r = sub(parent, "r")
            sub(sub(r, "rPr"), "rStyle", val="CommentReference")
            sub(r, "commentReference", id=str(record.comment_id))

    # -- tables ---------------------------------------------------------------------------------

    def table(
        self,
        header: Sequence[str],
        rows: Sequence[Sequence[str]],
        widths: Sequence[int],
        *,
        total: Sequence[str] | None = None,
        right_align: Iterable[int] = (),
        bordered: bool = True,
    ) -> None:
        """A Word table: repeating shaded header row, body rows, optional bold total row.

        Cell texts use the same inline mark-up as paragraphs (so a fee can carry a revision).
        """
        all_rows = ([list(header)] if header else []) + [list(r) for r in rows]
        if total is not None:
            all_rows.append(list(total))
        # Document.add_table() would look the section up with a whole-document XPath on every
        # call (quadratic on the 300-page contract), so the table element is built directly.
        tbl = CT_Tbl.new_tbl(len(all_rows), len(widths), Twips(TEXT_WIDTH))
        if bordered:
            tbl.tblPr.style = "TableGrid"
        self.sect_pr.addprevious(tbl)
        table = Table(tbl, self.doc)
        right = set(right_align)
        for col, width in zip(table.columns, widths, strict=True):
            col.width = Twips(width)
        for row_index, (row, values) in enumerate(zip(table.rows, all_rows, strict=True)):
            is_header = bool(header) and row_index == 0
            is_total = total is not None and row_index == len(all_rows) - 1
            if is_header:
                tr_pr = row._tr.get_or_add_trPr()
                sub(tr_pr, "cantSplit")
                sub(tr_pr, "tblHeader")
            for col_index, (cell, value) in enumerate(zip(row.cells, values, strict=True)):
                cell.width = Twips(widths[col_index])
                if bordered and (is_header or is_total):
                    sub(
                        cell._tc.get_or_add_tcPr(),
                        "shd",
                        val="clear",
                        color="auto",
                        fill="D9D9D9" if is_header else "F2F2F2",
                    )
                jc = "right" if col_index in right and not is_header else "left"
                for line_no, line in enumerate(value.split("\n")):
                    markup = f"**{line}**" if (is_header or is_total) and line else line
                    if line_no == 0:  # python-docx gives every new cell one empty paragraph
                        p = cell.paragraphs[0]._p
                        ppr = sub(p, "pPr")
                        sub(ppr, "pStyle", val="TableText")
                        sub(ppr, "jc", val=jc)
                        self.fill(p, markup)
                    else:
                        self.paragraph("TableText", markup, jc=jc, parent=cell._tc)
        self.table_count += 1
        # A short spacer paragraph keeps consecutive tables apart, as drafters do.
        self.paragraph("TableText", "")


# --------------------------------------------------------------------------------------------
# Contract content
# --------------------------------------------------------------------------------------------

SubItem = str | tuple[str, Sequence[str]]


@dataclass
class Clause:
    """A numbered clause (Heading 2, "1.1") with optional (a)/(i) items and body paragraphs."""

    text: str
    title: str = ""
    subs: Sequence[SubItem] = ()
    after: Sequence[str] = ()
    inserted: bool = False


@dataclass
class Article:
    """A numbered article (Heading 1, "1.") made of clauses; ``key`` feeds cross-references."""

    key: str
    title: str
    clauses: Sequence[Clause]


# The prose lives in contract_text.yaml beside this script, so the wording can be edited
# without reading Python; the loaders below turn it into the objects the renderer walks.
TEXT_FILE = Path(__file__).with_name("contract_text.yaml")
#: Who wrote a comment, as the text file names them.
COMMENT_AUTHORS = {"counsel": COUNSEL, "supplier counsel": SUPPLIER_COUNSEL, "procurement": PROCUREMENT}


def load_text(path: Path = TEXT_FILE) -> dict[str, Any]:
    """The contract's wording: clauses, comment threads, service modules' building blocks."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


TEXT = load_text()


def _sub_item(item: str | dict[str, Any]) -> SubItem:
    """A clause's "(a)" item, or an item with its own "(i)" items (``text`` and ``items``)."""
    return item if isinstance(item, str) else (item["text"], item["items"])


def _articles(entries: Sequence[dict[str, Any]]) -> list[Article]:
    """Articles as the text file writes them (``key``, ``title``, ``clauses``)."""
    return [
        Article(
            entry["key"],
            entry["title"],
            [
                Clause(
                    clause["text"],
                    clause.get("title", ""),
                    [_sub_item(item) for item in clause.get("items", ())],
                    clause.get("after", ()),
                    clause.get("inserted", False),
                )
                for clause in entry["clauses"]
            ],
        )
        for entry in entries
    ]


def core_articles() -> list[Article]:
    """The body every scale carries: a complete, conventional UK-law services agreement."""
    return _articles(TEXT["articles"])


def base_threads() -> dict[str, Thread]:
    """The comment threads anchored in the core articles (scale 1 shows exactly these).

    Built afresh on each call: the writer adds the service modules' threads to the dict.
    """
    return {
        key: Thread(
            [CommentEntry(COMMENT_AUTHORS[c["by"]], c["text"]) for c in thread["comments"]],
            resolved=thread.get("resolved", False),
        )
        for key, thread in TEXT["comment threads"].items()
    }


def extended_articles() -> dict[str, list[Article]]:
    """Articles a large regulated outsourcing adds; keyed by the core article they follow.

    Used from ``--scale 2`` upwards: they make the big benchmark contract longer the way real
    bank outsourcing agreements are longer, with the regulatory and resilience terms the
    Prudential Regulation Authority expects for material outsourcing.
    """
    return {key: _articles(entries) for key, entries in TEXT["extended articles"].items()}


# -- Service modules (the parts of Schedule 1 and Schedule 2) -------------------------------------

#: (domain, Customer function served, what the service is for)
DOMAINS = [(d["domain"], d["function"], d["purpose"]) for d in TEXT["service domains"]]
SERVICE_TYPES = list(TEXT["service types"])
#: What each kind of service delivers (a Part picks four to six) ...
DELIVERABLES = {kind: spec["deliverables"] for kind, spec in TEXT["service types"].items()}
#: ... and the obligation peculiar to it.
TYPE_PARAGRAPH = {kind: spec["obligation"] for kind, spec in TEXT["service types"].items()}
#: Systems a module in each domain plausibly receives data from.
SOURCES = {
    domain: [TEXT["source systems"][system] for system in systems]
    for domain, systems in TEXT["domain sources"].items()
}
DEPENDENCIES = TEXT["customer dependencies"]
REPORTING = TEXT["monthly report items"]

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def money(value: int) -> str:
    """Pounds with thousands separators, as fee tables show them."""
    return f"\u00a3{value:,}"


def long_date(day: dt.date) -> str:
    """English legal date style, e.g. 30 June 2025."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


@dataclass
class Module:
    """One service module: a Part of Schedule 1 and the matching Part of Schedule 2."""

    index: int
    letter: str
    domain: str
    area: str
    purpose: str
    kind: str
    rng: random.Random
    reviser: str
    revise_p: float
    comment_p: float
    phase: int = 1
    values: dict[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The service's name as used in the schedules (later phases of a repeated service)."""
        return f"{self.domain} {self.kind}" + (f" (Phase {self.phase})" if self.phase > 1 else "")

    def rev(self, old: str, new: str) -> str:
        """Either the Supplier's drafting or the reviser's tracked change to it (seeded)."""
        if self.rng.random() >= self.revise_p:
            return old
        return (f"[-{old}-]" if old else "") + (f"[+{new}+]" if new else "")

    def want_comment(self) -> bool:
        """Whether this module gets the next optional comment (seeded)."""
        return self.rng.random() < self.comment_p


def part_letters(count: int) -> list[str]:
    """A, B, ..., Z, AA, AB, ...: how long schedules letter their parts."""
    letters = []
    for i in range(count):
        label = ""
        n = i
        while True:
            label = chr(ord("A") + n % 26) + label
            n = n // 26 - 1
            if n < 0:
                break
        letters.append(label)
    return letters


def make_modules(count: int, seed: int, two_revisers: bool) -> list[Module]:
    """Pick ``count`` distinct domain/service combinations; the first two are always the same.

    The first two modules are fixed so the bundled sample reads well whatever the seed; the
    rest are a seeded shuffle of all combinations, so a big contract repeats a service only
    beyond the 144 combinations, and then as a later "Phase" of it.
    """
    rng = random.Random(seed)
    fixed = [(0, "Platform"), (1, "Data Feed")]
    others = [(d, k) for d in range(len(DOMAINS)) for k in SERVICE_TYPES if (d, k) not in fixed]
    rng.shuffle(others)
    combos = fixed + others
    modules = []
    for i, letter in enumerate(part_letters(count)):
        phase, slot = divmod(i, len(combos))
        domain_index, kind = combos[slot]
        domain, area, purpose = DOMAINS[domain_index]
        reviser = PROCUREMENT if two_revisers and i % 3 == 2 else COUNSEL
        modules.append(
            Module(
                i,
                letter,
                domain,
                area,
                purpose,
                kind,
                random.Random(f"{seed}:{i}"),
                reviser,
                revise_p=0.14 if count > 2 else 0.0,
                comment_p=0.07 if count > 2 else 0.0,
                phase=phase + 1,
            )
        )
    return modules


def slots(template: str, **pieces: str) -> str:
    """``template`` with each ``<name>`` replaced by the piece the seed chose for it (a tracked
    change, a comment anchor, a number), its ``{...}`` values left for :meth:`Renderer.fmt`.

    The pieces go in first, as the text file's slots say, because an anchor carries values of
    its own (``{users}``) that are filled in with the rest of the sentence.
    """
    for name, piece in pieces.items():
        template = template.replace(f"<{name}>", piece)
    return template


def listify(items: Sequence[str]) -> list[str]:
    """Re-punctuate picked list items the way drafters do: "...;", "...; and", "...."."""
    bare = [re.sub(r"(; and|;|\.|,)$", "", item.strip()) for item in items]
    return [
        b + ("." if i == len(bare) - 1 else "; and" if i == len(bare) - 2 else ";")
        for i, b in enumerate(bare)
    ]


class Renderer:
    """Turns the content above into paragraphs through a :class:`Writer`.

    It owns the cross-reference table (article and schedule numbers depend on the scale) and
    the per-part numbering restarts of the schedules.
    """

    def __init__(self, wr: Writer, articles: list[Article], schedules: list[tuple[str, str]]) -> None:
        self.wr = wr
        self.articles = articles
        self.refs: dict[str, str] = {f"cl_{a.key}": str(i) for i, a in enumerate(articles, 1)}
        self.refs.update({f"sch_{key}": f"Schedule {i}" for i, (key, _) in enumerate(schedules, 1)})
        self.schedules = schedules
        self.numbering = wr.doc.part.numbering_part.element
        self.num_id = 0
        self._next_num = FIRST_SCHEDULE_NUM

    def fmt(self, text: str, extra: dict[str, str] | None = None) -> str:
        """Fill in cross-references (and module values) in a clause text."""
        return text.format_map({**self.refs, **(extra or {})})

    # -- schedule numbering ------------------------------------------------------------------

    def restart(self) -> None:
        """Start a new "1." sequence: a fresh w:num with startOverride, as Word's Restart at 1."""
        self.num_id = self._next_num
        self._next_num += 1
        self.numbering.append(
            parse_xml(
                f'<w:num {nsdecls("w")} w:numId="{self.num_id}"><w:abstractNumId w:val="{ABS_SCHEDULE}"/>'
                '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>'
            )
        )

    def s1(self, text: str, extra: dict[str, str] | None = None) -> None:
        """Schedule heading level ("1.")."""
        self.wr.paragraph("ScheduleLevel1", self.fmt(text, extra), (self.num_id, 0))

    def s2(self, text: str, extra: dict[str, str] | None = None) -> None:
        """Schedule paragraph level ("1.1")."""
        self.wr.paragraph("ScheduleLevel2", self.fmt(text, extra), (self.num_id, 1))

    def s3(self, items: Iterable[str], extra: dict[str, str] | None = None) -> None:
        """Schedule sub-paragraphs ("(a)")."""
        for item in items:
            self.wr.paragraph("SubClause", self.fmt(item, extra), (self.num_id, 2))

    def bullets(self, items: Iterable[str], extra: dict[str, str] | None = None) -> None:
        """The bulleted list style (its own single-level bullet list)."""
        for item in items:
            self.wr.paragraph("Bullet", self.fmt(item, extra))

    def schedule_title(self, key: str) -> None:
        """ "SCHEDULE n" and its subtitle, on a new page."""
        number = [k for k, _ in self.schedules].index(key) + 1
        self.wr.paragraph("ScheduleTitle", f"Schedule {number}")
        self.wr.paragraph("ScheduleSubtitle", dict(self.schedules)[key])

    def steps(self, content: Sequence[dict[str, Any]], generated: dict[str, Callable[[], None]]) -> None:
        """Write schedule wording from the text file, one step at a time.

        A step is a numbered ``heading`` ("1."), a ``paragraph`` ("1.1"), ``items`` ("(a)"), a
        ``table`` with its caption, or a ``generated`` part this code builds from the service
        modules (named in the text file so the wording around it stays in one place).
        """
        for step in content:
            if "heading" in step:
                self.s1(step["heading"])
            elif "paragraph" in step:
                self.s2(step["paragraph"])
            elif "items" in step:
                self.s3(step["items"])
            elif "generated" in step:
                generated[step["generated"]]()
            else:
                table = step["table"]
                self.wr.paragraph("TableText", table["caption"], keep_next=True)
                rows = [[self.fmt(cell) for cell in row] for row in table["rows"]]
                self.wr.table(
                    table["columns"], rows, table["widths"], right_align=table.get("right align", ())
                )

    # -- front matter and body ---------------------------------------------------------------

    def front_matter(self) -> None:
        """Cover page, parties and background, as on an English law firm's agreement."""
        self._styled_paragraphs(TEXT["cover page"])
        self.wr.page_break()
        self._styled_paragraphs(TEXT["opening"])

    def _styled_paragraphs(self, paragraphs: Sequence[dict[str, str]]) -> None:
        """Paragraphs written as ``style: text``, the parties' names filled in in capitals."""
        parties = {"supplier": SUPPLIER.upper(), "customer": CUSTOMER.upper()}
        for paragraph in paragraphs:
            ((style, text),) = paragraph.items()
            self.wr.paragraph(style, text.format_map(parties))

    def body(self) -> None:
        """All articles: Heading 1 articles, Heading 2 clauses, (a)/(i) items, definitions."""
        wr = self.wr
        for article in self.articles:
            wr.paragraph("Heading1", self.fmt(article.title))
            for clause in article.clauses:
                text = self.fmt(clause.text)
                if clause.title:
                    text = f"**{clause.title}.** {text}"
                wr.paragraph("Heading2", text, inserted=clause.inserted)
                for item in clause.subs:
                    if isinstance(item, tuple):
                        wr.paragraph("SubClause", self.fmt(item[0]), (NUM_LEGAL, 2))
                        for deeper in item[1]:
                            wr.paragraph("SubClause", self.fmt(deeper), (NUM_LEGAL, 3))
                    else:
                        wr.paragraph("SubClause", self.fmt(item), (NUM_LEGAL, 2))
                for text_after in clause.after:
                    wr.paragraph("Definition", self.fmt(text_after))
        wr.paragraph("Normal", TEXT["closing"])

    def signatures(self) -> None:
        """Execution block on its own page, in a borderless two-column table."""
        wr = self.wr
        execution = TEXT["execution"]
        wr.paragraph("ScheduleTitle", execution["title"])
        wr.paragraph("ScheduleSubtitle", "")
        rows = []
        for party in (SUPPLIER, CUSTOMER):
            rows.append([execution["signed by"].format(party=party.upper()), execution["signature"]])
            rows.append([execution["date"], execution["dated"]])
        wr.table([], rows, [4513, 4513], bordered=False)

    # -- Schedule 1 ----------------------------------------------------------------------------

    def schedule_services(self, modules: list[Module]) -> None:
        """Schedule 1: general service terms, then one Part per service module."""
        self.schedule_title("services")
        self.restart()
        module_list = [TEXT["service part"]["title"].format(letter=m.letter, name=m.name) for m in modules]
        self.steps(
            TEXT["services schedule"],
            {"list of service modules": lambda: self.bullets(listify(module_list))},
        )
        for module in modules:
            self.module_services(module)

    def module_services(self, m: Module) -> None:
        """One Part of Schedule 1 for module ``m`` (seeded numbers, revisions and comments)."""
        wr = self.wr
        rng = m.rng
        part = TEXT["service part"]
        wr.reviser = m.reviser
        kind_deliverables = DELIVERABLES[m.kind]
        picked = sorted(
            rng.sample(range(len(kind_deliverables)), k=min(len(kind_deliverables), rng.randint(4, 6)))
        )
        sources = rng.sample(SOURCES[m.domain], k=rng.randint(2, 3))
        notify_old, notify_new = rng.choice([(4, 2), (8, 4), (6, 2)])
        values = {
            "name": m.name,
            "letter": m.letter,
            "area": m.area,
            "purpose": m.purpose,
            "domain_lc": " ".join(x if x.isupper() else x.lower() for x in m.domain.split()),
            "sources": ", ".join(sources[:-1]) + " and " + sources[-1],
            "adhoc": str(rng.choice([4, 6, 8, 10])),
            "users": str(rng.choice([25, 40, 60, 80, 120, 150, 250])),
            "volume": f"{rng.choice([2, 5, 8, 12, 20, 35, 50]) * 100_000:,}",
            "unit": rng.choice(["records", "transactions", "events", "accounts", "messages"]),
            "pct": str(rng.choice([10, 15, 20])),
            "output_time": rng.choice(["07:00", "07:30", "08:00", "09:00"]),
            "preprod": str(rng.choice([5, 10])),
            "retention": str(rng.choice([5, 6, 7])),
            "report_days": str(rng.choice([5, 7, 10])),
        }
        m.values = values
        revised = part["revisions"]

        def rev(key: str) -> str:
            return m.rev(*revised[key])

        wr.paragraph("PartHeading", part["title"].format(letter=m.letter, name=m.name), jc="center")
        self.restart()
        self.s1(part["scope"])
        self.s2(part["introduction"], values)
        self.s2(part["comprises"], values)
        self.bullets(listify([kind_deliverables[i] for i in picked]), values)
        volumes = self._commented(m, "volumes", PROCUREMENT if m.reviser == PROCUREMENT else COUNSEL)
        self.s2(slots(part["volumes"], volumes=volumes(part["assumed volumes"])), values)
        self.s1(part["service description"])
        self.s2(slots(part["extracts"], notify=m.rev(str(notify_old), str(notify_new))), values)
        self.s2(part["configuration"], values)
        self.s3(part["configuration changes"], values)
        self.s2(slots(part["outputs"], late=rev("late")), values)
        self.s2(slots(part["releases"], notice=rev("notice")), values)
        self.s2(slots(part["audit trail"], longer=rev("longer")), values)
        self.s2(TYPE_PARAGRAPH[m.kind], values)
        self.s1(part["service levels"])
        levels = self._commented(m, "levels", COUNSEL)(part["service levels met"])
        self.s2(slots(part["meets service levels"], endeavours=rev("endeavours"), levels=levels), values)
        self._sla_table(m)
        cap = str(rng.choice([10, 12, 15]))
        sole = "[~not~]" if rng.random() < m.revise_p / 2 else "not"
        self.s2(slots(part["credits"], cap=cap, negation=sole), values)
        self.s1(part["customer dependencies"])
        self.s2(part["customer shall"], values)
        deps = sorted(rng.sample(range(len(DEPENDENCIES)), k=4))
        self.s3(listify([DEPENDENCIES[i] for i in deps]), values)
        self.s2(slots(part["dependency relief"], promptly=rev("promptly")), values)
        self.s1(part["implementation"])
        milestones = self._commented(m, "milestones", COUNSEL)(part["milestones met"])
        self.s2(slots(part["implements"], milestones=milestones), values)
        self._milestone_table(m)
        self.s2(part["acceptance"], values)
        self.s1(part["reporting"])
        self.s2(part["report"], values)
        items = sorted(rng.sample(range(len(REPORTING)), k=rng.randint(4, 6)))
        self.s3(listify([REPORTING[i] for i in items]), values)
        wr.reviser = COUNSEL

    def _commented(self, m: Module, topic: str, author: str) -> Callable[[str], str]:
        """Whether module ``m`` gets its comment on ``topic`` (seeded, decided now): a function
        wrapping an anchor text in that comment's mark-up, or leaving it as it is."""
        if not m.want_comment():
            return lambda anchor: anchor
        key = f"m{m.index}-{topic}"
        self.wr.threads[key] = self._module_thread(m, author, TEXT["service part"]["comments"][topic])
        return lambda anchor: f"[@{key}|{anchor}@]"

    def _module_thread(self, m: Module, author: str, thread: dict[str, Sequence[str]]) -> Thread:
        """A seeded comment, sometimes answered by the Supplier, sometimes resolved."""
        rng = m.rng
        entries = [CommentEntry(author, rng.choice(thread["comments"]).format_map({**self.refs, **m.values}))]
        if rng.random() < 0.4:
            entries.append(CommentEntry(SUPPLIER_COUNSEL, rng.choice(thread["replies"])))
        return Thread(entries, resolved=rng.random() < 0.25)

    def _sla_table(self, m: Module) -> None:
        """Table n.1: the service type's own first row, then the incident rows, with seeded figures."""
        rng = m.rng
        table = TEXT["service part"]["service level table"]

        def row(spec: dict[str, Any], *fields: str) -> list[str]:
            picks = [rng.choice(options) for options in spec["choices"]]
            return [spec[name].format(*picks, output_time=m.values["output_time"]) for name in fields]

        # every type's row is drawn (the seed's sequence stays the same whatever the type)
        first = {
            kind: row(spec, "level", "target", "measurement") for kind, spec in table["first row"].items()
        }
        rows = [first[m.kind] + row(table["first row credit"], "credit")]
        rows += [row(spec, "level", "target", "measurement", "credit") for spec in table["rows"]]
        self.wr.paragraph("TableText", table["caption"].format(letter=m.letter), keep_next=True)
        self.wr.table(table["columns"], rows, table["widths"], right_align=[3])

    def _milestone_table(self, m: Module) -> None:
        rng = m.rng
        table = TEXT["service part"]["milestone table"]
        day = dt.date(2025, 5, 1) + dt.timedelta(days=rng.randint(0, 120))
        rows = []
        for label, criteria in table["milestones"]:
            day += dt.timedelta(days=rng.randint(21, 56))
            rows.append([label, long_date(day), criteria])
        self.wr.paragraph("TableText", table["caption"].format(letter=m.letter), keep_next=True)
        self.wr.table(table["columns"], rows, table["widths"])

    # -- Schedule 2 ----------------------------------------------------------------------------

    def schedule_charges(self, modules: list[Module], detailed: bool) -> None:
        """Schedule 2: fee summary table with a total row, rate card, and (large) per-Part fees."""
        self.schedule_title("charges")
        self.restart()
        self.steps(TEXT["charges schedule"], {"summary of charges": lambda: self._charges_table(modules)})
        if detailed:
            for m in modules:
                self.module_charges(m)

    def _charges_table(self, modules: list[Module]) -> None:
        """Table 2.1: each Part's seeded fees, the fixed extras, and the totals."""
        wr = self.wr
        table = TEXT["service part"]["summary of charges"]
        rows = []
        totals = [0, 0, 0]
        for m in modules:
            impl = m.rng.randrange(40_000, 260_000, 5_000)
            annual = m.rng.randrange(90_000, 620_000, 10_000)
            m.values["impl"], m.values["annual"] = str(impl), str(annual)
            line = [impl, annual, impl + 3 * annual]
            totals = [a + b for a, b in zip(totals, line, strict=True)]
            rows.append([f"{m.letter}", m.name] + [money(v) for v in line])
        for ref, label, impl, annual in table["extras"]:
            line = [impl, annual, impl + 3 * annual]
            totals = [a + b for a, b in zip(totals, line, strict=True)]
            rows.append([ref, label] + [money(v) if v else "\u2014" for v in line])
        wr.paragraph("TableText", table["caption"], keep_next=True)
        wr.table(
            table["columns"],
            rows,
            table["widths"],
            total=["", table["total"]] + [money(v) for v in totals],
            right_align=[2, 3, 4],
        )

    def module_charges(self, m: Module) -> None:
        """Per-Part fee breakdown (large contracts only): a year-by-year table with a total."""
        wr = self.wr
        rng = m.rng
        part = TEXT["service part"]
        table = part["charges table"]
        wr.reviser = m.reviser
        impl, annual = int(m.values["impl"]), int(m.values["annual"])
        support = annual // 5
        subscription = annual - support
        wr.paragraph("PartHeading", part["title"].format(letter=m.letter, name=m.name), jc="center")
        self.restart()
        self.s1(part["charges"])
        charges = self._commented(m, "fees", PROCUREMENT)(part["charges set out"])
        self.s2(slots(part["charges introduction"], charges=charges), m.values)
        years = [1.0, 1.0 + rng.choice([0.0, 0.02, 0.03]), 1.0 + rng.choice([0.03, 0.05])]
        sub_row = [round(subscription * f, -2) for f in years]
        sup_row = [support] * 3
        impl_row = [impl, 0, 0]
        overage = rng.choice([120, 150, 180, 240])
        unit = m.values["unit"]
        rows = [
            table["implementation"] + [money(int(v)) if v else "\u2014" for v in impl_row],
            table["subscription"] + [money(int(v)) for v in sub_row],
            table["support"] + [money(int(v)) for v in sup_row],
            [
                table["overage"],
                m.rev(
                    table["overage rate"].format(rate=money(overage), unit=unit),
                    table["overage rate"].format(rate=money(overage - 30), unit=unit),
                ),
            ]
            + [table["as incurred"]] * 3,
        ]
        totals = [impl_row[i] + sub_row[i] + sup_row[i] for i in range(3)]
        wr.paragraph("TableText", table["caption"].format(letter=m.letter), keep_next=True)
        wr.table(
            table["columns"],
            rows,
            table["widths"],
            total=[table["total"], ""] + [money(int(v)) for v in totals],
            right_align=[2, 3, 4],
        )
        also = m.rev(*part["charges revisions"]["also"])
        self.s2(slots(part["credits deducted"], also=also), m.values)
        wr.reviser = COUNSEL


def extended_schedule(r: Renderer, key: str) -> None:
    """One of the schedules a large contract adds (security, exit, governance, data processing)."""
    r.schedule_title(key)
    r.restart()
    r.steps(TEXT["extended schedules"][key]["content"], {})


# --------------------------------------------------------------------------------------------
# Package assembly: header/footer, footnotes, comments parts, paragraph ids, properties
# --------------------------------------------------------------------------------------------

CORE_SCHEDULES = [("services", "Services Description"), ("charges", "Charges")]
EXTENDED_SCHEDULES = [(key, schedule["title"]) for key, schedule in TEXT["extended schedules"].items()]

#: Service modules added per scale step above 1; calibrated so --scale 20 lays out at about
#: 300 pages in LibreOffice (each module is roughly three pages across Schedules 1 and 2).
MODULES_PER_SCALE = 5.85


def module_count(scale: int) -> int:
    """Two modules at scale 1 (the sample); a roughly linear number of pages above that."""
    return 2 if scale <= 1 else 2 + round((scale - 1) * MODULES_PER_SCALE)


def setup_section(doc: DocxDocument, wr: Writer) -> None:
    """A4 page, header on every page but the cover, footer with real PAGE/NUMPAGES fields."""
    section = doc.sections[0]
    section.page_width, section.page_height = Mm(210), Mm(297)
    for side in ("left_margin", "right_margin", "top_margin", "bottom_margin"):
        setattr(section, side, Twips(1440))
    section.header_distance = section.footer_distance = Twips(708)
    section.different_first_page_header_footer = True
    # Touching the first-page header/footer creates them empty, so the cover stays clean.
    for story in (section.first_page_header, section.first_page_footer):
        _ = story.paragraphs

    header_p = section.header.paragraphs[0]._p
    _clear_paragraph(header_p)
    ppr = sub(header_p, "pPr")
    sub(ppr, "pStyle", val="Header")
    sub(sub(ppr, "pBdr"), "bottom", val="single", sz="4", space="4", color="auto")
    sub(ppr, "jc", val="right")
    wr.fill(header_p, TEXT["page header"])

    footer_p = section.footer.paragraphs[0]._p
    _clear_paragraph(footer_p)
    sub(sub(footer_p, "pPr"), "pStyle", val="Footer")
    wr.fill(footer_p, f"{TEXT['page footer']}\t\tPage ")
    _field(footer_p, "PAGE", "1")
    wr.fill(footer_p, " of ")
    _field(footer_p, "NUMPAGES", "1")


def _clear_paragraph(p: etree._Element) -> None:
    for child in list(p):
        p.remove(child)


def _field(p: etree._Element, instr: str, cached: str) -> None:
    """A simple field (w:fldSimple) with a cached result, as Word writes page numbers."""
    fld = sub(p, "fldSimple", instr=f" {instr} \\* MERGEFORMAT ")
    r = sub(fld, "r")
    sub(sub(r, "rPr"), "noProof")
    sub(r, "t").text = cached


def _root(tag: str, prefixes: Sequence[str], ignorable: str) -> etree._Element:
    """Root element of a part we write ourselves, declaring the prefixes it uses."""
    prefix, local = tag.split(":")
    nsmap = {p: NS[p] for p in dict.fromkeys(["w", "r", "mc", "w14", *prefixes])}
    root = etree.Element(f"{{{NS[prefix]}}}{local}", nsmap=nsmap)
    root.set(f"{{{NS['mc']}}}Ignorable", ignorable)
    return root


def footnotes_root(texts: Sequence[str]) -> etree._Element:
    """footnotes.xml with Word's two separator footnotes (ids -1 and 0) first."""
    root = _root("w:footnotes", [], "w14")
    for fn_id, kind in (("-1", "separator"), ("0", "continuationSeparator")):
        note = sub(root, "footnote", type=kind, id=fn_id)
        p = sub(note, "p")
        sub(sub(p, "pPr"), "spacing", after="0", line="240", lineRule="auto")
        sub(sub(p, "r"), kind)
    for i, text in enumerate(texts, 1):
        p = sub(sub(root, "footnote", id=str(i)), "p")
        sub(sub(p, "pPr"), "pStyle", val="FootnoteText")
        r = sub(p, "r")
        sub(sub(r, "rPr"), "rStyle", val="FootnoteReference")
        sub(r, "footnoteRef")
        t = sub(sub(p, "r"), "t")
        t.text = " " + text
        t.set(XML_SPACE, "preserve")
    return root


def comments_root(records: Sequence[CommentRecord], refs: dict[str, str]) -> etree._Element:
    """comments.xml: one paragraph per comment, led by the annotationRef mark."""
    root = _root("w:comments", [], "w14")
    for rec in records:
        comment = sub(
            root,
            "comment",
            id=str(rec.comment_id),
            author=rec.author,
            date=rec.date,
            initials=INITIALS[rec.author],
        )
        p = sub(comment, "p")
        sub(sub(p, "pPr"), "pStyle", val="CommentText")
        r = sub(p, "r")
        sub(sub(r, "rPr"), "rStyle", val="CommentReference")
        sub(r, "annotationRef")
        sub(sub(p, "r"), "t").text = rec.text.format_map(refs)
    return root


def _ms(prefix: str, tag: str) -> str:
    return f"{{{NS[prefix]}}}{tag}"


def comments_extended_root(records: Sequence[CommentRecord]) -> etree._Element:
    """commentsExtended.xml: reply threading (w15:paraIdParent) and resolved state (w15:done)."""
    root = _root("w15:commentsEx", ["w15"], "w14 w15")
    for rec in records:
        ex = etree.SubElement(root, _ms("w15", "commentEx"))
        ex.set(_ms("w15", "paraId"), rec.para_id)
        if rec.parent is not None:
            ex.set(_ms("w15", "paraIdParent"), rec.parent.para_id)
        ex.set(_ms("w15", "done"), "1" if rec.done else "0")
    return root


def comments_ids_root(records: Sequence[CommentRecord], rng: random.Random) -> etree._Element:
    """commentsIds.xml: the durable ids Word 2019+ uses to track comments across edits."""
    root = _root("w16cid:commentsIds", ["w16cid"], "w14 w16cid")
    used: set[int] = set()
    for rec in records:
        durable = rng.randrange(0x10000000, 0x7FFFFFFF)
        while durable in used:
            durable = rng.randrange(0x10000000, 0x7FFFFFFF)
        used.add(durable)
        el = etree.SubElement(root, _ms("w16cid", "commentId"))
        el.set(_ms("w16cid", "paraId"), rec.para_id)
        el.set(_ms("w16cid", "durableId"), f"{durable:08X}")
    return root


def people_root(authors: Iterable[str]) -> etree._Element:
    """people.xml: every comment and revision author, as Word lists them."""
    root = _root("w15:people", ["w15"], "w14 w15")
    for author in authors:
        person = etree.SubElement(root, _ms("w15", "person"))
        person.set(_ms("w15", "author"), author)
        info = etree.SubElement(person, _ms("w15", "presenceInfo"))
        info.set(_ms("w15", "providerId"), "None")
        info.set(_ms("w15", "userId"), author)
    return root


def assign_para_ids(roots: Iterable[etree._Element], rng: random.Random) -> None:
    """Give every paragraph a unique w14:paraId and a w14:textId (both below 0x80000000).

    Word writes them on every paragraph; comment threading (commentsExtended, commentsIds)
    refers to comment paragraphs by paraId, so they must be unique across the package.
    """
    used: set[int] = set()

    def fresh() -> str:
        value = rng.randrange(1, 0x80000000)
        while value in used:
            value = rng.randrange(1, 0x80000000)
        used.add(value)
        return f"{value:08X}"

    for root in roots:
        for p in root.iter(w("p")):
            p.set(W14_PARA_ID, fresh())
            p.set(W14_TEXT_ID, f"{rng.randrange(1, 0x80000000):08X}")


def add_part(doc: DocxDocument, name: str, content_type: str, reltype: str, root: etree._Element) -> None:
    """Serialise ``root`` as a new part related from the main document part."""
    blob = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    part = Part(PackURI(name), content_type, blob, doc.part.package)
    doc.part.relate_to(part, reltype)


def finish_settings(doc: DocxDocument) -> None:
    """Point settings at the separator footnotes (as Word does) and give zoom a percentage."""
    settings = doc.settings.element
    zoom = settings.find(w("zoom"))
    if zoom is not None:
        zoom.set(w("percent"), "100")
    fn_pr = parse_xml(
        f'<w:footnotePr {nsdecls("w")}><w:footnote w:id="-1"/><w:footnote w:id="0"/></w:footnotePr>'
    )
    settings.find(w("compat")).addprevious(fn_pr)


def set_properties(doc: DocxDocument) -> None:
    """Fixed core properties so the file is reproducible and looks like a real draft."""
    props = doc.core_properties
    described = TEXT["document properties"]
    props.title = described["title"]
    props.subject = f"{SUPPLIER} and {CUSTOMER}"
    props.author = SUPPLIER_COUNSEL
    props.last_modified_by = SUPPLIER_COUNSEL
    props.keywords = described["keywords"]
    props.category = "Contract"
    props.comments = described["comments"]
    props.content_status = "Draft"
    props.language = "en-GB"
    props.revision = 3
    props.created = CREATED
    props.modified = MODIFIED
    package = doc.part.package
    for rel_id, rel in list(package.rels.items()):
        if rel.reltype == RT.THUMBNAIL:  # the template's blank-page preview would mislead
            package.rels.pop(rel_id)


def normalise_zip(data: bytes) -> bytes:
    """Rewrite the package with fixed member timestamps so identical input gives identical bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            member = zipfile.ZipInfo(info.filename, date_time=ZIP_TIMESTAMP)
            member.compress_type = zipfile.ZIP_DEFLATED
            member.external_attr = 0o644 << 16
            dst.writestr(member, src.read(info.filename))
    return out.getvalue()


@dataclass
class BuildStats:
    """What went into the document (printed by the CLI, handy for the benchmark)."""

    modules: int
    paragraphs: int
    tables: int
    revisions: int
    comments: int
    footnotes: int
    revision_authors: list[str]


def articles_for(scale: int) -> list[Article]:
    """The core articles, plus the extended ones after their anchors when scale >= 2."""
    articles = core_articles()
    if scale < 2:
        return articles
    extra = extended_articles()
    result: list[Article] = []
    for article in articles:
        result.append(article)
        result.extend(extra.get(article.key, []))
    return result


def build(scale: int = 1, seed: int = 1) -> tuple[bytes, BuildStats]:
    """Generate the agreement; returns the .docx bytes and a summary."""
    if scale < 1:
        raise ValueError("scale must be at least 1")
    extended = scale >= 2
    doc = docx.Document()
    configure_styles(doc)
    configure_numbering(doc)
    threads = base_threads()
    wr = Writer(doc, threads)
    schedules = CORE_SCHEDULES + (EXTENDED_SCHEDULES if extended else [])
    renderer = Renderer(wr, articles_for(scale), schedules)
    modules = make_modules(module_count(scale), seed, two_revisers=extended)

    renderer.front_matter()
    renderer.body()
    renderer.schedule_services(modules)
    renderer.schedule_charges(modules, detailed=extended)
    if extended:
        for key, _ in EXTENDED_SCHEDULES:
            extended_schedule(renderer, key)
    renderer.signatures()
    setup_section(doc, wr)

    unused = set(threads) - wr.used_threads
    if unused:
        raise ValueError(f"comment threads never anchored: {sorted(unused)}")

    if len(wr.footnotes) >= FIRST_ANNOTATION_ID:
        raise ValueError("too many footnotes for the annotation id range")
    fn_root = footnotes_root(wr.footnotes)
    cm_root = comments_root(wr.comments, renderer.refs)
    story_roots = [doc.element] + [
        rel.target_part.element for rel in doc.part.rels.values() if rel.reltype in (RT.HEADER, RT.FOOTER)
    ]
    id_rng = random.Random(f"ids:{seed}:{scale}")
    assign_para_ids([*story_roots, fn_root, cm_root], id_rng)
    for rec, comment in zip(wr.comments, cm_root.findall(w("comment")), strict=True):
        rec.para_id = comment.find(w("p")).get(W14_PARA_ID)

    add_part(doc, "/word/footnotes.xml", CT.WML_FOOTNOTES, RT.FOOTNOTES, fn_root)
    add_part(doc, "/word/comments.xml", CT.WML_COMMENTS, RT.COMMENTS, cm_root)
    add_part(
        doc,
        "/word/commentsExtended.xml",
        CT_COMMENTS_EXTENDED,
        RT_COMMENTS_EXTENDED,
        comments_extended_root(wr.comments),
    )
    add_part(
        doc, "/word/commentsIds.xml", CT_COMMENTS_IDS, RT_COMMENTS_IDS, comments_ids_root(wr.comments, id_rng)
    )
    authors = sorted({rec.author for rec in wr.comments} | wr.revision_authors)
    add_part(doc, "/word/people.xml", CT_PEOPLE, RT_PEOPLE, people_root(authors))
    finish_settings(doc)
    set_properties(doc)

    buffer = io.BytesIO()
    doc.save(buffer)
    stats = BuildStats(
        modules=len(modules),
        paragraphs=sum(1 for _ in doc.element.body.iter(w("p"))),
        tables=wr.table_count,
        revisions=wr.revision_count,
        comments=len(wr.comments),
        footnotes=len(wr.footnotes),
        revision_authors=sorted(wr.revision_authors),
    )
    return normalise_zip(buffer.getvalue()), stats


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point: write the agreement to OUT.docx."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="output .docx path")
    parser.add_argument(
        "--scale", type=int, default=1, help="1 = the ~15-page bundled sample; 20 = ~300 pages (default 1)"
    )
    parser.add_argument("--seed", type=int, default=1, help="varies modules and numbers (default 1)")
    args = parser.parse_args(argv)
    if args.scale < 1:
        parser.error("--scale must be at least 1")
    started = time.perf_counter()
    data, stats = build(args.scale, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    print(
        f"wrote {args.out} ({len(data):,} bytes) in {time.perf_counter() - started:.1f} s: "
        f"{stats.paragraphs} paragraphs, {stats.tables} tables, {stats.modules} service modules, "
        f"{stats.revisions} tracked changes by {', '.join(stats.revision_authors)}, "
        f"{stats.comments} comments, {stats.footnotes} footnotes"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
