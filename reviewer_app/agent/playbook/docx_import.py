"""Playbooks kept as a Word table, the way many firms keep them: one row per position.

The header row names the columns, in the firm's own words: "Issue", "Preferred position",
"Fallback position(s)", "Red line"... so headers are matched case-insensitively against the
synonyms in :data:`COLUMNS`. A fallback cell with several paragraphs or numbered lines is the
ordered list of fallbacks. A document without such a table gets an error that lists the headers
that were found, so the lawyer can see which column to rename.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import docx
from docx.opc.exceptions import PackageNotFoundError
from docx.table import Table, _Cell

from .model import Playbook, Position
from .yaml_format import DEFAULT_SEVERITY, POSITION_ID, PlaybookError

#: Position field -> the header words a firm uses for it (normalized: lower case, single spaces).
COLUMNS: dict[str, tuple[str, ...]] = {
    "id": ("id", "ref", "reference", "no", "number", "#"),
    "title": ("issue", "topic", "title", "clause", "subject", "heading", "provision"),
    "question": ("question", "question to answer", "what to check"),
    "standard": (
        "standard position",
        "preferred position",
        "our position",
        "standard",
        "preferred",
        "position",
        "first position",
    ),
    "fallbacks": ("fallback", "fallbacks", "fallback position", "fallback positions", "acceptable fallback"),
    "unacceptable": ("unacceptable", "red line", "red lines", "walk away", "walk-away", "not acceptable"),
    "guidance": ("guidance", "notes", "note", "comments", "commentary", "negotiation guidance"),
    "severity": ("severity", "priority", "importance", "risk"),
    "model_clause": (
        "model clause",
        "model wording",
        "sample clause",
        "suggested wording",
        "precedent wording",
    ),
}
#: A table is a playbook when it has at least these columns.
REQUIRED_COLUMNS: tuple[str, ...] = ("title", "standard")
#: Words a severity or priority cell may hold, for each severity.
SEVERITY_WORDS: dict[str, str] = {
    **dict.fromkeys(("high", "critical", "must have", "essential", "red", "1", "h"), "high"),
    **dict.fromkeys(("medium", "med", "moderate", "amber", "2", "m"), "medium"),
    **dict.fromkeys(("low", "minor", "nice to have", "green", "3", "l"), "low"),
}
#: A leading "1.", "2)", "(a)", "iv)", "-" or "•" in a fallback line: the list's own numbering.
_ENUMERATOR = re.compile(r"^\s*(?:\(?(?:\d{1,2}|[a-z]|[ivx]{1,4})[.)]|[-–•*·])\s+", re.IGNORECASE)


def playbook_from_docx(path: str | Path, name: str | None = None) -> Playbook:
    """The playbook in the first table of ``path`` whose header row names its columns.

    ``name`` defaults to the document's title property, else the file name. Raises
    :class:`PlaybookError` for a file that is not a .docx, a document without a playbook table
    (naming the headers found) and a row that cannot be a position (naming row and column).
    """
    path = Path(path)
    try:
        document = docx.Document(str(path))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise PlaybookError(path.name, f"is not a Word document (.docx) that can be read ({exc})") from None
    except OSError as exc:
        raise PlaybookError(path.name, f"cannot be read ({exc.strerror or exc})") from exc
    found: list[str] = []
    for number, table in enumerate(_tables(document.tables), start=1):
        header_row, columns, headers = _header(table)
        found.extend(h for h in headers if h and h not in found)
        if all(c in columns for c in REQUIRED_COLUMNS):
            positions = _positions(table, header_row, columns, path.name, number)
            if not positions:
                raise PlaybookError(path.name, f"table {number} has a header row but no positions below it")
            title = name or document.core_properties.title or path.stem.replace("-", " ").replace("_", " ")
            return Playbook(name=title, contract_type=title, positions=tuple(positions), source=str(path))
    if not found:
        raise PlaybookError(
            path.name, "has no table: a playbook document holds one table, one row per position"
        )
    listed = ", ".join(f'"{h}"' for h in found[:20])
    raise PlaybookError(
        path.name,
        f"has no table with an issue column and a standard position column (headers found: {listed}); "
        'name the columns for example "Issue", "Standard position", "Fallback", "Red line", '
        '"Guidance", "Severity"',
    )


def _tables(tables: list[Table]) -> Iterator[Table]:
    """Every table, nested ones after their parent (a firm's table sometimes sits in a layout table)."""
    for table in tables:
        yield table
        for row in table.rows:
            for cell in row.cells:
                yield from _tables(cell.tables)


def _normalize(header: str) -> str:
    text = header.lower().replace("(s)", "s").replace("’", "'")
    return " ".join(re.sub(r"[^a-z0-9#' -]+", " ", text).split()).strip(" -")


def column_for(header: str) -> str | None:
    """The position field a header names: an exact synonym first, else the longest one it contains."""
    text = _normalize(header)
    if not text:
        return None
    for field, words in COLUMNS.items():
        if text in words:
            return field
    contained = [
        (len(word), field)
        for field, words in COLUMNS.items()
        for word in words
        if len(word) > 2 and re.search(rf"\b{re.escape(word)}\b", text)
    ]
    return max(contained)[1] if contained else None


def _header(table: Table) -> tuple[int, dict[str, int], list[str]]:
    """The header row (one of the first three), its columns by field, and every header text seen."""
    seen: list[str] = []
    best: tuple[int, dict[str, int]] = (0, {})
    for index, row in enumerate(table.rows[:3]):
        texts = [cell.text.strip() for cell in row.cells]
        seen.extend(t for t in texts if t and t not in seen and len(t) <= 60)
        columns: dict[str, int] = {}
        for column, text in enumerate(texts):
            field = column_for(text)
            if field is not None and field not in columns:
                columns[field] = column
        if len(columns) > len(best[1]):
            best = (index, columns)
        if all(c in columns for c in REQUIRED_COLUMNS):
            return index, columns, seen
    return best[0], best[1], seen


def _positions(
    table: Table, header_row: int, columns: dict[str, int], source: str, number: int
) -> list[Position]:
    positions: list[Position] = []
    ids: set[str] = set()
    for row_number, row in enumerate(table.rows[header_row + 1 :], start=header_row + 2):
        cells = row.cells
        values = {
            field: _cell_lines(cells[column]) if column < len(cells) else []
            for field, column in columns.items()
        }
        flat = {field: "\n".join(lines) for field, lines in values.items()}
        if not flat["title"] and not flat["standard"]:
            continue  # a blank or spacer row
        where = f"table {number}, row {row_number}"
        for field in REQUIRED_COLUMNS:
            if not flat[field]:
                raise PlaybookError(
                    source,
                    f"{where}: the {field} cell is empty",
                    field=f"positions[{len(positions)}].{field}",
                )
        position_id = _unique_id(flat.get("id", ""), flat["title"], ids)
        positions.append(
            Position(
                id=position_id,
                title=" ".join(flat["title"].split()),
                question=flat.get("question")
                or f"Does the contract meet our standard position on {flat['title']}?",
                standard=flat["standard"],
                fallbacks=tuple(_ENUMERATOR.sub("", line) for line in values.get("fallbacks", [])),
                unacceptable=flat.get("unacceptable", ""),
                guidance=flat.get("guidance", ""),
                severity=_severity(flat.get("severity", ""), source, where, len(positions)),
                model_clause=flat.get("model_clause", ""),
            )
        )
    return positions


def _cell_lines(cell: _Cell) -> list[str]:
    """A cell's non-empty paragraphs and lines, in order (a soft line break also separates)."""
    return [line.strip() for p in cell.paragraphs for line in p.text.splitlines() if line.strip()]


def _unique_id(written: str, title: str, taken: set[str]) -> str:
    """The row's own reference when usable (e.g. "3.1"), else one made from the title."""
    candidate = written.strip().rstrip(".")
    if not POSITION_ID.fullmatch(candidate):
        words = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
        candidate = words[:40].rstrip("-") or "position"
    unique, n = candidate, 1
    while unique in taken:
        n += 1
        unique = f"{candidate}-{n}"
    taken.add(unique)
    return unique


def _severity(cell: str, source: str, where: str, index: int) -> str:
    text = _normalize(cell)
    if not text:
        return DEFAULT_SEVERITY
    if text in SEVERITY_WORDS:
        return SEVERITY_WORDS[text]
    raise PlaybookError(
        source,
        f'{where}: "{cell}" is not a severity (use High, Medium or Low)',
        field=f"positions[{index}].severity",
    )
