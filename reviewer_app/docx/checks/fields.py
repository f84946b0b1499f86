"""REF and PAGEREF fields: a cross-reference field whose bookmark is gone, or whose shown
paragraph number is no longer the bookmarked paragraph's number."""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml import etree

from ..xmlutil import W
from .model import Finding

_INSTRUCTION = re.compile(r"^\s*(REF|PAGEREF)\s+(\S+)(.*)$", re.S)


def _result_text(run: etree._Element) -> str:
    """The text Word shows for the complex field whose instruction is in ``run``."""
    parts: list[str] = []
    separated = False
    sibling = run.getnext()
    while sibling is not None:
        char = sibling.find(W + "fldChar")
        kind = char.get(W + "fldCharType") if char is not None else None
        if kind == "end":
            break
        if kind == "separate":
            separated = True
        elif separated:
            parts.extend(t.text or "" for t in sibling.iter(W + "t"))
        sibling = sibling.getnext()
    return "".join(parts)


def check(
    body: etree._Element,
    block_of: Callable[[etree._Element], tuple[str, str] | None],
    label_of: Callable[[etree._Element], str | None],
) -> tuple[list[Finding], dict[etree._Element, set[str]]]:
    """Broken and stale REF/PAGEREF fields of the main story, and the names of the bookmarks
    each paragraph holds (a re-check keeps the findings while those stay the same).

    ``block_of`` maps a paragraph to (block id, accepted text); ``label_of`` gives the number a
    paragraph shows (None when it has none).
    """
    bookmarks: dict[str, etree._Element] = {}
    marks: dict[etree._Element, set[str]] = {}
    for mark in body.iter(W + "bookmarkStart"):
        name = mark.get(W + "name") or ""
        bookmarks.setdefault(name, mark)
        paragraph = next(mark.iterancestors(W + "p"), None)
        if paragraph is not None:
            marks.setdefault(paragraph, set()).add(name)
    found: list[Finding] = []
    for instruction, result in _fields(body):
        m = _INSTRUCTION.match(instruction)
        if m is None:
            continue
        kind, name, switches = m.group(1), m.group(2), m.group(3)
        paragraph = next((a for a in instruction_anchor(result) if a.tag == W + "p"), None)
        located = block_of(paragraph) if paragraph is not None else None
        if located is None:
            continue
        block_id, text = located
        shown = result[1]
        start = text.find(shown) if shown else -1
        start, end = (start, start + len(shown)) if start >= 0 else (0, 0)
        target = bookmarks.get(name)
        if target is None:
            found.append(
                Finding(
                    "references",
                    "brokenFieldReference",
                    "error",
                    f"A {kind} field points at the bookmark “{name}”, which no longer exists.",
                    block_id,
                    start,
                    end,
                    text[start:end],
                    name,
                )
            )
            continue
        if kind == "REF" and re.search(r"\\[nrw]\b", switches) and shown:
            paragraph_of_mark = target if target.tag == W + "p" else next(target.iterancestors(W + "p"), None)
            label = label_of(paragraph_of_mark) if paragraph_of_mark is not None else None
            if label and shown.strip().rstrip(".") not in {label.strip().rstrip("."), label.strip()}:
                found.append(
                    Finding(
                        "references",
                        "staleFieldReference",
                        "warning",
                        f"The cross-reference shows “{shown.strip()}” but the paragraph it points at is now "
                        f"numbered {label}; update the field.",
                        block_id,
                        start,
                        end,
                        text[start:end],
                        name,
                    )
                )
    return found, marks


def instruction_anchor(result: tuple[etree._Element, str]) -> list[etree._Element]:
    return list(result[0].iterancestors())


def _fields(body: etree._Element) -> list[tuple[str, tuple[etree._Element, str]]]:
    out: list[tuple[str, tuple[etree._Element, str]]] = []
    for simple in body.iter(W + "fldSimple"):
        shown = "".join(t.text or "" for t in simple.iter(W + "t"))
        out.append((simple.get(W + "instr") or "", (simple, shown)))
    for instr in body.iter(W + "instrText"):
        run = instr.getparent()
        if run is None:
            continue
        out.append((instr.text or "", (run, _result_text(run))))
    return out
