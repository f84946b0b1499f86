"""The document's outline as a lawyer reads it: headings and numbered clauses, nested, with full numbers.

The navigation pane lists these entries and Go To (Ctrl+G) looks clause numbers up in them.
A clause's full number is composed the way contracts cite it: a lettered or roman sub-clause
``(b)`` under clause ``14.3`` is ``14.3(b)``, and ``(ii)`` under that ``14.3(b)(ii)``; a
numbered label such as ``5.2`` or ``5.`` is complete by itself (``5``).

Pure Python over the snapshot's block model, so it is cheap to rebuild after every edit and
easy to test without a window. Labels are the list counter's, corrected as the contract checks
correct them (an empty numbered paragraph that only carries a section break is not counted), so
the numbers are the ones Word and LibreOffice show and the document's own cross-references use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..docx.blocks import Block
from ..docx.snapshot import Snapshot

#: how much of a clause's text an outline entry shows after its number
TITLE_CHARS = 80
_PART = re.compile(r"^\(?([0-9]{1,3}|[a-zA-Z]{1,6})\)$")
_LEADING_WORD = re.compile(r"^(?:article|section|clause|sub-?clause|paragraph|part)\s+", re.I)
_PAGE = re.compile(r"^(?:p|pg|page)\.?\s*(\d{1,5})$", re.I)
_SPACES = re.compile(r"\s+")
_ALNUM = re.compile(r"\w")


@dataclass(frozen=True, slots=True)
class OutlineEntry:
    """One heading or numbered clause: its block, the label printed, its full number and depth (1 = top)."""

    block_id: str
    label: str
    number: str
    title: str
    depth: int

    @property
    def caption(self) -> str:
        """What the navigation pane shows: ``5.2  Payment terms. The Customer shall…``."""
        return f"{self.label}  {self.title}" if self.label else self.title


def outline(snapshot: Snapshot) -> list[OutlineEntry]:
    """Every heading and numbered clause of the main story, in reading order.

    Numbered paragraphs inside tables (numbered rows of a schedule) are left out, as are bullets:
    the pane is a map of the clauses, not of every list.
    """
    entries: list[OutlineEntry] = []
    #: (depth, full number) of the entries a following one may nest under
    stack: list[tuple[int, str]] = []
    heading: tuple[int, int | None] | None = None  # (depth, numId) of the last heading
    for block in snapshot.blocks:
        if block.heading_level is None and block.display_label is None:
            continue  # most paragraphs of a contract: looked at no further
        if not block.normalized or block.kind == "diagnostic":
            continue
        label = block.shown_label
        numbered = label is not None and _ALNUM.search(label) is not None
        if block.heading_level is None and (not numbered or block.table is not None):
            continue
        depth = _depth(block, heading)
        if block.heading_level is not None:
            heading = (depth, block.list_reference["numId"] if block.list_reference else None)
        while stack and stack[-1][0] >= depth:
            stack.pop()
        number = _full_number(label if numbered else None, stack[-1][1] if stack else "")
        entries.append(OutlineEntry(block.id, label if numbered else "", number, _title(block.text), depth))
        stack.append((depth, number))
    return entries


def _depth(block: Block, heading: tuple[int, int | None] | None) -> int:
    """A heading's outline level; a list item's level, below the heading it follows unless that
    heading is numbered in the same list (then the list's levels already count the heading's)."""
    if block.heading_level is not None:
        return block.heading_level
    assert block.list_reference is not None
    level = block.list_reference["level"] + 1
    if heading is None or heading[1] == block.list_reference["numId"]:
        return level
    return heading[0] + level


def _full_number(label: str | None, parent: str) -> str:
    """``(b)`` under ``14.3`` → ``14.3(b)``; ``5.2.`` → ``5.2``; no label → the parent's number."""
    if label is None:
        return parent
    core = _LEADING_WORD.sub("", label.strip()).rstrip(".").strip()
    part = _PART.match(core)
    if part is not None and (core.startswith("(") or core.endswith(")")):
        return f"{parent}({part.group(1)})"
    return core


def _title(text: str) -> str:
    """The start of a clause's words on one line (a long clause is cut before its spaces are tidied)."""
    text = " ".join(text[: TITLE_CHARS * 2].split())
    return text if len(text) <= TITLE_CHARS else text[: TITLE_CHARS - 1].rstrip() + "…"


def normalize_number(text: str) -> str:
    """A clause number as typed or composed, compared without case, spaces, a leading word or a final dot."""
    core = _LEADING_WORD.sub("", text.strip())
    return _SPACES.sub("", core).rstrip(".").lower()


def find_clause(entries: list[OutlineEntry], text: str) -> OutlineEntry | None:
    """The first entry numbered ``text`` (``5.2``, ``14.3(b)``, ``Clause 7``), or None."""
    wanted = normalize_number(text)
    if not wanted:
        return None
    return next((e for e in entries if e.number and normalize_number(e.number) == wanted), None)


def page_request(text: str) -> int | None:
    """The 1-based page asked for by ``p 12``, ``p. 12``, ``page 12`` (None: not a page request)."""
    match = _PAGE.match(text.strip())
    return int(match.group(1)) if match else None
