"""The redline panel's rows: every tracked change with its section, date and page, and the filters.

Rows are rebuilt from :meth:`DocxReviewer.change_details` after every change to the document, so
the list is always what accept/reject will act on. Filtering lives in the model itself (a list
comprehension and one reset) rather than in a ``QSortFilterProxyModel``, whose per-row Python
callback would cost more than the whole rebuild on a contract with a thousand changes.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from ..agent.triage import Recommendation
from ..docx.reviewer import DocxReviewer
from ..docx.sections import parse_section, section_elements
from ..docx.xmlutil import W, is_on
from .comment_thread_widget import format_comment_date

#: 0-based page of a block (as ``PageIndex.page_of_block`` answers), None when not laid out
PageLookup = Callable[[str], int | None]
#: the agent's current recommendations for a change listing (``Triage.current``), by change id
RecommendationLookup = Callable[[list[dict[str, Any]]], Mapping[str, Recommendation]]

#: the change id of a row
CHANGE_ID_ROLE = Qt.ItemDataRole.UserRole + 1
#: the row's :class:`ChangeRow` (what the delegate paints)
CHANGE_ROW_ROLE = Qt.ItemDataRole.UserRole + 2

_EXCERPT_CHARS = 160
_TOOLTIP_CHARS = 600
_SECTION_TITLE_CHARS = 48

#: filter categories: what a reviewer sorts changes into, in menu order
CATEGORIES = ("insertion", "deletion", "move", "formatting", "paragraph", "table")
_PARAGRAPH_TYPES = frozenset(
    (
        "paragraphMarkInserted",
        "paragraphMarkDeleted",
        "paragraphPropertiesChanged",
        "sectionPropertiesChanged",
    )
)
_TEXT_EFFECTS = {
    "deletion": "deleted",
    "rowDeleted": "deleted",
    "cellDeleted": "deleted",
    "insertion": "inserted",
    "rowInserted": "inserted",
    "cellInserted": "inserted",
}


def _tr(text: str) -> str:
    return QCoreApplication.translate("RedlineModel", text)


def category_label(category: str) -> str:
    """The filter menu's name for a category."""
    return {
        "insertion": _tr("Insertions"),
        "deletion": _tr("Deletions"),
        "move": _tr("Moves"),
        "formatting": _tr("Formatting"),
        "paragraph": _tr("Paragraphs"),
        "table": _tr("Tables"),
    }[category]


def type_labels() -> dict[tuple[str, bool], str]:
    """What a row says for each (contract change type, moved) pair, translated once per rebuild."""
    labels = {
        "insertion": _tr("Inserted"),
        "deletion": _tr("Deleted"),
        "formatting": _tr("Formatted"),
        "rowInserted": _tr("Row inserted"),
        "rowDeleted": _tr("Row deleted"),
        "cellInserted": _tr("Cell inserted"),
        "cellDeleted": _tr("Cell deleted"),
        "cellMerged": _tr("Cells merged"),
        "paragraphMarkInserted": _tr("New paragraph"),
        "paragraphMarkDeleted": _tr("Paragraphs joined"),
        "paragraphPropertiesChanged": _tr("Paragraph format"),
        "sectionPropertiesChanged": _tr("Page setup"),
        "tablePropertiesChanged": _tr("Table format"),
        "rowPropertiesChanged": _tr("Row format"),
        "cellPropertiesChanged": _tr("Cell format"),
    }
    out = {(kind, False): text for kind, text in labels.items()}
    out[("deletion", True)] = _tr("Moved from")
    out[("insertion", True)] = _tr("Moved to")
    return out


def verdict_label(verdict: str) -> str:
    """The badge word for a recommendation (Agent ▸ Triage Their Changes)."""
    return {"accept": _tr("Accept"), "reject": _tr("Reject"), "counter": _tr("Counter")}[verdict]


def category_of(change_type: str, moved: bool) -> str:
    if moved:
        return "move"
    if change_type in ("insertion", "deletion", "formatting"):
        return change_type
    return "paragraph" if change_type in _PARAGRAPH_TYPES else "table"


class SectionIndex:
    """The section each main-story block falls under: the nearest heading at or before it.

    Built from :meth:`DocxReviewer.get_outline` once per document state; a lookup is a bisect
    over the headings' positions, so a thousand changes cost a thousand bisects.
    """

    def __init__(self, reviewer: DocxReviewer) -> None:
        snapshot = reviewer.snapshot()
        self._index_of = snapshot.index_of
        self._positions: list[int] = []
        self._labels: list[str] = []
        self._paths: list[str] = []
        path_of: dict[str, str] = {}
        for entry in reviewer.get_outline(max_depth=9)["sections"]:
            heading = entry["headingBlockId"]
            position = snapshot.index_of(heading)
            if position is None:
                continue
            heading_block = snapshot.block(heading)
            shown = heading_block.shown_label if heading_block is not None else None
            label = _section_label(shown, entry["text"])
            parent = (entry.get("parentHandle") or {}).get("headingBlockId")
            parent_path = path_of.get(parent, "") if parent else ""
            path_of[heading] = f"{parent_path} › {label}" if parent_path else label
            self._positions.append(position)
            self._labels.append(label)
            self._paths.append(path_of[heading])

    def section_of(self, block_id: str | None) -> tuple[str, str]:
        """(short label, full path for the tooltip) of the section holding ``block_id``."""
        position = self._index_of(block_id) if block_id else None
        if position is None or not self._positions:  # nowhere, or a document without headings
            return "", ""
        found = bisect.bisect_right(self._positions, position) - 1
        if found < 0:
            return _tr("Front matter"), _tr("Before the first heading")
        return self._labels[found], self._paths[found]


#: the same changes are listed again after every edit: their dates are formatted once
_date_text = functools.lru_cache(maxsize=8192)(format_comment_date)


@functools.lru_cache(maxsize=8192)
def _section_label(number: str | None, title: str) -> str:
    """The heading's number and the start of its title: ``3.3 Service Levels.``, ``Schedule 2``.

    Many contracts number their clauses as headings whose text is the whole clause; the first
    sentence (or the first words) is what a reader recognizes the clause by.
    """
    title = " ".join(title.split())
    if len(title) > _SECTION_TITLE_CHARS:
        stop = title.find(". ", 0, _SECTION_TITLE_CHARS)
        title = title[: stop + 1] if stop > 0 else title[:_SECTION_TITLE_CHARS].rsplit(" ", 1)[0] + "…"
    return f"{number} {title}" if number else title


def header_footer_places(reviewer: DocxReviewer) -> dict[str, str]:
    """Where each header and footer shows, by relationship id: "every page", "first page (section 2)".

    A header or footer has no page of its own: it repeats on the pages of the sections that use
    it, so that is what its changes' rows say. As Word does, a section that names none inherits
    the previous section's, a ``first`` one shows only with ``w:titlePg``, and with different
    even and odd headers ``default`` means odd pages.
    """
    document = reviewer.document
    settings = document.part_root("settings")
    even_odd = settings is not None and is_on(settings.find(W + "evenAndOddHeaders"))
    kinds = {
        "default": _tr("odd pages") if even_odd else _tr("every page"),
        "first": _tr("first page"),
        "even": _tr("even pages"),
    }
    sections = [parse_section(sect) for sect in section_elements(document.body)]
    uses: dict[str, dict[str, list[int]]] = {}
    headers: dict[str, str] = {}
    footers: dict[str, str] = {}
    for number, props in enumerate(sections, start=1):
        headers, footers = {**headers, **props.headers}, {**footers, **props.footers}
        for refs in (headers, footers):
            for kind, rel_id in refs.items():
                if (kind == "first" and not props.title_page) or (kind == "even" and not even_odd):
                    continue
                uses.setdefault(rel_id, {}).setdefault(kind, []).append(number)
    places = {}
    for rel_id, by_kind in uses.items():
        parts = []
        for kind, numbers in by_kind.items():
            shown = kinds.get(kind, kind)
            if len(numbers) < len(sections):
                shown = _tr("{0}, section {1}").format(shown, ", ".join(map(str, numbers)))
            parts.append(shown)
        places[rel_id] = "; ".join(parts)
    return places


def _story_label(story: dict[str, Any], places: dict[str, str]) -> str:
    """The row's section column outside the main story: ``Footer (every page)``, ``Footnote``."""
    label = {
        "header": _tr("Header"),
        "footer": _tr("Footer"),
        "footnote": _tr("Footnote"),
        "endnote": _tr("Endnote"),
    }.get(story.get("type", ""), _tr("Other story"))
    place = places.get(story.get("relationshipId") or "")
    return f"{label} ({place})" if place else label


def _excerpt(text: str) -> str:
    """The row's one-line excerpt; a change of only tabs, breaks or spaces says which it is
    (its text alone would show as "(no text)", like a change that has none)."""
    shown = " ".join(text[:_EXCERPT_CHARS].split())
    if shown or not text:
        return shown
    names = {"\t": _tr("tab"), "\n": _tr("line break")}
    found = dict.fromkeys(names.get(ch, _tr("space")) for ch in text[:_EXCERPT_CHARS])
    return "(" + ", ".join(found) + ")"


@dataclass(slots=True)
class ChangeRow:
    """One tracked change as the panel shows it (texts are computed once, at rebuild)."""

    id: str
    category: str
    #: "deleted" / "inserted" when the change removes or adds its text (drawn struck / underlined)
    text_effect: str | None
    author: str
    type_text: str
    excerpt: str
    tooltip: str
    date_text: str
    section: str
    section_path: str
    block_id: str | None
    page: int | None = None
    #: the agent's recommendation (accept / reject / counter) and its reason, when it gave one
    verdict: str | None = None
    verdict_reason: str = ""


def build_rows(reviewer: DocxReviewer, recommend: RecommendationLookup | None = None) -> list[ChangeRow]:
    """Every change of the document, main story first, with its section (pages come later) and
    the agent's recommendation for it when ``recommend`` has one."""
    sections: SectionIndex | None = None
    places: dict[str, str] | None = None
    labels = type_labels()
    rows = []
    changes = reviewer.change_details()
    advice = recommend(changes) if recommend is not None else {}
    for change in changes:
        block_id = change["locationBlockId"]
        if change["story"].get("type") == "main":
            sections = sections or SectionIndex(reviewer)
            section, path = sections.section_of(block_id)
        else:
            places = header_footer_places(reviewer) if places is None else places
            section = path = _story_label(change["story"], places)
        kind, moved, text, date = change["type"], change["moved"], change["text"], change["date"]
        recommendation = advice.get(change["id"])
        rows.append(
            ChangeRow(
                id=change["id"],
                category=category_of(kind, moved),
                text_effect=_TEXT_EFFECTS.get(kind),
                author=change["author"],
                type_text=labels.get((kind, moved), kind),
                excerpt=_excerpt(text),
                tooltip=text[:_TOOLTIP_CHARS] + ("…" if len(text) > _TOOLTIP_CHARS else ""),
                date_text=_date_text(date),
                section=section,
                section_path=path,
                block_id=block_id,
                verdict=recommendation.verdict if recommendation is not None else None,
                verdict_reason=recommendation.reason if recommendation is not None else "",
            )
        )
    return rows


class RedlineModel(QAbstractListModel):
    """All changes of the document (:attr:`all_rows`) and the filtered ones the view shows."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.all_rows: list[ChangeRow] = []
        self._shown: list[ChangeRow] = []
        self._row_of: dict[str, int] = {}
        self._author: str | None = None
        self._category: str | None = None
        self._needle = ""

    # ------------------------------------------------------------------ contents
    def set_rows(self, rows: list[ChangeRow]) -> None:
        self.all_rows = rows
        self._apply_filter()

    def set_filter(self, author: str | None, category: str | None, needle: str) -> None:
        """Show only ``author``'s changes of ``category`` containing ``needle`` (None/"" = any)."""
        self._author, self._category, self._needle = author, category, needle.casefold().strip()
        self._apply_filter()

    def _apply_filter(self) -> None:
        self.beginResetModel()
        author, category, needle = self._author, self._category, self._needle
        self._shown = [
            row
            for row in self.all_rows
            if (author is None or row.author == author)
            and (category is None or row.category == category)
            and (not needle or needle in row.tooltip.casefold() or needle in row.section.casefold())
        ]
        self._row_of = {row.id: i for i, row in enumerate(self._shown)}
        self.endResetModel()

    def set_pages(self, lookup: PageLookup | None) -> None:
        """Pages from ``lookup`` (0-based, shown 1-based); None blanks them."""
        for row in self.all_rows:
            page = lookup(row.block_id) if lookup is not None and row.block_id else None
            row.page = page + 1 if page is not None else None
        if self._shown:
            self.dataChanged.emit(self.index(0), self.index(len(self._shown) - 1))

    # ------------------------------------------------------------------ lookups
    def authors(self) -> list[str]:
        """Authors of all changes, in order of first appearance."""
        return list(dict.fromkeys(row.author for row in self.all_rows))

    def categories(self) -> list[str]:
        present = {row.category for row in self.all_rows}
        return [c for c in CATEGORIES if c in present]

    def shown_ids(self) -> list[str]:
        return [row.id for row in self._shown]

    def row_of(self, change_id: str) -> int | None:
        """The view row of a change (None when it is gone or filtered out)."""
        return self._row_of.get(change_id)

    def change_at(self, row: int) -> ChangeRow:
        return self._shown[row]

    # ------------------------------------------------------------------ Qt model
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._shown)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        row = self._shown[index.row()]
        if role == CHANGE_ROW_ROLE:
            return row
        if role == CHANGE_ID_ROLE:
            return row.id
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return describe(row)
        if role == Qt.ItemDataRole.ToolTipRole:
            parts = (row.tooltip, row.section_path, row.date_text, recommendation_text(row))
            return "\n".join(part for part in parts if part)
        return None

    def recommended(self, verdict: str) -> list[str]:
        """The changes the agent recommends ``verdict`` for, whatever the filters, in list order."""
        return [row.id for row in self.all_rows if row.verdict == verdict]


def recommendation_text(row: ChangeRow) -> str:
    """ "Recommended: Reject. <reason>" for a row the agent gave a recommendation for, else ""."""
    if row.verdict is None:
        return ""
    return _tr("Recommended: {0}. {1}").format(verdict_label(row.verdict), row.verdict_reason).strip()


def describe(row: ChangeRow) -> str:
    """One line saying everything the row shows (screen readers, copying, type-to-find)."""
    parts = [row.type_text, row.excerpt or _tr("(no text)"), row.author or _tr("(unknown)"), row.date_text]
    parts.append(row.section)
    if row.page is not None:
        parts.append(_tr("page {0}").format(row.page))
    parts.append(recommendation_text(row))
    return " · ".join(part for part in parts if part)


def merged_ranges(rows: Iterable[int]) -> list[tuple[int, int]]:
    """Sorted rows as inclusive (first, last) runs, so selecting many rows is a few ranges."""
    ranges: list[tuple[int, int]] = []
    for row in sorted(rows):
        if ranges and ranges[-1][1] == row - 1:
            ranges[-1] = (ranges[-1][0], row)
        else:
            ranges.append((row, row))
    return ranges


def next_shown(previous: list[str], anchor: str, row_of: Callable[[str], int | None]) -> str | None:
    """After a rebuild: the first change after ``anchor`` in the ``previous`` list that is still
    shown (``row_of`` answers), else the nearest one before it; None when none is."""
    if anchor not in previous:
        return None
    at = previous.index(anchor)
    return next((i for i in previous[at + 1 :] + previous[:at][::-1] if row_of(i) is not None), None)
