"""Run formatting of two text-equal blocks, character by character (contract §10 ``formatChanged``).

Only the seven properties the contract names are compared, from each run's own properties:
bold, italic, underline, strike, font family, font size and colour. A toggle that is absent and
one switched off both read as "off". When the two blocks' run texts cannot be aligned (a field
spanning paragraphs reads differently in isolation) detection backs off to "no change" rather
than blame the wrong characters.

:func:`format_ranges` turns the differences into ``formatRange`` payloads for the redline: the
revised values of exactly the properties that differ, per stretch of text, note markers left out
(a reference is not text).
"""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

from ..blocks import Block
from ..text import FieldState, NoteNumbers, paragraph_text
from ..xmlutil import W, on_off

PROPERTIES = ("bold", "italic", "underline", "strike", "fontFamily", "fontSizePt", "color")
_TOGGLES = {"bold": W + "b", "italic": W + "i", "strike": W + "strike"}
_HEX_COLOR = re.compile("[0-9A-F]{6}")
Props = tuple[Any, ...]
_EMPTY: Props = (None,) * len(PROPERTIES)
#: (start, end, properties, is a note marker) over a block's clean text.
Span = tuple[int, int, Props, bool]


def _toggle(el: etree._Element | None) -> bool | None:
    if el is None:
        return None
    return on_off(el.get(W + "val"), True)


def run_properties(run: etree._Element | None) -> Props:
    """The seven compared properties a run states itself (None = not stated)."""
    rpr = run.find(W + "rPr") if run is not None else None
    if rpr is None:
        return _EMPTY
    underline = rpr.find(W + "u")
    fonts = rpr.find(W + "rFonts")
    size = rpr.find(W + "sz")
    color = rpr.find(W + "color")
    family = None
    if fonts is not None:
        family = fonts.get(W + "ascii") or fonts.get(W + "hAnsi") or fonts.get(W + "cs")
    size_pt = None
    if size is not None:
        try:
            size_pt = int(size.get(W + "val", "")) / 2
        except ValueError:
            size_pt = None
        if size_pt is not None and size_pt <= 0:
            size_pt = None
    color_value = (color.get(W + "val") or "").upper() if color is not None else ""
    return (
        _toggle(rpr.find(_TOGGLES["bold"])),
        _toggle(rpr.find(_TOGGLES["italic"])),
        None if underline is None else (underline.get(W + "val") or "single") != "none",
        _toggle(rpr.find(_TOGGLES["strike"])),
        family,
        size_pt,
        color_value if _HEX_COLOR.fullmatch(color_value) else None,
    )


def _comparable(props: Props) -> Props:
    """Properties as a reader sees them: an absent toggle is off."""
    return tuple(bool(v) if i < 4 else v for i, v in enumerate(props))


def spans(block: Block) -> list[Span] | None:
    """Formatting spans over the block's text (None when they cannot be read in isolation)."""
    if block.element is None:
        return None
    read = paragraph_text(block.element, FieldState(), NoteNumbers(*block.notes_before), collect=True)
    if read.text != block.text:
        return None
    return [(pc.start, pc.end, run_properties(pc.run), pc.kind == "note") for pc in read.pieces or ()]


def _walk(a: list[Span], b: list[Span]) -> list[tuple[int, int, Props, Props, bool]]:
    """The two span lists cut at every boundary of either: (start, end, base, revised, note)."""
    out = []
    i = j = 0
    while i < len(a) and j < len(b):
        start = max(a[i][0], b[j][0])
        end = min(a[i][1], b[j][1])
        if start < end:
            out.append((start, end, a[i][2], b[j][2], a[i][3] or b[j][3]))
        if a[i][1] <= b[j][1]:
            i += 1
        else:
            j += 1
    return out


def _unstyled(block: Block) -> bool:
    """Cheap test: a paragraph with no run properties at all has nothing to compare."""
    return block.element is None or next(block.element.iter(W + "rPr"), None) is None


def _nothing_to_compare(base: Block, revised: Block) -> bool:
    """True when no formatting can differ: texts differ, neither is styled, or the XML is identical.

    Most paragraphs of two versions are byte-identical; serializing is far cheaper than walking.
    """
    if base.text != revised.text or (_unstyled(base) and _unstyled(revised)):
        return True
    if base.element is None or revised.element is None:
        return True
    return etree.tostring(base.element, with_tail=False) == etree.tostring(revised.element, with_tail=False)


def changed_properties(base: Block, revised: Block) -> list[str]:
    """The compared properties that differ anywhere between two text-equal blocks (contract order)."""
    if _nothing_to_compare(base, revised):
        return []
    a, b = spans(base), spans(revised)
    if a is None or b is None:
        return []
    changed: set[int] = set()
    for _s, _e, pa, pb, _note in _walk(a, b):
        ca, cb = _comparable(pa), _comparable(pb)
        if ca != cb:
            changed.update(k for k in range(len(PROPERTIES)) if ca[k] != cb[k])
    return [PROPERTIES[k] for k in sorted(changed)]


def format_ranges(base: Block, revised: Block) -> list[tuple[int, int, dict[str, Any]]]:
    """``(start, end, formatting)`` stretches of the base text to reformat as the revised reads.

    ``formatting`` holds the revised value of each differing property (``None`` clears it).
    Adjacent stretches with the same payload are joined; note markers are never included.
    """
    if _nothing_to_compare(base, revised):
        return []
    a, b = spans(base), spans(revised)
    if a is None or b is None:
        return []
    out: list[tuple[int, int, dict[str, Any]]] = []
    for start, end, pa, pb, note in _walk(a, b):
        ca, cb = _comparable(pa), _comparable(pb)
        if note or ca == cb:
            continue
        payload = {PROPERTIES[k]: pb[k] for k in range(len(PROPERTIES)) if ca[k] != cb[k]}
        if out and out[-1][1] == start and out[-1][2] == payload:
            out[-1] = (out[-1][0], end, payload)
        else:
            out.append((start, end, payload))
    return out
